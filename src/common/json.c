/* JSON pull parser (json.h). */
#include "common/json.h"

#include <stdio.h>
#include <string.h>

#include "common/text.h"

#define JSON_MAX_DEPTH 64

void json_init(json_parser *j, const char *text, size_t len)
{
    memset(j, 0, sizeof *j);
    j->text = j->p = j->line_start = text;
    j->end = text + len;
    j->line = 1;
}

/* Columns count characters: on a line with non-ASCII text they are counted
 * from the last column asked for on that line, not from the line's start,
 * so that a long line of many values (a language-server message is one
 * line) costs one pass, not one per value. */
static int column(json_parser *j, const char *at)
{
    if (!j->line_utf8)
        return (int)(at - j->line_start) + 1;
    if (j->col_at < j->line_start || j->col_at > at) {
        j->col_at = j->line_start;
        j->col_n = 1;
    }
    for (const char *q = j->col_at; q < at; q++)
        j->col_n += ((unsigned char)*q & 0xC0) != 0x80;
    j->col_at = at;
    return j->col_n;
}

static int fail(json_parser *j, const char *at, const char *msg)
{
    if (!j->failed) {
        j->failed = 1;
        j->err_line = j->line;
        j->err_col = column(j, at);
        snprintf(j->error, sizeof j->error, "%s", msg);
    }
    return -1;
}

static void space(json_parser *j)
{
    const char *p = j->p;
    for (; p < j->end; p++) {
        if (*p == '\n') {
            j->line++;
            j->line_start = p + 1;
            j->line_utf8 = 0;
        } else if (*p != ' ' && *p != '\t' && *p != '\r') {
            break;
        }
    }
    j->p = p;
}

static int hex4(const char *p, const char *end, unsigned *out)
{
    unsigned v = 0;
    if (end - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v << 4 | (unsigned)d;
    }
    *out = v;
    return 0;
}

/* A byte a string holds as it is: not '"', '\\', a control character or
 * part of a UTF-8 sequence. */
static inline int plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

static int string(json_parser *j, json_val *v)
{
    const char *p = j->p + 1;
    v->escaped = 0;
    for (;;) {
        while (p < j->end && plain((unsigned char)*p))
            p++;
        if (p >= j->end)
            return fail(j, j->p, "unterminated string");
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(j, p, "control character in a string (write it as an escape)");
        if (c >= 0x80) {
            size_t n = utf8_len((const unsigned char *)p, (const unsigned char *)j->end);
            if (!n)
                return fail(j, p, "invalid UTF-8 in a string");
            j->line_utf8 = 1; /* columns on this line count characters from here on */
            p += n;
            continue;
        }
        v->escaped = 1; /* a backslash */
        if (p + 1 >= j->end)
            return fail(j, p, "unterminated string");
        unsigned u;
        if (strchr("\"\\/bfnrt", p[1]) && p[1])
            p += 2;
        else if (p[1] == 'u' && !hex4(p + 2, j->end, &u))
            p += 6;
        else
            return fail(j, p, "invalid escape in a string");
    }
    v->type = JSON_STRING;
    v->s = j->p + 1;
    v->n = (size_t)(p - v->s);
    j->p = p + 1;
    return 0;
}

static int number(json_parser *j, json_val *v)
{
    const char *p = j->p, *e = j->end;
    if (p < e && *p == '-')
        p++;
    if (p < e && *p == '0')
        p++;
    else if (p < e && *p >= '1' && *p <= '9')
        while (p < e && *p >= '0' && *p <= '9')
            p++;
    else
        return fail(j, j->p, "invalid number");
    v->fraction = 0;
    if (p < e && *p == '.') {
        if (++p >= e || *p < '0' || *p > '9')
            return fail(j, j->p, "invalid number: a digit must follow the point");
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        v->fraction = 1;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        if (++p < e && (*p == '+' || *p == '-'))
            p++;
        if (p >= e || *p < '0' || *p > '9')
            return fail(j, j->p, "invalid number: a digit must follow the exponent");
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        v->fraction = 1;
    }
    v->type = JSON_NUMBER;
    v->s = j->p;
    v->n = (size_t)(p - j->p);
    j->p = p;
    return 0;
}

static int word(json_parser *j, json_val *v, const char *w, json_type t)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
        return fail(j, j->p, "expected a value (an object, array, string, number, true, false or null)");
    v->type = t;
    v->s = j->p;
    v->n = n;
    j->p += n;
    return 0;
}

