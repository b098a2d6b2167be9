/* Shortest decimal digits that read back to the same binary float: the Ryu
 * algorithm (Ulf Adams, PLDI 2018) in its binary64 form, made generic over
 * the significand and exponent widths so that F16, BF16, F32 and F64 share
 * it (every narrower format is a subset of binary64's ranges, so the tables
 * and the error analysis of binary64 cover them). */
#include <stdint.h>

#include "common/fpshort.h"
#include "common/pow5_tables.h"

typedef unsigned __int128 u128;

static int pow5bits(int e) { return (int)(((uint32_t)e * 1217359u) >> 19) + 1; }
static uint32_t log10_pow2(int e) { return ((uint32_t)e * 78913u) >> 18; }
static uint32_t log10_pow5(int e) { return ((uint32_t)e * 732923u) >> 20; }

static uint32_t pow5_factor(uint64_t v)
{
    uint32_t n = 0;
    while (v && v % 5 == 0) {
        v /= 5;
        n++;
    }
    return n;
}

static uint64_t mul_shift(uint64_t m, const uint64_t *mul, int j)
{
    u128 b0 = (u128)m * mul[0];
    u128 b2 = (u128)m * mul[1];
    return (uint64_t)(((b0 >> 64) + b2) >> (j - 64));
}

/* Removes the last digit of vr/vp/vm, remembering it and whether every
 * digit removed so far was zero (needed for exact ties). */
static inline void drop_digit(uint64_t *vr, uint64_t *vp, uint64_t *vm, uint32_t *last, int *vr_tz, int *removed)
{
    *vr_tz &= *last == 0;
    *last = (uint32_t)(*vr % 10);
    *vr /= 10;
    *vp /= 10;
    *vm /= 10;
    (*removed)++;
}

int fp_shortest(uint64_t mant, int exp_field, int mbits, int bias, uint64_t *digits, int *e10_out)
{
    int e2;
    uint64_t m2;
    if (exp_field == 0) {
        e2 = 1 - bias - mbits - 2;
        m2 = mant;
    } else {
        e2 = exp_field - bias - mbits - 2;
        m2 = (UINT64_C(1) << mbits) | mant;
    }
    int accept = (m2 & 1) == 0;
    uint64_t mv = 4 * m2;
    uint32_t mm_shift = mant != 0 || exp_field <= 1;
    uint64_t vr, vp, vm;
    int e10;
    int vm_tz = 0, vr_tz = 0;
    if (e2 >= 0) {
        uint32_t q = log10_pow2(e2) - (e2 > 3);
        if (q >= 342)
            return -1;
        e10 = (int)q;
        int k = POW5_INV_BITCOUNT + pow5bits((int)q) - 1;
        int i = -e2 + (int)q + k;
        vr = mul_shift(4 * m2, POW5_INV_SPLIT[q], i);
        vp = mul_shift(4 * m2 + 2, POW5_INV_SPLIT[q], i);
        vm = mul_shift(4 * m2 - 1 - mm_shift, POW5_INV_SPLIT[q], i);
        if (q <= 21) {
            if (mv % 5 == 0)
                vr_tz = pow5_factor(mv) >= q;
            else if (accept)
                vm_tz = pow5_factor(mv - 1 - mm_shift) >= q;
            else
                vp -= pow5_factor(mv + 2) >= q;
        }
    } else {
        uint32_t q = log10_pow5(-e2) - (-e2 > 1);
        e10 = (int)q + e2;
        int i = -e2 - (int)q;
        if (i >= 326)
            return -1;
        int k = pow5bits(i) - POW5_BITCOUNT;
        int j = (int)q - k;
        vr = mul_shift(4 * m2, POW5_SPLIT[i], j);
        vp = mul_shift(4 * m2 + 2, POW5_SPLIT[i], j);
        vm = mul_shift(4 * m2 - 1 - mm_shift, POW5_SPLIT[i], j);
        if (q <= 1) {
            vr_tz = 1;
            if (accept)
                vm_tz = mm_shift == 1;
            else
                --vp;
        } else if (q < 63) {
            vr_tz = (mv & ((UINT64_C(1) << q) - 1)) == 0;
        }
    }
    int removed = 0;
    uint32_t last = 0;
    uint64_t out;
    if (vm_tz || vr_tz) {
        while (vp / 10 > vm / 10) {
            vm_tz &= vm % 10 == 0;
            drop_digit(&vr, &vp, &vm, &last, &vr_tz, &removed);
        }
        if (vm_tz)
            while (vm % 10 == 0)
                drop_digit(&vr, &vp, &vm, &last, &vr_tz, &removed);
        if (vr_tz && last == 5 && vr % 2 == 0)
            last = 4; /* round half to even */
        out = vr + ((vr == vm && (!accept || !vm_tz)) || last >= 5);
    } else {
        int round_up = 0;
        while (vp / 10 > vm / 10) {
            round_up = vr % 10 >= 5;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        out = vr + (vr == vm || round_up);
    }
    *digits = out;
    *e10_out = e10 + removed;
    return 0;
}
