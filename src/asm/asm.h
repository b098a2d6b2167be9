/* Internal interface of the assembler: statements split from source text,
 * operands parsed without knowing the instruction, then matched against
 * the syntax forms of the model. */
#ifndef GISA_ASM_ASM_H
#define GISA_ASM_ASM_H
#include <stddef.h>
#include <stdint.h>

#include "spec/decoder.h"

#define ASM_MAX_OPERANDS 16
#define ASM_MAX_MODS 16

/* A register-like name split where its number starts (by the lexer):
 * "UR12" is 2 letters and 12; num is ASM_NO_NUMBER unless the rest is 1 to
 * 6 digits without a leading zero. key packs the letters (asm_name_key),
 * so that comparing a name with a type's prefix is one comparison. */
typedef struct asm_regname {
    size_t letters;
    uint64_t num;
    uint64_t key;
} asm_regname;

/* The letters (and '_') of a name packed one byte each, first letter
 * highest; 0 when there are none or more than ASM_KEY_MAX. */
#define ASM_KEY_MAX NAME_KEY_MAX

#define ASM_NO_NUMBER UINT64_MAX

typedef enum src_kind {
    SRC_NAME,    /* R5, RZ, UR3, P0, PT, UP1, PR: a register-like name */
    SRC_PAIR,    /* R[2:3], UR[4:5] */
    SRC_NUMBER,  /* 0x10, -3, 1.5, inf, 0f3F800000 */
    SRC_CMEM,    /* c[0x0][0x100] */
    SRC_INDEXED  /* R[UR2+0x1] */
} src_kind;

/* The lexer sets kind, col, len, deco and sfx of every operand, and the
 * other members only where its kind uses them. */
typedef struct src_opnd {
    src_kind kind;
    uint8_t cls;           /* asm_class(), set with kind (no branch on the kind later) */
    int col, len;          /* 0-based column in the line, length */
    union {                /* the decorations, tested as one word */
        struct {
            char neg, inv, not_, abs;
        };
        uint32_t deco;
    };
    int neg_col;           /* column of the '-' / '~' / '!' prefix */
    const char *name;      /* SRC_NAME/SRC_PAIR/SRC_INDEXED: register prefix+number text */
    size_t name_len;
    asm_regname reg;       /* name, split (SRC_NAME, SRC_INDEXED) */
    uint64_t pair_lo, pair_hi;
    const char *num;       /* SRC_NUMBER: the literal text without sign */
    size_t num_len;
    char fpfx;             /* F-literal: 'F' (F1.5), 'H' (FH: high word of an F64), 'L' (FL); else 0 */
    char num_neg;          /* F-literal: the sign after the prefix (F-1.5) */
    uint64_t bank, offset; /* SRC_CMEM */
    int64_t index;         /* SRC_INDEXED */
    const char *sfx;       /* .H0_H0, .B1 */
    size_t sfx_len;
    int sfx_col;
} src_opnd;

/* A source operand's class for asm_slot.accept: its kind, or for a name
 * (and a pair) its first letter, either case. */
static inline int asm_class(const src_opnd *o) { return o->cls; }

/* The class of a name or pair whose text starts with c. */
static inline uint8_t asm_name_class(char c) { return (uint8_t)(32 + ((unsigned char)c & 31)); }

typedef struct src_word { /* a dotted modifier of the mnemonic */
    const char *s;
    size_t n;
    int col;
    int id; /* its number among the model's modifier spellings (mod_choice.id), or -1 */
} src_word;

typedef struct asm_error {
    int col, len;
    char msg[400];
} asm_error;

typedef struct statement {
    const char *line;      /* the original line, for messages */
    size_t line_len;
    int lineno;
    int guard_present, guard_not;
    const char *guard;
    size_t guard_len;
    asm_regname guard_reg;
    int guard_col;
    const char *mnem;      /* the whole dotted mnemonic */
    size_t mnem_len;
    int mnem_col;
    src_word words[ASM_MAX_MODS];
    int nwords;
    src_opnd ops[ASM_MAX_OPERANDS];
    int nops;
    uint64_t ctl_val[3];
    int ctl_given[3], ctl_col[3];
    size_t end;            /* offset of the character that ends the statement */
    int me_idx;            /* the mnemonic (gisa_isa.mnemonics), -1 when unknown: asm_find_mnemonic */
    int first_word;        /* words[first_word..]: the modifiers; those before belong to the mnemonic */
    int has_warn;          /* set by asm_encode: the encoding is right but worth a warning */
    asm_error warn;
} statement;

/* What the assembler's first pass needs of a syntax form, compiled when the
 * model is loaded: a quick test of each operand's kind, whether it is a
 * register pair, and the choices of optional groups with the number of
 * source operands each takes. */
typedef struct asm_slot {
    uint64_t accept;    /* bit per asm_class() an operand written here may have */
    const opnd_slot *s; /* the model's operand */
    uint8_t group;
    uint8_t nsrc;       /* source operands it takes (two for F16x2 immediates) */
    int8_t pair;        /* a 64-bit pair: 1 / 0 for a constant Bitwidth, -1 to evaluate it */
    uint8_t neg, abs, not_; /* its decoration fields; SPEC_MAXF (a scratch value) when absent */
    uint32_t simple;    /* src_opnd.deco bits of the decorations that are just a 1 in their field */
} asm_slot;

#define ASM_MAX_GROUPS 8 /* optional groups tried; later ones are never written */

typedef struct asm_spelling { /* a modifier after the mnemonic: F->mods[slot].choices[choice] */
    int id;                   /* mod_choice.id; ASM_NO_ID in an empty entry of asm_form.by_id */
    uint8_t slot, choice;
    uint8_t plain;            /* writing value to field is all it takes */
    uint8_t field;            /* the slot's field; SPEC_MAXF (the scratch value) when it has none */
    uint64_t value;
} asm_spelling;

