/* A compiled semantics program as SMT terms, operation by operation, as
 * docexec.c runs it on one lane: slots are 128-bit vectors, integer
 * operations are the bit-vector theory's (whose out-of-range shifts and
 * signed division are those of ds_div and the executor), floating-point
 * operations are the IEEE theory's with the program's rounding mode, and
 * the mask stack is a Boolean (the lane is in the current mask or not).
 * What a lane cannot know alone (the warp's masks, other lanes, registers
 * by index) is refused, naming the optype. */
#ifdef HAVE_Z3
#include <stdio.h>
#include <string.h>

#include "prove/term.h"

typedef unsigned __int128 u128;

typedef struct tb {
    Z3_context z;
    Z3_sort s128, s32, s8;
    int id;
    pv_tmpl *t;
} tb;

static const unsigned EB[4] = {5, 8, 8, 11}, SB[4] = {11, 8, 24, 53}, NB[4] = {16, 16, 32, 64};
static const uint64_t CANON[4] = {0x7fff, 0x7fff, 0x7fffffffu, UINT64_C(0x7fffffffffffffff)};
static const uint64_t SIGN[4] = {0x8000, 0x8000, 0x80000000u, UINT64_C(0x8000000000000000)};

static Z3_ast num(const tb *b, ds_int v)
{
    const u128 u = (u128)v;
    Z3_sort s64 = Z3_mk_bv_sort(b->z, 64);
    return Z3_mk_concat(b->z, Z3_mk_unsigned_int64(b->z, (uint64_t)(u >> 64), s64),
                        Z3_mk_unsigned_int64(b->z, (uint64_t)u, s64));
}

static Z3_ast b2v(const tb *b, Z3_ast cond) { return Z3_mk_ite(b->z, cond, num(b, 1), num(b, 0)); }
static Z3_ast nz(const tb *b, Z3_ast x) { return Z3_mk_not(b->z, Z3_mk_eq(b->z, x, num(b, 0))); }
static Z3_ast zext(const tb *b, Z3_ast x, unsigned w) { return w >= 128 ? x : Z3_mk_zero_ext(b->z, 128 - w, x); }
static Z3_ast low(const tb *b, Z3_ast x, unsigned w) { return Z3_mk_extract(b->z, w - 1, 0, x); }

static Z3_ast var(tb *b, Z3_ast *cache, const char *what, int port, Z3_sort s)
{
    if (!*cache) {
        char name[64];
        snprintf(name, sizeof name, "w%d.%s%d", b->id, what, port);
        *cache = Z3_mk_const(b->z, Z3_mk_string_symbol(b->z, name), s);
    }
    return *cache;
}

static Z3_sort fsort(const tb *b, int fmt) { return Z3_mk_fpa_sort(b->z, EB[fmt], SB[fmt]); }

static Z3_ast fp_of(const tb *b, Z3_ast slot, int fmt)
{
    return Z3_mk_fpa_to_fp_bv(b->z, low(b, slot, NB[fmt]), fsort(b, fmt));
}

/* A result's bits: softfp returns some NaN for a NaN, which the
 * pseudo-code replaces by its rulings' NaN (the canonical one here). */
static Z3_ast bits_of(const tb *b, Z3_ast x, int fmt)
{
    Z3_ast nan = Z3_mk_unsigned_int64(b->z, CANON[fmt], Z3_mk_bv_sort(b->z, NB[fmt]));
    return zext(b, Z3_mk_ite(b->z, Z3_mk_fpa_is_nan(b->z, x), nan, Z3_mk_fpa_to_ieee_bv(b->z, x)), NB[fmt]);
}

static Z3_ast rm(const tb *b, int rnd)
{
    switch (rnd) {
    case 1: return Z3_mk_fpa_rtn(b->z);
    case 2: return Z3_mk_fpa_rtp(b->z);
    case 3: return Z3_mk_fpa_rtz(b->z);
    default: return Z3_mk_fpa_rne(b->z);
    }
}

