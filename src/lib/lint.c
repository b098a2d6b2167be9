/* gisa_isa_lint: the model's checks, then the pseudo-code's. */
#include "common/diag.h"
#include "docsem/docsem.h"
#include "spec/load.h"

gisa_status gisa_isa_lint(const gisa_isa *isa, gisa_diags *diags)
{
    gisa_status st = spec_lint(isa, diags);
    if (st != GISA_OK && st != GISA_ERR_INPUT)
        return st;
    size_t before = gisa_diags_errors(diags);
    ds_lint(isa, diags);
    return gisa_diags_errors(diags) > before ? GISA_ERR_INPUT : st;
}
