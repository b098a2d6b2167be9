/* The decoded-instruction API of gisa.h (gisa_inst: gisa_decode,
 * gisa_encode, gisa_print and the operand / modifier / guard / control
 * accessors), on every embedded target:
 *
 *  1. decode -> encode is the identity, on random valid words of every
 *     opcode and form (testgen.h), the golden listing, the words assembled
 *     from the sources in examples/ (and a small Fermi program), uniformly
 *     random words, random bits in a real opcode's fields, and valid words
 *     with 1-3 bits flipped: whenever gisa_decode accepts a word,
 *     gisa_encode gives GISA_OK and the same word.
 *  2. gisa_decode refuses exactly the words gisa_disassemble prints as
 *     `.invalid`, with the same reason (the text after "// " is inst.why);
 *     for accepted words gisa_print gives gisa_disassemble's text.
 *  3. The operand walk matches the printed text, form by form: the text's
 *     operand list is parsed HERE, without the library (guard, mnemonic and
 *     its dotted modifiers, operands split at top-level ", ", decorations
 *     `!` `-` `~` `|x|`, registers, pairs, c[][], R[URx+d], numbers, F16x2
 *     pairs, `.SUFFIX`, `$sched/$req/$wsb`), and every present operand of
 *     gisa_inst_operand must agree with it (kind class, register number and
 *     zero-ness, bank/offset, displacement, immediate value, decorations,
 *     suffix), as must gisa_inst_guard, gisa_inst_controls and the
 *     modifiers (the non-default ones are exactly the dotted words after
 *     the mnemonic, in order). Every (opcode, form) must be reached.
 *  4. gisa_encode refuses bad input with a reason and never crashes: out of
 *     range opcode / form and values wider than their field (GISA_ERR_USAGE,
 *     the reason names the field), a changed fixed field and values that
 *     make no valid word (GISA_ERR_INPUT, the decoder's reason); gisa_print
 *     refuses out-of-range values; NULL arguments give GISA_ERR_USAGE.
 *
 * Fixed seeds; failures name the check, the target, the word (hex), the
 * opcode and form, and the text. */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testgen.h"
#include "testlib.h"

#define WORDS_PER_FORM 250 /* generated valid words per (opcode, form) */
#define NRANDOM 250000L    /* uniformly random words per target */
#define NFLIPPED 250000L   /* valid words with 1-3 bits flipped, per target */
#define MAX_REPORT 12      /* detailed failure lines per check */

/* ------------------------------------------------------------ reporting */

enum {
    K_IDENT,    /* 1: decode -> encode identity */
    K_REJECT,   /* 2: decode fails iff disassemble says .invalid */
    K_WHY,      /* 2: same reason */
    K_PRINT,    /* 2: gisa_print == gisa_disassemble */
    K_DECODE,   /* decode's own promises (opcode, word, field[64], names) */
    K_PARSE,    /* 3: the text could not be parsed by the test */
    K_OPERAND,  /* 3: operand walk vs text */
    K_GUARD,    /* 3: gisa_inst_guard vs '@' */
    K_CTL,      /* 3: gisa_inst_controls vs '$' */
    K_MODS,     /* 3: modifiers vs the dotted words */
    K_COVER,    /* 3: (opcode, form) reached */
    K_ENCBAD,   /* 4: gisa_encode / gisa_print refusals */
    K_NULL,     /* 4: NULL and out-of-range arguments */
    K_SOURCES,  /* golden / examples could not be read or assembled */
    K_COUNT
};
static const char *const kname[K_COUNT] = {"decode->encode identity", "decode vs .invalid", "reason",
                                           "gisa_print vs gisa_disassemble", "decode result",
                                           "text parse", "operand walk", "guard", "controls", "modifiers",
                                           "form coverage", "encode refusal", "bad arguments", "sources"};
static long failures[K_COUNT];
static int reported[K_COUNT];

static const gisa_isa *isa;
static const char *tname; /* target name */

static void hexword(gisa_word w, char out[40])
{
    if (gisa_isa_word_bits(isa) == 64 && !w.w[1])
        snprintf(out, 40, "0x%016llx", (unsigned long long)w.w[0]);
    else
        snprintf(out, 40, "0x%016llx%016llx", (unsigned long long)w.w[1], (unsigned long long)w.w[0]);
}

/* Records a failure of check k; the first MAX_REPORT of each are printed
 * with the word, its opcode and form, and the text when given. */
static void fail(int k, gisa_word w, int opcode, int form, const char *text, const char *fmt, ...)
{
    failures[k]++;
    if (reported[k]++ >= MAX_REPORT)
        return;
    char hex[40], msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hexword(w, hex);
    const char *on = opcode >= 0 && (size_t)opcode < gisa_isa_opcode_count(isa) ? gisa_isa_opcode_name(isa, (size_t)opcode) : "?";
    fprintf(stderr, "FAIL [%s] %s word %s (%s form %d): %s\n", kname[k], tname, hex, on, form, msg);
    if (text)
        fprintf(stderr, "    text: %s\n", text);
}

/* Formats a reason into why[cap] and returns it. */
static const char *say(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return why;
}

/* Copies at most cap-1 bytes of s (n of them) and a NUL. */
static void copy_n(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

static void copy(char *dst, size_t cap, const char *s) { copy_n(dst, cap, s, strlen(s)); }

static int word_eq(gisa_word a, gisa_word b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }

/* ------------------------------------------------------------ the text, parsed here */

/* Register numbers of the zero registers, written down from the
 * documents (types.isa of each target), not read from the model. */
typedef struct zeros {
    unsigned rz, urz, pt, upt;
    int pair_first; /* a 64-bit pair may be written as its first register (Fermi) */
} zeros;
static zeros Z;

typedef enum tkind { T_REG, T_PAIR, T_UREG, T_UPAIR, T_PRED, T_UPRED, T_PR, T_CBANK, T_INDEXED, T_NUM } tkind;

typedef struct titem {
    char raw[160];  /* the item as split from the operand list */
    int not_, neg, inv, abs_open, abs_close;
    char suffix[40]; /* after the last '.', "" when none */
    char body[160];  /* without decorations, '|' and suffix */
    char plain[160]; /* without the closing '|' and the suffix: a number with its own sign */
    tkind kind;
    int zero;
    unsigned long reg, reg2, bank, offset;
    long long disp;
} titem;

#define MAX_ITEMS 24
#define MAX_TOKENS 16

typedef struct tline {
    int has_guard, guard_not;
    unsigned guard_pred;
    unsigned long ctl[3];
    char first[128];              /* mnemonic and its dotted modifiers */
    char tok[MAX_TOKENS][40];     /* the dotted words after the mnemonic (filled by check_modifiers) */
    int ntok;
    titem item[MAX_ITEMS];
    int nitems;
    char err[160];
} tline;

/* "123" entirely digits: its value. */
static int parse_dec(const char *s, size_t n, unsigned long *v)
{
    if (!n || n > 9)
        return 0;
    unsigned long x = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        x = x * 10 + (unsigned long)(s[i] - '0');
    }
    *v = x;
    return 1;
}

/* "0x1f" entirely: its value. */
static int parse_hex(const char *s, size_t n, unsigned long long *v)
{
    if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x')
        return 0;
    unsigned long long x = 0;
    for (size_t i = 2; i < n; i++) {
        if (!isxdigit((unsigned char)s[i]))
            return 0;
        x = x * 16 + (unsigned long long)(isdigit((unsigned char)s[i]) ? s[i] - '0' : tolower((unsigned char)s[i]) - 'a' + 10);
    }
    *v = x;
    return 1;
}

/* Register-like names: prefix then a number or "[a:b]"; 1 on a match. */
static int parse_regname(const char *b, const char *prefix, unsigned long *reg, unsigned long *reg2, int *pair)
{
    size_t pl = strlen(prefix), n = strlen(b);
    if (strncmp(b, prefix, pl))
        return 0;
    const char *s = b + pl;
    n -= pl;
    *pair = 0;
    if (n > 2 && s[0] == '[' && s[n - 1] == ']') {
        const char *colon = memchr(s, ':', n);
        if (!colon)
            return 0;
        *pair = 1;
        return parse_dec(s + 1, (size_t)(colon - s - 1), reg) && parse_dec(colon + 1, (size_t)(s + n - 1 - colon - 1), reg2);
    }
    return parse_dec(s, n, reg);
}

