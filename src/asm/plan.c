/* Builds the assembler's per-form tables (asm_form in asm.h). */
#include "asm/asm.h"

static uint64_t letter(char c) { return UINT64_C(1) << (32 + ((unsigned char)c & 31)); }

static asm_slot slot_of(const opnd_slot *s)
{
    const expr *bw = s->bitwidth;
    asm_slot a = {.group = (uint8_t)s->group, .nsrc = 1, .pair = (int8_t)(!bw ? 0 : bw->kind == EX_NUM ? bw->num == 64 : -1)};
    switch (s->kind) {
    case OK_IMM:
        a.accept = UINT64_C(1) << SRC_NUMBER;
        a.nsrc = s->type->fmt == IMM_F16X2 ? 2 : 1;
        break;
    case OK_CMEM: a.accept = UINT64_C(1) << SRC_CMEM; break;
    case OK_INDEXED: a.accept = UINT64_C(1) << SRC_INDEXED; break;
    case OK_PR: a.accept = ~UINT64_C(0) << 32; break; /* any name */
    case OK_REG: a.accept = letter(s->type->prefix[0]) | letter(s->type->zero[0]); break;
    }
    return a;
}

static int popcount(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* The spellings of the modifiers written after the mnemonic, and which
 * of them are required. */
static int build_spellings(gisa_isa *isa, const syntax_form *F, asm_form *f)
{
    int n = 0;
    for (int j = 0; j < F->nmods; j++)
        n += F->mods[j].operand < 0 ? F->mods[j].nchoices : 0;
    asm_spelling *sp = arena_alloc(&isa->a, sizeof *sp * (size_t)(n ? n : 1));
    if (!sp)
        return -1;
    for (int j = 0; j < F->nmods && j < 64; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->operand >= 0)
            continue;
        for (int k = 0; k < m->nchoices; k++)
            sp[f->nspellings++] = (asm_spelling){m->choices[k].id, (uint8_t)j, (uint8_t)k};
        if (!m->optional)
            f->required |= UINT64_C(1) << j;
    }
    f->spelling = sp;
    return 0;
}

static int build_form(gisa_isa *isa, syntax_form *F)
{
    int ng = F->ngroups < ASM_MAX_GROUPS ? F->ngroups : ASM_MAX_GROUPS;
    asm_form *f = arena_alloc(&isa->a, sizeof *f);
    asm_slot *slot = arena_alloc(&isa->a, sizeof *slot * (size_t)(F->nops ? F->nops : 1));
    uint8_t *choice = arena_alloc(&isa->a, (size_t)1 << ng), *nsrc = arena_alloc(&isa->a, (size_t)1 << ng);
    if (!f || !slot || !choice || !nsrc || build_spellings(isa, F, f))
        return -1;
    for (int k = 0; k < F->nops; k++)
        slot[k] = slot_of(&F->ops[k]);
    /* most groups first; among equals, earlier groups first (so that in
     * "{, pp}{, pq}" a lone trailing operand is pp) */
    for (int pop = ng; pop >= 0; pop--)
        for (unsigned present = 0; present < 1u << ng; present++) {
            if (popcount(present) != pop)
                continue;
            int n = 0;
            for (int k = 0; k < F->nops; k++)
                if (!slot[k].group || (slot[k].group <= ng && present >> (slot[k].group - 1) & 1))
                    n += slot[k].nsrc;
            choice[f->npresent] = (uint8_t)present;
            nsrc[f->npresent++] = (uint8_t)n;
        }
    f->slot = slot;
    f->nops = F->nops;
    f->min_src = F->min_src;
    f->max_src = F->max_src;
    f->present = choice;
    f->present_nsrc = nsrc;
    F->enc = f;
    return 0;
}

int asm_plan_build(gisa_isa *isa)
{
    for (int i = 0; i < isa->nopcodes; i++)
        for (int k = 0; k < isa->opcodes[i].nforms; k++)
            if (build_form(isa, &isa->opcodes[i].forms[k]))
                return -1;
    /* each mnemonic's candidates side by side: judging them touches no
     * opcode or form */
    for (int e = 0; e < isa->nmnemonics; e++) {
        mnemonic_entry *me = &isa->mnemonics[e];
        const asm_form **enc = arena_alloc(&isa->a, sizeof *enc * (size_t)(me->n ? me->n : 1));
        if (!enc)
            return -1;
        for (int i = 0; i < me->n; i++)
            enc[i] = isa->opcodes[me->opcode[i]].forms[me->form[i]].enc;
        me->enc = enc;
    }
    return 0;
}
