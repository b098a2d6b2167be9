/* Binding the semantic tables to the model's names (see bind.h): the only
 * code that reads the names of operands, modifier fields and values the
 * tables use. The pre-decoder calls it once per word; sim_check_semantics
 * checks every name once per model. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "sim/bind.h"

/* Operand names of the syntax lines -> the roles the semantic functions read */
static const struct {
    const char *name;
    sim_role role;
} role_names[] = {
    {"Rd", RO_D},   {"URd", RO_D},   {"Ra", RO_A},         {"SrcA", RO_A},       {"SrcB", RO_B},
    {"Rb", RO_B},   {"SbMsk", RO_B}, {"SrcC", RO_C},       {"Rc", RO_C},         {"pu", RO_PU},
    {"pv", RO_PV},  {"pp", RO_PP},   {"pq", RO_PQ},        {"pa", RO_PA},        {"pb", RO_PB},
    {"pc", RO_PC},  {"UImm5Sca", RO_IMM}, {"UImm8Lut", RO_IMM},
};
#define NROLES (sizeof role_names / sizeof role_names[0])

/* Optypes (by semantics name) a model may have without a table entry: their
 * words fault when reached. None today; a name here is a decision, not an
 * oversight. */
static const char *const unsimulated[] = {NULL};

static int role_index(const char *name)
{
    for (size_t i = 0; i < NROLES; i++)
        if (!strcmp(role_names[i].name, name))
            return (int)i;
    return -1;
}

int sim_role_of(const char *operand_name)
{
    int i = role_index(operand_name);
    return i < 0 ? -1 : (int)role_names[i].role;
}

int sim_operand_role(const opnd_slot *s)
{
    return s->kind == OK_INDEXED ? (int)RO_IDX : sim_role_of(s->name);
}

static int name_index(const char *const *names, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(names[k], name))
            return k;
    return -1;
}

const char *sim_read_mods(const isa_opcode *op, const sim_opdef *def, const uint64_t *vals, uint32_t *m, char *why,
                          size_t cap)
{
    for (int i = 0; i < def->nmods && i < SIM_MAXMODS; i++) { /* the check reports more */
        const sim_mod *md = &def->mods[i];
        int f = model_field(op, md->field);
        m[i] = 0;
        if (f < 0)
            continue;
        char buf[32];
        const char *nm = type_value_name(op->fields[f].type, vals[f], buf, sizeof buf);
        int k = nm ? name_index(md->values, md->nvalues, nm) : -1;
        if (k < 0) {
            snprintf(why, cap, "%s: %s = %s is not simulated", op->name, md->field, nm ? nm : "?");
            return why;
        }
        m[i] = (uint32_t)k;
    }
    return NULL;
}

int sim_sel_index(const sim_opdef *def, const char *value_name)
{
    return name_index(def->sels, def->nsels, value_name);
}

const char *sim_read_sel(const isa_opcode *op, const syntax_form *F, const opnd_slot *sl, const uint64_t *vals,
                         const sim_opdef *def, uint8_t *sel, char *why, size_t cap)
{
    const mod_slot *m = &F->mods[sl->sfx_slot];
    char buf[32];
    /* a suffix no field encodes is always its default (H1_H0, B0) */
    const char *nm = m->field >= 0 ? type_value_name(op->fields[m->field].type, vals[m->field], buf, sizeof buf)
                     : m->def_choice >= 0 ? m->choices[m->def_choice].spell
                                          : NULL;
    int k = nm ? sim_sel_index(def, nm) : -1;
    if (k < 0) {
        snprintf(why, cap, "operand %s: suffix value not simulated", sl->name);
        return why;
    }
    *sel = (uint8_t)k;
    return NULL;
}

/* ------------------------------------------------------------------ the check */

typedef struct checker {
    const gisa_isa *const *isas;
    size_t nisas;
    gisa_diags *diags;
    int errors;
    int uses_only;          /* sim_check_model: not the names no model uses */
    const sim_opdef *def;   /* the entry being checked */
    const isa_opcode **ops; /* the opcodes it simulates, over all models */
    size_t nops;
    unsigned char used[NROLES]; /* role names some simulated operand has */
} checker;

__attribute__((format(printf, 3, 4))) static void fail(checker *c, const srcloc *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(c->diags, GISA_ERROR, at, fmt, ap);
    va_end(ap);
    c->errors++;
}

/* "the model" or "any target": where a name was looked for */
static const char *models(const checker *c) { return c->nisas == 1 ? "the model" : "any target"; }

static const sim_opdef *find_entry(const sim_opdef *const *families, size_t n, const char *name)
{
    for (size_t f = 0; f < n; f++)
        for (const sim_opdef *d = families[f]; d->optype; d++)
            if (!strcmp(d->optype, name))
                return d;
    return NULL;
}

static int listed_unsimulated(const char *name)
{
    for (const char *const *p = unsimulated; *p; p++)
        if (!strcmp(*p, name))
            return 1;
    return 0;
}

