/* Integer semantics of the simulator against independent C references.
 *
 * Every expected value is computed here with plain 64-bit / 128-bit C
 * arithmetic from the ISA documents (ialu.isa.txt) and SPEC-RULINGS.md
 * ("Integer"), never by calling simulator code. Many inputs are run at once:
 * each lane of each warp gets its own inputs (edge-heavy random values from a
 * fixed-seed tg_rng, testlib.h), so one gisa_sim_run checks thousands of cases.
 *
 * Parts:
 *  1. the multi-instruction idioms of the rulings (>= 100,000 inputs each);
 *  2. directed tests per instruction: every modifier, every source kind
 *     (register, UR, immediate, constant bank), edge values;
 *  3. execution rules: guards, active mask, read-before-write, RZ/PT,
 *     R2UR lane choice, SETGPR/GETGPR and other faults.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

static gisa_isa *isa;

/* ------------------------------------------------------------------ random */

static tg_rng rng = {0x6A09E667F3BCC908u};

static const uint32_t edges[] = {
    0,          1,          2,          3,          4,          7,          8,          15,         16,
    0x7F,       0x80,       0x81,       0xFF,       0x100,      0x7FFF,     0x8000,     0x8001,     0xFFFF,
    0x10000,    0x114514,   0x7FFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFF80,
    0xFFFFFF7F, 0xFFFF8000, 0xFFFF7FFF, 0xFFFFFFF8, 0xFFFFFFFC, 0xFFFFFFFD, 0xFFFFFFF9, 0x0000FF00, 0x00FF0000,
    0xFF000000, 0xAAAAAAAA, 0x55555555, 31,         32,         33,         63,         64,         65,
};
#define NEDGES (sizeof edges / sizeof edges[0])

/* edge-heavy 32-bit value: 3/8 an edge, 1/8 an edge +- a little, 1/8 zero or small, 3/8 uniform */
static uint32_t r32(void)
{
    uint64_t x = tg_next(&rng);
    uint32_t hi = (uint32_t)(x >> 32);
    switch (x & 7) {
    case 0:
    case 1:
    case 2: return edges[hi % NEDGES];
    case 3: return edges[hi % NEDGES] + (uint32_t)((x >> 8) & 7) - 3u;
    case 4: return (hi & 0x400) ? 0 : hi & 0x3FF;
    default: return hi;
    }
}

static uint32_t rbit(void)
{
    return (uint32_t)(tg_next(&rng) >> 40) & 1;
}

/* ------------------------------------------------------------------ helpers */

static int shown_total;
#define SHOW_LIMIT 200

static int assemble(const char *src, gisa_word **w, size_t *n)
{
    gisa_diags *d = api_diags();
    gisa_status st = gisa_assemble(isa, "<test>", src, strlen(src), NULL, w, n, d);
    if (st != GISA_OK) {
        CHECKF(0, "does not assemble: %s", src);
        test_dump_diags(d);
        *w = NULL;
    }
    gisa_diags_free(d);
    return st == GISA_OK;
}

/* A sim with `src` loaded; NULL (and a failed check) if it does not assemble. */
static gisa_sim *sim_with(const char *src, unsigned regs, unsigned warps)
{
    gisa_word *w;
    size_t n;
    if (!assemble(src, &w, &n))
        return NULL;
    gisa_sim *s = NULL;
    if (gisa_sim_new(isa, regs, warps, &s) != GISA_OK) {
        CHECKF(0, "gisa_sim_new(%u, %u) failed", regs, warps);
        free(w);
        return NULL;
    }
    CHECK(gisa_sim_load(s, w, n) == GISA_OK);
    free(w);
    return s;
}

static uint32_t rget(const gisa_sim *s, unsigned warp, gisa_regfile rf, unsigned idx, unsigned lane)
{
    uint32_t v = 0xBAD0BAD0;
    if (gisa_sim_get(s, warp, rf, idx, lane, &v) != GISA_OK)
        v = 0xBAD0BAD0;
    return v;
}

static gisa_status run_sim(gisa_sim *s, gisa_sim_fault *f)
{
    gisa_sim_fault tmp;
    memset(&tmp, 0, sizeof tmp);
    return gisa_sim_run(s, f ? f : &tmp);
}

/* ------------------------------------------------------------------ batch runner
 *
 * A job runs one program on `warps` x 32 lanes, `runs` times. `ins` and
 * `outs` list operands: Rn, Pn, URn, UPn, c[B][O] (a constant word) or #V (an
 * immediate written into the program: not set, only handed to the
 * reference). Every lane gets fresh inputs (URn/UPn: one value per warp,
 * c[][]: one per run). Outputs that are not inputs start with random junk.
 * ref() gets the inputs and, in out[], the values the outputs had before the
 * run; it overwrites what the instruction writes. Predicates are 0/1. */

enum { T_R, T_P, T_UR, T_UP, T_C, T_IMM };
typedef struct tok {
    int kind;
    unsigned idx, bank, off;
    uint32_t imm;
} tok;

#define MAXIO 16

typedef void (*ref_fn)(const void *ctx, const uint32_t *in, uint32_t *out);
typedef void (*gen_fn)(const void *ctx, uint32_t *in);

typedef struct job {
    const char *prog, *ins, *outs;
    ref_fn ref;
    gen_fn gen;
    const void *ctx;
    unsigned warps, runs, regs;
    int rand_active;
    unsigned threads; /* worker threads (0: one per core) */
} job;

static int parse_toks(const char *s, tok *t)
{
    int n = 0;
    while (s && *s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        if (n == MAXIO)
            return -1;
        tok *k = &t[n++];
        memset(k, 0, sizeof *k);
        int used = 0;
        if (sscanf(s, "c[%x][%x]%n", &k->bank, &k->off, &used) == 2 && used) {
            k->kind = T_C;
        } else if (*s == '#') {
            k->kind = T_IMM;
            char *e;
            k->imm = (uint32_t)strtoul(s + 1, &e, 0);
            used = (int)(e - s);
        } else if (sscanf(s, "UR%u%n", &k->idx, &used) == 1) {
            k->kind = T_UR;
        } else if (sscanf(s, "UP%u%n", &k->idx, &used) == 1) {
            k->kind = T_UP;
        } else if (sscanf(s, "R%u%n", &k->idx, &used) == 1) {
            k->kind = T_R;
        } else if (sscanf(s, "P%u%n", &k->idx, &used) == 1) {
            k->kind = T_P;
        } else {
            return -1;
        }
        s += used;
    }
    return n;
}

static int tok_same(const tok *a, const tok *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == T_C)
        return a->bank == b->bank && a->off == b->off;
    return a->kind != T_IMM && a->idx == b->idx;
}

static const gisa_regfile rf_of[] = {GISA_RF_R, GISA_RF_P, GISA_RF_UR, GISA_RF_UP};

static void tok_set(gisa_sim *s, const tok *k, unsigned w, unsigned l, uint32_t v)
{
    gisa_status st = GISA_OK;
    switch (k->kind) {
    case T_R:
    case T_P: st = gisa_sim_set(s, w, rf_of[k->kind], k->idx, (int)l, v); break;
    case T_UR:
    case T_UP: st = gisa_sim_set(s, w, rf_of[k->kind], k->idx, 0, v); break;
    case T_C: st = gisa_sim_set_const(s, k->bank, k->off, v); break;
    default: break;
    }
    if (st != GISA_OK)
        CHECKF(0, "cannot set an input (kind %d index %u)", k->kind, k->idx);
}

static uint32_t tok_get(const gisa_sim *s, const tok *k, unsigned w, unsigned l)
{
    uint32_t v = 0xBAD0BAD0;
    switch (k->kind) {
    case T_R:
    case T_P:
    case T_UR:
    case T_UP: v = rget(s, w, rf_of[k->kind], k->idx, l); break;
    case T_C: gisa_sim_get_const(s, k->bank, k->off, &v); break;
    default: break;
    }
    return v;
}

static long inputs_tested;

static void run_job(const job *j)
{
    tok in[MAXIO], out[MAXIO];
    int nin = parse_toks(j->ins, in), nout = parse_toks(j->outs, out);
    if (nin < 0 || nout < 0) {
        CHECKF(0, "bad operand list in a test job: '%s' / '%s'", j->ins, j->outs);
        return;
    }
    gisa_word *words;
    size_t nwords;
    if (!assemble(j->prog, &words, &nwords))
        return;
    unsigned warps = j->warps ? j->warps : 8, runs = j->runs ? j->runs : 1, regs = j->regs ? j->regs : 64;
    size_t lanes = (size_t)warps * 32;
    uint32_t *iv = malloc(lanes * MAXIO * sizeof *iv), *pv = malloc(lanes * MAXIO * sizeof *pv);
    uint32_t *act = malloc(warps * sizeof *act);
    int shown = 0;
    for (unsigned r = 0; r < runs && iv && pv && act; r++) {
        gisa_sim *s = NULL;
        if (gisa_sim_new(isa, regs, warps, &s) != GISA_OK) {
            CHECKF(0, "gisa_sim_new failed");
            break;
        }
        gisa_sim_load(s, words, nwords);
        gisa_sim_set_threads(s, j->threads ? j->threads : 1);
        for (unsigned w = 0; w < warps; w++) {
            act[w] = UINT32_MAX;
            if (j->rand_active) {
                uint64_t x = tg_next(&rng);
                act[w] = w == 0 ? 0 : w == 1 ? UINT32_MAX : (x & 3) == 0 ? 1u << (x >> 8 & 31) : (uint32_t)(x >> 32);
                CHECK(gisa_sim_set_active(s, w, act[w]) == GISA_OK);
            }
            for (unsigned l = 0; l < 32; l++) {
                uint32_t *v = &iv[((size_t)w * 32 + l) * MAXIO];
                for (int k = 0; k < nin; k++)
                    v[k] = in[k].kind == T_IMM ? in[k].imm : in[k].kind == T_P || in[k].kind == T_UP ? rbit() : r32();
                /* uniform inputs: one value per warp (UR/UP) or per run (c[][]);
                 * applied before gen() (so it sees them) and again after it */
                for (int pass = 0; pass < (j->gen ? 2 : 1); pass++) {
                    if (pass)
                        j->gen(j->ctx, v);
                    for (int k = 0; k < nin; k++) {
                        if ((in[k].kind == T_UR || in[k].kind == T_UP) && l > 0)
                            v[k] = iv[((size_t)w * 32) * MAXIO + (size_t)k];
                        if (in[k].kind == T_C && (w > 0 || l > 0))
                            v[k] = iv[(size_t)k];
                        if (in[k].kind == T_P || in[k].kind == T_UP)
                            v[k] &= 1;
                        if (in[k].kind == T_IMM)
                            v[k] = in[k].imm;
                    }
                }
                for (int k = 0; k < nin; k++) {
                    if (((in[k].kind == T_UR || in[k].kind == T_UP) && l == 0) ||
                        (in[k].kind == T_C && w == 0 && l == 0) || in[k].kind == T_R || in[k].kind == T_P)
                        tok_set(s, &in[k], w, l, v[k]);
                }
            }
        }
        /* junk in the outputs that are not inputs */
        for (int k = 0; k < nout; k++) {
            int is_in = 0;
            for (int i = 0; i < nin; i++)
                is_in |= tok_same(&out[k], &in[i]);
            if (is_in)
                continue;
            for (unsigned w = 0; w < warps; w++)
                for (unsigned l = 0; l < 32; l++)
                    if (out[k].kind == T_R || out[k].kind == T_P || l == 0)
                        tok_set(s, &out[k], w, l, out[k].kind == T_P || out[k].kind == T_UP ? rbit() : r32());
        }
        for (unsigned w = 0; w < warps; w++)
            for (unsigned l = 0; l < 32; l++)
                for (int k = 0; k < nout; k++)
                    pv[((size_t)w * 32 + l) * MAXIO + (size_t)k] = tok_get(s, &out[k], w, l);
        gisa_sim_fault f;
        memset(&f, 0, sizeof f);
        gisa_status st = gisa_sim_run(s, &f);
        CHECKF(st == GISA_OK, "%s: run failed (%s): %s", j->prog, gisa_status_str(st), f.message);
        if (st != GISA_OK) {
            gisa_sim_free(s);
            break;
        }
        for (unsigned w = 0; w < warps; w++)
            for (unsigned l = 0; l < 32; l++) {
                const uint32_t *v = &iv[((size_t)w * 32 + l) * MAXIO];
                uint32_t exp[MAXIO], got[MAXIO];
                memcpy(exp, &pv[((size_t)w * 32 + l) * MAXIO], sizeof exp);
                if (act[w] >> l & 1)
                    j->ref(j->ctx, v, exp);
                int bad = 0;
                for (int k = 0; k < nout; k++) {
                    got[k] = tok_get(s, &out[k], w, l);
                    if (out[k].kind == T_P || out[k].kind == T_UP)
                        exp[k] &= 1;
                    if (got[k] == exp[k]) {
                        test_passed++;
                    } else {
                        test_failed++;
                        bad = 1;
                    }
                }
                inputs_tested++;
                if (bad && shown < 6 && shown_total < SHOW_LIMIT) {
                    shown++;
                    shown_total++;
                    fprintf(stderr, "FAIL: %s\n  warp %u lane %u%s inputs:", j->prog, w, l,
                            act[w] >> l & 1 ? "" : " (inactive)");
                    for (int k = 0; k < nin; k++)
                        fprintf(stderr, " 0x%08x", v[k]);
                    fprintf(stderr, "   [%s]\n  ", j->ins);
                    for (int k = 0; k < nout; k++)
                        fprintf(stderr, " out%d: expected 0x%08x got 0x%08x%s", k, exp[k], got[k],
                                exp[k] != got[k] ? " <--" : "");
                    fprintf(stderr, "   [%s]\n", j->outs);
                }
            }
        gisa_sim_free(s);
    }
    free(iv);
    free(pv);
    free(act);
    free(words);
}

