/* The coverage universe, built once from the model per gisa_cov: every
 * opcode, every modifier value of every syntax form, the combinations that
 * encode, and the operand kinds, decorations and floating-point formats
 * each source may have. Nothing here is a list of opcodes: each item comes
 * from the model's syntax slots, operand slots and types. */
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/strmap.h"
#include "cov/cov.h"

const char *const cov_kind_names[K_COUNT] = {"R",   "RZ",      "R pair",  "UR",        "URZ",   "UR pair",
                                             "P",   "PT",      "UP",      "UPT",       "imm",   "f32 imm",
                                             "f64 imm", "f16x2 imm", "c[][]", "R[UR+imm]", "omitted"};
const char *const cov_deco_names[D_COUNT] = {"-", "|x|", "~", "!"};
const char *const cov_fmt_names[F_COUNT] = {"F32", "F64", "F16", "BF16"};
const char *const cov_class_names[C_COUNT] = {"+0",   "-0",   "+subnormal", "-subnormal", "+normal",
                                              "-normal", "+inf", "-inf",   "qNaN",       "sNaN"};

typedef struct builder {
    gisa_cov *c;
    const gisa_isa *isa;
    strmap combo_ids; /* of the optype being built */
    strbuf key;
    int failed;
} builder;

/* The format an optype computes in, from the model alone:
 *  - a float immediate of one of its opcodes (an immediate type of format
 *    F32, F64 or F16X2) names it; for F16X2 the field its CvtFImm names
 *    (hfmt_v2) makes the halves BF16, in every opcode that has that field;
 *  - else a source that takes |x| (only floating-point operands have an
 *    absolute value) makes it F32;
 *  - else it is an integer optype (0).
 * F32 and F64 optypes read a 64-bit source (a pair) as F64 and a 32-bit one
 * as F32; the half optype reads both halves of a 32-bit source. */
static int fp_family(const isa_opcode *ops, const isa_optype *ot, const char **bf16_name, uint64_t *bf16_value)
{
    int abs = 0;
    *bf16_name = NULL;
    for (int k = 0; k < ot->nopcodes; k++) {
        const isa_opcode *op = &ops[ot->opcodes[k]];
        for (int f = 0; f < op->nforms; f++)
            for (int s = 0; s < op->forms[f].nops; s++) {
                const opnd_slot *sl = &op->forms[f].ops[s];
                abs |= sl->allow_abs && sl->abs_field >= 0;
                if (sl->kind != OK_IMM)
                    continue;
                switch (sl->type->fmt) {
                case IMM_F32: return 1 + F_F32;
                case IMM_F64: return 1 + F_F64;
                case IMM_F16X2:
                    if (sl->fmt_field >= 0) {
                        *bf16_name = op->fields[sl->fmt_field].name;
                        *bf16_value = sl->fmt_value;
                    }
                    return 1 + F_F16;
                default: break;
                }
            }
    }
    return abs ? 1 + F_F32 : 0;
}

static int find_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* Appends to an arena array of n items (n grows by one). */
static void *append(builder *b, void *arr, int *n, size_t item)
{
    void *grown = arena_append(&b->c->a, arr, (size_t)*n, item);
    if (!grown) {
        b->failed = 1;
        return arr;
    }
    (*n)++;
    return grown;
}

static int value_of(builder *b, cov_group *g, const char *spell)
{
    int v = find_name(g->values, g->nvalues, spell);
    if (v >= 0)
        return v;
    g->values = append(b, (void *)g->values, &g->nvalues, sizeof *g->values);
    if (b->failed)
        return 0;
    g->values[g->nvalues - 1] = spell;
    return g->nvalues - 1;
}

/* Leaving the slot out is a value of its own: optional, and no choice
 * encodes the same as leaving it out. */
static int absent_distinct(const mod_slot *m)
{
    if (!m->optional)
        return 0;
    for (int k = 0; k < m->nchoices; k++)
        if (m->choices[k].value == m->absent)
            return 0;
    return 1;
}

