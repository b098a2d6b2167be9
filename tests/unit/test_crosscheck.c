/* gisa lint --check-semantics's comparison (src/sim/crosscheck.c) catches a
 * broken C function: a copy of the C tables whose FADD adds one unit in the
 * last place to lane 5's result must be reported as FADD disagreeing, in
 * lane 5, with the native value one above the doc engine's, and no other
 * optype; the real tables agree on the same words; the same seed gives the
 * same report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/bind.h"
#include "sim/crosscheck.h"
#include "sim/ops.h"
#include "spec/model.h"
#include "testlib.h"

#define LANE 5

static sim_fn real_fadd;

static void broken_fadd(sim_exec *x)
{
    real_fadd(x);
    if (x->mask >> LANE & 1)
        x->d[LANE] += 1; /* one ulp up (or the next NaN payload) in one lane */
}

static long check(const gisa_isa *isa, const sim_opdef *const *fam, const char *only, sim_xc_tally *tally,
                  strbuf *report)
{
    sim_xc_options o = {7, 20, 3, only};
    sb_init(report);
    return sim_crosscheck(isa, fam, sim_nfamilies, &o, tally, report);
}

int main(void)
{
    gisa_isa *isa;
    CHECK(api_load_embedded("gisa128", &isa, NULL) == GISA_OK);
    if (!isa)
        return test_summary();
    /* the tables with FADD broken */
    size_t n = 0;
    while (sim_ops_f32[n].optype)
        n++;
    sim_opdef *f32 = calloc(n + 1, sizeof *f32);
    const sim_opdef **fam = calloc(sim_nfamilies, sizeof *fam);
    sim_xc_tally *tally = calloc((size_t)isa->noptypes, sizeof *tally);
    CHECK(f32 && fam && tally);
    if (!f32 || !fam || !tally)
        return test_summary();
    memcpy(f32, sim_ops_f32, (n + 1) * sizeof *f32);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f32[i].optype, "FADD")) {
            real_fadd = f32[i].fn;
            f32[i].fn = broken_fadd;
        }
    CHECK(real_fadd != NULL);
    for (size_t f = 0; f < sim_nfamilies; f++)
        fam[f] = sim_families[f] == sim_ops_f32 ? f32 : sim_families[f];

    strbuf rep;
    long bad = check(isa, fam, NULL, tally, &rep);
    printf("%s", rep.s ? rep.s : "");
    CHECKF(bad > 0, "the broken FADD is not reported (%ld disagreements)", bad);
    for (int t = 0; t < isa->noptypes; t++)
        CHECKF(!tally[t].bad == !!strcmp(isa->optypes[t].name, "FADD"), "%s: %ld disagreements",
               isa->optypes[t].name, tally[t].bad);
    /* each report: FADD, lane 5, native = doc + 1, the inputs of that lane */
    int reports = 0;
    for (const char *p = rep.s; p && (p = strstr(p, "DISAGREE ")); p++) {
        int lane = -1, reg = -1, got = 0;
        unsigned nat = 0, doc = 0;
        const char *eol = strchr(p, '\n'), *at = strstr(p, " lane ");
        if (at && eol && at < eol)
            got = sscanf(at, " lane %d: R%d native 0x%x doc 0x%x", &lane, &reg, &nat, &doc);
        CHECKF(!strncmp(p, "DISAGREE FADD: ", 15) && strstr(p + 15, "FADD") && strstr(p + 15, "FADD") < at && got == 4 && lane == LANE &&
                   nat == doc + 1, "report: %.120s", p);
        const char *in = strstr(p, "\n  inputs:");
        CHECKF(in && strstr(in, " R") && strstr(in, "=0x"), "the inputs of the lane are shown: %.160s", p);
        reports++;
    }
    CHECKF(reports == 3, "the first three disagreements of FADD are described (%d)", reports);

    /* the same seed, the same report; the real tables agree on those words */
    strbuf again;
    check(isa, fam, NULL, tally, &again);
    CHECK(rep.s && again.s && !strcmp(rep.s, again.s));
    strbuf good;
    CHECK(check(isa, sim_families, "FADD", tally, &good) == 0);
    for (int t = 0; t < isa->noptypes; t++)
        CHECK(tally[t].skipped == !!strcmp(isa->optypes[t].name, "FADD"));
    sb_free(&rep);
    sb_free(&again);
    sb_free(&good);
    free(tally);
    free(fam);
    free(f32);
    gisa_isa_free(isa);
    return test_summary();
}
