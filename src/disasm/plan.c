/* Builds the compiled disassembly (plan.h) from the model. */
#include <stdio.h>
#include <string.h>

#include "disasm/plan.h"

#define REG_TABLE_MAX_WIDTH 10 /* register types up to 1024 names get tables */
#define MOD_TABLE_MAX_WIDTH 8  /* modifier fields up to 256 values get tables */

typedef struct builder {
    arena *a;
    char *pool, *pool_end; /* the unused part of the texts' pool */
    const gisa_isa *isa;
    dis_model *dm;
} builder;

/* Texts are packed in one pool (sized by pool_size) so that printing one
 * instruction touches few cache lines. */
static dtext text_of(builder *b, const char *s, size_t n)
{
    if (!b->pool || n > (size_t)(b->pool_end - b->pool))
        return (dtext){"", 0};
    char *p = b->pool;
    memcpy(p, s, n);
    b->pool += n;
    return (dtext){p, (uint32_t)n};
}

static size_t pool_size(const gisa_isa *isa)
{
    size_t n = 32; /* separators and controls */
    for (int i = 0; i < isa->nopcodes; i++)
        for (int k = 0; k < isa->opcodes[i].nforms; k++) {
            const syntax_form *F = &isa->opcodes[i].forms[k];
            n += (size_t)F->mnemonic_len + 32;
            for (int j = 0; j < F->nmods; j++)
                for (int c = 0; c < F->mods[j].nchoices; c++)
                    n += (size_t)F->mods[j].choices[c].len + 1;
        }
    return n;
}

static void *alloc(builder *b, size_t n, size_t size) { return arena_alloc(b->a, size * (n ? n : 1)); }

static int choice_of(const mod_slot *m, uint64_t v)
{
    for (int k = 0; k < m->nchoices; k++)
        if (m->choices[k].value == v)
            return k;
    return -1;
}

/* Modifiers print in canonical form: a literal when its field says so (and
 * it is not simply omitted), a choice unless it is the default. */
int dis_mod_rule(const mod_slot *m, uint64_t v)
{
    int k = choice_of(m, v);
    if (k < 0)
        return m->optional && v == m->absent ? DM_SILENT : DM_REJECT;
    int shown = m->literal ? k == 0 && (!m->optional || v != m->absent) : k != m->def_choice;
    return shown ? DM_TEXT + k : DM_SILENT;
}

static int set_name(rname *r, const char *s, int n)
{
    if (n < 0 || n >= (int)sizeof r->s)
        return -1;
    memcpy(r->s, s, (size_t)n);
    r->n = (uint8_t)n;
    return 0;
}

static int build_regs(builder *b, const isa_type *t, dis_regs *r)
{
    if (t->width > REG_TABLE_MAX_WIDTH)
        return 0;
    uint32_t n = UINT32_C(1) << t->width;
    rname *name = alloc(b, n, sizeof *name), *pair = alloc(b, n, sizeof *pair);
    if (!name || !pair)
        return -1;
    for (uint32_t v = 0; v < n; v++) {
        char s[64];
        int bad;
        if (v == t->zero_value)
            bad = set_name(&name[v], t->zero, t->zero_len) || set_name(&pair[v], t->zero, t->zero_len);
        else
            bad = set_name(&name[v], s, snprintf(s, sizeof s, "%s%u", t->prefix, (unsigned)v)) ||
                  set_name(&pair[v], s, snprintf(s, sizeof s, "%s[%u:%u]", t->prefix, (unsigned)v, (unsigned)v + 1));
        if (bad)
            return 0; /* names too long: printed without tables */
    }
    *r = (dis_regs){name, pair, n};
    return 0;
}

