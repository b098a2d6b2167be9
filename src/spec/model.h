/* The resolved instruction model: one entry per opcode (FFMA_RRC ...) with
 * every field placed, fixed bits as match/mask, and the syntax forms mapped
 * onto fields. Built once by the loader from the description files; the
 * assembler, disassembler, simulator, lint and doc all read only this. */
#ifndef GISA_SPEC_MODEL_H
#define GISA_SPEC_MODEL_H
#include <stdint.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "gisa.h"
#include "spec/raw.h"

typedef enum type_kind { TY_ENUM, TY_REG, TY_IMM, TY_CMEM } type_kind;
typedef enum reg_class { RC_GPR, RC_UGPR, RC_PRED, RC_UPRED } reg_class;
typedef enum imm_format { IMM_SIGNED, IMM_UNSIGNED, IMM_F32, IMM_F64, IMM_F16X2 } imm_format;

#define NAME_KEY_MAX 7 /* the most letters isa_type.prefix_key packs */

typedef struct isa_type {
    const char *name;
    int width;
    type_kind kind;
    srcloc loc;
    /* TY_ENUM */
    const raw_value *values;
    int nvalues;
    uint8_t *named; /* [1 << width] (width <= 16): 1 when the value has a name */
    /* TY_REG: values 0..zero_value-1 are prefix<n>, zero_value is `zero` */
    reg_class rclass;
    const char *prefix, *zero;
    int prefix_len, zero_len;
    uint64_t zero_value;
    uint64_t prefix_key, zero_key; /* the names' letters packed one byte each, first highest; 0: not packable */
    int pair_first; /* `pair = first`: a 64-bit pair is written as its first register */
    /* TY_IMM: a float format narrower than its format keeps the high bits */
    imm_format fmt;
    int prefixed;      /* `literal = prefixed`: numbers are raw bits, floats need F/FH/FL */
    int inexact_round; /* `inexact = round`: round a too precise literal (warning) */
    /* TY_CMEM: the bank may be split over several bit ranges (low bits
     * first); offset bits that a bank range overlaps must be 0 */
    int nbank_parts, bank_bits;
    int bank_part_off[4], bank_part_w[4];
    int offs_off, offs_w, align;
    uint64_t offs_shared; /* offset bits a bank range overlaps */
    int misaligned_warn;  /* `misaligned = warning` */
} isa_type;

typedef struct isa_field {
    const char *name; /* "rd", "ra.neg", "pp.not", "$sched" */
    const isa_type *type;
    int off, width;
    int fixed;       /* == value: part of the opcode's match bits */
    int has_default; /* = value */
    uint64_t value;  /* the fixed or default value */
    srcloc loc;
    const raw_def *owner; /* the definition that placed it */
} isa_field;

typedef struct mod_choice {
    const char *spell; /* as written in assembly, without the dot: "RZ", "CLAMP" */
    uint64_t value;    /* field value */
    int len;           /* strlen(spell) */
    int id;            /* the spelling's number in gisa_isa.modifier_by_name */
} mod_choice;

typedef struct mod_slot {
    const char *name;  /* group name ("rnd") or, for literals, the word ("HI") */
    int literal;       /* a fixed dotted word of the syntax line */
    int optional;      /* may be omitted ({...} or has a default) */
    int field;         /* opcode field index, -1 when no field encodes it */
    int operand;       /* -1: mnemonic modifier; else operand suffix (Ra.hsel2) */
    const mod_choice *choices;
    int nchoices;
    int def_choice;    /* the default choice (omitted when printing), -1 if none */
    uint64_t absent;   /* field value when omitted */
    srcloc loc;
} mod_slot;

typedef enum opnd_kind { OK_REG, OK_IMM, OK_CMEM, OK_PR, OK_INDEXED } opnd_kind;

