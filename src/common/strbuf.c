#include "common/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(strbuf *b) { memset(b, 0, sizeof *b); }
void sb_free(strbuf *b)
{
    free(b->s);
    sb_init(b);
}

int sb_reserve(strbuf *b, size_t extra)
{
    if (b->failed)
        return 0;
    if (b->len + extra + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->s, cap);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->s = p;
    b->cap = cap;
    return 1;
}

void sb_putn(strbuf *b, const char *s, size_t n)
{
    if (!sb_reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void sb_puts(strbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }
void sb_putc(strbuf *b, char c) { sb_putn(b, &c, 1); }

void sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || !sb_reserve(b, (size_t)n))
        return;
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

char *sb_take(strbuf *b)
{
    if (!b->s && !b->failed)
        sb_reserve(b, 0);
    char *s = b->s;
    if (b->failed) {
        free(s);
        s = NULL;
    }
    sb_init(b);
    return s;
}

void str_join_list(char *buf, size_t cap, const char *const *items, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && used < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", items[i]);
        used = w < 0 ? cap : used + (size_t)w;
    }
    if (used >= cap)
        memcpy(buf + cap - 4, "...", 4);
}
