/* The rounding module (sim/softfp) against an independent reference built
 * on GNU MPFR: each operation is computed exactly (precision large enough
 * for any operands of the format), then rounded once to the format by
 * code here that picks the rounding precision from the exponent (gradual
 * underflow) and applies IEEE overflow rules.  Results must match bit for
 * bit; any NaN matches any NaN.
 *
 * Inputs, each tried in all four modes (in a shifting order, so the mode
 * cache sees both switches and repeats): special values crossed with each
 * other (all pairs, all triples for FMA), then random inputs from several
 * generators: raw bit patterns; values with nearby exponents and few
 * significant bits (cancellations, ties); exact half-ulp partners (ties in
 * every binade, subnormals included); products aimed at the underflow and
 * overflow thresholds; FMAs that cancel the rounded product exactly. */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mpfr.h>

#include "sim/softfp.h"
#include "testlib.h"

#if MPFR_VERSION_MAJOR < 4
#error "test_softfp needs MPFR >= 4 (precision 1)"
#endif

enum { RANDOM_N = 40000 }; /* random input tuples per function (each in 4 modes) */
enum { MAX_PRINTED = 20 };

typedef struct fmt {
    const char *name;
    int ebits, mbits;
    long bias;
    mpfr_t exact; /* holds any exact result of the format's operations */
} fmt;

enum { F16, BF16, F32, F64 };
static fmt fmts[4] = {{.name = "f16", .ebits = 5, .mbits = 10},
                      {.name = "bf16", .ebits = 8, .mbits = 7},
                      {.name = "f32", .ebits = 8, .mbits = 23},
                      {.name = "f64", .ebits = 11, .mbits = 52}};
static mpfr_t A, B, C, R;

static const char *const mode_name[4] = {"RN", "RM", "RP", "RZ"};
static const mpfr_rnd_t mpfr_mode[4] = {MPFR_RNDN, MPFR_RNDD, MPFR_RNDU, MPFR_RNDZ};

static uint64_t f_sign(const fmt *f) { return 1ull << (f->ebits + f->mbits); }
static uint64_t f_inf(const fmt *f) { return ((1ull << f->ebits) - 1) << f->mbits; }
static uint64_t f_frac(const fmt *f) { return (1ull << f->mbits) - 1; }
static long f_maxbe(const fmt *f) { return (1L << f->ebits) - 2; } /* largest finite biased exponent */
static int f_is_nan(const fmt *f, uint64_t v) { return (v & ~f_sign(f)) > f_inf(f); }

static uint64_t mk(const fmt *f, int neg, long be, uint64_t frac)
{
    be = be < 0 ? 0 : be > f_maxbe(f) ? f_maxbe(f) : be;
    return (neg ? f_sign(f) : 0) | (uint64_t)be << f->mbits | (frac & f_frac(f));
}

static void setup(void)
{
    for (int i = 0; i < 4; i++) {
        fmt *f = &fmts[i];
        f->bias = (1L << (f->ebits - 1)) - 1;
        /* values are multiples of 2^(1-bias-m) below 2^(bias+1); a*b+c is a
         * multiple of the square below 2^(2bias+3): 4bias+2m+1 bits */
        mpfr_init2(f->exact, 4 * f->bias + 2 * f->mbits + 16);
    }
    mpfr_inits2(64, A, B, C, (mpfr_ptr)0);
    mpfr_init2(R, 64);
}

static void teardown(void)
{
    for (int i = 0; i < 4; i++)
        mpfr_clear(fmts[i].exact);
    mpfr_clears(A, B, C, R, (mpfr_ptr)0);
    mpfr_free_cache();
}

/* ------------------------------------------------------------------ reference */