typedef struct opnd_slot {
    const char *name; /* as in the syntax line: "SrcB", "pu" */
    int group;        /* 0: required; else id of the optional {...} group */
    opnd_kind kind;
    int field;        /* main field (-1 for PR) */
    const isa_type *type;
    const expr *bitwidth; /* resolved Bitwidth<> or NULL (= 32) */
    int neg_field, abs_field, not_field; /* -1 when absent */
    char allow_neg, allow_abs, allow_not;
    int sfx_slot;     /* index in form->mods of the .suffix modifier, -1 */
    int inv_field;    /* CvtINegX: the negation is '~' when fields[inv_field] == inv_value */
    uint64_t inv_value;
    int fmt_field;    /* CvtFImm: F16ImmX2 holds BF16 halves when fields[fmt_field] == fmt_value */
    uint64_t fmt_value;
    int index_field;  /* OK_INDEXED: R[URb+SImm9] immediate field */
    /* Set once the model is built (decode.c), for whoever binds operands by
     * what they are rather than by their names (the simulator): */
    uint8_t written;  /* the opcode's OutList names the operand's field */
    uint8_t constant; /* an immediate in every opcode of the optype (a LUT, a shift count) */
    srcloc loc;
} opnd_slot;

typedef struct syntax_form {
    const char *mnemonic; /* "IMAD.WIDE", "IDP.2A" */
    mod_slot *mods;
    int nmods;
    opnd_slot *ops;
    int nops;
    int ngroups;
    int ctl[3];      /* field index of $sched/$req/$wsb when the line allows it, else -1 */
    gisa_word mask, match; /* bits the form pins: unused fields, required literals */
    int *free_fields; /* fields set by a slot or operand */
    int nfree;
    uint64_t *base;   /* [nfields]: omitted values, pinned fields at their pinned value */
    gisa_word base_word; /* the same values packed */
    int mnemonic_len;
    int min_src, max_src; /* source operand count range (F16x2 immediates count 2) */
    const char *text;
    srcloc loc;
} syntax_form;

typedef struct isa_exception {
    const char *kind, *message;
    const expr *cond; /* resolved: true means the encoding is illegal */
    srcloc loc;
} isa_exception;

typedef struct isa_optype isa_optype;

/* Field extraction in the hot loop: a compact copy of what it needs. */
typedef struct field_x {
    uint16_t off;
    uint8_t width;
    uint8_t enum_width;   /* type width when the type is an enumeration, else 0 */
    const uint8_t *named; /* enumeration: 1 for values that have a name */
} field_x;

typedef struct isa_opcode {
    const char *name;
    int index;
    const isa_optype *optype;
    const raw_def *def;
    const raw_def **chain; /* root first, the opcode last */
    int nchain;
    isa_field *fields;
    int nfields;
    field_x *fx; /* [nfields] */
    uint64_t *absent; /* [nfields]: value when no form sets the field */
    gisa_word mask, match, covered;
    syntax_form *forms;
    int nforms;
    isa_exception *exceptions;
    int nexceptions;
    const raw_opinfo *inlist, *outlist, *order, *modiorder;
    int guard, guard_not; /* fields pg / pg.not, -1 when absent */
} isa_opcode;

struct isa_optype {
    const char *name;
    const raw_def *def; /* the definition holding the syntax block */
    int *opcodes;
    int nopcodes;
    const char *semantics; /* `__Simulation semantics = NAME;`, else the name */
};

typedef struct isa_ruling {
    const raw_def *ruling;
    const raw_def *target;
} isa_ruling;

typedef struct mnemonic_entry { /* all (opcode, form) pairs written with one mnemonic */
    const char *mnemonic;
    int *opcode, *form;
    int n;
    int longer; /* another mnemonic starts with this one and a dot (IMAD: IMAD.WIDE) */
} mnemonic_entry;

typedef struct decode_pattern {
    gisa_word mask, match;
} decode_pattern;

