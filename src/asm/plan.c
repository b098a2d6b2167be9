/* Builds the assembler's per-form tables (asm_form in asm.h). */
#include "asm/asm.h"

static asm_slot slot_of(const opnd_slot *s)
{
    asm_slot a = {.group = (uint8_t)s->group, .nsrc = 1};
    switch (s->kind) {
    case OK_IMM:
        a.kinds = 1u << SRC_NUMBER;
        a.nsrc = s->type->fmt == IMM_F16X2 ? 2 : 1;
        break;
    case OK_CMEM: a.kinds = 1u << SRC_CMEM; break;
    case OK_INDEXED: a.kinds = 1u << SRC_INDEXED; break;
    case OK_PR: a.kinds = 1u << SRC_NAME; break;
    case OK_REG:
        a.kinds = 1u << SRC_NAME | 1u << SRC_PAIR;
        a.c1 = s->type->prefix[0];
        a.c2 = s->type->zero[0];
        break;
    }
    return a;
}

static int build_form(gisa_isa *isa, syntax_form *F)
{
    asm_form *f = arena_alloc(&isa->a, sizeof *f);
    asm_slot *slot = arena_alloc(&isa->a, sizeof *slot * (size_t)(F->nops ? F->nops : 1));
    if (!f || !slot)
        return -1;
    for (int k = 0; k < F->nops; k++) {
        slot[k] = slot_of(&F->ops[k]);
        if (!slot[k].group)
            f->nreq = (uint8_t)(f->nreq + slot[k].nsrc);
        else if (slot[k].group <= ASM_MAX_GROUPS)
            f->nsrc[slot[k].group] = (uint8_t)(f->nsrc[slot[k].group] + slot[k].nsrc);
    }
    f->slot = slot;
    F->enc = f;
    return 0;
}

int asm_plan_build(gisa_isa *isa)
{
    for (int i = 0; i < isa->nopcodes; i++)
        for (int k = 0; k < isa->opcodes[i].nforms; k++)
            if (build_form(isa, &isa->opcodes[i].forms[k]))
                return -1;
    return 0;
}
