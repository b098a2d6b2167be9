#include "spec/cursor.h"

void cur_skip_ws(cursor *c)
{
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\r'))
        c->i++;
}

int cur_at_end(cursor *c)
{
    cur_skip_ws(c);
    return c->i >= c->n || (c->s[c->i] == '/' && cur_peek2(c) == '/');
}

int cur_eat(cursor *c, char ch)
{
    cur_skip_ws(c);
    if (c->i < c->n && c->s[c->i] == ch) {
        c->i++;
        return 1;
    }
    return 0;
}

size_t cur_ident(cursor *c, const char **start)
{
    cur_skip_ws(c);
    size_t b = c->i;
    if (b >= c->n || !is_ident_start(c->s[b]))
        return 0;
    while (c->i < c->n && is_ident_char(c->s[c->i]))
        c->i++;
    *start = c->s + b;
    return c->i - b;
}

size_t cur_word(cursor *c, const char **start)
{
    size_t b = c->i;
    while (c->i < c->n && is_ident_char(c->s[c->i]))
        c->i++;
    *start = c->s + b;
    return c->i - b;
}

int cur_uint(cursor *c, uint64_t *v)
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

long cur_string(cursor *c, const char **start)
{
    cur_skip_ws(c);
    if (c->i >= c->n || c->s[c->i] != '"')
        return -1;
    size_t b = ++c->i;
    while (c->i < c->n && c->s[c->i] != '"')
        c->i++;
    if (c->i >= c->n)
        return -1;
    *start = c->s + b;
    return (long)(c->i++ - b);
}
