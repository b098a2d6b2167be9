#include "common/fpconv.h"
#include "common/fpenv.h"

#include "common/fpshort.h"
#include "common/pow10_tables.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

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

/* The number of zero digits before the first other digit of s[0..n). */
static size_t leading_zeros(const char *s, size_t n)
{
    size_t z = 0;
    for (size_t i = 0; i < n && (s[i] == '0' || s[i] == '.'); i++)
        z += s[i] == '0';
    return z;
}

/* 5^k for 0 <= k <= 27 (the largest power of 5 below 2^64). */
static uint64_t pow5(int k)
{
    uint64_t p = 1;
    while (k-- > 0)
        p *= 5;
    return p;
}

/* Appends the digits from s[i] on to *w (which may wrap: the caller
 * checks the count); returns the index after them. */
static size_t read_digits(const char *s, size_t i, size_t n, uint64_t *w)
{
    uint64_t v = *w;
    unsigned d;
    for (; i < n && (d = (unsigned)(unsigned char)s[i] - '0') < 10; i++)
        v = v * 10 + d;
    *w = v;
    return i;
}

/* Reads a plain decimal (digits with at most one point, then maybe an
 * exponent) of at most 19 significant digits as sig * 10^e10. Returns 0 for
 * anything else: hex, inf, nan, more digits, bad syntax (libc decides). */
static int decimal_read(const char *s, size_t n, uint64_t *sig, int *e10)
{
    uint64_t w = 0; /* leading zeros add nothing to it */
    size_t i = read_digits(s, 0, n, &w), digits = i, frac = 0;
    if (i < n && s[i] == '.') {
        i = read_digits(s, i + 1, n, &w);
        frac = i - digits - 1;
        digits += frac;
    }
    if (digits == 0)
        return 0;
    if (digits > 19 && digits - leading_zeros(s, i) > 19)
        return 0;
    int e = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int neg = 0;
        size_t first;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            neg = s[i++] == '-';
        for (first = i; i < n && s[i] >= '0' && s[i] <= '9' && e < 1000; i++)
            e = e * 10 + (s[i] - '0');
        if (i == first)
            return 0;
        e = neg ? -e : e;
    }
    if (i != n)
        return 0; /* also an exponent of 1000 or more: libc's range handling decides */
    *sig = w;
    *e10 = e - (int)frac;
    return 1;
}

/* floor(log2(10^q)) for |q| <= 342 (scripts/gen_pow10_tables.py checks the
 * formula over the whole table). */
static int floor_log2_pow10(int q)
{
    int32_t t = (int32_t)q * 217706;
    return t >= 0 ? t >> 16 : -((-t + 65535) >> 16);
}

/* The number of low bits of x to round off so that x * 2^e2 becomes an
 * integer multiple of the format's unit at its exponent: the unit of a
 * normal number with x's leading bit (x >= 2^126), or the subnormal unit. */
static int drop_bits(u128 x, int e2, int eb, int mb)
{
    int top = x >> 127 ? 127 : 126;
    int unit = top + e2 - mb, subunit = 2 - (1 << (eb - 1)) - mb; /* 1 - bias - mb */
    return (unit > subunit ? unit : subunit) - e2;
}

/* Rounds x * 2^e2 to nearest even in the format (eb exponent, mb fraction
 * bits), dropping d = drop_bits(x, ...) bits, d > 64 (mb <= 52): subnormals,
 * overflow to infinity, underflow to zero. */
static uint64_t round_binary(u128 x, int d, int e2, int eb, int mb, int *overflow)
{
    if (d > 127) /* below the smallest subnormal s: s / 2 is x = 2^127 for d = 128, above any x for more */
        return d == 128 && x > (u128)1 << 127;
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x; /* the rounding position is in hi */
    uint64_t half = UINT64_C(1) << (d - 65), low = hi & ((half << 1) - 1), q = hi >> (d - 64);
    q += low > half || (low == half && (lo || (q & 1)));
    int unit = e2 + d;
    if (q >> (mb + 1)) { /* rounding carried into a new binade */
        q >>= 1;
        unit++;
    }
    if (!(q >> mb))
        return q; /* subnormal or zero */
    int biased = unit + mb + (1 << (eb - 1)) - 1, expmax = (1 << eb) - 1;
    if (biased >= expmax) {
        *overflow = 1;
        return (uint64_t)expmax << mb;
    }
    return (uint64_t)biased << mb | (q & ((UINT64_C(1) << mb) - 1));
}

/* Whether x + 1 is a multiple of half the unit (d as for round_binary): a
 * midpoint or a value of the format, which a value just above x may reach.
 * None is when d > 128: x + 1 < 2^128 is then less than half the unit. As
 * d > 64, x's low 64 bits must be all ones. */
static int boundary_after(u128 x, int d)
{
    return d <= 128 && (uint64_t)x == UINT64_MAX && (((uint64_t)(x >> 64) + 1) & ((UINT64_C(1) << (d - 65)) - 1)) == 0;
}

/* Eisel-Lemire: w * 10^q (w < 2^64) rounded once, to nearest even, into a
 * format of at most binary64's range and precision (eb <= 11, mb <= 52).
 * wn (w shifted up to 64 bits) times T(q) (10^q scaled to 128 bits,
 * rounded down) is 192 bits: x, the top 128, then f. The exact value in
 * units of x, V = w * 10^q / 2^e2, is in (x + f / 2^64, x + (f + wn) / 2^64)
 * as T(q) < 10^q scaled < T(q) + 1: in (x, x + 1) unless f + wn > 2^64.
 * There x with a sticky low bit rounds as V does (boundaries are even
 * numbers of units); beyond, only a boundary at x + 1 leaves it open.
 * Returns 0 when that cannot be decided (the caller then uses libc). */
