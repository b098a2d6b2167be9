/* Integer compare, select and bit operations: ISETP ISET SEL LOP3 PLOP3 SHF
 * PRMT. */
#include "sim/ops.h"

/* The comparison as a mask of the relations it accepts: LT 1, EQ 2, GT 4 */
static const uint8_t cmp_mask[6] = {2, 5, 1, 3, 4, 6}; /* EQ NE LT LE GT GE */
enum { BOOL_AND, BOOL_OR, BOOL_XOR };

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
enum { ISETP_CMP, ISETP_BOOL, ISETP_ITYPE, ISETP_EXT };
SIM_OP void op_isetp(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    const uint32_t mask = cmp_mask[m[ISETP_CMP]], bias = m[ISETP_ITYPE] == 0 ? 0x80000000u : 0;
    for (int l = 0; l < LANES; l++) {
        int t = set_test(x, l, mask, bias, m[ISETP_EXT] == 1);
        x->pu[l] = (uint8_t)bool_op(t, x->pp[l], m[ISETP_BOOL]);
        x->pv[l] = (uint8_t)bool_op(!t, x->pp[l], m[ISETP_BOOL]);
    }
}

/* ISET: Rd = (t boolop pp) ? (.BM ? 0xFFFFFFFF : 1.0f) : 0 */
enum { ISET_CMP, ISET_BOOL, ISET_ITYPE, ISET_EXT, ISET_BMBF };
SIM_OP void op_iset(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    const uint32_t one = m[ISET_BMBF] == 0 ? UINT32_MAX : 0x3F800000u;
    const uint32_t mask = cmp_mask[m[ISET_CMP]], bias = m[ISET_ITYPE] == 0 ? 0x80000000u : 0;
    for (int l = 0; l < LANES; l++) {
        int t = set_test(x, l, mask, bias, m[ISET_EXT] == 1);
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
enum { LOP3_EXBOOL };
SIM_OP void op_lop3(sim_exec *x)
{
    const uint32_t lut = (uint32_t)x->in->op[RO_IMM].imm & 0xff;
    const int pand = x->in->m[LOP3_EXBOOL] == 0;
    uint32_t m[8];
    for (int k = 0; k < 8; k++)
        m[k] = 0u - (lut >> k & 1);
    for (int l = 0; l < LANES; l++) {
        uint32_t d = lut3(m, x->a[l], x->b[l], x->c[l]);
        x->d[l] = d;
        x->pu[l] = (uint8_t)(pand ? (d != 0) & x->pp[l] : (d != 0) | x->pp[l]);
    }
}

/* PLOP3: pu = lut[(pa << 2) | (pb << 1) | pc] */
SIM_OP void op_plop3(sim_exec *x)
{
    const uint32_t lut = (uint32_t)x->in->op[RO_IMM].imm & 0xff;
    for (int l = 0; l < LANES; l++)
        x->pu[l] = lut >> (x->pa[l] << 2 | x->pb[l] << 1 | x->pc[l]) & 1;
}

/* SHF: funnel {SrcC, Ra} shifted by n = CLAMP ? min(SrcB, n_ub) : SrcB mod n_ub */
enum { SHF_DIR, SHF_LOHI, SHF_CW, SHF_TYPE };
enum { SHF_S64, SHF_U64, SHF_S32, SHF_U32 };
SIM_OP void op_shf(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    const unsigned n_ub = m[SHF_TYPE] == SHF_S64 || m[SHF_TYPE] == SHF_U64 ? 64 : 32;
    const int right = m[SHF_DIR] == 1, hi = m[SHF_LOHI] == 1, wrap = m[SHF_CW] == 1;
    const int arith = m[SHF_TYPE] == SHF_S64 || m[SHF_TYPE] == SHF_S32;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = sim_lane64(x->a, x->c, l);
        uint32_t b = x->b[l];
        unsigned n = wrap ? b % n_ub : (b < n_ub ? b : n_ub);
        if (!right)
            t = n >= 64 ? 0 : t << n;
        else if (arith)
            t = (uint64_t)((int64_t)t >> (n >= 64 ? 63 : n));
        else
            t = n >= 64 ? 0 : t >> n;
        x->d[l] = (uint32_t)(hi ? t >> 32 : t);
    }
}

/* PRMT: bytes b0..b7 of {SrcB, Ra}. For each mode and selector, the source
 * byte of Rd.b0..Rd.b3 (the document's tables read Rd.b3 first). */
enum { PRMT_IDX, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };
static const uint8_t prmt_table[7][4][4] = {
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

enum { PRMT_MODE };
SIM_OP void op_prmt(sim_exec *x)
{
    const uint32_t mode = x->in->m[PRMT_MODE];
    uint32_t ctl[4]; /* the table rows as .IDX control words */
    for (int s = 0; s < 4; s++) {
        const uint8_t *row = prmt_table[mode][s];
        ctl[s] = (uint32_t)row[0] | (uint32_t)row[1] << 4 | (uint32_t)row[2] << 8 | (uint32_t)row[3] << 12;
    }
    if (x->in->op[RO_C].kind != SK_GPR) { /* one control word for all lanes: shifts are uniform */
        const uint32_t c = mode == PRMT_IDX ? x->c[0] : ctl[x->c[0] & 3];
        for (int l = 0; l < LANES; l++)
            x->d[l] = prmt_bytes(sim_lane64(x->a, x->b, l), c);
        return;
    }
    for (int l = 0; l < LANES; l++)
        x->d[l] = prmt_bytes(sim_lane64(x->a, x->b, l), mode == PRMT_IDX ? x->c[l] : ctl[x->c[l] & 3]);
}

const sim_opdef sim_ops_int_logic[] = {
    {"ISETP", op_isetp, {"compop:EQ NE LT LE GT GE", "boolop:AND OR XOR", "itype:S32 U32", "ext:NoX X"}, NULL, 0},
    {"ISET", op_iset, {"compop:EQ NE LT LE GT GE", "boolop:AND OR XOR", "itype:S32 U32", "ext:NoX X", "bmbf:BM BF"},
     NULL, 0},
    {"SEL", op_sel, {NULL}, NULL, 0},
    {"LOP3", op_lop3, {"exbool:PAND POR"}, NULL, 0},
    {"PLOP3", op_plop3, {NULL}, NULL, 0},
    {"SHF", op_shf, {"direction:L R", "lohi:LO HI", "cwmod:C W", "itype:S64 U64 S32 U32"}, NULL, 0},
    {"PRMT", op_prmt, {"mode:IDX F4E B4E RC8 ECL ECR RC16"}, NULL, 0},
    {NULL, NULL, {NULL}, NULL, 0},
};
