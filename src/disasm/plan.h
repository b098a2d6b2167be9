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
#include "spec/model.h"

#define DTEXT_PAD 16 /* a dtext may be copied 16 bytes at a time */
#define DIS_NONE DISASM_MAXF /* index of the always-zero value: an absent field */

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

typedef struct dis_x { /* reading one field: vals[field] = w[i] >> sh & mask */
    uint8_t field, sh;
} dis_x;

typedef struct dis_reads { /* an opcode's fields: those in w[0], in w[1], straddling both */
    const dis_x *x;
    const uint64_t *mask; /* [i]: x[i]'s, apart: the reading loop's data then fits in few cache lines */
    uint8_t n[3];
} dis_reads;

/* Every field's value from the word. */
static inline void dis_read(const dis_reads *r, const gisa_word *w, uint64_t *vals)
{
    const uint64_t w0 = w->w[0], w1 = w->w[1];
    const dis_x *x = r->x;
    const uint64_t *mask = r->mask;
    int i = 0, n0 = r->n[0], n1 = n0 + r->n[1], n2 = n1 + r->n[2];
    for (; i < n0; i++)
        vals[x[i].field] = w0 >> x[i].sh & mask[i];
    for (; i < n1; i++)
        vals[x[i].field] = w1 >> x[i].sh & mask[i];
    for (; i < n2; i++)
        vals[x[i].field] = (w0 >> x[i].sh | w1 << (64 - x[i].sh)) & mask[i];
}

/* The word holding these values (the assembler's inverse of dis_read). */
static inline gisa_word dis_write(const dis_reads *r, const uint64_t *vals)
{
    uint64_t w0 = 0, w1 = 0;
    const dis_x *x = r->x;
    const uint64_t *mask = r->mask;
    int i = 0, n0 = r->n[0], n1 = n0 + r->n[1], n2 = n1 + r->n[2];
    for (; i < n0; i++)
        w0 |= (vals[x[i].field] & mask[i]) << x[i].sh;
    for (; i < n1; i++)
        w1 |= (vals[x[i].field] & mask[i]) << x[i].sh;
    for (; i < n2; i++) {
        uint64_t v = vals[x[i].field] & mask[i];
        w0 |= v << x[i].sh;
        w1 |= v >> (64 - x[i].sh);
    }
    return (gisa_word){{w0, w1}};
}

/* A modifier's code for one field value: the form cannot print the value,
 * prints nothing (the default or an omitted optional), or prints
 * text[code] (DM_REJECT and DM_SILENT have empty texts). */
enum { DM_REJECT = 0, DM_SILENT = 1, DM_TEXT = 2 };

#define DIS_MOD_BITS 4                     /* field values with a pre-computed code: */
#define DIS_MOD_CODES (1 << DIS_MOD_BITS) /* those below 16 */

typedef struct dis_mod {
    const rname *name;    /* [DM_TEXT + nchoices]: "", "", ".SPELL"...; NULL if one is too long */
    const dtext *text;    /* the same texts, of any length */
    const mod_slot *slot; /* values beyond the table (wide fields) are judged by dis_mod_rule */
    uint8_t field, ncodes;
    uint8_t code[DIS_MOD_CODES]; /* by field value */
} dis_mod;

#define DIS_PRED_FIELDS 4 /* a predicate of up to 4 fields ... */
#define DIS_PRED_BITS 12  /* ... of up to 12 bits in all is a table */

/* A yes/no function of field values (a Bitwidth is 64, an __Exception
 * holds), tabulated by the values of the few fields it reads. */
typedef struct dis_pred {
    const uint8_t *table; /* NULL: too many inputs, evaluate the expressions */
    uint8_t field[DIS_PRED_FIELDS], width[DIS_PRED_FIELDS];
    uint8_t nfields;
} dis_pred;

static inline int dis_pred_table(const dis_pred *p, const uint64_t *vals)
{
    unsigned k = 0;
    for (int i = 0; i < p->nfields; i++)
        k = k << p->width[i] | (unsigned)vals[p->field[i]];
    return p->table[k];
}

