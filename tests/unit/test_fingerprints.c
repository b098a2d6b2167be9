/* The C semantics' declared fingerprints (src/sim/fingerprints.c) against
 * the pseudo-code (sim/fingerprint.h): the table matches the shipped
 * targets; a fingerprint ignores layout, comments and redundant
 * parentheses but not a change of meaning; a changed optype is refused
 * by sim_native_implements with the file:line of the change, reported by
 * lint, and run by the doc engine under --engine auto; a ruling from an
 * author's file is named as the change. Prints what a fingerprint costs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "docsem/docsem.h"
#include "sim/fingerprint.h"
#include "spec/embedded.h"
#include "spec/model.h"
#include "testlib.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const isa_optype *optype(const gisa_isa *isa, const char *name)
{
    for (int t = 0; t < isa->noptypes; t++)
        if (!strcmp(isa->optypes[t].name, name))
            return &isa->optypes[t];
    return NULL;
}

/* text with the first `from` (after `after`) replaced by `to` (malloc'd) */
static char *edit(const char *text, const char *after, const char *from, const char *to)
{
    const char *a = strstr(text, after), *f = a ? strstr(a, from) : NULL;
    if (!f)
        return NULL;
    size_t n = strlen(text) - strlen(from) + strlen(to);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t k = (size_t)(f - text);
    memcpy(out, text, k);
    strcpy(out + k, to);
    strcat(out, f + strlen(from));
    return out;
}

/* gisa128 from memory, as edit/NAME files, with falu.isa's text replaced */
static gisa_isa *load_edited(const char *falu)
{
    gisa_source src[16];
    char names[16][64];
    size_t n = 0;
    for (size_t i = 0; i < gisa_embedded_file_count && n < 16; i++) {
        const gisa_embedded_file *f = &gisa_embedded_files[i];
        if (strcmp(f->target, "gisa128"))
            continue;
        snprintf(names[n], sizeof names[n], "edit/%s", f->name);
        int is_falu = !strcmp(f->name, "falu.isa");
        src[n] = (gisa_source){names[n], is_falu ? falu : f->text, is_falu ? strlen(falu) : f->len};
        n++;
    }
    gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
    o.sources = src;
    o.nsources = n;
    gisa_isa *isa = NULL;
    CHECK(gisa_isa_load(&o, &isa, NULL) == GISA_OK);
    return isa;
}

static const char *embedded_text(const char *target, const char *name)
{
    for (size_t i = 0; i < gisa_embedded_file_count; i++)
        if (!strcmp(gisa_embedded_files[i].target, target) && !strcmp(gisa_embedded_files[i].name, name))
            return gisa_embedded_files[i].text;
    return NULL;
}

/* FMNMX's result for Ra = 1.0, SrcB = NaN under an engine */
static uint32_t fmnmx_nan(const gisa_isa *isa, gisa_sim_engine engine)
{
    gisa_word w;
    gisa_sim *sim = NULL;
    uint32_t v = 0xdeadbeef;
    if (api_asm_one(isa, "FMNMX R0, R1, R2, PT;", &w, NULL) != GISA_OK ||
        gisa_sim_new(isa, 8, 1, &sim) != GISA_OK)
        return v;
    gisa_sim_load(sim, &w, 1);
    gisa_sim_set_engine(sim, engine);
    gisa_sim_set(sim, 0, GISA_RF_R, 1, -1, 0x3f800000u);
    gisa_sim_set(sim, 0, GISA_RF_R, 2, -1, 0x7fc00000u);
    gisa_sim_fault f;
    if (gisa_sim_run(sim, &f) == GISA_OK)
        gisa_sim_get(sim, 0, GISA_RF_R, 0, 0, &v);
    gisa_sim_free(sim);
    return v;
}

