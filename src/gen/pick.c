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

/* ------------------------------------------------------------ the model's view */

/* "falu" from ".../falu.isa.txt": the family is the file an optype is defined in */
static char *family_of(const isa_optype *ot)
{
    const char *f = ot->def && ot->def->loc.file ? ot->def->loc.file : "";
    const char *slash = strrchr(f, '/');
    f = slash ? slash + 1 : f;
    size_t n = strcspn(f, ".");
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++)
        s[i] = (char)(f[i] >= 'a' && f[i] <= 'z' ? f[i] - 'a' + 'A' : f[i]);
    s[n] = 0;
    return s;
}

static int add_family(gisa_gen *g, const isa_optype *ot)
{
    char *name = family_of(ot);
    if (!name)
        return -1;
    for (int i = 0; i < g->nfamilies; i++)
        if (!strcmp(g->families[i], name)) {
            free(name);
            return i;
        }
    g->families[g->nfamilies] = name;
    return g->nfamilies++;
}

/* counts[kind]: constants, uniform sources, immediates of one form */
static void count_kinds(const gisa_isa *isa, int opc, int form, int counts[3])
{
    const syntax_form *F = &isa->opcodes[opc].forms[form];
    gisa_inst probe = {.opcode = opc, .form = form};
    counts[0] = counts[1] = counts[2] = 0;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        gisa_operand o;
        gisa_inst_operand(isa, &probe, (size_t)k, &o);
        if (s->kind == OK_CMEM)
            counts[0]++;
        else if (s->kind == OK_REG && !o.written && (s->type->rclass == RC_UGPR || s->type->rclass == RC_UPRED))
            counts[1]++;
        else if (s->kind == OK_IMM)
            counts[2]++;
    }
}

/* The class of each opcode: the kind of operand it has more of than the
 * optype's other opcodes (FFMA_RRC: a constant; FFMA_RRU: a uniform
 * register; FFMA_RRI: an immediate; FFMA_RRR: none). */
static void classify(gisa_gen *g)
{
    const gisa_isa *isa = g->isa;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        int lo[3] = {1 << 20, 1 << 20, 1 << 20};
        for (int k = 0; k < ot->nopcodes; k++) {
            int c[3];
            count_kinds(isa, ot->opcodes[k], 0, c);
            for (int j = 0; j < 3; j++)
                lo[j] = c[j] < lo[j] ? c[j] : lo[j];
        }
        for (int k = 0; k < ot->nopcodes; k++) {
            int c[3];
            count_kinds(isa, ot->opcodes[k], 0, c);
            g->ops[ot->opcodes[k]].cls = c[0] > lo[0] ? CLS_C : c[1] > lo[1] ? CLS_U : c[2] > lo[2] ? CLS_I : CLS_R;
        }
    }
}

int gen_model_init(gisa_gen *g)
{
    const gisa_isa *isa = g->isa;
    g->ops = calloc((size_t)isa->nopcodes + 1, sizeof *g->ops);
    g->types = calloc((size_t)isa->noptypes + 1, sizeof *g->types);
    g->families = calloc((size_t)isa->noptypes + 1, sizeof *g->families);
    if (!g->ops || !g->types || !g->families)
        return -1;
    for (int t = 0; t < isa->noptypes; t++)
        if ((g->types[t].family = add_family(g, &isa->optypes[t])) < 0)
            return -1;
    g->max_regs = gisa_sim_max_regs(isa);
    g->cmem_banks = 64;
    g->cmem_bytes = 65536;
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        gen_opcode *go = &g->ops[i];
        go->written = calloc((size_t)op->nforms * GEN_MAX_OPS + 1, 1);
        if (!go->written)
            return -1;
        for (int f = 0; f < op->nforms; f++) {
            const syntax_form *F = &op->forms[f];
            gisa_inst probe = {.opcode = i, .form = f};
            for (int k = 0; k < F->nops && k < GEN_MAX_OPS; k++) {
                const opnd_slot *s = &F->ops[k];
                gisa_operand o;
                gisa_inst_operand(isa, &probe, (size_t)k, &o);
                go->written[f * GEN_MAX_OPS + k] = (uint8_t)o.written;
                if (s->kind == OK_REG && (s->type->rclass == RC_UGPR || s->type->rclass == RC_UPRED))
                    g->has_uniform = 1;
                if (s->kind == OK_INDEXED)
                    g->has_indexed = g->has_uniform = 1;
                if (s->kind == OK_CMEM) {
                    uint64_t banks = UINT64_C(1) << s->type->bank_bits, bytes = UINT64_C(1) << s->type->offs_w;
                    g->cmem_banks = banks < g->cmem_banks ? (unsigned)banks : g->cmem_banks;
                    g->cmem_bytes = bytes < g->cmem_bytes ? (unsigned)bytes : g->cmem_bytes;
                }
            }
        }
    }
    classify(g);
    return 0;
}

