/* Floating-point test support, shared by the tests that compare results
 * bit for bit with GNU MPFR (test_softfp, test_mufu, test_sim_fp16/fp32/fp64)
 * and by test_sim_fermi (formats, inputs, comparisons). Header-only: each
 * test states only what is specific to it.
 *
 *  1. formats: F16, BF16, F32, F64 and F64H (the high word of an F64: 1 sign,
 *     11 exponent, 20 fraction bits), exact conversions to and from double;
 *  2. the MPFR reference: the operation at the format's precision in the
 *     default (wide) exponent range gives the one correctly rounded
 *     significand and its ternary value; mpfr_check_range +
 *     mpfr_subnormalize in the format's exponent range then apply overflow
 *     and gradual underflow without a second rounding (ref_finish); add,
 *     mul (Ra scaled exactly by 2^k first), fma, conversions, comparisons
 *     through exact doubles, min/max;
 *  3. tallies: every comparison with the reference counted per function or
 *     instruction (FP_CHECK); the first mismatches are printed
 *     (GISA_FP_VERBOSE=1: all);
 *  4. inputs (tg_rng): special values, crossed, and random tuples aimed at
 *     ties, cancellations, exact products, underflow and overflow;
 *  5. the simulator's floating-point instructions (FALU, DALU, HALU): a
 *     reference of their semantics and a batch driver that runs them
 *     through the public API (gisa_assemble + gisa_sim_run) and compares
 *     every lane.
 *
 * The instruction reference (5) is written from ../shared/SPEC-RULINGS.md
 * ("Floating point") and the __Semantics of falu/dalu/halu.isa.txt, not
 * from the simulator:
 *  - operand modifiers on the bit pattern, |x| first then -x (NaNs too);
 *  - .FTZ flushes every input to a signed zero first, and a subnormal
 *    result after rounding;
 *  - add/mul/fma rounded by (2); FMUL's .D2...M8 scale Ra exactly before
 *    the product;
 *  - .SAT: NaN -> +0, clamp to [+0, 1.0], -0 -> +0; .RELU: negative, -inf,
 *    -0 -> +0; NaN results -> 0x7FFFFFFF (F32) / 0x7FFF (F16, BF16 lanes);
 *    F64: the first NaN input (SrcB, SrcC, Ra) made quiet, or
 *    0x7FFFFFFFFFFFFFFF for an invalid operation;
 *  - min/max: pp true = min, +0 > -0, one NaN -> the other operand, two
 *    NaNs (or .NAN with any) -> the canonical NaN (F64: quiet SrcB);
 *  - comparisons through exact doubles; pu = t lop pp, pv = !t lop pp
 *    (HSETP2: lane 0 -> pu, lane 1 -> pv).
 *
 * Driver: a program holds several instructions that read the same inputs
 * (R0..R7, P0..P6, UR0..UR15, c[0x0][0x0..0x1FC]) and write distinct
 * outputs (R8 and up, P0..P5). Every lane of every warp gets its own
 * inputs; one gisa_sim_run; then every output of every lane is compared
 * with the reference computed from the inputs.
 *
 * A test that includes this header must itself contain `#include <mpfr.h>`
 * (CMakeLists.txt links MPFR to the tests that do). */
#ifndef GISA_TEST_FPREF_H
#define GISA_TEST_FPREF_H

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpfr.h>

#include "testlib.h"

#if MPFR_VERSION_MAJOR < 4
#error "the floating-point reference needs MPFR >= 4"
#endif

/* ================================================================ formats */

enum { F16, BF16, F32, F64, F64H, NFMT };

typedef struct fpf {
    const char *name;
    int bits, ebits, mbits, bias;
    mpfr_exp_t emin, emax; /* MPFR's range for the format: x = m 2^e, 1/2 <= m < 1 */
} fpf;

/* emin = 2 - bias - mbits (the smallest subnormal is 2^(emin-1)), emax = bias + 1 */
static const fpf FMT[NFMT] = {
    {"F16", 16, 5, 10, 15, -23, 16},
    {"BF16", 16, 8, 7, 127, -132, 128},
    {"F32", 32, 8, 23, 127, -148, 128},
    {"F64", 64, 11, 52, 1023, -1073, 1024},
    {"F64H", 32, 11, 20, 1023, -1041, 1024}, /* the high word of an F64 (MUFU.RCP64H, RSQ64H) */
};

static inline uint64_t f_sign(const fpf *f) { return 1ull << (f->bits - 1); }
static inline uint64_t f_mask(const fpf *f) { return f->bits == 64 ? ~0ull : (1ull << f->bits) - 1; }
static inline uint64_t f_frac(const fpf *f) { return (1ull << f->mbits) - 1; }
static inline uint64_t f_inf(const fpf *f) { return ((1ull << f->ebits) - 1) << f->mbits; }
static inline uint64_t f_one(const fpf *f) { return (uint64_t)f->bias << f->mbits; }
static inline uint64_t f_qbit(const fpf *f) { return 1ull << (f->mbits - 1); }
static inline uint64_t f_canon(const fpf *f) { return f_sign(f) - 1; } /* 0x7FFF, 0x7FFFFFFF, 0x7FF..F */
static inline long f_maxbe(const fpf *f) { return (1L << f->ebits) - 2; }
static inline int f_isnan(const fpf *f, uint64_t v) { return (v & ~f_sign(f)) > f_inf(f); }
static inline int f_issub(const fpf *f, uint64_t v) { return !(v & f_inf(f)) && (v & f_frac(f)); }
static inline uint64_t f_flush(const fpf *f, uint64_t v) { return f_issub(f, v) ? v & f_sign(f) : v; }
static inline uint64_t f_decorate(const fpf *f, uint64_t v, int abs, int neg)
{
    if (abs)
        v &= ~f_sign(f);
    if (neg)
        v ^= f_sign(f);
    return v;
}

/* Every value of the formats is a double: exact conversions. They hold in
 * any host rounding mode (softfp and the simulator leave it changed): the
 * integers go through int64_t, whose conversion to double is one exact
 * instruction (clang converts a uint64_t with a subtraction that gives -0
 * for 0 when rounding down). */
static inline double f_to_double_slow(const fpf *f, uint64_t v)
{
    double d;
    if (f->bits == 64) {
        memcpy(&d, &v, sizeof d);
        return d;
    }
    uint64_t e = (v >> f->mbits) & ((1u << f->ebits) - 1), m = v & f_frac(f);
    if (e == (1u << f->ebits) - 1)
        d = m ? NAN : INFINITY;
    else if (e == 0)
        d = ldexp((double)(int64_t)m, 1 - f->bias - f->mbits);
    else
        d = ldexp((double)(int64_t)(m | 1ull << f->mbits), (int)e - f->bias - f->mbits);
    return (v & f_sign(f)) ? -d : d;
}

static double *f16_table[2]; /* every F16 / BF16 value as a double */

static inline double f_to_double(const fpf *f, uint64_t v)
{
    if (f->bits != 16)
        return f_to_double_slow(f, v);
    int k = f->mbits == 7;
    if (!f16_table[k]) {
        f16_table[k] = malloc(65536 * sizeof(double));
        for (uint64_t i = 0; i < 65536; i++)
            f16_table[k][i] = f_to_double_slow(f, i);
    }
    return f16_table[k][v & 0xFFFF];
}

static inline uint64_t f_from_double(const fpf *f, double d)
{
    uint64_t v;
    if (f->bits == 64) {
        memcpy(&v, &d, sizeof v);
        return v;
    }
    uint64_t s = signbit(d) ? f_sign(f) : 0;
    double a = fabs(d), m;
    if (isinf(a))
        return s | f_inf(f);
    if (a == 0)
        return s;
    int e;
    frexp(a, &e);
    e -= 1; /* 2^e <= a < 2^(e+1) */
    if (e < 1 - f->bias) {
        m = ldexp(a, f->bias - 1 + f->mbits);
        v = s | (uint64_t)(int64_t)m;
    } else {
        m = ldexp(a, f->mbits - e);
        v = s | (uint64_t)(e + f->bias) << f->mbits | ((uint64_t)(int64_t)m - (1ull << f->mbits));
    }
    if ((double)(int64_t)m != m || e > f->bias) { /* m < 2^53 */
        fprintf(stderr, "fpref: %a is not a %s value\n", d, f->name);
        abort();
    }
    return v;
}

