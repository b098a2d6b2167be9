#include "common/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

typedef struct diag_item {
    gisa_diag pub;
    char *file, *message, *source, *context;
} diag_item;

/* Each item is allocated on its own, so that the gisa_diag pointers
 * gisa_diags_get hands out stay valid while more are added (only the array
 * of pointers grows), until gisa_diags_clear or gisa_diags_free. */
struct gisa_diags {
    diag_item **items;
    size_t count, cap, limit, dropped, errors, warnings;
};

gisa_diags *diags_alloc(void)
{
    gisa_diags *d = calloc(1, sizeof *d);
    if (d)
        d->limit = 1000;
    return d;
}

gisa_status gisa_diags_new(gisa_diags **out)
{
    if (!out)
        return GISA_ERR_USAGE;
    *out = diags_alloc();
    return *out ? GISA_OK : GISA_ERR_NOMEM;
}

void gisa_diags_clear(gisa_diags *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->count; i++) {
        free(d->items[i]->file);
        free(d->items[i]->message);
        free(d->items[i]->source);
        free(d->items[i]->context);
        free(d->items[i]);
    }
    d->count = d->dropped = d->errors = d->warnings = 0;
}

void gisa_diags_free(gisa_diags *d)
{
    if (!d)
        return;
    gisa_diags_clear(d);
    free(d->items);
    free(d);
}

size_t gisa_diags_count(const gisa_diags *d) { return d ? d->count : 0; }
const gisa_diag *gisa_diags_get(const gisa_diags *d, size_t i)
{
    return d && i < d->count ? &d->items[i]->pub : NULL;
}
size_t gisa_diags_errors(const gisa_diags *d) { return d ? d->errors : 0; }
size_t gisa_diags_warnings(const gisa_diags *d) { return d ? d->warnings : 0; }
void gisa_diags_set_limit(gisa_diags *d, size_t limit)
{
    if (d)
        d->limit = limit;
}
size_t gisa_diags_dropped(const gisa_diags *d) { return d ? d->dropped : 0; }

static char *dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* Byte columns (as every reader counts) to character columns: UTF-8
 * continuation bytes (10xxxxxx) start no character. Past the line's end
 * every byte counts one, except in its ending (line[n..full), "\r\r\n"),
 * which is not shown: a column there is just after the text. */
static void char_columns(const char *line, size_t n, size_t full, int *col, int *len)
{
    size_t b = (size_t)*col - 1, e = b + (size_t)*len;
    if (b > n && b <= full) {
        b = n;
        e = n + 1;
    }
    int c = 1, l = 0;
    for (size_t i = 0; i < e; i++) {
        int starts = i >= n || ((unsigned char)line[i] & 0xC0) != 0x80;
        if (i < b)
            c += starts;
        else
            l += starts;
    }
    *col = c;
    *len = l > 0 ? l : 1;
}

void diag_vadd(gisa_diags *d, gisa_severity sev, const srcloc *at, const char *fmt, va_list ap)
{
    if (!d)
        return;
    if (sev == GISA_ERROR)
        d->errors++;
    else if (sev == GISA_WARNING)
        d->warnings++;
    if (d->count >= d->limit) {
        d->dropped++;
        return;
    }
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        diag_item **p = realloc(d->items, cap * sizeof *p);
        if (!p) {
            d->dropped++;
            return;
        }
        d->items = p;
        d->cap = cap;
    }
    diag_item *it = calloc(1, sizeof *it);
    if (!it) {
        d->dropped++;
        return;
    }
    strbuf sb;
    sb_init(&sb);
    sb_vprintf(&sb, fmt, ap);
    it->message = sb_take(&sb);
    it->file = dupn(at && at->file ? at->file : "", at && at->file ? strlen(at->file) : 0);
    int col = at ? at->col : 0, length = at && at->len > 0 ? at->len : 1;
    if (at && at->line_text) {
        size_t full = at->line_len > 0 ? (size_t)at->line_len : 0, n = full;
        while (n && (at->line_text[n - 1] == '\r' || at->line_text[n - 1] == '\n'))
            n--;
        it->source = dupn(at->line_text, n > 4096 ? 4096 : n); /* a 1 MB line is shown cut, not echoed whole */
        if (col > 0)
            char_columns(at->line_text, n, full, &col, &length);
    }
    if (at && at->context)
        it->context = dupn(at->context, strlen(at->context));
    if (!it->message || !it->file || (at && at->context && !it->context)) {
        free(it->message);
        free(it->file);
        free(it->source);
        free(it->context);
        free(it);
        d->dropped++;
        return;
    }
    it->pub.severity = sev;
    it->pub.file = it->file;
    it->pub.line = at ? at->line : 0;
    it->pub.col = col;
    it->pub.length = length;
    it->pub.context = it->context;
    it->pub.message = it->message;
    it->pub.source_line = it->source;
    d->items[d->count++] = it;
}

