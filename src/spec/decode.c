/* Lookup structures built once per model: the decode table (a direct index
 * on the fixed bits every opcode shares, e.g. optype+stype) and the table
 * of mnemonics used by the assembler. */
#include <string.h>

#include "spec/cursor.h"
#include "spec/doc.h"
#include "spec/model.h"

static int build_mnemonics(gisa_isa *isa)
{
    arena *a = &isa->a;
    int total = 0;
    for (int i = 0; i < isa->nopcodes; i++)
        total += isa->opcodes[i].nforms;
    isa->mnemonics = arena_alloc(a, sizeof *isa->mnemonics * (size_t)(total ? total : 1));
    if (!isa->mnemonics)
        return -1;
    for (int i = 0; i < isa->nopcodes; i++)
        for (int f = 0; f < isa->opcodes[i].nforms; f++) {
            const char *m = isa->opcodes[i].forms[f].mnemonic;
            int e = strmap_get(&isa->mnemonic_by_name, m, strlen(m));
            if (e < 0) {
                e = isa->nmnemonics++;
                isa->mnemonics[e].mnemonic = m;
                if (strmap_put(&isa->mnemonic_by_name, m, strlen(m), e))
                    return -1;
            }
            mnemonic_entry *me = &isa->mnemonics[e];
            int *op = arena_append(a, me->opcode, (size_t)me->n, sizeof *op);
            int *fm = arena_append(a, me->form, (size_t)me->n, sizeof *fm);
            if (!op || !fm)
                return -1;
            op[me->n] = i;
            fm[me->n] = f;
            me->opcode = op;
            me->form = fm;
            me->n++;
        }
    for (int e = 0; e < isa->nmnemonics; e++) /* IMAD.WIDE marks IMAD */
        for (const char *d = strchr(isa->mnemonics[e].mnemonic, '.'); d; d = strchr(d + 1, '.')) {
            int dots = 0;
            for (const char *q = isa->mnemonics[e].mnemonic; q <= d; q++)
                dots += *q == '.';
            isa->mnemonic_dots = dots > isa->mnemonic_dots ? dots : isa->mnemonic_dots;
            int p = strmap_get(&isa->mnemonic_by_name, isa->mnemonics[e].mnemonic, (size_t)(d - isa->mnemonics[e].mnemonic));
            if (p >= 0)
                isa->mnemonics[p].longer = 1;
        }
    return 0;
}

static int build_extraction(gisa_isa *isa)
{
    for (int i = 0; i < isa->nopcodes; i++) {
        isa_opcode *op = &isa->opcodes[i];
        op->fx = arena_alloc(&isa->a, sizeof *op->fx * (size_t)(op->nfields ? op->nfields : 1));
        op->absent = arena_alloc(&isa->a, sizeof *op->absent * (size_t)(op->nfields ? op->nfields : 1));
        if (!op->fx || !op->absent)
            return -1;
        for (int f = 0; f < op->nfields; f++) {
            const isa_field *fl = &op->fields[f];
            int enum_ok = fl->type && fl->type->kind == TY_ENUM && fl->type->named;
            op->fx[f] = (field_x){(uint16_t)fl->off, (uint8_t)fl->width, (uint8_t)(enum_ok ? fl->type->width : 0),
                                  enum_ok ? fl->type->named : NULL};
            op->absent[f] = field_absent_value(fl);
        }
        for (int k = 0; k < op->nforms; k++) {
            syntax_form *F = &op->forms[k];
            F->mnemonic_len = (int)strlen(F->mnemonic);
            F->base = arena_alloc(&isa->a, sizeof *F->base * (size_t)(op->nfields ? op->nfields : 1));
            if (!F->base)
                return -1;
            F->base_word = (gisa_word){{0, 0}};
            for (int f = 0; f < op->nfields; f++) {
                const isa_field *fl = &op->fields[f];
                F->base[f] = word_get(&F->mask, fl->off, fl->width) ? word_get(&F->match, fl->off, fl->width) : op->absent[f];
                word_set(&F->base_word, fl->off, fl->width, F->base[f]);
            }
            F->min_src = F->max_src = 0;
            for (int j = 0; j < F->nops; j++) {
                int n = F->ops[j].kind == OK_IMM && F->ops[j].type->fmt == IMM_F16X2 ? 2 : 1;
                F->max_src += n;
                F->min_src += F->ops[j].group ? 0 : n;
            }
        }
    }
    return 0;
}

/* The letters (and '_') of a name packed one byte each, first highest; 0
 * when it has other characters or more than NAME_KEY_MAX: register names
 * are then compared as one number (the assembler's lexer packs what it
 * reads the same way). */
