/* The native engine: the C semantic function of the optype (ops_*.c) runs
 * the word; preparing it reads the modifiers and operand suffixes the
 * function compares with as indices (bind.c). */
#include "sim/bind.h"
#include "sim/engine.h"

static const char *native_prepare(const gisa_sim *s, const isa_opcode *op, const syntax_form *F, const gisa_inst *inst,
                                  const signed char *roles, const sim_opdef *def, sim_insn *in, char *why, size_t cap)
{
    (void)s;
    in->def = def;
    if (sim_read_mods(op, def, inst->field, in->m, why, cap))
        return why;
    for (int k = 0; k < F->nops; k++)
        if (F->ops[k].sfx_slot >= 0 && roles[k] >= 0 &&
            sim_read_sel(op, F, &F->ops[k], inst->field, def, &in->op[roles[k]].sel, why, cap))
            return why;
    return NULL;
}

const sim_engine sim_engine_native = {"native", GISA_ENGINE_NATIVE, native_prepare, NULL};
