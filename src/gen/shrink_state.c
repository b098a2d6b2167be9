/* gisa_shrink_state: the smallest state on which a test still fails.
 * The state is taken apart into entries (what a state file lists: each
 * warp's active mask when not full, every register, predicate, uniform
 * register and uniform predicate that is not zero, and every constant
 * word that is not zero); a candidate is a fresh simulator given some of
 * them, written by the library's own writer (gisa_sim_state_write), so
 * every candidate is a state file `gisa run` reads. Dropping an entry
 * gives it its reset value, which the writer then leaves out.
 *
 * In order: ddmin over the warps (at least one stays), ddmin over the
 * entries of the warps left (after trying none at all), then each entry's
 * value toward a simple one, keeping every step on which the test still
 * fails. Nothing depends on time or addresses: the same state and test
 * give the same result. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/strbuf.h"
#include "gisa.h"
#include "shrink.h"

enum { K_ACTIVE, K_R, K_P, K_UR, K_UP, K_CONST };

enum { NPRED = 7, NUREG = 63, NBANKS = 64, BANK_BYTES = 65536 };

typedef struct entry {
    unsigned char kind;
    unsigned warp;  /* the original warp; a constant's bank */
    unsigned index; /* register number; a constant's byte offset */
    /* K_R: one value per lane; K_P and K_ACTIVE: v[0] a lane mask; K_UR,
     * K_CONST: v[0]; K_UP: v[0] = 1 */
    uint32_t v[GISA_SIM_LANES];
} entry;

typedef struct sshrink {
    const gisa_isa *isa;
    unsigned regs, warps;
    entry *e;
    size_t ne;
    unsigned char *warp_kept; /* [warps] */
    size_t *keep, nkeep;      /* the entries kept now */
    gisa_shrink_test test;
    void *user;
    size_t tests;
    strbuf text, best; /* the candidate; the last one that failed */
    gisa_status stopped;
    int oom;
    /* a lane ddmin's entry and its values before it */
    entry *lanes_of;
    uint32_t saved[GISA_SIM_LANES];
} sshrink;

static gisa_status to_buf(void *user, const char *data, size_t len)
{
    strbuf *b = user;
    sb_putn(b, data, len);
    return b->failed ? GISA_ERR_NOMEM : GISA_OK;
}

static int uniform(const entry *e)
{
    for (unsigned l = 1; l < GISA_SIM_LANES; l++)
        if (e->v[l] != e->v[0])
            return 0;
    return 1;
}

/* Sets entry e into sim as warp w (registers, predicates, ...). */
static gisa_status put_entry(gisa_sim *sim, const entry *e, unsigned w)
{
    gisa_status st = GISA_OK;
    switch (e->kind) {
    case K_ACTIVE:
        return gisa_sim_set_active(sim, w, e->v[0]);
    case K_R:
        if (uniform(e))
            return gisa_sim_set(sim, w, GISA_RF_R, e->index, -1, e->v[0]);
        for (unsigned l = 0; l < GISA_SIM_LANES && st == GISA_OK; l++)
            st = gisa_sim_set(sim, w, GISA_RF_R, e->index, (int)l, e->v[l]);
        return st;
    case K_P:
        for (unsigned l = 0; l < GISA_SIM_LANES && st == GISA_OK; l++)
            st = gisa_sim_set(sim, w, GISA_RF_P, e->index, (int)l, e->v[0] >> l & 1);
        return st;
    case K_UR:
        return gisa_sim_set(sim, w, GISA_RF_UR, e->index, 0, e->v[0]);
    case K_UP:
        return gisa_sim_set(sim, w, GISA_RF_UP, e->index, 0, e->v[0]);
    default:
        return gisa_sim_set_const(sim, e->warp, e->index, e->v[0]);
    }
}

/* The text of the state made of the entries idx[0..n) of the kept warps
 * (renumbered from 0) into s->text; 0, or -1 out of memory. */
static int render(sshrink *s, const size_t *idx, size_t n)
{
    unsigned *to = malloc(s->warps * sizeof *to), k = 0;
    if (!to)
        return -1;
    for (unsigned w = 0; w < s->warps; w++)
        to[w] = s->warp_kept[w] ? k++ : 0;
    gisa_sim *sim = NULL;
    gisa_status st = gisa_sim_new(s->isa, s->regs, k ? k : 1, &sim);
    for (size_t i = 0; i < n && st == GISA_OK; i++) {
        const entry *e = &s->e[idx[i]];
        if (e->kind == K_CONST || s->warp_kept[e->warp])
            st = put_entry(sim, e, e->kind == K_CONST ? 0 : to[e->warp]);
    }
    s->text.len = 0;
    if (st == GISA_OK)
        st = gisa_sim_state_write(sim, GISA_STATE_HEX, to_buf, &s->text);
    gisa_sim_free(sim);
    free(to);
    return st == GISA_OK && !s->text.failed ? 0 : -1;
}

