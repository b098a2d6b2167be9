/* Binding instructions to the engines (see bind.h): operand roles from the
 * model, and the only code that reads the names of modifier fields and
 * values the C tables use. The pre-decoder calls it once per word; sim_check_semantics
 * checks every name once per model. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "docsem/docsem.h"
#include "sim/bind.h"

/* What an operand is, from the model alone: the opcode's OutList says
 * whether it is written, its type whether it is a predicate, the optype
 * whether it is an immediate in every opcode (a constant: LOP3's LUT, LEA's
 * shift count; a C function that does not read constants apart takes them
 * as value sources). Each class takes its roles in syntax order. */
typedef enum operand_class {
    CL_RESULT, CL_PRED_RESULT, CL_SOURCE, CL_CONSTANT, CL_PRED_SOURCE, CL_INDEXED, CL_COUNT
} operand_class;

static const char *const class_name[CL_COUNT] = {"register result", "predicate result", "source",
                                                 "constant",        "predicate source", "indexed register"};

static const sim_role results[] = {RO_D, RO_COUNT}, pred_results[] = {RO_PU, RO_PV, RO_COUNT},
                      sources[] = {RO_A, RO_B, RO_C, RO_COUNT}, constants[] = {RO_IMM, RO_COUNT},
                      pred_sources[] = {RO_PP, RO_PQ, RO_PC, RO_COUNT}, indexed[] = {RO_IDX, RO_COUNT};

/* Where the doc engine puts what its class has no room for: a constant in a
 * free value source (the run loop fetches those), a predicate source in a
 * free predicate source. Its ports are roles, whatever they are called; a C
 * function reads exactly the roles it declares. */
static const sim_role spill_constants[] = {RO_A, RO_B, RO_C, RO_COUNT}, spill_preds[] = {RO_PA, RO_PB, RO_COUNT};

/* def: the C entry (NULL: the doc engine, which keeps constants apart) */
static int slot_class(const opnd_slot *s, int written, const sim_opdef *def)
{
    if (s->kind == OK_PR)
        return -1;
    if (s->kind == OK_INDEXED)
        return CL_INDEXED;
    int pred = s->kind == OK_REG && s->type && (s->type->rclass == RC_PRED || s->type->rclass == RC_UPRED);
    if (written)
        return pred ? CL_PRED_RESULT : CL_RESULT;
    if (pred)
        return CL_PRED_SOURCE;
    return s->constant && (!def || def->constants) ? CL_CONSTANT : CL_SOURCE;
}

static int count_roles(const sim_role *seq)
{
    int n = 0;
    while (seq[n] != RO_COUNT)
        n++;
    return n;
}

/* The first role of seq not in used, or RO_COUNT */
static sim_role first_free(const sim_role *seq, unsigned used)
{
    while (*seq != RO_COUNT && used >> *seq & 1)
        seq++;
    return *seq;
}

/* Written: named by the OutList; without one, assigned by the pseudo-code */
static int is_written(const gisa_isa *isa, const isa_opcode *op, const opnd_slot *s)
{
    return s->written || (!op->outlist && s->kind == OK_REG && ds_assigns(ds_optype_of(isa, op->optype), s->name));
}

const char *sim_bind_roles(const gisa_isa *isa, const isa_opcode *op, const syntax_form *F, const sim_opdef *def,
                           signed char *roles, char *why, size_t cap)
{
    if (F->nops > SIM_MAX_SLOTS) {
        snprintf(why, cap, "%s: %d operands, more than the %d the simulator binds", op->name, F->nops, SIM_MAX_SLOTS);
        return why;
    }
    const sim_role *seq[CL_COUNT] = {results,
                                     pred_results,
                                     def && def->sources ? def->sources : sources,
                                     def && def->constants ? def->constants : constants,
                                     def && def->pred_sources ? def->pred_sources : pred_sources,
                                     indexed};
    int next[CL_COUNT] = {0}, over = -1;
    unsigned used = 0;
    unsigned char written[SIM_MAX_SLOTS];
    for (int k = 0; k < F->nops; k++)
        written[k] = (unsigned char)is_written(isa, op, &F->ops[k]);
    for (int k = 0; k < F->nops; k++) /* the doc engine's port of SImm9 in R[URb+SImm9] */
        if (F->ops[k].kind == OK_INDEXED && F->ops[k].index_field >= 0)
            used |= 1u << RO_IMM;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *sl = &F->ops[k];
        int c = slot_class(sl, written[k], def);
        roles[k] = -1;
        if (c < 0)
            continue;
        if (written[k] && sl->kind != OK_REG) {
            snprintf(why, cap, "%s: operand %s is written (the OutList names it) but is not a register or predicate",
                     op->name, sl->name);
            return why;
        }
        sim_role r = seq[c][next[c]];
        if (r == RO_COUNT || used >> r & 1) {
            if (over < 0)
                over = k;
            continue;
        }
        next[c]++;
        roles[k] = (signed char)r;
        used |= 1u << r;
    }
    for (int k = over < 0 ? F->nops : over; k < F->nops; k++) {
        int c = slot_class(&F->ops[k], written[k], def);
        if (c < 0 || roles[k] >= 0)
            continue;
        const sim_role *spill = def ? NULL : c == CL_CONSTANT ? spill_constants : c == CL_PRED_SOURCE ? spill_preds : NULL;
        sim_role r = spill ? first_free(spill, used) : RO_COUNT;
        if (r == RO_COUNT) {
            int n = count_roles(seq[c]) + (spill ? count_roles(spill) : 0);
            snprintf(why, cap, "%s: operand %s is one %s too many: %s holds %d", op->name, F->ops[k].name, class_name[c],
                     def ? "its C function" : "the simulator", n);
            return why;
        }
        roles[k] = (signed char)r;
        used |= 1u << r;
    }
    return NULL;
}

/* Optypes (by semantics name) a model may have without a table entry: their
 * words fault when reached. None today; a name here is a decision, not an
 * oversight. */
static const char *const unsimulated[] = {NULL};

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
    const gisa_isa **isa_of; /* [k]: the model of ops[k] */
    size_t nops;
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
            for (int k = 0; k < ot->nopcodes; k++) {
                c->isa_of[c->nops] = isa;
                c->ops[c->nops++] = &isa->opcodes[ot->opcodes[k]];
            }
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

/* Every syntax line of the entry's opcodes binds to the roles the C
 * function reads (its declared source lists): reported once per entry, at
 * the first line that does not. */
static void check_roles(checker *c)
{
    for (size_t k = 0; k < c->nops; k++)
        for (int f = 0; f < c->ops[k]->nforms; f++) {
            const syntax_form *F = &c->ops[k]->forms[f];
            signed char roles[SIM_MAX_SLOTS];
            char why[200];
            if (sim_bind_roles(c->isa_of[k], c->ops[k], F, c->def, roles, why, sizeof why)) {
                fail(c, &F->loc, "semantics of %s: %s", c->def->optype, why);
                return;
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
    c.isa_of = malloc((total ? total : 1) * sizeof *c.isa_of);
    if (!c.ops || !c.isa_of) {
        free(c.ops);
        free(c.isa_of);
        diag_add(diags, GISA_ERROR, NULL, "semantics check: out of memory");
        return 1;
    }
    for (size_t i = 0; i < nisas; i++)
        check_optypes(&c, isas[i], families, nfamilies);
    for (size_t f = 0; f < nfamilies; f++)
        for (c.def = families[f]; c.def->optype; c.def++)
            check_entry(&c, families, nfamilies);
    free(c.ops);
    free(c.isa_of);
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
