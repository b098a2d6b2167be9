/* gisa_prove and gisa_prove_check (include/gisa.h, docs/prove.md): the
 * two programs pre-decoded by the simulator for the doc engine, stepped
 * symbolically (mach.c) on one lane whose inputs are free where --assume
 * does not pin them, their results compared by Z3; a counterexample is
 * simulated before it is believed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gisa.h"

#ifndef HAVE_Z3
static const char no_z3[] = "gisa was built without Z3: install Debian's libz3-dev (scripts/deps.sh lists it) and "
                            "build again (CMake finds it)";

bool gisa_prove_available(void) { return false; }

gisa_status gisa_prove(const gisa_isa *isa, const gisa_word *a, size_t na, const gisa_word *b, size_t nb,
                       const gisa_prove_options *opt, gisa_prove_result *res)
{
    (void)isa, (void)a, (void)na, (void)b, (void)nb, (void)opt;
    if (!res)
        return GISA_ERR_USAGE;
    memset(res, 0, sizeof *res);
    res->verdict = GISA_PROVE_UNKNOWN;
    snprintf(res->message, sizeof res->message, "%s", no_z3);
    return GISA_OK;
}

gisa_status gisa_prove_check(const gisa_isa *isa, const gisa_word *w, size_t n, const gisa_state *state,
                             char **report, unsigned *mismatches)
{
    (void)isa, (void)w, (void)n, (void)state;
    if (mismatches)
        *mismatches = 0;
    if (report) {
        *report = malloc(sizeof no_z3 + 1);
        if (*report)
            memcpy(*report, no_z3, sizeof no_z3);
    }
    return GISA_ERR_USAGE;
}
#else
#include <z3.h>

#include "common/strbuf.h"
#include "prove/mach.h"
#include "sim/sim.h"
#include "sim/state_io.h"

static const char *const RF_NAME[4] = {"R", "P", "UR", "UP"};
static const gisa_regfile RF_API[4] = {GISA_RF_R, GISA_RF_P, GISA_RF_UR, GISA_RF_UP};
static const unsigned RF_N[4] = {PV_MAX_REGS, SIM_PT, SIM_NUR, SIM_PT};

bool gisa_prove_available(void) { return true; }

static _Thread_local const char *z3_error;
static void on_error(Z3_context z, Z3_error_code e)
{
    (void)z;
    z3_error = Z3_get_error_msg(z, e);
}

static Z3_context new_context(void)
{
    Z3_config cfg = Z3_mk_config();
    Z3_context z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    if (z)
        Z3_set_error_handler(z, on_error);
    return z;
}

/* ------------------------------------------------------------------ output sets */

typedef struct regset {
    unsigned char on[4][PV_MAX_REGS];
} regset;

static int parse_reg(const char *s, size_t n, int *rf, unsigned *i)
{
    size_t k = 0;
    if (n >= 2 && (s[0] == 'U' || s[0] == 'u') && (s[1] == 'R' || s[1] == 'r'))
        *rf = PV_UR, k = 2;
    else if (n >= 2 && (s[0] == 'U' || s[0] == 'u') && (s[1] == 'P' || s[1] == 'p'))
        *rf = PV_UP, k = 2;
    else if (n >= 1 && (s[0] == 'R' || s[0] == 'r'))
        *rf = PV_R, k = 1;
    else if (n >= 1 && (s[0] == 'P' || s[0] == 'p'))
        *rf = PV_P, k = 1;
    else
        return -1;
    if (k == n)
        return -1;
    unsigned v = 0;
    for (; k < n; k++) {
        if (s[k] < '0' || s[k] > '9' || v > 1000)
            return -1;
        v = v * 10 + (unsigned)(s[k] - '0');
    }
    if (v >= RF_N[*rf])
        return -1;
    *i = v;
    return 0;
}