/* Tests the entries idx[0..n): 1 still fails, 0 passes, -1 stop. */
static int try_entries(void *ctx, const size_t *idx, size_t n)
{
    sshrink *s = ctx;
    if (render(s, idx, n)) {
        s->oom = 1;
        return -1;
    }
    s->tests++;
    bool fails = false;
    gisa_status st = s->test(s->user, s->text.s ? s->text.s : "", s->text.len, &fails);
    if (st != GISA_OK) {
        s->stopped = st;
        return -1;
    }
    if (fails) {
        s->best.len = 0;
        sb_putn(&s->best, s->text.s, s->text.len);
        if (s->best.failed) {
            s->oom = 1;
            return -1;
        }
    }
    return fails;
}

static int try_now(sshrink *s)
{
    return try_entries(s, s->keep, s->nkeep);
}

/* ddmin over the warps: the entries all kept, the warps idx[0..n). */
static int try_warps(void *ctx, const size_t *idx, size_t n)
{
    sshrink *s = ctx;
    memset(s->warp_kept, 0, s->warps);
    for (size_t i = 0; i < n; i++)
        s->warp_kept[idx[i]] = 1;
    return try_now(s);
}

/* The lanes of s->lanes_of that a lane ddmin works on: a register's
 * nonzero lanes (dropped: 0), a predicate's true lanes (dropped: false),
 * an active mask's inactive lanes (dropped: active). */
static int lane_in(const sshrink *s, unsigned l)
{
    switch (s->lanes_of->kind) {
    case K_R:
        return s->saved[l] != 0;
    case K_P:
        return s->saved[0] >> l & 1;
    default:
        return !(s->saved[0] >> l & 1);
    }
}

static void set_lanes(sshrink *s, const size_t *idx, size_t n)
{
    entry *e = s->lanes_of;
    uint32_t keep = 0;
    for (size_t i = 0; i < n; i++)
        keep |= 1u << idx[i];
    if (e->kind == K_R)
        for (unsigned l = 0; l < GISA_SIM_LANES; l++)
            e->v[l] = keep >> l & 1 ? s->saved[l] : 0;
    else if (e->kind == K_P)
        e->v[0] = keep;
    else
        e->v[0] = ~keep;
}

static int try_lanes(void *ctx, const size_t *idx, size_t n)
{
    sshrink *s = ctx;
    set_lanes(s, idx, n);
    return try_now(s);
}

/* ddmin over the lanes of e (lane_in); e is left as the result. */
static int shrink_lanes(sshrink *s, entry *e)
{
    s->lanes_of = e;
    memcpy(s->saved, e->v, sizeof s->saved);
    size_t cur[GISA_SIM_LANES], cand[GISA_SIM_LANES], n = 0;
    /* highest first: ddmin drops the first chunks first, so low lanes stay */
    for (unsigned l = GISA_SIM_LANES; l-- > 0;)
        if (lane_in(s, l))
            cur[n++] = l;
    int r = dd_min(try_lanes, s, cur, &n, cand);
    set_lanes(s, cur, n);
    return r;
}

/* Tries value x in the lanes `mask` of e (v[0] for a warp-wide value);
 * keeps it when the test still fails. 1 kept, 0 not, -1 stop. */
static int try_value(sshrink *s, entry *e, uint32_t mask, uint32_t x)
{
    uint32_t old[GISA_SIM_LANES];
    memcpy(old, e->v, sizeof old);
    for (unsigned l = 0; l < GISA_SIM_LANES; l++)
        if (mask >> l & 1)
            e->v[l] = x;
    int r = try_now(s);
    if (r <= 0)
        memcpy(e->v, old, sizeof old);
    return r;
}

/* The value in the lanes `mask` of e toward a simple one: 0, 1, then
 * fewer set bits (the highest cleared first). */
static int simplify(sshrink *s, entry *e, uint32_t mask, int try_zero)
{
    unsigned l0 = 0;
    while (!(mask >> l0 & 1))
        l0++;
    uint32_t x = e->v[l0];
    int r;
    if (x && try_zero && (r = try_value(s, e, mask, 0)))
        return r < 0 ? -1 : 0;
    if (x > 1 && (r = try_value(s, e, mask, 1)))
        return r < 0 ? -1 : 0;
    for (int b = 31; b >= 0; b--) {
        uint32_t y = x & ~(UINT32_C(1) << b);
        if (y == x || !y || y == 1)
            continue;
        if ((r = try_value(s, e, mask, y)) < 0)
            return -1;
        if (r)
            x = y;
    }
    return 0;
}

