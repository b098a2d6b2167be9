/* The conventions of API 1.0 (include/gisa.h, its opening comment), each
 * checked where it applies:
 *  - results through out-parameters and a status, never a special value:
 *    pc, done, active mask, compare, find/decode opcode, doc, the
 *    generator's results, coverage text, diagnostics;
 *  - option structs begin with their size: too small is GISA_ERR_USAGE,
 *    larger (a later header's) is taken with the fields this library
 *    knows;
 *  - every callback's status other than GISA_OK stops the operation,
 *    which returns it: trace, commit hook, state writer, assembler line,
 *    manual page, shrink test;
 *  - GISA_ERR_LIMIT, apart from GISA_ERR_NOMEM (generator count, an
 *    assembly over its word limit is tested by the CLI's robustness
 *    tests);
 *  - GISA_ASM_ONE. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static const char prog[] = "IADD R1, R2, R3\nIADD R4, R1, R1\nMOV R5, 0x7\nFADD R6, R2, R3\n";

static gisa_sim *loaded(const gisa_isa *isa, unsigned warps)
{
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_sim *sim = NULL;
    CHECK(gisa_assemble(isa, "p.s", prog, sizeof prog - 1, NULL, &w, &n, NULL) == GISA_OK && n == 4);
    CHECK(gisa_sim_new(isa, 8, warps, &sim) == GISA_OK && gisa_sim_load(sim, w, n) == GISA_OK);
    gisa_free(w);
    return sim;
}

static void out_parameters(const gisa_isa *isa)
{
    gisa_sim *sim = loaded(isa, 2);
    size_t pc = 99;
    bool done = true;
    uint32_t mask = 0;
    CHECK(gisa_sim_pc(sim, 0, &pc) == GISA_OK && pc == 0);
    CHECK(gisa_sim_pc(sim, 2, &pc) == GISA_ERR_USAGE && pc == 0); /* untouched on error */
    CHECK(gisa_sim_pc(sim, 0, NULL) == GISA_ERR_USAGE);
    CHECK(gisa_sim_done(sim, 0, &done) == GISA_OK && !done);
    CHECK(gisa_sim_done(sim, 7, &done) == GISA_ERR_USAGE && !done);
    CHECK(gisa_sim_set_active(sim, 1, 0) == GISA_OK);
    mask = 5;
    CHECK(gisa_sim_get_active(sim, 1, &mask) == GISA_OK && mask == 0); /* 0 is a mask, not an error */
    CHECK(gisa_sim_get_active(sim, 9, &mask) == GISA_ERR_USAGE);
    CHECK(gisa_sim_run(sim, NULL) == GISA_OK && gisa_sim_done(sim, 0, &done) == GISA_OK && done);
    gisa_sim *copy = NULL;
    bool equal = false;
    gisa_sim_diff diff;
    CHECK(gisa_sim_clone(sim, &copy) == GISA_OK && gisa_sim_compare(sim, copy, &equal, &diff) == GISA_OK && equal);
    CHECK(gisa_sim_set(copy, 0, GISA_RF_R, 5, 3, 1) == GISA_OK);
    CHECK(gisa_sim_compare(sim, copy, &equal, &diff) == GISA_OK && !equal && diff.kind == GISA_DIFF_REG &&
          diff.index == 5 && diff.lane == 3);
    CHECK(gisa_sim_compare(sim, NULL, &equal, NULL) == GISA_ERR_USAGE);
    /* simulators of two ISAs: their targets, not the handles' addresses */
    gisa_sim *fs = NULL;
    CHECK(gisa_sim_new(test_isa_target("fermi"), 8, 2, &fs) == GISA_OK);
    CHECK(gisa_sim_compare(sim, fs, &equal, &diff) == GISA_OK && !equal && diff.kind == GISA_DIFF_SHAPE);
    CHECKF(!strcmp(diff.text, "different ISAs: gisa128 != fermi"), "%s", diff.text);
    gisa_sim_free(fs);
    gisa_isa *again = NULL;
    gisa_load_options lo = GISA_LOAD_OPTIONS_INIT;
    CHECK(gisa_isa_load(&lo, &again, NULL) == GISA_OK && gisa_sim_new(again, 8, 2, &fs) == GISA_OK);
    CHECK(gisa_sim_compare(sim, fs, &equal, &diff) == GISA_OK && !equal && diff.kind == GISA_DIFF_SHAPE);
    CHECKF(!strcmp(diff.text, "different ISAs: two gisa_isa handles (of gisa128)"), "%s", diff.text);
    gisa_sim_free(fs);
    gisa_isa_free(again);
    gisa_sim_free(copy);
    gisa_sim_free(sim);

    size_t i = 7;
    CHECK(gisa_isa_find_opcode(isa, "FFMA_RRR", &i) == GISA_OK && !strcmp(gisa_isa_opcode_name(isa, i), "FFMA_RRR"));
    CHECK(gisa_isa_find_opcode(isa, "NOPE", &i) == GISA_ERR_NOTFOUND);
    gisa_word w, zero = {{0, 0}};
    CHECK(api_asm_one(isa, "FFMA R1, R2, R3, R4", &w, NULL) == GISA_OK);
    CHECK(gisa_decode_opcode(isa, w, &i) == GISA_OK && !strcmp(gisa_isa_opcode_name(isa, i), "FFMA_RRR"));
    CHECK(gisa_decode_opcode(isa, zero, &i) == GISA_ERR_NOTFOUND);
    char *doc = NULL;
    CHECK(gisa_isa_doc(isa, "FFMA", &doc) == GISA_OK && doc && strstr(doc, "FFMA"));
    gisa_free(doc);
    doc = (char *)1;
    CHECK(gisa_isa_doc(isa, "NOPE", &doc) == GISA_ERR_NOTFOUND);
    char buf[256];
    size_t len = 0;
    CHECK(gisa_disassemble(isa, w, buf, sizeof buf, &len) == GISA_OK && len == strlen(buf) && !strcmp(buf, "FFMA R1, R2, R3, R4"));
    CHECK(gisa_disassemble(isa, w, buf, 5, &len) == GISA_ERR_TRUNCATED && len == 4 && !strcmp(buf, "FFMA"));

    gisa_diags *d = NULL;
    CHECK(gisa_diags_new(&d) == GISA_OK && d);
    CHECK(gisa_assemble(isa, "bad.s", "FOO R1\n", 7, NULL, &(gisa_word *){NULL}, &len, d) == GISA_ERR_INPUT);
    char *text = NULL;
    CHECK(gisa_diag_format(gisa_diags_get(d, 0), true, &text) == GISA_OK && strstr(text, "bad.s:1:1: error:") &&
          strchr(text, '^'));
    gisa_free(text);
    CHECK(gisa_diag_format(NULL, false, &text) == GISA_ERR_USAGE);
    CHECK(gisa_diags_new(NULL) == GISA_ERR_USAGE);

    gisa_gen *g = NULL;
    const gisa_word *gw = NULL;
    const char *gt = NULL, *gs = NULL;
    size_t gn = 9, gl = 9, gsl = 9;
    CHECK(gisa_gen_new(isa, &g) == GISA_OK);
    CHECK(gisa_gen_words(g, &gw, &gn) == GISA_OK && gn == 0); /* before the first: empty */
    CHECK(gisa_gen_generate(g, 3, 20, d) == GISA_OK);
    CHECK(gisa_gen_words(g, &gw, &gn) == GISA_OK && gn == 20 && gw);
    CHECK(gisa_gen_text(g, &gt, &gl) == GISA_OK && gl == strlen(gt) && gl > 20);
    CHECK(gisa_gen_state(g, &gs, &gsl) == GISA_OK && gsl == strlen(gs) && gs[0] == '{');
    CHECK(gisa_gen_words(g, NULL, &gn) == GISA_ERR_USAGE);
    /* a limit is not memory */
    CHECK(gisa_gen_generate(g, 3, (size_t)GISA_GEN_MAX_COUNT + 1, d) == GISA_ERR_LIMIT);
    CHECK(!strcmp(gisa_status_str(GISA_ERR_LIMIT), "over a limit") && strcmp(gisa_status_str(GISA_ERR_NOMEM), "over a limit"));
    char *names = NULL;
    CHECK(gisa_gen_names(g, &names) == GISA_OK && strstr(names, "Families"));
    gisa_free(names);
    gisa_gen_free(g);

    gisa_cov *cov = NULL;
    char *json = NULL, *report = NULL;
    CHECK(gisa_cov_new(isa, &cov) == GISA_OK && gisa_cov_write_json(cov, &json) == GISA_OK && json[0] == '{');
    CHECK(gisa_cov_report(cov, &report) == GISA_OK && strstr(report, "coverage of"));
    CHECK(gisa_cov_report(NULL, &report) == GISA_ERR_USAGE);
    gisa_free(json);
    gisa_free(report);
    gisa_cov_free(cov);
    gisa_diags_free(d);
}

