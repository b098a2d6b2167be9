/* Correctly rounded IEEE-754 arithmetic on raw bit patterns, for the
 * simulator's floating-point instructions: each function returns the exact
 * result rounded once in the given mode, with gradual underflow (subnormal
 * results rounded, never flushed; subnormal inputs used as they are: the
 * caller does FTZ/DAZ), overflow to infinity or to the largest finite value
 * as the mode requires, and IEEE signs for zeros and infinities.  A NaN
 * result is some NaN (any payload, quiet or not): the caller canonicalises.
 *
 * Rounding mode ownership: F32 and F64 operations use the host FPU, and set
 * the thread's rounding mode (fesetround) to the requested one when it
 * differs from the mode they last set; they never restore it.  So between
 * fp_ calls the thread's mode is whatever the last one needed.  Call
 * fp_restore_host_rounding() before running other floating-point code that
 * expects round-to-nearest (printf, strtod, the assembler's fpconv, ...),
 * and after any code of yours that calls fesetround() itself: it sets
 * FE_TONEAREST and tells this module so.  The scalar F16/BF16 operations
 * neither use nor change the mode; their lane kernels set round-to-nearest.
 * The host must not flush subnormals (no x86 FTZ/DAZ) and must mask the
 * exceptions: every public entry point of the library sets that
 * environment first and gives the caller's back (common/fpenv.h). */
#ifndef GISA_FP_SOFTFP_H
#define GISA_FP_SOFTFP_H
#include <stdint.h>
#include <string.h>

/* Bit patterns to host floats and back (the FP modules' common vocabulary). */
static inline float f32v(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline uint32_t f32b(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline double f64v(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline uint64_t f64b(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* The one vocabulary of formats, NaNs and subnormals, for every format
 * (F16, BF16, F32, F64, and the high word of an F64 that RCP64H/RSQ64H
 * read): a format is its sign, exponent and fraction masks, its canonical
 * NaN and the bits of 1.0. */
typedef struct fpfmt {
    uint64_t sign, exp, frac, canon_nan, one;
} fpfmt;

static const fpfmt FMT_F16 = {0x8000, 0x7c00, 0x03ff, 0x7fff, 0x3c00};
static const fpfmt FMT_BF16 = {0x8000, 0x7f80, 0x007f, 0x7fff, 0x3f80};
static const fpfmt FMT_F32 = {0x80000000u, 0x7f800000u, 0x007fffffu, 0x7fffffffu, 0x3f800000u};
static const fpfmt FMT_F64 = {UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000),
                              UINT64_C(0x000fffffffffffff), UINT64_C(0x7fffffffffffffff),
                              UINT64_C(0x3ff0000000000000)};
static const fpfmt FMT_F64H = {0x80000000u, 0x7ff00000u, 0x000fffffu, 0x7fffffffu, 0x3ff00000u};

static inline int fp_isnan(uint64_t v, const fpfmt *f) { return (v & f->exp) == f->exp && (v & f->frac); }

static inline int fp_is_subnormal(uint64_t v, const fpfmt *f) { return !(v & f->exp) && (v & f->frac); }

/* FTZ: a subnormal becomes the zero of its sign (a zero stays itself) */
static inline uint64_t fp_flush(uint64_t v, const fpfmt *f) { return (v & f->exp) ? v : v & f->sign; }

/* nearest-even, toward -inf, toward +inf, toward zero */
typedef enum fp_rnd { FP_RN = 0, FP_RM = 1, FP_RP = 2, FP_RZ = 3 } fp_rnd;

uint32_t f32_add(uint32_t a, uint32_t b, fp_rnd r);
uint32_t f32_mul(uint32_t a, uint32_t b, fp_rnd r);
/* a*b*2^k with ONE rounding of the exact value (correct for any k; the ISA
 * uses k in [-3,3]). */
uint32_t f32_mul_scaled(uint32_t a, uint32_t b, int k, fp_rnd r);
uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r); /* a*b+c, one rounding */
uint64_t f64_add(uint64_t a, uint64_t b, fp_rnd r);
uint64_t f64_mul(uint64_t a, uint64_t b, fp_rnd r);
uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, fp_rnd r);
uint16_t f16_add(uint16_t a, uint16_t b, fp_rnd r); /* IEEE binary16 */
uint16_t f16_mul(uint16_t a, uint16_t b, fp_rnd r);
uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, fp_rnd r);
uint16_t bf16_add(uint16_t a, uint16_t b, fp_rnd r); /* bfloat16: 1 sign, 8 exponent, 7 fraction bits */
uint16_t bf16_mul(uint16_t a, uint16_t b, fp_rnd r);
uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, fp_rnd r);

