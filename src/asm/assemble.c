/* The assembler driver: walks source text line by line, blanks out comments
 * (keeping columns), splits statements at ';', carries out directives
 * (directive.c parses them; .include reads a nested file through the
 * caller's reader), and reports every error with its line and a caret, up
 * to the diagnostics limit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "asm/asm.h"
#include "common/diag.h"
#include "common/strbuf.h"
#include "common/text.h"
#include "spec/cursor.h"

#define ASM_MAX_WORDS (64u << 20) /* 64 Mi instructions per file */

/* Copies a line with its comments turned into spaces (columns kept);
 * *in_comment carries an open block comment to the next line, *opened is
 * the column of the last one the line opens, and *nul the column of its
 * first NUL byte outside comments (left as it was when there is none). */
static void blank_comments(const char *src, size_t ll, char *clean, int *in_comment, int *opened, int *nul)
{
    for (size_t k = 0; k < ll; k++) {
        char ch = src[k];
        if (*in_comment) {
            if (ch == '*' && k + 1 < ll && src[k + 1] == '/') {
                *in_comment = 0;
                clean[k] = clean[k + 1] = ' ';
                k++;
                continue;
            }
            clean[k] = ' ';
        } else if (ch == '/' && k + 1 < ll && src[k + 1] == '/') {
            memset(clean + k, ' ', ll - k);
            return;
        } else if (ch == '/' && k + 1 < ll && src[k + 1] == '*') {
            *in_comment = 1;
            *opened = (int)k;
            clean[k] = clean[k + 1] = ' ';
            k++;
        } else {
            if (ch == '\0' && *nul < 0)
                *nul = (int)k;
            clean[k] = ch == '\t' || ch == '\r' || ch == '\0' ? ' ' : ch;
        }
    }
}

static size_t next_of(const char *text, size_t len, size_t from, char ch)
{
    const char *p = memchr(text + from, ch, len - from);
    return p ? (size_t)(p - text) : len;
}

/* Where the words go, and the count of errors (after one, no words are
 * kept: nothing is written for a file with errors). file and context are
 * those of the file being read (they change in included files). */
typedef struct sink {
    gisa_word *w;
    size_t n, cap, guess;
    int errors, too_many;
    gisa_diags *diags;
    const char *file, *context;
} sink;

/* One run of the assembler: the sink, the options, and the files open
 * (the main one at depth 0) with the line of each .include. */
typedef struct asm_run {
    const gisa_isa *isa;
    sink k;
    const gisa_asm_options *opt; /* NULL, or the caller's options as this library knows them */
    gisa_status stopped;         /* what the line callback returned, other than GISA_OK: stop */
    int depth;
    size_t includes, include_bytes; /* so far, against GISA_MAX_INCLUDES and GISA_MAX_INCLUDE_BYTES */
    bool include_limit;             /* one was passed: reported once, later includes are refused quietly */
    const char *id[GISA_MAX_INCLUDE_DEPTH + 1];
    const char *from_file[GISA_MAX_INCLUDE_DEPTH + 1];
    int from_line[GISA_MAX_INCLUDE_DEPTH + 1];
    char *context; /* for k.context: built when entering and leaving a file */
} asm_run;

static void report(sink *k, gisa_severity sev, const statement *st, const asm_error *e)
{
    srcloc at = {k->file, st->lineno, e->col + 1, e->len, st->line, (int)st->line_len, k->context};
    diag_add(k->diags, sev, &at, "%s", e->msg);
}

static int grow(sink *k)
{
    size_t nc = k->cap ? k->cap * 2 : k->guess;
    k->too_many = nc > ASM_MAX_WORDS;
    gisa_word *p = k->too_many ? NULL : realloc(k->w, nc * sizeof *p);
    if (!p)
        return -1;
    k->w = p;
    k->cap = nc;
    return 0;
}

