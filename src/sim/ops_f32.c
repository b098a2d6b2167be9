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

/* The lanes the lane kernel reads: the source's own when neither a
 * decoration nor FTZ changes them (a copy pass saved), else f32_inputs's */
static const uint32_t *f32_operand(uint32_t *restrict space, const uint32_t *v, const sim_opnd *o, int ftz)
{
    if (!o->abs && !o->neg && !ftz)
        return v;
    f32_inputs(space, v, o, ftz);
    return space;
}

/* One lane of f32_inputs, for loops that use the value at once */
SIM_INLINE uint32_t f32_input(uint32_t v, uint32_t keep, uint32_t flip, uint32_t zap)
{
    uint32_t t = (v & keep) ^ flip;
    return (t & 0x7f800000u) ? t : t & zap;
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
#define FADD_MODS(M, P) M(P, FTZ, "ftz", FTZ) M(P, SAT, "sat", SAT) M(P, RND, "rnd", RND)
SIM_MODS(FADD, FADD_MODS);
SIM_OP void op_fadd(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FADD_FTZ] == FTZ_FTZ;
    uint32_t a[LANES], b[LANES], r[LANES];
    f32_add_lanes(r, f32_operand(a, x->a, &in->op[RO_A], ftz), f32_operand(b, x->b, &in->op[RO_B], ftz),
                  (fp_rnd)in->m[FADD_RND]);
    f32_results(x->d, r, in->m[FADD_SAT] == SAT_SAT, ftz);
}

/* FMUL.ftz.sat.rnd.scl Rd, Ra, SrcB: Ra scaled by 2^k exactly, one rounding */
#define SCL_VALUES(V, P) V(P, NoScale) V(P, D2) V(P, D4) V(P, D8) V(P, M2) V(P, M4) V(P, M8)
SIM_VALUES(SCL, SCL_VALUES);
#define FMUL_MODS(M, P) M(P, FTZ, "ftz", FTZ) M(P, SAT, "sat", SAT) M(P, RND, "rnd", RND) M(P, SCL, "scl", SCL)
SIM_MODS(FMUL, FMUL_MODS);
static const int fmul_scale[SCL_COUNT] = {
    [SCL_NoScale] = 0, [SCL_D2] = -1, [SCL_D4] = -2, [SCL_D8] = -3, [SCL_M2] = 1, [SCL_M4] = 2, [SCL_M8] = 3,
};
SIM_OP void op_fmul(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FMUL_FTZ] == FTZ_FTZ;
    uint32_t a[LANES], b[LANES], r[LANES];
    f32_mul_lanes(r, f32_operand(a, x->a, &in->op[RO_A], ftz), f32_operand(b, x->b, &in->op[RO_B], ftz),
                  fmul_scale[in->m[FMUL_SCL]], (fp_rnd)in->m[FMUL_RND]);
    f32_results(x->d, r, in->m[FMUL_SAT] == SAT_SAT, ftz);
}

/* FFMA.ftz.sat.rnd Rd, Ra, SrcB, SrcC: one rounding; .FTZ flushes SrcC too */
SIM_MODS(FFMA, FADD_MODS);
SIM_OP void op_ffma(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FFMA_FTZ] == FTZ_FTZ;
    uint32_t a[LANES], b[LANES], c[LANES], r[LANES];
    f32_fma_lanes(r, f32_operand(a, x->a, &in->op[RO_A], ftz), f32_operand(b, x->b, &in->op[RO_B], ftz),
                  f32_operand(c, x->c, &in->op[RO_C], ftz), (fp_rnd)in->m[FFMA_RND]);
    f32_results(x->d, r, in->m[FFMA_SAT] == SAT_SAT, ftz);
}

/* FMNMX.ftz.nan Rd, Ra, SrcB, pp: pp ? min : max, +0 above -0. FTZ comes
 * first (rulings: before anything else); then one NaN gives the other value,
 * two NaNs (or .NAN with any) 0x7FFFFFFF. */
#define FMNMX_MODS(M, P) M(P, FTZ, "ftz", FTZ) M(P, NAN, "nan", NANMODE)
SIM_MODS(FMNMX, FMNMX_MODS);
/* f32_inputs's steps for two sources, inside a loop; `plain` (a constant
 * where inlined): neither is decorated nor flushed, the loop skips them */
typedef struct f32_pair_in {
    uint32_t keep_a, flip_a, keep_b, flip_b, zap;
    int plain;
} f32_pair_in;
static inline f32_pair_in f32_pair(const sim_opnd *A, const sim_opnd *B, int ftz)
{
    f32_pair_in p = {A->abs ? 0x7fffffffu : 0xffffffffu, A->neg ? 0x80000000u : 0,
                     B->abs ? 0x7fffffffu : 0xffffffffu, B->neg ? 0x80000000u : 0,
                     ftz ? 0x80000000u : 0xffffffffu,    !A->abs && !A->neg && !B->abs && !B->neg && !ftz};
    return p;
}

