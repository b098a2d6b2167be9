/* Decimal to binary floating point (fp_parse, fp_parse_em) against GNU MPFR:
 * one correct rounding to nearest-even, subnormals and overflow included.
 * Random decimals of 1 to 22 digits with and without exponents, and the
 * decimal texts of exact midpoints between neighbouring values of each
 * format and of their near neighbours (where rounding first to double and
 * then to the format would go wrong).  Then, for the Eisel-Lemire path
 * (at most 19 significant digits, any exponent): values and midpoints
 * from the whole range of each format (subnormal, smallest normal, largest,
 * the overflow and underflow thresholds) printed to 1..19 digits rounded
 * down, up and to nearest; exact midpoints whose decimal has at most 19
 * digits, and their 19-digit neighbours; short decimals of any magnitude. */
#include <math.h>
#include <stdint.h> /* before mpfr.h: mpfr_set_uj */
#include <mpfr.h>
#include <string.h>

#include "common/fpconv.h"
#include "testlib.h"

#include "common/pow10_tables.h"

typedef struct format {
    const char *name;
    int eb, mb;   /* exponent and mantissa bits */
    int fp;       /* fp_format, or -1: only fp_parse_em */
} format;

static const format formats[] = {
    {"F16", 5, 10, FP_F16}, {"BF16", 8, 7, FP_BF16}, {"F32", 8, 23, FP_F32}, {"F64", 11, 52, FP_F64},
    {"F32 high 20 bits", 8, 11, -1}, {"F64 high 20 bits", 11, 8, -1},
};

static tg_rng rng = {UINT64_C(0x243F6A8885A308D3)};

/* The reference bits of text in the format, and whether it overflowed. */
static uint64_t reference(const format *f, const char *text, int *overflow)
{
    mpfr_t x;
    int bias = (1 << (f->eb - 1)) - 1;
    mpfr_set_emin(2 - bias - f->mb);   /* smallest subnormal 2^(1 - bias - mb) = 0.1b x 2^emin */
    mpfr_set_emax(bias + 1);
    mpfr_init2(x, f->mb + 1);
    int t = mpfr_strtofr(x, text, NULL, 10, MPFR_RNDN);
    t = mpfr_check_range(x, t, MPFR_RNDN);
    mpfr_subnormalize(x, t, MPFR_RNDN);
    *overflow = mpfr_inf_p(x);
    double d = mpfr_get_d(x, MPFR_RNDN); /* exact: at most 53 bits, in the double range */
    mpfr_clear(x);
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    int ovf;
    return fp_from_double_em(d, f->eb, f->mb, &ovf);
}

static int bad;

static void check(const format *f, const char *text)
{
    int ro, go = 0, go2 = 0;
    uint64_t want = reference(f, text, &ro), got = 0, got2 = 0;
    int r = f->fp >= 0 ? fp_parse(text, strlen(text), (fp_format)f->fp, &got, &go) : 0;
    int r2 = f->mb <= 25 ? fp_parse_em(text, strlen(text), f->eb, f->mb, &got2, &go2) : 0;
    if (f->fp < 0) {
        got = got2;
        go = go2;
    } else if (f->mb > 25) {
        got2 = got;
        go2 = go;
    }
    if (r || r2 || got != want || got2 != want || go != ro || go2 != ro) {
        if (bad < 10)
            fprintf(stderr, "%s '%s': want 0x%llx%s, fp_parse 0x%llx%s (%d), fp_parse_em 0x%llx%s (%d)\n", f->name, text,
                    (unsigned long long)want, ro ? " overflow" : "", (unsigned long long)got, go ? " overflow" : "", r,
                    (unsigned long long)got2, go2 ? " overflow" : "", r2);
        bad++;
    }
}

/* A random decimal: 1 to 22 digits, maybe a point, maybe an exponent. */
static void random_decimal(char *buf, int exp_range)
{
    int nd = 1 + (int)tg_below(&rng, 22), dot = (int)tg_below(&rng, (uint64_t)(nd + 2)) - 1, k = 0;
    for (int i = 0; i < nd; i++) {
        if (i == dot)
            buf[k++] = '.';
        buf[k++] = (char)('0' + tg_below(&rng, 10));
    }
    if (tg_next(&rng) & 1)
        k += sprintf(buf + k, "e%d", (int)tg_range(&rng, -exp_range, exp_range));
    buf[k] = 0;
}

/* The exact decimal text of the midpoint above a random value of the
 * format near 1 (short texts), or that text with one more digit making it
 * a little larger or smaller than the midpoint. */
