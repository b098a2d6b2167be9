/* Matches a parsed statement against the syntax forms of its mnemonic and
 * encodes the first form that fits. Generic over the model: operand kinds,
 * modifiers and defaults all come from the description files. When nothing
 * fits, the failure that got furthest becomes the error message. */
#include <stdio.h>
#include <string.h>

#include "asm/asm.h"
#include "common/fpconv.h"

#define MAXF SPEC_MAXF

typedef struct failure {
    int depth;
    int cand;          /* candidate that produced it */
    asm_error err;
    const char *slot;  /* kind mismatch at this syntax operand, else NULL */
    int src_index;
} failure;

typedef struct ctx {
    const gisa_isa *isa;
    int silent; /* first pass: failures are not explained (no formatting) */
    statement *st;
    const isa_opcode *op;
    const syntax_form *F;
    const asm_form *f; /* F's matching tables */
    int first_word;
    int cand;
    int last; /* try_form's result for the candidate */
    gisa_inst inst; /* what the statement says: the candidate's opcode and form, the fields' values
                       (field[MAXF]: a scratch value for what has no field) */
    asm_error warn; /* a warning of the form being tried (kept if it is chosen) */
    int has_warn;
    failure best;
    int cand_depth[256]; /* deepest failure of each candidate */
    const char *cand_slot[256];
} ctx;

static void record(ctx *c, int depth, int col, int len, const char *slot, int src, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void record(ctx *c, int depth, int col, int len, const char *slot, int src, const char *fmt, ...)
{
    if (c->silent)
        return;
    if (c->cand < 256 && depth > c->cand_depth[c->cand]) {
        c->cand_depth[c->cand] = depth;
        c->cand_slot[c->cand] = slot;
    }
    /* deeper wins; at equal depth a specific complaint (misaligned c[][],
     * value out of range) beats another variant's "cannot be a ..." */
    if (depth < c->best.depth || (depth == c->best.depth && (slot || !c->best.slot)))
        return;
    c->best.depth = depth;
    c->best.slot = slot;
    c->best.src_index = src;
    c->best.err.col = col;
    c->best.err.len = len > 0 ? len : 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->best.err.msg, sizeof c->best.err.msg, fmt, ap);
    va_end(ap);
}

static void warn(ctx *c, int col, int len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void warn(ctx *c, int col, int len, const char *fmt, ...)
{
    if (c->has_warn)
        return;
    c->has_warn = 1;
    c->warn.col = col;
    c->warn.len = len > 0 ? len : 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->warn.msg, sizeof c->warn.msg, fmt, ap);
    va_end(ap);
}

/* type_value() of a register type, for a name split by the lexer. */
static inline int asm_reg_value(const isa_type *t, const char *name, size_t n, asm_regname r, uint64_t *v)
{
    if (t->zero_key) { /* prefix and zero name are plain letters: compare the packed keys */
        /* RZ or R7 without a branch on which (names of both kinds are common) */
        int zero = (r.letters == n) & (r.key == t->zero_key);
        int reg = (r.key == t->prefix_key) & (r.num < t->zero_value);
        *v = zero ? t->zero_value : r.num;
        return zero | reg ? 0 : -1;
    }
    if ((size_t)t->zero_len == n && strmap_same(t->zero, name, n)) {
        *v = t->zero_value;
        return 0;
    }
    if (r.letters != (size_t)t->prefix_len) /* a prefix with digits in it */
        return type_value(t, name, n, v);
    if (!strmap_same(name, t->prefix, r.letters) || r.num >= t->zero_value)
        return -1;
    *v = r.num;
    return 0;
}

static int eq(const char *a, size_t n, const char *b) { return n && b[0] == a[0] && strlen(b) == n && !memcmp(a, b, n); }

static int int_digits(const src_opnd *o);

/* ------------------------------------------------------------ descriptions */

static const char *describe_src(const gisa_isa *isa, const src_opnd *o, char *buf, size_t cap)
{
    switch (o->kind) {
    case SRC_PAIR: return "a register pair";
    case SRC_NUMBER:
        if (o->fpfx || !int_digits(o)) { /* 1.5 where an integer is expected: say which value */
            snprintf(buf, cap, "a float value (%.*s)", (int)(o->num_len > 40 ? 40 : o->num_len), o->num);
            return buf;
        }
        return "an immediate";
    case SRC_CMEM: return "a constant-memory operand";
    case SRC_INDEXED: return "an indexed register";
    case SRC_NAME: break;
    }
    if (eq(o->name, o->name_len, "PR"))
        return "PR";
    for (int i = 0; i < isa->ntypes; i++) {
        const isa_type *t = &isa->types[i];
        uint64_t v;
        if (t->kind != TY_REG || type_value(t, o->name, o->name_len, &v))
            continue;
        static const char *const what[] = {"a register", "a uniform register", "a predicate", "a uniform predicate"};
        return what[t->rclass];
    }
    snprintf(buf, cap, "'%.*s'", (int)(o->name_len > 40 ? 40 : o->name_len), o->name);
    return buf;
}

static const char *kind_word(const opnd_slot *s)
{
    switch (s->kind) {
    case OK_PR: return "PR";
    case OK_CMEM: return "c[][]";
    case OK_INDEXED: return "R[URb+imm]";
    case OK_IMM:
        return s->type->fmt == IMM_SIGNED || s->type->fmt == IMM_UNSIGNED ? "an integer immediate"
               : s->type->fmt == IMM_F16X2                                 ? "two half-precision immediates"
                                                                           : "a float immediate";
    case OK_REG: {
        static const char *const w[] = {"R", "UR", "P", "UP"};
        return w[s->type->rclass];
    }
    }
    return "?";
}

/* ------------------------------------------------------------ modifiers */

/* Tie-break between equally distant suggestions: .RX is nearer .RZ than .RN. */
static int char_distance(const char *a, size_t n, const char *b)
{
    int t = 0;
    size_t bl = strlen(b);
    for (size_t i = 0; i < n || i < bl; i++) {
        int x = i < n ? (unsigned char)a[i] : 0, y = i < bl ? (unsigned char)b[i] : 0;
        t += x > y ? x - y : y - x;
    }
    return t;
}

