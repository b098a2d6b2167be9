/* The syntax of one value and one key of a state file (docs/simulator.md):
 * integers as before, and floats rounded exactly once (fp_parse). */
#include <stdio.h>
#include <string.h>

#include "common/fpconv.h"
#include "gisa.h"
#include "sim/state_io.h"

#define VALUE_MAX 160 /* longest string value: a prefix and two 127-character literals fit */

/* A hex digit's value plus one, 0 for other bytes: hex integers are most
 * of a state file. */
static const unsigned char hex1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* -?(0x[0-9a-f]+|[0-9]+) in s[0..n): 1 with its bits (negatives as two's
 * complement of `bits` bits), 0 when s is no integer, -1 when it does not fit. */
static int integer(const char *s, size_t n, int bits, uint64_t *out)
{
    uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    int neg = n && *s == '-';
    size_t i = (size_t)neg;
    int hex = n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    i += hex ? 2 : 0;
    if (i == n)
        return 0;
    uint64_t x = 0;
    int over = 0;
    if (hex) {
        for (; i < n; i++) {
            unsigned d = hex1[(unsigned char)s[i]];
            if (!d)
                return 0;
            over |= x >> 60 != 0;
            x = x << 4 | (d - 1);
        }
    } else {
        for (; i < n; i++) {
            unsigned d = (unsigned)(unsigned char)s[i] - '0';
            if (d > 9)
                return 0;
            if (x > (UINT64_MAX - d) / 10)
                over = 1;
            x = x * 10 + d;
        }
    }
    if (over || (neg ? x > max / 2 + 1 : x > max))
        return -1;
    *out = neg ? (0 - x) & max : x;
    return 1;
}

typedef struct float_fmt {
    const char *prefix;
    fp_format f;
    int halves; /* 0: one value; 1: one half (the low); 2: two halves "high, low" */
} float_fmt;

static const float_fmt prefixed[] = {
    {"f32:", FP_F32, 0}, {"f64:", FP_F64, 0}, {"f16:", FP_F16, 1},
    {"bf16:", FP_BF16, 1}, {"f16x2:", FP_F16, 2}, {"bf16x2:", FP_BF16, 2},
};
static const char *const fname[] = {"F16", "BF16", "F32", "F64"};

/* One float literal (decimal, hex float, inf or nan, a leading '-'),
 * surrounding blanks allowed. */
static int literal(const char *s, size_t n, fp_format f, uint64_t *bits, char *why, size_t cap)
{
    static const int signbit[] = {15, 15, 31, 63};
    while (n && *s == ' ')
        s++, n--;
    while (n && s[n - 1] == ' ')
        n--;
    int neg = n && *s == '-';
    int ovf = 0;
    if (n - (size_t)neg > FP_MAX_LITERAL) { /* the limit, not the literal, is what refuses it */
        snprintf(why, cap, "'%.40s...' is too long for a number: more than %d characters", s, FP_MAX_LITERAL);
        return -1;
    }
    if (!n || fp_parse(s + neg, n - (size_t)neg, f, bits, &ovf)) {
        snprintf(why, cap, "'%.*s' is not a number (expected an integer, or a float such as 1.5, -0.0, 0x1p-3, inf, nan)",
                 (int)(n < 40 ? n : 40), s);
        return -1;
    }
    if (ovf) {
        snprintf(why, cap, "%.*s is out of range for %s", (int)(n < 40 ? n : 40), s, fname[f]);
        return -1;
    }
    if (neg)
        *bits ^= UINT64_C(1) << signbit[f];
    return 0;
}

static int typed(const float_fmt *t, const char *s, size_t n, int bits, uint64_t *out, char *why, size_t cap)
{
    if (t->f == FP_F64 ? bits != 64 : bits != 32) {
        snprintf(why, cap, t->f == FP_F64 ? "an F64 needs a register pair R[n:n+1] or UR[n:n+1]"
                                          : "a %s value needs a 32-bit register (not a pair)", fname[t->f]);
        return -1;
    }
    if (t->halves < 2)
        return literal(s, n, t->f, out, why, cap);
    const char *comma = memchr(s, ',', n);
    if (!comma) {
        snprintf(why, cap, "%s expects two values, high first: \"%s1.5, -2\"", t->prefix, t->prefix);
        return -1;
    }
    uint64_t hi, lo;
    if (literal(s, (size_t)(comma - s), t->f, &hi, why, cap) ||
        literal(comma + 1, n - (size_t)(comma - s) - 1, t->f, &lo, why, cap))
        return -1;
    *out = hi << 16 | lo;
    return 0;
}

