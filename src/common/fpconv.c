#include "common/fpconv.h"

#include "common/fpshort.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { int ebits, mbits; } fmt[] = {{5, 10}, {8, 7}, {8, 23}, {11, 52}};

static uint64_t dbits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

uint64_t fp_from_double(double x, fp_format f, int *overflow)
{
    if (f == FP_F64) {
        *overflow = 0;
        return dbits(x);
    }
    return fp_from_double_em(x, fmt[f].ebits, fmt[f].mbits, overflow);
}

uint64_t fp_from_double_em(double x, int eb, int mb, int *overflow)
{
    uint64_t b = dbits(x);
    uint64_t sign = b >> 63;
    *overflow = 0;
    uint64_t signbit = sign << (eb + mb);
    uint64_t expmax = (UINT64_C(1) << eb) - 1;
    if (isnan(x))
        return signbit | (expmax << mb) | (UINT64_C(1) << (mb - 1));
    if (isinf(x))
        return signbit | (expmax << mb);
    if (x == 0)
        return signbit;
    /* exact: |x| = m * 2^e with a 53-bit integer m */
    int e;
    double fr = frexp(fabs(x), &e); /* |x| = fr * 2^e, fr in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(fr, 53);
    e -= 53;
    int bias = (1 << (eb - 1)) - 1;
    /* target: value = q * 2^qe where q has mb+1 bits (normal) or fewer */
    int emin = 1 - bias - mb;           /* exponent of the subnormal unit */
    int top = e + 53 - 1;               /* exponent of m's leading bit */
    int qe = top - mb;                  /* unit exponent for a normal result */
    if (qe < emin)
        qe = emin;
    int shift = qe - e;                 /* bits of m to drop (>= 0 here) */
    uint64_t q;
    if (shift <= 0) {
        q = m << -shift;
    } else if (shift > 60) {
        q = 0; /* far below half a unit of the smallest subnormal */
    } else {
        uint64_t rem = m & ((UINT64_C(1) << shift) - 1);
        uint64_t half = UINT64_C(1) << (shift - 1);
        q = m >> shift;
        if (rem > half || (rem == half && (q & 1)))
            q++;
    }
    if (q >> (mb + 1)) { /* rounding carried into a new binade */
        q >>= 1;
        qe++;
    }
    uint64_t biased;
    if (q >> mb) {
        biased = (uint64_t)(qe + mb + bias);
        if (biased >= expmax) {
            *overflow = 1;
            return signbit | (expmax << mb);
        }
        return signbit | (biased << mb) | (q & ((UINT64_C(1) << mb) - 1));
    }
    return signbit | q; /* subnormal or zero */
}

double fp_to_double(uint64_t bits, fp_format f)
{
    if (f == FP_F64) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    int eb = fmt[f].ebits, mb = fmt[f].mbits;
    int sign = (int)(bits >> (eb + mb)) & 1;
    uint64_t e = (bits >> mb) & ((UINT64_C(1) << eb) - 1);
    uint64_t m = bits & ((UINT64_C(1) << mb) - 1);
    int bias = (1 << (eb - 1)) - 1;
    double v;
    if (e == ((UINT64_C(1) << eb) - 1))
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mb);
    else
        v = ldexp((double)(m | (UINT64_C(1) << mb)), (int)e - bias - mb);
    return sign ? -v : v;
}

/* Clinger's fast path: a plain decimal whose significant digits form an
 * integer of at most 2^53, scaled by at most 10^22 (both exact doubles), is
 * one multiplication or division, hence one correct rounding to double.
 * Returns 0 when the text is anything else (the caller then uses libc). */
static int decimal_fast(const char *s, size_t n, double *out)
{
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t sig = 0;
    int digits = 0, frac = 0, dot = 0, any = 0, e = 0;
    size_t i = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any = 1;
            frac += dot;
            if (sig == 0 && c == '0')
                continue; /* leading zeros are no significant digits */
            if (++digits > 19)
                return 0;
            sig = sig * 10 + (uint64_t)(c - '0');
        } else if (c == '.' && !dot) {
            dot = 1;
        } else {
            break;
        }
    }
    if (!any)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int neg = 0, ed = 0;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            neg = s[i++] == '-';
        for (; i < n && s[i] >= '0' && s[i] <= '9' && e < 1000; i++, ed++)
            e = e * 10 + (s[i] - '0');
        if (!ed)
            return 0;
        e = neg ? -e : e;
    }
    e -= frac;
    if (i != n || sig > UINT64_C(1) << 53 || (sig && (e < -22 || e > 22)))
        return 0;
    *out = !sig ? 0.0 : e < 0 ? (double)sig / p10[-e] : (double)sig * p10[e];
    return 1;
}

