/* F16 and BF16 addition, multiplication and FMA over the 2 x 32 halves of a
 * warp instruction, with vector code: the same results as f16_add ...
 * bf16_fma (softfp.c), each the exact result rounded once in mode r.
 *
 * Method: compute the exact result rounded to odd at float precision
 * (24 bits), then round that float once to the 16-bit format in mode r.
 * Rounding to odd at p' bits and then rounding to p <= p' - 2 bits in any
 * mode gives the direct rounding of the exact value (Boldo and Melquiond,
 * "Emulation of FMA and correctly rounded sums: proved algorithms using
 * rounding to odd", IEEE TC 57(4), 2008): every boundary of the narrow
 * rounding (its values, midpoints and overflow threshold) is a float with an
 * even last bit, so a value rounded to odd lands on one only if it was there,
 * and otherwise stays strictly between the same two boundaries. Here p = 11
 * (F16) or 8 (BF16) and p' = 24; below the normal ranges the grids keep the
 * margin too: F16's subnormal quantum 2^-24 is far above float's, and BF16's,
 * 2^-133, is 2^16 times float's 2^-149.
 *
 * F16, in float: operands are exact floats; a product has at most 22
 * significant bits and lies in [2^-48, 2^32), so it is exact. The sum s =
 * p + c rounded to nearest and its error e = (p + c) - s, recovered exactly
 * by 2Sum (Knuth: exact in round-to-nearest when nothing overflows; every
 * value here is a multiple of 2^-48 below 2^33, far from float's overflow
 * and subnormal ranges), locate the exact sum: s itself when e = 0, else
 * strictly between s and its neighbour on e's side, of which the odd one is
 * the rounding to odd. The narrowing is vcvtps2ph with the mode as its
 * immediate on hosts with F16C, else integer code.
 *
 * BF16, in double: products of 8-bit significands are exact in double
 * ([2^-266, 2^256)), and 2Sum gives s and e likewise. f = s converted to
 * float (to nearest) leaves the exact remainder s - f (the error of one
 * rounding to a narrower format is representable in the wider one), and
 * t = (s - f) + e, rounded, keeps the sign of the exact remainder and is
 * zero only when it is: so the exact result lies strictly between f and its
 * neighbour on t's side, or is f. An f that overflowed to infinity from a
 * finite s steps back to FLT_MAX (odd), which is above every BF16 boundary
 * as the exact value is. BF16 is then the high half of that float, rounded
 * by an integer addition.
 *
 * 2Sum needs round-to-nearest: the kernels set it (fp_use_rounding), so they
 * leave the host mode RN. An exact zero sum takes IEEE's sign for mode r
 * (the host's sign is RN's). */
#include "fp/softfp_half.h"

#define HALVES (2 * FP_LANES)
#define F32_SIGN 0x80000000u
#define F32_INF 0x7f800000u

/* CALL(mode) with r's value as a constant: each instance is compiled for its
 * mode (no per-half tests of it) */
#define WITH_MODE(r, CALL)                                                                                             \
    switch (r) {                                                                                                       \
    case FP_RN: CALL(FP_RN); break;                                                                                    \
    case FP_RM: CALL(FP_RM); break;                                                                                    \
    case FP_RP: CALL(FP_RP); break;                                                                                    \
    default: CALL(FP_RZ); break;                                                                                       \
    }

/* A function of its own per operation and mode over fn(d, a, b, c, op,
 * mode), so that op and the mode are constants in each loop: no branches
 * in them (the hardware kernels' dispatch) */
#define PER_OP_AND_MODE(name, fn)                                                                                      \
    F16C_FN static void name(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op,         \
                             fp_rnd r)                                                                                 \
    {                                                                                                                  \
        switch (op) {                                                                                                  \
        case H_ADD: WITH_MODE(r, PER_OP_ADD_(fn)) break;                                                               \
        case H_MUL: WITH_MODE(r, PER_OP_MUL_(fn)) break;                                                               \
        default: WITH_MODE(r, PER_OP_FMA_(fn)) break;                                                                  \
        }                                                                                                              \
    }
