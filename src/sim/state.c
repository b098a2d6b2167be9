/* Simulator state: creation, the register/predicate/constant accessors of
 * the public API, program loading. */
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

/* A fresh warp: its rows are in the zeroed slab already. */
static void warp_init(sim_warp *w, unsigned id)
{
    memset(w->ur, 0, sizeof w->ur);
    memset(w->p, 0, sizeof w->p);
    memset(w->up, 0, sizeof w->up);
    w->p[SIM_PT] = UINT32_MAX;
    w->up[SIM_PT] = UINT32_MAX;
    w->active = UINT32_MAX;
    w->id = id;
    w->pc = 0;
    w->halted = 0;
}

unsigned gisa_sim_max_regs(const gisa_isa *isa)
{
    unsigned n = 0;
    for (int i = 0; isa && i < isa->ntypes; i++)
        if (isa->types[i].kind == TY_REG && isa->types[i].rclass == RC_GPR && isa->types[i].zero_value > n)
            n = (unsigned)isa->types[i].zero_value;
    return n > GISA_SIM_MAX_REGS ? GISA_SIM_MAX_REGS : n;
}

size_t gisa_sim_footprint(unsigned regs, unsigned warps, size_t nwords)
{
    /* predecode.c keeps two texts of 160 bytes per instruction */
    const size_t per_word = sizeof(gisa_word) + sizeof(sim_insn) + 2 * 160;
    const size_t per_warp = sizeof(sim_warp) + (size_t)(regs + 2) * LANES * sizeof(uint32_t);
    return sizeof(gisa_sim) + (size_t)warps * per_warp + nwords * per_word;
}

/* The page the slab's warps are aligned to (the common size; on larger
 * pages the alignment helps less, and costs nothing). */
#define SLAB_PAGE 4096u

/* The distance in words from one warp's rows to the next: its (regs + 2)
 * rows, rounded up to whole pages when a warp spans several pages. A
 * program touches the first rows of every warp (R0..R31 of 255 are one
 * page), and a warp that starts on a page touches one page fewer than one
 * that straddles two: 4,096 warps fault 4,096 pages less. A small warp
 * stays unpadded, as warps then share pages. */
static size_t warp_stride(unsigned regs)
{
    const size_t page = SLAB_PAGE / sizeof(uint32_t), rows = (size_t)(regs + 2) * LANES;
    return rows >= 4 * page ? (rows + page - 1) / page * page : rows;
}

gisa_status gisa_sim_new(const gisa_isa *isa, unsigned regs, unsigned warps, gisa_sim **out)
{
    if (!out)
        return GISA_ERR_USAGE;
    *out = NULL;
    if (!isa || regs < 1 || regs > gisa_sim_max_regs(isa) || warps < 1 || warps > GISA_SIM_MAX_WARPS)
        return GISA_ERR_USAGE;
    gisa_sim *s = calloc(1, sizeof *s);
    if (!s)
        return GISA_ERR_NOMEM;
    s->isa = isa;
    s->regs = regs;
    s->nwarps = warps;
    s->warps = calloc(warps, sizeof *s->warps);
    if (!s->warps) {
        free(s);
        return GISA_ERR_NOMEM;
    }
    /* one zeroed slab for every warp's rows: calloc maps fresh pages, so a
     * register no warp touches costs no time; each warp's rows start on a
     * cache line (a row is 128 bytes) so the lane loops see aligned arrays */
    size_t stride = warp_stride(regs);
    s->slab = calloc((size_t)warps * stride + SLAB_PAGE / sizeof(uint32_t), sizeof(uint32_t));
    if (!s->slab) {
        gisa_sim_free(s);
        return GISA_ERR_NOMEM;
    }
    uintptr_t align = stride % (SLAB_PAGE / sizeof(uint32_t)) ? 64 : SLAB_PAGE;
    uint32_t *base = (uint32_t *)(((uintptr_t)s->slab + align - 1) & ~(align - 1));
    for (unsigned i = 0; i < warps; i++) {
        s->warps[i].r = base + (size_t)i * stride;
        warp_init(&s->warps[i], i);
    }
    *out = s;
    return GISA_OK;
}

void gisa_sim_free(gisa_sim *s)
{
    if (!s)
        return;
    free(s->slab);
    free(s->warps);
    for (int b = 0; b < 64; b++)
        free(s->cbank[b]);
    free(s->words);
    sim_program_free(s);
    free(s->step_x);
    free(s->optype_engine);
    for (int t = 0; s->native_why && t < s->isa->noptypes; t++)
        free(s->native_why[t]);
    free(s->native_why);
    free(s->native_ok);
    free(s);
}

unsigned gisa_sim_regs(const gisa_sim *s) { return s ? s->regs : 0; }
const gisa_isa *gisa_sim_isa(const gisa_sim *s) { return s ? s->isa : NULL; }
unsigned gisa_sim_warps(const gisa_sim *s) { return s ? s->nwarps : 0; }
gisa_status gisa_sim_set_engine(gisa_sim *s, gisa_sim_engine engine)
{
    if (!s || (engine != GISA_ENGINE_AUTO && engine != GISA_ENGINE_NATIVE && engine != GISA_ENGINE_DOC))
        return GISA_ERR_USAGE;
    if (s->engine != engine)
        sim_invalidate(s); /* the pre-decoded program is bound to one engine */
    s->engine = engine;
    return GISA_OK;
}

gisa_status gisa_sim_set_threads(gisa_sim *s, unsigned threads)
{
    if (!s)
        return GISA_ERR_USAGE;
    s->threads = threads;
    return GISA_OK;
}

