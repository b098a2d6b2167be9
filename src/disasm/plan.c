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

/* A free field's code also rejects values its enumeration does not name
 * (the check disasm_match would otherwise make separately): given named,
 * the field's values must all be in the table. */
static int build_mod(builder *b, const isa_opcode *op, const mod_slot *m, const uint8_t *named, dis_mod *d)
{
    dtext *text = alloc(b, DM_TEXT + (size_t)m->nchoices, sizeof *text);
    rname *name = alloc(b, DM_TEXT + (size_t)m->nchoices, sizeof *name);
    if (!text || !name)
        return -1;
    text[DM_REJECT] = text[DM_SILENT] = text_of(b, "", 0);
    for (int k = 0; k < m->nchoices; k++) {
        char s[128];
        int len = snprintf(s, sizeof s, ".%s", m->choices[k].spell);
        text[DM_TEXT + k] = text_of(b, s, len < (int)sizeof s ? (size_t)len : sizeof s - 1);
        if (name && set_name(&name[DM_TEXT + k], s, len))
            name = NULL;
    }
    int w = op->fields[m->field].width;
    *d = (dis_mod){.name = name, .text = text, .slot = m, .field = (uint8_t)m->field,
                   .ncodes = (uint8_t)(w < DIS_MOD_BITS ? 1 << w : DIS_MOD_CODES)};
    int ew = op->fx[m->field].enum_width;
    for (unsigned v = 0; v < d->ncodes; v++)
        d->code[v] = named && (v >> ew || !named[v]) ? DM_REJECT : (uint8_t)dis_mod_rule(m, v);
    return 0;
}

static uint8_t idx(int field) { return field >= 0 ? (uint8_t)field : DIS_NONE; }

/* ------------------------------------------------------------ predicates */

/* Adds the fields e reads to p; -1 when they are too many for a table. */
static int pred_inputs(const isa_opcode *op, const expr *e, dis_pred *p)
{
    if (!e)
        return 0;
    if (e->kind == EX_NAME && e->field >= 0) {
        int bits = 0, seen = 0;
        for (int i = 0; i < p->nfields; i++) {
            bits += p->width[i];
            seen |= p->field[i] == e->field;
        }
        if (seen)
            return 0;
        int w = op->fields[e->field].width;
        if (p->nfields == DIS_PRED_FIELDS || bits + w > DIS_PRED_BITS)
            return -1;
        p->field[p->nfields] = (uint8_t)e->field;
        p->width[p->nfields++] = (uint8_t)w;
        return 0;
    }
    return pred_inputs(op, e->a, p) || pred_inputs(op, e->b, p);
}

/* Tabulates "any of e[] evaluates to `want`" (want < 0: to non-zero). */
static void build_pred(builder *b, const isa_opcode *op, const expr *const *e, int ne, int64_t want, dis_pred *p)
{
    *p = (dis_pred){0};
    for (int i = 0; i < ne; i++)
        if (pred_inputs(op, e[i], p))
            return;
    int bits = 0;
    for (int i = 0; i < p->nfields; i++)
        bits += p->width[i];
    uint8_t *table = alloc(b, (size_t)1 << bits, 1);
    if (!table)
        return;
    uint64_t vals[DISASM_NVALS] = {0};
    for (unsigned k = 0; k < 1u << bits; k++) {
        for (int i = p->nfields - 1, at = 0; i >= 0; at += p->width[i--])
            vals[p->field[i]] = k >> at & ((1u << p->width[i]) - 1);
        for (int j = 0; j < ne && !table[k]; j++) {
            int64_t v = expr_eval(e[j], vals);
            table[k] = (uint8_t)(want < 0 ? v != 0 : v == want);
        }
    }
    p->table = table;
}

/* The values an optional group shows itself by (see group_printed). */
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
    o->rules = (uint8_t)((s->kind == OK_REG && o->pair) || s->kind == OK_CMEM);
    o->deco = o->not_ != DIS_NONE || o->neg != DIS_NONE || o->abs != DIS_NONE || o->inv != DIS_NONE;
    if (o->pair < 0)
        build_pred(b, op, &bw, 1, 64, &o->pair_of);
    if (s->sfx_slot >= 0 && F->mods[s->sfx_slot].field >= 0)
        for (int j = 0; j < d->nmods; j++)
            if (d->mods[j].slot == &F->mods[s->sfx_slot]) {
                o->sfx = &d->mods[j];
                o->rules = 1;
            }
}

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