typedef struct decode_table {
    int nkeybits;
    int keybit[16];     /* word bit positions forming the key */
    int nruns;          /* the same bits as runs: word offset, width, key shift */
    int run_off[16], run_width[16], run_shift[16];
    int *start;         /* [1 << nkeybits + 1] offsets into cand */
    int *cand;
    decode_pattern *pat; /* [nopcodes]: the opcodes' fixed bits, side by side for the lookup */
} decode_table;

/* What code below the tools needs of a tool above it or beside it: the
 * library's loader (src/lib/load.c) sets these to the tools' functions,
 * so that no layer calls a higher or a sibling one directly (the build
 * links each layer against the lower ones only: README, "How it fits
 * together"). The model's lint assembles the documents' examples and asks
 * the simulator which C semantics do not implement the pseudo-code; the
 * assembler checks that a `.invalid` word does not decode; the simulator
 * prints the instruction text of its trace and fault messages. */
typedef struct isa_services {
    gisa_status (*assemble)(const gisa_isa *isa, const char *filename, const char *text, size_t len,
                            const gisa_asm_options *opt, gisa_word **words, size_t *nwords, gisa_diags *diags);
    gisa_status (*disassemble)(const gisa_isa *isa, gisa_word word, char *buf, size_t cap, size_t *len);
    gisa_status (*print)(const gisa_isa *isa, const gisa_inst *inst, char *buf, size_t cap);
    /* gisa_isa_lint's notes of the optypes whose C semantics do not
     * implement their pseudo-code (sim/fingerprint.h) */
    void (*lint_semantics)(const gisa_isa *isa, gisa_diags *diags);
} isa_services;

struct gisa_isa {
    arena a;
    size_t max_memory; /* the load's budget (gisa_load_options.max_memory), which lint's rebuild keeps too */
    raw_spec raw;
    int word_bits;
    const char *target_name;
    isa_type *types;
    int ntypes;
    strmap type_by_name;
    isa_opcode *opcodes;
    int nopcodes;
    strmap opcode_by_name;
    isa_optype *optypes;
    int noptypes;
    isa_ruling *rulings;
    int nrulings;
    mnemonic_entry *mnemonics;
    int nmnemonics;
    strmap mnemonic_by_name;
    int mnemonic_dots;          /* the most dots in a mnemonic (IMAD.WIDE: 1) */
    strmap modifier_by_name; /* every modifier spelling -> a number (mod_choice.id) */
    int nmodifiers;
    decode_table dec;
    const isa_type *guard_type; /* Pred, for the @P guard */
    const struct decoder *decoder; /* word -> gisa_inst (spec/decoder.h) */
    /* The tools' own tables, compiled from the finished model by the
     * library's loader (src/lib/load.c) and owned by this handle; the model
     * never reads them, and each tool reads only its own. */
    const struct dis_model *dis;       /* print plans (disasm/plan.h) */
    const struct asm_model *asm_model; /* candidate tables (asm/asm.h) */
    const struct ds_model *docsem;     /* the pseudo-code, parsed and patched (docsem/docsem.h) */
    isa_services tools;                /* the tools' functions, for the layers below them (above) */
};

/* Builds the model from parsed definitions; returns the number of errors. */
int model_build(gisa_isa *isa, gisa_diags *diags);
/* Builds syntax forms of one opcode (syntax.c). */
int syntax_build_forms(gisa_isa *isa, isa_opcode *op, const raw_def *sdef, gisa_diags *diags);
int decode_build(gisa_isa *isa);
/* Resolves field names and "value" strings of an expression for one opcode. */
expr *spec_resolve_expr(gisa_isa *isa, const isa_opcode *op, const expr *e, gisa_diags *diags);
const isa_type *model_type(const gisa_isa *isa, const char *name);
uint64_t field_absent_value(const isa_field *f);
int model_field(const isa_opcode *op, const char *name);
/* Value of an enumerator/register name in a type; 0 on success. */
int type_value(const isa_type *t, const char *name, size_t n, uint64_t *v);
/* Name of a value (enum/reg), or NULL. */
const char *type_value_name(const isa_type *t, uint64_t v, char *buf, size_t cap);

