/* F32 instructions: FADD FMUL FFMA FMNMX FSETP FSET FSEL FCHK, and Fermi's
 * FCMP and MUFU. */
#include "sim/mufu.h"
#include "sim/ops_fp.h"

static inline uint32_t f32_in(uint32_t v, const sim_opnd *o, int ftz)
{
    v = (uint32_t)fp_decorate(v, o, &FMT_F32);
    return ftz ? (uint32_t)fp_flush(v, &FMT_F32) : v;
}

/* The inputs of an arithmetic instruction, decorated and flushed, as
 * branch-free lane loops: |x| clears the sign (keep), -x flips it (flip). */
static void f32_inputs(uint32_t *restrict out, const uint32_t *restrict v, const sim_opnd *o, int ftz)
{
    const uint32_t keep = o->abs ? 0x7fffffffu : 0xffffffffu, flip = o->neg ? 0x80000000u : 0;
    const uint32_t zap = ftz ? 0x80000000u : 0xffffffffu; /* what a subnormal keeps */
    for (int l = 0; l < LANES; l++) {
        uint32_t t = (v[l] & keep) ^ flip;
        out[l] = (t & 0x7f800000u) ? t : t & zap;
    }
}

/* NaN -> +0 (.SAT) or 0x7FFFFFFF; .SAT clamps to [+0, 1]; FTZ a subnormal result */
static void f32_results(uint32_t *restrict d, const uint32_t *restrict r, int sat, int ftz)
{
    const uint32_t zap = ftz ? 0x80000000u : 0xffffffffu;
    for (int l = 0; l < LANES; l++) {
        uint32_t t = r[l];
        int nan = (t & 0x7fffffffu) > 0x7f800000u;
        if (sat)
            t = nan || (t & 0x80000000u) ? 0 : t > 0x3f800000u ? 0x3f800000u : t;
        else
            t = nan ? 0x7fffffffu : t;
        d[l] = (t & 0x7f800000u) ? t : t & zap;
    }
}

/* Total order of non-NaN values with -0 below +0, as signed integers */
static inline int32_t f32_order_key(uint32_t v)
{
    int32_t mag = (int32_t)(v & 0x7fffffffu), neg = -(int32_t)(v >> 31);
    return mag ^ neg; /* -mag - 1 for negatives, mag otherwise */
}

/* fp_compare for F32, branch-free: the FCMPOp mask against LT 1, EQ 2, GT 4,
 * unordered 8 */
static inline int f32_compare(uint32_t a, uint32_t b, uint32_t cmp)
{
    int32_t ma = (int32_t)(a & 0x7fffffffu), mb = (int32_t)(b & 0x7fffffffu);
    int32_t sa = -(int32_t)(a >> 31), sb = -(int32_t)(b >> 31);
    int32_t ka = (ma ^ sa) - sa, kb = (mb ^ sb) - sb; /* -0 and +0 both 0 */
    uint32_t unord = (uint32_t)(ma > 0x7f800000) | (uint32_t)(mb > 0x7f800000);
    uint32_t rel = (uint32_t)(ka < kb) | (uint32_t)(ka == kb) << 1 | (uint32_t)(ka > kb) << 2;
    rel = unord ? 8u : rel;
    return (rel & cmp) != 0;
}

/* FADD.ftz.sat.rnd Rd, Ra, SrcB */
enum { FADD_FTZ, FADD_SAT, FADD_RND };
SIM_OP void op_fadd(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FADD_FTZ] == 1;
    uint32_t a[LANES], b[LANES], r[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], ftz);
    f32_inputs(b, x->b, &in->op[RO_B], ftz);
    f32_add_lanes(r, a, b, (fp_rnd)in->m[FADD_RND]);
    f32_results(x->d, r, in->m[FADD_SAT] == 1, ftz);
}