/* "R0,R2-R5,P0,UR3": into set; -1 with why */
static int parse_set(const char *what, const char *text, regset *set, char *why, size_t cap)
{
    const char *s = text;
    while (*s) {
        size_t n = strcspn(s, ",");
        size_t dash = strcspn(s, "-");
        int rf, rf2;
        unsigned i, j;
        int bad = dash < n ? parse_reg(s, dash, &rf, &i) || parse_reg(s + dash + 1, n - dash - 1, &rf2, &j) || rf2 != rf || j < i
                           : parse_reg(s, n, &rf, &i) || ((j = i), 0);
        if (bad) {
            snprintf(why, cap, "%s: '%.*s' is not a register, predicate or uniform register, nor a range of them "
                     "(R0, P1, UR2, UP3, R4-R7)", what, (int)n, s);
            return -1;
        }
        for (unsigned k = i; k <= j; k++)
            set->on[rf][k] = 1;
        s += n;
        if (*s == ',')
            s++;
    }
    return 0;
}

/* what a program writes (its outputs by default) */
static void written(const gisa_sim *s, regset *set)
{
    for (size_t pc = 0; pc < s->nprog; pc++) {
        const sim_insn *in = &s->prog[pc];
        const sim_opnd *d = &in->op[RO_D];
        if (d->kind == SK_GPR || (d->kind == SK_UR && in->doc && (in->doc->outs & 1u << RO_D))) {
            int rf = d->kind == SK_GPR ? PV_R : PV_UR;
            unsigned lim = rf == PV_R ? s->regs : SIM_NUR;
            if (d->wr_lo < lim)
                set->on[rf][d->wr_lo] = 1;
            if (d->pair && d->wr_hi < lim)
                set->on[rf][d->wr_hi] = 1;
        }
        for (int r = RO_PU; r <= RO_PV; r++) {
            const sim_opnd *o = &in->op[r];
            if ((o->kind == SK_PRED || o->kind == SK_UPRED) && o->wr_lo < SIM_PT)
                set->on[o->kind == SK_PRED ? PV_P : PV_UP][o->wr_lo] = 1;
        }
        if (in->doc && in->doc->pfile_out)
            for (int i = 0; i < SIM_PT; i++)
                set->on[PV_P][i] = 1;
    }
}

/* ------------------------------------------------------------------ inputs */

typedef struct inputs {
    Z3_context z;
    gisa_sim *bg[2]; /* the state over all-zero and all-one backgrounds: equal values are pinned */
    unsigned lane;
} inputs;

static int pinned(const inputs *in, int rf, unsigned i, unsigned lane, uint32_t *v)
{
    uint32_t x = 0, y = 1;
    if (rf == PV_R && i >= in->bg[0]->regs)
        return *v = 0, 1;
    if (gisa_sim_get(in->bg[0], 0, RF_API[rf], i, lane, &x) || gisa_sim_get(in->bg[1], 0, RF_API[rf], i, lane, &y))
        return 0;
    *v = x;
    return x == y;
}

static Z3_ast input(void *user, int rf, unsigned i)
{
    inputs *in = user;
    uint32_t v;
    const int is_pred = rf == PV_P || rf == PV_UP;
    if (in->bg[0] && pinned(in, rf, i, in->lane, &v))
        return is_pred ? (v ? Z3_mk_true(in->z) : Z3_mk_false(in->z))
                       : Z3_mk_unsigned_int64(in->z, v, Z3_mk_bv_sort(in->z, 32));
    char name[16];
    snprintf(name, sizeof name, "%s%u", RF_NAME[rf], i);
    return Z3_mk_const(in->z, Z3_mk_string_symbol(in->z, name), is_pred ? Z3_mk_bool_sort(in->z) : Z3_mk_bv_sort(in->z, 32));
}

/* whether lanes l and k have the same pins (so one proof covers both) */
static int same_pins(const inputs *in, unsigned l, unsigned k)
{
    for (int rf = PV_R; rf <= PV_P; rf++)
        for (unsigned i = 0; i < (rf == PV_R ? in->bg[0]->regs : SIM_PT); i++) {
            uint32_t a, b;
            int pa = pinned(in, rf, i, l, &a), pb = pinned(in, rf, i, k, &b);
            if (pa != pb || (pa && a != b))
                return 0;
        }
    return 1;
}

