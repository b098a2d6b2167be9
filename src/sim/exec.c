/* The execution engine: per warp, per instruction, compute the lanes that
 * execute, point the sources at their lane arrays, call the semantic
 * function, write the results back through the lane mask. All sources are
 * read before any result is written, so IADD R1, R1, R1 reads the old R1.
 * Warps are independent (constant memory is read-only), so they are split
 * over worker threads. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/softfp.h"

struct sim_tracebuf {
    gisa_trace_fn fn;
    void *user;
    unsigned warp;
};

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

static void unpack_pred(uint32_t m, uint8_t *lanes)
{
    for (int i = 0; i < 4; i++) {
        uint64_t v = (m >> (8 * i)) & 0xff;
        v = (v | v << 28) & UINT64_C(0x0000000F0000000F);
        v = (v | v << 14) & UINT64_C(0x0003000300030003);
        v = (v | v << 7) & UINT64_C(0x0101010101010101);
        memcpy(lanes + 8 * i, &v, 8);
    }
}

static void trace_line(sim_exec *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void trace_line(sim_exec *x, const char *fmt, ...)
{
    char buf[256];
    int n = snprintf(buf, sizeof buf, "w%u ", x->trace->warp);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
    va_end(ap);
    x->trace->fn(x->trace->user, buf);
}

static void trace_gpr(sim_exec *x, unsigned row, const uint32_t *old, const uint32_t *v, uint32_t mask)
{
    if (row >= x->regs)
        return;
    uint32_t changed = 0;
    for (int l = 0; l < LANES; l++)
        if ((mask >> l & 1) && old[l] != v[l])
            changed |= UINT32_C(1) << l;
    if (!changed)
        return;
    int first = __builtin_ctz(changed), uniform = 1;
    for (int l = first + 1; l < LANES; l++)
        if ((changed >> l & 1) && (old[l] != old[first] || v[l] != v[first]))
            uniform = 0;
    if (uniform) {
        trace_line(x, "  R%u 0x%08x -> 0x%08x lanes 0x%08x", row, old[first], v[first], changed);
        return;
    }
    for (int l = first; l < LANES; l++)
        if (changed >> l & 1)
            trace_line(x, "  R%u[%d] 0x%08x -> 0x%08x", row, l, old[l], v[l]);
}

void sim_write_gpr(sim_exec *x, unsigned row, const uint32_t *v, uint32_t mask)
{
    uint32_t *dst = x->w->r + (size_t)row * LANES;
    if (x->trace)
        trace_gpr(x, row, dst, v, mask);
    if (mask == UINT32_MAX) {
        memcpy(dst, v, LANES * sizeof *v);
        return;
    }
    for (int l = 0; l < LANES; l++)
        if (mask >> l & 1)
            dst[l] = v[l];
}

void sim_write_pred(sim_exec *x, unsigned slot, uint32_t value, uint32_t mask)
{
    uint32_t old = x->w->p[slot], now = (old & ~mask) | (value & mask);
    if (slot >= SIM_PT)
        return;
    if (x->trace && now != old)
        trace_line(x, "  P%u 0x%08x -> 0x%08x", slot, old, now);
    x->w->p[slot] = now;
}

void sim_write_ur(sim_exec *x, unsigned slot, uint32_t value)
{
    if (slot >= SIM_NUR)
        return;
    if (x->trace && x->w->ur[slot] != value)
        trace_line(x, "  UR%u 0x%08x -> 0x%08x", slot, x->w->ur[slot], value);
    x->w->ur[slot] = value;
}

void sim_write_upred(sim_exec *x, unsigned slot, int value)
{
    uint32_t now = value ? UINT32_MAX : 0;
    if (slot >= SIM_PT)
        return;
    if (x->trace && x->w->up[slot] != now)
        trace_line(x, "  UP%u %d -> %d", slot, x->w->up[slot] != 0, value != 0);
    x->w->up[slot] = now;
}

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

static void pred_source(const sim_exec *x, const sim_opnd *o, uint8_t *lanes)
{
    uint32_t v = o->kind == SK_PRED ? x->w->p[o->rd_lo] : o->kind == SK_UPRED ? x->w->up[o->rd_lo] : 0;
    unpack_pred(o->pnot ? ~v : v, lanes);
}

static void fetch(sim_exec *x)
{
    const sim_insn *in = x->in;
    x->a = source(x, &in->op[RO_A], &x->bcast[0], &x->ah);
    x->b = source(x, &in->op[RO_B], &x->bcast[2], &x->bh);
    x->c = source(x, &in->op[RO_C], &x->bcast[4], &x->ch);
    static const struct {
        sim_role r;
        size_t off;
    } preds[] = {{RO_PP, offsetof(sim_exec, pp)}, {RO_PQ, offsetof(sim_exec, pq)}, {RO_PA, offsetof(sim_exec, pa)},
                 {RO_PB, offsetof(sim_exec, pb)}, {RO_PC, offsetof(sim_exec, pc)}};
    for (size_t i = 0; i < sizeof preds / sizeof preds[0]; i++)
        if (in->op[preds[i].r].kind != SK_NONE)
            pred_source(x, &in->op[preds[i].r], (uint8_t *)x + preds[i].off);
}

static void write_pred_result(sim_exec *x, const sim_opnd *o, const uint8_t *lanes)
{
    if (o->kind == SK_PRED)
        sim_write_pred(x, o->wr_lo, sim_pack_pred(lanes), x->mask);
    else if (o->kind == SK_UPRED)
        sim_write_upred(x, o->wr_lo, lanes[__builtin_ctz(x->mask)]);
}

static void write_back(sim_exec *x)
{
    const sim_insn *in = x->in;
    const sim_opnd *d = &in->op[RO_D];
    if (d->kind == SK_GPR) {
        sim_write_gpr(x, d->wr_lo, x->d, x->mask);
        if (d->pair)
            sim_write_gpr(x, d->wr_hi, x->dh, x->mask);
    }
    write_pred_result(x, &in->op[RO_PU], x->pu);
    write_pred_result(x, &in->op[RO_PV], x->pv);
}

typedef struct run_job {
    gisa_sim *s;
    unsigned first, end;     /* warps [first, end) */
    int faulted;
    gisa_sim_fault fault;    /* of the lowest faulting warp of the job */
} run_job;

