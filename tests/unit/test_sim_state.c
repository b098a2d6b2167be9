/* The simulator state as JSON: gisa_state_parse + gisa_sim_state_apply / gisa_sim_state_write.
 *
 *  - round trip: a random state written, read into a fresh sim and written
 *    again gives the same text and the same registers (one warp and several);
 *  - every input form: scalar broadcast, 32-element arrays, hex strings,
 *    decimal and negative integers, "laneid"/"warpid", R[2:3] pairs, Pn
 *    booleans and arrays, URn, UPn, c[bank][offset], "active", {"warps": [..]};
 *  - every error: GISA_ERR_INPUT, a diagnostic naming the key (or the line
 *    and column for invalid JSON), and the state completely unchanged;
 *  - floats: random decimal literals, as JSON numbers and strings, read as
 *    F32, F64 (pairs), F16 and BF16 agree with GNU MPFR's correctly rounded
 *    value (an overflow is an error); every --values form written reads
 *    back to the same bits, NaN payloads included;
 *  - the output's shape: constants once per file, one value for 32 equal
 *    lanes, the warp count the file carries (gisa_state_warps);
 *  - JSON syntax: escapes in keys, a byte-order mark, invalid UTF-8,
 *    trailing commas and deep nesting.
 */
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "fpref.h"
#include "testlib.h"

static gisa_isa *isa;

static tg_rng rng = {0x3C6EF372FE94F82Bu};

static gisa_sim *new_sim(unsigned regs, unsigned warps)
{
    gisa_sim *s = NULL;
    if (gisa_sim_new(isa, regs, warps, &s) != GISA_OK) {
        fprintf(stderr, "gisa_sim_new(%u, %u) failed\n", regs, warps);
        exit(2);
    }
    return s;
}

static uint32_t get(const gisa_sim *s, unsigned w, gisa_regfile rf, unsigned i, unsigned l)
{
    uint32_t v = 0xBAD0BAD0;
    if (gisa_sim_get(s, w, rf, i, l, &v) != GISA_OK)
        return 0xBAD0BAD0;
    return v;
}

static uint32_t cget(const gisa_sim *s, unsigned bank, unsigned off)
{
    uint32_t v = 0xBAD0BAD0;
    if (gisa_sim_get_const(s, bank, off, &v) != GISA_OK)
        return 0xBAD0BAD0;
    return v;
}

/* Reads `json` into s; returns the status; diagnostics in *dout (caller frees) or freed. */
static gisa_status rd(gisa_sim *s, const char *json, gisa_diags **dout)
{
    gisa_diags *d = api_diags();
    gisa_status st = api_state_read(s, "state.json", json, strlen(json), d);
    if (dout)
        *dout = d;
    else
        gisa_diags_free(d);
    return st;
}

/* A state that must load; failures dump the diagnostics. */
static int rd_ok(gisa_sim *s, const char *json)
{
    gisa_diags *d;
    gisa_status st = rd(s, json, &d);
    CHECKF(st == GISA_OK, "state did not load: %.200s", json);
    if (st != GISA_OK)
        test_dump_diags(d);
    gisa_diags_free(d);
    return st == GISA_OK;
}

/* Every register, predicate, UR, UP, active mask and constant of two sims
 * compared; constants only at the given addresses. */
