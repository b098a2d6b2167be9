/* Moves, conversions and register-file transfers: MOV I2I I2IP P2R R2P R2UR
 * SETGPR GETGPR. */
#include <stdio.h>

#include "sim/ops.h"

/* MOV{.32} Rd, SrcA / MOV.64 Rd, Ra (the write-back copies the high word of
 * a 64-bit Rd) */
SIM_OP void op_mov(sim_exec *x)
{
    for (int l = 0; l < LANES; l++) {
        x->d[l] = x->a[l];
        x->dh[l] = x->ah[l];
    }
}

static inline int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* I2I.dtype Rd, SrcB: saturate the signed input; the result as a 32-bit integer */
static const int32_t i2i_min[4] = {-128, 0, -32768, 0}, i2i_max[4] = {127, 255, 32767, 65535};
enum { I2I_DTYPE };
SIM_OP void op_i2i(sim_exec *x)
{
    const uint32_t t = x->in->m[I2I_DTYPE];
    for (int l = 0; l < LANES; l++)
        x->d[l] = (uint32_t)clamp((int32_t)x->b[l], i2i_min[t], i2i_max[t]);
}

/* I2IP.dsttype.satrelu Rd, Ra, SrcB, Rc: SrcB's result in the low `size` bits,
 * Ra's in the next `size`, Rc's low bits above them. */
enum { I2IP_TYPE, I2IP_RELU };
SIM_OP void op_i2ip(sim_exec *x)
{
    const uint32_t t = x->in->m[I2IP_TYPE];
    const unsigned size = 2u << (t / 2);              /* S2 U2 S4 U4 S8 U8 S16 U16 */
    const int is_signed = (t & 1) == 0;
    int32_t lo = is_signed ? -(INT32_C(1) << (size - 1)) : 0;
    const int32_t hi = is_signed ? (INT32_C(1) << (size - 1)) - 1 : (INT32_C(1) << size) - 1;
    if (x->in->m[I2IP_RELU] == 1)
        lo = 0;
    const uint32_t msk = (UINT32_C(1) << size) - 1;
    const unsigned rest = 32 - 2 * size;
    const uint32_t cmsk = rest ? (UINT32_C(1) << rest) - 1 : 0;
    for (int l = 0; l < LANES; l++) {
        uint32_t ta = (uint32_t)clamp((int32_t)x->a[l], lo, hi) & msk;
        uint32_t tb = (uint32_t)clamp((int32_t)x->b[l], lo, hi) & msk;
        uint32_t d = ta << size | tb;
        if (rest)
            d |= (x->c[l] & cmsk) << (2 * size);
        x->d[l] = d;
    }
}

/* P0..P6 of a lane as a byte, P7 (PT) set */
static inline uint32_t pred_byte(const sim_warp *w, int l)
{
    uint32_t pr = 0x80;
    for (int i = 0; i < SIM_PT; i++)
        pr |= (w->p[i] >> l & 1) << i;
    return pr;
}

/* P2R.bsel Rd, PR, Ra, SbMsk: the selected byte of Ra with the masked bits
 * taken from the predicates; the other bytes are Ra's. */
enum { P2R_BSEL };
SIM_OP void op_p2r(sim_exec *x)
{
    const unsigned sh = 8 * x->in->m[P2R_BSEL];
    for (int l = 0; l < LANES; l++) {
        uint32_t msk = (x->b[l] & 0xff) << sh;
        x->d[l] = (pred_byte(x->w, l) << sh & msk) | (x->a[l] & ~msk);
    }
}

/* R2P PR, Ra.bsel, SbMsk: P_i = Ra.byte[i] for the masked i; others keep. */
static void op_r2p(sim_exec *x)
{
    const unsigned sh = 8 * x->in->op[RO_A].sel;
    for (int i = 0; i < SIM_PT; i++) {
        uint32_t bits = 0, write = 0;
        for (int l = 0; l < LANES; l++) {
            bits |= (x->a[l] >> (sh + i) & 1) << l;
            write |= (x->b[l] >> i & 1) << l;
        }
        sim_write_pred(x, (unsigned)i, bits, write & x->mask);
    }
}

/* R2UR URd, Rb: from the lowest lane that is active with a true guard */
static void op_r2ur(sim_exec *x)
{
    sim_write_ur(x, x->in->op[RO_D].wr_lo, x->b[__builtin_ctz(x->mask)]);
}

/* R[URb + SImm9]: the row of the indexed register, or -1 (fault) */
static long indexed_row(sim_exec *x, int write)
{
    const sim_opnd *o = &x->in->op[RO_IDX];
    int64_t idx = (int64_t)x->w->ur[o->rd_lo] + o->disp;
    if (idx == 255)
        return write ? (long)x->regs + 1 : (long)x->regs;
    if (idx >= 0 && idx < (int64_t)x->regs)
        return (long)idx;
    x->fault_lane = __builtin_ctz(x->mask);
    snprintf(x->fault_buf, sizeof x->fault_buf, "register index %lld is outside R0..R%u (and RZ) in lane %d",
             (long long)idx, x->regs - 1, x->fault_lane);
    x->fault = x->fault_buf;
    return -1;
}

static void op_setgpr(sim_exec *x)
{
    long row = indexed_row(x, 1);
    if (row >= 0)
        sim_write_gpr(x, (unsigned)row, x->a, x->mask);
}

static void op_getgpr(sim_exec *x)
{
    long row = indexed_row(x, 0);
    if (row < 0)
        return;
    const uint32_t *src = x->w->r + (size_t)row * LANES;
    for (int l = 0; l < LANES; l++)
        x->d[l] = src[l];
}

const sim_opdef sim_ops_int_move[] = {
    {"MOV", op_mov, {NULL}, NULL, 0},
    {"I2I", op_i2i, {"dtype:S8 U8 S16 U16"}, NULL, 0},
    {"I2IP", op_i2ip, {"dsttype:S2 U2 S4 U4 S8 U8 S16 U16", "satrelu:SAT SATRELU"}, NULL, 0},
    {"P2R", op_p2r, {"bsel:B0 B1 B2 B3"}, NULL, 0},
    {"R2P", op_r2p, {NULL}, "B0 B1 B2 B3", 1},
    {"R2UR", op_r2ur, {NULL}, NULL, 1},
    {"SETGPR", op_setgpr, {NULL}, NULL, 1},
    {"GETGPR", op_getgpr, {NULL}, NULL, 0},
    {NULL, NULL, {NULL}, NULL, 0},
};