static void classify(titem *t)
{
    const char *b = t->body;
    unsigned long r = 0, r2 = 0;
    int pair;
    unsigned long long x, y;
    t->kind = T_NUM;
    if (!strcmp(b, "PR")) {
        t->kind = T_PR;
    } else if (!strcmp(b, "RZ")) {
        t->kind = T_REG, t->zero = 1;
    } else if (!strcmp(b, "URZ")) {
        t->kind = T_UREG, t->zero = 1;
    } else if (!strcmp(b, "PT")) {
        t->kind = T_PRED, t->zero = 1;
    } else if (!strcmp(b, "UPT")) {
        t->kind = T_UPRED, t->zero = 1;
    } else if (!strncmp(b, "R[UR", 4)) { /* R[URb], R[URb+0x10], R[URZ-0x4] */
        const char *s = b + 2, *e = b + strlen(b) - 1;
        const char *op = s + strcspn(s, "+-]");
        if (*e != ']')
            return;
        t->kind = T_INDEXED;
        if (!strncmp(s, "URZ", 3) && op == s + 3)
            t->zero = 1;
        else if (!parse_dec(s + 2, (size_t)(op - s - 2), &r))
            t->kind = T_NUM; /* not an indexed operand: a parse error later */
        t->reg = r;
        t->disp = 0;
        if (*op == '+' || *op == '-') {
            if (!parse_hex(op + 1, (size_t)(e - op - 1), &x))
                t->kind = T_NUM;
            t->disp = *op == '-' ? -(long long)x : (long long)x;
        }
    } else if (parse_regname(b, "UR", &r, &r2, &pair)) {
        t->kind = pair ? T_UPAIR : T_UREG, t->reg = r, t->reg2 = r2;
    } else if (parse_regname(b, "R", &r, &r2, &pair)) {
        t->kind = pair ? T_PAIR : T_REG, t->reg = r, t->reg2 = r2;
    } else if (parse_regname(b, "UP", &r, &r2, &pair) && !pair) {
        t->kind = T_UPRED, t->reg = r;
    } else if (parse_regname(b, "P", &r, &r2, &pair) && !pair) {
        t->kind = T_PRED, t->reg = r;
    } else if (!strncmp(b, "c[", 2)) {
        const char *m = strstr(b, "][");
        size_t n = strlen(b);
        if (m && b[n - 1] == ']' && parse_hex(b + 2, (size_t)(m - b - 2), &x) && parse_hex(m + 2, (size_t)(b + n - 1 - m - 2), &y))
            t->kind = T_CBANK, t->bank = (unsigned long)x, t->offset = (unsigned long)y;
    }
}

