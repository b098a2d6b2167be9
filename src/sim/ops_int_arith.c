/* Integer arithmetic: IADD IMAD IMAD.WIDE IDP.2A IDP.4A IMUL LEA IABS IMNMX.
 * Each function is the document's pseudo-code over the 32 lanes, with the
 * rulings' corrections (carry = sum >= 2^32; -x contributes 2^32 - x, so the
 * multi-word idioms are exact; ~x is the bitwise complement under .X). */
#include "sim/ops.h"

/* IADD Rd{, pu}, {-}Ra, {-}SrcB / IADD.X Rd{, pu}, {~}Ra, {~}SrcB{, pp} */
#define IADD_MODS(M, P) M(P, EXT, "ext", EXT)
SIM_MODS(IADD, IADD_MODS);
/* The lane loops of the functions that write d and pu take them as restrict
 * parameters: x->d may be a register row (sim_exec.d), and a byte store to
 * pu could otherwise change it: the loops did not vectorise. */
SIM_INLINE void iadd_lanes(const sim_exec *x, uint32_t *restrict d, uint8_t *restrict pu)
{
    const sim_opnd *A = &x->in->op[RO_A], *B = &x->in->op[RO_B];
    const uint32_t fa = addend_flip(A), fb = addend_flip(B);
    const uint64_t ones = addend_one(A) + addend_one(B);
    const uint8_t cin = x->in->m[IADD_EXT] == EXT_X ? 1 : 0;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = (uint64_t)(x->a[l] ^ fa) + (x->b[l] ^ fb) + ones + (x->pp[l] & cin);
        d[l] = (uint32_t)t;
        pu[l] = t >> 32 != 0;
    }
}
SIM_OP void op_iadd(sim_exec *x) { iadd_lanes(x, x->d, x->pu); }

static inline uint64_t product(uint32_t a, uint32_t b, int is_signed)
{
    return is_signed ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : (uint64_t)a * b;
}

/* IMAD.LO: Rd = t[31:0] + SrcC, pu = carry. IMAD.HI.X: Rd = t[63:32] + SrcC + pp. */
#define IMAD_MODS(M, P) M(P, LOHI, "lohi", LOHI) M(P, EXT, "ext", EXT) M(P, ITYPE, "itype", ITYPE)
SIM_MODS(IMAD, IMAD_MODS);
SIM_INLINE void imad_lanes(const sim_exec *x, uint32_t *restrict d, uint8_t *restrict pu)
{
    const sim_opnd *C = &x->in->op[RO_C];
    const int hi = x->in->m[IMAD_LOHI] == LOHI_HI, is_signed = x->in->m[IMAD_ITYPE] == ITYPE_S32;
    const uint32_t fc = addend_flip(C);
    const uint64_t one = addend_one(C);
    const uint8_t cin = hi ? 1 : 0;
    const unsigned sh = hi ? 32 : 0;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = product(x->a[l], x->b[l], is_signed);
        uint64_t sum = (uint64_t)(uint32_t)(t >> sh) + (x->c[l] ^ fc) + one + (x->pp[l] & cin);
        d[l] = (uint32_t)sum;
        pu[l] = sum >> 32 != 0;
    }
}
SIM_OP void op_imad(sim_exec *x) { imad_lanes(x, x->d, x->pu); }

/* IMAD.WIDE{.X}: Rd(64) = t + SrcC(64) {+ pp}, pu = carry out of 64 bits. */
#define WIDE_MODS(M, P) M(P, EXT, "ext", EXT) M(P, ITYPE, "itype", ITYPE)
SIM_MODS(WIDE, WIDE_MODS);
SIM_INLINE void imad_wide_lanes(const sim_exec *x, uint32_t *restrict d, uint32_t *restrict dh, uint8_t *restrict pu)
{
    const sim_opnd *C = &x->in->op[RO_C];
    const int ext = x->in->m[WIDE_EXT] == EXT_X, is_signed = x->in->m[WIDE_ITYPE] == ITYPE_S32;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = product(x->a[l], x->b[l], is_signed);
        unsigned __int128 sum = (unsigned __int128)t + addend64(sim_lane64(x->c, x->ch, l), C) + (ext ? x->pp[l] : 0);
        d[l] = (uint32_t)sum;
        dh[l] = (uint32_t)(sum >> 32);
        pu[l] = (sum >> 64) != 0;
    }
}
SIM_OP void op_imad_wide(sim_exec *x) { imad_wide_lanes(x, x->d, x->dh, x->pu); }

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
static inline void dot_result(uint32_t *restrict out, uint8_t *restrict pu, int l, int64_t d)
{
    out[l] = (uint32_t)d;
    pu[l] = d >= (INT64_C(1) << 32);
}

#define I16_VALUES(V, P) V(P, S16) V(P, U16)
SIM_VALUES(I16, I16_VALUES);
#define I8_VALUES(V, P) V(P, S8) V(P, U8)
SIM_VALUES(I8, I8_VALUES);