#define ASM_NO_ID (-2) /* no spelling: src_word.id is -1 for an unknown word */

typedef struct asm_form {
    const asm_slot *slot;          /* [nops] */
    int nops, min_src, max_src;    /* copies of the syntax form's, beside the slots */
    const uint8_t *present;        /* [npresent] choices of optional groups (bit g-1), most groups first */
    const uint8_t *present_nsrc;   /* [npresent] source operands each choice takes */
    int npresent;
    const asm_slot *steps;         /* steps[steps_at[j] .. steps_at[j + 1]): the slots choice j writes, copied */
    const uint16_t *steps_at;      /* [npresent + 1] */
    const asm_spelling *spelling;  /* [nspellings] in slot, then choice order */
    int nspellings;
    const asm_spelling *by_id;     /* [1 << (32 - id_shift)] the first spelling of each id, at */
    uint32_t id_mul;               /* (uint32_t)id * id_mul >> id_shift: no two ids share an entry */
    int id_shift;
    uint64_t required;             /* modifier slots that must be written (bit j) */
    gisa_word base;                /* the opcode's absent values packed, 0 in the fields the form writes */
    field_reads written;             /* the fields the form writes: modifiers, operands, controls, guard */
    uint64_t ctl_max[3];           /* the largest $sched, $req, $wsb value */
    uint8_t ctl_field[3];          /* their fields; SPEC_MAXF (a scratch value) where the form has none */
    uint8_t guard, guard_not;      /* fields of @P3 and its '!', SPEC_MAXF when absent */
    const isa_type *guard_type;    /* NULL: no guard */
    const field_pred *raised;        /* an __Exception holds; NULL when the opcode has none */
} asm_form;

/* The (candidate, choice of optional groups) pairs of a mnemonic that take
 * a given number of source operands, numbered in the order the assembler
 * tries them, and which of them can take an operand of each class at each
 * position: the first pass ANDs one table entry per operand instead of
 * judging every candidate. Classes are folded into codes (gisa_isa's
 * asm_code) that no slot tells apart. */
#define ASM_MAX_PAIRS 64

typedef struct asm_pairs {
    const uint64_t *accept;       /* [nsrc * asm_ncodes]: pairs whose operand at the position accepts the code;
                                     NULL: more than ASM_MAX_PAIRS pairs, try every candidate */
    uint64_t all;                 /* every pair */
    const uint8_t *choice;        /* [npairs] index into the candidate's asm_form.present */
    const uint16_t *cand;         /* [npairs] candidate (mnemonic_entry index) */
} asm_pairs;

/* What the assembler compiles from the model (plan.c), owned by the ISA
 * handle (gisa_isa.asm_model). */
typedef struct asm_mnemonic {
    const asm_form **enc;     /* [n] its candidates' forms, side by side (mnemonic_entry.opcode/form) */
    const asm_pairs *pairs;   /* [max_src + 1] by number of source operands */
    int max_src;
} asm_mnemonic;

typedef struct asm_model {
    const asm_mnemonic *mnem; /* [gisa_isa.nmnemonics] */
    uint8_t code[64];         /* operand class (asm_class) -> code of the pair tables */
    int ncodes;
} asm_model;

/* Compiles the matching tables of a freshly built model into
 * isa->asm_model (called by the library's loader, src/lib/load.c). */
int asm_plan_build(gisa_isa *isa);
/* Bytes after a statement's end that the parser may read (it reads
 * numbers four bytes at a time). */
#define ASM_PAD 16
/* Parses the statement that starts at line[begin] (comments blanked out)
 * and ends at the first ';', '\n' or NUL, whose offset it stores in
 * st->end: the parser finds the end itself, so that the line loop need not
 * search for it first. ASM_PAD bytes after the end must be readable.
 * The mnemonic is looked up in isa (asm_find_mnemonic). Columns in messages
 * are relative to the line. Returns 0, or -1 with *err filled. */
int asm_parse_statement(const gisa_isa *isa, const char *line, size_t begin, statement *st, asm_error *err);
/* Finds the statement's mnemonic in the model (sets me_idx and first_word)
 * and requests what matching its first candidate reads: the parser calls
 * it as soon as the mnemonic is read, so that those loads overlap the
 * parsing of the operands. */
void asm_find_mnemonic(const gisa_isa *isa, statement *st);
#define ASM_MAX_NAME 1024           /* an .include file name, with its NUL */
#define ASM_MAX_DIRECTIVE_WORDS 64  /* values of one .inst */

/* A parsed directive (directive.c): raw words, or a file to include. */
typedef struct asm_directive {
    int include;   /* .include: name; otherwise words */
    int invalid;   /* .invalid: the word is expected not to decode */
    int col;       /* column of its '.' */
    char name[ASM_MAX_NAME];
    int name_col, name_len; /* the quoted name, quotes included */
    gisa_word words[ASM_MAX_DIRECTIVE_WORDS];
    int nwords;
} asm_directive;

/* Parses the directive at s[q] == '.' that ends at s[t] (the statement's
 * ';' or the line's end; comments already blanked). Returns 0, or -1 with
 * *err filled (columns relative to the line). */
int asm_parse_directive(const gisa_isa *isa, const char *s, size_t q, size_t t, asm_directive *d, asm_error *err);
/* Encodes a parsed statement. Returns 0, or -1 with *err filled. */
int asm_encode(const gisa_isa *isa, statement *st, gisa_word *out, asm_error *err);
#endif
