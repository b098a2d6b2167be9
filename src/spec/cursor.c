#include "spec/cursor.h"

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
