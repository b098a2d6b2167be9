/* The MUFU functions (sim/mufu) against GNU MPFR: every result must match
 * the correctly rounded value bit for bit.
 *
 * Reference: the MPFR function at the format's precision (24 bits for F32;
 * 21 for F64H, the F64 high word: 1 sign, 11 exponent, 20 fraction bits),
 * then fpref.h's ref_finish in the format's exponent range: one rounding
 * to nearest-even with gradual underflow and overflow to infinity.  NaN
 * results are 0x7FFFFFFF.  One rule differs from MPFR:
 * rsq(-0) is -inf (IEEE 754's rSqrt; mpfr_rec_sqrt gives +inf).  .FTZ is
 * derived from the same reference call: a subnormal input counts as a
 * signed zero, a subnormal result becomes a signed zero.
 *
 * Inputs: exhaustive where cheap (RCP: three binades and every subnormal;
 * RSQ: a binade of each exponent parity and every subnormal; RCP64H and
 * RSQ64H: all 2^20 fractions at two exponents of each parity, and every
 * F64 subnormal); for COS, SIN, EX2, LG2 random bit patterns plus dense
 * sampling where results are delicate: near 0, near multiples of pi/2
 * (huge ones too), near integers for EX2 and its overflow and underflow
 * thresholds, near 1 and powers of two for LG2; and for every op the
 * special values.  Each input is checked with and without .FTZ; a share of
 * them, and the listed hard cases (inputs whose value lies so close to a
 * rounding boundary that the fast path hands over to the accurate one),
 * also through mufu_eval_accurate.  Finally some inputs of each op are
 * evaluated after the host rounding mode was left at RM, RP or RZ by a
 * softfp operation, as the simulator's other instructions leave it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "fpref.h"
#include "sim/mufu.h"
#include "fp/softfp.h"

enum { NOPS = 8 };

static const char *const OP_NAME[NOPS] = {"COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H"};

static int is_wide(mufu_op op) { return op == MUFU_RCP64H || op == MUFU_RSQ64H; }

/* F64H for RCP64H and RSQ64H, else F32 */
static int fmt_of(mufu_op op) { return is_wide(op) ? F64H : F32; }

/* ------------------------------------------------------------------ reference */

static uint32_t reference(mufu_op op, uint32_t x)
{
    int fi = fmt_of(op);
    const fpf *f = &FMT[fi];
    if (f_isnan(f, x))
        return (uint32_t)f_canon(f);
    if ((op == MUFU_RSQ || op == MUFU_RSQ64H) && x == f_sign(f)) /* rsq(-0) */
        return (uint32_t)(f_sign(f) | f_inf(f));
    mpfr_ptr in = ref_a[fi], out = ref_r[fi];
    mpfr_set_d(in, f_to_double(f, x), MPFR_RNDN);
    int t;
    switch (op) {
    case MUFU_COS: t = mpfr_cos(out, in, MPFR_RNDN); break;
    case MUFU_SIN: t = mpfr_sin(out, in, MPFR_RNDN); break;
    case MUFU_EX2: t = mpfr_exp2(out, in, MPFR_RNDN); break;
    case MUFU_LG2: t = mpfr_log2(out, in, MPFR_RNDN); break;
    case MUFU_RCP:
    case MUFU_RCP64H: t = mpfr_ui_div(out, 1, in, MPFR_RNDN); break;
    default: t = mpfr_rec_sqrt(out, in, MPFR_RNDN); break;
    }
    return (uint32_t)ref_finish(fi, out, t, RN);
}

/* ------------------------------------------------------------------ checking */

static long inputs[NOPS];
static fp_tally *tally[NOPS];
static uint32_t ref_zero[NOPS][2]; /* reference at +0 and -0: .FTZ of a subnormal */

static void compare(mufu_op op, uint32_t x, const char *how, uint32_t want, uint32_t got)
{
    FP_CHECK(tally[op], want == got, "%s%s x=0x%08x (%a): want 0x%08x got 0x%08x", OP_NAME[op], how, x,
             f_to_double(&FMT[fmt_of(op)], x), want, got);
}