int cov_slot_option(const mod_slot *m, const cov_slot *cs, uint64_t v)
{
    for (int k = 0; k < m->nchoices; k++)
        if (m->choices[k].value == v)
            return k;
    return cs->noptions > m->nchoices && v == m->absent ? m->nchoices : -1;
}

static const char *group_name(builder *b, const syntax_form *F, const mod_slot *m)
{
    if (m->operand < 0)
        return m->name;
    sb_init(&b->key);
    sb_printf(&b->key, "%s.%s", F->ops[m->operand].name, m->name);
    const char *s = b->key.failed ? NULL : arena_strdup(&b->c->a, b->key.s);
    sb_free(&b->key);
    if (!s)
        b->failed = 1;
    return s ? s : "";
}

/* Maps the form's slots onto the optype's groups and values. */
static void map_slots(builder *b, cov_optype *t, const syntax_form *F, cov_form *cf)
{
    cf->slots = arena_alloc(&b->c->a, sizeof *cf->slots * (size_t)(F->nmods ? F->nmods : 1));
    if (!cf->slots) {
        b->failed = 1;
        return;
    }
    long tuples = 1;
    for (int j = 0; j < F->nmods && !b->failed; j++) {
        const mod_slot *m = &F->mods[j];
        cov_slot *cs = &cf->slots[j];
        const char *name = group_name(b, F, m);
        int g;
        for (g = 0; g < t->ngroups && strcmp(t->groups[g].name, name); g++)
            ;
        if (g == t->ngroups) {
            t->groups = append(b, t->groups, &t->ngroups, sizeof *t->groups);
            if (b->failed)
                return;
            t->groups[g] = (cov_group){.name = name};
        }
        cov_group *grp = &t->groups[g];
        grp->encoded |= m->field >= 0;
        cs->noptions = m->nchoices + absent_distinct(m);
        cs->value = arena_alloc(&b->c->a, sizeof *cs->value * (size_t)(cs->noptions + 1));
        if (!cs->value) {
            b->failed = 1;
            return;
        }
        for (int k = 0; k < cs->noptions; k++) {
            int alias = -1; /* a spelling of an earlier choice's value (Fermi MUFU .SAT = .FTZ) decodes as it */
            for (int e = 0; e < k && k < m->nchoices && alias < 0; e++)
                if (m->choices[e].value == m->choices[k].value)
                    alias = e;
            cs->value[k] = alias >= 0 ? cs->value[alias] : value_of(b, grp, k < m->nchoices ? m->choices[k].spell : COV_NONE);
        }
        cs->group = m->field >= 0 ? g : -1;
        cs->stride = 0;
        if (cs->group >= 0 && m->operand < 0 && tuples <= COV_MAX_TUPLES) {
            cs->stride = (int)tuples;
            tuples *= cs->noptions;
        }
    }
    cf->ntuples = tuples <= COV_MAX_TUPLES ? (int)tuples : 0;
}

/* The combination key of tuple `tuple` of form F: the mnemonic and the
 * values written, in syntax order. */
static const char *combo_key(builder *b, const syntax_form *F, const cov_form *cf, int tuple)
{
    sb_init(&b->key);
    sb_puts(&b->key, F->mnemonic);
    for (int j = 0; j < F->nmods; j++) {
        const cov_slot *cs = &cf->slots[j];
        if (!cs->stride)
            continue;
        int k = tuple / cs->stride % cs->noptions;
        if (k < F->mods[j].nchoices)
            sb_printf(&b->key, ".%s", F->mods[j].choices[k].spell);
    }
    return b->key.failed ? NULL : b->key.s;
}

