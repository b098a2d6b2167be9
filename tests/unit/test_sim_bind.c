/* The binding of the simulator's semantic tables to the models' names
 * (src/sim/bind.c):
 *  1. the shipped tables bind to both shipped targets without an error;
 *  2. a copy of a real entry with one misspelt name (modifier field, value,
 *     optype, suffix) fails the check with a message naming it, and so do
 *     the other mistakes the check knows (duplicate entry, suffix names
 *     where there is no suffix and the reverse);
 *  3. operand roles come from the model, not from names: on both shipped
 *     targets they equal what the former table of spellings gave (kept
 *     here as the record), a renamed operand binds as before, and a C entry
 *     that reads fewer sources than a syntax line has is an error. */
#include <stdlib.h>
#include <string.h>

#include "sim/bind.h"
#include "spec/embedded.h"
#include "testlib.h"

enum { MAXFAM = 16, MAXENT = 64 };

static const gisa_isa *targets[2]; /* the default target and "fermi" */

/* The shipped tables, copied, with the entry for one optype replaced */
static sim_opdef fam_buf[MAXFAM][MAXENT];
static const sim_opdef *fam[MAXFAM];

static const sim_opdef *shipped(const char *optype)
{
    for (size_t f = 0; f < sim_nfamilies; f++)
        for (const sim_opdef *d = sim_families[f]; d->optype; d++)
            if (!strcmp(d->optype, optype))
                return d;
    fprintf(stderr, "no table entry %s\n", optype);
    exit(2);
}

static void mutate(const char *optype, const sim_opdef *mutant)
{
    if (sim_nfamilies > MAXFAM)
        exit(2);
    for (size_t f = 0; f < sim_nfamilies; f++) {
        int n = 0;
        for (const sim_opdef *d = sim_families[f];; d++) {
            if (n == MAXENT)
                exit(2);
            fam_buf[f][n++] = d->optype && !strcmp(d->optype, optype) ? *mutant : *d;
            if (!d->optype)
                break;
        }
        fam[f] = fam_buf[f];
    }
}

/* Runs the check over isas with the tables in fam; returns its error count
 * and whether a message contains `needle` (NULL: expects none). */
static int check_with(const gisa_isa *const *isas, size_t nisas, const char *needle)
{
    gisa_diags *d = api_diags();
    int errors = sim_check_semantics(isas, nisas, fam, sim_nfamilies, d);
    int ok = needle ? errors > 0 && (size_t)errors == gisa_diags_errors(d) && test_diags_contain(d, needle)
                    : errors == 0 && gisa_diags_count(d) == 0;
    if (!ok) {
        fprintf(stderr, "expected %s; got %d errors:\n", needle ? needle : "no error", errors);
        test_dump_diags(d);
    }
    gisa_diags_free(d);
    return ok;
}

static int mutant_fails(const char *optype, const sim_opdef *mutant, const char *needle)
{
    mutate(optype, mutant);
    return check_with(targets, 2, needle);
}

static int mod_index(const sim_opdef *d, const char *field)
{
    for (int i = 0; i < d->nmods; i++)
        if (!strcmp(d->mods[i].field, field))
            return i;
    fprintf(stderr, "%s reads no field %s\n", d->optype, field);
    exit(2);
}

static void shipped_tables_bind(void)
{
    gisa_diags *d = api_diags();
    int errors = sim_check_semantics(targets, 2, sim_families, sim_nfamilies, d);
    CHECKF(errors == 0 && gisa_diags_count(d) == 0, "%d errors", errors);
    if (gisa_diags_count(d))
        test_dump_diags(d);
    gisa_diags_free(d);
    mutate("", NULL); /* the copy alone changes nothing */
    CHECK(check_with(targets, 2, NULL));
    /* one target alone lacks the other's optypes and operand names... */
    CHECK(check_with(&targets[1], 1, "semantics of HADD2: \"HADD2\" is not an optype of the model"));
    /* ...which is no error for what one model uses */
    for (int t = 0; t < 2; t++) {
        d = api_diags();
        errors = sim_check_model(targets[t], sim_families, sim_nfamilies, d);
        CHECKF(errors == 0 && gisa_diags_count(d) == 0, "target %d: %d errors", t, errors);
        test_dump_diags(d);
        gisa_diags_free(d);
    }
}

