/* A cursor over one line of text with column tracking, shared by the
 * description-language parser and the assembler's lexer. */
#ifndef GISA_SPEC_CURSOR_H
#define GISA_SPEC_CURSOR_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct cursor {
    const char *s; /* start of the line */
    size_t n;      /* line length (no newline) */
    size_t i;      /* current offset */
} cursor;

static inline int cur_eof(const cursor *c) { return c->i >= c->n; }
static inline char cur_peek(const cursor *c) { return c->i < c->n ? c->s[c->i] : 0; }
static inline char cur_peek2(const cursor *c) { return c->i + 1 < c->n ? c->s[c->i + 1] : 0; }
static inline int cur_col(const cursor *c) { return (int)c->i + 1; }

static inline int is_ident_start(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$';
}
static inline int is_ident_char(char ch) { return is_ident_start(ch) || (ch >= '0' && ch <= '9'); }
static inline int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* By table: whether a character of a hex number is a digit or a letter is
 * as random as the number (a mispredicted branch per digit). */
extern const unsigned char cursor_hex_value[256];
static inline int hex_digit(char ch) { return cursor_hex_value[(unsigned char)ch] - 1; }

/* Splits text into lines: from *pos, gives [*b, *e) without the newline and
 * advances *pos past it. Returns 0 at the end of the text. */
static inline int next_line(const char *text, size_t len, size_t *pos, size_t *b, size_t *e)
{
    if (*pos >= len)
        return 0;
    *b = *pos;
    const char *nl = memchr(text + *pos, '\n', len - *pos);
    *e = nl ? (size_t)(nl - text) : len;
    *pos = nl ? *e + 1 : len;
    return 1;
}

static inline void cur_skip_ws(cursor *c)
{
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\r'))
        c->i++;
}

/* Reads an unsigned integer literal (decimal or 0x hex); returns 1 on success.
 * Overflow beyond 64 bits fails. Inline: the assembler's hot path. */
static inline int cur_uint(cursor *c, uint64_t *v)
{
    cur_skip_ws(c);
    size_t b = c->i;
    uint64_t x = 0;
    if (c->i + 1 < c->n && c->s[c->i] == '0' && (c->s[c->i + 1] == 'x' || c->s[c->i + 1] == 'X')) {
        c->i += 2;
        size_t d = c->i;
        int h;
        while (c->i < c->n && (h = hex_digit(c->s[c->i])) >= 0) {
            if (x >> 60) {
                c->i = b;
                return 0;
            }
            x = x * 16 + (uint64_t)h;
            c->i++;
        }
        if (c->i == d) {
            c->i = b;
            return 0;
        }
    } else {
        if (c->i >= c->n || !is_digit(c->s[c->i]))
            return 0;
        while (c->i < c->n && is_digit(c->s[c->i])) {
            uint64_t d = (uint64_t)(c->s[c->i] - '0');
            if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, d, &x)) {
                c->i = b;
                return 0;
            }
            c->i++;
        }
    }
    if (c->i < c->n && is_ident_char(c->s[c->i])) { /* "12abc" is not a number */
        c->i = b;
        return 0;
    }
    *v = x;
    return 1;
}

/* True when only white space or a // comment remains. */
int cur_at_end(cursor *c);
/* Consumes ch (after white space); returns 1 on success. */
int cur_eat(cursor *c, char ch);
/* Reads an identifier ([A-Za-z_$][A-Za-z0-9_$]*); returns its length (0: none). */
size_t cur_ident(cursor *c, const char **start);
/* Reads a word of identifier characters that may start with a digit (".32", ".2A"). */
size_t cur_word(cursor *c, const char **start);
/* Reads a "..." string without escapes; returns its length or -1. */
long cur_string(cursor *c, const char **start);
#endif
