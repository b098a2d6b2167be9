/* Correctly rounded MUFU functions (see mufu.h, docs/semantics.md).
 *
 * RCP, RSQ, RCP64H, RSQ64H are nearly exact in double, and the few cases
 * that double cannot settle are settled with integer arithmetic.
 *
 * COS, SIN, EX2, LG2 follow Ziv's strategy.  A fast path computes y in
 * double with a proven relative error bound; f32_decide() rounds y to F32
 * only when no rounding boundary lies within the bound of y, so that the
 * exact value must round the same way.  Otherwise an accurate path
 * recomputes the value in double-double arithmetic (about 100 bits) with a
 * bound near 2^-90, and decides the same way.  Correctness of the result
 * therefore rests on (1) the two error bounds, argued next to each path,
 * and (2) the accurate path deciding every input.  (2) is a finite
 * question, answered by running every one of the 2^32 inputs: none is left
 * undecided (the exact cases -- 2^integer, log2 of a power of two, sin 0,
 * cos 0 -- are handled before).  If one ever were, the accurate path's
 * nearest value would be returned.  The MUFU_TRACE hook (a no-op here)
 * tells a checking build which inputs leave the fast path (stage 1) and
 * the accurate path (stage 2) undecided.
 *
 * Error bounds use u = 2^-53.  The classic Horner bound is |computed -
 * exact| <= gamma(2n) * sum|a_i||x|^i for degree n, gamma(k) = k u/(1 - k u);
 * for double-double operations the bounds of Joldes, Muller and Popescu
 * ("Tight and rigorous error bounds for basic building blocks of
 * double-word arithmetic", 2017) are at most 5u^2 < 2^-103 each, which
 * replaces u in the Horner bound of the double-double polynomials.  Every
 * bound handed to f32_decide() is at least twice the proven one.
 *
 * The host must round to nearest (set on entry) without flushing
 * subnormals, and evaluate in the type's precision (FLT_EVAL_METHOD 0).
 * Contracting a*b+c into fma would only shrink the fast paths' errors;
 * the error-free transformations below have no such pattern to contract. */
#include "sim/mufu.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "fp/softfp.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "mufu.c needs FLT_EVAL_METHOD == 0 (SSE2 or similar, not x87)"
#endif

#ifndef MUFU_TRACE
#define MUFU_TRACE(op, x, stage) ((void)0)
#endif

typedef struct mufu_dd {
    double hi, lo; /* value hi + lo, |lo| <= ulp(hi)/2 */
} mufu_dd;

#include "sim/mufu_tables.h"

#define SIGN32 0x80000000u
#define INF32 0x7f800000u
#define NAN32 0x7fffffffu
#define MAX32 0x7f7fffffu
#define NAN64H 0x7fffffffu /* high word of the F64 canonical NaN */
#define SIGN64H 0x80000000u
#define INF64H 0x7ff00000u

/* 2^e for e in [-1022, 1023] */
static inline double pow2(int e)
{
    return f64v((uint64_t)(1023 + e) << 52);
}


/* ------------------------------------------------------------------ double-double */

/* s + e == a + b exactly (Knuth's TwoSum) */
static inline mufu_dd two_sum(double a, double b)
{
    double s = a + b, ap = s - b, bp = s - ap;
    return (mufu_dd){s, (a - ap) + (b - bp)};
}

/* the same when |a| >= |b| or a == 0 (Dekker's Fast2Sum) */
static inline mufu_dd fast_two_sum(double a, double b)
{
    double s = a + b;
    return (mufu_dd){s, b - (s - a)};
}

/* p + e == a * b exactly; fma() is correctly rounded (hardware or glibc) */
static inline mufu_dd two_prod(double a, double b)
{
    double p = a * b;
    return (mufu_dd){p, fma(a, b, -p)};
}

/* AccurateDWPlusDW: relative error <= 3u^2 + 13u^3, even under cancellation */
static mufu_dd dd_add(mufu_dd x, mufu_dd y)
{
    mufu_dd s = two_sum(x.hi, y.hi), t = two_sum(x.lo, y.lo);
    mufu_dd v = fast_two_sum(s.hi, s.lo + t.hi);
    return fast_two_sum(v.hi, t.lo + v.lo);
}