static void option_sizes(const gisa_isa *isa)
{
    /* a later header's options: this library's fields, the rest ignored */
    struct {
        gisa_load_options v1;
        char later[64];
    } big;
    memset(&big, 0x5a, sizeof big);
    big.v1 = (gisa_load_options)GISA_LOAD_OPTIONS_INIT;
    big.v1.size = sizeof big;
    gisa_isa *other = NULL;
    CHECK(gisa_isa_load(&big.v1, &other, NULL) == GISA_OK &&
          gisa_isa_opcode_count(other) == gisa_isa_opcode_count(isa));
    gisa_isa_free(other);
    gisa_load_options small = GISA_LOAD_OPTIONS_INIT;
    small.size = offsetof(gisa_load_options, max_memory) - 1;
    other = (gisa_isa *)1;
    CHECK(gisa_isa_load(&small, &other, NULL) == GISA_ERR_USAGE && other == NULL);
    /* API 1.0's struct ended before max_memory: it gets the default */
    small.size = offsetof(gisa_load_options, max_memory);
    small.max_memory = 1; /* not read */
    CHECK(gisa_isa_load(&small, &other, NULL) == GISA_OK && other);
    gisa_isa_free(other);
    /* a budget for the load (issue 31 item 14): the shipped ISA takes about
     * 5 MB; over the limit, an error names it */
    gisa_load_options tight = GISA_LOAD_OPTIONS_INIT;
    tight.max_memory = (size_t)1 << 20;
    gisa_diags *ld = api_diags();
    other = (gisa_isa *)1;
    CHECK(gisa_isa_load(&tight, &other, ld) == GISA_ERR_LIMIT && other == NULL &&
          test_diags_contain(ld, "needs more memory than the limit of 1 MiB"));
    gisa_diags_free(ld);
    tight.max_memory = (size_t)64 << 20;
    CHECK(gisa_isa_load(&tight, &other, NULL) == GISA_OK && other);
    gisa_isa_free(other);
    gisa_load_options both = GISA_LOAD_OPTIONS_INIT; /* paths and sources: one or the other */
    const char *p = "x.isa";
    gisa_source s = {"x.isa", "", 0};
    both.paths = &p;
    both.npaths = 1;
    both.sources = &s;
    both.nsources = 1;
    CHECK(gisa_isa_load(&both, &other, NULL) == GISA_ERR_USAGE);

    gisa_asm_options o = GISA_ASM_OPTIONS_INIT;
    gisa_word *w = NULL;
    size_t n = 0;
    o.size = 4;
    CHECK(gisa_assemble(isa, "a.s", "MOV R1, 0x1\n", 12, &o, &w, &n, NULL) == GISA_ERR_USAGE && !w);
    o = (gisa_asm_options)GISA_ASM_OPTIONS_INIT;
    o.flags = GISA_ASM_ONE;
    gisa_diags *d = api_diags();
    CHECK(gisa_assemble(isa, "a.s", "MOV R1, 0x1\nMOV R2, 0x2\n", 24, &o, &w, &n, d) == GISA_ERR_INPUT && !w &&
          test_diags_contain(d, "expected exactly one instruction, got 2"));
    CHECK(gisa_assemble(isa, "a.s", "// nothing\n", 11, &o, &w, &n, d) == GISA_ERR_INPUT);
    CHECK(gisa_assemble(isa, "a.s", "MOV R1, 0x1 ; // one\n", 21, &o, &w, &n, d) == GISA_OK && n == 1);
    gisa_free(w);
    gisa_diags_free(d);
}

