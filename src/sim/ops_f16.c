/* Packed half instructions (.F16_V2 / .BF16_V2): HADD2 HMUL2 HFMA2 HMNMX2
 * HSETP2 HSET2. Lane 0 is the low half of Rd, lane 1 the high half; each
 * source's .hsel2 picks the halves it feeds to the two lanes. The encoding
 * has no rounding field (rulings): arithmetic rounds to nearest-even. */
#include "sim/ops_fp.h"
#include "fp/softfp_half.h"

/* .hsel2: the halves a source feeds to lanes 1 and 0 (operand suffix names) */
#define HSEL_VALUES(V, P) V(P, H1_H0) V(P, H0_H0) V(P, H1_H1)
SIM_VALUES(HSEL, HSEL_VALUES);
#define HFMT_VALUES(V, P) V(P, F16_V2) V(P, BF16_V2)
SIM_VALUES(HFMT, HFMT_VALUES);
#define RELU_VALUES(V, P) V(P, NoRELU) V(P, RELU)
SIM_VALUES(RELU, RELU_VALUES);

/* The half of v that feeds lane h (0, 1), decorated */
static inline uint16_t half_in(uint32_t v, const sim_opnd *o, int h, const fpfmt *f, int ftz)
{
    int high = o->sel == HSEL_H1_H1 || (o->sel == HSEL_H1_H0 && h == 1);
    uint64_t x = fp_decorate(high ? v >> 16 : v & 0xffff, o, f);
    return (uint16_t)(ftz ? fp_flush(x, f) : x);
}

/* HADD2 HMUL2 .fmt.ftz.sat, HFMA2 .fmt.ftz.sat.relu (their .rnd has no
 * field: always RN) */
#define HARITH_MODS(M, P) M(P, FMT, "hfmt_v2", HFMT) M(P, FTZ, "ftz", FTZ) M(P, SAT, "sat", SAT)
SIM_MODS(HARITH, HARITH_MODS);
#define HFMA2_MODS(M, P) HARITH_MODS(M, P) M(P, RELU, "relu", RELU)
SIM_MODS(HFMA2, HFMA2_MODS);
_Static_assert(SIM_SAME(HFMA2_FMT, HARITH_FMT) && SIM_SAME(HFMA2_FTZ, HARITH_FTZ) && SIM_SAME(HFMA2_SAT, HARITH_SAT),
               "half_arith reads HFMA2 with HARITH's indices");

/* The 64 halves of a source or result: each lane's word, and the same
 * memory as halves, which the lane kernels take in any order (each half is
 * computed alone, so it does not matter which of a lane's halves is first). */
typedef union {
    uint32_t lane[LANES];
    uint16_t half[2 * LANES];
} halves;

/* A source's halves as .hsel2 feeds them to the lanes, decorated and flushed */
SIM_INLINE void half_inputs(halves *restrict out, const uint32_t *restrict v, const sim_opnd *o, const fpfmt *f,
                            int ftz)
{
    const uint16_t keep = o->abs ? (uint16_t)~f->sign : 0xffff, flip = o->neg ? (uint16_t)f->sign : 0;
    const uint16_t exp = (uint16_t)f->exp, zap = ftz ? (uint16_t)f->sign : 0xffff; /* what a subnormal keeps */
    const unsigned lo_down = o->sel == HSEL_H1_H1 ? 16 : 0, hi_up = o->sel == HSEL_H0_H0 ? 16 : 0;
    for (int l = 0; l < LANES; l++) /* copies, not memcpy: its narrower stores would stall the wider loads */
        out->lane[l] = (v[l] >> lo_down & 0xffffu) | (v[l] << hi_up & 0xffff0000u);
    for (int i = 0; i < 2 * LANES; i++) {
        uint16_t t = (uint16_t)((out->half[i] & keep) ^ flip);
        out->half[i] = (t & exp) ? t : t & zap;
    }
}

/* fp_finish on each half (NaN, .SAT, .RELU, FTZ), branch-free */
SIM_INLINE void half_results(uint32_t *restrict d, halves *restrict r, const fpfmt *f, int sat, int relu, int ftz)
{
    const uint16_t exp = (uint16_t)f->exp, one = (uint16_t)f->one, nan = sat ? 0 : (uint16_t)f->canon_nan;
    const uint16_t zap = ftz ? 0x8000u : 0xffffu;
    for (int i = 0; i < 2 * LANES; i++) {
        uint16_t v = r->half[i], t = (sat || relu) && (v & 0x8000u) ? 0 : sat && v > one ? one : v;
        t = (v & 0x7fffu) > exp ? nan : t;
        r->half[i] = (t & exp) ? t : t & zap;
    }
    for (int l = 0; l < LANES; l++)
        d[l] = r->lane[l];
}