SIM_INLINE void fmnmx_lanes(sim_exec *x, const f32_pair_in *p, int plain, int nan_mode)
{
    for (int l = 0; l < LANES; l++) {
        uint32_t va = plain ? x->a[l] : f32_input(x->a[l], p->keep_a, p->flip_a, p->zap);
        uint32_t vb = plain ? x->b[l] : f32_input(x->b[l], p->keep_b, p->flip_b, p->zap);
        int na = (va & 0x7fffffffu) > 0x7f800000u, nb = (vb & 0x7fffffffu) > 0x7f800000u;
        int a_less = f32_order_key(va) < f32_order_key(vb);
        uint32_t pick = a_less == (x->pp[l] != 0) ? va : vb;
        uint32_t with_nan = nan_mode || (na && nb) ? 0x7fffffffu : na ? vb : va;
        x->d[l] = na || nb ? with_nan : pick;
    }
}

SIM_OP void op_fmnmx(sim_exec *x)
{
    const sim_insn *in = x->in;
    const f32_pair_in p = f32_pair(&in->op[RO_A], &in->op[RO_B], in->m[FMNMX_FTZ] == FTZ_FTZ);
    const int nan_mode = in->m[FMNMX_NAN] == NANMODE_NAN;
    if (p.plain)
        fmnmx_lanes(x, &p, 1, nan_mode);
    else
        fmnmx_lanes(x, &p, 0, nan_mode);
}

/* FSETP.ftz.cmp.lop pu, pv, Ra, SrcB, pp: pu = t lop pp; pv = !t lop pp */
#define FSETP_MODS(M, P) M(P, FTZ, "ftz", FTZ) M(P, CMP, "cmp", CMP) M(P, LOP, "lop", BOOL)
SIM_MODS(FSETP, FSETP_MODS);
SIM_INLINE void fsetp_lanes(sim_exec *x, const f32_pair_in *p, int plain, uint32_t tab_u, uint32_t tab_v)
{
    for (int l = 0; l < LANES; l++) {
        uint32_t a = plain ? x->a[l] : f32_input(x->a[l], p->keep_a, p->flip_a, p->zap);
        uint32_t b = plain ? x->b[l] : f32_input(x->b[l], p->keep_b, p->flip_b, p->zap);
        int32_t ma = (int32_t)(a & 0x7fffffffu), mb = (int32_t)(b & 0x7fffffffu);
        int32_t sa = -(int32_t)(a >> 31), sb = -(int32_t)(b >> 31);
        int32_t ka = (ma ^ sa) - sa, kb = (mb ^ sb) - sb; /* -0 and +0 both 0 */
        uint32_t unord = (uint32_t)(ma > 0x7f800000) | (uint32_t)(mb > 0x7f800000);
        uint32_t rel = unord ? 3u : (uint32_t)(ka > kb) + (uint32_t)(ka >= kb);
        uint32_t at = 2 * rel + x->pp[l];
        x->pu[l] = (uint8_t)(tab_u >> at & 1);
        x->pv[l] = (uint8_t)(tab_v >> at & 1);
    }
}

SIM_OP void op_fsetp(sim_exec *x)
{
    const sim_insn *in = x->in;
    const uint32_t cmp = in->m[FSETP_CMP], lop = in->m[FSETP_LOP];
    /* pu and pv of every relation r (LT 0, EQ 1, GT 2, unordered 3: the
     * FCMPOp mask's bits) and pp, as bit 2r + pp of two words: a lane is
     * then a relation and two shifts */
    uint32_t tab_u = 0, tab_v = 0;
    for (unsigned r = 0; r < 4; r++)
        for (int p = 0; p < 2; p++) {
            int t = cmp >> r & 1;
            tab_u |= (uint32_t)bool_lop(t, p, lop) << (2 * r + (unsigned)p);
            tab_v |= (uint32_t)bool_lop(!t, p, lop) << (2 * r + (unsigned)p);
        }
    const f32_pair_in p = f32_pair(&in->op[RO_A], &in->op[RO_B], in->m[FSETP_FTZ] == FTZ_FTZ);
    if (p.plain)
        fsetp_lanes(x, &p, 1, tab_u, tab_v);
    else
        fsetp_lanes(x, &p, 0, tab_u, tab_v);
}

