/* Compiled disassembly, built once per model when it is loaded. Per syntax
 * form: the checks that decide whether the form can print a word, and a
 * print plan (pre-rendered mnemonic and modifier texts, operand steps with
 * their field indices); per register type, its names. The hot path then
 * neither searches, formats nor measures strings, and reads a few compact
 * arrays instead of the model's larger structures. */
#ifndef GISA_DISASM_PLAN_H
#define GISA_DISASM_PLAN_H
#include <stdint.h>

#include "disasm/disasm.h"
#include "spec/decoder.h"

#define DTEXT_PAD 16 /* a dtext may be copied 16 bytes at a time */

typedef struct dtext {
    const char *s; /* readable for n + DTEXT_PAD bytes: all texts share one padded pool */
    uint32_t n;
} dtext;

typedef struct rname { /* a register name kept in its table entry */
    char s[15];
    uint8_t n;
} rname;

typedef struct dis_regs { /* one register type */
    const rname *name;    /* [n]: "R7", "RZ" */
    const rname *pair;    /* [n]: "R[6:7]", and the zero register's name */
    uint32_t n;           /* 0 when the type is too wide or its names too long for tables */
    uint32_t longest;     /* the longest name in the tables */
} dis_regs;

/* A modifier's code for one field value (mod_code in spec/decoder.h): the
 * printer writes text[code], empty for MOD_REJECT and MOD_SILENT. */
#define DIS_MOD_BITS 4                     /* field values with a pre-computed code: */
#define DIS_MOD_CODES (1 << DIS_MOD_BITS) /* those below 16 */

typedef struct dis_mod {
    const rname *name;    /* [MOD_TEXT + nchoices]: "", "", ".SPELL"...; NULL if one is too long */
    const dtext *text;    /* the same texts, of any length */
    const mod_slot *slot; /* values beyond the table (wide fields) are judged by mod_code */
    uint8_t field, ncodes;
    uint8_t code[DIS_MOD_CODES]; /* by field value */
} dis_mod;

typedef struct dis_opnd {
    uint8_t kind;  /* opnd_kind */
    uint8_t group; /* 0, or its optional group */
    int8_t pair;   /* 1 / 0: a constant Bitwidth; -1: ask pair_of */
    uint8_t field, fmt, index;  /* value indices, SPEC_NONE when absent */
    uint8_t index_width;
    uint8_t has_deco;           /* a decoration has a field */
    deco_fields deco;
    uint64_t fmt_value;         /* BF16 halves when vals[fmt] equals it */
    const isa_type *type;
    const dis_regs *regs;      /* register and indexed operands */
    const expr *bitwidth;
    field_pred pair_of;          /* Bitwidth == 64 */
    const dis_mod *sfx;        /* .suffix, or NULL */
    const opnd_slot *slot;     /* the model's operand, for what is not copied here */
} dis_opnd;

typedef struct dis_group {  /* an optional {...} operand group */
    const uint8_t *field;   /* printed when one of these values ... */
    const uint64_t *absent; /* ... differs from its omitted value */
    int n;
    int next;               /* the group that follows with no required operand between, else 0 */
} dis_group;

typedef struct dis_ctl {
    dtext text;         /* " $sched=" */
    const rname *shown; /* [1 << field width]: "", " $sched=1", ...; NULL: print text and number */
    uint8_t field;
} dis_ctl;

/* The operands' print plan: one step per operand. */
enum dis_step_kind {
    DS_END,
    DS_GROUP,      /* skip the group's operand steps when it is not printed */
    DS_REG,        /* operands, by opnd_kind */
    DS_CMEM,
    DS_INDEXED,
    DS_IMM,
    DS_PR,
    DS_REG_PLAIN   /* a register without decorations, pair or suffix (most are): its name alone */
};

typedef struct dis_step {
    uint8_t kind;
    uint8_t group; /* DS_GROUP */
    uint16_t skip; /* DS_GROUP: its operand steps */
    const dis_opnd *opnd;
} dis_step;

typedef struct dis_form {
    gisa_word mask, match;    /* the form's pinned bits (copies, to stay in few cache lines) */
    const dis_mod *mnem;      /* [nmnem] modifiers printed after the mnemonic (copies) */
    const dis_step *steps;    /* operands; ends with DS_END */
    const dis_ctl *ctl;       /* [nctl] */
    const dis_mod *mods;      /* [nmods] modifiers with a field, in syntax order */
    const dis_opnd *ops;      /* [nops] */
    const dis_group *groups;  /* [ngroups + 1]; [0] unused */
    dtext mnemonic;
    uint32_t bound;           /* no line of the form is longer (dis_form_bound) */
    uint8_t nmnem, nctl, nmods, nops, ngroups;
} dis_form;

typedef struct dis_opcode {
    const dis_form *forms;      /* [nforms] */
    const dis_regs *guard_regs;
    const isa_type *guard_type; /* NULL: no guard */
    const rname *guard_text;    /* [2 << type width] by (not, register): "", "@P3 ", "@!PT "; or NULL */
    uint8_t nforms, guard, guard_not;
} dis_opcode;

/* Separator and decorations before an operand: " " before the first,
 * else ", "; then "!", "-" or "~", "|" (deco: GISA_DECO_* bits). */
#define DIS_PREFIX(first, deco) ((first) << 4 | (deco))

typedef struct dis_model {
    dis_regs *regs;      /* [ntypes]; filled for register types */
    dis_opcode *op;      /* [nopcodes] */
    rname prefix[32];    /* ", -|" and the like: DIS_PREFIX(first, deco) */
} dis_model;

/* Prints form `form` of opcode `opcode` with the fields' values vals into
 * buf[cap] (truncated to it, always NUL-terminated). It judges nothing:
 * the values are those the decoder accepted for the form, or at least fit
 * their fields. Where cap is at least the form's bound + DIS_SLACK, nothing
 * is checked for room. Returns 1 when the text was cut, else 0; *len is
 * the length of the text written. */
int dis_print(const dis_model *dm, int opcode, int form, const uint64_t *vals, char *buf, size_t cap, size_t *len);
/* Bytes past the text that printing may write, the NUL among them: names
 * and texts are copied in 16-byte blocks, a number's "0x" and 16 digits at
 * once. */
#define DIS_SLACK (2 + 16)
/* The longest line the form prints, without the NUL (print.c: it knows
 * the printers' formats). */
size_t dis_form_bound(const dis_model *dm, const isa_opcode *op, const dis_opcode *dop, const dis_form *df);
static inline int dis_mod_code(const dis_mod *d, uint64_t v)
{
    return v < d->ncodes ? d->code[v] : mod_code(d->slot, v);
}

static inline int dis_opnd_pair(const dis_opnd *d, const uint64_t *vals)
{
    if (d->pair >= 0)
        return d->pair;
    return d->pair_of.table ? field_pred_table(&d->pair_of, vals) : expr_eval(d->bitwidth, vals) == 64;
}

#endif
