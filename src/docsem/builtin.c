/* The built-in functions of the pseudo-code (docs/semantics-language.md
 * lists each with its meaning): a table of names, how many arguments each
 * takes, and the function that emits it. The arguments arrive compiled
 * (cexpr.c); those that are modifiers (.rnd, .itype) are names known when
 * the word is compiled, so the function becomes the one operation they
 * select. Nothing here compiles an expression: this file calls only the
 * emitter (emit.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docsem/compile.h"

static const ds_int one = 1;


static cval fp_arg(cc *c, const ds_node *e, const cval *a, int i)
{
    if (a[i].ty != V_FP)
        cc_fail(c, e->list[i], "%s needs a floating-point value (declare the operand's type with a `type` patch)",
                e->name);
    return a[i];
}

static const char *name_arg(cc *c, const ds_node *e, const cval *a, int i)
{
    if (a[i].ty != V_NAME)
        cc_fail(c, e->list[i], "%s needs a modifier here (.name)", e->name);
    return a[i].tname;
}

static int rnd_of(cc *c, const ds_node *e, const cval *a, int i)
{
    const char *n = name_arg(c, e, a, i);
    static const char *const r[] = {"RN", "RM", "RP", "RZ"};
    for (int k = 0; k < 4; k++)
        if (!strcmp(n, r[k]))
            return k;
    cc_fail(c, e->list[i], ".%s is not a rounding mode (RN RM RP RZ)", n);
}

static int fmt_of_name(cc *c, const ds_node *at, const char *n)
{
    static const struct {
        const char *n;
        int f;
    } f[] = {{"F16", DS_F16}, {"F16_V2", DS_F16}, {"BF16", DS_BF16}, {"BF16_V2", DS_BF16}, {"F32", DS_F32}, {"F64", DS_F64}};
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        if (!strcmp(f[k].n, n))
            return f[k].f;
    cc_fail(c, at, ".%s is not a floating-point format", n);
}

static const ds_int signmask[] = {0x8000, 0x8000, 0x80000000, one << 63};
static const int mbits[] = {10, 7, 23, 52}, ebits[] = {5, 8, 8, 11};

static cval round_to(cc *c, cval x, int fmt, int rnd, const ds_node *at)
{
    if (x.ty == V_FP && x.fmt == fmt)
        return x;
    int d = cc_slot(c, at);
    if (x.ty == V_FP) {
        ds_op *o = cc_emit(c, DO_FCVT, d);
        o->fmt = (uint8_t)fmt;
        o->rnd = (uint8_t)rnd;
        o->a = (uint16_t)cc_in_slot(c, &x, at);
        o->k = x.fmt;
        return cc_runtime(V_FP, d, fmt);
    }
    if (x.ty != V_EXACT)
        cc_fail(c, at, "only a floating-point value can be rounded");
    if (x.fmt != fmt)
        cc_fail(c, at, "an exact value of one format is rounded to another: the operands' formats must be the result's");
    static const int code[] = {[X_VAL] = -1, [X_ADD] = DO_FADD, [X_MUL] = DO_FMUL, [X_FMA] = DO_FFMA};
    ds_op *o;
    if (x.x == X_VAL) {
        if (x.scale) { /* a scaled value alone: a product by 1 */
            cval onev = cc_const(V_FP, fmt == DS_F64 ? (ds_int)0x3ff << 52 : fmt == DS_F32 ? 0x3f800000
                                       : fmt == DS_F16 ? 0x3c00 : 0x3f80);
            o = cc_emit(c, DO_FMUL, d);
            o->b = (uint16_t)cc_in_slot(c, &onev, at);
        } else {
            o = cc_emit(c, DO_MOV, d);
        }
    } else {
        o = cc_emit(c, code[x.x], d);
        o->b = (uint16_t)(x.x == X_ADD ? x.xc : x.xb);
        o->c = (uint16_t)(x.x == X_FMA ? x.xc : 0);
    }
    o->a = (uint16_t)x.xa;
    o->fmt = (uint8_t)fmt;
    o->rnd = (uint8_t)rnd;
    o->k = x.scale;
    return cc_runtime(V_FP, d, fmt);
}

