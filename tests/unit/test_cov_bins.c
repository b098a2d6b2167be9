/* The coverage bins beyond the universe's items, and user bins:
 *  - a directed integer program whose every bin count is known: value
 *    classes of sources, result classes, the carry-out predicate's
 *    outcomes, guard and exec-mask patterns, read-after-write distances; a
 *    narrow immediate's universe holds only the classes its field can;
 *  - floating-point crosses: FFMA's Ra x SrcB classes, rounding mode x
 *    result class;
 *  - user bins from a bins file: counts, errors located file:line:col with
 *    "did you mean", a file with an error adds nothing, a second definition
 *    of a name is refused, the JSON keeps them and merges them by name;
 *  - version 1 files (no bins) still read;
 *  - merging is associative and commutative: random partial coverages
 *    merged in random orders and groupings (by gisa_cov_merge and through
 *    the JSON) give the same file. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "cov/cov.h"
#include "testgen.h"
#include "testlib.h"
#include "covhelp.h"

static const char int_src[] = "IADD R1, P0, R2, R3\n" /* all lanes; carry out of lane 2 only */
                              "IADD R4, R1, 0x1\n"    /* R1 written 1 instruction before */
                              "@P2 IADD R5, R2, R3\n" /* P2 in lanes 0..3: mixed, partial */
                              "@P1 IADD R6, R2, R3\n" /* P1 false: false, none */
                              "FFMA R7, R8, R9, R10\n"  /* +inf x +0 in every lane */
                              "FADD.RM R11, R12, R13\n"; /* 1 + -2: -normal */

static const uint32_t r2[8] = {0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x100, 5, 0x12345};

static gisa_sim *int_sim(const gisa_isa *isa)
{
    gisa_sim *sim = load_program(isa, int_src);
    for (int l = 0; l < 32; l++) {
        gisa_sim_set(sim, 0, GISA_RF_R, 2, l, l < 8 ? r2[l] : 0);
        gisa_sim_set(sim, 0, GISA_RF_R, 3, l, l == 2);
        gisa_sim_set(sim, 0, GISA_RF_P, 2, l, l < 4);
        gisa_sim_set(sim, 0, GISA_RF_R, 8, l, 0x7f800000);
        gisa_sim_set(sim, 0, GISA_RF_R, 9, l, 0);
        gisa_sim_set(sim, 0, GISA_RF_R, 10, l, 0x3f800000);
        gisa_sim_set(sim, 0, GISA_RF_R, 12, l, 0x3f800000);
        gisa_sim_set(sim, 0, GISA_RF_R, 13, l, 0xc0000000);
    }
    return sim;
}

static const char bins_text[] = "# user bins\n"
                                "bin carry: IADD pu=true\n"
                                "bin zeros:  IADD   Ra=0 SrcB=0\n"
                                "bin partial: IADD exec=partial\n"
                                "bin inf0: FFMA Ra=+inf|-inf SrcB=+0|-0\n"
                                "bin rm_neg: FADD.RM Rd=-normal\n"
                                "bin never: FADD.RP\n";

static char *run_int(const gisa_isa *isa, const char *bins, gisa_cov **out)
{
    gisa_cov *cov;
    CHECK(gisa_cov_new(isa, &cov) == GISA_OK);
    if (bins) {
        gisa_diags *d = api_diags();
        CHECK(gisa_cov_load_bins(cov, "test.bins", bins, strlen(bins), d) == GISA_OK);
        test_dump_diags(d);
        gisa_diags_free(d);
    }
    return run_with_cov(cov, int_sim(isa), out);
}

static void expect_bins(const char *json, const char *optype, const char *group, const char *const *names,
                        const long long *want, int n)
{
    for (int i = 0; i < n; i++) {
        long long got = count_at(json, "optypes", optype, "bins", group, names[i], NULL);
        CHECKF(got == want[i], "%s %s %s: %lld, expected %lld", optype, group, names[i], got, want[i]);
    }
}