static int match_mods(ctx *c)
{
    const syntax_form *F = c->F;
    statement *st = c->st;
    uint64_t filled = 0; /* slots j < 64 */
    const asm_form *f = c->f;
    for (int w = c->first_word; w < st->nwords; w++) {
        src_word *sw = &st->words[w];
        /* looked up here rather than in a loop of its own: one loop less
         * whose length varies from line to line */
        sw->id = strmap_get(&c->isa->modifier_by_name, sw->s, sw->n);
        /* the usual case: the spelling's first slot, free, takes its value */
        const asm_spelling *q = &f->by_id[(uint32_t)sw->id * f->id_mul >> f->id_shift];
        if (q->id == sw->id && q->plain && !(filled >> q->slot & 1)) {
            filled |= UINT64_C(1) << q->slot;
            c->inst.field[q->field] = q->value;
            continue;
        }
        /* the first slot offering the spelling that is not filled yet
         * (a slot lists a spelling once) */
        int slot = -1, choice = -1, dup = -1;
        for (const asm_spelling *p = f->spelling, *e = p + f->nspellings; p < e && slot < 0; p++)
            if (p->id == sw->id) {
                if (filled >> p->slot & 1)
                    dup = p->slot;
                else {
                    slot = p->slot;
                    choice = p->choice;
                }
            }
        int depth = 10 + 2 * (w - c->first_word);
        if (slot < 0 && dup >= 0) {
            record(c, depth, sw->col - 1, (int)sw->n + 1, NULL, -1, "%s: .%.*s conflicts with another .%s modifier", F->mnemonic, (int)sw->n, sw->s, F->mods[dup].name);
            return -1;
        }
        if (slot < 0 && c->silent)
            return -1;
        if (slot < 0) {
            const char *best = NULL;
            int bd = 3, bt = 1 << 30;
            for (int j = 0; j < F->nmods; j++)
                for (int k = 0; k < F->mods[j].nchoices; k++) {
                    const char *sp = F->mods[j].choices[k].spell;
                    int d = edit_distance(sw->s, sw->n, sp, strlen(sp));
                    int t = char_distance(sw->s, sw->n, sp);
                    if (d < bd || (d == bd && t < bt)) {
                        bd = d;
                        bt = t;
                        best = sp;
                    }
                }
            if (best)
                record(c, depth, sw->col - 1, (int)sw->n + 1, NULL, -1, "unknown modifier .%.*s for %s; did you mean .%s?", (int)sw->n, sw->s, F->mnemonic, best);
            else
                record(c, depth, sw->col - 1, (int)sw->n + 1, NULL, -1, "unknown modifier .%.*s for %s", (int)sw->n, sw->s, F->mnemonic);
            return -1;
        }
        const mod_slot *m = &F->mods[slot];
        filled |= UINT64_C(1) << slot;
        if (m->field < 0) {
            if (choice != m->def_choice) {
                if (m->def_choice >= 0)
                    record(c, depth + 1, sw->col - 1, (int)sw->n + 1, NULL, -1,
                           "%s: .%.*s cannot be encoded: the ISA has no encoding field for .%s (only the default .%s can be written)",
                           F->mnemonic, (int)sw->n, sw->s, m->name, m->choices[m->def_choice].spell);
                else
                    record(c, depth + 1, sw->col - 1, (int)sw->n + 1, NULL, -1,
                           "%s: .%.*s cannot be encoded: the ISA has no encoding field for this modifier", F->mnemonic, (int)sw->n, sw->s);
                return -1;
            }
            continue;
        }
        c->inst.field[m->field] = m->choices[choice].value;
    }
    for (int j = 0; j < F->nmods && (f->required & ~filled); j++) {
        const mod_slot *m = &F->mods[j];
        if ((filled >> j & 1) || m->optional || m->operand >= 0)
            continue;
        char list[300] = "";
        for (int k = 0; k < m->nchoices && strlen(list) < 250; k++) {
            strcat(list, k ? ", ." : ".");
            strcat(list, m->choices[k].spell);
        }
        record(c, 10 + 2 * (st->nwords - c->first_word) + 1, st->mnem_col, (int)st->mnem_len, NULL, -1,
               m->literal ? "%s requires .%s%s" : "%s requires .%s: one of %s", F->mnemonic, m->name, m->literal ? "" : list);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ operands */

/* pair: asm_slot.pair of the operand */
static int slot_is_pair(const ctx *c, const opnd_slot *s, int pair)
{
    return pair >= 0 ? pair : expr_eval(s->bitwidth, c->inst.field) == 64;
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        record(c, depth, __VA_ARGS__);                                                             \
        return -1;                                                                                 \
    } while (0)

static int written_decorations(ctx *c, const opnd_slot *s, const src_opnd *o, int depth, int si)
{
    const char *nm = s->name;
    if (o->neg || o->inv) {
        int col = o->neg_col;
        if (!s->allow_neg || s->neg_field < 0)
            FAIL(col, 1, NULL, si, "%s: %s cannot be %s%s", c->F->mnemonic, nm, o->neg ? "negated" : "complemented",
                 s->allow_neg ? " (the ISA has no encoding field for it)" : "");
        int x = s->inv_field >= 0 && c->inst.field[s->inv_field] == s->inv_value;
        if (x && o->neg)
            FAIL(col, 1, NULL, si, "%s: with .X the operand is complemented: write '~%s', not '-'", c->F->mnemonic, nm);
        if (!x && o->inv)
            FAIL(col, 1, NULL, si, "%s: '~' (bitwise not) is only valid with .X; use '-' to negate", c->F->mnemonic);
        c->inst.field[s->neg_field] = 1;
    }
    if (o->abs) {
        if (!s->allow_abs || s->abs_field < 0)
            FAIL(o->col, o->len, NULL, si, "%s: %s cannot take an absolute value |x|", c->F->mnemonic, nm);
        c->inst.field[s->abs_field] = 1;
    }
    if (o->not_) {
        if (!s->allow_not || s->not_field < 0)
            FAIL(o->neg_col, 1, NULL, si, "%s: %s cannot be inverted with '!'", c->F->mnemonic, nm);
        c->inst.field[s->not_field] = 1;
    }
    if (o->sfx) {
        if (s->sfx_slot < 0)
            FAIL(o->sfx_col, (int)o->sfx_len + 1, NULL, si, "%s: %s takes no .%.*s suffix", c->F->mnemonic, nm, (int)o->sfx_len, o->sfx);
        const mod_slot *m = &c->F->mods[s->sfx_slot];
        int k;
        for (k = 0; k < m->nchoices; k++)
            if (eq(o->sfx, o->sfx_len, m->choices[k].spell))
                break;
        if (k == m->nchoices)
            FAIL(o->sfx_col, (int)o->sfx_len + 1, NULL, si, "%s: unknown suffix .%.*s for %s (expected .%s)", c->F->mnemonic, (int)o->sfx_len, o->sfx, nm,
                 m->nchoices ? m->choices[0].spell : m->name);
        if (m->field < 0 && k != m->def_choice)
            FAIL(o->sfx_col, (int)o->sfx_len + 1, NULL, si, "%s: .%.*s cannot be encoded (no field)", c->F->mnemonic, (int)o->sfx_len, o->sfx);
        if (m->field >= 0)
            c->inst.field[m->field] = m->choices[k].value;
    }
    return 0;
}

static inline int apply_decorations(ctx *c, const asm_slot *a, const src_opnd *o, int depth, int si)
{
    /* a written operand states its decorations: no '!' means not inverted,
     * whatever the default of an omitted operand is (pp.not = True). Most
     * operands have none or only such as are a plain bit (asm_slot.simple):
     * three stores, no branch on which */
    if (!((o->deco & ~a->simple) | (uintptr_t)o->sfx)) {
        c->inst.field[a->neg] = o->neg != 0;
        c->inst.field[a->abs] = o->abs != 0;
        c->inst.field[a->not_] = o->not_ != 0;
        return 0;
    }
    const opnd_slot *s = a->s;
    if (s->neg_field >= 0)
        c->inst.field[s->neg_field] = 0;
    if (s->abs_field >= 0)
        c->inst.field[s->abs_field] = 0;
    if (s->not_field >= 0)
        c->inst.field[s->not_field] = 0;
    return written_decorations(c, s, o, depth, si);
}

/* Why a register operand does not fit slot s (the value of a name, v, is
 * valid when o is a name of the slot's type): records the message. */
static __attribute__((noinline, cold)) int reg_mismatch(ctx *c, const opnd_slot *s, int pair, const src_opnd *o, int depth, int si)
{
    const isa_type *t = s->type;
    uint64_t v;
    if (o->kind == SRC_PAIR) {
        if (o->name_len != (size_t)t->prefix_len || !strmap_same(o->name, t->prefix, o->name_len))
            FAIL(o->col, o->len, s->name, si, "kind");
        if (!pair)
            FAIL(o->col, o->len, NULL, si, "%s: %s is a 32-bit operand; a register pair is not allowed here", c->F->mnemonic, s->name);
        FAIL(o->col, o->len, NULL, si, "invalid register pair %.*s[%llu:%llu]: the first register must be even and the second the next one, below %s", (int)o->name_len,
             o->name, (unsigned long long)o->pair_lo, (unsigned long long)o->pair_hi, t->zero);
    }
    if (o->kind == SRC_NAME && asm_reg_value(t, o->name, o->name_len, o->reg, &v) == 0) { /* a pair's first register */
        if (v & 1) {
            if (t->pair_first)
                FAIL(o->col, o->len, NULL, si, "%s: %s is a 64-bit pair and needs an even register (write %s%llu)", c->F->mnemonic, s->name, t->prefix,
                     (unsigned long long)(v - 1));
            FAIL(o->col, o->len, NULL, si, "%s: %s is a 64-bit pair and needs an even register (write %s[%llu:%llu])", c->F->mnemonic, s->name, t->prefix,
                 (unsigned long long)(v - 1), (unsigned long long)v);
        }
        FAIL(o->col, o->len, NULL, si, "%s: %s%llu has no partner register for a 64-bit pair", c->F->mnemonic, t->prefix, (unsigned long long)v);
    }
    if (o->kind == SRC_NAME) { /* a register name of the right kind but out of range */
        size_t pl = strlen(t->prefix);
        if (o->name_len > pl && !memcmp(o->name, t->prefix, pl) && is_digit(o->name[pl])) {
            int digits = 1;
            for (size_t k = pl; k < o->name_len; k++)
                digits &= is_digit(o->name[k]);
            if (digits)
                FAIL(o->col, o->len, NULL, si, "register %.*s out of range (%s0..%s%llu or %s)", (int)o->name_len, o->name, t->prefix, t->prefix,
                     (unsigned long long)(t->zero_value - 1), t->zero);
        }
    }
    FAIL(o->col, o->len, s->name, si, "kind");
}

static inline int match_reg(ctx *c, const asm_slot *a, const src_opnd *o, int depth, int si)
{
    const opnd_slot *s = a->s;
    const isa_type *t = s->type;
    int pair_flag = a->pair;
    uint64_t v;
    if (o->kind == SRC_NAME && asm_reg_value(t, o->name, o->name_len, o->reg, &v) == 0) {
        /* a 64-bit pair written as its first register: even, with a partner */
        if (pair_flag && reg_pair_bad(t, v) && slot_is_pair(c, s, pair_flag)) /* the decoder's rule */
            return reg_mismatch(c, s, 1, o, depth, si);
    } else if (o->kind == SRC_PAIR && o->name_len == (size_t)t->prefix_len && strmap_same(o->name, t->prefix, o->name_len) &&
               slot_is_pair(c, s, pair_flag) && !(o->pair_lo & 1) && o->pair_hi == o->pair_lo + 1 && o->pair_hi < t->zero_value) {
        v = o->pair_lo;
    } else {
        return reg_mismatch(c, s, slot_is_pair(c, s, pair_flag), o, depth, si);
    }
    if (apply_decorations(c, a, o, depth, si))
        return -1;
    c->inst.field[s->field] = v;
    return 0;
}

static int parse_int_literal(const src_opnd *o, uint64_t *v)
{
    cursor cu = {o->num, o->num_len, 0};
    return cur_uint(&cu, v) && cu.i == o->num_len;
}

/* True when the literal is written as an integer: decimal or 0x digits. */
static int int_digits(const src_opnd *o)
{
    size_t k = o->num_len > 2 && o->num[0] == '0' && (o->num[1] == 'x' || o->num[1] == 'X') ? 2 : 0;
    int hex = k == 2;
    if (k == o->num_len)
        return 0;
    for (; k < o->num_len; k++)
        if (hex ? hex_digit(o->num[k]) < 0 : !is_digit(o->num[k]))
            return 0;
    return 1;
}

/* `FADD R0, R1, 0x3f800000` reads the integer 1065353216 as a float: legal,
 * but the writer almost surely meant the bit pattern (an F32 of 1.0). Where
 * the digits fit the format, the warning shows what those bits are. */
static void hex_integer_warning(ctx *c, const src_opnd *o, fp_format f)
{
    static const char raw[] = {'h', 'h', 'f', 'd'};
    static const int rawdig[] = {4, 4, 8, 16};
    static const char *const fname[] = {"F16", "BF16", "F32", "F64"};
    size_t digits = o->num_len - 2;
    uint64_t v;
    char shown[FP_PRINT_MAX + 8] = "";
    if (digits == (size_t)rawdig[f] && parse_int_literal(o, &v)) {
        char bits[24];
        snprintf(bits, sizeof bits, "0%c%0*llX", raw[f], rawdig[f], (unsigned long long)v);
        int n = fp_print_n(v, f, shown, sizeof shown - 2);
        if (n > 0 && !strpbrk(shown, ".en")) /* "1" -> "1.0": a float, as written in assembly */
            memcpy(shown + n, ".0", 3);
        if (n >= 0)
            warn(c, o->col, o->len, "%s: %.*s is the integer %llu converted to %s, not a bit pattern; for the %s %s (these bits) write %s or %s, for the integer %llu.0",
                 c->F->mnemonic, (int)o->num_len, o->num, (unsigned long long)v, fname[f], fname[f], shown, shown, bits, (unsigned long long)v);
        else
            warn(c, o->col, o->len, "%s: %.*s is the integer %llu converted to %s, not a bit pattern; for the %s NaN with these bits write %s, for the integer %llu.0",
                 c->F->mnemonic, (int)o->num_len, o->num, (unsigned long long)v, fname[f], fname[f], bits, (unsigned long long)v);
        return;
    }
    warn(c, o->col, o->len, "%s: %.*s is an integer converted to %s, not a bit pattern; raw %s bits are written 0%c followed by %d hex digits, a float value as a decimal (1.0)",
         c->F->mnemonic, (int)o->num_len, o->num, fname[f], fname[f], raw[f], rawdig[f]);
}

/* One float literal (maybe raw 0f/0d/0h bits) in format f, sign folded in. */
static int float_literal(ctx *c, const opnd_slot *s, const src_opnd *o, fp_format f, uint64_t *bits, int depth, int si)
{
    static const char raw[] = {'h', 'h', 'f', 'd'};
    static const int rawdig[] = {4, 4, 8, 16};
    static const char *const fname[] = {"F16", "BF16", "F32", "F64"};
    if (o->abs || o->inv || o->not_ || o->sfx)
        FAIL(o->col, o->len, NULL, si, "%s: an immediate takes no |x|, '~', '!' or suffix: write its value", c->F->mnemonic);
    if (o->num_len > 2 && o->num[0] == '0' && (o->num[1] == 'f' || o->num[1] == 'd' || o->num[1] == 'h')) {
        if (o->num[1] != raw[f] || o->num_len != 2 + (size_t)rawdig[f])
            FAIL(o->col, o->len, NULL, si, "raw %s bits are written 0%c followed by %d hex digits", fname[f], raw[f], rawdig[f]);
        uint64_t v = 0;
        for (size_t k = 2; k < o->num_len; k++) {
            int d = hex_digit(o->num[k]);
            if (d < 0)
                FAIL(o->col, o->len, NULL, si, "bad hex digit in raw float bits");
            v = v << 4 | (uint64_t)d;
        }
        *bits = v;
    } else {
        int ovf = 0;
        if (o->num_len > 2 && o->num[1] == 'x' && int_digits(o))
            hex_integer_warning(c, o, f);
        if (o->num_len > FP_MAX_LITERAL)
            FAIL(o->col, o->len, NULL, si, "%s immediate too long: more than %d characters", fname[f], FP_MAX_LITERAL);
        if (fp_parse(o->num, o->num_len, f, bits, &ovf))
            FAIL(o->col, o->len, s->name, si, "kind");
        if (ovf)
            FAIL(o->col, o->len, NULL, si, "%s immediate out of range: %.*s", fname[f], (int)o->num_len, o->num);
    }
    if (o->neg) {
        static const int signbit[] = {15, 15, 31, 63};
        *bits ^= UINT64_C(1) << signbit[f];
    }
    return 0;
}

/* A value of an f32/f64 immediate field narrower than its format (F64Imm:
 * the high 32 bits of an F64); a literal that needs the low bits is an
 * error, or with `inexact = round` rounded to nearest with a warning. */
static int narrow_float(ctx *c, const opnd_slot *s, const src_opnd *o, fp_format f, uint64_t full, uint64_t *v, int depth, int si)
{
    const isa_type *t = s->type;
    int fw = f == FP_F64 ? 64 : 32, w = t->width, ebits = f == FP_F64 ? 11 : 8;
    uint64_t low = w < fw ? full & ((UINT64_C(1) << (fw - w)) - 1) : 0;
    *v = full >> (fw - w);
    if (!low)
        return 0;
    if (!t->inexact_round)
        FAIL(o->col, o->len, NULL, si, "%s: %.*s is not exact in %s: this field holds only the high %d bits of an %s (the low %d bits must be 0)",
             c->F->mnemonic, (int)o->num_len, o->num, t->name, w, f == FP_F64 ? "F64" : "F32", fw - w);
    char text[128];
    int ovf = 0;
    snprintf(text, sizeof text, "%.*s", (int)(o->num_len < 120 ? o->num_len : 120), o->num);
    if (fp_parse_em(text, strlen(text), ebits, w - 1 - ebits, v, &ovf))
        FAIL(o->col, o->len, s->name, si, "kind");
    *v |= (full >> (fw - 1)) << (w - 1); /* the sign */
    if (ovf)
        FAIL(o->col, o->len, NULL, si, "%s: %.*s is out of the range of the %d-bit %s", c->F->mnemonic, (int)o->num_len, o->num, w, t->name);
    char shown[64];
    uint64_t back = *v << (fw - w);
    if (fp_print(back, f, shown, sizeof shown))
        snprintf(shown, sizeof shown, "NaN");
    warn(c, o->col, o->len, "%s: %.*s has more precision than the %d-bit %s holds; encoded 0x%llx (%s)", c->F->mnemonic, (int)o->num_len, o->num,
         w, t->name, (unsigned long long)*v, shown);
    return 0;
}

/* `literal = prefixed` types: a plain number is the raw bit pattern ('-':
 * two's complement), a float value is written F1.5, FH/FL for the halves
 * of an F64 in a 32-bit field. */
static int prefixed_literal(ctx *c, const opnd_slot *s, const src_opnd *o, int neg, uint64_t *v, int depth, int si)
{
    const isa_type *t = s->type;
    int w = t->width;
    uint64_t mask = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    if (!o->fpfx) {
        if (!parse_int_literal(o, v)) {
            if (!memchr(o->num, '.', o->num_len) && !memchr(o->num, 'e', o->num_len) && !memchr(o->num, 'n', o->num_len))
                FAIL(o->col, o->len, s->name, si, "kind");
            FAIL(o->col, o->len, NULL, si, "%s: a float value is written with an F prefix here (F%.*s): plain numbers are raw bits", c->F->mnemonic,
                 (int)o->num_len, o->num);
        }
        if (*v > mask)
            FAIL(o->col, o->len, NULL, si, "%s: %s%.*s does not fit the %d bits of %s", c->F->mnemonic, neg ? "-" : "", (int)o->num_len, o->num, w, t->name);
        if (neg)
            *v = (0 - *v) & mask;
        return 0;
    }
    fp_format f = t->fmt == IMM_F64 ? FP_F64 : FP_F32;
    src_opnd lit = *o;
    lit.neg = (char)(neg ^ o->num_neg);
    lit.abs = lit.inv = lit.not_ = 0;
    if (o->fpfx != 'F') { /* FH / FL: a half of the F64 value */
        if (w != 32)
            FAIL(o->col, o->len, NULL, si, "%s: F%c gives a 32-bit half of an F64; %s holds %d bits (write F%.*s)", c->F->mnemonic, o->fpfx,
                 t->name, w, (int)o->num_len, o->num);
        uint64_t d;
        if (float_literal(c, s, &lit, FP_F64, &d, depth, si))
            return -1;
        *v = o->fpfx == 'H' ? d >> 32 : d & 0xffffffffu;
        return 0;
    }
    uint64_t full;
    if (float_literal(c, s, &lit, f, &full, depth, si))
        return -1;
    return narrow_float(c, s, &lit, f, full, v, depth, si);
}

static int match_imm(ctx *c, const asm_slot *a, const src_opnd *o, const src_opnd *o2, int depth, int si)
{
    const opnd_slot *s = a->s;
    const isa_type *t = s->type;
    int w = t->width;
    uint64_t v = 0;
    if (o->kind != SRC_NUMBER)
        FAIL(o->col, o->len, s->name, si, "kind");
    /* where the operand has modifier bits, '-' and |x| set them; otherwise
     * '-' belongs to the literal */
    int deco = s->neg_field >= 0 || s->abs_field >= 0;
    int neg = o->neg && !deco;
    if (deco && apply_decorations(c, a, o, depth, si))
        return -1;
    src_opnd lit = *o;
    if (deco)
        lit.neg = lit.abs = 0;
    if (o->fpfx && t->fmt != IMM_F32 && t->fmt != IMM_F64)
        FAIL(o->col, o->len, NULL, si, "%s: %s is an integer: F%s%.*s is a float literal", c->F->mnemonic, s->name, o->num_neg ? "-" : "", (int)o->num_len, o->num);
    if (t->prefixed) {
        if (prefixed_literal(c, s, &lit, neg, &v, depth, si))
            return -1;
        c->inst.field[s->field] = v;
        return 0;
    }
    if (o->fpfx) { /* F1.5 where plain floats are read anyway */
        lit.num_neg = 0;
        lit.neg = (char)(neg ^ o->num_neg);
    }
    switch (t->fmt) {
    case IMM_SIGNED:
    case IMM_UNSIGNED: {
        if (o->abs || o->inv || o->not_ || o->sfx)
            FAIL(o->col, o->len, NULL, si, "%s: an integer immediate takes no |x|, '~', '!' or suffix", c->F->mnemonic);
        /* an integer over 64 bits is out of range, not of the wrong kind */
        int huge = !parse_int_literal(o, &v);
        if (huge && !int_digits(o))
            FAIL(o->col, o->len, s->name, si, "kind");
        int64_t lo = t->fmt == IMM_SIGNED ? -(int64_t)(UINT64_C(1) << (w - 1)) : 0;
        uint64_t hi = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
        if (!huge && t->fmt == IMM_SIGNED && o->neg && v > (UINT64_C(1) << (w - 1)))
            FAIL(o->col, o->len, NULL, si, "%s out of range: -%.*s (%lld..%llu)", t->name, (int)o->num_len, o->num, (long long)lo, (unsigned long long)hi);
        if (huge || v > hi || (o->neg && t->fmt == IMM_UNSIGNED && v))
            FAIL(o->col, o->len, NULL, si, "%s out of range: %s%.*s (%lld..%llu)", t->name, o->neg ? "-" : "", (int)o->num_len, o->num, (long long)lo,
                 (unsigned long long)hi);
        if (o->neg)
            v = (0 - v) & hi;
        break;
    }
    case IMM_F32:
    case IMM_F64: {
        fp_format f = t->fmt == IMM_F64 ? FP_F64 : FP_F32;
        uint64_t full;
        if (float_literal(c, s, &lit, f, &full, depth, si) || narrow_float(c, s, &lit, f, full, &v, depth, si))
            return -1;
        break;
    }
    case IMM_F16X2: {
        if (!o2 || o2->kind != SRC_NUMBER)
            FAIL(o->col, o->len, NULL, si, "%s: %s is two half-precision immediates written 'high, low' (e.g. -1, 1)", c->F->mnemonic, s->name);
        fp_format f = s->fmt_field >= 0 && c->inst.field[s->fmt_field] == s->fmt_value ? FP_BF16 : FP_F16;
        uint64_t hi16, lo16;
        if (float_literal(c, s, &lit, f, &hi16, depth, si) || float_literal(c, s, o2, f, &lo16, depth + 1, si + 1))
            return -1;
        v = hi16 << 16 | lo16;
        break;
    }
    default: FAIL(o->col, o->len, s->name, si, "kind");
    }
    c->inst.field[s->field] = v;
    return 0;
}

static int match_cmem(ctx *c, const asm_slot *a, const src_opnd *o, int depth, int si)
{
    const opnd_slot *s = a->s;
    const isa_type *t = s->type;
    int pair_flag = a->pair;
    if (o->kind != SRC_CMEM)
        FAIL(o->col, o->len, s->name, si, "kind");
    uint64_t align = cmem_align(t, slot_is_pair(c, s, pair_flag)); /* the decoder's rule */
    if (o->bank >> t->bank_bits)
        FAIL(o->col, o->len, NULL, si, "constant bank out of range: 0x%llx (0..0x%llx)", (unsigned long long)o->bank,
             (unsigned long long)((UINT64_C(1) << t->bank_bits) - 1));
    if (o->offset >> t->offs_w)
        FAIL(o->col, o->len, NULL, si, "constant offset out of range: 0x%llx (0..0x%llx)", (unsigned long long)o->offset,
             (unsigned long long)((UINT64_C(1) << t->offs_w) - 1));
    if (o->offset & t->offs_shared)
        FAIL(o->col, o->len, NULL, si, "constant offset 0x%llx is not %llu-byte aligned (its low bits hold part of the bank number)",
             (unsigned long long)o->offset, (unsigned long long)(t->offs_shared + 1));
    if (o->offset % align && !t->misaligned_warn)
        FAIL(o->col, o->len, NULL, si, "constant offset 0x%llx is not %llu-byte aligned", (unsigned long long)o->offset, (unsigned long long)align);
    if (apply_decorations(c, a, o, depth, si))
        return -1;
    if (o->offset % align)
        warn(c, o->col, o->len, "constant offset 0x%llx is not %llu-byte aligned", (unsigned long long)o->offset, (unsigned long long)align);
    c->inst.field[s->field] = cmem_pack(t, o->bank, o->offset);
    return 0;
}

/* Matches source operand o (o2: the next one, for F16x2 pairs) with slot a. */
static inline __attribute__((always_inline)) int match_operand(ctx *c, const asm_slot *a, const src_opnd *o, const src_opnd *o2, int depth, int si)
{
    const opnd_slot *s = a->s;
    if (__builtin_expect(s->kind == OK_REG, 1)) /* most operands: a branch predicts better than the switch's jump */
        return match_reg(c, a, o, depth, si);
    switch (s->kind) {
    case OK_PR:
        if (o->kind != SRC_NAME || !eq(o->name, o->name_len, "PR") || o->neg || o->inv || o->not_ || o->abs || o->sfx)
            FAIL(o->col, o->len, s->name, si, "kind");
        return 0;
    case OK_REG: return match_reg(c, a, o, depth, si);
    case OK_IMM: return match_imm(c, a, o, o2, depth, si);
    case OK_CMEM: return match_cmem(c, a, o, depth, si);
    case OK_INDEXED: {
        uint64_t v;
        if (o->kind != SRC_INDEXED)
            FAIL(o->col, o->len, s->name, si, "kind");
        if (asm_reg_value(s->type, o->name, o->name_len, o->reg, &v))
            FAIL(o->col, o->len, NULL, si, "%s: expected a uniform register inside R[...] (%s0..%s%llu or %s)", c->F->mnemonic, s->type->prefix,
                 s->type->prefix, (unsigned long long)(s->type->zero_value - 1), s->type->zero);
        c->inst.field[s->field] = v;
        if (s->index_field >= 0) {
            const isa_field *f = &c->op->fields[s->index_field];
            int64_t lo = -(int64_t)(UINT64_C(1) << (f->width - 1)), hi = (int64_t)(UINT64_C(1) << (f->width - 1)) - 1;
            if (o->index < lo || o->index > hi)
                FAIL(o->col, o->len, NULL, si, "%s out of range: %lld (%lld..%lld)", f->type->name, (long long)o->index, (long long)lo, (long long)hi);
            c->inst.field[s->index_field] = (uint64_t)o->index & ((UINT64_C(1) << f->width) - 1);
        } else if (o->index) {
            FAIL(o->col, o->len, NULL, si, "%s: no offset can be encoded in R[...]", c->F->mnemonic);
        }
        return 0;
    }
    }
    return -1;
}

/* Tries one choice of present optional groups. */
static int match_operands(ctx *c, unsigned present)
{
    const syntax_form *F = c->F;
    statement *st = c->st;
    int si = 0;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        if (s->group && !(present & (1u << (s->group - 1))))
            continue;
        int depth = 100 + 2 * si;
        if (si >= st->nops) {
            int col = st->nops ? st->ops[st->nops - 1].col + st->ops[st->nops - 1].len : st->mnem_col + (int)st->mnem_len;
            FAIL(col, 1, NULL, si, "%s: too few operands: expected %s", F->mnemonic, s->name);
        }
        int two = c->f->slot[k].nsrc == 2;
        const src_opnd *o2 = two && si + 1 < st->nops ? &st->ops[si + 1] : NULL;
        if (match_operand(c, &c->f->slot[k], &st->ops[si], o2, depth, si))
            return -1;
        si += two ? 2 : 1;
    }
    if (si < st->nops) {
        const src_opnd *o = &st->ops[si];
        record(c, 100 + 2 * si, o->col, o->len, NULL, si, "%s: too many operands (%d expected)", F->mnemonic, si);
        return -1;
    }
    return 0;
}

/* The first pass's match of choice j of optional groups, which takes as
 * many source operands as the statement has: its slots in order, no
 * operand counting and no messages. */
static int match_choice(ctx *c, int j)
{
    const asm_form *f = c->f;
    const src_opnd *o = c->st->ops;
    for (const asm_slot *a = f->steps + f->steps_at[j], *e = f->steps + f->steps_at[j + 1]; a < e; a++) {
        if (match_operand(c, a, o, o + 1, 0, 0)) /* o + 1: read only by an F16x2 slot, which takes two */
            return -1;
        o += a->nsrc;
    }
    return 0;
}

static const char *const ctl_names[3] = {"$sched", "$req", "$wsb"};

/* Why the first control that does not fit the form does not. */
static __attribute__((noinline, cold)) int control_failure(ctx *c)
{
    const statement *st = c->st;
    const syntax_form *F = c->F;
    for (int k = 0; k < 3; k++) {
        if (!st->ctl_given[k])
            continue;
        if (F->ctl[k] < 0) {
            record(c, 900, st->ctl_col[k], (int)strlen(ctl_names[k]), NULL, -1, "%s does not take %s (its syntax line has no %s)", F->mnemonic, ctl_names[k], ctl_names[k]);
            return -1;
        }
        const isa_field *f = &c->op->fields[F->ctl[k]];
        if (st->ctl_val[k] >> f->width) {
            record(c, 900, st->ctl_col[k], (int)strlen(ctl_names[k]), NULL, -1, "%s out of range: %llu (0..%llu)", ctl_names[k], (unsigned long long)st->ctl_val[k],
                   (unsigned long long)((UINT64_C(1) << f->width) - 1));
            return -1;
        }
    }
    return -1;
}

/* The written controls: one test of them all (no branch per control), the
 * values of those not written go to the scratch value. */
static inline int set_controls(ctx *c)
{
    const statement *st = c->st;
    const asm_form *f = c->f;
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        int given = st->ctl_given[k] != 0;
        bad |= given & (f->ctl_field[k] == MAXF || st->ctl_val[k] > f->ctl_max[k]);
        c->inst.field[given ? f->ctl_field[k] : MAXF] = st->ctl_val[k];
    }
    return bad ? control_failure(c) : 0;
}

