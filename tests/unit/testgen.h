/* Random VALID instruction words generated straight from the instruction
 * model (spec/model.h), shared by test_roundtrip, test_placement,
 * test_asm_inplace, test_random_words and test_inst. Header-only (static
 * functions): every test_*.c is its own executable and only testlib.c is
 * linked in.
 *
 * A word is built the way the documents define one: every field starts at
 * its "absent" value (fixed / default, else the zero register), then each
 * modifier slot, optional operand group, operand, decoration, guard and
 * scheduling control the syntax form offers gets a random LEGAL value (from
 * testlib.h's tg_rng). The generator never looks at the assembler or
 * disassembler. */
#ifndef GISA_TESTGEN_H
#define GISA_TESTGEN_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "spec/model.h"
#include "testlib.h"

#define TG_MAXF 64
#define TG_MAXMODS 32

static inline uint64_t tg_mask(int w) { return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1; }

/* The value of a field the chosen form leaves out (SPEC-RULINGS: default,
 * else the zero register RZ/URZ/PT, else 0). */
static inline uint64_t tg_absent(const isa_field *f)
{
    if (f->fixed || f->has_default)
        return f->value;
    return f->type && f->type->kind == TY_REG ? f->type->zero_value : 0;
}

static inline int tg_is_pair(const opnd_slot *s, const uint64_t *vals)
{
    return s->bitwidth && expr_eval(s->bitwidth, vals) == 64;
}

/* A legal register number; pairs are even with a partner below the zero
 * register, or the zero register itself. */
static inline uint64_t tg_reg(tg_rng *r, const isa_type *t, int pair)
{
    uint64_t z = t->zero_value;
    if (tg_below(r, 8) == 0)
        return z;
    if (pair)
        return 2 * tg_below(r, (z - 1) / 2);
    return tg_below(r, z);
}

/* Immediate bits: special values (NaNs, infinities, zeros, subnormals)
 * often, otherwise random bits of the field's width. */
static inline uint64_t tg_imm(tg_rng *r, const isa_type *t)
{
    static const uint64_t f32[] = {0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0x7FFFFFFF, 0x7F800000, 0xFF800000,
                                   0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x3F800000, 0x405A7EFA};
    static const uint64_t f64hi[] = {0x7FF80000, 0x7FF00001, 0xFFFFFFFF, 0x7FF00000, 0xFFF00000,
                                     0x00000000, 0x80000000, 0x00000001, 0x3FF00000, 0xBFD00000};
    static const uint64_t h16[] = {0x7E00, 0x7C01, 0xFFFF, 0x7FFF, 0x7C00, 0xFC00, 0x0000, 0x8000,
                                   0x0001, 0x3C00, 0x7FC0, 0x7F81, 0x7F80, 0x3F80, 0x7BFF};
    int w = t->width;
    if (tg_below(r, 3) == 0) {
        switch (t->fmt) {
        case IMM_F32: return f32[tg_below(r, sizeof f32 / sizeof *f32)] >> (32 - w);
        case IMM_F64: return f64hi[tg_below(r, sizeof f64hi / sizeof *f64hi)] & tg_mask(w);
        case IMM_F16X2:
            return (h16[tg_below(r, sizeof h16 / sizeof *h16)] << 16 | h16[tg_below(r, sizeof h16 / sizeof *h16)]) &
                   tg_mask(w);
        case IMM_SIGNED: return (uint64_t)((int64_t)tg_below(r, 33) - 16) & tg_mask(w);
        case IMM_UNSIGNED: return tg_below(r, 2) ? 0 : tg_mask(w);
        }
    }
    return tg_next(r) & tg_mask(w);
}

typedef struct tg_word {
    gisa_word w;
    uint64_t vals[TG_MAXF];
    int pick[TG_MAXMODS]; /* per mod slot: choice index, -1 omitted, -2 not encodable */
    int exception;        /* index of the __Exception that holds, or -1 */
    int mask_ok;          /* the word satisfies the form's mask/match */
} tg_word;

/* Builds word number `idx` of form F of op. The first words of a form cycle
 * through every choice of every slot (so each is tried), later ones are random. */