static cval fp_test(cc *c, int code, cval x, const ds_node *at)
{
    int d = cc_slot(c, at);
    ds_op *o = cc_emit(c, code, d);
    o->a = (uint16_t)cc_in_slot(c, &x, at);
    o->fmt = x.fmt;
    return cc_runtime(V_BOOL, d, 0);
}

static cval as_fp(cval v, int fmt)
{
    v.ty = V_FP;
    v.fmt = (uint8_t)fmt;
    return v;
}

static cval minmax(cc *c, const ds_node *e, int is_max, cval a, cval b)
{
    if (a.ty == V_FP || b.ty == V_FP) {
        int fmt = a.ty == V_FP ? a.fmt : b.fmt;
        a = cc_to_fp(c, a, fmt, e);
        b = cc_to_fp(c, b, fmt, e);
        int d = cc_slot(c, e);
        ds_op *o = cc_emit(c, is_max ? DO_FMAX : DO_FMIN, d);
        o->a = (uint16_t)cc_in_slot(c, &a, e);
        o->b = (uint16_t)cc_in_slot(c, &b, e);
        o->fmt = (uint8_t)fmt;
        return cc_runtime(V_FP, d, fmt);
    }
    return cc_bin_int(c, is_max ? DO_MAX : DO_MIN, a, b, e);
}

/* low `w` bits of v, sign-extended when sgn */
static cval extend(cc *c, cval v, int w, int sgn, const ds_node *at)
{
    v = cc_as_int(c, v, at);
    if (!sgn)
        return cc_bin_int(c, DO_AND, v, cc_const(V_INT, (one << w) - 1), at);
    if (v.konst) {
        int sh = 128 - w;
        return cc_const(V_INT, (ds_int)((unsigned __int128)v.k << sh) >> sh);
    }
    int d = cc_slot(c, at);
    ds_op *o = cc_emit(c, DO_SEXT, d);
    o->a = (uint16_t)v.slot;
    o->width = (uint8_t)w;
    return cc_runtime(V_INT, d, 0);
}

static cval bits(cc *c, cval v, int lo, int w, const ds_node *at)
{
    v = cc_as_int(c, v, at);
    if (v.konst)
        return cc_const(V_INT, (v.k >> lo) & ((one << w) - 1));
    int d = cc_slot(c, at);
    ds_op *o = cc_emit(c, DO_BITS, d);
    o->a = (uint16_t)v.slot;
    o->k = lo;
    o->width = (uint8_t)w;
    return cc_runtime(V_INT, d, 0);
}

static cval array(cc *c, int n, const ds_node *at)
{
    cval v = cc_const(V_ARRAY, 0);
    v.konst = 0;
    v.elems = calloc((size_t)n, sizeof *v.elems);
    if (!v.elems)
        cc_fail(c, at, "out of memory");
    /* held by a hidden variable so that it is freed with the others */
    var *hold = cc_new_var(c, "\x02array");
    hold->v = v;
    v.nelems = n;
    return v;
}

static cval packed(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)n;
    int w = strstr(name, "16bit") ? 16 : 8;
    cval x = a[0];
    const char *f = name_arg(c, e, a, 1);
    int sgn = f[0] == 'S';
    if ((f[0] != 'S' && f[0] != 'U') || atoi(f + 1) != w)
        cc_fail(c, e->list[1], ".%s is not a %d-bit integer format (S%d, U%d)", f, w, w, w);
    int count = 32 / w;
    cval r = array(c, count, e);
    for (int i = 0; i < count; i++)
        r.elems[i] = extend(c, bits(c, x, i * w, w, e), w, sgn, e);
    return r;
}

