/* The simulator's internal model.
 *
 * A program is pre-decoded once into sim_insn records: the semantic function
 * of its optype, the modifier values it reads (as indices into the names the
 * function declares, so the numbering in the description files never leaks
 * into semantics) and one resolved descriptor per operand role. Execution
 * then touches only these records and the warp's structure-of-arrays state:
 * no strings, no look-ups, no allocation.
 *
 * Per warp, register Rn of all 32 lanes is one row of 32 words. Two extra
 * rows follow the real ones: a zero row (what RZ reads) and a sink row
 * (where writes to RZ go), so no lane loop tests for RZ. Predicates are
 * 32-bit lane masks; index 7 (PT) is all ones, index 8 the sink. */
#ifndef GISA_SIM_H
#define GISA_SIM_H
#include <stdint.h>
#include <string.h>

#include "gisa.h"
#include "spec/model.h"

#define LANES 32
#define SIM_NUR 63   /* UR0..UR62; index 63 is URZ */
#define SIM_PT 7     /* PT / UPT */
#define SIM_PSINK 8  /* where writes to PT go */
#define SIM_MAXMODS 8

/* Operand roles: what the semantic functions call the operands. bind.c
 * gives each operand of a syntax line its role from the model, never from
 * its name: results (the opcode's OutList) and sources, registers and
 * predicates, constants of the optype, each class in syntax order. */
typedef enum sim_role {
    RO_D,   /* the register result (Rd, URd; a pair when 64-bit) */
    RO_A,   /* value sources: registers, immediates, constants */
    RO_B,
    RO_C,
    RO_PU, RO_PV,  /* predicate results */
    RO_PP, RO_PQ, RO_PA, RO_PB, RO_PC, /* predicate sources */
    RO_IMM, /* an immediate in every opcode of the optype (a LUT, a shift count) */
    RO_IDX, /* R[URb+SImm9] */
    RO_COUNT
} sim_role;
#define SIM_MAX_SLOTS 32 /* operands of a syntax line the simulator binds */

typedef enum sim_kind {
    SK_NONE, SK_GPR, SK_UR, SK_CONST, SK_CMEM, SK_PRED, SK_UPRED, SK_INDEXED
} sim_kind;

typedef struct sim_opnd {
    uint8_t kind;
    uint8_t neg, abs, inv; /* written '-', '|..|', '~' */
    uint8_t pnot;          /* written '!' on a predicate */
    uint8_t pair;          /* 64-bit operand */
    uint8_t sel;           /* suffix (.hsel2, .bsel) as an index into the op's names */
    uint16_t index;        /* register index as written (RZ is 255) */
    uint16_t rd_lo, rd_hi; /* rows (or UR / predicate slots) read */
    uint16_t wr_lo, wr_hi; /* rows (or slots) written */
    uint64_t imm;          /* SK_CONST value (64-bit operands: all 64 bits) */
    uint32_t bank, offset; /* SK_CMEM address; imm is filled when the run starts */
    int32_t disp;          /* SK_INDEXED: SImm9 */
} sim_opnd;

struct sim_exec;
typedef void (*sim_fn)(struct sim_exec *x);

/* One modifier a semantic function reads: insn->m[i] is the index in
 * values[] of the name of the field's value (an opcode without the field
 * reads 0). Written with SIM_MODS (ops.h), checked by bind.c. */
typedef struct sim_mod {
    const char *field;         /* opcode field name ("rnd") */
    const char *const *values; /* value names by index ("RN", "RM", ...) */
    int nvalues;
} sim_mod;