static void decode(const fmt *f, uint64_t v, mpfr_t x)
{
    int neg = (v & f_sign(f)) != 0;
    long be = (long)((v >> f->mbits) & ((1u << f->ebits) - 1));
    uint64_t frac = v & f_frac(f);
    if (be == f_maxbe(f) + 1) {
        if (frac)
            mpfr_set_nan(x);
        else
            mpfr_set_inf(x, neg ? -1 : 1);
        return;
    }
    if (be == 0)
        mpfr_set_ui_2exp(x, frac, 1 - f->bias - f->mbits, MPFR_RNDN);
    else
        mpfr_set_ui_2exp(x, frac | 1ull << f->mbits, be - f->bias - f->mbits, MPFR_RNDN);
    if (neg)
        mpfr_neg(x, x, MPFR_RNDN);
}

/* The exact value t rounded once to format f in mode r, as bits. */
static uint64_t round_ref(const fmt *f, mpfr_t t, int r)
{
    uint64_t sign = mpfr_signbit(t) ? f_sign(f) : 0;
    int neg = sign != 0;
    if (mpfr_nan_p(t))
        return f_inf(f) | 1ull << (f->mbits - 1);
    if (mpfr_inf_p(t))
        return sign | f_inf(f);
    if (mpfr_zero_p(t))
        return sign;
    long emin = 1 - f->bias;                  /* exponent of the smallest normal */
    long e = (long)mpfr_get_exp(t) - 1;       /* 2^e <= |t| < 2^(e+1) */
    long q = (e > emin ? e : emin) - f->mbits; /* weight of the format's last bit at |t| */
    long prec = e - q + 1;
    if (prec < 1) { /* |t| < 2^q, the smallest subnormal: 0 or 2^q */
        int above_half = neg ? mpfr_cmp_si_2exp(t, -1, q - 1) < 0 : mpfr_cmp_ui_2exp(t, 1, q - 1) > 0;
        int up = r == FP_RN ? above_half : r == FP_RM ? neg : r == FP_RP ? !neg : 0;
        return sign | (uint64_t)up;
    }
    mpfr_set_prec(R, prec);
    mpfr_set(R, t, mpfr_mode[r]); /* the one rounding */
    long er = (long)mpfr_get_exp(R) - 1;
    if (er > f->bias) {
        int to_inf = r == FP_RN || (r == FP_RP && !neg) || (r == FP_RM && neg);
        return sign | (to_inf ? f_inf(f) : f_inf(f) - 1);
    }
    mpfr_abs(R, R, MPFR_RNDN);
    mpfr_mul_2si(R, R, f->mbits - (er > emin ? er : emin), MPFR_RNDN);
    uint64_t sig = mpfr_get_ui(R, MPFR_RNDN);
    if (er < emin)
        return sign | sig;
    return sign | (uint64_t)(er + f->bias) << f->mbits | (sig - (1ull << f->mbits));
}

enum kind { ADD, MUL, MULS, FMA, WIDEN, NARROW };

/* For MULS c is k; WIDEN's a is in `f`, result F64; NARROW's a is F64. */
static uint64_t reference(enum kind kind, fmt *f, uint64_t a, uint64_t b, uint64_t c, int r)
{
    mpfr_ptr t = f->exact;
    int inexact = 0;
    decode(kind == NARROW ? &fmts[F64] : f, a, A);
    if (kind != WIDEN && kind != NARROW)
        decode(f, b, B);
    switch (kind) {
    case ADD: inexact = mpfr_add(t, A, B, mpfr_mode[r]); break;
    case MUL: inexact = mpfr_mul(t, A, B, mpfr_mode[r]); break;
    case MULS:
        inexact = mpfr_mul(t, A, B, mpfr_mode[r]);
        inexact |= mpfr_mul_2si(t, t, (long)(int64_t)c, mpfr_mode[r]);
        break;
    case FMA:
        decode(f, c, C);
        inexact = mpfr_fma(t, A, B, C, mpfr_mode[r]);
        break;
    case WIDEN:
    case NARROW: inexact = mpfr_set(t, A, MPFR_RNDN); break;
    }
    if (inexact) {
        fprintf(stderr, "test_softfp: reference result not exact\n");
        abort();
    }
    return round_ref(kind == WIDEN ? &fmts[F64] : f, t, r);
}

