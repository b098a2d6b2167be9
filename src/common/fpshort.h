/* Shortest round-trip decimal of a binary float (see fpshort.c). */
#ifndef GISA_COMMON_FPSHORT_H
#define GISA_COMMON_FPSHORT_H
#include <stdint.h>

/* For a finite, non-zero value given by its mantissa and exponent fields:
 * the shortest digits D and exponent E with D * 10^E reading back to the
 * same value. Returns -1 if outside the supported range. */
int fp_shortest(uint64_t mant, int exp_field, int mbits, int bias, uint64_t *digits, int *e10);
#endif
