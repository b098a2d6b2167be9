/* The simulator's doc engine (issue 20): instructions run through the ISA
 * documents' pseudo-code, compiled per word by src/docsem. docexec.c runs a
 * program; docengine.c is the engine (engine.h: sim_engine_doc) that
 * compiles a pre-decoded word, and its sim_fn. */
#ifndef GISA_SIM_DOCEXEC_H
#define GISA_SIM_DOCEXEC_H
#include <stddef.h>

#include "docsem/prog.h"
#include "sim/sim.h"

/* Runs p over the lanes io->mask; io->fault is set when it faults. */
void sim_doc_run(const ds_prog *p, ds_io *io);

/* Programs run on lanes of at least this many bits (0, 64 or 128), even
 * those whose values fit narrower ones: for the tests that compare them. */
extern int sim_doc_lane_bits_min;

/* The opdef of doc-engine instructions (its fn reads insn->doc). */
extern const sim_opdef sim_doc_opdef;

/* Whether the doc engine runs word pc of the simulator's program: NULL when
 * it compiled, else why not (the fault it gives when reached). Pre-decodes
 * the program under the simulator's engine if needed (predecode.c). */
const char *sim_doc_why_not(gisa_sim *s, size_t pc);
#endif