static int string_value(const json_val *v, int bits, int floats, uint64_t *out, char *why, size_t cap)
{
    char buf[VALUE_MAX + 1];
    const char *s = v->s;
    size_t n = v->n;
    if (v->escaped || n > VALUE_MAX) {
        n = json_unescape(v, buf, sizeof buf);
        s = buf;
    }
    if (n == (size_t)-1) {
        snprintf(why, cap, "value too long or holds a NUL character");
        return -1;
    }
    int k = integer(s, n, bits, out);
    if (k > 0)
        return 0;
    if (k < 0) {
        snprintf(why, cap, "%.*s does not fit in %d bits", (int)(n < 40 ? n : 40), s, bits);
        return -1;
    }
    if (floats) {
        for (size_t i = 0; i < sizeof prefixed / sizeof *prefixed; i++) {
            size_t pn = strlen(prefixed[i].prefix);
            if (n >= pn && !memcmp(s, prefixed[i].prefix, pn))
                return typed(&prefixed[i], s + pn, n - pn, bits, out, why, cap);
        }
        return literal(s, n, bits == 64 ? FP_F64 : FP_F32, out, why, cap);
    }
    snprintf(why, cap, "expected a %d-bit hex string (\"0x...\") or an integer", bits);
    return -1;
}

int state_value(const json_val *v, int bits, int floats, uint64_t *out, char *why, size_t cap)
{
    if (v->type == JSON_STRING)
        return string_value(v, bits, floats, out, why, cap);
    if (v->type != JSON_NUMBER) {
        snprintf(why, cap, floats ? "expected a number or a string (\"0x...\", \"1.5\", \"f16:1.5\", ...)"
                                  : "expected a %d-bit hex string (\"0x...\") or an integer", bits);
        return -1;
    }
    if (v->fraction) {
        if (!floats) {
            snprintf(why, cap, "expected an integer, not %.*s", (int)(v->n < 40 ? v->n : 40), v->s);
            return -1;
        }
        return literal(v->s, v->n, bits == 64 ? FP_F64 : FP_F32, out, why, cap);
    }
    if (integer(v->s, v->n, bits, out) != 1) {
        snprintf(why, cap, "%.*s does not fit in %d bits", (int)(v->n < 40 ? v->n : 40), v->s, bits);
        return -1;
    }
    return 0;
}

/* A decimal index (no leading zeros) ending at *end. */
static int index_at(const char *p, unsigned *v, const char **end)
{
    if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
        return -1;
    unsigned x = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((x = x * 10 + (unsigned)(*p - '0')) > 100000)
            return -1;
    *v = x;
    *end = p;
    return 0;
}

int state_reg_key(const char *key, int *rf, unsigned *index, int *pair)
{
    static const struct {
        const char *prefix;
        int rf;
    } files[] = {{"UR", GISA_RF_UR}, {"UP", GISA_RF_UP}, {"R", GISA_RF_R}, {"P", GISA_RF_P}};
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(files[i].prefix);
        if (strncmp(key, files[i].prefix, n))
            continue;
        const char *p = key + n, *e;
        *rf = files[i].rf;
        *pair = 0;
        if (*p == '[' && (*rf == GISA_RF_R || *rf == GISA_RF_UR)) {
            unsigned lo, hi;
            if (index_at(p + 1, &lo, &e) || *e != ':' || index_at(e + 1, &hi, &e) || strcmp(e, "]"))
                return 0;
            if (hi != lo + 1 || lo % 2)
                return -1;
            *index = lo;
            *pair = 1;
            return 1;
        }
        if (index_at(p, index, &e) || *e)
            return 0;
        return 1;
    }
    return 0;
}

static int hex_at(const char *p, unsigned *v, const char **end)
{
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    unsigned x = 0;
    const char *s = p;
    for (;; p++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
              : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
        if (d < 0)
            break;
        if (x > 0xFFFFFFFu)
            return -1;
        x = x << 4 | (unsigned)d;
    }
    if (p == s)
        return -1;
    *v = x;
    *end = p;
    return 0;
}

int state_const_key(const char *key, unsigned *bank, unsigned *offset)
{
    const char *e;
    if (strncmp(key, "c[", 2) || hex_at(key + 2, bank, &e) || strncmp(e, "][", 2) || hex_at(e + 2, offset, &e) ||
        strcmp(e, "]"))
        return 0;
    return 1;
}
