/* Functional coverage (gisa_cov_*): what executed instructions exercised,
 * against a universe taken from the model. Layer `lib`: it reads the model
 * (spec/) and the simulator only through the public API.
 *
 * The universe, per optype: its opcodes; its modifier groups (a syntax
 * slot's name, "Ra.hsel2" for an operand suffix) with every value the
 * syntax spells, plus "(none)" where an optional one without a default may
 * be left out; the combinations of the mnemonic's modifiers that encode
 * (mnemonic plus the values written, "FSETP.FTZ.LT.AND"); per source
 * operand the kinds it may take (R, RZ, UR, immediate, c[][] ...), its
 * decorations and, for a floating-point optype, the classes of the values
 * it reads in each format (see fp_family in universe.c for the rule). */
#ifndef GISA_COV_H
#define GISA_COV_H
#include <stdint.h>

#include "common/arena.h"
#include "gisa.h"
#include "spec/model.h"

/* Operand kinds */
enum {
    K_R, K_RZ, K_RPAIR, K_UR, K_URZ, K_URPAIR, K_P, K_PT, K_UP, K_UPT,
    K_IMM, K_F32IMM, K_F64IMM, K_F16X2IMM, K_CBANK, K_INDEXED, K_OMITTED, K_COUNT
};
extern const char *const cov_kind_names[K_COUNT];

/* Decorations written on a source */
enum { D_NEG, D_ABS, D_INV, D_NOT, D_COUNT };
extern const char *const cov_deco_names[D_COUNT];

/* Formats a source's value is classified in */
enum { F_F32, F_F64, F_F16, F_BF16, F_COUNT };
extern const char *const cov_fmt_names[F_COUNT];

/* Floating-point classes (the sign of a NaN is not told apart) */
enum { C_PZERO, C_NZERO, C_PSUB, C_NSUB, C_PNORM, C_NNORM, C_PINF, C_NINF, C_QNAN, C_SNAN, C_COUNT };
extern const char *const cov_class_names[C_COUNT];

/* Integer value classes (of a 32-bit value, or 64-bit for a pair): a
 * value counts in the first that fits */
enum { I_ZERO, I_ONE, I_MONE, I_MIN, I_MAX, I_POW2, I_SMALL, I_OTHER, I_COUNT };
extern const char *const cov_int_names[I_COUNT];
#define COV_SMALL 256 /* |v| below it is "small" */

/* Read-after-write distance buckets: dynamic instructions of the warp
 * since the source register was last written (none: not in this run) */
enum { R_1, R_2, R_4, R_8, R_MORE, R_NONE, R_COUNT };
extern const char *const cov_raw_names[R_COUNT];

/* Kinds of bin groups (cov_bins), one summary figure each */
enum { B_VALUE, B_RESULT, B_GUARD, B_RAW, B_CROSS, B_COUNT };

/* A group of named bins derived from the model (bins.c): value and result
 * classes, predicate outcomes, guard and exec-mask patterns, read-after-
 * write distances, crosses. */
typedef struct cov_bins {
    const char *name; /* "Ra value", "Rd F32 result", "rnd x Rd F32 result" */
    int kind;         /* B_* */
    int nbins;
    const char **names;
    uint8_t *possible;
    uint64_t *hits;
} cov_bins;

/* A destination of an optype, by its syntax name */
typedef struct cov_dest {
    const char *name;
    int pred;            /* a predicate: outcomes true/false */
    int result[F_COUNT + 1]; /* bins of its result class per format (F_COUNT: integer), -1; pred: [0] */
} cov_dest;

#define COV_NONE "(none)" /* an optional modifier left out (no default stands for it) */
#define COV_MAX_TUPLES 65536 /* a form with more combinations has none counted */

typedef struct cov_group {
    const char *name;
    int encoded; /* 0: no field encodes it (always its default): not counted */
    int nvalues;
    const char **values;
    uint64_t *hits;
} cov_group;