/* ================================================================ reference */

enum { RN, RM, RP, RZ };
static const char *const RND_NAME[4] = {"RN", "RM", "RP", "RZ"};
static const mpfr_rnd_t RND_MPFR[4] = {MPFR_RNDN, MPFR_RNDD, MPFR_RNDU, MPFR_RNDZ};

/* the operations of ref_round_op, and the instruction kinds of section 5 */
enum { OP_ADD, OP_MUL, OP_FMA, OP_MNMX, OP_SETP, OP_SET, OP_SEL, OP_CHK, OP_COUNT };

/* The 14 comparisons: the result for a < b, a == b, a > b, unordered. */
typedef struct fcmp {
    const char *name;
    int lt, eq, gt, un;
} fcmp;
enum { NCMP = 14 };
static const fcmp FCMP[NCMP] = {
    {"EQ", 0, 1, 0, 0},  {"NE", 1, 0, 1, 0},  {"LT", 1, 0, 0, 0},  {"LE", 1, 1, 0, 0},  {"GT", 0, 0, 1, 0},
    {"GE", 0, 1, 1, 0},  {"EQU", 0, 1, 0, 1}, {"NEU", 1, 0, 1, 1}, {"LTU", 1, 0, 0, 1}, {"LEU", 1, 1, 0, 1},
    {"GTU", 0, 0, 1, 1}, {"GEU", 0, 1, 1, 1}, {"NAN", 0, 0, 0, 1}, {"NUM", 1, 1, 1, 0},
};
static inline int find_cmp(const char *name)
{
    for (int i = 0; i < NCMP; i++)
        if (!strcmp(FCMP[i].name, name))
            return i;
    abort();
}

static mpfr_t ref_a[NFMT], ref_b[NFMT], ref_c[NFMT], ref_r[NFMT]; /* per format, at its precision */

static inline void ref_init(void)
{
    for (int i = 0; i < NFMT; i++)
        mpfr_inits2(FMT[i].mbits + 1, ref_a[i], ref_b[i], ref_c[i], ref_r[i], (mpfr_ptr)0);
}

static inline void ref_free(void)
{
    for (int i = 0; i < NFMT; i++)
        mpfr_clears(ref_a[i], ref_b[i], ref_c[i], ref_r[i], (mpfr_ptr)0);
    mpfr_free_cache();
    for (int i = 0; i < 2; i++) {
        free(f16_table[i]);
        f16_table[i] = NULL;
    }
}

/* x: a result rounded at format fi's precision in mode rnd, in the default
 * exponent range, with ternary value t. Returns it as the format's bits
 * after overflow and gradual underflow (no second rounding); NaN gives the
 * canonical NaN. */
static inline uint64_t ref_finish(int fi, mpfr_ptr x, int t, int rnd)
{
    const fpf *f = &FMT[fi];
    if (mpfr_nan_p(x))
        return f_canon(f);
    /* a result well inside the normal range needs neither step below */
    if (mpfr_regular_p(x) && mpfr_get_exp(x) > f->emin + f->mbits + 2 && mpfr_get_exp(x) < f->emax)
        return f_from_double(f, mpfr_get_d(x, MPFR_RNDN));
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(f->emin);
    mpfr_set_emax(f->emax);
    t = mpfr_check_range(x, t, RND_MPFR[rnd]);
    mpfr_subnormalize(x, t, RND_MPFR[rnd]);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return f_from_double(f, mpfr_get_d(x, MPFR_RNDN));
}

/* a + b, a * 2^k * b or a * b + c (non-NaN inputs) rounded once to the
 * format in mode rnd. *invalid is set (and the canonical NaN returned) for
 * inf - inf, 0 * inf. */
static inline uint64_t ref_round_op(int fi, int op, uint64_t a, uint64_t b, uint64_t c, int k, int rnd, int *invalid)
{
    const fpf *f = &FMT[fi];
    mpfr_rnd_t r = RND_MPFR[rnd];
    int t;
    mpfr_set_d(ref_a[fi], f_to_double(f, a), MPFR_RNDN);
    mpfr_set_d(ref_b[fi], f_to_double(f, b), MPFR_RNDN);
    if (op == OP_ADD) {
        t = mpfr_add(ref_r[fi], ref_a[fi], ref_b[fi], r);
    } else if (op == OP_MUL) {
        mpfr_mul_2si(ref_a[fi], ref_a[fi], k, MPFR_RNDN); /* exact: wide exponent range */
        t = mpfr_mul(ref_r[fi], ref_a[fi], ref_b[fi], r);
    } else {
        mpfr_set_d(ref_c[fi], f_to_double(f, c), MPFR_RNDN);
        t = mpfr_fma(ref_r[fi], ref_a[fi], ref_b[fi], ref_c[fi], r);
    }
    *invalid = mpfr_nan_p(ref_r[fi]) != 0;
    return ref_finish(fi, ref_r[fi], t, rnd);
}

/* The double d (any value, NaN: the canonical NaN) rounded to format fi in
 * mode rnd. */
static inline uint64_t ref_convert(int fi, double d, int rnd)
{
    int t = mpfr_set_d(ref_r[fi], d, RND_MPFR[rnd]);
    return ref_finish(fi, ref_r[fi], t, rnd);
}

static inline int ref_compare(const fpf *f, int cmp, uint64_t a, uint64_t b)
{
    const fcmp *c = &FCMP[cmp];
    if (f_isnan(f, a) || f_isnan(f, b))
        return c->un;
    double x = f_to_double(f, a), y = f_to_double(f, b);
    return x < y ? c->lt : x > y ? c->gt : c->eq;
}

/* min (want_min) or max of two non-NaN values; -0 < +0 */
static inline uint64_t ref_minmax(const fpf *f, uint64_t a, uint64_t b, int want_min)
{
    double x = f_to_double(f, a), y = f_to_double(f, b);
    int a_less = x < y || (x == y && (a & f_sign(f)) && !(b & f_sign(f)));
    return want_min ? (a_less ? a : b) : (a_less ? b : a);
}

/* ================================================================ tallies */

/* Comparisons with the reference, per function or instruction. */
typedef struct fp_tally {
    char name[16];
    long long compared, failed;
} fp_tally;

static fp_tally fp_tallies[48];
static int fp_ntallies, fp_shown;
static long long fp_total;
static int fp_max_shown = 30; /* GISA_FP_VERBOSE=1: no caps */

static inline fp_tally *fp_tally_for(const char *name)
{
    for (int i = 0; i < fp_ntallies; i++)
        if (!strcmp(fp_tallies[i].name, name))
            return &fp_tallies[i];
    if (fp_ntallies == (int)(sizeof fp_tallies / sizeof *fp_tallies))
        abort();
    fp_tally *t = &fp_tallies[fp_ntallies++];
    snprintf(t->name, sizeof t->name, "%s", name);
    return t;
}

/* Counts n comparisons that all held (ok) or one mismatch; returns ok. */
static inline int fp_count(fp_tally *t, long long n, int ok)
{
    if (ok) {
        t->compared += n;
        fp_total += n;
        test_passed += (int)n;
    } else {
        t->compared++;
        fp_total++;
        t->failed++;
        test_failed++;
    }
    return ok;
}

/* Prints a mismatch (one line, or several) while fewer than fp_max_shown
 * were printed; returns whether it did. */
