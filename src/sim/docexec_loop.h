/* The executor's loop, written once for the three lane widths: docexec.c
 * includes it with LANE_T (the signed lane type), ULANE_T, LANE_BITS, RUN
 * and RUN_ATTR (the loop's name and attributes), and FIELD_T, FIELD_S,
 * FIELD_BITS (the unsigned and signed types of bit fields: the lane's, at
 * most 64 bits) defined. Its helpers are named after RUN and carry its
 * RUN_ATTR, so that each is compiled for its loop's instruction set,
 * inlined or not. On 32- and 64-bit lanes a slot holds
 * the low bits of its value, the whole value where docsem/narrow.c proved
 * it fits (ds_lane_bits): the rare operations on wider values go through
 * 128-bit arithmetic, exact for every slot that analysis lets them read,
 * and bit fields through 64-bit arithmetic. */

#define BIN(expr)                                                                                              \
    do {                                                                                                       \
        if (o->bk) {                                                                                           \
            LANE_T *restrict D = s[o->d];                                                                      \
            const LANE_T *restrict A = s[o->a];                                                                \
            const LANE_T B_ = (LANE_T)o->imm;                                                                  \
            EACH { LANE_T x = A[l], y = B_; D[l] = (expr); }                                                   \
        } else {                                                                                               \
            BIN_SLOTS(expr);                                                                                   \
        }                                                                                                      \
    } while (0)
/* d = expr of x and y, each lane's a and b (operations whose b is always
 * a slot) */
#define BIN_SLOTS(expr)                                                                                        \
    do {                                                                                                       \
        LANE_T *restrict D = s[o->d];                                                                          \
        const LANE_T *restrict A = s[o->a], *restrict B = s[o->b];                                             \
        EACH { LANE_T x = A[l], y = B[l]; D[l] = (expr); }                                                     \
    } while (0)

/* d = expr of x, each lane's a: both arrays restrict, so that the loop is
 * vectorised (an operation may read the slot it writes: lane by lane,
 * which no vector loop breaks) */
#define UN(expr)                                                                                               \
    do {                                                                                                       \
        LANE_T *restrict D = s[o->d];                                                                          \
        const LANE_T *restrict A = s[o->a];                                                                    \
        EACH { LANE_T x = A[l]; D[l] = (expr); }                                                               \
    } while (0)

/* The rare operations, out of the loop's way (kept out of line, so that
 * the hot cases keep their registers): the division family through the
 * 128-bit functions, the conversions a lane at a time. */
COLD RUN_ATTR static void CAT(divide_, RUN)(const ds_op *o, LANE_T *const *s)
{
#define BIN_WIDE(fn) BIN((LANE_T)fn((ds_int)x, (ds_int)y))
    switch (o->code) {
    case DO_DIV: BIN_WIDE(ds_div); break;
    case DO_CDIV: BIN_WIDE(ds_cdiv); break;
    default: BIN_WIDE(ds_mod); break;
    }
#undef BIN_WIDE
}

COLD RUN_ATTR static void CAT(convert_, RUN)(const ds_op *o, LANE_T *const *s, uint32_t cur)
{
    MASKED s[o->d][l] = (LANE_T)fcvt((uint64_t)s[o->a][l], o->k, o->fmt, (fp_rnd)o->rnd);
}

/* R[a] of each lane: read into d (DO_RGET) or, on the lanes of cur, noted
 * for the caller to write (DO_RSET). An index outside the file faults on the
 * first lane of cur that has one, as the native engine's SETGPR/GETGPR do;
 * returns 1 then. */
OUT_OF_LINE RUN_ATTR static int CAT(indexed_, RUN)(const ds_op *o, LANE_T *const *s, ds_io *io, uint32_t cur)
{
    const int write = o->code == DO_RSET;
    const LANE_T *restrict A = s[o->a];
    int64_t idx[DS_LANES];
    long row[DS_LANES];
    uint32_t outside = 0; /* the lanes whose index is outside the file */
    for (int l = 0; l < DS_LANES; l++) {
        const ds_int v = (ds_int)A[l];
        idx[l] = v < INT64_MIN ? INT64_MIN : v > INT64_MAX ? INT64_MAX : (int64_t)v;
        row[l] = sim_index_row(idx[l], io->nregs, write);
        outside |= (uint32_t)(row[l] < 0) << l;
    }
    if (outside & cur) { /* the first lane of the mask that has one faults */
        const int l = __builtin_ctz(outside & cur);
        sim_index_fault(io->fault_buf, sizeof io->fault_buf, idx[l], io->nregs, l);
        io->fault = io->fault_buf;
        io->fault_lane = l;
        return 1;
    }
    if (write) { /* the lanes of the mask, which the caller writes */
        const LANE_T *restrict B = s[o->b];
        for (int l = 0; l < DS_LANES; l++) {
            io->rset_row[l] = (uint32_t)row[l];
            io->rset_val[l] = (uint32_t)B[l];
        }
        io->rset_mask |= cur;
    } else { /* every lane (one outside the mask reads 0 for an index outside) */
        LANE_T *restrict D = s[o->d];
        for (int l = 0; l < DS_LANES; l++)
            D[l] = row[l] >= 0 ? io->regs[(size_t)row[l] * DS_LANES + (size_t)l] : 0;
    }
    return 0;
}

