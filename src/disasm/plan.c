/* Builds the compiled disassembly (plan.h) from the model. */
#include <stdio.h>
#include <string.h>

#include "disasm/plan.h"

#define REG_TABLE_MAX_WIDTH 10 /* register types up to 1024 names get tables */
#define TEXT_TABLE_MAX_WIDTH 8 /* guards and controls up to 256 values are pre-rendered */

static const char *const ctl_names[3] = {" $sched=", " $req=", " $wsb="};

typedef struct builder {
    arena *a;
    char *pool, *pool_end; /* the unused part of the texts' pool */
    const gisa_isa *isa;
    dis_model *dm;
    dtext ctl_text[3];                             /* " $sched=", " $req=", " $wsb=" */
    const rname *ctl[3][TEXT_TABLE_MAX_WIDTH + 1]; /* shared tables, by control and field width */
    const rname **guard;                           /* [ntypes] */
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
    size_t n = 32; /* the controls */
    for (int i = 0; i < isa->nopcodes; i++)
        for (int k = 0; k < isa->opcodes[i].nforms; k++) {
            const syntax_form *F = &isa->opcodes[i].forms[k];
            n += (size_t)F->mnemonic_len;
            for (int j = 0; j < F->nmods; j++)
                for (int c = 0; c < F->mods[j].nchoices; c++)
                    n += (size_t)F->mods[j].choices[c].len + 1;
        }
    return n;
}

static void *alloc(builder *b, size_t n, size_t size) { return arena_alloc(b->a, size * (n ? n : 1)); }

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
    uint32_t n = UINT32_C(1) << t->width, longest = 0;
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
                  set_name(&pair[v], s,
                           t->pair_first ? snprintf(s, sizeof s, "%s%u", t->prefix, (unsigned)v)
                                         : snprintf(s, sizeof s, "%s[%u:%u]", t->prefix, (unsigned)v, (unsigned)v + 1));
        if (bad)
            return 0; /* names too long: printed without tables */
        longest = name[v].n > longest ? name[v].n : longest;
        longest = pair[v].n > longest ? pair[v].n : longest;
    }
    *r = (dis_regs){name, pair, n, longest};
    return 0;
}

static int build_mod(builder *b, const isa_opcode *op, const mod_slot *m, dis_mod *d)
{
    dtext *text = alloc(b, MOD_TEXT + (size_t)m->nchoices, sizeof *text);
    rname *name = alloc(b, MOD_TEXT + (size_t)m->nchoices, sizeof *name);
    if (!text || !name)
        return -1;
    text[MOD_REJECT] = text[MOD_SILENT] = text_of(b, "", 0);
    for (int k = 0; k < m->nchoices; k++) {
        char s[128];
        int len = snprintf(s, sizeof s, ".%s", m->choices[k].spell);
        text[MOD_TEXT + k] = text_of(b, s, len < (int)sizeof s ? (size_t)len : sizeof s - 1);
        if (name && set_name(&name[MOD_TEXT + k], s, len))
            name = NULL;
    }
    int w = op->fields[m->field].width;
    *d = (dis_mod){.name = name, .text = text, .slot = m, .field = (uint8_t)m->field,
                   .ncodes = (uint8_t)(w < DIS_MOD_BITS ? 1 << w : DIS_MOD_CODES)};
    for (unsigned v = 0; v < d->ncodes; v++)
        d->code[v] = (uint8_t)mod_code(m, v);
    return 0;
}

static uint8_t idx(int field) { return field >= 0 ? (uint8_t)field : SPEC_NONE; }