/* ------------------------------------------------------------------ operand text */

enum { SK_R, SK_U, SK_I, SK_C };

typedef struct opnd {
    char text[40]; /* as written in the program */
    char tok[40];  /* as listed in the job's inputs */
} opnd;

/* Immediate text: hex, or (sometimes, for values with the top bit set) a negative decimal. */
static void imm_text(uint32_t v, char *buf, size_t n)
{
    if ((v & 0x80000000u) && (tg_next(&rng) & 1))
        snprintf(buf, n, "-%u", 0u - v);
    else
        snprintf(buf, n, "0x%x", v);
}

/* A 32-bit source of kind k; `slot` picks distinct registers/addresses. */
static opnd src32(int k, int slot, uint32_t imm)
{
    opnd o;
    static const unsigned reg[] = {3, 8, 9};
    static const unsigned cof[] = {0x10, 0x24, 0x38};
    switch (k) {
    case SK_R:
        snprintf(o.text, sizeof o.text, "R%u", reg[slot]);
        snprintf(o.tok, sizeof o.tok, "R%u", reg[slot]);
        break;
    case SK_U:
        snprintf(o.text, sizeof o.text, "UR%u", reg[slot] + 20);
        snprintf(o.tok, sizeof o.tok, "UR%u", reg[slot] + 20);
        break;
    case SK_C:
        snprintf(o.text, sizeof o.text, "c[0x%x][0x%x]", 2 + slot, cof[slot]);
        snprintf(o.tok, sizeof o.tok, "c[0x%x][0x%x]", 2 + slot, cof[slot]);
        break;
    default:
        imm_text(imm, o.text, sizeof o.text);
        snprintf(o.tok, sizeof o.tok, "#0x%x", imm);
        break;
    }
    return o;
}

/* A 64-bit source (register pair, UR pair, 8-aligned constant). */
static opnd src64(int k)
{
    opnd o;
    switch (k) {
    case SK_R:
        snprintf(o.text, sizeof o.text, "R[4:5]");
        snprintf(o.tok, sizeof o.tok, "R4 R5");
        break;
    case SK_U:
        snprintf(o.text, sizeof o.text, "UR[12:13]");
        snprintf(o.tok, sizeof o.tok, "UR12 UR13");
        break;
    default:
        snprintf(o.text, sizeof o.text, "c[0x5][0x108]");
        snprintf(o.tok, sizeof o.tok, "c[0x5][0x108] c[0x5][0x10c]");
        break;
    }
    return o;
}

static const struct {
    int kb, kc;
    const char *name;
} combos[] = {
    {SK_R, SK_R, "RRR"}, {SK_R, SK_I, "RRI"}, {SK_I, SK_R, "RIR"}, {SK_R, SK_C, "RRC"},
    {SK_C, SK_R, "RCR"}, {SK_R, SK_U, "RRU"}, {SK_U, SK_R, "RUR"},
};
#define NCOMBOS (sizeof combos / sizeof combos[0])

/* predicate operand modes: 0 omitted, 1 Pn, 2 !Pn, 3 PT, 4 !PT */
static const char *pred_text(int mode, unsigned idx, char *buf, size_t n)
{
    switch (mode) {
    case 1: snprintf(buf, n, "P%u", idx); break;
    case 2: snprintf(buf, n, "!P%u", idx); break;
    case 3: snprintf(buf, n, "PT"); break;
    case 4: snprintf(buf, n, "!PT"); break;
    default: buf[0] = 0; break;
    }
    return buf;
}

/* value of a predicate operand in mode m (omitted: dflt) given the register value v */
static uint32_t pred_val(int mode, uint32_t v, uint32_t dflt)
{
    switch (mode) {
    case 1: return v & 1;
    case 2: return !(v & 1);
    case 3: return 1;
    case 4: return 0;
    default: return dflt;
    }
}

static uint64_t u64of(uint32_t lo, uint32_t hi)
{
    return (uint64_t)hi << 32 | lo;
}
static int64_t s32(uint32_t x)
{
    return (int64_t)(int32_t)x;
}

/* ================================================================== 1. idioms */

#define IDIOM_WARPS 64
#define IDIOM_RUNS 49 /* 49 x 64 x 32 = 100,352 inputs */

/* R[0:1] = R[2:3] + R[4:5]; P0 = carry out of the low half */
static void ref_add64(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    uint64_t s = u64of(in[0], in[1]) + u64of(in[2], in[3]);
    out[0] = (uint32_t)s;
    out[1] = (uint32_t)(s >> 32);
    out[2] = ((uint64_t)in[0] + in[2]) >> 32 != 0;
}

/* R[0:1] = R[2:3] - R[4:5]; P0 = no borrow out of the low half */
static void ref_sub64(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    uint64_t s = u64of(in[0], in[1]) - u64of(in[2], in[3]);
    out[0] = (uint32_t)s;
    out[1] = (uint32_t)(s >> 32);
    out[2] = in[0] >= in[2];
}

/* R[0:1] = R2 * B + R[4:5] (unsigned); in: R2 B R4 R5 */
static void ref_madu64(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    uint64_t p = (uint64_t)in[0] * in[1];
    uint64_t s = p + u64of(in[2], in[3]);
    out[0] = (uint32_t)s;
    out[1] = (uint32_t)(s >> 32);
    out[2] = ((uint64_t)(uint32_t)p + in[2]) >> 32 != 0;
}

/* R[0:1] = R2 * R3 (signed) - R[4:5]; in: R2 R3 R4 R5 */
static void ref_msubs64(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    uint64_t p = (uint64_t)(s32(in[0]) * s32(in[1]));
    uint64_t s = p - u64of(in[2], in[3]);
    out[0] = (uint32_t)s;
    out[1] = (uint32_t)(s >> 32);
    out[2] = (uint32_t)p >= in[2];
}

/* R[0:3] = R4 * R5 + R[6:7] (128-bit); in: R4 R5 R6 R7 */
static void ref_wide128(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    u128 s = (u128)((uint64_t)in[0] * in[1]) + u64of(in[2], in[3]);
    for (int i = 0; i < 4; i++)
        out[i] = (uint32_t)(s >> (32 * i));
    out[4] = (uint32_t)(s >> 64) & 1;
}

typedef struct cmpctx {
    int op; /* 0 EQ 1 NE 2 LT 3 LE 4 GT 5 GE */
    int uns;
} cmpctx;
static const char *const cmp_name[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};

static int cmp_s(int op, int64_t a, int64_t b)
{
    switch (op) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}
static int cmp_u(int op, uint64_t a, uint64_t b)
{
    switch (op) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}

/* in: R2 R3 R4 R5; out: P0 (low compare) P1 (64-bit result) P2 (its negation) */
static void ref_cmp64(const void *cv, const uint32_t *in, uint32_t *out)
{
    const cmpctx *c = cv;
    uint64_t a = u64of(in[0], in[1]), b = u64of(in[2], in[3]);
    int lowop = c->op == 1 && c->uns >= 2 ? 0 : c->op; /* NE via a low EQ and !P0 */
    out[0] = (uint32_t)cmp_u(lowop, in[0], in[2]);
    int r = (c->uns & 1) ? cmp_u(c->op, a, b) : cmp_s(c->op, (int64_t)a, (int64_t)b);
    out[1] = (uint32_t)r;
    out[2] = (uint32_t)!r;
}

/* 64-bit compare inputs: often equal high (and low) words */
static void gen_cmp64(const void *c, uint32_t *in)
{
    (void)c;
    uint64_t x = tg_next(&rng);
    if ((x & 3) == 0)
        in[3] = in[1];
    if ((x & 12) == 0)
        in[2] = in[0];
    if ((x & 0x30) == 0) {
        in[3] = in[1] + (uint32_t)((x >> 8) & 3) - 1;
        in[2] = in[0] + (uint32_t)((x >> 12) & 3) - 1;
    }
}

typedef struct leactx {
    unsigned s;
} leactx;

/* R[0:1] = (R[2:3] << s) + R[4:5]; in: R2 R3 R4 R5 */
static void ref_lea64(const void *cv, const uint32_t *in, uint32_t *out)
{
    const leactx *c = cv;
    uint64_t r = (u64of(in[0], in[1]) << c->s) + u64of(in[2], in[3]);
    out[0] = (uint32_t)r;
    out[1] = (uint32_t)(r >> 32);
    out[2] = ((uint64_t)(uint32_t)(in[0] << c->s) + in[2]) >> 32 != 0;
}

/* R[0:1] = (-sx64(R2) << s) + R[4:5]; in: R2 R4 R5 */
static void ref_lea_neg64(const void *cv, const uint32_t *in, uint32_t *out)
{
    const leactx *c = cv;
    uint64_t r = ((0 - (uint64_t)s32(in[0])) << c->s) + u64of(in[1], in[2]);
    out[0] = (uint32_t)r;
    out[1] = (uint32_t)(r >> 32);
}

/* R[0:3] = sx128(R4 * R5 signed) + R[6:7] (the product's sign word added with
 * the carry of IMAD.WIDE); in: R4 R5 R6 R7 */
static void ref_wide128s(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    s128 v = (s128)(s32(in[0]) * s32(in[1])) + (s128)u64of(in[2], in[3]);
    for (int i = 0; i < 4; i++)
        out[i] = (uint32_t)((u128)v >> (32 * i));
}

static void test_idioms(void)
{
    long before = inputs_tested;
    job j = {.warps = IDIOM_WARPS, .runs = IDIOM_RUNS};

    j.prog = "IADD R0, P0, R2, R4 ; IADD.X R1, PT, R3, R5, P0";
    j.ins = "R2 R3 R4 R5";
    j.outs = "R0 R1 P0";
    j.ref = ref_add64;
    j.threads = 4; /* the multi-threaded run path once */
    run_job(&j);
    j.threads = 0;

    j.prog = "IADD R0, P0, R2, -R4 ; IADD.X R1, PT, R3, ~R5, P0";
    j.ref = ref_sub64;
    run_job(&j);

    j.prog = "IMAD.U32 R0, P0, R2, 0x114514, R4 ; IMAD.HI.X.U32 R1, R2, 0x114514, R5, P0";
    j.ins = "R2 #0x114514 R4 R5";
    j.ref = ref_madu64;
    run_job(&j);

    j.prog = "IMAD.U32 R0, P0, R2, R3, R4 ; IMAD.HI.X.U32 R1, R2, R3, R5, P0";
    j.ins = "R2 R3 R4 R5";
    run_job(&j);

    /* other immediates, a UR and a constant multiplier: 4096 inputs each */
    static const uint32_t imms[] = {0, 1, 2, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x10000, 0xDEADBEEF, 0x9E3779B9};
    static char progs[16][200], inss[16][80];
    for (size_t i = 0; i < sizeof imms / sizeof imms[0]; i++) {
        snprintf(progs[i], sizeof progs[i], "IMAD.U32 R0, P0, R2, 0x%x, R4 ; IMAD.HI.X.U32 R1, R2, 0x%x, R5, P0",
                 imms[i], imms[i]);
        snprintf(inss[i], sizeof inss[i], "R2 #0x%x R4 R5", imms[i]);
        job k = j;
        k.prog = progs[i];
        k.ins = inss[i];
        k.runs = 2;
        run_job(&k);
    }
    job k = j;
    k.runs = 4;
    k.prog = "IMAD.U32 R0, P0, R2, UR3, R4 ; IMAD.HI.X.U32 R1, R2, UR3, R5, P0";
    k.ins = "R2 UR3 R4 R5";
    run_job(&k);
    k.runs = 8;
    k.warps = 8;
    k.prog = "IMAD.U32 R0, P0, R2, c[0x1][0x20], R4 ; IMAD.HI.X.U32 R1, R2, c[0x1][0x20], R5, P0";
    k.ins = "R2 c[0x1][0x20] R4 R5";
    run_job(&k);

    j.prog = "IMAD R0, P0, R2, R3, -R4 ; IMAD.HI.X R1, R2, R3, ~R5, P0";
    j.ins = "R2 R3 R4 R5";
    j.ref = ref_msubs64;
    run_job(&j);

    j.prog = "IMAD.WIDE.U32 R[0:1], P0, R4, R5, R[6:7] ; IMAD.WIDE.X.U32 R[2:3], RZ, RZ, RZ, P0";
    j.ins = "R4 R5 R6 R7";
    j.outs = "R0 R1 R2 R3 P0";
    j.ref = ref_wide128;
    run_job(&j);

    j.prog = "IMAD.WIDE R[8:9], R4, R5, RZ ; SHF.R.S32.HI R8, RZ, 0x1f, R9 ; "
             "IMAD.WIDE R[0:1], P0, R4, R5, R[6:7] ; IADD.X R2, P1, R8, RZ, P0 ; IADD.X R3, PT, R8, RZ, P1";
    j.ins = "R4 R5 R6 R7";
    j.outs = "R0 R1 R2 R3";
    j.ref = ref_wide128s;
    run_job(&j);

    /* 64-bit compares: signed (high half .S32) and unsigned (.U32), every compop;
     * NE also as a low EQ with !P0 as pq. */
    static cmpctx cc[6][4];
    static char cprog[6][4][200];
    for (int op = 0; op < 6; op++)
        for (int u = 0; u < 4; u++) {
            if (u >= 2 && op != 1)
                continue;
            cc[op][u].op = op;
            cc[op][u].uns = u;
            if (u < 2)
                snprintf(cprog[op][u], sizeof cprog[op][u],
                         "ISETP.%s.U32.AND P0, PT, R2, R4, PT ; ISETP.%s.AND.X%s P1, P2, R3, R5, PT, P0", cmp_name[op],
                         cmp_name[op], u ? ".U32" : "");
            else
                snprintf(cprog[op][u], sizeof cprog[op][u],
                         "ISETP.EQ.U32.AND P0, PT, R2, R4, PT ; ISETP.NE.AND.X%s P1, P2, R3, R5, PT, !P0",
                         u == 3 ? ".U32" : "");
            job c = {.prog = cprog[op][u],
                     .ins = "R2 R3 R4 R5",
                     .outs = "P0 P1 P2",
                     .ref = ref_cmp64,
                     .gen = gen_cmp64,
                     .ctx = &cc[op][u],
                     .warps = IDIOM_WARPS,
                     .runs = IDIOM_RUNS};
            run_job(&c);
        }

    /* (R[2:3] << s) + R[4:5]: s = 3 on 100,352 inputs, every other shift on 4096 */
    static leactx lc[32];
    static char lprog[32][160];
    for (unsigned s = 0; s < 32; s++) {
        lc[s].s = s;
        snprintf(lprog[s], sizeof lprog[s], "LEA R0, P0, R2, R4, 0x%x ; LEA.HI.X R1, R2, R5, R3, 0x%x, P0", s, s);
        job l = {.prog = lprog[s],
                 .ins = "R2 R3 R4 R5",
                 .outs = "R0 R1 P0",
                 .ref = ref_lea64,
                 .ctx = &lc[s],
                 .warps = IDIOM_WARPS,
                 .runs = s == 3 ? IDIOM_RUNS : 2};
        run_job(&l);
    }
    /* (-R2 << s) + R[4:5] with R2 sign-extended: the document's LEA .SX32 idiom
     * (its example is an erratum; this is the form the syntax lines allow) */
    static char nprog[32][160];
    for (unsigned s = 0; s < 32; s++) {
        snprintf(nprog[s], sizeof nprog[s], "LEA R0, P0, -R2, R4, 0x%x ; LEA.HI.X.SX32 R1, ~R2, R5, 0x%x, P0", s, s);
        job l = {.prog = nprog[s],
                 .ins = "R2 R4 R5",
                 .outs = "R0 R1",
                 .ref = ref_lea_neg64,
                 .ctx = &lc[s],
                 .warps = IDIOM_WARPS,
                 .runs = s == 3 ? IDIOM_RUNS : 2};
        run_job(&l);
    }
    printf("idioms: %ld inputs\n", inputs_tested - before);
}