static void test_directed(const gisa_isa *isa)
{
    char *json = run_int(isa, NULL, NULL);
    static const char *const ints[] = {"0", "1", "-1", "MIN", "MAX", "2^n", "small", "other"};
    expect_bins(json, "IADD", "Ra value", ints, (const long long[]){52, 3, 2, 3, 2, 2, 2, 2}, 8);
    expect_bins(json, "IADD", "SrcB value", ints, (const long long[]){34, 34, 0, 0, 0, 0, 0, 0}, 8);
    expect_bins(json, "IADD", "Rd result", ints, (const long long[]){28, 28, 0, 3, 1, 2, 2, 4}, 8);
    expect_bins(json, "IADD", "pu outcome", (const char *const[]){"false", "true"}, (const long long[]){31, 1}, 2);
    expect_bins(json, "IADD", "guard", (const char *const[]){"true", "false", "mixed"}, (const long long[]){2, 1, 1},
                3);
    expect_bins(json, "IADD", "exec mask", (const char *const[]){"all", "none", "partial", "single"},
                (const long long[]){2, 1, 1, 0}, 4);
    static const char *const raw[] = {"1", "2", "3-4", "5-8", ">8", "none"};
    expect_bins(json, "IADD", "Ra RAW distance", raw, (const long long[]){1, 0, 0, 0, 0, 2}, 6);
    expect_bins(json, "IADD", "SrcB RAW distance", raw, (const long long[]){0, 0, 0, 0, 0, 2}, 6);
    expect_bins(json, "FFMA", "Ra x SrcB F32", (const char *const[]){"+inf x +0", "+0 x +inf"},
                (const long long[]){32, 0}, 2);
    expect_bins(json, "FADD", "rnd x Rd F32 result", (const char *const[]){"RM x -normal", "RN x -normal"},
                (const long long[]){32, 0}, 2);
    CHECK(count_at(json, "summary", "raw_distances", "hit", NULL) > 0);
    /* a narrow unsigned immediate (LOP3's 8-bit LUT) has no -1, MIN, MAX or other */
    CHECK(count_at(json, "optypes", "LOP3", "bins", "UImm8Lut value", "small", NULL) == 0);
    CHECK(count_at(json, "optypes", "LOP3", "bins", "UImm8Lut value", "MIN", NULL) == -1);
    CHECK(count_at(json, "optypes", "LOP3", "bins", "UImm8Lut value", "-1", NULL) == -1);
    CHECK(count_at(json, "optypes", "LOP3", "bins", "UImm8Lut value", "other", NULL) == -1);
    gisa_free(json);
}

