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
};

/* The option a slot's field value is (index into cov_slot.value), or -1. */
int cov_slot_option(const mod_slot *m, const cov_slot *cs, uint64_t v);
/* Classifies bits of a format (C_*). */
int cov_classify(uint64_t bits, int fmt);
/* The summary's figures in report order, and their names in the JSON
 * ("modifier_values"; the text report shows '_' as a space). */
#define COV_NFIGURES 7
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