/* One operand item: decorations, closing '|', suffix, body. */
static void parse_item(titem *t, const char *s, size_t n)
{
    memset(t, 0, sizeof *t);
    copy_n(t->raw, sizeof t->raw, s, n);
    const char *p = t->raw;
    if (*p == '!')
        t->not_ = 1, p++;
    if (*p == '-')
        t->neg = 1, p++;
    else if (*p == '~')
        t->inv = 1, p++;
    if (*p == '|')
        t->abs_open = 1, p++;
    char tail[160]; /* the raw item without the closing '|' and the suffix */
    copy(tail, sizeof tail, t->raw);
    size_t len = strlen(tail);
    if (len && tail[len - 1] == '|')
        t->abs_close = 1, tail[--len] = 0;
    char *dot = strrchr(tail, '.');
    if (dot && isupper((unsigned char)dot[1]) && strspn(dot + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(dot + 1)) {
        copy(t->suffix, sizeof t->suffix, dot + 1);
        *dot = 0;
    }
    copy(t->plain, sizeof t->plain, tail);
    size_t skip = (size_t)(p - t->raw);
    copy(t->body, sizeof t->body, strlen(tail) >= skip ? tail + skip : "");
    classify(t);
}

/* Splits a printed line. Returns 0 and sets L->err on malformed text. */
static int parse_line(const char *text, tline *L)
{
    char buf[600];
    memset(L, 0, sizeof *L);
    copy(buf, sizeof buf, text);
    char *p = buf;
    if (*p == '@') {
        p++;
        L->has_guard = 1;
        if (*p == '!')
            L->guard_not = 1, p++;
        char *sp = strchr(p, ' ');
        if (!sp) {
            snprintf(L->err, sizeof L->err, "guard without a space");
            return 0;
        }
        *sp = 0;
        unsigned long g;
        if (!strcmp(p, "PT"))
            L->guard_pred = Z.pt;
        else if (p[0] == 'P' && parse_dec(p + 1, strlen(p + 1), &g))
            L->guard_pred = (unsigned)g;
        else {
            say(L->err, sizeof L->err, "guard '%s' is no predicate", p);
            return 0;
        }
        p = sp + 1;
    }
    /* scheduling controls: " $name=N" at the end, in any order */
    char *dollar = strstr(p, " $");
    if (dollar) {
        *dollar = 0;
        char *save = NULL;
        for (char *t = strtok_r(dollar + 1, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            static const char *const cn[3] = {"$sched=", "$req=", "$wsb="};
            int k;
            for (k = 0; k < 3 && strncmp(t, cn[k], strlen(cn[k])); k++)
                ;
            unsigned long v;
            if (k == 3 || !parse_dec(t + strlen(cn[k]), strlen(t + strlen(cn[k])), &v)) {
                say(L->err, sizeof L->err, "bad control '%s'", t);
                return 0;
            }
            L->ctl[k] = v;
        }
    }
    char *sp = strchr(p, ' ');
    if (sp)
        *sp = 0;
    copy(L->first, sizeof L->first, p);
    if (!sp)
        return 1;
    /* operands: split at ", " outside brackets */
    char *s = sp + 1;
    int depth = 0;
    char *start = s;
    for (;; s++) {
        if (*s == '[')
            depth++;
        else if (*s == ']')
            depth--;
        if (*s == 0 || (depth == 0 && s[0] == ',' && s[1] == ' ')) {
            if (L->nitems == MAX_ITEMS || s == start) {
                snprintf(L->err, sizeof L->err, "too many or empty operands");
                return 0;
            }
            parse_item(&L->item[L->nitems++], start, (size_t)(s - start));
            if (!*s)
                break;
            s++;
            start = s + 1;
        }
    }
    return 1;
}

/* ------------------------------------------------------------ numbers */

/* An integer as printed: optional '-', then hex or decimal. */
static int text_int(const char *s, int *neg, unsigned long long *mag)
{
    *neg = *s == '-';
    s += *neg;
    if (!*s || !isdigit((unsigned char)*s))
        return 0;
    char *e;
    *mag = strtoull(s, &e, 0);
    return *e == 0;
}

static int raw_bits(const char *s, char letter, int digits, uint64_t *bits)
{
    unsigned long long v;
    if (s[0] != '0' || s[1] != letter || (int)strlen(s + 2) != digits)
        return 0;
    char tmp[24] = "0x";
    copy(tmp + 2, sizeof tmp - 2, s + 2);
    if (!parse_hex(tmp, strlen(tmp), &v))
        return 0;
    *bits = v;
    return 1;
}

static int text_f32(const char *s, uint64_t *bits)
{
    if (raw_bits(s, 'f', 8, bits))
        return 1;
    if (!*s || (!isdigit((unsigned char)s[*s == '-']) && strcmp(s + (*s == '-'), "inf")))
        return 0;
    char *e;
    float f = strtof(s, &e);
    uint32_t b;
    memcpy(&b, &f, 4);
    *bits = b;
    return *e == 0;
}

static int text_f64(const char *s, uint64_t *bits)
{
    if (raw_bits(s, 'd', 16, bits))
        return 1;
    if (!*s || (!isdigit((unsigned char)s[*s == '-']) && strcmp(s + (*s == '-'), "inf")))
        return 0;
    char *e;
    double d = strtod(s, &e);
    memcpy(bits, &d, 8);
    return *e == 0;
}

/* The value of a 16-bit float (F16: 5/10, BF16: 8/7 bits). */
static double half_value(unsigned h, int bf16)
{
    int eb = bf16 ? 8 : 5, mb = bf16 ? 7 : 10, bias = (1 << (eb - 1)) - 1;
    unsigned e = (h >> mb) & ((1u << eb) - 1), m = h & ((1u << mb) - 1);
    double v;
    if (e == (1u << eb) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mb);
    else
        v = ldexp((double)(m | 1u << mb), (int)e - bias - mb);
    return h & 0x8000 ? -v : v;
}

/* Whether the text reads back to the half h: raw 0hXXXX bits, or a decimal
 * number that is nearer to h than to its neighbours, with h's sign. */
static int text_half(const char *s, unsigned h, int bf16)
{
    uint64_t b;
    if (raw_bits(s, 'h', 4, &b))
        return b == h;
    if (!*s || (!isdigit((unsigned char)s[*s == '-']) && strcmp(s + (*s == '-'), "inf")))
        return 0;
    char *e;
    double d = strtod(s, &e);
    if (*e || isnan(half_value(h, bf16)) || !signbit(d) != !(h & 0x8000))
        return 0;
    unsigned m = h & 0x7fff;
    double a = fabs(d), v = half_value(m, bf16);
    if (isinf(v))
        return isinf(a);
    if (m > 0 && fabs(a - half_value(m - 1, bf16)) < fabs(a - v))
        return 0;
    double up = half_value(m + 1, bf16);
    return isinf(up) ? a < v + (v - half_value(m - 1, bf16)) : fabs(a - up) >= fabs(a - v);
}

/* ------------------------------------------------------------ checks of one accepted word */

static const char *kind_name(gisa_operand_kind k)
{
    static const char *const n[] = {"REG", "PAIR", "UREG", "UPAIR", "PRED", "UPRED", "PR",
                                    "IMM", "F32", "F64", "F16X2", "CBANK", "INDEXED"};
    return (unsigned)k < sizeof n / sizeof *n ? n[k] : "?";
}

static const char *deco_str(unsigned d, char out[16])
{
    snprintf(out, 16, "%s%s%s%s%s", d & GISA_DECO_NOT ? "!" : "", d & GISA_DECO_NEG ? "-" : "", d & GISA_DECO_INV ? "~" : "",
             d & GISA_DECO_ABS ? "|" : "", d ? "" : "none");
    return out;
}

/* Register-like operand vs text item: kind class, number, zero-ness. */
static const char *check_reg(const gisa_operand *o, const titem *a, char *why, size_t cap)
{
    tkind single, pair;
    unsigned zero;
    switch (o->kind) {
    case GISA_OPND_REG: case GISA_OPND_PAIR: single = T_REG, pair = T_PAIR, zero = Z.rz; break;
    case GISA_OPND_UREG: case GISA_OPND_UPAIR: single = T_UREG, pair = T_UPAIR, zero = Z.urz; break;
    case GISA_OPND_PRED: single = pair = T_PRED, zero = Z.pt; break;
    default: single = pair = T_UPRED, zero = Z.upt; break;
    }
    int is_pair_kind = o->kind == GISA_OPND_PAIR || o->kind == GISA_OPND_UPAIR;
    if (is_pair_kind) {
        /* R[n:n+1], or the zero register, or (pair = first) Rn */
        if (!(a->kind == pair || (a->kind == single && (a->zero || Z.pair_first))))
            return say(why, cap, "a %s, the text '%s' is no register pair", kind_name(o->kind), a->raw);
        if (a->kind == pair && a->reg2 != a->reg + 1)
            return say(why, cap, "text pair '%s' is not [n:n+1]", a->raw);
        if (!o->pair)
            return say(why, cap, "a %s with pair = 0", kind_name(o->kind));
    } else if (a->kind != single) {
        return say(why, cap, "a %s, but the text '%s' is another kind", kind_name(o->kind), a->raw);
    }
    if (!o->is_zero != !a->zero)
        return say(why, cap, "is_zero %d, text '%s'", o->is_zero, a->raw);
    if (a->zero ? o->reg != zero : o->reg != a->reg)
        return say(why, cap, "reg %u, text '%s'", o->reg, a->raw);
    return NULL;
}

/* Immediate vs its text (sign folded in: `neg` says the text's '-' is the
 * number's own sign). */
static const char *check_imm(const gisa_operand *o, const titem *a, const titem *b, int sign_is_value, const tline *L,
                             char *why, size_t cap)
{
    char num[200];
    num[0] = '-';
    copy(num + sign_is_value, sizeof num - 1, a->body);
    if (a->kind != T_NUM || (b != a && (b->kind != T_NUM || b->not_ || b->inv || b->abs_open)))
        return say(why, cap, "a %s, the text '%s' is no number", kind_name(o->kind), a->raw);
    uint64_t bits;
    if (o->raw_syntax) { /* the text is the field's bits */
        int neg;
        unsigned long long mag;
        if (!text_int(num, &neg, &mag) || neg || mag != o->bits)
            return say(why, cap, "raw bits 0x%llx, text '%s'", (unsigned long long)o->bits, num);
        return NULL;
    }
    switch (o->kind) {
    case GISA_OPND_IMM: {
        int neg;
        unsigned long long mag;
        if (!text_int(num, &neg, &mag))
            return say(why, cap, "an IMM, the text '%s' is no integer", num);
        uint64_t t = neg ? 0 - (uint64_t)mag : mag, v = (uint64_t)o->value;
        /* a negative value may be printed as its field's raw bits: t = v + 2^w */
        int wrapped = !neg && o->value < 0 && t - v && !((t - v) & (t - v - 1));
        if (t != v && !wrapped)
            return say(why, cap, "IMM value %lld (0x%llx), text '%s'", (long long)o->value, (unsigned long long)v, num);
        return NULL;
    }
    case GISA_OPND_F32:
        if (!text_f32(num, &bits) || bits != (uint32_t)o->value || (uint64_t)o->value >> 32)
            return say(why, cap, "F32 bits 0x%llx, text '%s'", (unsigned long long)o->value, num);
        return NULL;
    case GISA_OPND_F64:
        if (!text_f64(num, &bits) || bits != (uint64_t)o->value || !o->pair)
            return say(why, cap, "F64 bits 0x%llx (pair %d), text '%s'", (unsigned long long)o->value, o->pair, num);
        return NULL;
    default: { /* F16X2: H1 first */
        int bf = 0;
        for (int i = 0; i < L->ntok; i++)
            bf |= !strcmp(L->tok[i], "BF16_V2");
        if (!o->bf16 != !bf)
            return say(why, cap, "F16X2 bf16 = %d, the mnemonic %s .BF16_V2", o->bf16, bf ? "has" : "lacks");
        if ((uint64_t)o->value >> 32 || !text_half(num, (unsigned)(o->value >> 16) & 0xffff, o->bf16) ||
            !text_half(b->plain, (unsigned)o->value & 0xffff, o->bf16))
            return say(why, cap, "F16X2 0x%08llx, text '%s', '%s'", (unsigned long long)o->value, num, b->plain);
        return NULL;
    }
    }
}

/* The dotted words after the mnemonic: the non-default modifiers' values in
 * order, and none of the defaults'. */
static void check_modifiers(const gisa_inst *in, tline *L, const char *text)
{
    const char *mn = gisa_inst_mnemonic(isa, in);
    size_t ml = mn ? strlen(mn) : 0;
    if (!mn || strncmp(L->first, mn, ml) || (L->first[ml] && L->first[ml] != '.')) {
        fail(K_MODS, in->word, in->opcode, in->form, text, "the text does not start with the mnemonic '%s'", mn ? mn : "(null)");
        return;
    }
    char rest[128];
    copy(rest, sizeof rest, L->first + ml);
    L->ntok = 0;
    char *save = NULL;
    for (char *t = strtok_r(rest, ".", &save); t && L->ntok < MAX_TOKENS; t = strtok_r(NULL, ".", &save))
        copy(L->tok[L->ntok++], sizeof L->tok[0], t);
    size_t n = gisa_inst_modifier_count(isa, in);
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        gisa_modifier m;
        if (gisa_inst_modifier(isa, in, i, &m) != GISA_OK) {
            fail(K_MODS, in->word, in->opcode, in->form, text, "gisa_inst_modifier(%zu) of %zu fails", i, n);
            return;
        }
        if (!m.is_default) {
            if (!m.value || k >= L->ntok || strcmp(m.value, L->tok[k])) {
                fail(K_MODS, in->word, in->opcode, in->form, text, "modifier %zu (%s = %s) is not the dotted word %d ('%s')", i,
                     m.name, m.value ? m.value : "(null)", k, k < L->ntok ? L->tok[k] : "");
                return;
            }
            k++;
        } else if (m.value) {
            for (int j = 0; j < L->ntok; j++)
                if (!strcmp(m.value, L->tok[j])) {
                    fail(K_MODS, in->word, in->opcode, in->form, text, "default modifier %zu (%s = %s) is written", i, m.name,
                         m.value);
                    return;
                }
        }
    }
    if (k != L->ntok)
        fail(K_MODS, in->word, in->opcode, in->form, text, "%d dotted words, %d non-default modifiers", L->ntok, k);
    gisa_modifier m;
    if (gisa_inst_modifier(isa, in, n, &m) != GISA_ERR_USAGE)
        fail(K_MODS, in->word, in->opcode, in->form, text, "gisa_inst_modifier(count) does not give GISA_ERR_USAGE");
}

static void check_guard_controls(const gisa_inst *in, const tline *L, const char *text)
{
    unsigned pred = 99;
    bool neg = true;
    gisa_status s = gisa_inst_guard(isa, in, &pred, &neg);
    if (s == GISA_ERR_NOTFOUND) {
        if (L->has_guard)
            fail(K_GUARD, in->word, in->opcode, in->form, text, "no guard, but the text has '@'");
    } else if (s != GISA_OK) {
        fail(K_GUARD, in->word, in->opcode, in->form, text, "gisa_inst_guard gives %s", gisa_status_str(s));
    } else {
        unsigned want = L->has_guard ? L->guard_pred : Z.pt;
        if (pred != want || !neg != !L->guard_not)
            fail(K_GUARD, in->word, in->opcode, in->form, text, "guard %s%u, text %s%u", neg ? "!" : "", pred,
                 L->guard_not ? "!" : "", want);
        if (!L->has_guard && neg)
            fail(K_GUARD, in->word, in->opcode, in->form, text, "a negated guard not written");
    }
    unsigned c[3] = {99, 99, 99};
    gisa_inst_controls(isa, in, &c[0], &c[1], &c[2]);
    if (c[0] != L->ctl[0] || c[1] != L->ctl[1] || c[2] != L->ctl[2])
        fail(K_CTL, in->word, in->opcode, in->form, text, "controls %u %u %u, text %lu %lu %lu", c[0], c[1], c[2], L->ctl[0],
             L->ctl[1], L->ctl[2]);
}

/* Operand walk vs the parsed text. */
static void check_operands(const gisa_inst *in, const tline *L, const char *text)
{
    size_t n = gisa_inst_operand_count(isa, in);
    int ti = 0;
    char why[400], d1[16], d2[16];
    for (size_t i = 0; i < n; i++) {
        gisa_operand o;
        memset(&o, 0x5a, sizeof o);
        gisa_status s = gisa_inst_operand(isa, in, i, &o);
        if (s != GISA_OK) {
            fail(K_OPERAND, in->word, in->opcode, in->form, text, "gisa_inst_operand(%zu) gives %s", i, gisa_status_str(s));
            return;
        }
        if (!o.present)
            continue;
        int two = o.kind == GISA_OPND_F16X2;
        if (ti + two >= L->nitems) {
            fail(K_OPERAND, in->word, in->opcode, in->form, text, "operand %zu (%s, %s) has no text (%d text operands)", i,
                 o.name ? o.name : "?", kind_name(o.kind), L->nitems);
            return;
        }
        const titem *a = &L->item[ti], *b = two ? &L->item[ti + 1] : a;
        ti += 1 + two;
        const char *bad = NULL;
        /* decorations as written; an immediate's lone '-' may be its sign */
        int numeric = o.kind == GISA_OPND_IMM || o.kind == GISA_OPND_F32 || o.kind == GISA_OPND_F64 || two;
        int sign_is_value = numeric && a->neg && !(o.deco & GISA_DECO_NEG);
        unsigned text_deco = (a->not_ ? GISA_DECO_NOT : 0) | (a->neg && !sign_is_value ? GISA_DECO_NEG : 0) |
                             (a->inv ? GISA_DECO_INV : 0) | (a->abs_open ? GISA_DECO_ABS : 0);
        if (a->abs_open != b->abs_close || (two && (a->abs_close || b->abs_open)))
            bad = say(why, sizeof why, "unbalanced '|' in '%s'", a->raw);
        else if (o.deco != text_deco)
            bad = say(why, sizeof why, "deco %s, text '%s' gives %s", deco_str(o.deco, d1), a->raw, deco_str(text_deco, d2));
        else if ((o.suffix && !o.suffix_default) != (b->suffix[0] != 0) ||
                 (b->suffix[0] && strcmp(o.suffix, b->suffix)))
            bad = say(why, sizeof why, "suffix %s%s, text '%s'", o.suffix ? o.suffix : "(none)",
                      o.suffix_default ? " (default)" : "", b->raw);
        else if (two && a->suffix[0])
            bad = say(why, sizeof why, "F16X2 first half '%s' with a suffix", a->raw);
        if (!bad) {
            switch (o.kind) {
            case GISA_OPND_REG: case GISA_OPND_PAIR: case GISA_OPND_UREG: case GISA_OPND_UPAIR:
            case GISA_OPND_PRED: case GISA_OPND_UPRED:
                bad = check_reg(&o, a, why, sizeof why);
                break;
            case GISA_OPND_PR:
                if (a->kind != T_PR)
                    bad = say(why, sizeof why, "PR, text '%s'", a->raw);
                break;
            case GISA_OPND_CBANK:
                if (a->kind != T_CBANK || o.bank != a->bank || o.offset != a->offset)
                    bad = say(why, sizeof why, "c[0x%x][0x%x], text '%s'", o.bank, o.offset, a->raw);
                break;
            case GISA_OPND_INDEXED:
                if (a->kind != T_INDEXED || !o.is_zero != !a->zero || (a->zero ? o.reg != Z.urz : o.reg != a->reg) ||
                    o.value != a->disp)
                    bad = say(why, sizeof why, "R[UR%u%+lld] (zero %d), text '%s'", o.reg, (long long)o.value, o.is_zero,
                                   a->raw);
                break;
            case GISA_OPND_IMM: case GISA_OPND_F32: case GISA_OPND_F64: case GISA_OPND_F16X2:
                bad = check_imm(&o, a, b, sign_is_value, L, why, sizeof why);
                break;
            default:
                bad = say(why, sizeof why, "unknown kind %d", (int)o.kind);
            }
        }
        if (bad) {
            fail(K_OPERAND, in->word, in->opcode, in->form, text, "operand %zu (%s, %s): %s", i, o.name ? o.name : "?",
                 kind_name(o.kind), bad);
            return;
        }
    }
    if (ti != L->nitems)
        fail(K_OPERAND, in->word, in->opcode, in->form, text, "%d text operands, the walk covers %d", L->nitems, ti);
    gisa_operand o;
    if (gisa_inst_operand(isa, in, n, &o) != GISA_ERR_USAGE)
        fail(K_OPERAND, in->word, in->opcode, in->form, text, "gisa_inst_operand(count) does not give GISA_ERR_USAGE");
}

/* Per target: how often each (opcode, form) was decoded and walked. */
static long *form_hits; /* [opcode * 16 + form] */
#define MAXFORMS 16

typedef struct stats {
    long accepted, rejected, identity, walked;
} stats;

/* Everything about a word gisa_decode accepted (in). */
static void check_accepted(gisa_word w, const gisa_inst *in, stats *st)
{
    char dis[600], pr[600];
    gisa_status ds = gisa_disassemble(isa, w, dis, sizeof dis, NULL);
    st->accepted++;
    if (ds != GISA_OK) {
        fail(K_REJECT, w, in->opcode, in->form, dis, "gisa_decode accepts, gisa_disassemble gives %s", gisa_status_str(ds));
        return;
    }
    /* decode's promises */
    if (!word_eq(in->word, w) || in->opcode != (int)api_decode_opcode(isa, w) || in->field[GISA_INST_MAX_FIELDS] ||
        in->why[0] || in->form < 0 || in->form >= MAXFORMS)
        fail(K_DECODE, w, in->opcode, in->form, dis, "inst.word / opcode (decode_opcode %d) / field[64] / why '%s' / form",
             (int)api_decode_opcode(isa, w), in->why);
    const char *on = gisa_inst_opcode_name(isa, in);
    size_t nf = gisa_inst_field_count(isa, in);
    if (!on || strcmp(on, gisa_isa_opcode_name(isa, (size_t)in->opcode)) || !gisa_inst_optype_name(isa, in) || !nf ||
        !gisa_inst_field_name(isa, in, nf - 1) || gisa_inst_field_name(isa, in, nf))
        fail(K_DECODE, w, in->opcode, in->form, dis, "names of the opcode / optype / fields");
    /* 1: identity */
    gisa_inst e = *in;
    gisa_word back = {{~w.w[0], ~w.w[1]}};
    e.word = back; /* not read by gisa_encode */
    strcpy(e.why, "stale");
    gisa_status es = gisa_encode(isa, &e, &back);
    if (es != GISA_OK || !word_eq(back, w) || !word_eq(e.word, w) || e.why[0]) {
        char hb[40];
        hexword(back, hb);
        fail(K_IDENT, w, in->opcode, in->form, dis, "gisa_encode gives %s, word %s, why '%s'", gisa_status_str(es), hb, e.why);
    } else {
        st->identity++;
    }
    /* 2: print == disassemble */
    gisa_status ps = gisa_print(isa, in, pr, sizeof pr);
    if (ps != GISA_OK || strcmp(pr, dis))
        fail(K_PRINT, w, in->opcode, in->form, dis, "gisa_print gives %s '%s'", gisa_status_str(ps), pr);
    /* the text back into a gisa_inst: the same instruction (every 8th word: assembling is the slow part) */
    if (st->accepted % 8 == 0) {
        gisa_inst t;
        gisa_diags *d = api_diags();
        gisa_status as = api_asm_inst(isa, dis, &t, d);
        if (as != GISA_OK || t.opcode != in->opcode || t.form != in->form || !word_eq(t.word, w) ||
            memcmp(t.field, in->field, sizeof t.field[0] * gisa_inst_field_count(isa, in)))
            fail(K_PRINT, w, in->opcode, in->form, dis, "assembling one instruction gives %s, opcode %d form %d",
                 gisa_status_str(as), t.opcode, t.form);
        gisa_diags_free(d);
    }
    /* 3: operands, guard, controls, modifiers vs the text */
    tline L;
    if (!parse_line(dis, &L)) {
        fail(K_PARSE, w, in->opcode, in->form, dis, "%s", L.err);
        return;
    }
    long before = failures[K_OPERAND] + failures[K_MODS] + failures[K_GUARD] + failures[K_CTL];
    check_modifiers(in, &L, dis); /* first: fills L.tok */
    check_operands(in, &L, dis);
    check_guard_controls(in, &L, dis);
    if (failures[K_OPERAND] + failures[K_MODS] + failures[K_GUARD] + failures[K_CTL] == before && in->form >= 0 &&
        in->form < MAXFORMS) {
        st->walked++;
        form_hits[in->opcode * MAXFORMS + in->form]++;
    }
}

/* Decode a word from any source; a refused word must be `.invalid` with the same reason. */
static void check_word(gisa_word w, stats *st)
{
    gisa_inst in;
    memset(&in, 0x77, sizeof in);
    gisa_status s = gisa_decode(isa, w, &in);
    if (s == GISA_OK) {
        check_accepted(w, &in, st);
        return;
    }
    char dis[600];
    gisa_status ds = gisa_disassemble(isa, w, dis, sizeof dis, NULL);
    st->rejected++;
    if (s != GISA_ERR_INPUT) {
        fail(K_REJECT, w, -1, -1, dis, "gisa_decode gives %s", gisa_status_str(s));
        return;
    }
    if (ds != GISA_ERR_INPUT) {
        fail(K_REJECT, w, in.opcode, -1, dis, "gisa_decode refuses (%s), gisa_disassemble gives %s", in.why, gisa_status_str(ds));
        return;
    }
    const char *r = strstr(dis, " // ");
    if (strncmp(dis, ".invalid 0x", 11) || !r || strcmp(r + 4, in.why))
        fail(K_WHY, w, in.opcode, -1, dis, "inst.why '%s'", in.why);
    int want = (int)api_decode_opcode(isa, w);
    if (in.opcode != want)
        fail(K_DECODE, w, in.opcode, -1, dis, "refused word: inst.opcode %d, gisa_decode_opcode %d", in.opcode, want);
}

/* ------------------------------------------------------------ sources of words */

static void rnd_word_bits(tg_rng *r, gisa_word *w)
{
    w->w[0] = tg_next(r);
    w->w[1] = isa->word_bits == 64 ? 0 : tg_next(r);
}

static void flip_bits(tg_rng *r, gisa_word *w)
{
    int n = 1 + (int)tg_below(r, 3);
    for (int i = 0; i < n; i++) {
        int b = (int)tg_below(r, (uint64_t)isa->word_bits);
        w->w[b >> 6] ^= UINT64_C(1) << (b & 63);
    }
}

/* Every opcode's fields as bit masks, to build words here (fields that
 * overlap another are left out of the mutation check). */
static int fields_overlap(const isa_opcode *op, int f)
{
    for (int g = 0; g < op->nfields; g++) {
        const isa_field *a = &op->fields[f], *b = &op->fields[g];
        if (g != f && a->off < b->off + b->width && b->off < a->off + a->width)
            return 1;
    }
    return 0;
}

static gisa_word build_word(const isa_opcode *op, const uint64_t *vals)
{
    gisa_word w = {{0, 0}};
    for (int i = 0; i < op->nfields; i++)
        word_set(&w, op->fields[i].off, op->fields[i].width, vals[i]);
    return w;
}

typedef struct mut_stats {
    long still_valid, other_opcode, made_invalid, skipped;
} mut_stats;

/* 4: a valid inst with one non-fixed field changed to random bits: the
 * word those values make (built here) decides. Decodes as the same opcode:
 * encode gives it; else GISA_ERR_INPUT with the decoder's reason. */
static void mutate_field(const gisa_inst *in, tg_rng *r, mut_stats *ms)
{
    const isa_opcode *op = &isa->opcodes[in->opcode];
    int f = (int)tg_below(r, (uint64_t)op->nfields);
    if (op->fields[f].fixed || fields_overlap(op, f)) {
        ms->skipped++;
        return;
    }
    gisa_inst e = *in;
    uint64_t v = tg_next(r) & tg_mask(op->fields[f].width);
    if (tg_below(r, 2)) /* half the time a small value: enumerations, registers near the top */
        v = (tg_mask(op->fields[f].width) - tg_below(r, 4)) & tg_mask(op->fields[f].width);
    e.field[f] = v;
    gisa_word want = build_word(op, e.field), got = {{0, 0}};
    gisa_inst d;
    gisa_status ds = gisa_decode(isa, want, &d);
    gisa_status es = gisa_encode(isa, &e, &got);
    char txt[600];
    gisa_disassemble(isa, want, txt, sizeof txt, NULL);
    if (ds == GISA_OK && d.opcode == in->opcode) {
        ms->still_valid++;
        if (es != GISA_OK || !word_eq(got, want))
            fail(K_ENCBAD, want, in->opcode, in->form, txt, "field %s = %llu: a valid word, but gisa_encode gives %s (%s)",
                 op->fields[f].name, (unsigned long long)v, gisa_status_str(es), e.why);
    } else if (ds == GISA_OK) {
        ms->other_opcode++;
        if (es != GISA_ERR_INPUT || !e.why[0])
            fail(K_ENCBAD, want, in->opcode, in->form, txt, "field %s = %llu: decodes as opcode %d, gisa_encode gives %s",
                 op->fields[f].name, (unsigned long long)v, d.opcode, gisa_status_str(es));
    } else {
        ms->made_invalid++;
        if (es != GISA_ERR_INPUT || strcmp(e.why, d.why))
            fail(K_ENCBAD, want, in->opcode, in->form, txt, "field %s = %llu: invalid word, gisa_encode gives %s '%s', decoder '%s'",
                 op->fields[f].name, (unsigned long long)v, gisa_status_str(es), e.why, d.why);
    }
}

static void from_golden(stats *st)
{
    if (strcmp(tname, "gisa128"))
        return;
    FILE *f = fopen(test_path("tests/golden/gisa128.golden"), "r");
    if (!f) {
        fail(K_SOURCES, (gisa_word){{0, 0}}, -1, -1, NULL, "cannot open tests/golden/gisa128.golden");
        return;
    }
    char line[700];
    long n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long hi, lo;
        if (line[0] == '#' || line[0] == '\n' || sscanf(line, "%16llx%16llx", &hi, &lo) != 2)
            continue;
        gisa_word w = {{lo, hi}};
        gisa_inst in;
        if (gisa_decode(isa, w, &in) != GISA_OK)
            fail(K_SOURCES, w, in.opcode, -1, line, "golden word refused: %s", in.why);
        check_word(w, st);
        n++;
    }
    fclose(f);
    if (n < (long)gisa_isa_opcode_count(isa)) /* the listing has a line per opcode at least */
        fail(K_SOURCES, (gisa_word){{0, 0}}, -1, -1, NULL, "only %ld golden words", n);
    printf("  %s golden: %ld words\n", tname, n);
}