static void misspelt_names(void)
{
    const sim_opdef *fadd = shipped("FADD"), *hadd2 = shipped("HADD2");
    sim_opdef m = *fadd;
    sim_mod mods[SIM_MAXMODS];
    const char *values[16], *sels[16];
    int rnd = mod_index(fadd, "rnd");

    /* a modifier field */
    memcpy(mods, fadd->mods, (size_t)fadd->nmods * sizeof *mods);
    mods[rnd].field = "rnnd";
    m.mods = mods;
    CHECK(mutant_fails("FADD", &m, "semantics of FADD: modifier field \"rnnd\" is not a field of any FADD opcode"));

    /* a value of a field */
    memcpy(mods, fadd->mods, (size_t)fadd->nmods * sizeof *mods);
    memcpy(values, mods[rnd].values, (size_t)mods[rnd].nvalues * sizeof *values);
    values[mods[rnd].nvalues - 1] = "RZZ";
    mods[rnd].values = values;
    CHECK(mutant_fails("FADD", &m, "\"RZZ\" is not a value of FPRound"));
    gisa_diags *d = api_diags(); /* a model alone sees it too: it has the field */
    CHECK(sim_check_model(targets[1], fam, sim_nfamilies, d) == 1 && test_diags_contain(d, "\"RZZ\""));
    gisa_diags_free(d);
    values[mods[rnd].nvalues - 1] = values[0];
    CHECK(mutant_fails("FADD", &m, "value \"RN\" is listed twice"));

    /* the optype */
    m = *fadd;
    m.optype = "FADDD";
    CHECK(mutant_fails("FADD", &m, "semantics of FADDD: \"FADDD\" is not an optype of any target"));
    CHECK(mutant_fails("FADD", &m, "optype FADD has no semantics: no table entry \"FADD\""));

    /* a suffix name */
    m = *hadd2;
    memcpy(sels, hadd2->sels, (size_t)hadd2->nsels * sizeof *sels);
    sels[hadd2->nsels - 1] = "H1_H11";
    m.sels = sels;
    CHECK(mutant_fails("HADD2", &m, "\"H1_H11\" is not a value of HSel2"));
}

static void other_mistakes(void)
{
    const sim_opdef *hadd2 = shipped("HADD2"), *fadd = shipped("FADD");
    sim_opdef m = *hadd2;
    m.sels = NULL;
    m.nsels = 0;
    CHECK(mutant_fails("HADD2", &m, "has a suffix (.hsel2) but the table names no suffix values"));
    m = *fadd;
    m.sels = hadd2->sels;
    m.nsels = hadd2->nsels;
    CHECK(mutant_fails("FADD", &m, "are given but no FADD operand has a suffix"));
    m = *fadd;
    m.optype = "FFMA"; /* a second entry for FFMA: the first is used */
    CHECK(mutant_fails("FADD", &m, "a second table entry for \"FFMA\""));
}

/* The fermi sources with one operand of FCMP's syntax line renamed: the
 * loader still places it (by its position in Order<>). */
static gisa_isa *fermi_with_operand(const char *from, const char *to)
{
    gisa_source src[16];
    char *texts[16];
    size_t n = 0;
    for (size_t i = 0; i < gisa_embedded_file_count && n < 16; i++) {
        const gisa_embedded_file *e = &gisa_embedded_files[i];
        if (strcmp(e->target, "fermi"))
            continue;
        const char *at = strstr(e->text, from);
        size_t len = at ? e->len - strlen(from) + strlen(to) : e->len;
        char *t = texts[n] = malloc(len + 1);
        if (!t)
            exit(2);
        if (at)
            snprintf(t, len + 1, "%.*s%s%s", (int)(at - e->text), e->text, to, at + strlen(from));
        else
            memcpy(t, e->text, len + 1);
        src[n] = (gisa_source){e->name, t, len};
        n++;
    }
    gisa_isa *isa = NULL;
    gisa_diags *d = api_diags();
    if (api_load_sources(src, n, &isa, d) != GISA_OK)
        test_dump_diags(d);
    gisa_diags_free(d);
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    return isa;
}

/* The spellings the simulator once bound operands by: the record the
 * model-derived roles must reproduce on the shipped targets. */
