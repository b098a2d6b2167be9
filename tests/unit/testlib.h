/* Minimal test harness shared by the unit tests: CHECK records a failure
 * with its location and goes on; test_summary() prints "N passed, N failed"
 * and gives the exit status. tg_rng is the one random generator of all
 * tests. */
#ifndef GISA_TESTLIB_H
#define GISA_TESTLIB_H
#include <stdint.h>
#include <stdio.h>

#include "gisa.h"
#include "apihelp.h"

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

/* The random generator of every test: xorshift64*, from a fixed seed per
 * test, so that every run sees the same inputs (a zero state stands for a
 * fixed nonzero one). */
typedef struct tg_rng {
    uint64_t s;
} tg_rng;

static inline uint64_t tg_next(tg_rng *r)
{
    uint64_t x = r->s ? r->s : 0x9E3779B97F4A7C15u; /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Du;
}

/* Uniform in [0, n), 0 when n is 0. */
static inline uint64_t tg_below(tg_rng *r, uint64_t n) { return n ? tg_next(r) % n : 0; }

/* Uniform in [lo, hi]. */
static inline int64_t tg_range(tg_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)tg_below(r, (uint64_t)(hi - lo) + 1);
}

/* "N passed, N failed" and the exit status: 0 only when every check
 * passed and at least one was made. */
int test_summary(void);
/* The exit status of a test that did not run (ctest: SKIP_RETURN_CODE,
 * reported as Skipped); test_skip prints "SKIP: reason" and returns it. */
#define TEST_SKIPPED 77
int test_skip(const char *reason);
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
