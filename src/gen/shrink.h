/* The delta debugging that gisa_shrink (lines of a program) and
 * gisa_shrink_state (entries of a state, lanes of a register) share. */
#ifndef GISA_GEN_SHRINK_H
#define GISA_GEN_SHRINK_H
#include <stddef.h>

#include "common/strbuf.h"
#include "gisa.h"

/* Runs the test on the items idx[0..n): 1 still interesting, 0 not, -1 stop. */
typedef int (*dd_try_fn)(void *ctx, const size_t *idx, size_t n);

/* Zeller and Hildebrandt's ddmin on cur[0..*n), updated in place to a
 * 1-minimal interesting subset (in order); cand has room for *n items.
 * Never tries the empty set. Returns -1 when a try said stop, else 0. */
int dd_min(dd_try_fn try, void *ctx, size_t *cur, size_t *n, size_t *cand);

/* The shrunk text handed over: *out (and *out_len) taken from res, and
 * the status: out of memory when oom or res failed, else `stopped` (what
 * the test's stop said, GISA_OK when it never did). */
gisa_status shrink_result(strbuf *res, int oom, gisa_status stopped, char **out, size_t *out_len);
#endif