static void test_user_bins(const gisa_isa *isa)
{
    gisa_cov *cov;
    char *json = run_int(isa, bins_text, &cov);
    static const struct {
        const char *name;
        long long n;
    } want[] = {{"carry", 1}, {"zeros", 26}, {"partial", 1}, {"inf0", 32}, {"rm_neg", 32}, {"never", 0}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        long long got = count_at(json, "user_bins", want[i].name, "count", NULL);
        CHECKF(got == want[i].n, "user bin %s: %lld, expected %lld", want[i].name, got, want[i].n);
    }
    CHECK(strstr(json, "\"definition\": \"IADD Ra=0 SrcB=0\"") != NULL); /* blanks collapsed */
    gisa_cov_summary s;
    gisa_cov_summary_get(cov, &s);
    CHECK(s.user_bins.hit == 5 && s.user_bins.total == 6);
    char *text = NULL;
    CHECK(gisa_cov_report(cov, &text) == GISA_OK && strstr(text, "never: 0, never hit (FADD.RP)"));
    gisa_free(text);
    CHECK(gisa_cov_report_html(cov, &text) == GISA_OK && strstr(text, "<h2 id=\"holes\">") &&
          strstr(text, "rm_neg") && strstr(text, "font-family"));
    gisa_free(text);

    /* a file without --bins adopts them by name; read twice, counts add */
    gisa_cov *other;
    gisa_diags *d = api_diags();
    CHECK(gisa_cov_new(isa, &other) == GISA_OK);
    CHECK(gisa_cov_read_json(other, "a.json", json, strlen(json), d) == GISA_OK);
    CHECK(gisa_cov_read_json(other, "a.json", json, strlen(json), d) == GISA_OK);
    char *twice = api_cov_json(other);
    CHECK(count_at(twice, "user_bins", "zeros", "count", NULL) == 52);
    gisa_free(twice);
    /* the same name defined otherwise is refused, in a bins file or a coverage file */
    gisa_cov *third;
    CHECK(gisa_cov_new(isa, &third) == GISA_OK);
    static const char other_def[] = "bin zeros: IADD Ra=1\n";
    CHECK(gisa_cov_load_bins(third, "o.bins", other_def, strlen(other_def), d) == GISA_OK);
    gisa_diags_clear(d);
    CHECK(gisa_cov_read_json(third, "a.json", json, strlen(json), d) == GISA_ERR_INPUT);
    CHECK(test_diags_contain(d, "defined otherwise here: user bin 'zeros'"));
    CHECK(gisa_cov_merge(third, cov) == GISA_ERR_INPUT);
    gisa_diags_clear(d);
    CHECK(gisa_cov_load_bins(cov, "again.bins", "bin carry: IADD pu=false\n", 25, d) == GISA_ERR_INPUT);
    CHECK(test_diags_contain(d, "again.bins:1:5: error: bin 'carry' is defined twice"));
    gisa_cov_free(third);
    gisa_cov_free(other);

    /* errors: located, "did you mean", and nothing added */
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"bin a: FADX\n", "t.bins:1:8: error: unknown optype; did you mean 'FADD'?"},
        {"\nbin a: FADD.RQ\n", "t.bins:2:13: error: FADD has no modifier value like this; did you mean 'RN'?"},
        {"bin a: FADD Rq=+0\n", "t.bins:1:13: error: FADD has no such operand (expected guard, exec or one of: Ra"},
        {"bin a: FADD Ra=+zero\n", "t.bins:1:16: error: unknown floating-point class"},
        {"bin a: IADD Ra=huge\n", "t.bins:1:16: error: unknown integer class (expected one of: 0, 1, -1, MIN"},
        {"bin a: IADD exec=some\n", "t.bins:1:18: error: unknown exec-mask pattern"},
        {"bin a IADD\n", "t.bins:1:7: error: expected 'bin NAME: OPTYPE"},
        {"bin b: IADD\nbinx\n", "t.bins:2:1: error: expected 'bin NAME"},
        {"bin b: IADD\nbin b: IADD\n", "t.bins:2:5: error: bin 'b' is defined twice"},
        {"bin c:\n", "t.bins:1:6: error: bin 'c' has no definition"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        gisa_cov *fresh;
        CHECK(gisa_cov_new(isa, &fresh) == GISA_OK);
        gisa_diags_clear(d);
        CHECKF(gisa_cov_load_bins(fresh, "t.bins", bad[i].text, strlen(bad[i].text), d) == GISA_ERR_INPUT, "%zu", i);
        CHECKF(test_diags_contain(d, bad[i].message), "bad bins %zu: expected '%s'", i, bad[i].message);
        if (!test_diags_contain(d, bad[i].message))
            test_dump_diags(d);
        CHECKF(fresh->nuser == 0, "bad bins %zu added a bin", i);
        gisa_cov_free(fresh);
    }
    gisa_diags_free(d);
    gisa_free(json);
    gisa_cov_free(cov);
}

/* A version 1 file (before bins) reads; its counts add */
static void test_version1(const gisa_isa *isa)
{
    gisa_cov *cov;
    CHECK(gisa_cov_new(isa, &cov) == GISA_OK);
    static const char old[] = "{\"format\": \"gisa-coverage\", \"version\": 1, \"executed\": 4, \"optypes\": "
                              "{\"FADD\": {\"executed\": 4, \"modifiers\": {\"rnd\": {\"RM\": 4}}}}}";
    gisa_diags *d = api_diags();
    CHECK(gisa_cov_read_json(cov, "old.json", old, strlen(old), d) == GISA_OK);
    char *json = api_cov_json(cov);
    CHECK(count_at(json, "version", NULL) == 2 && count_at(json, "optypes", "FADD", "modifiers", "rnd", "RM", NULL) == 4);
    gisa_free(json);
    /* a bin group this model lacks: its zero counts are ignored, others refused */
    static const char zero[] = "{\"format\": \"gisa-coverage\", \"version\": 2, \"optypes\": {\"FADD\": "
                               "{\"bins\": {\"Rq gone\": {\"x\": 0}}}}}";
    static const char some[] = "{\"format\": \"gisa-coverage\", \"version\": 2, \"optypes\": {\"FADD\": "
                               "{\"bins\": {\"Rq gone\": {\"x\": 3}}}}}";
    CHECK(gisa_cov_read_json(cov, "zero.json", zero, strlen(zero), d) == GISA_OK);
    CHECK(gisa_cov_read_json(cov, "some.json", some, strlen(some), d) == GISA_ERR_INPUT);
    CHECK(test_diags_contain(d, "optypes.FADD.bins.Rq gone: no such item 'x'"));
    gisa_diags_free(d);
    gisa_cov_free(cov);
}

/* ------------------------------------------------------------ merging */

#define NPART 6
#define NWORDS 60

