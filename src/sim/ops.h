/* Shared by the semantic functions (ops_*.c): the tables they export, the
 * X-macros that name the modifiers they read, and the operand decorations
 * of integer sources. */
#ifndef GISA_SIM_OPS_H
#define GISA_SIM_OPS_H
#include "sim/sim.h"

extern const sim_opdef sim_ops_int_arith[];
extern const sim_opdef sim_ops_int_logic[];
extern const sim_opdef sim_ops_int_move[];
extern const sim_opdef sim_ops_f32[];
extern const sim_opdef sim_ops_f64[];
extern const sim_opdef sim_ops_f16[];

/* ------------------------------------------------------------------ names
 * Each semantic function reads modifiers as indices (insn->m[], resolved by
 * the pre-decoder, bind.c) and compares them with enumerators; both the
 * indices and the names they stand for come from one X-macro, so no index
 * is kept by hand and bind.c's load-time check sees every name.
 *
 * A value list LIST(V, P) calls V(P, NAME) per value name of the model's
 * enumeration, in index order. SIM_VALUES(P, LIST) makes the enumerators
 * P_NAME (P_COUNT of them) and P_names[], the names by index. */
#define SIM_VALUE_ENUM_(P, NAME) P##_##NAME,
#define SIM_VALUE_NAME_(P, NAME) #NAME,
#define SIM_VALUES(P, LIST)                                                                                    \
    enum { LIST(SIM_VALUE_ENUM_, P) P##_COUNT };                                                               \
    static const char *const P##_names[] = {LIST(SIM_VALUE_NAME_, P)}

/* The modifiers one function reads: LIST(M, P) calls M(P, MOD, "field",
 * VALUES) per modifier, VALUES naming a SIM_VALUES list. SIM_MODS(P, LIST)
 * makes the enumerators P_MOD (the index into insn->m[]) and P_mods[], the
 * table's field names and value lists in that order. */
#define SIM_MOD_INDEX_(P, MOD, FIELD, VALUES) P##_##MOD,
#define SIM_MOD_SPEC_(P, MOD, FIELD, VALUES) {FIELD, VALUES##_names, VALUES##_COUNT},
#define SIM_MODS(P, LIST)                                                                                      \
    enum { LIST(SIM_MOD_INDEX_, P) P##_NMODS };                                                                \
    _Static_assert(P##_NMODS <= SIM_MAXMODS, "insn->m[] holds SIM_MAXMODS modifiers");                         \
    static const sim_mod P##_mods[] = {LIST(SIM_MOD_SPEC_, P)}

/* The middle of a table entry: {"OPTYPE", fn, SIM_MODS_OF(P), SIM_SELS_OF(L), custom_write[, SIM_READS(...)]} */
#define SIM_MODS_OF(P) P##_mods, P##_NMODS
#define SIM_NO_MODS NULL, 0
#define SIM_SELS_OF(L) L##_names, L##_COUNT
#define SIM_NO_SELS NULL, 0

/* The end of a table entry whose function reads its sources under other
 * roles than RO_A, RO_B, RO_C / RO_PP, RO_PQ, RO_PC, or reads the optype's
 * constants apart (in syntax order; NULL keeps the default):
 * {..., custom_write, SIM_READS(SIM_ROLES(RO_B), NULL, NULL)} */
#define SIM_ROLES(...) ((const sim_role[]){__VA_ARGS__, RO_COUNT})
#define SIM_READS(SOURCES, PRED_SOURCES, CONSTANTS) SOURCES, PRED_SOURCES, CONSTANTS
#define SIM_DEFAULT_READS NULL, NULL, NULL

/* Whether enumerators of two enums are equal (in _Static_assert, without
 * -Wenum-compare) */
#define SIM_SAME(A, B) ((int)(A) == (int)(B))

/* Value lists of both integer and floating-point instructions */
#define BOOL_VALUES(V, P) V(P, AND) V(P, OR) V(P, XOR) /* BoolOp, LOPOp */
SIM_VALUES(BOOL, BOOL_VALUES);
#define BVAL_VALUES(V, P) V(P, BM) V(P, BF) /* .BM: all ones, .BF: 1.0 */
SIM_VALUES(BVAL, BVAL_VALUES);

/* Value lists of the integer instructions */
#define EXT_VALUES(V, P) V(P, NoX) V(P, X) /* .X: extended precision (carry in, ~x) */
SIM_VALUES(EXT, EXT_VALUES);
#define LOHI_VALUES(V, P) V(P, LO) V(P, HI)
SIM_VALUES(LOHI, LOHI_VALUES);
#define ITYPE_VALUES(V, P) V(P, S32) V(P, U32)
SIM_VALUES(ITYPE, ITYPE_VALUES);

/* With GCC on x86-64 the semantic functions are compiled twice, for AVX2 and the
 * baseline, and the loader picks one (the lane loops then run 8 lanes per
 * vector instruction where the host allows). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(GISA_NO_CLONES)
#define SIM_OP static __attribute__((target_clones("avx2", "default")))
#else
#define SIM_OP static
#endif
/* A helper of SIM_OP functions: inlined into each clone, so it runs with the
 * clone's instruction set */
#if defined(__GNUC__)
#define SIM_INLINE static inline __attribute__((always_inline))
#else
#define SIM_INLINE static inline
#endif

/* What a 32-bit source adds to an exact sum: -x adds 2^32 - x (so -0 carries
 * out, as ~x + 1 does), ~x its complement. As (v ^ flip) + one, branch-free:
 * see addend_flip / addend_one. */
static inline uint64_t addend32(uint32_t v, const sim_opnd *o)
{
    return o->neg ? (UINT64_C(1) << 32) - v : o->inv ? (uint32_t)~v : v;
}
static inline uint32_t addend_flip(const sim_opnd *o) { return o->neg || o->inv ? UINT32_MAX : 0; }
static inline uint64_t addend_one(const sim_opnd *o) { return o->neg; }

/* The same for a 64-bit source (-x adds 2^64 - x). */
static inline unsigned __int128 addend64(uint64_t v, const sim_opnd *o)
{
    return o->neg ? ((unsigned __int128)1 << 64) - v : o->inv ? (unsigned __int128)~v : v;
}

/* A 32-bit source with '-' applied as a 32-bit two's complement. */
static inline uint32_t neg32(uint32_t v, const sim_opnd *o)
{
    return o->neg ? 0u - v : o->inv ? ~v : v;
}
#endif
