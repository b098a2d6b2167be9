/* The C semantics against the documents' pseudo-code, for the library's
 * users (gisa lint --fingerprints, --check-semantics): the table of
 * fingerprints (sim/fingerprint.h) and the differential check of the
 * engines (sim/crosscheck.h). */
#include <stdlib.h>

#include "common/fpenv.h"
#include "common/strbuf.h"
#include "sim/bind.h"
#include "sim/crosscheck.h"
#include "sim/fingerprint.h"

static gisa_status fingerprints_unguarded(const gisa_isa *isa, char **out, gisa_diags *diags)
{
    int errors = sim_fingerprint_table(isa, out, diags);
    return errors < 0 ? GISA_ERR_NOMEM : errors ? GISA_ERR_INPUT : GISA_OK;
}

gisa_status gisa_isa_fingerprints(const gisa_isa *isa, char **out, gisa_diags *diags)
{
    if (!out)
        return GISA_ERR_USAGE;
    *out = NULL;
    if (!isa)
        return GISA_ERR_USAGE;
    FPENV_RETURN(gisa_status, fingerprints_unguarded(isa, out, diags));
}

static gisa_status check_semantics_unguarded(const gisa_isa *isa, uint64_t seed, char **report)
{
    sim_xc_options o = {seed, 60, 3, NULL};
    sim_xc_tally *tally = calloc((size_t)(isa->noptypes ? isa->noptypes : 1), sizeof *tally);
    strbuf details, out;
    sb_init(&details);
    sb_init(&out);
    long bad = tally ? sim_crosscheck(isa, sim_families, sim_nfamilies, &o, tally, &details) : -1;
    if (bad >= 0) {
        sim_xc_summary(isa, tally, &out);
        if (details.len)
            sb_puts(&out, details.s);
    }
    free(tally);
    sb_free(&details);
    *report = sb_take(&out);
    return bad < 0 || !*report ? GISA_ERR_NOMEM : bad ? GISA_ERR_INPUT : GISA_OK;
}

gisa_status gisa_isa_check_semantics(const gisa_isa *isa, uint64_t seed, char **report)
{
    if (!report)
        return GISA_ERR_USAGE;
    *report = NULL;
    if (!isa)
        return GISA_ERR_USAGE;
    FPENV_RETURN(gisa_status, check_semantics_unguarded(isa, seed, report));
}
