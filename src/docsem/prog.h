/* A compiled semantics program: what the pseudo-code of one instruction word
 * becomes once its variant is chosen, its modifiers and operand decorations
 * folded in as constants, its types resolved and its loops unrolled. The
 * program is a list of lane-vector operations on slots of 32 lanes of
 * 128-bit values; control flow that depends on lane values is a mask stack
 * (DO_IF / DO_ELSE / DO_ENDIF), so each operation runs once for the warp.
 *
 * The executor (src/sim/docexec.c) runs it; it is the only code that knows
 * floating-point arithmetic (src/fp's soft-float), so this layer stays
 * free of it. */
#ifndef GISA_DOCSEM_PROG_H
#define GISA_DOCSEM_PROG_H
#include <stdint.h>

#include "docsem/ast.h"

#define DS_LANES 32
#define DS_NPORTS 16
#define DS_MAX_SLOTS 256
#define DS_MAX_DEPTH 32

typedef enum ds_opcode {
    /* integers (128-bit, two's complement): d = a OP b (b = imm when bk) */
    DO_CONST, DO_MOV, DO_STORE, /* STORE: d = a on the lanes of the current mask */
    DO_ADD, DO_SUB, DO_MUL, DO_DIV, DO_CDIV, DO_MOD, DO_AND, DO_OR, DO_XOR, DO_SHL, DO_SHR,
    DO_LT, DO_LE, DO_GT, DO_GE, DO_EQ, DO_NE, DO_MIN, DO_MAX, DO_LAND, DO_LOR,
    /* SHR is arithmetic; a width other than 0 on it is a fact the optimiser
     * proved (opt.c), not part of its meaning: a lies in [0, 2^width) */
    DO_NOT, DO_NEG, DO_LNOT, DO_ABS,
    DO_BITS,   /* d = (a >> k) & (2^width - 1) */
    DO_SEXT,   /* d = a's low `width` bits, sign-extended */
    DO_INSERT, /* d = a with bits [k, k+width) replaced by b's low bits */
    DO_SEL,    /* d = a ? b : c */
    DO_LUT3,   /* d = the function of truth table imm on a, b, c, bit by bit over `width` bits */
    /* floating point: fmt (ds_fmt), rnd (0 RN, 1 RM, 2 RP, 3 RZ) */
    DO_FADD, DO_FMUL, /* FMUL: a*b*2^k */
    DO_FFMA,          /* a*b*2^k + c, one rounding */
    DO_FCVT,          /* a (format k) to fmt, rounded */
    DO_FCMP,          /* the FCMPOp bit mask imm: 1 less, 2 equal, 4 greater, 8 unordered */
    DO_FISNAN, DO_FISSUB, DO_FMIN, DO_FMAX, /* FMIN/FMAX: +0 above -0 */
    /* control */
    DO_IF, DO_ELSE, DO_ENDIF,
    DO_FAULT, /* stop with the message prog->strings[k] on the first lane of the mask where a is true */
    /* ports: DS_NPORTS inputs / outputs, numbered by the caller */
    DO_IN,      /* d = port k (64 bits when width == 64) */
    DO_INPRED,  /* d = predicate port k (0/1) */
    DO_OLD,     /* d = the current value of output port k (what an unwritten result keeps) */
    DO_OLDPRED,
    DO_OUT,     /* output port k = a's low 32 (64) bits */
    DO_OUTPRED, /* predicate output port k = a != 0 */
    /* the warp: whole-warp values and other lanes */
    DO_LANEMASK, /* d = the warp's active lanes (k = 0) or the lanes whose guard is true (k = 1), as a mask */
    DO_CTZ,      /* d = the index of a's lowest set bit, -1 when a is 0 */
    DO_LANE,     /* d = a in lane b (b outside 0..31: 0) */
    /* register files beyond the operands */
    DO_INPFILE,  /* d = the predicate file as a byte: P0..P6 in bits 0..6, PT (1) in bit 7 */
    DO_OUTPFILE, /* P_i = bit i of a on the lanes where bit i of b is set (i < 7; PT stays true) */
    DO_RGET,     /* d = general register a of the lane (255: RZ, 0); other indices outside the file fault */
    DO_RSET,     /* general register a of the lane = b, on the lanes of the mask (written after the program) */
    DO_COUNT
} ds_opcode;

typedef enum ds_fmt { DS_F16, DS_BF16, DS_F32, DS_F64 } ds_fmt;

/* the bits of a value of format fmt */
static inline int ds_fmt_bits(int fmt) { return fmt == DS_F64 ? 64 : fmt == DS_F32 ? 32 : 16; }

typedef struct ds_op {
    uint8_t code, fmt, rnd, bk;
    uint8_t width;
    uint16_t d, a, b, c;
    int32_t k;
    ds_int imm;
} ds_op;

