/* Pre-decoding: each program word becomes a sim_insn once, before the run.
 * Everything here is generic over the model: the decoder (gisa_decode)
 * gives the instruction and its form, the form's operands come from the
 * gisa_inst accessors (kind, register, value, decorations) and take their
 * roles from the model (bind.c); the engine chosen for the optype
 * (engine.c) prepares the rest. A word that does not decode, or an operand
 * the simulator cannot place, becomes an instruction that faults when
 * reached. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/bind.h"
#include "sim/docexec.h"
#include "sim/engine.h"
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

/* One operand of the decoded instruction (its accessor's view) in the
 * simulator's terms: rows to read and write, or a value. */
static const char *place_operand(const gisa_sim *s, const opnd_slot *sl, const gisa_operand *go, sim_opnd *o, char *why,
                                 size_t cap)
{
    const isa_type *t = sl->type;
    o->pair = (uint8_t)go->pair;
    o->neg = (go->deco & GISA_DECO_NEG) != 0;
    o->inv = (go->deco & GISA_DECO_INV) != 0;
    o->abs = (go->deco & GISA_DECO_ABS) != 0;
    o->pnot = (go->deco & GISA_DECO_NOT) != 0;
    switch (go->kind) {
    case GISA_OPND_PR: o->kind = SK_NONE; return NULL;
    case GISA_OPND_REG:
    case GISA_OPND_PAIR:
        if (!go->is_zero && go->reg + o->pair >= s->regs) {
            snprintf(why, cap, "register %s%u is beyond the %u registers per lane (--regs)", t->prefix, go->reg + o->pair,
                     s->regs);
            return why;
        }
        o->kind = SK_GPR;
        o->index = (uint16_t)go->reg;
        place_rows(o, go->reg, t->zero_value, s->regs, s->regs + 1);
        return NULL;
    case GISA_OPND_UREG:
    case GISA_OPND_UPAIR:
        o->kind = SK_UR;
        o->index = (uint16_t)go->reg;
        place_rows(o, go->reg, t->zero_value, SIM_NUR, SIM_NUR + 1);
        return NULL;
    case GISA_OPND_PRED:
    case GISA_OPND_UPRED:
        o->kind = go->kind == GISA_OPND_PRED ? SK_PRED : SK_UPRED;
        o->index = (uint16_t)go->reg;
        place_rows(o, go->reg, t->zero_value, SIM_PT, SIM_PSINK);
        return NULL;
    case GISA_OPND_IMM:
    case GISA_OPND_F32:
    case GISA_OPND_F64:
    case GISA_OPND_F16X2:
        o->kind = SK_CONST;
        /* a 64-bit operand takes all 64 bits of the value (F64: the high
         * word of a double; a signed immediate: sign-extended) */
        o->imm = o->pair || go->kind != GISA_OPND_IMM ? (uint64_t)go->value : (uint32_t)go->value;
        return NULL;
    case GISA_OPND_CBANK:
        o->kind = SK_CMEM;
        o->bank = go->bank;
        o->offset = go->offset;
        return NULL;
    case GISA_OPND_INDEXED:
        o->kind = SK_INDEXED;
        o->index = (uint16_t)go->reg;
        place_rows(o, go->reg, t->zero_value, SIM_NUR, SIM_NUR + 1);
        o->disp = (int32_t)go->value;
        return NULL;
    }
    snprintf(why, cap, "operand %s cannot be simulated", sl->name);
    return why;
}

/* constants are read before the run: no instruction writes constant memory */
static void read_constants(const gisa_sim *s, sim_insn *in)
{
    for (int r = 0; r < RO_COUNT; r++) {
        sim_opnd *o = &in->op[r];
        if (o->kind != SK_CMEM)
            continue;
        o->imm = sim_const_read(s, o->bank, o->offset);
        if (o->pair)
            o->imm |= (uint64_t)sim_const_read(s, o->bank, o->offset + 4) << 32;
    }
}

/* The text of word pc for the trace and fault messages only (an `.invalid`
 * line when it does not decode), printed by the service the library set in
 * the ISA handle: the disassembler is a sibling layer */
static void word_text(const gisa_sim *s, size_t pc, const gisa_inst *inst, gisa_status decoded, char *text)
{
    const gisa_isa *isa = s->isa;
    if (decoded == GISA_OK)
        isa->tools.print(isa, inst, text, TEXT_CAP);
    else
        isa->tools.disassemble(isa, s->words[pc], text, TEXT_CAP, NULL);
}