/* ------------------------------------------------------------------ functions under test */

typedef uint64_t (*fn_t)(uint64_t a, uint64_t b, uint64_t c, fp_rnd r);
#define WRAP2(name, T)                                                                              \
    static uint64_t w_##name(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)                          \
    {                                                                                               \
        (void)c;                                                                                    \
        return name((T)a, (T)b, r);                                                                 \
    }
#define WRAP3(name, T)                                                                              \
    static uint64_t w_##name(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)                          \
    {                                                                                               \
        return name((T)a, (T)b, (T)c, r);                                                           \
    }
WRAP2(f32_add, uint32_t)
WRAP2(f32_mul, uint32_t)
WRAP3(f32_fma, uint32_t)
WRAP2(f64_add, uint64_t)
WRAP2(f64_mul, uint64_t)
WRAP3(f64_fma, uint64_t)
WRAP2(f16_add, uint16_t)
WRAP2(f16_mul, uint16_t)
WRAP3(f16_fma, uint16_t)
WRAP2(bf16_add, uint16_t)
WRAP2(bf16_mul, uint16_t)
WRAP3(bf16_fma, uint16_t)

static uint64_t w_f32_mul_scaled(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    return f32_mul_scaled((uint32_t)a, (uint32_t)b, (int)(int64_t)c, r);
}
static uint64_t w_f16_to_f64(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    (void)b;
    (void)c;
    (void)r;
    return f16_to_f64((uint16_t)a);
}
static uint64_t w_bf16_to_f64(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    (void)b;
    (void)c;
    (void)r;
    return bf16_to_f64((uint16_t)a);
}
static uint64_t w_f16_from_f64(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    (void)b;
    (void)c;
    return f16_from_f64(a, r);
}
static uint64_t w_bf16_from_f64(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    (void)b;
    (void)c;
    return bf16_from_f64(a, r);
}

typedef struct op {
    const char *name;
    enum kind kind;
    int fmt;
    fn_t fn;
} op;

static const op ops[] = {
    {"f32_add", ADD, F32, w_f32_add},     {"f32_mul", MUL, F32, w_f32_mul},
    {"f32_mul_scaled", MULS, F32, w_f32_mul_scaled},
    {"f32_fma", FMA, F32, w_f32_fma},     {"f64_add", ADD, F64, w_f64_add},
    {"f64_mul", MUL, F64, w_f64_mul},     {"f64_fma", FMA, F64, w_f64_fma},
    {"f16_add", ADD, F16, w_f16_add},     {"f16_mul", MUL, F16, w_f16_mul},
    {"f16_fma", FMA, F16, w_f16_fma},     {"bf16_add", ADD, BF16, w_bf16_add},
    {"bf16_mul", MUL, BF16, w_bf16_mul},  {"bf16_fma", FMA, BF16, w_bf16_fma},
    {"f16_from_f64", NARROW, F16, w_f16_from_f64}, {"bf16_from_f64", NARROW, BF16, w_bf16_from_f64},
};

static const op *find_op(enum kind kind, int fmt)
{
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i].kind == kind && ops[i].fmt == fmt)
            return &ops[i];
    abort();
}

static long long comparisons;
static int failures;

static void check1(const op *o, uint64_t a, uint64_t b, uint64_t c, int r)
{
    fmt *f = &fmts[o->fmt];
    uint64_t want = reference(o->kind, f, a, b, c, r);
    uint64_t got = o->fn(a, b, c, (fp_rnd)r);
    const fmt *rf = o->kind == WIDEN ? &fmts[F64] : f;
    int ok = f_is_nan(rf, want) ? f_is_nan(rf, got) : got == want;
    comparisons++;
    if (ok)
        test_passed++;
    else if (++failures <= MAX_PRINTED)
        CHECKF(ok, "%s(%#llx, %#llx, %#llx) %s: want %#llx got %#llx", o->name, (unsigned long long)a,
               (unsigned long long)b, (unsigned long long)c, mode_name[r], (unsigned long long)want,
               (unsigned long long)got);
    else
        test_failed++;
}

