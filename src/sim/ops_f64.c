/* F64 instructions: DADD DMUL DFMA DMNMX DSETP. Operands are register pairs
 * (or the high word of a double for immediates). NaNs propagate: the first
 * NaN input in the order SrcB, SrcC, Ra is the result, made quiet; a NaN
 * made from numbers is 0x7FFFFFFFFFFFFFFF (rulings). */
#include "sim/ops_fp.h"

#define F64_QUIET UINT64_C(0x0008000000000000)

static inline uint64_t f64_in(const uint32_t *lo, const uint32_t *hi, int l, const sim_opnd *o)
{
    return fp_decorate(sim_lane64(lo, hi, l), o, &FMT_F64);
}

static inline void f64_put(sim_exec *x, int l, uint64_t v)
{
    x->d[l] = (uint32_t)v;
    x->dh[l] = (uint32_t)(v >> 32);
}

/* The NaN rule: inputs in priority order (n of them), then the computed r. */
static inline uint64_t f64_nan_rule(const uint64_t *in, int n, uint64_t r)
{
    for (int i = 0; i < n; i++)
        if (fp_isnan(in[i], &FMT_F64))
            return in[i] | F64_QUIET;
    return fp_isnan(r, &FMT_F64) ? FMT_F64.canon_nan : r;
}

enum { D_RND };
static void op_dadd(sim_exec *x)
{
    const sim_insn *in = x->in;
    const fp_rnd rnd = (fp_rnd)in->m[D_RND];
    for (int l = 0; l < LANES; l++) {
        uint64_t v[2] = {f64_in(x->b, x->bh, l, &in->op[RO_B]), f64_in(x->a, x->ah, l, &in->op[RO_A])};
        f64_put(x, l, f64_nan_rule(v, 2, f64_add(v[1], v[0], rnd)));
    }
}

static void op_dmul(sim_exec *x)
{
    const sim_insn *in = x->in;
    const fp_rnd rnd = (fp_rnd)in->m[D_RND];
    for (int l = 0; l < LANES; l++) {
        uint64_t v[2] = {f64_in(x->b, x->bh, l, &in->op[RO_B]), f64_in(x->a, x->ah, l, &in->op[RO_A])};
        f64_put(x, l, f64_nan_rule(v, 2, f64_mul(v[1], v[0], rnd)));
    }
}

static void op_dfma(sim_exec *x)
{
    const sim_insn *in = x->in;
    const fp_rnd rnd = (fp_rnd)in->m[D_RND];
    for (int l = 0; l < LANES; l++) {
        uint64_t v[3] = {f64_in(x->b, x->bh, l, &in->op[RO_B]), f64_in(x->c, x->ch, l, &in->op[RO_C]),
                         f64_in(x->a, x->ah, l, &in->op[RO_A])};
        f64_put(x, l, f64_nan_rule(v, 3, f64_fma(v[2], v[0], v[1], rnd)));
    }
}

/* DMNMX Rd, Ra, SrcB, pp: pp ? min : max (the document swaps them: a typo);
 * one NaN gives the other operand, two give quiet(SrcB). */
static void op_dmnmx(sim_exec *x)
{
    const sim_insn *in = x->in;
    for (int l = 0; l < LANES; l++) {
        uint64_t a = f64_in(x->a, x->ah, l, &in->op[RO_A]), b = f64_in(x->b, x->bh, l, &in->op[RO_B]);
        int na = fp_isnan(a, &FMT_F64), nb = fp_isnan(b, &FMT_F64);
        uint64_t r = na && nb ? b | F64_QUIET : na ? b : nb ? a : fp_minmax(a, b, &FMT_F64, x->pp[l]);
        f64_put(x, l, r);
    }
}

enum { DSETP_CMP, DSETP_LOP };
static void op_dsetp(sim_exec *x)
{
    const sim_insn *in = x->in;
    for (int l = 0; l < LANES; l++) {
        uint64_t a = f64_in(x->a, x->ah, l, &in->op[RO_A]), b = f64_in(x->b, x->bh, l, &in->op[RO_B]);
        int t = fp_compare(a, b, &FMT_F64, in->m[DSETP_CMP]);
        x->pu[l] = (uint8_t)bool_lop(t, x->pp[l], in->m[DSETP_LOP]);
        x->pv[l] = (uint8_t)bool_lop(!t, x->pp[l], in->m[DSETP_LOP]);
    }
}

const sim_opdef sim_ops_f64[] = {
    {"DADD", op_dadd, {"rnd:" RND_NAMES}, NULL, 0},
    {"DMUL", op_dmul, {"rnd:" RND_NAMES}, NULL, 0},
    {"DFMA", op_dfma, {"rnd:" RND_NAMES}, NULL, 0},
    {"DMNMX", op_dmnmx, {NULL}, NULL, 0},
    {"DSETP", op_dsetp, {"cmp:" FCMP_NAMES, "lop:" LOP_NAMES}, NULL, 0},
    {NULL, NULL, {NULL}, NULL, 0},
};