static Z3_ast is_nan_bits(const tb *b, Z3_ast slot, int fmt)
{
    Z3_ast v = low(b, slot, NB[fmt]);
    Z3_sort s = Z3_mk_bv_sort(b->z, NB[fmt]);
    const uint64_t f = (SIGN[fmt] >> EB[fmt]) - 1; /* the fraction; the exponent is what is left below the sign */
    Z3_ast em = Z3_mk_unsigned_int64(b->z, (SIGN[fmt] - 1) & ~f, s), fm = Z3_mk_unsigned_int64(b->z, f, s);
    return Z3_mk_and(b->z, 2, (Z3_ast[]){Z3_mk_eq(b->z, Z3_mk_bvand(b->z, v, em), em),
                                          Z3_mk_not(b->z, Z3_mk_eq(b->z, Z3_mk_bvand(b->z, v, fm),
                                                                   Z3_mk_unsigned_int64(b->z, 0, s)))});
}

static Z3_ast is_sub_bits(const tb *b, Z3_ast slot, int fmt)
{
    Z3_ast v = low(b, slot, NB[fmt]);
    Z3_sort s = Z3_mk_bv_sort(b->z, NB[fmt]);
    const uint64_t f = (SIGN[fmt] >> EB[fmt]) - 1;
    Z3_ast zero = Z3_mk_unsigned_int64(b->z, 0, s);
    Z3_ast em = Z3_mk_unsigned_int64(b->z, (SIGN[fmt] - 1) & ~f, s), fm = Z3_mk_unsigned_int64(b->z, f, s);
    return Z3_mk_and(b->z, 2, (Z3_ast[]){Z3_mk_eq(b->z, Z3_mk_bvand(b->z, v, em), zero),
                                          Z3_mk_not(b->z, Z3_mk_eq(b->z, Z3_mk_bvand(b->z, v, fm), zero))});
}

/* a*b*2^k, one rounding: the F32 product is exact in F64 (48 significant
 * bits, exponents far inside F64's), so is its scaling; the executor
 * scales F32 products only (fmul in docexec.c), and so does this. */
static Z3_ast fmul(const tb *b, const ds_op *o, Z3_ast x, Z3_ast y)
{
    Z3_context z = b->z;
    if (o->fmt != 2 || !o->k)
        return Z3_mk_fpa_mul(z, rm(b, o->rnd), x, y);
    Z3_sort d = fsort(b, 3);
    Z3_ast p = Z3_mk_fpa_mul(z, Z3_mk_fpa_rne(z), Z3_mk_fpa_to_fp_float(z, Z3_mk_fpa_rne(z), x, d),
                             Z3_mk_fpa_to_fp_float(z, Z3_mk_fpa_rne(z), y, d));
    double s = 1;
    for (int i = 0; i < (o->k < 0 ? -o->k : o->k); i++)
        s *= 2;
    p = Z3_mk_fpa_mul(z, Z3_mk_fpa_rne(z), p, Z3_mk_fpa_numeral_double(z, o->k < 0 ? 1 / s : s, d));
    return Z3_mk_fpa_to_fp_float(z, rm(b, o->rnd), p, fsort(b, 2));
}

static const uint64_t ONE[4] = {0x3c00, 0x3f80, 0x3f800000u, UINT64_C(0x3ff0000000000000)};

/* whether a slot is +-1.0 of the format whatever the inputs: 1 or -1, else 0 */
static int unit(const tb *b, Z3_ast slot, int fmt)
{
    uint64_t v;
    Z3_ast k = Z3_simplify(b->z, low(b, slot, NB[fmt]));
    if (!Z3_is_numeral_ast(b->z, k) || !Z3_get_numeral_uint64(b->z, k, &v))
        return 0;
    return v == ONE[fmt] ? 1 : v == (ONE[fmt] | SIGN[fmt]) ? -1 : 0;
}

/* a*b + c, one rounding. A product by +-1 is exact (zeros' signs, infinities
 * and NaNs included), so fma(x, +-1, c) is x + c (or -x + c) rounded once:
 * the same value, and a far smaller formula than the fused multiplier's. */
