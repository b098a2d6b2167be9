/* Integer values by class, for --int-values: the values where integer
 * arithmetic has its edges (0, 1, -1, the smallest and the largest of the
 * width, a single set bit, small magnitudes) and plain random ones. An
 * immediate draws at its field's width and signedness; a state register
 * or constant word at 32 bits, signed (so MIN is 0x80000000 and MAX
 * 0x7FFFFFFF: 0 and 0xFFFFFFFF are zero and minus-one). */
#include "gen/gen.h"

const char *const gen_value_names[GEN_VALUE_CLASSES] = {"zero", "one",  "minus-one", "min",
                                                        "max",  "pow2", "small",     "random"};
const char *const gen_value_scope_names[GEN_VALUE_SCOPES] = {"imm", "reg", "const"};

uint64_t gen_value_of_class(gen_rng *r, const uint32_t *weights, int width, int is_signed)
{
    uint64_t mask = width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1, total = 0;
    for (int k = 0; k < GEN_VALUE_CLASSES; k++)
        total += weights[k];
    uint64_t x = gen_below(r, total);
    int k = 0;
    while (k < GEN_VALUE_CLASSES - 1 && x >= weights[k])
        x -= weights[k++];
    switch (k) {
    case VAL_ZERO: return 0;
    case VAL_ONE: return 1 & mask;
    case VAL_MINUS_ONE: return mask;
    case VAL_MIN: return is_signed ? (mask >> 1) + 1 : 0;
    case VAL_MAX: return is_signed ? mask >> 1 : mask;
    case VAL_POW2: return (UINT64_C(1) << gen_below(r, (uint64_t)width)) & mask;
    case VAL_SMALL: /* -16..16 signed, 0..32 unsigned */
        return is_signed ? (uint64_t)((int64_t)gen_below(r, 33) - 16) & mask : gen_below(r, 33) & mask;
    default: return gen_next(r) & mask;
    }
}