static inline uint64_t cmem_bank(const isa_type *t, uint64_t v)
{
    uint64_t b = 0;
    for (int i = 0, at = 0; i < t->nbank_parts; at += t->bank_part_w[i], i++)
        b |= (v >> t->bank_part_off[i] & ((UINT64_C(1) << t->bank_part_w[i]) - 1)) << at;
    return b;
}

static inline uint64_t cmem_offset(const isa_type *t, uint64_t v)
{
    return (v >> t->offs_off & ((UINT64_C(1) << t->offs_w) - 1)) & ~t->offs_shared;
}

/* The field value of c[bank][offset]; the caller checked the ranges and
 * that the shared offset bits are 0. */
static inline uint64_t cmem_pack(const isa_type *t, uint64_t bank, uint64_t offset)
{
    uint64_t v = offset << t->offs_off;
    for (int i = 0; i < t->nbank_parts; bank >>= t->bank_part_w[i], i++)
        v |= (bank & ((UINT64_C(1) << t->bank_part_w[i]) - 1)) << t->bank_part_off[i];
    return v;
}

/* Bits of the field that bank and offset use (the others must be 0). */
static inline uint64_t cmem_used(const isa_type *t)
{
    uint64_t m = ((UINT64_C(1) << t->offs_w) - 1) << t->offs_off;
    for (int i = 0; i < t->nbank_parts; i++)
        m |= ((UINT64_C(1) << t->bank_part_w[i]) - 1) << t->bank_part_off[i];
    return m;
}

static inline uint64_t word_get_bit(const gisa_word *w, int b) { return (w->w[b >> 6] >> (b & 63)) & 1; }

static inline uint64_t word_get(const gisa_word *w, int off, int width);

static inline size_t decode_key(const decode_table *t, const gisa_word *w)
{
    size_t k = 0;
    for (int i = 0; i < t->nruns; i++) /* a run lies in one half of the word */
        k |= (size_t)(w->w[t->run_off[i] >> 6] >> (t->run_off[i] & 63) & ((UINT64_C(1) << t->run_width[i]) - 1))
             << t->run_shift[i];
    return k;
}

/* Opcode index matching the word's fixed bits, or -1. */
static inline int decode_lookup(const struct gisa_isa *isa, const gisa_word *w);

static inline uint64_t word_get(const gisa_word *w, int off, int width)
{
    uint64_t v;
    if (off >= 64)
        v = w->w[1] >> (off - 64);
    else if (off + width <= 64)
        v = w->w[0] >> off;
    else
        v = (w->w[0] >> off) | (w->w[1] << (64 - off));
    return width == 64 ? v : v & ((UINT64_C(1) << width) - 1);
}

static inline void word_set(gisa_word *w, int off, int width, uint64_t v)
{
    uint64_t m = width == 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
    v &= m;
    if (off >= 64) {
        w->w[1] = (w->w[1] & ~(m << (off - 64))) | (v << (off - 64));
    } else if (off + width <= 64) {
        w->w[0] = (w->w[0] & ~(m << off)) | (v << off);
    } else {
        w->w[0] = (w->w[0] & ~(m << off)) | (v << off);
        int hi = off + width - 64;
        uint64_t mh = (UINT64_C(1) << hi) - 1;
        w->w[1] = (w->w[1] & ~mh) | (v >> (64 - off));
    }
}
static inline int decode_lookup(const struct gisa_isa *isa, const gisa_word *w)
{
    const decode_table *t = &isa->dec;
    size_t k = decode_key(t, w);
    for (int i = t->start[k]; i < t->start[k + 1]; i++) {
        const decode_pattern *p = &t->pat[t->cand[i]];
        if (((w->w[0] ^ p->match.w[0]) & p->mask.w[0]) == 0 && ((w->w[1] ^ p->match.w[1]) & p->mask.w[1]) == 0)
            return t->cand[i];
    }
    return -1;
}
#endif
