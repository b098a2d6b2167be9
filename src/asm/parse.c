/* Assembly statement syntax, independent of any instruction:
 *   [@[!]P] MNEMONIC[.MOD...] [operand {, operand}] [$sched=N] [$req=N] [$wsb=N]
 * operand:  [-|~|!] [|] core [.SUFFIX] [|] [.SUFFIX]
 * core:     R5 RZ UR3 P0 PT PR R[2:3] UR[4:5] R[UR2+0x1] c[0x0][0x100] 12 -0x10 1.5e3 inf 0f3F800000
 *           F1.5 F-2 FH3.14 FL1.1 (float values of targets whose plain numbers are raw bits)
 * The one call into the model is asm_find_mnemonic, made as soon as the
 * mnemonic is read: its loads then overlap the parsing of the operands
 * (+3% on the benchmark) instead of stalling the matcher. */
#include <stdio.h>
#include <string.h>

#include "asm/asm.h"
#include "spec/cursor.h"

static int fail(asm_error *e, size_t col, size_t len, const char *msg)
{
    e->col = (int)col;
    e->len = len ? (int)len : 1;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
    return -1;
}

/* Character classes: letters and '_', digits, white space (' ', '\t', '\r'),
 * the '.' of numbers, the characters that end a statement ('\n', ';', NUL). */
