/* The rounding module (fp/softfp) against the MPFR reference of fpref.h
 * (each operation rounded once by MPFR at the format's precision, then
 * overflow and gradual underflow without a second rounding). Results must
 * match bit for bit; any NaN matches any NaN.
 *
 * Inputs, each tried in all four modes (in a shifting order, so the mode
 * cache sees both switches and repeats): fpref's special values crossed
 * with each other (all pairs, all triples for FMA), then random inputs from
 * fpref's generators: raw bit patterns; values with nearby exponents and
 * few significant bits (cancellations, ties); exact half-ulp partners (ties
 * in every binade, subnormals included); products aimed at the underflow
 * and overflow thresholds; FMAs that cancel the rounded product exactly.
 * Every 16-bit value exhaustively, the 32-lane F32/F64 kernels against the
 * scalar functions, and the 64-half F16/BF16 kernels (with F16C and without)
 * like the scalar functions, against MPFR. */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mpfr.h>

#include "fpref.h"
#include "fp/softfp.h"

enum { RANDOM_N = 40000 }; /* random input tuples per function (each in 4 modes) */

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

#define WIDEN16(name) /* exact: no rounding mode */                                             \
    static uint64_t w_##name(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)                          \
    {                                                                                               \
        (void)b, (void)c, (void)r;                                                                  \
        return name((uint16_t)a);                                                                   \
    }
#define NARROW64(name)                                                                              \
    static uint64_t w_##name(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)                          \
    {                                                                                               \
        (void)b, (void)c;                                                                           \
        return name(a, r);                                                                          \
    }
WIDEN16(f16_to_f64)
WIDEN16(bf16_to_f64)
NARROW64(f16_from_f64)
NARROW64(bf16_from_f64)

/* A 64-half lane kernel on one tuple: it goes to a rotating slot among the
 * earlier tuples (the other slots hold them), so every slot is exercised
 * beside unrelated data. */
#define WRAPH(name, nin)                                                                            \
    static uint64_t w_##name(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)                          \
    {                                                                                               \
        static uint16_t A[64], B[64], C[64], D[64];                                                 \
        static unsigned slot;                                                                       \
        slot = (slot + 23) % 64;                                                                    \
        A[slot] = (uint16_t)a, B[slot] = (uint16_t)b, C[slot] = (uint16_t)c;                        \
        (void)C;                                                                                    \
        LANES##nin(name);                                                                           \
        return D[slot];                                                                             \
    }
#define LANES2(name) name(D, A, B, r)
#define LANES3(name) name(D, A, B, C, r)
WRAPH(f16_add_lanes, 2)
WRAPH(f16_mul_lanes, 2)
WRAPH(f16_fma_lanes, 3)
WRAPH(f16_add_lanes_portable, 2)
WRAPH(f16_mul_lanes_portable, 2)
WRAPH(f16_fma_lanes_portable, 3)
WRAPH(bf16_add_lanes, 2)
WRAPH(bf16_mul_lanes, 2)
WRAPH(bf16_fma_lanes, 3)
WRAPH(bf16_add_lanes_portable, 2)
WRAPH(bf16_mul_lanes_portable, 2)
WRAPH(bf16_fma_lanes_portable, 3)

static uint64_t w_f32_mul_scaled(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    return f32_mul_scaled((uint32_t)a, (uint32_t)b, (int)(int64_t)c, r);
}

enum kind { ADD, MUL, MULS, FMA, WIDEN, NARROW };