static uint64_t name_key(const char *s)
{
    uint64_t key = 0;
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        if (!is_ident_start(s[i]) || s[i] == '$')
            return 0;
        key = key << 8 | (unsigned char)s[i];
    }
    return n <= NAME_KEY_MAX ? key : 0;
}

/* An operand named N is a constant of its optype when every slot named N,
 * in every form of every opcode of the optype, is an immediate. */
static int constant_everywhere(const gisa_isa *isa, const isa_optype *ot, const char *name)
{
    for (int i = 0; i < ot->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[ot->opcodes[i]];
        for (int k = 0; k < op->nforms; k++)
            for (int j = 0; j < op->forms[k].nops; j++)
                if (op->forms[k].ops[j].kind != OK_IMM && !strcmp(op->forms[k].ops[j].name, name))
                    return 0;
    }
    return 1;
}

static void mark_operands(gisa_isa *isa)
{
    for (int i = 0; i < isa->nopcodes; i++) {
        isa_opcode *op = &isa->opcodes[i];
        for (int k = 0; k < op->nforms; k++)
            for (int j = 0; j < op->forms[k].nops; j++) {
                opnd_slot *s = &op->forms[k].ops[j];
                s->written = (uint8_t)doc_list_names(op->outlist, op, s->field);
                s->constant = (uint8_t)(s->kind == OK_IMM && constant_everywhere(isa, op->optype, s->name));
            }
    }
}

int decode_build(gisa_isa *isa)
{
    mark_operands(isa);
    for (int i = 0; i < isa->ntypes; i++) {
        isa_type *ty = &isa->types[i];
        if (ty->kind == TY_REG && (ty->prefix_key = name_key(ty->prefix)) != 0)
            ty->zero_key = name_key(ty->zero);
    }
    if (build_extraction(isa))
        return -1;
    decode_table *t = &isa->dec;
    gisa_word common = {{~UINT64_C(0), ~UINT64_C(0)}};
    if (isa->word_bits == 64)
        common.w[1] = 0;
    for (int i = 0; i < isa->nopcodes; i++) {
        common.w[0] &= isa->opcodes[i].mask.w[0];
        common.w[1] &= isa->opcodes[i].mask.w[1];
    }
    t->nkeybits = 0;
    for (int b = 0; b < isa->word_bits && t->nkeybits < 16; b++)
        if (word_get(&common, b, 1))
            t->keybit[t->nkeybits++] = b;
    t->nruns = 0;
    for (int i = 0; i < t->nkeybits; i++) {
        if (t->nruns && t->run_off[t->nruns - 1] + t->run_width[t->nruns - 1] == t->keybit[i] &&
            t->keybit[i] != 64) { /* runs never straddle the two 64-bit halves */
            t->run_width[t->nruns - 1]++;
            continue;
        }
        t->run_off[t->nruns] = t->keybit[i];
        t->run_width[t->nruns] = 1;
        t->run_shift[t->nruns] = i;
        t->nruns++;
    }
    size_t nb = (size_t)1 << t->nkeybits;
    t->start = arena_alloc(&isa->a, sizeof(int) * (nb + 1));
    t->cand = arena_alloc(&isa->a, sizeof(int) * (size_t)(isa->nopcodes ? isa->nopcodes : 1));
    t->pat = arena_alloc(&isa->a, sizeof *t->pat * (size_t)(isa->nopcodes ? isa->nopcodes : 1));
    if (!t->start || !t->cand || !t->pat)
        return -1;
    for (int i = 0; i < isa->nopcodes; i++)
        t->pat[i] = (decode_pattern){isa->opcodes[i].mask, isa->opcodes[i].match};
    int *count = arena_alloc(&isa->a, sizeof(int) * nb);
    if (!count)
        return -1;
    for (int i = 0; i < isa->nopcodes; i++)
        count[decode_key(t, &isa->opcodes[i].match)]++;
    for (size_t k = 0; k < nb; k++)
        t->start[k + 1] = t->start[k] + count[k];
    memset(count, 0, sizeof(int) * nb);
    for (int i = 0; i < isa->nopcodes; i++) {
        size_t k = decode_key(t, &isa->opcodes[i].match);
        t->cand[t->start[k] + count[k]++] = i;
    }
    return build_mnemonics(isa);
}

gisa_status gisa_decode_opcode(const gisa_isa *isa, gisa_word w, size_t *opcode)
{
    if (!isa || !opcode)
        return GISA_ERR_USAGE;
    int i = decode_lookup(isa, &w);
    if (i < 0)
        return GISA_ERR_NOTFOUND;
    *opcode = (size_t)i;
    return GISA_OK;
}