static gisa_status make_sim(const gisa_isa *isa, const gisa_word *w, size_t n, const gisa_state *st, unsigned bgv,
                            gisa_sim **out, char *why, size_t cap)
{
    unsigned warps = st && gisa_state_warps(st) ? gisa_state_warps(st) : 1;
    gisa_sim *s;
    gisa_status r = gisa_sim_new(isa, gisa_sim_max_regs(isa), warps, &s);
    if (r)
        return r;
    gisa_sim_set_engine(s, GISA_ENGINE_DOC);
    gisa_sim_set_threads(s, 1);
    if ((r = gisa_sim_load(s, w, n)) != GISA_OK || (r = sim_prepare(s, 0)) != GISA_OK) {
        gisa_sim_free(s);
        return r;
    }
    for (unsigned wp = 0; wp < warps; wp++) {
        for (unsigned i = 0; i < s->regs; i++)
            gisa_sim_set(s, wp, GISA_RF_R, i, -1, bgv);
        for (unsigned i = 0; i < SIM_PT; i++) {
            gisa_sim_set(s, wp, GISA_RF_P, i, -1, bgv & 1);
            gisa_sim_set(s, wp, GISA_RF_UP, i, -1, bgv & 1);
        }
        for (unsigned i = 0; i < SIM_NUR; i++)
            gisa_sim_set(s, wp, GISA_RF_UR, i, -1, bgv);
    }
    for (size_t pc = 0; pc < s->nprog; pc++)
        for (int r2 = 0; r2 < RO_COUNT; r2++)
            if (s->prog[pc].op[r2].kind == SK_CMEM)
                gisa_sim_set_const(s, s->prog[pc].op[r2].bank, s->prog[pc].op[r2].offset, bgv);
    if (st) {
        gisa_diags *d = NULL;
        gisa_diags_new(&d);
        r = gisa_sim_state_apply(s, st, d);
        if (r && d && gisa_diags_count(d)) {
            const gisa_diag *g = gisa_diags_get(d, 0);
            snprintf(why, cap, "--assume: %s", g->message);
        } else if (r) {
            snprintf(why, cap, "--assume: the state does not apply");
        }
        gisa_diags_free(d);
        if (r) {
            gisa_sim_free(s);
            return r;
        }
    }
    sim_invalidate(s);
    if ((r = sim_prepare(s, 0)) != GISA_OK) {
        gisa_sim_free(s);
        return r;
    }
    *out = s;
    return GISA_OK;
}

/* ------------------------------------------------------------------ proving */

typedef struct job {
    const gisa_isa *isa;
    const gisa_prove_options *opt;
    gisa_prove_result *res;
    gisa_sim *a[2], *b[2];
    Z3_context z;
    pv_cache cache;
    regset outs;
    uint32_t active;
} job;

static int run_sym(job *j, gisa_sim *s, pv_mach *m, const char *which)
{
    char why[400];
    for (size_t pc = 0; pc < s->nprog; pc++)
        if (pv_step(&j->cache, m, s, pc, why, sizeof why)) {
            snprintf(j->res->message, sizeof j->res->message, "%s, in %s at pc %zu", why, which, pc);
            return -1;
        }
    return 0;
}

static Z3_ast differ(job *j, pv_mach *ma, pv_mach *mb)
{
    Z3_context z = j->z;
    Z3_ast any = Z3_mk_false(z);
    for (int rf = 0; rf < 4; rf++)
        for (unsigned i = 0; i < RF_N[rf]; i++)
            if (j->outs.on[rf][i]) {
                Z3_ast ne = Z3_mk_not(z, Z3_mk_eq(z, pv_value(ma, rf, i), pv_value(mb, rf, i)));
                any = Z3_mk_or(z, 2, (Z3_ast[]){any, ne});
            }
    /* a fault on one side only differs; where both fault nothing is compared */
    Z3_ast ff = Z3_mk_not(z, Z3_mk_eq(z, ma->fault, mb->fault));
    return Z3_mk_or(z, 2, (Z3_ast[]){ff, Z3_mk_and(z, 2, (Z3_ast[]){Z3_mk_not(z, ma->fault), any})});
}

