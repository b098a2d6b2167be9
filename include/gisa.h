/* gisa: ISA-description-driven toolchain for the gisa 128-bit GPU ISA.
 *
 * Library conventions (think Capstone/Keystone):
 *  - every symbol starts with gisa_ / GISA_;
 *  - handles are opaque; each *_new / *_load has a matching *_free;
 *  - functions return a gisa_status; details go to a gisa_diags list
 *    (file:line:col, severity, message, source line) that the caller prints;
 *  - the library never prints, never calls exit() or abort() on bad input.
 */
#ifndef GISA_H
#define GISA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gisa_status {
    GISA_OK = 0,
    GISA_ERR_INPUT = 1,   /* the input (description, source, word) has errors */
    GISA_ERR_USAGE = 2,   /* bad argument from the caller */
    GISA_ERR_IO = 3,      /* a file could not be read or written */
    GISA_ERR_NOMEM = 4,   /* out of memory or over a documented limit */
    GISA_ERR_NOTFOUND = 5, /* a named item does not exist */
    GISA_ERR_SIM = 6       /* the simulated program faulted (see gisa_sim_fault) */
} gisa_status;

const char *gisa_status_str(gisa_status s);

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
} gisa_diag;

typedef struct gisa_diags gisa_diags;

gisa_diags *gisa_diags_new(void);
void gisa_diags_free(gisa_diags *d);
size_t gisa_diags_count(const gisa_diags *d);
const gisa_diag *gisa_diags_get(const gisa_diags *d, size_t i);
size_t gisa_diags_errors(const gisa_diags *d);
size_t gisa_diags_warnings(const gisa_diags *d);
/* Upper bound on stored diagnostics; further ones are counted but dropped. */
void gisa_diags_set_limit(gisa_diags *d, size_t limit);
size_t gisa_diags_dropped(const gisa_diags *d);
void gisa_diags_clear(gisa_diags *d);
/* Formats one diagnostic as `file:line:col: error: message`, plus the source
 * line and a caret line when with_source is set. Returns a malloc'd string. */
char *gisa_diag_format(const gisa_diag *g, int with_source);

/* ---------------------------------------------------------------- ISA model */

typedef struct gisa_isa gisa_isa;

/* Names of the targets compiled into the library ("gisa128" is the default). */
size_t gisa_target_count(void);
const char *gisa_target_name(size_t i);

/* Loads the description files compiled into the library for `target`
 * (NULL = default target). */
gisa_status gisa_isa_load_embedded(const char *target, gisa_isa **out, gisa_diags *diags);

/* Loads every *.isa / *.isa.txt file of `dir`. The project's `types` and
 * `rulings` files are taken from `dir` when present there, otherwise from
 * `overlay_dir` when given, otherwise from the embedded copies of `target`. */
gisa_status gisa_isa_load_dir(const char *dir, const char *overlay_dir, const char *target,
                              gisa_isa **out, gisa_diags *diags);

/* Loads from in-memory files (name/text pairs); used by tests and fuzzers. */
typedef struct gisa_source {
    const char *name;
    const char *text;
    size_t len;
} gisa_source;
gisa_status gisa_isa_load_sources(const gisa_source *files, size_t n, gisa_isa **out,
                                  gisa_diags *diags);

void gisa_isa_free(gisa_isa *isa);

unsigned gisa_isa_word_bits(const gisa_isa *isa);      /* 128 or 64 */
size_t gisa_isa_opcode_count(const gisa_isa *isa);
const char *gisa_isa_opcode_name(const gisa_isa *isa, size_t i);
size_t gisa_isa_optype_count(const gisa_isa *isa);
const char *gisa_isa_optype_name(const gisa_isa *isa, size_t i);
/* Index of an opcode by name, or (size_t)-1. */
size_t gisa_isa_find_opcode(const gisa_isa *isa, const char *name);

/* Runs every consistency check; problems are appended to diags as warnings
 * or errors. Returns GISA_ERR_INPUT when at least one error was found. */
gisa_status gisa_isa_lint(const gisa_isa *isa, gisa_diags *diags);

/* Plain-text reference for an optype or opcode (name NULL: the list of all).
 * Returns a malloc'd string, or NULL with GISA_ERR_NOTFOUND in *st. */
char *gisa_isa_doc(const gisa_isa *isa, const char *name, gisa_status *st);

/* ---------------------------------------------------------------- words */

/* An instruction word, bit i is bit (i % 64) of w[i / 64]. 64-bit targets
 * use w[0] only. */
typedef struct gisa_word {
    uint64_t w[2];
} gisa_word;

/* ---------------------------------------------------------------- assembler */

typedef enum gisa_out_format { GISA_FMT_BIN = 0, GISA_FMT_HEX = 1, GISA_FMT_C = 2 } gisa_out_format;