/* ================================================================== 2. directed */

#define DIR_WARPS 4

/* The directed tests' usual job: DIR_WARPS warps, one run. */
static void run_directed(const char *prog, const char *ins, const char *outs, ref_fn ref, const void *ctx,
                         int rand_active)
{
    job j = {.prog = prog, .ins = ins, .outs = outs, .ref = ref, .ctx = ctx, .warps = DIR_WARPS,
             .rand_active = rand_active};
    run_job(&j);
}

static int coin(void)
{
    return (int)(tg_next(&rng) >> 33 & 1);
}
static unsigned pick(unsigned n)
{
    return (unsigned)((tg_next(&rng) >> 16) % n);
}

/* ---- IADD ---- in: R2 B P1; out: R0 P0 */
typedef struct iaddctx {
    int x, na, nb, pu, ppm;
} iaddctx;

static void ref_iadd(const void *cv, const uint32_t *in, uint32_t *out)
{
    const iaddctx *c = cv;
    uint64_t a = in[0], b = in[1], s;
    if (c->x) {
        /* .X: '~' is bitwise NOT; t = Ra + SrcB + pp */
        if (c->na)
            a = (uint32_t)~in[0];
        if (c->nb)
            b = (uint32_t)~in[1];
        s = a + b + pred_val(c->ppm, in[2], 0);
    } else {
        /* '-x' contributes 2^32 - x to the exact sum */
        if (c->na)
            a = ((uint64_t)1 << 32) - in[0];
        if (c->nb)
            b = ((uint64_t)1 << 32) - in[1];
        s = a + b;
    }
    out[0] = (uint32_t)s;
    if (c->pu)
        out[1] = s >= ((uint64_t)1 << 32);
}

static void test_iadd(void)
{
    for (int x = 0; x < 2; x++)
        for (int k = 0; k < 4; k++)
            for (int na = 0; na < 2; na++)
                for (int nb = 0; nb < (k == SK_I ? 1 : 2); nb++)
                    for (int pu = 0; pu < 2; pu++)
                        for (int ppm = 0; ppm < (x ? 5 : 1); ppm++) {
                            iaddctx c = {x, na, nb, pu, ppm};
                            opnd b = src32(k, 0, r32());
                            char prog[160], ins[128], pp[8];
                            const char *neg = x ? "~" : "-";
                            pred_text(ppm, 1, pp, sizeof pp);
                            snprintf(prog, sizeof prog, "IADD%s R0%s, %sR2, %s%s%s%s", x ? ".X" : "", pu ? ", P0" : "",
                                     na ? neg : "", nb ? neg : "", b.text, ppm ? ", " : "", pp);
                            snprintf(ins, sizeof ins, "R2 %s P1", b.tok);
                            run_directed(prog, ins, "R0 P0", ref_iadd, &c, (x + k + pu) % 3 == 0);
                        }
    /* a negative immediate is a value (no negation bit): R1 - 0x114514 */
    iaddctx c = {0, 0, 0, 1, 0};
    run_directed("IADD R0, P0, R2, -0x114514", "R2 #0xFFEEBAEC", "R0 P0", ref_iadd, &c, 0);
}

/* ---- IMAD ---- in: R2 B C P1; out: R0 P0 */
typedef struct imadctx {
    int hi, u, nc, pu, ppm;
} imadctx;

static void ref_imad(const void *cv, const uint32_t *in, uint32_t *out)
{
    const imadctx *c = cv;
    uint64_t p = c->u ? (uint64_t)in[0] * in[1] : (uint64_t)(s32(in[0]) * s32(in[1]));
    uint64_t s;
    if (!c->hi) {
        uint64_t cc = c->nc ? ((uint64_t)1 << 32) - in[2] : in[2];
        s = (uint64_t)(uint32_t)p + cc;
    } else {
        uint64_t cc = c->nc ? (uint32_t)~in[2] : in[2];
        s = (p >> 32) + cc + pred_val(c->ppm, in[3], 0);
    }
    out[0] = (uint32_t)s;
    if (c->pu)
        out[1] = s >= ((uint64_t)1 << 32);
}

static const char *const itype_txt[] = {"", ".S32", ".U32"};

static void test_imad(void)
{
    for (int hi = 0; hi < 2; hi++)
        for (size_t cb = 0; cb < NCOMBOS; cb++)
            for (int it = 0; it < 3; it++)
                for (int nc = 0; nc < (combos[cb].kc == SK_I ? 1 : 2); nc++)
                    for (int pu = 0; pu < 2; pu++) {
                        int ppm = hi ? (int)pick(5) : 0;
                        imadctx c = {hi, it == 2, nc, pu, ppm};
                        opnd b = src32(combos[cb].kb, 0, r32()), cc = src32(combos[cb].kc, 1, r32());
                        char prog[160], ins[128], pp[8];
                        pred_text(ppm, 1, pp, sizeof pp);
                        if (!hi)
                            snprintf(prog, sizeof prog, "IMAD%s%s R0%s, R2, %s, %s%s", coin() ? ".LO" : "",
                                     itype_txt[it], pu ? ", P0" : "", b.text, nc ? "-" : "", cc.text);
                        else
                            snprintf(prog, sizeof prog, "IMAD.HI.X%s R0%s, R2, %s, %s%s%s%s", itype_txt[it],
                                     pu ? ", P0" : "", b.text, nc ? "~" : "", cc.text, ppm ? ", " : "", pp);
                        snprintf(ins, sizeof ins, "R2 %s %s P1", b.tok, cc.tok);
                        run_directed(prog, ins, "R0 P0", ref_imad, &c, cb == 3);
                    }
}

/* ---- IMAD.WIDE ---- in: R2 B Clo Chi P1; out: R0 R1 P0 */
typedef struct widectx {
    int x, u, nc, pu, ppm;
} widectx;

static void ref_wide(const void *cv, const uint32_t *in, uint32_t *out)
{
    const widectx *c = cv;
    /* t = a * b as a 64-bit two's-complement value (signed for .S32);
     * Rd = (t + SrcC + pp) mod 2^64; pu = the carry out of that 64-bit addition
     * (-c contributes 2^64 - c). For a negative signed product this is the
     * carry of the bit patterns, the one a multi-word chain needs (see the
     * signed 128-bit idiom in test_idioms). */
    uint64_t t = c->u ? (uint64_t)in[0] * in[1] : (uint64_t)(s32(in[0]) * s32(in[1]));
    uint64_t cv64 = u64of(in[2], in[3]);
    u128 cc;
    if (!c->x)
        cc = c->nc ? ((u128)1 << 64) - cv64 : cv64;
    else
        cc = (u128)(c->nc ? ~cv64 : cv64) + pred_val(c->ppm, in[4], 0);
    u128 s = (u128)t + cc;
    out[0] = (uint32_t)s;
    out[1] = (uint32_t)(s >> 32);
    if (c->pu)
        out[2] = (uint32_t)(s >> 64) != 0;
}

static void test_wide(void)
{
    static const int kb[] = {SK_R, SK_I, SK_R, SK_C, SK_R, SK_U};
    static const int kc[] = {SK_R, SK_R, SK_C, SK_R, SK_U, SK_R};
    for (int x = 0; x < 2; x++)
        for (int f = 0; f < 6; f++)
            for (int it = 0; it < 3; it++)
                for (int nc = 0; nc < 2; nc++)
                    for (int pu = 0; pu < 2; pu++) {
                        int ppm = x ? (int)pick(5) : 0;
                        widectx c = {x, it == 2, nc, pu, ppm};
                        opnd b = src32(kb[f], 0, r32()), cc = src64(kc[f]);
                        char prog[160], ins[128], pp[8];
                        pred_text(ppm, 1, pp, sizeof pp);
                        snprintf(prog, sizeof prog, "IMAD.WIDE%s%s R[0:1]%s, R2, %s, %s%s%s%s", x ? ".X" : "",
                                 itype_txt[it], pu ? ", P0" : "", b.text, nc ? (x ? "~" : "-") : "", cc.text,
                                 ppm ? ", " : "", pp);
                        snprintf(ins, sizeof ins, "R2 %s %s P1", b.tok, cc.tok);
                        run_directed(prog, ins, "R0 R1 P0", ref_wide, &c, f == 2);
                    }
}

/* ---- IDP.2A / IDP.4A ---- in: R2 B C P1; out: R0 P0 */
typedef struct idpctx {
    int four, hi, au, bu, pu, ppm;
} idpctx;

static int64_t ext8(uint32_t x, int i, int u)
{
    return u ? (int64_t)(x >> 8 * i & 0xFF) : (int64_t)(int8_t)(x >> 8 * i);
}
static int64_t ext16(uint32_t x, int i, int u)
{
    return u ? (int64_t)(x >> 16 * i & 0xFFFF) : (int64_t)(int16_t)(x >> 16 * i);
}

static void ref_idp(const void *cv, const uint32_t *in, uint32_t *out)
{
    const idpctx *c = cv;
    int64_t d = (int64_t)in[2] + pred_val(c->ppm, in[3], 0);
    if (c->four)
        for (int i = 0; i < 4; i++)
            d += ext8(in[0], i, c->au) * ext8(in[1], i, c->bu);
    else
        for (int i = 0; i < 2; i++)
            d += ext16(in[0], i, c->au) * ext8(in[1], (c->hi ? 2 : 0) + i, c->bu);
    out[0] = (uint32_t)(uint64_t)d;
    if (c->pu)
        out[1] = d >= ((int64_t)1 << 32);
}

static void test_idp(void)
{
    static const char *const lohi[] = {"", ".LO", ".HI"};
    for (int four = 0; four < 2; four++)
        for (size_t cb = 0; cb < NCOMBOS; cb++)
            for (int lh = 0; lh < (four ? 1 : 3); lh++)
                for (int au = 0; au < 2; au++)
                    for (int bu = 0; bu < 2; bu++) {
                        int pu = coin(), ppm = (int)pick(5);
                        idpctx c = {four, lh == 2, au, bu, pu, ppm};
                        opnd b = src32(combos[cb].kb, 0, r32()), cc = src32(combos[cb].kc, 1, r32());
                        char prog[160], ins[128], pp[8];
                        pred_text(ppm, 1, pp, sizeof pp);
                        if (four)
                            snprintf(prog, sizeof prog, "IDP.4A.%s.%s R0%s, R2, %s, %s%s%s", au ? "U8" : "S8",
                                     bu ? "U8" : "S8", pu ? ", P0" : "", b.text, cc.text, ppm ? ", " : "", pp);
                        else
                            snprintf(prog, sizeof prog, "IDP.2A%s.%s.%s R0%s, R2, %s, %s%s%s", lohi[lh],
                                     au ? "U16" : "S16", bu ? "U8" : "S8", pu ? ", P0" : "", b.text, cc.text,
                                     ppm ? ", " : "", pp);
                        snprintf(ins, sizeof ins, "R2 %s %s P1", b.tok, cc.tok);
                        run_directed(prog, ins, "R0 P0", ref_idp, &c, 0);
                    }
}

