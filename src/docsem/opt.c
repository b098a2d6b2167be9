/* The optimiser: a compiled program (prog.h) made shorter before it runs.
 * The compiler emits what the pseudo-code says, one operation at a time:
 * masks that cover every bit their operand can have, comparisons of
 * booleans with 0, `c ? 1 : 0`, copies, results nobody reads. Each pass uses
 * only what the program itself shows (the widths its ports and operations
 * give, the constants it loads, which bits its results keep), never which
 * instruction it is:
 *  - known widths: an operation that cannot change its operand's value
 *    (x & mask, a bit field or a sign extension wider than x, x != 0 of a
 *    boolean, x + 0) becomes a copy;
 *  - demanded bits, bit by bit: a 32-bit result keeps the low 32 bits of its
 *    value, a field its place, so a mask, an extension or an insert that
 *    only changes bits nobody uses becomes a copy (an insert that covers
 *    every used bit, a copy of what it inserts);
 *  - bits that may be 1: a field of x | y where y has none there is a field
 *    of x, one of x << c above c a field of x, one where nothing can be 1 is
 *    0; a comparison of a value in [0, 2^n) with a constant that range
 *    decides is a constant, and a fault on a constant 0 goes;
 *  - a constant operand of a binary operation becomes its immediate, a test
 *    of `x != 0` reads x, copies are propagated (also of a variable that
 *    keeps its value up to the read), and operations whose
 *    results nobody reads are removed, as are empty branches;
 *  - a constant read only inside one branch is loaded there.
 * Width facts hold for every lane an operation computes; the lanes outside
 * the mask hold values nobody reads, before and after. An operation this
 * file does not know keeps everything it may read and is never removed. */
#include <stdlib.h>
#include <string.h>

#include "docsem/compile.h"

typedef unsigned __int128 u128;

enum { R_A = 1, R_B = 2, R_C = 4, DEF = 8, PURE = 16, KNOWN = 32, TRUTH_A = 64 };

/* what an operation reads, whether it writes slot d, whether it can go */
static unsigned shape(const ds_op *o)
{
    switch ((ds_opcode)o->code) {
    case DO_CONST: case DO_IN: case DO_INPRED: case DO_OLD: case DO_OLDPRED: return DEF | PURE | KNOWN;
    case DO_MOV: case DO_NOT: case DO_NEG: case DO_ABS: case DO_BITS: case DO_SEXT: case DO_FCVT:
    case DO_FISNAN: case DO_FISSUB:
        return R_A | DEF | PURE | KNOWN;
    case DO_LNOT: return R_A | DEF | PURE | KNOWN | TRUTH_A;
    case DO_STORE: return (o->bk ? 0u : R_A) | DEF | PURE | KNOWN;
    case DO_ADD: case DO_SUB: case DO_MUL: case DO_DIV: case DO_CDIV: case DO_MOD: case DO_AND: case DO_OR:
    case DO_XOR: case DO_SHL: case DO_SHR: case DO_LT: case DO_LE: case DO_GT: case DO_GE: case DO_EQ:
    case DO_NE: case DO_MIN: case DO_MAX:
        return R_A | (o->bk ? 0u : R_B) | DEF | PURE | KNOWN;
    case DO_LAND: case DO_LOR: return R_A | (o->bk ? 0u : R_B) | DEF | PURE | KNOWN | TRUTH_A;
    case DO_INSERT: case DO_FADD: case DO_FMUL: case DO_FCMP: case DO_FMIN: case DO_FMAX:
        return R_A | R_B | DEF | PURE | KNOWN;
    case DO_SEL: return R_A | R_B | R_C | DEF | PURE | KNOWN | TRUTH_A;
    case DO_LUT3: case DO_FFMA: return R_A | R_B | R_C | DEF | PURE | KNOWN;
    case DO_IF: case DO_FAULT: case DO_OUTPRED: return R_A | KNOWN | TRUTH_A;
    case DO_OUT: return R_A | KNOWN;
    case DO_ELSE: case DO_ENDIF: return KNOWN;
    default: return R_A | R_B | R_C | DEF; /* unknown: reads anything, stays */
    }
}

_Static_assert((int)R_A == (int)DS_READS_A && (int)R_B == (int)DS_READS_B && (int)R_C == (int)DS_READS_C &&
                   (int)DEF == (int)DS_WRITES_D && (int)PURE == (int)DS_PURE && (int)KNOWN == (int)DS_KNOWN,
               "prog.h's names of the shape bits");
unsigned ds_op_shape(const ds_op *o) { return shape(o) & (R_A | R_B | R_C | DEF | PURE | KNOWN); }

typedef struct facts {
    int nslots;
    int ndefs[DS_MAX_SLOTS];
    int def[DS_MAX_SLOTS];   /* the defining operation when ndefs == 1 */
    int reads[DS_MAX_SLOTS];
    uint8_t bits[DS_MAX_SLOTS]; /* every value is in [0, 2^bits); 128: any */
    u128 demand[DS_MAX_SLOTS];  /* the bits some reader uses */
    u128 ones[DS_MAX_SLOTS];    /* the bits that may be 1 (others are 0 in every lane) */
} facts;