/* Marks the opcodes some attempt turns into a valid word (all of them, in
 * the shipped models), with the default options. */
void gen_model_probe(gisa_gen *g)
{
    gen_rng_seed(&g->rng, 0, 99);
    for (int i = 0; i < g->isa->nopcodes; i++) {
        gisa_inst inst;
        g->ops[i].usable = 1;
        g->ops[i].usable = gen_pick(g, i, NULL, &inst) == 0;
    }
}

void gen_model_free(gisa_gen *g)
{
    for (int i = 0; g->ops && i < g->isa->nopcodes; i++)
        free(g->ops[i].written);
    for (int i = 0; g->families && i < g->nfamilies; i++)
        free((char *)g->families[i]);
    free(g->ops);
    free(g->types);
    free(g->families);
}

/* ------------------------------------------------------------ operands */

static unsigned recent_pick(gen_rng *r, const gen_recent *rc) { return rc->v[gen_below(r, (uint64_t)rc->n)]; }

/* A register of a pool of `pool` (pairs: even, with the partner inside),
 * the zero register now and then. */
static unsigned reg_in_pool(gisa_gen *g, const gen_recent *rc, unsigned pool, unsigned zero, int pair, int written)
{
    gen_rng *r = &g->rng;
    if (zero != GEN_NO_REG && gen_below(r, 16) == 0)
        return zero;
    if (!written && rc->n && gen_chance(r, g->o.dep)) {
        unsigned v = recent_pick(r, rc);
        if (pair)
            v &= ~1u;
        if (v + (unsigned)pair < pool)
            return v;
    }
    return pair ? 2 * (unsigned)gen_below(r, pool / 2) : (unsigned)gen_below(r, pool);
}

unsigned gen_gpr_source(gisa_gen *g, int pair)
{
    return reg_in_pool(g, &g->rgpr, g->o.regs, GEN_NO_REG, pair, 0);
}

static unsigned pred_operand(gisa_gen *g, gen_recent *rc, unsigned truth, int written)
{
    gen_rng *r = &g->rng;
    if (gen_below(r, written ? 8 : 4) == 0)
        return truth;
    if (!written && rc->n && gen_chance(r, g->o.dep))
        return recent_pick(r, rc);
    return (unsigned)gen_below(r, 7);
}

/* Immediate bits of type t: the corner values of its format often,
 * otherwise values of ordinary size. */