/* The values an optional group shows itself by (see group_printed). */
static int build_group(builder *b, const isa_opcode *op, const syntax_form *F, int g, dis_group *d)
{
    uint8_t *field = alloc(b, 6 * (size_t)F->nops, sizeof *field);
    uint64_t *absent = alloc(b, 6 * (size_t)F->nops, sizeof *absent);
    if (!field || !absent)
        return -1;
    int next, n = group_fields(op, F, g, field, absent, &next);
    *d = (dis_group){field, absent, n, next};
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
        .deco = deco_fields_of(s),
        .fmt = idx(s->fmt_field),
        .index = idx(s->index_field),
        .index_width = (uint8_t)(s->index_field >= 0 ? op->fields[s->index_field].width : 0),
        .fmt_value = s->fmt_field >= 0 ? s->fmt_value : UINT64_MAX,
        .type = s->type,
        .regs = s->type && s->type->kind == TY_REG ? &b->dm->regs[s->type - b->isa->types] : NULL,
        .bitwidth = bw,
        .slot = s,
    };
    o->has_deco = (uint8_t)deco_any(&o->deco);
    if (o->pair < 0)
        field_pred_build(b->a, op, &bw, 1, 64, &o->pair_of);
    if (s->sfx_slot >= 0 && F->mods[s->sfx_slot].field >= 0)
        for (int j = 0; j < d->nmods; j++)
            if (d->mods[j].slot == &F->mods[s->sfx_slot])
                o->sfx = &d->mods[j];
}

/* " $sched=N" for every value of a width-bit field, "" for 0; NULL when
 * the field is too wide or a text too long. */
static const rname *ctl_table(builder *b, int k, const char *name, int width)
{
    if (width > TEXT_TABLE_MAX_WIDTH)
        return NULL;
    if (b->ctl[k][width])
        return b->ctl[k][width];
    rname *t = alloc(b, (size_t)1 << width, sizeof *t);
    for (unsigned v = 1; t && v < 1u << width; v++) {
        char s[32];
        if (set_name(&t[v], s, snprintf(s, sizeof s, "%s%u", name, v)))
            return NULL;
    }
    return b->ctl[k][width] = t;
}

/* "@P3 ", "@!PT " for every (not, register) of a guard type, "" for PT. */
static const rname *guard_table(builder *b, const isa_type *t)
{
    int ti = (int)(t - b->isa->types);
    const dis_regs *r = &b->dm->regs[ti];
    if (b->guard[ti] || t->width >= TEXT_TABLE_MAX_WIDTH || !r->n)
        return b->guard[ti];
    rname *g = alloc(b, (size_t)2 << t->width, sizeof *g);
    for (unsigned k = 0; g && k < 2u << t->width; k++) {
        unsigned v = k & ((1u << t->width) - 1), neg = k >> t->width;
        char s[32];
        if (v == t->zero_value && !neg)
            continue;
        if (set_name(&g[k], s, snprintf(s, sizeof s, "@%s%.*s ", neg ? "!" : "", r->name[v].n, r->name[v].s)))
            return NULL;
    }
    return b->guard[ti] = g;
}

/* The operand steps of one form (plan.h): an optional group's operands
 * follow a step that may skip them. */
static int build_steps(builder *b, const syntax_form *F, dis_form *d)
{
    dis_step *st = alloc(b, 1 + 2 * (size_t)F->nops, sizeof *st);
    if (!st)
        return -1;
    int n = 0;
    static const uint8_t kind[] = {[OK_REG] = DS_REG, [OK_IMM] = DS_IMM, [OK_CMEM] = DS_CMEM, [OK_PR] = DS_PR,
                                   [OK_INDEXED] = DS_INDEXED};
    for (int k = 0; k < F->nops; k++) {
        int g = F->ops[k].group;
        if (g && (k == 0 || F->ops[k - 1].group != g)) { /* an optional group starts */
            int e = k;
            while (e < F->nops && F->ops[e].group == g)
                e++;
            st[n++] = (dis_step){.kind = DS_GROUP, .group = (uint8_t)g, .skip = (uint16_t)(e - k)};
        }
        const dis_opnd *o = &d->ops[k];
        int plain = o->kind == OK_REG && !o->pair && !o->sfx && !o->has_deco;
        st[n++] = (dis_step){.kind = plain ? DS_REG_PLAIN : kind[o->kind], .opnd = o};
    }
    st[n] = (dis_step){.kind = DS_END};
    d->steps = st;
    return 0;
}