/* bits [0, n) */
static u128 low_bits(int n) { return n <= 0 ? 0 : n >= 128 ? ~(u128)0 : ((u128)1 << n) - 1; }
/* every bit up to m's highest: what carries (+ - *) and shifts left read */
static u128 up_to(u128 m)
{
    int n = 0;
    while (n < 128 && (m >> n) != 0)
        n++;
    return low_bits(n);
}

static int ubits(ds_int v)
{
    if (v < 0)
        return 128;
    int b = 0;
    while (b < 127 && (v >> b) != 0)
        b++;
    return b;
}

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }
static int valid(const facts *f, int s) { return s >= 0 && s < f->nslots; }

/* the single-def constant in slot s, if it is one */
static int const_slot(const ds_prog *p, const facts *f, int s, ds_int *k)
{
    if (!valid(f, s) || f->ndefs[s] != 1 || p->ops[f->def[s]].code != DO_CONST)
        return 0;
    *k = p->ops[f->def[s]].imm;
    return 1;
}


/* an upper bound on the width of o's result, from its operands' */
static int result_bits(const ds_op *o, const facts *f)
{
    int a = valid(f, o->a) ? f->bits[o->a] : 128, c = valid(f, o->c) ? f->bits[o->c] : 128;
    int b = o->bk ? ubits(o->imm) : valid(f, o->b) ? f->bits[o->b] : 128;
    int both = a < 128 && b < 128;
    switch ((ds_opcode)o->code) {
    case DO_CONST: return ubits(o->imm);
    case DO_IN: case DO_OLD: return o->width == 64 ? 64 : 32;
    case DO_INPRED: case DO_OLDPRED: case DO_LT: case DO_LE: case DO_GT: case DO_GE: case DO_EQ: case DO_NE:
    case DO_LAND: case DO_LOR: case DO_LNOT: case DO_FCMP: case DO_FISNAN: case DO_FISSUB:
        return 1;
    case DO_MOV: return a;
    case DO_STORE: return o->bk ? ubits(o->imm) : a;
    case DO_AND: return imin(a, b);
    case DO_OR: case DO_XOR: case DO_MAX: case DO_FMIN: case DO_FMAX: return both ? imax(a, b) : 128;
    case DO_MIN: return both ? imin(a, b) : 128;
    case DO_SEL: return imax(b, c);
    case DO_ADD: return both && imax(a, b) < 127 ? imax(a, b) + 1 : 128;
    case DO_MUL: return both && a + b < 128 ? a + b : 128;
    case DO_SHL: return o->bk && o->imm >= 0 && a < 128 && a + o->imm < 128 ? a + (int)o->imm : 128;
    case DO_SHR: return a < 128 && o->bk && o->imm >= 0 ? imax(a - (o->imm > 127 ? 127 : (int)o->imm), 0) : a;
    case DO_DIV: case DO_CDIV: return both ? a : 128;
    case DO_MOD: return b;
    case DO_BITS: {
        int r = o->width < 128 ? o->width : 128 - o->k;
        return a < 128 ? imin(r, imax(a - o->k, 0)) : r < 128 ? r : 128;
    }
    case DO_SEXT: return a < o->width ? a : 128;
    case DO_INSERT: return a < 128 && o->k + o->width < 128 ? imax(a, o->k + o->width) : 128;
    case DO_LUT3: return o->width < 128 ? o->width : 128;
    case DO_FADD: case DO_FMUL: case DO_FFMA: case DO_FCVT: return ds_fmt_bits(o->fmt);
    default: return 128;
    }
}

static void demand_on(facts *f, int s, u128 m)
{
    if (valid(f, s))
        f->demand[s] |= m;
}

/* the bits of o's result that may be 1, from its operands' (a bound like
 * result_bits, bit by bit: what the fields of a packed value come from) */
static u128 result_ones(const ds_op *o, const facts *f)
{
    const u128 all = ~(u128)0;
    const u128 a = valid(f, o->a) ? f->ones[o->a] : all, c = valid(f, o->c) ? f->ones[o->c] : all;
    const u128 b = o->bk ? (u128)o->imm : valid(f, o->b) ? f->ones[o->b] : all;
    const u128 field = o->k >= 0 && o->k < 128 ? low_bits(o->width) << o->k : 0;
    switch ((ds_opcode)o->code) {
    case DO_CONST: return (u128)o->imm;
    case DO_MOV: return a;
    case DO_STORE: return o->bk ? (u128)o->imm : a;
    case DO_AND: return a & b;
    case DO_OR: case DO_XOR: return a | b;
    case DO_SEL: return b | c;
    case DO_SHL: return o->bk && o->imm >= 0 && o->imm < 128 ? a << (int)o->imm : all;
    case DO_BITS: return o->k >= 0 && o->k < 128 ? (a >> o->k) & low_bits(o->width) : low_bits(o->width);
    case DO_INSERT: return field ? (a & ~field) | ((b << o->k) & field) : all;
    default: {
        const int r = result_bits(o, f);
        return low_bits(r);
    }
    }
}

/* the bits o reads of its operands, given the bits of its result that
 * are used: bitwise operations read the same bits, carries and left shifts
 * the bits below, a field its place, an insert the bits around its field */