/* dtype names: S2 U2 S4 U4 S8 U8 S16 U16 S32 U32 S64 U64 */
static void int_type(cc *c, const ds_node *e, const cval *a, int *w, int *sgn)
{
    const char *n = name_arg(c, e, a, 0);
    *sgn = n[0] == 'S';
    *w = atoi(n + 1);
    if ((n[0] != 'S' && n[0] != 'U') || (*w != 2 && *w != 4 && *w != 8 && *w != 16 && *w != 32 && *w != 64))
        cc_fail(c, e->list[0], ".%s is not an integer type", n);
}

/* PRMT's byte tables (ialu.isa.txt), read from Rd.b0 up: for each mode and
 * selector, the source byte of each destination byte; a selector's bit 3 in
 * .IDX replicates the byte's sign */
static const struct {
    const char *mode;
    uint8_t t[4][4];
} prmt_modes[] = {
    {"F4E", {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}},
    {"B4E", {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}},
    {"RC8", {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}},
    {"ECL", {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}},
    {"ECR", {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}},
    {"RC16", {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}},
};

/* ReadByte(.mode, sel, k, t): byte k of the result */
static cval read_byte(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    const char *mode = name_arg(c, e, a, 0);
    cval sel = cc_as_int(c, a[1], e->list[1]), k = cc_as_int(c, a[2], e->list[2]);
    cval t = cc_as_int(c, a[3], e->list[3]);
    if (!k.konst || k.k < 0 || k.k > 3)
        cc_fail(c, e->list[2], "ReadByte's byte index must be a constant 0..3");
    cval nib;
    if (!strcmp(mode, "IDX")) {
        nib = cc_bin_int(c, DO_AND, sel, cc_const(V_INT, 15), e);
    } else {
        size_t m;
        for (m = 0; m < sizeof prmt_modes / sizeof prmt_modes[0]; m++)
            if (!strcmp(prmt_modes[m].mode, mode))
                break;
        if (m == sizeof prmt_modes / sizeof prmt_modes[0])
            cc_fail(c, e->list[0], ".%s is not a PRMT mode", mode);
        /* the four selectors' source bytes packed 4 bits apart: a shift picks one */
        ds_int packedt = 0;
        for (int s = 0; s < 4; s++)
            packedt |= (ds_int)prmt_modes[m].t[s][k.k] << (4 * s);
        cval sh = cc_bin_int(c, DO_SHL, cc_bin_int(c, DO_AND, sel, cc_const(V_INT, 3), e), cc_const(V_INT, 2), e);
        nib = cc_bin_int(c, DO_AND, cc_bin_int(c, DO_SHR, cc_const(V_INT, packedt), sh, e), cc_const(V_INT, 15), e);
    }
    cval pos = cc_bin_int(c, DO_SHL, cc_bin_int(c, DO_AND, nib, cc_const(V_INT, 7), e), cc_const(V_INT, 3), e);
    cval byte = cc_bin_int(c, DO_AND, cc_bin_int(c, DO_SHR, t, pos, e), cc_const(V_INT, 255), e);
    cval rep = cc_bin_int(c, DO_NE, cc_bin_int(c, DO_AND, nib, cc_const(V_INT, 8), e), cc_const(V_INT, 0), e);
    cval sgnb = cc_bin_int(c, DO_MUL, cc_bin_int(c, DO_SHR, byte, cc_const(V_INT, 7), e), cc_const(V_INT, 255), e);
    if (rep.konst)
        return rep.k ? sgnb : byte;
    int d = cc_slot(c, e);
    ds_op *o = cc_emit(c, DO_SEL, d);
    o->a = (uint16_t)rep.slot;
    o->b = (uint16_t)cc_in_slot(c, &sgnb, e);
    o->c = (uint16_t)cc_in_slot(c, &byte, e);
    return cc_runtime(V_INT, d, 0);
}

