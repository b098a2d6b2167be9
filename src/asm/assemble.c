/* The assembler driver: walks source text line by line, blanks out comments
 * (keeping columns), splits statements at ';', and reports every error with
 * its line and a caret, up to the diagnostics limit. */
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "common/text.h"
#include "spec/cursor.h"

#define ASM_MAX_WORDS (64u << 20) /* 64 Mi instructions per file */

static void report(gisa_diags *diags, gisa_severity sev, const char *file, const statement *st, const asm_error *e)
{
    srcloc at = {file, st->lineno, e->col + 1, e->len, st->line, (int)st->line_len};
    diag_add(diags, sev, &at, "%s", e->msg);
}

/* Copies a line with its comments turned into spaces (columns kept);
 * *in_comment carries an open block comment to the next line. */
static void blank_comments(const char *src, size_t ll, char *clean, int *in_comment)
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
            clean[k] = clean[k + 1] = ' ';
            k++;
        } else {
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
 * kept: nothing is written for a file with errors). */
typedef struct sink {
    gisa_word *w;
    size_t n, cap, guess;
    int errors, too_many;
    gisa_diags *diags;
    const char *file;
} sink;

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

/* Encodes a statement (parse_failed: the parser's result) and keeps its
 * word, or reports why there is none. Returns -1 when out of memory. */
static inline int take(const gisa_isa *isa, sink *k, statement *st, int parse_failed, asm_error *err)
{
    gisa_word w;
    if (parse_failed || asm_encode(isa, st, &w, err)) {
        /* past the diagnostics limit errors are still counted, so that
         * callers can say how many were not shown */
        report(k->diags, GISA_ERROR, k->file, st, err);
        k->errors++;
        return 0;
    }
    if (st->has_warn)
        report(k->diags, GISA_WARNING, k->file, st, &st->warn);
    if (k->errors)
        return 0;
    if (k->n == k->cap && grow(k))
        return -1;
    k->w[k->n++] = w;
    return 0;
}

/* A '/' this close ahead (most likely a comment on the line) sends the
 * line to the general path without a first attempt in place. */
#define ASM_NEAR_SLASH 128

gisa_status gisa_assemble(const gisa_isa *isa, const char *filename, const char *text, size_t len, gisa_word **words,
                          size_t *nwords, gisa_diags *diags)
{
    if (!isa || !words || !nwords || (!text && len))
        return GISA_ERR_USAGE;
    *words = NULL;
    *nwords = 0;
    if (!filename)
        filename = "<input>";
    size_t bom = text ? utf8_bom_len(text, len) : 0; /* not part of line 1 */
    text += bom;
    len -= bom;
    /* the first guess of the number of words comes from the text's size (a
     * line of 48 bytes is a short one), then it doubles: most files need
     * no copy of the words */
    sink k = {NULL, 0, 0, len / 48 < 1024 ? 1024 : len / 48 > ASM_MAX_WORDS ? ASM_MAX_WORDS : len / 48, 0, 0, diags, filename};
    char *clean = NULL;
    size_t clean_cap = 0;
    int in_comment = 0, lineno = 0, nomem = 0;
    statement st;
    asm_error err;
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
    while (!nomem && pos < len) {
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
                nomem = take(isa, &k, &st, 0, &err);
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
        int in_place = !in_comment && slash >= e && nul >= e && e + ASM_PAD < len;
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
            if (in_comment || slash < e || nul < e)
                blank_comments(src, ll, clean, &in_comment);
            else
                memcpy(clean, src, ll);
            memset(clean + ll, 0, ASM_PAD + 1);
            line = clean;
        }
        int may_split = !in_place || semi < e; /* a blanked comment may have held the ';' */
        size_t s = 0;
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
                nomem = take(isa, &k, &st, asm_parse_statement(isa, line, q, &st, &err), &err);
            }
            s = t + 1;
        }
    }
    free(clean);
    if (in_comment && !k.errors && !nomem) {
        srcloc at = {filename, lineno, 1, 1, NULL, 0};
        diag_add(diags, GISA_ERROR, &at, "unterminated /* comment at the end of the file");
        k.errors++;
    }
    if (nomem) {
        if (k.too_many)
            diag_add(diags, GISA_ERROR, NULL, "%s: more than %u instructions (the limit of one file)", filename,
                     ASM_MAX_WORDS);
        else
            diag_add(diags, GISA_ERROR, NULL, "%s: out of memory after %zu instructions", filename, k.n);
        free(k.w);
        return GISA_ERR_NOMEM;
    }
    if (k.errors) {
        free(k.w);
        return GISA_ERR_INPUT;
    }
    *words = k.w;
    *nwords = k.n;
    return GISA_OK;
}

gisa_status gisa_assemble_one(const gisa_isa *isa, const char *text, gisa_word *word, gisa_diags *diags)
{
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_status s = gisa_assemble(isa, "<input>", text, text ? strlen(text) : 0, &w, &n, diags);
    if (s != GISA_OK)
        return s;
    if (n != 1) {
        diag_add(diags, GISA_ERROR, NULL, "expected exactly one instruction, got %zu", n);
        free(w);
        return GISA_ERR_INPUT;
    }
    *word = w[0];
    free(w);
    return GISA_OK;
}

gisa_status gisa_assemble_inst(const gisa_isa *isa, const char *text, gisa_inst *inst, gisa_diags *diags)
{
    gisa_word w;
    if (!inst)
        return GISA_ERR_USAGE;
    gisa_status s = gisa_assemble_one(isa, text, &w, diags);
    return s != GISA_OK ? s : gisa_decode(isa, w, inst);
}
