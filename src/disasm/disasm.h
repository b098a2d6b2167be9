/* The disassembler: the decoder's gisa_inst printed by compiled plans
 * (plan.h). */
#ifndef GISA_DISASM_H
#define GISA_DISASM_H
#include "spec/model.h"

/* Compiles the printing tables of a freshly built model into isa->dis
 * (called by the library's loader, src/lib/load.c). */
int disasm_plan_build(gisa_isa *isa);
#endif
