/* `gisa doc`: a plain-text reference of an optype or opcode, generated from
 * the model (syntax forms, modifiers, operands, encoding table). */
#include <stdlib.h>
#include <string.h>

#include "spec/doc.h"

const char *doc_operand_kind(const opnd_slot *o)
{
    switch (o->kind) {
    case OK_PR: return "the literal PR (all predicates)";
    case OK_CMEM: return "constant memory c[bank][offset]";
    case OK_INDEXED: return "indexed register R[URb+imm]";
    case OK_IMM:
        switch (o->type->fmt) {
        case IMM_SIGNED: return "signed integer immediate";
        case IMM_UNSIGNED: return "unsigned integer immediate";
        case IMM_F32: return "F32 immediate";
        case IMM_F64: return "F64 immediate (high 32 bits)";
        case IMM_F16X2: return "two F16/BF16 immediates (high, low)";
        }
        break;
    case OK_REG:
        switch (o->type->rclass) {
        case RC_GPR: return "register";
        case RC_UGPR: return "uniform register";
        case RC_PRED: return "predicate";
        case RC_UPRED: return "uniform predicate";
        }
    }
    return "?";
}

void doc_value_text(const isa_field *f, uint64_t v, strbuf *sb)
{
    char buf[32];
    const char *n = type_value_name(f->type, v, buf, sizeof buf);
    if (n && f->type->kind == TY_ENUM)
        sb_printf(sb, "%s (%llu)", n, (unsigned long long)v);
    else if (n)
        sb_puts(sb, n);
    else
        sb_printf(sb, "%llu", (unsigned long long)v);
}

