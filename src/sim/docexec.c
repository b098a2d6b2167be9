/* The doc engine's executor: runs a compiled semantics program (docsem/
 * prog.h) over the 32 lanes of a warp. Integer operations run on every lane
 * (a lane outside the mask computes a value nobody reads); floating-point
 * operations, which cost a call each, run on the lanes of the current mask
 * only; stores to variables respect the mask. The arithmetic is softfp.c's,
 * the native engine's own. */
#include <stdio.h>
#include <string.h>

#include "docsem/prog.h"
#include "sim/docexec.h"
#include "fp/softfp.h"

typedef unsigned __int128 u128;
typedef ds_int lanes[DS_LANES];

static _Thread_local lanes frame[DS_MAX_SLOTS];

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

static uint64_t fadd(int fmt, uint64_t a, uint64_t b, fp_rnd r)
{
    switch (fmt) {
    case DS_F16: return f16_add((uint16_t)a, (uint16_t)b, r);
    case DS_BF16: return bf16_add((uint16_t)a, (uint16_t)b, r);
    case DS_F32: return f32_add((uint32_t)a, (uint32_t)b, r);
    default: return f64_add(a, b, r);
    }
}

static uint64_t fmul(int fmt, uint64_t a, uint64_t b, int k, fp_rnd r)
{
    switch (fmt) {
    case DS_F16: return f16_mul((uint16_t)a, (uint16_t)b, r);
    case DS_BF16: return bf16_mul((uint16_t)a, (uint16_t)b, r);
    case DS_F32: return k ? f32_mul_scaled((uint32_t)a, (uint32_t)b, k, r) : f32_mul((uint32_t)a, (uint32_t)b, r);
    default: return f64_mul(a, b, r);
    }
}

static uint64_t ffma(int fmt, uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    switch (fmt) {
    case DS_F16: return f16_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, r);
    case DS_BF16: return bf16_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, r);
    case DS_F32: return f32_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, r);
    default: return f64_fma(a, b, c, r);
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

static ds_int lut3(ds_int a, ds_int b, ds_int c, unsigned lut, int width)
{
    u128 r = 0, m = width >= 128 ? ~(u128)0 : (((u128)1 << width) - 1);
    for (int k = 0; k < 8; k++)
        if (lut >> k & 1)
            r |= (k & 4 ? (u128)a : ~(u128)a) & (k & 2 ? (u128)b : ~(u128)b) & (k & 1 ? (u128)c : ~(u128)c);
    return (ds_int)(r & m);
}

/* a 32- or 64-bit source's lanes into a slot */
static void load(ds_int *restrict d, const uint32_t *lo, const uint32_t *hi, int width)
{
    if (width == 64)
        for (int l = 0; l < DS_LANES; l++)
            d[l] = (ds_int)((u128)hi[l] << 32 | lo[l]);
    else
        for (int l = 0; l < DS_LANES; l++)
            d[l] = lo[l];
}

