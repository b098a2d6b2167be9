/* Open documents: their text, its lines, and the positions the client
 * speaks in (lines and UTF-16 code units, or bytes when negotiated). */
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"

lsp_doc *doc_find(lsp_server *s, const char *uri)
{
    for (int i = 0; i < s->ndocs; i++)
        if (!strcmp(s->docs[i]->uri, uri))
            return s->docs[i];
    return NULL;
}

static int index_lines(lsp_doc *d)
{
    size_t n = 1;
    for (const char *p = d->text, *end = d->text + d->len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
        n++;
    if (n > d->lcap) {
        size_t *l = realloc(d->line, n * sizeof *l);
        if (!l)
            return -1;
        d->line = l;
        d->lcap = n;
    }
    d->nlines = 0;
    d->line[d->nlines++] = 0;
    for (const char *p = d->text, *end = d->text + d->len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
        d->line[d->nlines++] = (size_t)(p + 1 - d->text);
    return 0;
}

static int reserve(lsp_doc *d, size_t len)
{
    if (len + 1 <= d->cap)
        return 0;
    size_t cap = d->cap ? d->cap : 256;
    while (cap < len + 1)
        cap *= 2;
    char *t = realloc(d->text, cap);
    if (!t)
        return -1;
    d->text = t;
    d->cap = cap;
    return 0;
}

int doc_set_text(lsp_doc *d, const char *text, size_t len)
{
    if (reserve(d, len))
        return -1;
    memcpy(d->text, text, len);
    d->len = len;
    d->text[len] = 0;
    d->dirty = 1;
    return index_lines(d);
}

int doc_replace(lsp_doc *d, size_t from, size_t to, const char *text, size_t len)
{
    if (to < from)
        to = from;
    if (to > d->len)
        to = d->len;
    if (from > to)
        from = to;
    size_t nlen = d->len - (to - from) + len;
    if (nlen > LSP_MAX_MESSAGE * 4 || reserve(d, nlen))
        return -1;
    memmove(d->text + from + len, d->text + to, d->len - to);
    memcpy(d->text + from, text, len);
    d->len = nlen;
    d->text[nlen] = 0;
    d->dirty = 1;
    return index_lines(d);
}

int doc_line(const lsp_doc *d, int i, size_t *start, size_t *end)
{
    if (i < 0 || (size_t)i >= d->nlines)
        return 0;
    *start = d->line[i];
    size_t e = (size_t)i + 1 < d->nlines ? d->line[i + 1] - 1 : d->len;
    if (e > *start && d->text[e - 1] == '\r')
        e--;
    *end = e;
    return 1;
}

/* The length of the UTF-8 sequence at p (a bad byte: 1) and its UTF-16
 * units. */
static size_t step(const unsigned char *p, const unsigned char *end, int *units)
{
    unsigned c = *p;
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if ((size_t)(end - p) < n)
        n = 1;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            n = 1;
    *units = n == 4 ? 2 : 1;
    return n;
}

size_t doc_offset(const lsp_server *s, const lsp_doc *d, lsp_pos p)
{
    if (p.line < 0)
        return 0;
    size_t a, z;
    if (!doc_line(d, p.line, &a, &z))
        return d->len;
    if (s->utf8)
        return (size_t)p.character < z - a ? a + (size_t)p.character : z;
    const unsigned char *q = (const unsigned char *)d->text + a, *end = (const unsigned char *)d->text + z;
    int u = 0;
    while (q < end && u < p.character) {
        int units;
        size_t n = step(q, end, &units);
        if (u + units > p.character)
            break;
        u += units;
        q += n;
    }
    return (size_t)((const char *)q - d->text);
}

lsp_pos doc_pos(const lsp_server *s, const lsp_doc *d, size_t off)
{
    if (off > d->len)
        off = d->len;
    size_t lo = 0, hi = d->nlines;
    while (hi - lo > 1) { /* the last line starting at or before off */
        size_t mid = (lo + hi) / 2;
        if (d->line[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    lsp_pos p = {(int)lo, 0};
    if (s->utf8) {
        p.character = (int)(off - d->line[lo]);
        return p;
    }
    const unsigned char *q = (const unsigned char *)d->text + d->line[lo], *end = (const unsigned char *)d->text + off;
    while (q < end) {
        int units;
        q += step(q, end, &units);
        p.character += units;
    }
    return p;
}

lsp_pos doc_cp_pos(const lsp_server *s, const lsp_doc *d, int line, int cp)
{
    size_t a, z;
    if (!doc_line(d, line, &a, &z)) {
        lsp_pos p = {line < 0 ? 0 : line, 0};
        return p;
    }
    if (line == 0 && z - a >= 3 && !memcmp(d->text, "\xEF\xBB\xBF", 3))
        a += 3; /* the assembler's columns do not count a byte-order mark */
    const unsigned char *q = (const unsigned char *)d->text + a, *end = (const unsigned char *)d->text + z;
    for (int i = 0; i < cp && q < end; i++) {
        int units;
        q += step(q, end, &units);
    }
    return doc_pos(s, d, (size_t)((const char *)q - d->text));
}

int read_pos(jspan msg, const char *path, lsp_pos *p)
{
    char key[96];
    size_t n = strlen(path);
    if (n + 12 > sizeof key)
        return 0;
    memcpy(key, path, n);
    strcpy(key + n, ".line");
    if (!jget_int(msg, key, &p->line))
        return 0;
    strcpy(key + n, ".character");
    return jget_int(msg, key, &p->character);
}

void put_range(strbuf *b, lsp_pos a, lsp_pos z)
{
    sb_printf(b, "{\"start\":{\"line\":%d,\"character\":%d},\"end\":{\"line\":%d,\"character\":%d}}", a.line,
              a.character, z.line, z.character);
}

void put_diagnostic(strbuf *b, int first, lsp_pos a, lsp_pos z, const gisa_diag *g, const char *source,
                    const strbuf *msg)
{
    sb_puts(b, first ? "{\"range\":" : ",{\"range\":");
    put_range(b, a, z);
    sb_printf(b, ",\"severity\":%d,\"source\":", g->severity == GISA_ERROR ? 1 : g->severity == GISA_WARNING ? 2 : 3);
    jcstr(b, source);
    sb_puts(b, ",\"message\":");
    jstr(b, msg->s ? msg->s : "", msg->len);
    if (g->category) {
        sb_puts(b, ",\"code\":");
        jcstr(b, g->category);
    }
    sb_putc(b, '}');
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *uri_to_path(const char *uri)
{
    const char *p = uri;
    if (!strncmp(p, "file://", 7)) {
        p += 7;
        if (!strncmp(p, "localhost/", 10))
            p += 9;
    }
    size_t n = strlen(p);
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        int h, l;
        if (p[i] == '%' && i + 2 < n && (h = hexval(p[i + 1])) >= 0 && (l = hexval(p[i + 2])) >= 0 &&
            (h || l)) {
            *o++ = (char)(h << 4 | l);
            i += 2;
        } else {
            *o++ = p[i];
        }
    }
    *o = 0;
    return out;
}

void put_uri(strbuf *b, const char *path)
{
    strbuf u;
    sb_init(&u);
    sb_puts(&u, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
            sb_putc(&u, (char)*p);
        else
            sb_printf(&u, "%%%02X", *p);
    }
    if (!u.failed)
        jstr(b, u.s, u.len);
    else
        sb_puts(b, "null");
    sb_free(&u);
}
