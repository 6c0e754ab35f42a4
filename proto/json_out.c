/* json_out.c — the direct JSON writer (see json_out.h). */
#include "json_out.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../planner/base/status.h"
#include "utf8.h"

void ap_jbuf_init(ap_jbuf *b, char *storage, size_t cap)
{
    b->p = storage;
    b->cap = storage != NULL ? cap : 0;
    b->len = 0;
    b->heap = false;
    b->failed = false;
    b->bad_number = false;
    if (b->cap > 0)
        b->p[0] = '\0';
}

void ap_jbuf_reset(ap_jbuf *b)
{
    b->len = 0;
    b->failed = false;
    b->bad_number = false;
    if (b->cap > 0)
        b->p[0] = '\0';
}

void ap_jbuf_free(ap_jbuf *b)
{
    if (b == NULL)
        return;
    if (b->heap)
        free(b->p);
    ap_jbuf_init(b, NULL, 0);
}

void ap_jbuf_adopt(ap_jbuf *b, char *bytes, size_t len)
{
    ap_jbuf_free(b);
    b->p = bytes;
    b->len = len;
    b->cap = len;
    b->heap = true;
}

bool ap_jbuf_reserve(ap_jbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap >= 512 ? b->cap : 512;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *np = b->heap ? realloc(b->p, cap) : malloc(cap);
    if (np == NULL) {
        b->failed = true;
        return false;
    }
    if (!b->heap && b->len > 0)
        memcpy(np, b->p, b->len);
    b->p = np;
    b->cap = cap;
    b->heap = true;
    return true;
}

void ap_jbuf_str(ap_jbuf *b, const char *s)
{
    const unsigned char *u = (const unsigned char *)(s != NULL ? s : "");
    size_t n = strlen((const char *)u);
    if (!ap_jbuf_reserve(b, n + 2))
        return;
    b->p[b->len++] = '"';
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && u[run] >= 0x20 && u[run] < 0x80 && u[run] != '"' && u[run] != '\\')
            run++;
        if (run > i) {
            ap_jbuf_raw(b, (const char *)u + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = u[i];
        if (c >= 0x80) {
            size_t l = ap_utf8_seq_len(u + i, n - i);
            if (l == 0) {
                AP_JBUF_LIT(b, "?");
                i++;
            } else {
                ap_jbuf_raw(b, (const char *)u + i, l);
                i += l;
            }
            continue;
        }
        char esc[8];
        switch (c) {
        case '"': ap_jbuf_raw(b, "\\\"", 2); break;
        case '\\': ap_jbuf_raw(b, "\\\\", 2); break;
        case '\b': ap_jbuf_raw(b, "\\b", 2); break;
        case '\f': ap_jbuf_raw(b, "\\f", 2); break;
        case '\n': ap_jbuf_raw(b, "\\n", 2); break;
        case '\r': ap_jbuf_raw(b, "\\r", 2); break;
        case '\t': ap_jbuf_raw(b, "\\t", 2); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
            ap_jbuf_raw(b, esc, 6);
        }
        i++;
    }
    AP_JBUF_LIT(b, "\"");
}