/* A positive double rounded to nearest into a format of eb exponent and mb
 * mantissa bits, when the result is normal and finite there and the double
 * is not halfway between two of its values (it may have been rounded onto
 * the midpoint: rounding twice could then differ from rounding once).
 * Returns 0 when it does not apply. */
static int narrow_normal(double d, int eb, int mb, uint64_t *bits)
{
    uint64_t b = dbits(d);
    if (d == 0) {
        *bits = 0;
        return 1;
    }
    int e = (int)(b >> 52 & 0x7ff) - 1023, bias = (1 << (eb - 1)) - 1, drop = 52 - mb;
    if (mb == 52) {
        *bits = b;
        return 1;
    }
    if (e < 1 - bias || e > bias)
        return 0;
    uint64_t m = b & ((UINT64_C(1) << 52) - 1), half = UINT64_C(1) << (drop - 1), rem = m & ((half << 1) - 1);
    if (rem == half)
        return 0;
    /* a carry out of the mantissa moves into the exponent, as it should */
    uint64_t r = ((uint64_t)(e + bias) << mb) + (m >> drop) + (rem > half);
    if (r >> mb >= (UINT64_C(1) << eb) - 1)
        return 0; /* rounds to infinity */
    *bits = r;
    return 1;
}

int fp_parse(const char *s, size_t n, fp_format f, uint64_t *bits, int *overflow)
{
    char buf[FP_MAX_LITERAL + 1];
    double d;
    *overflow = 0;
    if (n == 0 || n >= sizeof buf)
        return -1;
    if (decimal_fast(s, n, &d) && narrow_normal(d, fmt[f].ebits, fmt[f].mbits, bits))
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (buf[0] == '-' || buf[0] == '+')
        return -1;
    if (!strcmp(buf, "inf") || !strcmp(buf, "INF")) {
        *bits = fp_from_double(INFINITY, f, overflow);
        return 0;
    }
    if (!strcmp(buf, "nan") || !strcmp(buf, "NAN")) {
        *bits = fp_from_double(NAN, f, overflow);
        return 0;
    }
    char *end;
    if (f == FP_F32) {
        float v = strtof(buf, &end); /* correctly rounded from the decimal */
        if (*end || end == buf)
            return -1;
        if (isinf(v))
            *overflow = 1;
        uint32_t b;
        memcpy(&b, &v, sizeof b);
        *bits = b;
        return 0;
    }
    if (f == FP_F64) {
        double v = strtod(buf, &end);
        if (*end || end == buf)
            return -1;
        *overflow = isinf(v);
        *bits = dbits(v);
        return 0;
    }
    return fp_parse_em(buf, n, fmt[f].ebits, fmt[f].mbits, bits, overflow);
}

int fp_parse_em(const char *s, size_t n, int eb, int mb, uint64_t *bits, int *overflow)
{
    char buf[128];
    double d;
    *overflow = 0;
    if (n == 0 || n >= sizeof buf || mb > 25)
        return -1;
    if (decimal_fast(s, n, &d) && narrow_normal(d, eb, mb, bits))
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (buf[0] == '-' || buf[0] == '+')
        return -1;
    char *end;
    if (!strcmp(buf, "inf") || !strcmp(buf, "INF") || !strcmp(buf, "nan") || !strcmp(buf, "NAN")) {
        *bits = fp_from_double_em(buf[0] == 'i' || buf[0] == 'I' ? INFINITY : NAN, eb, mb, overflow);
        return 0;
    }
    /* round to odd into a double (53 bits >= 2 * 26 + 1), then once more:
     * the same result as one rounding of the decimal value */
    int mode = fegetround();
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    double v = strtod(buf, &end);
    int inexact = fetestexcept(FE_INEXACT) != 0;
    fesetround(mode);
    if (*end || end == buf)
        return -1;
    if (inexact && isfinite(v)) {
        uint64_t b = dbits(v) | 1;
        memcpy(&v, &b, sizeof v);
    }
    if (isinf(v) || (inexact && fabs(v) == 0x1.fffffffffffffp+1023)) {
        *bits = fp_from_double_em(INFINITY, eb, mb, overflow);
        *overflow = 1;
        return 0;
    }
    *bits = fp_from_double_em(v, eb, mb, overflow);
    return 0;
}

/* The reference: the smallest %.*g precision that reads back (round trip
 * is monotonic in the number of digits). Slow; used where fp_shortest
 * declines and by the tests as an independent check. */