/* A Fermi program (docs/fermi.md's syntax), as examples/ holds gisa128 ones. */
static const char fermi_program[] = "FADD.FTZ.RM.SAT R0, -|R1|, c[0x2][0x10]\n"
                                    "@!P0 FFMA R2, R3, -R4, c[0x1][0x8]\n"
                                    "FMUL32I.FTZ R5, R6, F1.5\n"
                                    "DADD.RP R8, -|R10|, F-2.5\n"
                                    "DFMA R12, R14, R16, -R18\n"
                                    "FSETP.GT.AND P1, PT, |R20|, F0.5, !P2\n"
                                    "MUFU.RCP R21, -R22\n"
                                    "DSETP.LE.OR P3, P4, R24, c[0x11][0x20], P5\n";

static void assemble_into(const char *name, const char *text, size_t len, stats *st, long *nwords)
{
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    size_t n = 0;
    if (gisa_assemble(isa, name, text, len, NULL, &w, &n, d) == GISA_OK) {
        for (size_t i = 0; i < n; i++)
            check_word(w[i], st);
        *nwords += (long)n;
    } else if (!strcmp(name, "fermi program")) {
        test_dump_diags(d);
        fail(K_SOURCES, (gisa_word){{0, 0}}, -1, -1, NULL, "the Fermi program does not assemble");
    }
    gisa_free(w);
    gisa_diags_free(d);
}

