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
#endif