enum { CC_LETTER = 1, CC_DIGIT = 2, CC_SPACE = 4, CC_DOT = 8, CC_END = 16 };
static const unsigned char cclass[256] = {
    16, 0, 0, 0, 0, 0, 0, 0, 0, 4, 16, 0, 0, 4, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 16, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The statement ends at its first '\n', ';' or NUL: the scans below stop
 * there without testing for it, and the parser finds it rather than being
 * told (see asm.h). */

static inline int is_space(char c) { return cclass[(unsigned char)c] & CC_SPACE; }
static inline int at_end(const char *s, size_t i) { return cclass[(unsigned char)s[i]] & CC_END; }

/* The number of characters from i to the statement's end. */
static size_t to_end(const char *s, size_t i)
{
    size_t e = i;
    while (!at_end(s, e))
        e++;
    return e - i;
}

/* The position after white space from i. Text is mostly single spaces:
 * the loop (a mispredicted exit) runs only for more. */
static inline size_t skip(const char *s, size_t i)
{
    i += s[i] == ' ';
    while (is_space(s[i]))
        i++;
    return i;
}

static inline int is_alnum(char c) { return cclass[(unsigned char)c] & (CC_LETTER | CC_DIGIT); }

/* The end of the run of letters, digits and '_' from i. */
static inline size_t scan_alnum(const char *s, size_t i)
{
    while (is_alnum(s[i]))
        i++;
    return i;
}

/* The run of up to 4 decimal digits at p (register numbers, controls,
 * pair numbers: longer numbers are rare, and their callers go on digit by
 * digit) and its value, read as one word: no loop whose exit depends on
 * the number's length, which is a mispredicted branch per number.
 * p[0..4) must be readable. */
static inline size_t digits4(const char *p, uint64_t *v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t x;
    memcpy(&x, p, 4);
    /* a byte is a digit when it and it + 6 both are 0x3_ (a carry out of a
     * byte >= 0xFA only spoils bytes after a non-digit) */
    uint32_t nondigit = ((x & 0xF0F0F0F0u) ^ 0x30303030u) | (((x + 0x06060606u) & 0xF0F0F0F0u) ^ 0x30303030u);
    size_t n = nondigit ? (size_t)__builtin_ctz(nondigit) / 8 : 4;
    /* the digits into the high bytes, zeros below; then pairs, then all */
    uint64_t y = ((uint64_t)x << (8 * (4 - n))) & 0x0F0F0F0Fu;
    y = (y * 10 + (y >> 8)) & 0x00FF00FFu;
    *v = (y * 100 + (y >> 16)) & 0xFFFFu;
    return n;
#else
    size_t n = 0;
    uint64_t x = 0;
    while (n < 4 && is_digit(p[n]))
        x = x * 10 + (uint64_t)(p[n++] - '0');
    *v = x;
    return n;
#endif
}

/* A numeric literal: decimal/hex integers, floats (1.5, 1e-3, 0x1p4), raw 0f/0d/0h bits. */
static size_t scan_number(const char *s, size_t i)
{
    size_t b = i;
    int hex = s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    for (;;) {
        /* one table test per character (the statement's end stops it) */
        while (cclass[(unsigned char)s[i]] & (CC_LETTER | CC_DIGIT | CC_DOT))
            i++;
        char c = s[i];
        if ((c == '+' || c == '-') && i > b &&
            (hex ? (s[i - 1] == 'p' || s[i - 1] == 'P') : (s[i - 1] == 'e' || s[i - 1] == 'E')) &&
            !(s[b] == '0' && (s[b + 1] == 'f' || s[b + 1] == 'd' || s[b + 1] == 'h'))) {
            i++;
            continue;
        }
        return i - b;
    }
}

static int starts_number(const char *s, size_t i)
{
    if (is_digit(s[i]) || s[i] == '.')
        return 1;
    return (!strncmp(s + i, "inf", 3) || !strncmp(s + i, "nan", 3) || !strncmp(s + i, "INF", 3) || !strncmp(s + i, "NAN", 3)) &&
           !is_alnum(s[i + 3]);
}

/* Length of the prefix of an F-literal (F, FH or FL before an optionally
 * signed number), or 0. */
static size_t float_prefix(const char *s, size_t i)
{
    if (s[i] != 'F')
        return 0;
    size_t n = s[i + 1] == 'H' || s[i + 1] == 'L' ? 2 : 1;
    size_t j = i + n;
    if (s[j] == '-' || s[j] == '+')
        j++;
    return starts_number(s, j) ? n : 0;
}

/* A name from i (letters, digits, '_'), split where its number starts. */
static inline __attribute__((always_inline)) size_t scan_name(const char *s, size_t i, asm_regname *r)
{
    size_t b = i;
    uint64_t key = 0;
    while (cclass[(unsigned char)s[i]] == CC_LETTER)
        key = key << 8 | (unsigned char)s[i++];
    size_t d = i;
    uint64_t x;
    i += digits4(s + i, &x);
    while (cclass[(unsigned char)s[i]] == CC_DIGIT) /* too long for a register number anyway */
        x = x * 10 + (uint64_t)(s[i++] - '0');
    *r = (asm_regname){d - b, ASM_NO_NUMBER, d - b <= ASM_KEY_MAX ? key : 0};
    if (is_alnum(s[i])) /* more letters: no register number */
        return scan_alnum(s, i);
    /* 1 to 6 digits without a leading zero; selected, not branched on */
    int valid = (i > d) & (i - d <= 6) & ((s[d] != '0') | (i - d == 1));
    r->num = valid ? x : ASM_NO_NUMBER;
    return i;
}

/* cur_uint() at *pi (after white space), which it advances on success: a
 * decimal or 0x hex number, failing on overflow and on "12abc". */
static int parse_uint_at(const char *s, size_t *pi, uint64_t *v)
{
    size_t i = *pi;
    uint64_t x = 0;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        size_t d = i += 2;
        for (int h; (h = hex_digit(s[i])) >= 0; i++) {
            if (x >> 60)
                return 0;
            x = x * 16 + (uint64_t)h;
        }
        if (i == d)
            return 0;
    } else {
        size_t n = digits4(s + i, &x);
        if (!n)
            return 0;
        for (i += n; cclass[(unsigned char)s[i]] == CC_DIGIT; i++)
            if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, (uint64_t)(s[i] - '0'), &x))
                return 0;
    }
    if (is_alnum(s[i]) || s[i] == '$')
        return 0;
    *v = x;
    *pi = i;
    return 1;
}

/* Parses one operand starting at *pos and stops before the ',' or '$' that
 * follows it (one pass over the statement: no prior splitting). */
