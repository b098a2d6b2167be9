/* The compiler's expressions: typing (integers, booleans, floating-point bit
 * patterns, deferred exact values, modifier names), constant folding, and
 * the operators of the language. Built-in functions are in builtin.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpconv.h"
#include "docsem/compile.h"

static const ds_int one = 1;

cval cc_as_int(cc *c, cval v, const ds_node *at)
{
    switch (v.ty) {
    case V_INT: return v;
    case V_BOOL:
    case V_FP: v.ty = V_INT; return v;
    case V_REAL:
        /* an integral real within 64 bits is that integer; the cast of one
         * outside them (or of a NaN) would be undefined */
        if (v.real >= -0x1p63 && v.real < 0x1p63 && v.real == (double)(long long)v.real)
            return cc_const(V_INT, (ds_int)(long long)v.real);
        cc_fail(c, at, "the real number %s is used as an integer", v.text);
    case V_EXACT: cc_fail(c, at, "an exact floating-point value is used before it is rounded");
    case V_NAME: cc_fail(c, at, "the modifier value .%s is used as a number", v.name);
    default: cc_fail(c, at, "this is not a number");
    }
}

static cval runtime(vty ty, int slot)
{
    cval v = cc_const(ty, 0);
    v.konst = 0;
    v.slot = slot;
    return v;
}

static ds_int sign_of(int fmt) { return fmt == DS_F64 ? one << 63 : fmt == DS_F32 ? one << 31 : one << 15; }

cval cc_to_fp(cc *c, cval v, int fmt, const ds_node *at)
{
    static const fp_format ff[] = {FP_F16, FP_BF16, FP_F32, FP_F64};
    switch (v.ty) {
    case V_FP:
        if (v.fmt != fmt)
            cc_fail(c, at, "a value of one floating-point format is used as another without a conversion");
        return v;
    case V_REAL: {
        const char *t = v.text;
        int neg = 0;
        while (*t == '-' || *t == '+')
            neg ^= *t++ == '-';
        size_t n = strlen(t);
        if (n && (t[n - 1] == 'f' || t[n - 1] == 'F'))
            n--;
        uint64_t bits;
        int ovf = 0;
        if (fp_parse(t, n, ff[fmt], &bits, &ovf))
            cc_fail(c, at, "'%s' is not a real number", v.text);
        cval r = cc_const(V_FP, (ds_int)bits | (neg ? sign_of(fmt) : 0));
        r.fmt = (uint8_t)fmt;
        return r;
    }
    case V_INT:
    case V_BOOL:
        v.ty = V_FP;
        v.fmt = (uint8_t)fmt;
        return v;
    case V_EXACT: cc_fail(c, at, "an exact value needs an explicit rounding here");
    default: cc_fail(c, at, "this is not a floating-point value");
    }
}

static ds_int fold(int code, ds_int a, ds_int b)
{
    typedef unsigned __int128 u;
    switch (code) {
    case DO_ADD: return (ds_int)((u)a + (u)b);
    case DO_SUB: return (ds_int)((u)a - (u)b);
    case DO_MUL: return (ds_int)((u)a * (u)b);
    case DO_DIV: return ds_div(a, b);
    case DO_CDIV: return ds_cdiv(a, b);
    case DO_MOD: return ds_mod(a, b);
    case DO_AND: return a & b;
    case DO_OR: return a | b;
    case DO_XOR: return a ^ b;
    case DO_SHL: return b < 0 || b > 127 ? 0 : (ds_int)((u)a << b);
    case DO_SHR: return b < 0 || b > 127 ? (a < 0 ? -1 : 0) : a >> b;
    case DO_LT: return a < b;
    case DO_LE: return a <= b;
    case DO_GT: return a > b;
    case DO_GE: return a >= b;
    case DO_EQ: return a == b;
    case DO_NE: return a != b;
    case DO_MIN: return a < b ? a : b;
    case DO_MAX: return a > b ? a : b;
    case DO_LAND: return a && b;
    case DO_LOR: return a || b;
    default: return 0;
    }
}

static int is_compare(int code) { return code >= DO_LT && code <= DO_NE; }

/* A divisor of 0 and a negative shift count have no value the documents
 * could mean: the word faults, at the operator, on the first lane of the
 * mask that meets one (a constant one faults on any lane that gets there,
 * so that a branch no lane takes stays harmless). Shifts of 128 or more
 * are defined (0, or the sign for >>: the 128-bit integer shifted). */
