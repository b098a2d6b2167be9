/* The decoder (decoder.h): its tables, the decoding of a word, and the
 * reason a word is refused. */
#include <stdio.h>
#include <string.h>

#include "spec/decoder.h"

/* ------------------------------------------------------------ rules */

static int choice_of(const mod_slot *m, uint64_t v)
{
    for (int k = 0; k < m->nchoices; k++)
        if (m->choices[k].value == v)
            return k;
    return -1;
}

/* Canonical spelling: a literal when its field says so (and it is not
 * simply omitted), a choice unless it is the default. */
int mod_code(const mod_slot *m, uint64_t v)
{
    int k = choice_of(m, v);
    if (k < 0)
        return m->optional && v == m->absent ? MOD_SILENT : MOD_REJECT;
    int shown = m->literal ? k == 0 && (!m->optional || v != m->absent) : k != m->def_choice;
    return shown ? MOD_TEXT + k : MOD_SILENT;
}

int opnd_is_pair(const opnd_slot *s, const uint64_t *vals)
{
    if (!s->bitwidth)
        return 0;
    if (s->bitwidth->kind == EX_NUM)
        return s->bitwidth->num == 64;
    return expr_eval(s->bitwidth, vals) == 64;
}

static inline int mod_ok(const legal_mod *m, uint64_t v)
{
    return v < m->ncodes ? m->ok >> v & 1 : mod_code(m->slot, v) != MOD_REJECT;
}

static inline int opnd_pair(const legal_opnd *o, const uint64_t *vals)
{
    if (o->pair >= 0)
        return o->pair;
    return o->pair_of.table ? field_pred_table(&o->pair_of, vals) : opnd_is_pair(o->slot, vals);
}

static int exception_raised(const isa_opcode *op, const legal_opcode *lo, const uint64_t *vals)
{
    if (lo->raised.table)
        return field_pred_table(&lo->raised, vals);
    for (int e = 0; e < op->nexceptions; e++)
        if (expr_eval(op->exceptions[e].cond, vals))
            return 1;
    return 0;
}

/* Whether the form (its pinned bits matching) expresses the values. */
static int form_accepts(const isa_opcode *op, const legal_opcode *lo, const legal_form *lf, const uint64_t *vals)
{
    int bad = 0;
    for (int j = 0; j < lf->nmods; j++)
        bad |= !mod_ok(&lf->mods[j], vals[lf->mods[j].field]);
    for (int i = 0; i < lf->nnamed; i++) {
        uint64_t v = vals[lf->named[i].field];
        bad |= v >> lf->named[i].width || !lf->named[i].named[v];
    }
    for (int c = 0; c < lf->nchecked && !bad; c++) {
        const legal_opnd *o = &lf->checked[c];
        int pair = opnd_pair(o, vals);
        uint64_t v = vals[o->field];
        bad |= o->kind == OK_REG ? pair && reg_pair_bad(o->type, v) : cmem_bad(o->type, v, pair);
    }
    return !bad && !(lo->exceptions && exception_raised(op, lo, vals));
}

int decoder_run(const gisa_isa *isa, const gisa_word *w, int *opcode, uint64_t *vals)
{
    int idx = *opcode = decode_lookup(isa, w);
    if (idx < 0)
        return -1;
    const legal_opcode *lo = &isa->decoder->op[idx];
    if ((w->w[0] & ~lo->covered.w[0]) || (w->w[1] & ~lo->covered.w[1]) || !lo->all.x)
        return -1;
    fields_read(&lo->all, w, vals);
    vals[SPEC_NONE] = 0;
    const isa_opcode *op = &isa->opcodes[idx];
    for (int k = 0; k < lo->nforms; k++)
        if (legal_pinned(&lo->forms[k], w) && form_accepts(op, lo, &lo->forms[k], vals))
            return k;
    return -1;
}

int group_fields(const isa_opcode *op, const syntax_form *F, int g, uint8_t *field, uint64_t *absent, int *next)
{
    int n = 0, last = -1;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        if (s->group != g)
            continue;
        last = k;
        const int fl[5] = {s->field, s->neg_field, s->abs_field, s->not_field, s->index_field};
        for (int i = 0; i < 5; i++)
            if (fl[i] >= 0) {
                field[n] = (uint8_t)fl[i];
                absent[n++] = op->absent[fl[i]];
            }
        const mod_slot *m = s->sfx_slot >= 0 ? &F->mods[s->sfx_slot] : NULL;
        if (m && m->field >= 0) {
            field[n] = (uint8_t)m->field;
            absent[n++] = m->absent;
        }
    }
    *next = last + 1 < F->nops && F->ops[last + 1].group && F->ops[last + 1].group != g ? F->ops[last + 1].group : 0;
    return n;
}