static inline int keep(sink *k, gisa_word w)
{
    if (k->errors)
        return 0;
    if (k->n == k->cap && grow(k))
        return -1;
    k->w[k->n++] = w;
    return 0;
}

/* Encodes a statement (parse_failed: the parser's result) and keeps its
 * word, or reports why there is none. Returns -1 when out of memory. */
static inline int take(const gisa_isa *isa, sink *k, statement *st, int parse_failed, asm_error *err)
{
    gisa_word w;
    if (parse_failed || asm_encode(isa, st, &w, err)) {
        /* past the diagnostics limit errors are still counted, so that
         * callers can say how many were not shown */
        report(k, GISA_ERROR, st, err);
        k->errors++;
        return 0;
    }
    if (st->has_warn)
        report(k, GISA_WARNING, st, &st->warn);
    return keep(k, w);
}

/* The lines shown before a diagnostic in an included file, as GCC writes
 * them: the file that included this one first, the main file last. */
static int build_context(asm_run *r)
{
    free(r->context);
    r->context = NULL;
    r->k.context = NULL;
    if (!r->depth)
        return 0;
    strbuf sb;
    sb_init(&sb);
    for (int d = r->depth - 1; d >= 0; d--)
        sb_printf(&sb, "%s %s:%d%s", d == r->depth - 1 ? "In file included from" : "                 from", r->from_file[d],
                  r->from_line[d], d ? ",\n" : ":");
    r->context = sb_take(&sb);
    r->k.context = r->context;
    return r->context ? 0 : -1;
}

static int assemble_text(asm_run *r, const char *text, size_t len);

static int include_error(asm_run *r, statement *st, const asm_directive *d, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int include_error(asm_run *r, statement *st, const asm_directive *d, const char *fmt, ...)
{
    asm_error e = {d->name_col, d->name_len, ""};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof e.msg, fmt, ap);
    va_end(ap);
    report(&r->k, GISA_ERROR, st, &e);
    r->k.errors++;
    return 0;
}

/* Assembles the file an .include names, where it stands. Returns -1 when
 * out of memory. */
static int include_file(asm_run *r, statement *st, const asm_directive *d)
{
    const gisa_asm_options *o = r->opt;
    if (!o || !o->include)
        return include_error(r, st, d, "cannot include '%s': no file reader was given (gisa_asm_options.include reads them)", d->name);
    if (r->depth == GISA_MAX_INCLUDE_DEPTH)
        return include_error(r, st, d, "cannot include '%s': includes nested more than %d deep", d->name, GISA_MAX_INCLUDE_DEPTH);
    if (r->include_limit) /* already an error (so nothing is written): a fan-out would repeat it thousands of times */
        return 0;
    if (r->includes == GISA_MAX_INCLUDES) {
        r->include_limit = true;
        return include_error(r, st, d, "cannot include '%s': more than %d inclusions in one assembly (the limit)", d->name,
                             GISA_MAX_INCLUDES);
    }
    gisa_include inc = {NULL, NULL, NULL, 0, NULL};
    char why[256] = "";
    gisa_status s = o->include(o->user, r->k.file, d->name, &inc, why, sizeof why);
    if (s != GISA_OK || !inc.name || (!inc.text && inc.len)) {
        if (s == GISA_OK && o->release)
            o->release(o->user, &inc);
        return include_error(r, st, d, "cannot include '%s': %s", d->name, why[0] ? why : gisa_status_str(s));
    }
    if (inc.len > GISA_MAX_INCLUDE_BYTES - r->include_bytes) {
        r->include_limit = true;
        if (o->release)
            o->release(o->user, &inc);
        return include_error(r, st, d, "cannot include '%s': more than %u MiB of included files in one assembly (the limit)",
                             d->name, GISA_MAX_INCLUDE_BYTES >> 20);
    }
    r->includes++;
    r->include_bytes += inc.len;
    const char *id = inc.id ? inc.id : inc.name;
    int nomem = 0;
    for (int k = 0; k <= r->depth; k++)
        if (!strcmp(r->id[k], id)) {
            strbuf chain;
            sb_init(&chain);
            for (int j = k; j <= r->depth; j++)
                sb_printf(&chain, "%s -> ", j == r->depth ? r->k.file : r->from_file[j]);
            sb_puts(&chain, inc.name);
            char *c = sb_take(&chain);
            include_error(r, st, d, "'%s' includes itself: %s", inc.name, c ? c : "");
            free(c);
            if (o->release)
                o->release(o->user, &inc);
            return 0;
        }
    r->from_file[r->depth] = r->k.file;
    r->from_line[r->depth] = st->lineno;
    r->depth++;
    r->id[r->depth] = id;
    const char *file = r->k.file;
    r->k.file = inc.name;
    nomem = build_context(r) || assemble_text(r, inc.text, inc.len);
    r->depth--;
    r->k.file = file;
    nomem |= build_context(r);
    if (o->release)
        o->release(o->user, &inc);
    return nomem ? -1 : 0;
}

