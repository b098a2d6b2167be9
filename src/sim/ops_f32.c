/* F32 instructions: FADD FMUL FFMA FMNMX FSETP FSET FSEL FCHK. */
#include "sim/ops_fp.h"

static inline uint32_t f32_in(uint32_t v, const sim_opnd *o, int ftz)
{
    v = (uint32_t)fp_decorate(v, o, &FMT_F32);
    return ftz ? (uint32_t)fp_flush(v, &FMT_F32) : v;
}

static inline uint32_t f32_out(uint32_t r, int sat, int ftz) { return (uint32_t)fp_finish(r, &FMT_F32, sat, 0, ftz); }

/* FADD.ftz.sat.rnd Rd, Ra, SrcB */
enum { FADD_FTZ, FADD_SAT, FADD_RND };
static void op_fadd(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FADD_FTZ] == 1, sat = in->m[FADD_SAT] == 1;
    const fp_rnd rnd = (fp_rnd)in->m[FADD_RND];
    for (int l = 0; l < LANES; l++) {
        uint32_t a = f32_in(x->a[l], &in->op[RO_A], ftz), b = f32_in(x->b[l], &in->op[RO_B], ftz);
        x->d[l] = f32_out(f32_add(a, b, rnd), sat, ftz);
    }
}

/* FMUL.ftz.sat.rnd.scl Rd, Ra, SrcB: Ra scaled by 2^k exactly, one rounding */
enum { FMUL_FTZ, FMUL_SAT, FMUL_RND, FMUL_SCL };
static const int fmul_scale[7] = {0, -1, -2, -3, 1, 2, 3}; /* none D2 D4 D8 M2 M4 M8 */
static void op_fmul(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FMUL_FTZ] == 1, sat = in->m[FMUL_SAT] == 1, k = fmul_scale[in->m[FMUL_SCL]];
    const fp_rnd rnd = (fp_rnd)in->m[FMUL_RND];
    for (int l = 0; l < LANES; l++) {
        uint32_t a = f32_in(x->a[l], &in->op[RO_A], ftz), b = f32_in(x->b[l], &in->op[RO_B], ftz);
        x->d[l] = f32_out(k ? f32_mul_scaled(a, b, k, rnd) : f32_mul(a, b, rnd), sat, ftz);
    }
}

/* FFMA.ftz.sat.rnd Rd, Ra, SrcB, SrcC: one rounding; .FTZ flushes SrcC too */
static void op_ffma(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FADD_FTZ] == 1, sat = in->m[FADD_SAT] == 1;
    const fp_rnd rnd = (fp_rnd)in->m[FADD_RND];
    for (int l = 0; l < LANES; l++) {
        uint32_t a = f32_in(x->a[l], &in->op[RO_A], ftz), b = f32_in(x->b[l], &in->op[RO_B], ftz);
        uint32_t c = f32_in(x->c[l], &in->op[RO_C], ftz);
        x->d[l] = f32_out(f32_fma(a, b, c, rnd), sat, ftz);
    }
}

/* FMNMX.ftz.nan Rd, Ra, SrcB, pp: pp ? min : max; NaN inputs checked first */
enum { FMNMX_FTZ, FMNMX_NAN };
static void op_fmnmx(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FMNMX_FTZ] == 1, nan = in->m[FMNMX_NAN] == 1;
    for (int l = 0; l < LANES; l++) {
        uint32_t a = f32_in(x->a[l], &in->op[RO_A], 0), b = f32_in(x->b[l], &in->op[RO_B], 0);
        int na = fp_isnan(a, &FMT_F32), nb = fp_isnan(b, &FMT_F32);
        if (na || nb)
            x->d[l] = nan || (na && nb) ? 0x7fffffffu : na ? b : a;
        else if (ftz)
            x->d[l] = (uint32_t)fp_minmax(fp_flush(a, &FMT_F32), fp_flush(b, &FMT_F32), &FMT_F32, x->pp[l]);
        else
            x->d[l] = (uint32_t)fp_minmax(a, b, &FMT_F32, x->pp[l]);
    }
}

/* FSETP.ftz.cmp.lop pu, pv, Ra, SrcB, pp: pu = t lop pp; pv = !t lop pp */
enum { FSET_FTZ, FSET_CMP, FSET_LOP, FSET_BVAL };
static void op_fsetp(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FSET_FTZ] == 1;
    for (int l = 0; l < LANES; l++) {
        uint32_t a = f32_in(x->a[l], &in->op[RO_A], ftz), b = f32_in(x->b[l], &in->op[RO_B], ftz);
        int t = fp_compare(a, b, &FMT_F32, in->m[FSET_CMP]);
        x->pu[l] = (uint8_t)bool_lop(t, x->pp[l], in->m[FSET_LOP]);
        x->pv[l] = (uint8_t)bool_lop(!t, x->pp[l], in->m[FSET_LOP]);
    }
}

/* FSET.ftz.cmp.lop.bval Rd, Ra, SrcB, pp: (t lop pp) ? (.BM ? ~0 : 1.0f) : 0 */
static void op_fset(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FSET_FTZ] == 1;
    const uint32_t one = in->m[FSET_BVAL] == 0 ? 0xffffffffu : 0x3f800000u;
    for (int l = 0; l < LANES; l++) {
        uint32_t a = f32_in(x->a[l], &in->op[RO_A], ftz), b = f32_in(x->b[l], &in->op[RO_B], ftz);
        int t = fp_compare(a, b, &FMT_F32, in->m[FSET_CMP]);
        x->d[l] = bool_lop(t, x->pp[l], in->m[FSET_LOP]) ? one : 0;
    }
}

/* FSEL.ftz Rd, Ra, SrcB, pp: pp ? Ra : SrcB (the selected value flushed) */
enum { FSEL_FTZ };
static void op_fsel(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FSEL_FTZ] == 1;
    for (int l = 0; l < LANES; l++)
        x->d[l] = x->pp[l] ? f32_in(x->a[l], &in->op[RO_A], ftz) : f32_in(x->b[l], &in->op[RO_B], ftz);
}

/* FCHK pu, Ra, SrcB: exponents are bits [30:23] minus 127 (ruling) */
static void op_fchk(sim_exec *x)
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
    {NULL, NULL, {NULL}, NULL, 0},
};