/* The field values of tuple `tuple`, the others as the form leaves them. */
static void tuple_fields(const isa_opcode *op, const syntax_form *F, const cov_form *cf, int tuple, uint64_t *vals)
{
    memcpy(vals, F->base, sizeof *vals * (size_t)op->nfields);
    for (int j = 0; j < F->nmods; j++) {
        const cov_slot *cs = &cf->slots[j];
        if (!cs->stride)
            continue;
        const mod_slot *m = &F->mods[j];
        int k = tuple / cs->stride % cs->noptions;
        vals[m->field] = k < m->nchoices ? m->choices[k].value : m->absent;
    }
}

static int operand_of(builder *b, cov_optype *t, const char *name)
{
    int i;
    for (i = 0; i < t->nops && strcmp(t->ops[i].name, name); i++)
        ;
    if (i == t->nops) {
        t->ops = append(b, t->ops, &t->nops, sizeof *t->ops);
        if (b->failed)
            return -1;
        memset(&t->ops[i], 0, sizeof t->ops[i]);
        t->ops[i].name = name;
    }
    return i;
}

/* What one operand slot may be, with the other fields at vals. */
static void operand_universe(const cov_optype *t, const cov_opcode *oc, const opnd_slot *sl, const gisa_operand *go,
                             const uint64_t *vals, cov_operand *o)
{
    uint32_t k = 0;
    switch (go->kind) {
    case GISA_OPND_REG: k = 1u << K_R | 1u << K_RZ; break;
    case GISA_OPND_PAIR: k = 1u << K_RPAIR | 1u << K_RZ; break;
    case GISA_OPND_UREG: k = 1u << K_UR | 1u << K_URZ; break;
    case GISA_OPND_UPAIR: k = 1u << K_URPAIR | 1u << K_URZ; break;
    case GISA_OPND_PRED: k = 1u << K_P | 1u << K_PT; break;
    case GISA_OPND_UPRED: k = 1u << K_UP | 1u << K_UPT; break;
    case GISA_OPND_IMM: k = 1u << K_IMM; break;
    case GISA_OPND_F32: k = 1u << K_F32IMM; break;
    case GISA_OPND_F64: k = 1u << K_F64IMM; break;
    case GISA_OPND_F16X2: k = 1u << K_F16X2IMM; break;
    case GISA_OPND_CBANK: k = 1u << K_CBANK; break;
    case GISA_OPND_INDEXED: k = 1u << K_INDEXED; break;
    case GISA_OPND_PR: break;
    }
    if (sl->group)
        k |= 1u << K_OMITTED;
    o->kinds |= k;
    if (sl->allow_neg && sl->neg_field >= 0)
        o->decos |= sl->inv_field >= 0 && vals[sl->inv_field] == sl->inv_value ? 1u << D_INV : 1u << D_NEG;
    if (sl->allow_abs && sl->abs_field >= 0)
        o->decos |= 1u << D_ABS;
    if (sl->allow_not && sl->not_field >= 0)
        o->decos |= 1u << D_NOT;
    int fmt = t->fp ? t->fp - 1 : -1;
    if (fmt < 0 || go->kind == GISA_OPND_PRED || go->kind == GISA_OPND_UPRED || go->kind == GISA_OPND_IMM ||
        go->kind == GISA_OPND_INDEXED)
        return;
    if (fmt == F_F16)
        o->fmts |= oc->bf16_field >= 0 && vals[oc->bf16_field] == oc->bf16_value ? 1u << F_BF16 : 1u << F_F16;
    else
        o->fmts |= go->pair ? 1u << F_F64 : 1u << F_F32;
}

/* Gives every combination of the form an id, by its key (forms and
 * opcodes of the optype that write the same key share it). */