#define PER_OP_ADD_(fn) fn##_ADD_
#define PER_OP_MUL_(fn) fn##_MUL_
#define PER_OP_FMA_(fn) fn##_FMA_

/* IEEE's sign of an exact zero sum x + y in mode r */
FP_INLINE uint32_t zero_sum_sign(uint32_t sx, uint32_t sy, fp_rnd r) { return r == FP_RM ? sx | sy : sx & sy; }

/* The exact value rounded to odd at float precision, from f (a float near it,
 * finite: f is its rounding; infinite: an overflow, or an infinite result
 * when `finite` is 0), inexact (the exact value is not f) and below (it lies
 * on the zero side of f). A zero f takes zsign. Flags are 0 or 1, tested as
 * integers: float comparisons would stop the vectoriser. */
FP_INLINE uint32_t round_odd(uint32_t f, uint32_t finite, uint32_t inexact, uint32_t below, uint32_t zsign)
{
    uint32_t mag = f & ~F32_SIGN, sign = f & F32_SIGN;
    uint32_t step = inexact & finite, back = step & below;
    mag = (mag - back) | step;
    return (mag ? sign : zsign << 31) | mag;
}

/* One F16 lane: a*b+c (H_FMA), a+c (H_ADD) or a*b (H_MUL) of exact floats,
 * rounded to odd at float precision */
FP_INLINE uint32_t f16_odd(float x, float y, float z, half_op op, fp_rnd r)
{
    float p = op == H_ADD ? x : x * y;
    if (op == H_MUL)
        return f32b(p);
    float s = p + z, zv = s - p, e = (p - (s - zv)) + (z - zv);
    uint32_t sb = f32b(s), eb = f32b(e), zsign = zero_sum_sign(f32b(p) >> 31, f32b(z) >> 31, r);
    return round_odd(sb, (sb & ~F32_SIGN) < F32_INF, (eb & ~F32_SIGN) != 0, (eb ^ sb) >> 31, zsign);
}

/* One BF16 lane, as f16_odd but in double */
FP_INLINE uint32_t bf16_odd(double x, double y, double z, half_op op, fp_rnd r)
{
    double p = op == H_ADD ? x : x * y, s = p, e = 0;
    if (op != H_MUL) {
        double zv;
        s = p + z, zv = s - p, e = (p - (s - zv)) + (z - zv);
    }
    float f = (float)s;
    double t = (s - (double)f) + e;
    uint64_t tb = f64b(t);
    uint32_t fb = f32b(f), ps = (uint32_t)(f64b(p) >> 63), zs = (uint32_t)(f64b(z) >> 63);
    uint32_t zsign = op == H_MUL ? ps : zero_sum_sign(ps, zs, r);
    return round_odd(fb, (f64b(s) & ~FMT_F64.sign) < FMT_F64.exp, (tb & ~FMT_F64.sign) != 0,
                     (uint32_t)(tb >> 63) ^ (fb >> 31), zsign);
}

/* An F16 bit pattern as a float, exactly: the pattern shifted into a float's
 * fields is the value times 2^-112 (subnormals too), and infinities and NaNs
 * get float's all-ones exponent. */
FP_INLINE float f16_widen(uint16_t h)
{
    uint32_t mag = h & 0x7fffu;
    uint32_t v = f32b(f32v(mag << 13) * 0x1p112f) | (mag >= 0x7c00u ? F32_INF : 0);
    return f32v(v | (uint32_t)(h & 0x8000u) << 16);
}

/* A float rounded once to F16 in mode r: the significand is split at F16's
 * quantum for the magnitude (normal: 13 bits below; subnormal: more) into
 * kept bits and a remainder that decides the increment, which may carry into
 * the exponent (as IEEE encodings allow). */
