/* Executable documents: the `__Semantics` pseudo-code of each optype, with
 * the rulings' semantic patches applied, parsed once when a model loads
 * (ds_model_build) and compiled per instruction word into a lane-vector
 * program (ds_compile, prog.h) that the simulator's doc engine runs. See
 * docs/semantics-language.md. */
#ifndef GISA_DOCSEM_DOCSEM_H
#define GISA_DOCSEM_DOCSEM_H
#include <stddef.h>
#include <stdint.h>

#include "docsem/ast.h"
#include "docsem/prog.h"
#include "spec/model.h"

/* How the decorations written on an operand (-x, |x|, ~x) change the value
 * the pseudo-code sees (declared by `decorate` patches). */
typedef enum ds_deco {
    DD_NONE,   /* no rule: a decorated operand is an error */
    DD_FP,     /* |x| clears the sign bit(s), -x flips it (after |x|) */
    DD_ADDEND, /* -x is 2^W - x (an exact addend: -0 carries out), ~x is 2^W - 1 - x */
    DD_TWOS,   /* -x is (2^W - x) mod 2^W, ~x is 2^W - 1 - x */
    DD_FLAGS   /* nothing is applied: the pseudo-code reads x.neg, x.abs, x.inv */
} ds_deco;

/* The value type the pseudo-code gives an operand (`type` patches). */
typedef enum ds_vtype { DV_INT, DV_F16, DV_BF16, DV_F32, DV_F64, DV_H2 } ds_vtype;

typedef struct ds_decl {
    const char *name; /* operand name */
    ds_vtype type;
    const char *fmtmod; /* DV_H2: the modifier naming the halves' format */
    ds_deco deco;
} ds_decl;

typedef enum ds_patch_kind { DP_REPLACE, DP_BLOCK, DP_TYPE, DP_DECORATE } ds_patch_kind;

typedef struct ds_patch {
    ds_patch_kind kind;
    const char *what;   /* the patch as written (REPLACE: the anchor) */
    const char *reason;
    srcloc loc;
} ds_patch;

typedef struct ds_optype {
    const isa_optype *ot;
    ds_line *doc;      /* the document's lines */
    int ndoc;
    ds_line *lines;    /* after the patches: the code that runs */
    int nlines;
    ds_variant *variants;
    int nvariants;
    int errors;        /* parse or patch errors (the optype does not run) */
    ds_decl *decls;
    int ndecls;
    ds_patch *patches;
    int npatches;
    uint64_t fingerprint; /* ds_fingerprint of the above, computed when it is built */
} ds_optype;

typedef struct ds_model {
    ds_optype *ot; /* [isa->noptypes], by optype index */
    int n;
} ds_model;

/* Builds the model's semantics (isa->docsem) from the optypes' blocks and
 * the rulings' patches. Parse and patch errors go to diags with severity
 * sev at their file:line:col (the loader reports them as warnings, lint as
 * errors: an optype whose block has errors does not run); returns their
 * number. */
int ds_model_build(gisa_isa *isa, gisa_severity sev, gisa_diags *diags);

/* The same semantics built again into arena a (the model's is untouched),
 * reporting with severity sev; NULL when out of memory. */
ds_model *ds_model_rebuild(const gisa_isa *isa, arena *a, gisa_severity sev, gisa_diags *diags);

/* Optype t's semantics built again into *out (memory in arena a), as a
 * description file that adds the ruling extra (a RAW_RULING definition the
 * loader parsed; NULL for none) after the model's own would give them, with
 * parse and patch problems reported with severity sev; the rest of the
 * model is not rebuilt. Returns the number of errors (-1: no optype t).
 * For the fuzzer (fuzz/fuzz_docsem.c) and tools that try a changed block. */
int ds_optype_rebuild(const gisa_isa *isa, int t, const raw_def *extra, arena *a, gisa_severity sev,
                      gisa_diags *diags, ds_optype *out);
/* Exchanges optype t's semantics in the model with *s, so that words
 * compiled from then on (a simulator's next run) use them; swapping again
 * puts the model's back. Not while another thread compiles on that isa. */
void ds_optype_swap(const gisa_isa *isa, int t, ds_optype *s);

/* gisa lint's part for the pseudo-code: parse and patch errors (errors), a
 * note per semantic patch (the optype, the patch, its reason), a warning per
 * unknown name the code reads. */
void ds_lint(const gisa_isa *isa, gisa_diags *diags);
/* The notes and warnings of ds_lint for one optype's semantics (scratch
 * memory in arena a). */
void ds_lint_optype(const ds_optype *s, arena *a, gisa_diags *diags);

/* One operand of the instruction being compiled, as the caller placed it. */
typedef struct ds_operand {
    const char *name;  /* syntax name: "Rd", "SrcB", "pu" */
    int port;          /* the caller's port number (< DS_NPORTS) */
    uint8_t out;       /* a result: Rd, URd, pu, pv */
    uint8_t pred;      /* a predicate (0/1 lanes) */
    uint8_t pair;      /* 64-bit */
    uint8_t neg, abs, inv;
    uint8_t is_const;  /* its value is known now (immediate, constant memory, RZ, PT) */
    uint8_t is_signed; /* a constant: value is a signed 64-bit integer (SImm9 of R[URb+SImm9]) */
    uint8_t pfile;     /* the predicate file PR: the pseudo-code reads and writes P0..P7 */
    uint64_t value;
    uint8_t discard;   /* a result nobody sees (written to RZ or PT): not written */
} ds_operand;

typedef struct ds_insn {
    const gisa_isa *isa;
    const isa_opcode *op;
    const syntax_form *F;
    const uint64_t *fields; /* the word's field values, by opcode field index */
    const ds_operand *ops;
    int nops;
} ds_insn;

/* Compiles one instruction word. Returns a program (release with
 * ds_prog_free) or NULL with why (at most cap bytes) when the pseudo-code
 * cannot run for it: no variant matches, an unknown name, a type error. */
ds_prog *ds_compile(const ds_insn *in, char *why, size_t cap);
void ds_prog_free(ds_prog *p);

/* Names the pseudo-code reads without defining them: the warp's lane masks
 * (always), and the predicate file's registers where the syntax line has a
 * PR operand (P7 is PT). */
extern const char *const ds_warp_names[2];  /* activeMask, pgv */
extern const char *const ds_pfile_names[8]; /* P0..P7 */

/* The fingerprint of what the doc engine runs for s: the 64-bit FNV-1a
 * hash of its canonical form (canon.c: the variants of the patched block as
 * parsed, printed one statement a line with every expression fully
 * parenthesised, and the operands' types and decorations), so that layout
 * and comments do not count and every change of meaning does; 0 when s has
 * no pseudo-code (never 0 otherwise). */
uint64_t ds_fingerprint(const ds_optype *s);

/* One line of the canonical form: its text and where it came from (the
 * statement, the variant header, the patch that declared the operand). */
typedef struct ds_canon_line {
    const char *text;
    srcloc loc;
} ds_canon_line;
/* The canonical form of s, one line each, into arena a (*out; 0 lines when
 * s has no pseudo-code); -1 when out of memory. */
int ds_canon_lines(const ds_optype *s, arena *a, ds_canon_line **out);

/* The semantics of an optype, or NULL when the model has none. */
const ds_optype *ds_optype_of(const gisa_isa *isa, const isa_optype *ot);
/* Whether some variant of the code assigns to the name (as a whole, a slice
 * or a member): what the pseudo-code writes, for an opcode whose operand
 * info does not say (no OutList). */
int ds_assigns(const ds_optype *s, const char *name);
#endif