/* The operand steps of one form (plan.h): an optional group's checks
 * ahead of the group, which may be skipped. */
static int build_steps(builder *b, const syntax_form *F, dis_form *d)
{
    dis_step *st = alloc(b, 1 + 3 * (size_t)F->nops, sizeof *st);
    if (!st)
        return -1;
    int n = 0;
    static const uint8_t kind[] = {[OK_REG] = DS_REG, [OK_IMM] = DS_IMM, [OK_CMEM] = DS_CMEM, [OK_PR] = DS_PR,
                                   [OK_INDEXED] = DS_INDEXED};
    for (int k = 0; k < F->nops; k++) {
        int g = F->ops[k].group;
        if (g && (k == 0 || F->ops[k - 1].group != g)) { /* an optional group starts */
            int e = k;
            for (; e < F->nops && F->ops[e].group == g; e++)
                st[n++] = (dis_step){.kind = DS_CHECK, .opnd = &d->ops[e]};
            st[n++] = (dis_step){.kind = DS_GROUP, .group = (uint8_t)g, .skip = (uint16_t)(e - k)};
        }
        const dis_opnd *o = &d->ops[k];
        int plain = o->kind == OK_REG && !o->rules && !o->deco; /* then no pair and no suffix either */
        st[n++] = (dis_step){.kind = plain ? DS_REG_PLAIN : kind[o->kind], .opnd = o};
    }
    st[n] = (dis_step){.kind = DS_END};
    d->steps = st;
    return 0;
}

static int build_form(builder *b, const isa_opcode *op, syntax_form *F, dis_form *d)
{
    dis_mod *mods = alloc(b, (size_t)F->nmods, sizeof *mods);
    dis_mod *mnem = alloc(b, (size_t)F->nmods, sizeof *mnem);
    dis_opnd *ops = alloc(b, (size_t)F->nops, sizeof *ops);
    uint8_t *checked = alloc(b, (size_t)F->nops, 1);
    dis_group *groups = alloc(b, (size_t)F->ngroups + 1, sizeof *groups);
    dis_ctl *ctl = alloc(b, 3, sizeof *ctl);
    dis_named *named = alloc(b, (size_t)F->nfree, sizeof *named);
    if (!mods || !mnem || !ops || !checked || !groups || !ctl || !named)
        return -1;
    *d = (dis_form){.mask = F->mask, .match = F->match, .mods = mods, .mnem = mnem, .ops = ops, .checked = checked,
                    .groups = groups, .ctl = ctl, .named = named,
                    .mnemonic = text_of(b, F->mnemonic, (size_t)F->mnemonic_len)};
    for (int j = 0; j < F->nmods; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->field < 0)
            continue; /* nothing to check, nothing printed */
        const field_x *x = &op->fx[m->field];
        int fold = is_free(F, m->field) && has_holes(x) && op->fields[m->field].width <= DIS_MOD_BITS;
        if (build_mod(b, op, m, fold ? x->named : NULL, &mods[d->nmods]))
            return -1;
        if (m->operand < 0)
            mnem[d->nmnem++] = mods[d->nmods];
        d->nmods++;
    }
    for (int i = 0; i < F->nfree; i++) {
        int f = F->free_fields[i], in_mod = 0;
        for (int j = 0; j < d->nmods; j++)
            in_mod |= mods[j].field == f && op->fields[f].width <= DIS_MOD_BITS;
        if (!in_mod && has_holes(&op->fx[f]))
            named[d->nnamed++] = (dis_named){op->fx[f].named, (uint8_t)f, op->fx[f].enum_width};
    }
    for (int k = 0; k < F->nops; k++) {
        build_opnd(b, op, F, d, k, &ops[k]);
        if ((ops[k].kind == OK_REG && ops[k].pair) || ops[k].kind == OK_CMEM)
            checked[d->nchecked++] = (uint8_t)k;
    }
    d->nops = (uint8_t)F->nops;
    for (int g = 1; g <= F->ngroups; g++)
        if (build_group(b, op, F, g, &groups[g]))
            return -1;
    d->ngroups = (uint8_t)F->ngroups;
    for (int k = 0; k < 3; k++)
        if (F->ctl[k] >= 0)
            ctl[d->nctl++] = (dis_ctl){b->ctl_text[k], ctl_table(b, k, ctl_names[k], op->fields[F->ctl[k]].width),
                                       (uint8_t)F->ctl[k]};
    if (build_steps(b, F, d))
        return -1;
    F->dis = d;
    return 0;
}

