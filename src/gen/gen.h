/* The random program generator inside the library (gisa_gen_* of gisa.h):
 * three parts, each in one place: the tables built once from the model
 * (tables.c), the options read from text (options.c), and one run's random
 * sequence and outputs (gen_run). select.c says what the options allow of
 * the tables and draws optypes and opcodes by weight; pick.c builds one
 * random instruction, values.c the integer values of --int-values, streams.c
 * the directed multi-instruction idioms, illegal.c the refused words,
 * state.c the initial state (active masks included); gen.c drives them.
 * The calls go one way: gen -> streams -> pick -> select -> tables, and
 * options -> tables. */
#ifndef GISA_GEN_GEN_H
#define GISA_GEN_GEN_H
#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"
#include "gen/rng.h"
#include "spec/model.h"

#define GEN_RECENT 8      /* destinations a dependent source may read */
#define GEN_MAX_OPS 32    /* operands per syntax form the generator handles */
#define GEN_TEXT 192      /* one instruction's text */
#define GEN_NO_REG 0xFFFFFFFFu /* reg_in_pool: no zero register */
#define GEN_MAX_STREAMS 16
#define GEN_STREAM_LINES 4

/* Opcode classes by the operand kind that sets an opcode apart from the
 * others of its optype: a constant, a uniform register, an immediate, or
 * registers only. */
enum { CLS_R, CLS_I, CLS_U, CLS_C, CLS_COUNT };

typedef struct gen_opcode {
    int cls;
    int usable;                     /* some random attempt gave a valid word */
    int int_imm;                    /* some form has an integer immediate (--int-values imm) */
    uint8_t *written;               /* [form * GEN_MAX_OPS + operand]: in the OutList */
} gen_opcode;

typedef struct gen_optype {
    int family;                     /* index into gen.families */
} gen_optype;

/* What a stream reads and writes, in the order of gen_stream_defs. */
typedef struct gen_stream_def {
    const char *name;
    const char *vars;  /* "a2 b2 c2": register variables and how many registers each spans */
    const char *lines; /* the instructions, '\n'-separated, with %-placeholders (streams.c) */
} gen_stream_def;

extern const gen_stream_def gen_stream_defs[];
extern const int gen_nstreams;

/* The kinds of a warp's active mask (--active), in the order of gen_active_names. */
enum { ACT_FULL, ACT_RANDOM, ACT_SINGLE, ACT_EMPTY, GEN_ACTIVE_KINDS };
extern const char *const gen_active_names[GEN_ACTIVE_KINDS];
extern const uint32_t gen_active_default[GEN_ACTIVE_KINDS];

/* A weight, include or exclude entry: a family, optype or opcode index. */
typedef enum { NAME_FAMILY, NAME_OPTYPE, NAME_OPCODE } name_level;

/* A name with modifier values, FFMA.RM or IMAD.HI.X: in --include, its
 * instructions only with those values; in --weights, an entry of its own in
 * the draw (weight > 0) or never those values together (weight 0). */
#define GEN_SEL_MODS 4
typedef struct gen_modsel {
    name_level level;
    int idx;                        /* the family, optype or opcode */
    int nmods;
    const char *mods[GEN_SEL_MODS]; /* the model's spellings (mod_choice.spell) */
    int ids[GEN_SEL_MODS];          /* their mod_choice.id */
    int64_t weight;                 /* -1: an --include entry */
} gen_modsel;

/* Integer value classes (--int-values) and where they apply, in the order of
 * gen_value_names and gen_value_scope_names. */
enum { VAL_ZERO, VAL_ONE, VAL_MINUS_ONE, VAL_MIN, VAL_MAX, VAL_POW2, VAL_SMALL, VAL_RANDOM, GEN_VALUE_CLASSES };
enum { VS_IMM, VS_REG, VS_CONST, GEN_VALUE_SCOPES };

