/* The assembler driver: walks source text line by line, blanks out comments
 * (keeping columns), splits statements at ';', and reports every error with
 * its line and a caret, up to the diagnostics limit. */
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
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

gisa_status gisa_assemble(const gisa_isa *isa, const char *filename, const char *text, size_t len, gisa_word **words,
                          size_t *nwords, gisa_diags *diags)
{
    if (!isa || !words || !nwords || (!text && len))
        return GISA_ERR_USAGE;
    *words = NULL;
    *nwords = 0;
    if (!filename)
        filename = "<input>";
    size_t cap = 0, n = 0;
    gisa_word *out = NULL;
    char *clean = NULL;
    size_t clean_cap = 0;
    int in_comment = 0, lineno = 0, errors = 0, nomem = 0, too_many = 0;
    statement st;
    size_t pos = 0, b, e;
    /* the next '/', NUL and ';' of the text: one memchr per occurrence
     * rather than three per line */
    size_t slash = len ? next_of(text, len, 0, '/') : 0, nul = len ? next_of(text, len, 0, 0) : 0,
           semi = len ? next_of(text, len, 0, ';') : 0;
    while (!nomem && next_line(text, len, &pos, &b, &e)) {
        lineno++;
        size_t ll = e - b;
        slash = slash < b ? next_of(text, len, b, '/') : slash;
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
        while (s <= ll) {
            const char *sc = may_split ? memchr(line + s, ';', ll - s) : NULL;
            size_t t = sc ? (size_t)(sc - line) : ll;
            size_t q = s;
            while (q < t && (line[q] == ' ' || line[q] == '\t' || line[q] == '\r'))
                q++;
            if (q < t) {
                asm_error err;
                int keep = 1; /* the word goes to the output */
                st.line = src;
                st.line_len = ll;
                st.lineno = lineno;
                gisa_word w;
                if (asm_parse_statement(line, q, t, &st, &err) || asm_encode(isa, &st, &w, &err)) {
                    /* past the diagnostics limit errors are still counted,
                     * so that callers can say how many were not shown */
                    report(diags, GISA_ERROR, filename, &st, &err);
                    errors++;
                    keep = 0;
                } else if (st.has_warn) {
                    report(diags, GISA_WARNING, filename, &st, &st.warn);
                }
                if (keep && !errors) {
                    if (n == cap) {
                        /* first a guess from the text's size (a line of
                         * 48 bytes is a short one), then doubling: most
                         * files need no copy of the words */
                        size_t guess = len / 48 < 1024 ? 1024 : len / 48 > ASM_MAX_WORDS ? ASM_MAX_WORDS : len / 48;
                        size_t nc = cap ? cap * 2 : guess;
                        too_many = nc > ASM_MAX_WORDS;
                        gisa_word *p = too_many ? NULL : realloc(out, nc * sizeof *p);
                        if (!p) {
                            nomem = 1;
                            break;
                        }
                        out = p;
                        cap = nc;
                    }
                    out[n++] = w;
                }
            }
            s = t + 1;
        }
    }
    free(clean);
    if (in_comment && !errors && !nomem) {
        srcloc at = {filename, lineno, 1, 1, NULL, 0};
        diag_add(diags, GISA_ERROR, &at, "unterminated /* comment at the end of the file");
        errors++;
    }
    if (nomem) {
        if (too_many)
            diag_add(diags, GISA_ERROR, NULL, "%s: more than %u instructions (the limit of one file)", filename,
                     ASM_MAX_WORDS);
        else
            diag_add(diags, GISA_ERROR, NULL, "%s: out of memory after %zu instructions", filename, n);
        free(out);
        return GISA_ERR_NOMEM;
    }
    if (errors) {
        free(out);
        return GISA_ERR_INPUT;
    }
    *words = out;
    *nwords = n;
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
