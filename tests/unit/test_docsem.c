/* Differential test of the two engines (issue 20): random valid words of
 * every opcode (every modifier combination the random fields reach, every
 * operand kind), their GPR fields moved into R0..R31, run on one warp from
 * the same state by the native engine and by the doc engine (the documents'
 * pseudo-code with the rulings' patches). Every register, predicate and
 * uniform register of every lane must agree. The state is biased to the
 * hard cases: signed zeros, subnormals, infinities, NaN payloads, 0,
 * 0xFFFFFFFF, 0x80000000, values that carry. A disagreement is reported
 * with the instruction, the lane, the inputs, both results and the patches
 * applied to its optype. A fault (SETGPR/GETGPR's register index outside
 * the file) is compared as a fault: the same message and lane from both
 * engines, and the same state. The states reach the warp-level cases: the
 * active lanes are all, some, one or none, and the guard predicate per lane
 * is random, so R2UR reads from partially active and guarded warps and runs
 * on none; an indexed register R[URb+SImm9] is aimed in range, at RZ (255)
 * or outside the file. Counts per optype are printed.
 *
 *   test_docsem [WORDS_PER_OPCODE]   (default 60; an optype of fewer than
 *                                     four opcodes gets 4 * WORDS words in all) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docsem/docsem.h"
#include "spec/model.h"
#include "testlib.h"

#define REGS 32

static const uint32_t hard[] = {
    0,          0xffffffffu, 0x80000000u, 0x7fffffffu, 1,          0x7f800000u, 0xff800000u, 0x7fc00000u,
    0x7f800001u, 0xffc01234u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u, 0x00800000u, 0x7f7fffffu,
    0x7c00fc00u, 0x00017e01u, 0x3c00bc00u, 0x80008000u, 0x7e007c01u, 0x3f80bf80u, 0x0000ffffu, 0xffff0000u,
    0x7ff00000u, 0xfff80000u, 0x00000002u, 0x3ff00000u,
};

static uint32_t pick(tg_rng *r)
{
    switch (tg_below(r, 4)) {
    case 0: return hard[tg_below(r, sizeof hard / sizeof hard[0])];
    case 1: return (uint32_t)tg_next(r) & 0x8000ffffu; /* small magnitudes, subnormal floats */
    case 2: return 0x3f000000u + (uint32_t)tg_below(r, 0x01000000u); /* ordinary floats near 1 */
    default: return (uint32_t)tg_next(r);
    }
}

typedef struct state {
    uint32_t r[REGS][32];
    uint8_t p[7][32];
    uint32_t ur[63];
    uint8_t up[7];
    uint32_t active;
} state;

static void random_state(tg_rng *g, state *s)
{
    for (int i = 0; i < REGS; i++)
        for (int l = 0; l < 32; l++)
            s->r[i][l] = pick(g);
    for (int i = 0; i < 7; i++)
        for (int l = 0; l < 32; l++)
            s->p[i][l] = (uint8_t)tg_below(g, 2);
    for (int i = 0; i < 63; i++)
        s->ur[i] = pick(g);
    for (int i = 0; i < 7; i++)
        s->up[i] = (uint8_t)tg_below(g, 2);
    switch (tg_below(g, 16)) {
    case 0: s->active = 0; break;
    case 1:
    case 2: s->active = 1u << tg_below(g, 32); break;
    case 3:
    case 4: s->active = (uint32_t)(tg_next(g) & tg_next(g) & tg_next(g)); break;
    case 5:
    case 6:
    case 7: s->active = (uint32_t)tg_next(g); break;
    default: s->active = 0xffffffffu;
    }
}

/* For an indexed operand R[URb+SImm9]: URb's value chosen so that the
 * index is a register of the file, RZ (255) or outside the file (a fault).
 * Returns the kind aimed at: 0 none (no such operand, or URb is URZ), 1 in
 * range, 2 RZ, 3 outside. */