typedef struct ds_prog {
    /* what running it reads, first: one cache line */
    ds_op *ops;
    int nops;
    int nslots;
    /* the executor's form of ops (src/sim/doclower.c: the same program with
     * some sequences fused into operations of its own), which it runs when
     * set; freed with the program */
    ds_op *run_ops;
    int run_nops;
    uint32_t outs, pred_outs; /* output ports written (bit per port) */
    uint32_t olds, pred_olds; /* output ports whose old value is read */
    uint8_t pfile_in, pfile_out; /* reads / writes the predicate file (DO_INPFILE, DO_OUTPFILE) */
    uint8_t rset;                /* writes a general register by index (DO_RSET) */
    uint8_t lane_bits;           /* runs on lanes of 32, 64 or 128 bits (narrow.c: ds_lane_bits) */
    /* the executor's: its output port 0 may be the result's register rows
     * themselves (it reads no old value of port 0 and cannot fault after
     * its first output: src/sim/doclower.c) */
    uint8_t run_direct;
    uint16_t run_in_place; /* output ports computed in place (doclower.h, XS_OUT_SLOT) */
    uint16_t run_nlead;    /* run_ops' leading constants and port reads (doclower.c) */
    const char **strings; /* fault messages */
    int nstrings;
    const char *fault;        /* set: the instruction cannot run; the reason */
    const struct ds_variant *variant;
    /* the simulator's: a hash of what the program computes, and how many
     * more words than the first run it (words that compile to the same
     * program share one, src/sim/docengine.c) */
    uint64_t run_hash;
    int run_shares;
} ds_prog;

/* What an operation does with its slots (opt.c): the operands it reads,
 * whether it writes d, whether it has no other effect (it may go when
 * nobody reads d), whether the optimiser knows it at all (an operation it
 * does not know may read anything). */
enum { DS_READS_A = 1, DS_READS_B = 2, DS_READS_C = 4, DS_WRITES_D = 8, DS_PURE = 16, DS_KNOWN = 32 };
unsigned ds_op_shape(const ds_op *o);

/* The integer division family, defined for every pair of 128-bit values
 * (docs/semantics-language.md): a divisor of 0 faults before the operation
 * where a lane of the mask meets it (DO_FAULT), so the 0 here is only what
 * lanes nobody reads compute; a divisor of -1 negates, wrapping like + - *
 * (-2^127 / -1 is -2^127, where C's quotient overflows). The constant folder
 * and the executor share them, so folding never differs from running. */
static inline ds_int ds_div(ds_int x, ds_int y)
{
    return !y ? 0 : y == -1 ? (ds_int)(0 - (unsigned __int128)x) : x / y;
}

/* ceil(x / y) */
static inline ds_int ds_cdiv(ds_int x, ds_int y)
{
    if (!y || y == -1)
        return ds_div(x, y);
    return x / y + ((x % y != 0) && ((x < 0) == (y < 0)));
}

/* x mod y in [0, |y|) (|y| computed without negating -2^127) */
static inline ds_int ds_mod(ds_int x, ds_int y)
{
    if (!y || y == -1)
        return 0;
    const ds_int r = x % y;
    return r >= 0 ? r : y < 0 ? r - y : r + y;
}

/* Whether a slot has been written on every path to a point of a program
 * (opt.c, src/sim/doclower.c): fed each IF (or other opening of a
 * branch), ELSE, ENDIF and write of the slot in order. A branch's lanes
 * take the path through it, the others the path around it; after ENDIF
 * the slot is written where both paths wrote it. */
typedef struct ds_paths {
    uint8_t written[DS_MAX_DEPTH + 2], then_written[DS_MAX_DEPTH + 2], has_else[DS_MAX_DEPTH + 2];
    int depth;
} ds_paths;
enum { DS_PATH_OPEN, DS_PATH_ELSE, DS_PATH_ENDIF, DS_PATH_WRITE };

/* returns 0 where branches nest deeper than a program may */
static inline int ds_paths_step(ds_paths *p, int what)
{
    const int d = p->depth;
    if (what == DS_PATH_OPEN) {
        if (d > DS_MAX_DEPTH)
            return 0;
        p->depth = d + 1;
        p->written[d + 1] = p->written[d];
        p->has_else[d + 1] = 0;
    } else if (what == DS_PATH_ELSE && d > 0) {
        p->then_written[d] = p->written[d];
        p->has_else[d] = 1;
        p->written[d] = p->written[d - 1];
    } else if (what == DS_PATH_ENDIF && d > 0) {
        p->written[d - 1] = (uint8_t)(p->has_else[d] ? p->then_written[d] && p->written[d] : p->written[d - 1]);
        p->depth = d - 1;
    } else if (what == DS_PATH_WRITE) {
        p->written[d] = 1;
    }
    return 1;
}
static inline int ds_paths_written(const ds_paths *p) { return p->written[p->depth]; }

/* The runtime side of the ports: lane arrays the caller fills. */
typedef struct ds_io {
    const uint32_t *lo[DS_NPORTS], *hi[DS_NPORTS];
    const uint8_t *pred[DS_NPORTS];
    const uint32_t *old_lo[DS_NPORTS], *old_hi[DS_NPORTS];
    const uint8_t *old_pred[DS_NPORTS];
    uint32_t *out_lo[DS_NPORTS], *out_hi[DS_NPORTS];
    uint8_t *out_pred[DS_NPORTS];
    uint32_t mask;
    const char *fault; /* set by DO_FAULT, DO_RGET, DO_RSET */
    int fault_lane;
    /* the warp (DO_LANEMASK) and its register files (DO_INPFILE, DO_RGET) */
    uint32_t active, guard;
    const uint8_t *pfile;
    const uint32_t *regs; /* nregs rows of DS_LANES, then the zero row */
    unsigned nregs;
    /* results beyond the ports, written by the caller after the program */
    uint8_t *out_pfile, *out_pfile_we;
    uint32_t rset_mask; /* lanes that write a register; rset_row: its row (the index, or nregs + 1 for RZ) */
    uint32_t rset_row[DS_LANES], rset_val[DS_LANES];
    char fault_buf[160];
} ds_io;
#endif