static int parse_operand(const char *s, size_t *pos, src_opnd *o, asm_error *err)
{
    size_t i = skip(s, *pos);
    o->col = (int)i;
    o->deco = 0;
    o->sfx = NULL;
    char c = s[i];
    if (!(cclass[(unsigned char)c] & (CC_LETTER | CC_DIGIT))) { /* no letter or digit: the end, prefixes, ".5" */
        if (at_end(s, i) || c == ',' || c == '$')
            return fail(err, i, 1, "expected an operand");
        for (;; c = s[i]) {
            if (c == '-' || c == '~' || c == '!') {
                if (o->abs)
                    return fail(err, i, 1, "a prefix inside |...|: write -|x| (|-x| is just |x|)");
                char *flag = c == '-' ? &o->neg : c == '~' ? &o->inv : &o->not_;
                if (o->neg || o->inv || o->not_)
                    return fail(err, i, 1, "only one of '-', '~' or '!' may prefix an operand");
                *flag = 1;
                o->neg_col = (int)i;
            } else if (c == '|' && !o->abs) {
                o->abs = 1;
            } else {
                break;
            }
            i++;
            i = skip(s, i);
            if (at_end(s, i))
                return fail(err, i, 1, "expected an operand after its prefix");
        }
    }
    /* by the first character: names are the most frequent operands */
    int letter = cclass[(unsigned char)c] == CC_LETTER;
    size_t flen = letter && c == 'F' ? float_prefix(s, i) : 0;
    if (flen) { /* F1.5  F-1.5  FH3.14  FL1.1: a float value, sign inside */
        o->fpfx = flen > 1 ? s[i + 1] : 'F';
        i += flen;
        o->num_neg = 0;
        if (s[i] == '-' || s[i] == '+')
            o->num_neg = s[i++] == '-';
        size_t n = scan_number(s, i);
        o->kind = SRC_NUMBER;
        o->cls = SRC_NUMBER;
        o->num = s + i;
        o->num_len = n;
        i += n;
    } else if ((c == 'c' || c == 'C') && s[i + 1] == '[') {
        i += 2;
        i = skip(s, i);
        if (!parse_uint_at(s, &i, &o->bank))
            return fail(err, i, 1, "expected the bank number in c[BANK][OFFSET]");
        i = skip(s, i);
        if (s[i] != ']' || s[i + 1] != '[')
            return fail(err, i, 1, "expected '][' in c[BANK][OFFSET]");
        i += 2;
        i = skip(s, i);
        int rz = s[i] == 'R' && s[i + 1] == 'Z' && !is_alnum(s[i + 2]);
        if (rz) { /* c[BANK][RZ+OFFSET]: the zero register as the index (asfermi) */
            i = skip(s, i + 2);
            o->offset = 0;
            if (s[i] == '+') {
                i = skip(s, i + 1);
                rz = 0;
            }
        }
        if (!rz && !parse_uint_at(s, &i, &o->offset))
            return fail(err, i, 1, "expected the byte offset in c[BANK][OFFSET]");
        i = skip(s, i);
        if (s[i] != ']')
            return fail(err, i, 1, "expected ']' closing c[BANK][OFFSET]");
        i++;
        o->kind = SRC_CMEM;
        o->cls = SRC_CMEM;
    } else if (letter ? ((c | 32) == 'i' || (c | 32) == 'n') && starts_number(s, i) : starts_number(s, i)) {
        size_t n = scan_number(s, i);
        o->fpfx = o->num_neg = 0;
        o->kind = SRC_NUMBER;
        o->cls = SRC_NUMBER;
        o->num = s + i;
        o->num_len = n;
        i += n;
    } else if (letter) {
        size_t n = scan_name(s, i, &o->reg) - i;
        o->name = s + i;
        o->name_len = n;
        i += n;
        if (s[i] == '[') { /* R[2:3] or R[UR2+0x1] */
            i++;
            i = skip(s, i);
            if (is_digit(s[i])) {
                if (!parse_uint_at(s, &i, &o->pair_lo))
                    return fail(err, i, 1, "expected a register number in R[LO:HI]");
                i = skip(s, i);
                if (s[i] != ':')
                    return fail(err, i, 1, "expected ':' in the register pair R[LO:HI]");
                i++;
                i = skip(s, i);
                if (!parse_uint_at(s, &i, &o->pair_hi))
                    return fail(err, i, 1, "expected a register number after ':'");
                o->kind = SRC_PAIR;
                o->cls = asm_name_class(o->name[0]);
            } else {
                size_t nb = i;
                o->index = 0;
                i = scan_name(s, i, &o->reg);
                if (i == nb)
                    return fail(err, i, 1, "expected a uniform register inside R[...]");
                o->name = s + nb; /* the index register */
                o->name_len = i - nb;
                i = skip(s, i);
                if (s[i] == '+' || s[i] == '-') {
                    int neg = s[i] == '-';
                    i++;
                    i = skip(s, i);
                    if (s[i] == '-') {
                        neg = !neg;
                        i++;
                    }
                    uint64_t v;
                    size_t j = skip(s, i);
                    if (!parse_uint_at(s, &j, &v))
                        return fail(err, i, 1, "expected an offset after '+' in R[URb+OFFSET]");
                    i = j;
                    if (v > (UINT64_C(1) << 40))
                        return fail(err, i, 1, "expected an offset after '+' in R[URb+OFFSET]");
                    o->index = neg ? -(int64_t)v : (int64_t)v;
                }
                o->kind = SRC_INDEXED;
                o->cls = SRC_INDEXED;
            }
            i = skip(s, i);
            if (s[i] != ']')
                return fail(err, i, 1, "expected ']'");
            i++;
        } else {
            o->kind = SRC_NAME;
            o->cls = asm_name_class(o->name[0]);
        }
    } else {
        char m[64];
        snprintf(m, sizeof m, "unexpected '%c' at the start of an operand", c);
        return fail(err, i, 1, m);
    }
    if (s[i] == ',' && !o->abs) { /* the usual end: what the loop below finds */
        o->len = (int)(i - (size_t)o->col);
        *pos = i;
        return 0;
    }
    /* suffix and closing bar, in either order; the operand ends with the
     * last of them (not with the blanks, or a blanked comment, after it) */
    int k;
    size_t end = i;
    for (k = 0; k < 3; k++) {
        i = skip(s, i);
        if (s[i] != '.' && s[i] != '|')
            break; /* nor in the next rounds */
        if (s[i] == '.' && !o->sfx) {
            o->sfx_col = (int)i;
            i++;
            size_t nb = i;
            i = scan_alnum(s, i);
            if (i == nb)
                return fail(err, i, 1, "expected a suffix name after '.'");
            o->sfx = s + nb;
            o->sfx_len = i - nb;
        } else if (s[i] == '|' && o->abs == 1) {
            o->abs = 2;
            i++;
        }
        end = i;
    }
    o->len = (int)(end - (size_t)o->col);
    if (o->abs == 1)
        return fail(err, (size_t)o->col, (size_t)o->len, "missing the closing '|' of an absolute value");
    if (o->abs == 2)
        o->abs = 1;
    if (k == 3)
        i = skip(s, i);
    if (!at_end(s, i) && s[i] != ',' && s[i] != '$') {
        /* "R0 R1": a space, then what starts an operand: a forgotten comma */
        if (i > *pos && is_space(s[i - 1]) &&
            (is_alnum(s[i]) || s[i] == '-' || s[i] == '~' || s[i] == '!' || s[i] == '|')) {
            size_t e = i;
            while (!at_end(s, e) && s[e] != ',' && s[e] != '$' && !is_space(s[e]))
                e++;
            char m[96];
            snprintf(m, sizeof m, "expected ',' before '%.*s': operands are separated by commas", (int)(e - i > 32 ? 32 : e - i), s + i);
            return fail(err, i, e - i, m);
        }
        size_t e = i;
        while (!at_end(s, e) && s[e] != ',' && s[e] != '$')
            e++;
        while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t'))
            e--;
        char m[80];
        snprintf(m, sizeof m, "unexpected '%c' in operand", s[i]);
        return fail(err, i, e - i, m);
    }
    *pos = i;
    return 0;
}