/* For MULS c is k; WIDEN's a is in `fmt`, its result F64; NARROW's a is F64. */
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
    /* the 16-bit lane kernels: after the scalar functions, which find_op finds */
    {"f16_add_lanes", ADD, F16, w_f16_add_lanes},   {"f16_mul_lanes", MUL, F16, w_f16_mul_lanes},
    {"f16_fma_lanes", FMA, F16, w_f16_fma_lanes},   {"f16_add_no_f16c", ADD, F16, w_f16_add_lanes_portable},
    {"f16_mul_no_f16c", MUL, F16, w_f16_mul_lanes_portable},
    {"f16_fma_no_f16c", FMA, F16, w_f16_fma_lanes_portable},
    {"bf16_add_lanes", ADD, BF16, w_bf16_add_lanes}, {"bf16_mul_lanes", MUL, BF16, w_bf16_mul_lanes},
    {"bf16_fma_lanes", FMA, BF16, w_bf16_fma_lanes},
    {"bf16_add_noavx", ADD, BF16, w_bf16_add_lanes_portable},
    {"bf16_mul_noavx", MUL, BF16, w_bf16_mul_lanes_portable},
    {"bf16_fma_noavx", FMA, BF16, w_bf16_fma_lanes_portable},
};

static const op *find_op(enum kind kind, int fmt)
{
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (ops[i].kind == kind && ops[i].fmt == fmt)
            return &ops[i];
    abort();
}

/* The reference result of o in mode r (a NaN stands for any NaN). */
static uint64_t reference(const op *o, uint64_t a, uint64_t b, uint64_t c, int r)
{
    const fpf *f = &FMT[o->fmt];
    int invalid;
    switch (o->kind) {
    case WIDEN: return ref_convert(F64, f_to_double(f, a), r);
    case NARROW: return ref_convert(o->fmt, f_to_double(&FMT[F64], a), r);
    default: break;
    }
    if (f_isnan(f, a) || f_isnan(f, b) || (o->kind == FMA && f_isnan(f, c)))
        return f_canon(f);
    if (o->kind == MULS)
        return ref_round_op(o->fmt, OP_MUL, a, b, 0, (int)(int64_t)c, r, &invalid);
    return ref_round_op(o->fmt, o->kind == ADD ? OP_ADD : o->kind == MUL ? OP_MUL : OP_FMA, a, b, c, 0, r, &invalid);
}