/* What of the line being read the listing has seen. */
typedef struct listed_line {
    const char *text;
    size_t len, first; /* first: its first word not listed yet */
    int lineno, listed;
} listed_line;

static void list_line(asm_run *r, listed_line *ln)
{
    const gisa_asm_options *o = r->opt;
    size_t len = ln->len;
    while (len && ln->text[len - 1] == '\r')
        len--;
    gisa_asm_line l = {r->k.file, ln->lineno, r->depth, ln->text, len, ln->first, r->k.n - ln->first, r->k.w ? r->k.w + ln->first : NULL};
    if (r->stopped == GISA_OK)
        r->stopped = o->line(o->user, &l);
    ln->first = r->k.n;
    ln->listed = 1;
}

/* Carries out a directive (asm_parse_directive) or reports why not.
 * Returns -1 when out of memory. */
static int directive(asm_run *r, statement *st, const char *line, size_t q, size_t t, listed_line *ln)
{
    asm_directive d;
    asm_error err;
    if (asm_parse_directive(r->isa, line, q, t, &d, &err)) {
        report(&r->k, GISA_ERROR, st, &err);
        r->k.errors++;
        return 0;
    }
    if (d.include) {
        if (r->opt && r->opt->line) /* the .include line is listed before the file's lines */
            list_line(r, ln);
        int nomem = include_file(r, st, &d);
        ln->first = r->k.n; /* the file's words are its lines' */
        return nomem;
    }
    if (d.invalid) { /* `.invalid` says the word does not decode: check it */
        char text[512];
        if (r->isa->tools.disassemble(r->isa, d.words[0], text, sizeof text, NULL) == GISA_OK) {
            asm_error e = {d.col, (int)(t - q), ""};
            snprintf(e.msg, sizeof e.msg, "this word is no invalid one: it is '%.300s' (write .inst to keep it raw)", text);
            report(&r->k, GISA_WARNING, st, &e);
        }
    }
    for (int i = 0; i < d.nwords; i++)
        if (keep(&r->k, d.words[i]))
            return -1;
    return 0;
}

/* A '/' this close ahead (most likely a comment on the line) sends the
 * line to the general path without a first attempt in place. */
#define ASM_NEAR_SLASH 128
/* Assembles one file's text into r->k (r->k.file names it). Returns -1
 * when out of memory. */
