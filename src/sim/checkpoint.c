/* Checkpoints and state comparison, for lockstep runs: copy a simulator
 * before a risky step, compare two simulators (say, a model stepped by an
 * RTL testbench and a reference run) and name the first difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

#define CBANK_WORDS 16384u

gisa_status gisa_sim_clone(const gisa_sim *src, gisa_sim **out)
{
    if (!src || !out)
        return GISA_ERR_USAGE;
    *out = NULL;
    gisa_sim *s;
    gisa_status st = gisa_sim_new(src->isa, src->regs, src->nwarps, &s);
    if (st != GISA_OK)
        return st;
    if ((st = gisa_sim_load(s, src->words, src->nwords)) != GISA_OK) {
        gisa_sim_free(s);
        return st;
    }
    s->threads = src->threads;
    for (unsigned w = 0; w < src->nwarps; w++) {
        sim_warp *d = &s->warps[w];
        const sim_warp *o = &src->warps[w];
        uint32_t *rows = d->r;
        *d = *o;
        d->r = rows;
        memcpy(d->r, o->r, (size_t)(src->regs + 2) * LANES * sizeof *d->r);
    }
    for (int b = 0; b < 64; b++) {
        if (!src->cbank[b])
            continue;
        s->cbank[b] = malloc(CBANK_WORDS * sizeof(uint32_t));
        if (!s->cbank[b]) {
            gisa_sim_free(s);
            return GISA_ERR_NOMEM;
        }
        memcpy(s->cbank[b], src->cbank[b], CBANK_WORDS * sizeof(uint32_t));
    }
    *out = s;
    return GISA_OK;
}

static int differ(gisa_sim_diff *d, gisa_sim_diff_kind kind, unsigned warp, gisa_regfile rf, unsigned index,
                  unsigned lane, uint64_t a, uint64_t b)
{
    if (!d)
        return 1;
    *d = (gisa_sim_diff){kind, warp, rf, index, lane, a, b, {0}};
    static const char *const rf_name[] = {"R", "P", "UR", "UP"};
    switch (kind) {
    case GISA_DIFF_REG:
        if (rf == GISA_RF_R || rf == GISA_RF_P)
            snprintf(d->text, sizeof d->text, "warp %u %s%u lane %u: 0x%08llx != 0x%08llx", warp, rf_name[rf], index,
                     lane, (unsigned long long)a, (unsigned long long)b);
        else
            snprintf(d->text, sizeof d->text, "warp %u %s%u: 0x%08llx != 0x%08llx", warp, rf_name[rf], index,
                     (unsigned long long)a, (unsigned long long)b);
        break;
    case GISA_DIFF_ACTIVE:
        snprintf(d->text, sizeof d->text, "warp %u active mask: 0x%08llx != 0x%08llx", warp, (unsigned long long)a,
                 (unsigned long long)b);
        break;
    case GISA_DIFF_PC:
        /* a halted warp's pc is shown with its fault halt in bit 63 */
        snprintf(d->text, sizeof d->text, "warp %u pc: %llu%s != %llu%s", warp,
                 (unsigned long long)(a & ~(UINT64_C(1) << 63)), a >> 63 ? " (halted)" : "",
                 (unsigned long long)(b & ~(UINT64_C(1) << 63)), b >> 63 ? " (halted)" : "");
        break;
    case GISA_DIFF_CONST:
        snprintf(d->text, sizeof d->text, "c[0x%x][0x%x]: 0x%08llx != 0x%08llx", lane, index, (unsigned long long)a,
                 (unsigned long long)b);
        break;
    case GISA_DIFF_SHAPE:
        snprintf(d->text, sizeof d->text, "different shapes: %llu != %llu (ISA, registers per lane, warps)",
                 (unsigned long long)a, (unsigned long long)b);
        break;
    case GISA_DIFF_NONE: break;
    }
    return 1;
}

