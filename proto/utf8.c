/* utf8.c — UTF-8 checks and safe copies (see utf8.h). */
#include "utf8.h"

#include <string.h>

size_t ap_utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned int cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* overlong forms, surrogates, and code points above U+10FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

bool ap_utf8_valid(const char *s)
{
    if (s == NULL)
        return false;
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        size_t l = ap_utf8_seq_len(u + i, n - i);
        if (l == 0)
            return false;
        i += l;
    }
    return true;
}

void ap_utf8_copy(char *dst, size_t size, const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t n = strlen(src), i = 0, o = 0;
    while (i < n) {
        size_t l = ap_utf8_seq_len(s + i, n - i);
        if (l == 0) {
            if (o + 1 >= size)
                break;
            dst[o++] = '?';
            i++;
            continue;
        }
        if (o + l >= size)
            break;
        memcpy(dst + o, s + i, l);
        o += l;
        i += l;
    }
    dst[o] = '\0';
}