/* FSET.ftz.cmp.lop.bval Rd, Ra, SrcB, pp: (t lop pp) ? (.BM ? ~0 : 1.0f) : 0 */
#define FSET_MODS(M, P) FSETP_MODS(M, P) M(P, BVAL, "bval", BVAL)
SIM_MODS(FSET, FSET_MODS);
SIM_OP void op_fset(sim_exec *x)
{
    const sim_insn *in = x->in;
    const uint32_t cmp = in->m[FSET_CMP], lop = in->m[FSET_LOP];
    const uint32_t one = in->m[FSET_BVAL] == BVAL_BM ? 0xffffffffu : 0x3f800000u;
    uint32_t a[LANES], b[LANES];
    f32_inputs(a, x->a, &in->op[RO_A], in->m[FSET_FTZ] == FTZ_FTZ);
    f32_inputs(b, x->b, &in->op[RO_B], in->m[FSET_FTZ] == FTZ_FTZ);
    for (int l = 0; l < LANES; l++)
        x->d[l] = bool_lop(f32_compare(a[l], b[l], cmp), x->pp[l], lop) ? one : 0;
}

/* FSEL.ftz Rd, Ra, SrcB, pp: pp ? Ra : SrcB (the selected value flushed) */
#define FSEL_MODS(M, P) M(P, FTZ, "ftz", FTZ)
SIM_MODS(FSEL, FSEL_MODS);
SIM_OP void op_fsel(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[FSEL_FTZ] == FTZ_FTZ;
    for (int l = 0; l < LANES; l++)
        x->d[l] = x->pp[l] ? f32_in(x->a[l], &in->op[RO_A], ftz) : f32_in(x->b[l], &in->op[RO_B], ftz);
}

/* FCMP.cmp.ftz Rd, Ra, SrcB, Rc: (Rc cmp 0.0) ? Ra : SrcB, the bits of Ra
 * or SrcB unchanged; .FTZ flushes only the compared Rc (as PTX's slct.ftz) */
#define FCMP_MODS(M, P) M(P, FTZ, "ftz", FTZ) M(P, CMP, "cmp", CMP)
SIM_MODS(FCMP, FCMP_MODS);
SIM_OP void op_fcmp(sim_exec *x)
{
    const sim_insn *in = x->in;
    const uint32_t cmp = in->m[FCMP_CMP];
    uint32_t c[LANES];
    f32_inputs(c, x->c, &in->op[RO_C], in->m[FCMP_FTZ] == FTZ_FTZ);
    for (int l = 0; l < LANES; l++)
        x->d[l] = f32_compare(c[l], 0, cmp) ? x->a[l] : x->b[l];
}

/* MUFU.op.ftz Rd, Ra: the correctly rounded function (mufu.c) of Ra after
 * its -/|x| (for RCP64H/RSQ64H Ra is the high word of an F64: the same
 * sign bit) */
#define MUFUOP_VALUES(V, P)                                                                                    \
    V(P, COS) V(P, SIN) V(P, EX2) V(P, LG2) V(P, RCP) V(P, RSQ) V(P, RCP64H) V(P, RSQ64H)
SIM_VALUES(MUFUOP, MUFUOP_VALUES);
_Static_assert(SIM_SAME(MUFUOP_COS, MUFU_COS) && SIM_SAME(MUFUOP_SIN, MUFU_SIN) && SIM_SAME(MUFUOP_EX2, MUFU_EX2) &&
                   SIM_SAME(MUFUOP_LG2, MUFU_LG2) && SIM_SAME(MUFUOP_RCP, MUFU_RCP) && SIM_SAME(MUFUOP_RSQ, MUFU_RSQ) &&
                   SIM_SAME(MUFUOP_RCP64H, MUFU_RCP64H) && SIM_SAME(MUFUOP_RSQ64H, MUFU_RSQ64H),
               "the MUFUOp index is mufu.h's mufu_op");
#define MUFU_MODS(M, P) M(P, FTZ, "ftz", FTZ) M(P, OP, "mufu", MUFUOP)
SIM_MODS(MUFU, MUFU_MODS);
SIM_OP void op_mufu(sim_exec *x)
{
    const sim_insn *in = x->in;
    const mufu_op f = (mufu_op)in->m[MUFU_OP];
    const int ftz = in->m[MUFU_FTZ] == FTZ_FTZ;
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
    {"FADD", op_fadd, SIM_MODS_OF(FADD), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FMUL", op_fmul, SIM_MODS_OF(FMUL), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FFMA", op_ffma, SIM_MODS_OF(FFMA), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FMNMX", op_fmnmx, SIM_MODS_OF(FMNMX), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FSETP", op_fsetp, SIM_MODS_OF(FSETP), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FSET", op_fset, SIM_MODS_OF(FSET), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FSEL", op_fsel, SIM_MODS_OF(FSEL), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FCHK", op_fchk, SIM_NO_MODS, SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"FCMP", op_fcmp, SIM_MODS_OF(FCMP), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"MUFU", op_mufu, SIM_MODS_OF(MUFU), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {0},
};