__attribute__((format(printf, 1, 2))) static inline int fp_show(const char *fmt, ...)
{
    if (fp_shown >= fp_max_shown)
        return 0;
    fp_shown++;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* One comparison: counted in tally t; on a mismatch the printf arguments
 * describe it. Evaluates to ok. */
#define FP_CHECK(t, ok, ...) (fp_count((t), 1, (ok)) || (fp_show(__VA_ARGS__), 0))

static inline void fp_setup(void)
{
    const char *v = getenv("GISA_FP_VERBOSE");
    if (v && *v && *v != '0')
        fp_max_shown = 1 << 30;
    ref_init();
}

/* "what: N comparisons ..." and a line per tally. */
static inline void fp_print_tallies(const char *what, double seconds)
{
    printf("%s: %lld comparisons in %.2f s\n", what, fp_total, seconds);
    for (int i = 0; i < fp_ntallies; i++)
        printf("  %-14s %10lld compared, %lld mismatched\n", fp_tallies[i].name, fp_tallies[i].compared,
               fp_tallies[i].failed);
    if (fp_shown >= fp_max_shown)
        fprintf(stderr, "(only the first %d mismatches are shown; GISA_FP_VERBOSE=1 shows all)\n", fp_max_shown);
}

static inline double fp_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ================================================================ inputs */

static tg_rng fp_rng = {0x243F6A8885A308D3u};
static inline long rnd_range(long lo, long hi) { return (long)tg_range(&fp_rng, lo, hi); }

static inline uint64_t f_mk(const fpf *f, int neg, long be, uint64_t frac)
{
    be = be < 0 ? 0 : be > f_maxbe(f) ? f_maxbe(f) : be;
    return (neg ? f_sign(f) : 0) | (uint64_t)be << f->mbits | (frac & f_frac(f));
}

enum { MAX_SPECIALS = 80 };

/* Which special values: all; all but the NaNs beyond one quiet NaN per sign
 * (for triples of every value); or a few (for triples run in the simulator). */
enum { SP_ALL, SP_ONE_NAN, SP_FEW };

/* Signed special values: zeros, subnormal and normal boundaries, values
 * around 1, half the last place of 1 and of the largest values, square
 * roots of the underflow and overflow thresholds, the largest values,
 * infinities, quiet and signalling NaNs with payloads. */
static inline int f_specials_make(const fpf *f, uint64_t *out, int set)
{
    const int m = f->mbits;
    const long b = f->bias;
    const uint64_t one = f_one(f), inf = f_inf(f), fm = f_frac(f), h = f_qbit(f);
    const uint64_t rt_sub = (uint64_t)(b + (1 - b - m) / 2) << m;
    const uint64_t all[] = {
        0, 1, 2, 3, h, fm,                                                   /* zero; subnormals */
        fm + 1, fm + 2,                                                      /* the smallest normals */
        (uint64_t)(b - 2) << m, (uint64_t)(b - 1) << m, ((uint64_t)(b - 1) << m) | h, /* 0.25, 0.5, 0.75 */
        one - 1, one, one + 1, one | h, (uint64_t)(b + 1) << m, ((uint64_t)(b + 1) << m) | h, /* 1 - ulp .. 3 */
        (uint64_t)(b - m - 1) << m,                                          /* half the last place of 1 */
        (uint64_t)(2 * b - m - 1) << m, (uint64_t)(2 * b - m) << m,          /* half ulp, ulp of the largest */
        rt_sub, rt_sub | h,                                                  /* about sqrt(smallest subnormal) */
        (uint64_t)(b + (b + 1) / 2) << m, ((uint64_t)(b + b / 2) << m) | fm, /* about sqrt(overflow threshold) */
        (uint64_t)(2 * b) << m, inf - 2, inf - 1,                            /* largest power of 2; largest values */
        inf,                                                                 /* infinity */
        inf | h, inf | h | 1, inf | 1, inf | (fm >> 1), inf | fm};           /* quiet, signalling, all-ones NaNs */
    const uint64_t few[] = {0, 1, fm, fm + 1, (uint64_t)(b - m - 1) << m, one, one + 1, one | h, inf - 1, inf};
    const int nall = (int)(sizeof all / sizeof *all), nnan = 5;
    const uint64_t *src = set == SP_FEW ? few : all;
    int n = 0, ns = set == SP_FEW ? (int)(sizeof few / sizeof *few) : set == SP_ONE_NAN ? nall - nnan + 1 : nall;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < ns; i++)
            out[n++] = src[i] | (s ? f_sign(f) : 0);
    if (set == SP_FEW) {
        out[n++] = inf | h;             /* +qNaN */
        out[n++] = f_sign(f) | inf | 1; /* -sNaN */
    }
    return n;
}

static inline int f_specials(const fpf *f, uint64_t *out, int set)
{
    static uint64_t cache[NFMT][3][MAX_SPECIALS];
    static int count[NFMT][3];
    int fi = (int)(f - FMT);
    if (!count[fi][set])
        count[fi][set] = f_specials_make(f, cache[fi][set], set);
    memcpy(out, cache[fi][set], (size_t)count[fi][set] * sizeof *out);
    return count[fi][set];
}

static inline uint64_t g_bits(const fpf *f) { return tg_next(&fp_rng) & f_mask(f); }

static inline uint64_t g_special(const fpf *f)
{
    static uint64_t s[NFMT][MAX_SPECIALS];
    static int n[NFMT];
    int fi = (int)(f - FMT);
    if (!n[fi])
        n[fi] = f_specials(f, s[fi], SP_ALL);
    return s[fi][tg_next(&fp_rng) % (uint64_t)n[fi]];
}

/* a biased exponent, often at the subnormal or overflow end, or near 1 */
static inline long g_anchor(const fpf *f)
{
    switch (tg_next(&fp_rng) & 3) {
    case 0: return rnd_range(0, 2);
    case 1: return rnd_range(f_maxbe(f) - 2, f_maxbe(f));
    case 2: return rnd_range(f->bias - 3, f->bias + 3);
    default: return rnd_range(0, f_maxbe(f));
    }
}

static inline long g_spread(const fpf *f)
{
    const long c[8] = {0, 1, 2, f->mbits / 2, f->mbits + 2, 2 * f->mbits + 4, 30, f_maxbe(f)};
    return c[tg_next(&fp_rng) & 7];
}

/* a finite value with a biased exponent within `spread` of `anchor` and
 * a random number of trailing zero bits (ties, exact products) */
static inline uint64_t g_near(const fpf *f, long anchor, long spread)
{
    long be = anchor + rnd_range(-spread, spread);
    uint64_t frac = tg_next(&fp_rng) & f_frac(f);
    int tz = (int)rnd_range(0, f->mbits);
    return f_mk(f, (int)(tg_next(&fp_rng) & 1), be, tz >= 64 ? 0 : frac & ~((1ull << tz) - 1));
}

/* b such that a + b is a tie (half the last place of a, or of the binade
 * below) or just off one */
static inline uint64_t g_tie_partner(const fpf *f, uint64_t a)
{
    const int m = f->mbits;
    long be = (long)((a >> m) & ((1u << f->ebits) - 1));
    if (be > f_maxbe(f))
        return g_bits(f);
    long hb = (be ? be : 1) - m - 1 - (long)(tg_next(&fp_rng) & 1);
    uint64_t extra = (tg_next(&fp_rng) & 3) ? 0 : (tg_next(&fp_rng) & f_frac(f)) >> rnd_range(0, m);
    int neg = (int)(tg_next(&fp_rng) & 1);
    if (hb >= 1)
        return f_mk(f, neg, hb, extra);
    long sh = hb - 1 + m;
    if (sh < 0)
        return g_bits(f);
    return (neg ? f_sign(f) : 0) | (1ull << sh) | (extra & ((1ull << sh) - 1));
}

/* a product's biased exponent target: underflow, overflow, anywhere */
static inline long g_target(const fpf *f)
{
    switch (tg_next(&fp_rng) & 3) {
    case 0: return rnd_range(-f->mbits - 3, 3);
    case 1: return rnd_range(f_maxbe(f) - 3, f_maxbe(f) + 2);
    default: return rnd_range(-f->mbits - 3, f_maxbe(f) + 2);
    }
}

static inline void g_product(const fpf *f, long target, uint64_t *a, uint64_t *b)
{
    long ea = rnd_range(0, f_maxbe(f));
    *a = g_near(f, ea, 0);
    *b = g_near(f, target + f->bias - ea, 1);
}

/* a mixture for registers that are not the main operands */
static inline uint64_t g_mixed(const fpf *f)
{
    switch (tg_next(&fp_rng) & 3) {
    case 0: return g_special(f);
    case 1: return g_bits(f);
    default: return g_near(f, g_anchor(f), 2);
    }
}

enum { GEN_ADD, GEN_MUL, GEN_FMA, GEN_CMP };