static int assemble_text(asm_run *r, const char *text, size_t len)
{
    const gisa_isa *isa = r->isa;
    sink *k = &r->k;
    gisa_status (*lst)(void *, const gisa_asm_line *) = r->opt ? r->opt->line : NULL;
    if (!text) /* NULL with length 0 (the caller's or an include reader's): an empty text, */
        text = ""; /* not a null pointer that the lines below would offset (UB, even by 0) */
    size_t bom = utf8_bom_len(text, len); /* not part of line 1 */
    text += bom;
    len -= bom;
    char *clean = NULL;
    size_t clean_cap = 0;
    int in_comment = 0, lineno = 0, nomem = 0;
    /* where the last block comment still open began, for its error */
    int open_line = 0, open_col = 0;
    const char *open_text = NULL;
    size_t open_len = 0;
    statement st;
    asm_error err;
    listed_line ln;
    size_t pos = 0, e;
    /* the next '/', NUL and ';' of the text: one memchr per occurrence
     * rather than three per line */
    size_t slash = len ? next_of(text, len, 0, '/') : 0, nul = len ? next_of(text, len, 0, 0) : 0,
           semi = len ? next_of(text, len, 0, ';') : 0;
    /* lines that start before `fast` end at a newline followed by ASM_PAD
     * more bytes: the parser can try them in place before their end is
     * known */
    size_t fast = len > ASM_PAD ? len - ASM_PAD - 1 : 0;
    while (fast && text[fast - 1] != '\n')
        fast--;
    while (!nomem && r->stopped == GISA_OK && pos < len) {
        size_t b = pos;
        lineno++;
        slash = slash < b ? next_of(text, len, b, '/') : slash;
        /* the usual line, one statement without a comment: parsed where it
         * is, and its end found by the parser */
        if (b < fast && !in_comment && (slash == len || slash - b > ASM_NEAR_SLASH) &&
            (is_ident_start(text[b]) || text[b] == '@')) {
            st.line = text + b;
            st.lineno = lineno;
            if (asm_parse_statement(isa, st.line, 0, &st, &err) == 0 && st.line[st.end] == '\n' && slash > b + st.end) {
                st.line_len = st.end;
                pos = b + st.end + 1;
                size_t first = k->n;
                nomem = take(isa, k, &st, 0, &err);
                if (lst) {
                    ln = (listed_line){st.line, st.line_len, first, lineno, 0};
                    list_line(r, &ln);
                }
                continue;
            }
        }
        /* the general path: comments blanked, statements split at ';' */
        e = next_of(text, len, b, '\n');
        pos = e < len ? e + 1 : len;
        size_t ll = e - b;
        nul = nul < b ? next_of(text, len, b, 0) : nul;
        semi = semi < b ? next_of(text, len, b, ';') : semi;
        /* a line without comments and NULs, followed by its newline and
         * ASM_PAD more bytes, is parsed where it is: the newline ends every
         * scan of the statement parser as a NUL would */
        const char *src = text + b, *line = src;
        ln = (listed_line){src, ll, k->n, lineno, 0};
        int in_place = !in_comment && slash >= e && nul >= e && e + ASM_PAD < len;
        int nul_col = -1;
        if (!in_place) {
            if (ll + ASM_PAD + 1 > clean_cap) {
                size_t nc = clean_cap ? clean_cap : 256;
                while (nc < ll + ASM_PAD + 1)
                    nc *= 2;
                char *p = realloc(clean, nc);
                if (!p) {
                    nomem = 1;
                    break;
                }
                clean = p;
                clean_cap = nc;
            }
            /* comments become spaces so that columns stay those of the
             * source; the copy ends in NULs */
            if (in_comment || slash < e || nul < e) {
                int opened = -1;
                blank_comments(src, ll, clean, &in_comment, &opened, &nul_col);
                if (in_comment && opened >= 0) {
                    open_line = lineno;
                    open_col = opened;
                    open_text = src;
                    open_len = ll;
                }
            } else {
                memcpy(clean, src, ll);
            }
            memset(clean + ll, 0, ASM_PAD + 1);
            line = clean;
        }
        int may_split = !in_place || semi < e; /* a blanked comment may have held the ';' */
        size_t s = 0;
        if (nul_col >= 0) { /* a binary file, or a damaged one: say so, rather than what a NUL makes of the statement */
            asm_error ne = {nul_col, 1, "NUL byte in the source line (assembly is text)"};
            st.line = src;
            st.line_len = ll;
            st.lineno = lineno;
            report(k, GISA_ERROR, &st, &ne);
            k->errors++;
            s = ll + 1;
        }
        while (s <= ll && !nomem) {
            const char *sc = may_split ? memchr(line + s, ';', ll - s) : NULL;
            size_t t = sc ? (size_t)(sc - line) : ll;
            size_t q = s;
            while (q < t && (line[q] == ' ' || line[q] == '\t' || line[q] == '\r'))
                q++;
            if (q < t) {
                st.line = src;
                st.line_len = ll;
                st.lineno = lineno;
                if (line[q] == '.')
                    nomem = directive(r, &st, line, q, t, &ln);
                else
                    nomem = take(isa, k, &st, asm_parse_statement(isa, line, q, &st, &err), &err);
            }
            s = t + 1;
        }
        if (lst && (!ln.listed || k->n > ln.first))
            list_line(r, &ln);
    }
    free(clean);
    if (in_comment && !nomem) { /* reported where it starts, whatever else went wrong */
        srcloc at = {k->file, open_line, open_col + 1, 2, open_text, (int)open_len, k->context};
        diag_add(k->diags, GISA_ERROR, &at, "unterminated /* comment: no */ closes it before the end of the file");
        k->errors++;
    }
    return nomem ? -1 : 0;
}