static void guard(cc *c, int code, cval b, const ds_node *at)
{
    const int div = code == DO_DIV || code == DO_CDIV || code == DO_MOD;
    if (!div && code != DO_SHL && code != DO_SHR)
        return;
    if (b.konst && (div ? b.k != 0 : b.k >= 0))
        return;
    cval bad = b.konst ? cc_const(V_BOOL, 1) : cc_bin_int(c, div ? DO_EQ : DO_LT, b, cc_const(V_INT, 0), at);
    const int a = cc_in_slot(c, &bad, at);
    const int k = cc_fault_message(c, at, div ? "division by zero" : "negative shift count");
    ds_op *o = cc_emit(c, DO_FAULT, 0);
    o->a = (uint16_t)a;
    o->k = k;
}

cval cc_bin_int(cc *c, int code, cval a, cval b, const ds_node *at)
{
    a = cc_as_int(c, a, at);
    b = cc_as_int(c, b, at);
    guard(c, code, b, at);
    vty rt = is_compare(code) || code == DO_LAND || code == DO_LOR ? V_BOOL : V_INT;
    if (a.konst && b.konst)
        return cc_const(rt, fold(code, a.k, b.k));
    /* x mod 2^k is x & (2^k - 1) in two's complement (a 128-bit division otherwise) */
    if (code == DO_MOD && b.konst && b.k > 0 && (b.k & (b.k - 1)) == 0) {
        code = DO_AND;
        b.k -= 1;
    }
    int d = cc_slot(c, at);
    ds_op *o = cc_emit(c, code, d);
    o->a = (uint16_t)cc_in_slot(c, &a, at);
    if (b.konst) {
        o->bk = 1;
        o->imm = b.k;
    } else {
        o->b = (uint16_t)b.slot;
    }
    return runtime(rt, d);
}

static cval unary_int(cc *c, int code, cval a, const ds_node *at)
{
    a = cc_as_int(c, a, at);
    if (a.konst) {
        ds_int k = code == DO_NOT ? ~a.k : code == DO_NEG ? (ds_int)(0 - (unsigned __int128)a.k)
                   : code == DO_LNOT ? !a.k : a.k < 0 ? (ds_int)(0 - (unsigned __int128)a.k) : a.k;
        return cc_const(code == DO_LNOT ? V_BOOL : V_INT, k);
    }
    int d = cc_slot(c, at);
    cc_emit(c, code, d)->a = (uint16_t)a.slot;
    return runtime(code == DO_LNOT ? V_BOOL : V_INT, d);
}

/* ------------------------------------------------------------------ names */

static const char *slot_value(const ds_insn *in, const mod_slot *s, const char **tname, char *buf, size_t cap)
{
    if (s->field < 0) {
        const char *sp = s->def_choice >= 0 ? s->choices[s->def_choice].spell : s->name;
        *tname = sp;
        return sp;
    }
    uint64_t v = in->fields[s->field];
    const isa_field *f = &in->op->fields[s->field];
    const char *tn = type_value_name(f->type, v, buf, cap);
    *tname = tn ? tn : "?";
    for (int k = 0; k < s->nchoices; k++)
        if (s->choices[k].value == v)
            return s->choices[k].spell;
    return *tname;
}

static cval name_val(const char *name, const char *tname)
{
    cval v = cc_const(V_NAME, 0);
    v.konst = 0;
    v.name = name;
    v.tname = tname;
    return v;
}

/* the compiler keeps value names it made up in the instruction's own strings */
static const char *keep(cc *c, const char *s)
{
    /* names come from the model (stable) except type_value_name's buffer */
    (void)c;
    return s;
}

