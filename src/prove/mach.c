/* The run loop of one lane, symbolically: what exec.c and docengine.c do
 * for an instruction, with terms for lane values. The lane is active; the
 * guard and a fault gate every write, as the simulator's mask and its
 * "a faulting instruction writes nothing" do. */
#ifdef HAVE_Z3
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prove/mach.h"

void pv_mach_init(pv_mach *m, Z3_context z, unsigned regs, Z3_ast (*get)(void *, int, unsigned), void *user)
{
    memset(m, 0, sizeof *m);
    m->z = z;
    m->regs = regs > PV_MAX_REGS ? PV_MAX_REGS : regs;
    m->get = get;
    m->user = user;
    m->fault = Z3_mk_false(z);
}

static Z3_ast zero32(Z3_context z) { return Z3_mk_unsigned_int64(z, 0, Z3_mk_bv_sort(z, 32)); }

Z3_ast pv_value(pv_mach *m, int rf, unsigned i)
{
    Z3_ast *slot;
    switch (rf) {
    case PV_R:
        if (i >= m->regs) /* RZ's zero row */
            return zero32(m->z);
        slot = &m->r[i];
        break;
    case PV_UR:
        if (i >= SIM_NUR)
            return zero32(m->z);
        slot = &m->ur[i];
        break;
    case PV_P:
        if (i >= SIM_PT)
            return Z3_mk_true(m->z);
        slot = &m->p[i];
        break;
    default:
        if (i >= SIM_PT)
            return Z3_mk_true(m->z);
        slot = &m->up[i];
        break;
    }
    if (!*slot)
        *slot = m->get(m->user, rf, i);
    return *slot;
}

static void set(pv_mach *m, int rf, unsigned i, Z3_ast v)
{
    Z3_ast *slot = rf == PV_R ? &m->r[i] : rf == PV_UR ? &m->ur[i] : rf == PV_P ? &m->p[i] : &m->up[i];
    *slot = v;
    if (m->nwritten < 16) {
        m->written[m->nwritten][0] = rf;
        m->written[m->nwritten++][1] = (int)i;
    }
}

static int same_word(const gisa_word *a, const gisa_word *b) { return a->w[0] == b->w[0] && a->w[1] == b->w[1]; }

/* the optype's name as the disassembly starts it, for messages */
static void optype_name(const char *text, char *out, size_t cap)
{
    if (text[0] == '@')
        while (*text && *text != ' ')
            text++;
    while (*text == ' ')
        text++;
    size_t n = strcspn(text, ". ");
    snprintf(out, cap, "%.*s", (int)n, text);
}

static pv_tmpl *tmpl_of(pv_cache *c, const gisa_sim *s, size_t pc)
{
    for (size_t i = 0; i < c->n; i++)
        if (same_word(&c->key[i], &s->words[pc]))
            return c->t[i];
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        gisa_word *k = realloc(c->key, cap * sizeof *k);
        if (k)
            c->key = k;
        pv_tmpl **t = realloc(c->t, cap * sizeof *t);
        if (t)
            c->t = t;
        if (!k || !t)
            return NULL;
        c->cap = cap;
    }
    pv_tmpl *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    char name[64];
    optype_name(s->prog[pc].text ? s->prog[pc].text : "?", name, sizeof name);
    pv_build(c->z, s->prog[pc].doc, name, (int)c->n, t);
    c->key[c->n] = s->words[pc];
    c->t[c->n++] = t;
    return t;
}

void pv_cache_free(pv_cache *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->t[i]);
    free(c->t);
    free(c->key);
    memset(c, 0, sizeof *c);
}

typedef struct subst {
    Z3_ast from[4 * DS_NPORTS + 2], to[4 * DS_NPORTS + 2];
    unsigned n;
} subst;

static void bind(subst *b, Z3_ast var, Z3_ast val)
{
    if (var) {
        b->from[b->n] = var;
        b->to[b->n++] = val;
    }
}

