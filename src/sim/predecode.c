/* Pre-decoding: each program word becomes a sim_insn once, before the run.
 * Everything here is generic over the model: the syntax form the
 * disassembler matches says which operands exist, which fields hold them
 * and their decorations; the opdef of the optype says which modifier
 * fields the semantics read. A word that does not decode, or an operand the
 * simulator cannot place, becomes an instruction that faults when reached. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm/disasm.h"
#include "sim/sim.h"

#define TEXT_CAP 160

static const struct {
    const char *name;
    sim_role role;
} role_names[] = {
    {"Rd", RO_D},   {"URd", RO_D},  {"Ra", RO_A},         {"SrcA", RO_A},       {"SrcB", RO_B},
    {"Rb", RO_B},   {"SbMsk", RO_B}, {"SrcC", RO_C},       {"Rc", RO_C},         {"pu", RO_PU},
    {"pv", RO_PV},  {"pp", RO_PP},  {"pq", RO_PQ},        {"pa", RO_PA},        {"pb", RO_PB},
    {"pc", RO_PC},  {"UImm5Sca", RO_IMM}, {"UImm8Lut", RO_IMM},
};

static int role_of(const opnd_slot *s)
{
    if (s->kind == OK_INDEXED)
        return RO_IDX;
    for (size_t i = 0; i < sizeof role_names / sizeof role_names[0]; i++)
        if (!strcmp(role_names[i].name, s->name))
            return (int)role_names[i].role;
    return -1;
}

/* Index of `name` in a space-separated list, or -1. */
static int name_index(const char *list, const char *name)
{
    size_t n = strlen(name);
    int k = 0;
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        if (e > p) {
            if ((size_t)(e - p) == n && !strncmp(p, name, n))
                return k;
            k++;
        }
        p = e;
    }
    return -1;
}

static const char *field_value_name(const isa_field *f, uint64_t v, char *buf, size_t cap)
{
    return type_value_name(f->type, v, buf, cap);
}

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
                                 const uint64_t *vals, sim_opnd *o, const char *sel_names, char *why, size_t cap)
{
    const isa_type *t = sl->type;
    uint64_t v = sl->field >= 0 ? vals[sl->field] : 0;
    o->pair = (uint8_t)(sl->kind != OK_PR && disasm_is_pair(sl, vals));
    o->neg = (uint8_t)(sl->neg_field >= 0 && vals[sl->neg_field]);
    o->abs = (uint8_t)(sl->abs_field >= 0 && vals[sl->abs_field]);
    o->pnot = (uint8_t)(sl->not_field >= 0 && vals[sl->not_field]);
    if (o->neg && sl->inv_field >= 0 && vals[sl->inv_field] == sl->inv_value) {
        o->neg = 0;
        o->inv = 1;
    }
    if (sl->sfx_slot >= 0) {
        const mod_slot *m = &F->mods[sl->sfx_slot];
        char buf[32];
        /* a suffix no field encodes is always its default (H1_H0, B0) */
        const char *nm = m->field >= 0 ? field_value_name(&op->fields[m->field], vals[m->field], buf, sizeof buf)
                         : m->def_choice >= 0 ? m->choices[m->def_choice].spell
                                              : NULL;
        int k = nm && sel_names ? name_index(sel_names, nm) : -1;
        if (k < 0) {
            snprintf(why, cap, "operand %s: suffix value not simulated", sl->name);
            return why;
        }
        o->sel = (uint8_t)k;
    }
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

static const char *read_mods(const isa_opcode *op, const sim_opdef *def, const uint64_t *vals, uint32_t *m, char *why,
                             size_t cap)
{
    for (int i = 0; i < SIM_MAXMODS && def->mods[i]; i++) {
        const char *spec = def->mods[i];
        const char *colon = strchr(spec, ':');
        char fname[32];
        size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
        if (n >= sizeof fname)
            n = sizeof fname - 1;
        memcpy(fname, spec, n);
        fname[n] = 0;
        int f = model_field(op, fname);
        m[i] = 0;
        if (f < 0)
            continue;
        if (!colon || !strcmp(colon + 1, "#")) {
            m[i] = (uint32_t)vals[f];
            continue;
        }
        char buf[32];
        const char *nm = field_value_name(&op->fields[f], vals[f], buf, sizeof buf);
        int k = nm ? name_index(colon + 1, nm) : -1;
        if (k < 0) {
            snprintf(why, cap, "%s: %s = %s is not simulated", op->name, fname, nm ? nm : "?");
            return why;
        }
        m[i] = (uint32_t)k;
    }
    return NULL;
}

static void decode_one(gisa_sim *s, size_t pc, sim_insn *in, char *text, char *why)
{
    const gisa_isa *isa = s->isa;
    memset(in, 0, sizeof *in);
    in->text = text;
    in->guard = SIM_PT;
    gisa_disassemble(isa, s->words[pc], text, TEXT_CAP);
    uint64_t vals[DISASM_NVALS];
    int opc, form;
    if (disasm_match(isa, &s->words[pc], &opc, &form, vals, why, TEXT_CAP) < 0) {
        in->fault = why;
        return;
    }
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
    if ((in->fault = read_mods(op, def, vals, in->m, why, TEXT_CAP)) != NULL)
        return;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *sl = &F->ops[k];
        if (sl->kind == OK_PR)
            continue;
        int r = role_of(sl);
        if (r < 0) {
            snprintf(why, TEXT_CAP, "operand %s has no role in the simulator", sl->name);
            in->fault = why;
            return;
        }
        in->fault = place_operand(s, op, F, sl, vals, &in->op[r], def->sel_names, why, TEXT_CAP);
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