typedef struct gen_options {
    uint32_t regs, uregs, cbanks, cwords;
    uint32_t dep, guard, ureg, cbank, imm, stream, fp, uniform, ctl, illegal; /* rates, ppm */
    uint32_t warps;                 /* warps in the state */
    uint32_t active[GEN_ACTIVE_KINDS]; /* weights of the active-mask kinds */
    int active_given;
    gen_modsel *sel;                /* --include and --weights entries with modifiers */
    int nsel;
    int64_t *w_family, *w_optype;   /* weights; -1 unset */
    uint8_t *inc[3], *exc[3];       /* per level: named in --include / --exclude */
    int ninclude;
    uint8_t *stream_on;             /* [gen_nstreams] */
    int streams_given;
    char *text[3];                  /* weights, include, exclude as given (header comment) */
    char *streams_text;
    int stream_rate_given;          /* --stream-rate was set (even to its default) */
    uint32_t values[GEN_VALUE_SCOPES][GEN_VALUE_CLASSES]; /* weights of the classes, per scope */
    uint8_t values_given[GEN_VALUE_SCOPES]; /* else the scope keeps the built-in mix */
    char *values_text;
} gen_options;

typedef struct gen_recent {
    unsigned v[GEN_RECENT];
    int n, at;
} gen_recent;

/* The model as the generator sees it, built once when the handle is made
 * (tables.c; the probes of gisa_gen_new fill usable and the streams). */
typedef struct gen_tables {
    const gisa_isa *isa;
    gen_opcode *ops;
    gen_optype *types;
    const char **families;
    int nfamilies;
    int has_uniform, has_indexed;   /* the model has uniform registers / R[URb+imm] operands */
    uint8_t stream_ok[GEN_MAX_STREAMS];  /* the target assembles the stream */
    int stream_ops[GEN_MAX_STREAMS][GEN_STREAM_LINES]; /* the opcodes of its lines, -1 past the end */
    unsigned max_regs;
    unsigned cmem_banks, cmem_bytes;  /* what every constant operand of the model can address */
} gen_tables;

/* One generation: what the options allow, drawn by weight (select.c), the
 * random sequence and what it has written so far, and the outputs. */
typedef struct gen_run {
    gen_rng rng;
    uint64_t *cum;                  /* [noptypes + nsel]: cumulative weights of the draw */
    uint64_t total;
    int *cls_ops;                   /* [nopcodes]: allowed opcodes, by optype then class */
    int *cls_at;                    /* [noptypes * (CLS_COUNT + 1)]: where each class starts */
    int *sel_ops, *sel_at;          /* per modifier-weight entry: the allowed opcodes it covers */
    gen_recent rgpr, rpred, rur, rup;
    unsigned base_value;            /* the value the state gives the index base register */
    gisa_word *words;
    size_t nwords, cap_words;
    strbuf text;
    char *state;
    size_t state_len;
    int oom;
} gen_run;

/* The handle: the options (options.c), read-only while a program is drawn;
 * the tables, fixed after gisa_gen_new; one run at a time. */
struct gisa_gen {
    gen_tables t;
    gen_options o;
    gen_run run;
    gisa_diags *scratch;            /* the streams' assembler diagnostics (never shown) */
};

/* tables.c */
int gen_tables_init(gen_tables *t, const gisa_isa *isa);
void gen_tables_free(gen_tables *t);
/* opcode is in the scope of a family, optype or opcode name */
int gen_in_scope(const gen_tables *t, name_level lv, int idx, int opcode);
/* The value spelled s (len n, any case) of a mnemonic modifier of F, or NULL; *slot: which modifier */
const mod_choice *gen_form_choice(const syntax_form *F, const char *s, size_t n, int *slot);
/* Some mnemonic modifier slot of F has each value of s. */
int gen_form_carries(const syntax_form *F, const gen_modsel *s);
/* Entry s covers opcode: in its scope, and some form can carry its modifiers. */
int gen_sel_covers(const gen_tables *t, const gen_modsel *s, int opcode);

/* options.c: reading the options, against the names of the tables */
int gen_options_init(gen_options *o, const gen_tables *t);
void gen_options_free(gen_options *o);
/* The header comment: "// gisa gen --target T --seed S --count N ..." */
void gen_options_describe(const gen_options *o, const gen_tables *t, uint64_t seed, size_t count, strbuf *b);

/* select.c: what the options allow of the tables, and the draw of an
 * optype and opcode by their weights. */
