/* The differential check of the engines (crosscheck.h), shared by gisa lint
 * --check-semantics and tests/unit/test_docsem.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docsem/docsem.h"
#include "sim/bind.h"
#include "sim/crosscheck.h"
#include "sim/docexec.h"

#define REGS 32

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r) /* xorshift64*, the tests' tg_rng */
{
    uint64_t x = r->s ? r->s : 0x9E3779B97F4A7C15u;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Du;
}

static uint64_t below(rng *r, uint64_t n) { return n ? next(r) % n : 0; }

static const uint32_t hard[] = {
    0,          0xffffffffu, 0x80000000u, 0x7fffffffu, 1,          0x7f800000u, 0xff800000u, 0x7fc00000u,
    0x7f800001u, 0xffc01234u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u, 0x00800000u, 0x7f7fffffu,
    0x7c00fc00u, 0x00017e01u, 0x3c00bc00u, 0x80008000u, 0x7e007c01u, 0x3f80bf80u, 0x0000ffffu, 0xffff0000u,
    0x7ff00000u, 0xfff80000u, 0x00000002u, 0x3ff00000u,
};

static uint32_t pick(rng *r)
{
    switch (below(r, 4)) {
    case 0: return hard[below(r, sizeof hard / sizeof hard[0])];
    case 1: return (uint32_t)next(r) & 0x8000ffffu; /* small magnitudes, subnormal floats */
    case 2: return 0x3f000000u + (uint32_t)below(r, 0x01000000u); /* ordinary floats near 1 */
    default: return (uint32_t)next(r);
    }
}

typedef struct state {
    uint32_t r[REGS][32];
    uint8_t p[7][32];
    uint32_t ur[63];
    uint8_t up[7];
    uint32_t active;
} state;

static void random_state(rng *g, state *s)
{
    for (int i = 0; i < REGS; i++)
        for (int l = 0; l < 32; l++)
            s->r[i][l] = pick(g);
    for (int i = 0; i < 7; i++)
        for (int l = 0; l < 32; l++)
            s->p[i][l] = (uint8_t)below(g, 2);
    for (int i = 0; i < 63; i++)
        s->ur[i] = pick(g);
    for (int i = 0; i < 7; i++)
        s->up[i] = (uint8_t)below(g, 2);
    switch (below(g, 16)) {
    case 0: s->active = 0; break;
    case 1:
    case 2: s->active = 1u << below(g, 32); break;
    case 3:
    case 4: s->active = (uint32_t)(next(g) & next(g) & next(g)); break;
    case 5:
    case 6:
    case 7: s->active = (uint32_t)next(g); break;
    default: s->active = 0xffffffffu;
    }
}

/* For an indexed operand R[URb+SImm9]: URb's value chosen so that the
 * index is a register of the file, RZ (255) or outside the file (a fault).
 * Returns the kind aimed at: 0 none (no such operand, or URb is URZ), 1 in
 * range, 2 RZ, 3 outside. */
static int aim_index(const gisa_isa *isa, const gisa_inst *in, rng *g, state *s)
{
    size_t n = gisa_inst_operand_count(isa, in);
    for (size_t i = 0; i < n; i++) {
        gisa_operand o;
        if (gisa_inst_operand(isa, in, i, &o) != GISA_OK || o.kind != GISA_OPND_INDEXED || o.is_zero || o.reg >= 63)
            continue;
        int kind = 1 + (int)below(g, 3);
        int64_t target = kind == 1 ? (int64_t)below(g, REGS) : kind == 2 ? 255
                         : below(g, 2) ? REGS + (int64_t)below(g, 200) : -1 - (int64_t)below(g, 300);
        if (target == 255)
            kind = 2;
        s->ur[o.reg] = (uint32_t)(target - o.value);
        return kind;
    }
    return 0;
}

