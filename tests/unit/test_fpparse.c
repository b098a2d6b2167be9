/* Decimal to binary floating point (fp_parse, fp_parse_em) against GNU MPFR:
 * one correct rounding to nearest-even, subnormals and overflow included.
 * Random decimals of 1 to 22 digits with and without exponents, and the
 * decimal texts of exact midpoints between neighbouring values of each
 * format and of their near neighbours (where rounding first to double and
 * then to the format would go wrong). */
#include <math.h>
#include <mpfr.h>
#include <string.h>

#include "common/fpconv.h"
#include "testlib.h"

typedef struct format {
    const char *name;
    int eb, mb;   /* exponent and mantissa bits */
    int fp;       /* fp_format, or -1: only fp_parse_em */
} format;

static const format formats[] = {
    {"F16", 5, 10, FP_F16}, {"BF16", 8, 7, FP_BF16}, {"F32", 8, 23, FP_F32}, {"F64", 11, 52, FP_F64},
    {"F32 high 20 bits", 8, 11, -1}, {"F64 high 20 bits", 11, 8, -1},
};

static uint64_t rng = UINT64_C(0x243F6A8885A308D3);

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

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
    int nd = 1 + (int)(next() % 22), dot = (int)(next() % (uint64_t)(nd + 2)) - 1, k = 0;
    for (int i = 0; i < nd; i++) {
        if (i == dot)
            buf[k++] = '.';
        buf[k++] = (char)('0' + next() % 10);
    }
    if (next() & 1)
        k += sprintf(buf + k, "e%d", (int)(next() % (uint64_t)(2 * exp_range + 1)) - exp_range);
    buf[k] = 0;
}

/* The exact decimal text of the midpoint above a random value of the
 * format near 1 (short texts), or that text with one more digit making it
 * a little larger or smaller than the midpoint. */
static void midpoint(const format *f, char *buf, size_t cap)
{
    int e = (int)(next() % 40) - 20;
    uint64_t q = (UINT64_C(1) << f->mb) | (next() & ((UINT64_C(1) << f->mb) - 1));
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
    switch (next() % 3) {
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