/* DWTimesDW3: relative error <= 5u^2 */
static mufu_dd dd_mul(mufu_dd x, mufu_dd y)
{
    mufu_dd c = two_prod(x.hi, y.hi);
    double t = fma(x.hi, y.lo, x.lo * y.lo);
    return fast_two_sum(c.hi, c.lo + fma(x.lo, y.hi, t));
}

/* DWTimesFP3: relative error <= 2u^2 */
static mufu_dd dd_mul_d(mufu_dd x, double y)
{
    mufu_dd c = two_prod(x.hi, y);
    return fast_two_sum(c.hi, fma(x.lo, y, c.lo));
}

static inline mufu_dd dd_neg_if(mufu_dd x, int neg) { return neg ? (mufu_dd){-x.hi, -x.lo} : x; }

/* sum_{i<n} c[i] x^i, Horner in double-double; c[i] = +-MUFU_INV_FACT[k0 +
 * step*i] with alternating signs when alt (the Taylor series of exp, sin,
 * cos), or +-MUFU_INV_INT[k0 + i] likewise (log). */
static mufu_dd dd_horner(const mufu_dd *table, int k0, int step, int n, int alt, mufu_dd x)
{
    int last = n - 1;
    mufu_dd p = dd_neg_if(table[k0 + step * last], alt && (last & 1));
    for (int i = last - 1; i >= 0; i--)
        p = dd_add(dd_mul(p, x), dd_neg_if(table[k0 + step * i], alt && (i & 1)));
    return p;
}

/* ------------------------------------------------------------------ the rounding decision */

/* The value of F32 bit pattern b (b <= INF32), with INF32 standing for
 * 2^128, the next value of an unbounded exponent range: the midpoint
 * between it and the largest float is the overflow threshold. */
static inline double f32_at(uint32_t b)
{
    return b == INF32 ? 0x1p128 : (double)f32v(b);
}

/* Rounds yh + yl to F32 (nearest-even, gradual underflow, overflow to inf)
 * when that rounding is the same for every value within err of it, and
 * returns 1 with the bits in *out; else returns 0.
 *
 * The candidates are F = RN(|yh|) and its two neighbours; the boundaries
 * between them are the midpoints m (exact in double: sums of adjacent
 * floats, halved).  For each, D = (|yh| - m) + yl: when |yh| and m are
 * within a factor of 2 the subtraction is exact (Sterbenz), else (F = 0,
 * |yh| far below 2^-150) |D| is near m; either way |D - (v - m)| <=
 * 2^-51 |D| for v = |yh + yl|.  So |D| > 2 err gives |v - m| > err, and the
 * exact value lies on D's side of m. */
static int f32_decide(double yh, double yl, double err, uint32_t *out)
{
    uint32_t sign = 0;
    if (yh < 0) {
        yh = -yh;
        yl = -yl;
        sign = SIGN32;
    }
    uint32_t b = f32b((float)yh);
    double fv = f32_at(b), lim = 2 * err;
    double lo_mid = b == INF32 ? 0x1.ffffffp127 : (fv + (b ? f32_at(b - 1) : -0x1p-149)) / 2;
    double d_lo = (yh - lo_mid) + yl;
    if (b == INF32) {
        if (d_lo > lim || d_lo < -lim) {
            *out = sign | (d_lo > 0 ? INF32 : MAX32);
            return 1;
        }
        return 0;
    }
    double hi_mid = (fv + f32_at(b + 1)) / 2;
    double d_hi = (yh - hi_mid) + yl;
    if (d_hi > lim)
        b++;
    else if (d_lo < -lim)
        b--;
    else if (!(d_hi < -lim && d_lo > lim))
        return 0;
    *out = sign | b;
    return 1;
}

/* A value y of a function with a bound err on |y - exact|. */
typedef struct approx {
    mufu_dd y;
    double err;
} approx;

/* ------------------------------------------------------------------ EX2 */