static int same_state(const gisa_sim *a, const gisa_sim *b)
{
    unsigned regs = gisa_sim_regs(a), warps = gisa_sim_warps(a);
    if (regs != gisa_sim_regs(b) || warps != gisa_sim_warps(b))
        return 0;
    for (unsigned w = 0; w < warps; w++) {
        if (api_active(a, w) != api_active(b, w))
            return 0;
        for (unsigned l = 0; l < 32; l++) {
            for (unsigned r = 0; r < regs; r++)
                if (get(a, w, GISA_RF_R, r, l) != get(b, w, GISA_RF_R, r, l))
                    return 0;
            for (unsigned p = 0; p < 7; p++)
                if (get(a, w, GISA_RF_P, p, l) != get(b, w, GISA_RF_P, p, l))
                    return 0;
        }
        for (unsigned u = 0; u < 63; u++)
            if (get(a, w, GISA_RF_UR, u, 0) != get(b, w, GISA_RF_UR, u, 0))
                return 0;
        for (unsigned u = 0; u < 7; u++)
            if (get(a, w, GISA_RF_UP, u, 0) != get(b, w, GISA_RF_UP, u, 0))
                return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ round trip */

static void randomize(gisa_sim *s, unsigned nconst, unsigned *banks, unsigned *offs)
{
    unsigned regs = gisa_sim_regs(s), warps = gisa_sim_warps(s);
    for (unsigned w = 0; w < warps; w++) {
        uint64_t x = tg_next(&rng);
        gisa_sim_set_active(s, w, (x & 3) == 0 ? UINT32_MAX : (x & 3) == 1 ? 0 : (uint32_t)(x >> 32));
        for (unsigned r = 0; r < regs; r++) {
            int kind = (int)tg_below(&rng, 4); /* 0: all zero, 1: broadcast, 2: per lane, 3: one lane set */
            uint32_t v = (uint32_t)tg_next(&rng);
            unsigned one = (unsigned)tg_below(&rng, 32);
            for (unsigned l = 0; l < 32; l++) {
                uint32_t val = kind == 0 ? 0 : kind == 1 ? v : kind == 2 ? (uint32_t)tg_next(&rng) : l == one ? v : 0;
                CHECK(gisa_sim_set(s, w, GISA_RF_R, r, (int)l, val) == GISA_OK);
            }
        }
        for (unsigned p = 0; p < 7; p++) {
            uint32_t m = (tg_next(&rng) & 1) ? 0 : (uint32_t)tg_next(&rng);
            for (unsigned l = 0; l < 32; l++)
                gisa_sim_set(s, w, GISA_RF_P, p, (int)l, m >> l & 1);
        }
        for (unsigned u = 0; u < 63; u++)
            gisa_sim_set(s, w, GISA_RF_UR, u, 0, (tg_next(&rng) & 1) ? 0 : (uint32_t)tg_next(&rng));
        for (unsigned u = 0; u < 7; u++)
            gisa_sim_set(s, w, GISA_RF_UP, u, 0, (uint32_t)(tg_next(&rng) & 1));
    }
    for (unsigned i = 0; i < nconst; i++) {
        banks[i] = (unsigned)tg_below(&rng, 64);
        offs[i] = (unsigned)tg_below(&rng, 16384) * 4;
        if (i == 0) {
            banks[i] = 63;
            offs[i] = 0xFFFC;
        }
        CHECK(gisa_sim_set_const(s, banks[i], offs[i], (uint32_t)tg_next(&rng) | 1) == GISA_OK);
    }
}

static void test_round_trip(void)
{
    static const unsigned shapes[][2] = {{255, 1}, {40, 1}, {40, 3}, {1, 2}, {9, 5}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int rep = 0; rep < 3; rep++) {
            unsigned regs = shapes[k][0], warps = shapes[k][1];
            gisa_sim *a = new_sim(regs, warps), *b = new_sim(regs, warps);
            unsigned banks[12], offs[12];
            randomize(a, 12, banks, offs);
            char *t1 = api_state_json(a);
            CHECK(t1 != NULL);
            if (!t1)
                continue;
            CHECKF(rd_ok(b, t1), "regs %u warps %u", regs, warps);
            char *t2 = api_state_json(b);
            CHECKF(t2 && !strcmp(t1, t2), "regs %u warps %u: the second write differs from the first", regs, warps);
            CHECKF(same_state(a, b), "regs %u warps %u: registers differ after a round trip", regs, warps);
            for (int i = 0; i < 12; i++)
                CHECKF(cget(a, banks[i], offs[i]) == cget(b, banks[i], offs[i]), "c[0x%x][0x%x] differs", banks[i],
                       offs[i]);
            /* every --values form reads back to the same bits */
            for (int mode = GISA_STATE_F32; mode <= GISA_STATE_BF16X2; mode++) {
                char *tf = api_state_text(a, (gisa_state_values)mode);
                gisa_sim *c = new_sim(regs, warps);
                CHECKF(tf && rd_ok(c, tf) && same_state(a, c), "regs %u warps %u: --values mode %d does not round-trip",
                       regs, warps, mode);
                free(tf);
                gisa_sim_free(c);
            }
            /* reading the same text again changes nothing */
            CHECK(rd_ok(b, t1));
            char *t3 = api_state_json(b);
            CHECK(t3 && !strcmp(t1, t3));
            free(t1);
            free(t2);
            free(t3);
            gisa_sim_free(a);
            gisa_sim_free(b);
        }
    /* the initial state: everything 0, all lanes active */
    gisa_sim *a = new_sim(8, 1), *b = new_sim(8, 1);
    char *t = api_state_json(a);
    CHECK(t && rd_ok(b, t) && same_state(a, b));
    CHECK(api_active(b, 0) == UINT32_MAX);
    free(t);
    gisa_sim_free(a);
    gisa_sim_free(b);
}

/* ------------------------------------------------------------------ input forms */

/* A JSON array of 32 lane values: 0 "0xL0000", 1 L (integer), 2 "0x{L:08x}{L:08x}" (64-bit), 3 true */
static char *lane_array(int kind)
{
    size_t cap = 32 * 48 + 8, len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s + len, cap - len, "[");
    for (unsigned l = 0; l < 32; l++) {
        const char *sep = l ? ", " : "";
        switch (kind) {
        case 0: len += (size_t)snprintf(s + len, cap - len, "%s\"0x%x0000\"", sep, l); break;
        case 1: len += (size_t)snprintf(s + len, cap - len, "%s%u", sep, l); break;
        case 2: len += (size_t)snprintf(s + len, cap - len, "%s\"0x%08x%08x\"", sep, l, l); break;
        default: len += (size_t)snprintf(s + len, cap - len, "%strue", sep); break;
        }
    }
    snprintf(s + len, cap - len, "]");
    return s;
}

static void test_forms(void)
{
    /* scalar broadcast, hex strings (either case of digits), decimal integers, negatives */
    {
        gisa_sim *s = new_sim(16, 3);
        CHECK(rd_ok(s, "{\"R5\": \"0x1234\", \"R6\": \"0xABCDEF01\", \"R7\": \"0xabcdef01\", \"R8\": 4294967295,"
                       " \"R9\": -1, \"R10\": -2147483648, \"R11\": 0, \"R12\": 123, \"R15\": \"0x0\"}"));
        int ok = 1;
        for (unsigned w = 0; w < 3; w++)
            for (unsigned l = 0; l < 32; l++) {
                ok &= get(s, w, GISA_RF_R, 5, l) == 0x1234;
                ok &= get(s, w, GISA_RF_R, 6, l) == 0xABCDEF01;
                ok &= get(s, w, GISA_RF_R, 7, l) == 0xABCDEF01;
                ok &= get(s, w, GISA_RF_R, 8, l) == 0xFFFFFFFF;
                ok &= get(s, w, GISA_RF_R, 9, l) == 0xFFFFFFFF;
                ok &= get(s, w, GISA_RF_R, 10, l) == 0x80000000;
                ok &= get(s, w, GISA_RF_R, 11, l) == 0;
                ok &= get(s, w, GISA_RF_R, 12, l) == 123;
                ok &= get(s, w, GISA_RF_R, 4, l) == 0; /* untouched */
            }
        CHECKF(ok, "scalar values are broadcast to every lane of every warp");
        gisa_sim_free(s);
    }
    /* 32-element arrays: hex strings and integers mixed */
    {
        gisa_sim *s = new_sim(16, 2);
        char *arr = lane_array(0), *arr2 = lane_array(1);
        char json[4096];
        snprintf(json, sizeof json, "{\"R1\": %s, \"R2\": %s}", arr, arr2);
        CHECK(rd_ok(s, json));
        int ok = 1;
        for (unsigned w = 0; w < 2; w++)
            for (unsigned l = 0; l < 32; l++)
                ok &= get(s, w, GISA_RF_R, 1, l) == (l << 16) && get(s, w, GISA_RF_R, 2, l) == l;
        CHECKF(ok, "per-lane arrays");
        free(arr);
        free(arr2);
        gisa_sim_free(s);
    }
    /* laneid / warpid */
    {
        gisa_sim *s = new_sim(16, 4);
        CHECK(rd_ok(s, "{\"R1\": \"laneid\", \"R2\": \"warpid\", \"UR3\": \"warpid\", \"R[4:5]\": \"laneid\","
                       " \"R[6:7]\": \"warpid\"}"));
        int ok = 1;
        for (unsigned w = 0; w < 4; w++) {
            ok &= get(s, w, GISA_RF_UR, 3, 0) == w;
            for (unsigned l = 0; l < 32; l++) {
                ok &= get(s, w, GISA_RF_R, 1, l) == l;
                ok &= get(s, w, GISA_RF_R, 2, l) == w;
                ok &= get(s, w, GISA_RF_R, 4, l) == l && get(s, w, GISA_RF_R, 5, l) == 0;
                ok &= get(s, w, GISA_RF_R, 6, l) == w && get(s, w, GISA_RF_R, 7, l) == 0;
            }
        }
        CHECKF(ok, "laneid / warpid specials");
        gisa_sim_free(s);
    }
    /* 64-bit pairs: R[2:3] (low word in R2), scalars, decimal, negative, arrays; UR pairs */
    {
        gisa_sim *s = new_sim(16, 2);
        char *arr = lane_array(2);
        char json[8192];
        snprintf(json, sizeof json,
                 "{\"R[2:3]\": \"0x1122334455667788\", \"R[4:5]\": 1234567890123, \"R[6:7]\": -2,"
                 " \"R[8:9]\": %s, \"UR[10:11]\": \"0xCAFEF00DDEADBEEF\", \"R[12:13]\": \"0xFFFFFFFFFFFFFFFF\"}",
                 arr);
        CHECK(rd_ok(s, json));
        int ok = 1;
        for (unsigned w = 0; w < 2; w++) {
            ok &= get(s, w, GISA_RF_UR, 10, 0) == 0xDEADBEEF && get(s, w, GISA_RF_UR, 11, 0) == 0xCAFEF00D;
            for (unsigned l = 0; l < 32; l++) {
                ok &= get(s, w, GISA_RF_R, 2, l) == 0x55667788 && get(s, w, GISA_RF_R, 3, l) == 0x11223344;
                ok &= get(s, w, GISA_RF_R, 4, l) == (uint32_t)1234567890123u &&
                      get(s, w, GISA_RF_R, 5, l) == (uint32_t)(1234567890123u >> 32);
                ok &= get(s, w, GISA_RF_R, 6, l) == 0xFFFFFFFE && get(s, w, GISA_RF_R, 7, l) == 0xFFFFFFFF;
                ok &= get(s, w, GISA_RF_R, 8, l) == l && get(s, w, GISA_RF_R, 9, l) == l;
                ok &= get(s, w, GISA_RF_R, 12, l) == 0xFFFFFFFF && get(s, w, GISA_RF_R, 13, l) == 0xFFFFFFFF;
            }
        }
        CHECKF(ok, "64-bit pairs");
        free(arr);
        gisa_sim_free(s);
    }
    /* predicates: booleans and arrays; UR, UP, constants, active */
    {
        gisa_sim *s = new_sim(16, 2);
        char *parr = lane_array(3);
        /* odd lanes true */
        char pa[600] = "[";
        for (int l = 0; l < 32; l++)
            strcat(pa, l & 1 ? (l ? ", true" : "true") : (l ? ", false" : "false"));
        strcat(pa, "]");
        char json[4096];
        snprintf(json, sizeof json,
                 "{\"P0\": true, \"P1\": false, \"P3\": %s, \"P6\": %s, \"UR5\": \"0x10\", \"UR62\": 7, \"UP2\": true,"
                 " \"UP6\": false, \"c[0x1][0x10]\": \"0x55\", \"c[0x3f][0xfffc]\": 9, \"c[0x0][0x0]\": -1,"
                 " \"active\": \"0x0000ffff\"}",
                 pa, parr);
        gisa_sim_set(s, 0, GISA_RF_P, 1, -1, 1); /* P1: false overwrites */
        gisa_sim_set(s, 1, GISA_RF_UP, 6, 0, 1);
        CHECK(rd_ok(s, json));
        int ok = 1;
        for (unsigned w = 0; w < 2; w++) {
            ok &= api_active(s, w) == 0x0000FFFF;
            ok &= get(s, w, GISA_RF_UR, 5, 0) == 0x10 && get(s, w, GISA_RF_UR, 62, 0) == 7;
            ok &= get(s, w, GISA_RF_UP, 2, 0) == 1 && get(s, w, GISA_RF_UP, 6, 0) == 0;
            for (unsigned l = 0; l < 32; l++) {
                ok &= get(s, w, GISA_RF_P, 0, l) == 1 && get(s, w, GISA_RF_P, 1, l) == 0;
                ok &= get(s, w, GISA_RF_P, 3, l) == (l & 1) && get(s, w, GISA_RF_P, 6, l) == 1;
                ok &= get(s, w, GISA_RF_P, 2, l) == 0;
            }
        }
        ok &= cget(s, 1, 0x10) == 0x55 && cget(s, 0x3f, 0xfffc) == 9 && cget(s, 0, 0) == 0xFFFFFFFF;
        ok &= cget(s, 1, 0x14) == 0;
        CHECKF(ok, "predicates, uniform registers, constants, active");
        free(parr);
        gisa_sim_free(s);
    }
    /* {"warps": [...]}: one object per warp */
    {
        gisa_sim *s = new_sim(16, 3);
        CHECK(rd_ok(s, "{\"warps\": [{\"R1\": 1, \"active\": \"0x1\"}, {\"R1\": 2, \"UR4\": \"0x44\", \"P2\": true},"
                       " {\"R1\": \"warpid\", \"R2\": \"laneid\"}]}"));
        int ok = 1;
        ok &= api_active(s, 0) == 1 && api_active(s, 1) == UINT32_MAX &&
              api_active(s, 2) == UINT32_MAX;
        ok &=
            get(s, 0, GISA_RF_UR, 4, 0) == 0 && get(s, 1, GISA_RF_UR, 4, 0) == 0x44 && get(s, 2, GISA_RF_UR, 4, 0) == 0;
        for (unsigned l = 0; l < 32; l++) {
            ok &= get(s, 0, GISA_RF_R, 1, l) == 1 && get(s, 1, GISA_RF_R, 1, l) == 2 && get(s, 2, GISA_RF_R, 1, l) == 2;
            ok &= get(s, 0, GISA_RF_P, 2, l) == 0 && get(s, 1, GISA_RF_P, 2, l) == 1 && get(s, 2, GISA_RF_P, 2, l) == 0;
            ok &= get(s, 0, GISA_RF_R, 2, l) == 0 && get(s, 2, GISA_RF_R, 2, l) == l;
        }
        CHECKF(ok, "{\"warps\": [...]} sets each warp from its own object");
        gisa_sim_free(s);
    }
    /* keys not given keep their values; an empty object changes nothing */
    {
        gisa_sim *s = new_sim(16, 1);
        gisa_sim_set(s, 0, GISA_RF_R, 3, -1, 0x33);
        gisa_sim_set(s, 0, GISA_RF_UR, 3, 0, 0x44);
        CHECK(rd_ok(s, "{}"));
        CHECK(rd_ok(s, "  {\"R4\": 4}\n"));
        CHECK(get(s, 0, GISA_RF_R, 3, 7) == 0x33 && get(s, 0, GISA_RF_UR, 3, 0) == 0x44 &&
              get(s, 0, GISA_RF_R, 4, 7) == 4);
        gisa_sim_free(s);
    }
    /* the highest register of a sim with --regs 16 */
    {
        gisa_sim *s = new_sim(16, 1);
        CHECK(rd_ok(s, "{\"R[14:15]\": \"0x0000000f0000000e\"}"));
        CHECK(get(s, 0, GISA_RF_R, 15, 0) == 15 && get(s, 0, GISA_RF_R, 14, 0) == 14);
        gisa_sim_free(s);
    }
}

/* ------------------------------------------------------------------ errors */

typedef struct errcase {
    const char *json;
    const char *needle; /* must appear in a diagnostic (the key) */
} errcase;

static void test_errors(void)
{
    static const errcase cases[] = {
        /* unknown keys */
        {"{\"R1\": 1, \"Q1\": 5}", "\"Q1\""},
        {"{\"R1\": 1, \"foo\": 5}", "\"foo\""},
        {"{\"R\": 5}", "\"R\""},
        {"{\"r1\": 5}", "\"r1\""},
        {"{\"R01\": 5}", "\"R01\""},
        {"{\"RZ\": 5}", "\"RZ\""},
        {"{\"PT\": true}", "\"PT\""},
        {"{\"R1x\": 5}", "\"R1x\""},
        {"{\"R-1\": 5}", "\"R-1\""},
        {"{\"URZ\": 5}", "\"URZ\""},
        {"{\"c[0x1]\": 5}", "\"c[0x1]\""},
        {"{\"R1\": 1, \"Warps\": []}", "\"Warps\""},
        /* malformed values */
        {"{\"R1\": \"0xZZ\"}", "\"R1\""},
        {"{\"R1\": \"\"}", "\"R1\""},
        {"{\"R1\": \"0x\"}", "\"R1\""},
        {"{\"R1\": \"12a\"}", "\"R1\""},
        {"{\"R1\": 1e39}", "\"R1\""},
        {"{\"R1\": \"1.5.2\"}", "\"R1\""},
        {"{\"R1\": \"f64:1.5\"}", "\"R1\""},
        {"{\"R[2:3]\": \"f16:1.5\"}", "\"R[2:3]\""},
        {"{\"R1\": \"f16x2:1.5\"}", "\"R1\""},
        {"{\"R1\": \"f16:65520\"}", "\"R1\""},
        {"{\"R1\": \"bf16:1e39\"}", "\"R1\""},
        {"{\"c[0x1][0x10]\": 1e39}", "\"c[0x1][0x10]\""},
        {"{\"active\": 1.0}", "\"active\""},
        {"{\"R1\": null}", "\"R1\""},
        {"{\"R1\": {}}", "\"R1\""},
        {"{\"R1\": true}", "\"R1\""},
        {"{\"R1\": \"LANEID\"}", "\"R1\""},
        {"{\"R1\": \"0x100000000\"}", "\"R1\""},
        {"{\"R1\": 4294967296}", "\"R1\""},
        {"{\"R1\": -2147483649}", "\"R1\""},
        {"{\"R[2:3]\": \"0x10000000000000000\"}", "\"R[2:3]\""},
        {"{\"UR1\": \"0xfffffffff\"}", "\"UR1\""},
        {"{\"c[0x1][0x10]\": \"nope\"}", "\"c[0x1][0x10]\""},
        {"{\"active\": \"0x1ffffffff\"}", "\"active\""},
        {"{\"active\": true}", "\"active\""},
        /* arrays of the wrong length or with a bad element */
        {"{\"R1\": []}", "\"R1\""},
        {"{\"R1\": [1, 2, 3]}", "\"R1\""},
        {"{\"R1\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}", "\"R1\""},
        {"{\"R1\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}", "\"R1\""},
        {"{\"R1\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,\"x\"]}", "\"R1\""},
        {"{\"P1\": [true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,"
         "true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,1]}",
         "\"P1\""},
        {"{\"P1\": [true, false]}", "\"P1\""},
        /* register index beyond regs (16) or the files */
        {"{\"R16\": 1}", "\"R16\""},
        {"{\"R200\": 1}", "\"R200\""},
        {"{\"R255\": 1}", "\"R255\""},
        {"{\"R[16:17]\": 1}", "\"R[16:17]\""},
        {"{\"P7\": true}", "\"P7\""},
        {"{\"UR63\": 1}", "\"UR63\""},
        {"{\"UP7\": true}", "\"UP7\""},
        {"{\"UR[62:63]\": 1}", "\"UR[62:63]\""},
        /* bad pairs */
        {"{\"R[3:4]\": 1}", "\"R[3:4]\""},
        {"{\"R[2:4]\": 1}", "\"R[2:4]\""},
        {"{\"R[2:2]\": 1}", "\"R[2:2]\""},
        {"{\"P[0:1]\": true}", "\"P[0:1]\""},
        /* constant addresses */
        {"{\"c[0x40][0x0]\": 1}", "\"c[0x40][0x0]\""},
        {"{\"c[0x1][0x10000]\": 1}", "\"c[0x1][0x10000]\""},
        {"{\"c[0x1][0x12]\": 1}", "\"c[0x1][0x12]\""},
        {"{\"c[0x1][0x11]\": 1}", "\"c[0x1][0x11]\""},
        {"{\"c[0x1][0x10]\": [1,2]}", "\"c[0x1][0x10]\""},
        /* predicates need booleans */
        {"{\"P0\": 1}", "\"P0\""},
        {"{\"P0\": \"true\"}", "\"P0\""},
        {"{\"P0\": null}", "\"P0\""},
        {"{\"UP1\": 1}", "\"UP1\""},
        {"{\"P0\": \"laneid\"}", "\"P0\""},
        /* per-warp values cannot be arrays; laneid needs a per-lane register */
        {"{\"UR5\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}", "\"UR5\""},
        {"{\"UP1\": [true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,"
         "true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true]}",
         "\"UP1\""},
        {"{\"active\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}", "\"active\""},
        {"{\"UR5\": \"laneid\"}", "\"UR5\""},
        {"{\"active\": \"laneid\"}", "\"active\""},
        /* "warps": wrong count, not alone, not objects */
        {"{\"warps\": [{}, {}]}", "\"warps\""},
        {"{\"warps\": [{}, {}, {}, {}]}", "\"warps\""},
        {"{\"warps\": [{}, {}, {}], \"R1\": 1}", "\"warps\""},
        {"{\"warps\": {}}", "\"warps\""},
        {"{\"warps\": [{}, 5, {}]}", "\"warps\""},
        {"{\"warps\": [{\"R1\": 1}, {\"R1\": 2}, {\"Q9\": 3}]}", "\"Q9\""},
        /* a valid key first, a bad one later: nothing applied */
        {"{\"R2\": 7, \"UR3\": 1, \"c[0x2][0x0]\": 5, \"active\": \"0x1\", \"P0\": true, \"R3\": \"bad\"}", "\"R3\""},
        /* duplicate keys, overlapping pairs, a constant given two values */
        {"{\"R1\": 1, \"R1\": 2}", "R1"},
        {"{\"R15\": 15, \"R[14:15]\": 1}", "R[14:15]"},
        {"{\"UR[2:3]\": 1, \"UR3\": 1}", "UR3"},
        {"{\"c[0x1][0x10]\": 1, \"c[1][10]\": 2}", "c[1][10]"},
        {"{\"warps\": [{\"c[0x1][0x10]\": 1}, {\"c[0x1][0x10]\": 1}, {\"c[0x1][0x10]\": 2}]}", "c[0x1][0x10]"},
        {"{\"warps\": [{}, {}, {}], \"warps\": [{}, {}, {}]}", "warps"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gisa_sim *s = new_sim(16, 3);
        unsigned banks[4], offs[4];
        randomize(s, 4, banks, offs);
        gisa_sim_set_const(s, 2, 0, 0x2020);
        char *before = api_state_json(s);
        gisa_sim *copy = new_sim(16, 3);
        rd_ok(copy, before);
        gisa_diags *d;
        gisa_status st = rd(s, cases[i].json, &d);
        CHECKF(st == GISA_ERR_INPUT, "%s: status %s, want an input error", cases[i].json, gisa_status_str(st));
        CHECKF(gisa_diags_errors(d) >= 1, "%s: no error diagnostic", cases[i].json);
        CHECKF(test_diags_contain(d, cases[i].needle), "%s: no diagnostic names %s", cases[i].json, cases[i].needle);
        if (!test_diags_contain(d, cases[i].needle))
            test_dump_diags(d);
        CHECKF(test_diags_contain(d, "state.json"), "%s: the diagnostic does not name the file", cases[i].json);
        char *after = api_state_json(s);
        CHECKF(before && after && !strcmp(before, after), "%s: the state changed", cases[i].json);
        CHECKF(same_state(s, copy), "%s: the state changed", cases[i].json);
        CHECK(cget(s, 2, 0) == 0x2020);
        free(before);
        free(after);
        gisa_diags_free(d);
        gisa_sim_free(s);
        gisa_sim_free(copy);
    }

    /* invalid JSON: line and column reported, nothing changed */
    static const struct {
        const char *json;
        int line;
    } bad_json[] = {
        {"{\n  \"R1\": 5,\n  oops\n}\n", 3}, {"{\"R1\": 5", 1}, {"", 1}, {"{\"R1\": 5}\n}", 2},
        {"{\n\n\n  \"R1\": 0x5\n}", 4},
    };
    for (size_t i = 0; i < sizeof bad_json / sizeof bad_json[0]; i++) {
        gisa_sim *s = new_sim(16, 1);
        gisa_sim_set(s, 0, GISA_RF_R, 1, -1, 0x77);
        char *before = api_state_json(s);
        gisa_diags *d;
        CHECKF(rd(s, bad_json[i].json, &d) == GISA_ERR_INPUT, "invalid JSON %zu accepted", i);
        const gisa_diag *g = gisa_diags_count(d) ? gisa_diags_get(d, 0) : NULL;
        /* the column is known except for an empty text */
        CHECKF(g && g->line == bad_json[i].line && (g->col > 0 || !*bad_json[i].json),
               "invalid JSON %zu: reported at %d:%d, want line %d", i, g ? g->line : -1, g ? g->col : -1,
               bad_json[i].line);
        char needle[32];
        snprintf(needle, sizeof needle, "state.json:%d:", bad_json[i].line);
        CHECKF(test_diags_contain(d, needle), "invalid JSON %zu: no '%s' in the diagnostic", i, needle);
        char *after = api_state_json(s);
        CHECK(before && after && !strcmp(before, after));
        free(before);
        free(after);
        gisa_diags_free(d);
        gisa_sim_free(s);
    }
    /* not an object */
    static const char *const not_obj[] = {"[1, 2]", "5", "\"R1\"", "null"};
    for (size_t i = 0; i < sizeof not_obj / sizeof not_obj[0]; i++) {
        gisa_sim *s = new_sim(16, 1);
        gisa_diags *d;
        CHECKF(rd(s, not_obj[i], &d) == GISA_ERR_INPUT, "'%s' accepted as a state", not_obj[i]);
        CHECK(gisa_diags_errors(d) >= 1);
        gisa_diags_free(d);
        gisa_sim_free(s);
    }
    /* bad arguments */
    gisa_sim *s = new_sim(16, 1);
    CHECK(api_state_read(NULL, "x", "{}", 2, NULL) != GISA_OK);
    CHECK(api_state_json(NULL) == NULL);
    gisa_sim_free(s);
}

/* ------------------------------------------------------------------ floats */

/* A random decimal literal: digits, an optional point, an exponent aimed at
 * each format's range (overflow and underflow included). */
static void random_decimal(char *buf, size_t cap, int neg)
{
    char digits[40];
    int nd = 1 + (int)tg_below(&rng, 25), point = (int)tg_below(&rng, (uint64_t)nd + 1);
    for (int i = 0; i < nd; i++)
        digits[i] = (char)('0' + (i == 0 ? 1 + tg_below(&rng, 9) : tg_below(&rng, 10)));
    int e = (int)tg_below(&rng, 700) - 350;
    if (tg_below(&rng, 2))
        e = (int)tg_below(&rng, 100) - 50;
    size_t n = 0;
    if (neg)
        buf[n++] = '-';
    for (int i = 0; i < nd; i++) {
        if (i == point && i)
            buf[n++] = '.';
        buf[n++] = digits[i];
    }
    if (point == nd && tg_below(&rng, 2))
        n += (size_t)snprintf(buf + n, cap - n, ".0");
    snprintf(buf + n, cap - n, "e%d", e);
}

/* The correctly rounded value of a decimal in format fi (MPFR), and
 * whether it overflows. */
static uint64_t ref_decimal(const char *dec, int fi, int *overflow)
{
    mpfr_t x;
    mpfr_init2(x, FMT[fi].mbits + 1);
    int t = mpfr_strtofr(x, dec, NULL, 10, MPFR_RNDN);
    uint64_t bits = ref_finish(fi, x, t, 0);
    *overflow = (bits & ~f_sign(&FMT[fi])) == f_inf(&FMT[fi]);
    mpfr_clear(x);
    return bits;
}

static void test_floats(void)
{
    static const struct {
        const char *key, *prefix;
        int fi;
    } dest[] = {{"R1", "", F32}, {"R[2:3]", "", F64}, {"R4", "f16:", F16}, {"R5", "bf16:", BF16},
                {"R6", "f32:", F32}, {"R[8:9]", "f64:", F64}};
    gisa_sim *s = new_sim(16, 1);
    size_t checked = 0, mismatches = 0;
    for (int i = 0; i < 6000; i++) {
        char dec[64], json[160];
        random_decimal(dec, sizeof dec, (int)tg_below(&rng, 2));
        for (size_t k = 0; k < sizeof dest / sizeof dest[0]; k++) {
            int ovf, as_number = !*dest[k].prefix && (i & 1);
            uint64_t want = ref_decimal(dec, dest[k].fi, &ovf), got = 0;
            if (as_number)
                snprintf(json, sizeof json, "{\"%s\": %s}", dest[k].key, dec);
            else
                snprintf(json, sizeof json, "{\"%s\": \"%s%s\"}", dest[k].key, dest[k].prefix, dec);
            gisa_status st = rd(s, json, NULL);
            unsigned index = dest[k].key[1] == '[' ? (unsigned)(dest[k].key[2] - '0') : (unsigned)(dest[k].key[1] - '0');
            got = get(s, 0, GISA_RF_R, index, 7);
            if (FMT[dest[k].fi].bits == 64)
                got |= (uint64_t)get(s, 0, GISA_RF_R, index + 1, 7) << 32;
            int ok = ovf ? st == GISA_ERR_INPUT : st == GISA_OK && got == want;
            checked++;
            if (!ok && mismatches++ < 10)
                CHECKF(0, "%s: got %s 0x%llx, want %s0x%llx", json, gisa_status_str(st), (unsigned long long)got,
                       ovf ? "an error (overflow), not " : "", (unsigned long long)want);
        }
    }
    CHECKF(mismatches == 0, "%zu of %zu float literals read wrong", mismatches, checked);
    /* the spellings of special values */
    static const struct {
        const char *json;
        unsigned reg;
        uint32_t bits;
    } special[] = {
        {"{\"R1\": \"inf\"}", 1, 0x7f800000},       {"{\"R1\": \"-inf\"}", 1, 0xff800000},
        {"{\"R1\": \"nan\"}", 1, 0x7fc00000},       {"{\"R1\": \"-nan\"}", 1, 0xffc00000},
        {"{\"R1\": -0.0}", 1, 0x80000000},           {"{\"R1\": \"-0.0\"}", 1, 0x80000000},
        {"{\"R1\": 0.0}", 1, 0},                      {"{\"R1\": 1}", 1, 1},
        {"{\"R1\": \"1\"}", 1, 1},                  {"{\"R1\": \"f32:1\"}", 1, 0x3f800000},
        {"{\"R1\": \"0x1p-149\"}", 1, 1},           {"{\"R1\": 1E+1}", 1, 0x41200000},
        {"{\"R1\": \"f16x2:-inf, nan\"}", 1, 0xfc007e00}, {"{\"R1\": \"bf16x2: 1 , -1 \"}", 1, 0x3f80bf80},
        {"{\"R[2:3]\": \"-inf\"}", 3, 0xfff00000},  {"{\"UR[2:3]\": 1.5}", 3, 0x3ff80000},
        {"{\"c[0x0][0x0]\": -1.5}", 0, 0xbfc00000},
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        CHECK(rd_ok(s, special[i].json));
        uint32_t v = strstr(special[i].json, "UR[") ? get(s, 0, GISA_RF_UR, special[i].reg, 0)
                   : strstr(special[i].json, "c[") ? cget(s, 0, 0) : get(s, 0, GISA_RF_R, special[i].reg, 31);
        CHECKF(v == special[i].bits, "%s: 0x%08x, want 0x%08x", special[i].json, v, special[i].bits);
    }
    gisa_sim_free(s);
}

/* ------------------------------------------------------------------ output shape */

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

static void test_shape(void)
{
    gisa_sim *s = new_sim(8, 5);
    for (unsigned i = 0; i < 40; i++)
        gisa_sim_set_const(s, i % 3, i * 8, i + 1);
    for (unsigned w = 0; w < 5; w++) {
        gisa_sim_set(s, w, GISA_RF_R, 1, -1, 0x1234);
        gisa_sim_set(s, w, GISA_RF_R, 2, (int)w, 7);
        gisa_sim_set(s, w, GISA_RF_P, 3, -1, 1);
    }
    char *t = api_state_json(s);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECKF(count(t, "\"c[") == 40, "constants written %zu times for 40 constants and 5 warps", count(t, "\"c["));
    CHECK(count(t, "\"R1\": \"0x00001234\"") == 5);
    CHECK(count(t, "\"P3\": true") == 5);
    CHECK(count(t, "\"R2\": [") == 5);
    gisa_state *st;
    gisa_diags *d = api_diags();
    CHECK(gisa_state_parse("x.json", t, strlen(t), &st, d) == GISA_OK);
    CHECK(gisa_state_warps(st) == 5 && gisa_state_bytes(st) > 0);
    gisa_sim *wrong = new_sim(8, 4), *right = new_sim(8, 5);
    char *before = api_state_json(wrong);
    CHECK(gisa_sim_state_apply(wrong, st, d) == GISA_ERR_INPUT && test_diags_contain(d, "5 warps"));
    char *after = api_state_json(wrong);
    CHECK(before && after && !strcmp(before, after));
    CHECK(gisa_sim_state_apply(right, st, d) == GISA_OK && same_state(s, right));
    gisa_state_free(st);
    CHECK(gisa_state_parse("x.json", "{\"R1\": 1}", 9, &st, d) == GISA_OK && gisa_state_warps(st) == 0);
    gisa_state_free(st);
    free(before);
    free(after);
    free(t);
    gisa_diags_free(d);
    gisa_sim_free(wrong);
    gisa_sim_free(right);
    gisa_sim_free(s);
}

static void test_json_syntax(void)
{
    gisa_sim *s = new_sim(8, 1);
    gisa_diags *dk;
    CHECK(rd(s, "\xEF\xBB\xBF{\"R\\u0031\": \"0x\\u0031\", \"note\u00e9\": 1}", &dk) == GISA_ERR_INPUT);
    CHECK(test_diags_contain(dk, "state.json:1:25: error: state key \"note\u00e9\""));
    gisa_diags_free(dk);
    CHECK(rd_ok(s, "\xEF\xBB\xBF{\"R\\u0031\": \"0x\\u0031\"}") && get(s, 0, GISA_RF_R, 1, 0) == 1);
    static const char *const bad[] = {
        "{\"R1\": 1,}", "{\"R1\": [1,]}", "{\"R1\" 1}", "{\"R\xff\": 1}", "{\"R1\": \"\\x\"}", "{\"R1\": 01}",
        "{\"R1\": 1.}", "{\"R1\": -}", "{\"R1\": tru}", "{\"R1\": \"a\nb\"}", "{\"R1\": 1} x", "{'R1': 1}",
        "{\"R1\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gisa_diags *d;
        CHECKF(rd(s, bad[i], &d) == GISA_ERR_INPUT && test_diags_contain(d, "state.json:1:"), "accepted: %s", bad[i]);
        gisa_diags_free(d);
    }
    gisa_sim_free(s);
}

int main(void)
{
    isa = test_isa();
    ref_init();
    test_round_trip();
    test_forms();
    test_errors();
    test_floats();
    test_shape();
    test_json_syntax();
    ref_free();
    gisa_isa_free(isa);
    return test_summary();
}