static int aim_index(const gisa_isa *isa, gisa_word w, tg_rng *g, state *s)
{
    gisa_inst in;
    if (gisa_decode(isa, w, &in) != GISA_OK)
        return 0;
    size_t n = gisa_inst_operand_count(isa, &in);
    for (size_t i = 0; i < n; i++) {
        gisa_operand o;
        if (gisa_inst_operand(isa, &in, i, &o) != GISA_OK || o.kind != GISA_OPND_INDEXED || o.is_zero || o.reg >= 63)
            continue;
        int kind = 1 + (int)tg_below(g, 3);
        int64_t target = kind == 1 ? (int64_t)tg_below(g, REGS) : kind == 2 ? 255
                         : tg_below(g, 2) ? REGS + (int64_t)tg_below(g, 200) : -1 - (int64_t)tg_below(g, 300);
        if (target == 255)
            kind = 2;
        s->ur[o.reg] = (uint32_t)(target - o.value);
        return kind;
    }
    return 0;
}

/* the lanes that execute word w from state s: active and guarded */
static uint32_t exec_mask(const gisa_isa *isa, gisa_word w, const state *s)
{
    gisa_inst in;
    unsigned pg;
    bool neg;
    if (gisa_decode(isa, w, &in) != GISA_OK || gisa_inst_guard(isa, &in, &pg, &neg) != GISA_OK)
        return s->active;
    uint32_t g = 0;
    for (int l = 0; l < 32; l++)
        g |= (uint32_t)(pg >= 7 ? 1 : s->p[pg][l]) << l;
    return s->active & (neg ? ~g : g);
}