static void check1(const op *o, uint64_t a, uint64_t b, uint64_t c, int r)
{
    uint64_t want = reference(o, a, b, c, r);
    uint64_t got = o->fn(a, b, c, (fp_rnd)r);
    const fpf *rf = &FMT[o->kind == WIDEN ? F64 : o->fmt];
    static const op *last;
    static fp_tally *t;
    if (o != last)
        last = o, t = fp_tally_for(o->name);
    FP_CHECK(t, f_isnan(rf, want) ? f_isnan(rf, got) : got == want,
             "%s(%#llx, %#llx, %#llx) %s: want %#llx got %#llx", o->name, (unsigned long long)a, (unsigned long long)b,
             (unsigned long long)c, RND_NAME[r], (unsigned long long)want, (unsigned long long)got);
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

static void g_operands(const op *o, uint64_t *a, uint64_t *b, uint64_t *c)
{
    *a = *b = *c = 0;
    switch (o->kind) {
    case ADD: gen_tuple(o->fmt, GEN_ADD, 0, a, b, c); break;
    case MUL: gen_tuple(o->fmt, GEN_MUL, 0, a, b, c); break;
    case MULS: {
        long k = rnd_range(-3, 3);
        gen_tuple(o->fmt, GEN_MUL, (int)k, a, b, c);
        *c = (uint64_t)(int64_t)k;
        break;
    }
    case FMA: gen_tuple(o->fmt, GEN_FMA, 0, a, b, c); break;
    case NARROW: { /* doubles in and around the format's range */
        const fpf *d = &FMT[F64], *f = &FMT[o->fmt];
        long lo = d->bias + 1 - f->bias - f->mbits - 3, hi = d->bias + f->bias + 2;
        if ((tg_next(&fp_rng) & 7) == 0) { /* raw bit patterns */
            *a = g_bits(d);
            break;
        }
        *a = (tg_next(&fp_rng) & 7) ? g_near(d, rnd_range(lo, hi), 0) : g_special(d);
        if (tg_next(&fp_rng) & 1) /* few significant bits: ties */
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
        const fpf *f = &FMT[o->kind == NARROW ? F64 : o->fmt];
        uint64_t s[MAX_SPECIALS], t[MAX_SPECIALS];
        int n = f_specials(f, s, SP_ALL), nt = f_specials(f, t, SP_ONE_NAN);
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
        uint64_t a = g_bits(&FMT[F32]), b = g_bits(&FMT[F32]);
        check(find_op(MULS, F32), a, b, (uint64_t)(int64_t)ks[n % 12]);
    }
}

/* The double just at (d = 0), above (d = 1) or below (d = -1) the midpoint
 * between the finite 16-bit value v and its successor in magnitude (exact:
 * at most 42 significant bits). */
static uint64_t midpoint(const fpf *f, uint64_t v, int d)
{
    double x = f_to_double(f, v), s = (v & f_sign(f)) ? -1 : 1;
    int e;
    frexp(x, &e); /* 2^(e-1) <= |x| < 2^e */
    long emin = 1 - f->bias, ex = x == 0 ? emin : e - 1;
    long q = (ex > emin ? ex : emin) - f->mbits; /* the weight of v's last place */
    return f_from_double(&FMT[F64], x + s * ldexp(1, (int)q - 1) + s * d * ldexp(1, (int)q - 30));
}

/* Every 16-bit value: widening, classification, narrowing of the doubles
 * at and around its upper midpoint; a few operations with every value as
 * one operand. */
static void test_exhaustive16(void)
{
    static const op widen16[2] = {{"f16_to_f64", WIDEN, F16, w_f16_to_f64}, {"bf16_to_f64", WIDEN, BF16, w_bf16_to_f64}};
    const int ids[2] = {F16, BF16};
    for (int k = 0; k < 2; k++) {
        const fpf *f = &FMT[ids[k]];
        const op *nar = find_op(NARROW, ids[k]);
        const uint64_t one = (uint64_t)f->bias << f->mbits;
        uint64_t partners[3] = {one | 1, (one - (2ull << f->mbits)) | 0x5, 0x3};
        int bad_class = 0;
        for (uint64_t v = 0; v < 65536; v++) {
            check1(&widen16[k], v, 0, 0, FP_RN);
            int nan = fp_isnan(v, k ? &FMT_BF16 : &FMT_F16);
            int sub = fp_is_subnormal(v, k ? &FMT_BF16 : &FMT_F16);
            bad_class += nan != f_isnan(f, v) || sub != f_issub(f, v);
            for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) { /* scalar functions and lane kernels */
                const op *o = &ops[i];
                if (o->fmt != ids[k] || (o->kind != ADD && o->kind != MUL && o->kind != FMA))
                    continue;
                if (o->kind == FMA)
                    check(o, v, partners[0], partners[1] ^ f_sign(f));
                else
                    for (int p = 0; p < 3; p++)
                        check(o, v, partners[p], 0);
            }
            if (!f_isnan(f, v) && (v & ~f_sign(f)) != f_inf(f))
                for (int d = -1; d <= 1; d++)
                    check(nar, midpoint(f, v, d), 0, 0);
        }
        CHECKF(bad_class == 0, "%s: %d values misclassified", f->name, bad_class);
    }
}

static void test_classify_wide(void)
{
    int bad = 0;
    const fpf *d = &FMT[F64], *s = &FMT[F32];
    for (int n = 0; n < 200000; n++) {
        uint64_t x = tg_next(&fp_rng);
        if (n & 1) /* exponent field all zeros or all ones half the time */
            x = (n & 2) ? x & 0x800fffffffffffffu : x | 0x7ff0000000000000u;
        uint32_t y = (uint32_t)x;
        if ((n & 4) == 0)
            y = (n & 8) ? y & 0x807fffffu : y | 0x7f800000u;
        bad += fp_isnan(x, &FMT_F64) != f_isnan(d, x) || fp_isnan(y, &FMT_F32) != f_isnan(s, y);
        bad += fp_is_subnormal(x, &FMT_F64) != f_issub(d, x) || fp_is_subnormal(y, &FMT_F32) != f_issub(s, y);
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
        int r = (int)(tg_next(&fp_rng) & 3), i = n & 3;
        check1(find_op((tg_next(&fp_rng) & 1) ? ADD : MUL, F32), fa[i], fb[i], 0, r);
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
static void same_lanes(const char *name, const uint64_t *got, const uint64_t *want, int fi)
{
    const fpf *f = &FMT[fi];
    for (int l = 0; l < 32; l++)
        FP_CHECK(fp_tally_for(name), got[l] == want[l] || (f_isnan(f, got[l]) && f_isnan(f, want[l])),
                 "%s lane %d: %#llx, the scalar function %#llx", name, l, (unsigned long long)got[l],
                 (unsigned long long)want[l]);
}

static void test_lanes(void)
{
    static const uint32_t sp32[] = {0, 0x80000000u, 1, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u,
                                    0xff800000u, 0x7f800000u, 0x7fc00001u, 0x7f800001u, 0x33800000u};
    static const uint64_t sp64[] = {0, 0x8000000000000000u, 1, 0x000fffffffffffffu, 0x0010000000000000u,
                                    0x7fefffffffffffffu, 0x3ff0000000000000u, 0xfff0000000000000u,
                                    0x7ff8000000000001u, 0x3ca0000000000000u};
    for (int iter = 0; iter < 2000; iter++) {
        fp_rnd r = (fp_rnd)(iter & 3);
        int k = (int)(iter % 7) - 3;
        uint32_t a[32], b[32], c[32], d[3][32];
        uint64_t A[32], B[32], C[32], D[3][32], got[3][32], want[6][32];
        for (int l = 0; l < 32; l++) {
            uint64_t x = tg_next(&fp_rng);
            a[l] = x % 5 == 0 ? sp32[x % 12] : (uint32_t)tg_next(&fp_rng);
            b[l] = x % 7 == 0 ? sp32[(x >> 8) % 12] : (uint32_t)tg_next(&fp_rng);
            c[l] = x % 3 == 0 ? (a[l] ^ 0x80000000u) : (uint32_t)tg_next(&fp_rng); /* cancellations */
            A[l] = x % 5 == 0 ? sp64[x % 10] : tg_next(&fp_rng);
            B[l] = x % 7 == 0 ? sp64[(x >> 8) % 10] : tg_next(&fp_rng);
            C[l] = x % 3 == 0 ? (A[l] ^ 0x8000000000000000u) : tg_next(&fp_rng);
            want[0][l] = f32_add(a[l], b[l], r);
            want[1][l] = k ? f32_mul_scaled(a[l], b[l], k, r) : f32_mul(a[l], b[l], r);
            want[2][l] = f32_fma(a[l], b[l], c[l], r);
            want[3][l] = f64_add(A[l], B[l], r);
            want[4][l] = f64_mul(A[l], B[l], r);
            want[5][l] = f64_fma(A[l], B[l], C[l], r);
        }
        f32_add_lanes(d[0], a, b, r);
        f32_mul_lanes(d[1], a, b, k, r);
        f32_fma_lanes(d[2], a, b, c, r);
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 32; l++)
                got[i][l] = d[i][l];
        same_lanes("f32_add_lanes", got[0], want[0], F32);
        same_lanes("f32_mul_lanes", got[1], want[1], F32);
        same_lanes("f32_fma_lanes", got[2], want[2], F32);
        f64_add_lanes(D[0], A, B, r);
        f64_mul_lanes(D[1], A, B, r);
        f64_fma_lanes(D[2], A, B, C, r);
        same_lanes("f64_add_lanes", D[0], want[3], F64);
        same_lanes("f64_mul_lanes", D[1], want[4], F64);
        same_lanes("f64_fma_lanes", D[2], want[5], F64);
    }
}

int main(void)
{
    double t0 = fp_seconds();
    fp_setup();
    test_mode_cache();
    test_specials();
    test_random();
    test_exhaustive16();
    test_classify_wide();
    test_lanes();
    fp_teardown();
    fp_restore_host_rounding();
    fp_print_tallies("softfp against the MPFR reference", fp_seconds() - t0);
    return test_summary();
}