static gisa_cov *partial(const gisa_isa *isa, tg_rng *r, int with_bins)
{
    gisa_cov *cov;
    CHECK(gisa_cov_new(isa, &cov) == GISA_OK);
    if (with_bins) {
        /* each part its own subset of the bins, in its own order */
        char text[512] = "";
        static const char *const lines[] = {"bin z: IADD Ra=0\n", "bin y: FADD.RN\n", "bin x: IADD exec=all\n",
                                            "bin w: FFMA Rd=+normal\n"};
        for (int i = 0; i < 4; i++)
            if (tg_below(r, 2))
                strcat(text, lines[(i + with_bins) % 4]);
        gisa_diags *d = api_diags();
        CHECK(gisa_cov_load_bins(cov, "p.bins", text, strlen(text), d) == GISA_OK);
        gisa_diags_free(d);
    }
    gisa_word words[NWORDS];
    gisa_sim *sim;
    gisa_sim_new(isa, gisa_sim_max_regs(isa), 1, &sim);
    tg_program(isa, r, words, NWORDS);
    gisa_sim_load(sim, words, NWORDS);
    for (unsigned i = 0; i < 32; i++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(sim, 0, GISA_RF_R, i, l, tg_below(r, 2) ? (uint32_t)tg_next(r) : (uint32_t)tg_below(r, 3));
    for (int l = 0; l < 32; l++)
        gisa_sim_set(sim, 0, GISA_RF_P, 1, l, (uint32_t)tg_below(r, 2));
    gisa_cov_attach(cov, sim);
    gisa_sim_run(sim, NULL);
    gisa_sim_free(sim);
    return cov;
}

/* Merges parts[order[lo..hi)] as a random tree, by gisa_cov_merge or
 * through JSON text */
static gisa_cov *merge_tree(const gisa_isa *isa, gisa_cov **parts, const int *order, int lo, int hi, tg_rng *r)
{
    gisa_cov *into;
    CHECK(gisa_cov_new(isa, &into) == GISA_OK);
    if (hi - lo == 1) {
        CHECK(gisa_cov_merge(into, parts[order[lo]]) == GISA_OK);
        return into;
    }
    int mid = lo + 1 + (int)tg_below(r, (uint64_t)(hi - lo - 1));
    gisa_cov *a = merge_tree(isa, parts, order, lo, mid, r), *b = merge_tree(isa, parts, order, mid, hi, r);
    gisa_cov *first = tg_below(r, 2) ? a : b, *second = first == a ? b : a;
    if (tg_below(r, 2)) {
        CHECK(gisa_cov_merge(into, first) == GISA_OK && gisa_cov_merge(into, second) == GISA_OK);
    } else {
        gisa_diags *d = api_diags();
        char *ja = api_cov_json(first), *jb = api_cov_json(second);
        CHECK(gisa_cov_read_json(into, "a", ja, strlen(ja), d) == GISA_OK);
        CHECK(gisa_cov_read_json(into, "b", jb, strlen(jb), d) == GISA_OK);
        gisa_free(ja);
        gisa_free(jb);
        gisa_diags_free(d);
    }
    gisa_cov_free(a);
    gisa_cov_free(b);
    return into;
}

static void test_merge_laws(const gisa_isa *isa)
{
    tg_rng r = {0xB175u};
    gisa_cov *parts[NPART];
    for (int i = 0; i < NPART; i++)
        parts[i] = partial(isa, &r, i % 3 ? i : 0);
    char *ref = NULL;
    for (int trial = 0; trial < 12; trial++) {
        int order[NPART];
        for (int i = 0; i < NPART; i++)
            order[i] = i;
        for (int i = NPART - 1; i > 0; i--) {
            int j = (int)tg_below(&r, (uint64_t)i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        gisa_cov *m = merge_tree(isa, parts, order, 0, NPART, &r);
        char *json = api_cov_json(m);
        if (!ref)
            ref = json;
        else {
            CHECKF(!strcmp(ref, json), "merge order %d gives another file", trial);
            gisa_free(json);
        }
        gisa_cov_free(m);
    }
    CHECK(ref && count_at(ref, "summary", "crosses", "hit", NULL) > 0 && strstr(ref, "\"user_bins\": {\n  \"w\""));
    gisa_free(ref);
    for (int i = 0; i < NPART; i++)
        gisa_cov_free(parts[i]);
}

int main(void)
{
    gisa_isa *isa = test_isa_target("gisa128");
    test_directed(isa);
    test_user_bins(isa);
    test_version1(isa);
    test_merge_laws(isa);
    return test_summary();
}