int fp_print_search(uint64_t bits, fp_format f, char *buf, size_t cap)
{
    double v = fp_to_double(bits, f);
    if (isnan(v))
        return -1;
    if (isinf(v)) {
        snprintf(buf, cap, v < 0 ? "-inf" : "inf");
        return 0;
    }
    static const int maxdig[] = {5, 4, 9, 17};
    uint64_t mag = bits & ~(UINT64_C(1) << (fmt[f].ebits + fmt[f].mbits));
    int lo = 1, hi = maxdig[f];
    char tmp[400];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        snprintf(tmp, sizeof tmp, "%.*g", mid, fabs(v));
        uint64_t back;
        int ovf;
        if (fp_parse(tmp, strlen(tmp), f, &back, &ovf) == 0 && back == mag)
            hi = mid;
        else
            lo = mid + 1;
    }
    snprintf(tmp, sizeof tmp, "%.*g", lo, fabs(v));
    snprintf(buf, cap, "%s%s", signbit(v) ? "-" : "", tmp);
    return 0;
}

/* The number of decimal digits of v (0 for 0). */
static int decimal_len(uint64_t v)
{
    static const uint64_t pow10[20] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
                                       UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
                                       UINT64_C(10000000000000), UINT64_C(100000000000000),
                                       UINT64_C(1000000000000000), UINT64_C(10000000000000000),
                                       UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
                                       UINT64_C(10000000000000000000)};
    if (!v)
        return 0;
    int t = (64 - __builtin_clzll(v)) * 1233 >> 12; /* about log10(2^bits): the length or one more */
    return t + (v >= pow10[t]);
}

/* Writes digits * 10^e10 the way %.<ndigits>g would. Digits are made two
 * at a time and copied in fixed-size blocks: no loop runs per character. */
static int format_g(uint64_t digits, int e10, int neg, char *buf, size_t cap)
{
    static const char two[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
    while (digits >= 10 && digits % 10 == 0) {
        digits /= 10;
        e10++;
    }
    char d[48] = {0}; /* the digits, most significant first; then room for 24-byte copies */
    int p = decimal_len(digits);
    char *q = d + p;
    uint64_t v = digits;
    for (; v >= 100; v /= 100) {
        q -= 2;
        memcpy(q, two + v % 100 * 2, 2);
    }
    if (v >= 10)
        memcpy(q - 2, two + v * 2, 2);
    else if (v)
        q[-1] = (char)('0' + v);
    int x = e10 + p - 1; /* exponent of the first digit */
    char out[96];
    int n = 0;
    if (neg)
        out[n++] = '-';
    if (x < -4 || x >= p) {
        out[n++] = d[0];
        if (p > 1) {
            out[n++] = '.';
            memcpy(out + n, d + 1, 24);
            n += p - 1;
        }
        int ax = x < 0 ? -x : x;
        out[n++] = 'e';
        out[n++] = x < 0 ? '-' : '+';
        if (ax >= 100)
            out[n++] = (char)('0' + ax / 100);
        out[n++] = (char)('0' + ax / 10 % 10);
        out[n++] = (char)('0' + ax % 10);
    } else if (x >= 0) { /* the point after digit x, unless it is the last */
        memcpy(out + n, d, 24);
        n += x + 1;
        if (x + 1 < p) {
            out[n++] = '.';
            memcpy(out + n, d + x + 1, 24);
            n += p - x - 1;
        }
    } else { /* "0.", then -x - 1 (at most 3) zeros */
        memcpy(out + n, "0.000", 5);
        n += 2 - x - 1;
        memcpy(out + n, d, 24);
        n += p;
    }
    out[n] = 0;
    if ((size_t)n < cap) {
        memcpy(buf, out, (size_t)n + 1);
        return n;
    }
    if (cap)
        buf[0] = 0;
    return 0;
}

int fp_print(uint64_t bits, fp_format f, char *buf, size_t cap) { return fp_print_n(bits, f, buf, cap) < 0 ? -1 : 0; }

int fp_print_n(uint64_t bits, fp_format f, char *buf, size_t cap)
{
    int eb = fmt[f].ebits, mb = fmt[f].mbits;
    int neg = (int)(bits >> (eb + mb)) & 1;
    uint64_t mant = bits & ((UINT64_C(1) << mb) - 1);
    int e = (int)((bits >> mb) & ((UINT64_C(1) << eb) - 1));
    if (e == (1 << eb) - 1) {
        if (mant)
            return -1; /* NaN: the caller prints raw bits */
        snprintf(buf, cap, neg ? "-inf" : "inf");
        return cap ? (int)strlen(buf) : 0;
    }
    if (e == 0 && mant == 0) {
        snprintf(buf, cap, neg ? "-0" : "0");
        return cap ? (int)strlen(buf) : 0;
    }
    uint64_t digits;
    int e10;
    if (fp_shortest(mant, e, mb, (1 << (eb - 1)) - 1, &digits, &e10)) {
        fp_print_search(bits, f, buf, cap);
        return cap ? (int)strlen(buf) : 0;
    }
    return format_g(digits, e10, neg, buf, cap);
}