/* x with and without .FTZ; also through the accurate path alone when
 * `accurate` (only COS, SIN, EX2, LG2 have one). */
static void check(mufu_op op, uint32_t x, int accurate)
{
    uint32_t want = reference(op, x);
    const fpf *f = &FMT[fmt_of(op)];
    uint32_t want_ftz = f_issub(f, x) ? ref_zero[op][x >> 31] : (uint32_t)f_flush(f, want);
    inputs[op]++;
    compare(op, x, "", want, mufu_eval(op, x, 0));
    compare(op, x, ".FTZ", want_ftz, mufu_eval(op, x, 1));
    if (accurate && op <= MUFU_LG2) {
        compare(op, x, " (accurate path)", want, mufu_eval_accurate(op, x, 0));
        compare(op, x, ".FTZ (accurate path)", want_ftz, mufu_eval_accurate(op, x, 1));
    }
}

/* ------------------------------------------------------------------ inputs */

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Every share-th input of a family also goes through the accurate path. */
enum { ACCURATE_SHARE = 16 };
static long family_count;

static void check_family(mufu_op op, uint32_t x)
{
    check(op, x, family_count++ % ACCURATE_SHARE == 0);
}

static void every_fraction(mufu_op op, uint32_t first, unsigned frac_bits)
{
    for (uint32_t m = 0; m < 1u << frac_bits; m++)
        check(op, first + m, 0);
}

/* the bit patterns within `radius` units of the last place around x, both signs */
static void around(mufu_op op, uint32_t x, int radius)
{
    for (int d = -radius; d <= radius; d++) {
        uint32_t b = (uint32_t)((int64_t)(x & 0x7fffffffu) + d);
        if (b >= 0x7f800000u)
            continue;
        check_family(op, b);
        check_family(op, b | 0x80000000u);
    }
}

static void random_patterns(mufu_op op, long n)
{
    for (long i = 0; i < n; i++)
        check_family(op, (uint32_t)tg_next(&fp_rng));
}

/* uniform in [-limit, limit) */
static void random_uniform(mufu_op op, long n, double limit)
{
    for (long i = 0; i < n; i++)
        check_family(op, f32_bits((float)((double)(tg_next(&fp_rng) >> 11) * 0x1p-53 * 2 * limit - limit)));
}

/* 2^e <= |x| < 2^(e+1) with e uniform in [lo, hi] (subnormal below
 * -126), random significand and sign */
static void random_exponents(mufu_op op, long n, int lo, int hi)
{
    for (long i = 0; i < n; i++) {
        uint64_t r = tg_next(&fp_rng);
        int e = (int)rnd_range(lo, hi);
        uint32_t frac = (uint32_t)(r >> 32) >> 9, b;
        if (e >= -126)
            b = (uint32_t)(e + 127) << 23 | frac;
        else
            b = 1u << (e + 149) | (frac & ((1u << (e + 149)) - 1));
        check_family(op, b | (uint32_t)(r >> 63) << 31);
    }
}

static const uint32_t F32_SPECIALS[] = {
    0x00000000u, 0x00000001u, 0x00000002u, 0x000fffffu, 0x00400000u, 0x007fffffu, 0x00800000u, 0x00800001u,
    0x01000000u, 0x33800000u, 0x34000000u, 0x3e800000u, 0x3f000000u, 0x3f3504f3u, 0x3f490fdau, 0x3f490fdbu,
    0x3f7fffffu, 0x3f800000u, 0x3f800001u, 0x3fc90fdbu, 0x3fffffffu, 0x40000000u, 0x40490fdbu, 0x40c90fdbu,
    0x42fe0000u, 0x42ffffffu, 0x43000000u, 0x43150000u, 0x43160000u, 0x4b000000u, 0x4b7fffffu, 0x4cbebc20u,
    0x5a000000u, 0x7e800000u, 0x7f000000u, 0x7f7fffffu, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu,
};

static void specials_f32(mufu_op op)
{
    for (size_t i = 0; i < sizeof F32_SPECIALS / sizeof F32_SPECIALS[0]; i++) {
        check(op, F32_SPECIALS[i], 1);
        check(op, F32_SPECIALS[i] | 0x80000000u, 1);
    }
}