static cval modifier(cc *c, const ds_node *e, const char *name)
{
    const ds_insn *in = c->in;
    char buf[32];
    for (int i = 0; i < in->F->nmods; i++) {
        const mod_slot *s = &in->F->mods[i];
        if (s->literal || s->operand >= 0 || strcmp(s->name, name))
            continue;
        const char *tn;
        const char *sp = slot_value(in, s, &tn, buf, sizeof buf);
        cval v = name_val(keep(c, sp), tn == buf ? sp : tn);
        v.mslot = s;
        v.mtype = s->field >= 0 ? in->op->fields[s->field].type : NULL;
        return v;
    }
    int f = model_field(in->op, name);
    if (f >= 0 && in->op->fields[f].type->kind == TY_ENUM) {
        const isa_type *t = in->op->fields[f].type;
        uint64_t val = in->fields[f];
        const char *tn = NULL;
        for (int k = 0; k < t->nvalues; k++)
            if (t->values[k].value == val && !t->values[k].alias) {
                tn = t->values[k].name;
                break;
            }
        if (!tn)
            cc_fail(c, e, ".%s holds a value with no name", name);
        cval v = name_val(tn, tn);
        v.mtype = t;
        return v;
    }
    for (int i = 0; i < in->F->nmods; i++) { /* an operand's suffix (R2P's `.bsel` of Ra.bsel) */
        const mod_slot *s = &in->F->mods[i];
        if (s->operand < 0 || strcmp(s->name, name))
            continue;
        const char *tn;
        const char *sp = slot_value(in, s, &tn, buf, sizeof buf);
        cval v = name_val(sp, tn == buf ? sp : tn);
        v.mslot = s;
        v.mtype = s->field >= 0 ? in->op->fields[s->field].type : NULL;
        return v;
    }
    if (name[0] >= 'a' && name[0] <= 'z')
        cc_fail(c, e, "unknown modifier .%s: %s has no modifier or field of that name", name, in->op->name);
    return name_val(name, name);
}

static const struct {
    const char *doc, *model;
} value_alias[] = {{"EX", "X"}};

static int literal_is_value(const cval *m, const char *l)
{
    if (m->mslot)
        for (int k = 0; k < m->mslot->nchoices; k++)
            if (!strcmp(m->mslot->choices[k].spell, l))
                return 1;
    uint64_t v;
    return m->mtype && !type_value(m->mtype, l, strlen(l), &v);
}

int cc_name_eq(cc *c, const cval *a, const cval *b, const ds_node *at)
{
    if (a->ty != V_NAME || b->ty != V_NAME)
        cc_fail(c, at, "a modifier value is compared with a number");
    const cval *m = a->mslot || a->mtype ? a : b, *l = m == a ? b : a;
    if (l->mslot || l->mtype)
        return !strcmp(m->tname, l->tname);
    if (!m->mslot && !m->mtype)
        return !strcmp(m->name, l->name);
    const char *lit = l->name;
    for (size_t i = 0; i < sizeof value_alias / sizeof value_alias[0]; i++)
        if (!strcmp(lit, value_alias[i].doc))
            lit = value_alias[i].model;
    if (!literal_is_value(m, lit))
        cc_fail(c, at, "'.%s' is not a value of this modifier (it holds .%s)", l->name, m->name);
    return !strcmp(m->name, lit) || !strcmp(m->tname, lit);
}

/* ------------------------------------------------------------------ floating point */

static cval fp_bin(cc *c, int op, cval a, cval b, const ds_node *at);

static int exact_fmt(cc *c, cval *a, cval *b, const ds_node *at)
{
    int fmt = a->ty == V_FP || a->ty == V_EXACT ? a->fmt : b->fmt;
    if (a->ty == V_REAL || a->ty == V_INT)
        *a = cc_to_fp(c, *a, fmt, at);
    if (b->ty == V_REAL || b->ty == V_INT)
        *b = cc_to_fp(c, *b, fmt, at);
    if (a->fmt != b->fmt)
        cc_fail(c, at, "floating-point values of two formats meet without a conversion");
    return fmt;
}

static cval exact_of(cc *c, cval v, const ds_node *at)
{
    if (v.ty == V_EXACT)
        return v;
    cval x = v;
    x.ty = V_EXACT;
    x.x = X_VAL;
    x.xa = cc_in_slot(c, &v, at);
    x.xb = x.xc = -1;
    x.scale = 0;
    x.konst = 0;
    return x;
}

static cval fp_neg(cc *c, cval v, const ds_node *at)
{
    if (v.ty == V_EXACT) {
        if (v.x == X_VAL || v.x == X_MUL) {
            int s = cc_slot(c, at);
            ds_op *o = cc_emit(c, DO_XOR, s);
            o->a = (uint16_t)v.xa;
            o->bk = 1;
            o->imm = sign_of(v.fmt);
            v.xa = s;
            return v;
        }
        cc_fail(c, at, "the negation of an exact sum is not supported; negate its terms");
    }
    cval r = cc_bin_int(c, DO_XOR, v, cc_const(V_INT, sign_of(v.fmt)), at);
    r.ty = V_FP;
    r.fmt = v.fmt;
    return r;
}