size_t ap_u64_digits(char *out, uint64_t v)
{
    char rev[20];
    size_t n = 0;
    do {
        rev[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (size_t i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    return n;
}

void ap_jbuf_int(ap_jbuf *b, long long v)
{
    char tmp[24];
    size_t n = 0;
    uint64_t u = (uint64_t)v;
    if (v < 0) {
        tmp[n++] = '-';
        u = 0 - u; /* LLONG_MIN too */
    }
    n += ap_u64_digits(tmp + n, u);
    ap_jbuf_raw(b, tmp, n);
}

void ap_jbuf_u64(ap_jbuf *b, uint64_t v)
{
    ap_jbuf_int(b, v > (uint64_t)LLONG_MAX ? LLONG_MAX : (long long)v);
}

/* 5^0 .. 5^20 (5^20 < 2^47). */
static const uint64_t pow5[21] = {1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull,
                                   1953125ull, 9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull,
                                   30517578125ull, 152587890625ull, 762939453125ull, 3814697265625ull,
                                   19073486328125ull, 95367431640625ull};

/* "00" .. "99": two digits per division by 100. */
static const char two_digits[201] = "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
                                    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* v < 10^8 as exactly 8 decimal digits, zero-padded. */
static void put8(char *out, uint32_t v)
{
    for (int i = 6; i >= 0; i -= 2) {
        uint32_t q = v / 100u;
        memcpy(out + i, two_digits + 2u * (v - q * 100u), 2);
        v = q;
    }
}

/* "%.17g" for 1e-4 <= |d| < 1e15 (the magnitudes of lengths, costs and coordinates), exactly as glibc
 * prints it, but with integer arithmetic: |d| = m * 2^e (m < 2^53, read from the bits), and its 17
 * significant digits are N = round(|d| * 10^k) for k = 16 - floor(log10 |d|) in [2, 20], i.e.
 * m * 5^k * 2^(k + e), an exact product below 2^100 in 128 bits (5^20 < 2^47), rounded half to even on the
 * bits shifted out as printf does. Returns the length written at out (at most 24 bytes), or 0 outside that
 * range. */
static size_t real17(char *out, double d)
{
    static const double p10[] = {1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2,  1e3,  1e4,  1e5,
                                 1e6,  1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    double a = fabs(d);
    if (!(a >= 1e-4 && a < 1e15))
        return 0;
    int x = -4; /* floor(log10 a): the powers of ten here are exact doubles up to 1e22, and 1e-4.. are the
                 * doubles nearest them, which is what %g's own exponent choice compares against too */
    while (a >= p10[x + 5])
        x++;
    int k = 16 - x;
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits); /* a is normal here: m has its hidden bit */
    uint64_t m = (bits & ((1ull << 52) - 1)) | (1ull << 52);
    int e = (int)(bits >> 52) - 1075;
    unsigned __int128 p = (unsigned __int128)m * pow5[k];
    int sh = -(k + e);
    uint64_t n;
    if (sh <= 0) {
        n = (uint64_t)(p << -sh);
    } else {
        unsigned __int128 q = p >> sh, rem = p - (q << sh), half = (unsigned __int128)1 << (sh - 1);
        if (rem > half || (rem == half && (q & 1u)))
            q++;
        n = (uint64_t)q;
    }
    if (n >= 100000000000000000ull) { /* rounded up to 10^17: one digit more, one place up */
        n /= 10;
        x++;
    }
    char dig[17];
    uint64_t hi = n / 100000000u; /* < 10^9 */
    dig[0] = (char)('0' + hi / 100000000u);
    put8(dig + 1, (uint32_t)(hi % 100000000u));
    put8(dig + 9, (uint32_t)(n % 100000000u));
    int nd = 17;
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    size_t len = 0;
    if (signbit(d))
        out[len++] = '-';
    if (x >= 0) {
        for (int i = 0; i <= x; i++)
            out[len++] = i < nd ? dig[i] : '0';
        out[len++] = '.';
        if (nd > x + 1) {
            memcpy(out + len, dig + x + 1, (size_t)(nd - x - 1));
            len += (size_t)(nd - x - 1);
        } else {
            out[len++] = '0'; /* an integer: jansson's ".0" */
        }
    } else {
        out[len++] = '0';
        out[len++] = '.';
        for (int i = 0; i < -x - 1; i++)
            out[len++] = '0';
        memcpy(out + len, dig, (size_t)nd);
        len += (size_t)nd;
    }
    return len;
}

/* Dyadic numbers the shortcut of ap_jbuf_real writes: multiples of 2^-AP_DYADIC_BITS below AP_DYADIC_MAX. Their
 * exact decimal has at most 6 integer and 10 fraction digits, 16 significant digits, so %.17g prints it
 * exactly, trailing zeros dropped, without an exponent (the smallest, 2^-10 ~ 0.00098, is above %g's 1e-4
 * switch to exponents). */
#define AP_DYADIC_BITS 10
#define AP_DYADIC_MAX 1e6

/* jansson's jsonp_dtostr with precision 17 ("%.17g", ".0" added to integers, exponent zeros dropped).
 * Why the shortcut: most numbers of an answer are cell centres, integral costs and other multiples of a
 * small power of two, and snprintf's exact double-to-decimal costs ~2,000 instructions each — a quarter of
 * a short query's server time. The shortcut writes the same bytes with integer arithmetic
 * (tests/proto/test_json.c compares the two paths). */
void ap_jbuf_real(ap_jbuf *b, double d)
{
    if (!isfinite(d)) {
        b->failed = b->bad_number = true;
        return;
    }
    d += 0.0; /* -0 is 0: a heading, sweep or speed that came to zero from below printed "-0.0" (a helper) */
    char tmp[40];
    double scaled = d * (double)(1u << AP_DYADIC_BITS); /* exact: a power of two */
    if (fabs(d) < AP_DYADIC_MAX && scaled == floor(scaled)) {
        size_t n = 0;
        if (signbit(d))
            tmp[n++] = '-';
        uint64_t k = (uint64_t)fabs(scaled);
        n += ap_u64_digits(tmp + n, k >> AP_DYADIC_BITS);
        tmp[n++] = '.';
        /* the fraction f / 2^10 with t trailing zero bits is (f >> t) * 5^nd / 10^nd, nd = 10 - t: exactly nd
         * decimal digits, the last one a 5 (what trailing zeros dropped from f * 5^10 leave); "0" for none */
        unsigned f = (unsigned)(k & ((1u << AP_DYADIC_BITS) - 1));
        if (f == 0) {
            tmp[n++] = '0';
        } else {
            int t = __builtin_ctz(f), nd = AP_DYADIC_BITS - t;
            uint64_t digits = (uint64_t)(f >> t) * pow5[nd]; /* < 10^nd */
            for (int i = nd - 1; i >= 0; i--, digits /= 10)
                tmp[n + (size_t)i] = (char)('0' + digits % 10);
            n += (size_t)nd;
        }
        ap_jbuf_raw(b, tmp, n);
        return;
    }
    size_t fast = real17(tmp, d);
    if (fast > 0) {
        ap_jbuf_raw(b, tmp, fast);
        return;
    }
    int n = snprintf(tmp, sizeof tmp, "%.17g", d);
    if (n < 0 || (size_t)n >= sizeof tmp - 3) {
        b->failed = true;
        return;
    }
    size_t len = (size_t)n;
    if (strchr(tmp, '.') == NULL && strchr(tmp, 'e') == NULL) {
        tmp[len++] = '.';
        tmp[len++] = '0';
        tmp[len] = '\0';
    }
    char *start = strchr(tmp, 'e');
    if (start != NULL) {
        start++;
        char *end = start + 1;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, len - (size_t)(end - tmp) + 1);
            len -= (size_t)(end - start);
        }
    }
    ap_jbuf_raw(b, tmp, len);
}

void ap_jbuf_point(ap_jbuf *b, double x, double y)
{
    AP_JBUF_LIT(b, "[");
    ap_jbuf_real(b, x);
    AP_JBUF_LIT(b, ",");
    ap_jbuf_real(b, y);
    AP_JBUF_LIT(b, "]");
}

static void segment(ap_jbuf *b, const ap_segment *s, const ap_seg_time *tm)
{
    bool arc = s->type == AP_SEG_ARC, turn = s->type == AP_SEG_TURN;
    if (arc)
        AP_JBUF_LIT(b, "{\"type\":\"arc\",\"start\":");
    else if (turn)
        AP_JBUF_LIT(b, "{\"type\":\"turn\",\"start\":");
    else
        AP_JBUF_LIT(b, "{\"type\":\"line\",\"start\":");
    ap_jbuf_point(b, s->x0, s->y0);
    AP_JBUF_LIT(b, ",\"end\":");
    ap_jbuf_point(b, s->x1, s->y1);
    if (arc || turn) {
        if (arc) {
            AP_JBUF_LIT(b, ",\"center\":");
            ap_jbuf_point(b, s->cx, s->cy);
            AP_JBUF_LIT(b, ",\"radius\":");
            ap_jbuf_real(b, s->radius);
        }
        AP_JBUF_LIT(b, ",\"start_heading\":");
        ap_jbuf_real(b, s->heading);
        AP_JBUF_LIT(b, ",\"sweep\":");
        ap_jbuf_real(b, s->sweep);
    } else {
        AP_JBUF_LIT(b, ",\"heading\":");
        ap_jbuf_real(b, s->heading);
    }
    AP_JBUF_LIT(b, ",\"length\":");
    ap_jbuf_real(b, s->length);
    if (s->reverse)
        AP_JBUF_LIT(b, ",\"reverse\":true");
    if (tm != NULL) {
        AP_JBUF_LIT(b, ",\"v_start\":");
        ap_jbuf_real(b, tm->v_start);
        AP_JBUF_LIT(b, ",\"v_end\":");
        ap_jbuf_real(b, tm->v_end);
        AP_JBUF_LIT(b, ",\"t_start\":");
        ap_jbuf_real(b, tm->t_start);
        AP_JBUF_LIT(b, ",\"duration\":");
        ap_jbuf_real(b, tm->duration);
    }
    AP_JBUF_LIT(b, "}");
}

void ap_jbuf_segments_timed(ap_jbuf *b, const ap_segment *segs, const ap_seg_time *timing, size_t n)
{
    AP_JBUF_LIT(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            AP_JBUF_LIT(b, ",");
        segment(b, &segs[i], timing != NULL ? &timing[i] : NULL);
    }
    AP_JBUF_LIT(b, "]");
}

void ap_jbuf_segments(ap_jbuf *b, const ap_segment *segs, size_t n)
{
    ap_jbuf_segments_timed(b, segs, NULL, n);
}

int ap_jbuf_status(const ap_jbuf *b)
{
    return b->failed ? AP_E_NOMEM : AP_OK;
}

char *ap_jbuf_take(ap_jbuf *b, size_t *len)
{
    if (b->failed || b->p == NULL) {
        ap_jbuf_free(b);
        return NULL;
    }
    if (len != NULL)
        *len = b->len;
    return b->p; /* heap: ap_jbuf_init(NULL) storage always moves to the heap on the first write */
}