FP_INLINE uint16_t f16_narrow(uint32_t u, fp_rnd r)
{
    uint32_t mag = u & ~F32_SIGN, neg = u >> 31, ef = mag >> 23;
    uint32_t sub = ef < 113; /* below 2^-14 */
    uint32_t val = sub ? (mag & 0x7fffffu) | (uint32_t)(ef != 0) << 23 : mag - (112u << 23);
    uint32_t sh = sub ? (126 - ef > 31 ? 31 : 126 - ef) : 13;
    uint32_t kept = val >> sh, rem = val & ((1u << sh) - 1), half = 1u << (sh - 1);
    uint32_t up = r == FP_RN ? (rem > half) | ((rem == half) & kept)
                             : (rem != 0) & (neg == (r == FP_RM)) & (r != FP_RZ);
    uint32_t enc = kept + (up & 1);
    uint32_t to_inf = r == FP_RN || (r != FP_RZ && neg == (r == FP_RM));
    enc = enc >= 0x7c00u ? (to_inf ? 0x7c00u : 0x7bffu) : enc;
    enc = mag >= F32_INF ? 0x7c00u | (mag > F32_INF) << 9 : enc;
    return (uint16_t)(neg << 15 | enc);
}

/* A float rounded once to BF16 (its high half) in mode r; NaN -> 0x7FFF */
FP_INLINE uint16_t bf16_narrow(uint32_t u, fp_rnd r)
{
    uint32_t neg = u >> 31;
    uint32_t add = r == FP_RN ? 0x7fffu + (u >> 16 & 1) : r != FP_RZ && neg == (r == FP_RM) ? 0xffffu : 0;
    return (u & ~F32_SIGN) > F32_INF ? 0x7fff : (uint16_t)((u + add) >> 16);
}

/* The F16 kernels: the odd roundings of all halves, then the narrowing, with
 * r a constant in each instance. */
FP_INLINE void f16_odd_all(uint32_t *restrict o, const float *x, const float *y, const float *z, half_op op,
                            fp_rnd r)
{
    for (int i = 0; i < HALVES; i++)
        o[i] = f16_odd(x[i], y[i], z[i], op, r);
}

FP_INLINE void f16_portable(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op,
                             fp_rnd r)
{
    float x[HALVES], y[HALVES], z[HALVES];
    uint32_t o[HALVES];
    for (int i = 0; i < HALVES; i++) {
        x[i] = f16_widen(a[i]);
        y[i] = op == H_ADD ? 1.0f : f16_widen(b[i]);
        z[i] = op == H_MUL ? 0.0f : f16_widen(c[i]);
    }
    f16_odd_all(o, x, y, z, op, r);
    for (int i = 0; i < HALVES; i++)
        d[i] = f16_narrow(o[i], r);
}

#ifdef HALF_F16C
/* With F16C: conversions by the hardware, and the whole computation in
 * registers (softfp_half.h), 16 halves per store: narrower stores would
 * stall the caller's wider loads */
F16C_FN FP_INLINE void f16_hardware_op(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c,
                                        half_op op, fp_rnd r)
{
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    for (int i = 0; i < HALVES; i += 16) {
        __m128i h[2];
        for (int k = 0; k < 2; k++) {
            int j = i + 8 * k;
            __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)&a[j]));
            __m256 y = op == H_ADD ? one : _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)&b[j]));
            __m256 z = op == H_MUL ? zero : _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)&c[j]));
            h[k] = f16_round8(x, y, z, op, r);
        }
        _mm256_storeu_si256((__m256i *)&d[i], _mm256_inserti128_si256(_mm256_castsi128_si256(h[0]), h[1], 1));
    }
}

#define f16_hardware_op_ADD_(mode) f16_hardware_op(d, a, b, c, H_ADD, mode)
#define f16_hardware_op_MUL_(mode) f16_hardware_op(d, a, b, c, H_MUL, mode)
#define f16_hardware_op_FMA_(mode) f16_hardware_op(d, a, b, c, H_FMA, mode)
PER_OP_AND_MODE(f16_hardware, f16_hardware_op)
#endif

/* r a constant in each case (op is one in each caller) */
FP_INLINE void f16_portable_any(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op,
                                 fp_rnd r)
{
#define PORTABLE(mode) f16_portable(d, a, b, c, op, mode)
    fp_use_rounding(FP_RN);
    WITH_MODE(r, PORTABLE)
#undef PORTABLE
}

