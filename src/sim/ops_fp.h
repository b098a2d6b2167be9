/* What the floating-point instructions share, written once for F16, BF16,
 * F32 and F64 bit patterns: operand decorations (|x| first, then -x), FTZ,
 * the rulings' SAT/RELU/NaN steps on results, comparisons and min/max. The
 * arithmetic itself is softfp.c's. */
#ifndef GISA_SIM_OPS_FP_H
#define GISA_SIM_OPS_FP_H
#include "sim/ops.h"
#include "sim/softfp.h"

typedef struct fpfmt {
    uint64_t sign, exp, frac, canon_nan, one;
} fpfmt;

static const fpfmt FMT_F16 = {0x8000, 0x7c00, 0x03ff, 0x7fff, 0x3c00};
static const fpfmt FMT_BF16 = {0x8000, 0x7f80, 0x007f, 0x7fff, 0x3f80};
static const fpfmt FMT_F32 = {0x80000000u, 0x7f800000u, 0x007fffffu, 0x7fffffffu, 0x3f800000u};
static const fpfmt FMT_F64 = {UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000),
                              UINT64_C(0x000fffffffffffff), UINT64_C(0x7fffffffffffffff),
                              UINT64_C(0x3ff0000000000000)};

static inline uint64_t fp_decorate(uint64_t v, const sim_opnd *o, const fpfmt *f)
{
    if (o->abs)
        v &= ~f->sign;
    if (o->neg)
        v ^= f->sign;
    return v;
}

static inline int fp_isnan(uint64_t v, const fpfmt *f) { return (v & f->exp) == f->exp && (v & f->frac); }

/* FTZ: a subnormal becomes the zero of its sign */
static inline uint64_t fp_flush(uint64_t v, const fpfmt *f) { return (v & f->exp) ? v : v & f->sign; }

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
#define FCMP_NAMES "F LT EQ LE GT NE GE NUM NAN LTU EQU LEU GTU NEU GEU T"

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
    return ((t & p) & (lop == 0)) | ((t | p) & (lop == 1)) | ((t ^ p) & (lop == 2));
}
#define LOP_NAMES "AND OR XOR"
#define RND_NAMES "RN RM RP RZ"
#endif
