/* gisa: ISA-description-driven toolchain for the gisa 128-bit GPU ISA.
 *
 * Library conventions (think Capstone/Keystone):
 *  - every symbol starts with gisa_ / GISA_;
 *  - handles are opaque; each *_new / *_load has a matching *_free;
 *  - functions return a gisa_status; details go to a gisa_diags list
 *    (file:line:col, severity, message, source line) that the caller prints;
 *  - the library never prints, never calls exit() or abort() on bad input.
 *
 * Threads. The library keeps no mutable global state, so threads may call
 * it at once, under these rules:
 *  - a loaded gisa_isa is immutable: once gisa_isa_load has returned, any
 *    number of threads may share it in every function that takes a
 *    `const gisa_isa *` (gisa_isa_lint, gisa_isa_doc, gisa_isa_manual,
 *    gisa_isa_find_opcode and the other queries, gisa_assemble,
 *    gisa_words_serialize, gisa_words_parse, gisa_disassemble,
 *    gisa_decode*, gisa_encode, gisa_print, the gisa_inst_* accessors,
 *    gisa_sim_new, gisa_sim_max_regs, gisa_gen_new and gisa_shrink_state),
 *    until one thread calls gisa_isa_free, which must come after all of them (and after
 *    freeing the simulators and generators made from it); loading itself
 *    may run in several threads, each making its own handle;
 *  - a gisa_diags, a gisa_sim, a gisa_gen and the caller's own buffers
 *    (gisa_inst, words, text) are used by one thread at a time: give each
 *    thread its own, or lock. Separate simulators and generators of one
 *    gisa_isa run in separate threads at once (gisa_sim_clone makes a
 *    thread its own copy); gisa_sim_run's worker threads
 *    (gisa_sim_set_threads) are its own business, and its trace and commit
 *    callbacks are called from the thread that called it;
 *  - the functions without a handle (gisa_status_str, gisa_version*,
 *    gisa_target_*, gisa_diag_format, gisa_shrink, gisa_free) are safe
 *    anywhere;
 *  - the calling thread's floating-point environment may be anything:
 *    any rounding mode, flush-to-zero and denormals-are-zero (x86 MXCSR
 *    FTZ/DAZ, which every program linked with -ffast-math or -Ofast sets at
 *    start-up, and some Python extension modules set when loaded), sticky
 *    exception flags, exceptions unmasked. Results never depend on it:
 *    every function that reaches floating-point code (simulation, the
 *    doc engine, assembling, state files, traces, loading, coverage, the
 *    decimal conversions) saves the whole environment, runs in IEEE's
 *    default (round to nearest, no FTZ/DAZ, exceptions masked), and puts
 *    the caller's back exactly, flags included, on every exit path. The
 *    trace and commit callbacks are called inside that default
 *    environment. Some decimal numbers go through the C library's strtod
 *    and printf, which follow LC_NUMERIC: leave it at "C" (where every
 *    program starts; setlocale(LC_ALL, "") changes it), and never call
 *    setlocale while another thread is in the library.
 * tests/unit/test_threads.c checks this under ThreadSanitizer (make tsan);
 * the hostenv/ tests (tests/unit/hostenv.c), tests/cli/fpenv.sh and
 * python/tests/test_fpenv.py check the floating-point environment.
 */
#ifndef GISA_H
#define GISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every function of the API is marked GISA_API: the library is compiled
 * with -fvisibility=hidden, so these are the only symbols libgisa.so
 * exports, and libgisa.a (prelinked into one object whose hidden symbols
 * are made local) defines no other global name a program could clash
 * with. tests/cli/symbols.sh checks both. */
#ifndef GISA_API
#if defined(__GNUC__) || defined(__clang__)
#define GISA_API __attribute__((visibility("default")))
#else
#define GISA_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Conventions of API 1.0:
 *  - every function that can fail returns a gisa_status, and its results
 *    come through out-parameters (written only on GISA_OK unless said
 *    otherwise); no function returns a special value to mean an error.
 *    The functions that return a value directly cannot fail: counts and
 *    names of a valid handle (0 or NULL for a NULL handle or an index out
 *    of range, which are the only ways to misuse them), gisa_status_str,
 *    gisa_version*, gisa_sim_footprint;
 *  - yes/no results are bool;
 *  - every callback returns a gisa_status: anything but GISA_OK stops the
 *    operation that called it, which returns that status (except the
 *    assembler's `include`, whose failure is an error at the directive,
 *    and its `release`, a destructor that returns nothing);
 *  - option structs begin with their size (set it with the *_INIT macro,
 *    then the fields you use): a program built against this header keeps
 *    working with a later library that adds fields at their end;
 *  - every pointer the library hands out says next to its function how
 *    long it stays valid; memory the caller owns is released with
 *    gisa_free.
 * The message that explains a failure goes to a gisa_diags list (loading,
 * assembling, state files, generator options), into gisa_inst.why (decode,
 * encode), or into the text itself (`.invalid ... // reason` of
 * gisa_disassemble). Which codes come from where:
 *   GISA_OK                       success, everywhere;
 *   GISA_ERR_INPUT                the input has errors: gisa_isa_load, gisa_isa_lint,
 *                                 gisa_assemble, gisa_words_parse, gisa_disassemble,
 *                                 gisa_decode, gisa_encode, gisa_state_parse,
 *                                 gisa_sim_state_apply, gisa_cov_read_json, gisa_shrink,
 *                                 gisa_shrink_state;
 *   GISA_ERR_USAGE                a bad argument (NULL, index out of range, a value
 *                                 wider than its field): every function;
 *   GISA_ERR_IO                   gisa_isa_load (a path), gisa_shrink, gisa_shrink_state;
 *   GISA_ERR_NOMEM                out of memory: every function that allocates;
 *   GISA_ERR_NOTFOUND             gisa_isa_doc, gisa_isa_find_opcode, gisa_decode_opcode,
 *                                 gisa_inst_guard;
 *   GISA_ERR_SIM                  gisa_sim_run, gisa_sim_continue, gisa_sim_step;
 *   GISA_ERR_TRUNCATED            gisa_disassemble, gisa_print (the text was cut);
 *   GISA_ERR_LIMIT                over a documented limit: gisa_isa_load (a description
 *                                 file over 16 MiB, a load over max_memory),
 *                                 gisa_gen_generate (count);
 *   (any)                         what a callback returned. */
typedef enum gisa_status {
    /* success */
    GISA_OK = 0,
    /* the caller's data */
    GISA_ERR_INPUT = 1,   /* the input (description, source, word) has errors */
    GISA_ERR_USAGE = 2,   /* bad argument from the caller */
    /* the environment */
    GISA_ERR_IO = 3,      /* a file could not be read or written */
    GISA_ERR_NOMEM = 4,   /* out of memory */
    /* look-ups and runs */
    GISA_ERR_NOTFOUND = 5, /* a named item does not exist */
    GISA_ERR_SIM = 6,      /* the simulated program faulted (see gisa_sim_fault) */
    /* the caller's buffer */
    GISA_ERR_TRUNCATED = 7, /* the text did not fit and was cut (still NUL-terminated) */
    /* the environment */
    GISA_ERR_LIMIT = 8      /* over a documented limit (not out of memory) */
} gisa_status;

/* A static string (valid for the program's life), also for unknown codes. */
GISA_API const char *gisa_status_str(gisa_status s);

