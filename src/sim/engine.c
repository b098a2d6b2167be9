/* Which engine runs an opcode (engine.h): decided here only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/fingerprint.h"

/* Whether ot's C function implements its pseudo-code as loaded (sim/
 * fingerprint.h), asked once per optype and simulator: 1, or 0 with *why
 * (kept for the simulator's life); -1 when out of memory. */
static int implements(gisa_sim *s, const isa_optype *ot, const char **why)
{
    const int n = s->isa->noptypes, t = (int)(ot - s->isa->optypes);
    if (!s->native_ok) {
        s->native_ok = calloc((size_t)n, sizeof *s->native_ok);
        s->native_why = calloc((size_t)n, sizeof *s->native_why);
        if (!s->native_ok || !s->native_why) {
            free(s->native_ok);
            free(s->native_why);
            s->native_ok = NULL;
            s->native_why = NULL;
            return -1;
        }
    }
    if (!s->native_ok[t]) {
        char buf[512];
        int yes = sim_native_implements(s->isa, ot, buf, sizeof buf);
        if (!yes && !(s->native_why[t] = strdup(buf)))
            return -1;
        s->native_ok[t] = (signed char)(yes ? 1 : -1);
    }
    *why = s->native_why[t];
    return s->native_ok[t] > 0;
}

const sim_engine *sim_engine_choose(gisa_sim *s, const isa_opcode *op, const sim_opdef **def, const char **fault,
                                    char *why, size_t cap)
{
    *fault = why;
    const isa_optype *ot = op->optype;
    gisa_sim_engine e = s->engine;
    if (s->optype_engine && s->optype_engine[ot - s->isa->optypes] != SIM_ENGINE_UNSET)
        e = (gisa_sim_engine)s->optype_engine[ot - s->isa->optypes];
    *def = NULL;
    if (e == GISA_ENGINE_DOC)
        return &sim_engine_doc;
    const sim_opdef *c = sim_find_opdef(ot->semantics);
    if (c) {
        /* an edited pseudo-code is not what the C function implements: auto
         * runs the pseudo-code, native refuses it */
        const char *differs = NULL;
        int yes = s->native_unchecked && e == GISA_ENGINE_NATIVE ? 1 : implements(s, ot, &differs);
        if (yes < 0) {
            snprintf(why, cap, "out of memory");
            return NULL;
        }
        if (yes) {
            *def = c;
            return &sim_engine_native;
        }
        if (e == GISA_ENGINE_AUTO)
            return &sim_engine_doc;
        *fault = differs; /* kept by the simulator: never cut */
        return NULL;
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
