/* The float text conversions against an independent reference: the
 * shortest-digit printer (Ryu-style) must produce text that reads back to
 * the same bits and is never longer than the smallest %.*g precision that
 * does (found by search with libc's printf). F16 and BF16 exhaustively,
 * F32 and F64 (high 32 bits) on random bit patterns. No text is longer
 * than FP_PRINT_MAX (the disassembler's bound on a line relies on it). */
#include <string.h>

#include "common/fpconv.h"
#include "testlib.h"

static void check_value(uint64_t bits, fp_format f, int *bad)
{
    static const int signbit[] = {15, 15, 31, 63};
    char fast[64], ref[64];
    int r1 = fp_print(bits, f, fast, sizeof fast), r2 = fp_print_search(bits, f, ref, sizeof ref);
    if (r1 != r2) { /* both say NaN (-1) or both print */
        (*bad)++;
        return;
    }
    if (r1)
        return;
    const char *s = fast;
    int neg = *s == '-';
    s += neg;
    uint64_t back;
    int ovf;
    if (fp_parse(s, strlen(s), f, &back, &ovf) || (back | ((uint64_t)neg << signbit[f])) != bits ||
        strlen(fast) > strlen(ref) || strlen(fast) > FP_PRINT_MAX) {
        if (*bad < 5)
            fprintf(stderr, "format %d bits %llx: fast '%s' reference '%s'\n", f, (unsigned long long)bits, fast, ref);
        (*bad)++;
    }
}

int main(void)
{
    int bad = 0;
    for (uint64_t b = 0; b < 65536; b++) {
        check_value(b, FP_F16, &bad);
        check_value(b, FP_BF16, &bad);
    }
    tg_rng r = {88172645463325252u};
    for (int i = 0; i < 300000; i++) {
        uint64_t x = tg_next(&r);
        check_value(x & 0xffffffffu, FP_F32, &bad);
        check_value((x >> 32) << 32, FP_F64, &bad); /* F64Imm: high 32 bits */
    }
    /* boundaries: smallest subnormals, largest finite, powers of two */
    static const uint64_t f32[] = {0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0x4b800000, 0x80000001};
    for (size_t i = 0; i < sizeof f32 / sizeof *f32; i++)
        check_value(f32[i], FP_F32, &bad);
    /* F64 with all 17 digits and a 3-digit exponent: the longest texts */
    static const uint64_t f64[] = {0x8010000000000000, 0xffefffffffffffff, 0x800fffffffffffff, 0x8000000000000001};
    for (size_t i = 0; i < sizeof f64 / sizeof *f64; i++)
        check_value(f64[i], FP_F64, &bad);
    char longest[64];
    CHECK(fp_print(0x8010000000000000, FP_F64, longest, sizeof longest) == 0 && strlen(longest) == FP_PRINT_MAX);
    CHECKF(bad == 0, "%d values printed wrong", bad);
    /* parse: one rounding from decimal, overflow flagged */
    uint64_t v;
    int ovf;
    CHECK(fp_parse("0.1", 3, FP_F32, &v, &ovf) == 0 && v == 0x3dcccccd && !ovf);
    CHECK(fp_parse("65520", 5, FP_F16, &v, &ovf) == 0 && ovf);   /* rounds to inf */
    CHECK(fp_parse("65504", 5, FP_F16, &v, &ovf) == 0 && v == 0x7bff && !ovf);
    /* 1 + 2^-11 + tiny is just above the F16 tie: must round up (no double rounding) */
    CHECK(fp_parse("1.00048828125000000001", 22, FP_F16, &v, &ovf) == 0 && v == 0x3c01);
    CHECK(fp_parse("1.00048828125", 13, FP_F16, &v, &ovf) == 0 && v == 0x3c00); /* exact tie: even */
    return test_summary();
}