/* 2^x = 2^e * 2^(j/64) * 2^r, |r| <= 2^-7, for x in (-150, 128).  k =
 * 64x rounded to an integer by adding and subtracting 1.5 * 2^52 (the
 * addition rounds to nearest; |64x| < 2^14 keeps it in the binade where
 * the double grid is the integers); r = x - k/64 is a multiple of x's ulp
 * below 2^-7: exact. */
typedef struct ex2_red {
    double r, scale; /* scale = 2^e, exact in double for e in [-150, 128] */
    unsigned j;
} ex2_red;

static ex2_red ex2_reduce(double x)
{
    double k = (x * 64 + 0x1.8p52) - 0x1.8p52;
    int ki = (int)k;
    unsigned j = (unsigned)ki & 63u;
    int e = (ki - (int)j) / 64;
    return (ex2_red){x - k * 0x1p-6, pow2(e), j};
}

/* Fast: T[j].hi * p(r), p the Taylor polynomial of degree 5.  With |r ln2|
 * <= 0.00542: truncation <= 0.00542^6/720 * 1.006 < 0.33u (relative, as
 * 2^r >= 0.9946); Horner gamma(10) * 1.011 < 10.2u; coefficients rounded
 * 0.01u; T[j].hi u; product u: about 12.6u < 2^-49.3.  Claimed: 2^-48. */
static approx ex2_fast(const ex2_red *red)
{
    const double *c = MUFU_EX2_C;
    double r = red->r;
    double p = c[0] + r * (c[1] + r * (c[2] + r * (c[3] + r * (c[4] + r * c[5]))));
    double y = MUFU_EX2_T[red->j].hi * p * red->scale;
    return (approx){{y, 0}, y * 0x1p-48};
}

/* Accurate: t = r ln2 (error 2u^2 + ln2's 2^-106), e^t by its Taylor
 * polynomial of degree 10 (truncation 0.00542^11/11! < 2^-108; Horner with
 * 2^-103 per step: 20 * 2^-103 * 1.011 < 2^-98.6), times T[j] (2^-106 and
 * 2^-103): below 2^-97.  Claimed: 2^-90. */
static approx ex2_accurate(const ex2_red *red)
{
    mufu_dd t = dd_mul_d(MUFU_LN2, red->r);
    mufu_dd y = dd_mul(MUFU_EX2_T[red->j], dd_horner(MUFU_INV_FACT, 0, 1, 11, 0, t));
    y.hi *= red->scale;
    y.lo *= red->scale;
    return (approx){y, y.hi * 0x1p-90};
}

/* ------------------------------------------------------------------ LG2 */

/* x = 2^e z with z in [0.69921875, 1.3984375), z = (1 + r) / invc with
 * invc from z's bin (of 128): z * invc is exact (24 + 22 bits) and within
 * 2^-7 of 1, so r is exact.  log2 x = e + logc + log2(1 + r), logc =
 * -log2(invc); the two bins beside 1 have invc = 1, logc = 0, so near
 * x = 1 there is no cancellation.  s = |e| + |logc| + |log2(1+r)| bounds
 * the magnitude of every partial sum: errors are stated relative to it. */
typedef struct lg2_red {
    double r, e;
    unsigned i;
} lg2_red;

/* Fast: log2(1+r) = r * q(r), q of degree 7 with |r| < 2^-7: truncation
 * < 2^-59 relative; Horner gamma(14) * 1.016 < 14.3u; coefficients 1.02u;
 * times r: u; so 16.4u of |log2(1+r)|; logc.hi u; the two sums u each of s:
 * below 19.4u s < 2^-48.7 s.  Claimed: 2^-46 s. */
static approx lg2_fast(const lg2_red *red)
{
    const double *a = MUFU_LG2_A;
    double r = red->r, lc = MUFU_LG2_LOGC[red->i].hi;
    double q = a[1] + r * (a[2] + r * (a[3] + r * (a[4] + r * (a[5] + r * (a[6] + r * (a[7] + r * a[8]))))));
    double pl = r * q;
    double y = (red->e + lc) + pl;
    double s = fabs(red->e) + fabs(lc) + fabs(pl);
    return (approx){{y, 0}, s * 0x1p-46};
}

