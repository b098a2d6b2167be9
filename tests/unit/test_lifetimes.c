/* The lifetimes the API promises for the pointers it hands out (run under
 * ASan by `make asan`, where a dangling read is a failure):
 *  - gisa_diags_get: the diagnostic and its strings stay valid while more
 *    diagnostics are added (thousands: the list grows many times), until
 *    gisa_diags_clear;
 *  - gisa_sim_commit.inst and .text stay valid until the next
 *    gisa_sim_load: across gisa_sim_set_const, a state file, an engine
 *    change and further steps (each of which pre-decodes the program
 *    again);
 *  - after gisa_sim_load, a record of the program before is refused by
 *    gisa_sim_commit_format (GISA_ERR_USAGE, no line), which used to read
 *    the freed text (ASan: heap-use-after-free), as is a record handed to
 *    another simulator (a clone). */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static void diags_stay(void)
{
    const gisa_isa *isa = test_isa();
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_diags_set_limit(d, 100000);
    CHECK(gisa_assemble(isa, "a.s", "FOO R1\n", 7, NULL, &w, &n, d) == GISA_ERR_INPUT && gisa_diags_count(d) >= 1);
    const gisa_diag *first = gisa_diags_get(d, 0);
    char *message = strdup(first->message), *file = strdup(first->file);
    int line = first->line;
    /* 5,000 more, one bad line each */
    size_t len = 0, cap = 5000 * 8 + 1;
    char *text = malloc(cap);
    for (int i = 0; i < 5000; i++)
        len += (size_t)snprintf(text + len, cap - len, "BAR R%d\n", i % 10);
    CHECK(gisa_assemble(isa, "b.s", text, len, NULL, &w, &n, d) == GISA_ERR_INPUT);
    CHECKF(gisa_diags_count(d) > 5000, "%zu diagnostics", gisa_diags_count(d));
    CHECK(first == gisa_diags_get(d, 0));
    CHECK(!strcmp(first->message, message) && !strcmp(first->file, file) && first->line == line);
    free(message);
    free(file);
    free(text);
    gisa_diags_free(d);
}

static void commit_stays(void)
{
    const gisa_isa *isa = test_isa();
    static const char prog[] = "FFMA R1, R2, c[0x0][0x10], R3\nIADD R4, R5, c[0x1][0x8]\nMOV R6, 0x5\n";
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_sim *sim = NULL;
    CHECK(gisa_assemble(isa, "p.s", prog, sizeof prog - 1, NULL, &w, &n, d) == GISA_OK && n == 3);
    CHECK(gisa_sim_new(isa, 8, 2, &sim) == GISA_OK && gisa_sim_load(sim, w, n) == GISA_OK);
    gisa_sim_commit c0, c1;
    CHECK(gisa_sim_step(sim, 0, &c0, NULL) == GISA_OK && c0.inst && c0.text);
    char text[512];
    snprintf(text, sizeof text, "%s", c0.text);
    int opcode = c0.inst->opcode;
    uint64_t field0 = c0.inst->field[0];
    /* everything that makes the simulator pre-decode the program again */
    CHECK(gisa_sim_set_const(sim, 0, 0x10, 0x3f800000) == GISA_OK);
    CHECK(gisa_sim_step(sim, 1, &c1, NULL) == GISA_OK);
    static const char state[] = "{\"c[0x1][0x8]\": \"0x7\", \"R2\": \"0x40000000\"}";
    CHECK(api_state_read(sim, "s.json", state, sizeof state - 1, d) == GISA_OK);
    CHECK(gisa_sim_step(sim, 0, &c1, NULL) == GISA_OK);
    CHECK(gisa_sim_set_engine(sim, GISA_ENGINE_DOC) == GISA_OK);
    CHECK(gisa_sim_step(sim, 0, &c1, NULL) == GISA_OK);
    CHECK(gisa_sim_set_engine(sim, GISA_ENGINE_NATIVE) == GISA_OK && gisa_sim_run(sim, NULL) == GISA_OK);
    /* the first record still reads as it did */
    CHECKF(!strcmp(c0.text, text), "'%s' now '%s'", text, c0.text);
    CHECK(c0.inst->opcode == opcode && c0.inst->field[0] == field0);
    CHECK(strstr(c0.text, "FFMA") == c0.text);
    gisa_sim_free(sim);
    gisa_free(w);
    gisa_diags_free(d);
}