/* All four modes, starting at a rotating one: consecutive calls both
 * switch modes and repeat the last one. */
static void check(const op *o, uint64_t a, uint64_t b, uint64_t c)
{
    static unsigned start;
    start += 3;
    for (int i = 0; i < 4; i++)
        check1(o, a, b, c, (int)((start + (unsigned)i) & 3));
}

/* ------------------------------------------------------------------ inputs */

static uint64_t rng = 0x5eed5eed12345678u;
static uint64_t rnd64(void) /* splitmix64 */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static long rnd_range(long lo, long hi) { return lo + (long)(rnd64() % (uint64_t)(hi - lo + 1)); }

enum { MAX_SPECIALS = 80 };

/* ±0, the subnormal and normal boundaries, values around 1, halves of the
 * last place of 1 and of the largest finite value, roots of the underflow
 * and overflow thresholds, infinities, quiet and signalling NaNs. */
static int specials(const fmt *f, uint64_t *out, int with_all_nans)
{
    const int m = f->mbits;
    const long b = f->bias;
    const uint64_t one = (uint64_t)b << m, inf = f_inf(f), fm = f_frac(f), h = 1ull << (m - 1);
    const uint64_t pos[] = {
        0, 1, 2, 3, h, fm, fm + 1, fm + 2,                       /* subnormals, smallest normals */
        (uint64_t)(b - 2) << m, (uint64_t)(b - 1) << m, ((uint64_t)(b - 1) << m) | h, /* .25 .5 .75 */
        one - 1, one, one + 1, one | h, (uint64_t)(b + 1) << m, ((uint64_t)(b + 1) << m) | h,
        (uint64_t)(b - m - 1) << m,                               /* half ulp of 1 */
        (uint64_t)(2 * b - m - 1) << m, (uint64_t)(2 * b - m) << m, /* half ulp, ulp of the max */
        (uint64_t)(b + (1 - b - m) / 2) << m, ((uint64_t)(b + (1 - b - m) / 2) << m) | h,
        (uint64_t)(b + (b + 1) / 2) << m, ((uint64_t)(b + b / 2) << m) | fm,
        inf - 2, inf - 1, inf, inf | h, inf | 1, inf | h | 1, inf | (fm >> 1)};
    const int npos = (int)(sizeof pos / sizeof *pos), nnan = with_all_nans ? 4 : 1;
    int n = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < npos - 4 + nnan; i++)
            out[n++] = pos[i] | (s ? f_sign(f) : 0);
    return n;
}

/* A biased exponent, often at the subnormal or overflow boundary. */
static long g_anchor(const fmt *f)
{
    switch (rnd64() & 3) {
    case 0: return rnd_range(0, 2);
    case 1: return rnd_range(f_maxbe(f) - 2, f_maxbe(f));
    default: return rnd_range(0, f_maxbe(f));
    }
}

static long g_spread(const fmt *f)
{
    const long c[8] = {0, 1, 2, f->mbits / 2, f->mbits + 2, 2 * f->mbits + 4, 30, f_maxbe(f)};
    return c[rnd64() & 7];
}

/* A finite value with a biased exponent within `spread` of `anchor` and a
 * random number of trailing zero bits (few-bit values make exact products,
 * ties and cancellations common). */
static uint64_t g_near(const fmt *f, long anchor, long spread)
{
    long be = anchor + rnd_range(-spread, spread);
    uint64_t frac = rnd64() & f_frac(f);
    int tz = (int)rnd_range(0, f->mbits);
    return mk(f, (int)(rnd64() & 1), be, frac & ~((1ull << tz) - 1));
}

static uint64_t g_bits(const fmt *f)
{
    return rnd64() & (f_sign(f) * 2 - 1);
}

static uint64_t g_special(const fmt *f)
{
    uint64_t s[MAX_SPECIALS];
    int n = specials(f, s, 1);
    return s[rnd64() % (uint64_t)n];
}