/* a floating-point operation of the lane kernels: the slots' low bits in,
 * the result's bits out (every lane: what the lanes outside the mask
 * compute nobody reads) */
#define FP_KERNEL(T, n, fn)                                                                                    \
    do {                                                                                                       \
        T a[n], b[n], c[n], d[n];                                                                              \
        for (int h = DS_LANES; h < n; h++) /* halves the kernel computes and nobody reads */                   \
            a[h] = b[h] = c[h] = 0;                                                                            \
        const LANE_T *A = s[o->a], *B = s[o->b], *C = s[o->c];                                                 \
        LANE_T *D = s[o->d];                                                                                   \
        EACH a[l] = (T)A[l];                                                                                   \
        EACH b[l] = (T)B[l];                                                                                   \
        if (o->code == DO_FFMA)                                                                                \
            EACH c[l] = (T)C[l];                                                                               \
        else                                                                                                   \
            EACH c[l] = 0;                                                                                     \
        fn(o, d, a, b, c);                                                                                     \
        EACH D[l] = (LANE_T)d[l];                                                                              \
    } while (0)
/* where the lanes hold the format's bits as they are (F64 on 64-bit
 * lanes) the kernel reads and writes the slots themselves, unless the
 * result is one of the operands (the kernels' arrays do not overlap) */
#define FP_IN_PLACE(T, fn)                                                                                     \
    do {                                                                                                       \
        const int c_ = o->code == DO_FFMA ? o->c : o->a;                                                       \
        fn(o, (T *)s[o->d], (const T *)s[o->a], (const T *)s[o->b], (const T *)s[c_]);                         \
    } while (0)

/* operand i (a, b, c) of an F32 operation: the input port itself where
 * doclower.c made it one (bk bit i), the slot where it holds the bits as
 * they are (32-bit lanes), else their copy in tmp */
RUN_ATTR static inline const uint32_t *CAT(f32_operand_, RUN)(const ds_op *o, LANE_T *const *s, const ds_io *io,
                                                                 int i, uint32_t *tmp)
{
    const int slot = i == 0 ? o->a : i == 1 ? o->b : o->c;
    if (o->bk >> i & 1)
        return io->lo[slot];
    if (LANE_BITS == 32)
        return (const uint32_t *)s[slot];
    const LANE_T *v = s[slot];
    EACH tmp[l] = (uint32_t)v[l];
    return tmp;
}

OUT_OF_LINE RUN_ATTR static void CAT(f32_op_, RUN)(const ds_op *o, LANE_T *const *s, const ds_io *io)
{
    uint32_t ta[DS_LANES], tb[DS_LANES], tc[DS_LANES], td[DS_LANES];
    const int ffma = o->code == DO_FFMA;
    const uint32_t *a = CAT(f32_operand_, RUN)(o, s, io, 0, ta), *b = CAT(f32_operand_, RUN)(o, s, io, 1, tb);
    const uint32_t *c = ffma ? CAT(f32_operand_, RUN)(o, s, io, 2, tc) : a;
    const int overlap = (!(o->bk & 1) && o->a == o->d) || (!(o->bk & 2) && o->b == o->d) ||
                        (ffma && !(o->bk & 4) && o->c == o->d);
    uint32_t *d = LANE_BITS == 32 && !overlap ? (uint32_t *)s[o->d] : td;
    f32_lanes(o, d, a, b, c);
    if (d == td) {
        LANE_T *D = s[o->d];
        EACH D[l] = (LANE_T)td[l];
    }
}

OUT_OF_LINE RUN_ATTR static void CAT(fp_, RUN)(const ds_op *o, LANE_T *const *s, const ds_io *io)
{
    const int apart = o->d != o->a && o->d != o->b && (o->code != DO_FFMA || o->d != o->c);
    if (o->fmt == DS_F64 && LANE_BITS == 64 && apart)
        FP_IN_PLACE(uint64_t, f64_lanes);
    else if (o->fmt == DS_F64)
        FP_KERNEL(uint64_t, DS_LANES, f64_lanes);
    else if (o->fmt == DS_F32)
        CAT(f32_op_, RUN)(o, s, io);
    else
        FP_KERNEL(uint16_t, 2 * DS_LANES, half_lanes);
}
#undef FP_IN_PLACE
#undef FP_KERNEL

