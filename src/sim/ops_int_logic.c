/* Integer compare, select and bit operations: ISETP ISET SEL LOP3 PLOP3 SHF
 * PRMT. */
#include "sim/ops.h"

/* CompOp, and the comparison as a mask of the relations it accepts: LT 1, EQ 2, GT 4 */
#define ICMP_VALUES(V, P) V(P, EQ) V(P, NE) V(P, LT) V(P, LE) V(P, GT) V(P, GE)
SIM_VALUES(ICMP, ICMP_VALUES);
static const uint8_t cmp_mask[ICMP_COUNT] = {
    [ICMP_EQ] = 2, [ICMP_NE] = 5, [ICMP_LT] = 1, [ICMP_LE] = 3, [ICMP_GT] = 4, [ICMP_GE] = 6,
};

/* t boolop p on 0/1 values, branch-free: `op` selects one of the three */
static inline int bool_op(int t, int p, uint32_t op)
{
    int is_and = op == BOOL_AND, is_or = op == BOOL_OR, is_xor = op == BOOL_XOR;
    return ((t & p) & is_and) | ((t | p) & is_or) | ((t ^ p) & is_xor);
}

/* t = a compop b; with .X, equal words defer to pq (the lower words' verdict).
 * `bias` flips the sign bit so that signed order is unsigned order. */
static inline int set_test(const sim_exec *x, int l, uint32_t mask, uint32_t bias, int ext)
{
    uint32_t a = x->a[l] ^ bias, b = x->b[l] ^ bias;
    uint32_t rel = (uint32_t)(a < b) | (uint32_t)(a == b) << 1 | (uint32_t)(a > b) << 2;
    int t = (rel & mask) != 0, defer = ext & (a == b);
    return (t & !defer) | (x->pq[l] & defer);
}

/* ISETP: pu = t boolop pp; pv = !t boolop pp */
#define ISETP_MODS(M, P)                                                                                       \
    M(P, CMP, "compop", ICMP) M(P, BOOL, "boolop", BOOL) M(P, ITYPE, "itype", ITYPE) M(P, EXT, "ext", EXT)
SIM_MODS(ISETP, ISETP_MODS);
SIM_OP void op_isetp(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    const uint32_t mask = cmp_mask[m[ISETP_CMP]], bias = m[ISETP_ITYPE] == ITYPE_S32 ? 0x80000000u : 0;
    for (int l = 0; l < LANES; l++) {
        int t = set_test(x, l, mask, bias, m[ISETP_EXT] == EXT_X);
        x->pu[l] = (uint8_t)bool_op(t, x->pp[l], m[ISETP_BOOL]);
        x->pv[l] = (uint8_t)bool_op(!t, x->pp[l], m[ISETP_BOOL]);
    }
}

/* ISET: Rd = (t boolop pp) ? (.BM ? 0xFFFFFFFF : 1.0f) : 0 */
#define ISET_MODS(M, P) ISETP_MODS(M, P) M(P, BMBF, "bmbf", BVAL)
SIM_MODS(ISET, ISET_MODS);
SIM_OP void op_iset(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    const uint32_t one = m[ISET_BMBF] == BVAL_BM ? UINT32_MAX : 0x3F800000u;
    const uint32_t mask = cmp_mask[m[ISET_CMP]], bias = m[ISET_ITYPE] == ITYPE_S32 ? 0x80000000u : 0;
    for (int l = 0; l < LANES; l++) {
        int t = set_test(x, l, mask, bias, m[ISET_EXT] == EXT_X);
        x->d[l] = bool_op(t, x->pp[l], m[ISET_BOOL]) ? one : 0;
    }
}

SIM_OP void op_sel(sim_exec *x)
{
    for (int l = 0; l < LANES; l++) {
        uint32_t take_a = 0u - x->pp[l];
        x->d[l] = (x->a[l] & take_a) | (x->b[l] & ~take_a);
    }
}

/* d[i] = lut[(a[i] << 2) | (b[i] << 1) | c[i]], as a multiplexer tree on
 * c, then b, then a over the lut's bits (m[k] is bit k spread to 32 bits) */
static inline uint32_t lut3(const uint32_t *m, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t b00 = (c & m[1]) | (~c & m[0]), b01 = (c & m[3]) | (~c & m[2]);
    uint32_t b10 = (c & m[5]) | (~c & m[4]), b11 = (c & m[7]) | (~c & m[6]);
    uint32_t a0 = (b & b01) | (~b & b00), a1 = (b & b11) | (~b & b10);
    return (a & a1) | (~a & a0);
}