static const char *fault_text(gisa_status st, const gisa_sim_fault *f, char *buf, size_t cap)
{
    if (st == GISA_OK)
        return NULL;
    snprintf(buf, cap, "faults at %zu: %.60s", f->pc, f->message);
    return buf;
}

/* The model as a state (the lanes of lane's class), then both programs
 * simulated on it: 1 when their outputs differ (res filled), 0 when not. */
static int recheck(job *j, Z3_model mdl, unsigned lane, const inputs *in)
{
    gisa_sim *c = NULL;
    if (gisa_sim_clone(j->a[0], &c))
        return 0;
    unsigned nc = Z3_model_get_num_consts(j->z, mdl);
    for (unsigned k = 0; k < nc; k++) {
        Z3_func_decl d = Z3_model_get_const_decl(j->z, mdl, k);
        const char *name = Z3_get_symbol_string(j->z, Z3_get_decl_name(j->z, d));
        int rf;
        unsigned idx;
        if (parse_reg(name, strlen(name), &rf, &idx))
            continue;
        Z3_ast v = Z3_model_get_const_interp(j->z, mdl, d);
        uint64_t u = 0;
        if (rf == PV_P || rf == PV_UP)
            u = Z3_get_bool_value(j->z, v) == Z3_L_TRUE;
        else if (!Z3_get_numeral_uint64(j->z, v, &u))
            continue;
        for (unsigned l = 0; l < 32; l++)
            if ((j->active >> l & 1) && same_pins(in, l, lane))
                gisa_sim_set(c, 0, RF_API[rf], idx, (int)l, (uint32_t)u);
    }
    char *json = sim_state_write_json(c);
    gisa_sim *ra = NULL, *rb = NULL;
    int found = 0;
    if (json && !gisa_sim_clone(c, &ra) && !gisa_sim_clone(c, &rb) && !gisa_sim_load(rb, j->b[0]->words, j->b[0]->nwords)) {
        gisa_sim_fault fa, fb;
        char ba[200], bb[200];
        const char *ta = fault_text(gisa_sim_run(ra, &fa), &fa, ba, sizeof ba);
        const char *tb = fault_text(gisa_sim_run(rb, &fb), &fb, bb, sizeof bb);
        if (!!ta != !!tb) {
            snprintf(j->res->message, sizeof j->res->message, "%s %s; %s does not", ta ? "A" : "B", ta ? ta : tb,
                     ta ? "B" : "A");
            found = 1;
        }
        for (int rf = 0; rf < 4 && !found && !ta; rf++)
            for (unsigned i = 0; i < RF_N[rf] && !found; i++) {
                uint32_t x = 0, y = 0;
                if (!j->outs.on[rf][i] || gisa_sim_get(ra, 0, RF_API[rf], i, lane, &x) ||
                    gisa_sim_get(rb, 0, RF_API[rf], i, lane, &y) || x == y)
                    continue;
                snprintf(j->res->message, sizeof j->res->message, "%s%u in lane %u: A gives 0x%08x, B gives 0x%08x",
                         RF_NAME[rf], i, lane, x, y);
                found = 1;
            }
    }
    if (found) {
        j->res->cex = json;
        j->res->lane = lane;
        j->res->verdict = GISA_PROVE_DIFFER;
    } else {
        gisa_free(json);
    }
    gisa_sim_free(ra);
    gisa_sim_free(rb);
    gisa_sim_free(c);
    return found;
}

