/* The doc engine's executor: runs a compiled semantics program (docsem/
 * prog.h) over the 32 lanes of a warp. Operations run on every lane (a lane
 * outside the mask computes a value nobody reads), so that each is one loop
 * the compiler vectorises; stores to variables respect the mask, as do the
 * format conversions (softfp.c, a lane at a time). Add, multiply and fused
 * multiply-add are the native engine's lane kernels; comparisons, min/max
 * and the NaN and subnormal tests work on the values' bits. A program runs on the
 * narrowest lanes that hold its values (32, 64 or 128 bits: docsem/
 * narrow.c), by one loop (docexec_loop.h) written for the three. */
#include <stdio.h>
#include <string.h>

#include "docsem/prog.h"
#include "sim/docexec.h"
#include "sim/doclower.h"
#include "fp/softfp.h"

typedef unsigned __int128 u128;

static const fpfmt *const fmts[4] = {&FMT_F16, &FMT_BF16, &FMT_F32, &FMT_F64};

/* any format to F64 exactly, then to the target with one rounding */
static uint64_t fcvt(uint64_t v, int from, int to, fp_rnd r)
{
    uint64_t d = from == DS_F64 ? v : from == DS_F32 ? f64b((double)f32v((uint32_t)v))
                 : from == DS_F16 ? f16_to_f64((uint16_t)v) : bf16_to_f64((uint16_t)v);
    switch (to) {
    case DS_F16: return f16_from_f64(d, r);
    case DS_BF16: return bf16_from_f64(d, r);
    case DS_F32: fp_use_rounding(r); return f32b((float)f64v(d));
    default: return d;
    }
}

