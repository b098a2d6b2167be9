/* Which document each C semantic function implements (issue 32, part 3:
 * C as a checked accelerator of the documents). Every entry of the C
 * tables (ops_*.c) declares, in fingerprints.c, the fingerprint of the
 * patched pseudo-code it was written against (ds_fingerprint: the canonical
 * form of what the doc engine compiles, docs/semantics-language.md). A
 * loaded model whose pseudo-code for an optype has another fingerprint
 * (an author edited it, or a ruling patched it differently) is not what the
 * C function implements: --engine auto runs the pseudo-code for it, and
 * --engine native refuses it. The build checks the shipped descriptions
 * against the table (gisa lint --fingerprints, cmake/check_fingerprints.cmake). */
#ifndef GISA_SIM_FINGERPRINT_H
#define GISA_SIM_FINGERPRINT_H
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

/* One declaration: the C entry's name (sim_opdef.optype, an optype's
 * semantics name) and the fingerprint of the pseudo-code it implements
 * (0: it implements an optype that has none, such as Fermi's MUFU). */
typedef struct sim_fingerprint {
    const char *semantics;
    uint64_t fp;
} sim_fingerprint;
extern const sim_fingerprint sim_fingerprints[]; /* ended by a NULL name */

/* Where a family of C entries is written, for messages: {sim_ops_f32, "src/sim/ops_f32.c"}. */
typedef struct sim_family_source {
    const sim_opdef *family;
    const char *file;
} sim_family_source;
extern const sim_family_source sim_family_sources[]; /* ended by a NULL family */

/* The declared fingerprint of the C entry named semantics_name into *fp:
 * 1, or 0 when the table has none. */
int sim_declared_fingerprint(const char *semantics_name, uint64_t *fp);

/* The fingerprint of optype ot's pseudo-code in the loaded model (computed
 * when the model is built, so this is a look-up): 0 when it has none. */
uint64_t sim_doc_fingerprint(const gisa_isa *isa, const isa_optype *ot);

/* 1 when the C semantics implement optype ot of this model: it has a C
 * entry, and the entry's declared fingerprint is the model's (or the
 * optype has no pseudo-code: the C function is its only semantics).
 * Otherwise 0, with why (at most cap bytes; why may be NULL) naming the
 * optype and the place of the change, e.g. "FMNMX: the pseudo-code differs
 * from what the C semantics implement (my.isa:12:5 changed it): --engine
 * auto runs the pseudo-code". Explaining a difference loads the shipped
 * description of the model's target once for the call (a few ms); the
 * answer itself is a table look-up. */
int sim_native_implements(const gisa_isa *isa, const isa_optype *ot, char *why, size_t cap);

/* The C source file of the C entry named semantics_name ("src/sim/ops_f32.c"), or NULL. */
const char *sim_semantics_source(const char *semantics_name);

/* gisa lint's part: a note for every optype of the model whose pseudo-code
 * differs from what its C entry declares, at the place of the change, in
 * optype name order. */
void sim_lint_fingerprints(const gisa_isa *isa, gisa_diags *diags);

/* The table of the model's fingerprints as C lines for fingerprints.c,
 * one per optype with a C entry and pseudo-code, into *out (malloc'd);
 * an error in diags per optype whose fingerprint is not the declared one,
 * saying what to review and the value to declare. Returns the number of
 * those errors (-1: out of memory). */
int sim_fingerprint_table(const gisa_isa *isa, char **out, gisa_diags *diags);

/* The table itself against the C tables and the shipped models (isas[0 ..
 * n-1], every target): each C entry declared once, each declaration naming
 * a C entry, each optype with pseudo-code and a C entry matching, each
 * nonzero declaration matched by some optype. Returns the number of errors. */
int sim_check_fingerprints(const gisa_isa *const *isas, size_t n, gisa_diags *diags);
#endif
