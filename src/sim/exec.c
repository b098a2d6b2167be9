/* The run loop: per warp, per instruction, compute the lanes that execute,
 * point the sources at their lane arrays, call the instruction's function
 * (the engine that prepared it chose it: a C semantic function or the doc
 * engine's), write the results back through the lane mask (writes.c). All
 * sources are read before any result is written, so IADD R1, R1, R1 reads
 * the old R1. Warps are independent (constant memory is read-only), so they
 * are split over worker threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fpenv.h"
#include "sim/engine.h"
#include "sim/sim.h"
#include "fp/softfp.h"

static const uint32_t *broadcast(uint32_t *dst, uint32_t v)
{
    for (int l = 0; l < LANES; l++)
        dst[l] = v;
    return dst;
}

/* Lanes of a value source; *hi receives the high words of a 64-bit one. */
static const uint32_t *source(sim_exec *x, const sim_opnd *o, uint32_t (*space)[LANES], const uint32_t **hi)
{
    const sim_warp *w = x->w;
    const uint32_t *zero = w->r + (size_t)x->regs * LANES;
    switch (o->kind) {
    case SK_GPR:
        *hi = w->r + (size_t)o->rd_hi * LANES;
        return w->r + (size_t)o->rd_lo * LANES;
    case SK_UR:
        *hi = o->pair ? broadcast(space[1], w->ur[o->rd_hi]) : zero;
        return broadcast(space[0], w->ur[o->rd_lo]);
    case SK_CONST:
    case SK_CMEM:
        *hi = o->pair ? broadcast(space[1], (uint32_t)(o->imm >> 32)) : zero;
        return broadcast(space[0], (uint32_t)o->imm);
    default:
        *hi = zero;
        return zero;
    }
}

/* The broadcast sources (UR, constants) of a word whose hot line says so */
static void slow_sources(sim_exec *x, const sim_hot *h)
{
    const sim_insn *in = x->in;
    if (h->flags & SIM_HOT_SLOW_A)
        x->a = source(x, &in->op[RO_A], &x->bcast[0], &x->ah);
    if (h->flags & SIM_HOT_SLOW_B)
        x->b = source(x, &in->op[RO_B], &x->bcast[2], &x->bh);
    if (h->flags & SIM_HOT_SLOW_C)
        x->c = source(x, &in->op[RO_C], &x->bcast[4], &x->ch);
}

_Static_assert(offsetof(sim_exec, pq) == offsetof(sim_exec, pp) + LANES &&
                   offsetof(sim_exec, pc) == offsetof(sim_exec, pp) + 4 * LANES &&
                   offsetof(sim_exec, pv) == offsetof(sim_exec, pu) + LANES,
               "the hot line numbers the predicate lane arrays from pp and pu");

/* predicate lane array k after pp (pu): from the structure's base, since
 * the arrays are separate members (an index past pp's own 32 bytes is out
 * of its bounds, though the _Static_assert above places them in a row) */
static inline uint8_t *pred_lanes(sim_exec *x, size_t first, unsigned k)
{
    return (uint8_t *)x + first + (size_t)LANES * k;
}

static inline void fetch(sim_exec *x, const sim_hot *h)
{
    const uint32_t *r = x->w->r;
    x->a = r + (size_t)h->src[0][0] * LANES;
    x->ah = r + (size_t)h->src[0][1] * LANES;
    x->b = r + (size_t)h->src[1][0] * LANES;
    x->bh = r + (size_t)h->src[1][1] * LANES;
    x->c = r + (size_t)h->src[2][0] * LANES;
    x->ch = r + (size_t)h->src[2][1] * LANES;
    if (__builtin_expect(h->flags & SIM_HOT_SLOW, 0))
        slow_sources(x, h);
    for (unsigned i = 0; i < h->npreds; i++) {
        const unsigned f = h->pred[i].file, slot = h->pred[i].slot;
        uint32_t v = f == SIM_HOT_FILE_P ? x->w->p[slot] : f == SIM_HOT_FILE_UP ? x->w->up[slot] : 0;
        sim_unpack_pred(v ^ (0u - h->pred[i].invert), pred_lanes(x, offsetof(sim_exec, pp), h->pred[i].lanes));
    }
}

/* sim_write_gpr without a listener, inlined: the loop's usual write */
static inline void write_row(sim_exec *x, unsigned row, const uint32_t *v, uint32_t mask)
{
    if (x->commit) {
        sim_write_gpr(x, row, v, mask);
        return;
    }
    sim_warp *w = x->w;
    uint32_t *dst = w->r + (size_t)row * LANES;
    if (row >= w->rows_used) /* as sim_write_gpr: the state writer reads rows below it only */
        w->rows_used = row + 1;
    sim_store_row(dst, v, mask);
}

static inline void write_preds(sim_exec *x, const sim_hot *h)
{
    for (unsigned i = 0; i < h->nouts; i++) {
        const uint8_t *lanes = pred_lanes(x, offsetof(sim_exec, pu), h->out[i].lanes);
        if (!h->out[i].uniform)
            sim_write_pred(x, h->out[i].slot, sim_pack_pred(lanes), x->mask);
        else
            sim_write_upred(x, h->out[i].slot, lanes[__builtin_ctz(x->mask)]);
    }
}