static cval fp_bin(cc *c, int op, cval a, cval b, const ds_node *at)
{
    int fmt = exact_fmt(c, &a, &b, at);
    if (op == '-') {
        b = fp_neg(c, b, at);
        op = '+';
    }
    cval ea = exact_of(c, a, at), eb = exact_of(c, b, at);
    cval r = ea;
    r.fmt = (uint8_t)fmt;
    if (op == '*') {
        if (ea.x != X_VAL || eb.x != X_VAL || eb.scale)
            cc_fail(c, at, "only a product of two values can stay exact");
        r.x = X_MUL;
        r.xb = eb.xa;
        return r;
    }
    if (op != '+')
        cc_fail(c, at, "operator not defined on floating-point values");
    if (eb.x == X_MUL && ea.x == X_VAL && !ea.scale) {
        cval t = ea;
        ea = eb;
        eb = t;
    }
    if (eb.x != X_VAL || eb.scale)
        cc_fail(c, at, "only a product plus a value, or a sum of two values, can stay exact");
    if (ea.x == X_VAL) {
        if (ea.scale)
            cc_fail(c, at, "a scaled value can only be multiplied");
        r.x = X_ADD;
        r.xc = eb.xa;
        return r;
    }
    if (ea.x == X_MUL) {
        r = ea;
        r.x = X_FMA;
        r.xc = eb.xa;
        return r;
    }
    cc_fail(c, at, "only a product plus a value, or a sum of two values, can stay exact");
}

static int fcmp_mask(int op)
{
    switch (op) {
    case '<': return 1;
    case DT_LE: return 3;
    case '>': return 4;
    case DT_GE: return 6;
    case DT_EQ: return 2;
    case DT_NE: return 13;
    default: return 0;
    }
}

static cval fp_compare(cc *c, int mask, cval a, cval b, const ds_node *at)
{
    /* an integer literal beside a floating-point value is its real number */
    char ta[48], tb[48];
    if (a.ty == V_INT && a.konst) {
        snprintf(ta, sizeof ta, "%lld", (long long)a.k);
        a = (cval){.ty = V_REAL, .real = (double)(long long)a.k, .text = ta, .slot = -1};
    }
    if (b.ty == V_INT && b.konst) {
        snprintf(tb, sizeof tb, "%lld", (long long)b.k);
        b = (cval){.ty = V_REAL, .real = (double)(long long)b.k, .text = tb, .slot = -1};
    }
    if ((a.ty == V_INT || a.ty == V_BOOL) || (b.ty == V_INT || b.ty == V_BOOL))
        cc_fail(c, at, "an integer is compared with a floating-point value");
    int fmt = exact_fmt(c, &a, &b, at);
    if (a.ty == V_EXACT || b.ty == V_EXACT)
        cc_fail(c, at, "an exact value is compared before it is rounded");
    int d = cc_slot(c, at);
    ds_op *o = cc_emit(c, DO_FCMP, d);
    o->fmt = (uint8_t)fmt;
    o->a = (uint16_t)cc_in_slot(c, &a, at);
    o->b = (uint16_t)cc_in_slot(c, &b, at);
    o->imm = mask;
    return runtime(V_BOOL, d);
}

/* ------------------------------------------------------------------ operators */

static int int_code(int op)
{
    switch (op) {
    case '+': return DO_ADD;
    case '-': return DO_SUB;
    case '*': return DO_MUL;
    case '/': return DO_DIV;
    case '%': return DO_MOD;
    case '&': return DO_AND;
    case '|': return DO_OR;
    case '^': return DO_XOR;
    case DT_SHL: return DO_SHL;
    case DT_SHR: return DO_SHR;
    case '<': return DO_LT;
    case DT_LE: return DO_LE;
    case '>': return DO_GT;
    case DT_GE: return DO_GE;
    case DT_EQ: return DO_EQ;
    case DT_NE: return DO_NE;
    case DT_AND: return DO_LAND;
    case DT_OR: return DO_LOR;
    default: return -1;
    }
}

static int is_fpish(const cval *v) { return v->ty == V_FP || v->ty == V_EXACT; }