/* Accurate: ln(1+r) = r * sum_{i<15} (-1)^i r^i / (i+1): truncation
 * 2^-105/16; Horner 28 * 2^-103 * 1.016 < 2^-98.1; times r and 1/ln2
 * (2^-103 each, 1/ln2's 2^-106); then two sums at 2^-103 of s: below
 * 2^-97 s.  Claimed: 2^-90 s. */
static approx lg2_accurate(const lg2_red *red)
{
    mufu_dd q = dd_horner(MUFU_INV_INT, 1, 1, 15, 1, (mufu_dd){red->r, 0});
    mufu_dd pl = dd_mul(dd_mul_d(q, red->r), MUFU_INV_LN2);
    mufu_dd y = dd_add(dd_add(MUFU_LG2_LOGC[red->i], pl), (mufu_dd){red->e, 0});
    double s = fabs(red->e) + fabs(MUFU_LG2_LOGC[red->i].hi) + fabs(pl.hi);
    return (approx){y, s * 0x1p-90};
}

/* ------------------------------------------------------------------ SIN, COS */

/* x = q pi/2 + t, |t| <= pi/4: t = f pi/2 when scaled, else t = f (x
 * itself); the double-double t of trig_t() has relative error <= rel. */
typedef struct trig_red {
    mufu_dd f;
    double rel;
    unsigned q;
    int scaled;
} trig_red;

static mufu_dd trig_t(const trig_red *red)
{
    return red->scaled ? dd_mul(red->f, MUFU_PI_2) : red->f;
}

/* leading zero bits of a non-zero v */
static inline int clz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(v);
#else
    int n = 0;
    for (; !(v >> 63); v <<= 1)
        n++;
    return n;
#endif
}

/* 64 bits of 2/pi starting after bit `pos` (bit 1 is the first after the
 * binary point). */
static uint64_t two_over_pi_bits(int pos)
{
    int w = pos / 32, s = pos % 32;
    uint64_t v = (uint64_t)MUFU_2_OVER_PI[w] << 32 | MUFU_2_OVER_PI[w + 1];
    return s ? v << s | MUFU_2_OVER_PI[w + 2] >> (32 - s) : v;
}

/* Payne-Hanek reduction of |x| = M 2^E > pi/4 (M < 2^24, E in [-24, 104]).
 * Writing 2/pi = sum b_k 2^-k, the bits b_k with k <= p = max(0, E - 2)
 * contribute multiples of 4 to x * 2/pi: nothing to q mod 4 nor to the
 * fraction.  The next 192 bits W give R = M W (216 bits, exact) with
 * x * 2/pi = R 2^(E-p-192) mod 4 up to the bits after W, which weigh less
 * than 2^(24+E-p-192) <= 2^-166.  The fraction, centred to [-1/2, 1/2]
 * (rounding q to nearest), has its leading 128 bits turned into a
 * double-double f (relative error < 2^-105), so |f - exact| <= 2^-166 +
 * 2^-105 |f|, and t = f * pi/2 (pi/2: 2^-106, product: 2^-103) has relative
 * error below 2^-102 + 2^-166/|f|.  The smallest |f| of any float is
 * 2^-29.9 (x = 0x6f79be45, found by running all of them), so rel stays
 * near 2^-101; it is computed rather than assumed. */