/* the halves of 32 lanes into a kernel's array, and back: whole loops of
 * their own, so that they are vector loads and stores (a kernel that reads
 * halves stored one by one waits for each store) */
RUN_ATTR static inline void CAT(to_halves_, RUN)(uint16_t *restrict h, const LANE_T *restrict v, int high)
{
    if (high) /* the high half of a word (doclower.h, XO_HPAIR) */
        EACH h[l] = (uint16_t)((ULANE_T)v[l] >> 16);
    else
        EACH h[l] = (uint16_t)v[l];
}
RUN_ATTR static inline void CAT(from_halves_, RUN)(LANE_T *restrict v, const uint16_t *restrict h)
{
    EACH v[l] = (LANE_T)h[l];
}

/* two half-precision operations in one kernel call: o's lanes in halves
 * 0..31, o2's in 32..63 (doclower.h, XO_HPAIR) */
OUT_OF_LINE RUN_ATTR static void CAT(half_pair_, RUN)(const ds_op *o, const ds_op *o2, LANE_T *const *s)
{
    uint16_t a[2 * DS_LANES], b[2 * DS_LANES], c[2 * DS_LANES], d[2 * DS_LANES];
    CAT(to_halves_, RUN)(a, s[o->a], o->bk & 1);
    CAT(to_halves_, RUN)(a + DS_LANES, s[o2->a], o2->bk & 1);
    CAT(to_halves_, RUN)(b, s[o->b], o->bk & 2);
    CAT(to_halves_, RUN)(b + DS_LANES, s[o2->b], o2->bk & 2);
    if (o->width == DO_FFMA) {
        CAT(to_halves_, RUN)(c, s[o->c], o->bk & 4);
        CAT(to_halves_, RUN)(c + DS_LANES, s[o2->c], o2->bk & 4);
    } else {
        memset(c, 0, sizeof c);
    }
    ds_op op = *o;
    op.code = o->width;
    half_lanes(&op, d, a, b, c);
    CAT(from_halves_, RUN)(s[o->d], d);
    CAT(from_halves_, RUN)(s[o2->d], d + DS_LANES);
}

/* the lanes where v is not 0, as a mask: usually none (a NaN test, a
 * fault's condition), which one vectorised OR finds */
RUN_ATTR static inline uint32_t CAT(nonzero_, RUN)(const LANE_T *v)
{
    LANE_T any = 0;
    EACH any |= v[l];
    if (!any)
        return 0;
    uint8_t nz[DS_LANES];
    EACH nz[l] = v[l] != 0;
    return sim_pack_pred(nz);
}

/* the operations on the warp's other lanes and its predicate file */
COLD RUN_ATTR static void CAT(warp_, RUN)(const ds_op *o, LANE_T *const *s, ds_io *io)
{
    switch (o->code) {
    case DO_CTZ: EACH s[o->d][l] = (LANE_T)lowest_bit((ds_int)s[o->a][l]); break;
    case DO_LANE: {
        LANE_T v[DS_LANES]; /* d may be a or b */
        EACH v[l] = s[o->b][l] >= 0 && s[o->b][l] < DS_LANES ? s[o->a][(int)s[o->b][l]] : 0;
        memcpy(s[o->d], v, sizeof v);
        break;
    }
    case DO_INPFILE: EACH s[o->d][l] = io->pfile[l]; break;
    default: /* DO_OUTPFILE */
        EACH {
            io->out_pfile[l] = (uint8_t)s[o->a][l];
            io->out_pfile_we[l] = (uint8_t)s[o->b][l];
        }
        break;
    }
}

/* the lanes where v is a NaN of format fmt: usually none, which the sign
 * of e - |v| (negative for a NaN; no overflow, both are below 2^(bits-1))
 * ORed over the lanes finds */
RUN_ATTR static inline uint32_t CAT(nan_lanes_, RUN)(const LANE_T *v, int fmt)
{
    const LANE_T mag = (LANE_T)(fmts[fmt]->exp | fmts[fmt]->frac), e = (LANE_T)fmts[fmt]->exp;
    LANE_T any = 0;
    EACH any |= e - (v[l] & mag);
    if (any >= 0)
        return 0;
    uint8_t nan[DS_LANES];
    EACH nan[l] = (v[l] & mag) > e;
    return sim_pack_pred(nan);
}

/* the lanes where v is a subnormal of format fmt: |v| - 1 and frac - |v|
 * both non-negative, so the complement of their OR is negative there */
