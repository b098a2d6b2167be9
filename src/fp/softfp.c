/* Correctly rounded IEEE-754 arithmetic on bit patterns (see softfp.h).
 *
 * F32 and F64: the host FPU computes add, mul and fma with exactly one
 * rounding in its current mode, so we only select the mode.  fma()/fmaf()
 * are glibc's, correctly rounded in every mode (hardware FMA, or a
 * round-to-odd software path).
 *
 * F16 and BF16: every operand is exact in double, and so is every product
 * (see exact_mul).  Sums are exact too unless the exponents are far apart;
 * then the smaller addend is replaced by a sticky bit (add_sticky), which
 * makes the double a round-to-odd image of the exact sum.  That double is
 * rounded once, in software, to the 16-bit format (narrow).  No double
 * arithmetic here is inexact, so these paths are independent of the host
 * rounding mode and never switch it.
 *
 * Compile with -frounding-math (GCC ignores FENV_ACCESS).  Independently of
 * that, every operation that depends on the mode reads its operands from
 * volatile objects after the mode switch and writes its result to one, so
 * it can be neither constant-folded nor moved across fesetround(). */
#include "fp/softfp.h"

#include "common/fpenv.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#if defined(__clang__) && __clang_major__ >= 12
#pragma STDC FENV_ACCESS ON
#endif

/* With excess precision (x87) float and double operations would be
 * rounded twice. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "softfp.c needs FLT_EVAL_METHOD == 0 (SSE2 or similar, not x87)"
#endif

#define SIGN64 0x8000000000000000u

/* narrow() and widen() must be specialised for each format's constants. */
#if defined(__GNUC__) || defined(__clang__)
#define FORMAT_INLINE inline __attribute__((always_inline))
#else
#define FORMAT_INLINE inline
#endif

/* ------------------------------------------------------------------ host mode */

/* The mode this thread is known to be in is common/fpenv.c's fpenv_round
 * (a FE_* value; -1: unknown, and fegetround() would cost more than one
 * needless fesetround()). */
static void use_mode(fp_rnd r);

void fp_use_rounding(fp_rnd r) { use_mode(r); }

static void use_mode(fp_rnd r)
{
    static const int host[4] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
    int m = host[(int)r & 3];
    if (m != fpenv_round) {
        fesetround(m);
        fpenv_round = m;
    }
}

void fp_restore_host_rounding(void) { use_mode(FP_RN); }

/* ------------------------------------------------------------------ F32, F64 */

/* One host operation in mode r on operands read from volatiles: the op
 * cannot be folded or moved across the mode switch. W is the bit-pattern
 * type, F the host type, TO/FROM the conversions. */
#define HOST_OP2(name, W, F, FROM, TO, expr)                                                                        \
    W name(W a, W b, fp_rnd r)                                                                                      \
    {                                                                                                               \
        use_mode(r);                                                                                                \
        volatile F x = FROM(a), y = FROM(b);                                                                        \
        volatile F z = expr;                                                                                        \
        return TO(z);                                                                                               \
    }
#define HOST_OP3(name, W, F, FROM, TO, fn)                                                                          \
    W name(W a, W b, W c, fp_rnd r)                                                                                 \
    {                                                                                                               \
        use_mode(r);                                                                                                \
        volatile F x = FROM(a), y = FROM(b), w = FROM(c);                                                           \
        volatile F z = fn(x, y, w);                                                                                 \
        return TO(z);                                                                                               \
    }

HOST_OP2(f32_add, uint32_t, float, f32v, f32b, x + y)
HOST_OP2(f32_mul, uint32_t, float, f32v, f32b, x * y)
HOST_OP3(f32_fma, uint32_t, float, f32v, f32b, fmaf)
HOST_OP2(f64_add, uint64_t, double, f64v, f64b, x + y)
HOST_OP2(f64_mul, uint64_t, double, f64v, f64b, x * y)
HOST_OP3(f64_fma, uint64_t, double, f64v, f64b, fma)

/* Why one rounding: the product of two floats has at most 48 significant
 * bits and a magnitude in [2^-298, 2^256), so it is exact in double (no
 * double underflow or overflow); multiplying by 2^k keeps it exact while
 * the result stays in [2^-1022, 2^1024), which k clamped to [-700, 700]
 * guarantees.  The clamp changes nothing: beyond it the exact result is
 * below 2^-444 or above 2^402, far outside float's range either way, and
 * the clamped value is on the same side.  So the only inexact step is the
 * double -> float conversion, which IEEE rounds once in the current mode,
 * to a subnormal too. */