static int decimal_round(uint64_t w, int q, int eb, int mb, uint64_t *bits, int *overflow)
{
    *overflow = 0;
    if (w == 0 || q < POW10_MIN) { /* 10^19 * 10^-343 < 2^-1076: rounds to 0 */
        *bits = 0;
        return 1;
    }
    if (q > POW10_MAX) { /* 10^309 > binary64's largest */
        *overflow = 1;
        *bits = (uint64_t)((1 << eb) - 1) << mb;
        return 1;
    }
    int lz = __builtin_clzll(w);
    uint64_t wn = w << lz;
    const uint64_t *t = POW10[q - POW10_MIN];
    u128 lo = (u128)wn * t[0], x = (u128)wn * t[1] + (uint64_t)(lo >> 64);
    uint64_t f = (uint64_t)lo;
    int e2 = floor_log2_pow10(q) - 63 - lz; /* w * 10^q ~= x * 2^e2 */
    int d = drop_bits(x, e2, eb, mb);
    if (q >= 0 && q <= POW10_EXACT_MAX) {
        x |= f != 0; /* 10^q exact: V = x + f / 2^64 */
    } else if (f <= 0 - wn || !boundary_after(x, d)) {
        x |= 1; /* V in (x, x + 1), or in (x, x + 2) with no boundary inside */
    } else if (q < 0 && q >= -27 && w % pow5(-q) == 0) {
        x += 1; /* w * 10^q = (w / 5^-q) * 2^q is dyadic, V an integer: x + 1 */
        d = drop_bits(x, e2, eb, mb);
    } else {
        return 0; /* V in (x, x + 2) with a boundary at x + 1 */
    }
    *bits = round_binary(x, d, e2, eb, mb, overflow);
    return 1;
}

/* The libc paths, out of line: the direct path then sets up no buffer. */
#define COLD __attribute__((noinline, cold))

/* strtod(), printf() and the double arithmetic of these paths follow the
 * thread's FP environment, which is the caller's (any rounding mode, even
 * FTZ/DAZ: include/gisa.h "Threads"): the paths that use them run in IEEE's
 * default environment and give the caller's back (common/fpenv.h), so that
 * every caller of the conversions, guarded or not, gets the same digits
 * and bits. The direct paths are integer arithmetic only. */

/* fp_parse where decimal_round declined (n is 1 .. FP_MAX_LITERAL). */
static int parse_libc_nearest(const char *s, size_t n, fp_format f, uint64_t *bits, int *overflow);
COLD static int parse_libc(const char *s, size_t n, fp_format f, uint64_t *bits, int *overflow)
{
    fpenv_saved env;
    fpenv_enter(&env);
    int r = parse_libc_nearest(s, n, f, bits, overflow);
    fpenv_leave(&env);
    return r;
}

static int parse_libc_nearest(const char *s, size_t n, fp_format f, uint64_t *bits, int *overflow)
{
    char buf[FP_MAX_LITERAL + 1];
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

int fp_parse(const char *s, size_t n, fp_format f, uint64_t *bits, int *overflow)
{
    uint64_t sig;
    int e10;
    *overflow = 0;
    if (n == 0 || n > FP_MAX_LITERAL)
        return -1;
    if (decimal_read(s, n, &sig, &e10) && decimal_round(sig, e10, fmt[f].ebits, fmt[f].mbits, bits, overflow))
        return 0;
    return parse_libc(s, n, f, bits, overflow);
}

/* fp_parse_em where decimal_round declined (n is 1 .. 127). */
static int parse_em_libc_default(const char *s, size_t n, int eb, int mb, uint64_t *bits, int *overflow);
COLD static int parse_em_libc(const char *s, size_t n, int eb, int mb, uint64_t *bits, int *overflow)
{
    fpenv_saved env;
    fpenv_enter(&env);
    int r = parse_em_libc_default(s, n, eb, mb, bits, overflow);
    fpenv_leave(&env);
    return r;
}

static int parse_em_libc_default(const char *s, size_t n, int eb, int mb, uint64_t *bits, int *overflow)
{
    char buf[128];
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
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    double v = strtod(buf, &end);
    int inexact = fetestexcept(FE_INEXACT) != 0;
    fesetround(FE_TONEAREST);
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

int fp_parse_em(const char *s, size_t n, int eb, int mb, uint64_t *bits, int *overflow)
{
    uint64_t sig;
    int e10;
    *overflow = 0;
    if (n == 0 || n > 127 || mb > 25)
        return -1;
    if (eb <= 11 && decimal_read(s, n, &sig, &e10) && decimal_round(sig, e10, eb, mb, bits, overflow))
        return 0;
    return parse_em_libc(s, n, eb, mb, bits, overflow);
}

/* The reference: the smallest %.*g precision that reads back (round trip
 * is monotonic in the number of digits). Slow; used where fp_shortest
 * declines and by the tests as an independent check. */
static int print_search_nearest(uint64_t bits, fp_format f, char *buf, size_t cap);
int fp_print_search(uint64_t bits, fp_format f, char *buf, size_t cap)
{
    fpenv_saved env;
    fpenv_enter(&env);
    int r = print_search_nearest(bits, f, buf, cap);
    fpenv_leave(&env);
    return r;
}

static int print_search_nearest(uint64_t bits, fp_format f, char *buf, size_t cap)
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
