/* One random instruction, built from the model the way the documents
 * define one: a syntax form of the opcode, a value for each modifier it
 * offers, an operand for each slot (inside the register pools, reading a
 * recent destination at the dependency rate), decorations, a guard. The
 * decoder judges the word (pinned bits, pairs, alignment, __Exception
 * rules); a word it refuses is drawn again. What keeps the program from
 * faulting in the simulator is here too: registers below --regs, and
 * R[URb+imm] indices that land inside the register file. */
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "spec/decoder.h"

#define PICK_TRIES 64 /* attempts per opcode before giving up on it */

/* ------------------------------------------------------------ operands */

static unsigned recent_pick(gen_rng *rng, const gen_recent *rc) { return rc->v[gen_below(rng, (uint64_t)rc->n)]; }

/* A register of a pool of `pool` (pairs: even, with the partner inside),
 * the zero register now and then. */
static unsigned reg_in_pool(const gisa_gen *g, gen_run *r, const gen_recent *rc, unsigned pool, unsigned zero, int pair, int written)
{
    gen_rng *rng = &r->rng;
    if (zero != GEN_NO_REG && gen_below(rng, 16) == 0)
        return zero;
    if (!written && rc->n && gen_chance(rng, g->o.dep)) {
        unsigned v = recent_pick(rng, rc);
        if (pair)
            v &= ~1u;
        if (v + (unsigned)pair < pool)
            return v;
    }
    return pair ? 2 * (unsigned)gen_below(rng, pool / 2) : (unsigned)gen_below(rng, pool);
}

unsigned gen_gpr_source(const gisa_gen *g, gen_run *r, int pair)
{
    return reg_in_pool(g, r, &r->rgpr, g->o.regs, GEN_NO_REG, pair, 0);
}

static unsigned pred_operand(const gisa_gen *g, gen_run *r, gen_recent *rc, unsigned truth, int written)
{
    gen_rng *rng = &r->rng;
    if (gen_below(rng, written ? 8 : 4) == 0)
        return truth;
    if (!written && rc->n && gen_chance(rng, g->o.dep))
        return recent_pick(rng, rc);
    return (unsigned)gen_below(rng, 7);
}

/* Immediate bits of type t: the corner values of its format often,
 * otherwise values of ordinary size; integers by --int-values when given. */
uint64_t gen_imm_bits(const gisa_gen *g, gen_run *r, const isa_type *t)
{
    static const uint32_t f32[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000,
                                   0x7FC00000, 0x7F800001, 0xFFC00001, 0x3F800000, 0xBF800000, 0x7F7FFFFF,
                                   0x00800000, 0x3F000000, 0x40490FDB};
    static const uint32_t f64hi[] = {0x00000000, 0x80000000, 0x00000001, 0x800FFFFF, 0x7FF00000, 0xFFF00000,
                                     0x7FF80000, 0x7FF00001, 0x3FF00000, 0xBFF00000, 0x7FEFFFFF, 0x00100000};
    static const uint16_t h16[] = {0x0000, 0x8000, 0x0001, 0x83FF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3C00,
                                   0xBC00, 0x7BFF, 0x0400, 0x7F80, 0x7FC0, 0x7F81, 0x3F80, 0x7F7F, 0x0080};
    gen_rng *rng = &r->rng;
    int w = t->width;
    if ((t->fmt == IMM_SIGNED || t->fmt == IMM_UNSIGNED) && g->o.values_given[VS_IMM])
        return gen_value_of_class(rng, g->o.values[VS_IMM], w, t->fmt == IMM_SIGNED);
    uint64_t mask = w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1, x = gen_next(rng);
    int corner = gen_below(rng, 3) == 0;
    switch (t->fmt) {
    case IMM_F32: {
        uint32_t v = corner ? f32[gen_below(rng, sizeof f32 / sizeof *f32)]
                            : (uint32_t)(x & 0x807FFFFF) | (uint32_t)(120 + gen_below(rng, 16)) << 23;
        return (v >> (32 - (w < 32 ? w : 32))) & mask;
    }
    case IMM_F64: {
        uint32_t v = corner ? f64hi[gen_below(rng, sizeof f64hi / sizeof *f64hi)]
                            : (uint32_t)(x & 0x800FFFFF) | (uint32_t)(1016 + gen_below(rng, 16)) << 20;
        return (w < 32 ? v >> (32 - w) : v) & mask;
    }
    case IMM_F16X2: {
        uint64_t v = 0;
        for (int h = 0; h < 2; h++) {
            uint16_t half = gen_below(rng, 2) ? h16[gen_below(rng, sizeof h16 / sizeof *h16)]
                                            : (uint16_t)((gen_next(rng) & 0x83FF) | (12 + gen_below(rng, 6)) << 10);
            v |= (uint64_t)half << (16 * h);
        }
        return v & mask;
    }
    case IMM_SIGNED:
        if (corner)
            return (gen_below(rng, 2) ? mask >> 1 : ~(mask >> 1)) & mask; /* the largest, the smallest */
        return gen_below(rng, 2) ? (uint64_t)((int64_t)gen_below(rng, 33) - 16) & mask : x & mask;
    case IMM_UNSIGNED:
        if (corner)
            return gen_below(rng, 2) ? mask : 0;
        return gen_below(rng, 2) ? gen_below(rng, 32) & mask : x & mask;
    }
    return x & mask;
}