cval cc_lut_call(cc *c, const ds_node *e, cval f, const cval *args)
{
    cval a = args[0], b = args[1], x = args[2];
    int w = a.ty == V_BOOL && b.ty == V_BOOL && x.ty == V_BOOL ? 1 : 32;
    a = cc_as_int(c, a, e);
    b = cc_as_int(c, b, e);
    x = cc_as_int(c, x, e);
    cval lut = cc_as_int(c, f, e);
    if (!lut.konst)
        cc_fail(c, e, "a truth table must be known when the instruction is compiled");
    int d = cc_slot(c, e);
    ds_op *o = cc_emit(c, DO_LUT3, d);
    o->a = (uint16_t)cc_in_slot(c, &a, e);
    o->b = (uint16_t)cc_in_slot(c, &b, e);
    o->c = (uint16_t)cc_in_slot(c, &x, e);
    o->imm = lut.k & 0xff;
    o->width = (uint8_t)w;
    return cc_runtime(w == 1 ? V_BOOL : V_INT, d, 0);
}

/* The format of the packed halves: the modifier a `type H2(modifier)` patch names */
static ds_vtype h2_fmt(cc *c, const ds_node *at)
{
    for (int d = 0; d < c->sem->ndecls; d++)
        if (c->sem->decls[d].type == DV_H2 && c->sem->decls[d].fmtmod) {
            cval m = cc_modifier(c, at, c->sem->decls[d].fmtmod);
            if (m.ty != V_NAME)
                break;
            return fmt_of_name(c, at, m.tname) == DS_BF16 ? DV_BF16 : DV_F16;
        }
    cc_fail(c, at, "packed halves need a `type H2(modifier)` patch naming their format's modifier");
}

/* ------------------------------------------------------------ the functions */

static cval b_fp_test(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)n;
    return fp_test(c, name[2] == 'S' ? DO_FISSUB : DO_FISNAN, fp_arg(c, e, a, 0), e);
}

static cval b_sign_zero(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval x = fp_arg(c, e, a, 0);
    return as_fp(cc_bin_int(c, DO_AND, x, cc_const(V_INT, signmask[x.fmt]), e), x.fmt);
}

static cval b_qnan(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval x = fp_arg(c, e, a, 0);
    return as_fp(cc_bin_int(c, DO_OR, x, cc_const(V_INT, one << (mbits[x.fmt] - 1)), e), x.fmt);
}

/* roundToF32(x, .rnd) and the other formats: the format in the name */
static cval b_round_to(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)n;
    return round_to(c, a[0], fmt_of_name(c, e, name + 7), rnd_of(c, e, a, 1), e);
}

static cval b_round(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    int rnd = rnd_of(c, e, a, 1);
    return round_to(c, a[0], fmt_of_name(c, e->list[2], name_arg(c, e, a, 2)), rnd, e);
}

static cval b_scale(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval x = fp_arg(c, e, a, 0);
    const char *s = name_arg(c, e, a, 1);
    static const struct {
        const char *n;
        int k;
    } sc[] = {{"NoScale", 0}, {"D2", -1}, {"D4", -2}, {"D8", -3}, {"M2", 1}, {"M4", 2}, {"M8", 3}};
    for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++)
        if (!strcmp(sc[i].n, s)) {
            cval r = x;
            r.ty = V_EXACT;
            r.x = X_VAL;
            r.xa = cc_in_slot(c, &x, e);
            r.xb = r.xc = -1;
            r.scale = sc[i].k;
            r.konst = 0;
            return r;
        }
    cc_fail(c, e->list[1], ".%s is not a scale (D2 D4 D8 M2 M4 M8)", s);
}

static cval b_minmax(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)n;
    return minmax(c, e, name[1] == 'a', a[0], a[1]);
}

static cval b_clamp(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    return minmax(c, e, 0, minmax(c, e, 1, a[0], a[1]), a[2]);
}

