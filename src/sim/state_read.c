/* Reading a state file (docs/simulator.md) in one pass over its text.
 *
 * gisa_state_parse checks every key and value and stages them (a record
 * per key, 32 lane values in a pool for per-lane arrays, constants in
 * per-bank arrays); gisa_sim_state_apply checks what depends on the
 * simulator (register count, warp count) and only then changes anything.
 * Time and memory are linear in the text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/diag.h"
#include "common/text.h"
#include "sim/sim.h"
#include "sim/state_io.h"

#define ALL_WARPS UINT32_MAX
#define KEY_MAX 64
#define CWORDS 16384 /* words of one constant bank */

typedef enum { SP_PLAIN, SP_LANEID, SP_WARPID } special;
enum { K_REG, K_ACTIVE };

/* One register, predicate or active mask of one warp (or of all). */
typedef struct staged {
    uint8_t kind, rf, pair, sp, per_lane;
    uint16_t index;
    uint32_t warp;
    int line, col;
    uint64_t value; /* the value; per_lane: where its 32 lanes start in the pool; P/UP: the lane mask */
} staged;

struct gisa_state {
    char *name;
    unsigned warps; /* the "warps" array's length; 0: the keys apply to every warp */
    staged *a;
    size_t n, cap;
    uint64_t *pool;
    size_t npool, poolcap;
    uint32_t *cbank[64];
    uint64_t *cset[64]; /* which words of the bank the file sets */
    size_t banks;
};

typedef struct reader {
    gisa_state *st;
    json_parser j;
    gisa_diags *d;
    int errors;
    int top_regs;       /* line of the first register key beside a "warps" array */
    int had_warps;
    uint64_t seen[6];   /* keys of the current object: R0..R255, UR0..UR63, then P, UP, active */
} reader;

static void err_at(gisa_diags *d, const char *name, int line, int col, const char *key, const char *msg)
{
    srcloc at = {name, line, col, 1, NULL, 0, NULL};
    if (key)
        diag_add(d, GISA_ERROR, &at, "state key \"%s\": %s", key, msg);
    else
        diag_add(d, GISA_ERROR, &at, "%s", msg);
}

static void err(reader *r, const json_val *at, const char *key, const char *msg)
{
    err_at(r->d, r->st->name, at->line, at->col, key, msg);
    r->errors++;
}

static staged *stage(reader *r)
{
    gisa_state *st = r->st;
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        staged *a = realloc(st->a, cap * sizeof *a);
        if (!a)
            return NULL;
        st->a = a;
        st->cap = cap;
    }
    staged *s = &st->a[st->n++];
    memset(s, 0, sizeof *s);
    return s;
}

static uint64_t *pool_lanes(gisa_state *st)
{
    if (st->poolcap - st->npool < LANES) {
        size_t cap = st->poolcap ? st->poolcap * 2 : 64 * LANES;
        uint64_t *p = realloc(st->pool, cap * sizeof *p);
        if (!p)
            return NULL;
        st->pool = p;
        st->poolcap = cap;
    }
    st->npool += LANES;
    return st->pool + st->npool - LANES;
}