#ifdef HALF_F16C
/* With F16C and AVX2: each 8 lanes' 16 halves go from the source registers
 * through .hsel2, the decorations, FTZ, the rounding kernel and the result
 * steps to Rd in registers. What a source does to its halves: */
typedef struct {
    uint32_t shuf;       /* the bytes of a lane's word that form its halves (vpshufb) */
    uint16_t keep, flip; /* & keep (|x|), then ^ flip (-x) */
} half_dec;

/* Subnormals (exponent field 0 of the format's mask exp) to their sign */
F16C_FN FP_INLINE __m256i half_flush16(__m256i t, uint16_t exp)
{
    __m256i sub = _mm256_cmpeq_epi16(_mm256_and_si256(t, _mm256_set1_epi16((short)exp)), _mm256_setzero_si256());
    return _mm256_andnot_si256(_mm256_and_si256(sub, _mm256_set1_epi16(0x7fff)), t);
}

/* 16 halves of a source (8 lanes from v), decorated, flushed under .FTZ */
F16C_FN FP_INLINE __m256i half_src16(const uint32_t *v, __m256i shuf, __m256i keep, __m256i flip, int ftz,
                                     uint16_t exp)
{
    __m256i t = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)v), shuf);
    t = _mm256_xor_si256(_mm256_and_si256(t, keep), flip);
    return ftz ? half_flush16(t, exp) : t;
}

/* fp_finish on 16 halves: clamp is all ones under .SAT or .RELU (negatives
 * to +0), top the largest result (1.0 under .SAT, else all ones: unsigned),
 * nan what a NaN becomes */
F16C_FN FP_INLINE __m256i half_finish16(__m256i v, __m256i clamp, __m256i top, __m256i nan, int ftz, uint16_t exp)
{
    __m256i isnan =
        _mm256_cmpgt_epi16(_mm256_and_si256(v, _mm256_set1_epi16(0x7fff)), _mm256_set1_epi16((short)exp));
    __m256i t = _mm256_andnot_si256(_mm256_and_si256(_mm256_srai_epi16(v, 15), clamp), v);
    t = _mm256_blendv_epi8(_mm256_min_epu16(t, top), nan, isnan);
    return ftz ? half_flush16(t, exp) : t;
}

/* 16 F16 results: the halves widened, 8 at a time */
F16C_FN FP_INLINE __m256i f16_round16(__m256i hx, __m256i hy, __m256i hz, half_op op)
{
    __m128i r[2];
    for (int k = 0; k < 2; k++) {
        __m128i ix = k ? _mm256_extracti128_si256(hx, 1) : _mm256_castsi256_si128(hx);
        __m128i iy = k ? _mm256_extracti128_si256(hy, 1) : _mm256_castsi256_si128(hy);
        __m128i iz = k ? _mm256_extracti128_si256(hz, 1) : _mm256_castsi256_si128(hz);
        r[k] = f16_round8(_mm256_cvtph_ps(ix), op == H_ADD ? _mm256_set1_ps(1.0f) : _mm256_cvtph_ps(iy),
                          op == H_MUL ? _mm256_setzero_ps() : _mm256_cvtph_ps(iz), op, FP_RN);
    }
    return _mm256_inserti128_si256(_mm256_castsi128_si256(r[0]), r[1], 1);
}

#define DEC_VECTORS(i)                                                                                                 \
    const __m256i shuf##i = _mm256_add_epi8(_mm256_set1_epi32((int)dec[i].shuf), lane_bytes),                        \
                  keep##i = _mm256_set1_epi16((short)dec[i].keep), flip##i = _mm256_set1_epi16((short)dec[i].flip)

/* Sources x (A), y (B unless H_ADD), z (B for H_ADD, C for H_FMA) */
F16C_FN FP_INLINE void half_fused_op(uint32_t *d, const uint32_t *x, const uint32_t *y, const uint32_t *z,
                                     const half_dec dec[3], int sat, int relu, half_op op, int ftz, int bf)
{
    const fpfmt *f = bf ? &FMT_BF16 : &FMT_F16;
    const uint16_t exp = (uint16_t)f->exp;
    /* vpshufb indexes bytes within each 16: lane k of 4 adds 4k to its bytes' indices */
    const __m256i lane_bytes = _mm256_set_epi32(0x0c0c0c0c, 0x08080808, 0x04040404, 0, 0x0c0c0c0c, 0x08080808,
                                                0x04040404, 0);
    DEC_VECTORS(0);
    DEC_VECTORS(1);
    DEC_VECTORS(2);
    const __m256i clamp = _mm256_set1_epi16(sat || relu ? -1 : 0);
    const __m256i top = _mm256_set1_epi16(sat ? (short)f->one : -1);
    const __m256i nan = _mm256_set1_epi16(sat ? 0 : (short)f->canon_nan);
    for (int l = 0; l < LANES; l += 8) {
        __m256i hx = half_src16(x + l, shuf0, keep0, flip0, ftz, exp);
        __m256i hy = op == H_ADD ? hx : half_src16(y + l, shuf1, keep1, flip1, ftz, exp);
        __m256i hz = op == H_MUL ? hx : half_src16(z + l, shuf2, keep2, flip2, ftz, exp);
        __m256i v = bf ? bf16_round16(hx, hy, hz, op, FP_RN) : f16_round16(hx, hy, hz, op);
        _mm256_storeu_si256((__m256i *)(d + l), half_finish16(v, clamp, top, nan, ftz, exp));
    }
}
#undef DEC_VECTORS