uint64_t gen_imm_bits(gisa_gen *g, const isa_type *t)
{
    static const uint32_t f32[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000,
                                   0x7FC00000, 0x7F800001, 0xFFC00001, 0x3F800000, 0xBF800000, 0x7F7FFFFF,
                                   0x00800000, 0x3F000000, 0x40490FDB};
    static const uint32_t f64hi[] = {0x00000000, 0x80000000, 0x00000001, 0x800FFFFF, 0x7FF00000, 0xFFF00000,
                                     0x7FF80000, 0x7FF00001, 0x3FF00000, 0xBFF00000, 0x7FEFFFFF, 0x00100000};
    static const uint16_t h16[] = {0x0000, 0x8000, 0x0001, 0x83FF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3C00,
                                   0xBC00, 0x7BFF, 0x0400, 0x7F80, 0x7FC0, 0x7F81, 0x3F80, 0x7F7F, 0x0080};
    gen_rng *r = &g->rng;
    int w = t->width;
    uint64_t mask = w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1, x = gen_next(r);
    int corner = gen_below(r, 3) == 0;
    switch (t->fmt) {
    case IMM_F32: {
        uint32_t v = corner ? f32[gen_below(r, sizeof f32 / sizeof *f32)]
                            : (uint32_t)(x & 0x807FFFFF) | (uint32_t)(120 + gen_below(r, 16)) << 23;
        return (v >> (32 - (w < 32 ? w : 32))) & mask;
    }
    case IMM_F64: {
        uint32_t v = corner ? f64hi[gen_below(r, sizeof f64hi / sizeof *f64hi)]
                            : (uint32_t)(x & 0x800FFFFF) | (uint32_t)(1016 + gen_below(r, 16)) << 20;
        return (w < 32 ? v >> (32 - w) : v) & mask;
    }
    case IMM_F16X2: {
        uint64_t v = 0;
        for (int h = 0; h < 2; h++) {
            uint16_t half = gen_below(r, 2) ? h16[gen_below(r, sizeof h16 / sizeof *h16)]
                                            : (uint16_t)((gen_next(r) & 0x83FF) | (12 + gen_below(r, 6)) << 10);
            v |= (uint64_t)half << (16 * h);
        }
        return v & mask;
    }
    case IMM_SIGNED:
        if (corner)
            return (gen_below(r, 2) ? mask >> 1 : ~(mask >> 1)) & mask; /* the largest, the smallest */
        return gen_below(r, 2) ? (uint64_t)((int64_t)gen_below(r, 33) - 16) & mask : x & mask;
    case IMM_UNSIGNED:
        if (corner)
            return gen_below(r, 2) ? mask : 0;
        return gen_below(r, 2) ? gen_below(r, 32) & mask : x & mask;
    }
    return x & mask;
}

/* c[bank][offset] inside the window the state fills */
static uint64_t cmem_operand(gisa_gen *g, const isa_type *t, int pair)
{
    uint64_t align = cmem_align(t, pair), banks = gen_cbanks(g), bytes = gen_cbytes(g);
    uint64_t off = gen_below(&g->rng, bytes / align) * align;
    return cmem_pack(t, gen_below(&g->rng, banks), off);
}

/* R[URb+imm]: URb is URZ or the base register (never written; the state
 * gives it base_value, which is at most the lowest target), and the index
 * lands in R0..R(regs-1) or on RZ (255), whether or not the state was
 * loaded. */
static void indexed_operand(gisa_gen *g, const isa_opcode *op, const opnd_slot *s, uint64_t *v)
{
    gen_rng *r = &g->rng;
    unsigned regs = g->o.regs, target;
    int64_t disp;
    if (gen_below(r, 4) == 0) {
        v[s->field] = s->type->zero_value;
        target = gen_below(r, 8) == 0 ? 255 : (unsigned)gen_below(r, regs);
        disp = target;
    } else {
        v[s->field] = g->o.uregs; /* the first uniform register past the pool */
        target = g->base_value + (unsigned)gen_below(r, regs - g->base_value);
        disp = (int64_t)target - g->base_value;
    }
    if (s->index_field >= 0) {
        int w = op->fields[s->index_field].width;
        v[s->index_field] = (uint64_t)disp & (w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1);
    }
}