/* The value of a register key: one value, an array of 32, or a special. */
static void reg_value(reader *r, const char *key, const json_val *v, staged *s)
{
    const int reg = s->kind == K_REG;
    const int boolean = reg && (s->rf == GISA_RF_P || s->rf == GISA_RF_UP);
    const int lanes = reg && (s->rf == GISA_RF_R || s->rf == GISA_RF_P);
    const int bits = s->kind == K_ACTIVE ? 32 : s->pair ? 64 : 32;
    char why[200];
    if (v->type == JSON_ARRAY) {
        if (!lanes) {
            err(r, v, key, "a per-warp value cannot be an array");
            json_skip(&r->j, v);
            return;
        }
        uint64_t *pool = boolean ? NULL : pool_lanes(r->st);
        if (!boolean && !pool) {
            err(r, v, key, "out of memory");
            json_skip(&r->j, v);
            return;
        }
        s->per_lane = !boolean;
        s->value = boolean ? 0 : (uint64_t)(pool - r->st->pool);
        int first = 1, l = 0, bad = 0;
        json_val e;
        while (json_element(&r->j, &first) == 1 && !json_value(&r->j, &e)) {
            if (l < LANES && !bad) {
                if (boolean && e.type != JSON_TRUE && e.type != JSON_FALSE) {
                    snprintf(why, sizeof why, "lane %d: expected true or false", l);
                    err(r, &e, key, why);
                    bad = 1;
                } else if (boolean) {
                    s->value |= (uint64_t)(e.type == JSON_TRUE) << l;
                } else if (state_value(&e, bits, 1, &pool[l], why, sizeof why)) {
                    char m[240];
                    snprintf(m, sizeof m, "lane %d: %s", l, why);
                    err(r, &e, key, m);
                    bad = 1;
                }
            }
            l++;
            if (json_skip(&r->j, &e))
                return;
        }
        if (!bad && !r->j.failed && l != LANES) {
            snprintf(why, sizeof why, "an array must have exactly 32 values (one per lane), not %d", l);
            err(r, v, key, why);
        }
        return;
    }
    if (boolean) {
        if (v->type != JSON_TRUE && v->type != JSON_FALSE) {
            err(r, v, key, "expected true or false (or an array of 32)");
            json_skip(&r->j, v);
            return;
        }
        s->value = v->type == JSON_TRUE ? UINT32_MAX : 0;
        return;
    }
    if (v->type == JSON_STRING && !v->escaped && (v->n == 6 && (!memcmp(v->s, "laneid", 6) || !memcmp(v->s, "warpid", 6)))) {
        s->sp = v->s[0] == 'l' ? SP_LANEID : SP_WARPID;
        if (s->sp == SP_LANEID && !lanes)
            err(r, v, key, "\"laneid\" needs a per-lane register");
        return;
    }
    if (state_value(v, bits, s->kind != K_ACTIVE, &s->value, why, sizeof why)) {
        err(r, v, key, why);
        json_skip(&r->j, v);
    }
}

/* Marks bit i of the current object's keys; 1 if it was already set. */
static int seen(reader *r, unsigned i)
{
    uint64_t bit = UINT64_C(1) << (i % 64);
    int was = (r->seen[i / 64] & bit) != 0;
    r->seen[i / 64] |= bit;
    return was;
}

static unsigned seen_slot(int rf, unsigned index)
{
    switch (rf) {
    case GISA_RF_R: return index;             /* 0..255 */
    case GISA_RF_UR: return 256 + index;      /* 256..319 */
    case GISA_RF_P: return 320 + index;
    default: return 330 + index;              /* UP */
    }
}

static void const_value(reader *r, const char *key, const json_val *v, unsigned bank, unsigned off)
{
    gisa_state *st = r->st;
    uint64_t x;
    char why[200];
    if (bank >= 64 || off >= 65536 || off % 4) {
        err(r, v, key, "constant address out of range or not 4-byte aligned (banks 0x0..0x3f, offsets 0x0..0xfffc)");
        return;
    }
    if (state_value(v, 32, 1, &x, why, sizeof why)) {
        err(r, v, key, why);
        return;
    }
    if (!st->cbank[bank]) {
        st->cbank[bank] = calloc(CWORDS, sizeof(uint32_t));
        st->cset[bank] = calloc(CWORDS / 64, sizeof(uint64_t));
        if (!st->cbank[bank] || !st->cset[bank]) {
            err(r, v, key, "out of memory");
            return;
        }
        st->banks++;
    }
    unsigned w = off / 4;
    uint64_t bit = UINT64_C(1) << (w % 64);
    if ((st->cset[bank][w / 64] & bit) && st->cbank[bank][w] != (uint32_t)x) {
        /* files written before constants were shared repeat them per warp */
        err(r, v, key, "constants are shared by every warp, and this one was already given another value");
        return;
    }
    st->cset[bank][w / 64] |= bit;
    st->cbank[bank][w] = (uint32_t)x;
}

