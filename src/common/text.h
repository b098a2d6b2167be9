/* Small facts about input text shared by every reader of it. */
#ifndef GISA_COMMON_TEXT_H
#define GISA_COMMON_TEXT_H
#include <stddef.h>
#include <string.h>

/* The length of a UTF-8 byte-order mark at the start of s (0 or 3): editors
 * on some systems write one; every reader skips it. */
static inline size_t utf8_bom_len(const char *s, size_t n)
{
    return n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

/* Length of the UTF-8 sequence at p (RFC 3629: no overlongs, surrogates or
 * values past U+10FFFF), or 0 when it is not one. */
static inline size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (!n || c > 0xF4 || (size_t)(end - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) || (c == 0xF0 && p[1] < 0x90) ||
        (c == 0xF4 && p[1] > 0x8F))
        return 0;
    return n;
}
#endif