/* ---- IMUL ---- in: R2 B; out: R0 */
typedef struct imulctx {
    int hi, u, nb;
} imulctx;

static void ref_imul(const void *cv, const uint32_t *in, uint32_t *out)
{
    const imulctx *c = cv;
    uint32_t b = c->nb ? 0u - in[1] : in[1]; /* the negated 32-bit operand */
    uint64_t p = c->u ? (uint64_t)in[0] * b : (uint64_t)(s32(in[0]) * s32(b));
    out[0] = c->hi ? (uint32_t)(p >> 32) : (uint32_t)p;
}

static void test_imul(void)
{
    static const char *const lohi[] = {"", ".LO", ".HI"};
    for (int k = 0; k < 4; k++)
        for (int lh = 0; lh < 3; lh++)
            for (int it = 0; it < 3; it++)
                for (int nb = 0; nb < (k == SK_I ? 1 : 2); nb++) {
                    imulctx c = {lh == 2, it == 2, nb};
                    opnd b = src32(k, 0, r32());
                    char prog[160], ins[128];
                    snprintf(prog, sizeof prog, "IMUL%s%s R0, R2, %s%s", lohi[lh], itype_txt[it], nb ? "-" : "",
                             b.text);
                    snprintf(ins, sizeof ins, "R2 %s", b.tok);
                    run_directed(prog, ins, "R0", ref_imul, &c, 0);
                }
}

/* ---- LEA ---- in: R2 B R5 P1; out: R0 P0 */
typedef struct leadctx {
    int mode; /* 0 .LO, 1 .HI.X, 2 .HI.X.SX32 */
    int neg, pu, ppm;
    unsigned s;
} leadctx;

static void ref_lea(const void *cv, const uint32_t *in, uint32_t *out)
{
    const leadctx *c = cv;
    uint64_t sum;
    if (c->mode == 0) {
        /* -Ra: the shifted value x = (Ra << s)[31:0] contributes 2^32 - x (so x = 0
         * gives a carry, as -0 does in IADD); this is what makes the 64-bit idiom
         * LEA -R2 ; LEA.HI.X.SX32 ~R2 exact (checked in test_idioms) */
        uint32_t x = in[0] << c->s;
        sum = (c->neg ? ((uint64_t)1 << 32) - x : x) + in[1];
    } else if (c->mode == 1) {
        uint64_t v = u64of(in[0], in[2]); /* {Rc, Ra} */
        if (c->neg)
            v = ~v;
        sum = (uint64_t)(uint32_t)(v >> (32 - c->s)) + in[1] + pred_val(c->ppm, in[3], 0);
    } else {
        uint32_t a = c->neg ? ~in[0] : in[0];
        uint64_t v = (uint64_t)s32(a);
        sum = (uint64_t)(uint32_t)(v >> (32 - c->s)) + in[1] + pred_val(c->ppm, in[3], 0);
    }
    out[0] = (uint32_t)sum;
    if (c->pu)
        out[1] = sum >> 32 != 0;
}

static void test_lea(void)
{
    static const unsigned shifts[] = {0, 1, 2, 5, 16, 30, 31};
    for (int mode = 0; mode < 3; mode++)
        for (int k = 0; k < 4; k++)
            for (size_t si = 0; si < sizeof shifts / sizeof shifts[0]; si++)
                for (int neg = 0; neg < 2; neg++) {
                    int pu = coin(), ppm = mode ? (int)pick(5) : 0;
                    leadctx c = {mode, neg, pu, ppm, shifts[si]};
                    opnd b = src32(k, 0, r32());
                    char prog[160], ins[128], pp[8];
                    pred_text(ppm, 1, pp, sizeof pp);
                    const char *lo = coin() ? ".LO" : "";
                    if (mode == 0)
                        snprintf(prog, sizeof prog, "LEA%s R0%s, %sR2, %s, 0x%x", lo, pu ? ", P0" : "", neg ? "-" : "",
                                 b.text, c.s);
                    else if (mode == 1)
                        snprintf(prog, sizeof prog, "LEA.HI.X R0%s, %sR2, %s, R5, 0x%x%s%s", pu ? ", P0" : "",
                                 neg ? "~" : "", b.text, c.s, ppm ? ", " : "", pp);
                    else
                        snprintf(prog, sizeof prog, "LEA.HI.X.SX32 R0%s, %sR2, %s, 0x%x%s%s", pu ? ", P0" : "",
                                 neg ? "~" : "", b.text, c.s, ppm ? ", " : "", pp);
                    snprintf(ins, sizeof ins, "R2 %s R5 P1", b.tok);
                    run_directed(prog, ins, "R0 P0", ref_lea, &c, 0);
                }
}

/* ---- IABS ---- in: B; out: R0 */
static void ref_iabs(const void *cv, const uint32_t *in, uint32_t *out)
{
    (void)cv;
    out[0] = (in[0] & 0x80000000u) ? 0u - in[0] : in[0]; /* |0x80000000| = 0x80000000 */
}

/* ---- IMNMX ---- in: R2 B P1; out: R0 */
typedef struct mnmxctx {
    int u, ppm;
} mnmxctx;

static void ref_imnmx(const void *cv, const uint32_t *in, uint32_t *out)
{
    const mnmxctx *c = cv;
    int less = c->u ? in[0] < in[1] : s32(in[0]) < s32(in[1]);
    uint32_t mn = less ? in[0] : in[1], mx = less ? in[1] : in[0];
    out[0] = pred_val(c->ppm, in[2], 0) ? mn : mx; /* pp true: minimum */
}

/* ---- SEL ---- in: R2 B P1; out: R0 */
typedef struct selctx {
    int ppm;
} selctx;

static void ref_sel(const void *cv, const uint32_t *in, uint32_t *out)
{
    const selctx *c = cv;
    out[0] = pred_val(c->ppm, in[2], 0) ? in[0] : in[1];
}

/* ---- MOV ---- in: B; out: R0 */
static void ref_mov(const void *cv, const uint32_t *in, uint32_t *out)
{
    (void)cv;
    out[0] = in[0];
}

/* ---- I2I ---- in: B; out: R0 */
typedef struct i2ictx {
    int t; /* S8 U8 S16 U16 */
} i2ictx;

static void ref_i2i(const void *cv, const uint32_t *in, uint32_t *out)
{
    const i2ictx *c = cv;
    static const int64_t lo[] = {-128, 0, -32768, 0}, hi[] = {127, 255, 32767, 65535};
    int64_t v = s32(in[0]);
    if (v < lo[c->t])
        v = lo[c->t];
    if (v > hi[c->t])
        v = hi[c->t];
    out[0] = (uint32_t)(int32_t)v;
}

static void test_unary(void)
{
    static const char *const i2i_t[] = {"S8", "U8", "S16", "U16"};
    for (int k = 0; k < 4; k++) {
        for (int rep = 0; rep < 3; rep++) {
            opnd b = src32(k, 0, rep == 0 ? 0x80000000u : rep == 1 ? 0x7FFFFFFFu : r32());
            char prog[160];
            snprintf(prog, sizeof prog, "IABS R0, %s", b.text);
            job j = {.prog = prog, .ins = b.tok, .outs = "R0", .ref = ref_iabs, .warps = DIR_WARPS};
            run_job(&j);
            snprintf(prog, sizeof prog, "MOV%s R0, %s", rep == 1 ? ".32" : "", b.text);
            j.prog = prog;
            j.ref = ref_mov;
            j.rand_active = rep == 2;
            run_job(&j);
            for (int t = 0; t < 4; t++) {
                i2ictx c = {t};
                snprintf(prog, sizeof prog, "I2I.%s R0, %s", i2i_t[t], b.text);
                job j2 = {.prog = prog, .ins = b.tok, .outs = "R0", .ref = ref_i2i, .ctx = &c, .warps = DIR_WARPS};
                run_job(&j2);
            }
        }
        for (int it = 0; it < 3; it++)
            for (int ppm = 1; ppm <= 4; ppm++) {
                mnmxctx c = {it == 2, ppm};
                opnd b = src32(k, 0, r32());
                char prog[160], ins[128], pp[8];
                snprintf(prog, sizeof prog, "IMNMX%s R0, R2, %s, %s", itype_txt[it], b.text,
                         pred_text(ppm, 1, pp, sizeof pp));
                snprintf(ins, sizeof ins, "R2 %s P1", b.tok);
                job j = {.prog = prog, .ins = ins, .outs = "R0", .ref = ref_imnmx, .ctx = &c, .warps = DIR_WARPS};
                run_job(&j);
                selctx sc = {ppm};
                snprintf(prog, sizeof prog, "SEL R0, R2, %s, %s", b.text, pp);
                job j2 = {.prog = prog, .ins = ins, .outs = "R0", .ref = ref_sel, .ctx = &sc, .warps = DIR_WARPS};
                run_job(&j2);
            }
    }
    /* the documents' examples: IABS R0, -0x1 gives 1; I2I.U16 of 0x114514 gives 0xFFFF */
    job j = {.prog = "IABS R0, -0x1", .ins = "#0xFFFFFFFF", .outs = "R0", .ref = ref_iabs, .warps = 1};
    run_job(&j);
    i2ictx c = {3};
    job j2 = {.prog = "I2I.U16 R0, 0x114514", .ins = "#0x114514", .outs = "R0", .ref = ref_i2i, .ctx = &c, .warps = 1};
    run_job(&j2);
}

static void ref_mov64(const void *cv, const uint32_t *in, uint32_t *out)
{
    (void)cv;
    out[0] = in[0];
    out[1] = in[1];
}

static void ref_zero2(const void *cv, const uint32_t *in, uint32_t *out)
{
    (void)cv;
    (void)in;
    out[0] = out[1] = 0;
}

static void test_mov64(void)
{
    job j = {.prog = "MOV.64 R[0:1], R[2:3]",
             .ins = "R2 R3",
             .outs = "R0 R1",
             .ref = ref_mov64,
             .warps = DIR_WARPS,
             .rand_active = 1};
    run_job(&j);
    j.prog = "MOV.64 R[6:7], R[4:5]";
    j.ins = "R4 R5";
    j.outs = "R6 R7";
    run_job(&j);
    j.prog = "MOV.64 R2, R4"; /* R2 is shorthand for R[2:3] */
    j.ins = "R4 R5";
    j.outs = "R2 R3";
    run_job(&j);
    job z = {.prog = "MOV.64 R[0:1], RZ", .ins = "", .outs = "R0 R1", .ref = ref_zero2, .warps = DIR_WARPS};
    run_job(&z);
}

/* ---- P2R / R2P ---- in: R2 B P0..P6 */
typedef struct p2rctx {
    int bsel;
} p2rctx;

static void ref_p2r(const void *cv, const uint32_t *in, uint32_t *out)
{
    const p2rctx *c = cv;
    uint32_t pr = 0x80; /* P7 is PT: true */
    for (int i = 0; i < 7; i++)
        pr |= (in[2 + i] & 1) << i;
    unsigned sh = 8u * (unsigned)c->bsel;
    uint32_t m = in[1] & 0xFF, ab = in[0] >> sh & 0xFF;
    uint32_t byte = ((m & pr) | (~m & ab)) & 0xFF;
    out[0] = (in[0] & ~(0xFFu << sh)) | byte << sh;
}

static void ref_r2p(const void *cv, const uint32_t *in, uint32_t *out)
{
    const p2rctx *c = cv;
    uint32_t byte = in[0] >> (8 * c->bsel) & 0xFF, m = in[1] & 0xFF;
    for (int i = 0; i < 7; i++)
        out[i] = (m >> i & 1) ? (byte >> i & 1) : (in[2 + i] & 1);
}

static void test_p2r_r2p(void)
{
    static const char *const bs[] = {"", ".B0", ".B1", ".B2", ".B3"};
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 5; b++)
            for (int rep = 0; rep < 2; rep++) {
                p2rctx c = {b ? b - 1 : 0};
                uint32_t imm = rep ? 0xFF : r32();
                opnd m = src32(k, 0, imm);
                char prog[160], ins[128];
                snprintf(ins, sizeof ins, "R2 %s P0 P1 P2 P3 P4 P5 P6", m.tok);
                snprintf(prog, sizeof prog, "P2R%s R0, PR, R2, %s", bs[b], m.text);
                job j = {.prog = prog, .ins = ins, .outs = "R0", .ref = ref_p2r, .ctx = &c, .warps = DIR_WARPS};
                run_job(&j);
                snprintf(prog, sizeof prog, "R2P PR, R2%s, %s", bs[b], m.text);
                job j2 = {.prog = prog,
                          .ins = ins,
                          .outs = "P0 P1 P2 P3 P4 P5 P6",
                          .ref = ref_r2p,
                          .ctx = &c,
                          .warps = DIR_WARPS};
                run_job(&j2);
            }
}

/* ---- ISETP / ISET ---- in: R2 B P1 P3 */
typedef struct setpctx {
    int op, bop, u, x, ppm, pqm, pv, set, bf;
} setpctx;
static const char *const bop_name[] = {"AND", "OR", "XOR"};