static ds_int lowest_bit(ds_int v)
{
    const u128 x = (u128)v;
    if (!x)
        return -1;
    return (uint64_t)x ? __builtin_ctzll((uint64_t)x) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* d = o's operation on every lane, by the lane kernels the native engine
 * uses: F64, F32, and F16/BF16 (those kernels take 64 halves: the lanes'
 * in the first 32, the rest only computed) */
static void f64_lanes(const ds_op *o, uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    const fp_rnd r = (fp_rnd)o->rnd;
    if (o->code == DO_FADD)
        f64_add_lanes(d, a, b, r);
    else if (o->code == DO_FMUL)
        f64_mul_lanes(d, a, b, r);
    else
        f64_fma_lanes(d, a, b, c, r);
}

static void f32_lanes(const ds_op *o, uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c)
{
    const fp_rnd r = (fp_rnd)o->rnd;
    if (o->code == DO_FADD)
        f32_add_lanes(d, a, b, r);
    else if (o->code == DO_FMUL && o->k >= -3 && o->k <= 3)
        f32_mul_lanes(d, a, b, o->k, r);
    else if (o->code == DO_FMUL)
        for (int l = 0; l < DS_LANES; l++)
            d[l] = f32_mul_scaled(a[l], b[l], o->k, r);
    else
        f32_fma_lanes(d, a, b, c, r);
}

static void half_lanes(const ds_op *o, uint16_t *d, const uint16_t *a, const uint16_t *b, const uint16_t *c)
{
    const fp_rnd r = (fp_rnd)o->rnd;
    const int bf = o->fmt == DS_BF16;
    if (o->code == DO_FADD)
        (bf ? bf16_add_lanes : f16_add_lanes)(d, a, b, r);
    else if (o->code == DO_FMUL)
        (bf ? bf16_mul_lanes : f16_mul_lanes)(d, a, b, r);
    else
        (bf ? bf16_fma_lanes : f16_fma_lanes)(d, a, b, c, r);
}

static void fault_at(const ds_prog *p, const ds_op *o, ds_io *io, int lane)
{
    io->fault_lane = lane;
    snprintf(io->fault_buf, sizeof io->fault_buf, "%s in lane %d",
             o->k >= 0 && o->k < p->nstrings ? p->strings[o->k] : "fault", lane);
    io->fault = io->fault_buf;
}

#if defined(__GNUC__)
#define COLD __attribute__((noinline, cold))
#define OUT_OF_LINE __attribute__((noinline))
#else
#define COLD
#define OUT_OF_LINE
#endif
/* labels as values: one jump per operation (-DDOC_THREADED=0: a switch) */
#if !defined(DOC_THREADED) && defined(__GNUC__)
#define DOC_THREADED 1
#elif !defined(DOC_THREADED)
#define DOC_THREADED 0
#endif
#define EACH for (int l = 0; l < DS_LANES; l++)
#define MASKED for (uint32_t m_ = cur; m_; m_ &= m_ - 1) for (int l = __builtin_ctz(m_), once_ = 1; once_; once_ = 0)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define SLOT_BYTES (sizeof(LANE_T) * DS_LANES)

/* The loop of each width, and on x86-64 with GCC a second one compiled for
 * x86-64-v3 (AVX2), chosen at run time (the native lane loops' choice, made
 * by hand: a function whose labels are values cannot be target_clones'd) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) &&               \
    !defined(GISA_NO_CLONES)
#define DOC_V3 1
#else
#define DOC_V3 0
#endif

#define LANE_T ds_int
#define ULANE_T u128
#define LANE_BITS 128
#define FIELD_T uint64_t
#define FIELD_S int64_t
#define FIELD_BITS 64
#include "sim/docexec_width.h"

#define LANE_T int64_t
#define ULANE_T uint64_t
#define LANE_BITS 64
#define FIELD_T uint64_t
#define FIELD_S int64_t
#define FIELD_BITS 64
#include "sim/docexec_width.h"

#define LANE_T int32_t
#define ULANE_T uint32_t
#define LANE_BITS 32
#define FIELD_T uint32_t
#define FIELD_S int32_t
#define FIELD_BITS 32
#include "sim/docexec_width.h"

/* The slots of each width, and the table through which operations reach
 * them: a slot's own lanes, except that on 32-bit lanes a port's slot
 * (doclower.h) points to the port's lanes themselves. The table is set
 * up on a thread's first run; after that only ports' slots change, and
 * only operations on ports read them, each after binding its own. */
static _Thread_local _Alignas(64) ds_int frame_128[XS_ALL_SLOTS][DS_LANES];
static _Thread_local _Alignas(64) int64_t frame_64[XS_ALL_SLOTS][DS_LANES];
static _Thread_local _Alignas(64) int32_t frame_32[XS_ALL_SLOTS][DS_LANES];
static _Thread_local ds_int *slots_128[XS_ALL_SLOTS];
static _Thread_local int64_t *slots_64[XS_ALL_SLOTS];
static _Thread_local int32_t *slots_32[XS_ALL_SLOTS];

static void bind_frames(void)
{
    for (int i = 0; i < XS_ALL_SLOTS; i++) {
        slots_128[i] = frame_128[i];
        slots_64[i] = frame_64[i];
        slots_32[i] = frame_32[i];
    }
}

int sim_doc_lane_bits_min;

void sim_doc_run(const ds_prog *p, ds_io *io)
{
    const int bits = p->lane_bits > sim_doc_lane_bits_min ? p->lane_bits : sim_doc_lane_bits_min;
    if (__builtin_expect(!slots_32[0], 0))
        bind_frames();
#if DOC_V3
    if (__builtin_cpu_supports("x86-64-v3")) {
        if (bits <= 32)
            run_32_v3(p, io, slots_32);
        else if (bits <= 64)
            run_64_v3(p, io, slots_64);
        else
            run_128_v3(p, io, slots_128);
        return;
    }
#endif
    if (bits <= 32)
        run_32(p, io, slots_32);
    else if (bits <= 64)
        run_64(p, io, slots_64);
    else
        run_128(p, io, slots_128);
}