uint32_t f32_mul_scaled(uint32_t a, uint32_t b, int k, fp_rnd r)
{
    use_mode(r);
    k = k < -700 ? -700 : k > 700 ? 700 : k;
    volatile double x = f32v(a), y = f32v(b), s = f64v((uint64_t)(1023 + k) << 52);
    volatile float z = (float)(x * y * s);
    return f32b(z);
}

/* ------------------------------------------------------------------ F16, BF16 */

/* Formats with 1 sign bit, E exponent bits and M fraction bits. */
#define F16_E 5
#define F16_M 10
#define BF16_E 8
#define BF16_M 7

/* The exact double value of a 16-bit pattern; NaNs keep their payload. */
static FORMAT_INLINE double widen(uint16_t h, int E, int M)
{
    const int bias = (1 << (E - 1)) - 1;
    uint64_t s = (uint64_t)(h >> (E + M)) << 63;
    uint32_t e = (h >> M) & ((1u << E) - 1), m = h & ((1u << M) - 1);
    if (e == (1u << E) - 1)
        return f64v(s | 0x7ff0000000000000u | (uint64_t)m << (52 - M));
    if (e == 0) { /* subnormal or zero: m * 2^(1-bias-M), both factors exact */
        double v = (double)m * f64v((uint64_t)(1023 + 1 - bias - M) << 52);
        return f64v(s | f64b(v));
    }
    return f64v(s | (uint64_t)(e - bias + 1023) << 52 | (uint64_t)m << (52 - M));
}

/* Rounds a double once to the format in mode r.  The double's significand
 * is split at the format's quantum for that magnitude (2^(e-M) for normal
 * results, 2^(1-bias-M) for subnormal ones) into kept bits and a remainder,
 * which decides the increment.  The increment may carry into the next
 * binade, or from the largest subnormal into the smallest normal: the
 * encoding (biased exponent - 1) << M + kept absorbs both. */
static FORMAT_INLINE uint16_t narrow(double x, int E, int M, fp_rnd r)
{
    const int bias = (1 << (E - 1)) - 1;
    const uint32_t inf = ((1u << E) - 1) << M;
    uint64_t u = f64b(x);
    int neg = (int)(u >> 63);
    uint16_t sign = (uint16_t)((unsigned)neg << (E + M));
    int de = (int)((u >> 52) & 0x7ff);
    uint64_t sig = u & 0xfffffffffffffu;
    if (de == 0x7ff)
        return (uint16_t)(sign | inf | (sig ? 1u << (M - 1) : 0));
    if (de == 0 && sig == 0)
        return sign;
    /* e: exponent of x, 2^e <= |x| < 2^(e+1).  A double subnormal is far
     * below the format's smallest subnormal; any e below 1-bias will do. */
    int e = de ? de - 1023 : -1023;
    int lsb = (de ? de : 1) - 1075; /* weight of sig's last bit */
    if (de)
        sig |= 1ull << 52;
    int overflow = e > bias;
    uint32_t enc = 0;
    if (!overflow) {
        int qe = (e < 1 - bias ? 1 - bias : e) - M; /* weight of the result's last bit */
        int shift = qe - lsb;                       /* >= 52 - M */
        if (shift > 60) /* then sig < 2^53 < half: all of it is below half */
            shift = 60;
        uint64_t kept = sig >> shift, rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        /* data-dependent: keep it free of branches */
        int up;
        if (r == FP_RN)
            up = (rem > half) | ((rem == half) & (int)(kept & 1));
        else /* away from zero in the direction of the mode */
            up = (rem != 0) & (r == (neg ? FP_RM : FP_RP));
        enc = (uint32_t)((qe + M + bias - 1) << M) + (uint32_t)kept + (uint32_t)up;
        overflow = enc >= inf;
    }
    if (overflow) {
        int to_inf = r == FP_RN || (r == FP_RP && !neg) || (r == FP_RM && neg);
        enc = to_inf ? inf : inf - 1;
    }
    return (uint16_t)(sign | enc);
}