static trig_red trig_payne_hanek(uint32_t ax)
{
    typedef unsigned __int128 u128;
    uint64_t m = (ax & 0x7fffffu) | 0x800000u;
    int e = (int)(ax >> 23) - 150;
    int p = e > 2 ? e - 2 : 0;
    u128 p0 = (u128)m * two_over_pi_bits(p + 128), p1 = (u128)m * two_over_pi_bits(p + 64),
         p2 = (u128)m * two_over_pi_bits(p);
    /* R = hi 2^128 + lo */
    u128 lo = p0 + ((u128)(uint64_t)p1 << 64);
    u128 hi = (p1 >> 64) + p2 + (lo < p0);
    int point = 192 + p - e; /* bits at and above it are the integer part, in [190, 216] */
    unsigned q = (unsigned)(hi >> (point - 128)) & 3u;
    int s = 256 - point; /* the fraction, left-aligned: fhi 2^128 + flo = fraction * 2^256 */
    u128 fhi = hi << s | lo >> (128 - s), flo = lo << s;
    int neg = (int)(fhi >> 127);
    if (neg) { /* fraction >= 1/2: take 1 - fraction, one quadrant up */
        q++;
        flo = -flo;
        fhi = ~fhi + (flo == 0);
    }
    trig_red red = {{0, 0}, 1, q & 3u, 0};
    int lead = 0; /* leading zero bits of the 256 */
    if (fhi == 0) {
        fhi = flo;
        flo = 0;
        lead = 128;
    }
    if (fhi == 0) /* cannot happen (|f| > 2^-30 for every float); decides nothing */
        return red;
    uint64_t top = (uint64_t)(fhi >> 64);
    int z = top ? clz64(top) : 64 + clz64((uint64_t)fhi);
    if (z) {
        fhi = fhi << z | flo >> (128 - z);
        lead += z;
    }
    /* |f| = (fhi + ...) 2^(-128-lead): its top 53 bits exactly, the next 75
     * rounded (twice: < 2^-105 relative in all) */
    uint64_t a3 = (uint64_t)(fhi >> 64), a2 = (uint64_t)fhi;
    double fh = (double)(a3 >> 11) * pow2(-53 - lead);
    double fl = ((double)(a3 & 0x7ffu) * 0x1p64 + (double)a2) * pow2(-128 - lead);
    red.f = dd_neg_if(fast_two_sum(fh, fl), neg);
    red.rel = 0x1p-101 + 0x1p-165 / fh;
    red.scaled = 1;
    return red;
}

static trig_red trig_reduce(uint32_t x)
{
    uint32_t ax = x & ~SIGN32;
    trig_red red;
    if (ax <= 0x3f490fdau) /* the largest float below pi/4: nothing to reduce */
        red = (trig_red){{f32v(ax), 0}, 0, 0, 0};
    else
        red = trig_payne_hanek(ax);
    if (x & SIGN32) { /* -x = (-q) pi/2 + (-t) */
        red.f = dd_neg_if(red.f, 1);
        red.q = (4 - red.q) & 3u;
    }
    return red;
}

/* sin and cos of t (|t| <= pi/4 + tiny) are Taylor polynomials in u = t^2.
 * Fast sin: t * S(u), degree 17 in t: truncation t^18/19!/0.9 < 2^-62;
 * Horner gamma(16) * sinh(t)/t / (sin(t)/t) <= 16u * 1.106/0.9 < 19.7u;
 * coefficients 1.23u; u's rounding 0.115u; product u; t's own error
 * passes to sin(t) at most once: with t = f.hi * (pi/2).hi that is u for
 * f.lo, 0.35u for (pi/2).lo, u for the product, plus rel: in all about
 * 25.1u + rel < 2^-48.3 + rel.  Claimed: 2^-46 + 2 rel.
 * Fast cos: C(u), degree 16: truncation t^18/18!/0.707 < 2^-58; Horner
 * gamma(16) * cosh(t)/cos(t) < 30u; coefficients 1.9u; u's rounding 0.4u;
 * t's error passes at most t tan t <= 0.79 times: about 33.6u + rel.
 * Claimed: 2^-45 + 2 rel. */
static approx trig_fast(const trig_red *red, int use_cos)
{
    const mufu_dd *c = MUFU_INV_FACT;
    double t = red->scaled ? red->f.hi * MUFU_PI_2.hi : red->f.hi, u = t * t, y;
    if (use_cos)
        y = c[0].hi - u * (c[2].hi - u * (c[4].hi - u * (c[6].hi - u * (c[8].hi - u * (c[10].hi - u * (c[12].hi - u * (c[14].hi - u * c[16].hi)))))));
    else
        y = t * (c[1].hi - u * (c[3].hi - u * (c[5].hi - u * (c[7].hi - u * (c[9].hi - u * (c[11].hi - u * (c[13].hi - u * (c[15].hi - u * c[17].hi))))))));
    double eps = use_cos ? 0x1p-45 : 0x1p-46;
    return (approx){{y, 0}, fabs(y) * (eps + 2 * red->rel)};
}