/* op and .FTZ constants in each loop, one function per format */
#define FUSED_FORMAT(name, bf)                                                                                         \
    F16C_FN static void name(uint32_t *d, const uint32_t *x, const uint32_t *y, const uint32_t *z,                     \
                             const half_dec dec[3], int sat, int relu, half_op op, int ftz)                            \
    {                                                                                                                  \
        switch (op) {                                                                                                  \
        case H_ADD: ftz ? FUSED(H_ADD, 1, bf) : FUSED(H_ADD, 0, bf); break;                                            \
        case H_MUL: ftz ? FUSED(H_MUL, 1, bf) : FUSED(H_MUL, 0, bf); break;                                            \
        default: ftz ? FUSED(H_FMA, 1, bf) : FUSED(H_FMA, 0, bf); break;                                               \
        }                                                                                                              \
    }
#define FUSED(o, t, b) half_fused_op(d, x, y, z, dec, sat, relu, o, t, b)
FUSED_FORMAT(f16_fused, 0)
FUSED_FORMAT(bf16_fused, 1)
#undef FUSED
#undef FUSED_FORMAT

static half_dec half_decoration(const sim_opnd *o)
{
    static const uint32_t shuf[] = {[HSEL_H1_H0] = 0x03020100u, [HSEL_H0_H0] = 0x01000100u,
                                    [HSEL_H1_H1] = 0x03020302u};
    half_dec h = {shuf[o->sel], o->abs ? 0x7fff : 0xffff, o->neg ? 0x8000 : 0};
    return h;
}
#endif

SIM_INLINE void half_arith(sim_exec *x, half_op op, int relu)
{
    const sim_insn *in = x->in;
    const int bf = in->m[HARITH_FMT] == HFMT_BF16_V2, ftz = in->m[HARITH_FTZ] == FTZ_FTZ;
    const int sat = in->m[HARITH_SAT] == SAT_SAT;
    const fp_rnd rnd = FP_RN;
    const fpfmt *f = bf ? &FMT_BF16 : &FMT_F16;
#ifdef HALF_F16C
    if (half_f16c_host()) {
        const half_dec dec[3] = {half_decoration(&in->op[RO_A]), half_decoration(&in->op[RO_B]),
                                 half_decoration(&in->op[op == H_FMA ? RO_C : RO_B])};
        fp_use_rounding(FP_RN);
        (bf ? bf16_fused : f16_fused)(x->d, x->a, x->b, op == H_FMA ? x->c : x->b, dec, sat, relu, op, ftz);
        return;
    }
#endif
    halves a, b, c, r;
    half_inputs(&a, x->a, &in->op[RO_A], f, ftz);
    half_inputs(&b, x->b, &in->op[RO_B], f, ftz);
    if (op == H_FMA) {
        half_inputs(&c, x->c, &in->op[RO_C], f, ftz);
        (bf ? bf16_fma_lanes : f16_fma_lanes)(r.half, a.half, b.half, c.half, rnd);
    } else if (op == H_MUL) {
        (bf ? bf16_mul_lanes : f16_mul_lanes)(r.half, a.half, b.half, rnd);
    } else {
        (bf ? bf16_add_lanes : f16_add_lanes)(r.half, a.half, b.half, rnd);
    }
    half_results(x->d, &r, f, sat, relu, ftz);
}

SIM_OP void op_hadd2(sim_exec *x) { half_arith(x, H_ADD, 0); }
SIM_OP void op_hmul2(sim_exec *x) { half_arith(x, H_MUL, 0); }
SIM_OP void op_hfma2(sim_exec *x) { half_arith(x, H_FMA, x->in->m[HFMA2_RELU] == RELU_RELU); }

/* HMNMX2 Rd, Ra, SrcB, pp: per lane pp ? min : max; FTZ first (rulings);
 * one NaN gives the other value, two NaNs or .NAN with any NaN give 0x7FFF. */