/* b such that a + b is a tie (half the last place of a, or of the binade
 * below when b is negative and a a power of two) or just off one. */
static uint64_t g_tie_partner(const fmt *f, uint64_t a)
{
    const int m = f->mbits;
    long be = (long)((a >> m) & ((1u << f->ebits) - 1));
    if (be > f_maxbe(f))
        return g_bits(f);
    be = (be ? be : 1) - m - 1 - (long)(rnd64() & 1); /* biased exponent of the half ulp */
    uint64_t extra = (rnd64() & 3) ? 0 : (rnd64() & f_frac(f)) >> rnd_range(0, m);
    int neg = (int)(rnd64() & 1);
    if (be >= 1)
        return mk(f, neg, be, extra);
    long sh = be - 1 + m; /* the half ulp is 2^sh smallest subnormals */
    if (sh < 0)
        return g_bits(f);
    return (neg ? f_sign(f) : 0) | (1ull << sh) | (extra & ((1ull << sh) - 1));
}

/* Operands whose product's biased exponent is aimed near `target`. */
static void g_product(const fmt *f, long target, uint64_t *a, uint64_t *b)
{
    long ea = rnd_range(0, f_maxbe(f));
    *a = g_near(f, ea, 0);
    *b = g_near(f, target + f->bias - ea, 1);
}

static long g_target(const fmt *f)
{
    switch (rnd64() & 3) {
    case 0: return rnd_range(-f->mbits - 3, 3); /* underflow */
    case 1: return rnd_range(f_maxbe(f) - 3, f_maxbe(f) + 2); /* overflow */
    default: return rnd_range(-f->mbits - 3, f_maxbe(f) + 2);
    }
}

static void g_operands(const op *o, uint64_t *a, uint64_t *b, uint64_t *c)
{
    fmt *f = &fmts[o->fmt];
    *a = *b = *c = 0;
    if ((rnd64() & 7) == 0) { /* raw bit patterns */
        *a = g_bits(o->kind == NARROW ? &fmts[F64] : f), *b = g_bits(f), *c = g_bits(f);
        if (o->kind == MULS)
            *c = (uint64_t)(int64_t)rnd_range(-3, 3);
        return;
    }
    switch (o->kind) {
    case ADD: {
        long anchor = g_anchor(f);
        *a = (rnd64() & 15) ? g_near(f, anchor, 0) : g_special(f);
        switch (rnd64() & 7) {
        case 0: *b = g_tie_partner(f, *a); break;
        case 1: *b = g_tie_partner(f, *a); break;
        case 2: *b = (*a ^ f_sign(f)) + (uint64_t)rnd_range(-1, 1); break; /* cancellation */
        case 3: *b = g_special(f); break;
        default: *b = g_near(f, anchor, g_spread(f)); break;
        }
        break;
    }
    case MUL: g_product(f, g_target(f), a, b); break;
    case MULS: {
        long k = rnd_range(-3, 3);
        g_product(f, g_target(f) - k, a, b);
        *c = (uint64_t)(int64_t)k;
        break;
    }
    case FMA: {
        long t = g_target(f);
        g_product(f, t, a, b);
        switch (rnd64() & 7) {
        case 0: *c = g_special(f); break;
        case 1: /* cancel the rounded product: the result is its rounding error */
            *c = reference(MUL, f, *a, *b, 0, (int)(rnd64() & 3)) ^ f_sign(f);
            break;
        case 2: *c = g_tie_partner(f, reference(MUL, f, *a, *b, 0, FP_RN)); break;
        default: *c = g_near(f, t < 0 ? 0 : t, g_spread(f)); break;
        }
        break;
    }
    case NARROW: { /* doubles in and around the format's range */
        const fmt *d = &fmts[F64];
        long lo = d->bias + 1 - f->bias - f->mbits - 3, hi = d->bias + f->bias + 2;
        *a = (rnd64() & 7) ? g_near(d, rnd_range(lo, hi), 0) : g_special(d);
        if (rnd64() & 1) /* few significant bits: ties */
            *a &= ~((1ull << rnd_range(52 - f->mbits - 3, 52)) - 1);
        break;
    }
    case WIDEN: break;
    }
}