static void demand_of_reads(const ds_op *o, facts *f)
{
    const unsigned sh = shape(o);
    const u128 dd = sh & DEF && valid(f, o->d) ? f->demand[o->d] : 0, all = ~(u128)0;
    switch ((ds_opcode)o->code) {
    case DO_OUT: demand_on(f, o->a, low_bits(o->width == 64 ? 64 : 32)); break;
    case DO_AND: case DO_OR: case DO_XOR:
        demand_on(f, o->a, o->code == DO_AND && o->bk ? dd & (u128)o->imm : dd);
        if (!o->bk)
            demand_on(f, o->b, dd);
        break;
    case DO_ADD: case DO_SUB: case DO_MUL:
        demand_on(f, o->a, up_to(dd));
        if (!o->bk)
            demand_on(f, o->b, up_to(dd));
        break;
    case DO_NOT: case DO_MOV: demand_on(f, o->a, dd); break;
    case DO_NEG: demand_on(f, o->a, up_to(dd)); break;
    case DO_STORE:
        if (!o->bk)
            demand_on(f, o->a, dd);
        break;
    case DO_SHL: /* the low n bits of x << y are x's low n bits moved up, for any y */
        demand_on(f, o->a, o->bk && o->imm >= 0 && o->imm < 128 ? dd >> (int)o->imm : up_to(dd));
        if (!o->bk)
            demand_on(f, o->b, all);
        break;
    case DO_BITS:
        if (o->k < 128)
            demand_on(f, o->a, (dd & low_bits(o->width)) << o->k);
        break;
    case DO_INSERT: {
        const u128 field = o->k < 128 ? low_bits(o->width) << o->k : 0;
        demand_on(f, o->a, dd & ~field);
        demand_on(f, o->b, o->k < 128 ? (dd & field) >> o->k : 0);
        break;
    }
    case DO_SEL:
        demand_on(f, o->a, all);
        demand_on(f, o->b, dd);
        demand_on(f, o->c, dd);
        break;
    default:
        if (sh & R_A)
            demand_on(f, o->a, all);
        if (sh & R_B)
            demand_on(f, o->b, all);
        if (sh & R_C)
            demand_on(f, o->c, all);
    }
}

/* the facts of a program: definitions, readers, widths, demanded bits */
static void analyse(const ds_prog *p, facts *f)
{
    f->nslots = p->nslots;
    memset(f->ndefs, 0, sizeof f->ndefs);
    memset(f->reads, 0, sizeof f->reads);
    memset(f->demand, 0, sizeof f->demand);
    for (int i = 0; i < p->nops; i++) {
        const ds_op *o = &p->ops[i];
        unsigned sh = shape(o);
        if (sh & DEF && valid(f, o->d)) {
            f->ndefs[o->d]++;
            f->def[o->d] = i;
        }
        if (sh & R_A && valid(f, o->a))
            f->reads[o->a]++;
        if (sh & R_B && valid(f, o->b))
            f->reads[o->b]++;
        if (sh & R_C && valid(f, o->c))
            f->reads[o->c]++;
    }
    for (int s = 0; s < f->nslots; s++) { /* a slot nobody writes holds anything */
        f->bits[s] = f->ndefs[s] ? 0 : 128;
        f->ones[s] = f->ndefs[s] ? 0 : ~(u128)0;
    }
    /* widths only grow: the forward sweep repeats until they settle */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < p->nops; i++) {
            const ds_op *o = &p->ops[i];
            if (!(shape(o) & DEF) || !valid(f, o->d))
                continue;
            int r = result_bits(o, f);
            if (r > f->bits[o->d]) {
                f->bits[o->d] = (uint8_t)r;
                changed = 1;
            }
            const u128 ones = f->ones[o->d] | result_ones(o, f);
            if (ones != f->ones[o->d]) {
                f->ones[o->d] = ones;
                changed = 1;
            }
        }
    }
    /* demanded bits only grow too: backward sweeps */
    for (int changed = 1; changed;) {
        u128 before[DS_MAX_SLOTS];
        memcpy(before, f->demand, sizeof before);
        for (int i = p->nops - 1; i >= 0; i--)
            demand_of_reads(&p->ops[i], f);
        changed = memcmp(before, f->demand, sizeof before) != 0;
    }
}

static void to_unary(ds_op *o, int code, int a)
{
    o->code = (uint8_t)code;
    o->a = (uint16_t)a;
    o->bk = 0;
}

/* low n bits all ones in m */
static int covers(ds_int m, int n)
{
    if (n >= 128)
        return m == -1;
    ds_int low = n == 127 ? (ds_int)(~(unsigned __int128)0 >> 1) : (((ds_int)1 << n) - 1);
    return (m & low) == low;
}

/* whether slot s keeps its value from operation i to operation j: i < j
 * in the same branch (the branches between open and close there), and
 * nothing between writes s */
static int unchanged_between(const ds_prog *p, int s, int i, int j)
{
    if (i >= j)
        return 0;
    int depth = 0;
    for (int k = i + 1; k < j; k++) {
        const ds_op *o = &p->ops[k];
        const unsigned sh = shape(o);
        depth += o->code == DO_IF ? 1 : o->code == DO_ENDIF ? -1 : 0;
        if (!(sh & KNOWN) || (sh & DEF && o->d == s) || depth < 0 || (o->code == DO_ELSE && depth == 0))
            return 0;
    }
    return depth == 0;
}

