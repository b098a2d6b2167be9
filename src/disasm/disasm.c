/* The disassembler: the decoder (spec/decoder.c) judges the word and finds
 * its form; the form's print plan writes the canonical text (modifiers in
 * syntax order, defaults omitted; print.c). A word the decoder refuses is
 * `.invalid` with the decoder's reason, never a guess. */
#include <stdio.h>

#include "disasm/disasm.h"
#include "disasm/plan.h"
#include "spec/inst.h"

#if defined(__GNUC__) || defined(__clang__)
#define COLD __attribute__((noinline, cold))
#else
#define COLD
#endif

/* `.invalid` and why, out of line: the printing of valid words then saves
 * and restores fewer registers. */
static COLD gisa_status invalid(const gisa_isa *isa, gisa_word w, int opcode, char *buf, size_t cap, size_t *len)
{
    char why[GISA_INST_WHY];
    decoder_explain(isa, &w, opcode, why, sizeof why);
    int n;
    if (isa->word_bits == 64)
        n = snprintf(buf, cap, ".invalid 0x%016llx // %s", (unsigned long long)w.w[0], why);
    else
        n = snprintf(buf, cap, ".invalid 0x%016llx%016llx // %s", (unsigned long long)w.w[1], (unsigned long long)w.w[0], why);
    if (n < 0) {
        buf[0] = 0;
        n = 0;
    }
    *len = (size_t)n < cap ? (size_t)n : cap - 1;
    return (size_t)n >= cap ? GISA_ERR_TRUNCATED : GISA_ERR_INPUT;
}

gisa_status gisa_disassemble(const gisa_isa *isa, gisa_word w, char *buf, size_t cap, size_t *len)
{
    size_t ignored;
    if (!len)
        len = &ignored;
    *len = 0;
    if (!isa || !buf || !cap)
        return GISA_ERR_USAGE;
    uint64_t vals[SPEC_NVALS];
    int opcode, form = decoder_run(isa, &w, &opcode, vals);
    if (form < 0)
        return invalid(isa, w, opcode, buf, cap, len);
    return dis_print(isa->dis, opcode, form, vals, buf, cap, len) ? GISA_ERR_TRUNCATED : GISA_OK;
}

gisa_status gisa_print(const gisa_isa *isa, const gisa_inst *inst, char *buf, size_t cap)
{
    if (!isa || !inst || !buf || !cap)
        return GISA_ERR_USAGE;
    if (inst_check(isa, inst)) { /* out-of-range values would index past the printer's tables */
        buf[0] = 0;
        return GISA_ERR_USAGE;
    }
    size_t len;
    return dis_print(isa->dis, inst->opcode, inst->form, inst->field, buf, cap, &len) ? GISA_ERR_TRUNCATED : GISA_OK;
}