static gisa_status count_line(void *user, const char *line)
{
    (void)line;
    ++*(int *)user;
    return GISA_OK;
}

static void stale_commit_refused(void)
{
    const gisa_isa *isa = test_isa();
    static const char a[] = "FFMA R1, R2, c[0x0][0x10], R3\nIADD R4, R5, c[0x1][0x8]\n";
    static const char b[] = "MOV R6, 0x5\nMOV R7, 0x6\nMOV R8, 0x7\n";
    gisa_diags *d = api_diags();
    gisa_word *wa = NULL, *wb = NULL;
    size_t na = 0, nb = 0;
    gisa_sim *sim = NULL, *copy = NULL;
    CHECK(gisa_assemble(isa, "a.s", a, sizeof a - 1, NULL, &wa, &na, d) == GISA_OK && na == 2);
    CHECK(gisa_assemble(isa, "b.s", b, sizeof b - 1, NULL, &wb, &nb, d) == GISA_OK && nb == 3);
    CHECK(gisa_sim_new(isa, 16, 1, &sim) == GISA_OK && gisa_sim_load(sim, wa, na) == GISA_OK);
    gisa_sim_commit old, now;
    CHECK(gisa_sim_step(sim, 0, &old, NULL) == GISA_OK && old.text);
    int lines = 0;
    CHECK(gisa_sim_commit_format(sim, &old, 0, count_line, &lines) == GISA_OK && lines >= 1);
    /* still the program loaded: a record stays good across a new
     * pre-decode (a constant changed, another step) */
    CHECK(gisa_sim_set_const(sim, 0, 0x10, 0x3f800000) == GISA_OK && gisa_sim_step(sim, 0, &now, NULL) == GISA_OK);
    lines = 0;
    CHECK(gisa_sim_commit_format(sim, &old, GISA_TRACE_JSON, count_line, &lines) == GISA_OK && lines == 1);
    /* a clone has the program at its own addresses */
    CHECK(gisa_sim_clone(sim, &copy) == GISA_OK);
    lines = 0;
    CHECK(gisa_sim_commit_format(copy, &old, 0, count_line, &lines) == GISA_ERR_USAGE && lines == 0);
    /* the program the record points into is freed here */
    CHECK(gisa_sim_load(sim, wb, nb) == GISA_OK);
    lines = 0;
    CHECKF(gisa_sim_commit_format(sim, &old, 0, count_line, &lines) == GISA_ERR_USAGE && lines == 0,
           "a record of the program before the load: %d lines", lines);
    CHECK(gisa_sim_commit_format(sim, &old, GISA_TRACE_JSON, count_line, &lines) == GISA_ERR_USAGE && lines == 0);
    /* coverage counts the record by its word (held by value), not through
     * its inst pointer, which points into the freed program (ASan: a
     * heap-use-after-free before) */
    gisa_cov *cov = NULL;
    gisa_cov_summary sum;
    CHECK(gisa_cov_new(isa, &cov) == GISA_OK && gisa_cov_record(cov, sim, &old) == GISA_OK);
    CHECK(gisa_cov_summary_get(cov, &sum) == GISA_OK && sum.executed == 1);
    gisa_cov_free(cov);
    /* and again after the new program is pre-decoded (a step), whatever
     * addresses it got */
    CHECK(gisa_sim_step(sim, 0, &now, NULL) == GISA_OK);
    CHECK(gisa_sim_commit_format(sim, &old, 0, count_line, &lines) == GISA_ERR_USAGE && lines == 0);
    CHECK(gisa_sim_commit_format(sim, &now, 0, count_line, &lines) == GISA_OK && lines >= 1);
    /* a record of one's own, without inst and text, still formats */
    gisa_sim_commit own = now;
    own.inst = NULL;
    own.text = NULL;
    lines = 0;
    CHECK(gisa_sim_commit_format(sim, &own, 0, count_line, &lines) == GISA_OK && lines >= 1);
    gisa_sim_free(copy);
    gisa_sim_free(sim);
    gisa_free(wa);
    gisa_free(wb);
    gisa_diags_free(d);
}

int main(void)
{
    diags_stay();
    commit_stays();
    stale_commit_refused();
    return test_summary();
}