/* A field of t (o's operand, written once by t) read from where t took
 * those bits: from x of x | y or x ^ y where y has no bit in the field,
 * from x of x << c when the field lies above c. Returns 1 when it did. */
static int field_source(const ds_prog *p, const facts *f, ds_op *o, const ds_op *t)
{
    const int at = f->def[o->a], here = (int)(o - p->ops);
    const u128 field = low_bits(o->width) << o->k;
    int from = -1, k = o->k;
    if (t->code == DO_OR || t->code == DO_XOR) {
        const u128 bo = t->bk ? (u128)t->imm : valid(f, t->b) ? f->ones[t->b] : ~(u128)0;
        const u128 ao = valid(f, t->a) ? f->ones[t->a] : ~(u128)0;
        from = !(bo & field) ? t->a : !t->bk && !(ao & field) ? t->b : -1;
    } else if (t->code == DO_SHL && t->bk && t->imm >= 0 && t->imm <= o->k) {
        from = t->a;
        k = o->k - (int)t->imm;
    }
    if (from < 0 || !valid(f, from) || (f->ndefs[from] != 1 && !unchanged_between(p, from, at, here)))
        return 0;
    o->a = (uint16_t)from;
    o->k = k;
    return 1;
}

/* FISNAN / FISSUB of v in format fmt, as the executor tests the bits */
static int fp_class(int code, int fmt, ds_int v)
{
    static const struct { uint64_t exp, frac; } f[] = {
        [DS_F16] = {0x7C00, 0x3FF},
        [DS_BF16] = {0x7F80, 0x7F},
        [DS_F32] = {0x7F800000, 0x7FFFFF},
        [DS_F64] = {UINT64_C(0x7FF0000000000000), UINT64_C(0xFFFFFFFFFFFFF)},
    };
    const uint64_t mag = (uint64_t)v & (f[fmt].exp | f[fmt].frac);
    return code == DO_FISNAN ? mag > f[fmt].exp : mag > 0 && mag <= f[fmt].frac;
}

