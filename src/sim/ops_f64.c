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

/* The decorated 64-bit inputs of one source */
SIM_INLINE void f64_inputs(uint64_t *restrict out, const uint32_t *restrict lo, const uint32_t *restrict hi,
                              const sim_opnd *o)
{
    const uint64_t keep = o->abs ? ~FMT_F64.sign : ~UINT64_C(0), flip = o->neg ? FMT_F64.sign : 0;
    for (int l = 0; l < LANES; l++)
        out[l] = (((uint64_t)hi[l] << 32 | lo[l]) & keep) ^ flip;
}

/* Whether any of the 32 results is a NaN, branch-free over the lanes */
SIM_INLINE int f64_any_nan(const uint64_t *r)
{
    uint64_t any = 0;
    for (int l = 0; l < LANES; l++)
        any |= (uint64_t)((r[l] & ~FMT_F64.sign) > FMT_F64.exp);
    return any != 0;
}

/* DADD/DMUL/DFMA: the host result, then the NaN rule over the inputs in
 * priority order (SrcB, SrcC, Ra). A NaN input makes the host result a NaN,
 * so the rule runs only for a warp with some NaN result. */
typedef enum { D_ADD, D_MUL, D_FMA } d_arith;
#define DARITH_MODS(M, P) M(P, RND, "rnd", RND)
SIM_MODS(DARITH, DARITH_MODS);
SIM_INLINE void f64_arith(sim_exec *x, d_arith op)
{
    const int nin = op == D_FMA ? 3 : 2;
    const sim_insn *in = x->in;
    const fp_rnd rnd = (fp_rnd)in->m[DARITH_RND];
    uint64_t a[LANES], b[LANES], c[LANES], r[LANES];
    f64_inputs(a, x->a, x->ah, &in->op[RO_A]);
    f64_inputs(b, x->b, x->bh, &in->op[RO_B]);
    if (op == D_FMA) {
        f64_inputs(c, x->c, x->ch, &in->op[RO_C]);
        f64_fma_lanes(r, a, b, c, rnd);
    } else if (op == D_MUL) {
        f64_mul_lanes(r, a, b, rnd);
    } else {
        f64_add_lanes(r, a, b, rnd);
    }
    if (f64_any_nan(r))
        for (int l = 0; l < LANES; l++) {
            uint64_t order[3] = {b[l], nin == 3 ? c[l] : a[l], a[l]};
            r[l] = f64_nan_rule(order, nin, r[l]);
        }
    for (int l = 0; l < LANES; l++) {
        x->d[l] = (uint32_t)r[l];
        x->dh[l] = (uint32_t)(r[l] >> 32);
    }
}

SIM_OP void op_dadd(sim_exec *x) { f64_arith(x, D_ADD); }
SIM_OP void op_dmul(sim_exec *x) { f64_arith(x, D_MUL); }
SIM_OP void op_dfma(sim_exec *x) { f64_arith(x, D_FMA); }

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

#define DSETP_MODS(M, P) M(P, CMP, "cmp", CMP) M(P, LOP, "lop", BOOL)
SIM_MODS(DSETP, DSETP_MODS);
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
    {"DADD", op_dadd, SIM_MODS_OF(DARITH), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"DMUL", op_dmul, SIM_MODS_OF(DARITH), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"DFMA", op_dfma, SIM_MODS_OF(DARITH), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"DMNMX", op_dmnmx, SIM_NO_MODS, SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"DSETP", op_dsetp, SIM_MODS_OF(DSETP), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {0},
};