static cval binary(cc *c, int op, cval a, cval b, const ds_node *at)
{
    if (a.ty == V_NAME || b.ty == V_NAME) {
        if (op != DT_EQ && op != DT_NE)
            cc_fail(c, at, "a modifier value can only be compared (== or !=)");
        int eq = cc_name_eq(c, &a, &b, at);
        return cc_const(V_BOOL, op == DT_EQ ? eq : !eq);
    }
    if (op == DT_AND || op == DT_OR) {
        cval x = cc_bin_int(c, DO_NE, a, cc_const(V_INT, 0), at), y = cc_bin_int(c, DO_NE, b, cc_const(V_INT, 0), at);
        if (x.konst && !y.konst)
            return (x.k != 0) == (op == DT_OR) ? cc_const(V_BOOL, op == DT_OR) : y;
        if (y.konst && !x.konst)
            return (y.k != 0) == (op == DT_OR) ? cc_const(V_BOOL, op == DT_OR) : x;
        return cc_bin_int(c, int_code(op), x, y, at);
    }
    if (is_fpish(&a) || is_fpish(&b) || (a.ty == V_REAL && b.ty == V_REAL)) {
        int m = fcmp_mask(op);
        if (m)
            return fp_compare(c, m, a, b, at);
        if (op == '+' || op == '-' || op == '*')
            return fp_bin(c, op, a, b, at);
        /* bit operations on a pattern */
    }
    int code = int_code(op);
    if (code < 0)
        cc_fail(c, at, "unknown operator");
    return cc_bin_int(c, code, a, b, at);
}

/* a OP b where OP is a modifier's value: comparisons (FCMPOp, CompOp) and
 * boolean operators (LOPOp, BoolOp) */
static cval modop(cc *c, const ds_node *e)
{
    cval m = modifier(c, e, e->name);
    cval a = cc_expr(c, e->a), b = cc_expr(c, e->b);
    const char *n = m.tname;
    static const struct {
        const char *n;
        int mask;
    } cmp[] = {{"F", 0},    {"LT", 1},   {"EQ", 2},   {"LE", 3},   {"GT", 4},   {"NE", 5},   {"GE", 6},  {"NUM", 7},
               {"NAN", 8},  {"LTU", 9},  {"EQU", 10}, {"LEU", 11}, {"GTU", 12}, {"NEU", 13}, {"GEU", 14}, {"T", 15}};
    if (!strcmp(n, "AND") || !strcmp(n, "OR") || !strcmp(n, "XOR")) {
        int code = n[0] == 'A' ? DO_AND : n[0] == 'O' ? DO_OR : DO_XOR;
        cval x = cc_bin_int(c, DO_NE, a, cc_const(V_INT, 0), e), y = cc_bin_int(c, DO_NE, b, cc_const(V_INT, 0), e);
        cval r = cc_bin_int(c, code, x, y, e);
        r.ty = V_BOOL;
        return r;
    }
    for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
        if (strcmp(cmp[i].n, n))
            continue;
        if (is_fpish(&a) || is_fpish(&b))
            return fp_compare(c, cmp[i].mask, a, b, e);
        if (cmp[i].mask & 8)
            cc_fail(c, e, ".%s compares floating-point values only", n);
        int mk = cmp[i].mask & 7;
        static const int codes[8] = {-1, DO_LT, DO_EQ, DO_LE, DO_GT, DO_NE, DO_GE, -1};
        if (mk == 0 || mk == 7)
            return cc_const(V_BOOL, mk == 7);
        return cc_bin_int(c, codes[mk], a, b, e);
    }
    cc_fail(c, e, ".%s (= %s) is not an operator", e->name, n);
}