int doc_layout(const isa_opcode *op, int word_bits, doc_span *out, int cap)
{
    int nf = op->nfields, n = 0;
    int order[DOC_MAX_FIELDS];
    if (nf > (int)(sizeof order / sizeof order[0]))
        nf = (int)(sizeof order / sizeof order[0]);
    for (int i = 0; i < nf; i++)
        order[i] = i;
    for (int i = 1; i < nf; i++) /* by offset, high bits first */
        for (int j = i; j > 0 && op->fields[order[j]].off > op->fields[order[j - 1]].off; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int next = word_bits - 1;
    for (int k = 0; k < nf && n < cap; k++) {
        const isa_field *f = &op->fields[order[k]];
        int hi = f->off + f->width - 1;
        if (hi < next)
            out[n++] = (doc_span){-1, next, hi + 1};
        if (n < cap)
            out[n++] = (doc_span){order[k], hi, f->off};
        next = f->off - 1;
    }
    if (next >= 0 && n < cap)
        out[n++] = (doc_span){-1, next, 0};
    return n;
}

int doc_list_names(const raw_opinfo *list, const isa_opcode *op, int field)
{
    if (!list || field < 0)
        return 0;
    for (int i = 0; i < list->nnames; i++)
        if (!strcmp(list->names[i], op->fields[field].name))
            return 1;
    return 0;
}

const raw_def *doc_unit(const isa_opcode *op)
{
    for (int c = 1; c < op->nchain; c++)
        if (op->chain[c]->kind == RAW_GROUP)
            return op->chain[c];
    return op->nchain > 1 && op->chain[0]->kind == RAW_GROUP ? op->chain[0] : NULL;
}

static void doc_encoding(const isa_opcode *op, int word_bits, strbuf *sb)
{
    sb_puts(sb, "  Encoding (bit ranges high..low):\n");
    doc_span spans[DOC_MAX_SPANS];
    int n = doc_layout(op, word_bits, spans, (int)(sizeof spans / sizeof spans[0]));
    for (int k = 0; k < n; k++) {
        if (spans[k].field < 0) {
            sb_printf(sb, "    %3d..%-3d  %-12s (no field: must be 0)\n", spans[k].hi, spans[k].lo, "-");
            continue;
        }
        const isa_field *f = &op->fields[spans[k].field];
        if (f->width == 1)
            sb_printf(sb, "    %8d  ", f->off);
        else
            sb_printf(sb, "    %3d..%-3d  ", spans[k].hi, f->off);
        sb_printf(sb, "%-12s %-10s", f->name, f->type ? f->type->name : "?");
        if (f->fixed || f->has_default) {
            sb_puts(sb, f->fixed ? " == " : " = ");
            doc_value_text(f, f->value, sb);
        }
        sb_putc(sb, '\n');
    }
}

static void doc_form(const isa_opcode *op, const syntax_form *F, strbuf *sb)
{
    const char *t = F->text;
    while (*t == ' ')
        t++;
    sb_printf(sb, "    %s\n", t);
    for (int i = 0; i < F->nmods; i++) {
        const mod_slot *m = &F->mods[i];
        sb_printf(sb, "      .%-10s", m->name);
        if (m->operand >= 0)
            sb_printf(sb, " (suffix of %s)", F->ops[m->operand].name);
        sb_printf(sb, " field %-8s", m->field >= 0 ? op->fields[m->field].name : "(none)");
        for (int c = 0; c < m->nchoices; c++)
            sb_printf(sb, " .%s%s", m->choices[c].spell, c == m->def_choice ? "*" : "");
        if (m->field < 0)
            sb_puts(sb, "  [no encoding field: only the default can be written]");
        else if (m->optional)
            sb_puts(sb, "  [optional]");
        sb_putc(sb, '\n');
    }
    for (int i = 0; i < F->nops; i++) {
        const opnd_slot *o = &F->ops[i];
        sb_printf(sb, "      %-8s %-6s %s", o->name, o->field >= 0 ? op->fields[o->field].name : "-", doc_operand_kind(o));
        if (o->bitwidth && o->bitwidth->kind == EX_NUM && o->bitwidth->num == 64)
            sb_puts(sb, ", 64-bit pair");
        else if (o->bitwidth && o->bitwidth->kind != EX_NUM)
            sb_puts(sb, ", width depends on modifiers");
        if (o->allow_neg)
            sb_puts(sb, o->inv_field >= 0 ? ", -x (~x with .X)" : ", -x");
        if (o->allow_abs)
            sb_puts(sb, ", |x|");
        if (o->allow_not)
            sb_puts(sb, ", !p");
        if (o->group)
            sb_puts(sb, ", optional");
        sb_putc(sb, '\n');
    }
}

static void doc_opcode(const gisa_isa *isa, const isa_opcode *op, strbuf *sb)
{
    sb_printf(sb, "%s", op->name);
    for (int c = op->nchain - 2; c >= 0; c--)
        sb_printf(sb, " : %s", op->chain[c]->name);
    sb_printf(sb, "\n  defined at %s:%d\n  Syntax forms:\n", op->def->loc.file, op->def->loc.line);
    for (int f = 0; f < op->nforms; f++)
        doc_form(op, &op->forms[f], sb);
    for (int e = 0; e < op->nexceptions; e++)
        sb_printf(sb, "  Encoding error (%s): \"%s\"\n", op->exceptions[e].kind, op->exceptions[e].message);
    doc_encoding(op, isa->word_bits, sb);
}

char *gisa_isa_doc(const gisa_isa *isa, const char *name, gisa_status *st)
{
    strbuf sb;
    sb_init(&sb);
    if (st)
        *st = GISA_OK;
    if (!isa) {
        if (st)
            *st = GISA_ERR_USAGE;
        return NULL;
    }
    if (!name) {
        sb_printf(&sb, "%d optypes, %d opcodes (target %s, %d-bit words)\n", isa->noptypes, isa->nopcodes,
                  isa->target_name, isa->word_bits);
        for (int t = 0; t < isa->noptypes; t++) {
            const isa_optype *ot = &isa->optypes[t];
            sb_printf(&sb, "%-10s %s\n          ", ot->name, ot->def->description ? ot->def->description : "");
            for (int i = 0; i < ot->nopcodes; i++)
                sb_printf(&sb, " %s", isa->opcodes[ot->opcodes[i]].name);
            sb_putc(&sb, '\n');
        }
        return sb_take(&sb);
    }
    int op = strmap_get(&isa->opcode_by_name, name, strlen(name));
    if (op >= 0) {
        doc_opcode(isa, &isa->opcodes[op], &sb);
        return sb_take(&sb);
    }
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        int match = !strcmp(ot->name, name);
        for (int f = 0; !match && ot->nopcodes && f < isa->opcodes[ot->opcodes[0]].nforms; f++)
            match = !strcmp(isa->opcodes[ot->opcodes[0]].forms[f].mnemonic, name);
        if (!match)
            continue;
        sb_printf(&sb, "%s: %s\n\n", ot->name, ot->def->description ? ot->def->description : "");
        for (int i = 0; i < ot->nopcodes; i++) {
            doc_opcode(isa, &isa->opcodes[ot->opcodes[i]], &sb);
            sb_putc(&sb, '\n');
        }
        return sb_take(&sb);
    }
    sb_free(&sb);
    if (st)
        *st = GISA_ERR_NOTFOUND;
    return NULL;
}