/* Readers of the fields of an opcode that are marked in `used`. */
static int build_reads(builder *b, const isa_opcode *op, const uint8_t *used, dis_reads *r)
{
    dis_x *x = alloc(b, (size_t)op->nfields, sizeof *x);
    uint64_t *m = alloc(b, (size_t)op->nfields, sizeof *m);
    if (!x || !m)
        return -1;
    int n = 0;
    for (int part = 0; part < 3; part++) /* in w[0], in w[1], straddling */
        for (int i = 0; i < op->nfields; i++) {
            const isa_field *f = &op->fields[i];
            if ((f->off + f->width <= 64 ? 0 : f->off >= 64 ? 1 : 2) != part || !used[i])
                continue;
            m[n] = f->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->width) - 1;
            x[n++] = (dis_x){(uint8_t)i, (uint8_t)(f->off & 63)};
            r->n[part]++;
        }
    r->x = x;
    r->mask = m;
    return 0;
}

static void mark_expr(const expr *e, uint8_t *used)
{
    if (!e)
        return;
    if (e->kind == EX_NAME && e->field >= 0)
        used[e->field] = 1;
    mark_expr(e->a, used);
    mark_expr(e->b, used);
}

/* Marks the fields a form's printing reads (print.c), tables and the
 * expressions behind them alike. */
static void mark_form(const dis_form *d, uint8_t *used)
{
    for (int j = 0; j < d->nmods; j++) /* mnemonic modifiers and suffixes */
        used[d->mods[j].field] = 1;
    for (int i = 0; i < d->nnamed; i++)
        used[d->named[i].field] = 1;
    for (int k = 0; k < d->nops; k++) {
        const dis_opnd *o = &d->ops[k];
        const uint8_t f[] = {o->field, o->not_, o->neg, o->abs, o->inv, o->fmt, o->index};
        for (size_t i = 0; i < sizeof f; i++)
            used[f[i]] = 1;
        mark_expr(o->bitwidth, used);
    }
    for (int g = 1; g <= d->ngroups; g++)
        for (int i = 0; i < d->groups[g].n; i++)
            used[d->groups[g].field[i]] = 1;
    for (int k = 0; k < d->nctl; k++)
        used[d->ctl[k].field] = 1;
}

static int build_opcode(builder *b, const isa_opcode *op, dis_opcode *d)
{
    d->covered = op->covered;
    if (op->nfields > DISASM_MAXF)
        return 0; /* never printed: disasm_match refuses it */
    dis_form *forms = alloc(b, (size_t)op->nforms, sizeof *forms);
    const expr **cond = alloc(b, (size_t)op->nexceptions, sizeof *cond);
    uint8_t all[DISASM_NVALS], used[DISASM_NVALS] = {0};
    memset(all, 1, sizeof all);
    if (!forms || !cond || build_reads(b, op, all, &d->all))
        return -1;
    d->forms = forms;
    d->nforms = (uint8_t)op->nforms; /* at most 16 syntax lines */
    d->guard = idx(op->guard);
    d->guard_not = idx(op->guard_not);
    d->exceptions = op->nexceptions > 0;
    for (int e = 0; e < op->nexceptions; e++)
        cond[e] = op->exceptions[e].cond;
    build_pred(b, op, cond, op->nexceptions, -1, &d->raised);
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
        mark_form(&forms[k], used);
    }
    /* the others (opcode bits, unused fields) are pinned by every form */
    used[d->guard] = used[d->guard_not] = 1;
    for (int e = 0; e < op->nexceptions; e++)
        mark_expr(op->exceptions[e].cond, used);
    return build_reads(b, op, used, &d->printed);
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
        int n = snprintf(t, sizeof t, "%s%s%s%s", k >> 4 & 1 ? " " : ", ", k >> 3 & 1 ? "!" : "",
                         k >> 2 & 1 ? (k >> 1 & 1 ? "~" : "-") : "", k & 1 ? "|" : "");
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
