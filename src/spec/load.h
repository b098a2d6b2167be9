/* Loading the model (load.c): what the public gisa_isa_load_* functions
 * (src/lib/load.c) call before the tools build their tables on it. Same
 * arguments and results as those. */
#ifndef GISA_SPEC_LOAD_H
#define GISA_SPEC_LOAD_H
#include "spec/model.h"

/* max_memory: the bytes the model may hold (gisa_load_options.max_memory
 * after its default is applied; 0: no limit); over it the load fails with
 * GISA_ERR_LIMIT and an error that names the limit. */
gisa_status spec_load_sources(const gisa_source *files, size_t n, size_t max_memory, gisa_isa **out,
                              gisa_diags *diags);
gisa_status spec_load_embedded(const char *target, size_t max_memory, gisa_isa **out, gisa_diags *diags);
gisa_status spec_load_dir(const char *dir, const char *overlay_dir, const char *target, gisa_isa **out,
                          gisa_diags *diags);
/* paths (n of them; none: the embedded files of target), then the files
 * and directories add (nadd) after them. */
gisa_status spec_load_paths(const char *const *paths, size_t n, const char *const *add, size_t nadd,
                            const char *overlay_dir, const char *target, size_t max_memory, gisa_isa **out,
                            gisa_diags *diags);
/* The model's consistency checks (lint.c); gisa_isa_lint adds the
 * pseudo-code's (src/docsem/isa_lint.c). */
gisa_status spec_lint(const gisa_isa *isa, gisa_diags *diags);
/* The warnings of diags from index first on that a ruling's __Errata
 * acknowledges become notes (category kept: gisa lint -Wruling shows them
 * as warnings again); an acknowledgment that matches none is a warning
 * (errata.c). */
void spec_lint_errata(const gisa_isa *isa, gisa_diags *diags, size_t first);
#endif
