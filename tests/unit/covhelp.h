/* Helpers of the coverage tests (test_cov.c, test_cov_bins.c): a count
 * read from a coverage file's JSON, and a program loaded into a simulator
 * of one warp. */
#ifndef GISA_TEST_COVHELP_H
#define GISA_TEST_COVHELP_H
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "apihelp.h"
#include "common/json.h"
#include "testlib.h"

/* The count at a path of keys (NULL-terminated) of a JSON text, -1 when
 * the path does not exist or holds no count. */
__attribute__((unused)) static long long count_at(const char *json, ...)
{
    json_parser j;
    json_val v, k;
    json_init(&j, json, strlen(json));
    if (json_value(&j, &v))
        return -1;
    va_list ap;
    va_start(ap, json);
    const char *want;
    long long n = -1;
    while ((want = va_arg(ap, const char *)) != NULL) {
        int found = 0;
        for (int first = 1; v.type == JSON_OBJECT && json_member(&j, &first, &k) == 1;) {
            json_val val;
            char key[256];
            if (json_value(&j, &val))
                break;
            if (json_unescape(&k, key, sizeof key) != (size_t)-1 && !strcmp(key, want)) {
                v = val;
                found = 1;
                break;
            }
            json_skip(&j, &val);
        }
        if (!found) {
            va_end(ap);
            return -1;
        }
    }
    va_end(ap);
    if (v.type == JSON_NUMBER && !v.fraction)
        n = strtoll(v.s, NULL, 10);
    return n;
}

__attribute__((unused)) static gisa_sim *load_program(const gisa_isa *isa, const char *src)
{
    gisa_word *words;
    size_t n;
    gisa_diags *d = api_diags();
    if (gisa_assemble(isa, "test.s", src, strlen(src), NULL, &words, &n, d) != GISA_OK) {
        test_dump_diags(d);
        abort();
    }
    gisa_diags_free(d);
    gisa_sim *sim;
    if (gisa_sim_new(isa, gisa_sim_max_regs(isa) < 64 ? gisa_sim_max_regs(isa) : 64, 1, &sim) != GISA_OK)
        abort();
    gisa_sim_load(sim, words, n);
    gisa_free(words);
    return sim;
}

/* Runs sim (then frees it) with cov attached; the coverage as JSON, and
 * cov in *out (NULL: freed). */
__attribute__((unused)) static char *run_with_cov(gisa_cov *cov, gisa_sim *sim, gisa_cov **out)
{
    CHECK(gisa_cov_attach(cov, sim) == GISA_OK);
    CHECK(gisa_sim_run(sim, NULL) == GISA_OK);
    gisa_sim_free(sim);
    char *json = api_cov_json(cov);
    if (out)
        *out = cov;
    else
        gisa_cov_free(cov);
    return json;
}
#endif