static __attribute__((noinline, cold)) int guard_failure(ctx *c)
{
    const isa_type *t = c->f->guard_type;
    if (!t)
        record(c, 900, c->st->guard_col, 1, NULL, -1, "%s takes no guard predicate", c->F->mnemonic);
    else
        record(c, 900, c->st->guard_col, (int)c->st->guard_len + 1, NULL, -1, "expected a predicate (%s0..%s%llu or %s) after '@'", t->prefix, t->prefix,
               (unsigned long long)(t->zero_value - 1), t->zero);
    return -1;
}

/* The guard predicate @P3 / @!P3 (guard_not goes to the scratch value
 * where the opcode has no field for it). */
static inline int set_guard(ctx *c)
{
    const statement *st = c->st;
    const asm_form *f = c->f;
    uint64_t g;
    if (!st->guard_present)
        return 0;
    if (!f->guard_type || asm_reg_value(f->guard_type, st->guard, st->guard_len, st->guard_reg, &g))
        return guard_failure(c);
    c->inst.field[f->guard] = g;
    c->inst.field[f->guard_not] = (uint64_t)st->guard_not;
    return 0;
}

/* The first __Exception of the opcode that holds, recorded; -1 if any. */
static int exception_holds(ctx *c)
{
    const isa_opcode *op = c->op;
    for (int e = 0; e < op->nexceptions; e++)
        if (expr_eval(op->exceptions[e].cond, c->inst.field)) {
            record(c, 1000, c->st->mnem_col, (int)c->st->mnem_len, NULL, -1, "%s: illegal combination: %s", c->F->mnemonic, op->exceptions[e].message);
            return -1;
        }
    return 0;
}

