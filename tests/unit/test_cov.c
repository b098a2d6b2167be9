/* Functional coverage (gisa_cov_*):
 *  - a directed program whose every count is known: opcode and modifier
 *    counts, combinations, operand kinds and decorations, the FP classes
 *    of F32, F64, F16 and BF16 sources lane by lane (one bit pattern of
 *    each class per lane), a source that is also the destination (its old
 *    value counts), an instruction skipped by its guard (counts nothing)
 *    and one executed by 4 lanes (counts 4 lane values);
 *  - Fermi: the |x| rule makes MUFU (no float immediate) an F32 optype;
 *  - recording by stepping gives the same coverage as a run;
 *  - merging adds up; the JSON reads back to the same text, reading adds;
 *    bad files are refused whole;
 *  - random programs of both targets (valid words over the whole model):
 *    nothing is hit outside the universe (the totals do not move), every
 *    executed instruction lands in one combination, and the opcode counts
 *    add up to the instructions executed. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "cov/cov.h"
#include "testgen.h"
#include "testlib.h"
#include "covhelp.h"

/* ------------------------------------------------------------ helpers */

static void set_lanes(gisa_sim *sim, unsigned reg, const uint32_t *vals, int n)
{
    for (int l = 0; l < 32; l++)
        gisa_sim_set(sim, 0, GISA_RF_R, reg, l, l < n ? vals[l] : 0);
}

static const char *const classes[] = {"+0", "-0", "+subnormal", "-subnormal", "+normal", "-normal",
                                      "+inf", "-inf", "qNaN", "sNaN"};

/* One pattern of each class, in `classes` order */
static const uint32_t f32_pat[10] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x3f800000,
                                     0xc0000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001};
static const uint64_t f64_pat[10] = {0, 0x8000000000000000, 1, 0x800fffffffffffff, 0x3ff0000000000000,
                                     0xc000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
                                     0x7ff8000000000000, 0xfff0000000000001};
static const uint16_t f16_pat[10] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x3c00, 0xc000, 0x7c00, 0xfc00, 0x7e00, 0x7c01};
static const uint16_t bf16_pat[10] = {0x0000, 0x8000, 0x0001, 0x807f, 0x3f80, 0xc000, 0x7f80, 0xff80, 0x7fc0, 0xff81};

static void expect_classes(const char *json, const char *optype, const char *operand, const char *fmt,
                           const long long *want)
{
    for (int k = 0; k < 10; k++) {
        long long got = count_at(json, "optypes", optype, "operands", operand, "fp_classes", fmt, classes[k], NULL);
        CHECKF(got == want[k], "%s %s %s %s: %lld, expected %lld", optype, operand, fmt, classes[k], got, want[k]);
    }
}

/* ------------------------------------------------------------ the directed program */

static const char directed_src[] = "FADD R1, R2, R3\n"          /* F32 classes of R3, all lanes */
                                   "FMUL R4, R4, RZ\n"          /* Ra is also Rd: +inf * 0 = NaN */
                                   "HADD2 R6, R5, R5\n"         /* F16 halves */
                                   "HADD2.BF16_V2 R7, R14, R14\n" /* BF16 halves */
                                   "DADD R8, R10, R12\n"        /* F64 pairs */
                                   "@P1 FADD.RP R20, R2, R3\n"  /* P1 false: skipped */
                                   "@P2 FADD.RM R21, R2, R3\n"  /* P2 in lanes 0..3 */
                                   "FFMA R22, -R2, c[0x0][0x8], R3\n"
                                   "IADD R23, R2, 0x5\n";

static gisa_sim *directed_sim(const gisa_isa *isa)
{
    gisa_sim *sim = load_program(isa, directed_src);
    uint32_t v[32];
    set_lanes(sim, 3, f32_pat, 10);
    for (int l = 0; l < 32; l++)
        gisa_sim_set(sim, 0, GISA_RF_R, 4, l, 0x7f800000);
    for (int l = 0; l < 10; l++)
        v[l] = (uint32_t)f16_pat[9 - l] << 16 | f16_pat[l];
    set_lanes(sim, 5, v, 10);
    for (int l = 0; l < 10; l++)
        v[l] = (uint32_t)bf16_pat[9 - l] << 16 | bf16_pat[l];
    set_lanes(sim, 14, v, 10);
    for (int l = 0; l < 10; l++)
        v[l] = (uint32_t)f64_pat[l];
    set_lanes(sim, 10, v, 10);
    for (int l = 0; l < 10; l++)
        v[l] = (uint32_t)(f64_pat[l] >> 32);
    set_lanes(sim, 11, v, 10);
    for (int l = 0; l < 4; l++)
        gisa_sim_set(sim, 0, GISA_RF_P, 2, l, 1);
    return sim;
}

