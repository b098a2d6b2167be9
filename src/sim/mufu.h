/* MUFU, the multi-function unit: cos, sin, 2^x, log2, 1/x, 1/sqrt(x) on
 * F32 bit patterns, and 1/x, 1/sqrt(x) on the high word of an F64, each
 * correctly rounded (one rounding of the exact value, to nearest-even).
 * Real hardware approximates; the simulator defines the exact result
 * (docs/semantics.md, "Simulator: MUFU").
 *
 * Like softfp.h's F32/F64 operations, mufu_eval sets the thread's host
 * rounding mode (to nearest) and does not restore it. */
#ifndef GISA_SIM_MUFU_H
#define GISA_SIM_MUFU_H
#include <stdint.h>

typedef enum { MUFU_COS = 0, MUFU_SIN, MUFU_EX2, MUFU_LG2, MUFU_RCP, MUFU_RSQ, MUFU_RCP64H, MUFU_RSQ64H } mufu_op;

/* x and the result are F32 bits; for RCP64H/RSQ64H they are the high 32
 * bits of an F64 whose low 32 bits are zero.  ftz is the .FTZ modifier: a
 * subnormal input counts as a zero of its sign, and a subnormal result is
 * flushed to a zero of its sign after rounding.  NaN results are
 * 0x7FFFFFFF; so is the result of an op outside the enumeration. */
uint32_t mufu_eval(mufu_op op, uint32_t x, int ftz);

/* The same function computed by the accurate path alone, skipping the fast
 * one: for tests, which otherwise reach the accurate path only on the rare
 * inputs close to a rounding boundary. */
uint32_t mufu_eval_accurate(mufu_op op, uint32_t x, int ftz);
#endif