static Z3_ast ffma(const tb *b, const ds_op *o, Z3_ast sa, Z3_ast sb, Z3_ast sc)
{
    Z3_context z = b->z;
    Z3_ast x = fp_of(b, sa, o->fmt), y = fp_of(b, sb, o->fmt), c = fp_of(b, sc, o->fmt);
    int ua = unit(b, sa, o->fmt), ub = unit(b, sb, o->fmt);
    Z3_ast r;
    if (ub)
        r = Z3_mk_fpa_add(z, rm(b, o->rnd), ub > 0 ? x : Z3_mk_fpa_neg(z, x), c);
    else if (ua)
        r = Z3_mk_fpa_add(z, rm(b, o->rnd), ua > 0 ? y : Z3_mk_fpa_neg(z, y), c);
    else
        r = Z3_mk_fpa_fma(z, rm(b, o->rnd), x, y, c);
    return bits_of(b, r, o->fmt);
}

/* docexec.c's fcmp: unordered when either is a NaN, else less, equal or
 * greater (+0 equals -0) */
static Z3_ast fcmp(const tb *b, const ds_op *o, Z3_ast sa, Z3_ast sb)
{
    Z3_context z = b->z;
    Z3_ast x = fp_of(b, sa, o->fmt), y = fp_of(b, sb, o->fmt);
    const int m = (int)o->imm;
    Z3_ast t = Z3_mk_true(z), f = Z3_mk_false(z);
    Z3_ast r = Z3_mk_ite(z, Z3_mk_fpa_lt(z, x, y), m & 1 ? t : f,
                         Z3_mk_ite(z, Z3_mk_fpa_eq(z, x, y), m & 2 ? t : f, m & 4 ? t : f));
    r = Z3_mk_ite(z, Z3_mk_or(z, 2, (Z3_ast[]){Z3_mk_fpa_is_nan(z, x), Z3_mk_fpa_is_nan(z, y)}), m & 8 ? t : f, r);
    return b2v(b, r);
}

/* docexec.c's fminmax: a NaN gives the other operand; of equal values
 * (zeros) +0 is the larger; the chosen operand's low 64 bits */
static Z3_ast fminmax(const tb *b, const ds_op *o, Z3_ast sa, Z3_ast sb)
{
    Z3_context z = b->z;
    const int is_max = o->code == DO_FMAX;
    Z3_ast x = fp_of(b, sa, o->fmt), y = fp_of(b, sb, o->fmt);
    Z3_ast a64 = zext(b, low(b, sa, 64), 64), b64 = zext(b, low(b, sb, 64), 64);
    Z3_ast a_neg = nz(b, Z3_mk_bvand(z, sa, num(b, (ds_int)SIGN[o->fmt])));
    Z3_ast eq = is_max ? Z3_mk_ite(z, a_neg, b64, a64) : Z3_mk_ite(z, a_neg, a64, b64);
    Z3_ast lt = Z3_mk_fpa_lt(z, x, y);
    Z3_ast r = Z3_mk_ite(z, Z3_mk_fpa_eq(z, x, y), eq, Z3_mk_ite(z, is_max ? lt : Z3_mk_not(z, lt), b64, a64));
    r = Z3_mk_ite(z, Z3_mk_fpa_is_nan(z, y), a64, r);
    return Z3_mk_ite(z, Z3_mk_fpa_is_nan(z, x), b64, r);
}

static Z3_ast lut3(const tb *b, Z3_ast a, Z3_ast x, Z3_ast c, unsigned lut, int width)
{
    Z3_context z = b->z;
    Z3_ast r = num(b, 0);
    for (int k = 0; k < 8; k++)
        if (lut >> k & 1) {
            Z3_ast t[3] = {k & 4 ? a : Z3_mk_bvnot(z, a), k & 2 ? x : Z3_mk_bvnot(z, x), k & 1 ? c : Z3_mk_bvnot(z, c)};
            r = Z3_mk_bvor(z, r, Z3_mk_bvand(z, Z3_mk_bvand(z, t[0], t[1]), t[2]));
        }
    const u128 m = width >= 128 ? ~(u128)0 : (((u128)1 << width) - 1);
    return Z3_mk_bvand(z, r, num(b, (ds_int)m));
}