RUN_ATTR static inline uint32_t CAT(sub_lanes_, RUN)(const LANE_T *v, int fmt)
{
    const LANE_T mag = (LANE_T)(fmts[fmt]->exp | fmts[fmt]->frac), f = (LANE_T)fmts[fmt]->frac;
    LANE_T any = 0;
    EACH any |= ~(((v[l] & mag) - 1) | (f - (v[l] & mag)));
    if (any >= 0)
        return 0;
    uint8_t sub[DS_LANES];
    EACH sub[l] = (v[l] & mag) > 0 && (v[l] & mag) <= f;
    return sim_pack_pred(sub);
}

/* an output port's lanes: the low 32 bits of each lane's value */
RUN_ATTR static inline void CAT(out_lanes_, RUN)(uint32_t *restrict lo, const LANE_T *restrict v)
{
    EACH lo[l] = (uint32_t)v[l];
}

/* The operations that only read the ports or a constant (a program's
 * leading ones: doclower.h, ds_prog.run_nlead) */
RUN_ATTR static inline void CAT(lead_, RUN)(const ds_op *o, LANE_T **s, const ds_io *io)
{
    if (o->code == DO_CONST) {
        LANE_T *restrict D = s[o->d];
        const LANE_T v = (LANE_T)o->imm;
        EACH D[l] = v;
    } else if (o->code == DO_IN || o->code == DO_OLD) {
        const uint32_t *restrict lo = o->code == DO_IN ? io->lo[o->k] : io->old_lo[o->k];
        const uint32_t *restrict hi = o->code == DO_IN ? io->hi[o->k] : io->old_hi[o->k];
        if (LANE_BITS == 32 && o->d >= DS_MAX_SLOTS) { /* a port's slot (doclower.h): the lanes themselves */
            s[o->d] = (LANE_T *)lo;
            return;
        }
        LANE_T *restrict D = s[o->d];
        if (o->width == 64)
            EACH D[l] = (LANE_T)((uint64_t)hi[l] << 32 | lo[l]);
        else
            EACH D[l] = (LANE_T)lo[l];
    } else { /* DO_INPRED, DO_OLDPRED */
        const uint8_t *restrict P = o->code == DO_INPRED ? io->pred[o->k] : io->old_pred[o->k];
        LANE_T *restrict D = s[o->d];
        EACH D[l] = P[l];
    }
}

