/* Differential test of the two engines (issue 20): random valid words of
 * every opcode (every modifier combination the random fields reach, every
 * operand kind), their GPR fields moved into R0..R31, run on one warp from
 * the same state by the native engine and by the doc engine (the documents'
 * pseudo-code with the rulings' patches). Every register, predicate and
 * uniform register of every lane must agree. The state is biased to the
 * hard cases: signed zeros, subnormals, infinities, NaN payloads, 0,
 * 0xFFFFFFFF, 0x80000000, values that carry. A disagreement is reported
 * with the instruction, the lane, the inputs, both results and the patches
 * applied to its optype. A fault (SETGPR/GETGPR's register index outside
 * the file) is compared as a fault: the same message and lane from both
 * engines, and the same state. The states reach the warp-level cases: the
 * active lanes are all, some, one or none, and the guard predicate per lane
 * is random, so R2UR reads from partially active and guarded warps and runs
 * on none; an indexed register R[URb+SImm9] is aimed in range, at RZ (255)
 * or outside the file. Counts per optype are printed. The generator and the
 * comparison are the library's (src/sim/crosscheck.c), which gisa lint
 * --check-semantics runs too; test_crosscheck.c checks that they catch a
 * broken C function.
 *
 * The doc engine runs a program on 32- or 64-bit lanes where its values
 * fit (docsem/narrow.c): the whole comparison runs three times, programs on
 * the narrowest lanes that hold them, then on at least 64 bits, then all on
 * 128 bits, so each width is checked.
 *
 *   test_docsem [WORDS_PER_OPCODE]   (default 60; an optype of fewer than
 *                                     four opcodes gets 4 * WORDS words in all) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/bind.h"
#include "sim/crosscheck.h"
#include "sim/docexec.h"
#include "spec/model.h"
#include "testlib.h"

/* the engines compared on every optype, programs on lanes of at least
 * `bits` bits (0: the narrowest that hold them) */
static void compare(gisa_isa *isa, int per, int bits)
{
    sim_doc_lane_bits_min = bits;
    printf("programs on lanes of at least %d bits:\n", bits);
    sim_xc_tally *byot = calloc((size_t)isa->noptypes, sizeof *byot);
    sim_xc_options o = {20, per, 3, NULL};
    strbuf report, summary;
    sb_init(&report);
    sb_init(&summary);
    long bad = byot ? sim_crosscheck(isa, sim_families, sim_nfamilies, &o, byot, &report) : -1;
    CHECK(bad >= 0);
    if (byot)
        sim_xc_summary(isa, byot, &summary);
    if (report.len)
        fputs(report.s, stderr);
    if (summary.len)
        fputs(summary.s, stdout);
    CHECKF(bad == 0, "%ld instructions disagree between the engines (lanes of at least %d bits)", bad, bits);
    /* every optype runs every word under the doc engine */
    for (int i = 0; byot && i < isa->noptypes; i++) {
        const sim_xc_tally *t = &byot[i];
        const char *name = isa->optypes[i].name;
        CHECKF(!t->skipped, "%s: not compared (no C entry or no pseudo-code)", name);
        CHECKF(t->doc_fault == 0, "%s: the doc engine could not run %ld words", name, t->doc_fault);
        CHECKF(t->lanes > 0, "%s: no word was compared", name);
        CHECKF(t->partial > 0 && t->none > 0, "%s: no word ran on a partial warp (%ld) or on no lane (%ld)", name,
               t->partial, t->none);
        if (t->in_range + t->rz + t->outside) /* an indexed register: every kind of index, faults compared */
            CHECKF(t->in_range > 0 && t->rz > 0 && t->outside > 0 && t->faults > 0,
                   "%s: indexes in range %ld, RZ %ld, outside %ld (faults compared: %ld)", name, t->in_range,
                   t->rz, t->outside, t->faults);
    }
    sb_free(&report);
    sb_free(&summary);
    free(byot);
    sim_doc_lane_bits_min = 0;
}

int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 60;
    gisa_isa *isa;
    CHECK(api_load_embedded("gisa128", &isa, NULL) == GISA_OK);
    if (!isa)
        return test_summary();
    compare(isa, per, 0);
    compare(isa, per, 64);
    compare(isa, per, 128);
    gisa_isa_free(isa);
    return test_summary();
}
