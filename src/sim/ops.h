/* Shared by the semantic functions (ops_*.c): the tables they export and
 * the operand decorations of integer sources. */
#ifndef GISA_SIM_OPS_H
#define GISA_SIM_OPS_H
#include "sim/sim.h"

extern const sim_opdef sim_ops_int_arith[];
extern const sim_opdef sim_ops_int_logic[];
extern const sim_opdef sim_ops_int_move[];
extern const sim_opdef sim_ops_f32[];
extern const sim_opdef sim_ops_f64[];
extern const sim_opdef sim_ops_f16[];

/* With GCC on x86-64 the semantic functions are compiled twice, for AVX2 and the
 * baseline, and the loader picks one (the lane loops then run 8 lanes per
 * vector instruction where the host allows). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(GISA_NO_CLONES)
#define SIM_OP static __attribute__((target_clones("avx2", "default")))
#else
#define SIM_OP static
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