#define HMNMX2_MODS(M, P) M(P, FMT, "hfmt_v2", HFMT) M(P, FTZ, "ftz", FTZ) M(P, NAN, "nan", NANMODE)
SIM_MODS(HMNMX2, HMNMX2_MODS);
static void op_hmnmx2(sim_exec *x)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[HMNMX2_FTZ] == FTZ_FTZ, nan = in->m[HMNMX2_NAN] == NANMODE_NAN;
    const fpfmt *f = in->m[HMNMX2_FMT] == HFMT_BF16_V2 ? &FMT_BF16 : &FMT_F16;
    for (int l = 0; l < LANES; l++) {
        uint32_t d = 0;
        for (int h = 0; h < 2; h++) {
            uint64_t a = half_in(x->a[l], &in->op[RO_A], h, f, ftz), b = half_in(x->b[l], &in->op[RO_B], h, f, ftz);
            int na = fp_isnan(a, f), nb = fp_isnan(b, f);
            uint64_t r;
            if (na || nb)
                r = nan || (na && nb) ? f->canon_nan : na ? b : a;
            else
                r = fp_minmax(a, b, f, x->pp[l]);
            d |= (uint32_t)r << (16 * h);
        }
        x->d[l] = d;
    }
}

/* The two lanes' comparisons, each combined with pp. HSET2's modifiers
 * start with HSETP2's, so half_test reads both with HSETP2's indices. */
#define HSETP2_MODS(M, P) M(P, FMT, "hfmt_v2", HFMT) M(P, FTZ, "ftz", FTZ) M(P, CMP, "cmp", CMP) M(P, LOP, "lop", BOOL)
SIM_MODS(HSETP2, HSETP2_MODS);
#define HSET2_MODS(M, P) HSETP2_MODS(M, P) M(P, BVAL, "bval", BVAL)
SIM_MODS(HSET2, HSET2_MODS);
_Static_assert(SIM_SAME(HSET2_FMT, HSETP2_FMT) && SIM_SAME(HSET2_FTZ, HSETP2_FTZ) && SIM_SAME(HSET2_CMP, HSETP2_CMP) &&
                   SIM_SAME(HSET2_LOP, HSETP2_LOP),
               "half_test reads HSET2 with HSETP2's indices");
static inline int half_test(const sim_exec *x, int l, int h, const fpfmt *f)
{
    const sim_insn *in = x->in;
    const int ftz = in->m[HSETP2_FTZ] == FTZ_FTZ;
    uint16_t a = half_in(x->a[l], &in->op[RO_A], h, f, ftz), b = half_in(x->b[l], &in->op[RO_B], h, f, ftz);
    return bool_lop(fp_compare(a, b, f, in->m[HSETP2_CMP]), x->pp[l], in->m[HSETP2_LOP]);
}

/* HSETP2 pu, pv, Ra, SrcB, pp: lane 0 -> pu, lane 1 -> pv (rulings) */
static void op_hsetp2(sim_exec *x)
{
    const fpfmt *f = x->in->m[HSETP2_FMT] == HFMT_BF16_V2 ? &FMT_BF16 : &FMT_F16;
    for (int l = 0; l < LANES; l++) {
        x->pu[l] = (uint8_t)half_test(x, l, 0, f);
        x->pv[l] = (uint8_t)half_test(x, l, 1, f);
    }
}

/* HSET2: each half is (t lop pp) ? (.BF ? 1.0 of the format : 0xFFFF) : 0 */
static void op_hset2(sim_exec *x)
{
    const fpfmt *f = x->in->m[HSET2_FMT] == HFMT_BF16_V2 ? &FMT_BF16 : &FMT_F16;
    const uint32_t one = x->in->m[HSET2_BVAL] == BVAL_BF ? (uint32_t)f->one : 0xffffu;
    for (int l = 0; l < LANES; l++)
        x->d[l] = (half_test(x, l, 0, f) ? one : 0) | (half_test(x, l, 1, f) ? one << 16 : 0);
}

const sim_opdef sim_ops_f16[] = {
    {"HADD2", op_hadd2, SIM_MODS_OF(HARITH), SIM_SELS_OF(HSEL), 0, SIM_DEFAULT_READS},
    {"HMUL2", op_hmul2, SIM_MODS_OF(HARITH), SIM_SELS_OF(HSEL), 0, SIM_DEFAULT_READS},
    {"HFMA2", op_hfma2, SIM_MODS_OF(HFMA2), SIM_SELS_OF(HSEL), 0, SIM_DEFAULT_READS},
    {"HMNMX2", op_hmnmx2, SIM_MODS_OF(HMNMX2), SIM_SELS_OF(HSEL), 0, SIM_DEFAULT_READS},
    {"HSETP2", op_hsetp2, SIM_MODS_OF(HSETP2), SIM_SELS_OF(HSEL), 0, SIM_DEFAULT_READS},
    {"HSET2", op_hset2, SIM_MODS_OF(HSET2), SIM_SELS_OF(HSEL), 0, SIM_DEFAULT_READS},
    {0},
};