static void from_examples(stats *st)
{
    long nwords = 0;
    int files = 0;
    DIR *dir = opendir(test_path("examples"));
    struct dirent *de;
    while (dir && (de = readdir(dir))) {
        size_t l = strlen(de->d_name);
        if (l < 3 || strcmp(de->d_name + l - 2, ".s"))
            continue;
        char rel[300];
        snprintf(rel, sizeof rel, "examples/%s", de->d_name);
        FILE *f = fopen(test_path(rel), "rb");
        if (!f)
            continue;
        static char text[1 << 16];
        size_t len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        files++;
        assemble_into(rel, text, len, st, &nwords); /* examples of another target do not assemble: skipped */
    }
    if (dir)
        closedir(dir);
    if (!strcmp(tname, "fermi"))
        assemble_into("fermi program", fermi_program, strlen(fermi_program), st, &nwords);
    if (!nwords)
        fail(K_SOURCES, (gisa_word){{0, 0}}, -1, -1, NULL, "no words from examples/*.s (%d files)", files);
    printf("  %s examples: %d files, %ld words\n", tname, files, nwords);
}

/* ------------------------------------------------------------ 4: refusals and bad arguments */

static void expect_status(int k, const gisa_inst *in, gisa_status got, gisa_status want, const char *what)
{
    if (got != want)
        fail(k, in ? in->word : (gisa_word){{0, 0}}, in ? in->opcode : -1, in ? in->form : -1, NULL, "%s gives %s, want %s", what,
             gisa_status_str(got), gisa_status_str(want));
}