/* ------------------------------------------------------------------ tests */

static void test_specials(void)
{
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        const op *o = &ops[i];
        const fmt *f = &fmts[o->kind == NARROW ? F64 : o->fmt];
        uint64_t s[MAX_SPECIALS], t[MAX_SPECIALS];
        int n = specials(f, s, 1), nt = specials(f, t, 0);
        for (int x = 0; x < n; x++) {
            if (o->kind == NARROW) {
                check(o, s[x], 0, 0);
                continue;
            }
            for (int y = 0; y < n; y++) {
                if (o->kind == ADD || o->kind == MUL)
                    check(o, s[x], s[y], 0);
                else if (o->kind == MULS)
                    for (int k = -3; k <= 3; k++)
                        check(o, s[x], s[y], (uint64_t)(int64_t)k);
            }
            if (o->kind == FMA && x < nt)
                for (int y = 0; y < nt; y++)
                    for (int z = 0; z < nt; z++)
                        check(o, t[x], t[y], t[z]);
        }
    }
}

static void test_random(void)
{
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        const op *o = &ops[i];
        for (int n = 0; n < RANDOM_N; n++) {
            uint64_t a, b, c;
            g_operands(o, &a, &b, &c);
            check(o, a, b, c);
        }
    }
    /* f32_mul_scaled is exact for any k, not only the ISA's [-3, 3] */
    static const int ks[] = {-1000, -701, -700, -300, -150, -30, 30, 150, 300, 700, 701, 1000};
    for (int n = 0; n < RANDOM_N / 10; n++) {
        uint64_t a = g_bits(&fmts[F32]), b = g_bits(&fmts[F32]);
        check(find_op(MULS, F32), a, b, (uint64_t)(int64_t)ks[n % 12]);
    }
}

/* The double just at (d = 0), above (d = 1) or below (d = -1) the midpoint
 * between the 16-bit value v and its successor in magnitude. */
static uint64_t midpoint(fmt *f, uint64_t v, int d)
{
    mpfr_ptr t = fmts[F64].exact;
    decode(f, v, A);
    long emin = 1 - f->bias, e = mpfr_zero_p(A) ? emin : (long)mpfr_get_exp(A) - 1;
    long q = (e > emin ? e : emin) - f->mbits;
    int neg = (v & f_sign(f)) != 0;
    mpfr_set_si_2exp(B, neg ? -1 : 1, q - 1, MPFR_RNDN);
    mpfr_add(t, A, B, MPFR_RNDN);
    mpfr_set_si_2exp(B, neg ? -d : d, q - 30, MPFR_RNDN);
    mpfr_add(t, t, B, MPFR_RNDN);
    return round_ref(&fmts[F64], t, FP_RN); /* exact: at most 42 bits */
}

/* Every 16-bit value: widening, classification, narrowing of the doubles
 * at and around its upper midpoint; a few operations with every value as
 * one operand. */
