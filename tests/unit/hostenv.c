/* The floating-point tests again, with the calling thread in a hostile FP
 * environment (ctest's hostenv/ tests; CMakeLists.txt links this file into
 * a second build of each test with -Wl,--wrap=NAME for every NAME below).
 *
 * Each call from the test into one of these functions (the library's entry
 * points that reach floating-point code, and the decimal conversions; not
 * the register accessors, which copy bits and are called per lane)
 * first puts the thread in the next environment of the list below:
 * flush-to-zero and denormals-are-zero (what -ffast-math sets at start-up),
 * each rounding mode, sticky exception flags, exceptions unmasked. After
 * the call the environment must be exactly the one set (a check: the
 * library gives the caller's back, flags included), then the test's own is
 * put back, so that the test's references (MPFR, exact doubles) run as
 * before. The results must be the same bits as in the plain run: every
 * check of the test is made again.
 *
 * Env: GISA_TEST_HOSTENV=N runs every call in environment N alone (0..5)
 * instead of in turn; GISA_TEST_ENGINES=cycle also switches the simulator
 * between the native and the doc engine before each run (the tests that
 * choose the engine themselves do not set it). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* feenableexcept */
#endif
#include <fenv.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpconv.h"
#include "testlib.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define HOSTENV_SSE 1
#define CSR_FTZ 0x8000u
#define CSR_DAZ 0x0040u
#define CSR_MASKS 0x1F80u
#define CSR_FLAGS 0x003Fu
#else
#define HOSTENV_SSE 0
#endif

typedef struct hostile {
    const char *name;
    int round;
    int ftz_daz;
    int flags;  /* sticky flags set before the call */
    int unmask; /* exceptions that trap */
} hostile;

static const hostile envs[] = {
    {"FTZ|DAZ, to nearest", FE_TONEAREST, 1, 0, 0},
    {"FTZ|DAZ, downward", FE_DOWNWARD, 1, 0, 0},
    {"FTZ|DAZ, upward", FE_UPWARD, 1, 0, 0},
    {"FTZ|DAZ, toward zero", FE_TOWARDZERO, 1, 0, 0},
    {"toward zero, inexact|underflow flags set", FE_TOWARDZERO, 0, FE_INEXACT | FE_UNDERFLOW, 0},
    {"FTZ|DAZ, upward, every exception unmasked", FE_UPWARD, 1, 0, FE_ALL_EXCEPT},
};
#define NENVS (sizeof envs / sizeof envs[0])

static unsigned long calls;

typedef struct saved {
    fenv_t test_env;
    const hostile *h;
#if HOSTENV_SSE
    unsigned csr;
#endif
} saved;

static void hostile_enter(saved *s)
{
    static int fixed = -2;
    if (fixed == -2) {
        const char *e = getenv("GISA_TEST_HOSTENV");
        fixed = e && *e ? atoi(e) : -1;
        if (fixed >= (int)NENVS)
            fixed = -1;
    }
    s->h = &envs[fixed >= 0 ? (unsigned)fixed : calls % NENVS];
    calls++;
    fegetenv(&s->test_env);
    fesetround(s->h->round);
    feclearexcept(FE_ALL_EXCEPT);
    if (s->h->flags)
        feraiseexcept(s->h->flags); /* masked here: only the flags */
#if HOSTENV_SSE
    unsigned csr = _mm_getcsr() & ~(CSR_FTZ | CSR_DAZ);
    if (s->h->ftz_daz)
        csr |= CSR_FTZ | CSR_DAZ;
    if (s->h->unmask)
        csr &= ~CSR_MASKS;
    _mm_setcsr(csr);
    s->csr = csr;
#endif
    if (s->h->unmask)
        feenableexcept(s->h->unmask); /* the x87 side too */
}

static void hostile_leave(const saved *s, const char *fn)
{
    int round = fegetround();
#if HOSTENV_SSE
    unsigned csr = _mm_getcsr();
    fesetenv(&s->test_env);
    CHECKF(csr == s->csr && round == s->h->round,
           "%s (%s) changed the caller's FP environment: MXCSR 0x%04x -> 0x%04x, rounding %d -> %d", fn, s->h->name,
           s->csr, csr, s->h->round, round);
#else
    int flags = fetestexcept(FE_ALL_EXCEPT);
    fesetenv(&s->test_env);
    CHECKF(flags == s->h->flags && round == s->h->round,
           "%s (%s) changed the caller's FP environment: flags 0x%x -> 0x%x, rounding %d -> %d", fn, s->h->name,
           s->h->flags, flags, s->h->round, round);
#endif
}