/* Pre-decodes word pc into *in: decode, choose the engine, place the
 * operands by role, let the engine prepare it. A word that cannot run gets
 * in->fault. */
static void decode_one(gisa_sim *s, size_t pc, sim_insn *in, gisa_inst *kept, char *text, char *why)
{
    const gisa_isa *isa = s->isa;
    memset(in, 0, sizeof *in);
    in->text = text;
    in->guard = SIM_PT;
    gisa_inst inst;
    gisa_status st = gisa_decode(isa, s->words[pc], &inst);
    if (kept)
        *kept = inst;
    word_text(s, pc, &inst, st, text);
    if (st != GISA_OK) {
        size_t n = strnlen(inst.why, TEXT_CAP - 1); /* cut as the reason always was */
        memcpy(why, inst.why, n);
        why[n] = 0;
        in->fault = why;
        return;
    }
    const isa_opcode *op = &isa->opcodes[inst.opcode];
    const syntax_form *F = &op->forms[inst.form];
    const sim_opdef *def;
    const sim_engine *e = sim_engine_choose(s, op, &def, &in->fault, why, TEXT_CAP);
    if (!e)
        return;
    signed char roles[SIM_MAX_SLOTS];
    if ((in->fault = sim_bind_roles(isa, op, F, def, roles, why, TEXT_CAP)) != NULL)
        return;
    unsigned guard;
    bool guard_not;
    if (gisa_inst_guard(isa, &inst, &guard, &guard_not) == GISA_OK) {
        in->guard = (uint8_t)guard;
        in->guard_not = (uint8_t)guard_not;
    }
    for (int k = 0; k < F->nops; k++) {
        if (roles[k] < 0)
            continue;
        gisa_operand go;
        gisa_inst_operand(isa, &inst, (size_t)k, &go);
        if ((in->fault = place_operand(s, &F->ops[k], &go, &in->op[roles[k]], why, TEXT_CAP)) != NULL)
            return;
    }
    read_constants(s, in);
    in->engine = e;
    in->fault = e->prepare(s, op, F, &inst, roles, def, in, why, TEXT_CAP);
}

/* The run loop's line of a pre-decoded word (sim.h): the same facts its
 * sim_insn holds, in the form the loop reads them */
static void make_hot(const gisa_sim *s, const sim_insn *in, sim_hot *h)
{
    memset(h, 0, sizeof *h);
    h->guard = in->guard;
    h->guard_not = in->guard_not;
    h->fn = in->def ? in->def->fn : NULL;
    h->doc = in->doc;
    if (in->def && in->def->custom_write)
        h->flags |= SIM_HOT_CUSTOM;
    if (in->fault) {
        h->flags |= SIM_HOT_FAULT;
        return;
    }
    static const sim_role sources[3] = {RO_A, RO_B, RO_C};
    for (int i = 0; i < 3; i++) {
        const sim_opnd *o = &in->op[sources[i]];
        if (o->kind == SK_GPR) {
            h->src[i][0] = o->rd_lo;
            h->src[i][1] = o->rd_hi;
        } else if (o->kind == SK_UR || o->kind == SK_CONST || o->kind == SK_CMEM) {
            h->flags |= (uint8_t)(SIM_HOT_SLOW_A << i);
        } else {
            h->src[i][0] = h->src[i][1] = (uint16_t)s->regs;
        }
    }
    const sim_opnd *d = &in->op[RO_D];
    if (d->kind == SK_GPR) {
        h->flags |= SIM_HOT_D | (d->pair ? SIM_HOT_D_PAIR : 0);
        h->d[0] = d->wr_lo;
        h->d[1] = d->wr_hi;
        /* the native function may write the rows themselves when it reads
         * none of them (an indexed operand may read any row), and so may a
         * doc program that reads no old Rd and cannot fault after writing
         * (ds_prog.run_direct) */
        const int engine_ok = in->engine && (in->engine->id == GISA_ENGINE_NATIVE ||
                                             (in->engine->id == GISA_ENGINE_DOC && in->doc && in->doc->run_direct));
        int direct = engine_ok && in->op[RO_IDX].kind == SK_NONE && (!d->pair || d->wr_lo != d->wr_hi);
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 2; k++)
                direct &= !(h->flags & (SIM_HOT_SLOW_A << i)) ? h->src[i][k] != h->d[0] && h->src[i][k] != h->d[1] : 1;
        h->flags |= direct ? SIM_HOT_DIRECT : 0;
    }
    static const sim_role preds[5] = {RO_PP, RO_PQ, RO_PA, RO_PB, RO_PC};
    for (int i = 0; i < 5; i++) {
        const sim_opnd *o = &in->op[preds[i]];
        if (o->kind == SK_NONE)
            continue;
        h->pred[h->npreds].file = o->kind == SK_PRED    ? SIM_HOT_FILE_P
                                  : o->kind == SK_UPRED ? SIM_HOT_FILE_UP
                                                        : SIM_HOT_FILE_ZERO;
        h->pred[h->npreds].slot = (uint8_t)o->rd_lo;
        h->pred[h->npreds].invert = o->pnot;
        h->pred[h->npreds++].lanes = (uint8_t)i;
    }
    static const sim_role outs[2] = {RO_PU, RO_PV};
    for (int i = 0; i < 2; i++) {
        const sim_opnd *o = &in->op[outs[i]];
        /* a write to PT or UPT changes nothing and is not recorded */
        if ((o->kind != SK_PRED && o->kind != SK_UPRED) || o->wr_lo >= SIM_PT)
            continue;
        h->out[h->nouts].uniform = o->kind == SK_UPRED;
        h->out[h->nouts].slot = (uint8_t)o->wr_lo;
        h->out[h->nouts++].lanes = (uint8_t)i;
    }
}

