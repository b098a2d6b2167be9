/* The F16 rounding kernel on eight halves in registers, for the lane kernels
 * (softfp_half.c) and for callers that fuse their own operand and result
 * steps around it (sim/ops_f16.c), so that a warp's halves make one pass
 * through registers instead of several through scratch memory. The method
 * and its proof are at the top of softfp_half.c. */
#ifndef GISA_FP_SOFTFP_HALF_H
#define GISA_FP_SOFTFP_HALF_H
#include "fp/softfp.h"

typedef enum { H_ADD, H_MUL, H_FMA } half_op;

/* The F16C path: GCC on x86-64 (target attributes and the run-time CPU
 * check), not under ASan or where clones are turned off */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) &&               \
    !defined(GISA_NO_CLONES)
#define HALF_F16C 1
#include <immintrin.h>
#define F16C_FN __attribute__((target("avx2,f16c")))

/* Whether this host runs F16C_FN code (two loads of the loader's CPU model) */
static inline int half_f16c_host(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"); }

/* A float vector rounded to F16 in mode r: vcvtps2ph's rounding field is
 * fp_rnd's numbering, but must be a literal (at -O0 too) */
F16C_FN FP_INLINE __m128i f16_narrow8(__m256 v, fp_rnd r)
{
    switch (r) {
    case FP_RN: return _mm256_cvtps_ph(v, 0);
    case FP_RM: return _mm256_cvtps_ph(v, 1);
    case FP_RP: return _mm256_cvtps_ph(v, 2);
    default: return _mm256_cvtps_ph(v, 3);
    }
}

/* Eight F16 results: x*y+z (H_FMA), x+z (H_ADD) or x*y (H_MUL) of exact
 * floats (widened halves), rounded once to F16 in mode r. The host mode
 * must be round-to-nearest (2Sum).
 *
 * The product of two F16 values is exact, so H_MUL only narrows. Otherwise
 * 2Sum gives s and its error e. Rounding to odd at float precision works on
 * s's bit pattern, sign included: an inexact s (e != 0) with an odd pattern
 * is already the odd neighbour; an even one steps to the neighbour on e's
 * side, pattern - 1 when e points to zero (the magnitude is not 0: s
 * inexact) and pattern | 1 otherwise; both are (pattern + below) | 1 with
 * below -1 or 0. A non-finite s makes e NaN, which the ordered compare
 * counts as exact, so infinities and NaNs pass unchanged. An exact zero sum
 * has the host's sign, IEEE's for RN, RP and RZ; RM's is negative when
 * either addend is. */
F16C_FN FP_INLINE __m128i f16_round8(__m256 x, __m256 y, __m256 z, half_op op, fp_rnd r)
{
    __m256 p = op == H_ADD ? x : _mm256_mul_ps(x, y);
    if (op == H_MUL)
        return f16_narrow8(p, r);
    __m256 s = _mm256_add_ps(p, z), zv = _mm256_sub_ps(s, p);
    __m256 e = _mm256_add_ps(_mm256_sub_ps(p, _mm256_sub_ps(s, zv)), _mm256_sub_ps(z, zv));
    __m256i sb = _mm256_castps_si256(s);
    __m256i inexact = _mm256_castps_si256(_mm256_cmp_ps(e, _mm256_setzero_ps(), _CMP_NEQ_OQ));
    __m256i below = _mm256_srai_epi32(_mm256_castps_si256(_mm256_xor_ps(e, s)), 31);
    __m256i odd = _mm256_or_si256(_mm256_add_epi32(sb, _mm256_and_si256(below, inexact)),
                                  _mm256_srli_epi32(inexact, 31));
    if (r == FP_RM) {
        __m256 zero = _mm256_cmp_ps(s, _mm256_setzero_ps(), _CMP_EQ_OQ);
        __m256 sign = _mm256_and_ps(_mm256_or_ps(p, z), _mm256_set1_ps(-0.0f));
        odd = _mm256_or_si256(odd, _mm256_castps_si256(_mm256_and_ps(zero, sign)));
    }
    return f16_narrow8(_mm256_castsi256_ps(odd), r);
}
#endif

#endif