static cval b_mod(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval m = cc_as_int(c, a[1], e->list[1]);
    if (!m.konst || m.k <= 0)
        cc_fail(c, e->list[1], "mod needs a positive constant modulus");
    return cc_bin_int(c, DO_MOD, a[0], m, e);
}

/* ceil(x / y) and floor(x / y) divide rounding up or down; of one value,
 * its integer */
static cval b_ceil_floor(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    if (n == 2)
        return cc_bin_int(c, name[0] == 'c' ? DO_CDIV : DO_DIV, a[0], a[1], e);
    return cc_as_int(c, a[0], e);
}

/* INT8 .. UINT64: the width and signedness in the name */
static cval b_cast(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)n;
    int sgn = name[0] == 'I';
    return extend(c, a[0], atoi(name + (sgn ? 3 : 4)), sgn, e);
}

static cval b_sign_extend64(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    return extend(c, a[0], 32, 1, e);
}

static cval b_unbiased_exp(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval x = fp_arg(c, e, a, 0);
    int bias = (1 << (ebits[x.fmt] - 1)) - 1;
    return cc_bin_int(c, DO_SUB, bits(c, x, mbits[x.fmt], ebits[x.fmt], e), cc_const(V_INT, bias), e);
}

static cval b_choose_input(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval x = cc_as_int(c, a[0], e->list[0]);
    cval i = cc_as_int(c, a[1], e->list[1]);
    const char *sel = name_arg(c, e, a, 2);
    if (!i.konst || (i.k != 0 && i.k != 1))
        cc_fail(c, e->list[1], "chooseInput's lane must be a constant 0 or 1");
    int half = !strcmp(sel, "H1_H0") ? (int)i.k : !strcmp(sel, "H0_H0") ? 0 : !strcmp(sel, "H1_H1") ? 1 : -1;
    if (half < 0)
        cc_fail(c, e->list[2], ".%s is not a half selection (H1_H0 H0_H0 H1_H1)", sel);
    int fmt = h2_fmt(c, e) == DV_BF16 ? DS_BF16 : DS_F16;
    return as_fp(bits(c, x, 16 * half, 16, e), fmt);
}

static cval b_function_table(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval t = cc_as_int(c, a[0], e->list[0]);
    t.ty = V_FUNC;
    return t;
}

static cval b_funnel_shift(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval t = a[0], s = a[1];
    const char *ty = name_arg(c, e, a, 2);
    if (ty[0] == 'S') /* the funnel as a signed 64-bit value */
        t = extend(c, t, 64, 1, e);
    return cc_bin_int(c, DO_SHR, t, cc_bin_int(c, DO_MIN, s, cc_const(V_INT, 127), e), e);
}

/* argument i is bit i */
static cval b_pack_preds(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name;
    cval r = cc_const(V_INT, 0);
    for (int i = 0; i < n; i++) {
        cval b = cc_bin_int(c, DO_NE, a[i], cc_const(V_INT, 0), e->list[i]);
        r = cc_bin_int(c, DO_OR, r, cc_bin_int(c, DO_SHL, b, cc_const(V_INT, i), e), e);
    }
    return r;
}

static cval b_unpack_bits(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name, (void)n;
    cval r = array(c, 8, e);
    for (int i = 0; i < 8; i++) {
        r.elems[i] = bits(c, a[0], i, 1, e);
        r.elems[i].ty = V_BOOL;
    }
    return r;
}

/* the lowest lane in every mask, -1 when none */
static cval b_pick_lane(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name;
    cval m = cc_const(V_INT, 0xffffffff);
    for (int i = 0; i < n; i++)
        m = cc_bin_int(c, DO_AND, m, a[i], e->list[i]);
    if (m.konst)
        return cc_const(V_INT, m.k ? __builtin_ctzll((unsigned long long)m.k) : -1);
    int d = cc_slot(c, e);
    cc_emit(c, DO_CTZ, d)->a = (uint16_t)m.slot;
    return cc_runtime(V_INT, d, 0);
}