/* One random input tuple for operations like `gen` (k: FMUL's scale). */
static inline void gen_tuple(int fi, int gen, int k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    const fpf *f = &FMT[fi];
    *c = g_mixed(f);
    if ((tg_next(&fp_rng) & 7) == 0) { /* raw bit patterns */
        *a = g_bits(f);
        *b = g_bits(f);
        return;
    }
    if (gen == GEN_MUL) {
        g_product(f, g_target(f) - k, a, b);
        return;
    }
    if (gen == GEN_FMA) {
        long t = g_target(f);
        int inv;
        g_product(f, t, a, b);
        switch (tg_next(&fp_rng) & 7) {
        case 0: *c = g_special(f); break;
        case 1: /* cancels the rounded product: the result is the rounding error */
            if (!f_isnan(f, *a) && !f_isnan(f, *b))
                *c = ref_round_op(fi, OP_MUL, *a, *b, 0, 0, (int)(tg_next(&fp_rng) & 3), &inv) ^ f_sign(f);
            break;
        case 2:
            if (!f_isnan(f, *a) && !f_isnan(f, *b))
                *c = g_tie_partner(f, ref_round_op(fi, OP_MUL, *a, *b, 0, 0, RN, &inv));
            break;
        default: *c = g_near(f, t < 0 ? 0 : t, g_spread(f)); break;
        }
        return;
    }
    long anchor = g_anchor(f);
    *a = (tg_next(&fp_rng) & 15) ? g_near(f, anchor, 0) : g_special(f);
    switch (tg_next(&fp_rng) & 7) {
    case 0: *b = gen == GEN_CMP ? *a : g_tie_partner(f, *a); break;
    case 1: *b = gen == GEN_CMP ? (*a + (uint64_t)rnd_range(-1, 1)) & f_mask(f) : g_tie_partner(f, *a); break;
    case 2: *b = ((*a ^ f_sign(f)) + (uint64_t)rnd_range(-1, 1)) & f_mask(f); break; /* cancellation */
    case 3: *b = g_special(f); break;
    default: *b = g_near(f, anchor, g_spread(f)); break;
    }
}


/* ================================================================ the simulator's instructions */

enum { K_R, K_UR, K_C, K_IMM };
enum { HS_H1_H0, HS_H0_H0, HS_H1_H1 };
enum { LOP_AND, LOP_OR, LOP_XOR };
enum { PT = 7 };

static const char *const LOP_NAME[3] = {"AND", "OR", "XOR"};
static const char *const HSEL_NAME[3] = {"H1_H0", "H0_H0", "H1_H1"};

typedef struct opnd {
    int kind;     /* K_R (idx 255 = RZ), K_UR (63 = URZ), K_C (idx = byte offset in bank 0), K_IMM */
    unsigned idx;
    uint64_t imm; /* F32 bits; F64 bits (low 32 zero); F16x2: high lane << 16 | low lane */
    int neg, abs, hsel;
} opnd;

typedef struct insn {
    int op, fmt;
    int ftz, sat, relu, nan, rnd, scale, cmp, lop, bf;
    int explicit_defaults; /* print .RN, .F16_V2, .BM, .H1_H0 */
    opnd a, b, c;
    int pp, pp_not, pp_omit; /* pp: P0..P6 or PT */
    unsigned rd;             /* even for F64 */
    int pu, pv, pv_omit;     /* pv = PT: not written */
    const char *literal;     /* assembled instead of the generated text (examples) */
    char text[192];
} insn;

/* Operands: a register, a uniform register, c[0x0][off] (mods: 1 = -x,
 * 2 = |x|, 3 = -|x|) or immediate bits. */
static inline opnd o_make(int kind, unsigned idx, uint64_t imm, int mods)
{
    opnd o = {kind, idx, imm, mods & 1, (mods >> 1) & 1, HS_H1_H0};
    return o;
}
static inline opnd o_r(unsigned idx, int mods) { return o_make(K_R, idx, 0, mods); }
static inline opnd o_ur(unsigned idx, int mods) { return o_make(K_UR, idx, 0, mods); }
static inline opnd o_c(unsigned off, int mods) { return o_make(K_C, off, 0, mods); }
static inline opnd o_imm(uint64_t bits) { return o_make(K_IMM, 0, bits, 0); }

static inline insn insn_new(int op, int fmt)
{
    insn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.fmt = fmt;
    in.pp = PT;
    in.pv = PT;
    in.a = o_r(0, 0);
    in.b = o_r(fmt == F64 ? 2 : 1, 0);
    in.c = o_r(fmt == F64 ? 4 : 2, 0);
    return in;
}

static inline const char *mnemonic(int op, int fmt)
{
    static const char *const f[OP_COUNT] = {"FADD", "FMUL", "FFMA", "FMNMX", "FSETP", "FSET", "FSEL", "FCHK"};
    static const char *const d[OP_COUNT] = {"DADD", "DMUL", "DFMA", "DMNMX", "DSETP", "", "", ""};
    static const char *const h[OP_COUNT] = {"HADD2", "HMUL2", "HFMA2", "HMNMX2", "HSETP2", "HSET2", "", ""};
    return fmt == F32 ? f[op] : fmt == F64 ? d[op] : h[op];
}

static inline void put_opnd(char **p, const insn *in, const opnd *o)
{
    int h = in->fmt == F16 || in->fmt == BF16, w = in->fmt == F64;
    char name[48];
    switch (o->kind) {
    case K_R:
    case K_UR: {
        const char *r = o->kind == K_R ? "R" : "UR";
        if (o->idx == (o->kind == K_R ? 255u : 63u))
            snprintf(name, sizeof name, "%sZ", r);
        else if (w)
            snprintf(name, sizeof name, "%s[%u:%u]", r, o->idx, o->idx + 1);
        else
            snprintf(name, sizeof name, "%s%u", r, o->idx);
        break;
    }
    case K_C: snprintf(name, sizeof name, "c[0x0][0x%x]", o->idx); break;
    default:
        if (w)
            snprintf(name, sizeof name, "0d%016llX", (unsigned long long)o->imm);
        else if (h)
            snprintf(name, sizeof name, "0h%04X, 0h%04X", (unsigned)(o->imm >> 16), (unsigned)(o->imm & 0xFFFF));
        else
            snprintf(name, sizeof name, "0f%08X", (unsigned)o->imm);
        *p += sprintf(*p, ", %s", name);
        return;
    }
    int hs = h && (o->hsel != HS_H1_H0 || in->explicit_defaults);
    *p += sprintf(*p, ", %s%s%s%s%s%s", o->neg ? "-" : "", o->abs ? "|" : "", name, hs ? "." : "",
                  hs ? HSEL_NAME[o->hsel] : "", o->abs ? "|" : "");
}

/* The assembly text of `in` (in syntax order; defaults omitted unless
 * explicit_defaults). */
static inline const char *insn_text(insn *in)
{
    if (in->literal)
        return in->literal;
    char *p = in->text;
    int h = in->fmt == F16 || in->fmt == BF16;
    p += sprintf(p, "%s", mnemonic(in->op, in->fmt));
    if (h && (in->fmt == BF16 || in->explicit_defaults))
        p += sprintf(p, in->fmt == BF16 ? ".BF16_V2" : ".F16_V2");
    if (in->ftz)
        p += sprintf(p, ".FTZ");
    if (in->relu)
        p += sprintf(p, ".RELU");
    if (in->sat)
        p += sprintf(p, ".SAT");
    if (in->op <= OP_FMA && (in->rnd != RN || in->explicit_defaults))
        p += sprintf(p, ".%s", RND_NAME[in->rnd]);
    if (in->op == OP_MUL && in->scale)
        p += sprintf(p, ".%c%d", in->scale < 0 ? 'D' : 'M', 1 << (in->scale < 0 ? -in->scale : in->scale));
    if (in->op == OP_MNMX && in->nan)
        p += sprintf(p, ".NAN");
    if (in->op == OP_SETP || in->op == OP_SET)
        p += sprintf(p, ".%s.%s", FCMP[in->cmp].name, LOP_NAME[in->lop]);
    if (in->op == OP_SET && (in->bf || in->explicit_defaults))
        p += sprintf(p, in->bf ? ".BF" : ".BM");
    if (in->op == OP_SETP) {
        p += sprintf(p, " P%d", in->pu);
        if (!in->pv_omit && in->pv == PT)
            p += sprintf(p, ", PT");
        else if (!in->pv_omit)
            p += sprintf(p, ", P%d", in->pv);
    } else if (in->op == OP_CHK) {
        p += sprintf(p, " P%d", in->pu);
    } else if (in->fmt == F64) {
        p += sprintf(p, " R[%u:%u]", in->rd, in->rd + 1);
    } else {
        p += sprintf(p, " R%u", in->rd);
    }
    put_opnd(&p, in, &in->a);
    put_opnd(&p, in, &in->b);
    if (in->op == OP_FMA)
        put_opnd(&p, in, &in->c);
    if ((in->op == OP_MNMX || in->op == OP_SETP || in->op == OP_SET || in->op == OP_SEL) && !in->pp_omit) {
        if (in->pp == PT)
            p += sprintf(p, ", %sPT", in->pp_not ? "!" : "");
        else
            p += sprintf(p, ", %sP%d", in->pp_not ? "!" : "", in->pp);
    }
    return in->text;
}