static int compare_warp(const gisa_sim *sa, const sim_warp *a, const sim_warp *b, gisa_sim_diff *d)
{
    unsigned w = a->id;
    for (unsigned r = 0; r < sa->regs; r++)
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t x = a->r[(size_t)r * LANES + l], y = b->r[(size_t)r * LANES + l];
            if (x != y)
                return differ(d, GISA_DIFF_REG, w, GISA_RF_R, r, l, x, y);
        }
    for (unsigned p = 0; p < SIM_PT; p++)
        if (a->p[p] != b->p[p]) {
            unsigned l = (unsigned)__builtin_ctz(a->p[p] ^ b->p[p]);
            return differ(d, GISA_DIFF_REG, w, GISA_RF_P, p, l, a->p[p] >> l & 1, b->p[p] >> l & 1);
        }
    for (unsigned u = 0; u < SIM_NUR; u++)
        if (a->ur[u] != b->ur[u])
            return differ(d, GISA_DIFF_REG, w, GISA_RF_UR, u, 0, a->ur[u], b->ur[u]);
    for (unsigned p = 0; p < SIM_PT; p++)
        if ((a->up[p] != 0) != (b->up[p] != 0))
            return differ(d, GISA_DIFF_REG, w, GISA_RF_UP, p, 0, a->up[p] != 0, b->up[p] != 0);
    if (a->active != b->active)
        return differ(d, GISA_DIFF_ACTIVE, w, GISA_RF_R, 0, 0, a->active, b->active);
    uint64_t pa = a->pc | (uint64_t)(a->halted != 0) << 63, pb = b->pc | (uint64_t)(b->halted != 0) << 63;
    if (pa != pb)
        return differ(d, GISA_DIFF_PC, w, GISA_RF_R, 0, 0, pa, pb);
    return 0;
}

static int compare(const gisa_sim *a, const gisa_sim *b, gisa_sim_diff *d)
{
    if (a->isa != b->isa) {
        differ(d, GISA_DIFF_SHAPE, 0, GISA_RF_R, 0, 0, (uintptr_t)a->isa, (uintptr_t)b->isa);
        /* the handles' addresses mean nothing to a reader: their targets do */
        const char *ta = a->isa->target_name, *tb = b->isa->target_name;
        if (d && ta && tb && strcmp(ta, tb))
            snprintf(d->text, sizeof d->text, "different ISAs: %s != %s", ta, tb);
        else if (d)
            snprintf(d->text, sizeof d->text, "different ISAs: two gisa_isa handles (of %s)", ta ? ta : tb ? tb : "an unnamed target");
        return 1;
    }
    if (a->regs != b->regs)
        return differ(d, GISA_DIFF_SHAPE, 0, GISA_RF_R, 0, 0, a->regs, b->regs);
    if (a->nwarps != b->nwarps)
        return differ(d, GISA_DIFF_SHAPE, 0, GISA_RF_R, 0, 0, a->nwarps, b->nwarps);
    for (unsigned w = 0; w < a->nwarps; w++)
        if (compare_warp(a, &a->warps[w], &b->warps[w], d))
            return 1;
    for (unsigned bank = 0; bank < 64; bank++) {
        if (!a->cbank[bank] && !b->cbank[bank])
            continue;
        for (unsigned i = 0; i < CBANK_WORDS; i++) {
            uint32_t x = a->cbank[bank] ? a->cbank[bank][i] : 0, y = b->cbank[bank] ? b->cbank[bank][i] : 0;
            if (x != y)
                return differ(d, GISA_DIFF_CONST, 0, GISA_RF_R, i * 4, bank, x, y);
        }
    }
    return 0;
}

gisa_status gisa_sim_compare(const gisa_sim *a, const gisa_sim *b, bool *equal, gisa_sim_diff *d)
{
    if (!a || !b || !equal)
        return GISA_ERR_USAGE;
    if (d)
        memset(d, 0, sizeof *d);
    *equal = !compare(a, b, d);
    return GISA_OK;
}