/* The 64 hardest inputs of each function: those whose exact value lies
 * nearest to a rounding boundary (the comments give the distance in F32
 * ulps).  Found by running every input through mufu_eval and ranking, with
 * MPFR, the ones its fast path could not decide (a superset of all inputs
 * within 2^-24 ulp of a boundary).  Positive inputs for COS and SIN: the
 * negative ones are checked too. */
static const uint32_t HARD_COS[] = { /* down to 2.2e-08 ulp */
    0x6115cb11u, 0x59443c0au, 0x5f18b878u, 0x7a4b1a27u, 0x5922aa80u, 0x7908cd73u, 0x61703976u, 0x3c107fe6u,
    0x55e5235du, 0x39800000u, 0x424790ceu, 0x3a544395u, 0x4a01dca4u, 0x7a38ab34u, 0x52d9d3feu, 0x42378db8u,
    0x7c69ae1eu, 0x4986afeeu, 0x47a0e238u, 0x76d7173fu, 0x7c64841eu, 0x744fd5d8u, 0x52f88494u, 0x543f6e04u,
    0x5a8c921bu, 0x6978e912u, 0x64933b14u, 0x46f85a22u, 0x51abf5aau, 0x77f7b624u, 0x3a0f1bbdu, 0x4e5b65ffu,
    0x797cef4fu, 0x650247d7u, 0x504be581u, 0x75da4c95u, 0x7db91687u, 0x5a1a3626u, 0x7e82fea4u, 0x3e5fa70eu,
    0x7403c71cu, 0x71510edbu, 0x4ea2216bu, 0x5bae7209u, 0x4b511330u, 0x77fb4fbfu, 0x4c46d929u, 0x7d378aefu,
    0x7c75f2a4u, 0x4010a4bfu, 0x3fdb3c0eu, 0x7c06dc1bu, 0x72cfc61du, 0x5da7ab87u, 0x4dd46702u, 0x3faa2672u,
    0x647a941fu, 0x77e9fa6bu, 0x6bdb1cfcu, 0x47d7c67eu, 0x5956c49cu, 0x71874a79u, 0x6aa2e13au, 0x72a4a047u,
};
static const uint32_t HARD_SIN[] = { /* down to 2.3e-08 ulp */
    0x73243f06u, 0x46199998u, 0x55cafb2au, 0x67a9242bu, 0x4371ade3u, 0x5f208d82u, 0x7a5aacdbu, 0x6446cec0u,
    0x79d1f6d3u, 0x61dfc847u, 0x5dadd689u, 0x4fb56937u, 0x653cee8fu, 0x7a817b08u, 0x6d734599u, 0x3ef3830fu,
    0x45a8abb3u, 0x6a3f60ffu, 0x3dcf5597u, 0x4967cb9bu, 0x5a935f4cu, 0x58dfb085u, 0x4aa5a796u, 0x42d44528u,
    0x4ecd11c7u, 0x616d8730u, 0x7f2a2ca7u, 0x521945edu, 0x7c2e964au, 0x4a987933u, 0x6dcea82eu, 0x4df947f3u,
    0x6504cef1u, 0x5de78921u, 0x64e5a461u, 0x7c5d6b82u, 0x67051b8du, 0x55da572eu, 0x6e649053u, 0x4f45dcabu,
    0x3d0650eau, 0x7970a79du, 0x5cdaa4f7u, 0x545bb734u, 0x6e671317u, 0x3a1285ffu, 0x62e31fd9u, 0x726fd58eu,
    0x742c68ceu, 0x6652a0dcu, 0x7bcebcddu, 0x7f58cad9u, 0x401f2100u, 0x497d25c7u, 0x5b258da4u, 0x7a93d493u,
    0x509b1e93u, 0x3ef32001u, 0x7400c9ecu, 0x73263d14u, 0x3fa0fa4eu, 0x5c8248a5u, 0x761a2787u, 0x5b895db8u,
};
static const uint32_t HARD_EX2[] = { /* down to 6.2e-08 ulp */
    0xb52d1f9au, 0xbcf3a937u, 0x3b429d37u, 0xb8d3d026u, 0xbaec2b40u, 0x3a07857cu, 0x3c02a9adu, 0x36879cf7u,
    0xbe1f29deu, 0x33b8aa3bu, 0x3dc9abe2u, 0xb466d4cbu, 0xb338aa3bu, 0xb8bbd3a2u, 0xb5160a52u, 0xbcaf4d02u,
    0x3d036455u, 0xbae36f38u, 0x3b53aa14u, 0x37e338ebu, 0x3a0b4316u, 0xb8acad70u, 0xb63b8cf0u, 0x3deb2f8eu,
    0xb4fdea14u, 0xb338aa3cu, 0x383ecb1du, 0x354fbf7fu, 0x38fc47e1u, 0x365584c5u, 0x33b8aa3au, 0xb59bcfa6u,
    0xb873a3d9u, 0x39e14097u, 0x357dea0cu, 0xb40a7fadu, 0xbe5e17c2u, 0xb9b001b9u, 0x3e196c0eu, 0x3f4746f3u,
    0xbe62e434u, 0xb4a194f5u, 0x3cfe4448u, 0xba0f8aa5u, 0x33b8aa3cu, 0x34e6d4c8u, 0xba869e61u, 0xbe0e371bu,
    0x3e96975cu, 0x3fa5a5d7u, 0xbf34b452u, 0xbfda5a29u, 0x36610f67u, 0xbd723abfu, 0xb338aa3au, 0x3f4d2720u,
    0x3fe69390u, 0x403349c8u, 0x407349c8u, 0x4099a4e4u, 0x40b9a4e4u, 0x40d9a4e4u, 0x40f9a4e4u, 0x410cd272u,
};
static const uint32_t HARD_LG2[] = { /* down to 7.0e-09 ulp */
    0x3ea07ab9u, 0x40207ab9u, 0x5f914a90u, 0x60114a90u, 0x60914a90u, 0x61114a90u, 0x61914a90u, 0x62114a90u,
    0x62914a90u, 0x63114a90u, 0x63914a90u, 0x64114a90u, 0x64914a90u, 0x65114a90u, 0x65914a90u, 0x66114a90u,
    0x66914a90u, 0x67114a90u, 0x67914a90u, 0x68114a90u, 0x68914a90u, 0x69114a90u, 0x69914a90u, 0x6a114a90u,
    0x6a914a90u, 0x6b114a90u, 0x6b914a90u, 0x6c114a90u, 0x6c914a90u, 0x6d114a90u, 0x6d914a90u, 0x6e114a90u,
    0x6e914a90u, 0x6f114a90u, 0x6f914a90u, 0x70114a90u, 0x70914a90u, 0x71114a90u, 0x71914a90u, 0x72114a90u,
    0x72914a90u, 0x73114a90u, 0x73914a90u, 0x74114a90u, 0x74914a90u, 0x75114a90u, 0x75914a90u, 0x76114a90u,
    0x76914a90u, 0x77114a90u, 0x77914a90u, 0x78114a90u, 0x78914a90u, 0x79114a90u, 0x79914a90u, 0x7a114a90u,
    0x7a914a90u, 0x7b114a90u, 0x7b914a90u, 0x7c114a90u, 0x7c914a90u, 0x7d114a90u, 0x7d914a90u, 0x7e114a90u,
};