static void midpoint(const format *f, char *buf, size_t cap)
{
    int e = (int)tg_range(&rng, -20, 19);
    uint64_t q = (UINT64_C(1) << f->mb) | (tg_next(&rng) & ((UINT64_C(1) << f->mb) - 1));
    mpfr_t x;
    mpfr_init2(x, 80);
    mpfr_set_ui(x, (unsigned long)(2 * q + 1), MPFR_RNDN); /* exact: mb <= 52 */
    mpfr_mul_2si(x, x, e - f->mb - 1, MPFR_RNDN);
    mpfr_exp_t ex;
    char *digits = mpfr_get_str(NULL, &ex, 10, 200, x, MPFR_RNDN); /* exact: fewer than 200 digits */
    size_t n = strlen(digits);
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = 0;
    switch (tg_below(&rng, 3)) {
    case 0: /* the midpoint itself */
        snprintf(buf, cap, "0.%se%ld", digits, (long)ex);
        break;
    case 1: /* just above */
        snprintf(buf, cap, "0.%s1e%ld", digits, (long)ex);
        break;
    default: /* just below: one unit less in the last digit, then a 9 */
        for (size_t i = n; i-- > 0;) {
            if (digits[i] > '0') {
                digits[i]--;
                break;
            }
            digits[i] = '9';
        }
        snprintf(buf, cap, "0.%s9e%ld", digits, (long)ex);
    }
    mpfr_free_str(digits);
    mpfr_clear(x);
}

static int bias_of(const format *f) { return (1 << (f->eb - 1)) - 1; }

/* x = a value of the format from anywhere in its range (a random exponent,
 * subnormals included, or an extreme); with mid, the midpoint above it
 * instead (above the largest: the overflow threshold; above 0: the
 * underflow threshold). */
static void format_point(const format *f, int mid, mpfr_t x)
{
    int bias = bias_of(f), expmax = (1 << f->eb) - 1;
    uint64_t mask = (UINT64_C(1) << f->mb) - 1, m = tg_next(&rng) & mask;
    int be = (int)tg_below(&rng, (uint64_t)expmax); /* biased exponent 0 .. expmax - 1 */
    switch (tg_below(&rng, 8)) {
    case 0: be = 0; break;               /* subnormal */
    case 1: be = tg_next(&rng) & 1 ? 1 : 0; m = tg_next(&rng) & 1 ? 0 : mask; break; /* the normal/subnormal edge */
    case 2: be = expmax - 1; break;      /* the largest binade */
    case 3: m = tg_next(&rng) & 1 ? 0 : mask; break;
    default: break;
    }
    uint64_t q = be ? m | (mask + 1) : m;
    int e = (be ? be : 1) - bias - f->mb;
    mpfr_set_uj(x, (uintmax_t)(mid ? 2 * q + 1 : q), MPFR_RNDN); /* exact: 64-bit precision */
    mpfr_mul_2si(x, x, mid ? e - 1 : e, MPFR_RNDN);
}

/* digits * 10^(ex - strlen(digits)) in one of several spellings. */
static void spell(const char *digits, long ex, char *buf, size_t cap)
{
    long n = (long)strlen(digits);
    switch (tg_below(&rng, 4)) {
    case 0: snprintf(buf, cap, "%c.%se%ld", digits[0], digits + 1, ex - 1); break;
    case 1: snprintf(buf, cap, "0.%sE%+ld", digits, ex); break;
    case 2: snprintf(buf, cap, "%se%ld", digits, ex - n); break;
    default: /* no exponent where that is short */
        if (ex >= n && ex - n < 20)
            snprintf(buf, cap, "%s%.*s", digits, (int)(ex - n), "00000000000000000000");
        else if (ex > 0 && ex < n)
            snprintf(buf, cap, "%.*s.%s", (int)ex, digits, digits + ex);
        else if (ex <= 0 && ex > -20)
            snprintf(buf, cap, "0.%.*s%s", (int)-ex, "00000000000000000000", digits);
        else
            snprintf(buf, cap, "%se%ld", digits, ex - n);
    }
}

/* A value or midpoint of the format rounded to 1..19 significant decimal
 * digits, down, up or to nearest: just below, at or above a boundary. */
static void near_point(const format *f, char *buf, size_t cap)
{
    static const mpfr_rnd_t modes[] = {MPFR_RNDN, MPFR_RNDD, MPFR_RNDU};
    mpfr_t x;
    mpfr_init2(x, 64);
    format_point(f, (int)(tg_next(&rng) & 1), x);
    if (mpfr_zero_p(x)) {
        snprintf(buf, cap, "0");
    } else {
        mpfr_exp_t ex;
        char *digits = mpfr_get_str(NULL, &ex, 10, 1 + tg_below(&rng, 19), x, modes[tg_below(&rng, 3)]);
        spell(digits, (long)ex, buf, cap);
        mpfr_free_str(digits);
    }
    mpfr_clear(x);
}

