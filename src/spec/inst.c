/* gisa_inst (gisa.h): decoding and encoding are the decoder's tables run one
 * way or the other; the accessors read the syntax form the decoder chose,
 * so that what they report is what the printed text shows. */
#include <stdio.h>
#include <string.h>

#include "spec/doc.h"
#include "spec/inst.h"

static const isa_opcode *opcode_of(const gisa_isa *isa, const gisa_inst *inst)
{
    return isa && inst && inst->opcode >= 0 && inst->opcode < isa->nopcodes ? &isa->opcodes[inst->opcode] : NULL;
}

static const syntax_form *form_of(const gisa_isa *isa, const gisa_inst *inst)
{
    const isa_opcode *op = opcode_of(isa, inst);
    return op && inst->form >= 0 && inst->form < op->nforms ? &op->forms[inst->form] : NULL;
}

/* The first problem of inst's indices and values, or NULL. */
static const char *problem(const gisa_isa *isa, const gisa_inst *inst, char *why, size_t cap)
{
    const isa_opcode *op = opcode_of(isa, inst);
    if (!op) {
        snprintf(why, cap, "opcode index %d is not an opcode of the ISA", inst->opcode);
        return why;
    }
    if (!form_of(isa, inst) || op->nfields > SPEC_MAXF) {
        snprintf(why, cap, "%s has no syntax form %d", op->name, inst->form);
        return why;
    }
    for (int i = 0; i < op->nfields; i++) {
        const isa_field *f = &op->fields[i];
        if (f->width < 64 && inst->field[i] >> f->width) {
            snprintf(why, cap, "%s: field %s = %llu does not fit in %d bits", op->name, f->name,
                     (unsigned long long)inst->field[i], f->width);
            return why;
        }
    }
    return NULL;
}

int inst_check(const gisa_isa *isa, const gisa_inst *inst)
{
    char why[GISA_INST_WHY];
    return problem(isa, inst, why, sizeof why) ? -1 : 0;
}

gisa_status gisa_decode(const gisa_isa *isa, gisa_word word, gisa_inst *inst)
{
    if (!isa || !inst)
        return GISA_ERR_USAGE;
    inst->word = word;
    inst->form = decoder_run(isa, &word, &inst->opcode, inst->field);
    if (inst->form >= 0) {
        inst->why[0] = 0;
        return GISA_OK;
    }
    decoder_explain(isa, &word, inst->opcode, inst->why, sizeof inst->why);
    return GISA_ERR_INPUT;
}

gisa_status gisa_encode(const gisa_isa *isa, gisa_inst *inst, gisa_word *word)
{
    if (!isa || !inst || !word)
        return GISA_ERR_USAGE;
    if (problem(isa, inst, inst->why, sizeof inst->why))
        return GISA_ERR_USAGE;
    const isa_opcode *op = &isa->opcodes[inst->opcode];
    for (int i = 0; i < op->nfields; i++)
        if (op->fields[i].fixed && inst->field[i] != op->fields[i].value) {
            snprintf(inst->why, sizeof inst->why, "%s: field %s must be %llu, not %llu", op->name, op->fields[i].name,
                     (unsigned long long)op->fields[i].value, (unsigned long long)inst->field[i]);
            return GISA_ERR_INPUT;
        }
    gisa_word w = fields_write(&isa->decoder->op[inst->opcode].all, inst->field);
    uint64_t vals[SPEC_NVALS];
    int opcode, form = decoder_run(isa, &w, &opcode, vals);
    if (form < 0 || opcode != inst->opcode) {
        decoder_explain(isa, &w, opcode, inst->why, sizeof inst->why);
        return GISA_ERR_INPUT;
    }
    inst->why[0] = 0;
    inst->word = *word = w;
    return GISA_OK;
}

/* ------------------------------------------------------------ names */

const char *gisa_inst_opcode_name(const gisa_isa *isa, const gisa_inst *inst)
{
    const isa_opcode *op = opcode_of(isa, inst);
    return op ? op->name : NULL;
}

const char *gisa_inst_optype_name(const gisa_isa *isa, const gisa_inst *inst)
{
    const isa_opcode *op = opcode_of(isa, inst);
    return op ? op->optype->name : NULL;
}

