/* Minimal test harness shared by the unit tests: CHECK records a failure
 * with its location and goes on; test_summary() prints "N passed, N failed"
 * and gives the exit status. */
#ifndef GISA_TESTLIB_H
#define GISA_TESTLIB_H
#include <stdio.h>

#include "gisa.h"

extern int test_passed, test_failed;

#define CHECK(cond)                                                                                 \
    do {                                                                                            \
        if (cond)                                                                                   \
            test_passed++;                                                                          \
        else {                                                                                      \
            test_failed++;                                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                           \
    } while (0)

#define CHECKF(cond, ...)                                                                           \
    do {                                                                                            \
        if (cond)                                                                                   \
            test_passed++;                                                                          \
        else {                                                                                      \
            test_failed++;                                                                          \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                           \
            fputc('\n', stderr);                                                                    \
        }                                                                                           \
    } while (0)

int test_summary(void);
/* Loads the embedded default ISA or aborts the test program. */
gisa_isa *test_isa(void);
/* The same for a named embedded target (loaded once, kept). */
gisa_isa *test_isa_target(const char *target);
/* Path of a file in the source tree ($GISA_SOURCE_DIR or "."). */
const char *test_path(const char *rel);
/* Directory of ../shared beside the source tree, or NULL (tests then skip). */
const char *test_shared_dir(void);
/* Prints all diagnostics to stderr (for failing tests). */
void test_dump_diags(const gisa_diags *d);
/* True when some diagnostic's formatted text contains `needle`. */
int test_diags_contain(const gisa_diags *d, const char *needle);
#endif