static gisa_status assemble_unguarded(const gisa_isa *isa, const char *filename, const char *text, size_t len,
                                      const gisa_asm_options *opt, gisa_word **words, size_t *nwords, gisa_diags *diags)
{
    if (!isa || !words || !nwords || (!text && len) || (opt && opt->size < sizeof *opt))
        return GISA_ERR_USAGE;
    *words = NULL;
    *nwords = 0;
    if (!filename)
        filename = "<input>";
    /* options of any size the caller's header gave: the fields this
     * library knows */
    gisa_asm_options o = GISA_ASM_OPTIONS_INIT;
    if (opt)
        memcpy(&o, opt, sizeof o);
    asm_run r;
    memset(&r, 0, sizeof r);
    r.isa = isa;
    r.opt = opt ? &o : NULL;
    r.id[0] = o.file_id ? o.file_id : filename;
    /* the first guess of the number of words comes from the text's size (a
     * line of 48 bytes is a short one), then it doubles: most files need
     * no copy of the words */
    r.k = (sink){NULL, 0, 0, len / 48 < 1024 ? 1024 : len / 48 > ASM_MAX_WORDS ? ASM_MAX_WORDS : len / 48, 0, 0, diags, filename, NULL};
    int nomem = assemble_text(&r, text, len);
    free(r.context);
    sink *k = &r.k;
    if (nomem) {
        if (k->too_many)
            diag_add(diags, GISA_ERROR, NULL, "%s: more than %u instructions (the limit of one file)", filename,
                     ASM_MAX_WORDS);
        else
            diag_add(diags, GISA_ERROR, NULL, "%s: out of memory after %zu instructions", filename, k->n);
        free(k->w);
        return k->too_many ? GISA_ERR_LIMIT : GISA_ERR_NOMEM;
    }
    if (r.stopped != GISA_OK || k->errors) {
        free(k->w);
        return r.stopped != GISA_OK ? r.stopped : GISA_ERR_INPUT;
    }
    if ((o.flags & GISA_ASM_ONE) && k->n != 1) {
        diag_add(diags, GISA_ERROR, NULL, "expected exactly one instruction, got %zu", k->n);
        free(k->w);
        return GISA_ERR_INPUT;
    }
    *words = k->w;
    *nwords = k->n;
    return GISA_OK;
}

gisa_status gisa_assemble(const gisa_isa *isa, const char *filename, const char *text, size_t len,
                          const gisa_asm_options *opt, gisa_word **words, size_t *nwords, gisa_diags *diags)
{
    FPENV_RETURN(gisa_status, assemble_unguarded(isa, filename, text, len, opt, words, nwords, diags));
}
