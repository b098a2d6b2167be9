/* Optype name -> semantic function: the only place that joins the model's
 * names to the C semantics. Searched once per program word, before a run. */
#include <string.h>

#include "sim/ops.h"

static const sim_opdef *const families[] = {
    sim_ops_int_arith, sim_ops_int_logic, sim_ops_int_move, sim_ops_f32, sim_ops_f64, sim_ops_f16,
};

const sim_opdef *sim_find_opdef(const char *optype)
{
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const sim_opdef *d = families[f]; d->optype; d++)
            if (!strcmp(d->optype, optype))
                return d;
    return NULL;
}
