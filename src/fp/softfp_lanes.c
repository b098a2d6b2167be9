/* The F32/F64 operations of softfp over the 32 lanes of an instruction: the
 * host rounding mode is switched once (fp_use_rounding), then the lanes run
 * as plain host operations, which the compiler vectorises.
 *
 * Why this file needs no -frounding-math (which would stop the vectoriser
 * from using FMA): every operand is loaded from memory the caller passed in,
 * after the opaque call that sets the mode; such a call may write that
 * memory, so no load, and no operation on it, can move above it or be
 * folded at compile time. The results are stored before returning. Under
 * -std=c11 GCC and clang do not contract a*b+c into an FMA (-ffp-contract
 * =off) and x86-64 evaluates float in float (FLT_EVAL_METHOD == 0). */
#include <math.h>
#include <string.h>

#include "fp/softfp.h"


/* Bit patterns as host values, element by element: each memcpy is one load
 * or store, which the vectoriser widens (copying whole arrays instead costs
 * the copies, and narrower stores than the caller's loads stall them). */
static inline float f32_at(const uint32_t *p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline double f64_at(const uint64_t *p)
{
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* A lane kernel: switch the mode, then one host operation per lane. */
#define LANE_KERNEL2(name, W, F, AT, op)                                                                               \
    LANE_FN void name(W *restrict d, const W *restrict a, const W *restrict b, fp_rnd r)                               \
    {                                                                                                                  \
        fp_use_rounding(r);                                                                                            \
        for (int l = 0; l < FP_LANES; l++) {                                                                              \
            F v = AT(&a[l]) op AT(&b[l]);                                                                              \
            memcpy(&d[l], &v, sizeof v);                                                                               \
        }                                                                                                              \
    }
#define LANE_KERNEL3(name, W, F, AT, fn)                                                                               \
    LANE_FN void name(W *restrict d, const W *restrict a, const W *restrict b, const W *restrict c, fp_rnd r)          \
    {                                                                                                                  \
        fp_use_rounding(r);                                                                                            \
        for (int l = 0; l < FP_LANES; l++) {                                                                              \
            F v = fn(AT(&a[l]), AT(&b[l]), AT(&c[l]));                                                                 \
            memcpy(&d[l], &v, sizeof v);                                                                               \
        }                                                                                                              \
    }

LANE_KERNEL2(f32_add_lanes, uint32_t, float, f32_at, +)
LANE_KERNEL3(f32_fma_lanes, uint32_t, float, f32_at, fmaf)
LANE_KERNEL2(f64_add_lanes, uint64_t, double, f64_at, +)
LANE_KERNEL2(f64_mul_lanes, uint64_t, double, f64_at, *)
LANE_KERNEL3(f64_fma_lanes, uint64_t, double, f64_at, fma)

/* a*b is exact in double and so is the scaling by 2^k (|k| <= 3): the
 * conversion to float is the one rounding (see f32_mul_scaled). */
LANE_FN void f32_mul_lanes(uint32_t *restrict d, const uint32_t *restrict a, const uint32_t *restrict b, int k,
                           fp_rnd r)
{
    fp_use_rounding(r);
    const double s = ldexp(1.0, k < -3 ? -3 : k > 3 ? 3 : k);
    for (int l = 0; l < FP_LANES; l++) {
        float v = k ? (float)((double)f32_at(&a[l]) * (double)f32_at(&b[l]) * s) : f32_at(&a[l]) * f32_at(&b[l]);
        memcpy(&d[l], &v, sizeof v);
    }
}
