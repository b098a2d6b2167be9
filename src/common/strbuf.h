/* Growable NUL-terminated string buffer (heap). */
#ifndef GISA_COMMON_STRBUF_H
#define GISA_COMMON_STRBUF_H
#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *s;
    size_t len, cap;
    int failed;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
/* Room for `extra` more bytes and a NUL at b->s + b->len (for writers that
 * format in place and then advance b->len): 1, or 0 when out of memory. */
int sb_reserve(strbuf *b, size_t extra);
void sb_putn(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_putc(strbuf *b, char c);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
/* items[0..n) joined by ", " into buf[cap] (cap >= 4), ending in "..." when
 * cut: a list of paths for a message. */
void str_join_list(char *buf, size_t cap, const char *const *items, size_t n);
/* Hands the string to the caller (malloc'd, never NULL unless out of memory). */
char *sb_take(strbuf *b);
#endif