static void name_combos(builder *b, cov_optype *t, const syntax_form *F, cov_form *cf)
{
    if (cf->ntuples)
        cf->combo_of = arena_alloc(&b->c->a, sizeof *cf->combo_of * (size_t)cf->ntuples);
    if (cf->ntuples && !cf->combo_of)
        b->failed = 1;
    for (int tu = 0; tu < cf->ntuples && !b->failed; tu++) {
        const char *key = combo_key(b, F, cf, tu);
        int id = key ? strmap_get_long(&b->combo_ids, key, strlen(key)) : -1;
        if (key && id < 0) {
            const char *kept = arena_strdup(&b->c->a, key);
            t->combos = append(b, (void *)t->combos, &t->ncombos, sizeof *t->combos);
            id = t->ncombos - 1;
            if (!kept || b->failed || strmap_put(&b->combo_ids, kept, strlen(kept), id))
                b->failed = 1;
            else
                t->combos[id] = kept;
        }
        b->failed |= !key;
        sb_free(&b->key);
        cf->combo_of[tu] = id;
    }
}

/* Whether tuple tu of form F encodes, and decodes back to the same form
 * and tuple (a spelling that aliases another's value does not): *back is
 * the decoded instruction. The other fields are as the form leaves them,
 * registers at the zero register; when that does not encode (an exception
 * about a register), again with the registers at R2. */
static int tuple_encodes(const gisa_isa *isa, const isa_opcode *op, const syntax_form *F, const cov_form *cf, int tu,
                         gisa_inst *inst, gisa_inst *back)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        tuple_fields(op, F, cf, tu, inst->field);
        for (int k = 0; attempt && k < F->nops; k++) {
            const opnd_slot *sl = &F->ops[k];
            if (sl->kind == OK_REG && sl->field >= 0 && sl->type->zero_value > 3)
                inst->field[sl->field] = 2;
        }
        gisa_word w;
        if (gisa_encode(isa, inst, &w) != GISA_OK || gisa_decode(isa, w, back) != GISA_OK ||
            back->opcode != inst->opcode || back->form != inst->form)
            continue;
        int same = 1;
        for (int j = 0; j < F->nmods; j++) {
            const cov_slot *cs = &cf->slots[j];
            if (cs->stride && cov_slot_option(&F->mods[j], cs, back->field[F->mods[j].field]) != tu / cs->stride % cs->noptions)
                same = 0;
        }
        return same;
    }
    return 0;
}

/* The form's sources (cf->operand), which of its combinations encode (and
 * decode back to the same form), and what the sources may be in each. */
static void explore_form(builder *b, cov_optype *t, int opc, int form)
{
    const gisa_isa *isa = b->isa;
    const isa_opcode *op = &isa->opcodes[opc];
    const syntax_form *F = &op->forms[form];
    cov_opcode *oc = &b->c->opcodes[opc];
    cov_form *cf = &oc->forms[form];
    gisa_inst inst;
    memset(&inst, 0, sizeof inst);
    inst.opcode = opc;
    inst.form = form;
    cf->operand = arena_alloc(&b->c->a, sizeof *cf->operand * (size_t)(F->nops ? F->nops : 1));
    if (!cf->operand) {
        b->failed = 1;
        return;
    }
    memcpy(inst.field, F->base, sizeof *inst.field * (size_t)op->nfields);
    for (int k = 0; k < F->nops && !b->failed; k++) {
        gisa_operand go;
        gisa_inst_operand(isa, &inst, (size_t)k, &go);
        cf->operand[k] = go.written || go.kind == GISA_OPND_PR ? -1 : operand_of(b, t, F->ops[k].name);
    }
    for (int tu = 0; tu < cf->ntuples && !b->failed; tu++) {
        gisa_inst back;
        if (!tuple_encodes(isa, op, F, cf, tu, &inst, &back))
            continue;
        t->combo_encodes[cf->combo_of[tu]] = 1;
        for (int k = 0; k < F->nops; k++)
            if (cf->operand[k] >= 0) {
                gisa_operand go;
                gisa_inst_operand(isa, &back, (size_t)k, &go);
                operand_universe(t, oc, &F->ops[k], &go, back.field, &t->ops[cf->operand[k]]);
            }
    }
    if (cf->ntuples)
        return;
    /* too many combinations to count: the sources as the form leaves them */
    memcpy(inst.field, F->base, sizeof *inst.field * (size_t)op->nfields);
    for (int k = 0; k < F->nops; k++)
        if (cf->operand[k] >= 0) {
            gisa_operand go;
            gisa_inst_operand(isa, &inst, (size_t)k, &go);
            operand_universe(t, oc, &F->ops[k], &go, inst.field, &t->ops[cf->operand[k]]);
        }
}