static inline int ref_lop(int lop, int t, int p) { return lop == LOP_AND ? t && p : lop == LOP_OR ? t || p : t != p; }

static inline int ref_fchk(uint64_t a, uint64_t b)
{
    const int emin = -126, emax = 127, n = 23;
    int ea = (int)((a >> 23) & 0xFF) - 127, eb = (int)((b >> 23) & 0xFF) - 127;
    return ea <= emin + n || ea >= emax + 1 || eb <= emin || eb >= emax - 2 || ea - eb <= emin + 1 ||
           ea - eb >= emax;
}

/* One lane of format fi: inputs already decorated. Returns the result bits;
 * for comparisons (*t) the comparison. */
static inline uint64_t ref_scalar(const insn *in, int fi, uint64_t a, uint64_t b, uint64_t c, int pp, int *t)
{
    const fpf *f = &FMT[fi];
    if (in->ftz) {
        a = f_flush(f, a);
        b = f_flush(f, b);
        c = f_flush(f, c);
    }
    int an = f_isnan(f, a), bn = f_isnan(f, b), cn = in->op == OP_FMA && f_isnan(f, c);
    switch (in->op) {
    case OP_ADD:
    case OP_MUL:
    case OP_FMA: {
        uint64_t r;
        int nan = an || bn || cn, invalid = 0;
        if (fi == F64 && nan) /* the first NaN in the order SrcB, SrcC, Ra, made quiet */
            return (bn ? b : cn ? c : a) | f_qbit(f);
        r = nan ? f_canon(f) : ref_round_op(fi, in->op, a, b, c, in->scale, in->rnd, &invalid);
        nan |= invalid;
        if (fi == F64)
            return r;
        if (nan)
            r = in->sat ? 0 : f_canon(f);
        else if ((in->sat || in->relu) && (r & f_sign(f)))
            r = 0;
        else if (in->sat && r > f_one(f))
            r = f_one(f);
        return in->ftz ? f_flush(f, r) : r;
    }
    case OP_MNMX:
        if (an || bn) {
            if (in->nan)
                return f_canon(f);
            if (!an)
                return a;
            if (!bn)
                return b;
            return fi == F64 ? b | f_qbit(f) : f_canon(f);
        }
        return ref_minmax(f, a, b, pp);
    case OP_SETP:
    case OP_SET: *t = ref_compare(f, in->cmp, a, b); return 0;
    case OP_SEL: return pp ? a : b; /* flushed above when .FTZ */
    default: *t = ref_fchk(a, b); return 0;
    }
}

/* ================================================================ lane state */

enum { NR_IN = 8, NUR = 16, NCMEM = 128, SIM_REGS = 64, OUT_R0 = 8 };

/* What one lane sees before the run. */
typedef struct lane_view {
    uint32_t r[NR_IN];
    int p[7];
    uint32_t ur[NUR];
    const uint32_t *cmem;
} lane_view;

typedef struct result {
    uint64_t rd;
    int pu, pv;
} result;

static inline uint64_t fetch(const insn *in, const opnd *o, const lane_view *v)
{
    int w = in->fmt == F64;
    switch (o->kind) {
    case K_R:
        if (o->idx == 255)
            return 0;
        return v->r[o->idx] | (w ? (uint64_t)v->r[o->idx + 1] << 32 : 0);
    case K_UR:
        if (o->idx == 63)
            return 0;
        return v->ur[o->idx] | (w ? (uint64_t)v->ur[o->idx + 1] << 32 : 0);
    case K_C: return v->cmem[o->idx / 4] | (w ? (uint64_t)v->cmem[o->idx / 4 + 1] << 32 : 0);
    default: return o->imm;
    }
}

/* Lane i (0 = low half) of a 16x2 operand, decorated. */
static inline uint64_t half_of(const fpf *f, const opnd *o, uint64_t v, int i)
{
    int hi = o->kind == K_IMM ? i : o->hsel == HS_H1_H0 ? i : o->hsel == HS_H1_H1;
    return f_decorate(f, hi ? (v >> 16) & 0xFFFF : v & 0xFFFF, o->abs, o->neg);
}

static inline result ref_insn(const insn *in, const lane_view *v)
{
    result res = {0, 0, 0};
    const fpf *f = &FMT[in->fmt];
    int pp = in->pp == PT ? 1 : v->p[in->pp];
    if (in->pp_not)
        pp = !pp;
    uint64_t ra = fetch(in, &in->a, v), rb = fetch(in, &in->b, v), rc = in->op == OP_FMA ? fetch(in, &in->c, v) : 0;
    int t = 0;
    if (in->fmt == F16 || in->fmt == BF16) {
        for (int i = 0; i < 2; i++) {
            uint64_t a = half_of(f, &in->a, ra, i), b = half_of(f, &in->b, rb, i);
            uint64_t c = in->op == OP_FMA ? half_of(f, &in->c, rc, i) : 0;
            uint64_t d = ref_scalar(in, in->fmt, a, b, c, pp, &t);
            if (in->op == OP_SETP)
                *(i ? &res.pv : &res.pu) = ref_lop(in->lop, t, pp);
            else if (in->op == OP_SET)
                d = ref_lop(in->lop, t, pp) ? (in->bf ? f_one(f) : 0xFFFF) : 0;
            res.rd |= d << (16 * i);
        }
        return res;
    }
    uint64_t a = f_decorate(f, ra, in->a.abs, in->a.neg), b = f_decorate(f, rb, in->b.abs, in->b.neg);
    uint64_t c = f_decorate(f, rc, in->c.abs, in->c.neg);
    res.rd = ref_scalar(in, in->fmt, a, b, c, pp, &t);
    if (in->op == OP_SETP) {
        res.pu = ref_lop(in->lop, t, pp);
        res.pv = ref_lop(in->lop, !t, pp);
    } else if (in->op == OP_SET) {
        res.rd = ref_lop(in->lop, t, pp) ? (in->bf ? 0x3F800000u : 0xFFFFFFFFu) : 0;
    } else if (in->op == OP_CHK) {
        res.pu = t;
    }
    return res;
}

/* ================================================================ batches */

typedef struct batch {
    int fmt;
    unsigned warps, n;
    uint32_t *r[NR_IN];
    uint8_t *p[7];
    uint32_t *ur[NUR];
    uint32_t cmem[NCMEM];
} batch;

static inline void batch_free(batch *b)
{
    for (int i = 0; i < NR_IN; i++)
        free(b->r[i]);
    for (int i = 0; i < 7; i++)
        free(b->p[i]);
    for (int i = 0; i < NUR; i++)
        free(b->ur[i]);
    memset(b, 0, sizeof *b);
}

/* Stores operand j (0 = a, 1 = b, 2 = c, 3.. = extra registers) of lane L:
 * F32 in R(j), F64 in R[2j:2j+1], 16x2 in R(j), half `half`. */
static inline void put_value(batch *b, unsigned L, int j, int half, uint64_t v)
{
    if (b->fmt == F64) {
        b->r[2 * j][L] = (uint32_t)v;
        b->r[2 * j + 1][L] = (uint32_t)(v >> 32);
    } else if (b->fmt == F32) {
        b->r[j][L] = (uint32_t)v;
    } else {
        uint32_t keep = half ? 0xFFFFu : 0xFFFF0000u;
        b->r[j][L] = (b->r[j][L] & keep) | (uint32_t)v << (16 * half);
    }
}

/* Fills a batch for format fi: when `cross`, first the specials crossed
 * (pairs; FMA: triples of the small set), then `nrandom` tuples from gen. */