/* The weight of an optype after --weights/--include/--exclude (0: never). */
uint64_t gen_optype_weight(const gisa_gen *g, int optype);
int gen_opcode_allowed(const gisa_gen *g, int opcode);
/* Allowed without a modifier constraint of --include (the streams use these). */
int gen_opcode_plain(const gisa_gen *g, int opcode);
/* The optypes a stream uses are all allowed by the weights. */
int gen_stream_allowed(const gisa_gen *g, int s);
/* inst carries the modifiers of req (NULL: yes), and no weight-0 combination. */
int gen_mods_ok(const gisa_gen *g, const gisa_inst *inst, const gen_modsel *req);
/* The modifier entry an instruction of opcode must satisfy (NULL: none). */
const gen_modsel *gen_requirement(const gisa_gen *g, gen_run *r, int opcode);
/* The run's draw tables from the options; -1: out of memory. */
int gen_select_prepare(const gisa_gen *g, gen_run *r);
/* An optype by weight (or, past noptypes, a NAME.VALUE=W entry), then an
 * opcode of the optype by the operand-kind rates. */
int gen_select_optype(const gisa_gen *g, gen_run *r);
int gen_select_opcode(const gisa_gen *g, gen_run *r, int optype);
/* A reason the options cannot give what they ask for, or NULL (after gen_select_prepare). */
const char *gen_options_unsatisfiable(const gisa_gen *g, const gen_run *r, char *buf, size_t cap);

/* values.c: integer values by the classes of --int-values, for an immediate
 * of `width` bits (signed or not) or a 32-bit state value. */
extern const char *const gen_value_names[GEN_VALUE_CLASSES];
extern const char *const gen_value_scope_names[GEN_VALUE_SCOPES];
uint64_t gen_value_of_class(gen_rng *r, const uint32_t *weights, int width, int is_signed);

/* pick.c: one random instruction, its operands by the pools and rates */
/* A random valid instruction of `opcode`; 0, or -1 when no attempt decoded. */
int gen_pick(const gisa_gen *g, gen_run *r, int opcode, const gen_modsel *req, gisa_inst *inst);
/* Register choices shared with the streams */
unsigned gen_gpr_source(const gisa_gen *g, gen_run *r, int pair);
/* Records what inst writes, for later dependent sources. */
void gen_note_writes(const gen_tables *t, gen_run *r, const gisa_inst *inst);
uint64_t gen_imm_bits(const gisa_gen *g, gen_run *r, const isa_type *t);

/* streams.c: fills stream_ok/stream_ops from what the target assembles. */
void gen_stream_probe(gen_tables *t, gisa_diags *scratch);
/* Emits stream s into insts (at most max); returns how many, 0 if none. */
int gen_stream_emit(const gisa_gen *g, gen_run *r, int s, gisa_inst *insts, int max);
int gen_stream_length(int s);

/* illegal.c: a word gisa_decode refuses, of a kind drawn among the kinds
 * of reason it reports; the kind (-1: none could be made), the reason in why. */
enum { IL_FIXED, IL_UNCOVERED, IL_UNNAMED, IL_FORM, GEN_ILLEGAL_KINDS };
extern const char *const gen_illegal_names[GEN_ILLEGAL_KINDS];
int gen_illegal(const gisa_gen *g, gen_run *r, gisa_word *w, char *why, size_t cap);
/* The kind of a reason gisa_decode gave. */
int gen_illegal_kind(const char *why);

/* cover.c: --cover, the holes of a coverage file's text as the weights,
 * value classes and rates that aim at them (set through gisa_gen_set). */
gisa_status gen_cover_set(gisa_gen *g, const char *text, gisa_diags *diags);

/* state.c: the initial state as JSON into r->state */
int gen_state_build(const gisa_gen *g, gen_run *r, uint64_t seed);

/* The constant window the program reads and the state fills. */
static inline unsigned gen_cbanks(const gisa_gen *g)
{
    return g->o.cbanks < g->t.cmem_banks ? g->o.cbanks : g->t.cmem_banks;
}
static inline unsigned gen_cbytes(const gisa_gen *g)
{
    return g->o.cwords * 4 < g->t.cmem_bytes ? g->o.cwords * 4 : g->t.cmem_bytes;
}

static inline void gen_recent_push(gen_recent *r, unsigned v)
{
    r->v[r->at] = v;
    r->at = (r->at + 1) % GEN_RECENT;
    if (r->n < GEN_RECENT)
        r->n++;
}
#endif
