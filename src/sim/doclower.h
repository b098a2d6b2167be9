/* The executor's own operations (doclower.c makes them, docexec_loop.h runs
 * them): sequences of a compiled program that the executor runs as one
 * operation, so that a word takes fewer passes over the warp or fewer
 * calls of a lane kernel. They live in
 * ds_prog.run_ops, never in the program the optimiser, the narrowing
 * analysis and `gisa prove` read. */
#ifndef GISA_SIM_DOCLOWER_H
#define GISA_SIM_DOCLOWER_H
#include "docsem/prog.h"

enum {
    /* IF isnan(a) in format fmt: FISNAN t = a; IF t (t read nowhere else) */
    XO_IFNAN = DO_COUNT + 1,
    /* IF isnan(a) || isnan(b): FISNAN t = a; FISNAN u = b; LOR v = t, u; IF v */
    XO_IFNAN2,
    /* IF a is subnormal in format fmt: FISSUB t = a; IF t (an FTZ's flush) */
    XO_IFSUB,
    /* before a chain of NaN branches, each the ELSE of the one before and
     * the last without an ELSE (IF isnan(x1) {..} ELSE IF isnan(x2) {..}
     * ... ENDIF ...): when none of the `width` values a, b, c, d is a NaN
     * of format fmt on any lane, the chain does nothing, and the executor
     * goes past its last ENDIF, k */
    XO_NANCHAIN,
    /* two half-precision operations (width: DO_FADD, DO_FMUL or DO_FFMA;
     * fmt, rnd, k as theirs) in one call of the 64-half lane kernel: this
     * one's d, a, b, c are the first's, the XO_PAIRED that follows holds
     * the second's */
    XO_HPAIR,
    XO_PAIRED,
    /* (on both: bk bit i says that operand i (a, b, c) is the high half,
     * bits 16..31, of the slot, which is otherwise the value's low bits) */
    /* IF class(a) { STORE d = value } ENDIF outside every branch, as one
     * operation: on the lanes of the mask where a is a NaN (rnd 0) or a
     * subnormal (rnd 1) of format fmt, d = b (bk 0), imm (bk 1) or b & imm
     * (bk 2): a rounding's canonical NaN, an FTZ's flush */
    XO_CSTORE,
    XO_COUNT
};

/* On DO_FADD, DO_FMUL and DO_FFMA of F32: bk bit i (a, b, c) says that
 * operand i is input port a (b, c), the word's 32-bit source as it came,
 * read in place, not a slot. */

/* On DO_IF, XO_IFNAN*, XO_IFSUB and DO_ELSE: width 1 says that k is the ENDIF of the
 * branch, so that when no lane enters it the executor goes past that ENDIF
 * at once (an IF then pushes nothing). */
#define XO_TO_ENDIF 1

/* Ports' slots: slot numbers past a program's own (DS_MAX_SLOTS), which
 * on 32-bit lanes name a port's lanes themselves instead of a copy.
 * XS_IN_SLOT: the one value of an input port (DO_IN, or DO_OLD when old;
 * wide: of width 64) that no other operation writes; the executor binds
 * the slot to the port's lanes. XS_OUT_SLOT: the value of output port k,
 * written by one operation outside every branch, after which nothing can
 * fault (ds_prog.run_in_place has bit k); the executor binds the slot to
 * the port's lanes before the program runs, so that the operation writes
 * them and the DO_OUT copies nothing. On wider lanes they are ordinary
 * slots (a copy, as before). */
#define XS_IN_SLOT(k, old, wide) (DS_MAX_SLOTS + ((old) * 2 + (wide)) * DS_NPORTS + (k))
#define XS_OUT_SLOT(k) (DS_MAX_SLOTS + 4 * DS_NPORTS + (k))
#define XS_ALL_SLOTS (DS_MAX_SLOTS + 5 * DS_NPORTS)

/* Sets p->run_ops; leaves it NULL (p->ops run) when memory is short. */
void sim_doc_lower(ds_prog *p);
#endif