/* The library's version, for bindings and programs that load it at run
 * time: gisa_version() is "MAJOR.MINOR.PATCH" (CMake's project VERSION),
 * gisa_version_number() is MAJOR*10000 + MINOR*100 + PATCH. The shared
 * library's soname changes with MAJOR. Static strings. */
GISA_API const char *gisa_version(void);
GISA_API unsigned gisa_version_number(void);

/* Releases memory the library returned (see above); NULL is ignored. */
GISA_API void gisa_free(void *p);

/* ---------------------------------------------------------------- diagnostics */

typedef enum gisa_severity { GISA_NOTE = 0, GISA_WARNING = 1, GISA_ERROR = 2 } gisa_severity;

typedef struct gisa_diag {
    gisa_severity severity;
    const char *file;        /* may be "" when not tied to a file */
    int line;                /* 1-based; 0 when unknown */
    int col;                 /* 1-based; 0 when unknown */
    int length;              /* number of columns to underline (>= 1) */
    const char *message;
    const char *source_line; /* the offending line without its newline, or NULL */
    /* where the file was included from, printed before the diagnostic as
     * GCC does ("In file included from a.s:3:", one line per level), or
     * NULL outside included files */
    const char *context;
    /* the kind of a lint warning (gisa_isa_lint_category), shown after the
     * message as "[-Wkind]" as GCC does, or NULL */
    const char *category;
} gisa_diag;

typedef struct gisa_diags gisa_diags;

GISA_API gisa_status gisa_diags_new(gisa_diags **out);
GISA_API void gisa_diags_free(gisa_diags *d);
GISA_API size_t gisa_diags_count(const gisa_diags *d);
/* The i-th diagnostic (NULL when i >= gisa_diags_count). The pointer and
 * every string in it stay valid until gisa_diags_clear or gisa_diags_free
 * of d, however many diagnostics are added meanwhile. */
GISA_API const gisa_diag *gisa_diags_get(const gisa_diags *d, size_t i);
GISA_API size_t gisa_diags_errors(const gisa_diags *d);
GISA_API size_t gisa_diags_warnings(const gisa_diags *d);
/* Upper bound on stored diagnostics; further ones are counted but dropped. */
GISA_API void gisa_diags_set_limit(gisa_diags *d, size_t limit);
GISA_API size_t gisa_diags_dropped(const gisa_diags *d);
GISA_API void gisa_diags_clear(gisa_diags *d);
/* Formats one diagnostic as `file:line:col: error: message`, plus the source
 * line and a caret line when with_source is set, after its context lines
 * when it has some. Columns count characters (UTF-8 code points), not
 * bytes, so that the caret stands under the character it names. *out is a
 * string to release with gisa_free. */
GISA_API gisa_status gisa_diag_format(const gisa_diag *g, bool with_source, char **out);

/* ---------------------------------------------------------------- ISA model */

typedef struct gisa_isa gisa_isa;

/* Names of the targets compiled into the library ("gisa128" is the default;
 * static strings, NULL past the last). */
GISA_API size_t gisa_target_count(void);
GISA_API const char *gisa_target_name(size_t i);

/* In-memory description files (name/text pairs). */
typedef struct gisa_source {
    const char *name;
    const char *text;
    size_t len;
} gisa_source;

/* What gisa_isa_load reads. Start from GISA_LOAD_OPTIONS_INIT (or NULL
 * options: the embedded descriptions of the default target).
 *  - target: the embedded descriptions of this target (NULL: "gisa128")
 *    when neither paths nor sources are given; the project's types and
 *    rulings of it otherwise;
 *  - paths (npaths): files and directories mixed, read in the order given:
 *    a file is read as it is; a directory gives its regular files, in name
 *    order, except hidden ones (".x") and backups (x~, .orig, .rej, .swp,
 *    .swo, .bak); subdirectories are not entered; a file reached twice is
 *    read once. A file named *.isa or *.isa.txt is always a description;
 *    any other is one when it has no NUL byte and a line starting with a
 *    __DefXxx keyword outside ``` blocks: the others are skipped, with a
 *    GISA_NOTE "skipped: not an ISA description (REASON)". The project's
 *    `types.isa` and `rulings.isa` (recognised by those names) are taken
 *    from the files when one of them is there, otherwise from
 *    `overlay_dir` when given, otherwise from the embedded copies of
 *    `target`;
 *  - sources (nsources): in-memory files instead of paths (tests, fuzzers,
 *    editors), read as they are;
 *  - add (nadd): an ISA author's own files and directories (what `gisa
 *    --isa-add` does), read after the base the same way. Definitions of the
 *    added files join the base's: a new optype and its opcodes, its
 *    __Semantics, a __DefRuling, and values added to an existing
 *    __DefBitFieldType (a later definition with the same name and width; a
 *    value name or value already taken is an error).
 *  - max_memory: the bytes the loaded model may take (the descriptions'
 *    texts, the model, the tools' tables, the pseudo-code's trees); 0: the
 *    default, 4 GiB. Appended after API 1.0: a caller whose `size` ends
 *    before it gets the default.
 * GISA_ERR_IO when a path does not exist or cannot be read (the message
 * names it); GISA_ERR_LIMIT for a description file over 16 MiB, or a load
 * over max_memory (an error at the file and line it reached names the
 * limit);
 * GISA_ERR_INPUT for errors in the descriptions, and when they define no
 * opcode ("no instruction (opcode) defined in ..."); GISA_ERR_USAGE for
 * paths and sources both, or a size smaller than API 1.0's struct. */
typedef struct gisa_load_options {
    size_t size; /* sizeof(gisa_load_options) */
    const char *target;
    const char *const *paths;
    size_t npaths;
    const char *overlay_dir;
    const char *const *add;
    size_t nadd;
    const gisa_source *sources;
    size_t nsources;
    size_t max_memory;
} gisa_load_options;
#define GISA_LOAD_OPTIONS_INIT {sizeof(gisa_load_options), NULL, NULL, 0, NULL, NULL, 0, NULL, 0, 0}
GISA_API gisa_status gisa_isa_load(const gisa_load_options *opt, gisa_isa **out, gisa_diags *diags);

GISA_API void gisa_isa_free(gisa_isa *isa);

GISA_API unsigned gisa_isa_word_bits(const gisa_isa *isa);      /* 128 or 64 */
GISA_API size_t gisa_isa_opcode_count(const gisa_isa *isa);
GISA_API const char *gisa_isa_opcode_name(const gisa_isa *isa, size_t i);
GISA_API size_t gisa_isa_optype_count(const gisa_isa *isa);
GISA_API const char *gisa_isa_optype_name(const gisa_isa *isa, size_t i);
/* Index of an opcode by name; GISA_ERR_NOTFOUND when there is none. */
GISA_API gisa_status gisa_isa_find_opcode(const gisa_isa *isa, const char *name, size_t *index);

/* Runs every consistency check; problems are appended to diags as warnings
 * or errors, each at the line and column of the definition at fault; each
 * warning has a category (gisa_diag.category) by which a caller can
 * silence it; each semantic patch of the rulings is a note (the optype,
 * the patch, its reason). An erratum that a ruling corrects (the ruling's
 * own change, or a finding its __Errata section acknowledges) is a note
 * "erratum corrected by ruling (FILE:LINE...): ..." that keeps the
 * category it would have as a warning: a note with a category is such an
 * erratum, and a caller that wants them as warnings (gisa lint -Wruling)
 * takes them as warnings. An __Errata line that matches no finding is a
 * warning of category stale-erratum. Returns GISA_ERR_INPUT when at least
 * one error was found. */
