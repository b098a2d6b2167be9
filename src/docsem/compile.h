/* Internals of the compiler: compile.c (the statements) calls cexpr.c (the
 * expressions), which calls builtin.c (the built-in functions); all three
 * call emit.c (slots, operations, constants, variables, modifier names,
 * integer operations, failing), which calls none of them. */
#ifndef GISA_DOCSEM_COMPILE_H
#define GISA_DOCSEM_COMPILE_H
#include <setjmp.h>

#include "docsem/docsem.h"

/* The type of a value at compile time. */
typedef enum vty {
    V_VOID,
    V_INT,   /* integer (128-bit) */
    V_BOOL,  /* 0 or 1 */
    V_FP,    /* bit pattern of format fmt */
    V_EXACT, /* a deferred exact value: x_op over component slots, rounded later */
    V_REAL,  /* a real literal not yet given a format */
    V_NAME,  /* a modifier value or value name (compile time only) */
    V_ARRAY, /* elements elems[0..n-1] */
    V_FUNC,  /* getFunctionFromTable: the truth table in `lut` */
    V_STR
} vty;

typedef enum xop { X_VAL, X_ADD, X_MUL, X_FMA } xop;

#define MAX_ELEMS 8
#define MAX_VARS 512
#define MAX_CONSTS 64
#define MAX_PROLOGUE 64
/* loop iterations one word may unroll, all loops together: nested loops
 * multiply (the documents' longest loop runs 4 times) */
#define MAX_UNROLL 1024

typedef struct cval cval;
struct cval {
    vty ty;
    uint8_t fmt;   /* V_FP, V_EXACT */
    uint8_t konst; /* V_INT/V_BOOL/V_FP: the value is k */
    ds_int k;
    int slot;      /* otherwise its slot */
    /* V_EXACT: value = a (X_VAL), a + c (X_ADD), a * b (X_MUL), a * b + c (X_FMA), times 2^scale on a */
    xop x;
    int xa, xb, xc, scale;
    /* V_NAME: the modifier's spelling and its type's value name (or the
     * literal name twice); slot >= 0 for a modifier (which one) */
    const char *name, *tname;
    const mod_slot *mslot;
    const isa_type *mtype;
    double real; /* V_REAL */
    const char *text;
    cval *elems; /* V_ARRAY */
    int nelems;
};

typedef struct var {
    const char *name;
    cval v;
    int set;          /* has a value */
    int width, is_signed; /* declared integer type (0: unbounded) */
    int fp_decl;      /* declared F16/BF16/F32/F64: fmt + 1 */
    const ds_operand *opnd; /* an operand of the instruction */
    ds_vtype vtype;   /* its declared value type */
    ds_deco deco;
    int private_;     /* has its own slot for masked stores (inside runtime regions) */
    int absent_out;   /* a result the form does not have: writes are dropped */
    int owned;        /* the name was allocated by the compiler */
    int pfile_bit;    /* P0..P7 of the predicate file: bit + 1 */
    int pfile_we;     /* its lanes written so far: slot + 1 (0: never written) */
} var;

typedef struct cc {
    const ds_insn *in;
    const ds_optype *sem;
    ds_prog *p;
    int cap;
    var *vars;
    int nvars;
    struct {
        ds_int k;
        int slot;
    } consts[MAX_CONSTS];
    int nconsts;
    ds_op pro[MAX_PROLOGUE]; /* operand loads, run first */
    int npro;
    int prologue; /* cc_emit appends to pro */
    int rt;      /* depth of runtime-conditional regions */
    int dead;    /* inside a constant-false branch: nothing is emitted */
    int rsets;   /* R[i] = x writes so far (one per instruction) */
    int unrolled; /* loop iterations so far (MAX_UNROLL) */
    char *why;
    size_t whycap;
    jmp_buf fail;
} cc;

/* emit.c */
__attribute__((noreturn, format(printf, 3, 4))) void cc_fail(cc *c, const ds_node *at, const char *fmt, ...);
int cc_slot(cc *c, const ds_node *at);
ds_op *cc_emit(cc *c, int code, int d);
/* The index in the program's strings of "file:line:col: msg" (at's
 * location), the message of a DO_FAULT. */
int cc_fault_message(cc *c, const ds_node *at, const char *msg);
cval cc_const(vty ty, ds_int k);
/* a value computed at run time, in slot */
cval cc_runtime(vty ty, int slot, int fmt);
/* puts the constant pool and the operand loads in front of the program */
void cc_prepend_consts(cc *c);
/* a modifier's or field's value name as the word sets it (.rnd: "RZ") */
cval cc_modifier(cc *c, const ds_node *at, const char *name);
cval cc_name_val(const char *name, const char *tname);
/* the value name a modifier slot (or an operand's suffix) holds in the word */
cval cc_mod_value(cc *c, const mod_slot *s);
static inline ds_int cc_sign_bit(int fmt)
{
    return fmt == DS_F64 ? (ds_int)1 << 63 : fmt == DS_F32 ? (ds_int)1 << 31 : (ds_int)1 << 15;
}
/* the value in a slot (materialises a constant) */
int cc_in_slot(cc *c, const cval *v, const ds_node *at);
/* integer view: FP bit patterns and booleans as integers */
cval cc_as_int(cc *c, cval v, const ds_node *at);
cval cc_read_var(cc *c, var *v, const ds_node *at);
var *cc_find_var(cc *c, const char *name);
var *cc_new_var(cc *c, const char *name);
/* a value converted to a format (reals, integers as bits, FP as is) */
cval cc_to_fp(cc *c, cval v, int fmt, const ds_node *at);
cval cc_bin_int(cc *c, int code, cval a, cval b, const ds_node *at);
/* whether t is R[i], the general register file indexed by a lane value */
int cc_is_regfile(cc *c, const ds_node *t);

/* cexpr.c */
cval cc_expr(cc *c, const ds_node *e);
int cc_name_eq(cc *c, const cval *a, const cval *b, const ds_node *at);

/* builtin.c: the table of built-in functions. A call's arguments reach
 * the emitter compiled (cexpr.c compiles them, left to right); where the
 * entry says so, an argument written x / y arrives as two values. */
#define CC_MAX_ARGS 8
typedef cval (*cc_builtin_fn)(cc *c, const ds_node *call, const char *name, const cval *a, int n);
typedef struct cc_builtin {
    const char *name;
    int min_args, max_args;
    int quotient;      /* its one argument, written x / y, arrives as x and y */
    cc_builtin_fn emit;
} cc_builtin;
const cc_builtin *cc_find_builtin(const char *name);
/* a truth table (getFunctionFromTable's value) applied to three arguments */
cval cc_lut_call(cc *c, const ds_node *call, cval table, const cval *a);
/* opt.c: the finished program made shorter, what it computes unchanged */
void ds_optimize(ds_prog *p);
/* the narrowest lanes (32, 64 or 128 bits) that hold p's values (narrow.c) */
int ds_lane_bits(const ds_prog *p);
#endif