/* What one optype's semantic function needs (ops_*.c). */
typedef struct sim_opdef {
    const char *optype; /* the optype's `__Simulation semantics` name */
    sim_fn fn;
    const sim_mod *mods; /* [nmods], read into insn->m[] */
    int nmods;
    const char *const *sels; /* operand suffix names by index (sim_opnd.sel) */
    int nsels;
    int custom_write;        /* writes its own results (R2P, SETGPR, R2UR, P2R) */
    /* The roles the function reads its value sources, predicate sources
     * and constants of the optype (operands that are immediates in every
     * opcode) as, in syntax order, each list ended by RO_COUNT; NULL: RO_A,
     * RO_B, RO_C; RO_PP, RO_PQ, RO_PC; constants are value sources. Written
     * with SIM_READS (ops.h). */
    const sim_role *sources, *pred_sources, *constants;
} sim_opdef;

struct sim_engine;
typedef struct sim_insn {
    const sim_opdef *def;
    const struct sim_engine *engine; /* which engine prepared it (NULL: faults before either) */
    struct ds_prog *doc; /* the doc engine's program (def is sim_doc_opdef) */
    uint32_t m[SIM_MAXMODS];
    sim_opnd op[RO_COUNT];
    uint8_t guard, guard_not;
    const char *fault;  /* set: executing this faults with this reason */
    const char *text;   /* disassembly (trace and fault messages) */
} sim_insn;

/* The run loop's own view of one instruction (exec.c), made from its
 * sim_insn by sim_predecode: the rows of the register sources and of the
 * register result, the guard, the predicate sources and results that
 * exist, in one cache line. A sim_insn is ~700 bytes, 13 operand roles of
 * 48; the loop read up to twelve of its lines per warp-instruction, and a
 * 1,024-word kernel's records did not fit the L2. Now the loop reads this
 * line, and the semantic function the lines of the sim_insn it uses (
 * m[], the decorations of its sources; a doc word's function, in most
 * words, none). */
enum {
    SIM_HOT_FAULT = 1,       /* in->fault: executing it faults */
    SIM_HOT_SLOW_A = 2,      /* a source broadcast from a scalar (UR, constant): source() */
    SIM_HOT_SLOW_B = 4,
    SIM_HOT_SLOW_C = 8,
    SIM_HOT_D = 16,          /* writes register rows d[0] (and d[1] when SIM_HOT_D_PAIR) */
    SIM_HOT_D_PAIR = 32,
    SIM_HOT_DIRECT = 64,     /* a native word whose result rows no source reads: see sim_exec.d */
    SIM_HOT_CUSTOM = 128,    /* its function writes its own results (sim_opdef.custom_write) */
};
#define SIM_HOT_SLOW (SIM_HOT_SLOW_A | SIM_HOT_SLOW_B | SIM_HOT_SLOW_C)
enum { SIM_HOT_FILE_P, SIM_HOT_FILE_UP, SIM_HOT_FILE_ZERO }; /* where a predicate source reads */
typedef struct sim_hot {
    _Alignas(64) uint16_t src[3][2]; /* rows of A, B, C (low, high word); RZ and absent ones: the zero row */
    uint16_t d[2];           /* rows of D */
    uint8_t guard, guard_not;
    uint8_t flags;           /* SIM_HOT_* */
    uint8_t npreds, nouts;
    struct {
        uint8_t file, slot, invert, lanes; /* lanes: 0..4 for pp, pq, pa, pb, pc */
    } pred[5];
    struct {
        uint8_t uniform, slot, lanes; /* lanes: 0 for pu, 1 for pv; writes to PT are left out */
    } out[2];
    /* the word's function and, for the doc engine, its program: the loop
     * and a doc word's function read no other line of the word */
    sim_fn fn;
    const struct ds_prog *doc;
} sim_hot;
_Static_assert(sizeof(sim_hot) == 64, "a word's hot form is one cache line");

typedef struct sim_warp {
    uint32_t *r;            /* (regs + 2) rows of 32 lanes */
    uint32_t ur[SIM_NUR + 2]; /* + URZ (0) + sink */
    uint32_t p[9];          /* P0..P6, PT, sink: lane masks */
    uint32_t up[9];         /* UP0..UP6, UPT, sink: 0 or all ones */
    uint32_t active;
    unsigned id;
    size_t pc;              /* next instruction (gisa_sim_step, gisa_sim_continue) */
    int halted;             /* stopped by a fault at pc */
    unsigned rows_used; /* rows 0..rows_used-1 may be nonzero: every write of a row
                         * (sim_write_gpr, gisa_sim_set, a state file) raises it, so
                         * that the writer skips the rest without reading it */
} sim_warp;