static void put(gisa_sim *sim, const state *s)
{
    for (int i = 0; i < REGS; i++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(sim, 0, GISA_RF_R, (unsigned)i, l, s->r[i][l]);
    for (int i = 0; i < 7; i++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(sim, 0, GISA_RF_P, (unsigned)i, l, s->p[i][l]);
    for (int i = 0; i < 63; i++)
        gisa_sim_set(sim, 0, GISA_RF_UR, (unsigned)i, 0, s->ur[i]);
    for (int i = 0; i < 7; i++)
        gisa_sim_set(sim, 0, GISA_RF_UP, (unsigned)i, 0, s->up[i]);
    gisa_sim_set_active(sim, 0, s->active);
}

static void get(gisa_sim *sim, state *s)
{
    memset(s, 0, sizeof *s);
    uint32_t v;
    for (int i = 0; i < REGS; i++)
        for (unsigned l = 0; l < 32; l++)
            gisa_sim_get(sim, 0, GISA_RF_R, (unsigned)i, l, &s->r[i][l]);
    for (int i = 0; i < 7; i++)
        for (unsigned l = 0; l < 32; l++) {
            gisa_sim_get(sim, 0, GISA_RF_P, (unsigned)i, l, &v);
            s->p[i][l] = (uint8_t)v;
        }
    for (int i = 0; i < 63; i++)
        gisa_sim_get(sim, 0, GISA_RF_UR, (unsigned)i, 0, &s->ur[i]);
    for (int i = 0; i < 7; i++) {
        gisa_sim_get(sim, 0, GISA_RF_UP, (unsigned)i, 0, &v);
        s->up[i] = (uint8_t)v;
    }
}

/* A random valid word of opcode op with its GPRs in R0..R31 (even, so that
 * pairs fit), or 0 when none was found. */
static int random_word(const gisa_isa *isa, const isa_opcode *op, tg_rng *g, gisa_word *w)
{
    for (int tries = 0; tries < 200; tries++) {
        gisa_word x;
        x.w[0] = (tg_next(g) & op->covered.w[0] & ~op->mask.w[0]) | op->match.w[0];
        x.w[1] = (tg_next(g) & op->covered.w[1] & ~op->mask.w[1] & 0x0000ffffffffffffu) | op->match.w[1];
        gisa_inst in;
        if (gisa_decode(isa, x, &in) != GISA_OK || in.opcode != op->index)
            continue;
        for (int f = 0; f < op->nfields; f++) {
            const isa_type *t = op->fields[f].type;
            if (t->kind == TY_REG && t->rclass == RC_GPR && in.field[f] != t->zero_value && !op->fields[f].fixed)
                in.field[f] = 2 * tg_below(g, REGS / 2);
        }
        if (gisa_encode(isa, &in, w) == GISA_OK)
            return 1;
    }
    return 0;
}

typedef struct tally {
    long words, lanes, bad, doc_fault, faults;
    long partial, none;            /* words whose executing lanes are some, none */
    long in_range, rz, outside;    /* words aiming an indexed register (aim_index) */
} tally;

static void report(const gisa_isa *isa, const isa_opcode *op, gisa_word w, const state *in, const state *a,
                   const state *b, const char *what, int idx, int lane)
{
    char text[200];
    gisa_disassemble(isa, w, text, sizeof text, NULL);
    fprintf(stderr, "DISAGREE %s: %s lane %d: %s%d native 0x%08x doc 0x%08x\n", op->optype->name, text, lane, what, idx,
            what[0] == 'R' ? a->r[idx][lane] : a->p[idx][lane], what[0] == 'R' ? b->r[idx][lane] : b->p[idx][lane]);
    fprintf(stderr, "  inputs: R0..R7 =");
    for (int i = 0; i < 8; i++)
        fprintf(stderr, " 0x%08x", in->r[i][lane]);
    fprintf(stderr, " ... P0..P6 =");
    for (int i = 0; i < 7; i++)
        fprintf(stderr, " %d", in->p[i][lane]);
    fprintf(stderr, "\n");
    const ds_optype *sem = ds_optype_of(isa, op->optype);
    for (int i = 0; sem && i < sem->npatches; i++)
        fprintf(stderr, "  patch %s:%d: %s (%s)\n", sem->patches[i].loc.file, sem->patches[i].loc.line,
                sem->patches[i].what, sem->patches[i].reason);
}

static void run_one(const gisa_isa *isa, const isa_opcode *op, gisa_word w, tg_rng *g, tally *t)
{
    gisa_sim *sim;
    if (gisa_sim_new(isa, REGS, 1, &sim) != GISA_OK)
        return;
    gisa_sim_load(sim, &w, 1);
    state in, a, b;
    random_state(g, &in);
    int aim = aim_index(isa, w, g, &in);
    t->in_range += aim == 1;
    t->rz += aim == 2;
    t->outside += aim == 3;
    uint32_t ex = exec_mask(isa, w, &in);
    t->partial += ex && ex != 0xffffffffu;
    t->none += !ex;
    gisa_sim_fault fa, fb;
    put(sim, &in);
    gisa_sim_set_engine(sim, GISA_ENGINE_NATIVE);
    gisa_status sa = gisa_sim_run(sim, &fa);
    get(sim, &a);
    put(sim, &in);
    gisa_sim_set_engine(sim, GISA_ENGINE_DOC);
    gisa_status sb = gisa_sim_run(sim, &fb);
    get(sim, &b);
    gisa_sim_free(sim);
    t->words++;
    if (sa == GISA_OK && sb != GISA_OK) {
        if (t->doc_fault++ == 0)
            fprintf(stderr, "doc engine cannot run %s: %s\n", fb.insn, fb.message);
        return;
    }
    if (sa != GISA_OK || sb != GISA_OK) { /* a fault: the same fault from both, the same state after it */
        if (sa != sb || fa.lane != fb.lane || fa.pc != fb.pc || strcmp(fa.message, fb.message)) {
            if (t->bad++ < 3)
                fprintf(stderr, "DISAGREE %s: %s: native %s (lane %d), doc %s (lane %d)\n", op->optype->name,
                        sa != GISA_OK ? fa.insn : fb.insn, sa != GISA_OK ? fa.message : "no fault", fa.lane,
                        sb != GISA_OK ? fb.message : "no fault", fb.lane);
            return;
        }
        t->faults++;
    }
    t->lanes += 32;
    for (int i = 0; i < REGS; i++)
        for (int l = 0; l < 32; l++)
            if (a.r[i][l] != b.r[i][l]) {
                if (t->bad++ < 3)
                    report(isa, op, w, &in, &a, &b, "R", i, l);
                return;
            }
    for (int i = 0; i < 7; i++)
        for (int l = 0; l < 32; l++)
            if (a.p[i][l] != b.p[i][l]) {
                if (t->bad++ < 3)
                    report(isa, op, w, &in, &a, &b, "P", i, l);
                return;
            }
    if (memcmp(a.ur, b.ur, sizeof a.ur) || memcmp(a.up, b.up, sizeof a.up))
        t->bad++;
}

int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 60;
    gisa_isa *isa;
    CHECK(api_load_embedded("gisa128", &isa, NULL) == GISA_OK);
    if (!isa)
        return test_summary();
    tally *byot = calloc((size_t)isa->noptypes, sizeof *byot);
    tg_rng g = {20};
    /* an optype with few opcodes (R2UR, SETGPR: one) gets more words each,
     * so that every optype sees about 4 * per words */
    int *nops = calloc((size_t)isa->noptypes, sizeof *nops);
    for (int o = 0; nops && o < isa->nopcodes; o++)
        nops[isa->opcodes[o].optype - isa->optypes]++;
    for (int o = 0; nops && o < isa->nopcodes; o++) {
        const isa_opcode *op = &isa->opcodes[o];
        tally *t = &byot[op->optype - isa->optypes];
        int n = nops[op->optype - isa->optypes];
        int words = n < 4 ? per * 4 / n : per;
        for (int k = 0; k < words; k++) {
            gisa_word w;
            if (random_word(isa, op, &g, &w))
                run_one(isa, op, w, &g, t);
        }
    }
    long lanes = 0, bad = 0;
    printf("%-10s %8s %10s %6s %9s %7s %7s %5s\n", "optype", "words", "lanes", "differ", "doc-fault", "faults",
           "partial", "none");
    for (int i = 0; i < isa->noptypes; i++) {
        const tally *t = &byot[i];
        printf("%-10s %8ld %10ld %6ld %9ld %7ld %7ld %5ld\n", isa->optypes[i].name, t->words, t->lanes, t->bad,
               t->doc_fault, t->faults, t->partial, t->none);
        lanes += t->lanes;
        bad += t->bad;
    }
    printf("total: %ld lane results compared, %ld instructions disagree\n", lanes, bad);
    CHECKF(bad == 0, "%ld instructions disagree between the engines", bad);
    /* every optype runs every word under the doc engine */
    for (int i = 0; i < isa->noptypes; i++) {
        const tally *t = &byot[i];
        const char *name = isa->optypes[i].name;
        CHECKF(t->doc_fault == 0, "%s: the doc engine could not run %ld words", name, t->doc_fault);
        CHECKF(t->lanes > 0, "%s: no word was compared", name);
        CHECKF(t->partial > 0 && t->none > 0, "%s: no word ran on a partial warp (%ld) or on no lane (%ld)", name,
               t->partial, t->none);
        if (t->in_range + t->rz + t->outside) /* an indexed register: every kind of index, faults compared */
            CHECKF(t->in_range > 0 && t->rz > 0 && t->outside > 0 && t->faults > 0,
                   "%s: indexes in range %ld, RZ %ld, outside %ld (faults compared: %ld)", name, t->in_range,
                   t->rz, t->outside, t->faults);
    }
    free(nops);
    free(byot);
    gisa_isa_free(isa);
    return test_summary();
}
