/* What the floating-point instructions share, written once for F16, BF16,
 * F32 and F64 bit patterns: operand decorations (|x| first, then -x), FTZ,
 * the rulings' SAT/RELU/NaN steps on results, comparisons and min/max. The
 * arithmetic itself is softfp.c's. */
#ifndef GISA_SIM_OPS_FP_H
#define GISA_SIM_OPS_FP_H
#include "sim/ops.h"
#include "fp/softfp.h"

_Static_assert(FP_LANES == LANES, "the lane kernels of src/fp run a warp's lanes");

static inline uint64_t fp_decorate(uint64_t v, const sim_opnd *o, const fpfmt *f)
{
    if (o->abs)
        v &= ~f->sign;
    if (o->neg)
        v ^= f->sign;
    return v;
}

/* The result steps of the rulings, in the documents' order: NaN (to +0 under
 * .SAT, else the canonical NaN), .SAT clamp to [+0, 1] (-0 -> +0), .RELU
 * (negatives, -inf, -0 -> +0), then FTZ of a subnormal result. */
static inline uint64_t fp_finish(uint64_t r, const fpfmt *f, int sat, int relu, int ftz)
{
    if (fp_isnan(r, f))
        r = sat ? 0 : f->canon_nan;
    else if ((sat || relu) && (r & f->sign))
        r = 0;
    else if (sat && r > f->one)
        r = f->one;
    return ftz ? fp_flush(r, f) : r;
}

/* Orders finite and infinite values as integers; -0 and +0 are equal. */
static inline int64_t fp_key(uint64_t v, const fpfmt *f)
{
    int64_t mag = (int64_t)(v & ~f->sign);
    return (v & f->sign) ? -mag : mag;
}

/* The FCMPOp numbering is a mask: LT = 1, EQ = 2, GT = 4, unordered = 8
 * (so LE = 3, NE = 5, NUM = 7, NAN = 8, LTU = 9, ..., GEU = 14). */
static inline int fp_compare(uint64_t a, uint64_t b, const fpfmt *f, uint32_t cmp)
{
    if (fp_isnan(a, f) || fp_isnan(b, f))
        return cmp >> 3 & 1;
    int64_t ka = fp_key(a, f), kb = fp_key(b, f);
    uint32_t rel = ka < kb ? 1 : ka == kb ? 2 : 4;
    return (cmp & rel) != 0;
}
/* FCMPOp: the index is the mask above */
#define CMP_VALUES(V, P)                                                                                       \
    V(P, F) V(P, LT) V(P, EQ) V(P, LE) V(P, GT) V(P, NE) V(P, GE) V(P, NUM) V(P, NAN) V(P, LTU) V(P, EQU)        \
        V(P, LEU) V(P, GTU) V(P, NEU) V(P, GEU) V(P, T)
SIM_VALUES(CMP, CMP_VALUES);
_Static_assert(CMP_LT == 1 && CMP_EQ == 2 && CMP_GT == 4 && CMP_NAN == 8 && CMP_T == 15,
               "fp_compare reads the FCMPOp index as a mask");

/* min (want_min) or max of two non-NaN values, +0 above -0 */
static inline uint64_t fp_minmax(uint64_t a, uint64_t b, const fpfmt *f, int want_min)
{
    int64_t ka = fp_key(a, f) - ((a & f->sign) != 0), kb = fp_key(b, f) - ((b & f->sign) != 0);
    int a_less = ka < kb;
    return want_min ? (a_less ? a : b) : (a_less ? b : a);
}

/* t lop p on 0/1 values (AND, OR, XOR), branch-free */
static inline int bool_lop(int t, int p, uint32_t lop)
{
    return ((t & p) & (lop == BOOL_AND)) | ((t | p) & (lop == BOOL_OR)) | ((t ^ p) & (lop == BOOL_XOR));
}

/* Value lists of the floating-point modifiers */
#define FTZ_VALUES(V, P) V(P, NoFTZ) V(P, FTZ)
SIM_VALUES(FTZ, FTZ_VALUES);
#define SAT_VALUES(V, P) V(P, NoSAT) V(P, SAT)
SIM_VALUES(SAT, SAT_VALUES);
#define RND_VALUES(V, P) V(P, RN) V(P, RM) V(P, RP) V(P, RZ)
SIM_VALUES(RND, RND_VALUES);
_Static_assert(SIM_SAME(RND_RN, FP_RN) && SIM_SAME(RND_RM, FP_RM) && SIM_SAME(RND_RP, FP_RP) &&
                   SIM_SAME(RND_RZ, FP_RZ),
               "the rounding index is softfp's fp_rnd");
#define NANMODE_VALUES(V, P) V(P, NoNAN) V(P, NAN) /* min/max: .NAN makes any NaN input the result */
SIM_VALUES(NANMODE, NANMODE_VALUES);
#endif
