/* A DPI-C testbench's C side built with -O3 -ffast-math (tests/cli/fpenv.sh):
 * GCC links crtfastmath.o into such a program, which sets FTZ|DAZ before
 * main. The golden model must still compute FADD of the two smallest F32
 * subnormals as 0x00000002, leave the caller's MXCSR as it was, and give
 * the same bits for FFMA.RP/.RM/.RZ of subnormal operands. Prints one line
 * per check; exit 0 when all pass. Usage: dpi_fast_math PROG.s */
#include <stdio.h>
#include <xmmintrin.h>

#include "gisa_dpi.h"

enum { RF_R = 0 };

static int failed;

static void check(int ok, const char *what, unsigned got, unsigned want)
{
    printf("%s %s: got 0x%08x, want 0x%08x\n", ok ? "ok" : "FAIL", what, got, want);
    failed |= !ok;
}

int main(int argc, char **argv)
{
    unsigned csr = _mm_getcsr();
    printf("MXCSR at start 0x%04x (FTZ %s, DAZ %s)\n", csr, csr & 0x8000 ? "on" : "off", csr & 0x40 ? "on" : "off");
    if (argc != 2)
        return 2;
    void *h = gisa_dpi_new("", "", 16, 1);
    if (!h) {
        printf("FAIL gisa_dpi_new: %s\n", gisa_dpi_last_error());
        return 1;
    }
    if (gisa_dpi_load_asm(h, argv[1]) < 0) {
        printf("FAIL load: %s\n", gisa_dpi_message(h));
        return 1;
    }
    for (int l = 0; l < 32; l++) {
        gisa_dpi_set(h, 0, RF_R, 1, l, 1);          /* the smallest subnormal */
        gisa_dpi_set(h, 0, RF_R, 2, l, 1);
        gisa_dpi_set(h, 0, RF_R, 3, l, 0x00400000); /* 2^-127 */
        gisa_dpi_set(h, 0, RF_R, 4, l, 0x3F000001); /* 0.5 + ulp */
    }
    while (!gisa_dpi_done(h, 0))
        if (gisa_dpi_step(h, 0) < 0) {
            printf("FAIL step: %s\n", gisa_dpi_message(h));
            return 1;
        }
    check(_mm_getcsr() == csr, "the caller's MXCSR is unchanged", _mm_getcsr(), csr);
    /* FADD R0, R1, R2: 2 ulps of the smallest subnormal */
    check(gisa_dpi_get(h, 0, RF_R, 0, 7) == 2, "FADD R0, R1, R2", gisa_dpi_get(h, 0, RF_R, 0, 7), 2);
    /* 2^-127 * (0.5 + 2^-24) = 2^-128 + 2^-151, below half an ulp of the
     * subnormal 2^-128 (ulp 2^-149): RP rounds up, RM and RZ down */
    check(gisa_dpi_get(h, 0, RF_R, 5, 0) == 0x00200001, "FFMA.RP R5, R3, R4, RZ", gisa_dpi_get(h, 0, RF_R, 5, 0),
          0x00200001);
    check(gisa_dpi_get(h, 0, RF_R, 6, 0) == 0x00200000, "FFMA.RM R6, R3, R4, RZ", gisa_dpi_get(h, 0, RF_R, 6, 0),
          0x00200000);
    check(gisa_dpi_get(h, 0, RF_R, 8, 0) == 0x00200000, "FFMA.RZ R8, R3, R4, RZ", gisa_dpi_get(h, 0, RF_R, 8, 0),
          0x00200000);
    /* FMUL R9, R1, R4: the smallest subnormal times (0.5 + ulp) rounds to it (RN) */
    check(gisa_dpi_get(h, 0, RF_R, 9, 0) == 1, "FMUL R9, R1, R4", gisa_dpi_get(h, 0, RF_R, 9, 0), 1);
    gisa_dpi_free(h);
    return failed;
}