/* FMUL.ftz.sat.rnd.scl Rd, Ra, SrcB: Ra scaled by 2^k exactly, one rounding */
enum { FMUL_FTZ, FMUL_SAT, FMUL_RND, FMUL_SCL };
static const int fmul_scale[7] = {0, -1, -2, -3, 1, 2, 3}; /* none D2 D4 D8 M2 M4 M8 */
SIM_OP void op_fmul(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FMUL_FTZ] == 1;
    uint32_t a[LANES], b[LANES], r[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], ftz);
    f32_inputs(b, x->b, &in->op[RO_B], ftz);
    f32_mul_lanes(r, a, b, fmul_scale[in->m[FMUL_SCL]], (fp_rnd)in->m[FMUL_RND]);
    f32_results(x->d, r, in->m[FMUL_SAT] == 1, ftz);
}

/* FFMA.ftz.sat.rnd Rd, Ra, SrcB, SrcC: one rounding; .FTZ flushes SrcC too */
SIM_OP void op_ffma(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FADD_FTZ] == 1;
    uint32_t a[LANES], b[LANES], c[LANES], r[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], ftz);
    f32_inputs(b, x->b, &in->op[RO_B], ftz);
    f32_inputs(c, x->c, &in->op[RO_C], ftz);
    f32_fma_lanes(r, a, b, c, (fp_rnd)in->m[FADD_RND]);
    f32_results(x->d, r, in->m[FADD_SAT] == 1, ftz);
}

/* FMNMX.ftz.nan Rd, Ra, SrcB, pp: pp ? min : max, +0 above -0. FTZ comes
 * first (rulings: before anything else); then one NaN gives the other value,
 * two NaNs (or .NAN with any) 0x7FFFFFFF. */
enum { FMNMX_FTZ, FMNMX_NAN };
SIM_OP void op_fmnmx(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int nan_mode = in->m[FMNMX_NAN] == 1;
    uint32_t a[LANES], b[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], in->m[FMNMX_FTZ] == 1);
    f32_inputs(b, x->b, &in->op[RO_B], in->m[FMNMX_FTZ] == 1);
    for (int l = 0; l < LANES; l++) {
        uint32_t va = a[l], vb = b[l];
        int na = (va & 0x7fffffffu) > 0x7f800000u, nb = (vb & 0x7fffffffu) > 0x7f800000u;
        int a_less = f32_order_key(va) < f32_order_key(vb);
        uint32_t pick = a_less == (x->pp[l] != 0) ? va : vb;
        uint32_t with_nan = nan_mode || (na && nb) ? 0x7fffffffu : na ? vb : va;
        x->d[l] = na || nb ? with_nan : pick;
    }
}

/* FSETP.ftz.cmp.lop pu, pv, Ra, SrcB, pp: pu = t lop pp; pv = !t lop pp */
enum { FSET_FTZ, FSET_CMP, FSET_LOP, FSET_BVAL };
SIM_OP void op_fsetp(sim_exec *x)
{
    const sim_insn *in = x->in;
    const uint32_t cmp = in->m[FSET_CMP], lop = in->m[FSET_LOP];
    uint32_t a[LANES], b[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], in->m[FSET_FTZ] == 1);
    f32_inputs(b, x->b, &in->op[RO_B], in->m[FSET_FTZ] == 1);
    for (int l = 0; l < LANES; l++) {
        int t = f32_compare(a[l], b[l], cmp);
        x->pu[l] = (uint8_t)bool_lop(t, x->pp[l], lop);
        x->pv[l] = (uint8_t)bool_lop(!t, x->pp[l], lop);
    }
}

/* FSET.ftz.cmp.lop.bval Rd, Ra, SrcB, pp: (t lop pp) ? (.BM ? ~0 : 1.0f) : 0 */
SIM_OP void op_fset(sim_exec *x)
{
    const sim_insn *in = x->in;
    const uint32_t cmp = in->m[FSET_CMP], lop = in->m[FSET_LOP];
    const uint32_t one = in->m[FSET_BVAL] == 0 ? 0xffffffffu : 0x3f800000u;
    uint32_t a[LANES], b[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], in->m[FSET_FTZ] == 1);
    f32_inputs(b, x->b, &in->op[RO_B], in->m[FSET_FTZ] == 1);
    for (int l = 0; l < LANES; l++)
        x->d[l] = bool_lop(f32_compare(a[l], b[l], cmp), x->pp[l], lop) ? one : 0;
}