static int build_form(builder *b, const isa_opcode *op, const syntax_form *F, dis_form *d)
{
    dis_mod *mods = alloc(b, (size_t)F->nmods, sizeof *mods);
    dis_mod *mnem = alloc(b, (size_t)F->nmods, sizeof *mnem);
    dis_opnd *ops = alloc(b, (size_t)F->nops, sizeof *ops);
    dis_group *groups = alloc(b, (size_t)F->ngroups + 1, sizeof *groups);
    dis_ctl *ctl = alloc(b, 3, sizeof *ctl);
    if (!mods || !mnem || !ops || !groups || !ctl)
        return -1;
    *d = (dis_form){.mask = F->mask, .match = F->match, .mods = mods, .mnem = mnem, .ops = ops,
                    .groups = groups, .ctl = ctl,
                    .mnemonic = text_of(b, F->mnemonic, (size_t)F->mnemonic_len)};
    for (int j = 0; j < F->nmods; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->field < 0)
            continue; /* nothing printed */
        if (build_mod(b, op, m, &mods[d->nmods]))
            return -1;
        if (m->operand < 0)
            mnem[d->nmnem++] = mods[d->nmods];
        d->nmods++;
    }
    for (int k = 0; k < F->nops; k++)
        build_opnd(b, op, F, d, k, &ops[k]);
    d->nops = (uint8_t)F->nops;
    for (int g = 1; g <= F->ngroups; g++)
        if (build_group(b, op, F, g, &groups[g]))
            return -1;
    d->ngroups = (uint8_t)F->ngroups;
    for (int k = 0; k < 3; k++)
        if (F->ctl[k] >= 0)
            ctl[d->nctl++] = (dis_ctl){b->ctl_text[k], ctl_table(b, k, ctl_names[k], op->fields[F->ctl[k]].width),
                                       (uint8_t)F->ctl[k]};
    return build_steps(b, F, d);
}

static int build_opcode(builder *b, const isa_opcode *op, dis_opcode *d)
{
    if (op->nfields > SPEC_MAXF)
        return 0; /* never printed: the decoder refuses it */
    dis_form *forms = alloc(b, (size_t)op->nforms, sizeof *forms);
    if (!forms)
        return -1;
    d->forms = forms;
    d->nforms = (uint8_t)op->nforms; /* at most 16 syntax lines */
    d->guard = idx(op->guard);
    d->guard_not = idx(op->guard_not);
    if (op->guard >= 0) {
        d->guard_type = op->fields[op->guard].type;
        d->guard_regs = &b->dm->regs[d->guard_type - b->isa->types];
        if (op->fields[op->guard].width == d->guard_type->width)
            d->guard_text = guard_table(b, d->guard_type);
    }
    for (int k = 0; k < op->nforms; k++) {
        if (build_form(b, op, &op->forms[k], &forms[k]))
            return -1;
        forms[k].bound = (uint32_t)dis_form_bound(b->dm, op, d, &forms[k]);
    }
    return 0;
}

int disasm_plan_build(gisa_isa *isa)
{
    builder b = {.a = &isa->a, .isa = isa};
    size_t pn = pool_size(isa);
    b.dm = alloc(&b, 1, sizeof *b.dm);
    b.pool = arena_alloc(b.a, pn + DTEXT_PAD);
    if (!b.dm || !b.pool || !(b.dm->regs = alloc(&b, (size_t)isa->ntypes, sizeof *b.dm->regs)) ||
        !(b.guard = alloc(&b, (size_t)isa->ntypes, sizeof *b.guard)) ||
        !(b.dm->op = alloc(&b, (size_t)isa->nopcodes, sizeof *b.dm->op)))
        return -1;
    b.pool_end = b.pool + pn;
    for (int k = 0; k < 3; k++)
        b.ctl_text[k] = text_of(&b, ctl_names[k], strlen(ctl_names[k]));
    for (int k = 0; k < 32; k++) {
        char t[8];
        int n = snprintf(t, sizeof t, "%s%s%s%s", k >> 4 & 1 ? " " : ", ", k & GISA_DECO_NOT ? "!" : "",
                         k & GISA_DECO_INV ? "~" : k & GISA_DECO_NEG ? "-" : "", k & GISA_DECO_ABS ? "|" : "");
        set_name(&b.dm->prefix[k], t, n);
    }
    for (int i = 0; i < isa->ntypes; i++)
        if (isa->types[i].kind == TY_REG && build_regs(&b, &isa->types[i], &b.dm->regs[i]))
            return -1;
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        if (build_opcode(&b, op, &b.dm->op[i]))
            return -1;
    }
    isa->dis = b.dm;
    return isa->a.failed ? -1 : 0;
}