/* Assembles `len` bytes of source text. On success *words and *nwords receive a
 * malloc'd array (free with free()). On errors the diagnostics are in diags
 * (at most the diags limit), *words is NULL and GISA_ERR_INPUT is returned. */
gisa_status gisa_assemble(const gisa_isa *isa, const char *filename, const char *text, size_t len,
                          gisa_word **words, size_t *nwords, gisa_diags *diags);

/* Assembles exactly one instruction (no trailing text other than ';' and a
 * comment). */
gisa_status gisa_assemble_one(const gisa_isa *isa, const char *text, gisa_word *word,
                              gisa_diags *diags);

/* Serialises words into a malloc'd buffer in the given format. */
gisa_status gisa_words_serialize(const gisa_isa *isa, const gisa_word *words, size_t n,
                                 gisa_out_format fmt, char **buf, size_t *len);
/* Parses a binary (16 or 8 bytes per word, little-endian) or hex-text image. */
gisa_status gisa_words_parse(const gisa_isa *isa, const char *data, size_t len, int hex,
                             gisa_word **words, size_t *nwords, gisa_diags *diags);

/* ---------------------------------------------------------------- disassembler */

/* Decodes one word into canonical text (no trailing newline). Returns GISA_OK
 * when the word is a valid instruction; otherwise GISA_ERR_INPUT and the
 * text is `.invalid 0x... // reason`. `buf` always receives a NUL-terminated
 * string (truncated to cap). */
gisa_status gisa_disassemble(const gisa_isa *isa, gisa_word word, char *buf, size_t cap);

/* Opcode index of a word (table lookup on its fixed bits), or (size_t)-1. */
size_t gisa_decode_opcode(const gisa_isa *isa, gisa_word word);


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
unsigned gisa_sim_max_regs(const gisa_isa *isa);
/* regs: registers per lane (1..gisa_sim_max_regs); warps: 1..GISA_SIM_MAX_WARPS.
 * Every register, predicate and constant starts at 0, every lane active. */
gisa_status gisa_sim_new(const gisa_isa *isa, unsigned regs, unsigned warps, gisa_sim **out);
void gisa_sim_free(gisa_sim *sim);
unsigned gisa_sim_regs(const gisa_sim *sim);
unsigned gisa_sim_warps(const gisa_sim *sim);
/* Worker threads for gisa_sim_run (0 = one per online core). */
void gisa_sim_set_threads(gisa_sim *sim, unsigned threads);

/* lane < 0 writes every lane. Indices are as in assembly (R5 is 5); the
 * zero registers and PT/UPT cannot be set. */
gisa_status gisa_sim_set(gisa_sim *sim, unsigned warp, gisa_regfile rf, unsigned index, int lane, uint32_t value);
gisa_status gisa_sim_get(const gisa_sim *sim, unsigned warp, gisa_regfile rf, unsigned index, unsigned lane,
                         uint32_t *value);
gisa_status gisa_sim_set_active(gisa_sim *sim, unsigned warp, uint32_t mask);
uint32_t gisa_sim_get_active(const gisa_sim *sim, unsigned warp);
/* Constant memory: 32-bit words at 4-byte aligned byte offsets. */
gisa_status gisa_sim_set_const(gisa_sim *sim, unsigned bank, unsigned offset, uint32_t value);
gisa_status gisa_sim_get_const(const gisa_sim *sim, unsigned bank, unsigned offset, uint32_t *value);

/* Copies the program. Words that do not decode are accepted here and fault
 * when (and if) they are reached, like hardware. */
gisa_status gisa_sim_load(gisa_sim *sim, const gisa_word *words, size_t n);

/* Trace: one call per line (no newline), from the thread that calls
 * gisa_sim_run; warps are traced in order. NULL turns tracing off. */
typedef void (*gisa_trace_fn)(void *user, const char *line);
void gisa_sim_set_trace(gisa_sim *sim, gisa_trace_fn fn, void *user);

typedef struct gisa_sim_fault {
    size_t pc;          /* instruction index */
    unsigned warp;
    int lane;           /* -1 when not lane-specific */
    char insn[160];     /* the instruction text */
    char message[256];  /* the reason */
} gisa_sim_fault;

/* Runs every warp to the end of the program. A warp stops at its first
 * fault; the run then returns GISA_ERR_SIM and the fault with the lowest
 * warp index in *fault (may be NULL). The state stays readable. */
gisa_status gisa_sim_run(gisa_sim *sim, gisa_sim_fault *fault);

/* State as JSON (format in docs/simulator.md). Reading applies the keys to
 * every warp (the "laneid"/"warpid" specials per warp); on any error nothing
 * is changed and diags name the key. Writing returns a malloc'd string. */
gisa_status gisa_sim_state_read_json(gisa_sim *sim, const char *name, const char *text, size_t len,
                                     gisa_diags *diags);
char *gisa_sim_state_write_json(const gisa_sim *sim);

#ifdef __cplusplus
}
#endif
#endif