/* Accurate: sin to degree 25 (truncation t^26/27!/0.9 < 2^-102), cos to
 * degree 26 (t^28/28!/0.707 < 2^-107), Horner in u = t^2 (double-double)
 * 28 * 2^-103 * 1.874 < 2^-97.3, the product by t 2^-103; t's error rel
 * passes at most once: below 2^-96 + rel.  Claimed: 2^-90 + 2 rel. */
static approx trig_accurate(const trig_red *red, int use_cos)
{
    mufu_dd t = trig_t(red), u = dd_mul(t, t), y;
    if (use_cos)
        y = dd_horner(MUFU_INV_FACT, 0, 2, 14, 1, u);
    else
        y = dd_mul(t, dd_horner(MUFU_INV_FACT, 1, 2, 13, 1, u));
    return (approx){y, fabs(y.hi) * (0x1p-90 + 2 * red->rel)};
}

/* ------------------------------------------------------------------ the Ziv driver */

typedef struct fn_args {
    int kind; /* 0 ex2, 1 lg2, 2 sin/cos */
    int use_cos, neg;
    union {
        ex2_red ex2;
        lg2_red lg2;
        trig_red trig;
    } u;
} fn_args;

static approx eval_fast(const fn_args *a)
{
    switch (a->kind) {
    case 0: return ex2_fast(&a->u.ex2);
    case 1: return lg2_fast(&a->u.lg2);
    default: return trig_fast(&a->u.trig, a->use_cos);
    }
}

static approx eval_accurate(const fn_args *a)
{
    switch (a->kind) {
    case 0: return ex2_accurate(&a->u.ex2);
    case 1: return lg2_accurate(&a->u.lg2);
    default: return trig_accurate(&a->u.trig, a->use_cos);
    }
}

/* The correctly rounded F32 result of the function described by a (the
 * sign of sin/cos applied afterwards when a->neg). */
static uint32_t ziv(const fn_args *a, mufu_op op, uint32_t x, int only_accurate)
{
    uint32_t bits;
    approx v;
    if (!only_accurate) {
        v = eval_fast(a);
        if (f32_decide(v.y.hi, v.y.lo, v.err, &bits))
            return bits ^ (a->neg ? SIGN32 : 0);
        MUFU_TRACE(op, x, 1);
    }
    v = eval_accurate(a);
    if (!f32_decide(v.y.hi, v.y.lo, v.err, &bits)) {
        MUFU_TRACE(op, x, 2);
        if (!f32_decide(v.y.hi, v.y.lo, 0, &bits))
            bits = f32b((float)v.y.hi);
    }
    (void)op; /* op and x serve only MUFU_TRACE */
    (void)x;
    return bits ^ (a->neg ? SIGN32 : 0);
}

static uint32_t mufu_ex2(uint32_t x, int only_accurate)
{
    if (fp_isnan(x, &FMT_F32))
        return NAN32;
    float xf = f32v(x);
    if (xf >= 128.0f) /* 2^x >= 2^128: beyond the overflow threshold; +inf too */
        return INF32;
    if (xf <= -150.0f) /* 2^x <= 2^-150, half the smallest subnormal: ties to 0 */
        return 0;
    fn_args a = {.kind = 0, .u.ex2 = ex2_reduce(xf)};
    if (a.u.ex2.r == 0 && a.u.ex2.j == 0) /* x an integer: 2^x exact, subnormal ones included */
        return f32b((float)a.u.ex2.scale);
    return ziv(&a, MUFU_EX2, x, only_accurate);
}

static uint32_t mufu_lg2(uint32_t x, int only_accurate)
{
    if (fp_isnan(x, &FMT_F32) || (x > SIGN32))
        return NAN32;
    if ((x & ~SIGN32) == 0)
        return SIGN32 | INF32;
    if (x == INF32)
        return INF32;
    int e = -127;
    uint32_t n = x;
    if (n < 0x00800000u) { /* subnormal: scale by 2^24, exactly */
        n = f32b(f32v(n) * 0x1p24f);
        e -= 24;
    }
    e += (int)(n >> 23);
    uint32_t zb = 0x3f800000u | (n & 0x7fffffu);
    if (zb == 0x3f800000u) /* a power of two: log2 is the integer e (+0 for 1) */
        return f32b((float)e);
    if (zb >= 0x3fb30000u) { /* z >= 1.3984375: use z/2 */
        zb -= 0x00800000u;
        e++;
    }
    unsigned i = (zb - 0x3f330000u) >> 16;
    fn_args a = {.kind = 1, .u.lg2 = {f32v(zb) * MUFU_LG2_INVC[i] - 1.0, e, i}};
    return ziv(&a, MUFU_LG2, x, only_accurate);
}

