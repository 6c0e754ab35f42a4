/* gzip.c — Accept-Encoding and gzip compression with zlib (gzip.h). */
#include "gzip.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

/* A qvalue (RFC 9110 12.4.2): "0" or "1" optionally followed by '.' and up to three digits, "1" only with
 * zeros after the point. Returns the value in thousandths, or -1 when malformed. */
static int parse_qvalue(const char *s, size_t n)
{
    if (n == 0 || (s[0] != '0' && s[0] != '1'))
        return -1;
    int v = (s[0] - '0') * 1000;
    if (n == 1)
        return v;
    if (s[1] != '.' || n > 5)
        return -1;
    int scale = 100;
    for (size_t i = 2; i < n; i++, scale /= 10) {
        if (s[i] < '0' || s[i] > '9' || (s[0] == '1' && s[i] != '0'))
            return -1;
        v += (s[i] - '0') * scale;
    }
    return v;
}

static bool is_ows(char c)
{
    return c == ' ' || c == '\t';
}

bool ap_gzip_accepted(const char *ae)
{
    int gzip_q = -2, star_q = -2; /* -2: not listed */
    for (const char *p = ae; p != NULL && *p;) {
        /* one list element: coding *( OWS ";" OWS name "=" value ) */
        const char *end = strchr(p, ',');
        if (end == NULL)
            end = p + strlen(p);
        while (p < end && is_ows(*p))
            p++;
        const char *name = p;
        while (p < end && *p != ';' && !is_ows(*p))
            p++;
        size_t name_len = (size_t)(p - name);
        int q = 1000;
        while (p < end) {
            while (p < end && (is_ows(*p) || *p == ';'))
                p++;
            const char *param = p;
            while (p < end && *p != ';')
                p++;
            const char *stop = p;
            while (stop > param && is_ows(stop[-1]))
                stop--;
            if (stop - param >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=')
                q = parse_qvalue(param + 2, (size_t)(stop - param - 2));
        }
        if (q < 0)
            q = 0;
        if ((name_len == 4 && strncasecmp(name, "gzip", 4) == 0) || (name_len == 6 && strncasecmp(name, "x-gzip", 6) == 0))
            gzip_q = gzip_q == -2 || q > gzip_q ? q : gzip_q;
        else if (name_len == 1 && name[0] == '*')
            star_q = q;
        p = *end ? end + 1 : end;
    }
    if (gzip_q != -2)
        return gzip_q > 0;
    return star_q > 0;
}

char *ap_gzip_compress(const void *in, size_t len, int level, size_t *out_len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    /* windowBits 15 + 16: a gzip header and trailer around the deflate stream (zlib manual, deflateInit2). */
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    uLong cap = deflateBound(&zs, (uLong)len);
    char *out = malloc(cap);
    if (out == NULL || len > (size_t)(uInt)-1) {
        free(out);
        deflateEnd(&zs);
        return NULL;
    }
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)len;
    zs.next_out = (Bytef *)out;
    zs.avail_out = (uInt)cap;
    int rc = deflate(&zs, Z_FINISH);
    size_t n = zs.total_out;
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    *out_len = n;
    return out;
}

char *ap_gzip_answer(const void *in, size_t len, size_t *out_len)
{
    if (len < AP_GZIP_MIN_BYTES)
        return NULL;
    char *gz = ap_gzip_compress(in, len, AP_GZIP_LEVEL, out_len);
    if (gz != NULL && *out_len < len)
        return gz;
    free(gz);
    return NULL;
}