static inline void batch_make(batch *b, int fi, int gen, int k, int cross, unsigned nrandom)
{
    const fpf *f = &FMT[fi];
    uint64_t sp[MAX_SPECIALS];
    int fma = gen == GEN_FMA;
    int ns = f_specials(f, sp, fma ? SP_FEW : SP_ALL);
    unsigned ncross = !cross ? 0 : fma ? (unsigned)(ns * ns * ns) : (unsigned)(ns * ns);
    memset(b, 0, sizeof *b);
    b->fmt = fi;
    b->warps = (ncross + nrandom + 31) / 32;
    b->n = b->warps * 32;
    for (int i = 0; i < NR_IN; i++)
        b->r[i] = calloc(b->n, sizeof(uint32_t));
    for (int i = 0; i < 7; i++)
        b->p[i] = calloc(b->n, 1);
    for (int i = 0; i < NUR; i++)
        b->ur[i] = calloc(b->warps, sizeof(uint32_t));
    int halves = fi == F16 || fi == BF16 ? 2 : 1, wide = fi == F64;
    for (unsigned L = 0; L < b->n; L++) {
        for (int h = 0; h < halves; h++) {
            uint64_t t[3];
            if (L < ncross) {
                unsigned q = h ? ncross - 1 - L : L; /* the high lanes see the crossing reversed */
                t[0] = sp[q % (unsigned)ns];
                t[1] = sp[(q / (unsigned)ns) % (unsigned)ns];
                t[2] = fma ? sp[q / (unsigned)(ns * ns)] : g_mixed(f);
            } else {
                gen_tuple(fi, gen, k, &t[0], &t[1], &t[2]);
            }
            for (int j = 0; j < 3; j++)
                put_value(b, L, j, h, t[j]);
            for (int j = 3; j < (wide ? NR_IN / 2 : NR_IN); j++)
                put_value(b, L, j, h, g_mixed(f));
        }
        for (int i = 0; i < 7; i++)
            b->p[i][L] = (uint8_t)(tg_next(&fp_rng) & 1);
    }
    for (unsigned w = 0; w < b->warps; w++)
        for (int u = 0; u < NUR; u += 2) {
            uint64_t v = wide ? g_mixed(f) : 0;
            for (int j = 0; j < 2; j++) {
                if (!wide)
                    v = halves == 2 ? g_mixed(f) << 16 | g_mixed(f) : g_mixed(f);
                b->ur[u + j][w] = wide ? (uint32_t)(v >> (32 * j)) : (uint32_t)v;
            }
        }
    /* constant bank 0: the specials, then random values */
    for (int i = 0; i < NCMEM / (wide ? 2 : 1); i++) {
        uint64_t v = i < ns ? sp[i] : g_mixed(f);
        if (wide) {
            b->cmem[2 * i] = (uint32_t)v;
            b->cmem[2 * i + 1] = (uint32_t)(v >> 32);
        } else if (halves == 2) {
            b->cmem[i] = (uint32_t)(sp[(i + 7) % ns] << 16 | v);
        } else {
            b->cmem[i] = (uint32_t)v;
        }
    }
}

/* ================================================================ driver */

enum { MAX_SHOWN_PER_RUN = 3 };

/* distinct failing instructions, for the summary */
typedef struct fail_rec {
    char text[192];
    long lanes, of;
    char note[160];
} fail_rec;
static fail_rec fp_fails[2000];
static int fp_nfails;

static gisa_sim *fp_sim;
static unsigned fp_sim_warps;

static inline void fp_teardown(void)
{
    gisa_sim_free(fp_sim);
    fp_sim = NULL;
    ref_free();
}

/* Assembles the instructions as one program (one per line); NULL with a
 * failed check when it does not assemble. */
static inline gisa_word *assemble_insns(insn *ins, int nins, size_t *nwords)
{
    size_t cap = (size_t)nins * 200 + 1, len = 0;
    char *text = malloc(cap);
    for (int i = 0; i < nins; i++)
        len += (size_t)snprintf(text + len, cap - len, "%s\n", insn_text(&ins[i]));
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    gisa_status st = gisa_assemble(test_isa(), "fp.s", text, len, NULL, &w, nwords, d);
    CHECKF(st == GISA_OK, "does not assemble:\n%s", text);
    if (st != GISA_OK)
        test_dump_diags(d);
    gisa_diags_free(d);
    free(text);
    return st == GISA_OK ? w : NULL;
}

/* The inputs one lane gave an instruction, for a mismatch report. */
static inline const char *show_inputs(const insn *in, const lane_view *v, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "Ra=%#llx SrcB=%#llx", (unsigned long long)fetch(in, &in->a, v),
                     (unsigned long long)fetch(in, &in->b, v));
    if (in->op == OP_FMA)
        n += snprintf(buf + n, cap - (size_t)n, " SrcC=%#llx", (unsigned long long)fetch(in, &in->c, v));
    if ((in->op == OP_MNMX || in->op == OP_SETP || in->op == OP_SET || in->op == OP_SEL) && in->pp != PT)
        snprintf(buf + n, cap - (size_t)n, " P%d=%d (pp=%d)", in->pp, v->p[in->pp], v->p[in->pp] ^ in->pp_not);
    return buf;
}

/* Runs the instructions on the batch's inputs and compares every output of
 * every lane with the reference. Returns the number of mismatches. */
static inline long fp_run(insn *ins, int nins, const batch *b)
{
    size_t nw = 0;
    gisa_word *words = assemble_insns(ins, nins, &nw);
    if (!words)
        return 1;
    if (!fp_sim || fp_sim_warps != b->warps) {
        gisa_sim_free(fp_sim);
        fp_sim = NULL;
        if (gisa_sim_new(test_isa(), SIM_REGS, b->warps, &fp_sim) != GISA_OK) {
            CHECKF(0, "gisa_sim_new(%u warps) failed", b->warps);
            free(words);
            return 1;
        }
        fp_sim_warps = b->warps;
        gisa_sim_set_threads(fp_sim, 1);
    }
    gisa_sim *sim = fp_sim;
    int bad = 0;
    for (unsigned w = 0; w < b->warps; w++) {
        for (int r = 0; r < NR_IN; r++)
            for (unsigned l = 0; l < 32; l++)
                bad |= gisa_sim_set(sim, w, GISA_RF_R, (unsigned)r, (int)l, b->r[r][w * 32 + l]);
        for (int r = OUT_R0; r < SIM_REGS; r++)
            bad |= gisa_sim_set(sim, w, GISA_RF_R, (unsigned)r, -1, 0x5A5A5A5Au);
        for (int p = 0; p < 7; p++)
            for (unsigned l = 0; l < 32; l++)
                bad |= gisa_sim_set(sim, w, GISA_RF_P, (unsigned)p, (int)l, b->p[p][w * 32 + l]);
        for (int u = 0; u < NUR; u++)
            bad |= gisa_sim_set(sim, w, GISA_RF_UR, (unsigned)u, 0, b->ur[u][w]);
    }
    for (int i = 0; i < NCMEM; i++)
        bad |= gisa_sim_set_const(sim, 0, (unsigned)(4 * i), b->cmem[i]);
    CHECK(bad == 0);
    CHECK(gisa_sim_load(sim, words, nw) == GISA_OK);
    free(words);
    gisa_sim_fault fault;
    gisa_status st = gisa_sim_run(sim, &fault);
    CHECKF(st == GISA_OK, "%s...: run failed: %s (%s, warp %u lane %d)", insn_text(&ins[0]),
           st == GISA_ERR_SIM ? fault.message : gisa_status_str(st), st == GISA_ERR_SIM ? fault.insn : "",
           st == GISA_ERR_SIM ? fault.warp : 0, st == GISA_ERR_SIM ? fault.lane : 0);
    if (st != GISA_OK) { /* every lane of every instruction counts as a mismatch */
        for (int i = 0; i < nins; i++) {
            fp_tally *t = fp_tally_for(mnemonic(ins[i].op, ins[i].fmt));
            for (unsigned L = 0; L < b->n; L++)
                fp_count(t, 1, 0);
            if (fp_nfails < (int)(sizeof fp_fails / sizeof *fp_fails)) {
                fail_rec *f = &fp_fails[fp_nfails++];
                snprintf(f->text, sizeof f->text, "%s", insn_text(&ins[i]));
                f->lanes = f->of = (long)b->n;
                snprintf(f->note, sizeof f->note, "  [program faulted at \"%.60s\": %.60s]",
                         st == GISA_ERR_SIM ? fault.insn : "?", st == GISA_ERR_SIM ? fault.message : "");
            }
        }
        return (long)b->n * nins;
    }

    fp_tally *tallies[64];
    for (int i = 0; i < nins; i++)
        tallies[i] = fp_tally_for(mnemonic(ins[i].op, ins[i].fmt));
    long fails = 0, per[64] = {0};
    int shown_here = 0;
    lane_view v;
    v.cmem = b->cmem;
    for (unsigned L = 0; L < b->n; L++) {
        unsigned w = L / 32, l = L % 32;
        for (int r = 0; r < NR_IN; r++)
            v.r[r] = b->r[r][L];
        for (int p = 0; p < 7; p++)
            v.p[p] = b->p[p][L];
        for (int u = 0; u < NUR; u++)
            v.ur[u] = b->ur[u][w];
        for (int i = 0; i < nins; i++) {
            insn *in = &ins[i];
            result want = ref_insn(in, &v);
            result got = {0, 0, 0};
            int ncmp = 0, ok = 1;
            uint32_t x = 0, y = 0;
            if (in->op == OP_SETP || in->op == OP_CHK) {
                gisa_sim_get(sim, w, GISA_RF_P, (unsigned)in->pu, l, &x);
                got.pu = (int)x;
                ok = got.pu == want.pu;
                ncmp = 1;
                if (in->op == OP_SETP && in->pv != PT) {
                    gisa_sim_get(sim, w, GISA_RF_P, (unsigned)in->pv, l, &y);
                    got.pv = (int)y;
                    ok &= got.pv == want.pv;
                    ncmp = 2;
                }
            } else {
                gisa_sim_get(sim, w, GISA_RF_R, in->rd, l, &x);
                if (in->fmt == F64)
                    gisa_sim_get(sim, w, GISA_RF_R, in->rd + 1, l, &y);
                got.rd = (uint64_t)y << 32 | x;
                ok = got.rd == want.rd;
                ncmp = 1;
            }
            if (fp_count(tallies[i], ncmp, ok))
                continue;
            fails++;
            per[i]++;
            if (shown_here >= MAX_SHOWN_PER_RUN && fp_max_shown <= 30)
                continue;
            char inputs[160], outputs[96];
            if (in->op == OP_SETP || in->op == OP_CHK)
                snprintf(outputs, sizeof outputs, "expected pu=%d pv=%d, got pu=%d pv=%d", want.pu, want.pv, got.pu,
                         got.pv);
            else
                snprintf(outputs, sizeof outputs, "expected %#llx, got %#llx", (unsigned long long)want.rd,
                         (unsigned long long)got.rd);
            shown_here += fp_show("MISMATCH %s   (warp %u lane %u)\n    %s\n    %s", insn_text(in), w, l,
                                  show_inputs(in, &v, inputs, sizeof inputs), outputs);
        }
    }
    for (int i = 0; i < nins; i++)
        if (per[i] && fp_nfails < (int)(sizeof fp_fails / sizeof *fp_fails)) {
            fail_rec *f = &fp_fails[fp_nfails++];
            snprintf(f->text, sizeof f->text, "%s", insn_text(&ins[i]));
            f->lanes = per[i];
            f->of = (long)b->n;
            f->note[0] = 0;
        }
    return fails;
}

