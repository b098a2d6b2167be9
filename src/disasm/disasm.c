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

static int pinned_ok(const dis_form *df, const gisa_word *w)
{
    return !((w->w[0] ^ df->match.w[0]) & df->mask.w[0]) && !((w->w[1] ^ df->match.w[1]) & df->mask.w[1]);
}

/* Why the form cannot print these field values (its pinned bits match):
 * the rules dis_run applies, in the order that gives the message. */
static const char *form_rules(const isa_opcode *op, const dis_form *df, const uint64_t *vals, char *why, size_t cap)
{
    for (int j = 0; j < df->nmods; j++) {
        const dis_mod *m = &df->mods[j];
        uint64_t v = vals[m->field];
        if (dis_mod_code(m, v) == DM_REJECT) {
            snprintf(why, cap, "field %s = %llu is not one of the values .%s allows", op->fields[m->field].name, (unsigned long long)v, m->slot->name);
            return why;
        }
    }
    for (int c = 0; c < df->nchecked; c++) {
        const dis_opnd *d = &df->ops[df->checked[c]];
        const isa_type *t = d->type;
        int pair = dis_opnd_pair(d, vals);
        uint64_t v = vals[d->field];
        if (d->kind == OK_REG && pair && dis_pair_bad(t, v)) {
            snprintf(why, cap, "64-bit operand %s in odd register %s%llu", d->slot->name, t->prefix, (unsigned long long)v);
            return why;
        }
        if (d->kind == OK_CMEM && dis_cmem_bad(t, v, pair)) {
            snprintf(why, cap, "constant offset 0x%llx of %s is not %llu-byte aligned", (unsigned long long)dis_cmem_offset(t, v), d->slot->name,
                     (unsigned long long)dis_cmem_align(t, pair));
            return why;
        }
    }
    for (int e = 0; e < op->nexceptions; e++)
        if (expr_eval(op->exceptions[e].cond, vals)) {
            snprintf(why, cap, "encoding error: %s", op->exceptions[e].message);
            return why;
        }
    return NULL;
}

static const char *form_rejects(const isa_opcode *op, const dis_opcode *dop, int k, const gisa_word *w,
                                const uint64_t *vals, char *why, size_t cap)
{
    const syntax_form *F = &op->forms[k];
    if (pinned_ok(&dop->forms[k], w))
        return form_rules(op, &dop->forms[k], vals, why, cap);
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

static int unnamed(const uint8_t *named, int width, uint64_t v) { return v >> width || !named[v]; }

/* The opcode and first form that print the word, into buf[cap]; -1 with
 * *opcode set (or -1) when there is none. vals receives every field's value
 * when `all`, else only those printing reads. */
static int find_form(const gisa_isa *isa, const gisa_word *w, int *opcode, uint64_t *vals, char *buf, size_t cap,
                     int all)
{
    int idx = *opcode = decode_lookup(isa, w);
    if (idx < 0)
        return -1;
    const dis_opcode *dop = &isa->dis->op[idx];
    if ((w->w[0] & ~dop->covered.w[0]) || (w->w[1] & ~dop->covered.w[1]) || !dop->all.x)
        return -1;
    /* the fields from the word: where a form's pinned bits match, its
     * pinned fields hold their pinned values */
    dis_read(all ? &dop->all : &dop->printed, w, vals);
    vals[DIS_NONE] = 0;
    for (int k = 0; k < dop->nforms; k++)
        if (pinned_ok(&dop->forms[k], w) && !dis_run(isa, idx, k, vals, buf, cap))
            return k;
    return -1;
}

/* Why no form prints the word, from the first form's point of view. */
static void explain(const gisa_isa *isa, const gisa_word *w, int idx, uint64_t *vals, char *why, size_t cap)
{
    if (idx < 0) {
        snprintf(why, cap, "no opcode has these fixed bits");
        return;
    }
    const isa_opcode *op = &isa->opcodes[idx];
    const dis_opcode *dop = &isa->dis->op[idx];
    if ((w->w[0] & ~op->covered.w[0]) || (w->w[1] & ~op->covered.w[1])) {
        int b;
        for (b = 0; b < isa->word_bits && !(word_get_bit(w, b) && !word_get_bit(&op->covered, b)); b++)
            ;
        snprintf(why, cap, "%s: bit %d is set but no field covers it", op->name, b);
        return;
    }
    if (!dop->all.x) {
        snprintf(why, cap, "%s: too many fields", op->name);
        return;
    }
    dis_read(&dop->all, w, vals);
    for (int i = 0; i < op->nfields; i++)
        if (op->fx[i].named && unnamed(op->fx[i].named, op->fx[i].enum_width, vals[i])) {
            const isa_field *f = &op->fields[i];
            snprintf(why, cap, "%s: field %s = %llu is no value of %s", op->name, f->name, (unsigned long long)vals[i], f->type->name);
            return;
        }
    char reason_buf[200];
    const char *reason = op->nforms ? form_rejects(op, dop, 0, w, vals, reason_buf, sizeof reason_buf) : NULL;
    snprintf(why, cap, "%s: %s", op->name, reason ? reason : "no syntax form");
}

#if defined(__GNUC__) || defined(__clang__)
#define COLD __attribute__((noinline, cold))
#else
#define COLD
#endif

/* `.invalid` and why (opcode: as find_form left it), out of line: the
 * printing of valid words then saves and restores fewer registers. */
static COLD gisa_status invalid(const gisa_isa *isa, gisa_word w, int opcode, char *buf, size_t cap)
{
    uint64_t vals[DISASM_NVALS];
    char why[260];
    explain(isa, &w, opcode, vals, why, sizeof why);
    if (isa->word_bits == 64)
        snprintf(buf, cap, ".invalid 0x%016llx // %s", (unsigned long long)w.w[0], why);
    else
        snprintf(buf, cap, ".invalid 0x%016llx%016llx // %s", (unsigned long long)w.w[1], (unsigned long long)w.w[0], why);
    return GISA_ERR_INPUT;
}

int disasm_match(const gisa_isa *isa, const gisa_word *w, int *opcode, int *form, uint64_t *vals, char *why, size_t cap)
{
    char text[512];
    *form = find_form(isa, w, opcode, vals, text, sizeof text, 1);
    if (*form >= 0)
        return 0;
    explain(isa, w, *opcode, vals, why, cap);
    return -1;
}

gisa_status gisa_disassemble(const gisa_isa *isa, gisa_word w, char *buf, size_t cap)
{
    if (!isa || !buf || !cap)
        return GISA_ERR_USAGE;
    uint64_t vals[DISASM_NVALS];
    int opcode;
    if (find_form(isa, &w, &opcode, vals, buf, cap, 0) >= 0)
        return GISA_OK;
    return invalid(isa, w, opcode, buf, cap);
}
