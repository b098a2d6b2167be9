/* gisa_shrink_state with in-process tests:
 *  - a monotone test that needs one bit of one lane of a register, one
 *    lane of a predicate and a constant, in a three-warp state full of
 *    other values, gets exactly those, in one warp, as simple as they go:
 *    the register uniform with the one bit, the predicate true in every
 *    lane, the constant 1; every candidate is a state file that reads;
 *  - the same state and test give the same bytes and the same count;
 *  - a test that needs the values of some lanes only (not uniform) keeps
 *    those lanes, and an active mask keeps the inactive lanes it needs;
 *  - a test that does not fail on the state: GISA_ERR_INPUT; a test that
 *    stops: its status, with the smallest state so far (the state itself
 *    when it stops at once). */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

typedef struct cond {
    const gisa_isa *isa;
    int kind;       /* which test */
    size_t calls;
    size_t stop_at; /* 0: never */
    int bad_text;   /* a candidate that did not read */
} cond;

static uint32_t get(const gisa_sim *sim, unsigned w, gisa_regfile rf, unsigned i, unsigned l)
{
    uint32_t v = 0;
    gisa_sim_get(sim, w, rf, i, l, &v);
    return v;
}

/* kind 0: some warp has bit 8 of R5 in lane 3 and P2 in lane 7, and
 * c[1][0x20] is nonzero. kind 1: R9 is 7 in lanes 4 and 20 of warp 0
 * and 0 in lane 5 (it cannot be uniform), and lane 6 of warp 0 is
 * inactive. */
static int holds(const cond *c, const gisa_sim *sim)
{
    uint32_t k = 0;
    if (c->kind == 1) {
        uint32_t act = 0;
        gisa_sim_get_active(sim, 0, &act);
        return get(sim, 0, GISA_RF_R, 9, 4) == 7 && get(sim, 0, GISA_RF_R, 9, 20) == 7 && !get(sim, 0, GISA_RF_R, 9, 5) &&
               !(act >> 6 & 1);
    }
    gisa_sim_get_const(sim, 1, 0x20, &k);
    for (unsigned w = 0; w < gisa_sim_warps(sim); w++)
        if (get(sim, w, GISA_RF_R, 5, 3) & 0x100 && get(sim, w, GISA_RF_P, 2, 7) && k)
            return 1;
    return 0;
}

static gisa_status test(void *user, const char *text, size_t len, bool *fails)
{
    cond *c = user;
    c->calls++;
    if (c->stop_at && c->calls >= c->stop_at)
        return GISA_ERR_IO;
    gisa_state *st = NULL;
    gisa_sim *sim = NULL;
    *fails = false;
    if (gisa_state_parse("cand", text, len, &st, NULL) != GISA_OK ||
        gisa_sim_new(c->isa, 16, gisa_state_warps(st) ? gisa_state_warps(st) : 1, &sim) != GISA_OK ||
        gisa_sim_state_apply(sim, st, NULL) != GISA_OK)
        c->bad_text++;
    else
        *fails = holds(c, sim);
    gisa_sim_free(sim);
    gisa_state_free(st);
    return GISA_OK;
}

/* Three warps of noise around what kind 0 and kind 1 need. */
static gisa_sim *noisy(const gisa_isa *isa)
{
    gisa_sim *sim = NULL;
    CHECK(gisa_sim_new(isa, 16, 3, &sim) == GISA_OK);
    tg_rng r = {0};
    for (unsigned w = 0; w < 3; w++) {
        gisa_sim_set_active(sim, w, (uint32_t)tg_next(&r) | 1u << 3);
        for (unsigned i = 0; i < 16; i++)
            for (unsigned l = 0; l < 32; l++)
                gisa_sim_set(sim, w, GISA_RF_R, i, (int)l, (uint32_t)tg_next(&r));
        for (unsigned p = 0; p < 7; p++)
            for (unsigned l = 0; l < 32; l++)
                gisa_sim_set(sim, w, GISA_RF_P, p, (int)l, (uint32_t)(tg_next(&r) & 1));
        for (unsigned u = 0; u < 20; u++)
            gisa_sim_set(sim, w, GISA_RF_UR, u, 0, (uint32_t)tg_next(&r));
        gisa_sim_set(sim, w, GISA_RF_UP, 3, 0, 1);
    }
    for (unsigned off = 0; off < 0x100; off += 4)
        gisa_sim_set_const(sim, off % 3, off, (uint32_t)tg_next(&r));
    gisa_sim_set_const(sim, 1, 0x20, 0xabcd);
    /* what the tests need: in warp 1 for kind 0, warp 0 for kind 1 */
    gisa_sim_set(sim, 1, GISA_RF_R, 5, 3, 0xfff);
    gisa_sim_set(sim, 1, GISA_RF_P, 2, 7, 1);
    gisa_sim_set(sim, 0, GISA_RF_R, 9, 4, 7);
    gisa_sim_set(sim, 0, GISA_RF_R, 9, 20, 7);
    gisa_sim_set(sim, 0, GISA_RF_R, 9, 5, 0);
    gisa_sim_set(sim, 0, GISA_RF_R, 9, 21, 9);
    gisa_sim_set_active(sim, 0, 0x0f0f0f00);
    return sim;
}