int main(void)
{
    gisa_isa *t[2] = {NULL, NULL};
    CHECK(api_load_embedded("gisa128", &t[0], NULL) == GISA_OK);
    CHECK(api_load_embedded("fermi", &t[1], NULL) == GISA_OK);
    if (!t[0] || !t[1])
        return test_summary();

    /* the shipped table: what the build checks */
    gisa_diags *d = api_diags();
    CHECKF(sim_check_fingerprints((const gisa_isa *const *)t, 2, d) == 0, "%s",
           gisa_diags_count(d) ? gisa_diags_get(d, 0)->message : "");
    gisa_diags_free(d);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < t[k]->noptypes; i++) {
            char why[300] = "";
            CHECKF(sim_native_implements(t[k], &t[k]->optypes[i], why, sizeof why), "%s: %s",
                   t[k]->optypes[i].name, why);
        }
    uint64_t fp = 0;
    CHECK(sim_declared_fingerprint("FFMA", &fp) && fp == sim_doc_fingerprint(t[0], optype(t[0], "FFMA")));
    CHECK(sim_doc_fingerprint(t[1], optype(t[1], "FFMA")) == 0); /* Fermi has no pseudo-code */
    CHECK(!sim_declared_fingerprint("NOSUCH", &fp));

    /* the cost: every optype's fingerprint, and a load */
    double t0 = now();
    int reps = 200;
    uint64_t sink = 0;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < t[0]->noptypes; i++)
            sink += ds_fingerprint(ds_optype_of(t[0], &t[0]->optypes[i]));
    double per = (now() - t0) / reps;
    t0 = now();
    gisa_isa *again = NULL;
    for (int r = 0; r < 10; r++) {
        api_load_embedded("gisa128", &again, NULL);
        gisa_isa_free(again);
    }
    double load = (now() - t0) / 10;
    printf("fingerprints of the %d optypes of gisa128: %.1f us (%.2f us each; %.2f%% of a load, %.2f ms) [%llx]\n",
           t[0]->noptypes, per * 1e6, per * 1e6 / t[0]->noptypes, 100 * per / load, load * 1e3,
           (unsigned long long)(sink & 0xf));

    const char *falu = embedded_text("gisa128", "falu.isa");
    CHECK(falu != NULL);
    if (!falu)
        return test_summary();

    /* layout, comments, parentheses: the same fingerprint */
    char *e1 = edit(falu, "FMNMX.ftz.nan Rd", "            Rd = SrcB;", "            Rd = (SrcB) ;   // the other");
    char *e2 = e1 ? edit(e1, "FMNMX.ftz.nan Rd", "Rd = pp ? min(Ra, SrcB) : max(Ra, SrcB);",
                         "Rd = pp ? (min(Ra,SrcB)) : max( Ra , SrcB )") : NULL;
    CHECK(e2 != NULL);
    gisa_isa *same = e2 ? load_edited(e2) : NULL;
    if (same) {
        const isa_optype *ot = optype(same, "FMNMX");
        CHECK(sim_doc_fingerprint(same, ot) == sim_doc_fingerprint(t[0], optype(t[0], "FMNMX")));
        CHECK(sim_native_implements(same, ot, NULL, 0) == 1);
        gisa_isa_free(same);
    }

    /* another NaN rule: the other finite value no more, a NaN */
    char *e3 = edit(falu, "FMNMX.ftz.nan Rd", "            Rd = Ra;", "            Rd[31:0] = 0x7FFFFFFF;");
    int line = 1;
    for (const char *p = falu; e3 && p < strstr(strstr(falu, "FMNMX.ftz.nan Rd"), "            Rd = Ra;"); p++)
        line += *p == '\n';
    gisa_isa *changed = e3 ? load_edited(e3) : NULL;
    if (changed) {
        const isa_optype *ot = optype(changed, "FMNMX");
        char why[300] = "", want[64];
        snprintf(want, sizeof want, "edit/falu.isa:%d:", line);
        double t1 = now();
        CHECK(sim_native_implements(changed, ot, why, sizeof why) == 0);
        double explain = now() - t1;
        t1 = now();
        CHECK(sim_native_implements(changed, ot, NULL, 0) == 0);
        printf("sim_native_implements of a changed optype: %.2f ms with its reason (a load of the shipped target), "
               "%.2f us without\n", explain * 1e3, (now() - t1) * 1e6);
        CHECKF(!strncmp(why, "FMNMX: the pseudo-code differs from what the C semantics implement (", 68) &&
                   strstr(why, want) && strstr(why, "--engine auto runs the pseudo-code"), "why: %s (want %s)", why,
               want);
        CHECK(sim_native_implements(changed, optype(changed, "FFMA"), NULL, 0) == 1);
        /* lint: one note, at the change */
        gisa_diags *ld = api_diags();
        gisa_isa_lint(changed, ld);
        int notes = 0;
        for (size_t i = 0; i < gisa_diags_count(ld); i++) {
            const gisa_diag *g = gisa_diags_get(ld, i);
            if (!strstr(g->message, "differs from what its C semantics implement"))
                continue;
            notes++;
            CHECKF(g->severity == GISA_NOTE && !strcmp(g->file, "edit/falu.isa") && (int)g->line == line &&
                       strstr(g->message, "FMNMX") && strstr(g->message, "op_fmnmx in src/sim/ops_f32.c") &&
                       strstr(g->message, "--engine native refuses it"), "%s:%u: %s", g->file, g->line, g->message);
        }
        CHECKF(notes == 1, "lint notes %d changed optype(s)", notes);
        gisa_diags_free(ld);
        /* auto runs the edited pseudo-code */
        CHECK(fmnmx_nan(t[0], GISA_ENGINE_AUTO) == 0x3f800000u);
        CHECK(fmnmx_nan(changed, GISA_ENGINE_DOC) == 0x7fffffffu);
        CHECK(fmnmx_nan(changed, GISA_ENGINE_AUTO) == 0x7fffffffu);
        /* the table says what to declare */
        char *table = NULL;
        gisa_diags *fd = api_diags();
        CHECK(gisa_isa_fingerprints(changed, &table, fd) == GISA_ERR_INPUT && gisa_diags_errors(fd) == 1);
        CHECKF(gisa_diags_count(fd) && strstr(gisa_diags_get(fd, 0)->message, "the pseudo-code of FMNMX changed") &&
                   strstr(gisa_diags_get(fd, 0)->message, want), "%s",
               gisa_diags_count(fd) ? gisa_diags_get(fd, 0)->message : "");
        CHECK(table && strstr(table, "{\"FMNMX\", UINT64_C(0x") && strstr(table, "/* changed */"));
        gisa_free(table);
        gisa_diags_free(fd);
        gisa_isa_free(changed);
    }

    /* a ruling in an author's file: the change is the patch */
    char path[] = "/tmp/gisa_fp_XXXXXX";
    int fd = mkstemp(path);
    const char *ruling = "// an author's ruling\n__DefRuling FMNMX\n  __SemanticPatch\n"
                         "replace \"Rd = Ra;\" with \"Rd = SrcB;\" because \"a test\"\n";
    CHECK(fd >= 0 && write(fd, ruling, strlen(ruling)) == (ssize_t)strlen(ruling));
    if (fd >= 0)
        close(fd);
    gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
    const char *add[] = {path};
    o.add = add;
    o.nadd = 1;
    gisa_isa *patched = NULL;
    CHECK(gisa_isa_load(&o, &patched, NULL) == GISA_OK);
    if (patched) {
        char why[300] = "", want[64];
        snprintf(want, sizeof want, "(%s:4:1 changed it)", path);
        CHECK(sim_native_implements(patched, optype(patched, "FMNMX"), why, sizeof why) == 0);
        CHECKF(strstr(why, want), "why: %s (want %s)", why, want);
        gisa_isa_free(patched);
    }
    unlink(path);
    free(e1);
    free(e2);
    free(e3);
    gisa_isa_free(t[0]);
    gisa_isa_free(t[1]);
    return test_summary();
}
