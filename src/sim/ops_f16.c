/* Packed half instructions (.F16_V2 / .BF16_V2): HADD2 HMUL2 HFMA2 HMNMX2
 * HSETP2 HSET2. Lane 0 is the low half of Rd, lane 1 the high half; each
 * source's .hsel2 picks the halves it feeds to the two lanes. The encoding
 * has no rounding field (rulings): arithmetic rounds to nearest-even. */
#include "sim/ops_fp.h"

enum { SEL_H1_H0, SEL_H0_H0, SEL_H1_H1 };

/* The half of v that feeds lane h (0, 1), decorated */
static inline uint16_t half_in(uint32_t v, const sim_opnd *o, int h, const fpfmt *f, int ftz)
{
    int high = o->sel == SEL_H1_H1 || (o->sel == SEL_H1_H0 && h == 1);
    uint64_t x = fp_decorate(high ? v >> 16 : v & 0xffff, o, f);
    return (uint16_t)(ftz ? fp_flush(x, f) : x);
}

enum { H_FMT, H_FTZ, H_SAT, H_RELU, H_RND };
#define H_MODS "hfmt_v2:F16_V2 BF16_V2", "ftz:NoFTZ FTZ", "sat:NoSAT SAT", "relu:NoRELU RELU", "rnd:" RND_NAMES

typedef enum { H_ADD, H_MUL, H_FMA } h_arith;

static inline uint16_t h_compute(h_arith op, int bf, uint16_t a, uint16_t b, uint16_t c, fp_rnd r)
{
    switch (op) {
    case H_ADD: return bf ? bf16_add(a, b, r) : f16_add(a, b, r);
    case H_MUL: return bf ? bf16_mul(a, b, r) : f16_mul(a, b, r);
    default: return bf ? bf16_fma(a, b, c, r) : f16_fma(a, b, c, r);
    }
}

static void half_arith(sim_exec *x, h_arith op)
{
    const sim_insn *in = x->in;
    const int bf = in->m[H_FMT] == 1, ftz = in->m[H_FTZ] == 1, sat = in->m[H_SAT] == 1, relu = in->m[H_RELU] == 1;
    const fp_rnd rnd = (fp_rnd)in->m[H_RND];
    const fpfmt *f = bf ? &FMT_BF16 : &FMT_F16;
    for (int l = 0; l < LANES; l++) {
        uint32_t d = 0;
        for (int h = 0; h < 2; h++) {
            uint16_t a = half_in(x->a[l], &in->op[RO_A], h, f, ftz), b = half_in(x->b[l], &in->op[RO_B], h, f, ftz);
            uint16_t c = op == H_FMA ? half_in(x->c[l], &in->op[RO_C], h, f, ftz) : 0;
            d |= (uint32_t)fp_finish(h_compute(op, bf, a, b, c, rnd), f, sat, relu, ftz) << (16 * h);
        }
        x->d[l] = d;
    }
}

static void op_hadd2(sim_exec *x) { half_arith(x, H_ADD); }
static void op_hmul2(sim_exec *x) { half_arith(x, H_MUL); }
static void op_hfma2(sim_exec *x) { half_arith(x, H_FMA); }

/* HMNMX2 Rd, Ra, SrcB, pp: per lane pp ? min : max; FTZ first (rulings);
 * one NaN gives the other value, two NaNs or .NAN with any NaN give 0x7FFF. */
enum { HM_FMT, HM_FTZ, HM_NAN };
static void op_hmnmx2(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[HM_FTZ] == 1, nan = in->m[HM_NAN] == 1;
    const fpfmt *f = in->m[HM_FMT] == 1 ? &FMT_BF16 : &FMT_F16;
    for (int l = 0; l < LANES; l++) {
        uint32_t d = 0;
        for (int h = 0; h < 2; h++) {
            uint64_t a = half_in(x->a[l], &in->op[RO_A], h, f, ftz), b = half_in(x->b[l], &in->op[RO_B], h, f, ftz);
            int na = fp_isnan(a, f), nb = fp_isnan(b, f);
            uint64_t r;
            if (na || nb)
                r = nan || (na && nb) ? f->canon_nan : na ? b : a;
            else
                r = fp_minmax(a, b, f, x->pp[l]);
            d |= (uint32_t)r << (16 * h);
        }
        x->d[l] = d;
    }
}

/* The two lanes' comparisons, each combined with pp */
enum { HS_FMT, HS_FTZ, HS_CMP, HS_LOP, HS_BVAL };
static inline int half_test(const sim_exec *x, int l, int h, const fpfmt *f)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[HS_FTZ] == 1;
    uint16_t a = half_in(x->a[l], &in->op[RO_A], h, f, ftz), b = half_in(x->b[l], &in->op[RO_B], h, f, ftz);
    return bool_lop(fp_compare(a, b, f, in->m[HS_CMP]), x->pp[l], in->m[HS_LOP]);
}

/* HSETP2 pu, pv, Ra, SrcB, pp: lane 0 -> pu, lane 1 -> pv (rulings) */
static void op_hsetp2(sim_exec *x)
{
    const fpfmt *f = x->in->m[HS_FMT] == 1 ? &FMT_BF16 : &FMT_F16;
    for (int l = 0; l < LANES; l++) {
        x->pu[l] = (uint8_t)half_test(x, l, 0, f);
        x->pv[l] = (uint8_t)half_test(x, l, 1, f);
    }
}

/* HSET2: each half is (t lop pp) ? (.BF ? 1.0 of the format : 0xFFFF) : 0 */
static void op_hset2(sim_exec *x)
{
    const fpfmt *f = x->in->m[HS_FMT] == 1 ? &FMT_BF16 : &FMT_F16;
    const uint32_t one = x->in->m[HS_BVAL] == 1 ? (uint32_t)f->one : 0xffffu;
    for (int l = 0; l < LANES; l++)
        x->d[l] = (half_test(x, l, 0, f) ? one : 0) | (half_test(x, l, 1, f) ? one << 16 : 0);
}

#define HSEL_NAMES "H1_H0 H0_H0 H1_H1"
const sim_opdef sim_ops_f16[] = {
    {"HADD2", op_hadd2, {H_MODS}, HSEL_NAMES, 0},
    {"HMUL2", op_hmul2, {H_MODS}, HSEL_NAMES, 0},
    {"HFMA2", op_hfma2, {H_MODS}, HSEL_NAMES, 0},
    {"HMNMX2", op_hmnmx2, {"hfmt_v2:F16_V2 BF16_V2", "ftz:NoFTZ FTZ", "nan:NoNAN NAN"}, HSEL_NAMES, 0},
    {"HSETP2", op_hsetp2, {"hfmt_v2:F16_V2 BF16_V2", "ftz:NoFTZ FTZ", "cmp:" FCMP_NAMES, "lop:" LOP_NAMES}, HSEL_NAMES,
     0},
    {"HSET2", op_hset2, {"hfmt_v2:F16_V2 BF16_V2", "ftz:NoFTZ FTZ", "cmp:" FCMP_NAMES, "lop:" LOP_NAMES, "bval:BM BF"},
     HSEL_NAMES, 0},
    {NULL, NULL, {NULL}, NULL, 0},
};