static void hard_cases(mufu_op op, const uint32_t *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        check(op, list[i], 1);
        if (op == MUFU_SIN || op == MUFU_COS)
            check(op, list[i] | 0x80000000u, 1);
    }
}
#define HARD(op, list) hard_cases(op, list, sizeof list / sizeof list[0])

/* ------------------------------------------------------------------ per op */

static void test_sincos(mufu_op op)
{
    specials_f32(op);
    if (op == MUFU_SIN)
        HARD(op, HARD_SIN);
    else
        HARD(op, HARD_COS);
    random_patterns(op, 500000);
    random_uniform(op, 600000, 10.0);
    random_uniform(op, 200000, 1e5);
    random_exponents(op, 200000, 20, 127); /* huge arguments */
    random_exponents(op, 200000, -149, -10); /* near 0 */
    for (uint32_t b = 1; b < 0x00800000u; b += 0x3f1u) /* subnormals */
        check_family(op, b);
    /* near k pi/2: small k densely, then large k spread over the range */
    for (int k = 1; k <= 4000; k++)
        around(op, f32_bits((float)(k * 1.5707963267948966)), 16);
    for (int i = 0; i < 2000; i++) {
        double k = floor(ldexp((double)(tg_next(&fp_rng) >> 11), -53) * ldexp(1.0, (int)tg_below(&fp_rng, 100)));
        around(op, f32_bits((float)(k * 1.5707963267948966)), 8);
    }
    /* the floats nearest k pi/2 for k up to 2^24: reduction stress */
    for (int i = 0; i < 200000; i++) {
        double k = (double)tg_below(&fp_rng, 1u << 24);
        check_family(op, f32_bits((float)(k * 1.5707963267948966)));
    }
}

