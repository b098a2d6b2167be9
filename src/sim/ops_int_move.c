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
#define I2IDT_VALUES(V, P) V(P, S8) V(P, U8) V(P, S16) V(P, U16)
SIM_VALUES(I2IDT, I2IDT_VALUES);
static const int32_t i2i_min[I2IDT_COUNT] = {[I2IDT_S8] = -128, [I2IDT_U8] = 0, [I2IDT_S16] = -32768, [I2IDT_U16] = 0};
static const int32_t i2i_max[I2IDT_COUNT] = {
    [I2IDT_S8] = 127, [I2IDT_U8] = 255, [I2IDT_S16] = 32767, [I2IDT_U16] = 65535,
};
#define I2I_MODS(M, P) M(P, DTYPE, "dtype", I2IDT)
SIM_MODS(I2I, I2I_MODS);
SIM_OP void op_i2i(sim_exec *x)
{
    const uint32_t t = x->in->m[I2I_DTYPE];
    for (int l = 0; l < LANES; l++)
        x->d[l] = (uint32_t)clamp((int32_t)x->b[l], i2i_min[t], i2i_max[t]);
}

/* I2IP.dsttype.satrelu Rd, Ra, SrcB, Rc: SrcB's result in the low `size` bits,
 * Ra's in the next `size`, Rc's low bits above them. */
#define I2IPDT_VALUES(V, P) V(P, S2) V(P, U2) V(P, S4) V(P, U4) V(P, S8) V(P, U8) V(P, S16) V(P, U16)
SIM_VALUES(I2IPDT, I2IPDT_VALUES);
_Static_assert(I2IPDT_S2 == 0 && I2IPDT_U2 == 1 && I2IPDT_S4 == 2 && I2IPDT_U4 == 3 && I2IPDT_S8 == 4 &&
                   I2IPDT_U8 == 5 && I2IPDT_S16 == 6 && I2IPDT_U16 == 7,
               "op_i2ip computes the size (2 << index / 2) and the signedness (even) from the index");
#define SATRELU_VALUES(V, P) V(P, SAT) V(P, SATRELU)
SIM_VALUES(SATRELU, SATRELU_VALUES);
#define I2IP_MODS(M, P) M(P, TYPE, "dsttype", I2IPDT) M(P, RELU, "satrelu", SATRELU)
SIM_MODS(I2IP, I2IP_MODS);
SIM_OP void op_i2ip(sim_exec *x)
{
    const uint32_t t = x->in->m[I2IP_TYPE];
    const unsigned size = 2u << (t / 2); /* S2 U2 S4 U4 S8 U8 S16 U16 */
    const int is_signed = (t & 1) == 0;
    int32_t lo = is_signed ? -(INT32_C(1) << (size - 1)) : 0;
    const int32_t hi = is_signed ? (INT32_C(1) << (size - 1)) - 1 : (INT32_C(1) << size) - 1;
    if (x->in->m[I2IP_RELU] == SATRELU_SATRELU)
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

/* .bsel: the index is the byte number (P2R's modifier, R2P's suffix) */
#define BSEL_VALUES(V, P) V(P, B0) V(P, B1) V(P, B2) V(P, B3)
SIM_VALUES(BSEL, BSEL_VALUES);
_Static_assert(BSEL_B1 == 1 && BSEL_B3 == 3, "the .bsel index is the byte number");

/* P2R.bsel Rd, PR, Ra, SbMsk: the selected byte of Ra with the masked bits
 * taken from the predicates; the other bytes are Ra's. */
#define P2R_MODS(M, P) M(P, BSEL, "bsel", BSEL)
SIM_MODS(P2R, P2R_MODS);
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
    long row = sim_index_row(idx, x->regs, write);
    if (row >= 0)
        return row;
    x->fault_lane = __builtin_ctz(x->mask);
    sim_index_fault(x->fault_buf, sizeof x->fault_buf, idx, x->regs, x->fault_lane);
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
    {"MOV", op_mov, SIM_NO_MODS, SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"I2I", op_i2i, SIM_MODS_OF(I2I), SIM_NO_SELS, 0, SIM_READS(SIM_ROLES(RO_B), NULL, NULL)},
    {"I2IP", op_i2ip, SIM_MODS_OF(I2IP), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"P2R", op_p2r, SIM_MODS_OF(P2R), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"R2P", op_r2p, SIM_NO_MODS, SIM_SELS_OF(BSEL), 1, SIM_DEFAULT_READS},
    {"R2UR", op_r2ur, SIM_NO_MODS, SIM_NO_SELS, 1, SIM_READS(SIM_ROLES(RO_B), NULL, NULL)},
    {"SETGPR", op_setgpr, SIM_NO_MODS, SIM_NO_SELS, 1, SIM_DEFAULT_READS},
    {"GETGPR", op_getgpr, SIM_NO_MODS, SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {0},
};