/* ds_div, ds_cdiv, ds_mod of prog.h */
static Z3_ast divide(const tb *b, int code, Z3_ast x, Z3_ast y)
{
    Z3_context z = b->z;
    Z3_ast zero = num(b, 0), m1 = num(b, -1);
    Z3_ast special = Z3_mk_or(z, 2, (Z3_ast[]){Z3_mk_eq(z, y, zero), Z3_mk_eq(z, y, m1)});
    Z3_ast div = Z3_mk_ite(z, Z3_mk_eq(z, y, zero), zero,
                           Z3_mk_ite(z, Z3_mk_eq(z, y, m1), Z3_mk_bvneg(z, x), Z3_mk_bvsdiv(z, x, y)));
    if (code == DO_DIV)
        return div;
    Z3_ast r = Z3_mk_bvsrem(z, x, y);
    if (code == DO_CDIV) {
        Z3_ast up = Z3_mk_and(z, 2, (Z3_ast[]){nz(b, r), Z3_mk_eq(z, Z3_mk_bvslt(z, x, zero), Z3_mk_bvslt(z, y, zero))});
        return Z3_mk_ite(z, special, div, Z3_mk_bvadd(z, Z3_mk_bvsdiv(z, x, y), b2v(b, up)));
    }
    Z3_ast fix = Z3_mk_ite(z, Z3_mk_bvsge(z, r, zero), r,
                           Z3_mk_ite(z, Z3_mk_bvslt(z, y, zero), Z3_mk_bvsub(z, r, y), Z3_mk_bvadd(z, r, y)));
    return Z3_mk_ite(z, special, zero, fix);
}

static int refuse(pv_tmpl *t, const char *optype, const char *why)
{
    snprintf(t->why_buf, sizeof t->why_buf, "not supported by prove: %s (%s)", optype, why);
    t->why = t->why_buf;
    return -1;
}