/* The lanes of e that hold e's value in lane l. */
static uint32_t same_as(const entry *e, unsigned l)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < GISA_SIM_LANES; i++)
        if (e->v[i] == e->v[l])
            m |= 1u << i;
    return m;
}

/* The active mask of warp w as the entries kept now set it. */
static uint32_t active_of(const sshrink *s, unsigned w)
{
    for (size_t i = 0; i < s->nkeep; i++)
        if (s->e[s->keep[i]].kind == K_ACTIVE && s->e[s->keep[i]].warp == w)
            return s->e[s->keep[i]].v[0];
    return 0xffffffffu;
}

/* A per-lane register: uniform (the value of its first active nonzero
 * lane), else fewer nonzero lanes, then uniform again; then each group
 * of equal values toward a simple one. */
static int simplify_reg(sshrink *s, entry *e)
{
    const uint32_t all = 0xffffffffu;
    if (!uniform(e)) {
        uint32_t act = active_of(s, e->warp);
        int pick = -1;
        for (unsigned l = 0; l < GISA_SIM_LANES && pick < 0; l++)
            if (e->v[l] && act >> l & 1)
                pick = (int)l;
        for (unsigned l = 0; l < GISA_SIM_LANES && pick < 0; l++)
            if (e->v[l])
                pick = (int)l;
        if (pick >= 0 && try_value(s, e, all, e->v[pick]) < 0)
            return -1;
    }
    if (!uniform(e)) {
        if (shrink_lanes(s, e) < 0)
            return -1;
        uint32_t tried = 0;
        for (unsigned l = 0; l < GISA_SIM_LANES && !uniform(e); l++)
            if (e->v[l] && !(tried >> l & 1)) {
                tried |= same_as(e, l);
                if (try_value(s, e, all, e->v[l]) < 0)
                    return -1;
            }
    }
    if (uniform(e))
        return simplify(s, e, all, 0);
    uint32_t done = 0;
    for (unsigned l = 0; l < GISA_SIM_LANES; l++)
        if (e->v[l] && !(done >> l & 1)) {
            uint32_t m = same_as(e, l);
            done |= m;
            if (simplify(s, e, m, 1) < 0)
                return -1;
        }
    return 0;
}

static int simplify_entry(sshrink *s, entry *e)
{
    int r;
    switch (e->kind) {
    case K_R:
        return simplify_reg(s, e);
    case K_P:
        if (e->v[0] != 0xffffffffu && (r = try_value(s, e, 1, 0xffffffffu)))
            return r < 0 ? -1 : 0;
        return shrink_lanes(s, e);
    case K_ACTIVE:
        return shrink_lanes(s, e);
    case K_UR:
    case K_CONST:
        return simplify(s, e, 1, 0);
    default:
        return 0;
    }
}

static int add_entry(sshrink *s, size_t *cap, const entry *e)
{
    if (s->ne == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        entry *ne = realloc(s->e, nc * sizeof *ne);
        if (!ne)
            return -1;
        s->e = ne;
        *cap = nc;
    }
    s->e[s->ne++] = *e;
    return 0;
}

/* The entries of sim's state, in the order the writer lists them. */
static int take_apart(sshrink *s, const gisa_sim *sim)
{
    size_t cap = 0;
    entry e;
    for (unsigned w = 0; w < s->warps; w++) {
        memset(&e, 0, sizeof e);
        e.warp = w;
        e.kind = K_ACTIVE;
        if (gisa_sim_get_active(sim, w, &e.v[0]) == GISA_OK && e.v[0] != 0xffffffffu && add_entry(s, &cap, &e))
            return -1;
        for (unsigned r = 0; r < s->regs; r++) {
            memset(&e, 0, sizeof e);
            e.warp = w;
            e.kind = K_R;
            e.index = r;
            uint32_t any = 0;
            for (unsigned l = 0; l < GISA_SIM_LANES; l++)
                if (gisa_sim_get(sim, w, GISA_RF_R, r, l, &e.v[l]) == GISA_OK)
                    any |= e.v[l];
            if (any && add_entry(s, &cap, &e))
                return -1;
        }
        for (unsigned p = 0; p < NPRED; p++) {
            memset(&e, 0, sizeof e);
            e.warp = w;
            e.kind = K_P;
            e.index = p;
            for (unsigned l = 0; l < GISA_SIM_LANES; l++) {
                uint32_t b = 0;
                if (gisa_sim_get(sim, w, GISA_RF_P, p, l, &b) == GISA_OK && b)
                    e.v[0] |= 1u << l;
            }
            if (e.v[0] && add_entry(s, &cap, &e))
                return -1;
        }
        for (unsigned k = K_UR; k <= K_UP; k++)
            for (unsigned i = 0; i < (k == K_UR ? NUREG : NPRED); i++) {
                memset(&e, 0, sizeof e);
                e.warp = w;
                e.kind = (unsigned char)k;
                e.index = i;
                if (gisa_sim_get(sim, w, k == K_UR ? GISA_RF_UR : GISA_RF_UP, i, 0, &e.v[0]) == GISA_OK && e.v[0] &&
                    add_entry(s, &cap, &e))
                    return -1;
            }
    }
    for (unsigned b = 0; b < NBANKS; b++)
        for (unsigned off = 0; off < BANK_BYTES; off += 4) {
            memset(&e, 0, sizeof e);
            e.kind = K_CONST;
            e.warp = b;
            e.index = off;
            if (gisa_sim_get_const(sim, b, off, &e.v[0]) != GISA_OK)
                break;
            if (e.v[0] && add_entry(s, &cap, &e))
                return -1;
        }
    return 0;
}