static int index_ok(const gisa_sim *s, gisa_regfile rf, unsigned index)
{
    switch (rf) {
    case GISA_RF_R: return index < s->regs;
    case GISA_RF_UR: return index < SIM_NUR;
    case GISA_RF_P:
    case GISA_RF_UP: return index < SIM_PT;
    }
    return 0;
}

gisa_status gisa_sim_set(gisa_sim *s, unsigned warp, gisa_regfile rf, unsigned index, int lane, uint32_t value)
{
    if (!s || warp >= s->nwarps || lane >= LANES || !index_ok(s, rf, index))
        return GISA_ERR_USAGE;
    sim_warp *w = &s->warps[warp];
    uint32_t lanes = lane < 0 ? UINT32_MAX : UINT32_C(1) << lane;
    switch (rf) {
    case GISA_RF_R:
        if (index >= w->rows_used)
            w->rows_used = index + 1;
        for (int l = 0; l < LANES; l++)
            if (lanes >> l & 1)
                w->r[(size_t)index * LANES + (unsigned)l] = value;
        break;
    case GISA_RF_P: w->p[index] = value ? w->p[index] | lanes : w->p[index] & ~lanes; break;
    case GISA_RF_UR: w->ur[index] = value; break;
    case GISA_RF_UP: w->up[index] = value ? UINT32_MAX : 0; break;
    }
    return GISA_OK;
}

gisa_status gisa_sim_get(const gisa_sim *s, unsigned warp, gisa_regfile rf, unsigned index, unsigned lane,
                         uint32_t *value)
{
    if (!s || !value || warp >= s->nwarps || lane >= LANES)
        return GISA_ERR_USAGE;
    const sim_warp *w = &s->warps[warp];
    /* the zero registers and PT read as the hardware reads them */
    switch (rf) {
    case GISA_RF_R:
        if (index == 255) {
            *value = 0;
            return GISA_OK;
        }
        if (index >= s->regs)
            return GISA_ERR_USAGE;
        *value = w->r[(size_t)index * LANES + lane];
        return GISA_OK;
    case GISA_RF_P:
        if (index > SIM_PT)
            return GISA_ERR_USAGE;
        *value = w->p[index] >> lane & 1;
        return GISA_OK;
    case GISA_RF_UR:
        if (index > SIM_NUR)
            return GISA_ERR_USAGE;
        *value = w->ur[index];
        return GISA_OK;
    case GISA_RF_UP:
        if (index > SIM_PT)
            return GISA_ERR_USAGE;
        *value = w->up[index] != 0;
        return GISA_OK;
    }
    return GISA_ERR_USAGE;
}

gisa_status gisa_sim_set_active(gisa_sim *s, unsigned warp, uint32_t mask)
{
    if (!s || warp >= s->nwarps)
        return GISA_ERR_USAGE;
    s->warps[warp].active = mask;
    return GISA_OK;
}

gisa_status gisa_sim_get_active(const gisa_sim *s, unsigned warp, uint32_t *mask)
{
    if (!s || warp >= s->nwarps || !mask)
        return GISA_ERR_USAGE;
    *mask = s->warps[warp].active;
    return GISA_OK;
}

gisa_status gisa_sim_set_const(gisa_sim *s, unsigned bank, unsigned offset, uint32_t value)
{
    if (!s || bank >= 64 || offset >= SIM_CBANK_BYTES || offset % 4)
        return GISA_ERR_USAGE;
    if (!s->cbank[bank]) {
        if (!value)
            return GISA_OK;
        s->cbank[bank] = calloc(SIM_CBANK_BYTES / 4, sizeof(uint32_t));
        if (!s->cbank[bank])
            return GISA_ERR_NOMEM;
    }
    s->cbank[bank][offset / 4] = value;
    sim_invalidate(s); /* the pre-decoded program holds constant operands */
    return GISA_OK;
}

gisa_status gisa_sim_get_const(const gisa_sim *s, unsigned bank, unsigned offset, uint32_t *value)
{
    if (!s || !value || bank >= 64 || offset >= SIM_CBANK_BYTES || offset % 4)
        return GISA_ERR_USAGE;
    *value = sim_const_read(s, bank, offset);
    return GISA_OK;
}

gisa_status gisa_sim_load(gisa_sim *s, const gisa_word *words, size_t n)
{
    if (!s || (n && !words))
        return GISA_ERR_USAGE;
    gisa_word *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return GISA_ERR_NOMEM;
    if (n)
        memcpy(copy, words, n * sizeof *copy);
    free(s->words);
    s->words = copy;
    s->nwords = n;
    sim_program_free(s);
    for (unsigned w = 0; w < s->nwarps; w++) {
        s->warps[w].pc = 0;
        s->warps[w].halted = 0;
    }
    return GISA_OK;
}

gisa_status gisa_sim_set_trace(gisa_sim *s, gisa_trace_fn fn, void *user)
{
    if (!s)
        return GISA_ERR_USAGE;
    s->trace_fn = fn;
    s->trace_user = user;
    return GISA_OK;
}

gisa_status gisa_sim_set_trace_flags(gisa_sim *s, unsigned flags)
{
    if (!s)
        return GISA_ERR_USAGE;
    s->trace_flags = flags;
    return GISA_OK;
}

gisa_status gisa_sim_set_commit_hook(gisa_sim *s, gisa_commit_fn fn, void *user)
{
    if (!s)
        return GISA_ERR_USAGE;
    s->commit_fn = fn;
    s->commit_user = user;
    return GISA_OK;
}