static inline void fp_report(const char *what, clock_t t0)
{
    char title[96];
    snprintf(title, sizeof title, "%s against the MPFR reference", what);
    fp_print_tallies(title, (double)(clock() - t0) / CLOCKS_PER_SEC);
    if (fp_nfails)
        fprintf(stderr, "instructions with mismatches (lanes of lanes):\n");
    for (int i = 0; i < fp_nfails && i < fp_max_shown; i++)
        fprintf(stderr, "  %6ld of %6ld  %s%s\n", fp_fails[i].lanes, fp_fails[i].of, fp_fails[i].text, fp_fails[i].note);
    if (fp_nfails > fp_max_shown)
        fprintf(stderr, "  ... %d%s instructions in all\n", fp_nfails, fp_nfails == 2000 ? "+" : "");
}

/* ================================================================ literal expectations */

/* A one-warp run of `text` for tests with literal expected values: every
 * register starts as 0x5A5A5A5A, then R(first + i) = r[i] in every lane;
 * P0 = p0, P1 = 0, P2 = 1. sim is NULL when it did not assemble or run. */
typedef struct lit_run {
    gisa_sim *sim;
} lit_run;

static inline lit_run lit_start(const char *text, unsigned first, const uint32_t *r, int n, int p0)
{
    lit_run lr = {NULL};
    gisa_word *w = NULL;
    size_t nw = 0;
    gisa_diags *d = api_diags();
    int ok = gisa_assemble(test_isa(), "t.s", text, strlen(text), NULL, &w, &nw, d) == GISA_OK;
    CHECKF(ok, "%s does not assemble", text);
    if (!ok)
        test_dump_diags(d);
    gisa_diags_free(d);
    if (ok && gisa_sim_new(test_isa(), 16, 1, &lr.sim) == GISA_OK) {
        for (unsigned i = 0; i < 16; i++)
            gisa_sim_set(lr.sim, 0, GISA_RF_R, i, -1, 0x5A5A5A5Au);
        for (int i = 0; i < n; i++)
            gisa_sim_set(lr.sim, 0, GISA_RF_R, first + (unsigned)i, -1, r[i]);
        gisa_sim_set(lr.sim, 0, GISA_RF_P, 0, -1, (uint32_t)p0);
        gisa_sim_set(lr.sim, 0, GISA_RF_P, 1, -1, 0);
        gisa_sim_set(lr.sim, 0, GISA_RF_P, 2, -1, 1);
        gisa_sim_fault fault;
        gisa_status st = gisa_sim_load(lr.sim, w, nw);
        if (st == GISA_OK)
            st = gisa_sim_run(lr.sim, &fault);
        CHECKF(st == GISA_OK, "%s does not run: %s", text, st == GISA_ERR_SIM ? fault.message : gisa_status_str(st));
        if (st != GISA_OK) {
            gisa_sim_free(lr.sim);
            lr.sim = NULL;
        }
    }
    free(w);
    return lr;
}

/* The value of a register or predicate, the same in all 32 lanes
 * (0xBAD0BAD0 when the lanes disagree). */
static inline uint32_t lit_get(const lit_run *lr, gisa_regfile rf, unsigned idx)
{
    uint32_t v = 0, u = 0;
    gisa_sim_get(lr->sim, 0, rf, idx, 0, &v);
    for (unsigned l = 1; l < 32; l++) {
        gisa_sim_get(lr->sim, 0, rf, idx, l, &u);
        if (u != v)
            return 0xBAD0BAD0u;
    }
    return v;
}

/* R(out) (R[out:out+1] when wide) after running text on R0.. = r[]. */
static inline void expect_reg(const char *text, const uint32_t *r, int n, unsigned out, int wide, uint64_t want)
{
    lit_run lr = lit_start(text, 0, r, n, 0);
    uint64_t got = 0xDEAD;
    if (lr.sim)
        got = lit_get(&lr, GISA_RF_R, out) | (wide ? (uint64_t)lit_get(&lr, GISA_RF_R, out + 1) << 32 : 0);
    CHECKF(lr.sim && got == want, "%s with R0..=%#x,%#x,%#x..: want %#llx got %#llx", text, r[0], n > 1 ? r[1] : 0,
           n > 2 ? r[2] : 0, (unsigned long long)want, (unsigned long long)got);
    gisa_sim_free(lr.sim);
}


/* text must not assemble; the error mentions `word` (any case) unless NULL. */
static inline void expect_asm_error(const char *text, const char *word)
{
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_status st = gisa_assemble(test_isa(), "e.s", text, strlen(text), NULL, &w, &n, d);
    CHECKF(st == GISA_ERR_INPUT && gisa_diags_errors(d) > 0, "%s: expected an assembly error, got %s", text,
           gisa_status_str(st));
    int mentioned = !word;
    for (size_t i = 0; i < gisa_diags_count(d) && !mentioned; i++) {
        char *s = api_diag_text(gisa_diags_get(d, i), 0);
        for (char *c = s; c && *c; c++)
            *c = (char)tolower((unsigned char)*c);
        mentioned = s && strstr(s, word);
        free(s);
    }
    CHECKF(mentioned, "%s: the error does not mention \"%s\"", text, word);
    if (!mentioned)
        test_dump_diags(d);
    free(w);
    gisa_diags_free(d);
}

static inline void expect_asm_ok(const char *text)
{
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_status st = gisa_assemble(test_isa(), "e.s", text, strlen(text), NULL, &w, &n, d);
    CHECKF(st == GISA_OK, "%s does not assemble", text);
    if (st != GISA_OK)
        test_dump_diags(d);
    free(w);
    gisa_diags_free(d);
}

