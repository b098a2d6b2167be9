/* The disassembler: table lookup of the opcode, then the first syntax form
 * whose constraints the word meets is printed in canonical form (modifiers
 * in syntax order, defaults omitted; print.c). Anything else is `.invalid`
 * with the reason, never a guess. */
#include <stdio.h>
#include <string.h>

#include "disasm/disasm.h"
#include "disasm/plan.h"
#include "spec/model.h"

int disasm_is_pair(const opnd_slot *s, const uint64_t *vals)
{
    if (!s->bitwidth)
        return 0;
    if (s->bitwidth->kind == EX_NUM)
        return s->bitwidth->num == 64;
    return expr_eval(s->bitwidth, vals) == 64;
}

/* Why the form cannot print these field values, or NULL when it can. With
 * why == NULL only the verdict is wanted (the fast path). */
static const char *form_rejects(const isa_opcode *op, const syntax_form *F, const gisa_word *w, const uint64_t *vals,
                                char *why, size_t cap)
{
    const dis_form *df = F->dis;
    if (((w->w[0] ^ df->match.w[0]) & df->mask.w[0]) || ((w->w[1] ^ df->match.w[1]) & df->mask.w[1])) {
        if (!why)
            return "";
        for (int i = 0; i < op->nfields; i++) {
            const isa_field *f = &op->fields[i];
            uint64_t m = word_get(&F->mask, f->off, f->width);
            if (m && ((vals[i] ^ word_get(&F->match, f->off, f->width)) & m)) {
                snprintf(why, cap, "field %s = %llu, which the syntax %s cannot express", f->name, (unsigned long long)vals[i], F->mnemonic);
                return why;
            }
        }
        return "a field holds a value the syntax cannot express";
    }
    for (int j = 0; j < df->nmods; j++) {
        const dis_mod *m = &df->mods[j];
        uint64_t v = vals[m->field];
        if (dis_mod_code(m, v) == DM_REJECT) {
            if (!why)
                return "";
            snprintf(why, cap, "field %s = %llu is not one of the values .%s allows", op->fields[m->field].name, (unsigned long long)v, m->slot->name);
            return why;
        }
    }
    for (int c = 0; c < df->nchecked; c++) {
        const dis_opnd *d = &df->ops[df->checked[c]];
        const isa_type *t = d->type;
        int pair = dis_opnd_pair(d, vals);
        uint64_t v = vals[d->field];
        if (d->kind == OK_REG && pair && v != t->zero_value && ((v & 1) || v + 1 >= t->zero_value)) {
            if (!why)
                return "";
            snprintf(why, cap, "64-bit operand %s in odd register %s%llu", d->slot->name, t->prefix, (unsigned long long)v);
            return why;
        }
        if (d->kind == OK_CMEM) {
            uint64_t off = (v >> t->offs_off) & ((UINT64_C(1) << t->offs_w) - 1);
            uint64_t align = (uint64_t)t->align * (pair ? 2 : 1);
            uint64_t used = ((((UINT64_C(1) << t->bank_w) - 1) << t->bank_off) | (((UINT64_C(1) << t->offs_w) - 1) << t->offs_off));
            if (off % align || (v & ~used)) {
                if (!why)
                    return "";
                snprintf(why, cap, "constant offset 0x%llx of %s is not %llu-byte aligned", (unsigned long long)off, d->slot->name, (unsigned long long)align);
                return why;
            }
        }
    }
    for (int e = 0; e < op->nexceptions; e++)
        if (expr_eval(op->exceptions[e].cond, vals)) {
            if (!why)
                return "";
            snprintf(why, cap, "encoding error: %s", op->exceptions[e].message);
            return why;
        }
    return NULL;
}

static int unnamed(const field_x *x, uint64_t v) { return v >> x->enum_width || !x->named[v]; }

static gisa_status invalid(const gisa_isa *isa, gisa_word w, const char *why, char *buf, size_t cap)
{
    if (isa->word_bits == 64)
        snprintf(buf, cap, ".invalid 0x%016llx // %s", (unsigned long long)w.w[0], why);
    else
        snprintf(buf, cap, ".invalid 0x%016llx%016llx // %s", (unsigned long long)w.w[1], (unsigned long long)w.w[0], why);
    return GISA_ERR_INPUT;
}

int disasm_match(const gisa_isa *isa, const gisa_word *wp, int *opcode, int *form, uint64_t *vals, char *why, size_t cap)
{
    gisa_word w = *wp;
    *opcode = *form = -1;
    int idx = decode_lookup(isa, &w);
    if (idx < 0) {
        snprintf(why, cap, "no opcode has these fixed bits");
        return -1;
    }
    *opcode = idx;
    const isa_opcode *op = &isa->opcodes[idx];
    if ((w.w[0] & ~op->covered.w[0]) || (w.w[1] & ~op->covered.w[1])) {
        int b;
        for (b = 0; b < isa->word_bits && !(word_get_bit(&w, b) && !word_get_bit(&op->covered, b)); b++)
            ;
        snprintf(why, cap, "%s: bit %d is set but no field covers it", op->name, b);
        return -1;
    }
    if (op->nfields > DISASM_MAXF) {
        snprintf(why, cap, "%s: too many fields", op->name);
        return -1;
    }
    /* every field from the word: where a form's pinned bits match, its
     * pinned fields hold their pinned values */
    const dis_x *x = isa->dis->op[idx].x;
    for (int i = 0; i < op->nfields; i++)
        vals[i] = dis_get(&w, x[i]);
    vals[DIS_NONE] = 0;
    for (int k = 0; k < op->nforms; k++) {
        const dis_form *df = op->forms[k].dis;
        if (((w.w[0] ^ df->match.w[0]) & df->mask.w[0]) || ((w.w[1] ^ df->match.w[1]) & df->mask.w[1]))
            continue;
        int bad = 0;
        for (int i = 0; i < df->nnamed; i++)
            bad |= unnamed(&op->fx[df->named[i]], vals[df->named[i]]);
        if (!bad && !form_rejects(op, &op->forms[k], &w, vals, NULL, 0)) {
            *form = k;
            return 0;
        }
    }
    /* invalid: say why, from the first form's point of view */
    for (int i = 0; i < op->nfields; i++)
        if (op->fx[i].named && unnamed(&op->fx[i], vals[i])) {
            const isa_field *f = &op->fields[i];
            snprintf(why, cap, "%s: field %s = %llu is no value of %s", op->name, f->name, (unsigned long long)vals[i], f->type->name);
            return -1;
        }
    char reason_buf[200];
    const char *reason = op->nforms ? form_rejects(op, &op->forms[0], &w, vals, reason_buf, sizeof reason_buf) : NULL;
    snprintf(why, cap, "%s: %s", op->name, reason ? reason : "no syntax form");
    return -1;
}

gisa_status gisa_disassemble(const gisa_isa *isa, gisa_word w, char *buf, size_t cap)
{
    if (!isa || !buf || !cap)
        return GISA_ERR_USAGE;
    char why[260];
    uint64_t vals[DISASM_NVALS];
    int opcode, form;
    if (disasm_match(isa, &w, &opcode, &form, vals, why, sizeof why) < 0)
        return invalid(isa, w, why, buf, cap);
    dis_print(isa, &isa->opcodes[opcode], &isa->opcodes[opcode].forms[form], vals, buf, cap);
    return GISA_OK;
}