RUN_ATTR static void RUN(const ds_prog *p, ds_io *io, LANE_T **s)
{
    /* on 32-bit lanes, the output ports whose value is computed in the
     * port's own lanes (doclower.h, XS_OUT_SLOT) */
    if (LANE_BITS == 32)
        for (uint32_t m = p->run_in_place; m; m &= m - 1)
            s[XS_OUT_SLOT(__builtin_ctz(m))] = (LANE_T *)io->out_lo[__builtin_ctz(m)];
    const ds_op *const ops = p->run_ops ? p->run_ops : p->ops;
    const int nops = p->run_ops ? p->run_nops : p->nops;
    const uint32_t entry = io->mask;
    uint32_t cur = entry;
    uint32_t stack_cur[DS_MAX_DEPTH + 1], stack_else[DS_MAX_DEPTH + 1];
    int sp = 0;
    /* the leading operations in a loop of their own: no jump each */
    const int nlead = p->run_ops ? p->run_nlead : 0;
    for (int i = 0; i < nlead; i++)
        CAT(lead_, RUN)(&ops[i], s, io);
    int pc = nlead - 1;
    const ds_op *restrict o = ops; /* nothing the loop stores can change an operation */
#if DOC_THREADED
    /* each operation ends with its own jump to the next one's code (which
     * the branch predictor learns per operation, unlike one switch) */
    static const void *const next_op[XO_COUNT] = {
        [DO_CONST] = &&L_DO_CONST,
        [DO_MOV] = &&L_DO_MOV,
        [DO_STORE] = &&L_DO_STORE,
        [DO_ADD] = &&L_DO_ADD,
        [DO_SUB] = &&L_DO_SUB,
        [DO_MUL] = &&L_DO_MUL,
        [DO_DIV] = &&L_DO_DIV,
        [DO_CDIV] = &&L_DO_CDIV,
        [DO_MOD] = &&L_DO_MOD,
        [DO_AND] = &&L_DO_AND,
        [DO_OR] = &&L_DO_OR,
        [DO_XOR] = &&L_DO_XOR,
        [DO_SHL] = &&L_DO_SHL,
        [DO_SHR] = &&L_DO_SHR,
        [DO_LT] = &&L_DO_LT,
        [DO_LE] = &&L_DO_LE,
        [DO_GT] = &&L_DO_GT,
        [DO_GE] = &&L_DO_GE,
        [DO_EQ] = &&L_DO_EQ,
        [DO_NE] = &&L_DO_NE,
        [DO_MIN] = &&L_DO_MIN,
        [DO_MAX] = &&L_DO_MAX,
        [DO_LAND] = &&L_DO_LAND,
        [DO_LOR] = &&L_DO_LOR,
        [DO_NOT] = &&L_DO_NOT,
        [DO_NEG] = &&L_DO_NEG,
        [DO_LNOT] = &&L_DO_LNOT,
        [DO_ABS] = &&L_DO_ABS,
        [DO_BITS] = &&L_DO_BITS,
        [DO_SEXT] = &&L_DO_SEXT,
        [DO_INSERT] = &&L_DO_INSERT,
        [DO_SEL] = &&L_DO_SEL,
        [DO_LUT3] = &&L_DO_LUT3,
        [DO_FADD] = &&L_DO_FADD,
        [DO_FMUL] = &&L_DO_FMUL,
        [DO_FFMA] = &&L_DO_FFMA,
        [DO_FCVT] = &&L_DO_FCVT,
        [DO_FCMP] = &&L_DO_FCMP,
        [DO_FISNAN] = &&L_DO_FISNAN,
        [DO_FISSUB] = &&L_DO_FISSUB,
        [DO_FMIN] = &&L_DO_FMIN,
        [DO_FMAX] = &&L_DO_FMAX,
        [DO_IF] = &&L_DO_IF,
        [DO_ELSE] = &&L_DO_ELSE,
        [DO_ENDIF] = &&L_DO_ENDIF,
        [DO_FAULT] = &&L_DO_FAULT,
        [DO_IN] = &&L_DO_IN,
        [DO_INPRED] = &&L_DO_INPRED,
        [DO_OLD] = &&L_DO_OLD,
        [DO_OLDPRED] = &&L_DO_OLDPRED,
        [DO_OUT] = &&L_DO_OUT,
        [DO_OUTPRED] = &&L_DO_OUTPRED,
        [DO_LANEMASK] = &&L_DO_LANEMASK,
        [DO_CTZ] = &&L_DO_CTZ,
        [DO_LANE] = &&L_DO_LANE,
        [DO_INPFILE] = &&L_DO_INPFILE,
        [DO_OUTPFILE] = &&L_DO_OUTPFILE,
        [DO_RGET] = &&L_DO_RGET,
        [DO_RSET] = &&L_DO_RSET,
        [DO_COUNT] = &&L_DO_COUNT,
        [XO_IFNAN] = &&L_XO_IFNAN,
        [XO_IFNAN2] = &&L_XO_IFNAN2,
        [XO_IFSUB] = &&L_XO_IFSUB,
        [XO_NANCHAIN] = &&L_XO_NANCHAIN,
        [XO_HPAIR] = &&L_XO_HPAIR,
        [XO_PAIRED] = &&L_XO_PAIRED,
        [XO_CSTORE] = &&L_XO_CSTORE};
#define OP(code) L_##code:
#define NEXT                                                                                                   \
    do {                                                                                                       \
        if (++pc >= nops)                                                                                      \
            return;                                                                                            \
        o = &ops[pc];                                                                                          \
        goto *next_op[o->code];                                                                                \
    } while (0)
    NEXT;
    {
        {
#else
#define OP(code) case code:
#define NEXT break
    while (++pc < nops) {
        o = &ops[pc];
        switch ((int)o->code) {
#endif
        OP(DO_CONST)
        OP(DO_IN)
        OP(DO_OLD)
        OP(DO_INPRED)
        OP(DO_OLDPRED) CAT(lead_, RUN)(o, s, io); NEXT;
        OP(DO_MOV) memcpy(s[o->d], s[o->a], SLOT_BYTES); NEXT;
        OP(DO_STORE) {
            LANE_T *D = s[o->d];
            if (cur == entry) {
                if (o->bk)
                    EACH D[l] = (LANE_T)o->imm;
                else
                    memcpy(D, s[o->a], SLOT_BYTES);
            } else {
                MASKED D[l] = o->bk ? (LANE_T)o->imm : s[o->a][l];
            }
            NEXT;
        }
        OP(DO_ADD) BIN((LANE_T)((ULANE_T)x + (ULANE_T)y)); NEXT;
        OP(DO_SUB) BIN((LANE_T)((ULANE_T)x - (ULANE_T)y)); NEXT;
        OP(DO_MUL) BIN((LANE_T)((ULANE_T)x * (ULANE_T)y)); NEXT;
        OP(DO_DIV)
        OP(DO_CDIV)
        OP(DO_MOD) CAT(divide_, RUN)(o, s); NEXT;
        OP(DO_AND) BIN(x & y); NEXT;
        OP(DO_OR) BIN(x | y); NEXT;
        OP(DO_XOR) BIN(x ^ y); NEXT;
        OP(DO_SHL)
            if (o->bk && o->imm >= 0 && o->imm <= 127) { /* the usual constant shift: no range test per lane */
                const int k = (int)o->imm;
                if (k >= LANE_BITS)
                    UN(x & 0);
                else
                    UN((LANE_T)((ULANE_T)x << k));
            } else {
                BIN(y < 0 || y >= LANE_BITS ? 0 : (LANE_T)((ULANE_T)x << y));
            }
            NEXT;
        OP(DO_SHR)
            if (o->width) { /* of a value in [0, 2^width): logical (prog.h) */
                if (o->bk && o->imm >= 0 && o->imm <= 127) {
                    const int k = (int)o->imm;
                    if (k >= LANE_BITS)
                        UN(x & 0);
                    else
                        UN((LANE_T)((ULANE_T)x >> k));
                } else {
                    BIN(y < 0 || y >= LANE_BITS ? 0 : (LANE_T)((ULANE_T)x >> y));
                }
            } else if (o->bk && o->imm >= 0 && o->imm <= 127) {
                const int k = (int)(o->imm < LANE_BITS ? o->imm : LANE_BITS - 1);
                UN(x >> k);
            } else {
                BIN(y < 0 || y >= LANE_BITS ? (x < 0 ? -1 : 0) : x >> y);
            }
            NEXT;
        OP(DO_LT) BIN(x < y); NEXT;
        OP(DO_LE) BIN(x <= y); NEXT;
        OP(DO_GT) BIN(x > y); NEXT;
        OP(DO_GE) BIN(x >= y); NEXT;
        OP(DO_EQ) BIN(x == y); NEXT;
        OP(DO_NE) BIN(x != y); NEXT;
        OP(DO_MIN) BIN(x < y ? x : y); NEXT;
        OP(DO_MAX) BIN(x > y ? x : y); NEXT;
        OP(DO_LAND) BIN(x && y); NEXT;
        OP(DO_LOR) BIN(x || y); NEXT;
        OP(DO_NOT) UN(~x); NEXT;
        OP(DO_NEG) UN((LANE_T)(0 - (ULANE_T)x)); NEXT;
        OP(DO_LNOT) UN(!x); NEXT;
        OP(DO_ABS) UN(x < 0 ? (LANE_T)(0 - (ULANE_T)x) : x); NEXT;
        /* bit fields within FIELD_BITS (the lane, at most 64: the usual
         * case) take FIELD_T arithmetic, others 128-bit */
        OP(DO_BITS) {
            if (o->width > 0 && o->k + o->width <= FIELD_BITS) {
                const FIELD_T m = o->width >= FIELD_BITS ? (FIELD_T)~(FIELD_T)0 : ((FIELD_T)1 << o->width) - 1;
                const int k = o->k;
                UN((LANE_T)(((FIELD_T)x >> k) & m));
                NEXT;
            }
            const u128 m = o->width >= 128 ? ~(u128)0 : (((u128)1 << o->width) - 1);
            UN((LANE_T)(((u128)(ds_int)x >> o->k) & m));
            NEXT;
        }
        OP(DO_SEXT) {
            if (o->width <= FIELD_BITS && o->width > 0) {
                const int sh = FIELD_BITS - o->width;
                UN((LANE_T)((FIELD_S)((FIELD_T)x << sh) >> sh));
                NEXT;
            }
            const int sh = 128 - o->width;
            UN((LANE_T)((ds_int)((u128)(ds_int)x << sh) >> sh));
            NEXT;
        }
        OP(DO_INSERT) {
            if (o->width > 0 && o->k + o->width <= FIELD_BITS) {
                const int k = o->k;
                const FIELD_T m =
                    (FIELD_T)((o->width >= FIELD_BITS ? (FIELD_T)~(FIELD_T)0 : ((FIELD_T)1 << o->width) - 1) << k);
                const ULANE_T high = (ULANE_T) ~(ULANE_T)(FIELD_T)~(FIELD_T)0; /* lane bits above the field type */
                BIN_SLOTS((LANE_T)(((ULANE_T)x & high) | (((FIELD_T)x & ~m) | (((FIELD_T)y << k) & m))));
                NEXT;
            }
            const u128 m = (o->width >= 128 ? ~(u128)0 : (((u128)1 << o->width) - 1)) << o->k;
            BIN_SLOTS((LANE_T)(((u128)(ds_int)x & ~m) | (((u128)(ds_int)y << o->k) & m)));
            NEXT;
        }
        OP(DO_SEL) { /* both arms read, one kept by a mask: a vector blend */
            LANE_T *restrict D = s[o->d];
            const LANE_T *restrict A = s[o->a], *restrict B = s[o->b], *restrict C = s[o->c];
            EACH {
                const LANE_T m = (LANE_T)0 - (LANE_T)(A[l] != 0);
                D[l] = (B[l] & m) | (C[l] & ~m);
            }
            NEXT;
        }
        OP(DO_LUT3) {
            const ULANE_T m = o->width >= LANE_BITS ? (ULANE_T)~(ULANE_T)0 : (((ULANE_T)1 << o->width) - 1);
            ULANE_T t[8]; /* each minterm of the table: all ones where it is in */
            for (int k = 0; k < 8; k++)
                t[k] = (ULANE_T)0 - (ULANE_T)((o->imm >> k) & 1);
            LANE_T *restrict D = s[o->d];
            const LANE_T *restrict A = s[o->a], *restrict B = s[o->b], *restrict C = s[o->c];
            EACH {
                const ULANE_T a = (ULANE_T)A[l], b = (ULANE_T)B[l], c = (ULANE_T)C[l];
                ULANE_T r = 0;
                for (int k = 0; k < 8; k++)
                    r |= t[k] & (k & 4 ? a : ~a) & (k & 2 ? b : ~b) & (k & 1 ? c : ~c);
                D[l] = (LANE_T)(r & m);
            }
            NEXT;
        }
        OP(DO_FADD)
        OP(DO_FMUL)
        OP(DO_FFMA) CAT(fp_, RUN)(o, s, io); NEXT;
        OP(DO_FCVT) CAT(convert_, RUN)(o, s, cur); NEXT;
        /* Floating point by its bits, every format alike, lane by lane
         * without branches (the vectoriser's). The fields fit the lanes the
         * program runs on. The magnitude (sign cleared) is non-negative, so
         * it compares signed, as vector compares do: a NaN is above the
         * exponent's all ones, a subnormal in (0, frac's all ones]; the key
         * (the magnitude, negated for a negative sign) orders the values
         * that are not NaN, -0 and +0 equal. */
#define SIGNS(v) ((LANE_T)0 - (LANE_T)(((v) & sign) != 0)) /* all ones where v is negative */
#define FKEY(v) ((((v) & mag) ^ SIGNS(v)) - SIGNS(v))
        OP(DO_FISNAN) {
            const LANE_T mag = (LANE_T)(fmts[o->fmt]->exp | fmts[o->fmt]->frac), e = (LANE_T)fmts[o->fmt]->exp;
            UN((x & mag) > e ? 1 : 0);
            NEXT;
        }
        OP(DO_FISSUB) {
            const LANE_T mag = (LANE_T)(fmts[o->fmt]->exp | fmts[o->fmt]->frac), f = (LANE_T)fmts[o->fmt]->frac;
            UN((x & mag) > 0 && (x & mag) <= f ? 1 : 0);
            NEXT;
        }
        /* FCMP, FMIN and FMAX by masks (each comparison all ones or 0), so
         * that the lanes are one vector loop without branches */
        OP(DO_FCMP) { /* the mask's bit of the relation: 1 less, 2 equal, 4 greater, 8 unordered */
            const LANE_T mag = (LANE_T)(fmts[o->fmt]->exp | fmts[o->fmt]->frac), e = (LANE_T)fmts[o->fmt]->exp;
            const LANE_T sign = (LANE_T)fmts[o->fmt]->sign;
            const LANE_T lt = o->imm & 1, eq = o->imm >> 1 & 1, gt = o->imm >> 2 & 1, un = o->imm >> 3 & 1;
#define UNORDERED ((LANE_T)0 - (LANE_T)(((x & mag) > e) | ((y & mag) > e)))
#define ORDERED                                                                                                \
    (((LANE_T)(FKEY(x) < FKEY(y)) & lt) | ((LANE_T)(FKEY(x) == FKEY(y)) & eq) | ((LANE_T)(FKEY(x) > FKEY(y)) & gt))
            BIN_SLOTS((UNORDERED & un) | (~UNORDERED & ORDERED));
#undef ORDERED
#undef UNORDERED
            NEXT;
        }
        OP(DO_FMIN)
        OP(DO_FMAX) { /* a NaN gives the other operand; +0 is above -0 */
            const LANE_T mag = (LANE_T)(fmts[o->fmt]->exp | fmts[o->fmt]->frac), e = (LANE_T)fmts[o->fmt]->exp;
            const LANE_T sign = (LANE_T)fmts[o->fmt]->sign;
            const int max = o->code == DO_FMAX;
            BIN_SLOTS(((x & mag) <= e && ((y & mag) > e || (FKEY(x) == FKEY(y) ? ((x & sign) != 0) != max
                                                           : max ? FKEY(x) > FKEY(y) : FKEY(x) < FKEY(y))))
                    ? x : y);
            NEXT;
        }
#undef FKEY
#undef SIGNS
        OP(DO_IF)
        OP(XO_IFNAN)
        OP(XO_IFNAN2)
        OP(XO_IFSUB) {
            const uint32_t t = o->code == DO_IF      ? CAT(nonzero_, RUN)(s[o->a])
                               : o->code == XO_IFNAN ? CAT(nan_lanes_, RUN)(s[o->a], o->fmt)
                               : o->code == XO_IFSUB ? CAT(sub_lanes_, RUN)(s[o->a], o->fmt)
                                   : CAT(nan_lanes_, RUN)(s[o->a], o->fmt) | CAT(nan_lanes_, RUN)(s[o->b], o->fmt);
            if (o->width == XO_TO_ENDIF && !(cur & t)) {
                pc = o->k; /* past the ENDIF: nothing to pop */
            } else {
                stack_cur[sp] = cur;
                stack_else[sp++] = cur & ~t;
                cur &= t;
                if (!cur)
                    pc = o->k - 1;
            }
            NEXT;
        }
        OP(XO_HPAIR)
            CAT(half_pair_, RUN)(o, &ops[pc + 1], s);
            pc++; /* its XO_PAIRED */
            NEXT;
        OP(XO_PAIRED) NEXT;
        OP(XO_CSTORE) {
            const uint32_t t =
                (o->rnd ? CAT(sub_lanes_, RUN)(s[o->a], o->fmt) : CAT(nan_lanes_, RUN)(s[o->a], o->fmt)) & cur;
            for (uint32_t m = t; m; m &= m - 1) { /* rare: a lane at a time */
                const int l = __builtin_ctz(m);
                s[o->d][l] = o->bk == 1 ? (LANE_T)o->imm : o->bk == 2 ? s[o->b][l] & (LANE_T)o->imm : s[o->b][l];
            }
            NEXT;
        }
        OP(XO_NANCHAIN) {
            const LANE_T mag = (LANE_T)(fmts[o->fmt]->exp | fmts[o->fmt]->frac), e = (LANE_T)fmts[o->fmt]->exp;
            const uint16_t v[4] = {o->a, o->b, o->c, o->d};
            LANE_T any = 0; /* negative when a lane holds a NaN (nan_lanes_) */
            for (int i = 0; i < o->width; i++)
                EACH any |= e - (s[v[i]][l] & mag);
            if (any >= 0)
                pc = o->k;
            NEXT;
        }
        OP(DO_ELSE)
            cur = stack_else[sp - 1];
            if (!cur && o->width == XO_TO_ENDIF) {
                cur = stack_cur[--sp];
                pc = o->k;
            } else if (!cur) {
                pc = o->k - 1;
            }
            NEXT;
        OP(DO_ENDIF) cur = stack_cur[--sp]; NEXT;
        OP(DO_FAULT) {
            const uint32_t t = CAT(nonzero_, RUN)(s[o->a]) & cur;
            if (t) {
                fault_at(p, o, io, __builtin_ctz(t));
                return;
            }
            NEXT;
        }
        OP(DO_OUT) {
            uint32_t *lo = io->out_lo[o->k], *restrict hi = io->out_hi[o->k];
            const LANE_T *A = s[o->a];
            if (LANE_BITS != 32 || (const void *)A != (const void *)lo) /* else computed in place */
                CAT(out_lanes_, RUN)(lo, A);
            if (o->width == 64)
                EACH hi[l] = (uint32_t)((uint64_t)A[l] >> 32);
            NEXT;
        }
        OP(DO_OUTPRED) {
            uint8_t *restrict P = io->out_pred[o->k];
            const LANE_T *restrict A = s[o->a];
            EACH P[l] = A[l] != 0;
            NEXT;
        }
        OP(DO_LANEMASK) {
            const LANE_T m = o->k ? io->guard : io->active;
            LANE_T *restrict D = s[o->d];
            EACH D[l] = m;
            NEXT;
        }
        OP(DO_CTZ)
        OP(DO_LANE)
        OP(DO_INPFILE)
        OP(DO_OUTPFILE) CAT(warp_, RUN)(o, s, io); NEXT;
        OP(DO_RGET)
        OP(DO_RSET)
            if (CAT(indexed_, RUN)(o, s, io, cur))
                return;
            NEXT;
        OP(DO_COUNT) NEXT;
        }
    }
#undef OP
#undef NEXT
}
#undef BIN
#undef BIN_SLOTS
#undef UN