static uint32_t boolop(int bop, uint32_t a, uint32_t b)
{
    return bop == 0 ? (a & b) : bop == 1 ? (a | b) : (a ^ b);
}

static void ref_setp(const void *cv, const uint32_t *in, uint32_t *out)
{
    const setpctx *c = cv;
    uint32_t t = (uint32_t)(c->u ? cmp_u(c->op, in[0], in[1]) : cmp_s(c->op, s32(in[0]), s32(in[1])));
    /* omitted operands: ISETP pq = PT; ISET pp = PT, pq = !PT */
    uint32_t pp = pred_val(c->ppm, in[2], 1), pq = pred_val(c->pqm, in[3], c->set ? 0 : 1);
    if (c->x && in[0] == in[1])
        t = pq;
    if (c->set) {
        out[0] = boolop(c->bop, t, pp) ? (c->bf ? 0x3F800000u : 0xFFFFFFFFu) : 0;
    } else {
        out[0] = boolop(c->bop, t, pp);
        if (c->pv)
            out[1] = boolop(c->bop, !t, pp);
    }
}

static void gen_setp(const void *cv, uint32_t *in)
{
    (void)cv;
    uint64_t x = tg_next(&rng);
    if ((x & 3) == 0)
        in[0] = in[1];
    else if ((x & 15) == 1)
        in[0] = in[1] + (uint32_t)(x >> 8 & 3) - 1;
}

static void test_setp(void)
{
    for (int op = 0; op < 6; op++)
        for (int bop = 0; bop < 3; bop++)
            for (int it = 0; it < 3; it++)
                for (int x = 0; x < 2; x++)
                    for (int k = 0; k < 4; k++) {
                        setpctx c = {op, bop, it == 2, x, 1 + (int)pick(4), x ? (int)pick(5) : 0, coin(), 0, 0};
                        opnd b = src32(k, 0, r32());
                        char prog[200], ins[128], pp[8], pq[8];
                        pred_text(c.ppm, 1, pp, sizeof pp);
                        pred_text(c.pqm, 3, pq, sizeof pq);
                        snprintf(prog, sizeof prog, "ISETP.%s.%s%s%s P0%s, R2, %s, %s%s%s", cmp_name[op], bop_name[bop],
                                 itype_txt[it], x ? ".X" : "", c.pv ? ", P2" : "", b.text, pp, c.pqm ? ", " : "", pq);
                        snprintf(ins, sizeof ins, "R2 %s P1 P3", b.tok);
                        job j = {.prog = prog,
                                 .ins = ins,
                                 .outs = "P0 P2",
                                 .ref = ref_setp,
                                 .gen = gen_setp,
                                 .ctx = &c,
                                 .warps = DIR_WARPS,
                                 .rand_active = (op + k) % 5 == 0};
                        run_job(&j);
                    }
    static const char *const setbop[] = {"", ".AND", ".OR", ".XOR"};
    static const char *const bmbf[] = {"", ".BM", ".BF"};
    for (int op = 0; op < 6; op++)
        for (int sb = 0; sb < 4; sb++)
            for (int x = 0; x < 2; x++)
                for (int k = 0; k < 4; k++) {
                    int it = (int)pick(3), bm = (int)pick(3);
                    int ppm = (int)pick(5), pqm = x && ppm ? (int)pick(5) : 0;
                    setpctx c = {op, sb ? sb - 1 : 0, it == 2, x, ppm, pqm, 0, 1, bm == 2};
                    opnd b = src32(k, 0, r32());
                    char prog[200], ins[128], pp[8], pq[8];
                    pred_text(ppm, 1, pp, sizeof pp);
                    pred_text(pqm, 3, pq, sizeof pq);
                    snprintf(prog, sizeof prog, "ISET.%s%s%s%s%s R0, R2, %s%s%s%s%s", cmp_name[op], setbop[sb],
                             itype_txt[it], bmbf[bm], x ? ".X" : "", b.text, ppm ? ", " : "", pp, pqm ? ", " : "", pq);
                    snprintf(ins, sizeof ins, "R2 %s P1 P3", b.tok);
                    job j = {.prog = prog,
                             .ins = ins,
                             .outs = "R0",
                             .ref = ref_setp,
                             .gen = gen_setp,
                             .ctx = &c,
                             .warps = DIR_WARPS};
                    run_job(&j);
                }
    /* the documents' examples */
    setpctx c1 = {3, 0, 1, 0, 0, 0, 0, 1, 0};
    job j = {.prog = "ISET.LE.U32 R0, R4, R6",
             .ins = "R4 R6 P1 P3",
             .outs = "R0",
             .ref = ref_setp,
             .gen = gen_setp,
             .ctx = &c1,
             .warps = DIR_WARPS};
    run_job(&j);
    setpctx c2 = {4, 1, 0, 1, 3, 1, 0, 1, 1};
    job j2 = {.prog = "ISET.GT.OR.BF.X R0, R5, 0x0, PT, P3",
              .ins = "R5 #0 P1 P3",
              .outs = "R0",
              .ref = ref_setp,
              .ctx = &c2,
              .warps = DIR_WARPS};
    run_job(&j2);
}

/* ---- LOP3 / PLOP3 ---- */
typedef struct lopctx {
    unsigned lut;
    int pand, pu, ppm, formula;
} lopctx;

/* the table rule of the document: d[i] = lut[(a[i] << 2) | (b[i] << 1) | c[i]] */
static uint32_t lut_table(unsigned lut, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t d = 0;
    for (int i = 0; i < 32; i++) {
        unsigned idx = (a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1);
        d |= (uint32_t)(lut >> idx & 1) << i;
    }
    return d;
}

/* the same functions written as C formulas (the document's examples and a few more) */
static const struct {
    unsigned lut;
    const char *what;
} formulas[] = {
    {0x80, "a&b&c"}, {0xFE, "a|b|c"}, {0x40, "a&b&~c"}, {0x1A, "(a&b|c)^a"}, {0x96, "a^b^c"}, {0xE8, "maj"},
    {0xCA, "a?b:c"}, {0x3C, "a^b"},   {0xF0, "a"},      {0xCC, "b"},         {0xAA, "c"},     {0x00, "0"},
    {0xFF, "~0"},    {0x0F, "~a"},    {0xC0, "a&b"},    {0xFC, "a|b"},       {0x5A, "a^c"},   {0x66, "b^c"},
};

static uint32_t lut_formula(unsigned lut, uint32_t a, uint32_t b, uint32_t c)
{
    switch (lut) {
    case 0x80: return a & b & c;
    case 0xFE: return a | b | c;
    case 0x40: return a & b & ~c;
    case 0x1A: return ((a & b) | c) ^ a;
    case 0x96: return a ^ b ^ c;
    case 0xE8: return (a & b) | (a & c) | (b & c);
    case 0xCA: return (a & b) | (~a & c);
    case 0x3C: return a ^ b;
    case 0xF0: return a;
    case 0xCC: return b;
    case 0xAA: return c;
    case 0x00: return 0;
    case 0xFF: return ~0u;
    case 0x0F: return ~a;
    case 0xC0: return a & b;
    case 0xFC: return a | b;
    case 0x5A: return a ^ c;
    case 0x66: return b ^ c;
    default: return 0xDEADBEEF;
    }
}

/* in: R2 B R5 P1; out: R0 P0 */
static void ref_lop3(const void *cv, const uint32_t *in, uint32_t *out)
{
    const lopctx *c = cv;
    uint32_t d = c->formula ? lut_formula(c->lut, in[0], in[1], in[2]) : lut_table(c->lut, in[0], in[1], in[2]);
    uint32_t pp = pred_val(c->ppm, in[3], 0);
    out[0] = d;
    if (c->pu)
        out[1] = c->pand ? ((d != 0) & pp) : ((d != 0) | pp);
}

/* in: P1 P2 P3|UP3; out: P0 */
typedef struct plopctx {
    unsigned lut;
    int na, nb, nc;
} plopctx;

static void ref_plop3(const void *cv, const uint32_t *in, uint32_t *out)
{
    const plopctx *c = cv;
    uint32_t a = in[0] ^ (uint32_t)c->na, b = in[1] ^ (uint32_t)c->nb, cc = in[2] ^ (uint32_t)c->nc;
    out[0] = c->lut >> (a << 2 | b << 1 | cc) & 1;
}

/* sometimes zero results (to see the Rd != 0 test of pu) */
static void gen_lop3(const void *cv, uint32_t *in)
{
    (void)cv;
    if ((tg_next(&rng) & 7) == 0)
        in[0] = in[1] = in[2] = 0;
}

static void test_lop3(void)
{
    static const int kinds[] = {SK_R, SK_I, SK_C, SK_U};
    for (unsigned lut = 0; lut < 256; lut++) {
        lopctx c = {lut, coin(), coin(), 1 + (int)pick(4), 0};
        opnd b = src32(kinds[lut % 4], 0, r32());
        char prog[200], ins[128], pp[8];
        pred_text(c.ppm, 1, pp, sizeof pp);
        snprintf(prog, sizeof prog, "LOP3.%s %sR0, R2, %s, R5, 0x%x, %s", c.pand ? "PAND" : "POR", c.pu ? "P0, " : "",
                 b.text, lut, pp);
        snprintf(ins, sizeof ins, "R2 %s R5 P1", b.tok);
        job j = {.prog = prog, .ins = ins, .outs = "R0 P0", .ref = ref_lop3, .gen = gen_lop3, .ctx = &c, .warps = 2};
        run_job(&j);

        plopctx pc = {lut, coin(), coin(), coin()};
        int up = lut % 3 == 0;
        snprintf(prog, sizeof prog, "PLOP3 P0, %sP1, %sP2, %s%s3, 0x%x", pc.na ? "!" : "", pc.nb ? "!" : "",
                 pc.nc ? "!" : "", up ? "UP" : "P", lut);
        job pj = {.prog = prog,
                  .ins = up ? "P1 P2 UP3" : "P1 P2 P3",
                  .outs = "P0",
                  .ref = ref_plop3,
                  .ctx = &pc,
                  .warps = up ? 16 : 2};
        run_job(&pj);
    }
    /* PT and !PT as PLOP3 inputs */
    for (unsigned lut = 0x0F; lut < 256; lut += 0x2D) {
        plopctx pc = {lut, 0, 1, coin()};
        char prog[120];
        snprintf(prog, sizeof prog, "PLOP3 P0, PT, !PT, %sP3, 0x%x", pc.nc ? "!" : "", lut);
        job pj = {.prog = prog, .ins = "#1 #1 P3", .outs = "P0", .ref = ref_plop3, .ctx = &pc, .warps = 2};
        run_job(&pj);
    }
    for (size_t f = 0; f < sizeof formulas / sizeof formulas[0]; f++)
        for (int k = 0; k < 4; k++) {
            lopctx c = {formulas[f].lut, coin(), 1, 1 + (int)pick(4), 1};
            opnd b = src32(kinds[k], 0, r32());
            char prog[200], ins[128], pp[8];
            pred_text(c.ppm, 1, pp, sizeof pp);
            snprintf(prog, sizeof prog, "LOP3.%s P0, R0, R2, %s, R5, 0x%x, %s", c.pand ? "PAND" : "POR", b.text, c.lut,
                     pp);
            snprintf(ins, sizeof ins, "R2 %s R5 P1", b.tok);
            job j = {.prog = prog,
                     .ins = ins,
                     .outs = "R0 P0",
                     .ref = ref_lop3,
                     .gen = gen_lop3,
                     .ctx = &c,
                     .warps = DIR_WARPS};
            run_job(&j);
        }
}

/* ---- SHF ---- in: R2 B C; out: R0 */
typedef struct shfctx {
    int right, hi, wrap, type; /* type: 0 S32 1 U32 2 S64 3 U64 */
} shfctx;

static void ref_shf(const void *cv, const uint32_t *in, uint32_t *out)
{
    const shfctx *c = cv;
    uint64_t v = u64of(in[0], in[2]); /* {SrcC, Ra} */
    uint32_t b = in[1];
    uint32_t nub = c->type >= 2 ? 64 : 32;
    uint32_t n = c->wrap ? b % nub : (b < nub ? b : nub);
    uint64_t r;
    if (!c->right)
        r = n >= 64 ? 0 : v << n;
    else if (c->type == 0 || c->type == 2) /* arithmetic */
        r = n >= 64 ? ((v >> 63) ? ~(uint64_t)0 : 0) : (uint64_t)((int64_t)v >> n);
    else
        r = n >= 64 ? 0 : v >> n;
    out[0] = c->hi ? (uint32_t)(r >> 32) : (uint32_t)r;
}

static const uint32_t shift_amounts[] = {0,   1,     2,          7,          31,         32,         33,         34,
                                         63,  64,    65,         66,         95,         96,         127,        128,
                                         200, 0x100, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x20000001, 0xFFFFFFE0, 0x40};
#define NSHIFTS (sizeof shift_amounts / sizeof shift_amounts[0])

static void gen_shf(const void *cv, uint32_t *in)
{
    (void)cv;
    uint64_t x = tg_next(&rng);
    if (x & 1)
        in[1] = shift_amounts[(x >> 8) % NSHIFTS];
    else if (x & 2)
        in[1] = (uint32_t)(x >> 16) & 127;
}

