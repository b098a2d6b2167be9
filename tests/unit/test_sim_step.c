/* The step API against gisa_sim_run, on random programs of both targets
 * (valid words over the whole model, testgen.h) and random states:
 *  - stepping every warp to its end gives the same final state (compared by
 *    gisa_sim_compare and by reading every register), the same fault and the
 *    same trace text as gisa_sim_run;
 *  - each commit record is checked against the state itself: the effects'
 *    old values are the state before the step, the new ones the state after,
 *    every register that changed is listed, and the exec mask is
 *    active & guard;
 *  - checkpoints: a clone runs to the same state; gisa_sim_compare names the
 *    first difference; gisa_sim_set_pc, gisa_sim_done, gisa_sim_continue. */
#include <stdlib.h>
#include <string.h>

#include "testgen.h"
#include "testlib.h"

#define NWARPS 3
#define NWORDS 40

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static gisa_status text_line(void *user, const char *line)
{
    text *t = user;
    size_t n = strlen(line);
    if (t->len + n + 2 > t->cap) {
        t->cap = (t->len + n + 2) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s)
            abort();
    }
    memcpy(t->s + t->len, line, n);
    t->len += n;
    t->s[t->len++] = '\n';
    t->s[t->len] = 0;
    return GISA_OK;
}

static void random_state(gisa_sim *s, tg_rng *r)
{
    unsigned regs = gisa_sim_regs(s);
    for (unsigned w = 0; w < gisa_sim_warps(s); w++) {
        for (unsigned i = 0; i < regs; i++)
            for (int l = 0; l < 32; l++)
                gisa_sim_set(s, w, GISA_RF_R, i, l, (uint32_t)tg_next(r));
        for (unsigned i = 0; i < 7; i++) {
            for (int l = 0; l < 32; l++)
                gisa_sim_set(s, w, GISA_RF_P, i, l, (uint32_t)tg_below(r, 2));
            gisa_sim_set(s, w, GISA_RF_UP, i, 0, (uint32_t)tg_below(r, 2));
        }
        for (unsigned i = 0; i < 63; i++)
            gisa_sim_set(s, w, GISA_RF_UR, i, 0, (uint32_t)tg_below(r, 4) ? (uint32_t)tg_next(r) : (uint32_t)tg_below(r, 300));
        gisa_sim_set_active(s, w, tg_below(r, 2) ? UINT32_MAX : (uint32_t)tg_next(r) | 1);
    }
    for (unsigned k = 0; k < 64; k++)
        gisa_sim_set_const(s, (unsigned)tg_below(r, 4), (unsigned)tg_below(r, 64) * 4, (uint32_t)tg_next(r));
}

/* Every register file, read through the public API, as one array. */
static size_t snapshot(const gisa_sim *s, unsigned w, uint32_t *out)
{
    size_t n = 0;
    for (unsigned i = 0; i < gisa_sim_regs(s); i++)
        for (unsigned l = 0; l < 32; l++)
            gisa_sim_get(s, w, GISA_RF_R, i, l, &out[n++]);
    for (unsigned i = 0; i < 7; i++)
        for (unsigned l = 0; l < 32; l++)
            gisa_sim_get(s, w, GISA_RF_P, i, l, &out[n++]);
    for (unsigned i = 0; i < 63; i++)
        gisa_sim_get(s, w, GISA_RF_UR, i, 0, &out[n++]);
    for (unsigned i = 0; i < 7; i++)
        gisa_sim_get(s, w, GISA_RF_UP, i, 0, &out[n++]);
    return n;
}

/* Where register (rf, index, lane) sits in a snapshot. */
static size_t slot(unsigned regs, gisa_regfile rf, unsigned index, unsigned lane)
{
    size_t r = (size_t)regs * 32, p = r + 7 * 32, ur = p + 63;
    switch (rf) {
    case GISA_RF_R: return (size_t)index * 32 + lane;
    case GISA_RF_P: return r + index * 32 + lane;
    case GISA_RF_UR: return p + index;
    case GISA_RF_UP: return ur + index;
    }
    return 0;
}

