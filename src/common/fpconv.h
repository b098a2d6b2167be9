/* Conversions between text, double and the ISA's float formats, exact to
 * the bit: used by the assembler (literals) and disassembler (printing). */
#ifndef GISA_COMMON_FPCONV_H
#define GISA_COMMON_FPCONV_H
#include <stddef.h>
#include <stdint.h>

typedef enum fp_format { FP_F16 = 0, FP_BF16 = 1, FP_F32 = 2, FP_F64 = 3 } fp_format;

/* Rounds x (any double) to the format, round to nearest even, and returns
 * its bits. *overflow is set when a finite x rounds to infinity. */
uint64_t fp_from_double(double x, fp_format f, int *overflow);
/* The exact double value of a format's bits (all formats fit in a double). */
double fp_to_double(uint64_t bits, fp_format f);
/* Longest literal fp_parse reads; a decimal with more digits than this
 * carries nothing a float can hold. */
#define FP_MAX_LITERAL 127
/* Parses a decimal or hex floating literal, "inf" or "nan" (no sign) and
 * rounds it ONCE to the format: a decimal of at most 19 significant digits
 * directly (Eisel-Lemire), anything else through libc (round-to-odd to
 * double first, so that a second rounding to F16/BF16 is exact). Returns 0
 * on success. */
int fp_parse(const char *s, size_t n, fp_format f, uint64_t *bits, int *overflow);
/* The same for any binary format narrower than F32 or a high part of an
 * F64, given by its exponent and fraction widths (the high 20 bits of an
 * F32: 8, 11); at most 25 fraction bits. */
uint64_t fp_from_double_em(double x, int ebits, int mbits, int *overflow);
int fp_parse_em(const char *s, size_t n, int ebits, int mbits, uint64_t *bits, int *overflow);
/* Shortest decimal text that fp_parse reads back to the same bits; writes
 * "inf"/"-inf"; returns 0, or -1 for NaN (the caller prints raw bits).
 * At most FP_PRINT_MAX characters: sign, 17 digits, point, "e-308". */
int fp_print(uint64_t bits, fp_format f, char *buf, size_t cap);
#define FP_PRINT_MAX 24
/* The same, returning the text's length (-1 for NaN). */
int fp_print_n(uint64_t bits, fp_format f, char *buf, size_t cap);
/* Same result found by searching %.*g precisions with fp_parse: slow, an
 * independent reference for tests. */
int fp_print_search(uint64_t bits, fp_format f, char *buf, size_t cap);
#endif
