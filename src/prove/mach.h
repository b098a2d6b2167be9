/* One lane of the machine as SMT terms, stepped through a pre-decoded
 * program the way the simulator's run loop steps a warp (exec.c's fetch,
 * the doc engine's op_doc, write_back): the terms of the registers,
 * predicates and uniform registers after each instruction. */
#ifndef GISA_PROVE_MACH_H
#define GISA_PROVE_MACH_H
#ifdef HAVE_Z3
#include <z3.h>

#include "prove/term.h"
#include "sim/sim.h"

#define PV_MAX_REGS 256

/* The per-word formulas, built once per word and shared by every program
 * and lane of one context. */
typedef struct pv_cache {
    Z3_context z;
    gisa_word *key;
    pv_tmpl **t;
    size_t n, cap;
} pv_cache;

enum { PV_R, PV_P, PV_UR, PV_UP };

/* A machine: NULL entries still hold the input, which get() gives. */
typedef struct pv_mach {
    Z3_context z;
    unsigned regs;
    Z3_ast r[PV_MAX_REGS], ur[SIM_NUR], p[SIM_PT], up[SIM_PT];
    Z3_ast fault; /* Bool: a fault stopped the program */
    Z3_ast (*get)(void *user, int rf, unsigned index);
    void *user;
    /* what the last step wrote: (rf, index) pairs */
    int nwritten;
    int written[16][2];
} pv_mach;

void pv_mach_init(pv_mach *m, Z3_context z, unsigned regs, Z3_ast (*get)(void *, int, unsigned), void *user);
/* The current term of a register (32-bit vector) or predicate (Bool). */
Z3_ast pv_value(pv_mach *m, int rf, unsigned index);
/* Runs instruction pc of s (pre-decoded for the doc engine) on m. 0, or -1
 * with why[cap] (an instruction prove does not support). */
int pv_step(pv_cache *c, pv_mach *m, const gisa_sim *s, size_t pc, char *why, size_t cap);
void pv_cache_free(pv_cache *c);
#endif
#endif
