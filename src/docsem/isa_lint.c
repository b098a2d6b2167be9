/* gisa_isa_lint: the model's checks, then the pseudo-code's. Here, in the
 * lowest layer that sees both (src/manual, below src/lib, lints too); the
 * model's check of the documents' examples assembles them through the
 * handle's services (spec/model.h), which the library's loader sets. */
#include "common/fpenv.h"
#include "common/diag.h"
#include "docsem/docsem.h"
#include "spec/load.h"

static gisa_status isa_lint_unguarded(const gisa_isa *isa, gisa_diags *diags)
{
    size_t first = gisa_diags_count(diags);
    gisa_status st = spec_lint(isa, diags);
    if (st != GISA_OK && st != GISA_ERR_INPUT)
        return st;
    size_t before = gisa_diags_errors(diags);
    ds_lint(isa, diags);
    spec_lint_errata(isa, diags, first); /* the findings rulings acknowledge: notes */
    if (isa->tools.lint_semantics) /* the C semantics that do not implement the pseudo-code */
        isa->tools.lint_semantics(isa, diags);
    return gisa_diags_errors(diags) > before ? GISA_ERR_INPUT : st;
}

gisa_status gisa_isa_lint(const gisa_isa *isa, gisa_diags *diags)
{
    FPENV_RETURN(gisa_status, isa_lint_unguarded(isa, diags));
}