/* The commit against the state before and after it. */
static void check_commit(const gisa_isa *isa, const gisa_sim *s, const gisa_sim_commit *c, const uint32_t *before,
                         const uint32_t *after, size_t n, const char *what)
{
    unsigned regs = gisa_sim_regs(s);
    char *listed = calloc(n, 1);
    for (unsigned i = 0; i < c->neffects; i++) {
        const gisa_sim_effect *e = &c->effect[i];
        int uniform = e->rf == GISA_RF_UR || e->rf == GISA_RF_UP;
        CHECKF(uniform ? e->mask == 1 : (e->mask & ~c->exec) == 0, "%s: effect %u mask 0x%08x, exec 0x%08x", what, i,
               e->mask, c->exec);
        /* an instruction may write one register twice (ISETP P0, P0, ...):
         * both writes are listed in order and the last one stays */
        const gisa_sim_effect *prev = NULL, *next = NULL;
        for (unsigned j = 0; j < c->neffects; j++)
            if (c->effect[j].rf == e->rf && c->effect[j].index == e->index) {
                if (j < i)
                    prev = &c->effect[j];
                else if (j > i && !next)
                    next = &c->effect[j];
            }
        for (unsigned l = 0; l < (uniform ? 1u : 32u); l++) {
            size_t k = slot(regs, e->rf, e->index, l);
            uint32_t was = prev ? prev->value[l] : before[k];
            CHECKF(e->old_value[l] == was, "%s (%s): effect %u lane %u old 0x%x, state had 0x%x", what, c->text, i, l,
                   e->old_value[l], was);
            if (!next)
                CHECKF(e->value[l] == after[k], "%s (%s): effect %u lane %u new 0x%x, state has 0x%x", what, c->text, i,
                       l, e->value[l], after[k]);
            listed[k] = 1;
        }
    }
    size_t unlisted = 0;
    for (size_t k = 0; k < n; k++)
        unlisted += before[k] != after[k] && !listed[k];
    CHECKF(unlisted == 0, "%s: %zu changed registers are not in the commit", what, unlisted);
    /* exec = active & guard */
    unsigned g;
    bool neg;
    uint32_t guard = UINT32_MAX;
    if (c->inst && gisa_inst_guard(isa, c->inst, &g, &neg) == GISA_OK && g < 7) {
        guard = 0;
        for (unsigned l = 0; l < 32; l++)
            guard |= (before[slot(regs, GISA_RF_P, g, l)] & 1u) << l;
        if (neg)
            guard = ~guard;
    } else if (c->inst && gisa_inst_guard(isa, c->inst, &g, &neg) == GISA_OK && neg) {
        guard = 0; /* @!PT */
    }
    CHECKF(c->exec == (c->active & guard), "%s: exec 0x%08x, active 0x%08x guard 0x%08x", what, c->exec, c->active,
           guard);
    free(listed);
}