const char *gisa_inst_mnemonic(const gisa_isa *isa, const gisa_inst *inst)
{
    const syntax_form *F = form_of(isa, inst);
    return F ? F->mnemonic : NULL;
}

size_t gisa_inst_field_count(const gisa_isa *isa, const gisa_inst *inst)
{
    const isa_opcode *op = opcode_of(isa, inst);
    return op ? (size_t)op->nfields : 0;
}

const char *gisa_inst_field_name(const gisa_isa *isa, const gisa_inst *inst, size_t i)
{
    const isa_opcode *op = opcode_of(isa, inst);
    return op && i < (size_t)op->nfields ? op->fields[i].name : NULL;
}

/* ------------------------------------------------------------ operands */

size_t gisa_inst_operand_count(const gisa_isa *isa, const gisa_inst *inst)
{
    const syntax_form *F = form_of(isa, inst);
    return F ? (size_t)F->nops : 0;
}

static uint64_t val(const gisa_inst *inst, int field) { return field >= 0 ? inst->field[field] : 0; }

static int64_t sign_extend(uint64_t v, int width) { return width >= 64 ? (int64_t)v : (int64_t)(v << (64 - width)) >> (64 - width); }

/* Whether an optional group's operand is in the text: one of the group's
 * fields differs from its omitted value (the printer's rule, which also
 * shows a group when a later adjacent one is shown). */
static int group_shown(const isa_opcode *op, const syntax_form *F, int g, const gisa_inst *inst)
{
    uint8_t field[6 * 32];
    uint64_t absent[6 * 32];
    if (F->nops > 32)
        return 1;
    while (g) {
        int n = group_fields(op, F, g, field, absent, &g);
        for (int i = 0; i < n; i++)
            if (inst->field[field[i]] != absent[i])
                return 1;
    }
    return 0;
}

static gisa_operand_kind reg_kind(const isa_type *t, int pair)
{
    switch (t->rclass) {
    case RC_GPR: return pair ? GISA_OPND_PAIR : GISA_OPND_REG;
    case RC_UGPR: return pair ? GISA_OPND_UPAIR : GISA_OPND_UREG;
    case RC_PRED: return GISA_OPND_PRED;
    case RC_UPRED: return GISA_OPND_UPRED;
    }
    return GISA_OPND_REG;
}

static void imm_operand(const opnd_slot *s, const gisa_inst *inst, gisa_operand *o)
{
    const isa_type *t = s->type;
    uint64_t v = val(inst, s->field);
    o->raw_syntax = t->prefixed; /* the value is the same, only its spelling differs */
    switch (t->fmt) {
    case IMM_SIGNED: o->kind = GISA_OPND_IMM; o->value = sign_extend(v, t->width); break;
    case IMM_UNSIGNED: o->kind = GISA_OPND_IMM; o->value = (int64_t)v; break;
    case IMM_F32: o->kind = GISA_OPND_F32; o->value = (int64_t)(v << (32 - t->width)); break;
    case IMM_F64: o->kind = GISA_OPND_F64; o->value = (int64_t)(v << (64 - t->width)); o->pair = 1; break;
    case IMM_F16X2:
        o->kind = GISA_OPND_F16X2;
        o->value = (int64_t)v;
        o->bf16 = s->fmt_field >= 0 && inst->field[s->fmt_field] == s->fmt_value;
        break;
    }
}

