/* gisa_inst inside the library: decode, encode, the operand and modifier
 * accessors (inst.c). The printer is the disassembler's (gisa_print). */
#ifndef GISA_SPEC_INST_H
#define GISA_SPEC_INST_H
#include "spec/decoder.h"

_Static_assert(GISA_INST_MAX_FIELDS == SPEC_MAXF, "gisa_inst holds every field an opcode may have");

/* 0 when inst names an opcode and form of isa and every value fits its
 * field; else -1 with inst_problem() saying why. */
int inst_check(const gisa_isa *isa, const gisa_inst *inst);
#endif