/* The BF16 kernel, portable: widening is a shift, the rest plain code */
FP_INLINE void bf16_mode(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op,
                          fp_rnd r)
{
    uint32_t o[HALVES];
    for (int i = 0; i < HALVES; i++) {
        double x = f32v((uint32_t)a[i] << 16), y = op == H_ADD ? 1.0 : f32v((uint32_t)b[i] << 16);
        double z = op == H_MUL ? 0.0 : f32v((uint32_t)c[i] << 16);
        o[i] = bf16_odd(x, y, z, op, r);
    }
    for (int i = 0; i < HALVES; i++)
        d[i] = bf16_narrow(o[i], r);
}

#ifdef HALF_F16C
/* In AVX2 registers, 16 halves at a time (softfp_half.h) */
F16C_FN FP_INLINE void bf16_hardware_op(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c,
                                         half_op op, fp_rnd r)
{
    for (int i = 0; i < HALVES; i += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)&a[i]), y = _mm256_loadu_si256((const __m256i *)&b[i]);
        __m256i z = _mm256_loadu_si256((const __m256i *)&c[i]);
        _mm256_storeu_si256((__m256i *)&d[i], bf16_round16(x, y, z, op, r));
    }
}

#define bf16_hardware_op_ADD_(mode) bf16_hardware_op(d, a, b, c, H_ADD, mode)
#define bf16_hardware_op_MUL_(mode) bf16_hardware_op(d, a, b, c, H_MUL, mode)
#define bf16_hardware_op_FMA_(mode) bf16_hardware_op(d, a, b, c, H_FMA, mode)
PER_OP_AND_MODE(bf16_hardware, bf16_hardware_op)
#endif

FP_INLINE void bf16_portable_any(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op,
                                  fp_rnd r)
{
#define BF16_MODE(mode) bf16_mode(d, a, b, c, op, mode)
    fp_use_rounding(FP_RN);
    WITH_MODE(r, BF16_MODE)
#undef BF16_MODE
}

/* The F16C/AVX2 kernels of the format (bf: BF16) where the host has them,
 * else the portable ones */
FP_INLINE void half_lanes(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op,
                          fp_rnd r, int bf)
{
#ifdef HALF_F16C
    if (half_f16c_host()) {
        fp_use_rounding(FP_RN);
        if (bf)
            bf16_hardware(d, a, b, c, op, r);
        else
            f16_hardware(d, a, b, c, op, r);
        return;
    }
#endif
    if (bf)
        bf16_portable_any(d, a, b, c, op, r);
    else
        f16_portable_any(d, a, b, c, op, r);
}

FP_INLINE void f16_lanes(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op, fp_rnd r)
{
    half_lanes(d, a, b, c, op, r, 0);
}

FP_INLINE void bf16_lanes(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c, half_op op,
                           fp_rnd r)
{
    half_lanes(d, a, b, c, op, r, 1);
}

/* The entry points: add (a + b), mul (a * b) and fma (a * b + c) of one
 * family of kernels */
#define HALF_ENTRIES(fmt, suffix, ATTR, impl)                                                                          \
    ATTR void fmt##_add_lanes##suffix(uint16_t *d, const uint16_t *a, const uint16_t *b, fp_rnd r)                     \
    {                                                                                                                  \
        impl(d, a, a, b, H_ADD, r);                                                                                    \
    }                                                                                                                  \
    ATTR void fmt##_mul_lanes##suffix(uint16_t *d, const uint16_t *a, const uint16_t *b, fp_rnd r)                     \
    {                                                                                                                  \
        impl(d, a, b, b, H_MUL, r);                                                                                    \
    }                                                                                                                  \
    ATTR void fmt##_fma_lanes##suffix(uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c,            \
                                      fp_rnd r)                                                                        \
    {                                                                                                                  \
        impl(d, a, b, c, H_FMA, r);                                                                                    \
    }
#define NO_ATTR
HALF_ENTRIES(f16, , LANE_FN, f16_lanes)
HALF_ENTRIES(bf16, , LANE_FN, bf16_lanes)
HALF_ENTRIES(f16, _portable, NO_ATTR, f16_portable_any) /* without F16C whatever the host has: for tests */
HALF_ENTRIES(bf16, _portable, NO_ATTR, bf16_portable_any)