gisa_status gisa_inst_operand(const gisa_isa *isa, const gisa_inst *inst, size_t i, gisa_operand *out)
{
    const syntax_form *F = form_of(isa, inst);
    if (!F || !out || i >= (size_t)F->nops)
        return GISA_ERR_USAGE;
    const isa_opcode *op = &isa->opcodes[inst->opcode];
    const opnd_slot *s = &F->ops[i];
    gisa_operand o = {.name = s->name, .present = !s->group || group_shown(op, F, s->group, inst),
                      .written = s->written};
    deco_fields deco = deco_fields_of(s);
    o.deco = deco_of(&deco, inst->field);
    if (s->sfx_slot >= 0) { /* a suffix no field encodes is always its default */
        const mod_slot *m = &F->mods[s->sfx_slot];
        uint64_t v = m->field >= 0 ? inst->field[m->field] : m->def_choice >= 0 ? m->choices[m->def_choice].value : 0;
        for (int k = 0; k < m->nchoices && !o.suffix; k++)
            if (m->choices[k].value == v)
                o.suffix = m->choices[k].spell;
        o.suffix_default = m->field < 0 || mod_code(m, v) < MOD_TEXT;
    }
    const isa_type *t = s->type;
    uint64_t v = val(inst, s->field);
    o.bits = v;
    o.pair = s->kind != OK_PR && opnd_is_pair(s, inst->field);
    switch (s->kind) {
    case OK_PR: o.kind = GISA_OPND_PR; break;
    case OK_REG:
        o.kind = reg_kind(t, o.pair);
        o.reg = (unsigned)v;
        o.is_zero = v == t->zero_value;
        break;
    case OK_IMM: imm_operand(s, inst, &o); break;
    case OK_CMEM:
        o.kind = GISA_OPND_CBANK;
        o.bank = (unsigned)cmem_bank(t, v);
        o.offset = (unsigned)cmem_offset(t, v);
        break;
    case OK_INDEXED:
        o.kind = GISA_OPND_INDEXED;
        o.reg = (unsigned)v;
        o.is_zero = v == t->zero_value;
        o.value = s->index_field >= 0 ? sign_extend(inst->field[s->index_field], op->fields[s->index_field].width) : 0;
        break;
    }
    *out = o;
    return GISA_OK;
}

/* ------------------------------------------------------------ modifiers */

/* The form's n-th modifier written after the mnemonic, or NULL. */
static const mod_slot *mnemonic_mod(const syntax_form *F, size_t n)
{
    for (int j = 0; j < F->nmods; j++)
        if (F->mods[j].operand < 0 && n-- == 0)
            return &F->mods[j];
    return NULL;
}

size_t gisa_inst_modifier_count(const gisa_isa *isa, const gisa_inst *inst)
{
    const syntax_form *F = form_of(isa, inst);
    size_t n = 0;
    for (int j = 0; F && j < F->nmods; j++)
        n += F->mods[j].operand < 0;
    return n;
}

gisa_status gisa_inst_modifier(const gisa_isa *isa, const gisa_inst *inst, size_t i, gisa_modifier *out)
{
    const syntax_form *F = form_of(isa, inst);
    const mod_slot *m = F ? mnemonic_mod(F, i) : NULL;
    if (!m || !out)
        return GISA_ERR_USAGE;
    uint64_t v = m->field >= 0 ? inst->field[m->field] : m->def_choice >= 0 ? m->choices[m->def_choice].value : 0;
    int code = m->field >= 0 ? mod_code(m, v) : MOD_SILENT;
    *out = (gisa_modifier){.name = m->name, .raw = m->field >= 0 ? v : 0, .is_default = code < MOD_TEXT};
    for (int k = 0; k < m->nchoices && !out->value; k++)
        if (m->choices[k].value == v && !(m->literal && code < MOD_TEXT))
            out->value = m->choices[k].spell;
    return GISA_OK;
}

gisa_status gisa_inst_guard(const gisa_isa *isa, const gisa_inst *inst, unsigned *pred, bool *negated)
{
    const isa_opcode *op = opcode_of(isa, inst);
    if (!op)
        return GISA_ERR_USAGE;
    if (op->guard < 0)
        return GISA_ERR_NOTFOUND;
    if (pred)
        *pred = (unsigned)inst->field[op->guard];
    if (negated)
        *negated = op->guard_not >= 0 && inst->field[op->guard_not] != 0;
    return GISA_OK;
}

gisa_status gisa_inst_controls(const gisa_isa *isa, const gisa_inst *inst, unsigned *sched, unsigned *req,
                               unsigned *wsb)
{
    const syntax_form *F = form_of(isa, inst);
    if (!F)
        return GISA_ERR_USAGE;
    unsigned *out[3] = {sched, req, wsb};
    for (int k = 0; k < 3; k++)
        if (out[k])
            *out[k] = F->ctl[k] >= 0 ? (unsigned)inst->field[F->ctl[k]] : 0;
    return GISA_OK;
}