/* MIN(.type), MAX(.type), sizeInBitsOf(.type) */
static cval b_type_limit(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)n;
    int w, sgn;
    int_type(c, e, a, &w, &sgn);
    if (name[0] == 's')
        return cc_const(V_INT, w);
    if (name[1] == 'I')
        return cc_const(V_INT, sgn ? -(one << (w - 1)) : 0);
    return cc_const(V_INT, sgn ? (one << (w - 1)) - 1 : (one << w) - 1);
}

static cval b_assert(cc *c, const ds_node *e, const char *name, const cval *a, int n)
{
    (void)name;
    cval k = cc_as_int(c, a[0], e->list[0]);
    const char *msg = n == 2 && a[1].ty == V_STR ? a[1].name : "assertion failed";
    if (!k.konst)
        cc_fail(c, e, "assert needs a condition known when the instruction is compiled");
    if (!k.k)
        cc_fail(c, e, "%s", msg);
    return cc_const(V_VOID, 0);
}

static const cc_builtin builtins[] = {
    {"isSubnormal", 1, 1, 0, b_fp_test},
    {"isNAN", 1, 1, 0, b_fp_test},
    {"signZero", 1, 1, 0, b_sign_zero},
    {"QNAN", 1, 1, 0, b_qnan},
    {"roundToF32", 2, 2, 0, b_round_to},
    {"roundToF64", 2, 2, 0, b_round_to},
    {"roundToF16", 2, 2, 0, b_round_to},
    {"roundToBF16", 2, 2, 0, b_round_to},
    {"round", 3, 3, 0, b_round},
    {"scale", 2, 2, 0, b_scale},
    {"min", 2, 2, 0, b_minmax},
    {"max", 2, 2, 0, b_minmax},
    {"clamp", 3, 3, 0, b_clamp},
    {"mod", 2, 2, 0, b_mod},
    {"ceil", 1, 1, 1, b_ceil_floor},
    {"floor", 1, 1, 1, b_ceil_floor},
    {"INT8", 1, 1, 0, b_cast},
    {"UINT8", 1, 1, 0, b_cast},
    {"INT16", 1, 1, 0, b_cast},
    {"UINT16", 1, 1, 0, b_cast},
    {"INT32", 1, 1, 0, b_cast},
    {"UINT32", 1, 1, 0, b_cast},
    {"INT64", 1, 1, 0, b_cast},
    {"UINT64", 1, 1, 0, b_cast},
    {"signExtendTo64bit", 1, 1, 0, b_sign_extend64},
    {"extractUnbiasedExp", 1, 1, 0, b_unbiased_exp},
    {"chooseInput", 3, 3, 0, b_choose_input},
    {"extractAndExtendPacked16bit", 2, 2, 0, packed},
    {"extractAndExtendPacked8bit", 2, 2, 0, packed},
    {"getFunctionFromTable", 1, 1, 0, b_function_table},
    {"signOrZeroExtendShiftRight", 3, 3, 0, b_funnel_shift},
    {"ReadByte", 4, 4, 0, read_byte},
    {"packPred2Byte", 1, 8, 0, b_pack_preds},
    {"unpackByte2Bits", 1, 1, 0, b_unpack_bits},
    {"pickLane", 1, CC_MAX_ARGS, 0, b_pick_lane},
    {"MIN", 1, 1, 0, b_type_limit},
    {"MAX", 1, 1, 0, b_type_limit},
    {"sizeInBitsOf", 1, 1, 0, b_type_limit},
    {"assert", 1, 2, 0, b_assert},
};
_Static_assert(8 <= CC_MAX_ARGS, "packPred2Byte's eight predicates");

const cc_builtin *cc_find_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (!strcmp(builtins[i].name, name))
            return &builtins[i];
    return NULL;
}