/* D, then pu, then pv: the order of the commit record's effects */
static inline void write_back(sim_exec *x, const sim_hot *h)
{
    if (h->flags & SIM_HOT_D) {
        write_row(x, h->d[0], x->d, x->mask);
        if (h->flags & SIM_HOT_D_PAIR)
            write_row(x, h->d[1], x->dh, x->mask);
    }
    write_preds(x, h);
}

static void commit_begin(gisa_sim_commit *c, const gisa_sim *s, const sim_warp *w, size_t pc)
{
    c->warp = w->id;
    c->engine = s->prog[pc].engine ? (unsigned)s->prog[pc].engine->id : 0;
    c->pc = pc;
    c->word = s->words[pc];
    c->inst = s->insts ? &s->insts[pc] : NULL;
    c->text = s->prog[pc].text;
    c->active = w->active;
    c->exec = 0;
    c->neffects = 0;
}

/* Executes instruction pc of warp w: the fault reason (and its lane, or -1)
 * when it faults, NULL otherwise. x->commit, when set, receives the record. */
static const char *exec_one(sim_exec *x, const gisa_sim *s, sim_warp *w, size_t pc, int *lane)
{
    const sim_hot *h = &s->hot[pc];
    const sim_insn *in = &s->prog[pc];
    x->w = w;
    x->in = in;
    x->hot = h;
    if (x->commit)
        commit_begin(x->commit, s, w, pc);
    if (__builtin_expect(h->flags & SIM_HOT_FAULT, 0)) {
        *lane = -1;
        return in->fault;
    }
    x->mask = w->active & (w->p[h->guard] ^ (0u - h->guard_not));
    if (x->commit)
        x->commit->exec = x->mask;
    if (!x->mask)
        return NULL;
    fetch(x, h);
    const int custom = h->flags & SIM_HOT_CUSTOM;
    const int direct = (h->flags & SIM_HOT_DIRECT) && x->mask == UINT32_MAX && !x->commit && !custom;
    x->d = direct ? w->r + (size_t)h->d[0] * LANES : x->d_buf;
    x->dh = direct && (h->flags & SIM_HOT_D_PAIR) ? w->r + (size_t)h->d[1] * LANES : x->dh_buf;
    h->fn(x);
    if (__builtin_expect(x->fault != NULL, 0)) {
        const char *why = x->fault;
        *lane = x->fault_lane;
        x->fault = NULL;
        if (x->commit)
            x->commit->neffects = 0; /* a faulting instruction writes nothing */
        return why;
    }
    if (direct) {
        unsigned top = (h->flags & SIM_HOT_D_PAIR) && h->d[1] > h->d[0] ? h->d[1] : h->d[0];
        if (top >= w->rows_used) /* as sim_write_gpr */
            w->rows_used = top + 1;
        write_preds(x, h);
    } else if (!custom) {
        write_back(x, h);
    }
    return NULL;
}

static void fill_fault(gisa_sim_fault *f, const gisa_sim *s, const sim_warp *w, size_t pc, const char *why, int lane)
{
    f->pc = pc;
    f->warp = w->id;
    f->lane = lane;
    snprintf(f->insn, sizeof f->insn, "%s", s->prog[pc].text);
    snprintf(f->message, sizeof f->message, "%s", why);
}

/* Trace lines and the commit hook, both from the one record: the first
 * status other than GISA_OK of a callback (which stops the run). */
static gisa_status publish(const gisa_sim *s, const gisa_sim_commit *c)
{
    gisa_status st = GISA_OK;
    if (s->trace_fn)
        st = gisa_sim_commit_format(s, c, s->trace_flags, s->trace_fn, s->trace_user);
    if (s->commit_fn && st == GISA_OK)
        st = s->commit_fn(s->commit_user, c);
    return st;
}

typedef struct run_job {
    gisa_sim *s;
    unsigned first, end;     /* warps [first, end) */
    int faulted;
    gisa_sim_fault fault;    /* of the lowest faulting warp of the job */
    gisa_status stopped;     /* a callback's status that stopped the run (listening runs have one job) */
} run_job;

static void run_warp(run_job *j, sim_exec *x, sim_warp *w)
{
    const gisa_sim *s = j->s;
    if (w->halted)
        return;
    size_t pc = w->pc, end = s->nwords;
    for (; pc < end; pc++) {
        int lane;
        const char *why = exec_one(x, s, w, pc, &lane);
        gisa_status st = x->commit ? publish(s, x->commit) : GISA_OK;
        if (st != GISA_OK && !why) {
            j->stopped = st;
            pc++; /* it executed: the warp goes on after it */
            break;
        }
        if (why) {
            if (!j->faulted)
                fill_fault(&j->fault, s, w, pc, why, lane);
            j->faulted = 1;
            w->halted = 1;
            break;
        }
    }
    w->pc = pc;
}