/* The usual spelling of a control at s[i] == '$': "$sched=N", "$req=N" or
 * "$wsb=N" with no spaces and a decimal N of at most 4 digits. Returns the position after N and sets *k and *v, or
 * returns 0: parse_controls then reads it the general way. */
static size_t quick_control(const char *s, size_t i, int *k, uint64_t *v)
{
    size_t j;
    if (!memcmp(s + i, "$sched=", 7)) {
        *k = 0;
        j = i + 7;
    } else if (!memcmp(s + i, "$req=", 5) || !memcmp(s + i, "$wsb=", 5)) {
        *k = s[i + 1] == 'r' ? 1 : 2;
        j = i + 5;
    } else {
        return 0;
    }
    uint64_t x;
    size_t n = digits4(s + j, &x);
    j += n;
    if (!n || is_alnum(s[j]) || s[j] == '$')
        return 0;
    *v = x;
    return j;
}

static int parse_controls(const char *s, size_t i, statement *st, asm_error *err)
{
    static const char *const names[3] = {"$sched", "$req", "$wsb"};
    for (;;) {
        i = skip(s, i);
        if (at_end(s, i)) {
            st->end = i;
            return 0;
        }
        if (s[i] == ',') {
            i++;
            continue;
        }
        size_t b = i, j;
        int q;
        uint64_t v;
        if (s[i] == '$' && (j = quick_control(s, i, &q, &v)) != 0 && !st->ctl_given[q]) {
            st->ctl_val[q] = v;
            st->ctl_given[q] = 1;
            st->ctl_col[q] = (int)b;
            i = j;
            continue;
        }
        if (s[i] != '$')
            return fail(err, i, to_end(s, i), "expected a scheduling control ($sched=N, $req=N, $wsb=N)");
        i++;
        i = scan_alnum(s, i);
        int k = i - b == 6 && !memcmp(s + b, names[0], 6)   ? 0
                : i - b == 4 && !memcmp(s + b, names[1], 4) ? 1
                : i - b == 4 && !memcmp(s + b, names[2], 4) ? 2
                                                            : 3;
        if (k == 3)
            return fail(err, b, i - b, "unknown scheduling control (expected $sched, $req or $wsb)");
        if (st->ctl_given[k])
            return fail(err, b, i - b, "scheduling control given twice");
        i = skip(s, i);
        if (s[i] != '=')
            return fail(err, i, 1, "expected '=' and a number after the scheduling control");
        i++;
        i = skip(s, i);
        if (!parse_uint_at(s, &i, &st->ctl_val[k]))
            return fail(err, i, 1, "expected a number after '='");
        st->ctl_given[k] = 1;
        st->ctl_col[k] = (int)b;
    }
}

