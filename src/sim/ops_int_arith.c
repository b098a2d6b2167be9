/* Integer arithmetic: IADD IMAD IMAD.WIDE IDP.2A IDP.4A IMUL LEA IABS IMNMX.
 * Each function is the document's pseudo-code over the 32 lanes, with the
 * rulings' corrections (carry = sum >= 2^32; -x contributes 2^32 - x, so the
 * multi-word idioms are exact; ~x is the bitwise complement under .X). */
#include "sim/ops.h"

/* IADD Rd{, pu}, {-}Ra, {-}SrcB / IADD.X Rd{, pu}, {~}Ra, {~}SrcB{, pp} */
enum { IADD_EXT };
SIM_OP void op_iadd(sim_exec *x)
{
    const sim_opnd *A = &x->in->op[RO_A], *B = &x->in->op[RO_B];
    const uint32_t fa = addend_flip(A), fb = addend_flip(B);
    const uint64_t ones = addend_one(A) + addend_one(B);
    const uint8_t cin = x->in->m[IADD_EXT] == 1 ? 1 : 0;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = (uint64_t)(x->a[l] ^ fa) + (x->b[l] ^ fb) + ones + (x->pp[l] & cin);
        x->d[l] = (uint32_t)t;
        x->pu[l] = t >> 32 != 0;
    }
}

static inline uint64_t product(uint32_t a, uint32_t b, int is_signed)
{
    return is_signed ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : (uint64_t)a * b;
}

/* IMAD.LO: Rd = t[31:0] + SrcC, pu = carry. IMAD.HI.X: Rd = t[63:32] + SrcC + pp. */
enum { IMAD_LOHI, IMAD_EXT, IMAD_ITYPE };
SIM_OP void op_imad(sim_exec *x)
{
    const sim_opnd *C = &x->in->op[RO_C];
    const int hi = x->in->m[IMAD_LOHI] == 1, is_signed = x->in->m[IMAD_ITYPE] == 0;
    const uint32_t fc = addend_flip(C);
    const uint64_t one = addend_one(C);
    const uint8_t cin = hi ? 1 : 0;
    const unsigned sh = hi ? 32 : 0;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = product(x->a[l], x->b[l], is_signed);
        uint64_t sum = (uint64_t)(uint32_t)(t >> sh) + (x->c[l] ^ fc) + one + (x->pp[l] & cin);
        x->d[l] = (uint32_t)sum;
        x->pu[l] = sum >> 32 != 0;
    }
}

/* IMAD.WIDE{.X}: Rd(64) = t + SrcC(64) {+ pp}, pu = carry out of 64 bits. */
enum { WIDE_EXT, WIDE_ITYPE };
SIM_OP void op_imad_wide(sim_exec *x)
{
    const sim_opnd *C = &x->in->op[RO_C];
    const int ext = x->in->m[WIDE_EXT] == 1, is_signed = x->in->m[WIDE_ITYPE] == 0;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = product(x->a[l], x->b[l], is_signed);
        unsigned __int128 sum = (unsigned __int128)t + addend64(sim_lane64(x->c, x->ch, l), C) + (ext ? x->pp[l] : 0);
        x->d[l] = (uint32_t)sum;
        x->dh[l] = (uint32_t)(sum >> 32);
        x->pu[l] = (sum >> 64) != 0;
    }
}

static inline int32_t ext8(uint32_t v, int k, int is_signed)
{
    uint32_t b = v >> (8 * k) & 0xff;
    return is_signed ? (int8_t)b : (int32_t)b;
}

static inline int32_t ext16(uint32_t v, int k, int is_signed)
{
    uint32_t h = v >> (16 * k) & 0xffff;
    return is_signed ? (int16_t)h : (int32_t)h;
}

/* d = SrcC (unsigned) + pp + sum of products, exact; Rd = d mod 2^32, pu = d >= 2^32 */
static inline void dot_result(sim_exec *x, int l, int64_t d)
{
    x->d[l] = (uint32_t)d;
    x->pu[l] = d >= (INT64_C(1) << 32);
}

enum { IDP2_LOHI, IDP2_AFMT, IDP2_BFMT };
SIM_OP void op_idp2a(sim_exec *x)
{
    const int sel = x->in->m[IDP2_LOHI] == 1 ? 2 : 0;
    const int as = x->in->m[IDP2_AFMT] == 0, bs = x->in->m[IDP2_BFMT] == 0;
    for (int l = 0; l < LANES; l++) {
        int64_t d = (int64_t)x->c[l] + x->pp[l];
        for (int i = 0; i < 2; i++)
            d += (int64_t)ext16(x->a[l], i, as) * ext8(x->b[l], sel + i, bs);
        dot_result(x, l, d);
    }
}

