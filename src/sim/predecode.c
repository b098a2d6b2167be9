/* Pre-decoding: each program word becomes a sim_insn once, before the run.
 * Everything here is generic over the model: the syntax form the
 * disassembler matches says which operands exist, which fields hold them
 * and their decorations; the opdef of the optype says which modifier
 * fields the semantics read. A word that does not decode, or an operand the
 * simulator cannot place, becomes an instruction that faults when reached. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/decoder.h"
#include "sim/bind.h"
#include "sim/sim.h"

#define TEXT_CAP 160

/* Rows for register `idx` of a register file with `n` real entries whose
 * zero register reads row `zero` and writes row `sink`. */
static void place_rows(sim_opnd *o, uint64_t idx, uint64_t zero_value, unsigned zero, unsigned sink)
{
    if (idx == zero_value) {
        o->rd_lo = o->rd_hi = (uint16_t)zero;
        o->wr_lo = o->wr_hi = (uint16_t)sink;
        return;
    }
    o->rd_lo = o->wr_lo = (uint16_t)idx;
    if (idx + 1 == zero_value) {
        o->rd_hi = (uint16_t)zero;
        o->wr_hi = (uint16_t)sink;
    } else {
        o->rd_hi = o->wr_hi = (uint16_t)(idx + 1);
    }
}

static const char *place_operand(const gisa_sim *s, const isa_opcode *op, const syntax_form *F, const opnd_slot *sl,
                                 const uint64_t *vals, unsigned deco, sim_opnd *o, const sim_opdef *def, char *why,
                                 size_t cap)
{
    const isa_type *t = sl->type;
    uint64_t v = sl->field >= 0 ? vals[sl->field] : 0;
    o->pair = (uint8_t)(sl->kind != OK_PR && opnd_is_pair(sl, vals));
    o->neg = (deco & GISA_DECO_NEG) != 0;
    o->inv = (deco & GISA_DECO_INV) != 0;
    o->abs = (deco & GISA_DECO_ABS) != 0;
    o->pnot = (deco & GISA_DECO_NOT) != 0;
    if (sl->sfx_slot >= 0 && sim_read_sel(op, F, sl, vals, def, &o->sel, why, cap))
        return why;
    switch (sl->kind) {
    case OK_PR: o->kind = SK_NONE; return NULL;
    case OK_REG:
        o->index = (uint16_t)v;
        switch (t->rclass) {
        case RC_GPR:
            if (v != t->zero_value && v + o->pair >= s->regs) {
                snprintf(why, cap, "register %s%llu is beyond the %u registers per lane (--regs)", t->prefix,
                         (unsigned long long)(v + o->pair), s->regs);
                return why;
            }
            o->kind = SK_GPR;
            place_rows(o, v, t->zero_value, s->regs, s->regs + 1);
            return NULL;
        case RC_UGPR:
            o->kind = SK_UR;
            place_rows(o, v, t->zero_value, SIM_NUR, SIM_NUR + 1);
            return NULL;
        case RC_PRED:
        case RC_UPRED:
            o->kind = t->rclass == RC_PRED ? SK_PRED : SK_UPRED;
            place_rows(o, v, t->zero_value, SIM_PT, SIM_PSINK);
            return NULL;
        }
        break;
    case OK_IMM:
        o->kind = SK_CONST;
        o->pair |= t->fmt == IMM_F64; /* the high word of a double: a 64-bit value */
        if (t->fmt == IMM_F64 || (t->fmt == IMM_F32 && t->width < 32))
            o->imm = v << ((t->fmt == IMM_F64 ? 64 : 32) - t->width);
        else if (t->fmt == IMM_SIGNED && o->pair && t->width < 64)
            o->imm = (uint64_t)((int64_t)(v << (64 - t->width)) >> (64 - t->width));
        else
            o->imm = v;
        return NULL;
    case OK_CMEM:
        o->kind = SK_CMEM;
        o->bank = (uint32_t)cmem_bank(t, v);
        o->offset = (uint32_t)cmem_offset(t, v);
        return NULL;
    case OK_INDEXED: {
        o->kind = SK_INDEXED;
        o->index = (uint16_t)v;
        place_rows(o, v, t->zero_value, SIM_NUR, SIM_NUR + 1);
        if (sl->index_field >= 0) {
            int w = op->fields[sl->index_field].width;
            o->disp = (int32_t)((int64_t)(vals[sl->index_field] << (64 - w)) >> (64 - w));
        }
        return NULL;
    }
    }
    snprintf(why, cap, "operand %s cannot be simulated", sl->name);
    return why;
}