static uint32_t mufu_sincos(uint32_t x, int use_cos, int only_accurate)
{
    if ((x & ~SIGN32) >= INF32) /* NaN, +-inf */
        return NAN32;
    if ((x & ~SIGN32) == 0)
        return use_cos ? 0x3f800000u : x;
    fn_args a = {.kind = 2, .u.trig = trig_reduce(x)};
    /* cos x = sin(x + pi/2); quadrant n: sin t, cos t, -sin t, -cos t */
    unsigned n = (a.u.trig.q + (unsigned)use_cos) & 3u;
    a.use_cos = n & 1;
    a.neg = n >= 2;
    return ziv(&a, use_cos ? MUFU_COS : MUFU_SIN, x, only_accurate);
}

/* ------------------------------------------------------------------ RCP, RSQ */

/* 1/x in double is correctly rounded, and rounding it again to F32 is too:
 * a second rounding can only err when the double is a boundary m of the
 * F32 rounding (a midpoint, or the overflow threshold) that 1/x is not.
 * m = k 2^a with k < 2^25 and x = X 2^b with X < 2^24, so 1 - m x is a
 * non-zero multiple of 2^(a+b), and |1/x - m| >= 2^a / X > 2^-49 m, much
 * more than the 2^-53 m by which the double can miss 1/x. */
static uint32_t mufu_rcp(uint32_t x)
{
    if (fp_isnan(x, &FMT_F32))
        return NAN32;
    return f32b((float)(1.0 / (double)f32v(x)));
}

/* sign of m^2 x - 1 for positive finite doubles m, x with at most 25 and 53
 * significant bits, exactly: m = M 2^em, x = X 2^ex with M, X odd, and
 * M^2 X < 2^103 is compared with 2^-(2 em + ex). */
static int sq_times_cmp_one(double m, double x)
{
    int em, ex;
    uint64_t mi = (uint64_t)ldexp(frexp(m, &em), 53), xi = (uint64_t)ldexp(frexp(x, &ex), 53);
    em -= 53;
    ex -= 53;
    for (; !(mi & 1); mi >>= 1)
        em++;
    for (; !(xi & 1); xi >>= 1)
        ex++;
    typedef unsigned __int128 u128;
    int c = -(2 * em + ex);
    if (c < 0)
        return 1;
    if (c >= 128)
        return -1;
    u128 prod = (u128)(mi * mi) * xi, one = (u128)1 << c;
    return prod > one ? 1 : prod < one ? -1 : 0;
}

/* 1/sqrt(x) rounded to nearest-even with p fraction bits (23: F32, 20: the
 * F64 high word), for x > 0 with at most 24 significant bits.  The result
 * is normal in both formats (x in [2^-1042, 2^1024) gives (2^-512, 2^521]).
 * y = RN(1/RN(sqrt x)) is within 2u(1+u) of 1/sqrt x, i.e. within 2.01 units
 * of y's last place: when y's bits below the kept ones are more than 4
 * units from half, y rounds like the exact value (the next boundaries are
 * millions of units away).  Else the midpoint m decides, and m^2 x - 1,
 * computed exactly, says on which side of it 1/sqrt x lies; it is never 0
 * (m = k 2^a with k odd > 1, so m^2 x = k^2 X 2^(2a+b) is no power of two). */
static double rsq_round(double x, int p)
{
    double y = 1.0 / sqrt(x);
    uint64_t u = f64b(y), one = 1ull << (52 - p), half = one >> 1, low = u & (one - 1), base = u - low;
    int up;
    if (low > half + 4)
        up = 1;
    else if (low + 4 < half)
        up = 0;
    else {
        int c = sq_times_cmp_one(f64v(base | half), x);
        up = c < 0 || (c == 0 && (base & one)); /* above m when m^2 x < 1 */
    }
    return f64v(base + (up ? one : 0));
}