static char *directed_run(const gisa_isa *isa, gisa_cov **out)
{
    gisa_cov *cov;
    CHECK(gisa_cov_new(isa, &cov) == GISA_OK);
    return run_with_cov(cov, directed_sim(isa), out);
}

static void test_directed(const gisa_isa *isa)
{
    char *j = directed_run(isa, NULL);
    CHECK(count_at(j, "executed", NULL) == 8);
    CHECK(count_at(j, "skipped", NULL) == 1);
    CHECK(count_at(j, "opcodes", "FADD_RR", "executed", NULL) == 2);
    CHECK(count_at(j, "opcodes", "FADD_RR", "skipped", NULL) == 1);
    CHECK(count_at(j, "opcodes", "FFMA_RCR", "executed", NULL) == 1);
    CHECK(count_at(j, "opcodes", "IADD_RI", "executed", NULL) == 1);
    CHECK(count_at(j, "opcodes", "IADD_RR", "executed", NULL) == 0);
    /* the skipped FADD.RP counts nothing */
    CHECK(count_at(j, "optypes", "FADD", "modifiers", "rnd", "RN", NULL) == 1);
    CHECK(count_at(j, "optypes", "FADD", "modifiers", "rnd", "RM", NULL) == 1);
    CHECK(count_at(j, "optypes", "FADD", "modifiers", "rnd", "RP", NULL) == 0);
    CHECK(count_at(j, "optypes", "FADD", "modifiers", "FTZ", "(none)", NULL) == 2);
    CHECK(count_at(j, "optypes", "FADD", "modifiers", "FTZ", "FTZ", NULL) == 0);
    CHECK(count_at(j, "optypes", "FADD", "combinations", "FADD.RN", NULL) == 1);
    CHECK(count_at(j, "optypes", "FADD", "combinations", "FADD.RM", NULL) == 1);
    CHECK(count_at(j, "optypes", "FADD", "combinations", "FADD.RP", NULL) == 0);
    CHECK(count_at(j, "optypes", "FADD", "combinations", "FADD.FTZ.SAT.RZ", NULL) == 0);
    CHECK(count_at(j, "optypes", "HADD2", "modifiers", "hfmt_v2", "BF16_V2", NULL) == 1);
    CHECK(count_at(j, "optypes", "HADD2", "modifiers", "Ra.hsel2", "H1_H0", NULL) == 2);
    /* BF16 with .FTZ does not encode (an exception of the model) */
    CHECK(count_at(j, "optypes", "HADD2", "combinations", "HADD2.BF16_V2.FTZ", NULL) == -1);
    CHECK(count_at(j, "optypes", "HADD2", "combinations", "HADD2.F16_V2.FTZ", NULL) == 0);
    /* operand kinds and decorations */
    CHECK(count_at(j, "optypes", "FFMA", "operands", "Ra", "decorations", "-", NULL) == 1);
    CHECK(count_at(j, "optypes", "FFMA", "operands", "Ra", "decorations", "|x|", NULL) == 0);
    CHECK(count_at(j, "optypes", "FFMA", "operands", "SrcB", "kinds", "c[][]", NULL) == 1);
    CHECK(count_at(j, "optypes", "FFMA", "operands", "SrcC", "kinds", "R", NULL) == 1);
    CHECK(count_at(j, "optypes", "FMUL", "operands", "SrcB", "kinds", "RZ", NULL) == 1);
    CHECK(count_at(j, "optypes", "IADD", "operands", "SrcB", "kinds", "imm", NULL) == 1);
    CHECK(count_at(j, "optypes", "DADD", "operands", "SrcB", "kinds", "R pair", NULL) == 1);
    CHECK(count_at(j, "optypes", "IADD", "operands", "SrcB", "fp_classes", NULL) == -1);
    /* MOV_I has no .64 form (an exception of the model): MOV.64's Ra is never an immediate */
    CHECK(count_at(j, "optypes", "MOV", "operands", "SrcA", "kinds", "imm", NULL) == 0);
    CHECK(count_at(j, "optypes", "MOV", "operands", "Ra", "kinds", "imm", NULL) == -1);
    CHECK(count_at(j, "optypes", "MOV", "operands", "Ra", "kinds", "c[][]", NULL) == 0);
    /* F32: lanes 0..9 one class each, the rest +0; the 4 lanes of @P2 FADD.RM
     * add patterns 0..3 */
    long long fadd[10] = {23 + 1, 1 + 1, 1 + 1, 1 + 1, 1, 1, 1, 1, 1, 1};
    expect_classes(j, "FADD", "SrcB", "F32", fadd);
    long long ffma_c[10] = {23, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    expect_classes(j, "FFMA", "SrcC", "F32", ffma_c);
    /* R4 was +inf in every lane before FMUL R4, R4, RZ wrote NaN */
    long long fmul_a[10] = {0, 0, 0, 0, 0, 0, 32, 0, 0, 0};
    expect_classes(j, "FMUL", "Ra", "F32", fmul_a);
    long long fmul_b[10] = {32, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    expect_classes(j, "FMUL", "SrcB", "F32", fmul_b);
    /* halves: both of lanes 0..9 (low pattern l, high 9 - l), 44 zero halves */
    long long halves[10] = {46, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    expect_classes(j, "HADD2", "Ra", "F16", halves);
    expect_classes(j, "HADD2", "SrcB", "BF16", halves);
    CHECK(count_at(j, "optypes", "HADD2", "operands", "Ra", "fp_classes", "BF16", "+0", NULL) == 46);
    long long f64a[10] = {23, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    expect_classes(j, "DADD", "Ra", "F64", f64a);
    CHECK(count_at(j, "optypes", "DADD", "operands", "SrcB", "fp_classes", "F64", "+0", NULL) == 32);
    CHECK(count_at(j, "optypes", "DADD", "operands", "Ra", "fp_classes", "F32", "+0", NULL) == -1);

    gisa_cov_summary s;
    gisa_cov *cov;
    gisa_cov_new(isa, &cov);
    CHECK(gisa_cov_summary_get(cov, &s) == GISA_OK && s.opcodes.hit == 0 && s.opcodes.total == gisa_isa_opcode_count(isa));
    CHECK(s.optypes.total == gisa_isa_optype_count(isa));
    gisa_cov_free(cov);
    char *report;
    gisa_free(directed_run(isa, &cov));
    CHECK(gisa_cov_summary_get(cov, &s) == GISA_OK && s.executed == 8 && s.skipped == 1 && s.opcodes.hit == 6);
    report = api_cov_report(cov);
    CHECK(report && strstr(report, "FADD: executed 2; opcodes 1/4 (never: FADD_RU FADD_RI FADD_RC)"));
    CHECK(report && strstr(report, "  rnd: values 2/4 (never: RP, RZ)"));
    CHECK(report && strstr(report, "IMUL: never executed (IMUL_RR IMUL_RU IMUL_RI IMUL_RC)"));
    CHECK(report && strstr(report, "not encoded (no field; not counted): rnd, F32"));
    gisa_free(report);
    gisa_cov_free(cov);
    gisa_free(j);
}

/* Stepping each instruction and recording its commit gives the coverage
 * of a run. */
static void test_step(const gisa_isa *isa)
{
    char *run = directed_run(isa, NULL);
    gisa_cov *cov;
    gisa_cov_new(isa, &cov);
    gisa_sim *sim = directed_sim(isa);
    gisa_sim_commit c;
    while (!api_done(sim, 0))
        CHECK(gisa_sim_step(sim, 0, &c, NULL) == GISA_OK && gisa_cov_record(cov, sim, &c) == GISA_OK);
    char *stepped = api_cov_json(cov);
    CHECK(run && stepped && !strcmp(run, stepped));
    CHECK(gisa_cov_record(cov, NULL, &c) == GISA_ERR_USAGE); /* executed: needs the simulator */
    CHECK(gisa_cov_record(NULL, sim, &c) == GISA_ERR_USAGE);
    /* a record with more effects than its array holds */
    gisa_sim_commit many = c;
    many.neffects = GISA_SIM_MAX_EFFECTS + 1;
    CHECK(gisa_cov_record(cov, sim, &many) == GISA_ERR_USAGE);
    /* a simulator of another ISA: its opcodes are not this coverage's */
    gisa_isa *fermi = test_isa_target("fermi");
    gisa_sim *other = NULL;
    CHECK(fermi && gisa_sim_new(fermi, 16, 1, &other) == GISA_OK);
    CHECK(gisa_sim_isa(other) == fermi && gisa_sim_isa(sim) == isa && gisa_sim_isa(NULL) == NULL);
    CHECK(gisa_cov_attach(cov, other) == GISA_ERR_USAGE);
    CHECK(gisa_cov_record(cov, other, &c) == GISA_ERR_USAGE);
    char *after = api_cov_json(cov);
    CHECK(after && stepped && !strcmp(after, stepped)); /* nothing was counted */
    gisa_free(after);
    gisa_sim_free(other);
    gisa_free(run);
    gisa_free(stepped);
    gisa_sim_free(sim);
    gisa_cov_free(cov);
}

static void test_merge_and_json(const gisa_isa *isa)
{
    gisa_cov *a, *b, *fresh;
    char *ja = directed_run(isa, &a);
    gisa_free(directed_run(isa, &b));
    CHECK(gisa_cov_merge(a, b) == GISA_OK);
    char *twice = api_cov_json(a);
    CHECK(count_at(twice, "executed", NULL) == 16);
    CHECK(count_at(twice, "optypes", "FADD", "operands", "SrcB", "fp_classes", "F32", "+0", NULL) == 48);
    CHECK(count_at(twice, "optypes", "FADD", "combinations", "FADD.RM", NULL) == 2);
    CHECK(count_at(twice, "summary", "opcodes", "hit", NULL) == count_at(ja, "summary", "opcodes", "hit", NULL));
    gisa_isa *fermi = test_isa_target("fermi");
    gisa_cov *other;
    gisa_cov_new(fermi, &other);
    CHECK(gisa_cov_merge(a, other) == GISA_ERR_USAGE);

    /* write -> read -> write is the identity; reading again adds */
    gisa_diags *d = api_diags();
    gisa_cov_new(isa, &fresh);
    CHECK(gisa_cov_read_json(fresh, "a.json", ja, strlen(ja), d) == GISA_OK);
    char *back = api_cov_json(fresh);
    CHECK(back && !strcmp(back, ja));
    CHECK(gisa_cov_read_json(fresh, "a.json", ja, strlen(ja), d) == GISA_OK);
    char *added = api_cov_json(fresh);
    CHECK(added && !strcmp(added, twice));
    CHECK(gisa_diags_count(d) == 0);

    /* bad files change nothing and say why */
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"not json", "not JSON"},
        {"{\"format\": \"other\"}", "not a coverage file"},
        {"{\"format\": \"gisa-coverage\", \"version\": 3}", "version is not 1 to 2"},
        {"{\"format\": \"gisa-coverage\", \"version\": 1, \"target\": \"fermi\"}", "coverage of target fermi, not gisa128"},
        {"{\"format\": \"gisa-coverage\", \"version\": 1, \"executed\": 5, \"opcodes\": {\"FOO\": {\"executed\": 1}}}",
         "no opcode 'FOO'"},
        {"{\"format\": \"gisa-coverage\", \"version\": 1, \"optypes\": {\"FADD\": {\"modifiers\": {\"rnd\": {\"RQ\": 1}}}}}",
         "optypes.FADD.modifiers.rnd: no such item 'RQ'"},
        {"{\"format\": \"gisa-coverage\", \"version\": 1, \"executed\": -1}", "not a count"},
        {"{\"format\": \"gisa-coverage\", \"version\": 1, \"optypes\": {\"FADD\": {\"operands\": {\"Rd\": {}}}}}",
         "no source operand 'Rd'"},
        {"{\"format\": \"gisa-coverage\", \"version\": 1, \"executed\": 3, \"extra\": 1}", "unknown key 'extra'"},
        {"{\"format\": \"gisa-coverage\", \"version\": 1, \"optypes\": {\"FADD\": {\"combinations\": {\"FADD.RQ\": 2}}}}",
         "no such item 'FADD.RQ'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gisa_diags_clear(d);
        CHECKF(gisa_cov_read_json(fresh, "bad.json", bad[i].text, strlen(bad[i].text), d) == GISA_ERR_INPUT, "%zu", i);
        CHECKF(test_diags_contain(d, bad[i].message), "bad file %zu: expected '%s'", i, bad[i].message);
        char *now = api_cov_json(fresh);
        CHECKF(now && !strcmp(now, twice), "bad file %zu changed the coverage", i);
        gisa_free(now);
    }
    /* another target: one error, not a second one about the rest of the file */
    static const char other_target[] = "{\"format\": \"gisa-coverage\", \"version\": 1, \"target\": \"fermi\", \"executed\": 3}";
    gisa_diags_clear(d);
    CHECK(gisa_cov_read_json(fresh, "t.json", other_target, strlen(other_target), d) == GISA_ERR_INPUT);
    CHECKF(gisa_diags_count(d) == 1, "%zu diagnostics", gisa_diags_count(d));
    /* an empty file, as mktemp makes one, is an empty coverage */
    gisa_diags_clear(d);
    CHECK(gisa_cov_read_json(fresh, "empty.json", "", 0, d) == GISA_OK && gisa_diags_count(d) == 0);
    CHECK(gisa_cov_read_json(fresh, "blank.json", " \n", 2, d) == GISA_OK && gisa_diags_count(d) == 0);
    CHECK(gisa_cov_read_json(fresh, "null.json", NULL, 0, d) == GISA_OK && gisa_diags_count(d) == 0);
    char *still = api_cov_json(fresh);
    CHECK(still && !strcmp(still, twice));
    gisa_free(still);
    /* an item the model no longer has is ignored when its count is 0 */
    static const char old[] = "{\"format\": \"gisa-coverage\", \"version\": 1, \"optypes\": {\"FADD\": "
                              "{\"modifiers\": {\"rnd\": {\"RQ\": 0, \"RN\": 0}}}}}";
    gisa_diags_clear(d);
    CHECK(gisa_cov_read_json(fresh, "old.json", old, strlen(old), d) == GISA_OK && gisa_diags_count(d) == 0);
    gisa_diags_free(d);
    gisa_free(ja);
    gisa_free(twice);
    gisa_free(back);
    gisa_free(added);
    gisa_cov_free(a);
    gisa_cov_free(b);
    gisa_cov_free(fresh);
    gisa_cov_free(other);
}

/* Fermi's MUFU has no float immediate: its |x| source makes it F32. */
static void test_fermi(void)
{
    gisa_isa *isa = test_isa_target("fermi");
    gisa_sim *sim = load_program(isa, "MUFU.RCP R1, -R3;\nFADD R2, R3, F0.5;\n");
    set_lanes(sim, 3, f32_pat, 10);
    gisa_cov *cov;
    gisa_cov_new(isa, &cov);
    gisa_cov_attach(cov, sim);
    CHECK(gisa_sim_run(sim, NULL) == GISA_OK);
    char *j = api_cov_json(cov);
    long long want[10] = {23, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    expect_classes(j, "MUFU", "Ra", "F32", want);
    expect_classes(j, "FADD", "Ra", "F32", want);
    CHECK(count_at(j, "optypes", "MUFU", "operands", "Ra", "decorations", "-", NULL) == 1);
    CHECK(count_at(j, "optypes", "MUFU", "modifiers", "mufu", "RCP", NULL) == 1);
    CHECK(count_at(j, "optypes", "FADD", "operands", "SrcB", "kinds", "f32 imm", NULL) == 1);
    /* .SAT spells the value of .FTZ: no word decodes as it, so it is no value of its own */
    CHECK(count_at(j, "optypes", "MUFU", "modifiers", "ftz", "FTZ", NULL) == 0);
    CHECK(count_at(j, "optypes", "MUFU", "modifiers", "ftz", "SAT", NULL) == -1);
    CHECK(count_at(j, "optypes", "MUFU", "combinations", "MUFU.RCP.SAT", NULL) == -1);
    CHECK(count_at(j, "optypes", "MUFU", "combinations", "MUFU.RCP.FTZ", NULL) == 0);
    gisa_free(j);
    gisa_sim_free(sim);
    gisa_cov_free(cov);
}

/* ------------------------------------------------------------ random programs */

#define NWORDS 60

static void random_state(gisa_sim *s, tg_rng *r)
{
    static const uint32_t special[] = {0, 0x80000000, 1, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x3f800000};
    for (unsigned i = 0; i < gisa_sim_regs(s); i++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(s, 0, GISA_RF_R, i, l, tg_below(r, 3) ? (uint32_t)tg_next(r) : special[tg_below(r, 8)]);
    for (unsigned i = 0; i < 7; i++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(s, 0, GISA_RF_P, i, l, (uint32_t)tg_below(r, 2));
    for (unsigned i = 0; i < 63; i++)
        gisa_sim_set(s, 0, GISA_RF_UR, i, 0, (uint32_t)tg_next(r));
}

static int same_totals(const gisa_cov_summary *a, const gisa_cov_summary *b)
{
    return a->opcodes.total == b->opcodes.total && a->optypes.total == b->optypes.total &&
           a->modifier_values.total == b->modifier_values.total && a->combinations.total == b->combinations.total &&
           a->operand_kinds.total == b->operand_kinds.total && a->decorations.total == b->decorations.total &&
           a->fp_classes.total == b->fp_classes.total && a->value_classes.total == b->value_classes.total &&
           a->results.total == b->results.total && a->patterns.total == b->patterns.total &&
           a->raw_distances.total == b->raw_distances.total && a->crosses.total == b->crosses.total;
}

static void test_random(const char *target, int programs)
{
    gisa_isa *isa = test_isa_target(target);
    gisa_cov *cov;
    gisa_cov_summary empty, s;
    CHECK(gisa_cov_new(isa, &cov) == GISA_OK);
    gisa_cov_summary_get(cov, &empty);
    tg_rng r = {0xC0FFEEu + (uint64_t)strlen(target)};
    gisa_word words[NWORDS];
    for (int p = 0; p < programs; p++) {
        gisa_sim *sim;
        gisa_sim_new(isa, gisa_sim_max_regs(isa), 1, &sim);
        tg_program(isa, &r, words, NWORDS);
        gisa_sim_load(sim, words, NWORDS);
        random_state(sim, &r);
        gisa_cov_attach(cov, sim);
        gisa_sim_run(sim, NULL);
        gisa_sim_free(sim);
    }
    gisa_cov_summary_get(cov, &s);
    CHECKF(same_totals(&empty, &s), "%s: something was hit outside the universe", target);
    CHECKF(s.opcodes.hit > s.opcodes.total / 2 && s.modifier_values.hit > 0 && s.fp_classes.hit > 0 &&
               s.combinations.hit > 0 && s.operand_kinds.hit > 0 && s.decorations.hit > 0,
           "%s: random programs hit little", target);
    CHECK(s.executed + s.skipped >= (uint64_t)programs);
    /* every executed instruction is in its opcode's count and in one combination */
    uint64_t sum = 0;
    for (int i = 0; i < cov->nopcodes; i++)
        sum += cov->opcodes[i].executed;
    CHECKF(sum == s.executed, "%s: opcode counts add up to %llu, not %llu", target, (unsigned long long)sum,
           (unsigned long long)s.executed);
    for (int i = 0; i < cov->noptypes; i++) {
        const cov_optype *t = &cov->optypes[i];
        uint64_t in_combos = 0;
        for (int k = 0; k < t->ncombos; k++)
            in_combos += t->combo_hits[k];
        CHECKF(in_combos == t->executed, "%s %s: %llu executed, %llu in combinations", target, t->name,
               (unsigned long long)t->executed, (unsigned long long)in_combos);
    }
    gisa_cov_free(cov);
}

int main(void)
{
    gisa_isa *isa = test_isa_target("gisa128");
    test_directed(isa);
    test_step(isa);
    test_merge_and_json(isa);
    test_fermi();
    test_random("gisa128", 150);
    test_random("fermi", 150);
    return test_summary();
}