static void test_shf(void)
{
    static const char *const lohi[] = {"", ".LO", ".HI"}, *const cw[] = {"", ".CLAMP", ".WRAP"};
    static const char *const ty[] = {".S32", ".U32", ".S64", ".U64"};
    for (int right = 0; right < 2; right++)
        for (int hi = 0; hi < 2; hi++)
            for (int wrap = 0; wrap < 2; wrap++)
                for (int t = 0; t < 4; t++)
                    for (size_t cb = 0; cb < NCOMBOS; cb++) {
                        shfctx c = {right, hi, wrap, t};
                        uint32_t bimm = shift_amounts[pick(NSHIFTS)];
                        opnd b = src32(combos[cb].kb, 0, bimm), cc = src32(combos[cb].kc, 1, r32());
                        char prog[200], ins[128];
                        int lh = hi ? 2 : (int)pick(2), cwi = wrap ? 2 : (int)pick(2);
                        const char *tt = t == 0 && coin() ? "" : ty[t];
                        snprintf(prog, sizeof prog, "SHF.%s%s%s%s R0, R2, %s, %s", right ? "R" : "L", lohi[lh], cw[cwi],
                                 tt, b.text, cc.text);
                        snprintf(ins, sizeof ins, "R2 %s %s", b.tok, cc.tok);
                        job j = {.prog = prog,
                                 .ins = ins,
                                 .outs = "R0",
                                 .ref = ref_shf,
                                 .gen = gen_shf,
                                 .ctx = &c,
                                 .warps = combos[cb].kb == SK_R ? DIR_WARPS : 16};
                        run_job(&j);
                    }
    /* the document's example: SHF.L.HI.S32 R7, R7, 0x24, R0 shifts by 32 (clamped) */
    shfctx c = {0, 1, 0, 0};
    run_directed("SHF.L.HI.S32 R7, R7, 0x24, R0", "R7 #0x24 R0", "R7", ref_shf, &c, 0);
}

/* ---- PRMT ---- in: R2 B C; out: R0.
 * Reference from the rulings: the byte tables list Rd.b3 .. Rd.b0 (left to
 * right); .IDX uses SrcC's four low nibbles, bit 3 replicating the sign. */
static const char *const prmt_rows[7][4] = {
    {NULL, NULL, NULL, NULL},         /* IDX */
    {"3210", "4321", "5432", "6543"}, /* F4E */
    {"5670", "6701", "7012", "0123"}, /* B4E */
    {"0000", "1111", "2222", "3333"}, /* RC8 */
    {"3210", "3211", "3222", "3333"}, /* ECL */
    {"0000", "1110", "2210", "3210"}, /* ECR */
    {"1010", "3232", "1010", "3232"}, /* RC16 */
};
static const char *const prmt_mode[] = {"IDX", "F4E", "B4E", "RC8", "ECL", "ECR", "RC16"};

typedef struct prmtctx {
    int mode;
} prmtctx;

static void ref_prmt(const void *cv, const uint32_t *in, uint32_t *out)
{
    const prmtctx *c = cv;
    uint8_t b[8];
    for (int i = 0; i < 4; i++) {
        b[i] = (uint8_t)(in[0] >> 8 * i);
        b[4 + i] = (uint8_t)(in[1] >> 8 * i);
    }
    uint32_t d = 0;
    for (int i = 0; i < 4; i++) { /* Rd.b_i */
        uint32_t byte;
        if (c->mode == 0) {
            unsigned nib = in[2] >> 4 * i & 0xF;
            byte = b[nib & 7];
            if (nib & 8)
                byte = (byte & 0x80) ? 0xFF : 0;
        } else {
            const char *row = prmt_rows[c->mode][in[2] & 3];
            byte = b[row[3 - i] - '0'];
        }
        d |= byte << 8 * i;
    }
    out[0] = d;
}

static void test_prmt(void)
{
    for (int m = 0; m < 7; m++)
        for (size_t cb = 0; cb < NCOMBOS; cb++)
            for (int rep = 0; rep < 2; rep++) {
                prmtctx c = {m};
                opnd b = src32(combos[cb].kb, 0, r32()), cc = src32(combos[cb].kc, 1, (uint32_t)tg_next(&rng));
                char prog[200], ins[128];
                const char *mt = m == 0 && rep ? "" : prmt_mode[m];
                snprintf(prog, sizeof prog, "PRMT%s%s R0, R2, %s, %s", *mt ? "." : "", mt, b.text, cc.text);
                snprintf(ins, sizeof ins, "R2 %s %s", b.tok, cc.tok);
                job j = {.prog = prog,
                         .ins = ins,
                         .outs = "R0",
                         .ref = ref_prmt,
                         .ctx = &c,
                         .warps = combos[cb].kc == SK_R ? DIR_WARPS : 16};
                run_job(&j);
            }
    /* every selector of every mode as an immediate, with junk above the selector bits */
    for (int m = 1; m < 7; m++)
        for (uint32_t sel = 0; sel < 4; sel++) {
            prmtctx c = {m};
            uint32_t imm = sel | ((uint32_t)tg_next(&rng) & 0xFFFFFFFCu);
            char prog[200], ins[128];
            snprintf(prog, sizeof prog, "PRMT.%s R0, R2, R3, 0x%x", prmt_mode[m], imm);
            snprintf(ins, sizeof ins, "R2 R3 #0x%x", imm);
            job j = {.prog = prog, .ins = ins, .outs = "R0", .ref = ref_prmt, .ctx = &c, .warps = 2};
            run_job(&j);
        }
    /* the document's example, and a few fixed values worked out by hand */
    prmtctx c0 = {0};
    job j = {.prog = "PRMT R0, R1, R2, 0xABCD",
             .ins = "R1 R2 #0xABCD",
             .outs = "R0",
             .ref = ref_prmt,
             .ctx = &c0,
             .warps = DIR_WARPS};
    run_job(&j);
    static const struct {
        const char *prog;
        uint32_t want;
    } fixed[] = {
        {"PRMT R0, R1, R2, 0x3210", 0x44332211},   {"PRMT R0, R1, R2, 0x7654", 0x88776655},
        {"PRMT R0, R1, R2, 0x0123", 0x11223344},   {"PRMT R0, R1, R2, 0x8888", 0x00000000},
        {"PRMT R0, R1, R2, 0xFFFF", 0xFFFFFFFF},   {"PRMT R0, R1, R2, 0x4B4B", 0x55005500},
        {"PRMT R0, R1, R2, 0x4F4F", 0x55FF55FF},   {"PRMT.F4E R0, R1, R2, 0x0", 0x44332211},
        {"PRMT.F4E R0, R1, R2, 0x1", 0x55443322},  {"PRMT.F4E R0, R1, R2, 0x3", 0x77665544},
        {"PRMT.B4E R0, R1, R2, 0x0", 0x66778811},  {"PRMT.B4E R0, R1, R2, 0x3", 0x11223344},
        {"PRMT.RC8 R0, R1, R2, 0x2", 0x33333333},  {"PRMT.ECL R0, R1, R2, 0x1", 0x44332222},
        {"PRMT.ECR R0, R1, R2, 0x1", 0x22222211},  {"PRMT.RC16 R0, R1, R2, 0x0", 0x22112211},
        {"PRMT.RC16 R0, R1, R2, 0x1", 0x44334433},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        gisa_sim *s = sim_with(fixed[i].prog, 8, 1);
        if (!s)
            continue;
        gisa_sim_set(s, 0, GISA_RF_R, 1, -1, 0x44332211);
        gisa_sim_set(s, 0, GISA_RF_R, 2, -1, 0x88776655);
        CHECK(run_sim(s, NULL) == GISA_OK);
        uint32_t got = rget(s, 0, GISA_RF_R, 0, 17);
        CHECKF(got == fixed[i].want, "%s with R1=0x44332211 R2=0x88776655: got 0x%08x, want 0x%08x", fixed[i].prog, got,
               fixed[i].want);
        gisa_sim_free(s);
    }
}

/* ---- I2IP ---- in: R2 B R5; out: R0 */
typedef struct i2ipctx {
    int t, relu;
} i2ipctx;
static const char *const i2ip_t[] = {"S2", "U2", "S4", "U4", "S8", "U8", "S16", "U16"};

static void ref_i2ip(const void *cv, const uint32_t *in, uint32_t *out)
{
    const i2ipctx *c = cv;
    int size = 2 << (c->t / 2), sgn = !(c->t & 1);
    int64_t mn = sgn ? -((int64_t)1 << (size - 1)) : 0,
            mx = sgn ? ((int64_t)1 << (size - 1)) - 1 : ((int64_t)1 << size) - 1;
    if (c->relu)
        mn = 0;
    int64_t ta = s32(in[0]), tb = s32(in[1]);
    ta = ta < mn ? mn : ta > mx ? mx : ta;
    tb = tb < mn ? mn : tb > mx ? mx : tb;
    uint32_t msk = (uint32_t)(((uint64_t)1 << size) - 1);
    uint32_t d = ((uint32_t)ta & msk) << size | ((uint32_t)tb & msk);
    if (size < 16) {
        int rest = 32 - 2 * size;
        d |= (in[2] & (uint32_t)(((uint64_t)1 << rest) - 1)) << (2 * size);
    }
    out[0] = d;
}

static void gen_i2ip(const void *cv, uint32_t *in)
{
    (void)cv;
    uint64_t x = tg_next(&rng);
    if (x & 1)
        in[0] = (uint32_t)((int32_t)(x >> 8 & 63) - 32);
    if (x & 2)
        in[1] = (uint32_t)((int32_t)(x >> 16 & 63) - 32);
}

static void test_i2ip(void)
{
    static const int kinds[] = {SK_R, SK_U, SK_I, SK_C};
    for (int t = 0; t < 8; t++)
        for (int relu = 0; relu < 2; relu++)
            for (int k = 0; k < 4; k++)
                for (int rep = 0; rep < 2; rep++) {
                    i2ipctx c = {t, relu};
                    uint32_t imm = rep ? r32() : (uint32_t)((int32_t)pick(64) - 32);
                    opnd b = src32(kinds[k], 0, imm);
                    char prog[200], ins[128];
                    snprintf(prog, sizeof prog, "I2IP.%s%s R0, R2, %s, R5", i2ip_t[t],
                             relu  ? ".SATRELU"
                             : rep ? ".SAT"
                                   : "",
                             b.text);
                    snprintf(ins, sizeof ins, "R2 %s R5", b.tok);
                    job j = {.prog = prog,
                             .ins = ins,
                             .outs = "R0",
                             .ref = ref_i2ip,
                             .gen = gen_i2ip,
                             .ctx = &c,
                             .warps = DIR_WARPS};
                    run_job(&j);
                }
}

static void test_directed(void)
{
    long before = inputs_tested;
    test_iadd();
    test_imad();
    test_wide();
    test_idp();
    test_imul();
    test_lea();
    test_unary();
    test_mov64();
    test_p2r_r2p();
    test_setp();
    test_lop3();
    test_shf();
    test_prmt();
    test_i2ip();
    printf("directed: %ld inputs\n", inputs_tested - before);
}

/* ================================================================== 3. execution rules */

/* ---- guards ---- in: R2 R4 P1 [P0]; out: R0 P0 */
typedef struct guardctx {
    int mode; /* 1 @P1, 2 @!P1, 3 @PT, 4 @!PT, 5 @P0 (the guard is also pu) */
} guardctx;

static void ref_guard_iadd(const void *cv, const uint32_t *in, uint32_t *out)
{
    const guardctx *c = cv;
    uint32_t g = c->mode == 5 ? in[3] & 1 : pred_val(c->mode, in[2], 1);
    if (!g)
        return;
    uint64_t s = (uint64_t)in[0] + in[1];
    out[0] = (uint32_t)s;
    out[1] = s >> 32 != 0;
}

/* in: R2 R3 P1; out: P1 P2 (@P1 ISETP.LT.AND P1, P2, R2, R3, PT) */
static void ref_guard_setp(const void *cv, const uint32_t *in, uint32_t *out)
{
    (void)cv;
    if (!(in[2] & 1))
        return;
    int t = s32(in[0]) < s32(in[1]);
    out[0] = (uint32_t)t;
    out[1] = (uint32_t)!t;
}

static void ref_guard_wide(const void *cv, const uint32_t *in, uint32_t *out)
{
    (void)cv; /* in: R2 R3 R4 R5 P3; out R0 R1 P0: @!P3 IMAD.WIDE.U32 R[0:1], P0, R2, R3, R[4:5] */
    if (in[4] & 1)
        return;
    u128 s = (u128)((uint64_t)in[0] * in[1]) + u64of(in[2], in[3]);
    out[0] = (uint32_t)s;
    out[1] = (uint32_t)(s >> 32);
    out[2] = (uint32_t)(s >> 64) & 1;
}

static void test_guards(void)
{
    static const char *const g[] = {"", "@P1 ", "@!P1 ", "@PT ", "@!PT "};
    for (int m = 1; m <= 5; m++)
        for (int act = 0; act < 2; act++) {
            guardctx c = {m};
            char prog[120];
            snprintf(prog, sizeof prog, "%sIADD R0, P0, R2, R4", m == 5 ? "@P0 " : g[m]);
            job j = {.prog = prog,
                     .ins = "R2 R4 P1 P0",
                     .outs = "R0 P0",
                     .ref = ref_guard_iadd,
                     .ctx = &c,
                     .warps = 8,
                     .rand_active = act};
            run_job(&j);
        }
    job j = {.prog = "@P1 ISETP.LT.AND P1, P2, R2, R3, PT",
             .ins = "R2 R3 P1",
             .outs = "P1 P2",
             .ref = ref_guard_setp,
             .warps = 8,
             .rand_active = 1};
    run_job(&j);
    job j2 = {.prog = "@!P3 IMAD.WIDE.U32 R[0:1], P0, R2, R3, R[4:5]",
              .ins = "R2 R3 R4 R5 P3",
              .outs = "R0 R1 P0",
              .ref = ref_guard_wide,
              .warps = 8,
              .rand_active = 1};
    run_job(&j2);
}