/* exec.c's source(): the low and high words of a value source */
static void source(pv_mach *m, const sim_opnd *o, Z3_ast *lo, Z3_ast *hi)
{
    Z3_context z = m->z;
    switch (o->kind) {
    case SK_GPR:
        *lo = pv_value(m, PV_R, o->rd_lo);
        *hi = pv_value(m, PV_R, o->rd_hi);
        return;
    case SK_UR:
        *lo = pv_value(m, PV_UR, o->rd_lo);
        *hi = o->pair ? pv_value(m, PV_UR, o->rd_hi) : zero32(z);
        return;
    case SK_CONST:
    case SK_CMEM:
        *lo = Z3_mk_unsigned_int64(z, (uint32_t)o->imm, Z3_mk_bv_sort(z, 32));
        *hi = Z3_mk_unsigned_int64(z, o->pair ? (uint32_t)(o->imm >> 32) : 0, Z3_mk_bv_sort(z, 32));
        return;
    default:
        *lo = *hi = zero32(z);
    }
}

static Z3_ast pred_source(pv_mach *m, const sim_opnd *o)
{
    Z3_ast v = o->kind == SK_PRED ? pv_value(m, PV_P, o->rd_lo)
               : o->kind == SK_UPRED ? pv_value(m, PV_UP, o->rd_lo)
                                     : Z3_mk_false(m->z);
    return o->pnot ? Z3_mk_not(m->z, v) : v;
}

static Z3_ast sub(pv_mach *m, const subst *b, Z3_ast t)
{
    return t ? Z3_substitute(m->z, t, b->n, b->from, b->to) : NULL;
}

static Z3_ast gate(pv_mach *m, Z3_ast g, Z3_ast v, Z3_ast old) { return Z3_mk_ite(m->z, g, v, old); }