/* Conversions: widening is exact (a NaN stays a NaN); narrowing rounds
 * once in mode r. */
uint64_t f16_to_f64(uint16_t x);
uint64_t bf16_to_f64(uint16_t x);
uint16_t f16_from_f64(uint64_t x, fp_rnd r);
uint16_t bf16_from_f64(uint64_t x, fp_rnd r);

/* Sets the thread's rounding mode back to FE_TONEAREST (see above). */
void fp_restore_host_rounding(void);
/* Makes r the thread's host rounding mode (a no-op when it already is). */
void fp_use_rounding(fp_rnd r);

/* The lane kernels' width: a warp's 32 lanes (sim/sim.h's LANES, which
 * sim/ops_fp.h checks is the same). */
#define FP_LANES 32

/* A helper of the lane kernels: inlined into each of their clones, so it
 * runs with the clone's instruction set. */
#if defined(__GNUC__)
#define FP_INLINE static inline __attribute__((always_inline))
#else
#define FP_INLINE static inline
#endif

/* The F32/F64 operations on 32 lanes at once (softfp_lanes.c): the same
 * results as the scalar functions, with one mode switch per call. */
void f32_add_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b, fp_rnd r);
void f32_mul_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b, int k, fp_rnd r); /* a*b*2^k, |k| <= 3 */
void f32_fma_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c, fp_rnd r);
void f64_add_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, fp_rnd r);
void f64_mul_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, fp_rnd r);
void f64_fma_lanes(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, fp_rnd r);

/* The F16/BF16 operations on the 64 halves (2 x 32 lanes) of an instruction
 * (softfp_half.c, vectorised): the same results as the scalar functions.
 * Unlike those they set the host mode to round-to-nearest. */
#define SOFTFP_HALF_LANES(fmt, suffix)                                                                                 \
    void fmt##_add_lanes##suffix(uint16_t *d, const uint16_t *a, const uint16_t *b, fp_rnd r);                         \
    void fmt##_mul_lanes##suffix(uint16_t *d, const uint16_t *a, const uint16_t *b, fp_rnd r);                         \
    void fmt##_fma_lanes##suffix(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, fp_rnd r);
SOFTFP_HALF_LANES(f16, )  /* f16_add_lanes, f16_mul_lanes, f16_fma_lanes */
SOFTFP_HALF_LANES(bf16, ) /* bf16_add_lanes, ... */
/* The F16 and BF16 kernels without F16C/AVX2, which those above use where
 * the host has them: for tests (f16_add_lanes_portable, ...) */
SOFTFP_HALF_LANES(f16, _portable)
SOFTFP_HALF_LANES(bf16, _portable)

/* Lane kernels are compiled for x86-64-v3 (AVX2, FMA, F16C) and the
 * baseline, and the loader picks one (GCC on x86-64). */
#define LANE_FN __attribute__((target_clones("arch=x86-64-v3", "default")))
#if !defined(__x86_64__) || !defined(__GNUC__) || defined(__clang__) || defined(__SANITIZE_ADDRESS__) ||               \
    defined(GISA_NO_CLONES)
#undef LANE_FN
#define LANE_FN
#endif

/* classification helpers used by the instruction layer */

#endif
