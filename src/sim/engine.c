/* Which engine runs an opcode (engine.h): decided here only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/fingerprint.h"

const sim_engine *sim_engine_choose(const gisa_sim *s, const isa_opcode *op, const sim_opdef **def, char *why,
                                    size_t cap)
{
    const isa_optype *ot = op->optype;
    gisa_sim_engine e = s->engine;
    if (s->optype_engine && s->optype_engine[ot - s->isa->optypes] != SIM_ENGINE_UNSET)
        e = (gisa_sim_engine)s->optype_engine[ot - s->isa->optypes];
    *def = NULL;
    if (e == GISA_ENGINE_DOC)
        return &sim_engine_doc;
    const sim_opdef *c = sim_find_opdef(ot->semantics);
    if (c && e == GISA_ENGINE_AUTO && !sim_native_implements(s->isa, ot, NULL, 0))
        c = NULL; /* its pseudo-code is not what the C function implements (sim/fingerprint.h) */
    if (c) {
        *def = c;
        return &sim_engine_native;
    }
    if (e == GISA_ENGINE_AUTO)
        return &sim_engine_doc;
    snprintf(why, cap, "%s has no C semantics (--engine native runs only those; --engine auto or doc runs its pseudo-code)",
             ot->name);
    return NULL;
}

gisa_status gisa_sim_set_engine_for(gisa_sim *s, const char *optype, gisa_sim_engine engine)
{
    if (!s || (engine != GISA_ENGINE_AUTO && engine != GISA_ENGINE_NATIVE && engine != GISA_ENGINE_DOC))
        return GISA_ERR_USAGE;
    const gisa_isa *isa = s->isa;
    if (!optype) {
        free(s->optype_engine);
        s->optype_engine = NULL;
        sim_invalidate(s);
        return GISA_OK;
    }
    int t = 0;
    while (t < isa->noptypes && strcmp(isa->optypes[t].name, optype))
        t++;
    if (t == isa->noptypes)
        return GISA_ERR_NOTFOUND;
    if (!s->optype_engine) {
        s->optype_engine = malloc((size_t)isa->noptypes);
        if (!s->optype_engine)
            return GISA_ERR_NOMEM;
        memset(s->optype_engine, SIM_ENGINE_UNSET, (size_t)isa->noptypes);
    }
    if (s->optype_engine[t] != (uint8_t)engine)
        sim_invalidate(s); /* the pre-decoded program is bound to its engines */
    s->optype_engine[t] = (uint8_t)engine;
    return GISA_OK;
}