typedef struct cov_operand {
    const char *name;
    uint32_t kinds, decos, fmts; /* possible, one bit per K_ / D_ / F_ */
    uint64_t kind_hits[K_COUNT];
    uint64_t deco_hits[D_COUNT];
    uint64_t class_hits[F_COUNT][C_COUNT]; /* lane values (halves count one each) */
    int value_bins, raw_bins;              /* cov_bins of integer classes / RAW distances, -1 */
} cov_operand;

typedef struct cov_optype {
    const char *name;
    int fp;      /* 0: integer; else 1 + F_F32 / F_F64 / F_F16 (halves) */
    int ngroups, nops, ncombos;
    cov_group *groups;
    cov_operand *ops;
    const char **combos;    /* keys, "FSETP.FTZ.LT.AND" */
    uint8_t *combo_encodes; /* the model encodes it */
    uint64_t *combo_hits;
    uint64_t executed, skipped;
    int nbins, ndests;
    cov_bins *bins;
    cov_dest *dests;
    int guard_bins, exec_bins;
    int fma_a, fma_b, fma_cross[F_COUNT]; /* fused multiply-add: the first two FP sources, their cross per format */
    int *modmod;   /* [ngroups * ngroups]: bins of modifier g1 x g2 (g1 < g2), -1 */
    int *modres;   /* [ngroups * F_COUNT]: bins of modifier g x the first register destination's class, -1 */
    int res_dest;  /* that destination, -1 */
} cov_optype;

/* One syntax slot of an (opcode, form) mapped onto its optype's tables. */
typedef struct cov_slot {
    int group;       /* -1: not counted (no field) */
    int noptions;    /* choices, plus one when leaving it out is a distinct value */
    int *value;      /* [noptions]: value index in the group */
    int stride;      /* in the form's combination index; 0: not in combinations */
} cov_slot;

typedef struct cov_form {
    cov_slot *slots;    /* [F->nmods] */
    int *operand;       /* [F->nops]: cov_operand index, -1 for destinations and PR */
    int *combo_of;      /* [ntuples]: combination id, -1 never; NULL: not counted */
    int *dest;          /* [F->nops]: cov_dest index for destinations, -1 */
    int ntuples;
} cov_form;

typedef struct cov_opcode {
    int optype;
    cov_form *forms;
    int bf16_field;     /* half-precision optypes: the field that selects BF16, -1 */
    uint64_t bf16_value;
    uint64_t executed, skipped;
} cov_opcode;

struct gisa_cov {
    const gisa_isa *isa;
    arena a;
    int nopcodes, noptypes;
    cov_opcode *opcodes;
    cov_optype *optypes;
    uint64_t executed, skipped;
    gisa_sim *sim; /* gisa_cov_attach's */
    /* read-after-write tracking of the run being recorded (not saved) */
    const gisa_sim *raw_sim;
    struct cov_warp **warps;
    unsigned nwarps;
    /* user-defined bins (user.c) */
    struct cov_user *user;
    int nuser;
};

/* A user-defined bin (user.c): an optype, modifier values that must all
 * be written, and lane conditions that must all hold in a lane */
#define COV_USER_MAX 8
typedef struct cov_user {
    char *name, *def; /* def: the definition as written after "NAME:" */
    int optype;       /* -1: read from a coverage file, no rule here */
    int nmods, nconds;
    int *want;        /* [nmods * ngroups]: value index the group must hold, -1 any (one group suffices) */
    struct {
        int dest;       /* 0: a source (cov_operand), 1: a destination (cov_dest) */
        int index;
        uint32_t classes; /* bits of the class index */
    } cond[COV_USER_MAX];
    uint32_t guard, exec; /* bits of the guard / exec-mask bins; 0: any */
    uint64_t hits;
} cov_user;

/* One warp's dynamic instruction count and, per register file and
 * register, the count at its last write plus one (0: not written). */
#define COV_RAW_REGS 256
typedef struct cov_warp {
    uint64_t n;
    uint64_t last[4][COV_RAW_REGS];
} cov_warp;