/* ================================================================ common test shapes */

/* The 16 combinations of {-}{|}x{|} on Ra and SrcB (g: 0..15), or the 64
 * on Ra, SrcB, SrcC. */
static inline void set_mods(insn *in, unsigned g)
{
    in->a.neg = g & 1;
    in->a.abs = (g >> 1) & 1;
    in->b.neg = (g >> 2) & 1;
    in->b.abs = (g >> 3) & 1;
    in->c.neg = (g >> 4) & 1;
    in->c.abs = (g >> 5) & 1;
}

/* pp variants: P6, !P6, PT, !PT */
static inline void set_pp(insn *in, unsigned g)
{
    in->pp = (g & 2) ? PT : 6;
    in->pp_not = g & 1;
}

/* Gives instruction i of a program its outputs (R8.. or P0..P5). */
static inline void set_out(insn *in, int i)
{
    if (in->op == OP_SETP) {
        in->pu = 2 * i;
        in->pv = 2 * i + 1;
    } else if (in->op == OP_CHK) {
        in->pu = i;
    } else {
        in->rd = (unsigned)(OUT_R0 + (in->fmt == F64 ? 2 * i : i));
    }
}

static inline int slots_for(int op, int fmt)
{
    if (op == OP_SETP)
        return 3;
    if (op == OP_CHK)
        return 6;
    return fmt == F64 ? 16 : 24;
}

/* One program on a fresh batch (specials crossed plus nrandom random
 * tuples) holding counts[k] copies of protos[k]: copy i gets the operand
 * modifiers (g0 + i) % nmods, rotating pp variants, .hsel2 forms and
 * (FSET/HSET2) .BM/.BF. */
static inline void run_mixed(const insn *protos, const int *counts, int nprotos, int gen, unsigned g0, unsigned nmods,
                             unsigned nrandom)
{
    insn ins[32];
    int nins = 0;
    batch b;
    batch_make(&b, protos[0].fmt, gen, protos[0].scale, 1, nrandom);
    for (int k = 0; k < nprotos; k++)
        for (int i = 0; i < counts[k]; i++) {
            unsigned g = g0 + (unsigned)nins;
            insn *in = &ins[nins++];
            *in = protos[k];
            set_mods(in, g % nmods);
            set_pp(in, g + g / 4);
            in->a.hsel = (int)(g % 3);
            in->b.hsel = (int)(g / 3 % 3);
            in->c.hsel = (int)(g / 9 % 3);
            if (in->op == OP_SET)
                in->bf = i & 1;
            in->explicit_defaults = i == 0;
            set_out(in, i);
        }
    fp_run(ins, nins, &b);
    batch_free(&b);
}

static inline void run_combo(const insn *proto, int gen, int nins, unsigned g0, unsigned nmods, unsigned nrandom)
{
    run_mixed(proto, &nins, 1, gen, g0, nmods, nrandom);
}

/* FSETP/DSETP/HSETP2 (3 per program) with FSET/HSET2 (nset) of the same
 * comparison and boolean op in one program. */
static inline void run_compare(const insn *setp, int nset, unsigned g0, unsigned nrandom)
{
    insn p[2] = {*setp, *setp};
    int counts[2] = {3, nset};
    p[1].op = OP_SET;
    run_mixed(p, counts, nset ? 2 : 1, GEN_CMP, g0, 16, nrandom);
}

/* run_compare for every comparison and boolean op of format fi, without
 * and (nftz = 2) with .FTZ; the modifier rotation advances by gstep. */
static inline void run_compares(int fi, int nftz, int nset, unsigned gstep, unsigned nrandom)
{
    unsigned g = 0;
    for (int ftz = 0; ftz < nftz; ftz++)
        for (int cmp = 0; cmp < NCMP; cmp++)
            for (int lop = 0; lop < 3; lop++) {
                insn p = insn_new(OP_SETP, fi);
                p.ftz = ftz, p.cmp = cmp, p.lop = lop;
                run_compare(&p, nset, g, nrandom);
                g += gstep;
            }
}

/* Runs `n` instructions in programs of as many as fit. */
static inline void run_chunked(insn *ins, int n, const batch *b)
{
    int per = slots_for(ins[0].op, ins[0].fmt);
    for (int i = 0; i < n; i += per) {
        int k = n - i < per ? n - i : per;
        for (int j = 0; j < k; j++)
            set_out(&ins[i + j], j);
        fp_run(ins + i, k, b);
    }
}

/* SrcB (and SrcC for FMA) from UR, c[][] and immediates, with modifiers;
 * proto gives the instruction modifiers. The three groups run as separate
 * programs, so that a fault in one does not hide the others. */
static inline void test_sources(const insn *proto, int gen)
{
    enum { MAXI = 64 };
    insn ins[MAXI];
    int n = 0, fi = proto->fmt, wide = fi == F64, h = fi == F16 || fi == BF16;
    const fpf *f = &FMT[fi];
    batch b;
    batch_make(&b, fi, gen, proto->scale, 0, 2048);
    uint64_t sp[MAX_SPECIALS];
    int ns = f_specials(f, sp, SP_ALL);
    for (int i = 0; i < 16; i++) { /* UR */
        insn in = *proto;
        opnd u = o_ur((unsigned)(wide ? 2 * (i % 8) : i % 16), i % 4);
        u.hsel = i % 3;
        in.a = o_r(0, i / 4 % 4);
        in.a.hsel = (i + 1) % 3;
        if (in.op == OP_FMA && (i & 1))
            in.c = u;
        else
            in.b = u;
        set_pp(&in, (unsigned)i);
        if (i == 15 && in.op != OP_FMA)
            in.b = o_ur(63, 0); /* URZ */
        ins[n++] = in;
    }
    run_chunked(ins, n, &b);
    n = 0;
    for (int i = 0; i < 16; i++) { /* constant memory */
        insn in = *proto;
        opnd c = o_c((unsigned)((wide ? 8 : 4) * ((i * 5) % (wide ? NCMEM / 2 : NCMEM))), i % 4);
        c.hsel = (i + 2) % 3;
        in.a = o_r(0, (i + 1) % 4);
        if (in.op == OP_FMA && (i & 1))
            in.c = c;
        else
            in.b = c;
        set_pp(&in, (unsigned)i + 1);
        ins[n++] = in;
    }
    run_chunked(ins, n, &b);
    n = 0;
    for (int i = 0; i < ns && n < MAXI; i++) { /* immediates */
        insn in = *proto;
        uint64_t v = sp[i];
        if (wide)
            v &= 0xFFFFFFFF00000000u; /* F64Imm holds the high half */
        if (h)
            v = v << 16 | sp[(i * 7 + 3) % ns];
        in.a = o_r(0, i % 4);
        if (in.op == OP_FMA && (i & 1))
            in.c = o_imm(v);
        else
            in.b = o_imm(v);
        set_pp(&in, (unsigned)i);
        ins[n++] = in;
    }
    run_chunked(ins, n, &b);
    batch_free(&b);
}

/* ------------------------------------------------------------------ examples */

/* An __Examples line assembled as written (`text`) and described for the
 * reference by the fields; a and b are Ra and SrcB. */
static inline insn insn_example(int op, int fi, const char *text, unsigned rd, opnd a, opnd b)
{
    insn in = insn_new(op, fi);
    in.literal = text;
    in.rd = rd;
    in.a = a;
    in.b = b;
    return in;
}

/* Runs each example alone on special and random inputs (FCHK: exponents
 * anywhere in R1..R7, so that its thresholds are crossed). */
static inline void run_examples(const insn *e, int n)
{
    for (int i = 0; i < n; i++) {
        batch b;
        insn in = e[i];
        batch_make(&b, in.fmt, in.op == OP_FMA ? GEN_FMA : in.op == OP_MUL ? GEN_MUL : GEN_ADD, in.scale, 1, 2048);
        if (in.op == OP_CHK)
            for (unsigned L = 0; L < b.n; L++)
                for (int r = 1; r < NR_IN; r++)
                    b.r[r][L] = (b.r[r][L] & 0x807FFFFFu) | (uint32_t)rnd_range(0, 255) << 23;
        fp_run(&in, 1, &b);
        batch_free(&b);
    }
}

#endif