/* gisa_assemble's text NULL: with length 0 an empty input (issue 31; it
 * added the BOM's length, 0, to the null pointer: UB that UBSan reports),
 * with a length an invalid argument. */
static void null_text(const gisa_isa *isa)
{
    gisa_word *w = NULL;
    size_t n = 99;
    gisa_diags *d = api_diags();
    CHECK(gisa_assemble(isa, "x", NULL, 0, NULL, &w, &n, d) == GISA_OK && n == 0 && gisa_diags_count(d) == 0);
    gisa_free(w);
    w = NULL;
    n = 99;
    CHECK(gisa_assemble(isa, "x", NULL, 5, NULL, &w, &n, d) == GISA_ERR_USAGE && !w && n == 99);
    gisa_diags_free(d);
}

/* Callbacks that stop after `left` calls with `stop`. */
typedef struct stopper {
    int calls, left;
    gisa_status stop;
} stopper;

static gisa_status stop_trace(void *user, const char *line)
{
    stopper *s = user;
    (void)line;
    s->calls++;
    return --s->left > 0 ? GISA_OK : s->stop;
}

static gisa_status stop_commit(void *user, const gisa_sim_commit *c)
{
    stopper *s = user;
    (void)c;
    s->calls++;
    return --s->left > 0 ? GISA_OK : s->stop;
}