/* One valid inst per opcode: fields too wide, fixed fields changed. */
static void refusals(const gisa_inst *valid, long *nwide, long *nfixed, long *nrange)
{
    const isa_opcode *op = &isa->opcodes[valid->opcode];
    char buf[300];
    gisa_word w;
    for (int f = 0; f < op->nfields; f++) {
        const isa_field *fd = &op->fields[f];
        if (fd->width < 64) {
            uint64_t bad[2] = {UINT64_C(1) << fd->width, ~UINT64_C(0)};
            for (int k = 0; k < 2; k++) {
                gisa_inst e = *valid;
                e.field[f] = bad[k];
                gisa_status s = gisa_encode(isa, &e, &w);
                if (s != GISA_ERR_USAGE || !strstr(e.why, fd->name))
                    fail(K_ENCBAD, valid->word, valid->opcode, valid->form, NULL,
                         "field %s = 0x%llx (%d bits): gisa_encode gives %s, why '%s' (want GISA_ERR_USAGE naming the field)",
                         fd->name, (unsigned long long)bad[k], fd->width, gisa_status_str(s), e.why);
                memset(buf, 'x', sizeof buf);
                s = gisa_print(isa, &e, buf, sizeof buf);
                if (s != GISA_ERR_USAGE || !memchr(buf, 0, sizeof buf))
                    fail(K_ENCBAD, valid->word, valid->opcode, valid->form, NULL, "field %s too wide: gisa_print gives %s",
                         fd->name, gisa_status_str(s));
                (*nwide)++;
            }
        }
        if (fd->fixed) {
            gisa_inst e = *valid;
            e.field[f] ^= 1;
            gisa_status s = gisa_encode(isa, &e, &w);
            if (s != GISA_ERR_INPUT || !strstr(e.why, fd->name))
                fail(K_ENCBAD, valid->word, valid->opcode, valid->form, NULL,
                     "fixed field %s changed to %llu: gisa_encode gives %s, why '%s' (want GISA_ERR_INPUT naming the field)",
                     fd->name, (unsigned long long)e.field[f], gisa_status_str(s), e.why);
            (*nfixed)++;
        }
    }
    /* out-of-range opcode and form */
    int nop = (int)gisa_isa_opcode_count(isa);
    const int bad_ops[] = {-1, nop, nop + 1, 0x7fffffff, -0x7fffffff};
    const int bad_forms[] = {-1, op->nforms, MAXFORMS, 0x7fffffff};
    for (int k = 0; k < 9; k++) {
        gisa_inst e = *valid;
        if (k < 5)
            e.opcode = bad_ops[k];
        else
            e.form = bad_forms[k - 5];
        e.why[0] = 0;
        gisa_status s = gisa_encode(isa, &e, &w);
        if (s != GISA_ERR_USAGE || !e.why[0])
            fail(K_ENCBAD, valid->word, e.opcode, e.form, NULL, "opcode %d form %d: gisa_encode gives %s, why '%s'", e.opcode, e.form,
                 gisa_status_str(s), e.why);
        expect_status(K_ENCBAD, &e, gisa_print(isa, &e, buf, sizeof buf), GISA_ERR_USAGE, "gisa_print of a bad opcode/form");
        gisa_operand o;
        gisa_modifier m;
        if (gisa_inst_operand_count(isa, &e) || gisa_inst_modifier_count(isa, &e) || gisa_inst_mnemonic(isa, &e) ||
            gisa_inst_operand(isa, &e, 0, &o) != GISA_ERR_USAGE || gisa_inst_modifier(isa, &e, 0, &m) != GISA_ERR_USAGE)
            fail(K_NULL, valid->word, e.opcode, e.form, NULL, "the accessors of a bad opcode/form answer");
        if (k < 5) {
            unsigned p;
            bool ng;
            if (gisa_inst_opcode_name(isa, &e) || gisa_inst_optype_name(isa, &e) || gisa_inst_field_count(isa, &e) ||
                gisa_inst_field_name(isa, &e, 0) || gisa_inst_guard(isa, &e, &p, &ng) != GISA_ERR_USAGE)
                fail(K_NULL, valid->word, e.opcode, e.form, NULL, "the names / guard of a bad opcode answer");
        }
        unsigned c[3] = {9, 9, 9};
        if (gisa_inst_controls(isa, &e, &c[0], &c[1], &c[2]) != GISA_ERR_USAGE || c[0] != 9 || c[1] != 9 || c[2] != 9)
            fail(K_NULL, valid->word, e.opcode, e.form, NULL, "controls of a bad opcode/form are not a usage error");
        (*nrange)++;
    }
}