static char *squeeze(const char *s)
{
    char *o = malloc(strlen(s) + 1), *p = o;
    for (; *s; s++)
        if (*s != ' ' && *s != '\n')
            *p++ = *s;
    *p = 0;
    return o;
}

int main(void)
{
    const gisa_isa *isa = test_isa();
    gisa_sim *sim = noisy(isa);
    char *full = api_state_json(sim);
    CHECK(full && strlen(full) > 10000);

    cond c = {.isa = isa};
    char *out = NULL, *again = NULL;
    size_t len = 0, tests = 0, tests2 = 0;
    CHECK(gisa_shrink_state(sim, test, &c, &out, &len, &tests, NULL) == GISA_OK && out && len == strlen(out));
    CHECK(tests == c.calls && !c.bad_text);
    char *sq = out ? squeeze(out) : NULL;
    CHECKF(sq && !strcmp(sq, "{\"active\":\"0xffffffff\",\"R5\":\"0x00000100\",\"P2\":true,\"c[0x1][0x20]\":\"0x00000001\"}"),
           "kind 0: %s", sq ? sq : "(null)");
    c.calls = 0;
    CHECK(gisa_shrink_state(sim, test, &c, &again, NULL, &tests2, NULL) == GISA_OK && again && out &&
          !strcmp(out, again) && tests2 == tests);
    free(sq);
    gisa_free(out);
    gisa_free(again);

    /* lanes that matter stay per lane; inactive lanes that matter stay */
    cond c1 = {.isa = isa, .kind = 1};
    CHECK(gisa_shrink_state(sim, test, &c1, &out, &len, &tests, NULL) == GISA_OK && out && !c1.bad_text);
    sq = out ? squeeze(out) : NULL;
    char want[600] = "{\"active\":\"0xffffffbf\",\"R9\":[";
    for (int l = 0; l < 32; l++)
        strcat(strcat(want, l ? "," : ""), l == 4 || l == 20 ? "\"0x00000007\"" : "\"0x00000000\"");
    strcat(want, "]}");
    CHECKF(sq && !strcmp(sq, want),
           "kind 1: %s", sq ? sq : "(null)");
    free(sq);
    gisa_free(out);

    /* a test that does not fail; a test that stops */
    gisa_sim *empty = NULL;
    CHECK(gisa_sim_new(isa, 16, 1, &empty) == GISA_OK);
    gisa_diags *d = api_diags();
    cond c2 = {.isa = isa};
    out = (char *)1;
    CHECK(gisa_shrink_state(empty, test, &c2, &out, NULL, NULL, d) == GISA_ERR_INPUT && out == NULL &&
          test_diags_contain(d, "does not fail on the state"));
    gisa_diags_free(d);
    cond c3 = {.isa = isa, .stop_at = 1};
    CHECK(gisa_shrink_state(sim, test, &c3, &out, &len, NULL, NULL) == GISA_ERR_IO && out && full &&
          !strcmp(out, full));
    gisa_free(out);
    cond c4 = {.isa = isa, .stop_at = 20};
    CHECK(gisa_shrink_state(sim, test, &c4, &out, &len, NULL, NULL) == GISA_ERR_IO && out && full &&
          strlen(out) < strlen(full));
    gisa_free(out);
    CHECK(gisa_shrink_state(NULL, test, &c, &out, NULL, NULL, NULL) == GISA_ERR_USAGE);
    CHECK(gisa_shrink_state(sim, NULL, &c, &out, NULL, NULL, NULL) == GISA_ERR_USAGE);
    free(full);
    gisa_sim_free(empty);
    gisa_sim_free(sim);
    return test_summary();
}
