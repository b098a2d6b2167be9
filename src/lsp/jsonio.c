/* Reading a message's values by path with the pull parser, and writing JSON
 * strings (server.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "lsp/server.h"

/* Reads the value at the parser's position: its start into *v and its whole
 * text into *sp (objects and arrays are skipped to their end). */
static int whole(json_parser *j, json_val *v, jspan *sp)
{
    if (json_value(j, v))
        return -1;
    const char *start;
    if (v->type == JSON_OBJECT || v->type == JSON_ARRAY) {
        start = v->s;
        if (json_skip(j, v))
            return -1;
    } else if (v->type == JSON_STRING) {
        start = v->s - 1;
    } else if (v->type == JSON_NUMBER) {
        start = v->s;
    } else {
        start = j->p - (v->type == JSON_FALSE ? 5 : 4);
    }
    sp->s = start;
    sp->n = (size_t)(j->p - start);
    return 0;
}

/* The key equals name[0..n) (keys with escapes are decoded first). */
static int key_is(const json_val *k, const char *name, size_t n)
{
    if (!k->escaped)
        return k->n == n && !memcmp(k->s, name, n);
    char buf[64];
    size_t m = json_unescape(k, buf, sizeof buf);
    return m == n && !memcmp(buf, name, n);
}

int jget(jspan in, const char *path, json_val *vout, jspan *out)
{
    jspan cur = in;
    json_val v;
    for (;;) {
        json_parser j;
        json_init(&j, cur.s, cur.n);
        if (!*path)
            break;
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (json_value(&j, &v))
            return 0;
        int first = 1, found = 0;
        if (v.type == JSON_OBJECT) {
            json_val k;
            while (json_member(&j, &first, &k) == 1) {
                if (key_is(&k, path, n)) {
                    if (whole(&j, &v, &cur))
                        return 0;
                    found = 1;
                    break;
                }
                json_val x;
                if (json_value(&j, &x) || json_skip(&j, &x))
                    return 0;
            }
        } else if (v.type == JSON_ARRAY && n && n < 10 && path[0] >= '0' && path[0] <= '9') {
            long want = strtol(path, NULL, 10);
            for (long i = 0; json_element(&j, &first) == 1; i++) {
                if (i == want) {
                    if (whole(&j, &v, &cur))
                        return 0;
                    found = 1;
                    break;
                }
                json_val x;
                if (json_value(&j, &x) || json_skip(&j, &x))
                    return 0;
            }
        }
        if (!found)
            return 0;
        path += n + (dot != NULL);
        if (!dot)
            break;
    }
    json_parser j;
    json_init(&j, cur.s, cur.n);
    if (json_value(&j, &v))
        return 0;
    if (vout)
        *vout = v;
    if (out)
        *out = cur;
    return 1;
}

char *jget_str(jspan in, const char *path)
{
    json_val v;
    if (!jget(in, path, &v, NULL) || v.type != JSON_STRING)
        return NULL;
    char *s = malloc(v.n + 1);
    if (!s)
        return NULL;
    if (json_unescape(&v, s, v.n + 1) == (size_t)-1) {
        free(s);
        return NULL;
    }
    return s;
}

int jget_int(jspan in, const char *path, int *out)
{
    json_val v;
    if (!jget(in, path, &v, NULL) || v.type != JSON_NUMBER || v.fraction || v.n > 12 || v.s[0] == '-')
        return 0;
    long long x = 0;
    for (size_t i = 0; i < v.n; i++)
        x = x * 10 + (v.s[i] - '0');
    if (x > INT_MAX)
        return 0;
    *out = (int)x;
    return 1;
}

int jget_true(jspan in, const char *path)
{
    json_val v;
    return jget(in, path, &v, NULL) && v.type == JSON_TRUE;
}

int jeach(jspan in, const char *path, int max, int (*fn)(void *user, jspan el), void *user)
{
    json_val v;
    jspan arr;
    if (!jget(in, path, &v, &arr) || v.type != JSON_ARRAY)
        return -1;
    json_parser j;
    json_init(&j, arr.s, arr.n);
    if (json_value(&j, &v))
        return -1;
    int first = 1, n = 0;
    while (n < max && json_element(&j, &first) == 1) {
        jspan el;
        if (whole(&j, &v, &el))
            break;
        n++;
        if (fn(user, el))
            break;
    }
    return n;
}

void jstr(strbuf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    if (!sb_reserve(b, n + 2))
        return;
    sb_putc(b, '"');
    while (p < end) {
        const unsigned char *q = p;
        while (q < end && *q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\')
            q++;
        if (q > p)
            sb_putn(b, (const char *)p, (size_t)(q - p));
        p = q;
        if (p >= end)
            break;
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            sb_putc(b, '\\');
            sb_putc(b, (char)c);
            p++;
        } else if (c < 0x20) {
            if (c == '\n')
                sb_puts(b, "\\n");
            else if (c == '\t')
                sb_puts(b, "\\t");
            else if (c == '\r')
                sb_puts(b, "\\r");
            else
                sb_printf(b, "\\u%04x", c);
            p++;
        } else {
            size_t k = utf8_len(p, end);
            if (k) {
                sb_putn(b, (const char *)p, k);
                p += k;
            } else {
                sb_puts(b, "\xEF\xBF\xBD");
                p++;
            }
        }
    }
    sb_putc(b, '"');
}

void jcstr(strbuf *b, const char *s) { jstr(b, s, strlen(s)); }