void sim_hot_refresh(gisa_sim *s, size_t pc) { make_hot(s, &s->prog[pc], &s->hot[pc]); }

/* The pre-decoded program only: the decoded words and their texts, which
 * commit records point at, depend on the words alone and stay (at the
 * same addresses) until the program changes (sim_program_free). */
static void prog_free(gisa_sim *s)
{
    for (size_t pc = 0; s->prog && pc < s->nprog; pc++)
        if (s->prog[pc].engine && s->prog[pc].engine->release)
            s->prog[pc].engine->release(&s->prog[pc]);
    s->nprog = 0;
    free(s->prog);
    free(s->hot);
    s->prog = NULL;
    s->hot = NULL;
    s->prog_valid = 0;
}

void sim_program_free(gisa_sim *s)
{
    prog_free(s);
    free(s->strings);
    free(s->insts);
    s->strings = NULL;
    s->insts = NULL;
}

gisa_status sim_prepare(gisa_sim *s, int keep_insts)
{
    if (s->prog_valid && (!keep_insts || s->insts))
        return GISA_OK;
    return sim_predecode(s, keep_insts);
}

gisa_status sim_predecode(gisa_sim *s, int keep_insts)
{
    prog_free(s);
    size_t n = s->nwords ? s->nwords : 1;
    s->prog = calloc(n, sizeof *s->prog);
    s->hot = aligned_alloc(64, n * sizeof *s->hot);
    if (!s->strings)
        s->strings = malloc(n * 2 * TEXT_CAP);
    /* a decoded word is ~800 bytes: kept only for commit records */
    if (keep_insts && !s->insts)
        s->insts = calloc(n, sizeof *s->insts);
    if (!s->prog || !s->hot || !s->strings || (keep_insts && !s->insts)) {
        sim_program_free(s);
        return GISA_ERR_NOMEM;
    }
    s->nprog = s->nwords;
    for (size_t pc = 0; pc < s->nwords; pc++) {
        sim_insn *in = &s->prog[pc];
        char *text = s->strings + pc * 2 * TEXT_CAP;
        decode_one(s, pc, in, s->insts ? &s->insts[pc] : NULL, text, text + TEXT_CAP);
        make_hot(s, in, &s->hot[pc]);
    }
    s->prog_valid = 1;
    return GISA_OK;
}

const char *sim_doc_why_not(gisa_sim *s, size_t pc)
{
    if (s->engine == GISA_ENGINE_NATIVE)
        return "the simulator runs the native engine";
    if (sim_prepare(s, 0) != GISA_OK)
        return "out of memory";
    if (pc >= s->nprog)
        return "no instruction at that index";
    const sim_insn *in = &s->prog[pc];
    if (in->doc)
        return NULL;
    return in->fault ? in->fault : "the word runs under the native engine";
}