/* Every optype of the model is simulated by some entry (as the pre-decoder
 * finds it: by its semantics name) or listed as not simulated. */
static void check_optypes(checker *c, const gisa_isa *isa, const sim_opdef *const *families, size_t n)
{
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        if (!find_entry(families, n, ot->semantics) && !listed_unsimulated(ot->semantics))
            fail(c, &ot->def->loc, "optype %s has no semantics: no table entry \"%s\"", ot->name, ot->semantics);
    }
}

/* The opcodes of every model whose optype the entry simulates, into c->ops. */
static void bind_opcodes(checker *c)
{
    c->nops = 0;
    for (size_t i = 0; i < c->nisas; i++) {
        const gisa_isa *isa = c->isas[i];
        for (int t = 0; t < isa->noptypes; t++) {
            const isa_optype *ot = &isa->optypes[t];
            if (strcmp(ot->semantics, c->def->optype))
                continue;
            for (int k = 0; k < ot->nopcodes; k++)
                c->ops[c->nops++] = &isa->opcodes[ot->opcodes[k]];
        }
    }
}

/* The pre-decoder compares the name the model prints for a value, so a
 * table name must be that name: not a misspelling, nor an alias. Returns 1
 * when it is; else reports, saying what and where (`what`). */
static int check_value_name(checker *c, const isa_type *t, const char *name, const char *what)
{
    uint64_t v;
    char buf[32];
    const char *printed = type_value(t, name, strlen(name), &v) ? NULL : type_value_name(t, v, buf, sizeof buf);
    if (!printed)
        fail(c, NULL, "semantics of %s: %s: \"%s\" is not a value of %s", c->def->optype, what, name, t->name);
    else if (strcmp(printed, name))
        fail(c, NULL, "semantics of %s: %s: \"%s\" is an alias, never read: the model prints that value %s",
             c->def->optype, what, name, printed);
    return printed && !strcmp(printed, name);
}

/* Each value name of modifier md against the field's type in the opcodes
 * that have the field; a bad name is reported once, at its first opcode. */
static void check_mod_values(checker *c, const sim_mod *md)
{
    for (int j = 0; j < md->nvalues; j++) {
        if (name_index(md->values, j, md->values[j]) >= 0)
            fail(c, NULL, "semantics of %s: modifier %s: value \"%s\" is listed twice", c->def->optype, md->field,
                 md->values[j]);
        for (size_t k = 0; k < c->nops; k++) {
            int f = model_field(c->ops[k], md->field);
            char what[96];
            snprintf(what, sizeof what, "modifier field %s of %s", md->field, c->ops[k]->name);
            if (f >= 0 && !check_value_name(c, c->ops[k]->fields[f].type, md->values[j], what))
                break;
        }
    }
}

static void check_mods(checker *c)
{
    if (c->def->nmods > SIM_MAXMODS)
        fail(c, NULL, "semantics of %s: %d modifiers, more than the %d an instruction holds", c->def->optype,
             c->def->nmods, SIM_MAXMODS);
    for (int i = 0; i < c->def->nmods && i < SIM_MAXMODS; i++) {
        const sim_mod *md = &c->def->mods[i];
        int have = 0;
        for (size_t k = 0; k < c->nops && !have; k++)
            have = model_field(c->ops[k], md->field) >= 0;
        if (have)
            check_mod_values(c, md);
        else if (!c->uses_only)
            fail(c, NULL, "semantics of %s: modifier field \"%s\" is not a field of any %s opcode", c->def->optype,
                 md->field, c->def->optype);
    }
}

/* One suffix name against the suffix of operand sl: its field's type, or
 * the spellings a suffix without a field has. */
static int check_sel_name(checker *c, const isa_opcode *op, const syntax_form *F, const opnd_slot *sl,
                          const char *name)
{
    const mod_slot *m = &F->mods[sl->sfx_slot];
    char what[96];
    snprintf(what, sizeof what, "suffix .%s of operand %s of %s", m->name, sl->name, op->name);
    if (m->field >= 0)
        return check_value_name(c, op->fields[m->field].type, name, what);
    for (int i = 0; i < m->nchoices; i++)
        if (!strcmp(m->choices[i].spell, name))
            return 1;
    fail(c, NULL, "semantics of %s: %s: \"%s\" is not one of its spellings", c->def->optype, what, name);
    return 0;
}

/* The first operand of the entry's opcodes that has a suffix, or NULL */
static const opnd_slot *first_suffixed(const checker *c, const isa_opcode **op, const syntax_form **F)
{
    for (size_t k = 0; k < c->nops; k++)
        for (int f = 0; f < c->ops[k]->nforms; f++)
            for (int j = 0; j < c->ops[k]->forms[f].nops; j++)
                if (c->ops[k]->forms[f].ops[j].sfx_slot >= 0) {
                    *op = c->ops[k];
                    *F = &c->ops[k]->forms[f];
                    return &(*F)->ops[j];
                }
    return NULL;
}

