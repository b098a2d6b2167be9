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
/* The high 32 bits of each double of a (4) and b (4), in order: where
 * their signs and the compare masks are */
F16C_FN FP_INLINE __m256i high_words8(__m256d a, __m256d b)
{
    __m256 pairs = _mm256_shuffle_ps(_mm256_castpd_ps(a), _mm256_castpd_ps(b), _MM_SHUFFLE(3, 1, 3, 1));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(pairs), _MM_SHUFFLE(3, 1, 2, 0));
}

/* Eight BF16 results, as bf16_odd and bf16_narrow (softfp_half.c) in
 * registers: operands are float bit patterns (a BF16 value shifted left
 * 16), the results the BF16 patterns in the low 16 bits of each 32. The
 * exact result is rounded to odd at float precision from f = (float)s and
 * t = (s - f) + e, as f16_round8 does from s and e: a non-finite s makes t
 * NaN (exact), a finite s beyond float's range makes f infinite and t the
 * opposite infinity, so f steps back to FLT_MAX. f is 0 only for an exact
 * zero (a tiny inexact s gives 0 | 1, the smallest subnormal). */
F16C_FN FP_INLINE __m256i bf16_round8(__m256i xb, __m256i yb, __m256i zb, half_op op, fp_rnd r)
{
    __m256d t[2], step[2], zero_sign[2];
    __m128 f[2];
    for (int k = 0; k < 2; k++) {
        __m128i xk = k ? _mm256_extracti128_si256(xb, 1) : _mm256_castsi256_si128(xb);
        __m128i yk = k ? _mm256_extracti128_si256(yb, 1) : _mm256_castsi256_si128(yb);
        __m128i zk = k ? _mm256_extracti128_si256(zb, 1) : _mm256_castsi256_si128(zb);
        __m256d x = _mm256_cvtps_pd(_mm_castsi128_ps(xk)), z = _mm256_cvtps_pd(_mm_castsi128_ps(zk));
        __m256d p = op == H_ADD ? x : _mm256_mul_pd(x, _mm256_cvtps_pd(_mm_castsi128_ps(yk)));
        __m256d s = p, e = _mm256_setzero_pd();
        if (op != H_MUL) {
            s = _mm256_add_pd(p, z);
            __m256d zv = _mm256_sub_pd(s, p);
            e = _mm256_add_pd(_mm256_sub_pd(p, _mm256_sub_pd(s, zv)), _mm256_sub_pd(z, zv));
        }
        f[k] = _mm256_cvtpd_ps(s);
        t[k] = _mm256_add_pd(_mm256_sub_pd(s, _mm256_cvtps_pd(f[k])), e);
        step[k] = _mm256_cmp_pd(t[k], _mm256_setzero_pd(), _CMP_NEQ_OQ);
        zero_sign[k] = _mm256_setzero_pd();
        if (r == FP_RM && op != H_MUL)
            zero_sign[k] = _mm256_and_pd(_mm256_cmp_pd(s, _mm256_setzero_pd(), _CMP_EQ_OQ),
                                         _mm256_and_pd(_mm256_or_pd(p, z), _mm256_set1_pd(-0.0)));
    }
    __m256i fb = _mm256_castps_si256(_mm256_insertf128_ps(_mm256_castps128_ps256(f[0]), f[1], 1));
    __m256i inexact = high_words8(step[0], step[1]);
    __m256i below = _mm256_srai_epi32(_mm256_xor_si256(high_words8(t[0], t[1]), fb), 31);
    __m256i odd = _mm256_or_si256(_mm256_add_epi32(fb, _mm256_and_si256(below, inexact)),
                                  _mm256_srli_epi32(inexact, 31));
    if (r == FP_RM && op != H_MUL)
        odd = _mm256_or_si256(odd, high_words8(zero_sign[0], zero_sign[1]));
    /* BF16 is the high half, rounded by an integer addition */
    __m256i neg = _mm256_srai_epi32(odd, 31), low = _mm256_set1_epi32(0xffff), add;
    switch (r) {
    case FP_RN: add = _mm256_add_epi32(_mm256_set1_epi32(0x7fff), _mm256_and_si256(_mm256_srli_epi32(odd, 16),
                                                                                   _mm256_set1_epi32(1)));
        break;
    case FP_RM: add = _mm256_and_si256(neg, low); break;
    case FP_RP: add = _mm256_andnot_si256(neg, low); break;
    default: add = _mm256_setzero_si256(); break;
    }
    __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(odd, _mm256_set1_epi32(0x7fffffff)),
                                     _mm256_set1_epi32(0x7f800000));
    return _mm256_blendv_epi8(_mm256_srli_epi32(_mm256_add_epi32(odd, add), 16), _mm256_set1_epi32(0x7fff), nan);
}

/* Sixteen BF16 results from sixteen BF16 halves per operand: the even
 * halves shifted into float position, the odd ones masked there */
F16C_FN FP_INLINE __m256i bf16_round16(__m256i a, __m256i b, __m256i c, half_op op, fp_rnd r)
{
    const __m256i high = _mm256_set1_epi32((int)0xffff0000u);
    __m256i even = bf16_round8(_mm256_slli_epi32(a, 16), _mm256_slli_epi32(b, 16), _mm256_slli_epi32(c, 16), op, r);
    __m256i odd = bf16_round8(_mm256_and_si256(a, high), _mm256_and_si256(b, high), _mm256_and_si256(c, high), op, r);
    return _mm256_or_si256(even, _mm256_slli_epi32(odd, 16));
}
#endif

#endif