static void prove_lanes(job *j)
{
    gisa_prove_result *res = j->res;
    inputs in = {j->z, {j->a[0], j->a[1]}, 0};
    unsigned done[32], ndone = 0;
    res->verdict = GISA_PROVE_EQUIVALENT;
    for (unsigned l = 0; l < 32; l++) {
        if (!(j->active >> l & 1))
            continue;
        int seen = 0;
        for (unsigned k = 0; k < ndone && !seen; k++)
            seen = same_pins(&in, l, done[k]);
        if (seen)
            continue;
        done[ndone++] = l;
        in.lane = l;
        pv_mach ma, mb;
        pv_mach_init(&ma, j->z, j->a[0]->regs, input, &in);
        pv_mach_init(&mb, j->z, j->a[0]->regs, input, &in);
        if (run_sym(j, j->a[0], &ma, "A") || run_sym(j, j->b[0], &mb, "B")) {
            res->verdict = GISA_PROVE_UNKNOWN;
            return;
        }
        Z3_solver sv = Z3_mk_solver(j->z);
        Z3_solver_inc_ref(j->z, sv);
        if (j->opt && j->opt->timeout_ms) {
            Z3_params p = Z3_mk_params(j->z);
            Z3_params_inc_ref(j->z, p);
            Z3_params_set_uint(j->z, p, Z3_mk_string_symbol(j->z, "timeout"), j->opt->timeout_ms);
            Z3_solver_set_params(j->z, sv, p);
            Z3_params_dec_ref(j->z, p);
        }
        Z3_solver_assert(j->z, sv, differ(j, &ma, &mb));
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        Z3_lbool r = z3_error ? Z3_L_UNDEF : Z3_solver_check(j->z, sv);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        res->solve_seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        res->queries++;
        if (r == Z3_L_FALSE) {
            Z3_solver_dec_ref(j->z, sv);
            continue;
        }
        if (r == Z3_L_UNDEF) {
            const char *why = z3_error ? z3_error : Z3_solver_get_reason_unknown(j->z, sv);
            res->verdict = GISA_PROVE_UNKNOWN;
            snprintf(res->message, sizeof res->message, "the solver gave no answer: %s%s", why,
                     why && (strstr(why, "timeout") || strstr(why, "canceled")) ? " (--timeout)" : "");
        } else {
            Z3_model mdl = Z3_solver_get_model(j->z, sv);
            Z3_model_inc_ref(j->z, mdl);
            if (!recheck(j, mdl, l, &in)) {
                res->verdict = GISA_PROVE_UNKNOWN;
                snprintf(res->message, sizeof res->message,
                         "the solver's counterexample (lane %u) does not reproduce in the simulator: a bug of prove", l);
            }
            Z3_model_dec_ref(j->z, mdl);
        }
        Z3_solver_dec_ref(j->z, sv);
        return;
    }
}

/* a constant the doc engine compiled into the word must be the same
 * whatever the unpinned memory holds */
static int cmem_pinned(job *j, char *why, size_t cap)
{
    gisa_sim *const pairs[2][2] = {{j->a[0], j->a[1]}, {j->b[0], j->b[1]}};
    for (int k = 0; k < 2; k++)
        for (size_t pc = 0; pc < pairs[k][0]->nprog; pc++)
            for (int r = 0; r < RO_COUNT; r++) {
                const sim_opnd *o = &pairs[k][0]->prog[pc].op[r], *o1 = &pairs[k][1]->prog[pc].op[r];
                if (o->kind == SK_CMEM && o->imm != o1->imm) {
                    snprintf(why, cap, "%s reads c[0x%x][0x%x], which prove needs pinned (--assume): the doc engine "
                             "compiles a constant into the word's program", k ? "B" : "A", o->bank, o->offset);
                    return 0;
                }
            }
    return 1;
}