/* Whether an __Exception holds: where the values fit the disassembler's
 * table of the question, a look-up tells that none does. */
static inline int exceptions(ctx *c)
{
    const field_pred *p = c->f->raised;
    if (!p)
        return 0;
    if (p->table) {
        unsigned k = 0;
        uint64_t over = 0;
        for (int i = 0; i < p->nfields; i++) {
            uint64_t v = c->inst.field[p->field[i]];
            over |= v >> p->width[i];
            k = k << p->width[i] | (unsigned)v;
        }
        if (!over && !p->table[k])
            return 0;
    }
    return exception_holds(c);
}

/* Tries the choices of optional groups in turn (the explaining pass, and
 * the first where the mnemonic has too many pairs for tables); 0 when one
 * fits. Each starts from the values after the modifiers: fields of
 * operands a choice omits must not keep what a failed choice wrote. */
static int try_choices(ctx *c)
{
    const asm_form *f = c->f;
    size_t size = sizeof(uint64_t) * (size_t)c->op->nfields;
    uint64_t base[MAXF];
    if (f->npresent > 1)
        memcpy(base, c->inst.field, size);
    for (int j = 0, tried = 0; j < f->npresent; j++) {
        /* a choice of groups that takes another number of source operands
         * than the statement has cannot match: the silent pass skips it */
        if (c->silent && f->present_nsrc[j] != c->st->nops)
            continue;
        if (tried++)
            memcpy(c->inst.field, base, size);
        if ((c->silent ? match_choice(c, j) : match_operands(c, f->present[j])) == 0)
            return 0;
    }
    return -1;
}