static uint32_t mufu_rsq(uint32_t x)
{
    if (fp_isnan(x, &FMT_F32) || (x > SIGN32))
        return NAN32;
    if ((x & ~SIGN32) == 0)
        return x | INF32; /* +-0 -> +-inf */
    if (x == INF32)
        return 0;
    return f32b((float)rsq_round((double)f32v(x), 23));
}

/* ------------------------------------------------------------------ RCP64H, RSQ64H */

/* The F64 high-word format G: 1 sign, 11 exponent, 20 fraction bits.
 * Rounding a double to G to nearest-even is rounding its bit pattern at
 * bit 32: the carry moves into the exponent (or from subnormal to normal,
 * or to infinity) as the value requires, since G's grid, subnormal
 * included, is the double grid at that bit. */
static uint32_t round_to_g(double d)
{
    uint64_t u = f64b(d);
    uint32_t hi = (uint32_t)(u >> 32), low = (uint32_t)u;
    return hi + (low > 0x80000000u || (low == 0x80000000u && (hi & 1)));
}


/* 1/X as RCP: the double 1/X is correctly rounded and the second rounding
 * to G is innocuous by the same argument (k < 2^22, X < 2^21: the
 * quotient misses every G midpoint by more than 2^-43 of it), also where
 * 1/X is a double subnormal: then |1/X - m| >= 2^-1043 / X21 >= 2^-1064,
 * above the double's half-quantum 2^-1075. */
static uint32_t mufu_rcp64h(uint32_t h, int ftz)
{
    if (fp_isnan(h, &FMT_F64H))
        return NAN64H;
    if (ftz)
        h = (uint32_t)fp_flush(h, &FMT_F64H);
    uint32_t r = round_to_g(1.0 / f64v((uint64_t)h << 32));
    return ftz ? (uint32_t)fp_flush(r, &FMT_F64H) : r;
}

static uint32_t mufu_rsq64h(uint32_t h, int ftz)
{
    if (fp_isnan(h, &FMT_F64H))
        return NAN64H;
    if (ftz)
        h = (uint32_t)fp_flush(h, &FMT_F64H);
    if (h > SIGN64H)
        return NAN64H;
    if ((h & ~SIGN64H) == 0)
        return h | INF64H;
    if (h == INF64H)
        return 0;
    return (uint32_t)(f64b(rsq_round(f64v((uint64_t)h << 32), 20)) >> 32);
}

/* ------------------------------------------------------------------ entry points */

static uint32_t eval(mufu_op op, uint32_t x, int ftz, int only_accurate)
{
    fp_use_rounding(FP_RN);
    /* This file is compiled without -frounding-math: reading x back from a
     * volatile keeps every computation on it after the mode switch. */
    volatile uint32_t after_switch = x;
    x = after_switch;
    if (op == MUFU_RCP64H)
        return mufu_rcp64h(x, ftz);
    if (op == MUFU_RSQ64H)
        return mufu_rsq64h(x, ftz);
    if (ftz)
        x = (uint32_t)fp_flush(x, &FMT_F32);
    uint32_t r;
    switch (op) {
    case MUFU_COS: r = mufu_sincos(x, 1, only_accurate); break;
    case MUFU_SIN: r = mufu_sincos(x, 0, only_accurate); break;
    case MUFU_EX2: r = mufu_ex2(x, only_accurate); break;
    case MUFU_LG2: r = mufu_lg2(x, only_accurate); break;
    case MUFU_RCP: r = mufu_rcp(x); break;
    case MUFU_RSQ: r = mufu_rsq(x); break;
    default: return NAN32;
    }
    return ftz ? (uint32_t)fp_flush(r, &FMT_F32) : r;
}

uint32_t mufu_eval(mufu_op op, uint32_t x, int ftz)
{
    return eval(op, x, ftz, 0);
}

uint32_t mufu_eval_accurate(mufu_op op, uint32_t x, int ftz)
{
    return eval(op, x, ftz, 1);
}