static void read_key(reader *r, const json_val *k, const json_val *v, uint32_t warp)
{
    char key[KEY_MAX];
    if (json_unescape(k, key, sizeof key) == (size_t)-1)
        snprintf(key, sizeof key, "%.*s...", (int)(k->n < 40 ? k->n : 40), k->s);
    unsigned bank, off, index = 0;
    int rf = 0, pair = 0, kind = !strcmp(key, "active") ? K_ACTIVE : K_REG;
    if (kind == K_REG && state_const_key(key, &bank, &off)) {
        const_value(r, key, v, bank, off);
        json_skip(&r->j, v);
        return;
    }
    if (kind == K_REG) {
        int rk = state_reg_key(key, &rf, &index, &pair);
        if (rk <= 0 || (rf != GISA_RF_R && rf != GISA_RF_UR && index >= SIM_PT) || index > 255 ||
            (rf == GISA_RF_UR && index + (unsigned)pair >= SIM_NUR)) {
            static const char *const names[] = {"R", "P", "UR", "UP"};
            char m[160];
            if (rk < 0)
                snprintf(m, sizeof m, "a register pair is written R[n:n+1] with n even");
            else if (rk > 0)
                snprintf(m, sizeof m, "there is no %s%u (%s0..%s%u)", names[rf], index + (unsigned)pair, names[rf], names[rf],
                         rf == GISA_RF_R ? 254u : rf == GISA_RF_UR ? SIM_NUR - 1u : SIM_PT - 1u);
            else
                snprintf(m, sizeof m, "unknown key (expected active, Rn, R[n:n+1], Pn, URn, UPn or c[bank][offset]%s)",
                         warp == ALL_WARPS ? ", or warps" : "");
            err(r, k, key, m);
            json_skip(&r->j, v);
            return;
        }
    }
    if (warp == ALL_WARPS && !r->top_regs)
        r->top_regs = k->line ? k->line : 1;
    unsigned slot = kind == K_ACTIVE ? 340 : seen_slot(rf, index);
    if (seen(r, slot) || (pair && seen(r, slot + 1))) {
        err(r, k, key, "set more than once in one object");
        json_skip(&r->j, v);
        return;
    }
    staged *s = stage(r);
    if (!s) {
        err(r, k, key, "out of memory");
        json_skip(&r->j, v);
        return;
    }
    s->kind = (uint8_t)kind;
    s->rf = (uint8_t)rf;
    s->pair = (uint8_t)pair;
    s->index = (uint16_t)index;
    s->warp = warp;
    s->line = k->line;
    s->col = k->col;
    reg_value(r, key, v, s);
}

static void read_object(reader *r, uint32_t warp)
{
    memset(r->seen, 0, sizeof r->seen);
    int first = 1;
    json_val k, v;
    while (json_member(&r->j, &first, &k) == 1 && !json_value(&r->j, &v)) {
        if (warp == ALL_WARPS && k.n == 5 && !memcmp(k.s, "warps", 5)) {
            if (v.type != JSON_ARRAY || r->had_warps++) {
                err(r, &v, "warps", v.type != JSON_ARRAY ? "expected an array with one object per warp" : "given twice");
                json_skip(&r->j, &v);
                continue;
            }
            int efirst = 1;
            json_val o;
            unsigned n = 0;
            uint64_t outer[6];
            memcpy(outer, r->seen, sizeof outer);
            while (json_element(&r->j, &efirst) == 1 && !json_value(&r->j, &o)) {
                if (o.type != JSON_OBJECT) {
                    err(r, &o, "warps", "every element must be an object");
                    json_skip(&r->j, &o);
                } else if (n < GISA_SIM_MAX_WARPS) {
                    read_object(r, n);
                } else {
                    json_skip(&r->j, &o);
                }
                n++;
            }
            memcpy(r->seen, outer, sizeof outer);
            if (r->j.failed)
                return;
            if (n == 0 || n > GISA_SIM_MAX_WARPS) {
                char m[96];
                snprintf(m, sizeof m, "the array must hold 1 to %d objects, not %u", GISA_SIM_MAX_WARPS, n);
                err(r, &v, "warps", m);
            }
            r->st->warps = n;
            continue;
        }
        read_key(r, &k, &v, warp);
    }
}