/* Tries the form with the choice of optional groups `only` (an index into
 * its asm_form.present), or with every choice when it is -1. Returns 0 when
 * it fits, 1 when the operands do not fit that choice, -1 when the form
 * cannot fit whatever the choice. */
static int try_form(ctx *c, int only)
{
    memcpy(c->inst.field, c->op->absent, sizeof(uint64_t) * (size_t)c->op->nfields);
    c->has_warn = 0;
    if (match_mods(c))
        return -1;
    if (only >= 0 ? match_choice(c, only) : try_choices(c))
        return 1;
    return set_controls(c) || set_guard(c) || exceptions(c) ? -1 : 0;
}

/* "FADD: SrcB cannot be a predicate; expected R, UR, c[][] or a float immediate" */
static void kind_message(ctx *c, const mnemonic_entry *me, asm_error *err)
{
    const src_opnd *o = &c->st->ops[c->best.src_index];
    const char *kinds[16];
    int nk = 0;
    for (int i = 0; i < me->n; i++) {
        const syntax_form *F = &c->isa->opcodes[me->opcode[i]].forms[me->form[i]];
        /* only candidates that accepted everything before this operand */
        if (i < 256 && (c->cand_depth[i] != c->best.depth || !c->cand_slot[i]))
            continue;
        for (int k = 0; k < F->nops; k++) {
            if (strcmp(F->ops[k].name, c->best.slot))
                continue;
            const char *w = kind_word(&F->ops[k]);
            int seen = 0;
            for (int j = 0; j < nk; j++)
                seen |= !strcmp(kinds[j], w);
            if (!seen && nk < 16)
                kinds[nk++] = w;
        }
    }
    /* registers first, then memory, then immediates: a stable, readable order */
    static const char *const rank[] = {"R", "UR", "P", "UP", "PR", "R[URb+imm]", "c[][]"};
    for (int a = 1; a < nk; a++)
        for (int b = a; b > 0; b--) {
            int ra = 99, rb = 99;
            for (int r = 0; r < 7; r++) {
                if (!strcmp(kinds[b], rank[r]))
                    ra = r;
                if (!strcmp(kinds[b - 1], rank[r]))
                    rb = r;
            }
            if (ra >= rb)
                break;
            const char *t = kinds[b];
            kinds[b] = kinds[b - 1];
            kinds[b - 1] = t;
        }
    char list[200] = "";
    for (int j = 0; j < nk; j++) {
        if (j)
            strcat(list, j == nk - 1 ? " or " : ", ");
        strcat(list, kinds[j]);
    }
    char buf[64];
    const syntax_form *F0 = &c->isa->opcodes[me->opcode[0]].forms[me->form[0]];
    snprintf(err->msg, sizeof err->msg, "%s: %s cannot be %s; expected %s", F0->mnemonic, c->best.slot, describe_src(c->isa, o, buf, sizeof buf), list);
    err->col = o->col;
    err->len = o->len;
}