/* ---- operands read before the result is written ---- */
static void ref_rbw_iadd(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    out[0] = in[0] + in[0]; /* IADD R1, R1, R1 */
}
static void ref_rbw_imad(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    out[0] = in[0] * in[0] + in[0];
}
static void ref_rbw_wide(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c; /* IMAD.WIDE.U32 R[2:3], R3, R2, R[2:3] */
    uint64_t r = (uint64_t)in[1] * in[0] + u64of(in[0], in[1]);
    out[0] = (uint32_t)r;
    out[1] = (uint32_t)(r >> 32);
}
static void ref_rbw_iaddx(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c; /* IADD.X R2, P0, R2, R3, P0: pp is read before pu is written */
    uint64_t s = (uint64_t)in[0] + in[1] + (in[2] & 1);
    out[0] = (uint32_t)s;
    out[1] = s >> 32 != 0;
}
static void ref_rbw_lea(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c; /* LEA.HI.X R3, R2, R3, R3, 0x7, P0 */
    out[0] = (uint32_t)(u64of(in[0], in[1]) >> 25) + in[1] + (in[2] & 1);
}
static void ref_rbw_prmt(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c; /* PRMT R2, R2, R2, R2 */
    prmtctx pc = {0};
    uint32_t i3[3] = {in[0], in[0], in[0]};
    ref_prmt(&pc, i3, out);
}
static void ref_rbw_shf(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c; /* SHF.L.HI.U64 R3, R3, R3, R3 */
    shfctx sc = {0, 1, 0, 3};
    uint32_t i3[3] = {in[0], in[0], in[0]};
    ref_shf(&sc, i3, out);
}
static void ref_rbw_i2ip(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c; /* I2IP.S4.SAT R2, R2, R3, R2 */
    i2ipctx ic = {2, 0};
    uint32_t i3[3] = {in[0], in[1], in[0]};
    ref_i2ip(&ic, i3, out);
}
static void ref_rbw_sel(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c; /* SEL R2, R3, R2, P0 */
    out[0] = (in[2] & 1) ? in[1] : in[0];
}

static void test_read_before_write(void)
{
    static const struct {
        const char *prog, *ins, *outs;
        ref_fn ref;
    } t[] = {
        {"IADD R1, R1, R1", "R1", "R1", ref_rbw_iadd},
        {"IMAD R2, R2, R2, R2", "R2", "R2", ref_rbw_imad},
        {"IMAD.WIDE.U32 R[2:3], R3, R2, R[2:3]", "R2 R3", "R2 R3", ref_rbw_wide},
        {"IADD.X R2, P0, R2, R3, P0", "R2 R3 P0", "R2 P0", ref_rbw_iaddx},
        {"LEA.HI.X R3, R2, R3, R3, 0x7, P0", "R2 R3 P0", "R3", ref_rbw_lea},
        {"PRMT R2, R2, R2, R2", "R2", "R2", ref_rbw_prmt},
        {"SHF.L.HI.U64 R3, R3, R3, R3", "R3", "R3", ref_rbw_shf},
        {"I2IP.S4.SAT R2, R2, R3, R2", "R2 R3", "R2", ref_rbw_i2ip},
        {"SEL R2, R3, R2, P0", "R2 R3 P0", "R2", ref_rbw_sel},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        job j = {.prog = t[i].prog,
                 .ins = t[i].ins,
                 .outs = t[i].outs,
                 .ref = t[i].ref,
                 .warps = 8,
                 .rand_active = (int)(i & 1)};
        run_job(&j);
    }
}

/* ---- RZ and PT ---- */
static void ref_rz_copy(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    out[0] = in[0];
}
/* IADD RZ, P0, R2, R3: only the carry is written; R0..R5 keep their values */
static void ref_rz_dest(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    out[6] = ((uint64_t)in[2] + in[3]) >> 32 != 0;
}
/* ISETP.EQ.AND PT, P0, R2, R3, PT ; SEL R0, R4, R5, PT ; @PT MOV R1, R6 */
static void ref_pt_dest(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    out[0] = in[0] != in[1];
    out[1] = in[2];
    out[2] = in[4];
}
/* R2P PR, R2, 0xff ; SEL R0, R4, R5, PT */
static void ref_pt_r2p(const void *c, const uint32_t *in, uint32_t *out)
{
    (void)c;
    for (int i = 0; i < 7; i++)
        out[i] = in[0] >> i & 1;
    out[7] = in[1];
}

static void test_rz_pt(void)
{
    /* the zero registers and PT/UPT cannot be set through the API */
    {
        gisa_sim *s = NULL;
        if (gisa_sim_new(isa, 16, 1, &s) == GISA_OK) {
            CHECK(gisa_sim_set(s, 0, GISA_RF_R, 255, -1, 1) != GISA_OK);
            CHECK(gisa_sim_set(s, 0, GISA_RF_R, 16, -1, 1) != GISA_OK);
            CHECK(gisa_sim_set(s, 0, GISA_RF_P, 7, -1, 0) != GISA_OK);
            CHECK(gisa_sim_set(s, 0, GISA_RF_UR, 63, 0, 1) != GISA_OK);
            CHECK(gisa_sim_set(s, 0, GISA_RF_UP, 7, 0, 0) != GISA_OK);
            CHECK(gisa_sim_set(s, 1, GISA_RF_R, 0, -1, 1) != GISA_OK);
            CHECK(gisa_sim_set(s, 0, GISA_RF_R, 15, 31, 1) == GISA_OK);
            CHECK(gisa_sim_set(s, 0, GISA_RF_R, 15, 32, 1) != GISA_OK);
            gisa_sim_free(s);
        }
    }
    job a = {.prog = "IADD R0, RZ, R2", .ins = "R2", .outs = "R0", .ref = ref_rz_copy, .warps = 4};
    run_job(&a);
    a.prog = "IADD R0, R2, RZ";
    run_job(&a);
    a.prog = "MOV RZ, R3 ; IADD R0, RZ, R2"; /* the write to RZ is dropped */
    run_job(&a);
    a.prog = "IMAD.WIDE.U32 RZ, R3, R3, R[4:5] ; MOV R0, R2 ; IADD R0, R0, RZ";
    run_job(&a);
    /* GETGPR of index 255 (UR3 + 4 = 0xFF) reads RZ */
    {
        gisa_sim *s = sim_with("GETGPR R0, R[UR3+0x4]", 64, 1);
        if (s) {
            gisa_sim_set(s, 0, GISA_RF_R, 0, -1, 0x12345678);
            gisa_sim_set(s, 0, GISA_RF_UR, 3, 0, 0xFB);
            CHECK(run_sim(s, NULL) == GISA_OK);
            CHECK(rget(s, 0, GISA_RF_R, 0, 5) == 0);
            gisa_sim_free(s);
        }
    }
    job z = {.prog = "R2UR URZ, R2 ; MOV R0, URZ ; IADD R1, RZ, URZ",
             .ins = "R2",
             .outs = "R0 R1",
             .ref = ref_zero2,
             .warps = 4};
    run_job(&z);
    job b = {.prog = "IADD RZ, P0, R2, R3",
             .ins = "R0 R1 R2 R3 R4 R5",
             .outs = "R0 R1 R2 R3 R4 R5 P0",
             .ref = ref_rz_dest,
             .warps = 4};
    run_job(&b);
    job c = {.prog = "ISETP.EQ.AND PT, P0, R2, R3, PT ; SEL R0, R4, R5, PT ; @PT MOV R1, R6",
             .ins = "R2 R3 R4 R5 R6",
             .outs = "P0 R0 R1",
             .ref = ref_pt_dest,
             .gen = gen_setp,
             .warps = 4};
    run_job(&c);
    c.prog = "PLOP3 PT, P1, P2, P3, 0x0 ; LOP3.PAND PT, R7, R2, R3, R4, 0x0, PT ; "
             "ISETP.EQ.AND PT, P0, R2, R3, PT ; SEL R0, R4, R5, PT ; @PT MOV R1, R6";
    run_job(&c);
    job d = {.prog = "R2P PR, R2, 0xff ; SEL R0, R4, R5, PT",
             .ins = "R2 R4 R5",
             .outs = "P0 P1 P2 P3 P4 P5 P6 R0",
             .ref = ref_pt_r2p,
             .warps = 4};
    run_job(&d);
}

/* ---- R2UR: the lowest lane that is active and whose guard is true ---- */
static void test_r2ur(void)
{
    static const char *const progs[] = {"R2UR UR5, R2", "@P1 R2UR UR5, R2", "@!P1 R2UR UR5, R2", "@PT R2UR UR5, R2"};
    for (int p = 0; p < 4; p++) {
        enum { W = 24 };
        gisa_sim *s = sim_with(progs[p], 16, W);
        if (!s)
            continue;
        uint32_t act[W], p1[W], r2[W][32];
        for (unsigned w = 0; w < W; w++) {
            uint64_t x = tg_next(&rng);
            act[w] = w == 0    ? 0
                     : w == 1  ? UINT32_MAX
                     : w == 2  ? 0x80000000u
                     : (x & 3) ? (uint32_t)(x >> 32) << (x >> 8 & 31)
                               : 1u << (x >> 16 & 31);
            p1[w] = w == 3 ? 0 : w == 4 ? UINT32_MAX : (uint32_t)tg_next(&rng);
            gisa_sim_set_active(s, w, act[w]);
            gisa_sim_set(s, w, GISA_RF_UR, 5, 0, 0xDEAD0000u + w);
            for (unsigned l = 0; l < 32; l++) {
                r2[w][l] = (uint32_t)tg_next(&rng);
                gisa_sim_set(s, w, GISA_RF_R, 2, (int)l, r2[w][l]);
                gisa_sim_set(s, w, GISA_RF_P, 1, (int)l, p1[w] >> l & 1);
            }
        }
        CHECK(run_sim(s, NULL) == GISA_OK);
        for (unsigned w = 0; w < W; w++) {
            uint32_t guard = p == 1 ? p1[w] : p == 2 ? ~p1[w] : UINT32_MAX;
            uint32_t cand = act[w] & guard, want = 0xDEAD0000u + w;
            for (unsigned l = 0; l < 32; l++)
                if (cand >> l & 1) {
                    want = r2[w][l];
                    break;
                }
            uint32_t got = rget(s, w, GISA_RF_UR, 5, 0);
            CHECKF(got == want, "%s warp %u active 0x%08x P1 0x%08x: UR5 = 0x%08x, want 0x%08x", progs[p], w, act[w],
                   p1[w], got, want);
        }
        gisa_sim_free(s);
    }
}

/* ---- SETGPR / GETGPR ---- */
static void test_gpr_index(void)
{
    /* SETGPR R[UR2+imm], R1 and GETGPR R0, R[UR2+imm]: per-warp indices, every register checked */
    /* UR2 stays a small non-negative number here (UR2 + imm for a UR2 that is
     * negative as a signed value is not specified: see the report) */
    static const int imms[] = {0, 1, -1, 5, -3, 0x3F, -0x100};
    for (size_t ii = 0; ii < sizeof imms / sizeof imms[0]; ii++)
        for (int get = 0; get < 2; get++) {
            enum { W = 12, N = 64 };
            char prog[80];
            char off[16];
            int imm = imms[ii];
            if (imm)
                snprintf(off, sizeof off, "%s0x%x", imm < 0 ? "-" : "+", imm < 0 ? -imm : imm);
            else
                off[0] = 0;
            if (get)
                snprintf(prog, sizeof prog, "GETGPR R0, R[UR2%s]", off);
            else
                snprintf(prog, sizeof prog, "SETGPR R[UR2%s], R1", off);
            gisa_sim *s = sim_with(prog, N, W);
            if (!s)
                continue;
            static uint32_t before[W][N][32];
            unsigned idx[W];
            for (unsigned w = 0; w < W; w++) {
                unsigned lo = imm > 0 ? (unsigned)imm : 0;
                idx[w] = w == 0 ? lo : w == 1 ? N - 1 : w == 2 && lo + 1 < N ? lo + 1 : lo + (unsigned)pick(N - lo);
                gisa_sim_set(s, w, GISA_RF_UR, 2, 0, (uint32_t)((int)idx[w] - imm));
                for (unsigned r = 0; r < N; r++)
                    for (unsigned l = 0; l < 32; l++) {
                        before[w][r][l] = (uint32_t)tg_next(&rng);
                        gisa_sim_set(s, w, GISA_RF_R, r, (int)l, before[w][r][l]);
                    }
            }
            gisa_sim_fault f;
            memset(&f, 0, sizeof f);
            gisa_status st = run_sim(s, &f);
            CHECKF(st == GISA_OK, "%s: %s", prog, f.message);
            int bad = 0;
            for (unsigned w = 0; w < W; w++)
                for (unsigned r = 0; r < N; r++)
                    for (unsigned l = 0; l < 32; l++) {
                        uint32_t want = before[w][r][l];
                        if (get && r == 0)
                            want = before[w][idx[w]][l];
                        if (!get && r == idx[w])
                            want = before[w][1][l];
                        uint32_t got = rget(s, w, GISA_RF_R, r, l);
                        if (got != want && bad++ < 3)
                            fprintf(stderr, "%s (index %u) warp %u R%u lane %u: 0x%08x, want 0x%08x\n", prog, idx[w], w,
                                    r, l, got, want);
                    }
            CHECKF(!bad, "%s: %d wrong registers", prog, bad);
            gisa_sim_free(s);
        }

    /* index 255 is RZ: reads 0, writes dropped, no fault, even with --regs 16 */
    {
        gisa_sim *s = sim_with("SETGPR R[UR2+0x5], R1 ; GETGPR R0, R[UR3-0x1]", 16, 1);
        if (s) {
            for (unsigned r = 0; r < 16; r++)
                gisa_sim_set(s, 0, GISA_RF_R, r, -1, 0x1000u + r);
            gisa_sim_set(s, 0, GISA_RF_UR, 2, 0, 250);
            gisa_sim_set(s, 0, GISA_RF_UR, 3, 0, 256);
            gisa_sim_fault f;
            memset(&f, 0, sizeof f);
            CHECKF(run_sim(s, &f) == GISA_OK, "index 255: %s", f.message);
            CHECK(rget(s, 0, GISA_RF_R, 0, 9) == 0);
            int same = 1;
            for (unsigned r = 1; r < 16; r++)
                same &= rget(s, 0, GISA_RF_R, r, 9) == 0x1000u + r;
            CHECK(same);
            gisa_sim_free(s);
        }
    }
}