static const struct {
    const char *name;
    sim_role role;
} spelled[] = {
    {"Rd", RO_D},   {"URd", RO_D},   {"Ra", RO_A},   {"SrcA", RO_A}, {"SrcB", RO_B},       {"Rb", RO_B},
    {"SbMsk", RO_B}, {"SrcC", RO_C}, {"Rc", RO_C},   {"pu", RO_PU},  {"pv", RO_PV},        {"pp", RO_PP},
    {"pq", RO_PQ},  {"pa", RO_PA},   {"pb", RO_PB},  {"pc", RO_PC},  {"UImm5Sca", RO_IMM}, {"UImm8Lut", RO_IMM},
};

static int spelled_role(const opnd_slot *s)
{
    if (s->kind == OK_INDEXED)
        return RO_IDX;
    if (s->kind == OK_PR)
        return -1;
    for (size_t i = 0; i < sizeof spelled / sizeof spelled[0]; i++)
        if (!strcmp(spelled[i].name, s->name))
            return (int)spelled[i].role;
    return -2;
}

/* Every syntax line of isa binds: for its C entry to the roles the
 * spellings gave, for the doc engine to distinct roles with the results
 * where the spellings had them (its ports are matched by name); returns
 * the number of lines compared. */
static int roles_as_spelled(const gisa_isa *isa)
{
    int lines = 0;
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        for (int f = 0; f < op->nforms; f++, lines++) {
            const syntax_form *F = &op->forms[f];
            const sim_opdef *defs[2] = {sim_find_opdef(op->optype->semantics), NULL};
            for (int e = 0; e < 2; e++) {
                signed char roles[SIM_MAX_SLOTS];
                char why[200];
                const char *err = sim_bind_roles(isa, op, F, defs[e], roles, why, sizeof why);
                CHECKF(!err, "%s: %s", op->name, err);
                unsigned seen = 0;
                for (int k = 0; !err && k < F->nops; k++) {
                    int want = spelled_role(&F->ops[k]), r = roles[k];
                    int result = want == RO_D || want == RO_PU || want == RO_PV || want < 0;
                    CHECKF(e == 0 || result ? r == want : r >= 0 && !(seen >> r & 1), "%s %s operand %s (%s): role %d, spelled %d",
                           op->name, e ? "doc" : "native", F->ops[k].name, F->mnemonic, r, want);
                    if (r >= 0)
                        seen |= 1u << r;
                }
            }
        }
    }
    return lines;
}

static void operand_roles(void)
{
    CHECK(roles_as_spelled(targets[0]) > 200);
    CHECK(roles_as_spelled(targets[1]) > 20);
    CHECK(sim_sel_index(shipped("HADD2"), "H0_H0") == 1 && sim_sel_index(shipped("HADD2"), "B0") == -1);

    /* a name the spellings never had binds by what the operand is */
    gisa_isa *renamed = fermi_with_operand("FCMP.cmp{.FTZ} Rd, Ra, SrcB, Rc ;", "FCMP.cmp{.FTZ} Rd, Ra, SrcB, Rcx ;");
    CHECK(renamed != NULL);
    if (renamed) {
        const gisa_isa *isas[2] = {targets[0], renamed};
        mutate("", NULL);
        CHECK(check_with(isas, 2, NULL));
        int found = 0;
        for (int i = 0; i < renamed->nopcodes; i++) {
            const isa_opcode *op = &renamed->opcodes[i];
            for (int f = 0; f < op->nforms; f++)
                for (int k = 0; k < op->forms[f].nops; k++)
                    if (!strcmp(op->forms[f].ops[k].name, "Rcx")) {
                        signed char roles[SIM_MAX_SLOTS];
                        char why[200];
                        CHECK(!sim_bind_roles(renamed, op, &op->forms[f], shipped("FCMP"), roles, why, sizeof why));
                        CHECKF(roles[k] == RO_C, "Rcx of %s: role %d", op->name, roles[k]);
                        found++;
                    }
        }
        CHECK(found > 0);
        gisa_isa_free(renamed);
    }

    /* a C entry that reads one source where the syntax has two */
    sim_opdef one = *shipped("FADD");
    one.sources = (const sim_role[]){RO_A, RO_COUNT};
    CHECK(mutant_fails("FADD", &one, "operand SrcB is one source too many: its C function holds 1"));
}

int main(void)
{
    targets[0] = test_isa();
    targets[1] = test_isa_target("fermi");
    shipped_tables_bind();
    misspelt_names();
    other_mistakes();
    operand_roles();
    return test_summary();
}