static void record_fault(run_job *j, const sim_exec *x, size_t pc, const char *why, int lane)
{
    if (j->faulted)
        return;
    j->faulted = 1;
    j->fault.pc = pc;
    j->fault.warp = x->w->id;
    j->fault.lane = lane;
    snprintf(j->fault.insn, sizeof j->fault.insn, "%s", x->in->text);
    snprintf(j->fault.message, sizeof j->fault.message, "%s", why);
}

static void run_warp(run_job *j, sim_exec *x, sim_warp *w)
{
    const gisa_sim *s = j->s;
    x->w = w;
    if (x->trace)
        x->trace->warp = w->id;
    for (size_t pc = 0; pc < s->nwords; pc++) {
        const sim_insn *in = &s->prog[pc];
        x->in = in;
        if (x->trace)
            trace_line(x, "%zu %s", pc, in->text);
        if (in->fault) {
            record_fault(j, x, pc, in->fault, -1);
            return;
        }
        x->mask = w->active & (in->guard_not ? ~w->p[in->guard] : w->p[in->guard]);
        if (!x->mask)
            continue;
        fetch(x);
        in->def->fn(x);
        if (x->fault) {
            record_fault(j, x, pc, x->fault, x->fault_lane);
            x->fault = NULL;
            return;
        }
        if (!in->def->custom_write)
            write_back(x);
    }
}

static void *run_job_thread(void *arg)
{
    run_job *j = arg;
    int host_mode = fp_host_enter(); /* the caller's thread gets its mode back */
    sim_exec x;
    memset(&x, 0, sizeof x);
    x.regs = j->s->regs;
    sim_tracebuf tb = {j->s->trace_fn, j->s->trace_user, 0};
    if (j->s->trace_fn)
        x.trace = &tb;
    for (unsigned wi = j->first; wi < j->end; wi++)
        run_warp(j, &x, &j->s->warps[wi]);
    fp_host_leave(host_mode); /* the FP semantics leave the host mode anywhere */
    return NULL;
}

gisa_status gisa_sim_run(gisa_sim *s, gisa_sim_fault *fault)
{
    if (!s)
        return GISA_ERR_USAGE;
    gisa_status st = sim_predecode(s);
    if (st != GISA_OK)
        return st;
    unsigned nt = s->threads;
    if (!nt) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nt = c > 0 ? (unsigned)c : 1;
    }
    if (s->trace_fn || nt > s->nwarps)
        nt = s->trace_fn ? 1 : s->nwarps;
    if (nt > 256)
        nt = 256;
    run_job jobs[256];
    pthread_t tid[256];
    for (unsigned t = 0; t < nt; t++) {
        jobs[t] = (run_job){s, (unsigned)((uint64_t)s->nwarps * t / nt), (unsigned)((uint64_t)s->nwarps * (t + 1) / nt), 0, {0}};
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
    return GISA_OK;
}