GISA_API gisa_status gisa_isa_lint(const gisa_isa *isa, gisa_diags *diags);
/* The categories of lint warnings, i = 0, 1, ... until NULL. */
GISA_API const char *gisa_isa_lint_category(size_t i); /* static strings */

/* The simulator's C semantics as a checked accelerator of the documents
 * (docs/semantics-language.md, "C semantics and the documents"). Every C
 * semantic function declares the fingerprint of the pseudo-code it
 * implements; an optype whose pseudo-code has another fingerprint in this
 * model runs its pseudo-code under GISA_ENGINE_AUTO, and gisa_isa_lint
 * adds a note naming the place of the change.
 * gisa_isa_fingerprints: the model's fingerprints, one C line per optype
 * that has C semantics and pseudo-code (the lines of the table
 * src/sim/fingerprints.c), into *out (release with gisa_free), and an
 * error in diags (may be NULL) per optype whose fingerprint is not the
 * declared one, naming the C function to review and the value to declare.
 * GISA_OK; GISA_ERR_INPUT when one differs; GISA_ERR_NOMEM. */
GISA_API gisa_status gisa_isa_fingerprints(const gisa_isa *isa, char **out, gisa_diags *diags);
/* The differential check of the two engines: for every optype that has
 * both C semantics and pseudo-code, random valid words of each of its
 * opcodes (seeded by seed: the same words every time) from states biased
 * to the hard values (signed zeros, infinities, NaNs, subnormals, INT_MIN,
 * all ones), on full, partial and empty warps with random guards, run by
 * both engines. *report (release with gisa_free) has a line per optype
 * (words, lane results compared, disagreements) and, for the first
 * disagreements of each optype, the instruction, the lane, the inputs and
 * both results. GISA_OK when they agree everywhere; GISA_ERR_INPUT when
 * not; GISA_ERR_NOMEM. */
GISA_API gisa_status gisa_isa_check_semantics(const gisa_isa *isa, uint64_t seed, char **report);

/* Plain-text reference for an optype or opcode (name NULL: the list of
 * all) into *out, a string to release with gisa_free; GISA_ERR_NOTFOUND
 * when no optype or opcode has that name. */
GISA_API gisa_status gisa_isa_doc(const gisa_isa *isa, const char *name, char **out);

/* The HTML reference manual of the loaded ISA (what `gisa doc --html DIR`
 * writes): a static site, every asset local. The library writes no file:
 * each page goes to `page` with its file name (a plain name such as
 * "index.html" or "opcode-FFMA_RRC.html": no directory part, never starting
 * with '.') and its bytes (valid during the call). A callback that returns
 * anything but GISA_OK stops the manual, and gisa_isa_manual returns that
 * status; otherwise
 * GISA_OK, GISA_ERR_NOMEM, or GISA_ERR_USAGE for NULL arguments. The pages
 * come in a fixed order: style.css, search.js, search-index.js, index.html,
 * encoding.html (the map of used and free opcode-selecting codes),
 * errata.html (lint's findings), then optype-NAME.html for every optype
 * and opcode-NAME.html for every opcode, where NAME keeps letters, digits
 * and '_' and writes any other byte as -XX (hex). */
typedef gisa_status (*gisa_page_fn)(void *user, const char *name, const char *data, size_t len);
GISA_API gisa_status gisa_isa_manual(const gisa_isa *isa, gisa_page_fn page, void *user);

/* ---------------------------------------------------------------- words */

/* An instruction word, bit i is bit (i % 64) of w[i / 64]. 64-bit targets
 * use w[0] only. */
typedef struct gisa_word {
    uint64_t w[2];
} gisa_word;

/* ---------------------------------------------------------------- decoded instructions */

/* One decoded instruction, the neutral form every tool works on (like LLVM's
 * MCInst): the opcode, the syntax form that expresses it, and the value of
 * each of the opcode's fields. gisa_decode fills it from a word (the only
 * judge of whether a word is an instruction), gisa_encode turns it back into
 * the word, gisa_print into canonical text; the accessors below walk its
 * operands and modifiers as the assembly text shows them. A plain struct:
 * no memory is attached, it may be copied, kept and compared freely. */
#define GISA_INST_MAX_FIELDS 64
#define GISA_INST_WHY 260

typedef struct gisa_inst {
    gisa_word word;   /* the word it was decoded from or encoded to */
    int opcode;       /* opcode index (gisa_isa_opcode_name); -1 when unknown */
    int form;         /* syntax form of the opcode (its N-th syntax line) */
    /* field[i]: the value of the opcode's field i (gisa_inst_field_name), for
     * i < gisa_inst_field_count; the others are unspecified, except that
     * field[GISA_INST_MAX_FIELDS] is always 0 */
    uint64_t field[GISA_INST_MAX_FIELDS + 1];
    char why[GISA_INST_WHY]; /* after a failed gisa_decode/gisa_encode: the reason */
} gisa_inst;

/* Decodes a word. GISA_OK with *inst filled; GISA_ERR_INPUT when the word
 * is no instruction (inst->why says why, inst->opcode is the opcode whose
 * fixed bits matched or -1); GISA_ERR_USAGE for NULL arguments. */
GISA_API gisa_status gisa_decode(const gisa_isa *isa, gisa_word word, gisa_inst *inst);

/* Encodes inst->opcode/form/field[] into *word (and inst->word is not
 * read). GISA_OK; GISA_ERR_USAGE when the opcode or form index is out of
 * range or a value does not fit its field (inst->why says which);
 * GISA_ERR_INPUT when the values make no valid instruction: a fixed field
 * differs from its value, or the word does not decode (inst->why has the
 * decoder's reason). decode -> encode is the identity. */
GISA_API gisa_status gisa_encode(const gisa_isa *isa, gisa_inst *inst, gisa_word *word);

/* Canonical assembly text of inst (no trailing newline) into buf[cap],
 * always NUL-terminated; it judges nothing (decode does). GISA_ERR_TRUNCATED
 * when the text was cut to fit cap, GISA_ERR_USAGE for bad arguments or
 * values that do not fit their fields. */
GISA_API gisa_status gisa_print(const gisa_isa *isa, const gisa_inst *inst, char *buf, size_t cap);

/* Names of what an inst refers to; NULL for an out-of-range index. Like
 * every name the model gives (gisa_isa_opcode_name, gisa_isa_optype_name,
 * gisa_operand.name and .suffix, gisa_modifier.name and .value), they
 * belong to the isa and stay valid until gisa_isa_free. */
GISA_API const char *gisa_inst_opcode_name(const gisa_isa *isa, const gisa_inst *inst); /* "FFMA_RRC" */
GISA_API const char *gisa_inst_optype_name(const gisa_isa *isa, const gisa_inst *inst); /* "FFMA" */
GISA_API const char *gisa_inst_mnemonic(const gisa_isa *isa, const gisa_inst *inst);    /* "IMAD.WIDE" */
GISA_API size_t gisa_inst_field_count(const gisa_isa *isa, const gisa_inst *inst);
GISA_API const char *gisa_inst_field_name(const gisa_isa *isa, const gisa_inst *inst, size_t i); /* "ra.neg" */