/* What one executed commit showed, lane by lane, for bins.c and user.c */
#define COV_REC_OPS 16
typedef struct cov_lanes {
    uint32_t exec, active;
    int nops;
    int8_t src_class[COV_REC_OPS][2][32]; /* per cov_operand (< COV_REC_OPS): class per half (I_*, C_*), -1 */
    int8_t src_fmt[COV_REC_OPS];          /* F_* or F_COUNT (integer), -1: no value */
    int8_t dst_class[COV_REC_OPS][2][32]; /* per cov_dest: class per half; predicates 1 true, 0 false */
    int8_t dst_fmt[COV_REC_OPS];
    int gval[64];                         /* per modifier group: the value index, -1 */
} cov_lanes;

/* Builds the bins of every optype (after the universe; bins.c). */
int cov_build_bins(gisa_cov *c);
/* Counts one executed commit (bins.c), and a skipped one's patterns. */
struct cov_form;
void cov_record_bins(gisa_cov *c, int ti, const struct cov_form *cf, const cov_opcode *oc, const gisa_sim *sim,
                     const gisa_sim_commit *cm, const gisa_inst *inst, const gisa_operand *go, int nops, cov_lanes *L);
/* The exec-mask and guard patterns of any commit, and the RAW tracker's count */
void cov_record_patterns(gisa_cov *c, cov_optype *t, const gisa_sim_commit *cm);
/* A source's 64-bit lane values before the commit (record.c); 0 when it holds none */
int cov_source_values(const gisa_sim *sim, const gisa_sim_commit *c, const gisa_operand *go, uint64_t *v);
/* The RAW tracker forgets the run (a new simulator) */
void cov_raw_reset(gisa_cov *c);
int cov_int_class(uint64_t v, int bits);
/* Figure of one bin group */
gisa_cov_figure cov_bins_figure(const cov_bins *b);
/* Calls fn for every group of items of every optype, in report order:
 * opcodes, modifier groups, combinations, per source its kinds,
 * decorations and classes per format, the bins. possible[i] (NULL: all)
 * says whether item i is in the universe (or was hit). */
typedef void (*cov_group_fn)(void *u, const cov_optype *t, int ti, const char *group, int n, const char *const *names,
                             const uint64_t *hits, const uint8_t *possible);
void cov_each_group(const gisa_cov *c, cov_group_fn fn, void *u);
/* User bins (user.c) */
void cov_user_free(gisa_cov *c);
void cov_user_record(gisa_cov *c, const cov_optype *t, int ti, const cov_lanes *L);
/* Merging user bins: -1 when a name of `from` has another definition in
 * `into`; adopting makes every user bin of `from` one of `into` (counts 0);
 * cov_add then adds the counts by name. */
int cov_user_merge_check(const gisa_cov *into, const gisa_cov *from);
int cov_user_adopt(gisa_cov *into, const gisa_cov *from);
/* The user bin called name (-1), and a new one (-1 out of memory) */
int cov_user_find(const gisa_cov *c, const char *name);
int cov_user_new(gisa_cov *c, const char *name, const char *def);

/* The option a slot's field value is (index into cov_slot.value), or -1. */
int cov_slot_option(const mod_slot *m, const cov_slot *cs, uint64_t v);
/* Classifies bits of a format (C_*). */
int cov_classify(uint64_t bits, int fmt);
/* The summary's figures in report order, and their names in the JSON
 * ("modifier_values"; the text report shows '_' as a space). */
#define COV_NFIGURES 13
extern const char *const cov_figure_names[COV_NFIGURES];
void cov_figures(const gisa_cov_summary *s, gisa_cov_figure *out);
/* Adds every count of `from` to `into` (same layout). */
void cov_add(gisa_cov *into, const gisa_cov *from);
/* The largest count a coverage file holds (what the reader accepts, so
 * that whatever is written reads back): sums saturate there instead of
 * wrapping when many files are merged. */
#define COV_COUNT_MAX UINT64_C(0x7fffffffffffffff)
static inline uint64_t cov_sat_add(uint64_t a, uint64_t b)
{
    return a > COV_COUNT_MAX - (b > COV_COUNT_MAX ? COV_COUNT_MAX : b) ? COV_COUNT_MAX : a + b;
}
#endif