typedef struct dis_opnd {
    uint8_t kind;  /* opnd_kind */
    uint8_t group; /* 0, or its optional group */
    int8_t pair;   /* 1 / 0: a constant Bitwidth; -1: ask pair_of */
    uint8_t field, not_, neg, abs, inv, fmt, index; /* value indices, DIS_NONE when absent */
    uint8_t index_width;
    uint8_t rules;                                  /* the operand has rules to check (opnd_bad) */
    uint8_t deco;                                   /* not_, neg, abs or inv is a field */
    uint64_t inv_value, fmt_value;                  /* '~' / BF16 when vals[inv|fmt] equals them */
    const isa_type *type;
    const dis_regs *regs;      /* register and indexed operands */
    const expr *bitwidth;
    dis_pred pair_of;          /* Bitwidth == 64 */
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

typedef struct dis_named { /* a free field whose enumeration leaves values unnamed */
    const uint8_t *named;    /* the type's table: 1 for named values */
    uint8_t field, width;
} dis_named;

/* The operands' print plan: one step per operand, checks folded in. */
enum dis_step_kind {
    DS_END,
    DS_GROUP,      /* skip the group's operand steps when it is not printed */
    DS_CHECK,      /* check: an operand of an optional group (printed or not) */
    DS_REG,        /* operands, by opnd_kind */
    DS_CMEM,
    DS_INDEXED,
    DS_IMM,
    DS_PR,
    DS_REG_PLAIN   /* a register without decorations or rules (most are): its name alone */
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
    const dis_named *named;   /* [nnamed] */
    const dis_step *steps;    /* operands; ends with DS_END */
    const dis_ctl *ctl;       /* [nctl] */
    const dis_mod *mods;      /* [nmods] modifiers with a field, in syntax order */
    const dis_opnd *ops;      /* [nops] */
    const uint8_t *checked;   /* [nchecked] operands with a register-pair or alignment rule */
    const dis_group *groups;  /* [ngroups + 1]; [0] unused */
    dtext mnemonic;
    uint32_t bound;           /* no line of the form is longer (dis_form_bound) */
    uint8_t nmnem, nnamed, nctl, nmods, nops, nchecked, ngroups;
} dis_form;

typedef struct dis_opcode {
    gisa_word covered;
    dis_reads all;              /* x NULL when the opcode has too many fields to print */
    dis_reads printed;          /* the fields dis_run reads: not those pinned for the opcode */
    const dis_form *forms;      /* [nforms] */
    const dis_regs *guard_regs;
    const isa_type *guard_type; /* NULL: no guard */
    const rname *guard_text;    /* [2 << type width] by (not, register): "", "@P3 ", "@!PT "; or NULL */
    dis_pred raised;            /* an __Exception holds */
    uint8_t nforms, guard, guard_not, exceptions;
} dis_opcode;

/* Separator and decorations before an operand: " " before the first,
 * else ", "; then "!", "-" or "~" (tilde and neg), "|". */
#define DIS_PREFIX(first, not_, neg, tilde, abs) ((first) << 4 | (not_) << 3 | (neg) << 2 | (tilde) << 1 | (abs))

typedef struct dis_model {
    dis_regs *regs;      /* [ntypes]; filled for register types */
    dis_opcode *op;      /* [nopcodes] */
    rname prefix[32];    /* ", -|" and the like: DIS_PREFIX(first, !, -, ~, |) */
} dis_model;

/* Runs form `form` of opcode `opcode` (its pinned bits matching) on the
 * word's values: prints into buf[cap] and returns 0, or returns 1 when the
 * form cannot express the values (buf then holds anything). Where cap is
 * at least the form's bound + DIS_SLACK, nothing is checked for room. */
int dis_run(const gisa_isa *isa, int opcode, int form, const uint64_t *vals, char *buf, size_t cap);
/* Bytes past the text that printing may write, the NUL among them: names
 * and texts are copied in 16-byte blocks, a number's "0x" and 16 digits at
 * once. */
#define DIS_SLACK (2 + 16)
/* The longest line the form prints, without the NUL (print.c: it knows
 * the printers' formats). */
size_t dis_form_bound(const dis_model *dm, const isa_opcode *op, const dis_opcode *dop, const dis_form *df);
/* The rule behind dis_mod.code, for any value. */
int dis_mod_rule(const mod_slot *m, uint64_t v);

static inline int dis_mod_code(const dis_mod *d, uint64_t v)
{
    return v < d->ncodes ? d->code[v] : dis_mod_rule(d->slot, v);
}

static inline int dis_opnd_pair(const dis_opnd *d, const uint64_t *vals)
{
    if (d->pair >= 0)
        return d->pair;
    return d->pair_of.table ? dis_pred_table(&d->pair_of, vals) : expr_eval(d->bitwidth, vals) == 64;
}

/* A 64-bit register operand needs an even register with a partner. */
static inline int dis_pair_bad(const isa_type *t, uint64_t v)
{
    return v != t->zero_value && ((v & 1) || v + 1 >= t->zero_value);
}

static inline uint64_t dis_cmem_offset(const isa_type *t, uint64_t v) { return cmem_offset(t, v); }

static inline uint64_t dis_cmem_align(const isa_type *t, int pair) { return (uint64_t)t->align * (pair ? 2 : 1); }

/* A constant operand: aligned (unless the type only warns about it), and no
 * bits outside bank and offset. */
static inline int dis_cmem_bad(const isa_type *t, uint64_t v, int pair)
{
    return (dis_cmem_offset(t, v) % dis_cmem_align(t, pair) != 0 && !t->misaligned_warn) || (v & ~cmem_used(t)) != 0;
}
#endif