/* Products: F16 significands have 11 bits, BF16 ones 8, so a product has at
 * most 22 significant bits, and its magnitude lies in [2^-266, 2^256):
 * exact in double whatever the host rounding mode. */
static inline double exact_mul(double x, double y)
{
    return x * y;
}

/* x + y for doubles of at most 24 significant bits (16-bit values and their
 * products), as a double that rounds exactly like the exact sum to F16 or
 * BF16 in every mode.
 *
 * Let 2^E <= |x| < 2^(E+1) be the larger operand by exponent.  If y's
 * exponent is within 26 of E, the sum spans at most 51 bits (from E+1 down
 * to E-26-23): exact.  (A plain F16 sum is always exact, multiples of 2^-24
 * below 2^17 take 41 bits; BF16 sums and all FMAs are not.)  Otherwise |y| < 2^(E-26) and y is replaced by
 * a sticky bit y' = sign(y) * 2^(E-26), and x + y' (28 bits) is exact.
 * That is round-to-odd on the grid 2^(E-26), at least 25 bits of
 * precision: since x is a multiple of 2^(E-23), so is every rounding
 * boundary of a format with <= 11 bits near x (representable values,
 * midpoints, the overflow threshold, 0: multiples of 2^(E-12) or coarser);
 * x + y and x + y' lie strictly on the same side of x and within 2^(E-23)
 * of it, so no boundary lies between them or on either, and both round to
 * the same value in every mode.
 *
 * An exact zero sum gets its sign here, by IEEE's rule for mode r: the
 * host's sign would follow the host's mode. */
static inline double add_sticky(double x, double y, fp_rnd r)
{
    uint64_t ux = f64b(x), uy = f64b(y);
    int ex = (int)((ux >> 52) & 0x7ff), ey = (int)((uy >> 52) & 0x7ff);
    if (ex - ey > 26 && (uy & ~SIGN64))
        y = f64v((uy & SIGN64) | (uint64_t)(ex - 26) << 52);
    else if (ey - ex > 26 && (ux & ~SIGN64))
        x = f64v((ux & SIGN64) | (uint64_t)(ey - 26) << 52);
    double s = x + y;
    if (s == 0) {
        uint64_t sx = ux >> 63, sy = uy >> 63;
        return (r == FP_RM ? sx | sy : sx & sy) ? -0.0 : 0.0;
    }
    return s;
}

#define F16_ARGS F16_E, F16_M
#define BF16_ARGS BF16_E, BF16_M

uint16_t f16_add(uint16_t a, uint16_t b, fp_rnd r)
{
    return narrow(add_sticky(widen(a, F16_ARGS), widen(b, F16_ARGS), r), F16_ARGS, r);
}

uint16_t f16_mul(uint16_t a, uint16_t b, fp_rnd r)
{
    return narrow(exact_mul(widen(a, F16_ARGS), widen(b, F16_ARGS)), F16_ARGS, r);
}

uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, fp_rnd r)
{
    double p = exact_mul(widen(a, F16_ARGS), widen(b, F16_ARGS));
    return narrow(add_sticky(p, widen(c, F16_ARGS), r), F16_ARGS, r);
}

uint16_t bf16_add(uint16_t a, uint16_t b, fp_rnd r)
{
    return narrow(add_sticky(widen(a, BF16_ARGS), widen(b, BF16_ARGS), r), BF16_ARGS, r);
}

uint16_t bf16_mul(uint16_t a, uint16_t b, fp_rnd r)
{
    return narrow(exact_mul(widen(a, BF16_ARGS), widen(b, BF16_ARGS)), BF16_ARGS, r);
}

uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, fp_rnd r)
{
    double p = exact_mul(widen(a, BF16_ARGS), widen(b, BF16_ARGS));
    return narrow(add_sticky(p, widen(c, BF16_ARGS), r), BF16_ARGS, r);
}

uint64_t f16_to_f64(uint16_t x)
{
    return f64b(widen(x, F16_ARGS));
}

uint64_t bf16_to_f64(uint16_t x)
{
    return f64b(widen(x, BF16_ARGS));
}

uint16_t f16_from_f64(uint64_t x, fp_rnd r)
{
    return narrow(f64v(x), F16_ARGS, r);
}

uint16_t bf16_from_f64(uint64_t x, fp_rnd r)
{
    return narrow(f64v(x), BF16_ARGS, r);
}