static void one_program(const gisa_isa *isa, tg_rng *r, int prog)
{
    gisa_word words[NWORDS];
    tg_program(isa, r, words, NWORDS);
    gisa_sim *run = NULL, *step = NULL;
    CHECK(gisa_sim_new(isa, gisa_sim_max_regs(isa), NWARPS, &run) == GISA_OK);
    gisa_sim_set_threads(run, 1);
    CHECK(gisa_sim_load(run, words, NWORDS) == GISA_OK);
    random_state(run, r);
    CHECK(gisa_sim_clone(run, &step) == GISA_OK);
    CHECK(api_compare(run, step, NULL) == 0);

    text trace_run = {0}, trace_step = {0};
    gisa_sim_set_trace(run, text_line, &trace_run);
    gisa_sim_fault frun, fstep;
    gisa_status st_run = gisa_sim_run(run, &frun), st_step = GISA_OK;

    size_t n = (size_t)gisa_sim_regs(step) * 32 + 7 * 32 + 63 + 7;
    uint32_t *before = malloc(n * sizeof *before), *after = malloc(n * sizeof *after);
    gisa_sim_commit c;
    for (unsigned w = 0; w < NWARPS; w++) {
        while (!api_done(step, w)) {
            size_t pc = api_pc(step, w);
            snapshot(step, w, before);
            gisa_sim_fault f;
            gisa_status st = gisa_sim_step(step, w, &c, &f);
            snapshot(step, w, after);
            gisa_sim_commit_format(step, &c, 0, text_line, &trace_step);
            char what[64];
            snprintf(what, sizeof what, "program %d warp %u pc %zu", prog, w, pc);
            CHECKF(c.pc == pc && c.warp == w, "%s: commit says warp %u pc %zu", what, c.warp, c.pc);
            CHECK(c.inst != NULL && c.word.w[0] == words[pc].w[0] && c.word.w[1] == words[pc].w[1]);
            if (st == GISA_ERR_SIM) {
                CHECKF(c.neffects == 0 && !memcmp(before, after, n * sizeof *before), "%s: a fault wrote", what);
                CHECKF(api_done(step, w) && api_pc(step, w) == pc, "%s: fault does not halt", what);
                if (st_step == GISA_OK) {
                    st_step = st;
                    fstep = f;
                }
                break;
            }
            CHECKF(st == GISA_OK, "%s: step returned %d", what, st);
            check_commit(isa, step, &c, before, after, n, what);
        }
    }
    CHECKF(st_run == st_step, "program %d: run %d, step %d", prog, st_run, st_step);
    if (st_run == GISA_ERR_SIM && st_step == GISA_ERR_SIM)
        CHECKF(frun.warp == fstep.warp && frun.pc == fstep.pc && frun.lane == fstep.lane &&
                   !strcmp(frun.message, fstep.message),
               "program %d: run faulted at w%u pc %zu (%s), step at w%u pc %zu (%s)", prog, frun.warp, frun.pc,
               frun.message, fstep.warp, fstep.pc, fstep.message);
    gisa_sim_diff d;
    CHECKF(api_compare(run, step, &d) == 0, "program %d: states differ: %s", prog, d.text);
    for (unsigned w = 0; w < NWARPS; w++) {
        snapshot(run, w, before);
        snapshot(step, w, after);
        CHECKF(!memcmp(before, after, n * sizeof *before), "program %d warp %u: register files differ", prog, w);
    }
    CHECKF(trace_run.len == trace_step.len && !memcmp(trace_run.s, trace_step.s, trace_run.len),
           "program %d: the traces differ (%zu and %zu bytes)", prog, trace_run.len, trace_step.len);
    free(before);
    free(after);
    free(trace_run.s);
    free(trace_step.s);
    gisa_sim_free(run);
    gisa_sim_free(step);
}

static gisa_word assemble_one(const gisa_isa *isa, const char *text)
{
    gisa_word w = {{0, 0}};
    CHECKF(api_asm_one(isa, text, &w, NULL) == GISA_OK, "cannot assemble %s", text);
    return w;
}

/* Hand-checked details: a skipped instruction, a write of an unchanged
 * value, pairs, the diff, continue after steps. */
