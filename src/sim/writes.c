/* Every write an instruction makes, by either engine, goes through here:
 * the register files change and, when someone listens (step, trace, commit
 * hook), the commit record gets the old and new values. Also the fault
 * message both engines give for a register index outside the file. This
 * file calls nothing else of the simulator. */
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"

uint32_t sim_pack_pred(const uint8_t *lanes)
{
    uint32_t m = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t v;
        memcpy(&v, lanes + 8 * i, 8);
        /* byte k (0 or 1) lands on bit 56 + k: no two partial products meet */
        m |= (uint32_t)(((v & UINT64_C(0x0101010101010101)) * UINT64_C(0x0102040810204080)) >> 56) << (8 * i);
    }
    return m;
}

/* Commit records: every write of an executed instruction, changed or not.
 * Only filled when someone listens (step, trace, commit hook). */
static gisa_sim_effect *effect(sim_exec *x, gisa_regfile rf, unsigned index, uint32_t mask)
{
    gisa_sim_commit *c = x->commit;
    if (c->neffects >= GISA_SIM_MAX_EFFECTS)
        return NULL; /* no optype writes more (R2P: 7 predicates) */
    gisa_sim_effect *e = &c->effect[c->neffects++];
    e->rf = rf;
    e->index = index;
    e->mask = mask;
    return e;
}

static void record_mask(sim_exec *x, gisa_regfile rf, unsigned slot, uint32_t old, uint32_t now, uint32_t mask)
{
    gisa_sim_effect *e = effect(x, rf, slot, mask);
    if (!e)
        return;
    for (int l = 0; l < LANES; l++) {
        e->old_value[l] = old >> l & 1;
        e->value[l] = now >> l & 1;
    }
}

static void record_uniform(sim_exec *x, gisa_regfile rf, unsigned slot, uint32_t old, uint32_t now)
{
    gisa_sim_effect *e = effect(x, rf, slot, 1);
    if (!e)
        return;
    memset(e->old_value, 0, sizeof e->old_value);
    memset(e->value, 0, sizeof e->value);
    e->old_value[0] = old;
    e->value[0] = now;
}

void sim_write_gpr(sim_exec *x, unsigned row, const uint32_t *v, uint32_t mask)
{
    uint32_t *dst = x->w->r + (size_t)row * LANES;
    if (row >= x->w->rows_used) /* the state writer reads rows below it only */
        x->w->rows_used = row + 1;
    gisa_sim_effect *e;
    if (x->commit && row < x->regs && mask && (e = effect(x, GISA_RF_R, row, mask)) != NULL) {
        memcpy(e->old_value, dst, sizeof e->old_value);
        if (mask == UINT32_MAX)
            memcpy(e->value, v, sizeof e->value);
        else
            for (int l = 0; l < LANES; l++)
                e->value[l] = mask >> l & 1 ? v[l] : dst[l];
    }
    sim_store_row(dst, v, mask);
}

void sim_write_pred(sim_exec *x, unsigned slot, uint32_t value, uint32_t mask)
{
    uint32_t old = x->w->p[slot], now = (old & ~mask) | (value & mask);
    if (slot >= SIM_PT)
        return;
    if (x->commit && mask)
        record_mask(x, GISA_RF_P, slot, old, now, mask);
    x->w->p[slot] = now;
}

void sim_write_ur(sim_exec *x, unsigned slot, uint32_t value)
{
    if (slot >= SIM_NUR)
        return;
    if (x->commit)
        record_uniform(x, GISA_RF_UR, slot, x->w->ur[slot], value);
    x->w->ur[slot] = value;
}

void sim_write_upred(sim_exec *x, unsigned slot, int value)
{
    uint32_t now = value ? UINT32_MAX : 0;
    if (slot >= SIM_PT)
        return;
    if (x->commit)
        record_uniform(x, GISA_RF_UP, slot, x->w->up[slot] != 0, value != 0);
    x->w->up[slot] = now;
}

void sim_index_fault(char *buf, size_t cap, int64_t idx, unsigned regs, int lane)
{
    snprintf(buf, cap, "register index %lld is outside R0..R%u (and RZ) in lane %d", (long long)idx, regs - 1, lane);
}