typedef struct sim_exec {
    sim_warp *w;
    const sim_insn *in;
    const sim_hot *hot; /* in's line (predecode.c) */
    uint32_t mask;   /* lanes that execute: active & guard */
    unsigned regs;   /* real rows */
    const uint32_t *a, *b, *c, *ah, *bh, *ch; /* source lanes (high words of 64-bit ones) */
    /* on cache lines: the run loop copies d and dh to the register rows
     * right after the semantic function's vector stores; split across lines,
     * those loads could not take the stored data and waited */
    _Alignas(64) uint8_t pp[LANES];
    uint8_t pq[LANES], pa[LANES], pb[LANES], pc[LANES];
    /* Where the function writes the lanes of Rd: d_buf and dh_buf, which
     * the loop then writes back through the mask, or, when every lane
     * executes, nobody listens and no source row is a row of Rd, those
     * rows themselves (SIM_HOT_DIRECT: a copy per instruction saved). So a
     * native function that can fault does so before it writes d. */
    uint32_t *d, *dh;
    _Alignas(64) uint32_t d_buf[LANES];
    _Alignas(64) uint32_t dh_buf[LANES];
    _Alignas(64) uint8_t pu[LANES];
    uint8_t pv[LANES];
    _Alignas(64) uint32_t bcast[6][LANES];
    const char *fault; /* set by a semantic function to stop the warp */
    int fault_lane;
    char fault_buf[160];
    gisa_sim_commit *commit; /* receives every write when someone listens (step, trace, hook) */
} sim_exec;

struct gisa_sim {
    const gisa_isa *isa;
    unsigned regs, nwarps, threads;
    sim_warp *warps;
    void *slab;          /* the rows of every warp (sim_warp.r points into it) */
    uint32_t *cbank[64]; /* 64 KiB each, allocated on first write */
    gisa_word *words;
    size_t nwords;
    sim_insn *prog;      /* pre-decoded when the run starts */
    sim_hot *hot;        /* [nprog], 64-byte aligned: the run loop's part of prog */
    size_t nprog;
    char *strings;       /* texts of prog */
    gisa_inst *insts;    /* decoded words, kept only when commits are produced */
    int prog_valid;      /* prog matches the words, constants and the commit needs */
    gisa_trace_fn trace_fn;
    void *trace_user;
    unsigned trace_flags; /* GISA_TRACE_* */
    gisa_commit_fn commit_fn;
    void *commit_user;
    sim_exec *step_x;    /* gisa_sim_step's execution context, made on first use */
    gisa_sim_engine engine;
    uint8_t *optype_engine; /* [noptypes]: gisa_sim_set_engine_for's choice, SIM_ENGINE_UNSET: engine */
    /* [noptypes], made on first use (engine.c): whether the optype's C
     * function implements its loaded pseudo-code (0 unknown, 1 yes, -1 no)
     * and, for no, why (what --engine native refuses it with) */
    signed char *native_ok;
    char **native_why;
    uint8_t native_unchecked; /* the C functions run whatever the pseudo-code says (the
                               * differential check compares them with it: crosscheck.c) */
};
#define SIM_ENGINE_UNSET 0xffu

/* Pre-decodes the loaded program (predecode.c); keep_insts also keeps the
 * decoded words for commit records. sim_prepare does it only when the
 * program, the constants or the need for commit records changed. */
gisa_status sim_predecode(gisa_sim *s, int keep_insts);
gisa_status sim_prepare(gisa_sim *s, int keep_insts);
/* Makes word pc's sim_hot again, after its sim_insn changed. */
void sim_hot_refresh(gisa_sim *s, size_t pc);
static inline void sim_invalidate(gisa_sim *s) { s->prog_valid = 0; }
/* Frees the pre-decoded program and the decoded words and texts (when the
 * words change). */