/* A fault: status, pc, warp, lane, the index/reason in the message, nothing after it executed. */
typedef struct faultcase {
    const char *prog;
    unsigned regs, warps;
    uint32_t ur2[4];    /* UR2 per warp */
    uint32_t active;    /* active mask of every warp (0: all) */
    uint32_t p0;        /* P0 lanes */
    size_t pc;          /* expected fault pc */
    unsigned warp;      /* expected fault warp */
    int lane;           /* expected fault lane */
    const char *needle; /* expected in the message */
    uint32_t bad_warps; /* warps that fault (they must not run past the fault) */
} faultcase;

static void check_fault(const faultcase *c)
{
    gisa_sim *s = sim_with(c->prog, c->regs, c->warps);
    if (!s)
        return;
    for (unsigned w = 0; w < c->warps; w++) {
        gisa_sim_set(s, w, GISA_RF_UR, 2, 0, c->ur2[w]);
        if (c->active)
            gisa_sim_set_active(s, w, c->active);
        for (unsigned l = 0; l < 32; l++)
            gisa_sim_set(s, w, GISA_RF_P, 0, (int)l, c->p0 >> l & 1);
        gisa_sim_set(s, w, GISA_RF_R, 1, -1, 0x11);
    }
    gisa_sim_fault f;
    memset(&f, 0, sizeof f);
    gisa_status st = gisa_sim_run(s, &f);
    CHECKF(st == GISA_ERR_SIM, "%s: status %s, want a simulation fault", c->prog, gisa_status_str(st));
    if (st == GISA_ERR_SIM) {
        CHECKF(f.pc == c->pc, "%s: fault pc %zu, want %zu", c->prog, f.pc, c->pc);
        CHECKF(f.warp == c->warp, "%s: fault warp %u, want %u", c->prog, f.warp, c->warp);
        CHECKF(f.lane == c->lane, "%s: fault lane %d, want %d", c->prog, f.lane, c->lane);
        CHECKF(strstr(f.message, c->needle) != NULL, "%s: message '%s' does not name '%s'", c->prog, f.message,
               c->needle);
        CHECKF(f.insn[0] != 0, "%s: the fault names no instruction", c->prog);
    }
    /* the program ends with MOV R3, 0x33: only warps that did not fault reach it */
    for (unsigned w = 0; w < c->warps; w++) {
        uint32_t want = (c->bad_warps >> w & 1) ? 0 : 0x33;
        uint32_t got = rget(s, w, GISA_RF_R, 3, 31);
        CHECKF(got == want, "%s: warp %u R3 = 0x%x, want 0x%x (instructions after a fault must not run)", c->prog, w,
               got, want);
    }
    gisa_sim_free(s);
}

static void test_faults(void)
{
    const faultcase cases[] = {
        /* SETGPR index = N with --regs 16: faults; 15 is fine */
        {"MOV R4, 0x1 ; SETGPR R[UR2], R1 ; MOV R3, 0x33", 16, 1, {16}, 0, UINT32_MAX, 1, 0, 0, "16", 1},
        {"MOV R4, 0x1 ; SETGPR R[UR2+0x1], R1 ; MOV R3, 0x33", 16, 1, {15}, 0, UINT32_MAX, 1, 0, 0, "16", 1},
        {"GETGPR R0, R[UR2] ; MOV R3, 0x33", 16, 1, {16}, 0, UINT32_MAX, 0, 0, 0, "16", 1},
        /* 256 does not wrap to R0, -1 does not wrap to RZ */
        {"GETGPR R0, R[UR2] ; MOV R3, 0x33", 255, 1, {256}, 0, UINT32_MAX, 0, 0, 0, "256", 1},
        {"SETGPR R[UR2-0x1], R1 ; MOV R3, 0x33", 255, 1, {0}, 0, UINT32_MAX, 0, 0, 0, "-1", 1},
        {"SETGPR R[UR2+0xff], R1 ; MOV R3, 0x33", 255, 1, {1}, 0, UINT32_MAX, 0, 0, 0, "256", 1},
        /* the lane: the lowest active lane whose guard is true */
        {"MOV R4, 0x1 ; SETGPR R[UR2], R1 ; MOV R3, 0x33", 16, 1, {20}, 0xFFFFFFF0u, UINT32_MAX, 1, 0, 4, "20", 1},
        {"@P0 SETGPR R[UR2], R1 ; MOV R3, 0x33", 16, 1, {20}, 0, 0x00000480u, 0, 0, 7, "20", 1},
        /* the lowest faulting warp is reported; the other warps run to the end */
        {"SETGPR R[UR2], R1 ; MOV R3, 0x33", 16, 4, {2, 40, 3, 17}, 0, UINT32_MAX, 0, 1, 0, "40", 0xA},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_fault(&cases[i]);

    /* no fault where no lane executes the instruction: guard false everywhere, or no active lane */
    static const char *const quiet[] = {"@P0 SETGPR R[UR2], R1 ; MOV R3, 0x33",
                                        "@!PT GETGPR R0, R[UR2] ; MOV R3, 0x33"};
    for (int q = 0; q < 3; q++) {
        gisa_sim *s = sim_with(quiet[q & 1], 16, 1);
        if (!s)
            continue;
        gisa_sim_set(s, 0, GISA_RF_UR, 2, 0, 99);
        if (q == 2) {
            gisa_sim_set_active(s, 0, 0);
            gisa_sim_set(s, 0, GISA_RF_P, 0, -1, 1);
        }
        gisa_sim_fault f;
        memset(&f, 0, sizeof f);
        CHECKF(gisa_sim_run(s, &f) == GISA_OK, "%s (case %d) faulted: %s", quiet[q & 1], q, f.message);
        CHECK(rget(s, 0, GISA_RF_R, 3, 0) == (q == 2 ? 0u : 0x33u));
        gisa_sim_free(s);
    }

    /* R(N-1) is reachable with regs N, R(N) is not: a register beyond regs faults when reached */
    static const struct {
        const char *prog;
        int faults;
        size_t pc;
    } regs8[] = {
        {"MOV R7, 0x5 ; MOV R3, 0x33", 0, 0},
        {"MOV R4, 0x1 ; IADD R2, R1, R8 ; MOV R3, 0x33", 1, 1},
        {"MOV R4, 0x1 ; MOV R8, 0x1 ; MOV R3, 0x33", 1, 1},
        {"MOV.64 R[6:7], R[0:1] ; MOV R3, 0x33", 0, 0},
        {"MOV R4, 0x1 ; MOV.64 R[8:9], R[0:1] ; MOV R3, 0x33", 1, 1},
        {"MOV R4, 0x1 ; IMAD.WIDE R[0:1], R1, R2, R[8:9] ; MOV R3, 0x33", 1, 1},
        {"MOV R4, 0x1 ; IMAD R0, R1, R2, R200 ; MOV R3, 0x33", 1, 1},
        {"IADD R1, RZ, 0x3 ; MOV R2, RZ ; MOV R3, 0x33", 0, 0},
    };
    for (size_t i = 0; i < sizeof regs8 / sizeof regs8[0]; i++) {
        gisa_sim *s = sim_with(regs8[i].prog, 8, 1);
        if (!s)
            continue;
        gisa_sim_fault f;
        memset(&f, 0, sizeof f);
        gisa_status st = gisa_sim_run(s, &f);
        if (regs8[i].faults) {
            CHECKF(st == GISA_ERR_SIM && f.pc == regs8[i].pc, "%s with regs 8: status %s pc %zu, want a fault at %zu",
                   regs8[i].prog, gisa_status_str(st), f.pc, regs8[i].pc);
            CHECKF(rget(s, 0, GISA_RF_R, 4, 0) == 1, "%s: the instruction before the fault did not run", regs8[i].prog);
            CHECKF(rget(s, 0, GISA_RF_R, 3, 0) == 0, "%s: an instruction after the fault ran", regs8[i].prog);
        } else {
            CHECKF(st == GISA_OK, "%s with regs 8: %s", regs8[i].prog, f.message);
            CHECK(rget(s, 0, GISA_RF_R, 3, 0) == 0x33);
        }
        gisa_sim_free(s);
    }
    /* with the default 255 registers R254 is an ordinary register */
    {
        gisa_sim *s = sim_with("MOV R254, 0x77 ; IADD R0, R254, 0x1 ; MOV R1, UR62", 255, 1);
        if (s) {
            gisa_sim_set(s, 0, GISA_RF_UR, 62, 0, 0x62);
            CHECK(run_sim(s, NULL) == GISA_OK);
            CHECK(rget(s, 0, GISA_RF_R, 254, 3) == 0x77);
            CHECK(rget(s, 0, GISA_RF_R, 0, 3) == 0x78);
            CHECK(rget(s, 0, GISA_RF_R, 1, 3) == 0x62);
            gisa_sim_free(s);
        }
    }

    /* undecodable words are accepted by gisa_sim_load and fault when reached */
    gisa_word *w1 = NULL, *w2 = NULL;
    size_t n1, n2;
    if (assemble("MOV R4, 0x1", &w1, &n1) && assemble("MOV R3, 0x33", &w2, &n2)) {
        static const gisa_word bad[] = {
            {{0, 0}},                                     /* optype 0: no instruction */
            {{0xFFFFFFFFFFFFFFFFu, 0xFFFFFFFFFFFFFFFFu}}, /* all ones */
            {{0, 0x4000000000000000u}},                   /* bit 126 alone */
        };
        for (int b = 0; b < 4; b++) {
            gisa_word prog[3] = {w1[0], b < 3 ? bad[b] : w2[0], w2[0]};
            if (b == 3) /* a valid MOV with reserved bit 126 set */
                prog[1].w[1] |= 0x4000000000000000u;
            char txt[200];
            CHECKF(gisa_disassemble(isa, prog[1], txt, sizeof txt, NULL) != GISA_OK, "word %d should not decode: %s", b, txt);
            gisa_sim *s = NULL;
            if (gisa_sim_new(isa, 16, 2, &s) != GISA_OK)
                continue;
            CHECKF(gisa_sim_load(s, prog, 3) == GISA_OK, "gisa_sim_load refuses an undecodable word (%d)", b);
            gisa_sim_fault f;
            memset(&f, 0, sizeof f);
            gisa_status st = gisa_sim_run(s, &f);
            CHECKF(st == GISA_ERR_SIM && f.pc == 1 && f.warp == 0, "undecodable word %d: status %s pc %zu warp %u", b,
                   gisa_status_str(st), f.pc, f.warp);
            for (unsigned w = 0; w < 2; w++) {
                CHECKF(rget(s, w, GISA_RF_R, 4, 0) == 1, "undecodable word %d: the instruction before it did not run",
                       b);
                CHECKF(rget(s, w, GISA_RF_R, 3, 0) == 0, "undecodable word %d: the instruction after it ran", b);
            }
            gisa_sim_free(s);
        }
        /* never reached: a program that is only loaded does not fault; a valid prefix runs */
        gisa_word only[2] = {w1[0], {{0, 0}}};
        gisa_sim *s = NULL;
        if (gisa_sim_new(isa, 16, 1, &s) == GISA_OK) {
            CHECK(gisa_sim_load(s, only, 1) == GISA_OK);
            CHECK(run_sim(s, NULL) == GISA_OK);
            CHECK(gisa_sim_load(s, only, 2) == GISA_OK);
            CHECK(run_sim(s, NULL) == GISA_ERR_SIM);
            gisa_sim_free(s);
        }
    }
    free(w1);
    free(w2);
}

static void test_rules(void)
{
    long before = inputs_tested;
    test_guards();
    test_read_before_write();
    test_rz_pt();
    test_r2ur();
    test_gpr_index();
    test_faults();
    printf("execution rules: %ld batch inputs\n", inputs_tested - before);
}

int main(void)
{
    isa = test_isa();
    test_idioms();
    test_directed();
    test_rules();
    gisa_isa_free(isa);
    return test_summary();
}