/* The exact decimal digits of x without trailing zeros, or NULL when
 * there are more than 19 (caller frees with mpfr_free_str). */
static char *short_digits(mpfr_t x, mpfr_exp_t *ex)
{
    char *digits = mpfr_get_str(NULL, ex, 10, 400, x, MPFR_RNDN); /* exact: below 400 digits */
    size_t n = strlen(digits);
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = 0;
    if (n <= 19)
        return digits;
    mpfr_free_str(digits);
    return NULL;
}

/* An exact midpoint of the format (the overflow threshold included) whose
 * decimal has at most 19 significant digits, or such a decimal made 19
 * digits long and a unit of the last digit above or below it. Midpoints of
 * normal numbers have mb + 2 significant bits, so that happens only for
 * binary exponents in a window around 0; subnormal midpoints (q + 1/2) *
 * 2^emin are short only when 5^-emin is (F16). Returns 0 if none found. */
static int short_midpoint(const format *f, char *buf, size_t cap)
{
    int bias = bias_of(f), emin = 1 - bias - f->mb, bits = f->mb + 2;
    double room = 19 - bits * 0.30103; /* decimal digits left for a factor 2^e (0.301 each) or 5^-e (0.699 each) */
    int lo = (int)(-room / 0.69897) - 1, hi = (int)(room / 0.30103) + 1; /* exponents of the midpoint's unit */
    mpfr_t x;
    mpfr_init2(x, 64);
    char *digits = NULL;
    mpfr_exp_t ex = 0;
    for (int tries = 0; !digits && tries < 100; tries++) {
        uint64_t q;
        int e;
        if (-emin <= 27 && tg_below(&rng, 4) == 0) { /* a subnormal midpoint, from a short q */
            q = tg_next(&rng) & ((UINT64_C(1) << tg_below(&rng, (uint64_t)(f->mb + 1))) - 1);
            e = emin - 1;
        } else {
            q = (UINT64_C(1) << (f->mb + 1)) | (tg_next(&rng) & ((UINT64_C(1) << (f->mb + 1)) - 1)) | 1; /* mb + 2 bits, odd */
            e = (int)tg_range(&rng, lo, hi);
            if (tg_below(&rng, 16) == 0) { /* the overflow threshold */
                q = (UINT64_C(1) << bits) - 1;
                e = bias - bits + 1;
            }
            if (e + bits - 1 < 1 - bias || e + bits - 1 > bias)
                continue; /* its leading bit is outside the normal binades */
        }
        mpfr_set_uj(x, (uintmax_t)q, MPFR_RNDN);
        mpfr_mul_2si(x, x, e, MPFR_RNDN);
        digits = short_digits(x, &ex);
    }
    mpfr_clear(x);
    if (!digits)
        return 0;
    char d19[24];
    size_t n = strlen(digits);
    snprintf(d19, sizeof d19, "%s%.*s", digits, (int)(19 - n), "0000000000000000000");
    switch (tg_below(&rng, 3)) {
    case 0: /* the midpoint itself */
        spell(digits, (long)ex, buf, cap);
        break;
    case 1: /* above: one unit more in the 19th digit (never all 9s: the digits end in 5, an even digit or padding) */
        for (size_t i = 19; i-- > 0;) {
            if (d19[i] < '9') {
                d19[i]++;
                break;
            }
            d19[i] = '0';
        }
        spell(d19, (long)ex, buf, cap);
        break;
    default: /* below: one unit less in the 19th digit (a leading 1 may go: 1e23 is an F64 midpoint) */
        for (size_t i = 19; i-- > 0;) {
            if (d19[i] > '0') {
                d19[i]--;
                break;
            }
            d19[i] = '9';
        }
        spell(d19[0] == '0' ? d19 + 1 : d19, d19[0] == '0' ? (long)ex - 1 : (long)ex, buf, cap);
    }
    mpfr_free_str(digits);
    return 1;
}

/* A decimal of 1 to 19 significant digits of any magnitude from below
 * half the smallest subnormal to above the largest value. */
static void short_decimal(const format *f, char *buf, size_t cap)
{
    int bias = bias_of(f);
    int lo = (int)((1 - bias - f->mb - 1) * 0.30103) - 3, hi = (int)((bias + 1) * 0.30103) + 2;
    long ex = (long)tg_range(&rng, lo, hi); /* the value is below 10^ex */
    int nd = 1 + (int)tg_below(&rng, 19);
    char digits[20];
    for (int i = 0; i < nd; i++)
        digits[i] = (char)('0' + tg_below(&rng, 10));
    if (digits[0] == '0')
        digits[0] = '1';
    digits[nd] = 0;
    spell(digits, ex, buf, cap);
}