static void pick_operand(gisa_gen *g, const isa_opcode *op, const opnd_slot *s, int written, uint64_t *v)
{
    const isa_type *t = s->type;
    int pair = s->kind != OK_PR && opnd_is_pair(s, v);
    switch (s->kind) {
    case OK_PR: return;
    case OK_REG:
        switch (t->rclass) {
        case RC_GPR: v[s->field] = reg_in_pool(g, &g->rgpr, g->o.regs, (unsigned)t->zero_value, pair, written); break;
        case RC_UGPR: v[s->field] = reg_in_pool(g, &g->rur, g->o.uregs, (unsigned)t->zero_value, pair, written); break;
        case RC_PRED: v[s->field] = pred_operand(g, &g->rpred, (unsigned)t->zero_value, written); break;
        case RC_UPRED: v[s->field] = pred_operand(g, &g->rup, (unsigned)t->zero_value, written); break;
        }
        break;
    case OK_IMM: v[s->field] = gen_imm_bits(g, t); break;
    case OK_CMEM: v[s->field] = cmem_operand(g, t, pair); break;
    case OK_INDEXED: indexed_operand(g, op, s, v); break;
    }
    gen_rng *r = &g->rng;
    if (s->neg_field >= 0 && s->allow_neg)
        v[s->neg_field] = gen_below(r, 2);
    if (s->abs_field >= 0 && s->allow_abs)
        v[s->abs_field] = gen_below(r, 2);
    if (s->not_field >= 0 && s->allow_not)
        v[s->not_field] = gen_below(r, 2);
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

static void draw(gisa_gen *g, const isa_opcode *op, int form, const gen_modsel *req, uint64_t *v)
{
    gen_rng *r = &g->rng;
    const syntax_form *F = &op->forms[form];
    const uint8_t *written = &g->ops[op->index].written[form * GEN_MAX_OPS];
    memcpy(v, F->base, (size_t)op->nfields * sizeof *v);
    unsigned present = (unsigned)gen_next(r);
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
        uint64_t k = want >= 0 ? (uint64_t)want : gen_below(r, (uint64_t)m->nchoices + (m->optional ? 1 : 0));
        v[m->field] = k < (uint64_t)m->nchoices ? m->choices[k].value : m->absent;
    }
    for (int k = 0; k < F->nops && k < GEN_MAX_OPS; k++) {
        const opnd_slot *s = &F->ops[k];
        if (!s->group || present >> (s->group - 1) & 1)
            pick_operand(g, op, s, written[k], v);
    }
    if (op->guard >= 0 && gen_chance(r, g->o.guard)) {
        v[op->guard] = g->rpred.n && gen_chance(r, g->o.dep) ? recent_pick(r, &g->rpred) : gen_below(r, 7);
        if (op->guard_not >= 0)
            v[op->guard_not] = gen_below(r, 2);
    }
    for (int k = 0; k < 3; k++)
        if (F->ctl[k] >= 0 && gen_chance(r, g->o.ctl)) {
            int w = op->fields[F->ctl[k]].width;
            v[F->ctl[k]] = gen_next(r) & ((UINT64_C(1) << w) - 1);
        }
}

int gen_pick(gisa_gen *g, int opcode, const gen_modsel *req, gisa_inst *inst)
{
    const isa_opcode *op = &g->isa->opcodes[opcode];
    if (!g->ops[opcode].usable || op->nfields > GISA_INST_MAX_FIELDS || op->nforms < 1)
        return -1;
    uint64_t v[GISA_INST_MAX_FIELDS];
    for (int tries = 0; tries < PICK_TRIES; tries++) {
        int form = (int)gen_below(&g->rng, (uint64_t)op->nforms);
        if (op->forms[form].nops > GEN_MAX_OPS || (req && !gen_form_carries(&op->forms[form], req)))
            continue;
        draw(g, op, form, req, v);
        gisa_word w = {{0, 0}};
        for (int i = 0; i < op->nfields; i++)
            word_set(&w, op->fx[i].off, op->fx[i].width, v[i]);
        if (gisa_decode(g->isa, w, inst) == GISA_OK && inst->opcode == opcode && (!g->o.nsel || gen_mods_ok(g, inst, req)))
            return 0;
    }
    return -1;
}

/* ------------------------------------------------------------ dependencies */

void gen_note_writes(gisa_gen *g, const gisa_inst *inst)
{
    const isa_opcode *op = &g->isa->opcodes[inst->opcode];
    const syntax_form *F = &op->forms[inst->form];
    const uint8_t *written = &g->ops[inst->opcode].written[inst->form * GEN_MAX_OPS];
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
            gen_recent *rc = s->type->rclass == RC_GPR ? &g->rgpr : &g->rur;
            if (pair)
                gen_recent_push(rc, reg + 1);
            gen_recent_push(rc, reg);
            break;
        }
        case RC_PRED: gen_recent_push(&g->rpred, reg); break;
        case RC_UPRED: gen_recent_push(&g->rup, reg); break;
        }
    }
}
