/* Assembler directives, the statements that start with '.':
 *   .inst VALUE {, VALUE}     raw instruction words (.word is the same)
 *   .invalid VALUE            a raw word the disassembler found invalid; what
 *                             `gisa dis` prints for one, so its output always
 *                             assembles back
 *   .include "FILE"           the statements of FILE, here
 * VALUE is 0x and up to 32 hex digits (16 for 64-bit targets). The parsing
 * is here; what a directive does (words, nested files) is the driver's
 * (assemble.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "asm/asm.h"
#include "common/diag.h"
#include "spec/cursor.h"

static int fail(asm_error *e, size_t col, size_t len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(asm_error *e, size_t col, size_t len, const char *fmt, ...)
{
    e->col = (int)col;
    e->len = len ? (int)len : 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static size_t skip_blank(const char *s, size_t i, size_t t)
{
    while (i < t && blank(s[i]))
        i++;
    return i;
}

/* One 0x value of up to `bits` bits at s[i..t); returns the position after
 * it, or 0 with *err filled. */
static size_t parse_value(const char *s, size_t i, size_t t, unsigned bits, gisa_word *w, asm_error *err)
{
    size_t b = i, e = i;
    while (e < t && !blank(s[e]) && s[e] != ',')
        e++;
    if (e - b < 3 || s[b] != '0' || (s[b + 1] != 'x' && s[b + 1] != 'X')) {
        fail(err, b, e - b ? e - b : 1, "expected a word written 0x and up to %u hex digits", bits / 4);
        return 0;
    }
    *w = (gisa_word){{0, 0}};
    size_t digits = 0, seen = 0;
    for (size_t k = b + 2; k < e; k++) {
        if (s[k] == '_') /* 0x1234_5678: groups for the eye */
            continue;
        int h = hex_digit(s[k]);
        if (h < 0) {
            fail(err, k, 1, "bad hex digit '%c' in a word", s[k]);
            return 0;
        }
        seen++;
        if (!digits && !h)
            continue; /* leading zeros count for nothing */
        if (++digits > bits / 4) {
            fail(err, b, e - b, "the value is wider than the %u-bit instruction word", bits);
            return 0;
        }
        w->w[1] = w->w[1] << 4 | w->w[0] >> 60;
        w->w[0] = w->w[0] << 4 | (uint64_t)h;
    }
    if (!seen) { /* `0x_`: separators with no digit are no value, not 0 */
        fail(err, b, e - b, "expected a word written 0x and up to %u hex digits (this one has no digit)", bits / 4);
        return 0;
    }
    return e;
}

static const char *const known[] = {"inst", "word", "invalid", "include"};

int asm_parse_directive(const gisa_isa *isa, const char *s, size_t q, size_t t, asm_directive *d, asm_error *err)
{
    size_t b = q + 1, i = b;
    while (i < t && is_ident_char(s[i]))
        i++;
    size_t n = i - b;
    int kind = -1;
    for (int k = 0; k < 4; k++)
        if (strlen(known[k]) == n && !memcmp(s + b, known[k], n))
            kind = k;
    if (kind < 0) {
        const char *best = NULL;
        int bestd = 3;
        for (int k = 0; k < 4; k++) {
            int dist = edit_distance(s + b, n, known[k], strlen(known[k]));
            if (dist < bestd && (size_t)dist < n) {
                bestd = dist;
                best = known[k];
            }
        }
        if (best)
            return fail(err, q, i - q, "unknown directive '.%.*s' (did you mean '.%s'?)", (int)(n > 40 ? 40 : n), s + b, best);
        return fail(err, q, i - q ? i - q : 1, "unknown directive '.%.*s' (expected .inst, .word, .invalid or .include)",
                    (int)(n > 40 ? 40 : n), s + b);
    }
    if (i < t && !blank(s[i]))
        return fail(err, i, 1, "expected a space after '.%s'", known[kind]);
    i = skip_blank(s, i, t);
    d->col = (int)q;
    if (kind == 3) { /* .include "FILE" */
        if (i >= t || s[i] != '"')
            return fail(err, i, 1, "expected a file name in double quotes: .include \"FILE\"");
        size_t nb = ++i;
        while (i < t && s[i] != '"')
            i++;
        if (i >= t)
            return fail(err, nb - 1, t - nb + 1, "missing the closing '\"' of the file name");
        if (i == nb)
            return fail(err, nb - 1, 2, "empty file name");
        if (i - nb >= ASM_MAX_NAME)
            return fail(err, nb, i - nb, "file name longer than %d characters", ASM_MAX_NAME - 1);
        memcpy(d->name, s + nb, i - nb);
        d->name[i - nb] = 0;
        d->name_col = (int)nb - 1;
        d->name_len = (int)(i - nb) + 2;
        d->nwords = 0;
        d->include = 1;
        d->invalid = 0;
        i = skip_blank(s, i + 1, t);
        if (i < t)
            return fail(err, i, t - i, "unexpected text after the file name");
        return 0;
    }
    d->include = 0;
    d->invalid = kind == 2;
    d->nwords = 0;
    unsigned bits = gisa_isa_word_bits(isa);
    for (;;) {
        if (i >= t)
            return fail(err, i, 1, "expected a word written 0x and up to %u hex digits", bits / 4);
        if (d->nwords == ASM_MAX_DIRECTIVE_WORDS)
            return fail(err, i, t - i, "more than %d words in one directive", ASM_MAX_DIRECTIVE_WORDS);
        size_t e = parse_value(s, i, t, bits, &d->words[d->nwords], err);
        if (!e)
            return -1;
        d->nwords++;
        i = skip_blank(s, e, t);
        if (i >= t)
            break;
        if (s[i] != ',')
            return fail(err, i, t - i, "expected ',' between words or the end of the statement");
        if (kind == 2)
            return fail(err, i, t - i, ".invalid takes one word");
        i = skip_blank(s, i + 1, t);
    }
    return 0;
}
