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
} dis_regs;

/* A modifier's code for one field value: the form cannot print the value,
 * prints nothing (the default or an omitted optional), or prints
 * text[code] (DM_REJECT and DM_SILENT have empty texts). */
enum { DM_REJECT = 0, DM_SILENT = 1, DM_TEXT = 2 };

typedef struct dis_mod {
    const uint8_t *code;  /* [ncodes] by field value */
    const dtext *text;    /* [DM_TEXT + nchoices]: "", "", ".SPELL"... */
    const mod_slot *slot; /* values beyond the table (wide fields) are judged by dis_mod_rule */
    uint32_t ncodes;
    uint8_t field;
} dis_mod;

typedef struct dis_opnd {
    uint8_t kind;  /* opnd_kind */
    uint8_t group; /* 0, or its optional group */
    int8_t pair;   /* 1 / 0: a constant Bitwidth; -1: evaluate bitwidth */
    uint8_t field, not_, neg, abs, inv, fmt, index; /* value indices, DIS_NONE when absent */
    uint8_t index_width;
    uint64_t inv_value, fmt_value;                  /* '~' / BF16 when vals[inv|fmt] equals them */
    const isa_type *type;
    const dis_regs *regs;      /* register and indexed operands */
    const expr *bitwidth;
    const dis_mod *sfx;        /* .suffix, or NULL */
    const opnd_slot *slot;
} dis_opnd;

typedef struct dis_group {  /* an optional {...} operand group */
    const uint8_t *field;   /* printed when one of these values ... */
    const uint64_t *absent; /* ... differs from its omitted value */
    int n;
    int next;               /* the group that follows with no required operand between, else 0 */
} dis_group;

typedef struct dis_ctl {
    dtext text; /* " $sched=" */
    uint8_t field;
} dis_ctl;

typedef struct dis_form {
    gisa_word mask, match;    /* the form's pinned bits (copies, to stay in few cache lines) */
    const uint8_t *named;     /* [nnamed] free fields of enumerations with unnamed values */
    const dis_mod *mods;      /* [nmods] modifiers with a field, in syntax order */
    const dis_mod **mnem;     /* [nmnem] those printed after the mnemonic */
    const dis_opnd *ops;      /* [nops] */
    const uint8_t *checked;   /* [nchecked] operands with a register-pair or alignment rule */
    const dis_group *groups;  /* [ngroups + 1]; [0] unused */
    const dis_ctl *ctl;       /* [nctl] */
    dtext mnemonic;
    uint8_t nnamed, nmods, nmnem, nops, nchecked, ngroups, nctl;
} dis_form;

typedef struct dis_x { /* reading one field: (w[wi] >> sh, and w[1]'s low bits if it straddles) */
    uint8_t wi, sh, width, straddle;
} dis_x;

typedef struct dis_opcode {
    const dis_x *x;          /* [nfields] */
    const dis_regs *guard_regs;
    const isa_type *guard_type; /* NULL: no guard */
    uint8_t guard, guard_not;
} dis_opcode;

typedef struct dis_model {
    dis_regs *regs;      /* [ntypes]; filled for register types */
    dis_opcode *op;      /* [nopcodes] */
    dtext sep[2];        /* ", " between operands, " " before the first */
} dis_model;

static inline uint64_t dis_get(const gisa_word *w, dis_x x)
{
    uint64_t v = w->w[x.wi] >> x.sh;
    v |= (w->w[1] << (63 - x.sh) << 1) & (0 - (uint64_t)x.straddle);
    return v & ((UINT64_C(2) << (x.width - 1)) - 1);
}

/* Prints a word that form F accepts, with its values, into buf[cap]. */
void dis_print(const gisa_isa *isa, const isa_opcode *op, const syntax_form *F, const uint64_t *vals, char *buf,
               size_t cap);
/* The rule behind dis_mod.code, for any value. */
int dis_mod_rule(const mod_slot *m, uint64_t v);

static inline int dis_mod_code(const dis_mod *d, uint64_t v)
{
    return v < d->ncodes ? d->code[v] : dis_mod_rule(d->slot, v);
}

static inline int dis_opnd_pair(const dis_opnd *d, const uint64_t *vals)
{
    return d->pair >= 0 ? d->pair : expr_eval(d->bitwidth, vals) == 64;
}
#endif