static void decode_one(gisa_sim *s, size_t pc, sim_insn *in, char *text, char *why)
{
    const gisa_isa *isa = s->isa;
    memset(in, 0, sizeof *in);
    in->text = text;
    in->guard = SIM_PT;
    gisa_inst inst;
    if (gisa_decode(isa, s->words[pc], &inst) != GISA_OK) {
        gisa_disassemble(isa, s->words[pc], text, TEXT_CAP); /* the `.invalid` line, for messages */
        size_t n = strnlen(inst.why, TEXT_CAP - 1); /* cut as the reason always was */
        memcpy(why, inst.why, n);
        why[n] = 0;
        in->fault = why;
        return;
    }
    gisa_print(isa, &inst, text, TEXT_CAP); /* for the trace and fault messages only */
    const uint64_t *vals = inst.field;
    int opc = inst.opcode, form = inst.form;
    const isa_opcode *op = &isa->opcodes[opc];
    const syntax_form *F = &op->forms[form];
    const sim_opdef *def = sim_find_opdef(op->optype->semantics);
    if (!def) {
        snprintf(why, TEXT_CAP, "%s has no semantics in this simulator", op->optype->name);
        in->fault = why;
        return;
    }
    in->def = def;
    if (op->guard >= 0) {
        in->guard = (uint8_t)vals[op->guard];
        in->guard_not = (uint8_t)(op->guard_not >= 0 && vals[op->guard_not]);
    }
    if ((in->fault = sim_read_mods(op, def, vals, in->m, why, TEXT_CAP)) != NULL)
        return;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *sl = &F->ops[k];
        if (sl->kind == OK_PR)
            continue;
        int r = sim_operand_role(sl);
        if (r < 0) {
            snprintf(why, TEXT_CAP, "operand %s has no role in the simulator", sl->name);
            in->fault = why;
            return;
        }
        gisa_operand go;
        gisa_inst_operand(isa, &inst, (size_t)k, &go);
        in->fault = place_operand(s, op, F, sl, vals, go.deco, &in->op[r], def, why, TEXT_CAP);
        if (in->fault)
            return;
    }
}

void sim_program_free(gisa_sim *s)
{
    free(s->prog);
    free(s->strings);
    s->prog = NULL;
    s->strings = NULL;
}

gisa_status sim_predecode(gisa_sim *s)
{
    sim_program_free(s);
    size_t n = s->nwords ? s->nwords : 1;
    s->prog = calloc(n, sizeof *s->prog);
    s->strings = malloc(n * 2 * TEXT_CAP);
    if (!s->prog || !s->strings) {
        sim_program_free(s);
        return GISA_ERR_NOMEM;
    }
    for (size_t pc = 0; pc < s->nwords; pc++) {
        sim_insn *in = &s->prog[pc];
        char *text = s->strings + pc * 2 * TEXT_CAP;
        decode_one(s, pc, in, text, text + TEXT_CAP);
        /* constants are read now: no instruction writes constant memory */
        for (int r = 0; r < RO_COUNT; r++) {
            sim_opnd *o = &in->op[r];
            if (o->kind != SK_CMEM)
                continue;
            o->imm = sim_const_read(s, o->bank, o->offset);
            if (o->pair)
                o->imm |= (uint64_t)sim_const_read(s, o->bank, o->offset + 4) << 32;
        }
    }
    return GISA_OK;
}