static void test_exhaustive16(void)
{
    static const op widen16[2] = {{"f16_to_f64", WIDEN, F16, w_f16_to_f64}, {"bf16_to_f64", WIDEN, BF16, w_bf16_to_f64}};
    const int ids[2] = {F16, BF16};
    for (int k = 0; k < 2; k++) {
        fmt *f = &fmts[ids[k]];
        const op *add = find_op(ADD, ids[k]), *mul = find_op(MUL, ids[k]);
        const op *fma3 = find_op(FMA, ids[k]), *nar = find_op(NARROW, ids[k]);
        const uint64_t one = (uint64_t)f->bias << f->mbits;
        uint64_t partners[3] = {one | 1, (one - (2ull << f->mbits)) | 0x5, 0x3};
        int bad_class = 0;
        for (uint64_t v = 0; v < 65536; v++) {
            check1(&widen16[k], v, 0, 0, FP_RN);
            decode(f, v, A);
            int nan = k ? bf16_is_nan((uint16_t)v) : f16_is_nan((uint16_t)v);
            int sub = k ? bf16_is_subnormal((uint16_t)v) : f16_is_subnormal((uint16_t)v);
            int want_sub = mpfr_regular_p(A) && mpfr_get_exp(A) - 1 < 1 - f->bias;
            bad_class += nan != (mpfr_nan_p(A) != 0) || sub != want_sub;
            for (int p = 0; p < 3; p++) {
                check(add, v, partners[p], 0);
                check(mul, v, partners[p], 0);
            }
            check(fma3, v, partners[0], partners[1] ^ f_sign(f));
            if (!f_is_nan(f, v) && (v & ~f_sign(f)) != f_inf(f))
                for (int d = -1; d <= 1; d++)
                    check(nar, midpoint(f, v, d), 0, 0);
        }
        CHECKF(bad_class == 0, "%s: %d values misclassified", f->name, bad_class);
    }
}

static void test_classify_wide(void)
{
    int bad = 0;
    for (int n = 0; n < 200000; n++) {
        uint64_t x = rnd64();
        if (n & 1) /* exponent field all zeros or all ones half the time */
            x = (n & 2) ? x & 0x800fffffffffffffu : x | 0x7ff0000000000000u;
        uint32_t y = (uint32_t)x;
        if ((n & 4) == 0)
            y = (n & 8) ? y & 0x807fffffu : y | 0x7f800000u;
        decode(&fmts[F64], x, A);
        decode(&fmts[F32], y, B);
        bad += f64_is_nan(x) != (mpfr_nan_p(A) != 0) || f32_is_nan(y) != (mpfr_nan_p(B) != 0);
        bad += f64_is_subnormal(x) != (mpfr_regular_p(A) && mpfr_get_exp(A) - 1 < -1022);
        bad += f32_is_subnormal(y) != (mpfr_regular_p(B) && mpfr_get_exp(B) - 1 < -126);
    }
    CHECKF(bad == 0, "%d f32/f64 values misclassified", bad);
}

/* The cached mode must follow every change, including the one made by
 * fp_restore_host_rounding(); the 16-bit operations leave it alone. */
static void test_mode_cache(void)
{
    /* results differ between modes: 1 + 3/8 ulp, -1 - 5/8 ulp, ... */
    const uint32_t fa[4] = {0x3f800000, 0xbf800000, 0x3f800001, 0x00000003};
    const uint32_t fb[4] = {0x33c00000, 0xb4200000, 0xb3400000, 0x3f000000};
    for (int n = 0; n < 4000; n++) {
        int r = (int)(rnd64() & 3), i = n & 3;
        check1(find_op((rnd64() & 1) ? ADD : MUL, F32), fa[i], fb[i], 0, r);
        if ((n & 7) == 0)
            fp_restore_host_rounding();
        if ((n & 7) == 3)
            check1(find_op(ADD, F64), 0x3ff0000000000000u, 0x3ca8000000000000u ^ ((uint64_t)i << 63), 0, r); /* f64_add */
    }
    f32_add(0x3f800000, 0x33c00000, FP_RZ);
    CHECK(fegetround() == FE_TOWARDZERO);
    f16_fma(0x3c01, 0x3c01, 0x8001, FP_RP);
    bf16_add(0x3f81, 0x3b00, FP_RN);
    CHECK(fegetround() == FE_TOWARDZERO);
    fp_restore_host_rounding();
    CHECK(fegetround() == FE_TONEAREST);
    CHECK(f32_add(0x3f800000, 0x33c00000, FP_RZ) == 0x3f800000); /* not skipped as "already RZ" */
    CHECK(fegetround() == FE_TOWARDZERO);
    fp_restore_host_rounding();
}

/* The 32-lane kernels (softfp_lanes.c, vectorised) against the scalar
 * functions checked above with MPFR: same bits (any NaN for any NaN) in every
 * mode, on special values mixed with random patterns. */