static void build_optype(builder *b, int ti)
{
    const gisa_isa *isa = b->isa;
    const isa_optype *ot = &isa->optypes[ti];
    cov_optype *t = &b->c->optypes[ti];
    const char *bf16_name;
    uint64_t bf16_value = 0;
    t->name = ot->name;
    t->fp = fp_family(isa->opcodes, ot, &bf16_name, &bf16_value);
    strmap_init(&b->combo_ids);
    for (int k = 0; k < ot->nopcodes && !b->failed; k++) {
        int opc = ot->opcodes[k];
        const isa_opcode *op = &isa->opcodes[opc];
        cov_opcode *oc = &b->c->opcodes[opc];
        oc->optype = ti;
        oc->bf16_field = bf16_name ? model_field(op, bf16_name) : -1;
        oc->bf16_value = bf16_value;
        oc->forms = arena_alloc(&b->c->a, sizeof *oc->forms * (size_t)(op->nforms ? op->nforms : 1));
        if (!oc->forms) {
            b->failed = 1;
            break;
        }
        for (int f = 0; f < op->nforms && !b->failed; f++) {
            map_slots(b, t, &op->forms[f], &oc->forms[f]);
            if (!b->failed)
                name_combos(b, t, &op->forms[f], &oc->forms[f]);
        }
    }
    strmap_free(&b->combo_ids);
    size_t n = (size_t)(t->ncombos ? t->ncombos : 1);
    t->combo_encodes = arena_alloc(&b->c->a, n);
    t->combo_hits = arena_alloc(&b->c->a, n * sizeof *t->combo_hits);
    if (!t->combo_encodes || !t->combo_hits)
        b->failed = 1;
    for (int g = 0; g < t->ngroups && !b->failed; g++)
        if (!(t->groups[g].hits = arena_alloc(&b->c->a, sizeof *t->groups[g].hits * (size_t)t->groups[g].nvalues)))
            b->failed = 1;
    for (int k = 0; k < ot->nopcodes && !b->failed; k++)
        for (int f = 0; f < isa->opcodes[ot->opcodes[k]].nforms && !b->failed; f++)
            explore_form(b, t, ot->opcodes[k], f);
}

gisa_status gisa_cov_new(const gisa_isa *isa, gisa_cov **out)
{
    if (!out)
        return GISA_ERR_USAGE;
    *out = NULL;
    if (!isa)
        return GISA_ERR_USAGE;
    gisa_cov *c = calloc(1, sizeof *c);
    if (!c)
        return GISA_ERR_NOMEM;
    arena_init(&c->a);
    c->isa = isa;
    c->nopcodes = isa->nopcodes;
    c->noptypes = isa->noptypes;
    c->opcodes = arena_alloc(&c->a, sizeof *c->opcodes * (size_t)(c->nopcodes ? c->nopcodes : 1));
    c->optypes = arena_alloc(&c->a, sizeof *c->optypes * (size_t)(c->noptypes ? c->noptypes : 1));
    builder b = {.c = c, .isa = isa, .failed = !c->opcodes || !c->optypes};
    for (int i = 0; i < c->noptypes && !b.failed; i++)
        build_optype(&b, i);
    if (!b.failed && cov_build_bins(c))
        b.failed = 1;
    if (b.failed || c->a.failed) {
        gisa_cov_free(c);
        return GISA_ERR_NOMEM;
    }
    *out = c;
    return GISA_OK;
}

void gisa_cov_free(gisa_cov *c)
{
    if (!c)
        return;
    cov_raw_reset(c);
    cov_user_free(c);
    arena_free(&c->a);
    free(c);
}