gisa_status gisa_prove(const gisa_isa *isa, const gisa_word *a, size_t na, const gisa_word *b, size_t nb,
                       const gisa_prove_options *opt, gisa_prove_result *res)
{
    if (!res)
        return GISA_ERR_USAGE;
    memset(res, 0, sizeof *res);
    res->verdict = GISA_PROVE_UNKNOWN;
    if (!isa || (!a && na) || (!b && nb))
        return GISA_ERR_USAGE;
    job j;
    memset(&j, 0, sizeof j);
    j.isa = isa;
    j.opt = opt;
    j.res = res;
    regset scratch;
    memset(&scratch, 0, sizeof scratch);
    if (opt && opt->outputs && parse_set("--outputs", opt->outputs, &j.outs, res->message, sizeof res->message))
        return GISA_ERR_USAGE;
    if (opt && opt->scratch && parse_set("--scratch", opt->scratch, &scratch, res->message, sizeof res->message))
        return GISA_ERR_USAGE;
    const gisa_state *st = opt ? opt->assume : NULL;
    gisa_status r = GISA_OK;
    for (int k = 0; k < 2 && r == GISA_OK; k++) {
        r = make_sim(isa, a, na, st, k ? ~0u : 0, &j.a[k], res->message, sizeof res->message);
        if (r == GISA_OK)
            r = make_sim(isa, b, nb, st, k ? ~0u : 0, &j.b[k], res->message, sizeof res->message);
    }
    if (r == GISA_OK && cmem_pinned(&j, res->message, sizeof res->message)) {
        gisa_sim_get_active(j.a[0], 0, &j.active);
        if (!opt || !opt->outputs) {
            written(j.a[0], &j.outs);
            written(j.b[0], &j.outs);
        }
        for (int rf = 0; rf < 4; rf++)
            for (unsigned i = 0; i < RF_N[rf]; i++)
                if (scratch.on[rf][i])
                    j.outs.on[rf][i] = 0;
        z3_error = NULL;
        j.z = new_context();
        j.cache.z = j.z;
        if (!j.z) {
            snprintf(res->message, sizeof res->message, "Z3 did not start");
        } else {
            prove_lanes(&j);
            pv_cache_free(&j.cache);
            Z3_del_context(j.z);
        }
    } else if (r == GISA_OK) {
        res->verdict = GISA_PROVE_UNKNOWN;
    }
    for (int k = 0; k < 2; k++) {
        gisa_sim_free(j.a[k]);
        gisa_sim_free(j.b[k]);
    }
    if (r != GISA_OK && !res->message[0])
        snprintf(res->message, sizeof res->message, "the programs cannot be loaded into the simulator");
    return r == GISA_ERR_NOMEM ? r : r != GISA_OK ? GISA_ERR_USAGE : GISA_OK;
}

/* ------------------------------------------------------------------ the check against the doc engine */

typedef struct lane_in {
    Z3_context z;
    const gisa_sim *s;
    unsigned lane;
} lane_in;

static Z3_ast lane_value(void *user, int rf, unsigned i)
{
    lane_in *li = user;
    uint32_t v = 0;
    if (!(rf == PV_R && i >= li->s->regs))
        gisa_sim_get(li->s, 0, RF_API[rf], i, li->lane, &v);
    if (rf == PV_P || rf == PV_UP)
        return v ? Z3_mk_true(li->z) : Z3_mk_false(li->z);
    return Z3_mk_unsigned_int64(li->z, v, Z3_mk_bv_sort(li->z, 32));
}

/* a ground term's value: 0, or -1 when it does not simplify to a constant */
static int ground(Z3_context z, Z3_ast t, int is_pred, uint32_t *v)
{
    Z3_ast s = Z3_simplify(z, t);
    if (is_pred) {
        Z3_lbool b = Z3_get_bool_value(z, s);
        *v = b == Z3_L_TRUE;
        return b == Z3_L_UNDEF ? -1 : 0;
    }
    uint64_t u;
    if (!Z3_is_numeral_ast(z, s) || !Z3_get_numeral_uint64(z, s, &u))
        return -1;
    *v = (uint32_t)u;
    return 0;
}