static void null_arguments(const gisa_inst *valid, long *n)
{
    gisa_inst in = *valid;
    gisa_word w = valid->word;
    char buf[200];
    gisa_operand o;
    gisa_modifier m;
    unsigned p, c[3];
    bool ng;
    struct {
        gisa_status got;
        const char *what;
    } t[] = {
        {gisa_decode(NULL, w, &in), "gisa_decode(NULL isa)"},
        {gisa_decode(isa, w, NULL), "gisa_decode(NULL inst)"},
        {gisa_encode(NULL, &in, &w), "gisa_encode(NULL isa)"},
        {gisa_encode(isa, NULL, &w), "gisa_encode(NULL inst)"},
        {gisa_encode(isa, &in, NULL), "gisa_encode(NULL word)"},
        {gisa_print(NULL, &in, buf, sizeof buf), "gisa_print(NULL isa)"},
        {gisa_print(isa, NULL, buf, sizeof buf), "gisa_print(NULL inst)"},
        {gisa_print(isa, &in, NULL, sizeof buf), "gisa_print(NULL buf)"},
        {gisa_print(isa, &in, buf, 0), "gisa_print(cap 0)"},
        {gisa_disassemble(NULL, w, buf, sizeof buf, NULL), "gisa_disassemble(NULL isa)"},
        {gisa_inst_operand(isa, &in, 0, NULL), "gisa_inst_operand(NULL out)"},
        {gisa_inst_operand(NULL, &in, 0, &o), "gisa_inst_operand(NULL isa)"},
        {gisa_inst_operand(isa, NULL, 0, &o), "gisa_inst_operand(NULL inst)"},
        {gisa_inst_operand(isa, &in, (size_t)-1, &o), "gisa_inst_operand(index -1)"},
        {gisa_inst_modifier(isa, &in, 0, NULL), "gisa_inst_modifier(NULL out)"},
        {gisa_inst_modifier(NULL, &in, 0, &m), "gisa_inst_modifier(NULL isa)"},
        {gisa_inst_modifier(isa, NULL, 0, &m), "gisa_inst_modifier(NULL inst)"},
        {gisa_inst_modifier(isa, &in, (size_t)-1, &m), "gisa_inst_modifier(index -1)"},
        {gisa_inst_guard(NULL, &in, &p, &ng), "gisa_inst_guard(NULL isa)"},
        {gisa_inst_guard(isa, NULL, &p, &ng), "gisa_inst_guard(NULL inst)"},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++, (*n)++)
        expect_status(K_NULL, valid, t[i].got, GISA_ERR_USAGE, t[i].what);
    /* NULL outputs are allowed where documented; nothing may crash */
    gisa_status gs = gisa_inst_guard(isa, &in, NULL, NULL);
    if (gs != GISA_OK && gs != GISA_ERR_NOTFOUND)
        fail(K_NULL, w, in.opcode, in.form, NULL, "gisa_inst_guard with NULL outputs gives %s", gisa_status_str(gs));
    if (gisa_inst_controls(isa, &in, NULL, NULL, NULL) != GISA_OK)
        fail(K_NULL, w, in.opcode, in.form, NULL, "gisa_inst_controls with NULL outputs fails");
    c[0] = c[1] = c[2] = 9;
    if (gisa_inst_controls(NULL, &in, &c[0], &c[1], &c[2]) != GISA_ERR_USAGE ||
        gisa_inst_controls(isa, NULL, &c[0], &c[1], &c[2]) != GISA_ERR_USAGE || c[0] != 9 || c[1] != 9 || c[2] != 9)
        fail(K_NULL, w, in.opcode, in.form, NULL, "gisa_inst_controls(NULL): not a usage error, or it wrote %u %u %u",
             c[0], c[1], c[2]);
    if (gisa_inst_operand_count(NULL, &in) || gisa_inst_operand_count(isa, NULL) || gisa_inst_modifier_count(NULL, &in) ||
        gisa_inst_modifier_count(isa, NULL) || gisa_inst_opcode_name(NULL, &in) || gisa_inst_opcode_name(isa, NULL) ||
        gisa_inst_mnemonic(isa, NULL) || gisa_inst_field_count(NULL, &in) || gisa_inst_field_name(isa, NULL, 0))
        fail(K_NULL, w, in.opcode, in.form, NULL, "a count or name of a NULL isa/inst answers");
    /* a truncated print is NUL-terminated and a prefix of the full text */
    char full[600], small[8];
    memset(small, 'x', sizeof small);
    if (gisa_print(isa, &in, full, sizeof full) != GISA_OK ||
        gisa_print(isa, &in, small, sizeof small) != (strlen(full) < sizeof small ? GISA_OK : GISA_ERR_TRUNCATED) ||
        !memchr(small, 0, sizeof small) || strncmp(full, small, strlen(small)))
        fail(K_NULL, w, in.opcode, in.form, full, "gisa_print into 8 bytes gives '%.8s'", small);
    (*n) += 6;
}

/* A 64-bit target's word with bits above 63. */
static void high_bits_64(stats *st)
{
    if (isa->word_bits != 64)
        return;
    gisa_inst valid;
    gisa_word words[3] = {{{0, 1}}, {{0, UINT64_C(1) << 63}}, {{0, 1}}};
    gisa_diags *d = api_diags();
    if (api_asm_one(isa, "FADD R0, R1, R2", &words[2], d) != GISA_OK || gisa_decode(isa, words[2], &valid) != GISA_OK)
        fail(K_SOURCES, words[2], -1, -1, "FADD R0, R1, R2", "does not assemble or decode");
    gisa_diags_free(d);
    words[2].w[1] = 1; /* a valid word with bit 64 set */
    for (int i = 0; i < 3; i++) {
        gisa_inst in;
        if (gisa_decode(isa, words[i], &in) != GISA_ERR_INPUT || !in.why[0])
            fail(K_REJECT, words[i], in.opcode, -1, NULL, "a 64-bit word with bits above 63 is not refused with a reason");
        check_word(words[i], st); /* the same reason as gisa_disassemble's */
    }
}