static gisa_status stop_write(void *user, const char *data, size_t len)
{
    (void)data;
    (void)len;
    return stop_trace(user, NULL);
}

static gisa_status stop_line(void *user, const gisa_asm_line *l)
{
    (void)l;
    return stop_trace(user, NULL);
}

static gisa_status stop_page(void *user, const char *name, const char *data, size_t len)
{
    (void)name;
    (void)data;
    (void)len;
    return stop_trace(user, NULL);
}

static gisa_status stop_test(void *user, const char *text, size_t len, bool *interesting)
{
    (void)text;
    (void)len;
    *interesting = true;
    return stop_trace(user, NULL);
}

static void callbacks_stop(const gisa_isa *isa)
{
    /* the commit hook stops the run after the second instruction: warp 0
     * stands after it, warp 1 never started; continue goes on */
    gisa_sim *sim = loaded(isa, 2);
    stopper s = {0, 2, GISA_ERR_IO};
    size_t pc = 0;
    CHECK(gisa_sim_set_commit_hook(sim, stop_commit, &s) == GISA_OK);
    CHECK(gisa_sim_run(sim, NULL) == GISA_ERR_IO && s.calls == 2);
    CHECK(gisa_sim_pc(sim, 0, &pc) == GISA_OK && pc == 2 && gisa_sim_pc(sim, 1, &pc) == GISA_OK && pc == 0);
    uint32_t r4 = 9, r5 = 9;
    CHECK(gisa_sim_get(sim, 0, GISA_RF_R, 4, 0, &r4) == GISA_OK && gisa_sim_get(sim, 0, GISA_RF_R, 5, 0, &r5) == GISA_OK &&
          r5 == 0);
    CHECK(gisa_sim_set_commit_hook(sim, NULL, NULL) == GISA_OK && gisa_sim_continue(sim, NULL) == GISA_OK);
    CHECK(gisa_sim_get(sim, 0, GISA_RF_R, 5, 0, &r5) == GISA_OK && r5 == 7);
    /* the trace: stopped after its third line, in the middle of a record */
    s = (stopper){0, 3, GISA_ERR_NOTFOUND};
    CHECK(gisa_sim_set_trace(sim, stop_trace, &s) == GISA_OK);
    CHECK(gisa_sim_run(sim, NULL) == GISA_ERR_NOTFOUND && s.calls == 3);
    CHECK(gisa_sim_set_trace(sim, NULL, NULL) == GISA_OK);
    /* the state writer */
    s = (stopper){0, 1, GISA_ERR_IO};
    CHECK(gisa_sim_state_write(sim, GISA_STATE_HEX, stop_write, &s) == GISA_ERR_IO && s.calls == 1);
    gisa_sim_free(sim);
    /* the assembler's listing: no words come back */
    gisa_asm_options o = GISA_ASM_OPTIONS_INIT;
    s = (stopper){0, 2, GISA_ERR_IO};
    o.line = stop_line;
    o.user = &s;
    gisa_word *w = (gisa_word *)1;
    size_t n = 9;
    CHECK(gisa_assemble(isa, "p.s", prog, sizeof prog - 1, &o, &w, &n, NULL) == GISA_ERR_IO && s.calls == 2 && !w &&
          n == 0);
    /* the manual */
    s = (stopper){0, 3, GISA_ERR_NOMEM};
    CHECK(gisa_isa_manual(isa, stop_page, &s) == GISA_ERR_NOMEM && s.calls == 3);
    /* shrink: the smallest so far comes back with the test's status */
    s = (stopper){0, 2, GISA_ERR_SIM};
    char *out = NULL;
    CHECK(gisa_shrink("a\nb\nc\nd\n", 8, stop_test, &s, &out, NULL, NULL, NULL) == GISA_ERR_SIM && out && s.calls == 2);
    gisa_free(out);
}

int main(void)
{
    const gisa_isa *isa = test_isa();
    out_parameters(isa);
    option_sizes(isa);
    null_text(isa);
    callbacks_stop(isa);
    return test_summary();
}