/* Rewrites that keep every bit of every value (they rely on widths). */
static int exact_rewrites(ds_prog *p, const facts *f)
{
    int n = 0, depth = 0;
    for (int i = 0; i < p->nops; i++) {
        ds_op *o = &p->ops[i];
        unsigned sh = shape(o);
        depth += o->code == DO_IF ? 1 : o->code == DO_ENDIF ? -1 : 0;
        if (!(sh & KNOWN))
            continue;
        ds_int k;
        /* the only store of a variable, outside every branch: a copy (the
         * lanes outside the mask hold values nobody reads either way) */
        if (o->code == DO_STORE && depth == 0 && valid(f, o->d) && f->ndefs[o->d] == 1) {
            if (o->bk)
                o->code = DO_CONST;
            else
                to_unary(o, DO_MOV, o->a);
            n++;
            continue;
        }
        /* a constant first operand of a commutative operation goes second */
        if (sh & R_B && !o->bk && (o->code == DO_ADD || o->code == DO_MUL || o->code == DO_AND || o->code == DO_OR ||
                                   o->code == DO_XOR || o->code == DO_EQ || o->code == DO_NE || o->code == DO_MIN ||
                                   o->code == DO_MAX || o->code == DO_LAND || o->code == DO_LOR) &&
            const_slot(p, f, o->a, &k) && !const_slot(p, f, o->b, &k)) {
            const uint16_t a = o->a;
            o->a = o->b;
            o->b = a;
            n++;
            continue;
        }
        /* a constant second operand becomes the immediate */
        if (sh & R_B && sh & DEF && !(sh & R_C) && o->code >= DO_ADD && o->code <= DO_LOR &&
            const_slot(p, f, o->b, &k)) {
            o->bk = 1;
            o->imm = k;
            n++;
            continue;
        }
        /* a test of x != 0 reads x */
        if (sh & TRUTH_A && valid(f, o->a) && f->ndefs[o->a] == 1) {
            const ds_op *t = &p->ops[f->def[o->a]];
            if (t->code == DO_NE && t->bk && t->imm == 0 && valid(f, t->a) && f->ndefs[t->a] == 1) {
                o->a = t->a;
                n++;
                continue;
            }
        }
        int a = valid(f, o->a) ? f->bits[o->a] : 128;
        int imm0 = o->bk && o->imm == 0, kb = 0, kc = 0;
        ds_int vb = 0, vc = 0;
        switch ((ds_opcode)o->code) {
        case DO_ADD: case DO_SUB: case DO_OR: case DO_XOR: case DO_SHL:
            if (imm0)
                to_unary(o, DO_MOV, o->a), n++;
            break;
        case DO_SHR:
            if (imm0) {
                to_unary(o, DO_MOV, o->a), n++;
            } else if (o->bk && o->imm > 0 && o->imm < a && a < 128) {
                /* x >= 0 of a bits: x >> k is its bit field [k, a), which
                 * needs no sign (and fits 64-bit lanes where x does) */
                o->code = DO_BITS;
                o->k = (int)o->imm;
                o->width = (uint8_t)(a - (int)o->imm);
                o->bk = 0;
                n++;
            }
            break;
        case DO_MUL:
            if (o->bk && o->imm == 1)
                to_unary(o, DO_MOV, o->a), n++;
            break;
        case DO_INSERT: {
            /* a field over every bit of a that may be 1, of a value that
             * fits it: that value (a NaN result's canonical bits) */
            const u128 field = o->k >= 0 && o->k < 128 ? low_bits(o->width) << o->k : 0;
            if (o->k == 0 && valid(f, o->a) && valid(f, o->b) && (f->ones[o->a] & ~field) == 0 &&
                (f->ones[o->b] & ~field) == 0)
                to_unary(o, DO_MOV, o->b), n++;
            break;
        }
        case DO_AND: {
            if (o->bk && covers(o->imm, a)) {
                to_unary(o, DO_MOV, o->a), n++;
                break;
            }
            /* (x >> k) & (2^w - 1) is one bit field */
            int w = o->bk && o->imm > 0 ? ubits(o->imm) : 0;
            const ds_op *t = valid(f, o->a) && f->ndefs[o->a] == 1 ? &p->ops[f->def[o->a]] : NULL;
            if (w && w < 128 && o->imm == ((ds_int)1 << w) - 1 && t && t->code == DO_SHR && t->bk && t->imm >= 0 &&
                t->imm + w <= 128 && valid(f, t->a) && f->ndefs[t->a] == 1) {
                o->code = DO_BITS;
                o->k = (int)t->imm;
                o->width = (uint8_t)w;
                o->a = t->a;
                o->bk = 0;
                n++;
            } else if (w && w < 128 && o->imm == ((ds_int)1 << w) - 1 && t && t->code == DO_BITS &&
                       valid(f, t->a) && f->ndefs[t->a] == 1) { /* a field's low w bits: a narrower field */
                o->code = DO_BITS;
                o->k = t->k;
                o->width = (uint8_t)imin(w, t->width);
                o->a = t->a;
                o->bk = 0;
                n++;
            }
            break;
        }
        case DO_MIN:
            if (o->bk && a < 128 && o->imm >= 0 && ubits(o->imm) >= a && covers(o->imm, a))
                to_unary(o, DO_MOV, o->a), n++;
            break;
        case DO_LT: case DO_GE: case DO_LE: case DO_GT: {
            /* x in [0, 2^a) against a constant the range decides */
            if (!o->bk || a >= 127)
                break;
            const ds_int top = ((ds_int)1 << a) - 1, c = o->imm;
            const int lt = c <= 0 ? 0 : c > top ? 1 : -1, le = c < 0 ? 0 : c >= top ? 1 : -1;
            const int v = o->code == DO_LT ? lt : o->code == DO_GE ? (lt < 0 ? -1 : !lt)
                          : o->code == DO_LE ? le : (le < 0 ? -1 : !le);
            if (v >= 0) {
                to_unary(o, DO_CONST, 0);
                o->imm = v;
                n++;
            }
            break;
        }
        case DO_NE:
            if (imm0 && a <= 1)
                to_unary(o, DO_MOV, o->a), n++;
            break;
        case DO_EQ:
            if (o->bk && a <= 1 && (o->imm == 0 || o->imm == 1))
                to_unary(o, o->imm ? DO_MOV : DO_LNOT, o->a), n++;
            break;
        case DO_BITS: {
            const ds_op *t = valid(f, o->a) && f->ndefs[o->a] == 1 ? &p->ops[f->def[o->a]] : NULL;
            const u128 field = o->k >= 0 && o->k < 128 ? low_bits(o->width) << o->k : 0;
            if (o->k == 0 && a <= o->width) {
                to_unary(o, DO_MOV, o->a), n++;
            } else if (field && valid(f, o->a) && !(f->ones[o->a] & field)) { /* a field of zeros */
                to_unary(o, DO_CONST, 0), o->imm = 0, n++;
            } else if (field && t && field_source(p, f, o, t)) {
                n++;
            } else if (t && t->code == DO_BITS && o->k < t->width && valid(f, t->a) && f->ndefs[t->a] == 1) {
                /* a field of a field */
                o->width = (uint8_t)imin(o->width, t->width - o->k);
                o->k += t->k;
                o->a = t->a;
                n++;
            }
            break;
        }
        case DO_SEXT:
            if (a < o->width)
                to_unary(o, DO_MOV, o->a), n++;
            break;
        case DO_FISNAN:
        case DO_FISSUB: /* of a constant: a constant */
            if (const_slot(p, f, o->a, &vb)) {
                const int v = fp_class(o->code, o->fmt, vb);
                to_unary(o, DO_CONST, 0);
                o->imm = v;
                n++;
            }
            break;
        case DO_SEL: {
            const ds_op *t = valid(f, o->a) && f->ndefs[o->a] == 1 ? &p->ops[f->def[o->a]] : NULL;
            if (t && t->code == DO_LNOT && valid(f, t->a) && f->ndefs[t->a] == 1) { /* !x ? b : c is x ? c : b */
                const uint16_t b = o->b;
                o->a = t->a;
                o->b = o->c;
                o->c = b;
                n++;
                break;
            }
            kb = const_slot(p, f, o->b, &vb);
            kc = const_slot(p, f, o->c, &vc);
            if (o->b == o->c)
                to_unary(o, DO_MOV, o->b), n++;
            else if (kb && kc && a <= 1 && vb == 1 && vc == 0)
                to_unary(o, DO_MOV, o->a), n++;
            else if (kb && kc && vb == 0 && vc == 1)
                to_unary(o, DO_LNOT, o->a), n++;
            else if (kb && kc && a <= 1 && vc == 0) /* c ? K : 0 of a boolean c: c * K */
                to_unary(o, DO_MUL, o->a), o->bk = 1, o->imm = vb, n++;
            break;
        }
        default: break;
        }
    }
    return n;
}