static uint64_t lane_seed = 0x243F6A8885A308D3u;
static uint64_t lane_rand(void)
{
    lane_seed += 0x9E3779B97F4A7C15u;
    uint64_t z = lane_seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int same_bits(uint64_t x, uint64_t y, int is64)
{
    if (is64)
        return x == y || (f64_is_nan(x) && f64_is_nan(y));
    return x == y || (f32_is_nan((uint32_t)x) && f32_is_nan((uint32_t)y));
}

static void test_lanes(void)
{
    static const uint32_t sp32[] = {0, 0x80000000u, 1, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u,
                                    0xff800000u, 0x7f800000u, 0x7fc00001u, 0x7f800001u, 0x33800000u};
    static const uint64_t sp64[] = {0, 0x8000000000000000u, 1, 0x000fffffffffffffu, 0x0010000000000000u,
                                    0x7fefffffffffffffu, 0x3ff0000000000000u, 0xfff0000000000000u,
                                    0x7ff8000000000001u, 0x3ca0000000000000u};
    long bad = 0;
    for (int iter = 0; iter < 2000; iter++) {
        fp_rnd r = (fp_rnd)(iter & 3);
        uint32_t a[32], b[32], c[32], d[32];
        uint64_t A[32], B[32], C[32], D[32];
        for (int l = 0; l < 32; l++) {
            uint64_t x = lane_rand();
            a[l] = x % 5 == 0 ? sp32[x % 12] : (uint32_t)lane_rand();
            b[l] = x % 7 == 0 ? sp32[(x >> 8) % 12] : (uint32_t)lane_rand();
            c[l] = x % 3 == 0 ? (a[l] ^ 0x80000000u) : (uint32_t)lane_rand(); /* cancellations */
            A[l] = x % 5 == 0 ? sp64[x % 10] : lane_rand();
            B[l] = x % 7 == 0 ? sp64[(x >> 8) % 10] : lane_rand();
            C[l] = x % 3 == 0 ? (A[l] ^ 0x8000000000000000u) : lane_rand();
        }
        int k = (int)(iter % 7) - 3;
        f32_add_lanes(d, a, b, r);
        for (int l = 0; l < 32; l++)
            bad += !same_bits(d[l], f32_add(a[l], b[l], r), 0);
        f32_mul_lanes(d, a, b, k, r);
        for (int l = 0; l < 32; l++)
            bad += !same_bits(d[l], k ? f32_mul_scaled(a[l], b[l], k, r) : f32_mul(a[l], b[l], r), 0);
        f32_fma_lanes(d, a, b, c, r);
        for (int l = 0; l < 32; l++)
            bad += !same_bits(d[l], f32_fma(a[l], b[l], c[l], r), 0);
        f64_add_lanes(D, A, B, r);
        for (int l = 0; l < 32; l++)
            bad += !same_bits(D[l], f64_add(A[l], B[l], r), 1);
        f64_mul_lanes(D, A, B, r);
        for (int l = 0; l < 32; l++)
            bad += !same_bits(D[l], f64_mul(A[l], B[l], r), 1);
        f64_fma_lanes(D, A, B, C, r);
        for (int l = 0; l < 32; l++)
            bad += !same_bits(D[l], f64_fma(A[l], B[l], C[l], r), 1);
    }
    CHECKF(bad == 0, "%ld lane results differ from the scalar functions", bad);
    comparisons += 2000 * 32 * 6;
}

int main(void)
{
    clock_t t0 = clock();
    setup();
    test_mode_cache();
    test_specials();
    test_random();
    test_exhaustive16();
    test_classify_wide();
    test_lanes();
    teardown();
    fp_restore_host_rounding();
    if (failures > MAX_PRINTED)
        fprintf(stderr, "... %d failures in all\n", failures);
    printf("%lld comparisons with MPFR in %.1f s\n", comparisons, (double)(clock() - t0) / CLOCKS_PER_SEC);
    return test_summary();
}