static void test_ex2(void)
{
    mufu_op op = MUFU_EX2;
    specials_f32(op);
    HARD(op, HARD_EX2);
    random_patterns(op, 200000);
    random_uniform(op, 1200000, 151.0);
    random_uniform(op, 200000, 1.0);
    random_exponents(op, 200000, -149, -1); /* near 0 */
    for (int n = 1; n <= 151; n++) /* near every integer in range, both signs */
        around(op, f32_bits((float)n), 600);
    around(op, 0x43000000u, 40000); /* overflow threshold, below 128 */
    around(op, 0x42fc0000u, 2000);  /* 126: subnormal results start */
    around(op, 0x43150000u, 20000); /* 149 */
    around(op, 0x43160000u, 20000); /* 150 */
    for (uint32_t b = 1; b < 0x00800000u; b += 0x7f1u)
        check_family(op, b);
}

static void test_lg2(void)
{
    mufu_op op = MUFU_LG2;
    specials_f32(op);
    HARD(op, HARD_LG2);
    random_patterns(op, 200000);
    random_exponents(op, 600000, -126, 127);
    for (int i = 0; i < 400000; i++) /* positive, near 1 */
        check_family(op, 0x3f800000u + (uint32_t)rnd_range(-0x200000, 0x1fffff));
    for (int d = 1; d <= 100000; d++) { /* densely next to 1 */
        check_family(op, 0x3f800000u + (uint32_t)d);
        check_family(op, 0x3f800000u - (uint32_t)d);
    }
    for (int e = -149; e <= 127; e++) { /* next to other powers of two */
        uint32_t p = e < -126 ? 1u << (e + 149) : (uint32_t)(e + 127) << 23;
        for (uint32_t d = 1; d <= 300; d++) {
            check_family(op, p + d);
            if (p - d < p)
                check_family(op, p - d);
        }
    }
    for (uint32_t b = 1; b < 0x00800000u; b += 0x3f1u) /* subnormals */
        check_family(op, b);
}

static void test_rcp(void)
{
    mufu_op op = MUFU_RCP;
    specials_f32(op);
    every_fraction(op, 0x3f800000u, 23); /* [1, 2) */
    every_fraction(op, 0x7e800000u, 23); /* [2^126, 2^127): subnormal results */
    every_fraction(op, 0x7f000000u, 23); /* [2^127, 2^128): subnormal results */
    every_fraction(op, 0x00000000u, 23); /* every subnormal: results overflow or not */
    random_patterns(op, 100000);
}

static void test_rsq(void)
{
    mufu_op op = MUFU_RSQ;
    specials_f32(op);
    every_fraction(op, 0x3f800000u, 23); /* [1, 2) */
    every_fraction(op, 0x40000000u, 23); /* [2, 4) */
    every_fraction(op, 0x00000000u, 23); /* every subnormal */
    random_patterns(op, 100000);
}