static int build_mod(builder *b, const isa_opcode *op, const mod_slot *m, dis_mod *d)
{
    dtext *text = alloc(b, DM_TEXT + (size_t)m->nchoices, sizeof *text);
    if (!text)
        return -1;
    text[DM_REJECT] = text[DM_SILENT] = text_of(b, "", 0);
    for (int k = 0; k < m->nchoices; k++) {
        char s[128];
        int len = snprintf(s, sizeof s, ".%s", m->choices[k].spell);
        text[DM_TEXT + k] = text_of(b, s, len < (int)sizeof s ? (size_t)len : sizeof s - 1);
    }
    int w = op->fields[m->field].width;
    d->ncodes = UINT32_C(1) << (w < MOD_TABLE_MAX_WIDTH ? w : MOD_TABLE_MAX_WIDTH);
    uint8_t *code = alloc(b, d->ncodes, 1);
    if (!code)
        return -1;
    for (uint32_t v = 0; v < d->ncodes; v++)
        code[v] = (uint8_t)dis_mod_rule(m, v);
    d->code = code;
    d->text = text;
    d->slot = m;
    d->field = (uint8_t)m->field;
    return 0;
}

static uint8_t idx(int field) { return field >= 0 ? (uint8_t)field : DIS_NONE; }

/* The values an optional group shows itself by (see print_form). */
static int build_group(builder *b, const isa_opcode *op, const syntax_form *F, int g, dis_group *d)
{
    uint8_t *field = alloc(b, 6 * (size_t)F->nops, sizeof *field);
    uint64_t *absent = alloc(b, 6 * (size_t)F->nops, sizeof *absent);
    if (!field || !absent)
        return -1;
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
    *d = (dis_group){field, absent, n, 0};
    if (last + 1 < F->nops && F->ops[last + 1].group && F->ops[last + 1].group != g)
        d->next = F->ops[last + 1].group;
    return 0;
}

static void build_opnd(builder *b, const isa_opcode *op, const syntax_form *F, const dis_form *d, int k, dis_opnd *o)
{
    const opnd_slot *s = &F->ops[k];
    const expr *bw = s->bitwidth;
    *o = (dis_opnd){
        .kind = (uint8_t)s->kind,
        .group = (uint8_t)s->group,
        .pair = (int8_t)(!bw ? 0 : bw->kind == EX_NUM ? bw->num == 64 : -1),
        .field = idx(s->field),
        .not_ = idx(s->not_field),
        .neg = idx(s->neg_field),
        .abs = idx(s->abs_field),
        .inv = idx(s->inv_field),
        .fmt = idx(s->fmt_field),
        .index = idx(s->index_field),
        .index_width = (uint8_t)(s->index_field >= 0 ? op->fields[s->index_field].width : 0),
        .inv_value = s->inv_field >= 0 ? s->inv_value : UINT64_MAX,
        .fmt_value = s->fmt_field >= 0 ? s->fmt_value : UINT64_MAX,
        .type = s->type,
        .regs = s->type && s->type->kind == TY_REG ? &b->dm->regs[s->type - b->isa->types] : NULL,
        .bitwidth = bw,
        .slot = s,
    };
    if (s->sfx_slot >= 0 && F->mods[s->sfx_slot].field >= 0)
        for (int j = 0; j < d->nmods; j++)
            if (d->mods[j].slot == &F->mods[s->sfx_slot])
                o->sfx = &d->mods[j];
}