/* IDP.2A.lohi.afmt.bfmt Rd, pu, Ra, SrcB, SrcC, pp: .HI takes SrcB's bytes 2, 3 */
#define IDP2_MODS(M, P) M(P, LOHI, "lohi", LOHI) M(P, AFMT, "afmt", I16) M(P, BFMT, "bfmt", I8)
SIM_MODS(IDP2, IDP2_MODS);
SIM_INLINE void idp2a_lanes(const sim_exec *x, uint32_t *restrict out, uint8_t *restrict pu)
{
    const int sel = x->in->m[IDP2_LOHI] == LOHI_HI ? 2 : 0;
    const int as = x->in->m[IDP2_AFMT] == I16_S16, bs = x->in->m[IDP2_BFMT] == I8_S8;
    for (int l = 0; l < LANES; l++) {
        int64_t d = (int64_t)x->c[l] + x->pp[l];
        for (int i = 0; i < 2; i++)
            d += (int64_t)ext16(x->a[l], i, as) * ext8(x->b[l], sel + i, bs);
        dot_result(out, pu, l, d);
    }
}
SIM_OP void op_idp2a(sim_exec *x) { idp2a_lanes(x, x->d, x->pu); }

#define IDP4_MODS(M, P) M(P, AFMT, "afmt", I8) M(P, BFMT, "bfmt", I8)
SIM_MODS(IDP4, IDP4_MODS);
SIM_INLINE void idp4a_lanes(const sim_exec *x, uint32_t *restrict out, uint8_t *restrict pu)
{
    const int as = x->in->m[IDP4_AFMT] == I8_S8, bs = x->in->m[IDP4_BFMT] == I8_S8;
    for (int l = 0; l < LANES; l++) {
        int64_t d = (int64_t)x->c[l] + x->pp[l];
        for (int i = 0; i < 4; i++)
            d += (int64_t)ext8(x->a[l], i, as) * ext8(x->b[l], i, bs);
        dot_result(out, pu, l, d);
    }
}
SIM_OP void op_idp4a(sim_exec *x) { idp4a_lanes(x, x->d, x->pu); }

/* IMUL.lohi.itype Rd, Ra, {-}SrcB: -SrcB is the 32-bit two's complement. */
#define IMUL_MODS(M, P) M(P, LOHI, "lohi", LOHI) M(P, ITYPE, "itype", ITYPE)
SIM_MODS(IMUL, IMUL_MODS);
SIM_OP void op_imul(sim_exec *x)
{
    const sim_opnd *B = &x->in->op[RO_B];
    const int hi = x->in->m[IMUL_LOHI] == LOHI_HI, is_signed = x->in->m[IMUL_ITYPE] == ITYPE_S32;
    for (int l = 0; l < LANES; l++) {
        uint64_t t = product(x->a[l], neg32(x->b[l], B), is_signed);
        x->d[l] = (uint32_t)(hi ? t >> 32 : t);
    }
}

/* LEA.LO: Rd = (Ra << s)[31:0] + SrcB; -Ra contributes 2^32 - (Ra << s)[31:0].
 * LEA.HI.X: Rd = ({Rc, Ra} >> (32 - s))[31:0] + SrcB + pp ({~Rc, ~Ra} with ~).
 * LEA.HI.X.SX32: the same with Ra sign-extended to 64 bits. */
#define SX32_VALUES(V, P) V(P, NoSX32) V(P, SX32)
SIM_VALUES(SX32, SX32_VALUES);
#define LEA_MODS(M, P) M(P, LOHI, "lohi", LOHI) M(P, SX32, "sx32", SX32)
SIM_MODS(LEA, LEA_MODS);
SIM_INLINE void lea_lanes(const sim_exec *x, uint32_t *restrict d, uint8_t *restrict pu)
{
    const sim_opnd *A = &x->in->op[RO_A];
    const unsigned s = (unsigned)x->in->op[RO_IMM].imm & 31;
    const int hi = x->in->m[LEA_LOHI] == LOHI_HI, sx32 = x->in->m[LEA_SX32] == SX32_SX32;
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
        d[l] = (uint32_t)sum;
        pu[l] = sum >> 32 != 0;
    }
}
SIM_OP void op_lea(sim_exec *x) { lea_lanes(x, x->d, x->pu); }

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
#define IMNMX_MODS(M, P) M(P, ITYPE, "itype", ITYPE)
SIM_MODS(IMNMX, IMNMX_MODS);
SIM_OP void op_imnmx(sim_exec *x)
{
    const sim_opnd *A = &x->in->op[RO_A], *B = &x->in->op[RO_B];
    const int is_signed = x->in->m[IMNMX_ITYPE] == ITYPE_S32;
    for (int l = 0; l < LANES; l++) {
        uint32_t a = neg32(x->a[l], A), b = neg32(x->b[l], B);
        const uint32_t bias = is_signed ? 0x80000000u : 0; /* signed order as unsigned */
        int a_less = (a ^ bias) < (b ^ bias);
        x->d[l] = x->pp[l] ? (a_less ? a : b) : (a_less ? b : a);
    }
}

const sim_opdef sim_ops_int_arith[] = {
    {"IADD", op_iadd, SIM_MODS_OF(IADD), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"IMAD", op_imad, SIM_MODS_OF(IMAD), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"IMAD_WIDE", op_imad_wide, SIM_MODS_OF(WIDE), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"IDP2A", op_idp2a, SIM_MODS_OF(IDP2), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"IDP4A", op_idp4a, SIM_MODS_OF(IDP4), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"IMUL", op_imul, SIM_MODS_OF(IMUL), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {"LEA", op_lea, SIM_MODS_OF(LEA), SIM_NO_SELS, 0, SIM_READS(NULL, NULL, SIM_ROLES(RO_IMM))},
    {"IABS", op_iabs, SIM_NO_MODS, SIM_NO_SELS, 0, SIM_READS(SIM_ROLES(RO_B), NULL, NULL)},
    {"IMNMX", op_imnmx, SIM_MODS_OF(IMNMX), SIM_NO_SELS, 0, SIM_DEFAULT_READS},
    {0},
};
