/* The doc engine's executor: runs a compiled semantics program (docsem/
 * prog.h) over the 32 lanes of a warp. Operations run on every lane (a lane
 * outside the mask computes a value nobody reads), so that each is one loop
 * the compiler vectorises; stores to variables respect the mask, as do the
 * scalar floating-point helpers (conversions, comparisons, min/max). The
 * arithmetic is the native engine's own: its lane kernels for add, multiply
 * and fused multiply-add, softfp.c for the rest. A program whose values fit
 * in 64 bits (docsem/narrow.c) runs on 64-bit lanes, any other on 128-bit
 * lanes: one loop (docexec_loop.h) written for both. */
#include <stdio.h>
#include <string.h>

#include "docsem/prog.h"
#include "sim/docexec.h"
#include "fp/softfp.h"

typedef unsigned __int128 u128;

static const fpfmt *const fmts[4] = {&FMT_F16, &FMT_BF16, &FMT_F32, &FMT_F64};

static double to_double(uint64_t v, int fmt)
{
    switch (fmt) {
    case DS_F16: return f64v(f16_to_f64((uint16_t)v));
    case DS_BF16: return f64v(bf16_to_f64((uint16_t)v));
    case DS_F32: return (double)f32v((uint32_t)v);
    default: return f64v(v);
    }
}

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

static int fcmp(uint64_t a, uint64_t b, int fmt, int mask)
{
    const fpfmt *f = fmts[fmt];
    if (fp_isnan(a, f) || fp_isnan(b, f))
        return (mask & 8) != 0;
    double x = to_double(a, fmt), y = to_double(b, fmt);
    int rel = x < y ? 1 : x == y ? 2 : 4;
    return (rel & mask) != 0;
}

/* min/max with +0 above -0; a NaN gives the other operand */
static uint64_t fminmax(uint64_t a, uint64_t b, int fmt, int is_max)
{
    const fpfmt *f = fmts[fmt];
    if (fp_isnan(a, f))
        return b;
    if (fp_isnan(b, f))
        return a;
    double x = to_double(a, fmt), y = to_double(b, fmt);
    if (x == y) { /* equal values: only the zeros' signs differ */
        int a_neg = (a & f->sign) != 0;
        return is_max ? (a_neg ? b : a) : (a_neg ? a : b);
    }
    return (x < y) == !is_max ? a : b;
}

static ds_int lowest_bit(ds_int v)
{
    const u128 x = (u128)v;
    if (!x)
        return -1;
    return (uint64_t)x ? __builtin_ctzll((uint64_t)x) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}


/* d = o's operation on every lane, by the lane kernels the native engine
 * uses (sources and result as the low bits of 64) */
static void fp_lanes(const ds_op *o, uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    const fp_rnd r = (fp_rnd)o->rnd;
    const int op = o->code;
    if (o->fmt == DS_F64) {
        if (op == DO_FADD)
            f64_add_lanes(d, a, b, r);
        else if (op == DO_FMUL)
            f64_mul_lanes(d, a, b, r);
        else
            f64_fma_lanes(d, a, b, c, r);
        return;
    }
    if (o->fmt == DS_F32) {
        uint32_t x[DS_LANES], y[DS_LANES], z[DS_LANES], w[DS_LANES];
        for (int l = 0; l < DS_LANES; l++) {
            x[l] = (uint32_t)a[l];
            y[l] = (uint32_t)b[l];
            z[l] = (uint32_t)c[l];
        }
        if (op == DO_FADD)
            f32_add_lanes(w, x, y, r);
        else if (op == DO_FMUL && o->k >= -3 && o->k <= 3)
            f32_mul_lanes(w, x, y, o->k, r);
        else if (op == DO_FMUL)
            for (int l = 0; l < DS_LANES; l++)
                w[l] = f32_mul_scaled(x[l], y[l], o->k, r);
        else
            f32_fma_lanes(w, x, y, z, r);
        for (int l = 0; l < DS_LANES; l++)
            d[l] = w[l];
        return;
    }
    /* the half kernels take 64 halves: the lanes twice */
    uint16_t x[2 * DS_LANES], y[2 * DS_LANES], z[2 * DS_LANES], w[2 * DS_LANES];
    for (int l = 0; l < 2 * DS_LANES; l++) {
        x[l] = (uint16_t)a[l % DS_LANES];
        y[l] = (uint16_t)b[l % DS_LANES];
        z[l] = (uint16_t)c[l % DS_LANES];
    }
    const int bf = o->fmt == DS_BF16;
    if (op == DO_FADD)
        (bf ? bf16_add_lanes : f16_add_lanes)(w, x, y, r);
    else if (op == DO_FMUL)
        (bf ? bf16_mul_lanes : f16_mul_lanes)(w, x, y, r);
    else
        (bf ? bf16_fma_lanes : f16_fma_lanes)(w, x, y, z, r);
    for (int l = 0; l < DS_LANES; l++)
        d[l] = w[l];
}

static void fault_at(const ds_prog *p, const ds_op *o, ds_io *io, int lane)
{
    io->fault_lane = lane;
    snprintf(io->fault_buf, sizeof io->fault_buf, "%s in lane %d",
             o->k >= 0 && o->k < p->nstrings ? p->strings[o->k] : "fault", lane);
    io->fault = io->fault_buf;
}

#define EACH for (int l = 0; l < DS_LANES; l++)
#define MASKED for (uint32_t m_ = cur; m_; m_ &= m_ - 1) for (int l = __builtin_ctz(m_), once_ = 1; once_; once_ = 0)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#define LANE_T ds_int
#define ULANE_T u128
#define LANE_BITS 128
#define RUN run_wide
#include "sim/docexec_loop.h"
#undef LANE_T
#undef ULANE_T
#undef LANE_BITS
#undef RUN

#define LANE_T int64_t
#define ULANE_T uint64_t
#define LANE_BITS 64
#define RUN run_narrow
#include "sim/docexec_loop.h"

static _Thread_local ds_int wide_frame[DS_MAX_SLOTS][DS_LANES];
static _Thread_local int64_t narrow_frame[DS_MAX_SLOTS][DS_LANES];

int sim_doc_wide_only;

void sim_doc_run(const ds_prog *p, ds_io *io)
{
    if (p->narrow && !sim_doc_wide_only)
        run_narrow(p, io, narrow_frame);
    else
        run_wide(p, io, wide_frame);
}