/* Rewrites that keep the bits some reader uses (they rely on demand). */
static int demand_rewrites(ds_prog *p, const facts *f)
{
    int n = 0;
    for (int i = 0; i < p->nops; i++) {
        ds_op *o = &p->ops[i];
        if (!valid(f, o->d) || !(shape(o) & DEF) || !(shape(o) & KNOWN))
            continue;
        const u128 dd = f->demand[o->d];
        const u128 field = o->k >= 0 && o->k < 128 ? low_bits(o->width) << o->k : 0;
        int to = -1; /* the operand the result equals where it is used */
        switch ((ds_opcode)o->code) {
        case DO_AND: to = o->bk && (dd & ~(u128)o->imm) == 0 ? o->a : -1; break;
        case DO_OR: case DO_XOR: to = o->bk && (dd & (u128)o->imm) == 0 ? o->a : -1; break;
        case DO_BITS: to = o->k == 0 && (dd & ~low_bits(o->width)) == 0 ? o->a : -1; break;
        case DO_SEXT: to = (dd & ~low_bits(o->width)) == 0 ? o->a : -1; break;
        case DO_INSERT: /* the field is not used, or only the field (in place) is */
            to = (dd & field) == 0 ? o->a : o->k == 0 && (dd & ~field) == 0 ? o->b : -1;
            break;
        default: break;
        }
        if (to >= 0) {
            to_unary(o, DO_MOV, to);
            n++;
        }
    }
    return n;
}

/* the slot numbers o reads (NULL where it reads none); returns its shape */
static unsigned read_refs(ds_op *o, uint16_t *r[3])
{
    unsigned sh = shape(o);
    r[0] = sh & R_A ? &o->a : NULL;
    r[1] = sh & R_B ? &o->b : NULL;
    r[2] = sh & R_C ? &o->c : NULL;
    return sh;
}

/* Reads of a copy's result read its source instead: the copy is written
 * once, and its source is too or keeps its value up to the read. */
static int propagate_copies(ds_prog *p, const facts *f)
{
    int n = 0;
    for (int i = 0; i < p->nops; i++) {
        uint16_t *r[3];
        if (!(read_refs(&p->ops[i], r) & KNOWN))
            continue;
        for (int j = 0; j < 3; j++) {
            if (!r[j] || !valid(f, *r[j]) || f->ndefs[*r[j]] != 1)
                continue;
            const int at = f->def[*r[j]];
            const ds_op *m = &p->ops[at];
            if (m->code == DO_MOV && m->a != *r[j] && valid(f, m->a) &&
                (f->ndefs[m->a] == 1 || unchanged_between(p, m->a, at, i))) {
                *r[j] = m->a;
                n++;
            }
        }
    }
    return n;
}

static int reads_slot(const ds_op *o, int s)
{
    unsigned sh = shape(o);
    return (sh & R_A && o->a == s) || (sh & R_B && o->b == s) || (sh & R_C && o->c == s);
}

static int is_control(const ds_op *o) { return o->code == DO_IF || o->code == DO_ELSE || o->code == DO_ENDIF; }

/* A copy d = a where a is written once and read no more after it, and d is
 * new there: a's operation writes d instead (the compiler's copy of a value
 * into a variable's own slot before a branch). One at a time; returns 1
 * when it made one. */
static int coalesce_copy(ds_prog *p, const facts *f)
{
    for (int j = 0; j < p->nops; j++) {
        ds_op *m = &p->ops[j];
        if (m->code != DO_MOV || m->a == m->d || !valid(f, m->a) || !valid(f, m->d) || f->ndefs[m->a] != 1)
            continue;
        int a = m->a, d = m->d, i = f->def[a], ok = i < j && (shape(&p->ops[i]) & KNOWN);
        for (int k = 0; k < p->nops && ok; k++) {
            const ds_op *o = &p->ops[k];
            if (k > j && reads_slot(o, a))
                ok = 0; /* read after the copy */
            if (k < j && (reads_slot(o, d) || (shape(o) & DEF && o->d == d)))
                ok = 0; /* d is in use before */
            if (k > i && k < j && (is_control(o) || (!(shape(o) & KNOWN) && reads_slot(o, a))))
                ok = 0; /* not under the same mask, or a read this file cannot rename */
        }
        if (!ok)
            continue;
        p->ops[i].d = (uint16_t)d;
        for (int k = i + 1; k < j; k++) {
            uint16_t *r[3];
            read_refs(&p->ops[k], r);
            for (int x = 0; x < 3; x++)
                if (r[x] && *r[x] == a)
                    *r[x] = (uint16_t)d;
        }
        m->a = (uint16_t)d; /* a copy into itself: the sweep removes it */
        return 1;
    }
    return 0;
}

/* A constant whose readers all lie in one branch opened after it (the NaN
 * of a rounding, say) moves to its first reader, so that a run that skips
 * the branch skips it too. One at a time; returns 1 when it moved one.
 * Branch targets are ELSE or ENDIF operations, which read nothing, so no
 * jump lands between the moved constant and its reader. */