/* ------------------------------------------------------------ one target */

static void run_target(const char *target)
{
    isa = test_isa_target(target);
    tname = isa->target_name;
    int is_fermi = !strcmp(target, "fermi");
    Z = is_fermi ? (zeros){63, 63, 7, 7, 1} : (zeros){255, 63, 7, 7, 0};
    long fail_before = 0;
    for (int k = 0; k < K_COUNT; k++)
        fail_before += failures[k];
    clock_t t0 = clock();
    tg_rng r = {0x1257AB5E0001u};
    form_hits = calloc((size_t)isa->nopcodes * MAXFORMS, sizeof *form_hits);
    stats gen = {0}, gold = {0}, ex = {0}, rnd = {0}, rfix = {0}, flip = {0}, hi = {0};
    mut_stats ms = {0};
    long exc_words = 0, exc_only_forms = 0, nforms = 0, nwide = 0, nfixed = 0, nrange = 0, nnull = 0;
    /* valid words of every opcode and form, kept as seeds of the bit flips */
    size_t nseeds = 0, capseeds = 1024;
    gisa_word *seeds = malloc(capseeds * sizeof *seeds);
    char *exc_only = calloc((size_t)isa->nopcodes * MAXFORMS, 1);
    for (int oi = 0; oi < isa->nopcodes; oi++) {
        const isa_opcode *op = &isa->opcodes[oi];
        gisa_inst first;
        int have_first = 0;
        if (op->nforms > MAXFORMS)
            fail(K_COVER, (gisa_word){{0, 0}}, oi, -1, NULL, "%d forms (the test counts %d)", op->nforms, MAXFORMS);
        for (int fi = 0; fi < op->nforms && fi < MAXFORMS; fi++) {
            const syntax_form *F = &op->forms[fi];
            long form_exc = 0;
            nforms++;
            for (int i = 0; i < WORDS_PER_FORM; i++) {
                tg_word g;
                tg_generate(op, F, &r, i, &g);
                if (g.exception >= 0) { /* forbidden: refused, with the same reason as the disassembler's */
                    gisa_inst in;
                    exc_words++;
                    form_exc++;
                    if (gisa_decode(isa, g.w, &in) == GISA_OK)
                        fail(K_REJECT, g.w, oi, fi, NULL, "a word an __Exception forbids is accepted");
                    check_word(g.w, &gen);
                    continue;
                }
                gisa_inst in;
                if (gisa_decode(isa, g.w, &in) != GISA_OK) {
                    fail(K_REJECT, g.w, oi, fi, NULL, "a generated valid word is refused: %s", in.why);
                    continue;
                }
                if (in.opcode != oi)
                    fail(K_DECODE, g.w, oi, fi, NULL, "decodes as opcode %d", in.opcode);
                check_accepted(g.w, &in, &gen);
                mutate_field(&in, &r, &ms);
                if (!have_first) {
                    first = in;
                    have_first = 1;
                }
                if (i % 4 == 0) {
                    if (nseeds == capseeds)
                        seeds = realloc(seeds, (capseeds *= 2) * sizeof *seeds);
                    seeds[nseeds++] = g.w;
                }
            }
            if (form_exc == WORDS_PER_FORM) {
                exc_only[oi * MAXFORMS + fi] = 1;
                exc_only_forms++;
            }
        }
        if (have_first) {
            refusals(&first, &nwide, &nfixed, &nrange);
            if (oi == 0)
                null_arguments(&first, &nnull);
        } else {
            fail(K_COVER, (gisa_word){{0, 0}}, oi, -1, NULL, "no valid word generated");
        }
    }
    /* every (opcode, form) reached through decode and walked without failure */
    long reached = 0;
    for (int oi = 0; oi < isa->nopcodes; oi++)
        for (int fi = 0; fi < isa->opcodes[oi].nforms && fi < MAXFORMS; fi++) {
            if (form_hits[oi * MAXFORMS + fi])
                reached++;
            else if (!exc_only[oi * MAXFORMS + fi])
                fail(K_COVER, (gisa_word){{0, 0}}, oi, fi, NULL, "form '%s' never decoded and walked without a failure", isa->opcodes[oi].forms[fi].text);
        }
    from_golden(&gold);
    from_examples(&ex);
    high_bits_64(&hi);
    /* uniformly random words, and valid words with 1-3 bits flipped */
    for (long i = 0; i < NRANDOM; i++) {
        gisa_word w;
        rnd_word_bits(&r, &w);
        check_word(w, &rnd);
        /* uniform bits are rarely an instruction of a 128-bit target: also
         * random bits in a real opcode's fields, its fixed bits kept */
        const isa_opcode *op = &isa->opcodes[tg_below(&r, (uint64_t)isa->nopcodes)];
        rnd_word_bits(&r, &w);
        for (int k = 0; k < 2; k++)
            w.w[k] = (w.w[k] & op->covered.w[k] & ~op->mask.w[k]) | op->match.w[k];
        check_word(w, &rfix);
    }
    for (long i = 0; i < NFLIPPED && nseeds; i++) {
        gisa_word w = seeds[tg_below(&r, nseeds)];
        flip_bits(&r, &w);
        check_word(w, &flip);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    long fails = 0;
    for (int k = 0; k < K_COUNT; k++)
        fails += failures[k];
    fails -= fail_before;
    printf("inst %s: generated %ld valid (%ld identity, %ld walked) + %ld forbidden by __Exception; "
           "%ld/%ld forms walked (%ld exception-only); golden %ld; examples %ld; random %ld accepted / %ld refused; "
           "random in an opcode's fields %ld accepted / %ld refused; "
           "flipped %ld accepted / %ld refused; encode refusals: %ld too wide, %ld fixed, %ld bad opcode/form, "
           "%ld mutated fields (%ld still valid, %ld other opcode, %ld invalid, %ld skipped), %ld bad-argument calls; "
           "%ld failures; %.1f s\n",
           tname, gen.accepted, gen.identity, gen.walked, exc_words, reached, nforms, exc_only_forms, gold.accepted,
           ex.accepted, rnd.accepted, rnd.rejected, rfix.accepted, rfix.rejected, flip.accepted, flip.rejected, nwide, nfixed, nrange,
           ms.still_valid + ms.other_opcode + ms.made_invalid, ms.still_valid, ms.other_opcode, ms.made_invalid, ms.skipped,
           nnull, fails, secs);
    /* the checks must have had something to check */
    CHECKF(gen.walked > 0 && gen.identity == gen.accepted, "%s: %ld of %ld generated words pass", tname, gen.identity, gen.accepted);
    CHECKF(rnd.rejected > 0 && rfix.accepted > 0 && rfix.rejected > 0, "%s: random words: %ld refused; in fields: %ld accepted, %ld refused",
           tname, rnd.rejected, rfix.accepted, rfix.rejected);
    CHECKF(flip.accepted > 0 && flip.rejected > 0, "%s: flipped words: %ld accepted, %ld refused", tname, flip.accepted,
           flip.rejected);
    CHECKF(ms.made_invalid > 0 && ms.still_valid > 0, "%s: mutated fields: %ld invalid, %ld valid", tname, ms.made_invalid,
           ms.still_valid);
    CHECKF(nfixed > 0 && nwide > 0, "%s: %ld fixed, %ld wide refusals", tname, nfixed, nwide);
    CHECKF(reached + exc_only_forms == nforms, "%s: %ld of %ld forms reached", tname, reached, nforms);
    free(form_hits);
    free(seeds);
    free(exc_only);
}

int main(void)
{
    for (size_t t = 0; t < gisa_target_count(); t++)
        run_target(gisa_target_name(t));
    CHECKF(gisa_target_count() == 2, "%zu targets", gisa_target_count());
    for (int k = 0; k < K_COUNT; k++)
        CHECKF(failures[k] == 0, "%ld failures of check '%s'", failures[k], kname[k]);
    return test_summary();
}