static void test_wide(mufu_op op)
{
    static const uint32_t specials[] = {0x00000000u, 0x00000001u, 0x000fffffu, 0x00100000u, 0x00100001u,
                                        0x3ff00000u, 0x3ff00001u, 0x3fffffffu, 0x40000000u, 0x7fe00000u,
                                        0x7fefffffu, 0x7ff00000u, 0x7ff00001u, 0x7ff80000u, 0x7fffffffu};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        check(op, specials[i], 0);
        check(op, specials[i] | 0x80000000u, 0);
    }
    every_fraction(op, 0x3ff00000u, 20); /* [1, 2) */
    every_fraction(op, 0x40000000u, 20); /* [2, 4) */
    every_fraction(op, 0x7fd00000u, 20); /* 2^1022: RCP's results are subnormal */
    every_fraction(op, 0x7fe00000u, 20); /* 2^1023 */
    every_fraction(op, 0x00000000u, 20); /* every F64 subnormal */
    every_fraction(op, 0x00100000u, 20); /* the smallest normal binade */
    for (int i = 0; i < 100000; i++)
        check(op, (uint32_t)tg_next(&fp_rng), 0);
}

/* mufu_eval must not depend on the rounding mode softfp last selected */
static void test_after_mode_switch(mufu_op op)
{
    for (int r = FP_RM; r <= FP_RZ; r++)
        for (int i = 0; i < 3000; i++) {
            uint32_t x = (uint32_t)tg_next(&fp_rng);
            if (op == MUFU_EX2 || op == MUFU_LG2 || op == MUFU_SIN || op == MUFU_COS)
                x = (x & 0x807fffffu) | (uint32_t)(120 + i % 15) << 23; /* through the Ziv paths */
            uint32_t want = reference(op, x);
            fp_use_rounding((fp_rnd)r);
            compare(op, x, " (host mode left at RM/RP/RZ)", want, mufu_eval(op, x, 0));
            fp_use_rounding((fp_rnd)r);
            compare(op, x, " (host mode left at RM/RP/RZ, accurate path)", want, mufu_eval_accurate(op, x, 0));
        }
    fp_restore_host_rounding();
}

/* ------------------------------------------------------------------ main */

static void run(mufu_op op)
{
    double t0 = fp_seconds();
    family_count = 0;
    switch (op) {
    case MUFU_COS:
    case MUFU_SIN: test_sincos(op); break;
    case MUFU_EX2: test_ex2(); break;
    case MUFU_LG2: test_lg2(); break;
    case MUFU_RCP: test_rcp(); break;
    case MUFU_RSQ: test_rsq(); break;
    default: test_wide(op); break;
    }
    test_after_mode_switch(op);
    const fp_tally *t = tally[op];
    printf("%-7s %9ld inputs %10lld comparisons %6.1f s: %s\n", OP_NAME[op], inputs[op], t->compared,
           fp_seconds() - t0, t->failed ? "MISMATCHES" : "all equal");
}

int main(void)
{
    double t0 = fp_seconds();
    fp_setup();
    for (int op = 0; op < NOPS; op++) {
        tally[op] = fp_tally_for(OP_NAME[op]);
        ref_zero[op][0] = reference((mufu_op)op, 0);
        ref_zero[op][1] = reference((mufu_op)op, 0x80000000u);
    }
    /* sanity of the reference's special values, as docs/semantics.md states them */
    CHECK(ref_zero[MUFU_COS][1] == 0x3f800000u && ref_zero[MUFU_SIN][1] == 0x80000000u);
    CHECK(ref_zero[MUFU_LG2][0] == 0xff800000u && ref_zero[MUFU_LG2][1] == 0xff800000u);
    CHECK(ref_zero[MUFU_RCP][1] == 0xff800000u && ref_zero[MUFU_RSQ][1] == 0xff800000u);
    CHECK(ref_zero[MUFU_RSQ64H][1] == 0xfff00000u && ref_zero[MUFU_RCP64H][0] == 0x7ff00000u);
    CHECK(mufu_eval((mufu_op)NOPS, 0x3f800000u, 0) == 0x7fffffffu);
    for (int op = 0; op < NOPS; op++)
        run((mufu_op)op);
    fp_teardown();
    fp_print_tallies("MUFU against the MPFR reference", fp_seconds() - t0);
    return test_summary();
}