static void *run_job_thread(void *arg)
{
    run_job *j = arg;
    fpenv_saved host; /* each worker thread in IEEE's default; the caller's thread gets its own back */
    fpenv_enter(&host);
    sim_exec x;
    memset(&x, 0, sizeof x);
    x.regs = j->s->regs;
    gisa_sim_commit commit;
    if (j->s->trace_fn || j->s->commit_fn)
        x.commit = &commit;
    for (unsigned wi = j->first; wi < j->end && j->stopped == GISA_OK; wi++)
        run_warp(j, &x, &j->s->warps[wi]);
    fpenv_leave(&host); /* the FP semantics leave the host mode anywhere */
    return NULL;
}

static gisa_status sim_continue_unguarded(gisa_sim *s, gisa_sim_fault *fault)
{
    if (!s)
        return GISA_ERR_USAGE;
    int listening = s->trace_fn || s->commit_fn;
    gisa_status st = sim_prepare(s, listening);
    if (st != GISA_OK)
        return st;
    unsigned nt = s->threads;
    if (!nt) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nt = c > 0 ? (unsigned)c : 1;
    }
    if (listening || nt > s->nwarps)
        nt = listening ? 1 : s->nwarps; /* records come in warp order, from the caller's thread */
    if (nt > 256)
        nt = 256;
    run_job jobs[256];
    pthread_t tid[256];
    for (unsigned t = 0; t < nt; t++) {
        jobs[t] = (run_job){s, (unsigned)((uint64_t)s->nwarps * t / nt), (unsigned)((uint64_t)s->nwarps * (t + 1) / nt), 0, {0},
                            GISA_OK};
    }
    unsigned started = 1;
    for (unsigned t = 1; t < nt; t++, started++)
        if (pthread_create(&tid[t], NULL, run_job_thread, &jobs[t]) != 0)
            break;
    run_job_thread(&jobs[0]);
    /* jobs that got no thread run here */
    for (unsigned t = started; t < nt; t++)
        run_job_thread(&jobs[t]);
    for (unsigned t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    for (unsigned t = 0; t < nt; t++)
        if (jobs[t].faulted) {
            if (fault)
                *fault = jobs[t].fault;
            return GISA_ERR_SIM;
        }
    return jobs[0].stopped;
}

gisa_status gisa_sim_continue(gisa_sim *s, gisa_sim_fault *fault)
{
    FPENV_RETURN(gisa_status, sim_continue_unguarded(s, fault));
}

gisa_status gisa_sim_run(gisa_sim *s, gisa_sim_fault *fault)
{
    if (!s)
        return GISA_ERR_USAGE;
    for (unsigned w = 0; w < s->nwarps; w++) {
        s->warps[w].pc = 0;
        s->warps[w].halted = 0;
    }
    return gisa_sim_continue(s, fault);
}

static gisa_status sim_step_unguarded(gisa_sim *s, unsigned warp, gisa_sim_commit *commit, gisa_sim_fault *fault)
{
    if (!s || warp >= s->nwarps)
        return GISA_ERR_USAGE;
    sim_warp *w = &s->warps[warp];
    if (w->halted || w->pc >= s->nwords)
        return GISA_ERR_USAGE;
    gisa_status st = sim_prepare(s, 1);
    if (st != GISA_OK)
        return st;
    if (!s->step_x) {
        s->step_x = aligned_alloc(_Alignof(sim_exec), sizeof *s->step_x); /* its lane arrays are on cache lines */
        if (!s->step_x)
            return GISA_ERR_NOMEM;
        memset(s->step_x, 0, sizeof *s->step_x);
    }
    sim_exec *x = s->step_x;
    x->regs = s->regs;
    x->commit = commit;
    int lane;
    size_t pc = w->pc;
    const char *why = exec_one(x, s, w, pc, &lane);
    if (why) {
        w->halted = 1;
        if (fault)
            fill_fault(fault, s, w, pc, why, lane);
        return GISA_ERR_SIM;
    }
    w->pc = pc + 1;
    return GISA_OK;
}

gisa_status gisa_sim_step(gisa_sim *s, unsigned warp, gisa_sim_commit *commit, gisa_sim_fault *fault)
{
    FPENV_RETURN(gisa_status, sim_step_unguarded(s, warp, commit, fault));
}

gisa_status gisa_sim_pc(const gisa_sim *s, unsigned warp, size_t *pc)
{
    if (!s || warp >= s->nwarps || !pc)
        return GISA_ERR_USAGE;
    *pc = s->warps[warp].pc;
    return GISA_OK;
}

gisa_status gisa_sim_set_pc(gisa_sim *s, unsigned warp, size_t pc)
{
    if (!s || warp >= s->nwarps || pc > s->nwords)
        return GISA_ERR_USAGE;
    s->warps[warp].pc = pc;
    s->warps[warp].halted = 0;
    return GISA_OK;
}

gisa_status gisa_sim_done(const gisa_sim *s, unsigned warp, bool *done)
{
    if (!s || warp >= s->nwarps || !done)
        return GISA_ERR_USAGE;
    *done = s->warps[warp].halted || s->warps[warp].pc >= s->nwords;
    return GISA_OK;
}