gisa_status gisa_prove_check(const gisa_isa *isa, const gisa_word *w, size_t n, const gisa_state *state,
                             char **report, unsigned *mismatches)
{
    if (!isa || (!w && n) || !report || !mismatches)
        return GISA_ERR_USAGE;
    *report = NULL;
    *mismatches = 0;
    char why[400] = "";
    gisa_sim *s = NULL;
    gisa_status r = make_sim(isa, w, n, state, 0, &s, why, sizeof why);
    if (r) {
        strbuf e;
        sb_init(&e);
        sb_puts(&e, why[0] ? why : "the program cannot be loaded into the simulator");
        *report = sb_take(&e);
        return r == GISA_ERR_NOMEM ? r : GISA_ERR_USAGE;
    }
    z3_error = NULL;
    Z3_context z = new_context();
    pv_cache cache = {z, NULL, NULL, 0, 0};
    strbuf out;
    sb_init(&out);
    unsigned checked = 0, evals = 0, nunsup = 0;
    char unsup[64][64];
    for (size_t pc = 0; pc < n; pc++) {
        sim_prepare(s, 0);
        sim_warp *wp = &s->warps[0];
        if (wp->halted || wp->pc != pc)
            break;
        const sim_insn *in = &s->prog[pc];
        const uint32_t mask = wp->active & (in->guard >= SIM_PT ? (in->guard_not ? 0u : ~0u)
                                                                : in->guard_not ? ~wp->p[in->guard] : wp->p[in->guard]);
        uint32_t got[32][16];
        int fault[32], nw = 0, wr[16][2], skip = 0;
        for (unsigned l = 0; l < 32 && !skip; l++) {
            if (!(mask >> l & 1))
                continue;
            lane_in li = {z, s, l};
            pv_mach m;
            pv_mach_init(&m, z, s->regs, lane_value, &li);
            if (pv_step(&cache, &m, s, pc, why, sizeof why)) {
                skip = 1;
                int k;
                for (k = 0; k < (int)nunsup; k++)
                    if (!strncmp(unsup[k], why, sizeof unsup[k] - 1))
                        break;
                if (k == (int)nunsup && nunsup < 64) {
                    snprintf(unsup[nunsup++], sizeof unsup[0], "%s", why);
                    sb_printf(&out, "pc %zu %s: %s\n", pc, in->text, why);
                }
                break;
            }
            uint32_t fv;
            fault[l] = ground(z, m.fault, 1, &fv) ? -1 : (int)fv;
            nw = m.nwritten;
            for (int k = 0; k < nw; k++) {
                wr[k][0] = m.written[k][0];
                wr[k][1] = m.written[k][1];
                int rf = wr[k][0];
                if (ground(z, pv_value(&m, rf, (unsigned)wr[k][1]), rf == PV_P || rf == PV_UP, &got[l][k])) {
                    sb_printf(&out, "pc %zu %s lane %u: %s%d does not evaluate to a constant%s%s\n", pc, in->text, l,
                              RF_NAME[rf], wr[k][1], z3_error ? ": " : "", z3_error ? z3_error : "");
                    ++*mismatches;
                    got[l][k] = 0xdeadbeef;
                }
            }
            evals++;
        }
        gisa_sim_fault f;
        gisa_status st = gisa_sim_step(s, 0, NULL, &f);
        if (skip)
            continue;
        checked++;
        for (unsigned l = 0; l < 32; l++) {
            if (!(mask >> l & 1))
                continue;
            const int sim_fault = st == GISA_ERR_SIM && f.lane == (int)l;
            if (st == GISA_ERR_SIM && f.lane >= 0 && (int)l > f.lane)
                break; /* the simulator stops at the first faulting lane */
            if (fault[l] != (st == GISA_ERR_SIM ? sim_fault : 0)) {
                sb_printf(&out, "pc %zu %s lane %u: the model %s, the simulator %s\n", pc, in->text, l,
                          fault[l] ? "faults" : "does not fault", sim_fault ? "faults" : "does not");
                ++*mismatches;
                continue;
            }
            if (st != GISA_OK)
                continue;
            for (int k = 0; k < nw; k++) {
                int rf = wr[k][0];
                if ((rf == PV_UR || rf == PV_UP) && l != (unsigned)__builtin_ctz(mask))
                    continue; /* uniform results: the lowest executing lane's */
                uint32_t v = 0;
                gisa_sim_get(s, 0, RF_API[rf], (unsigned)wr[k][1], l, &v);
                if (v != got[l][k]) {
                    sb_printf(&out, "pc %zu %s lane %u: %s%d: the model gives 0x%08x, the simulator 0x%08x\n", pc,
                              in->text, l, RF_NAME[rf], wr[k][1], got[l][k], v);
                    ++*mismatches;
                }
            }
        }
        if (st != GISA_OK)
            break;
    }
    sb_printf(&out, "checked %u instructions, %u lane evaluations: %u mismatches; %u not supported\n", checked, evals,
              *mismatches, nunsup);
    pv_cache_free(&cache);
    Z3_del_context(z);
    gisa_sim_free(s);
    *report = sb_take(&out);
    return *report ? GISA_OK : GISA_ERR_NOMEM;
}
#endif