/* One suffix name against every operand with a suffix; reported once, at
 * the first that does not have it */
static void check_sel_everywhere(checker *c, const char *name)
{
    for (size_t k = 0; k < c->nops; k++)
        for (int f = 0; f < c->ops[k]->nforms; f++) {
            const syntax_form *F = &c->ops[k]->forms[f];
            for (int j = 0; j < F->nops; j++)
                if (F->ops[j].sfx_slot >= 0 && !check_sel_name(c, c->ops[k], F, &F->ops[j], name))
                    return;
        }
}

static void check_sels(checker *c)
{
    const isa_opcode *op = NULL;
    const syntax_form *F = NULL;
    const opnd_slot *sl = first_suffixed(c, &op, &F);
    if (sl && !c->def->nsels)
        fail(c, &F->loc, "semantics of %s: operand %s of %s has a suffix (.%s) but the table names no suffix values",
             c->def->optype, sl->name, op->name, F->mods[sl->sfx_slot].name);
    if (!sl && c->def->nsels && !c->uses_only)
        fail(c, NULL, "semantics of %s: suffix names (\"%s\", ...) are given but no %s operand has a suffix",
             c->def->optype, c->def->sels[0], c->def->optype);
    for (int j = 0; j < c->def->nsels; j++)
        check_sel_everywhere(c, c->def->sels[j]);
}

/* Whether an operand named `name` was met before (op, F, j) among the
 * entry's opcodes: a syntax line repeats in every opcode of its optype. */
static int met_before(const checker *c, size_t op_k, int form, int slot, const char *name)
{
    for (size_t k = 0; k <= op_k; k++)
        for (int f = 0; f < c->ops[k]->nforms && (k < op_k || f <= form); f++) {
            const syntax_form *F = &c->ops[k]->forms[f];
            int end = k == op_k && f == form ? slot : F->nops;
            for (int j = 0; j < end; j++)
                if (!strcmp(F->ops[j].name, name))
                    return 1;
        }
    return 0;
}

static void check_roles(checker *c)
{
    for (size_t k = 0; k < c->nops; k++)
        for (int f = 0; f < c->ops[k]->nforms; f++) {
            const syntax_form *F = &c->ops[k]->forms[f];
            for (int j = 0; j < F->nops; j++) {
                const opnd_slot *sl = &F->ops[j];
                if (sl->kind == OK_PR || sl->kind == OK_INDEXED)
                    continue;
                int r = role_index(sl->name);
                if (r >= 0)
                    c->used[r] = 1;
                else if (!met_before(c, k, f, j, sl->name))
                    fail(c, &F->loc, "semantics of %s: operand \"%s\" of %s has no role in the simulator",
                         c->def->optype, sl->name, c->ops[k]->name);
            }
        }
}

static void check_entry(checker *c, const sim_opdef *const *families, size_t n)
{
    if (find_entry(families, n, c->def->optype) != c->def) {
        fail(c, NULL, "semantics of %s: a second table entry for \"%s\" (the first is used)", c->def->optype,
             c->def->optype);
        return;
    }
    bind_opcodes(c);
    if (!c->nops) {
        if (!c->uses_only)
            fail(c, NULL, "semantics of %s: \"%s\" is not an optype of %s", c->def->optype, c->def->optype,
                 models(c));
        return;
    }
    check_mods(c);
    check_sels(c);
    check_roles(c);
}

static int check(const gisa_isa *const *isas, size_t nisas, const sim_opdef *const *families, size_t nfamilies,
                 int uses_only, gisa_diags *diags)
{
    checker c = {.isas = isas, .nisas = nisas, .diags = diags, .uses_only = uses_only};
    size_t total = 0;
    for (size_t i = 0; i < nisas; i++)
        total += (size_t)isas[i]->nopcodes;
    c.ops = malloc((total ? total : 1) * sizeof *c.ops);
    if (!c.ops) {
        diag_add(diags, GISA_ERROR, NULL, "semantics check: out of memory");
        return 1;
    }
    for (size_t i = 0; i < nisas; i++)
        check_optypes(&c, isas[i], families, nfamilies);
    for (size_t f = 0; f < nfamilies; f++)
        for (c.def = families[f]; c.def->optype; c.def++)
            check_entry(&c, families, nfamilies);
    for (size_t r = 0; r < NROLES && !uses_only; r++)
        if (!c.used[r])
            fail(&c, NULL, "role table: no simulated operand of %s is named \"%s\"", models(&c), role_names[r].name);
    free(c.ops);
    return c.errors;
}

int sim_check_semantics(const gisa_isa *const *isas, size_t nisas, const sim_opdef *const *families,
                        size_t nfamilies, gisa_diags *diags)
{
    return check(isas, nisas, families, nfamilies, 0, diags);
}

int sim_check_model(const gisa_isa *isa, const sim_opdef *const *families, size_t nfamilies, gisa_diags *diags)
{
    return check(&isa, 1, families, nfamilies, 1, diags);
}