int diag_warning_to_note(gisa_diags *d, size_t i, const char *prefix, const char *suffix)
{
    if (!d || i >= d->count || d->items[i]->pub.severity != GISA_WARNING)
        return 0;
    diag_item *it = d->items[i];
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s%s%s", prefix, it->message, suffix);
    char *m = sb_take(&sb);
    if (!m)
        return 0;
    free(it->message);
    it->message = m;
    it->pub.message = m;
    it->pub.severity = GISA_NOTE;
    d->warnings--;
    return 1;
}

void diag_set_category(gisa_diags *d, const char *category)
{
    if (d && d->count && !d->items[d->count - 1]->pub.category)
        d->items[d->count - 1]->pub.category = category;
}

void diag_add(gisa_diags *d, gisa_severity sev, const srcloc *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, sev, at, fmt, ap);
    va_end(ap);
}

void diag_memory_limit(gisa_diags *d, const srcloc *at, size_t limit)
{
    diag_add(d, GISA_ERROR, at,
             "loading the ISA description needs more memory than the limit of %zu MiB (raise the limit with "
             "--max-memory SIZE, or gisa_load_options.max_memory)",
             (limit + (1u << 20) - 1) >> 20);
}

void diag_copy(gisa_diags *to, const gisa_diags *from, gisa_severity max)
{
    for (size_t i = 0; to && from && i < from->count; i++) {
        const gisa_diag *g = &from->items[i]->pub;
        if (g->severity > max)
            continue;
        /* the columns count characters already: added without the source
         * line (which would convert them again), then given it */
        srcloc at = {g->file, g->line, g->col, g->length, NULL, 0, g->context};
        size_t before = to->count;
        diag_add(to, g->severity, &at, "%s", g->message);
        if (to->count > before)
            to->items[before]->pub.category = g->category;
        if (to->count > before && g->source_line) {
            diag_item *it = to->items[before];
            it->source = dupn(g->source_line, strlen(g->source_line));
            it->pub.source_line = it->source;
        }
    }
}

char *diag_text(const gisa_diag *g, int with_source)
{
    static const char *const sev[] = {"note", "warning", "error"};
    strbuf sb;
    sb_init(&sb);
    if (g->context) {
        sb_puts(&sb, g->context);
        sb_putc(&sb, '\n');
    }
    if (g->file && g->file[0]) {
        sb_puts(&sb, g->file);
        if (g->line > 0)
            sb_printf(&sb, ":%d", g->line);
        if (g->line > 0 && g->col > 0)
            sb_printf(&sb, ":%d", g->col);
        sb_puts(&sb, ": ");
    }
    sb_printf(&sb, "%s: %s", sev[g->severity <= GISA_ERROR ? g->severity : GISA_ERROR], g->message);
    if (g->category)
        sb_printf(&sb, " [-W%s]", g->category);
    if (with_source && g->source_line) {
        sb_putc(&sb, '\n');
        sb_puts(&sb, g->source_line);
        sb_putc(&sb, '\n');
        const char *p = g->source_line;
        int col = g->col > 0 ? g->col : 1;
        /* one space per character before the column (col counts
         * characters); tabs are kept so the caret lines up under
         * tab-indented source */
        for (int i = 1; i < col; i++) {
            sb_putc(&sb, *p == '\t' ? '\t' : ' ');
            if (*p)
                do
                    p++;
                while (((unsigned char)*p & 0xC0) == 0x80);
        }
        sb_putc(&sb, '^');
        for (int i = 1; i < g->length && i < 200; i++)
            sb_putc(&sb, '~');
    }
    return sb_take(&sb);
}

gisa_status gisa_diag_format(const gisa_diag *g, bool with_source, char **out)
{
    if (!g || !out)
        return GISA_ERR_USAGE;
    *out = diag_text(g, with_source);
    return *out ? GISA_OK : GISA_ERR_NOMEM;
}

const char *errno_text(int err, char *buf, size_t cap)
{
    if (strerror_r(err, buf, cap) != 0) /* the XSI strerror_r: no _GNU_SOURCE */
        snprintf(buf, cap, "error %d", err);
    return buf;
}

int edit_distance(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen > 64 || blen > 64)
        return 255;
    int row[65];
    for (size_t j = 0; j <= blen; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= alen; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= blen; j++) {
            int cur = row[j];
            int ca = a[i - 1], cb = b[j - 1];
            if (ca >= 'a' && ca <= 'z')
                ca -= 32;
            if (cb >= 'a' && cb <= 'z')
                cb -= 32;
            int best = prev + (ca != cb);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[blen] > 255 ? 255 : row[blen];
}

const char *gisa_status_str(gisa_status s)
{
    switch (s) {
    case GISA_OK: return "ok";
    case GISA_ERR_INPUT: return "input has errors";
    case GISA_ERR_USAGE: return "invalid usage";
    case GISA_ERR_IO: return "i/o error";
    case GISA_ERR_NOMEM: return "out of memory or over a limit";
    case GISA_ERR_NOTFOUND: return "not found";
    case GISA_ERR_SIM: return "simulation fault";
    case GISA_ERR_TRUNCATED: return "text cut to fit the buffer";
    case GISA_ERR_LIMIT: return "over a limit";
    }
    return "unknown status";
}

/* Memory handed to the caller comes from malloc: one release function
 * keeps callers (and bindings) from depending on that. */
void gisa_free(void *p) { free(p); }