int pv_build(Z3_context z, const ds_prog *p, const char *optype, int id, pv_tmpl *t)
{
    memset(t, 0, sizeof *t);
    if (p->fault)
        return refuse(t, optype, p->fault);
    tb B = {z, Z3_mk_bv_sort(z, 128), Z3_mk_bv_sort(z, 32), Z3_mk_bv_sort(z, 8), id, t};
    tb *b = &B;
    Z3_ast s[DS_MAX_SLOTS];
    for (int i = 0; i < DS_MAX_SLOTS; i++)
        s[i] = NULL;
    Z3_ast cur = Z3_mk_true(z), stack_cur[DS_MAX_DEPTH + 1], stack_else[DS_MAX_DEPTH + 1];
    int sp = 0;
    t->fault = Z3_mk_false(z);
    Z3_sort bs = Z3_mk_bool_sort(z);
#define S(i) (s[i] ? s[i] : num(b, 0)) /* a slot nobody wrote: any value (0 here) */
    for (int pc = 0; pc < p->nops; pc++) {
        const ds_op *o = &p->ops[pc];
        Z3_ast A = o->a < DS_MAX_SLOTS ? S(o->a) : NULL;
        Z3_ast Bv = o->bk ? num(b, o->imm) : o->b < DS_MAX_SLOTS ? S(o->b) : NULL;
        Z3_ast r = NULL;
        int masked = 0;
        switch ((ds_opcode)o->code) {
        case DO_CONST: r = num(b, o->imm); break;
        case DO_MOV: r = A; break;
        case DO_STORE: r = o->bk ? num(b, o->imm) : A; masked = 1; break;
        case DO_ADD: r = Z3_mk_bvadd(z, A, Bv); break;
        case DO_SUB: r = Z3_mk_bvsub(z, A, Bv); break;
        case DO_MUL: r = Z3_mk_bvmul(z, A, Bv); break;
        case DO_DIV:
        case DO_CDIV:
        case DO_MOD: r = divide(b, o->code, A, Bv); break;
        case DO_AND: r = Z3_mk_bvand(z, A, Bv); break;
        case DO_OR: r = Z3_mk_bvor(z, A, Bv); break;
        case DO_XOR: r = Z3_mk_bvxor(z, A, Bv); break;
        /* a count outside 0..127 (negative: a huge unsigned one) shifts
         * everything out, as the executor's range test does */
        case DO_SHL: r = Z3_mk_bvshl(z, A, Bv); break;
        case DO_SHR: r = Z3_mk_bvashr(z, A, Bv); break;
        case DO_LT: r = b2v(b, Z3_mk_bvslt(z, A, Bv)); break;
        case DO_LE: r = b2v(b, Z3_mk_bvsle(z, A, Bv)); break;
        case DO_GT: r = b2v(b, Z3_mk_bvsgt(z, A, Bv)); break;
        case DO_GE: r = b2v(b, Z3_mk_bvsge(z, A, Bv)); break;
        case DO_EQ: r = b2v(b, Z3_mk_eq(z, A, Bv)); break;
        case DO_NE: r = b2v(b, Z3_mk_not(z, Z3_mk_eq(z, A, Bv))); break;
        case DO_MIN: r = Z3_mk_ite(z, Z3_mk_bvslt(z, A, Bv), A, Bv); break;
        case DO_MAX: r = Z3_mk_ite(z, Z3_mk_bvsgt(z, A, Bv), A, Bv); break;
        case DO_LAND: r = b2v(b, Z3_mk_and(z, 2, (Z3_ast[]){nz(b, A), nz(b, Bv)})); break;
        case DO_LOR: r = b2v(b, Z3_mk_or(z, 2, (Z3_ast[]){nz(b, A), nz(b, Bv)})); break;
        case DO_NOT: r = Z3_mk_bvnot(z, A); break;
        case DO_NEG: r = Z3_mk_bvneg(z, A); break;
        case DO_LNOT: r = b2v(b, Z3_mk_eq(z, A, num(b, 0))); break;
        case DO_ABS: r = Z3_mk_ite(z, Z3_mk_bvslt(z, A, num(b, 0)), Z3_mk_bvneg(z, A), A); break;
        case DO_BITS: {
            const int hi = o->k + o->width > 128 ? 127 : o->k + o->width - 1;
            r = o->width == 0 || o->k > 127 ? num(b, 0)
                                            : zext(b, Z3_mk_extract(z, (unsigned)hi, (unsigned)o->k, A),
                                                   (unsigned)(hi - o->k + 1));
            break;
        }
        case DO_SEXT:
            if (o->width == 0 || o->width > 128)
                return refuse(t, optype, "a sign extension of no bits");
            r = o->width == 128 ? A : Z3_mk_sign_ext(z, 128u - o->width, low(b, A, o->width));
            break;
        case DO_INSERT: {
            const u128 m = (o->width >= 128 ? ~(u128)0 : (((u128)1 << o->width) - 1)) << o->k;
            r = Z3_mk_bvor(z, Z3_mk_bvand(z, A, num(b, (ds_int)~m)),
                           Z3_mk_bvand(z, Z3_mk_bvshl(z, S(o->b), num(b, o->k)), num(b, (ds_int)m)));
            break;
        }
        case DO_SEL: r = Z3_mk_ite(z, nz(b, A), S(o->b), S(o->c)); break;
        case DO_LUT3: r = lut3(b, A, S(o->b), S(o->c), (unsigned)o->imm, o->width); break;
        case DO_FADD:
            r = bits_of(b, Z3_mk_fpa_add(z, rm(b, o->rnd), fp_of(b, A, o->fmt), fp_of(b, S(o->b), o->fmt)), o->fmt);
            masked = 1;
            break;
        case DO_FMUL:
            r = bits_of(b, fmul(b, o, fp_of(b, A, o->fmt), fp_of(b, S(o->b), o->fmt)), o->fmt);
            masked = 1;
            break;
        case DO_FFMA: r = ffma(b, o, A, S(o->b), S(o->c)); masked = 1; break;
        case DO_FCVT:
            if (o->k < 0 || o->k > 3)
                return refuse(t, optype, "a conversion from no format");
            r = bits_of(b, Z3_mk_fpa_to_fp_float(z, rm(b, o->rnd), fp_of(b, A, o->k), fsort(b, o->fmt)), o->fmt);
            masked = 1;
            break;
        case DO_FCMP: r = fcmp(b, o, A, S(o->b)); masked = 1; break;
        case DO_FISNAN: r = b2v(b, is_nan_bits(b, A, o->fmt)); break;
        case DO_FISSUB: r = b2v(b, is_sub_bits(b, A, o->fmt)); break;
        case DO_FMIN:
        case DO_FMAX: r = fminmax(b, o, A, S(o->b)); masked = 1; break;
        case DO_IF: {
            Z3_ast c = nz(b, S(o->a));
            if (sp >= DS_MAX_DEPTH)
                return refuse(t, optype, "ifs nested too deep");
            stack_cur[sp] = cur;
            stack_else[sp++] = Z3_mk_and(z, 2, (Z3_ast[]){cur, Z3_mk_not(z, c)});
            cur = Z3_mk_and(z, 2, (Z3_ast[]){cur, c});
            continue;
        }
        case DO_ELSE:
            if (sp > 0)
                cur = stack_else[sp - 1];
            continue;
        case DO_ENDIF:
            if (sp > 0)
                cur = stack_cur[--sp];
            continue;
        case DO_FAULT:
            t->fault = Z3_mk_or(z, 2, (Z3_ast[]){t->fault, Z3_mk_and(z, 2, (Z3_ast[]){cur, nz(b, S(o->a))})});
            continue;
        case DO_IN:
        case DO_OLD: {
            Z3_ast *lo = o->code == DO_IN ? t->in_lo : t->old_lo, *hi = o->code == DO_IN ? t->in_hi : t->old_hi;
            const char *n = o->code == DO_IN ? "in" : "old";
            char nl[16], nh[16];
            snprintf(nl, sizeof nl, "%s_lo", n);
            snprintf(nh, sizeof nh, "%s_hi", n);
            Z3_ast l = var(b, &lo[o->k], nl, o->k, b->s32);
            r = o->width == 64 ? zext(b, Z3_mk_concat(z, var(b, &hi[o->k], nh, o->k, b->s32), l), 64) : zext(b, l, 32);
            break;
        }
        case DO_INPRED: r = b2v(b, var(b, &t->pred[o->k], "pred", o->k, bs)); break;
        case DO_OLDPRED: r = b2v(b, var(b, &t->old_pred[o->k], "old_pred", o->k, bs)); break;
        case DO_OUT:
            t->out_lo[o->k] = low(b, A, 32);
            if (o->width == 64)
                t->out_hi[o->k] = Z3_mk_extract(z, 63, 32, A);
            continue;
        case DO_OUTPRED: t->out_pred[o->k] = nz(b, A); continue;
        case DO_INPFILE: r = zext(b, var(b, &t->pfile, "pfile", 0, b->s8), 8); break;
        case DO_OUTPFILE:
            t->out_pfile = low(b, A, 8);
            t->out_pfile_we = low(b, S(o->b), 8);
            continue;
        case DO_LANEMASK: return refuse(t, optype, "it reads the warp's lane masks (activeMask, the guard's lanes)");
        case DO_CTZ: return refuse(t, optype, "it picks a lane of a mask");
        case DO_LANE: return refuse(t, optype, "it reads another lane's value (thread(l))");
        case DO_RGET:
        case DO_RSET: return refuse(t, optype, "it reads or writes a register chosen by a value (R[i])");
        case DO_COUNT: continue;
        }
        if (o->d >= DS_MAX_SLOTS)
            return refuse(t, optype, "a slot out of range");
        /* masked stores and floating-point results leave the lanes outside
         * the mask alone */
        s[o->d] = masked && sp > 0 && s[o->d] ? Z3_mk_ite(z, cur, r, s[o->d]) : r;
    }
#undef S
    return 0;
}
#endif