/* c[bank][offset] inside the window the state fills */
static uint64_t cmem_operand(const gisa_gen *g, gen_run *r, const isa_type *t, int pair)
{
    uint64_t align = cmem_align(t, pair), banks = gen_cbanks(g), bytes = gen_cbytes(g);
    uint64_t off = gen_below(&r->rng, bytes / align) * align;
    return cmem_pack(t, gen_below(&r->rng, banks), off);
}

/* R[URb+imm]: URb is URZ or the base register (never written; the state
 * gives it base_value, which is at most the lowest target), and the index
 * lands in R0..R(regs-1) or on RZ (255), whether or not the state was
 * loaded. */
static void indexed_operand(const gisa_gen *g, gen_run *r, const isa_opcode *op, const opnd_slot *s, uint64_t *v)
{
    gen_rng *rng = &r->rng;
    unsigned regs = g->o.regs, target;
    int64_t disp;
    if (gen_below(rng, 4) == 0) {
        v[s->field] = s->type->zero_value;
        target = gen_below(rng, 8) == 0 ? 255 : (unsigned)gen_below(rng, regs);
        disp = target;
    } else {
        v[s->field] = g->o.uregs; /* the first uniform register past the pool */
        target = r->base_value + (unsigned)gen_below(rng, regs - r->base_value);
        disp = (int64_t)target - r->base_value;
    }
    if (s->index_field >= 0) {
        int w = op->fields[s->index_field].width;
        v[s->index_field] = (uint64_t)disp & (w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1);
    }
}

static void pick_operand(const gisa_gen *g, gen_run *r, const isa_opcode *op, const opnd_slot *s, int written, uint64_t *v)
{
    const isa_type *t = s->type;
    int pair = s->kind != OK_PR && opnd_is_pair(s, v);
    switch (s->kind) {
    case OK_PR: return;
    case OK_REG:
        switch (t->rclass) {
        case RC_GPR: v[s->field] = reg_in_pool(g, r, &r->rgpr, g->o.regs, (unsigned)t->zero_value, pair, written); break;
        case RC_UGPR: v[s->field] = reg_in_pool(g, r, &r->rur, g->o.uregs, (unsigned)t->zero_value, pair, written); break;
        case RC_PRED: v[s->field] = pred_operand(g, r, &r->rpred, (unsigned)t->zero_value, written); break;
        case RC_UPRED: v[s->field] = pred_operand(g, r, &r->rup, (unsigned)t->zero_value, written); break;
        }
        break;
    case OK_IMM: v[s->field] = gen_imm_bits(g, r, t); break;
    case OK_CMEM: v[s->field] = cmem_operand(g, r, t, pair); break;
    case OK_INDEXED: indexed_operand(g, r, op, s, v); break;
    }
    gen_rng *rng = &r->rng;
    if (s->neg_field >= 0 && s->allow_neg)
        v[s->neg_field] = gen_below(rng, 2);
    if (s->abs_field >= 0 && s->allow_abs)
        v[s->abs_field] = gen_below(rng, 2);
    if (s->not_field >= 0 && s->allow_not)
        v[s->not_field] = gen_below(rng, 2);
}

/* Field values for one attempt at form F (uniform choices everywhere, the
 * pools and rates of the options). */
static int choice_wanted(const mod_choice *c, const gen_modsel *req)
{
    for (int i = 0; req && i < req->nmods; i++)
        if (c->id == req->ids[i])
            return 1;
    return 0;
}

