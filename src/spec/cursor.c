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

/* value + 1, 0 for a character that is no hex digit */
const unsigned char cursor_hex_value[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};