enum { IDP4_AFMT, IDP4_BFMT };
SIM_OP void op_idp4a(sim_exec *x)
{
    const int as = x->in->m[IDP4_AFMT] == 0, bs = x->in->m[IDP4_BFMT] == 0;
    for (int l = 0; l < LANES; l++) {
        int64_t d = (int64_t)x->c[l] + x->pp[l];
        for (int i = 0; i < 4; i++)
            d += (int64_t)ext8(x->a[l], i, as) * ext8(x->b[l], i, bs);
        dot_result(x, l, d);
    }
}

/* IMUL.lohi.itype Rd, Ra, {-}SrcB: -SrcB is the 32-bit two's complement. */
enum { IMUL_LOHI, IMUL_ITYPE };
SIM_OP void op_imul(sim_exec *x)
{
    const sim_opnd *B = &x->in->op[RO_B];
    const int hi = x->in->m[IMUL_LOHI] == 1, is_signed = x->in->m[IMUL_ITYPE] == 0;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = product(x->a[l], neg32(x->b[l], B), is_signed);
        x->d[l] = (uint32_t)(hi ? t >> 32 : t);
    }
}

/* LEA.LO: Rd = (Ra << s)[31:0] + SrcB; -Ra contributes 2^32 - (Ra << s)[31:0].
 * LEA.HI.X: Rd = ({Rc, Ra} >> (32 - s))[31:0] + SrcB + pp ({~Rc, ~Ra} with ~).
 * LEA.HI.X.SX32: the same with Ra sign-extended to 64 bits. */
enum { LEA_LOHI, LEA_SX32 };
SIM_OP void op_lea(sim_exec *x)
{
    const sim_opnd *A = &x->in->op[RO_A];
    const unsigned s = (unsigned)x->in->op[RO_IMM].imm & 31;
    const int hi = x->in->m[LEA_LOHI] == 1, sx32 = x->in->m[LEA_SX32] == 1;
    const uint64_t inv = A->inv ? UINT64_MAX : 0;
    for (int l = 0; l < LANES; l++) {
        uint64_t part;
        if (!hi) {
            part = addend32(x->a[l] << s, A);
        } else {
            uint64_t t = sx32 ? (uint64_t)(int64_t)(int32_t)x->a[l] : sim_lane64(x->a, x->c, l);
            t ^= inv;
            part = (uint32_t)(sx32 ? (uint64_t)((int64_t)t >> (32 - s)) : t >> (32 - s));
        }
        uint64_t sum = part + x->b[l] + (hi ? x->pp[l] : 0);
        x->d[l] = (uint32_t)sum;
        x->pu[l] = sum >> 32 != 0;
    }
}

/* IABS Rd, {-}SrcB: |0x80000000| stays 0x80000000. */
SIM_OP void op_iabs(sim_exec *x)
{
    const sim_opnd *B = &x->in->op[RO_B];
    for (int l = 0; l < LANES; l++) {
        int32_t v = (int32_t)neg32(x->b[l], B);
        x->d[l] = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    }
}

/* IMNMX Rd, {-}Ra, {-}SrcB, pp: pp ? min : max */
enum { IMNMX_ITYPE };
SIM_OP void op_imnmx(sim_exec *x)
{
    const sim_opnd *A = &x->in->op[RO_A], *B = &x->in->op[RO_B];
    const int is_signed = x->in->m[IMNMX_ITYPE] == 0;
    for (int l = 0; l < LANES; l++) {
        uint32_t a = neg32(x->a[l], A), b = neg32(x->b[l], B);
        const uint32_t bias = is_signed ? 0x80000000u : 0; /* signed order as unsigned */
        int a_less = (a ^ bias) < (b ^ bias);
        x->d[l] = x->pp[l] ? (a_less ? a : b) : (a_less ? b : a);
    }
}

const sim_opdef sim_ops_int_arith[] = {
    {"IADD", op_iadd, {"ext:NoX X"}, NULL, 0},
    {"IMAD", op_imad, {"lohi:LO HI", "ext:NoX X", "itype:S32 U32"}, NULL, 0},
    {"IMAD_WIDE", op_imad_wide, {"ext:NoX X", "itype:S32 U32"}, NULL, 0},
    {"IDP2A", op_idp2a, {"lohi:LO HI", "afmt:S16 U16", "bfmt:S8 U8"}, NULL, 0},
    {"IDP4A", op_idp4a, {"afmt:S8 U8", "bfmt:S8 U8"}, NULL, 0},
    {"IMUL", op_imul, {"lohi:LO HI", "itype:S32 U32"}, NULL, 0},
    {"LEA", op_lea, {"lohi:LO HI", "sx32:NoSX32 SX32"}, NULL, 0},
    {"IABS", op_iabs, {NULL}, NULL, 0},
    {"IMNMX", op_imnmx, {"itype:S32 U32"}, NULL, 0},
    {NULL, NULL, {NULL}, NULL, 0},
};