static void details(const gisa_isa *isa)
{
    gisa_word p[4] = {assemble_one(isa, "MOV R0, 0x0"), assemble_one(isa, "@!PT MOV R1, 0x5"),
                      assemble_one(isa, "IMAD.WIDE.U32 R[2:3], R0, R0, R[4:5]"),
                      assemble_one(isa, "ISETP.LT.AND P0, PT, R0, 0x1, PT")};
    gisa_sim *s, *ref;
    CHECK(gisa_sim_new(isa, 8, 2, &s) == GISA_OK);
    CHECK(gisa_sim_load(s, p, 4) == GISA_OK);
    CHECK(gisa_sim_set(s, 0, GISA_RF_R, 4, -1, 7) == GISA_OK);
    CHECK(gisa_sim_clone(s, &ref) == GISA_OK);
    gisa_sim_commit c;
    CHECK(api_pc(s, 0) == 0 && !api_done(s, 0));
    CHECK(gisa_sim_step(s, 0, &c, NULL) == GISA_OK);
    CHECKF(c.neffects == 1 && c.effect[0].rf == GISA_RF_R && c.effect[0].index == 0 && c.effect[0].mask == UINT32_MAX &&
               c.effect[0].value[5] == 0 && c.effect[0].old_value[5] == 0,
           "a write of an unchanged value is a write (%u effects)", c.neffects);
    CHECK(gisa_sim_step(s, 0, &c, NULL) == GISA_OK);
    CHECKF(c.exec == 0 && c.neffects == 0 && c.active == UINT32_MAX, "@!PT: exec 0x%08x, %u effects", c.exec,
           c.neffects);
    CHECK(gisa_sim_step(s, 0, &c, NULL) == GISA_OK);
    CHECKF(c.neffects == 2 && c.effect[0].index == 2 && c.effect[1].index == 3 && c.effect[0].value[0] == 7 &&
               c.effect[1].value[0] == 0,
           "a pair is two effects, low first (%u)", c.neffects);
    /* the rest of warp 0 and all of warp 1 by continue, then compare with run */
    CHECK(api_pc(s, 0) == 3);
    CHECK(gisa_sim_continue(s, NULL) == GISA_OK);
    CHECK(api_done(s, 0) && api_done(s, 1) && api_pc(s, 1) == 4);
    CHECK(gisa_sim_step(s, 0, &c, NULL) == GISA_ERR_USAGE);
    CHECK(gisa_sim_step(s, 2, &c, NULL) == GISA_ERR_USAGE);
    CHECK(gisa_sim_run(ref, NULL) == GISA_OK);
    gisa_sim_diff d;
    CHECKF(api_compare(s, ref, &d) == 0, "continue after steps = run: %s", d.text);
    /* the first difference, named */
    CHECK(gisa_sim_set(ref, 1, GISA_RF_R, 3, 17, 0x1234) == GISA_OK);
    CHECK(gisa_sim_set(ref, 1, GISA_RF_R, 5, 2, 0x1234) == GISA_OK);
    CHECK(api_compare(s, ref, &d) == 1);
    CHECKF(d.kind == GISA_DIFF_REG && d.warp == 1 && d.rf == GISA_RF_R && d.index == 3 && d.lane == 17 && d.a == 0 &&
               d.b == 0x1234 && strstr(d.text, "warp 1 R3 lane 17"),
           "diff: %s", d.text);
    CHECK(gisa_sim_set_pc(ref, 1, 2) == GISA_OK);
    CHECK(gisa_sim_set(ref, 1, GISA_RF_R, 3, 17, 0) == GISA_OK);
    CHECK(gisa_sim_set(ref, 1, GISA_RF_R, 5, 2, 0) == GISA_OK);
    CHECK(api_compare(s, ref, &d) == 1 && d.kind == GISA_DIFF_PC && d.warp == 1 && d.a == 4 && d.b == 2);
    CHECK(gisa_sim_set_pc(ref, 1, 5) == GISA_ERR_USAGE);
    CHECK(gisa_sim_set_pc(ref, 1, 4) == GISA_OK);
    CHECK(gisa_sim_set_const(ref, 3, 8, 9) == GISA_OK);
    CHECK(api_compare(s, ref, &d) == 1 && d.kind == GISA_DIFF_CONST && d.lane == 3 && d.index == 8 && d.b == 9);
    gisa_sim_free(s);
    gisa_sim_free(ref);
}

int main(void)
{
    static const char *const targets[] = {"gisa128", "fermi"};
    for (int t = 0; t < 2; t++) {
        gisa_isa *isa = test_isa_target(targets[t]);
        if (!isa)
            return 1;
        tg_rng r = {0x5eed0000u + (uint64_t)t};
        for (int prog = 0; prog < 60; prog++)
            one_program(isa, &r, prog);
        if (t == 0)
            details(isa);
        gisa_isa_free(isa);
    }
    return test_summary();
}