void gisa_state_free(gisa_state *st)
{
    if (!st)
        return;
    for (int b = 0; b < 64; b++) {
        free(st->cbank[b]);
        free(st->cset[b]);
    }
    free(st->a);
    free(st->pool);
    free(st->name);
    free(st);
}

static gisa_status state_parse_unguarded(const char *name, const char *text, size_t len, gisa_state **out, gisa_diags *d)
{
    if (!out || (!text && len))
        return GISA_ERR_USAGE;
    *out = NULL;
    gisa_state *st = calloc(1, sizeof *st);
    name = name ? name : "<state>";
    if (!st || !(st->name = malloc(strlen(name) + 1))) {
        free(st);
        return GISA_ERR_NOMEM;
    }
    strcpy(st->name, name);
    reader r = {st, {0}, d, 0, 0, 0, {0}};
    size_t bom = text ? utf8_bom_len(text, len) : 0;
    json_init(&r.j, text ? text + bom : "", len - bom);
    json_val root;
    if (!json_value(&r.j, &root)) {
        if (root.type != JSON_OBJECT) {
            err(&r, &root, NULL, "the state must be a JSON object");
            json_skip(&r.j, &root);
        } else {
            read_object(&r, ALL_WARPS);
        }
    }
    if (!json_finish(&r.j) && st->warps && r.top_regs) {
        json_val at = {0};
        at.line = r.top_regs;
        err(&r, &at, NULL, "registers and \"active\" of a state with a \"warps\" array go inside its objects "
                            "(only constants stand beside it)");
    }
    if (r.j.failed) {
        srcloc at = {st->name, r.j.err_line, r.j.err_col, 1, NULL, 0, NULL};
        diag_add(d, GISA_ERROR, &at, "invalid JSON: %s", r.j.error);
        r.errors++;
    }
    if (r.errors) {
        gisa_state_free(st);
        return GISA_ERR_INPUT;
    }
    *out = st;
    return GISA_OK;
}

gisa_status gisa_state_parse(const char *name, const char *text, size_t len, gisa_state **out, gisa_diags *d)
{
    FPENV_RETURN(gisa_status, state_parse_unguarded(name, text, len, out, d));
}

unsigned gisa_state_warps(const gisa_state *st) { return st ? st->warps : 0; }

size_t gisa_state_bytes(const gisa_state *st)
{
    if (!st)
        return 0;
    return sizeof *st + st->cap * sizeof *st->a + st->poolcap * sizeof *st->pool +
           st->banks * (CWORDS * sizeof(uint32_t) + CWORDS / 8);
}