int json_value(json_parser *j, json_val *v)
{
    if (j->failed)
        return -1;
    space(j);
    v->line = j->line;
    v->col = column(j, j->p);
    v->escaped = v->fraction = 0;
    if (j->p >= j->end)
        return fail(j, j->p, "unexpected end of input: expected a value");
    switch (*j->p) {
    case '{':
    case '[':
        if (++j->depth > JSON_MAX_DEPTH)
            return fail(j, j->p, "nested too deeply");
        v->type = *j->p == '{' ? JSON_OBJECT : JSON_ARRAY;
        v->s = j->p++;
        v->n = 1;
        return 0;
    case '"': return string(j, v);
    case 't': return word(j, v, "true", JSON_TRUE);
    case 'f': return word(j, v, "false", JSON_FALSE);
    case 'n': return word(j, v, "null", JSON_NULL);
    default: return number(j, v);
    }
}

/* After a member or element: ',' or the closing bracket. */
static int separator(json_parser *j, int *first, char close, const char *what)
{
    space(j);
    if (j->p >= j->end)
        return fail(j, j->p, close == '}' ? "unexpected end of input: '}' expected" : "unexpected end of input: ']' expected");
    if (*j->p == close) {
        j->p++;
        j->depth--;
        return 0;
    }
    if (!*first) {
        if (*j->p != ',')
            return fail(j, j->p, what);
        j->p++;
        space(j);
    }
    *first = 0;
    return 1;
}

int json_member(json_parser *j, int *first, json_val *key)
{
    if (j->failed)
        return -1;
    int was_first = *first;
    int r = separator(j, first, '}', "expected ',' or '}' after an object member");
    if (r <= 0)
        return r;
    if (j->p >= j->end || *j->p != '"')
        return fail(j, j->p, was_first ? "expected a string key or '}'" : "expected a string key after ','");
    key->line = j->line;
    key->col = column(j, j->p);
    if (string(j, key))
        return -1;
    space(j);
    if (j->p >= j->end || *j->p != ':')
        return fail(j, j->p, "expected ':' after an object key");
    j->p++;
    return 1;
}

int json_element(json_parser *j, int *first)
{
    if (j->failed)
        return -1;
    int was_first = *first;
    int r = separator(j, first, ']', "expected ',' or ']' after an array element");
    if (r == 1 && !was_first && j->p < j->end && *j->p == ']')
        return fail(j, j->p, "expected a value after ','");
    return r;
}

int json_skip(json_parser *j, const json_val *v)
{
    int first = 1, r;
    json_val x;
    if (v->type == JSON_OBJECT) {
        while ((r = json_member(j, &first, &x)) == 1)
            if (json_value(j, &x) || json_skip(j, &x))
                return -1;
        return r;
    }
    if (v->type == JSON_ARRAY) {
        while ((r = json_element(j, &first)) == 1)
            if (json_value(j, &x) || json_skip(j, &x))
                return -1;
        return r;
    }
    return j->failed ? -1 : 0;
}

int json_finish(json_parser *j)
{
    if (j->failed)
        return -1;
    space(j);
    return j->p < j->end ? fail(j, j->p, "text after the end of the JSON value") : 0;
}

static size_t put_utf8(char *out, unsigned u)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xC0 | u >> 6);
        out[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xE0 | u >> 12);
        out[1] = (char)(0x80 | (u >> 6 & 0x3F));
        out[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | u >> 18);
    out[1] = (char)(0x80 | (u >> 12 & 0x3F));
    out[2] = (char)(0x80 | (u >> 6 & 0x3F));
    out[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

size_t json_unescape(const json_val *v, char *buf, size_t cap)
{
    size_t n = 0;
    const char *p = v->s, *e = v->s + v->n;
    while (p < e) {
        char tmp[4];
        size_t k = 1;
        if (*p != '\\') {
            tmp[0] = *p++;
        } else {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            unsigned u = 0, lo;
            if (p[1] != 'u') {
                tmp[0] = to[strchr(from, p[1]) - from];
                p += 2;
            } else {
                hex4(p + 2, e, &u);
                p += 6;
                /* a surrogate pair is one character; a lone surrogate cannot be UTF-8 */
                if (u >= 0xD800 && u < 0xDC00 && p + 6 <= e && p[0] == '\\' && p[1] == 'u' && !hex4(p + 2, e, &lo) &&
                    lo >= 0xDC00 && lo < 0xE000) {
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                } else if (u >= 0xD800 && u < 0xE000) {
                    u = 0xFFFD;
                }
                if (!u)
                    return (size_t)-1;
                k = put_utf8(tmp, u);
            }
        }
        if (n + k >= cap)
            return (size_t)-1;
        memcpy(buf + n, tmp, k);
        n += k;
    }
    if (n >= cap)
        return (size_t)-1;
    buf[n] = 0;
    return n;
}