/* ------------------------------------------------------------ reasons */

/* Why the form cannot express these values (its pinned bits match), in
 * the order that gives the message. */
static const char *form_rules(const isa_opcode *op, const legal_form *lf, const uint64_t *vals, char *why, size_t cap)
{
    for (int j = 0; j < lf->nmods; j++) {
        const legal_mod *m = &lf->mods[j];
        uint64_t v = vals[m->field];
        if (!mod_ok(m, v)) {
            snprintf(why, cap, "field %s = %llu is not one of the values .%s allows", op->fields[m->field].name,
                     (unsigned long long)v, m->slot->name);
            return why;
        }
    }
    for (int c = 0; c < lf->nchecked; c++) {
        const legal_opnd *o = &lf->checked[c];
        const isa_type *t = o->type;
        int pair = opnd_pair(o, vals);
        uint64_t v = vals[o->field];
        if (o->kind == OK_REG && pair && reg_pair_bad(t, v)) {
            snprintf(why, cap, "64-bit operand %s in odd register %s%llu", o->slot->name, t->prefix, (unsigned long long)v);
            return why;
        }
        if (o->kind == OK_CMEM && cmem_bad(t, v, pair)) {
            snprintf(why, cap, "constant offset 0x%llx of %s is not %llu-byte aligned", (unsigned long long)cmem_offset(t, v),
                     o->slot->name, (unsigned long long)cmem_align(t, pair));
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

static const char *form_rejects(const isa_opcode *op, const legal_opcode *lo, int k, const gisa_word *w,
                                const uint64_t *vals, char *why, size_t cap)
{
    const syntax_form *F = &op->forms[k];
    if (legal_pinned(&lo->forms[k], w))
        return form_rules(op, &lo->forms[k], vals, why, cap);
    for (int i = 0; i < op->nfields; i++) {
        const isa_field *f = &op->fields[i];
        uint64_t m = word_get(&F->mask, f->off, f->width);
        if (m && ((vals[i] ^ word_get(&F->match, f->off, f->width)) & m)) {
            snprintf(why, cap, "field %s = %llu, which the syntax %s cannot express", f->name, (unsigned long long)vals[i],
                     F->mnemonic);
            return why;
        }
    }
    return "a field holds a value the syntax cannot express";
}

static int unnamed(const uint8_t *named, int width, uint64_t v) { return v >> width || !named[v]; }

void decoder_explain(const gisa_isa *isa, const gisa_word *w, int idx, char *why, size_t cap)
{
    if (idx < 0) {
        snprintf(why, cap, "no opcode has these fixed bits");
        return;
    }
    const isa_opcode *op = &isa->opcodes[idx];
    const legal_opcode *lo = &isa->decoder->op[idx];
    if ((w->w[0] & ~op->covered.w[0]) || (w->w[1] & ~op->covered.w[1])) {
        int b;
        for (b = 0; b < 127 && !(word_get_bit(w, b) && !word_get_bit(&op->covered, b)); b++) /* w[1] of a 64-bit word too */
            ;
        snprintf(why, cap, "%s: bit %d is set but no field covers it", op->name, b);
        return;
    }
    if (!lo->all.x) {
        snprintf(why, cap, "%s: too many fields", op->name);
        return;
    }
    uint64_t vals[SPEC_NVALS];
    fields_read(&lo->all, w, vals);
    vals[SPEC_NONE] = 0;
    for (int i = 0; i < op->nfields; i++)
        if (op->fx[i].named && unnamed(op->fx[i].named, op->fx[i].enum_width, vals[i])) {
            const isa_field *f = &op->fields[i];
            snprintf(why, cap, "%s: field %s = %llu is no value of %s", op->name, f->name, (unsigned long long)vals[i],
                     f->type->name);
            return;
        }
    char reason_buf[200];
    const char *reason = op->nforms ? form_rejects(op, lo, 0, w, vals, reason_buf, sizeof reason_buf) : NULL;
    snprintf(why, cap, "%s: %s", op->name, reason ? reason : "no syntax form");
}

/* ------------------------------------------------------------ tables */

static void *alloc(arena *a, size_t n, size_t size) { return arena_alloc(a, size * (n ? n : 1)); }

static int is_free(const syntax_form *F, int f)
{
    for (int i = 0; i < F->nfree; i++)
        if (F->free_fields[i] == f)
            return 1;
    return 0;
}

static int has_holes(const field_x *x)
{
    for (uint32_t v = 0; x->named && v < UINT32_C(1) << x->enum_width; v++)
        if (!x->named[v])
            return 1;
    return 0;
}

/* A free field of at most 4 bits whose enumeration leaves values unnamed
 * has those values refused by its modifier's table. */
static legal_mod build_mod(const isa_opcode *op, const syntax_form *F, const mod_slot *m)
{
    const field_x *x = &op->fx[m->field];
    int w = op->fields[m->field].width;
    int fold = is_free(F, m->field) && has_holes(x) && w <= 4;
    legal_mod d = {.slot = m, .field = (uint8_t)m->field, .ncodes = (uint8_t)(w < 4 ? 1 << w : LEGAL_MOD_CODES)};
    for (unsigned v = 0; v < d.ncodes; v++)
        if (!(fold && (v >> x->enum_width || !x->named[v])) && mod_code(m, v) != MOD_REJECT)
            d.ok |= (uint16_t)(1u << v);
    return d;
}

static int build_form(arena *a, const isa_opcode *op, const syntax_form *F, legal_form *d)
{
    legal_mod *mods = alloc(a, (size_t)F->nmods, sizeof *mods);
    legal_named *named = alloc(a, (size_t)F->nfree, sizeof *named);
    legal_opnd *checked = alloc(a, (size_t)F->nops, sizeof *checked);
    if (!mods || !named || !checked)
        return -1;
    *d = (legal_form){.mask = F->mask, .match = F->match, .mods = mods, .named = named, .checked = checked};
    for (int j = 0; j < F->nmods; j++)
        if (F->mods[j].field >= 0)
            mods[d->nmods++] = build_mod(op, F, &F->mods[j]);
    for (int i = 0; i < F->nfree; i++) {
        int f = F->free_fields[i], in_mod = 0;
        for (int j = 0; j < d->nmods; j++)
            in_mod |= mods[j].field == f && op->fields[f].width <= 4;
        if (!in_mod && has_holes(&op->fx[f]))
            named[d->nnamed++] = (legal_named){op->fx[f].named, (uint8_t)f, op->fx[f].enum_width};
    }
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        const expr *bw = s->bitwidth;
        int8_t pair = (int8_t)(!bw ? 0 : bw->kind == EX_NUM ? bw->num == 64 : -1);
        if (!((s->kind == OK_REG && pair) || s->kind == OK_CMEM))
            continue;
        legal_opnd *o = &checked[d->nchecked++];
        *o = (legal_opnd){.slot = s, .type = s->type, .pair = pair, .kind = (uint8_t)s->kind, .field = (uint8_t)s->field};
        if (pair < 0)
            field_pred_build(a, op, &bw, 1, 64, &o->pair_of);
    }
    return 0;
}

static int build_opcode(arena *a, const isa_opcode *op, legal_opcode *d)
{
    d->covered = op->covered;
    if (op->nfields > SPEC_MAXF)
        return 0; /* never decoded */
    legal_form *forms = alloc(a, (size_t)op->nforms, sizeof *forms);
    const expr **cond = alloc(a, (size_t)op->nexceptions, sizeof *cond);
    uint8_t all[SPEC_NVALS];
    memset(all, 1, sizeof all);
    if (!forms || !cond || field_reads_build(a, op, all, &d->all))
        return -1;
    d->forms = forms;
    d->nforms = (uint8_t)op->nforms; /* at most 16 syntax lines */
    d->exceptions = op->nexceptions > 0;
    for (int e = 0; e < op->nexceptions; e++)
        cond[e] = op->exceptions[e].cond;
    field_pred_build(a, op, cond, op->nexceptions, -1, &d->raised);
    for (int k = 0; k < op->nforms; k++)
        if (build_form(a, op, &op->forms[k], &forms[k]))
            return -1;
    return 0;
}

int decoder_build(gisa_isa *isa)
{
    decoder *dec = alloc(&isa->a, 1, sizeof *dec);
    if (!dec || !(dec->op = alloc(&isa->a, (size_t)isa->nopcodes, sizeof *dec->op)))
        return -1;
    for (int i = 0; i < isa->nopcodes; i++)
        if (build_opcode(&isa->a, &isa->opcodes[i], &dec->op[i]))
            return -1;
    isa->decoder = dec;
    return isa->a.failed ? -1 : 0;
}