/* FSEL.ftz Rd, Ra, SrcB, pp: pp ? Ra : SrcB (the selected value flushed) */
enum { FSEL_FTZ };
SIM_OP void op_fsel(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FSEL_FTZ] == 1;
    for (int l = 0; l < LANES; l++)
        x->d[l] = x->pp[l] ? f32_in(x->a[l], &in->op[RO_A], ftz) : f32_in(x->b[l], &in->op[RO_B], ftz);
}

/* FCMP.cmp.ftz Rd, Ra, SrcB, Rc: (Rc cmp 0.0) ? Ra : SrcB, the bits of Ra
 * or SrcB unchanged; .FTZ flushes only the compared Rc (as PTX's slct.ftz) */
enum { FCMP_FTZ, FCMP_CMP };
SIM_OP void op_fcmp(sim_exec *x)
{
    const sim_insn *in = x->in;
    const uint32_t cmp = in->m[FCMP_CMP];
    uint32_t c[LANES];
    f32_inputs(c, x->c, &in->op[RO_C], in->m[FCMP_FTZ] == 1);
    for (int l = 0; l < LANES; l++)
        x->d[l] = f32_compare(c[l], 0, cmp) ? x->a[l] : x->b[l];
}

/* MUFU.op.ftz Rd, Ra: the correctly rounded function (mufu.c) of Ra after
 * its -/|x| (for RCP64H/RSQ64H Ra is the high word of an F64: the same
 * sign bit) */
enum { MUFU_FTZ_M, MUFU_OP_M };
SIM_OP void op_mufu(sim_exec *x)
{
    const sim_insn *in = x->in;
    const mufu_op f = (mufu_op)in->m[MUFU_OP_M];
    const int ftz = in->m[MUFU_FTZ_M] == 1;
    uint32_t a[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], 0);
    for (int l = 0; l < LANES; l++)
        x->d[l] = mufu_eval(f, a[l], ftz);
}

/* FCHK pu, Ra, SrcB: exponents are bits [30:23] minus 127 (ruling) */
SIM_OP void op_fchk(sim_exec *x)
{
    enum { EMIN = -126, EMAX = 127, N = 23 };
    for (int l = 0; l < LANES; l++) {
        int ea = (int)(x->a[l] >> 23 & 0xff) - 127, eb = (int)(x->b[l] >> 23 & 0xff) - 127;
        x->pu[l] = ea <= EMIN + N || ea >= EMAX + 1 || eb <= EMIN || eb >= EMAX - 2 || ea - eb <= EMIN + 1 ||
                   ea - eb >= EMAX;
    }
}

const sim_opdef sim_ops_f32[] = {
    {"FADD", op_fadd, {"ftz:NoFTZ FTZ", "sat:NoSAT SAT", "rnd:" RND_NAMES}, NULL, 0},
    {"FMUL", op_fmul, {"ftz:NoFTZ FTZ", "sat:NoSAT SAT", "rnd:" RND_NAMES, "scl:NoScale D2 D4 D8 M2 M4 M8"}, NULL, 0},
    {"FFMA", op_ffma, {"ftz:NoFTZ FTZ", "sat:NoSAT SAT", "rnd:" RND_NAMES}, NULL, 0},
    {"FMNMX", op_fmnmx, {"ftz:NoFTZ FTZ", "nan:NoNAN NAN"}, NULL, 0},
    {"FSETP", op_fsetp, {"ftz:NoFTZ FTZ", "cmp:" FCMP_NAMES, "lop:" LOP_NAMES}, NULL, 0},
    {"FSET", op_fset, {"ftz:NoFTZ FTZ", "cmp:" FCMP_NAMES, "lop:" LOP_NAMES, "bval:BM BF"}, NULL, 0},
    {"FSEL", op_fsel, {"ftz:NoFTZ FTZ"}, NULL, 0},
    {"FCHK", op_fchk, {NULL}, NULL, 0},
    {"FCMP", op_fcmp, {"ftz:NoFTZ FTZ", "cmp:" FCMP_NAMES}, NULL, 0},
    {"MUFU", op_mufu, {"ftz:NoFTZ FTZ", "mufu:COS SIN EX2 LG2 RCP RSQ RCP64H RSQ64H"}, NULL, 0},
    {NULL, NULL, {NULL}, NULL, 0},
};
