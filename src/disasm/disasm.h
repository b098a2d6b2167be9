/* Word -> (opcode, syntax form, field values): the decoding step shared by
 * the disassembler and the simulator's pre-decoder. */
#ifndef GISA_DISASM_H
#define GISA_DISASM_H
#include <stddef.h>
#include <stdint.h>

#include "spec/model.h"

#define DISASM_MAXF 64               /* most fields an opcode may have */
#define DISASM_NVALS (DISASM_MAXF + 1) /* value slots: the fields and an always-zero one */

/* Finds the opcode and the first syntax form that can express the word;
 * vals[DISASM_NVALS] receives every field value. Returns 0, or -1 with the
 * reason in why (and *opcode set when the fixed bits matched one). */
int disasm_match(const gisa_isa *isa, const gisa_word *w, int *opcode, int *form, uint64_t *vals, char *why,
                 size_t cap);
/* Compiles the printing tables of a freshly built model (disasm/plan.h). */
int disasm_plan_build(gisa_isa *isa);
/* Whether a register operand is a 64-bit pair for these field values. */
int disasm_is_pair(const opnd_slot *s, const uint64_t *vals);
#endif