typedef enum gisa_operand_kind {
    GISA_OPND_REG,      /* general register Rn (reg) or RZ (is_zero) */
    GISA_OPND_PAIR,     /* 64-bit register pair R[n:n+1] (reg = n) or RZ */
    GISA_OPND_UREG,     /* uniform register URn / URZ */
    GISA_OPND_UPAIR,    /* uniform pair UR[n:n+1] / URZ */
    GISA_OPND_PRED,     /* predicate Pn / PT */
    GISA_OPND_UPRED,    /* uniform predicate UPn / UPT */
    GISA_OPND_PR,       /* all predicates as one register (PR) */
    GISA_OPND_IMM,      /* integer immediate: value (sign-extended when signed) */
    GISA_OPND_F32,      /* float immediate: value = its F32 bits */
    GISA_OPND_F64,      /* double immediate: value = its F64 bits (the low 32 are 0) */
    GISA_OPND_F16X2,    /* two halves: value = H1 << 16 | H0, F16 or BF16 (bf16) */
    GISA_OPND_CBANK,    /* constant c[bank][offset] */
    GISA_OPND_INDEXED   /* R[URb+disp]: reg = URb, value = disp (signed) */
} gisa_operand_kind;

/* Decorations, one representation for every tool: bits of gisa_operand.deco. */
#define GISA_DECO_NEG 1u /* -x: arithmetic negation */
#define GISA_DECO_ABS 2u /* |x| (applied before -) */
#define GISA_DECO_INV 4u /* ~x: bitwise complement (integer .X forms) */
#define GISA_DECO_NOT 8u /* !p: predicate negation */

typedef struct gisa_operand {
    gisa_operand_kind kind;
    const char *name;     /* its name in the syntax line: "Rd", "SrcB", "pu" */
    unsigned reg;         /* register number as encoded (RZ: the zero register's number) */
    bool is_zero;         /* RZ / URZ / PT / UPT (for predicates: the always-true one) */
    int64_t value;        /* immediates (see the kinds) */
    uint64_t bits;        /* the operand's field as encoded (register number, immediate field, ...) */
    bool raw_syntax;      /* the assembly writes this immediate as its raw field bits (Fermi) */
    unsigned bank, offset;/* GISA_OPND_CBANK */
    bool pair;            /* a 64-bit operand (pairs, F64, 64-bit constants and immediates) */
    bool bf16;            /* GISA_OPND_F16X2 holds BF16 halves */
    unsigned deco;        /* GISA_DECO_* as written */
    const char *suffix;   /* operand suffix value (".H1_H1" is "H1_H1"), NULL when the operand has none */
    bool suffix_default;  /* the suffix is the default the text leaves out */
    bool written;         /* the instruction writes it (the opcode's OutList) */
    bool present;         /* false: an optional operand the text leaves out (its default) */
} gisa_operand;

/* Operands in syntax order, optional ones included (see present). */
GISA_API size_t gisa_inst_operand_count(const gisa_isa *isa, const gisa_inst *inst);
GISA_API gisa_status gisa_inst_operand(const gisa_isa *isa, const gisa_inst *inst, size_t i, gisa_operand *out);

typedef struct gisa_modifier {
    const char *name;   /* the group ("rnd") or, for a fixed word of the syntax, the word ("HI") */
    const char *value;  /* the value's spelling ("RZ"), NULL when the field holds no spelled value */
    bool is_default;    /* the text leaves it out (the default, or an omitted optional) */
    uint64_t raw;       /* the field's value (0 when no field encodes it) */
} gisa_modifier;

/* Modifiers written after the mnemonic, in syntax order (operand suffixes
 * are in gisa_operand.suffix). */
GISA_API size_t gisa_inst_modifier_count(const gisa_isa *isa, const gisa_inst *inst);
GISA_API gisa_status gisa_inst_modifier(const gisa_isa *isa, const gisa_inst *inst, size_t i, gisa_modifier *out);

/* The guard @[!]Pn: GISA_OK with the predicate's number (PT: the true one)
 * and negation; GISA_ERR_NOTFOUND when the opcode has no guard. */
GISA_API gisa_status gisa_inst_guard(const gisa_isa *isa, const gisa_inst *inst, unsigned *pred, bool *negated);
/* Scheduling controls $sched $req $wsb (0 where the form has none). */
GISA_API gisa_status gisa_inst_controls(const gisa_isa *isa, const gisa_inst *inst, unsigned *sched, unsigned *req,
                                        unsigned *wsb);

/* ---------------------------------------------------------------- assembler */

typedef enum gisa_out_format { GISA_FMT_BIN = 0, GISA_FMT_HEX = 1, GISA_FMT_C = 2 } gisa_out_format;

/* What gisa_assemble's options may give: a reader for the files of
 * `.include "NAME"` and a callback for a listing. The library reads no
 * file itself: without `include`, an .include is an error that says so. */
typedef struct gisa_include {
    const char *name; /* the file as diagnostics and the listing show it (e.g. its path) */
    const char *id;   /* what makes two includes the same file, for finding cycles (e.g. a
                         canonical path); NULL: name */
    const char *text; /* its contents, len bytes (valid until release) */
    size_t len;
    void *handle;     /* the reader's own, for release */
} gisa_include;

/* One source line, as assembled: `nwords` words, from index `first_word`
 * of the result, came from it (after the first error no words are kept:
 * 0). An .include line comes before the lines of the file it includes; a
 * line that goes on after an .include is reported again for the words
 * that follow. The struct, its text (len bytes, no newline) and words are
 * valid during the call only. */
typedef struct gisa_asm_line {
    const char *file;
    int line;          /* 1-based, in file */
    int depth;         /* 0 in the main file, 1 in a file it includes, ... */
    const char *text;
    size_t len;
    size_t first_word, nwords;
    const gisa_word *words; /* [nwords] */
} gisa_asm_line;

#define GISA_MAX_INCLUDE_DEPTH 32
/* One assembly includes at most GISA_MAX_INCLUDES files (every inclusion
 * counts, the same file again too) and GISA_MAX_INCLUDE_BYTES bytes of
 * them in all: files that include the next one twice would otherwise
 * make 2^depth inclusions. Beyond either, the .include is an error at the
 * directive (GISA_ERR_INPUT), and the later ones are refused without one. */
#define GISA_MAX_INCLUDES 10000
#define GISA_MAX_INCLUDE_BYTES (64u << 20)

/* Flags of gisa_asm_options. */
#define GISA_ASM_ONE 1u /* the text is exactly one instruction (nothing else but ';' and a comment) */

typedef struct gisa_asm_options {
    size_t size; /* sizeof(gisa_asm_options) */
    unsigned flags; /* GISA_ASM_* */
    /* Reads the file `name` (as written in the directive) included from
     * the file `from` (its gisa_include.name; the main file's filename):
     * fills *inc and returns GISA_OK, or returns another status with the
     * reason in why[why_cap] (the assembly goes on: an error at the
     * directive). Resolving `name` (relative to from's directory, search
     * paths) is the reader's choice. */
    gisa_status (*include)(void *user, const char *from, const char *name, gisa_include *inc, char *why,
                           size_t why_cap);
    /* Called once the included file is assembled (may be NULL). */
    void (*release)(void *user, gisa_include *inc);
    /* Called for every source line, in order, includes inlined (may be
     * NULL); anything but GISA_OK stops the assembly, which returns it. */
    gisa_status (*line)(void *user, const gisa_asm_line *line);
    void *user;
    /* The main file's id for cycle detection (see gisa_include.id); NULL: filename. */
    const char *file_id;
} gisa_asm_options;
#define GISA_ASM_OPTIONS_INIT {sizeof(gisa_asm_options), 0, NULL, NULL, NULL, NULL, NULL}