/* Tries candidate i of the mnemonic (see try_form for `only`); on success
 * writes the word and the statement's warning. */
static int try_candidate(ctx *c, const mnemonic_entry *me, const asm_mnemonic *am, int i, int only, gisa_word *out)
{
    c->cand = i;
    c->op = &c->isa->opcodes[me->opcode[i]];
    c->F = &c->op->forms[me->form[i]];
    c->f = am->enc[i];
    c->inst.opcode = me->opcode[i];
    c->inst.form = me->form[i];
    c->last = -1;
    if (c->op->nfields > MAXF)
        return -1;
    c->last = try_form(c, only);
    if (c->last)
        return -1;
    /* the gisa_inst's values in their fields, over the form's pre-packed absent values */
    gisa_word w = fields_write(&c->f->written, c->inst.field);
    out->w[0] = w.w[0] | c->f->base.w[0];
    out->w[1] = w.w[1] | c->f->base.w[1];
    c->st->has_warn = c->has_warn;
    if (c->has_warn)
        c->st->warn = c->warn;
    return 0;
}

int asm_encode(const gisa_isa *isa, statement *st, gisa_word *out, asm_error *err)
{
    int me_idx = st->me_idx, k = st->first_word;
    size_t base = st->nwords ? (size_t)(st->words[0].s - 1 - st->mnem) : st->mnem_len;
    if (me_idx < 0) {
        const char *best = NULL;
        int bd = 3;
        for (int i = 0; i < isa->nmnemonics; i++) {
            int d = edit_distance(st->mnem, base, isa->mnemonics[i].mnemonic, strlen(isa->mnemonics[i].mnemonic));
            if (d < bd) {
                bd = d;
                best = isa->mnemonics[i].mnemonic;
            }
        }
        err->col = st->mnem_col;
        err->len = (int)base;
        snprintf(err->msg, sizeof err->msg, "unknown instruction '%.*s'%s%s%s", (int)(base > 60 ? 60 : base), st->mnem, best ? "; did you mean " : "",
                 best ? best : "", best ? "?" : "");
        return -1;
    }
    const mnemonic_entry *me = &isa->mnemonics[me_idx];
    ctx c;
    c.isa = isa;
    c.st = st;
    c.first_word = k;
    c.best.depth = -1;
    c.best.slot = NULL;
    /* first pass, silent: the pairs of candidate and choice of groups
     * whose operand kinds fit, in order; the first that encodes wins */
    c.silent = 1;
    const asm_mnemonic *am = &isa->asm_model->mnem[me_idx];
    const asm_pairs *P = st->nops <= am->max_src ? &am->pairs[st->nops] : NULL;
    uint64_t fit = 0;
    if (P && P->accept) {
        fit = P->all;
        for (int i = 0; i < st->nops; i++)
            fit &= P->accept[i * isa->asm_model->ncodes + isa->asm_model->code[asm_class(&st->ops[i])]];
    }
    for (int dead = -1; fit; fit &= fit - 1) {
        int p = __builtin_ctzll(fit), i = P->cand[p];
        if (i == dead)
            continue;
        if (try_candidate(&c, me, am, i, P->choice[p], out) == 0)
            return 0;
        if (c.last < 0) /* nothing else of this candidate fits either */
            dead = i;
    }
    if (P && !P->accept) /* too many pairs for the tables: every candidate */
        for (int i = 0; i < me->n; i++)
            if (try_candidate(&c, me, am, i, -1, out) == 0)
                return 0;
    /* second pass: the same, explained (what went furthest is reported) */
    c.silent = 0;
    for (int i = 0; i < me->n && i < 256; i++) {
        c.cand_depth[i] = -1;
        c.cand_slot[i] = NULL;
    }
    for (int i = 0; i < me->n; i++)
        if (try_candidate(&c, me, am, i, -1, out) == 0)
            return 0;
    if (c.best.slot)
        kind_message(&c, me, err);
    else if (c.best.depth >= 0)
        *err = c.best.err;
    else {
        err->col = st->mnem_col;
        err->len = (int)st->mnem_len;
        snprintf(err->msg, sizeof err->msg, "no syntax form matches");
    }
    return -1;
}