/* The phases, each on what the one before left. -1: stopped. */
static int shrink_all(sshrink *s, size_t *cand)
{
    for (size_t i = 0; i < s->ne; i++)
        s->keep[i] = i;
    s->nkeep = s->ne;
    if (s->warps > 1) {
        size_t n = s->warps;
        for (size_t w = 0; w < n; w++)
            cand[w] = w;
        size_t *cur = malloc(n * sizeof *cur), *tmp = malloc(n * sizeof *tmp);
        if (!cur || !tmp) {
            free(cur);
            free(tmp);
            s->oom = 1;
            return -1;
        }
        memcpy(cur, cand, n * sizeof *cur);
        int r = dd_min(try_warps, s, cur, &n, tmp);
        memset(s->warp_kept, 0, s->warps);
        for (size_t i = 0; i < n; i++)
            s->warp_kept[cur[i]] = 1;
        free(cur);
        free(tmp);
        if (r < 0)
            return -1;
    }
    /* the entries of the warps left, then ddmin (which never tries none) */
    size_t n = 0;
    for (size_t i = 0; i < s->ne; i++)
        if (s->e[i].kind == K_CONST || s->warp_kept[s->e[i].warp])
            s->keep[n++] = i;
    s->nkeep = n;
    if (n) {
        int r = try_entries(s, s->keep, 0);
        if (r < 0)
            return -1;
        if (r)
            s->nkeep = 0;
        else if (dd_min(try_entries, s, s->keep, &s->nkeep, cand) < 0)
            return -1;
    }
    for (size_t i = 0; i < s->nkeep; i++)
        if (simplify_entry(s, &s->e[s->keep[i]]) < 0)
            return -1;
    return 0;
}

gisa_status gisa_shrink_state(const gisa_sim *sim, gisa_shrink_test test, void *user, char **out, size_t *out_len,
                              size_t *ntests, gisa_diags *diags)
{
    if (!sim || !test || !out)
        return GISA_ERR_USAGE;
    *out = NULL;
    if (out_len)
        *out_len = 0;
    sshrink s = {.isa = gisa_sim_isa(sim), .regs = gisa_sim_regs(sim), .warps = gisa_sim_warps(sim), .test = test,
                 .user = user};
    sb_init(&s.text);
    sb_init(&s.best);
    gisa_status st = GISA_OK;
    size_t *cand = NULL;
    s.warp_kept = malloc(s.warps);
    if (!s.warp_kept || take_apart(&s, sim)) {
        st = GISA_ERR_NOMEM;
        goto done;
    }
    memset(s.warp_kept, 1, s.warps);
    size_t most = s.ne > s.warps ? s.ne : s.warps;
    s.keep = malloc((most + 1) * sizeof *s.keep);
    cand = malloc((most + 1) * sizeof *cand);
    if (!s.keep || !cand) {
        st = GISA_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < s.ne; i++)
        s.keep[i] = i;
    s.nkeep = s.ne;
    int r = try_now(&s);
    if (r == 0) {
        srcloc where = {"", 0, 0, 0, NULL, 0, NULL};
        diag_add(diags, GISA_ERROR, &where, "the test does not fail on the state as written: nothing to shrink");
        st = GISA_ERR_INPUT;
        goto done;
    }
    if (r > 0)
        shrink_all(&s, cand);
    else if (!s.oom) {
        /* stopped at once: the smallest so far is the state itself */
        sb_putn(&s.best, s.text.s ? s.text.s : "", s.text.len);
        s.oom = s.best.failed;
    }
    st = shrink_result(&s.best, s.oom, s.stopped, out, out_len);
done:
    if (ntests)
        *ntests = s.tests;
    sb_free(&s.text);
    sb_free(&s.best);
    free(s.e);
    free(s.keep);
    free(cand);
    free(s.warp_kept);
    return st;
}