/* Assembles `len` bytes of source text (opt may be NULL: no options). On
 * success *words and *nwords receive an array (release with gisa_free). On
 * errors the diagnostics are in diags (at most the diags limit), *words is
 * NULL and GISA_ERR_INPUT is returned. Besides instructions the text may
 * hold the directives (docs/assembly.md) `.inst 0x...` and `.word 0x...`
 * (raw words, several separated by commas), `.invalid 0x...` (a raw word,
 * as gisa_disassemble prints one that does not decode) and `.include
 * "FILE"` (with opt->include). Files nest at most GISA_MAX_INCLUDE_DEPTH
 * deep, at most GISA_MAX_INCLUDES inclusions of GISA_MAX_INCLUDE_BYTES in
 * all, and a file that includes itself (directly or not) is an error
 * naming the chain. Diagnostics in an included file carry their context
 * (gisa_diag.context). With GISA_ASM_ONE, anything but one instruction is
 * an error. */
GISA_API gisa_status gisa_assemble(const gisa_isa *isa, const char *filename, const char *text, size_t len,
                                   const gisa_asm_options *opt, gisa_word **words, size_t *nwords,
                                   gisa_diags *diags);

/* Serialises words into a buffer (release with gisa_free) in the given format. */
GISA_API gisa_status gisa_words_serialize(const gisa_isa *isa, const gisa_word *words, size_t n,
                                 gisa_out_format fmt, char **buf, size_t *len);
/* Parses a binary (16 or 8 bytes per word, little-endian) or hex-text image. */
GISA_API gisa_status gisa_words_parse(const gisa_isa *isa, const char *data, size_t len, bool hex,
                             gisa_word **words, size_t *nwords, gisa_diags *diags);

/* ---------------------------------------------------------------- disassembler */

/* Decodes one word into canonical text (no trailing newline). Returns GISA_OK
 * when the word is a valid instruction; otherwise GISA_ERR_INPUT and the
 * text is `.invalid 0x... // reason` (which gisa_assemble reads back as the
 * same word). `buf` always receives a NUL-terminated string; when the text
 * does not fit in cap bytes it is cut and the status is GISA_ERR_TRUNCATED,
 * whether or not the word is valid (512 bytes always suffice). *len (when
 * len is not NULL) receives the length of the text written, without the
 * NUL, whatever the status, so that a caller writing many lines need not
 * measure each one again. */
GISA_API gisa_status gisa_disassemble(const gisa_isa *isa, gisa_word word, char *buf, size_t cap, size_t *len);

/* Opcode index of a word (table lookup on its fixed bits) into *opcode;
 * GISA_ERR_NOTFOUND when no opcode's fixed bits match. */
GISA_API gisa_status gisa_decode_opcode(const gisa_isa *isa, gisa_word word, size_t *opcode);


/* ---------------------------------------------------------------- simulator */

/* A functional SIMT simulator: W warps of 32 lanes run a straight-line
 * program to its end. Per lane R0..R(regs-1) and P0..P6; per warp UR0..UR62,
 * UP0..UP6 and an active mask; constant banks shared by all warps. RZ/URZ
 * read 0, PT/UPT read true; writes to them are dropped. */
typedef struct gisa_sim gisa_sim;

#define GISA_SIM_LANES 32
#define GISA_SIM_MAX_REGS 255
#define GISA_SIM_MAX_WARPS 65536

typedef enum gisa_regfile {
    GISA_RF_R = 0,  /* per-lane general registers */
    GISA_RF_P = 1,  /* per-lane predicates (values 0/1) */
    GISA_RF_UR = 2, /* per-warp uniform registers (lane ignored) */
    GISA_RF_UP = 3  /* per-warp uniform predicates (lane ignored) */
} gisa_regfile;

/* The most registers per lane the target names (255 for gisa128: R0..R254;
 * 63 for fermi: R0..R62). */
GISA_API unsigned gisa_sim_max_regs(const gisa_isa *isa);
/* regs: registers per lane (1..gisa_sim_max_regs); warps: 1..GISA_SIM_MAX_WARPS.
 * Every register, predicate and constant starts at 0, every lane active. */
GISA_API gisa_status gisa_sim_new(const gisa_isa *isa, unsigned regs, unsigned warps, gisa_sim **out);
GISA_API void gisa_sim_free(gisa_sim *sim);
GISA_API unsigned gisa_sim_regs(const gisa_sim *sim);
GISA_API unsigned gisa_sim_warps(const gisa_sim *sim);
/* The ISA the simulator was made of (gisa_sim_new's; NULL for NULL). */
GISA_API const gisa_isa *gisa_sim_isa(const gisa_sim *sim);
/* Worker threads for gisa_sim_run (0 = one per online core). */
GISA_API gisa_status gisa_sim_set_threads(gisa_sim *sim, unsigned threads);
/* Which semantics run each instruction: the C functions (native), the ISA
 * documents' pseudo-code with the rulings' patches (doc), or native where
 * the optype has a C function and doc otherwise (auto, the default). An
 * instruction the chosen engine cannot run faults when reached, saying why. */
typedef enum gisa_sim_engine { GISA_ENGINE_AUTO = 0, GISA_ENGINE_NATIVE = 1, GISA_ENGINE_DOC = 2 } gisa_sim_engine;
GISA_API gisa_status gisa_sim_set_engine(gisa_sim *sim, gisa_sim_engine engine);
/* The engine of one optype (by its name, as gisa_isa_optype_name gives
 * it), over gisa_sim_set_engine's for the others: GISA_ENGINE_AUTO there
 * means auto for that optype whatever the simulator's engine is. optype
 * NULL forgets every such choice. GISA_ERR_NOTFOUND: the ISA has no such
 * optype. */
GISA_API gisa_status gisa_sim_set_engine_for(gisa_sim *sim, const char *optype, gisa_sim_engine engine);

/* lane < 0 writes every lane. Indices are as in assembly (R5 is 5); the
 * zero registers and PT/UPT cannot be set. */
GISA_API gisa_status gisa_sim_set(gisa_sim *sim, unsigned warp, gisa_regfile rf, unsigned index, int lane, uint32_t value);
GISA_API gisa_status gisa_sim_get(const gisa_sim *sim, unsigned warp, gisa_regfile rf, unsigned index, unsigned lane,
                         uint32_t *value);
GISA_API gisa_status gisa_sim_set_active(gisa_sim *sim, unsigned warp, uint32_t mask);
GISA_API gisa_status gisa_sim_get_active(const gisa_sim *sim, unsigned warp, uint32_t *mask);
/* Constant memory: 32-bit words at 4-byte aligned byte offsets. */
GISA_API gisa_status gisa_sim_set_const(gisa_sim *sim, unsigned bank, unsigned offset, uint32_t value);
GISA_API gisa_status gisa_sim_get_const(const gisa_sim *sim, unsigned bank, unsigned offset, uint32_t *value);

/* Copies the program. Words that do not decode are accepted here and fault
 * when (and if) they are reached, like hardware. */
GISA_API gisa_status gisa_sim_load(gisa_sim *sim, const gisa_word *words, size_t n);

/* Trace: one call per line (no newline; valid during the call), from the
 * thread that calls gisa_sim_run; warps are traced in order. NULL turns
 * tracing off. A status other than GISA_OK stops the run, which returns
 * it (the warps stay where they were; gisa_sim_continue goes on). The trace
 * function and the commit hook may read the simulator that calls them
 * (gisa_sim_get, gisa_sim_pc, gisa_sim_commit_format, gisa_cov_record, a
 * clone), but must not load, free, run, continue or step it: the run goes
 * on with the program and the state it is using (the Python package
 * raises RuntimeError for such a call, docs/python.md). */
