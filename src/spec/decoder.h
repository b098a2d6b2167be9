/* The decoder: word -> gisa_inst, the only judge of whether a word is an
 * instruction. Built once per model when it is loaded (decoder.c): per
 * opcode the readers of its fields, per syntax form the rules a word must
 * meet for the form to express it (its pinned bits, the values its
 * modifiers can spell, the names of enumerations, register pairs, constant
 * alignment, the opcode's __Exception conditions), tabulated where they
 * read few bits. The printer, assembler and simulator trust what it
 * accepts. */
#ifndef GISA_SPEC_DECODER_H
#define GISA_SPEC_DECODER_H
#include "spec/fields.h"

/* How a form treats a modifier field's value: it cannot express it, it
 * leaves it unwritten (the default, or an omitted optional), or it writes
 * choice number (code - MOD_TEXT). */
enum { MOD_REJECT = 0, MOD_SILENT = 1, MOD_TEXT = 2 };
int mod_code(const mod_slot *m, uint64_t v);

#define LEGAL_MOD_CODES 16 /* field values with a pre-computed verdict: those below 16 */

typedef struct legal_mod {
    const mod_slot *slot; /* values beyond the table (wide fields) are judged by mod_code */
    uint16_t ok;          /* bit v: the value v < ncodes is accepted */
    uint8_t field, ncodes;
} legal_mod;

typedef struct legal_named { /* a free field whose enumeration leaves values unnamed */
    const uint8_t *named;    /* the type's table: 1 for named values */
    uint8_t field, width;
} legal_named;

typedef struct legal_opnd { /* an operand with a rule: a register pair, a constant */
    const opnd_slot *slot;
    const isa_type *type;
    field_pred pair_of;     /* Bitwidth == 64, when not constant */
    int8_t pair;            /* 1 / 0: a constant Bitwidth; -1: ask pair_of */
    uint8_t kind, field;
} legal_opnd;

typedef struct legal_form {
    gisa_word mask, match;   /* the form's pinned bits */
    const legal_mod *mods;   /* [nmods] every modifier with a field */
    const legal_named *named;
    const legal_opnd *checked;
    uint8_t nmods, nnamed, nchecked;
} legal_form;

typedef struct legal_opcode {
    gisa_word covered;
    field_reads all;         /* x NULL when the opcode has too many fields to decode */
    const legal_form *forms; /* [nforms] */
    field_pred raised;       /* an __Exception holds */
    uint8_t nforms, exceptions;
} legal_opcode;

typedef struct decoder {
    legal_opcode *op; /* [nopcodes] */
} decoder;

/* Builds isa->decoder; 0 or -1 (out of memory). */
int decoder_build(gisa_isa *isa);

/* Whether a register operand is a 64-bit pair for these field values. */
int opnd_is_pair(const opnd_slot *s, const uint64_t *vals);

static inline int legal_pinned(const legal_form *lf, const gisa_word *w)
{
    return !((w->w[0] ^ lf->match.w[0]) & lf->mask.w[0]) && !((w->w[1] ^ lf->match.w[1]) & lf->mask.w[1]);
}

/* A 64-bit register operand needs an even register with a partner. */
static inline int reg_pair_bad(const isa_type *t, uint64_t v)
{
    return v != t->zero_value && ((v & 1) || v + 1 >= t->zero_value);
}

static inline uint64_t cmem_align(const isa_type *t, int pair) { return (uint64_t)t->align * (pair ? 2 : 1); }

/* A constant operand: aligned (unless the type only warns about it), and no
 * bits outside bank and offset. */
static inline int cmem_bad(const isa_type *t, uint64_t v, int pair)
{
    return (cmem_offset(t, v) % cmem_align(t, pair) != 0 && !t->misaligned_warn) || (v & ~cmem_used(t)) != 0;
}

/* Where an operand's decorations are encoded: the one description of them
 * that the printer, the assembler, the accessors and the simulator share.
 * The values they stand for are GISA_DECO_* bits (deco_of). */
typedef struct deco_fields {
    uint64_t inv_value;         /* '-' reads '~' (CvtINegX) when vals[inv] equals it */
    uint8_t neg, abs, not_, inv; /* field indices, SPEC_NONE when absent */
} deco_fields;

static inline uint8_t field_or_none(int field) { return field >= 0 ? (uint8_t)field : SPEC_NONE; }

static inline deco_fields deco_fields_of(const opnd_slot *s)
{
    return (deco_fields){.inv_value = s->inv_field >= 0 ? s->inv_value : UINT64_MAX, .neg = field_or_none(s->neg_field),
                         .abs = field_or_none(s->abs_field), .not_ = field_or_none(s->not_field),
                         .inv = field_or_none(s->inv_field)};
}

static inline int deco_any(const deco_fields *d)
{
    return d->neg != SPEC_NONE || d->abs != SPEC_NONE || d->not_ != SPEC_NONE || d->inv != SPEC_NONE;
}

/* The decorations the values write, as GISA_DECO_* bits, without branches. */
static inline unsigned deco_of(const deco_fields *d, const uint64_t *vals)
{
    unsigned neg = vals[d->neg] != 0, inv = neg & (vals[d->inv] == d->inv_value);
    return (neg & !inv) * GISA_DECO_NEG | (vals[d->abs] != 0) * GISA_DECO_ABS | inv * GISA_DECO_INV |
           (vals[d->not_] != 0) * GISA_DECO_NOT;
}

/* An optional {...} operand group g of a form is in the text when one of
 * its fields (operands, decorations, suffixes) differs from its omitted
 * value, or when the group that directly follows it (no required operand
 * between) is: otherwise "{, pp}{, pq}" would read back pq as pp. Fills
 * field[]/absent[] (room for 6 per operand of the form) and returns their
 * number; *next is that following group, or 0. */
int group_fields(const isa_opcode *op, const syntax_form *F, int g, uint8_t *field, uint64_t *absent, int *next);

/* Decodes w: the opcode, the first form that expresses the word (its
 * index is returned) and every field's value in vals[SPEC_NVALS]. Returns
 * -1 when the word is no instruction; *opcode is then the opcode whose
 * fixed bits matched, or -1. */
int decoder_run(const gisa_isa *isa, const gisa_word *w, int *opcode, uint64_t *vals);
/* Why decoder_run refused w (opcode: as it left it), into why[cap]. */
void decoder_explain(const gisa_isa *isa, const gisa_word *w, int opcode, char *why, size_t cap);
#endif
