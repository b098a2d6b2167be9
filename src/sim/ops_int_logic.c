/* Integer compare, select and bit operations: ISETP ISET SEL LOP3 PLOP3 SHF
 * PRMT. */
#include "sim/ops.h"

enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
enum { BOOL_AND, BOOL_OR, BOOL_XOR };

static inline int int_compare(uint32_t a, uint32_t b, uint32_t op, int is_signed)
{
    int lt = is_signed ? (int32_t)a < (int32_t)b : a < b;
    int eq = a == b;
    switch (op) {
    case CMP_EQ: return eq;
    case CMP_NE: return !eq;
    case CMP_LT: return lt;
    case CMP_LE: return lt || eq;
    case CMP_GT: return !lt && !eq;
    default: return !lt;
    }
}

static inline int bool_op(int t, int p, uint32_t op)
{
    return op == BOOL_AND ? t & p : op == BOOL_OR ? t | p : t ^ p;
}

/* t = a compop b; with .X, equal halves defer to pq (the lower words' verdict). */
static inline int set_test(const sim_exec *x, int l, uint32_t cmp, int is_signed, int ext)
{
    if (ext && x->a[l] == x->b[l])
        return x->pq[l];
    return int_compare(x->a[l], x->b[l], cmp, is_signed);
}

/* ISETP: pu = t boolop pp; pv = !t boolop pp */
enum { ISETP_CMP, ISETP_BOOL, ISETP_ITYPE, ISETP_EXT };
static void op_isetp(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    for (int l = 0; l < LANES; l++) {
        int t = set_test(x, l, m[ISETP_CMP], m[ISETP_ITYPE] == 0, m[ISETP_EXT] == 1);
        x->pu[l] = (uint8_t)bool_op(t, x->pp[l], m[ISETP_BOOL]);
        x->pv[l] = (uint8_t)bool_op(!t, x->pp[l], m[ISETP_BOOL]);
    }
}

/* ISET: Rd = (t boolop pp) ? (.BM ? 0xFFFFFFFF : 1.0f) : 0 */
enum { ISET_CMP, ISET_BOOL, ISET_ITYPE, ISET_EXT, ISET_BMBF };
static void op_iset(sim_exec *x)
{
    const uint32_t *m = x->in->m;
    const uint32_t one = m[ISET_BMBF] == 0 ? UINT32_MAX : 0x3F800000u;
    for (int l = 0; l < LANES; l++) {
        int t = set_test(x, l, m[ISET_CMP], m[ISET_ITYPE] == 0, m[ISET_EXT] == 1);
        x->d[l] = bool_op(t, x->pp[l], m[ISET_BOOL]) ? one : 0;
    }
}

static void op_sel(sim_exec *x)
{
    for (int l = 0; l < LANES; l++)
        x->d[l] = x->pp[l] ? x->a[l] : x->b[l];
}

/* d[i] = lut[(a[i] << 2) | (b[i] << 1) | c[i]], as a sum of the lut's minterms */
static inline uint32_t lut3(uint32_t lut, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t d = 0;
    for (int k = 0; k < 8; k++) {
        uint32_t term = (k & 4 ? a : ~a) & (k & 2 ? b : ~b) & (k & 1 ? c : ~c);
        d |= (lut >> k & 1) ? term : 0;
    }
    return d;
}

/* LOP3: Rd = F(Ra, SrcB, Rc); .PAND: pu = (Rd != 0) & pp; .POR: pu = (Rd != 0) | pp */
enum { LOP3_EXBOOL };
static void op_lop3(sim_exec *x)
{
    const uint32_t lut = (uint32_t)x->in->op[RO_IMM].imm & 0xff;
    const int pand = x->in->m[LOP3_EXBOOL] == 0;
    for (int l = 0; l < LANES; l++) {
        uint32_t d = lut3(lut, x->a[l], x->b[l], x->c[l]);
        x->d[l] = d;
        x->pu[l] = (uint8_t)(pand ? (d != 0) & x->pp[l] : (d != 0) | x->pp[l]);
    }
}

/* PLOP3: pu = lut[(pa << 2) | (pb << 1) | pc] */
static void op_plop3(sim_exec *x)
{
    const uint32_t lut = (uint32_t)x->in->op[RO_IMM].imm & 0xff;
    for (int l = 0; l < LANES; l++)
        x->pu[l] = lut >> (x->pa[l] << 2 | x->pb[l] << 1 | x->pc[l]) & 1;
}

/* SHF: funnel {SrcC, Ra} shifted by n = CLAMP ? min(SrcB, n_ub) : SrcB mod n_ub */
enum { SHF_DIR, SHF_LOHI, SHF_CW, SHF_TYPE };
enum { SHF_S64, SHF_U64, SHF_S32, SHF_U32 };
static void op_shf(sim_exec *x)
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

enum { PRMT_MODE };
static void op_prmt(sim_exec *x)
{
    const uint32_t mode = x->in->m[PRMT_MODE];
    for (int l = 0; l < LANES; l++) {
        uint64_t t = sim_lane64(x->a, x->b, l);
        uint32_t ctl = x->c[l], d = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t byte;
            if (mode == PRMT_IDX) {
                uint32_t nib = ctl >> (4 * k) & 0xf;
                byte = (uint32_t)(t >> (8 * (nib & 7))) & 0xff;
                if (nib & 8) /* replicate the selected byte's sign */
                    byte = byte & 0x80 ? 0xff : 0;
            } else {
                byte = (uint32_t)(t >> (8 * prmt_table[mode][ctl & 3][k])) & 0xff;
            }
            d |= byte << (8 * k);
        }
        x->d[l] = d;
    }
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