typedef gisa_status (*gisa_trace_fn)(void *user, const char *line);
GISA_API gisa_status gisa_sim_set_trace(gisa_sim *sim, gisa_trace_fn fn, void *user);

typedef struct gisa_sim_fault {
    size_t pc;          /* instruction index */
    unsigned warp;
    int lane;           /* -1 when not lane-specific */
    char insn[160];     /* the instruction text */
    char message[256];  /* the reason */
} gisa_sim_fault;

/* Runs every warp from the start of the program to its end (every warp's
 * pc is set to 0 first). A warp stops at its first fault; the run then
 * returns GISA_ERR_SIM and the fault with the lowest warp index in *fault
 * (may be NULL). The state stays readable. */
GISA_API gisa_status gisa_sim_run(gisa_sim *sim, gisa_sim_fault *fault);

/* ---------------------------------------------------------------- stepping and commit records */

/* What one executed instruction did, for lockstep comparison against RTL
 * (like Spike's commit log): one record per instruction a warp reaches,
 * executed or skipped by its guard, with every register it wrote, changed
 * or not, in the order the instruction writes them (one that writes a
 * register twice, like ISETP P0, P0, ..., lists both; the last stays).
 * Writes to RZ/URZ/PT/UPT are not listed (they are dropped). */
#define GISA_SIM_MAX_EFFECTS 8

typedef struct gisa_sim_effect {
    gisa_regfile rf;
    unsigned index;     /* register number (R5 is 5); a pair is two effects, low first */
    /* lanes written: R and P a lane mask (a subset of the commit's exec);
     * UR and UP are warp-wide: mask 1 and the value in lane 0 */
    uint32_t mask;
    uint32_t old_value[GISA_SIM_LANES]; /* every lane's value before */
    uint32_t value[GISA_SIM_LANES];     /* after (lanes outside mask: unchanged); predicates 0/1 */
} gisa_sim_effect;

typedef struct gisa_sim_commit {
    unsigned warp;
    unsigned engine;        /* the gisa_sim_engine that ran it: GISA_ENGINE_NATIVE or
                             * GISA_ENGINE_DOC (0 when none could: the word faulted
                             * before either was given it) */
    size_t pc;              /* instruction index */
    gisa_word word;
    const gisa_inst *inst;  /* the word decoded; owned by the simulator, valid until the
                             * next gisa_sim_load or gisa_sim_free (constants, state
                             * files and the engine may change meanwhile) */
    const char *text;       /* its disassembly (same lifetime) */
    uint32_t active;        /* the warp's active mask */
    uint32_t exec;          /* lanes that executed: active & guard (0: skipped) */
    unsigned neffects;
    gisa_sim_effect effect[GISA_SIM_MAX_EFFECTS];
} gisa_sim_commit;

/* Executes the next instruction of one warp and fills *commit (may be NULL
 * when only the state matters). GISA_OK; GISA_ERR_SIM when the instruction
 * faults (the warp halts at it, nothing of it is written, *fault says why,
 * commit has no effects); GISA_ERR_USAGE when the warp is out of range or
 * done (gisa_sim_done). The simulator formats no text on this path. */
GISA_API gisa_status gisa_sim_step(gisa_sim *sim, unsigned warp, gisa_sim_commit *commit, gisa_sim_fault *fault);
/* Runs every warp from its own pc to the end (or its first fault), like
 * gisa_sim_run without the restart. */
GISA_API gisa_status gisa_sim_continue(gisa_sim *sim, gisa_sim_fault *fault);
/* The warp's next instruction index. */
GISA_API gisa_status gisa_sim_pc(const gisa_sim *sim, unsigned warp, size_t *pc);
/* pc may be 0..program length (the end); clears a fault halt. */
GISA_API gisa_status gisa_sim_set_pc(gisa_sim *sim, unsigned warp, size_t pc);
/* *done: the warp is at the end of the program or halted by a fault. */
GISA_API gisa_status gisa_sim_done(const gisa_sim *sim, unsigned warp, bool *done);

/* Called with every commit record during gisa_sim_run/gisa_sim_continue
 * (from the calling thread; the run then uses one thread); the record is
 * valid during the call (its inst and text as gisa_sim_commit says). NULL
 * turns it off. A status other than GISA_OK stops the run, which returns
 * it. */
typedef gisa_status (*gisa_commit_fn)(void *user, const gisa_sim_commit *commit);
GISA_API gisa_status gisa_sim_set_commit_hook(gisa_sim *sim, gisa_commit_fn fn, void *user);

/* Trace text of one commit record: the lines the trace callback receives
 * (gisa_sim_set_trace), one call of fn per line. Formats (docs/simulator.md):
 * GISA_TRACE_JSON one JSON object per instruction; GISA_TRACE_F32/F64/F16
 * add the values read as numbers beside the bits. sim must be the
 * simulator that made the record, with the program loaded then: a record
 * whose inst or text are not sim's for that pc now (made before a
 * gisa_sim_load, or by another simulator, a clone included) gives
 * GISA_ERR_USAGE and no line, never a read of the freed program; a record
 * of your own may leave inst and text NULL. */
#define GISA_TRACE_JSON 1u
#define GISA_TRACE_F32 2u
#define GISA_TRACE_F64 4u
#define GISA_TRACE_F16 8u
#define GISA_TRACE_BF16 16u
/* GISA_TRACE_ENGINE: which engine ran each instruction ("[doc]" before the
 * text; "engine" in JSON) */
#define GISA_TRACE_ENGINE 32u
GISA_API gisa_status gisa_sim_commit_format(const gisa_sim *sim, const gisa_sim_commit *commit, unsigned flags,
                                   gisa_trace_fn fn, void *user);
/* The format of the trace of gisa_sim_set_trace (default 0: text, bits only). */
GISA_API gisa_status gisa_sim_set_trace_flags(gisa_sim *sim, unsigned flags);

/* Checkpoints: an independent copy of the whole simulator (state, constants,
 * program, pcs; not the trace or commit hooks). */
GISA_API gisa_status gisa_sim_clone(const gisa_sim *sim, gisa_sim **out);

typedef enum gisa_sim_diff_kind {
    GISA_DIFF_NONE = 0,
    GISA_DIFF_SHAPE,   /* different ISA, registers per lane or warp count */
    GISA_DIFF_REG,     /* rf/index/lane: a register or predicate value */
    GISA_DIFF_ACTIVE,  /* the active mask of a warp */
    GISA_DIFF_PC,      /* pc (or fault halt) of a warp */
    GISA_DIFF_CONST    /* index = byte offset, lane = bank */
} gisa_sim_diff_kind;

typedef struct gisa_sim_diff {
    gisa_sim_diff_kind kind;
    unsigned warp;
    gisa_regfile rf;
    unsigned index, lane;
    uint64_t a, b;     /* the two values */
    char text[160];    /* e.g. "warp 0 R5 lane 3: 0x00000001 != 0x00000002" */
} gisa_sim_diff;

/* Compares two simulators' states (registers, predicates, uniforms, active
 * masks, pcs, constants), in that order per warp: *equal, and when they
 * differ the first difference in *diff (may be NULL). */