void sim_program_free(gisa_sim *s);
const sim_opdef *sim_find_opdef(const char *optype);
/* The same in other tables (families[0 .. nfamilies-1], each ended by a NULL optype). */
const sim_opdef *sim_find_opdef_in(const sim_opdef *const *families, size_t nfamilies, const char *optype);

#define SIM_CBANK_BYTES 65536u /* each of the 64 constant banks */
static inline uint32_t sim_const_read(const gisa_sim *s, unsigned bank, unsigned offset)
{
    if (bank >= 64 || offset >= SIM_CBANK_BYTES || !s->cbank[bank])
        return 0;
    return s->cbank[bank][offset / 4];
}

/* the lanes of mask of row dst = v */
static inline void sim_store_row(uint32_t *dst, const uint32_t *v, uint32_t mask)
{
    if (mask == UINT32_MAX) {
        for (int l = 0; l < LANES; l++)
            dst[l] = v[l];
        return;
    }
    for (int l = 0; l < LANES; l++)
        if (mask >> l & 1)
            dst[l] = v[l];
}

/* Writes of results (writes.c); they feed the commit record when someone
 * listens. */
void sim_write_gpr(sim_exec *x, unsigned row, const uint32_t *v, uint32_t mask);
void sim_write_pred(sim_exec *x, unsigned slot, uint32_t value, uint32_t mask);
void sim_write_ur(sim_exec *x, unsigned slot, uint32_t value);
void sim_write_upred(sim_exec *x, unsigned slot, int value);
uint32_t sim_pack_pred(const uint8_t *lanes);

/* Lane l of m as byte l (0 or 1) of lanes[32]. Inline, and 16 bytes a
 * store: the semantic functions read the lanes back at once with 16-byte
 * vector loads, and a load that spans two smaller stores still in flight
 * cannot take their data (it waits for them to reach the cache). */
static inline uint64_t sim_spread8(uint32_t b)
{
    /* b in every byte, byte k keeping bit k; adding 0x7f carries a kept bit
     * into bit 7 of its byte, and no further */
    uint64_t v = ((b & 0xff) * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201);
    return ((v + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7) & UINT64_C(0x0101010101010101);
}
static inline void sim_unpack_pred(uint32_t m, uint8_t *lanes)
{
#if defined(__GNUC__)
    typedef uint64_t u64x2 __attribute__((vector_size(16)));
    for (int i = 0; i < 2; i++) {
        u64x2 v = {sim_spread8(m >> 16 * i), sim_spread8(m >> (16 * i + 8))};
        memcpy(lanes + 16 * i, &v, 16);
    }
#else
    for (int i = 0; i < 4; i++) {
        uint64_t v = sim_spread8(m >> 8 * i);
        memcpy(lanes + 8 * i, &v, 8);
    }
#endif
}

/* Small helpers the semantic functions share. */
static inline uint64_t sim_lane64(const uint32_t *lo, const uint32_t *hi, int l)
{
    return (uint64_t)hi[l] << 32 | lo[l];
}
static inline int sim_has(const sim_exec *x, sim_role r) { return x->in->op[r].kind != SK_NONE; }

/* R[URb + SImm9] (SETGPR, GETGPR; the doc engine's R[i]): the row of
 * register idx, where 255 (RZ) is the zero row to read and the sink to
 * write; -1 when idx is outside the file. Both engines fault with
 * sim_index_fault's message then. */
static inline long sim_index_row(int64_t idx, unsigned regs, int write)
{
    if (idx == 255)
        return write ? (long)regs + 1 : (long)regs;
    return idx >= 0 && idx < (int64_t)regs ? (long)idx : -1;
}
void sim_index_fault(char *buf, size_t cap, int64_t idx, unsigned regs, int lane);
#endif