static int build_form(builder *b, const isa_opcode *op, syntax_form *F)
{
    dis_form *d = alloc(b, 1, sizeof *d);
    dis_mod *mods = alloc(b, (size_t)F->nmods, sizeof *mods);
    const dis_mod **mnem = alloc(b, (size_t)F->nmods, sizeof *mnem);
    dis_opnd *ops = alloc(b, (size_t)F->nops, sizeof *ops);
    dis_group *groups = alloc(b, (size_t)F->ngroups + 1, sizeof *groups);
    dis_ctl *ctl = alloc(b, 3, sizeof *ctl);
    uint8_t *named = alloc(b, (size_t)F->nfree, 1);
    if (!d || !mods || !mnem || !ops || !groups || !ctl || !named)
        return -1;
    *d = (dis_form){.mask = F->mask, .match = F->match, .named = named, .mods = mods, .mnem = mnem, .ops = ops,
                    .groups = groups, .ctl = ctl, .mnemonic = text_of(b, F->mnemonic, (size_t)F->mnemonic_len)};
    for (int i = 0; i < F->nfree; i++)
        if (op->fx[F->free_fields[i]].named)
            named[d->nnamed++] = (uint8_t)F->free_fields[i];
    for (int j = 0; j < F->nmods; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->field < 0)
            continue; /* nothing to check, nothing printed */
        if (build_mod(b, op, m, &mods[d->nmods]))
            return -1;
        if (m->operand < 0)
            mnem[d->nmnem++] = &mods[d->nmods];
        d->nmods++;
    }
    for (int k = 0; k < F->nops; k++)
        build_opnd(b, op, F, d, k, &ops[k]);
    d->nops = (uint8_t)F->nops;
    uint8_t *checked = alloc(b, (size_t)F->nops, 1);
    if (!checked)
        return -1;
    for (int k = 0; k < F->nops; k++)
        if ((ops[k].kind == OK_REG && ops[k].pair) || ops[k].kind == OK_CMEM)
            checked[d->nchecked++] = (uint8_t)k;
    d->checked = checked;
    for (int g = 1; g <= F->ngroups; g++)
        if (build_group(b, op, F, g, &groups[g]))
            return -1;
    d->ngroups = (uint8_t)F->ngroups;
    static const char *const names[3] = {" $sched=", " $req=", " $wsb="};
    for (int k = 0; k < 3; k++)
        if (F->ctl[k] >= 0)
            ctl[d->nctl++] = (dis_ctl){text_of(b, names[k], strlen(names[k])), (uint8_t)F->ctl[k]};
    F->dis = d;
    return 0;
}

static int build_opcode(builder *b, const isa_opcode *op, dis_opcode *d)
{
    dis_x *x = alloc(b, (size_t)op->nfields, sizeof *x);
    if (!x)
        return -1;
    for (int i = 0; i < op->nfields; i++) {
        const isa_field *f = &op->fields[i];
        x[i] = (dis_x){(uint8_t)(f->off >> 6), (uint8_t)(f->off & 63), (uint8_t)f->width, f->off < 64 && f->off + f->width > 64};
    }
    *d = (dis_opcode){.x = x, .guard = idx(op->guard), .guard_not = idx(op->guard_not)};
    if (op->guard >= 0) {
        d->guard_type = op->fields[op->guard].type;
        d->guard_regs = &b->dm->regs[d->guard_type - b->isa->types];
    }
    return 0;
}

int disasm_plan_build(gisa_isa *isa)
{
    builder b = {&isa->a, NULL, NULL, isa, NULL};
    size_t pn = pool_size(isa);
    b.dm = alloc(&b, 1, sizeof *b.dm);
    b.pool = arena_alloc(b.a, pn + DTEXT_PAD);
    if (!b.dm || !b.pool || !(b.dm->regs = alloc(&b, (size_t)isa->ntypes, sizeof *b.dm->regs)) ||
        !(b.dm->op = alloc(&b, (size_t)isa->nopcodes, sizeof *b.dm->op)))
        return -1;
    b.pool_end = b.pool + pn;
    b.dm->sep[0] = text_of(&b, ", ", 2);
    b.dm->sep[1] = text_of(&b, " ", 1);
    for (int i = 0; i < isa->ntypes; i++)
        if (isa->types[i].kind == TY_REG && build_regs(&b, &isa->types[i], &b.dm->regs[i]))
            return -1;
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        if (op->nfields > DISASM_MAXF)
            continue; /* never printed: disasm_match refuses it */
        if (build_opcode(&b, op, &b.dm->op[i]))
            return -1;
        for (int k = 0; k < op->nforms; k++)
            if (build_form(&b, op, &op->forms[k]))
                return -1;
    }
    isa->dis = b.dm;
    return isa->a.failed ? -1 : 0;
}