GISA_API gisa_status gisa_sim_compare(const gisa_sim *a, const gisa_sim *b, bool *equal, gisa_sim_diff *diff);

/* State as JSON (format in docs/simulator.md), read in two steps:
 * gisa_state_parse checks the text (everything but what depends on the
 * simulator) and keeps its values (time and memory linear in len; the text
 * is not needed afterwards), so that a caller may size the simulator from
 * the file; gisa_sim_state_apply applies the keys to every warp (the
 * "laneid"/"warpid" specials per warp), or with a "warps" array each
 * object to its warp; on any error nothing is changed and diags name the
 * key. */
typedef struct gisa_state gisa_state;
GISA_API gisa_status gisa_state_parse(const char *name, const char *text, size_t len, gisa_state **out, gisa_diags *diags);
/* The number of warps the state describes (its "warps" array), or 0 when
 * its keys apply to any number of warps. */
GISA_API unsigned gisa_state_warps(const gisa_state *state);
/* The memory the parsed state holds, in bytes. */
GISA_API size_t gisa_state_bytes(const gisa_state *state);
/* Applies it: the warp count must match (when it has one) and registers
 * exist; on an error nothing changes. */
GISA_API gisa_status gisa_sim_state_apply(gisa_sim *sim, const gisa_state *state, gisa_diags *diags);
GISA_API void gisa_state_free(gisa_state *state);

/* How the writer shows register values (R and UR; predicates, masks and
 * constants are always as above). Floats are exact: the shortest decimal
 * that reads back to the same bits; a NaN is written as its hex bits. */
typedef enum gisa_state_values {
    GISA_STATE_HEX = 0, /* "0x3fc00000" */
    GISA_STATE_F32,     /* 1.5 (JSON numbers; "inf", "-inf") */
    GISA_STATE_F64,     /* registers in pairs R[0:1], R[2:3], ... as F64 numbers */
    GISA_STATE_F16X2,   /* "f16x2:1.5, -2" (high half first) */
    GISA_STATE_BF16X2   /* "bf16x2:1.5, -2" */
} gisa_state_values;
/* Receives the text in pieces (valid during the call); a status other than
 * GISA_OK stops the write, which returns it. */
typedef gisa_status (*gisa_write_fn)(void *user, const char *data, size_t len);
/* Streams the state as JSON through fn in pieces of at most 64 KiB: memory
 * does not grow with the state. */
GISA_API gisa_status gisa_sim_state_write(const gisa_sim *sim, gisa_state_values values, gisa_write_fn fn, void *user);
/* Bytes a simulator of `warps` warps and `regs` registers per lane running
 * a program of `nwords` words needs (the state, the pre-decoded program
 * and its texts), for a resource check before gisa_sim_new. */
GISA_API size_t gisa_sim_footprint(unsigned regs, unsigned warps, size_t nwords);

/* ---------------------------------------------------------------- proofs */

/* Equivalence of two straight-line programs for every input (docs/prove.md):
 * each word's doc-engine program becomes SMT terms for one lane (Z3), the
 * results of the two programs are compared, and a counterexample is
 * checked by simulating both before it is reported. Needs a library built
 * with Z3 (gisa_prove_available). */
typedef enum gisa_prove_verdict {
    GISA_PROVE_EQUIVALENT = 0, /* proved for every input */
    GISA_PROVE_DIFFER = 1,     /* a counterexample, reproduced by the simulator */
    GISA_PROVE_UNKNOWN = 3     /* neither: message says why (timeout, unsupported instruction) */
} gisa_prove_verdict;

typedef struct gisa_prove_options {
    const char *outputs;      /* "R0,R1,P0,UR2-UR3" compared; NULL: every register, predicate and
                               * uniform register either program writes */
    const char *scratch;      /* the same syntax: never compared; NULL: none */
    const gisa_state *assume; /* values it pins (a value per lane pins that lane); NULL: none */
    unsigned timeout_ms;      /* per solver call; 0: none */
} gisa_prove_options;

typedef struct gisa_prove_result {
    gisa_prove_verdict verdict;
    char message[512]; /* DIFFER: the first differing output; UNKNOWN: the reason */
    char *cex;         /* DIFFER: the counterexample state as JSON (gisa_free), else NULL */
    unsigned lane;     /* DIFFER: the lane the counterexample is for */
    unsigned queries;  /* solver calls (one per distinct lane of --assume) */
    double solve_seconds;
} gisa_prove_result;

/* Whether this library was built with Z3 (else gisa_prove says how to get it). */
GISA_API bool gisa_prove_available(void);
/* Proves programs a and b (their words) equivalent, or not. GISA_OK with
 * *res filled (any verdict); GISA_ERR_USAGE for bad options (res->message
 * says which). Without Z3 the verdict is UNKNOWN and the message says
 * how to get it. res->cex must be released with gisa_free. */
GISA_API gisa_status gisa_prove(const gisa_isa *isa, const gisa_word *a, size_t na, const gisa_word *b, size_t nb,
                                const gisa_prove_options *opt, gisa_prove_result *res);
/* The symbolic back end against the doc engine: runs the words on the
 * state, one instruction at a time, and evaluates each instruction's terms
 * on every lane that executes it, with that lane's values; *report (release
 * with gisa_free) lists each difference, each instruction prove does not
 * support, and a summary line; *mismatches counts the differences. */
GISA_API gisa_status gisa_prove_check(const gisa_isa *isa, const gisa_word *w, size_t n, const gisa_state *state,
                                      char **report, unsigned *mismatches);

/* ---------------------------------------------------------------- random programs */

/* A random program generator driven by the model (docs/verification.md):
 * every instruction it emits decodes, prints as the text the disassembler
 * gives, and runs in the simulator without a fault (registers inside the
 * pool, SETGPR/GETGPR indices inside the register file with or without
 * the generated state, constants inside the state's window). The same
 * options, seed and model give the same bytes on any machine. */
typedef struct gisa_gen gisa_gen;

GISA_API gisa_status gisa_gen_new(const gisa_isa *isa, gisa_gen **out);
GISA_API void gisa_gen_free(gisa_gen *g);

/* Sets one option from its text, by the name `gisa gen` gives it without
 * "--" ("regs", "weights", "guard-rate", ...; docs/verification.md lists
 * them). GISA_ERR_USAGE with a diagnostic naming the option, the value and
 * what was expected; the option keeps its previous value. */
GISA_API gisa_status gisa_gen_set(gisa_gen *g, const char *name, const char *value, gisa_diags *diags);

/* Generates `count` instructions from `seed`: the words, the text (one
 * canonical instruction per line after a header comment) and an initial
 * state (JSON, the format of gisa_state_parse). GISA_ERR_USAGE when the
 * options leave nothing to generate, GISA_ERR_LIMIT when count is over
 * GISA_GEN_MAX_COUNT (diags say why); GISA_ERR_NOMEM. */
#define GISA_GEN_MAX_COUNT 50000000u
GISA_API gisa_status gisa_gen_generate(gisa_gen *g, uint64_t seed, size_t count, gisa_diags *diags);
/* The last generation's words, text and state (empty before the first):
 * owned by g, valid until the next gisa_gen_generate or gisa_gen_free. */
GISA_API gisa_status gisa_gen_words(const gisa_gen *g, const gisa_word **words, size_t *n);
GISA_API gisa_status gisa_gen_text(const gisa_gen *g, const char **text, size_t *len);
GISA_API gisa_status gisa_gen_state(const gisa_gen *g, const char **state, size_t *len);
/* Registers per lane the program uses (R0..R(n-1)): run it with at least n. */
GISA_API unsigned gisa_gen_regs(const gisa_gen *g);
/* The names the options take (families and their optypes, directed
 * streams and whether this target has them), as text to release with
 * gisa_free. */