int pv_step(pv_cache *c, pv_mach *m, const gisa_sim *s, size_t pc, char *why, size_t cap)
{
    Z3_context z = m->z;
    const sim_insn *in = &s->prog[pc];
    m->nwritten = 0;
    if (in->fault || !in->doc) {
        char name[64];
        optype_name(in->text ? in->text : "?", name, sizeof name);
        if (!name[0] || name[0] == '.') { /* .invalid, .inst: no optype */
            snprintf(why, cap, "not an instruction prove can read: %s", in->fault ? in->fault : "no program");
            return -1;
        }
        snprintf(why, cap, "not supported by prove: %s (the doc engine does not run it: %s)", name,
                 in->fault ? in->fault : "no program");
        return -1;
    }
    pv_tmpl *t = tmpl_of(c, s, pc);
    if (!t) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    if (t->why) {
        snprintf(why, cap, "%s", t->why);
        return -1;
    }
    const ds_prog *p = in->doc;
    /* the ports, as op_doc hands them over */
    subst b = {{0}, {0}, 0};
    static const int values[] = {RO_A, RO_B, RO_C};
    for (size_t i = 0; i < 3; i++) {
        Z3_ast lo, hi;
        source(m, &in->op[values[i]], &lo, &hi);
        bind(&b, t->in_lo[values[i]], lo);
        bind(&b, t->in_hi[values[i]], hi);
    }
    if (in->op[RO_IDX].kind == SK_INDEXED) {
        Z3_ast v = pv_value(m, PV_UR, in->op[RO_IDX].rd_lo);
        bind(&b, t->in_lo[RO_IDX], v);
        bind(&b, t->in_hi[RO_IDX], v);
    }
    static const int preds[] = {RO_PP, RO_PQ, RO_PA, RO_PB, RO_PC};
    for (size_t i = 0; i < 5; i++)
        if (t->pred[preds[i]])
            bind(&b, t->pred[preds[i]], pred_source(m, &in->op[preds[i]]));
    const sim_opnd *d = &in->op[RO_D];
    int drf = d->kind == SK_UR ? PV_UR : PV_R;
    if (t->old_lo[RO_D] || t->old_hi[RO_D]) {
        bind(&b, t->old_lo[RO_D], pv_value(m, drf, d->rd_lo));
        bind(&b, t->old_hi[RO_D], pv_value(m, drf, d->rd_hi));
    }
    static const int pouts[] = {RO_PU, RO_PV};
    for (size_t i = 0; i < 2; i++)
        if (t->old_pred[pouts[i]]) /* the P file's slot, whatever its kind (op_doc's unpack) */
            bind(&b, t->old_pred[pouts[i]], pv_value(m, PV_P, in->op[pouts[i]].rd_lo));
    if (t->pfile) {
        Z3_ast v = Z3_mk_unsigned_int64(z, 1, Z3_mk_bv_sort(z, 1));
        for (int i = SIM_PT - 1; i >= 0; i--)
            v = Z3_mk_concat(z, v, Z3_mk_ite(z, pv_value(m, PV_P, (unsigned)i), Z3_mk_unsigned_int64(z, 1, Z3_mk_bv_sort(z, 1)),
                                             Z3_mk_unsigned_int64(z, 0, Z3_mk_bv_sort(z, 1))));
        bind(&b, t->pfile, v);
    }
    /* the guard; an earlier fault stopped the lane; this one writes nothing */
    Z3_ast g = in->guard >= SIM_PT ? Z3_mk_true(z) : pv_value(m, PV_P, in->guard);
    if (in->guard_not)
        g = Z3_mk_not(z, g);
    g = Z3_mk_and(z, 2, (Z3_ast[]){g, Z3_mk_not(z, m->fault)});
    Z3_ast f = Z3_mk_and(z, 2, (Z3_ast[]){g, sub(m, &b, t->fault)});
    Z3_ast w = Z3_mk_and(z, 2, (Z3_ast[]){g, Z3_mk_not(z, f)});
    /* every result from the old values, then the writes: the predicate
     * file and a uniform result (write_extra), then write_back */
    Z3_ast nv[SIM_PT], d_lo = NULL, d_hi = NULL, pu[2] = {NULL, NULL};
    const int writes_d = (p->outs >> RO_D) & 1;
    if (p->pfile_out)
        for (unsigned i = 0; i < SIM_PT; i++) {
            Z3_ast bit = Z3_mk_eq(z, Z3_mk_extract(z, i, i, sub(m, &b, t->out_pfile)),
                                  Z3_mk_unsigned_int64(z, 1, Z3_mk_bv_sort(z, 1)));
            Z3_ast we = Z3_mk_eq(z, Z3_mk_extract(z, i, i, sub(m, &b, t->out_pfile_we)),
                                 Z3_mk_unsigned_int64(z, 1, Z3_mk_bv_sort(z, 1)));
            nv[i] = gate(m, Z3_mk_and(z, 2, (Z3_ast[]){w, we}), bit, pv_value(m, PV_P, i));
        }
    if (d->kind == SK_GPR || (d->kind == SK_UR && writes_d)) {
        if (writes_d) {
            if (!t->out_lo[RO_D] || (d->pair && !t->out_hi[RO_D])) {
                snprintf(why, cap, "not supported by prove: %s (its result's words are not all written)", in->text);
                return -1;
            }
            d_lo = sub(m, &b, t->out_lo[RO_D]);
            d_hi = d->pair ? sub(m, &b, t->out_hi[RO_D]) : NULL;
        } else {
            d_lo = pv_value(m, drf, d->rd_lo);
            d_hi = d->pair ? pv_value(m, drf, d->rd_hi) : NULL;
        }
    }
    for (size_t i = 0; i < 2; i++) {
        const sim_opnd *o = &in->op[pouts[i]];
        if (o->kind != SK_PRED && o->kind != SK_UPRED)
            continue;
        if ((p->pred_outs >> pouts[i]) & 1)
            pu[i] = sub(m, &b, t->out_pred[pouts[i]]);
        else if (o->kind == SK_PRED)
            pu[i] = pv_value(m, PV_P, o->rd_lo);
        else {
            snprintf(why, cap, "not supported by prove: %s (a uniform predicate result it does not write)", in->text);
            return -1;
        }
        if (!pu[i]) {
            snprintf(why, cap, "not supported by prove: %s (a predicate result never written)", in->text);
            return -1;
        }
    }
    if (p->pfile_out)
        for (unsigned i = 0; i < SIM_PT; i++)
            set(m, PV_P, i, nv[i]);
    const unsigned nrf = drf == PV_R ? m->regs : SIM_NUR;
    if (d_lo && d->wr_lo < nrf)
        set(m, drf, d->wr_lo, gate(m, w, d_lo, pv_value(m, drf, d->wr_lo)));
    if (d_hi && d->wr_hi < nrf)
        set(m, drf, d->wr_hi, gate(m, w, d_hi, pv_value(m, drf, d->wr_hi)));
    for (size_t i = 0; i < 2; i++) {
        const sim_opnd *o = &in->op[pouts[i]];
        int rf = o->kind == SK_UPRED ? PV_UP : PV_P;
        if (pu[i] && o->wr_lo < SIM_PT)
            set(m, rf, o->wr_lo, gate(m, w, pu[i], pv_value(m, rf, o->wr_lo)));
    }
    m->fault = Z3_mk_or(z, 2, (Z3_ast[]){m->fault, f});
    return 0;
}
#endif
