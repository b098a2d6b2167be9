/* The differential check of the two engines (gisa lint --check-semantics,
 * tests/unit/test_docsem.c): random valid words of every opcode whose
 * optype has both C semantics and pseudo-code, each run on one warp from
 * the same random state by the native engine (the C entries of the tables
 * given) and by the doc engine; every register, predicate and uniform
 * register of every lane must agree, and a fault must be the same fault.
 * The states are biased to the hard values (signed zeros, subnormals,
 * infinities, NaN payloads, 0, all ones, INT_MIN, carries), the active
 * lanes are all, some, one or none, the guard per lane is random, and an
 * indexed register R[URb+SImm9] is aimed in range, at RZ or outside the
 * file. */
#ifndef GISA_SIM_CROSSCHECK_H
#define GISA_SIM_CROSSCHECK_H
#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"
#include "sim/sim.h"

typedef struct sim_xc_options {
    uint64_t seed;
    int words;   /* per opcode; an optype of fewer than four opcodes gets 4 * words in all */
    int reports; /* disagreements described per optype */
    const char *only; /* this optype only (NULL: all) */
} sim_xc_options;

/* What one optype saw. */
typedef struct sim_xc_tally {
    long words, lanes, bad, doc_fault, faults;
    long partial, none;         /* words whose executing lanes were some, none */
    long in_range, rz, outside; /* words aiming an indexed register */
    int skipped;                /* 1: no C entry in the tables, or no pseudo-code */
} sim_xc_tally;

/* Runs the check on every optype of isa with the C entries of
 * families[0 .. nfamilies-1] (sim_families, or a test's altered copy).
 * tally (may be NULL) receives isa->noptypes counts; each disagreement,
 * up to o->reports per optype, is described in report (may be NULL): the
 * optype, the instruction, the lane, the register, the inputs the
 * instruction reads in that lane, both results and the optype's patches.
 * Returns the number of instructions that disagree, those the doc engine
 * cannot run included (-1: out of memory). */
long sim_crosscheck(const gisa_isa *isa, const sim_opdef *const *families, size_t nfamilies,
                    const sim_xc_options *o, sim_xc_tally *tally, strbuf *report);

/* The per-optype table of tallies and a total line, as --check-semantics prints them. */
void sim_xc_summary(const gisa_isa *isa, const sim_xc_tally *tally, strbuf *out);
#endif