static ds_int lowest_bit(ds_int v)
{
    const u128 x = (u128)v;
    if (!x)
        return -1;
    return (uint64_t)x ? __builtin_ctzll((uint64_t)x) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* R[a] of each lane: read into d (DO_RGET) or, on the lanes of cur, noted
 * for the caller to write (DO_RSET). An index outside the file faults on the
 * first lane of cur that has one, as the native engine's SETGPR/GETGPR do;
 * returns 1 then. */
static int indexed(const ds_op *o, lanes *s, ds_io *io, uint32_t cur)
{
    const int write = o->code == DO_RSET;
    for (int l = 0; l < DS_LANES; l++) {
        const ds_int idx = s[o->a][l];
        const int64_t i64 = idx < INT64_MIN ? INT64_MIN : idx > INT64_MAX ? INT64_MAX : (int64_t)idx;
        const long row = sim_index_row(i64, io->nregs, write);
        if (!(cur >> l & 1)) {
            if (!write) /* a lane nobody reads: any value, no fault */
                s[o->d][l] = row >= 0 ? io->regs[(size_t)row * DS_LANES + (size_t)l] : 0;
            continue;
        }
        if (row < 0) {
            sim_index_fault(io->fault_buf, sizeof io->fault_buf, i64, io->nregs, l);
            io->fault = io->fault_buf;
            io->fault_lane = l;
            return 1;
        }
        if (write) {
            io->rset_row[l] = (uint32_t)row;
            io->rset_val[l] = (uint32_t)s[o->b][l];
            io->rset_mask |= 1u << l;
        } else {
            s[o->d][l] = io->regs[(size_t)row * DS_LANES + (size_t)l];
        }
    }
    return 0;
}

#define EACH for (int l = 0; l < DS_LANES; l++)
#define MASKED for (uint32_t m_ = cur; m_; m_ &= m_ - 1) for (int l = __builtin_ctz(m_), once_ = 1; once_; once_ = 0)
#define BIN(expr)                                                                                              \
    do {                                                                                                       \
        ds_int *restrict D = s[o->d];                                                                          \
        const ds_int *restrict A = s[o->a];                                                                    \
        if (o->bk) {                                                                                           \
            const ds_int B_ = o->imm;                                                                          \
            EACH { ds_int x = A[l], y = B_; D[l] = (expr); }                                                   \
        } else {                                                                                               \
            const ds_int *restrict B = s[o->b];                                                                \
            EACH { ds_int x = A[l], y = B[l]; D[l] = (expr); }                                                 \
        }                                                                                                      \
    } while (0)

void sim_doc_run(const ds_prog *p, ds_io *io)
{
    lanes *s = frame;
    const uint32_t entry = io->mask;
    uint32_t cur = entry;
    uint32_t stack_cur[DS_MAX_DEPTH + 1], stack_else[DS_MAX_DEPTH + 1];
    int sp = 0;
    for (int pc = 0; pc < p->nops; pc++) {
        const ds_op oc = p->ops[pc]; /* a local copy: the lane stores cannot alias it */
        const ds_op *o = &oc;
        switch ((ds_opcode)o->code) {
        case DO_CONST: EACH s[o->d][l] = o->imm; break;
        case DO_MOV: memcpy(s[o->d], s[o->a], sizeof(lanes)); break;
        case DO_STORE: {
            ds_int *D = s[o->d];
            if (cur == entry) {
                if (o->bk)
                    EACH D[l] = o->imm;
                else
                    memcpy(D, s[o->a], sizeof(lanes));
            } else {
                MASKED D[l] = o->bk ? o->imm : s[o->a][l];
            }
            break;
        }
        case DO_ADD: BIN((ds_int)((u128)x + (u128)y)); break;
        case DO_SUB: BIN((ds_int)((u128)x - (u128)y)); break;
        case DO_MUL: BIN((ds_int)((u128)x * (u128)y)); break;
        case DO_DIV: BIN(ds_div(x, y)); break;
        case DO_CDIV: BIN(ds_cdiv(x, y)); break;
        case DO_MOD: BIN(ds_mod(x, y)); break;
        case DO_AND: BIN(x & y); break;
        case DO_OR: BIN(x | y); break;
        case DO_XOR: BIN(x ^ y); break;
        case DO_SHL:
            if (o->bk && o->imm >= 0 && o->imm <= 127) { /* the usual constant shift: no range test per lane */
                const int k = (int)o->imm;
                EACH s[o->d][l] = (ds_int)((u128)s[o->a][l] << k);
            } else {
                BIN(y < 0 || y > 127 ? 0 : (ds_int)((u128)x << y));
            }
            break;
        case DO_SHR:
            if (o->bk && o->imm >= 0 && o->imm <= 127) {
                const int k = (int)o->imm;
                EACH s[o->d][l] = s[o->a][l] >> k;
            } else {
                BIN(y < 0 || y > 127 ? (x < 0 ? -1 : 0) : x >> y);
            }
            break;
        case DO_LT: BIN(x < y); break;
        case DO_LE: BIN(x <= y); break;
        case DO_GT: BIN(x > y); break;
        case DO_GE: BIN(x >= y); break;
        case DO_EQ: BIN(x == y); break;
        case DO_NE: BIN(x != y); break;
        case DO_MIN: BIN(x < y ? x : y); break;
        case DO_MAX: BIN(x > y ? x : y); break;
        case DO_LAND: BIN(x && y); break;
        case DO_LOR: BIN(x || y); break;
        case DO_NOT: EACH s[o->d][l] = ~s[o->a][l]; break;
        case DO_NEG: EACH s[o->d][l] = (ds_int)(0 - (u128)s[o->a][l]); break;
        case DO_LNOT: EACH s[o->d][l] = !s[o->a][l]; break;
        case DO_ABS: EACH s[o->d][l] = s[o->a][l] < 0 ? (ds_int)(0 - (u128)s[o->a][l]) : s[o->a][l]; break;
        /* bit fields in the low 64 bits (the usual case) take 64-bit arithmetic */
        case DO_BITS: {
            if (o->k + o->width <= 64) {
                const uint64_t m = o->width >= 64 ? UINT64_MAX : ((uint64_t)1 << o->width) - 1;
                const int k = o->k;
                EACH s[o->d][l] = (ds_int)(((uint64_t)s[o->a][l] >> k) & m);
                break;
            }
            const u128 m = o->width >= 128 ? ~(u128)0 : (((u128)1 << o->width) - 1);
            EACH s[o->d][l] = (ds_int)(((u128)s[o->a][l] >> o->k) & m);
            break;
        }
        case DO_SEXT: {
            if (o->width <= 64 && o->width > 0) {
                const int sh = 64 - o->width;
                EACH s[o->d][l] = (ds_int)((int64_t)((uint64_t)s[o->a][l] << sh) >> sh);
                break;
            }
            const int sh = 128 - o->width;
            EACH s[o->d][l] = (ds_int)((u128)s[o->a][l] << sh) >> sh;
            break;
        }
        case DO_INSERT: {
            if (o->k + o->width <= 64) {
                const uint64_t m = (o->width >= 64 ? UINT64_MAX : ((uint64_t)1 << o->width) - 1) << o->k;
                const int k = o->k;
                const u128 high = ~(u128)UINT64_MAX;
                EACH {
                    const uint64_t lo = ((uint64_t)s[o->a][l] & ~m) | (((uint64_t)s[o->b][l] << k) & m);
                    s[o->d][l] = (ds_int)(((u128)s[o->a][l] & high) | lo);
                }
                break;
            }
            const u128 m = (o->width >= 128 ? ~(u128)0 : (((u128)1 << o->width) - 1)) << o->k;
            EACH s[o->d][l] = (ds_int)(((u128)s[o->a][l] & ~m) | (((u128)s[o->b][l] << o->k) & m));
            break;
        }
        case DO_SEL: EACH s[o->d][l] = s[o->a][l] ? s[o->b][l] : s[o->c][l]; break;
        case DO_LUT3: EACH s[o->d][l] = lut3(s[o->a][l], s[o->b][l], s[o->c][l], (unsigned)o->imm, o->width); break;
        case DO_FADD:
            MASKED s[o->d][l] = (ds_int)fadd(o->fmt, (uint64_t)s[o->a][l], (uint64_t)s[o->b][l], (fp_rnd)o->rnd);
            break;
        case DO_FMUL:
            MASKED s[o->d][l] =
                (ds_int)fmul(o->fmt, (uint64_t)s[o->a][l], (uint64_t)s[o->b][l], o->k, (fp_rnd)o->rnd);
            break;
        case DO_FFMA:
            MASKED s[o->d][l] = (ds_int)ffma(o->fmt, (uint64_t)s[o->a][l], (uint64_t)s[o->b][l],
                                             (uint64_t)s[o->c][l], (fp_rnd)o->rnd);
            break;
        case DO_FCVT: MASKED s[o->d][l] = (ds_int)fcvt((uint64_t)s[o->a][l], o->k, o->fmt, (fp_rnd)o->rnd); break;
        case DO_FCMP:
            MASKED s[o->d][l] = fcmp((uint64_t)s[o->a][l], (uint64_t)s[o->b][l], o->fmt, (int)o->imm);
            break;
        case DO_FISNAN: EACH s[o->d][l] = fp_isnan((uint64_t)s[o->a][l], fmts[o->fmt]); break;
        case DO_FISSUB: EACH s[o->d][l] = fp_is_subnormal((uint64_t)s[o->a][l], fmts[o->fmt]); break;
        case DO_FMIN:
        case DO_FMAX:
            MASKED s[o->d][l] =
                (ds_int)fminmax((uint64_t)s[o->a][l], (uint64_t)s[o->b][l], o->fmt, o->code == DO_FMAX);
            break;
        case DO_IF: {
            uint32_t t = 0;
            EACH t |= (uint32_t)(s[o->a][l] != 0) << l;
            stack_cur[sp] = cur;
            stack_else[sp++] = cur & ~t;
            cur &= t;
            if (!cur)
                pc = o->k - 1;
            break;
        }
        case DO_ELSE:
            cur = stack_else[sp - 1];
            if (!cur)
                pc = o->k - 1;
            break;
        case DO_ENDIF: cur = stack_cur[--sp]; break;
        case DO_FAULT: {
            uint32_t t = 0;
            MASKED t |= (uint32_t)(s[o->a][l] != 0) << l;
            if (t) {
                io->fault_lane = __builtin_ctz(t);
                snprintf(io->fault_buf, sizeof io->fault_buf, "%s in lane %d",
                         o->k >= 0 && o->k < p->nstrings ? p->strings[o->k] : "fault", io->fault_lane);
                io->fault = io->fault_buf;
                return;
            }
            break;
        }
        case DO_IN: load(s[o->d], io->lo[o->k], io->hi[o->k], o->width); break;
        case DO_OLD: load(s[o->d], io->old_lo[o->k], io->old_hi[o->k], o->width); break;
        case DO_INPRED: EACH s[o->d][l] = io->pred[o->k][l]; break;
        case DO_OLDPRED: EACH s[o->d][l] = io->old_pred[o->k][l]; break;
        case DO_OUT: {
            uint32_t *lo = io->out_lo[o->k], *hi = io->out_hi[o->k];
            EACH lo[l] = (uint32_t)s[o->a][l];
            if (o->width == 64)
                EACH hi[l] = (uint32_t)((u128)s[o->a][l] >> 32);
            break;
        }
        case DO_OUTPRED: EACH io->out_pred[o->k][l] = s[o->a][l] != 0; break;
        case DO_LANEMASK: {
            const ds_int m = o->k ? io->guard : io->active;
            EACH s[o->d][l] = m;
            break;
        }
        case DO_CTZ: EACH s[o->d][l] = lowest_bit(s[o->a][l]); break;
        case DO_LANE: {
            ds_int v[DS_LANES]; /* d may be a or b */
            EACH v[l] = s[o->b][l] >= 0 && s[o->b][l] < DS_LANES ? s[o->a][(int)s[o->b][l]] : 0;
            memcpy(s[o->d], v, sizeof v);
            break;
        }
        case DO_INPFILE: EACH s[o->d][l] = io->pfile[l]; break;
        case DO_OUTPFILE:
            EACH {
                io->out_pfile[l] = (uint8_t)s[o->a][l];
                io->out_pfile_we[l] = (uint8_t)s[o->b][l];
            }
            break;
        case DO_RGET:
        case DO_RSET:
            if (indexed(o, s, io, cur))
                return;
            break;
        case DO_COUNT: break;
        }
    }
}