static int sink_const(ds_prog *p, const facts *f)
{
    for (int i = 0; i < p->nops; i++) {
        const ds_op *c = &p->ops[i];
        if (c->code != DO_CONST || !valid(f, c->d) || f->ndefs[c->d] != 1)
            continue;
        int j = i + 1, depth = 0;
        for (; j < p->nops && !reads_slot(&p->ops[j], c->d); j++)
            depth += p->ops[j].code == DO_IF ? 1 : p->ops[j].code == DO_ENDIF ? -1 : 0;
        if (j >= p->nops || depth <= 0)
            continue; /* no reader, or the first is not deeper than the constant */
        int end = p->nops, d = 0, ok = 1;
        for (int m = j; m < p->nops && end == p->nops; m++) {
            const int code = p->ops[m].code;
            if (code == DO_IF)
                d++;
            else if ((code == DO_ELSE || code == DO_ENDIF) && d == 0)
                end = m; /* j's branch ends here */
            else if (code == DO_ENDIF)
                d--;
        }
        for (int m = end; m < p->nops && ok; m++)
            ok = !reads_slot(&p->ops[m], c->d);
        if (!ok)
            continue;
        const ds_op moved = *c;
        memmove(&p->ops[i], &p->ops[i + 1], sizeof moved * (size_t)(j - 1 - i));
        p->ops[j - 1] = moved;
        for (int m = 0; m < p->nops; m++) {
            ds_op *o = &p->ops[m];
            if ((o->code == DO_IF || o->code == DO_ELSE) && o->k > i && o->k < j)
                o->k--;
        }
        return 1;
    }
    return 0;
}

/* IF c; STORE x = u; ELSE; STORE x = v; ENDIF is x = c ? u : v, stored on
 * the enclosing mask: two operations (and the constants u and v need) for
 * five. One at a time; returns 1 when it made one. */
static int if_convert(ds_prog *p)
{
    for (int i = 0; i + 4 < p->nops; i++) {
        ds_op *o = &p->ops[i];
        const ds_op *u = &o[1], *e = &o[2], *v = &o[3], *end = &o[4];
        if (o->code != DO_IF || o->k != i + 2 || u->code != DO_STORE || e->code != DO_ELSE || e->k != i + 4 ||
            v->code != DO_STORE || end->code != DO_ENDIF || u->d != v->d || p->nslots + 3 > DS_MAX_SLOTS)
            continue;
        const int c = o->a, x = u->d, t = p->nslots, ku = p->nslots + 1, kv = p->nslots + 2;
        const ds_op su = *u, sv = *v;
        p->nslots += 3;
        o[0] = (ds_op){.code = DO_CONST, .d = (uint16_t)ku, .imm = su.imm};
        o[1] = (ds_op){.code = DO_CONST, .d = (uint16_t)kv, .imm = sv.imm};
        o[2] = (ds_op){.code = DO_SEL, .d = (uint16_t)t, .a = (uint16_t)c, .b = su.bk ? (uint16_t)ku : su.a,
                       .c = sv.bk ? (uint16_t)kv : sv.a};
        o[3] = (ds_op){.code = DO_STORE, .d = (uint16_t)x, .a = (uint16_t)t};
        o[4] = (ds_op){.code = DO_MOV, .d = (uint16_t)x, .a = (uint16_t)x}; /* a copy into itself: swept */
        for (int k = 0; k < p->nops; k++) /* branches that ended past these keep their targets */
            if ((p->ops[k].code == DO_IF || p->ops[k].code == DO_ELSE) && p->ops[k].k > i && p->ops[k].k <= i + 4)
                p->ops[k].k = i + 5;
        return 1;
    }
    return 0;
}

/* A branch on a constant: every lane takes the same way, so that way runs
 * under the enclosing mask as it is, and the other never runs. */
static void constant_branch(const ds_prog *p, const facts *f, int i, int *keep)
{
    const ds_op *o = &p->ops[i];
    ds_int v;
    if (o->code != DO_IF || !const_slot(p, f, o->a, &v) || o->k <= i || o->k >= p->nops)
        return;
    const int els = p->ops[o->k].code == DO_ELSE ? o->k : -1;
    const int end = els >= 0 ? p->ops[els].k : o->k;
    if (end <= i || end >= p->nops || p->ops[end].code != DO_ENDIF)
        return;
    keep[i] = keep[end] = 0;
    if (els >= 0)
        keep[els] = 0;
    const int from = v ? els : i + 1, to = v ? end : (els >= 0 ? els : end); /* the way not taken */
    for (int k = from; from >= 0 && k < to; k++)
        keep[k] = 0;
}

/* Removes what nobody reads, a copy into itself and empty branches;
 * branch targets follow. Returns the number removed. */
