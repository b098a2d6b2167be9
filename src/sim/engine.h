/* The simulator's engines: the native one (the C semantic functions of
 * ops_*.c) and the doc engine (the documents' pseudo-code, compiled by
 * src/docsem). The pre-decoder places an instruction's operands by role
 * (bind.c) and hands the instruction to the engine sim_engine_choose picks;
 * the run loop then calls the function the engine left in insn->def. */
#ifndef GISA_SIM_ENGINE_H
#define GISA_SIM_ENGINE_H
#include <stddef.h>

#include "sim/sim.h"

typedef struct sim_engine {
    const char *name;    /* "native", "doc": the trace's and the fault messages' word */
    gisa_sim_engine id;  /* GISA_ENGINE_NATIVE or GISA_ENGINE_DOC */
    /* Makes `in` (its operands placed by role: roles[k] for operand slot k
     * of F, -1 for none) runnable: sets in->def and whatever the engine keeps
     * per word. NULL, or why the word cannot run (written to why[cap]). def
     * is the C entry sim_engine_choose returned (NULL for the doc engine). */
    const char *(*prepare)(const gisa_sim *s, const isa_opcode *op, const syntax_form *F, const gisa_inst *inst,
                           const signed char *roles, const sim_opdef *def, sim_insn *in, char *why, size_t cap);
    /* Frees what prepare kept (NULL when it keeps nothing). */
    void (*release)(sim_insn *in);
} sim_engine;

extern const sim_engine sim_engine_native, sim_engine_doc;

/* The one place that decides which engine runs an opcode: the simulator's
 * choice for the optype (gisa_sim_set_engine_for), else its engine. auto:
 * the C function when the optype has one that implements its pseudo-code
 * as loaded (sim/fingerprint.h), else the pseudo-code; native: that C
 * function, or NULL with why (the word faults); doc: the pseudo-code.
 * *def receives the C entry (NULL for the doc engine). */
const sim_engine *sim_engine_choose(gisa_sim *s, const isa_opcode *op, const sim_opdef **def, const char **fault,
                                    char *why, size_t cap);
#endif