int asm_parse_statement(const gisa_isa *isa, const char *s, size_t i, statement *st, asm_error *err)
{
    st->nwords = st->nops = 0;
    st->guard_present = st->guard_not = 0;
    memset(st->ctl_given, 0, sizeof st->ctl_given);
    i = skip(s, i);
    if (s[i] == '@') {
        st->guard_col = (int)i;
        i++;
        i = skip(s, i);
        st->guard_not = s[i] == '!';
        i += (size_t)st->guard_not;
        size_t b = i;
        i = scan_name(s, i, &st->guard_reg);
        if (i == b)
            return fail(err, i, 1, "expected a predicate after '@'");
        st->guard_present = 1;
        st->guard = s + b;
        st->guard_len = i - b;
        i = skip(s, i);
    }
    size_t b = i;
    if (!is_ident_start(s[i]) || s[i] == '$')
        return fail(err, i, 1, "expected an instruction name");
    i = scan_alnum(s, i);
    st->mnem = s + b;
    st->mnem_col = (int)b;
    while (s[i] == '.') {
        size_t wb = ++i;
        i = scan_alnum(s, i);
        if (i == wb)
            return fail(err, wb - 1, 1, "expected a modifier name after '.'");
        if (st->nwords == ASM_MAX_MODS)
            return fail(err, wb, i - wb, "too many modifiers");
        st->words[st->nwords++] = (src_word){s + wb, i - wb, (int)wb, -1};
    }
    st->mnem_len = i - b;
    if (s[i] == ':' && !st->nwords && !st->guard_present)
        return fail(err, b, i + 1 - b, "labels are not part of this ISA: it has no branches, so nothing can refer to one (write it as a comment: // start)");
    if (!at_end(s, i) && !is_space(s[i]))
        return fail(err, i, 1, "expected a space after the instruction name");
    asm_find_mnemonic(isa, st);
    /* operands separated by ',', then the '$' controls */
    i = skip(s, i);
    if (!at_end(s, i) && s[i] != '$')
        for (;;) {
            if (st->nops == ASM_MAX_OPERANDS)
                return fail(err, i, to_end(s, i), "too many operands");
            if (parse_operand(s, &i, &st->ops[st->nops], err))
                return -1;
            st->nops++;
            if (s[i] != ',')
                break;
            i++;
        }
    return parse_controls(s, i, st, err);
}