/* Every entry of the generated power-of-ten table, recomputed with GMP
 * integers: 10^q scaled into [2^127, 2^128) and rounded down, and exact
 * for 0 <= q <= POW10_EXACT_MAX only. */
static void check_pow10_table(void)
{
    mpz_t p, t;
    mpz_inits(p, t, NULL);
    int wrong = 0;
    for (int q = POW10_MIN; q <= POW10_MAX; q++) {
        mpz_ui_pow_ui(p, 10, (unsigned long)(q < 0 ? -q : q));
        mp_bitcnt_t bits = mpz_sizeinbase(p, 2); /* 10^|q| is in [2^(bits-1), 2^bits) */
        int exact;
        if (q >= 0) { /* t = floor(10^q * 2^(128 - bits)) */
            if (bits <= 128)
                mpz_mul_2exp(t, p, 128 - bits);
            else
                mpz_fdiv_q_2exp(t, p, bits - 128);
            exact = bits <= 128 || mpz_scan1(p, 0) >= bits - 128; /* no 1 bit dropped */
        } else { /* t = floor(2^(127 + bits) / 10^-q) */
            mpz_set_ui(t, 0);
            mpz_setbit(t, 127 + bits);
            exact = mpz_divisible_p(t, p);
            mpz_fdiv_q(t, t, p);
        }
        uint64_t w[2] = {0, 0};
        size_t count = 0;
        if (mpz_sizeinbase(t, 2) == 128)
            mpz_export(w, &count, -1, sizeof w[0], 0, 0, t); /* low word first */
        if (count != 2 || w[0] != POW10[q - POW10_MIN][0] || w[1] != POW10[q - POW10_MIN][1] ||
            exact != (q >= 0 && q <= POW10_EXACT_MAX))
            wrong++;
    }
    mpz_clears(p, t, NULL);
    CHECKF(wrong == 0, "%d entries of the power-of-ten table are wrong", wrong);
}

int main(void)
{
    char buf[512];
    long n = 0;
    for (size_t fi = 0; fi < sizeof formats / sizeof *formats; fi++) {
        const format *f = &formats[fi];
        int range = f->eb == 5 ? 8 : f->eb == 8 ? 45 : 330;
        for (int i = 0; i < 200000; i++, n++) {
            random_decimal(buf, i % 2 ? 25 : range);
            check(f, buf);
        }
        for (int i = 0; i < 100000; i++, n++) {
            midpoint(f, buf, sizeof buf);
            check(f, buf);
        }
    }
    for (size_t fi = 0; fi < sizeof formats / sizeof *formats; fi++) {
        const format *f = &formats[fi];
        for (int i = 0; i < 200000; i++, n++) {
            near_point(f, buf, sizeof buf);
            check(f, buf);
        }
        for (int i = 0; i < 60000; i++) {
            if (short_midpoint(f, buf, sizeof buf)) {
                check(f, buf);
                n++;
            }
        }
        for (int i = 0; i < 100000; i++, n++) {
            short_decimal(f, buf, sizeof buf);
            check(f, buf);
        }
    }
    for (int q = POW10_MIN - 3; q <= POW10_MAX + 2; q++) { /* every table entry, in every format */
        for (int i = 0; i < 30; i++) {
            int nd = 1 + (int)tg_below(&rng, 19);
            uint64_t w = 0;
            for (int k = 0; k < nd; k++)
                w = w * 10 + tg_below(&rng, 10);
            snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)w, q);
            for (size_t fi = 0; fi < sizeof formats / sizeof *formats; fi++, n++)
                check(&formats[fi], buf);
        }
    }
    check_pow10_table();
    static const char *const edges[] = {"0", "0.0", "0e999", "1.", ".5", "65504", "65519.99", "65520", "3.4028235e38",
                                        "3.4028236e38", "1e-45", "1.4e-45", "7e-46", "1e23", "9007199254740993",
                                        "9007199254740992.5", "1.00048828125", "1.00048828125000000001"};
    for (size_t fi = 0; fi < sizeof formats / sizeof *formats; fi++)
        for (size_t i = 0; i < sizeof edges / sizeof *edges; i++, n++)
            check(&formats[fi], edges[i]);
    CHECKF(bad == 0, "%d of %ld decimals parsed differently from MPFR", bad, n);
    printf("%ld decimals compared with MPFR\n", n);
    return test_summary();
}