static void cycle_engine(gisa_sim *sim)
{
    static int cycle = -1;
    if (cycle < 0) {
        const char *e = getenv("GISA_TEST_ENGINES");
        cycle = e && !strcmp(e, "cycle");
    }
    if (cycle && sim) /* both engines meet every environment: NENVS is even */
        gisa_sim_set_engine(sim, (calls / NENVS) % 2 ? GISA_ENGINE_DOC : GISA_ENGINE_NATIVE);
}

#define WRAP(T, name, params, args)                                                                                 \
    T __real_##name params;                                                                                         \
    T __wrap_##name params;                                                                                         \
    T __wrap_##name params                                                                                          \
    {                                                                                                               \
        saved hs_;                                                                                                  \
        hostile_enter(&hs_);                                                                                        \
        T r = __real_##name args;                                                                                   \
        hostile_leave(&hs_, #name);                                                                                 \
        return r;                                                                                                   \
    }
#define WRAP_RUN(name, params, args, sim)                                                                           \
    gisa_status __real_##name params;                                                                               \
    gisa_status __wrap_##name params;                                                                               \
    gisa_status __wrap_##name params                                                                                \
    {                                                                                                               \
        cycle_engine(sim);                                                                                          \
        saved hs_;                                                                                                  \
        hostile_enter(&hs_);                                                                                        \
        gisa_status r = __real_##name args;                                                                         \
        hostile_leave(&hs_, #name);                                                                                 \
        return r;                                                                                                   \
    }

/* the library */
WRAP(gisa_status, gisa_isa_load, (const gisa_load_options *o, gisa_isa **i, gisa_diags *d), (o, i, d))
WRAP(gisa_status, gisa_assemble,
     (const gisa_isa *i, const char *f, const char *t, size_t n, const gisa_asm_options *o, gisa_word **w,
      size_t *nw, gisa_diags *d),
     (i, f, t, n, o, w, nw, d))
WRAP(gisa_status, gisa_disassemble, (const gisa_isa *i, gisa_word w, char *b, size_t c, size_t *l), (i, w, b, c, l))
WRAP_RUN(gisa_sim_run, (gisa_sim * s, gisa_sim_fault *f), (s, f), s)
WRAP_RUN(gisa_sim_continue, (gisa_sim * s, gisa_sim_fault *f), (s, f), s)
WRAP_RUN(gisa_sim_step, (gisa_sim * s, unsigned w, gisa_sim_commit *c, gisa_sim_fault *f), (s, w, c, f), s)
WRAP(gisa_status, gisa_sim_commit_format,
     (const gisa_sim *s, const gisa_sim_commit *c, unsigned fl, gisa_trace_fn fn, void *u), (s, c, fl, fn, u))
WRAP(gisa_status, gisa_state_parse, (const char *n, const char *t, size_t l, gisa_state **o, gisa_diags *d),
     (n, t, l, o, d))
WRAP(gisa_status, gisa_sim_state_apply, (gisa_sim * s, const gisa_state *st, gisa_diags *d), (s, st, d))
WRAP(gisa_status, gisa_sim_state_write, (const gisa_sim *s, gisa_state_values v, gisa_write_fn fn, void *u),
     (s, v, fn, u))
/* the decimal conversions (common/fpconv.h), which guard themselves */
WRAP(int, fp_parse, (const char *s, size_t n, fp_format f, uint64_t *b, int *o), (s, n, f, b, o))
WRAP(int, fp_parse_em, (const char *s, size_t n, int e, int m, uint64_t *b, int *o), (s, n, e, m, b, o))
WRAP(int, fp_print, (uint64_t b, fp_format f, char *buf, size_t c), (b, f, buf, c))
WRAP(int, fp_print_n, (uint64_t b, fp_format f, char *buf, size_t c), (b, f, buf, c))
WRAP(int, fp_print_search, (uint64_t b, fp_format f, char *buf, size_t c), (b, f, buf, c))
