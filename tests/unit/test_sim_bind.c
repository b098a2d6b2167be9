/* The binding of the simulator's semantic tables to the models' names
 * (src/sim/bind.c):
 *  1. the shipped tables bind to both shipped targets without an error;
 *  2. a copy of a real entry with one misspelt name (modifier field, value,
 *     optype, suffix) fails the check with a message naming it, and so do
 *     the other mistakes the check knows (duplicate entry, suffix names
 *     where there is no suffix and the reverse, an unused role name);
 *  3. operand names: the role table, and a model whose syntax line names an
 *     operand the simulator has no role for. */
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
    CHECK(check_with(&targets[1], 1, "role table: no simulated operand of the model is named \"SbMsk\""));
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
 * loader still places it (by its position in Order<>), the simulator has
 * no role for it. */
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

static void operand_roles(void)
{
    CHECK(sim_role_of("Rd") == RO_D && sim_role_of("URd") == RO_D && sim_role_of("SrcB") == RO_B);
    CHECK(sim_role_of("pq") == RO_PQ && sim_role_of("UImm8Lut") == RO_IMM);
    CHECK(sim_role_of("Rq") == -1 && sim_role_of("rd") == -1 && sim_role_of("") == -1);
    CHECK(sim_sel_index(shipped("HADD2"), "H0_H0") == 1 && sim_sel_index(shipped("HADD2"), "B0") == -1);

    gisa_isa *bad = fermi_with_operand("FCMP.cmp{.FTZ} Rd, Ra, SrcB, Rc ;", "FCMP.cmp{.FTZ} Rd, Ra, SrcB, Rcx ;");
    CHECK(bad != NULL);
    if (!bad)
        return;
    const gisa_isa *isas[2] = {targets[0], bad};
    mutate("", NULL);
    CHECK(check_with(isas, 2, "semantics of FCMP: operand \"Rcx\" of FCMP_R has no role in the simulator"));
    gisa_isa_free(bad);
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