static void draw(const gisa_gen *g, gen_run *r, const isa_opcode *op, int form, const gen_modsel *req, uint64_t *v)
{
    gen_rng *rng = &r->rng;
    const syntax_form *F = &op->forms[form];
    const uint8_t *written = &g->t.ops[op->index].written[form * GEN_MAX_OPS];
    memcpy(v, F->base, (size_t)op->nfields * sizeof *v);
    unsigned present = (unsigned)gen_next(rng);
    for (int j = 0; j < F->nmods; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->field < 0) /* no field encodes it */
            continue;
        if (m->operand >= 0 && F->ops[m->operand].group && !(present >> (F->ops[m->operand].group - 1) & 1))
            continue; /* the suffix of an omitted operand */
        int want = -1; /* a value the entry asks for */
        for (int c = 0; req && m->operand < 0 && c < m->nchoices && want < 0; c++)
            if (choice_wanted(&m->choices[c], req))
                want = c;
        uint64_t k = want >= 0 ? (uint64_t)want : gen_below(rng, (uint64_t)m->nchoices + (m->optional ? 1 : 0));
        v[m->field] = k < (uint64_t)m->nchoices ? m->choices[k].value : m->absent;
    }
    for (int k = 0; k < F->nops && k < GEN_MAX_OPS; k++) {
        const opnd_slot *s = &F->ops[k];
        if (!s->group || present >> (s->group - 1) & 1)
            pick_operand(g, r, op, s, written[k], v);
    }
    if (op->guard >= 0 && gen_chance(rng, g->o.guard)) {
        v[op->guard] = r->rpred.n && gen_chance(rng, g->o.dep) ? recent_pick(rng, &r->rpred) : gen_below(rng, 7);
        if (op->guard_not >= 0)
            v[op->guard_not] = gen_below(rng, 2);
    }
    for (int k = 0; k < 3; k++)
        if (F->ctl[k] >= 0 && gen_chance(rng, g->o.ctl)) {
            int w = op->fields[F->ctl[k]].width;
            v[F->ctl[k]] = gen_next(rng) & ((UINT64_C(1) << w) - 1);
        }
}

int gen_pick(const gisa_gen *g, gen_run *r, int opcode, const gen_modsel *req, gisa_inst *inst)
{
    const isa_opcode *op = &g->t.isa->opcodes[opcode];
    if (!g->t.ops[opcode].usable || op->nfields > GISA_INST_MAX_FIELDS || op->nforms < 1)
        return -1;
    uint64_t v[GISA_INST_MAX_FIELDS];
    for (int tries = 0; tries < PICK_TRIES; tries++) {
        int form = (int)gen_below(&r->rng, (uint64_t)op->nforms);
        if (op->forms[form].nops > GEN_MAX_OPS || (req && !gen_form_carries(&op->forms[form], req)))
            continue;
        draw(g, r, op, form, req, v);
        gisa_word w = {{0, 0}};
        for (int i = 0; i < op->nfields; i++)
            word_set(&w, op->fx[i].off, op->fx[i].width, v[i]);
        if (gisa_decode(g->t.isa, w, inst) == GISA_OK && inst->opcode == opcode && (!g->o.nsel || gen_mods_ok(g, inst, req)))
            return 0;
    }
    return -1;
}

/* ------------------------------------------------------------ dependencies */

void gen_note_writes(const gen_tables *t, gen_run *r, const gisa_inst *inst)
{
    const isa_opcode *op = &t->isa->opcodes[inst->opcode];
    const syntax_form *F = &op->forms[inst->form];
    const uint8_t *written = &t->ops[inst->opcode].written[inst->form * GEN_MAX_OPS];
    for (int k = 0; k < F->nops && k < GEN_MAX_OPS; k++) {
        const opnd_slot *s = &F->ops[k];
        /* an omitted operand holds its absent value, a zero register */
        if (!written[k] || s->kind != OK_REG || inst->field[s->field] == s->type->zero_value)
            continue;
        unsigned reg = (unsigned)inst->field[s->field];
        int pair = opnd_is_pair(s, inst->field);
        switch (s->type->rclass) {
        case RC_GPR:
        case RC_UGPR: {
            gen_recent *rc = s->type->rclass == RC_GPR ? &r->rgpr : &r->rur;
            if (pair)
                gen_recent_push(rc, reg + 1);
            gen_recent_push(rc, reg);
            break;
        }
        case RC_PRED: gen_recent_push(&r->rpred, reg); break;
        case RC_UPRED: gen_recent_push(&r->rup, reg); break;
        }
    }
}