static int sweep(ds_prog *p, const facts *f)
{
    int *keep = malloc(sizeof *keep * (size_t)(2 * p->nops + 1)), *map = keep + p->nops;
    int removed = 0;
    if (!keep)
        return 0;
    for (int i = 0; i < p->nops; i++) {
        const ds_op *o = &p->ops[i];
        unsigned sh = shape(o);
        keep[i] = 1;
        ds_int k;
        if (sh & PURE && sh & DEF && valid(f, o->d) && (f->reads[o->d] == 0 || (o->code == DO_MOV && o->a == o->d)))
            keep[i] = 0;
        if (o->code == DO_FAULT && const_slot(p, f, o->a, &k) && k == 0)
            keep[i] = 0; /* a condition no lane can meet */
    }
    for (int i = 0; i < p->nops; i++)
        if (keep[i])
            constant_branch(p, f, i, keep);
    for (int i = 0; i + 1 < p->nops; i++) {
        /* the next kept operation after i */
        int j = i + 1;
        while (j < p->nops && !keep[j])
            j++;
        if (!keep[i] || j >= p->nops || p->ops[j].code != DO_ENDIF)
            continue;
        if (p->ops[i].code == DO_IF)
            keep[i] = keep[j] = 0;
        else if (p->ops[i].code == DO_ELSE)
            keep[i] = 0;
    }
    int n = 0;
    for (int i = 0; i < p->nops; i++) {
        map[i] = n;
        n += keep[i];
    }
    map[p->nops] = n;
    for (int i = 0; i < p->nops; i++) {
        if (!keep[i]) {
            removed++;
            continue;
        }
        ds_op o = p->ops[i];
        if ((o.code == DO_IF || o.code == DO_ELSE) && o.k >= 0 && o.k <= p->nops)
            o.k = map[o.k];
        p->ops[map[i]] = o;
    }
    p->nops = n;
    free(keep);
    return removed;
}

/* Whether the value op i (a DO_OLD or DO_OLDPRED outside every branch)
 * puts in slot v can be read: whether some operation after it reads v on
 * a path where v has not been written since (prog.h, ds_paths). */
static int old_is_read(const ds_prog *p, int i, int v)
{
    ds_paths paths = {0};
    for (int j = i + 1; j < p->nops; j++) {
        const ds_op *o = &p->ops[j];
        if (reads_slot(o, v) && !ds_paths_written(&paths))
            return 1;
        const int what = o->code == DO_IF ? DS_PATH_OPEN : o->code == DO_ELSE ? DS_PATH_ELSE
                         : o->code == DO_ENDIF ? DS_PATH_ENDIF : (shape(o) & DEF) && o->d == v ? DS_PATH_WRITE : -1;
        if (what < 0 && !(shape(o) & KNOWN))
            return 1; /* an operation that may read anything */
        if (what >= 0 && !ds_paths_step(&paths, what))
            return 1;
    }
    return 0;
}

/* The current value of a result that every path writes before reading it
 * is never read, except on the lanes outside the mask, which nobody
 * writes back: its DO_OLD (DO_OLDPRED) goes (its slot becomes a new one
 * that nobody reads, which sweep removes). Returns how many went. */
static int unread_olds(ds_prog *p, const facts *f)
{
    int n = 0, depth = 0;
    for (int i = 0; i < p->nops && p->nslots < DS_MAX_SLOTS; i++) {
        ds_op *o = &p->ops[i];
        depth += (o->code == DO_IF) - (o->code == DO_ENDIF);
        if ((o->code == DO_OLD || o->code == DO_OLDPRED) && depth == 0 && valid(f, o->d) &&
            !old_is_read(p, i, o->d)) {
            o->d = (uint16_t)p->nslots++;
            n++;
        }
    }
    return n;
}

/* the ports whose old values the program reads */
static void note_olds(ds_prog *p)
{
    p->olds = p->pred_olds = 0;
    for (int i = 0; i < p->nops; i++) {
        const ds_op *o = &p->ops[i];
        if (o->code == DO_OLD && o->k >= 0 && o->k < 32)
            p->olds |= 1u << o->k;
        if (o->code == DO_OLDPRED && o->k >= 0 && o->k < 32)
            p->pred_olds |= 1u << o->k;
    }
}

/* A right shift of a value known to lie in [0, 2^n), n <= 64, notes n in
 * its width (prog.h, DO_SHR): a logical shift of the value's low bits
 * then gives it, on lanes of n bits or more (narrow.c, the executor). The
 * shift's meaning is unchanged (the value is not negative). */
static void note_unsigned_shifts(ds_prog *p, const facts *f)
{
    for (int i = 0; i < p->nops; i++) {
        ds_op *o = &p->ops[i];
        if (o->code == DO_SHR)
            o->width = (uint8_t)(valid(f, o->a) && f->bits[o->a] <= 64 ? imax(f->bits[o->a], 1) : 0);
    }
}

void ds_optimize(ds_prog *p)
{
    facts *f = calloc(1, sizeof *f);
    if (!f)
        return; /* the program runs as it is */
    for (int round = 0; round < 64; round++) {
        int n = 0;
        analyse(p, f);
        n += exact_rewrites(p, f);
        analyse(p, f);
        n += propagate_copies(p, f);
        analyse(p, f);
        n += coalesce_copy(p, f);
        analyse(p, f);
        n += sweep(p, f);
        analyse(p, f);
        n += demand_rewrites(p, f);
        analyse(p, f);
        n += sink_const(p, f);
        n += if_convert(p);
        analyse(p, f);
        n += unread_olds(p, f);
        if (!n)
            break;
    }
    analyse(p, f);
    note_unsigned_shifts(p, f);
    note_olds(p);
    free(f);
}