static cval ternary(cc *c, const ds_node *e)
{
    cval k = cc_expr(c, e->a);
    if (k.ty == V_NAME)
        cc_fail(c, e->a, "a modifier is not a condition: compare it");
    k = cc_as_int(c, k, e->a);
    cval a = cc_expr(c, e->b), b = cc_expr(c, e->c);
    if (k.konst)
        return k.k ? a : b;
    if (a.ty == V_EXACT || b.ty == V_EXACT)
        cc_fail(c, e, "a conditional cannot choose between exact values; round them first");
    vty ty = a.ty == b.ty ? a.ty : V_INT;
    int fmt = -1;
    if (a.ty == V_FP || b.ty == V_FP) {
        fmt = a.ty == V_FP ? a.fmt : b.fmt;
        a = cc_to_fp(c, a, fmt, e->b);
        b = cc_to_fp(c, b, fmt, e->c);
        ty = V_FP;
    } else if (a.ty == V_REAL || b.ty == V_REAL) {
        cc_fail(c, e, "a real literal needs a floating-point value beside it to give it a format");
    }
    if (a.ty == V_NAME || b.ty == V_NAME)
        cc_fail(c, e, "a conditional chooses between modifier values only when its condition is known");
    cval ai = cc_as_int(c, a, e->b), bi = cc_as_int(c, b, e->c);
    int d = cc_slot(c, e);
    ds_op *o = cc_emit(c, DO_SEL, d);
    o->a = (uint16_t)k.slot;
    o->b = (uint16_t)cc_in_slot(c, &ai, e->b);
    o->c = (uint16_t)cc_in_slot(c, &bi, e->c);
    cval r = runtime(ty, d);
    if (fmt >= 0)
        r.fmt = (uint8_t)fmt;
    return r;
}

/* thread(l).x: the value of x in lane l (R2UR's source lane) */
static cval other_lane(cc *c, const ds_node *e)
{
    const ds_node *call = e->a;
    if (call->n != 1)
        cc_fail(c, call, "thread takes one argument, the lane");
    cval l = cc_as_int(c, cc_expr(c, call->list[0]), call->list[0]);
    var *v = cc_find_var(c, e->name);
    if (!v)
        cc_fail(c, e, "unknown name '%s'", e->name);
    cval x = cc_read_var(c, v, e);
    if (x.ty != V_INT && x.ty != V_BOOL && x.ty != V_FP)
        cc_fail(c, e, "thread(..).%s: only a number can be read from another lane", e->name);
    if (x.konst)
        return x;
    int d = cc_slot(c, e);
    ds_op *o = cc_emit(c, DO_LANE, d);
    o->a = (uint16_t)x.slot;
    o->b = (uint16_t)cc_in_slot(c, &l, call->list[0]);
    cval r = x;
    r.slot = d;
    return r;
}

static cval member(cc *c, const ds_node *e)
{
    if (e->a->kind == N_CALL && e->a->name && !strcmp(e->a->name, "thread"))
        return other_lane(c, e);
    if (e->a->kind != N_NAME)
        cc_fail(c, e, "'.%s' of this is not defined", e->name);
    var *v = cc_find_var(c, e->a->name);
    if (!v || !v->opnd)
        cc_fail(c, e, "'%s' is not an operand, so it has no .%s", e->a->name, e->name);
    if (!strcmp(e->name, "neg") || !strcmp(e->name, "abs") || !strcmp(e->name, "inv")) {
        const ds_operand *o = v->opnd;
        return cc_const(V_BOOL, e->name[0] == 'n' ? o->neg : e->name[0] == 'a' ? o->abs : o->inv);
    }
    const syntax_form *F = c->in->F;
    for (int i = 0; i < F->nops; i++) {
        const opnd_slot *sl = &F->ops[i];
        if (strcmp(sl->name, e->a->name) || sl->sfx_slot < 0)
            continue;
        const mod_slot *s = &F->mods[sl->sfx_slot];
        if (strcmp(s->name, e->name))
            break;
        char buf[32];
        const char *tn;
        const char *sp = slot_value(c->in, s, &tn, buf, sizeof buf);
        cval r = name_val(sp, tn == buf ? sp : tn);
        r.mslot = s;
        r.mtype = s->field >= 0 ? c->in->op->fields[s->field].type : NULL;
        return r;
    }
    cc_fail(c, e, "operand %s has no suffix .%s in %s", e->a->name, e->name, F->mnemonic);
}

static cval slice(cc *c, const ds_node *e)
{
    cval v = cc_as_int(c, cc_expr(c, e->a), e->a);
    cval x = cc_as_int(c, cc_expr(c, e->b), e->b), y = cc_as_int(c, cc_expr(c, e->c), e->c);
    if (!x.konst || !y.konst)
        cc_fail(c, e, "slice bounds must be constants");
    ds_int hi = x.k > y.k ? x.k : y.k, lo = x.k > y.k ? y.k : x.k;
    if (lo < 0 || hi > 127)
        cc_fail(c, e, "slice outside bits 0..127");
    int w = (int)(hi - lo + 1);
    ds_int m = w >= 127 ? ~(ds_int)0 : ((one << w) - 1);
    if (v.konst)
        return cc_const(V_INT, (v.k >> lo) & m);
    int d = cc_slot(c, e);
    ds_op *o = cc_emit(c, DO_BITS, d);
    o->a = (uint16_t)v.slot;
    o->k = (int)lo;
    o->width = (uint8_t)w;
    return runtime(V_INT, d);
}