/* LOP3: Rd = F(Ra, SrcB, Rc); .PAND: pu = (Rd != 0) & pp; .POR: pu = (Rd != 0) | pp */
#define EXBOOL_VALUES(V, P) V(P, PAND) V(P, POR)
SIM_VALUES(EXBOOL, EXBOOL_VALUES);
#define LOP3_MODS(M, P) M(P, EXBOOL, "exbool", EXBOOL)
SIM_MODS(LOP3, LOP3_MODS);
/* (restrict: x->d may be a register row, see sim_exec.d; without it, a
 * byte store to pu might change it, and the loop did not vectorise) */
SIM_INLINE void lop3_lanes(sim_exec *x, uint32_t *restrict out, uint8_t *restrict pu, const uint32_t *m, int pand)
{
    for (int l = 0; l < LANES; l++) {
        uint32_t d = lut3(m, x->a[l], x->b[l], x->c[l]);
        out[l] = d;
        pu[l] = (uint8_t)(pand ? (d != 0) & x->pp[l] : (d != 0) | x->pp[l]);
    }
}

SIM_OP void op_lop3(sim_exec *x)
{
    const uint32_t lut = (uint32_t)x->in->op[RO_IMM].imm & 0xff;
    uint32_t m[8];
    for (int k = 0; k < 8; k++)
        m[k] = 0u - (lut >> k & 1);
    lop3_lanes(x, x->d, x->pu, m, x->in->m[LOP3_EXBOOL] == EXBOOL_PAND);
}

/* PLOP3: pu = lut[(pa << 2) | (pb << 1) | pc] */
SIM_OP void op_plop3(sim_exec *x)
{
    const uint32_t lut = (uint32_t)x->in->op[RO_IMM].imm & 0xff;
    for (int l = 0; l < LANES; l++)
        x->pu[l] = lut >> (x->pa[l] << 2 | x->pb[l] << 1 | x->pc[l]) & 1;
}

/* SHF: funnel {SrcC, Ra} shifted by n = CLAMP ? min(SrcB, n_ub) : SrcB mod n_ub */
#define SHFDIR_VALUES(V, P) V(P, L) V(P, R)
SIM_VALUES(SHFDIR, SHFDIR_VALUES);
#define CW_VALUES(V, P) V(P, C) V(P, W) /* clamp or wrap the shift count */
SIM_VALUES(CW, CW_VALUES);
#define SHFT_VALUES(V, P) V(P, S64) V(P, U64) V(P, S32) V(P, U32)
SIM_VALUES(SHFT, SHFT_VALUES);
#define SHF_MODS(M, P)                                                                                         \
    M(P, DIR, "direction", SHFDIR) M(P, LOHI, "lohi", LOHI) M(P, CW, "cwmod", CW) M(P, TYPE, "itype", SHFT)
SIM_MODS(SHF, SHF_MODS);
/* The count is the same rule for every lane (wrap: mod n_ub, a power of two, as
 * a mask: a division per lane was a fifth of the int kernel), and each
 * direction has its own loop, so that all of them vectorise. */
SIM_OP void op_shf(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    const uint32_t n_ub = m[SHF_TYPE] == SHFT_S64 || m[SHF_TYPE] == SHFT_U64 ? 64 : 32;
    const int right = m[SHF_DIR] == SHFDIR_R, wrap = m[SHF_CW] == CW_W;
    const int arith = m[SHF_TYPE] == SHFT_S64 || m[SHF_TYPE] == SHFT_S32;
    const unsigned half = m[SHF_LOHI] == LOHI_HI ? 32 : 0;
    const uint32_t wrap_mask = wrap ? n_ub - 1 : UINT32_MAX, clamp = wrap ? UINT32_MAX : n_ub;
    const uint32_t *a = x->a, *b = x->b, *c = x->c;
    uint32_t *d = x->d;
    if (!right) {
        for (int l = 0; l < LANES; l++) {
            uint32_t bn = b[l] & wrap_mask, n = bn < clamp ? bn : clamp;
            uint64_t t = sim_lane64(a, c, l);
            d[l] = (uint32_t)((n >= 64 ? 0 : t << n) >> half);
        }
    } else if (arith) {
        for (int l = 0; l < LANES; l++) {
            uint32_t bn = b[l] & wrap_mask, n = bn < clamp ? bn : clamp;
            int64_t t = (int64_t)sim_lane64(a, c, l);
            d[l] = (uint32_t)((uint64_t)(t >> (n >= 64 ? 63 : n)) >> half);
        }
    } else {
        for (int l = 0; l < LANES; l++) {
            uint32_t bn = b[l] & wrap_mask, n = bn < clamp ? bn : clamp;
            uint64_t t = sim_lane64(a, c, l);
            d[l] = (uint32_t)((n >= 64 ? 0 : t >> n) >> half);
        }
    }
}

