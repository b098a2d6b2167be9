/* Optype name -> semantic function: the only place that joins the model's
 * names to the C semantics. Searched once per program word, before a run;
 * bind.c checks the tables against the models. */
#include <string.h>

#include "sim/bind.h"
#include "sim/ops.h"

const sim_opdef *const sim_families[] = {
    sim_ops_int_arith, sim_ops_int_logic, sim_ops_int_move, sim_ops_f32, sim_ops_f64, sim_ops_f16,
};
const size_t sim_nfamilies = sizeof sim_families / sizeof sim_families[0];

const sim_opdef *sim_find_opdef_in(const sim_opdef *const *families, size_t nfamilies, const char *optype)
{
    for (size_t f = 0; f < nfamilies; f++)
        for (const sim_opdef *d = families[f]; d->optype; d++)
            if (!strcmp(d->optype, optype))
                return d;
    return NULL;
}

const sim_opdef *sim_find_opdef(const char *optype) { return sim_find_opdef_in(sim_families, sim_nfamilies, optype); }