cval cc_expr(cc *c, const ds_node *e)
{
    switch (e->kind) {
    case N_NUM: return cc_const(V_INT, e->num);
    case N_FLT: {
        cval v = cc_const(V_REAL, 0);
        v.konst = 0;
        v.real = e->fnum;
        v.text = e->name;
        return v;
    }
    case N_STR: {
        cval v = cc_const(V_STR, 0);
        v.name = e->name;
        return v;
    }
    case N_NAME: {
        var *v = cc_find_var(c, e->name);
        if (v)
            return cc_read_var(c, v, e);
        if (!strcmp(e->name, "true") || !strcmp(e->name, "false"))
            return cc_const(V_BOOL, e->name[0] == 't');
        for (int k = 0; k < 2; k++)
            if (!strcmp(e->name, ds_warp_names[k])) { /* the warp's active lanes (0), its guarded lanes (1) */
                cval m = runtime(V_INT, cc_slot(c, e));
                cc_emit(c, DO_LANEMASK, m.slot)->k = k;
                return m;
            }
        cc_fail(c, e, "unknown name '%s'", e->name);
    }
    case N_MOD: return modifier(c, e, e->name);
    case N_MEMBER: return member(c, e);
    case N_CALL: return cc_call(c, e);
    case N_INDEX: {
        if (cc_is_regfile(c, e)) { /* R[i]: general register i of each lane */
            cval i = cc_as_int(c, cc_expr(c, e->b), e->b);
            cval r = runtime(V_INT, cc_slot(c, e));
            cc_emit(c, DO_RGET, r.slot)->a = (uint16_t)cc_in_slot(c, &i, e->b);
            return r;
        }
        if (e->a->kind != N_NAME)
            cc_fail(c, e, "only a named array can be indexed");
        cval i = cc_as_int(c, cc_expr(c, e->b), e->b);
        if (!i.konst)
            cc_fail(c, e->b, "an index must be a constant here");
        char nm[80];
        snprintf(nm, sizeof nm, "%s#%d", e->a->name, (int)i.k);
        var *v = cc_find_var(c, nm);
        if (v)
            return cc_read_var(c, v, e);
        var *base = cc_find_var(c, e->a->name);
        if (base && base->set && base->v.ty == V_ARRAY && i.k >= 0 && i.k < base->v.nelems)
            return base->v.elems[i.k];
        cc_fail(c, e, "%s[%d] has no value", e->a->name, (int)i.k);
    }
    case N_SLICE: return slice(c, e);
    case N_UN: {
        cval a = cc_expr(c, e->a);
        if (e->op == '+')
            return a;
        if (e->op == '!')
            return unary_int(c, DO_LNOT, a, e);
        if (e->op == '~')
            return unary_int(c, DO_NOT, a, e);
        if (a.ty == V_REAL) {
            size_t n = strlen(a.text) + 2;
            char *t = malloc(n); /* kept for the compile only */
            if (!t)
                cc_fail(c, e, "out of memory");
            snprintf(t, n, "-%s", a.text);
            var *hold = cc_new_var(c, t); /* freed with the variables */
            hold->owned = 1;
            a.text = t;
            a.real = -a.real;
            return a;
        }
        if (is_fpish(&a))
            return fp_neg(c, a, e);
        return unary_int(c, DO_NEG, a, e);
    }
    case N_ABS: {
        cval a = cc_expr(c, e->a);
        if (a.ty == V_FP) {
            cval r = cc_bin_int(c, DO_AND, a, cc_const(V_INT, ~sign_of(a.fmt)), e);
            r.ty = V_FP;
            r.fmt = a.fmt;
            return r;
        }
        return unary_int(c, DO_ABS, a, e);
    }
    case N_BIN: return binary(c, e->op, cc_expr(c, e->a), cc_expr(c, e->b), e);
    case N_MODOP: return modop(c, e);
    case N_TERN: return ternary(c, e);
    default: cc_fail(c, e, "not an expression");
    }
}