/* PRMT: bytes b0..b7 of {SrcB, Ra}. For each mode and selector, the source
 * byte of Rd.b0..Rd.b3 (the document's tables read Rd.b3 first). */
#define PRMT_VALUES(V, P) V(P, IDX) V(P, F4E) V(P, B4E) V(P, RC8) V(P, ECL) V(P, ECR) V(P, RC16)
SIM_VALUES(PRMT, PRMT_VALUES);
static const uint8_t prmt_table[PRMT_COUNT][4][4] = {
    [PRMT_F4E] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    [PRMT_B4E] = {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    [PRMT_RC8] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    [PRMT_ECL] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    [PRMT_ECR] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    [PRMT_RC16] = {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

/* Rd byte k is byte (nibble k & 7) of t, or that byte's sign replicated when
 * the nibble's bit 3 is set: the .IDX rule. The fixed modes are written as
 * .IDX control words too. */
static inline uint32_t prmt_bytes(uint64_t t, uint32_t ctl)
{
    uint32_t d = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t nib = ctl >> (4 * k) & 0xf;
        uint32_t byte = (uint32_t)(t >> (8 * (nib & 7))) & 0xff;
        byte = nib & 8 ? 0u - (byte >> 7) : byte; /* replicate the selected byte's sign */
        d |= (byte & 0xff) << (8 * k);
    }
    return d;
}

/* One control word for all lanes: byte k of Rd comes from one word (Ra or
 * SrcB) at one shift for every lane, so each byte is a shift and a mask of
 * a whole vector, without the 64-bit lanes of the general rule. */
SIM_INLINE void prmt_uniform(sim_exec *x, uint32_t ctl)
{
    const uint32_t *src[4];
    unsigned sh[4], up[4];
    uint32_t sign[4];
    for (int k = 0; k < 4; k++) {
        uint32_t nib = ctl >> (4 * k) & 0xf;
        src[k] = nib & 4 ? x->b : x->a;
        sh[k] = 8 * (nib & 3);
        up[k] = 24 - sh[k]; /* the selected byte's sign to bit 31 */
        sign[k] = nib & 8 ? UINT32_MAX : 0;
    }
    for (int l = 0; l < LANES; l++) {
        uint32_t d = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t v = src[k][l];
            uint32_t byte = (v >> sh[k]) & ~sign[k], rep = (uint32_t)((int32_t)(v << up[k]) >> 31) & sign[k];
            d |= ((byte | rep) & 0xff) << (8 * k);
        }
        x->d[l] = d;
    }
}

#define PRMT_MODS(M, P) M(P, MODE, "mode", PRMT)
SIM_MODS(PRMT, PRMT_MODS);
SIM_OP void op_prmt(sim_exec *x)
{
    const uint32_t mode = x->in->m[PRMT_MODE];
    uint32_t ctl[4]; /* the table rows as .IDX control words */
    for (int s = 0; s < 4; s++) {
        const uint8_t *row = prmt_table[mode][s];
        ctl[s] = (uint32_t)row[0] | (uint32_t)row[1] << 4 | (uint32_t)row[2] << 8 | (uint32_t)row[3] << 12;
    }
    if (x->in->op[RO_C].kind != SK_GPR) {
        prmt_uniform(x, mode == PRMT_IDX ? x->c[0] : ctl[x->c[0] & 3]);
        return;
    }
    for (int l = 0; l < LANES; l++)
        x->d[l] = prmt_bytes(sim_lane64(x->a, x->b, l), mode == PRMT_IDX ? x->c[l] : ctl[x->c[l] & 3]);
}

const sim_opdef sim_ops_int_logic[] = {
    {"ISETP", op_isetp, SIM_MODS_OF(ISETP), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"ISET", op_iset, SIM_MODS_OF(ISET), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"SEL", op_sel, SIM_NO_MODS, SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"LOP3", op_lop3, SIM_MODS_OF(LOP3), SIM_NO_SELS, 0, SIM_READS(NULL, NULL, SIM_ROLES(RO_IMM))},
    {"PLOP3", op_plop3, SIM_NO_MODS, SIM_NO_SELS, 0, SIM_READS(NULL, SIM_ROLES(RO_PA, RO_PB, RO_PC), SIM_ROLES(RO_IMM))},
    {"SHF", op_shf, SIM_MODS_OF(SHF), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"PRMT", op_prmt, SIM_MODS_OF(PRMT), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {0},
};