/* the lanes that execute the word from state s: active and guarded */
static uint32_t exec_mask(const gisa_isa *isa, const gisa_inst *in, const state *s)
{
    unsigned pg;
    bool neg;
    if (gisa_inst_guard(isa, in, &pg, &neg) != GISA_OK)
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
static int random_word(const gisa_isa *isa, const isa_opcode *op, rng *g, gisa_word *w)
{
    for (int tries = 0; tries < 200; tries++) {
        gisa_word x;
        x.w[0] = (next(g) & op->covered.w[0] & ~op->mask.w[0]) | op->match.w[0];
        x.w[1] = (next(g) & op->covered.w[1] & ~op->mask.w[1] & 0x0000ffffffffffffu) | op->match.w[1];
        gisa_inst in;
        if (gisa_decode(isa, x, &in) != GISA_OK || in.opcode != op->index)
            continue;
        for (int f = 0; f < op->nfields; f++) {
            const isa_type *t = op->fields[f].type;
            if (t->kind == TY_REG && t->rclass == RC_GPR && in.field[f] != t->zero_value && !op->fields[f].fixed)
                in.field[f] = 2 * below(g, REGS / 2);
        }
        if (gisa_encode(isa, &in, w) == GISA_OK)
            return 1;
    }
    return 0;
}

/* The pre-decoded word of a native run bound to the caller's entry instead
 * of the simulator's own (the same modifiers and suffixes: an altered copy
 * of an entry). 0 when the caller's entry reads other names. */
static int rebind(gisa_sim *sim, const sim_opdef *mine)
{
    if (sim_prepare(sim, 0) != GISA_OK)
        return 0;
    sim_insn *in = &sim->prog[0];
    if (!in->def || in->def == mine || in->doc)
        return 1;
    if (mine->mods != in->def->mods || mine->nmods != in->def->nmods || mine->sels != in->def->sels ||
        mine->nsels != in->def->nsels)
        return 0;
    in->def = mine;
    sim_hot_refresh(sim, 0);
    return 1;
}

/* the registers the instruction names, as they were in lane `lane` */
static void inputs(const gisa_isa *isa, const gisa_inst *inst, const state *in, int lane, strbuf *out)
{
    size_t n = gisa_inst_operand_count(isa, inst);
    sb_puts(out, "  inputs:");
    for (size_t i = 0; i < n; i++) {
        gisa_operand o;
        if (gisa_inst_operand(isa, inst, i, &o) != GISA_OK || o.is_zero)
            continue;
        for (unsigned k = 0; k <= (unsigned)o.pair; k++) {
            unsigned r = o.reg + k;
            if ((o.kind == GISA_OPND_REG || o.kind == GISA_OPND_PAIR) && r < REGS)
                sb_printf(out, " R%u=0x%08x", r, in->r[r][lane]);
            else if ((o.kind == GISA_OPND_UREG || o.kind == GISA_OPND_UPAIR || o.kind == GISA_OPND_INDEXED) && r < 63)
                sb_printf(out, " UR%u=0x%08x", r, in->ur[r]);
            else if (o.kind == GISA_OPND_PRED && r < 7 && !k)
                sb_printf(out, " P%u=%d", r, in->p[r][lane]);
            else if (o.kind == GISA_OPND_UPRED && r < 7 && !k)
                sb_printf(out, " UP%u=%d", r, in->up[r]);
        }
    }
    sb_printf(out, " (lane %s)\n", in->active >> lane & 1 ? "active" : "inactive");
}

static void describe(const gisa_isa *isa, const gisa_inst *inst, const state *in, const state *a, const state *b,
                     const char *what, int idx, int lane, strbuf *out)
{
    char text[200];
    const isa_optype *ot = isa->opcodes[inst->opcode].optype;
    if (!isa->tools.print || isa->tools.print(isa, inst, text, sizeof text) != GISA_OK)
        snprintf(text, sizeof text, "%s", isa->opcodes[inst->opcode].name);
    uint32_t na, nb;
    if (what[0] == 'R' && what[1] == 0) {
        na = a->r[idx][lane];
        nb = b->r[idx][lane];
    } else if (what[0] == 'P') {
        na = a->p[idx][lane];
        nb = b->p[idx][lane];
    } else if (what[1] == 'R') {
        na = a->ur[idx];
        nb = b->ur[idx];
    } else {
        na = a->up[idx];
        nb = b->up[idx];
    }
    sb_printf(out, "DISAGREE %s: %s lane %d: %s%d native 0x%08x doc 0x%08x\n", ot->name, text, lane, what, idx, na,
              nb);
    inputs(isa, inst, in, lane, out);
    const ds_optype *sem = ds_optype_of(isa, ot);
    for (int i = 0; sem && i < sem->npatches; i++)
        sb_printf(out, "  patch %s:%d: %s (%s)\n", sem->patches[i].loc.file, sem->patches[i].loc.line,
                  sem->patches[i].what, sem->patches[i].reason);
}

/* the first difference of the states: 1 with what/idx/lane set */
static int first_difference(const state *a, const state *b, const char **what, int *idx, int *lane)
{
    for (int i = 0; i < REGS; i++)
        for (int l = 0; l < 32; l++)
            if (a->r[i][l] != b->r[i][l]) {
                *what = "R", *idx = i, *lane = l;
                return 1;
            }
    for (int i = 0; i < 7; i++)
        for (int l = 0; l < 32; l++)
            if (a->p[i][l] != b->p[i][l]) {
                *what = "P", *idx = i, *lane = l;
                return 1;
            }
    for (int i = 0; i < 63; i++)
        if (a->ur[i] != b->ur[i]) {
            *what = "UR", *idx = i, *lane = 0;
            return 1;
        }
    for (int i = 0; i < 7; i++)
        if (a->up[i] != b->up[i]) {
            *what = "UP", *idx = i, *lane = 0;
            return 1;
        }
    return 0;
}

typedef struct ctx {
    const gisa_isa *isa;
    const sim_xc_options *o;
    strbuf *report;
    state in, a, b; /* the input state and each engine's result */
} ctx;

static void run_one(ctx *c, const sim_opdef *mine, gisa_word w, rng *g, sim_xc_tally *t)
{
    const gisa_isa *isa = c->isa;
    gisa_inst inst;
    gisa_sim *sim;
    if (gisa_decode(isa, w, &inst) != GISA_OK || gisa_sim_new(isa, REGS, 1, &sim) != GISA_OK)
        return;
    sim->native_unchecked = 1; /* an edited optype's C function is what is checked */
    gisa_sim_load(sim, &w, 1);
    random_state(g, &c->in);
    int aim = aim_index(isa, &inst, g, &c->in);
    t->in_range += aim == 1;
    t->rz += aim == 2;
    t->outside += aim == 3;
    uint32_t ex = exec_mask(isa, &inst, &c->in);
    t->partial += ex && ex != 0xffffffffu;
    t->none += !ex;
    gisa_sim_fault fa, fb;
    put(sim, &c->in);
    gisa_sim_set_engine(sim, GISA_ENGINE_NATIVE);
    gisa_status sa = rebind(sim, mine) ? gisa_sim_run(sim, &fa) : GISA_ERR_USAGE;
    get(sim, &c->a);
    put(sim, &c->in);
    gisa_sim_set_engine(sim, GISA_ENGINE_DOC);
    gisa_status sb = gisa_sim_run(sim, &fb);
    get(sim, &c->b);
    gisa_sim_free(sim);
    t->words++;
    if (sa == GISA_ERR_USAGE) {
        if (t->bad++ < c->o->reports && c->report)
            sb_printf(c->report, "DISAGREE %s: the C entry given reads other modifiers than the simulator's\n",
                      mine->optype);
        return;
    }
    if (sa == GISA_OK && sb != GISA_OK) {
        if (t->doc_fault++ == 0 && c->report)
            sb_printf(c->report, "doc engine cannot run %s: %s\n", fb.insn, fb.message);
        return;
    }
    if (sa != GISA_OK || sb != GISA_OK) { /* a fault: the same fault from both, the same state after it */
        if (sa != sb || fa.lane != fb.lane || fa.pc != fb.pc || strcmp(fa.message, fb.message)) {
            if (t->bad++ < c->o->reports && c->report)
                sb_printf(c->report, "DISAGREE %s: %s: native %s (lane %d), doc %s (lane %d)\n",
                          isa->opcodes[inst.opcode].optype->name, sa != GISA_OK ? fa.insn : fb.insn,
                          sa != GISA_OK ? fa.message : "no fault", fa.lane, sb != GISA_OK ? fb.message : "no fault",
                          fb.lane);
            return;
        }
        t->faults++;
    }
    t->lanes += 32;
    const char *what;
    int idx, lane;
    if (first_difference(&c->a, &c->b, &what, &idx, &lane) && t->bad++ < c->o->reports && c->report)
        describe(isa, &inst, &c->in, &c->a, &c->b, what, idx, lane, c->report);
}

long sim_crosscheck(const gisa_isa *isa, const sim_opdef *const *families, size_t nfamilies,
                    const sim_xc_options *o, sim_xc_tally *tally, strbuf *report)
{
    ctx *c = calloc(1, sizeof *c);
    sim_xc_tally *own = tally ? NULL : calloc((size_t)(isa->noptypes ? isa->noptypes : 1), sizeof *own);
    int *nops = calloc((size_t)(isa->noptypes ? isa->noptypes : 1), sizeof *nops);
    if (!c || !nops || (!tally && !own)) {
        free(c);
        free(own);
        free(nops);
        return -1;
    }
    if (!tally)
        tally = own;
    memset(tally, 0, sizeof *tally * (size_t)isa->noptypes);
    c->isa = isa;
    c->o = o;
    c->report = report;
    rng g = {o->seed};
    /* an optype with few opcodes (R2UR, SETGPR: one) gets more words each,
     * so that every optype sees about 4 * words words */
    for (int op = 0; op < isa->nopcodes; op++)
        nops[isa->opcodes[op].optype - isa->optypes]++;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        const ds_optype *sem = ds_optype_of(isa, ot);
        tally[t].skipped = !sim_find_opdef_in(families, nfamilies, ot->semantics) || !sem || !sem->nlines ||
                           (o->only && strcmp(o->only, ot->name));
    }
    long bad = 0;
    for (int op = 0; op < isa->nopcodes; op++) {
        const isa_opcode *opc = &isa->opcodes[op];
        int t = (int)(opc->optype - isa->optypes), n = nops[t];
        if (tally[t].skipped)
            continue;
        const sim_opdef *mine = sim_find_opdef_in(families, nfamilies, opc->optype->semantics);
        int words = n < 4 ? o->words * 4 / n : o->words;
        for (int k = 0; k < words; k++) {
            gisa_word w;
            if (random_word(isa, opc, &g, &w))
                run_one(c, mine, w, &g, &tally[t]);
        }
    }
    for (int t = 0; t < isa->noptypes; t++)
        bad += tally[t].bad + tally[t].doc_fault;
    free(nops);
    free(own);
    free(c);
    return bad;
}

void sim_xc_summary(const gisa_isa *isa, const sim_xc_tally *tally, strbuf *out)
{
    long lanes = 0, bad = 0, n = 0;
    sb_printf(out, "%-10s %8s %10s %6s %9s %7s %7s %5s\n", "optype", "words", "lanes", "differ", "doc-fault", "faults",
              "partial", "none");
    for (int i = 0; i < isa->noptypes; i++) {
        const sim_xc_tally *t = &tally[i];
        if (t->skipped)
            continue;
        sb_printf(out, "%-10s %8ld %10ld %6ld %9ld %7ld %7ld %5ld\n", isa->optypes[i].name, t->words, t->lanes, t->bad,
                  t->doc_fault, t->faults, t->partial, t->none);
        lanes += t->lanes;
        bad += t->bad + t->doc_fault;
        n++;
    }
    sb_printf(out, "total: %ld lane results compared over %ld optypes, %ld instructions disagree\n", lanes, n, bad);
}