static void apply_one(gisa_sim *s, const staged *a, const uint64_t *pool, unsigned w)
{
    sim_warp *wp = &s->warps[w];
    if (a->kind == K_ACTIVE) {
        wp->active = a->sp == SP_WARPID ? w : (uint32_t)a->value;
        return;
    }
    switch (a->rf) {
    case GISA_RF_R: {
        uint32_t *lo = wp->r + (size_t)a->index * LANES, *hi = lo + LANES;
        if (a->index + a->pair + 1u > wp->rows_used)
            wp->rows_used = a->index + a->pair + 1u;
        /* the choice made once, then loops over the lanes (4,096 warps x
         * every register a state names: the run's largest fixed cost) */
        uint64_t v[LANES];
        if (a->sp == SP_LANEID)
            for (int l = 0; l < LANES; l++)
                v[l] = (uint64_t)l;
        else if (a->sp == SP_WARPID)
            for (int l = 0; l < LANES; l++)
                v[l] = w;
        else if (a->per_lane)
            for (int l = 0; l < LANES; l++)
                v[l] = pool[a->value + (unsigned)l];
        else
            for (int l = 0; l < LANES; l++)
                v[l] = a->value;
        for (int l = 0; l < LANES; l++)
            lo[l] = (uint32_t)v[l];
        if (a->pair)
            for (int l = 0; l < LANES; l++)
                hi[l] = (uint32_t)(v[l] >> 32);
        break;
    }
    case GISA_RF_UR: {
        uint64_t v = a->sp == SP_WARPID ? w : a->value;
        wp->ur[a->index] = (uint32_t)v;
        if (a->pair)
            wp->ur[a->index + 1] = (uint32_t)(v >> 32);
        break;
    }
    case GISA_RF_P: wp->p[a->index] = (uint32_t)a->value; break;
    case GISA_RF_UP: wp->up[a->index] = a->value ? UINT32_MAX : 0; break;
    }
}

static gisa_status sim_state_apply_unguarded(gisa_sim *s, const gisa_state *st, gisa_diags *d)
{
    if (!s || !st)
        return GISA_ERR_USAGE;
    int errors = 0;
    if (st->warps && st->warps != s->nwarps) {
        char m[160];
        snprintf(m, sizeof m, "the state has %u warps and the simulator %u (the state's warp count is its \"warps\" array's length)",
                 st->warps, s->nwarps);
        err_at(d, st->name, 0, 0, "warps", m);
        errors++;
    }
    for (size_t i = 0; i < st->n; i++) {
        const staged *a = &st->a[i];
        if (a->kind == K_REG && a->rf == GISA_RF_R && a->index + a->pair >= s->regs) {
            char key[32], m[96];
            if (a->pair)
                snprintf(key, sizeof key, "R[%u:%u]", a->index, a->index + 1);
            else
                snprintf(key, sizeof key, "R%u", a->index);
            snprintf(m, sizeof m, "there is no R%u here (R0..R%u; see --regs)", a->index + a->pair, s->regs - 1);
            err_at(d, st->name, a->line, a->col, key, m);
            errors++;
        }
    }
    if (errors)
        return GISA_ERR_INPUT;
    /* the only allocation, before anything changes */
    for (unsigned b = 0; b < 64; b++)
        if (st->cset[b] && !s->cbank[b] && !(s->cbank[b] = calloc(CWORDS, sizeof(uint32_t))))
            return GISA_ERR_NOMEM;
    /* a file has keys for every warp or a "warps" array of its own ones, never both */
    for (size_t i = 0; i < st->n; i++) {
        const staged *a = &st->a[i];
        if (a->warp != ALL_WARPS)
            apply_one(s, a, st->pool, a->warp);
        else
            for (unsigned w = 0; w < s->nwarps; w++)
                apply_one(s, a, st->pool, w);
    }
    for (unsigned b = 0; b < 64; b++)
        for (unsigned w = 0; st->cset[b] && w < CWORDS; w++)
            if (st->cset[b][w / 64] >> (w % 64) & 1)
                s->cbank[b][w] = st->cbank[b][w];
    return GISA_OK;
}

gisa_status gisa_sim_state_apply(gisa_sim *s, const gisa_state *st, gisa_diags *d)
{
    FPENV_RETURN(gisa_status, sim_state_apply_unguarded(s, st, d));
}

gisa_status sim_state_read_json(gisa_sim *s, const char *name, const char *text, size_t len, gisa_diags *d)
{
    if (!s || !text)
        return GISA_ERR_USAGE;
    gisa_state *st;
    gisa_status r = gisa_state_parse(name, text, len, &st, d);
    if (r != GISA_OK)
        return r;
    r = gisa_sim_state_apply(s, st, d);
    gisa_state_free(st);
    return r;
}