GISA_API gisa_status gisa_gen_names(const gisa_gen *g, char **out);

/* Delta debugging over the lines of `text`: `test` gets a candidate (a
 * subset of the lines, in order, each ending in a newline; valid during
 * the call) and sets *interesting when the failure persists. Removes
 * chunks of lines, then single lines, while the candidate stays
 * interesting; the result is 1-minimal (no single line can be removed).
 * *out (release with gisa_free) is the smallest interesting text found,
 * *ntests the number of calls. GISA_ERR_INPUT when the text itself is not
 * interesting; when test returns another status than GISA_OK the search
 * stops and gisa_shrink returns that status, with *out the smallest so
 * far. */
typedef gisa_status (*gisa_shrink_test)(void *user, const char *text, size_t len, bool *interesting);
GISA_API gisa_status gisa_shrink(const char *text, size_t len, gisa_shrink_test test, void *user, char **out, size_t *out_len,
                        size_t *ntests, gisa_diags *diags);
/* The same for a state (`gisa shrink --state`): `sim` holds it (as
 * gisa_sim_state_apply left it; only its registers, predicates, uniforms,
 * active masks and constants are read), and test gets each candidate as
 * the text gisa_sim_state_write gives (values in hex), a state file that
 * gisa_state_parse reads. First warps are dropped (ddmin; one stays at
 * least), then entries: every register, predicate, uniform register and
 * predicate that is nonzero in some lane, every active mask that is not
 * full and every nonzero constant word (none at all is tried first, then
 * ddmin; a dropped entry is 0, a dropped mask full). Then the values left
 * move toward simple ones, each step kept while the test still fails: a
 * per-lane register is made uniform, else loses lanes (ddmin, lanes set
 * to 0) and is tried uniform again; a predicate true in every lane, else
 * fewer true lanes; an active mask fewer inactive lanes; each value (per
 * group of equal lanes) 0, 1, then fewer set bits, the highest cleared
 * first. Deterministic. *out (gisa_free) is the smallest failing state's
 * text; GISA_ERR_INPUT when the test does not fail on the state as
 * written; a test status other than GISA_OK stops, with *out the smallest
 * so far. */
GISA_API gisa_status gisa_shrink_state(const gisa_sim *sim, gisa_shrink_test test, void *user, char **out, size_t *out_len,
                              size_t *ntests, gisa_diags *diags);

/* ---------------------------------------------------------------- functional coverage */

/* What executed instructions exercised, against a universe taken from the
 * model (docs/coverage.md): per opcode the executions; per optype every
 * modifier value of every syntax form (and "(none)" for an optional one
 * left out that no default stands for), the combinations of the
 * mnemonic's modifiers that encode, and per source operand the kinds it
 * took (R, RZ, R pair, UR, immediate, c[][], ...), its decorations (-, |x|,
 * ~, !) and, for floating-point optypes, the classes of the values it read
 * (+-0, +-subnormal, +-normal, +-inf, quiet and signalling NaN) in the
 * format the optype computes in. Only instructions that executed in some
 * lane count; sources are the values before the instruction. */
typedef struct gisa_cov gisa_cov;

GISA_API gisa_status gisa_cov_new(const gisa_isa *isa, gisa_cov **out);
GISA_API void gisa_cov_free(gisa_cov *cov);

/* Records one commit record (gisa_sim_step, or a commit hook of your own):
 * call it before sim executes anything else, since sources that the commit
 * did not write are read from sim's state. A simulator of another gisa_isa
 * than cov's, and a record with more than GISA_SIM_MAX_EFFECTS effects, are
 * GISA_ERR_USAGE (as for gisa_cov_attach and gisa_cov_merge). The
 * instruction is decoded again from the record's word: its inst pointer is
 * not followed, so a record kept past a gisa_sim_load is still safe. */
GISA_API gisa_status gisa_cov_record(gisa_cov *cov, const gisa_sim *sim, const gisa_sim_commit *commit);
/* Records every instruction of sim's later runs (gisa_sim_run,
 * gisa_sim_continue) through its commit hook, which this replaces;
 * gisa_sim_set_commit_hook(sim, NULL, NULL) ends it. cov must outlive the
 * runs. */
GISA_API gisa_status gisa_cov_attach(gisa_cov *cov, gisa_sim *sim);

/* Adds the counts of `from` (made from the same gisa_isa handle). */
GISA_API gisa_status gisa_cov_merge(gisa_cov *into, const gisa_cov *from);

/* The coverage as JSON (every item of the universe with its count, and the
 * summary) into *out, to release with gisa_free. Reading adds a file's
 * counts: all or nothing, GISA_ERR_INPUT with diags naming the problem
 * (not a coverage file, another target, a name this model does not have);
 * an empty text (or only white space, as a file that mktemp made) adds
 * nothing and is GISA_OK. */
GISA_API gisa_status gisa_cov_write_json(const gisa_cov *cov, char **out);
GISA_API gisa_status gisa_cov_read_json(gisa_cov *cov, const char *name, const char *text, size_t len, gisa_diags *diags);

/* The report for people: the summary, then per optype its hit/total figures
 * and what was never hit, into *out, to release with gisa_free. */
GISA_API gisa_status gisa_cov_report(const gisa_cov *cov, char **out);
/* The same as one HTML page (the manual's look): holes first, then the
 * figures per optype and group. */
GISA_API gisa_status gisa_cov_report_html(const gisa_cov *cov, char **out);
/* Adds user-defined bins from a bins file (docs/coverage.md, "User bins"):
 * GISA_ERR_INPUT with diagnostics (file:line:col) when a line is wrong, and
 * then no bin is added. A bin counts from the next recorded instruction. */
GISA_API gisa_status gisa_cov_load_bins(gisa_cov *cov, const char *name, const char *text, size_t len,
                                        gisa_diags *diags);

typedef struct gisa_cov_figure {
    uint64_t hit, total;
} gisa_cov_figure;

typedef struct gisa_cov_summary {
    uint64_t executed;           /* instructions that executed in some lane */
    uint64_t skipped;            /* reached, but no lane executed them */
    gisa_cov_figure opcodes;
    gisa_cov_figure optypes;
    gisa_cov_figure modifier_values; /* per optype and group (fields only) */
    gisa_cov_figure combinations;    /* total: those that encode, plus any other hit */
    gisa_cov_figure operand_kinds;   /* per optype and source */
    gisa_cov_figure decorations;
    gisa_cov_figure fp_classes;      /* per optype, source and format */
    gisa_cov_figure value_classes;   /* integer classes of the sources' values */
    gisa_cov_figure results;         /* classes of the results, predicate outcomes */
    gisa_cov_figure patterns;        /* guard outcomes and exec-mask patterns */
    gisa_cov_figure raw_distances;   /* read-after-write distance buckets */
    gisa_cov_figure crosses;         /* modifier x modifier, modifier x result, FMA sources */
    gisa_cov_figure user_bins;       /* gisa_cov_load_bins' (and the files' read) */
} gisa_cov_summary;

GISA_API gisa_status gisa_cov_summary_get(const gisa_cov *cov, gisa_cov_summary *out);

#ifdef __cplusplus
}
#endif
#endif