static inline void tg_generate(const isa_opcode *op, const syntax_form *F, tg_rng *r, int idx, tg_word *g)
{
    uint64_t *v = g->vals;
    for (int i = 0; i < op->nfields && i < TG_MAXF; i++)
        v[i] = tg_absent(&op->fields[i]);
    unsigned present = 0;
    for (int k = 0; k < F->ngroups; k++)
        if (idx < 4 ? (idx >> (k & 1)) & 1 : tg_below(r, 2))
            present |= 1u << k;
    for (int j = 0; j < F->nmods && j < TG_MAXMODS; j++) {
        const mod_slot *m = &F->mods[j];
        g->pick[j] = -2;
        if (m->field < 0) /* no field encodes it (HALU .rnd, .F32) */
            continue;
        if (m->operand >= 0 && F->ops[m->operand].group && !(present & (1u << (F->ops[m->operand].group - 1))))
            continue; /* suffix of an omitted operand */
        int options = m->nchoices + (m->optional ? 1 : 0);
        int k = idx < 2 * options ? (idx + j) % options : (int)tg_below(r, (uint64_t)options);
        g->pick[j] = k < m->nchoices ? k : -1;
        v[m->field] = k < m->nchoices ? m->choices[k].value : m->absent;
    }
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        if (s->group && !(present & (1u << (s->group - 1))))
            continue;
        const isa_type *t = s->type;
        switch (s->kind) {
        case OK_PR: continue;
        case OK_REG: v[s->field] = tg_reg(r, t, tg_is_pair(s, v)); break;
        case OK_IMM: v[s->field] = tg_imm(r, t); break;
        case OK_CMEM: {
            uint64_t align = (uint64_t)t->align * (tg_is_pair(s, v) ? 2 : 1);
            uint64_t off = tg_below(r, 2) ? tg_below(r, 64) * align : tg_below(r, (UINT64_C(1) << t->offs_w) / align) * align;
            v[s->field] = cmem_pack(t, tg_below(r, UINT64_C(1) << t->bank_bits), off);
            break;
        }
        case OK_INDEXED:
            v[s->field] = tg_reg(r, t, 0);
            if (s->index_field >= 0)
                v[s->index_field] = tg_next(r) & tg_mask(op->fields[s->index_field].width);
            break;
        }
        if (s->neg_field >= 0 && s->allow_neg)
            v[s->neg_field] = tg_below(r, 2);
        if (s->abs_field >= 0 && s->allow_abs)
            v[s->abs_field] = tg_below(r, 2);
        if (s->not_field >= 0 && s->allow_not)
            v[s->not_field] = tg_below(r, 2);
    }
    if (op->guard >= 0) {
        v[op->guard] = tg_below(r, 2) ? op->fields[op->guard].type->zero_value : tg_below(r, 8);
        if (op->guard_not >= 0)
            v[op->guard_not] = tg_below(r, 4) == 0;
    }
    for (int k = 0; k < 3; k++)
        if (F->ctl[k] >= 0)
            v[F->ctl[k]] = tg_below(r, 2) ? tg_next(r) & tg_mask(op->fields[F->ctl[k]].width) : 0;
    memset(&g->w, 0, sizeof g->w);
    for (int i = 0; i < op->nfields && i < TG_MAXF; i++)
        word_set(&g->w, op->fields[i].off, op->fields[i].width, v[i]);
    g->mask_ok = !((g->w.w[0] ^ F->match.w[0]) & F->mask.w[0]) && !((g->w.w[1] ^ F->match.w[1]) & F->mask.w[1]);
    g->exception = -1;
    for (int e = 0; e < op->nexceptions && g->exception < 0; e++)
        if (expr_eval(op->exceptions[e].cond, v))
            g->exception = e;
}

/* n random words that decode, of any opcode and form (a random program) */
static inline void tg_program(const gisa_isa *isa, tg_rng *r, gisa_word *words, size_t n)
{
    for (size_t i = 0; i < n;) {
        const isa_opcode *op = &isa->opcodes[tg_below(r, (uint64_t)isa->nopcodes)];
        const syntax_form *F = &op->forms[tg_below(r, (uint64_t)op->nforms)];
        tg_word g;
        tg_generate(op, F, r, (int)tg_below(r, 1000), &g);
        gisa_inst inst;
        if (gisa_decode(isa, g.w, &inst) == GISA_OK)
            words[i++] = g.w;
    }
}

static inline int tg_word_eq(gisa_word a, gisa_word b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }

/* The word as the disassembler's `.invalid 0x...` prints it: 16 or 32 digits. */
static inline void tg_hex(const gisa_isa *isa, gisa_word w, char out[33])
{
    if (isa->word_bits == 64)
        snprintf(out, 33, "%016llx", (unsigned long long)w.w[0]);
    else
        snprintf(out, 33, "%016llx%016llx", (unsigned long long)w.w[1], (unsigned long long)w.w[0]);
}
#endif
