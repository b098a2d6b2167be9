/* The compiler's expressions: typing (integers, booleans, floating-point bit
 * patterns, deferred exact values, modifier names), constant folding, and
 * the operators of the language. Built-in functions are in builtin.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpconv.h"
#include "docsem/compile.h"

static const ds_int one = 1;

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
    return cc_runtime(code == DO_LNOT ? V_BOOL : V_INT, d, 0);
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
            o->imm = cc_sign_bit(v.fmt);
            v.xa = s;
            return v;
        }
        cc_fail(c, at, "the negation of an exact sum is not supported; negate its terms");
    }
    cval r = cc_bin_int(c, DO_XOR, v, cc_const(V_INT, cc_sign_bit(v.fmt)), at);
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
    return cc_runtime(V_BOOL, d, 0);
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
    cval m = cc_modifier(c, e, e->name);
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
    cval r = cc_runtime(ty, d, 0);
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
        return cc_mod_value(c, s);
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
    return cc_runtime(V_INT, d, 0);
}

/* f(args): the arguments compiled left to right, then the built-in (or a
 * truth table held by a variable) emits the operation */
static cval call(cc *c, const ds_node *e)
{
    const char *n = e->name;
    if (!n)
        cc_fail(c, e, "only a named function can be called");
    var *fv = cc_find_var(c, n);
    int table = fv && fv->set && fv->v.ty == V_FUNC;
    const cc_builtin *b = table ? NULL : cc_find_builtin(n);
    if (!table && !b)
        cc_fail(c, e, "unknown function '%s'", n);
    int lo = table ? 3 : b->min_args, hi = table ? 3 : b->max_args;
    if (e->n < lo || e->n > hi) {
        if (lo == hi)
            cc_fail(c, e, "%s takes %d argument%s, not %d", n, lo, lo == 1 ? "" : "s", e->n);
        cc_fail(c, e, "%s takes %d to %d arguments, not %d", n, lo, hi, e->n);
    }
    cval a[CC_MAX_ARGS];
    int na = 0;
    if (b && b->quotient && e->list[0]->kind == N_BIN && e->list[0]->op == '/') {
        a[na++] = cc_expr(c, e->list[0]->a);
        a[na++] = cc_expr(c, e->list[0]->b);
    } else {
        for (; na < e->n; na++)
            a[na] = cc_expr(c, e->list[na]);
    }
    if (table) {
        cval lut = fv->v;
        lut.ty = V_INT;
        lut.konst = 1;
        return cc_lut_call(c, e, lut, a);
    }
    return b->emit(c, e, n, a, na);
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
                cval m = cc_runtime(V_INT, cc_slot(c, e), 0);
                cc_emit(c, DO_LANEMASK, m.slot)->k = k;
                return m;
            }
        cc_fail(c, e, "unknown name '%s'", e->name);
    }
    case N_MOD: return cc_modifier(c, e, e->name);
    case N_MEMBER: return member(c, e);
    case N_CALL: return call(c, e);
    case N_INDEX: {
        if (cc_is_regfile(c, e)) { /* R[i]: general register i of each lane */
            cval i = cc_as_int(c, cc_expr(c, e->b), e->b);
            cval r = cc_runtime(V_INT, cc_slot(c, e), 0);
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
            cval r = cc_bin_int(c, DO_AND, a, cc_const(V_INT, ~cc_sign_bit(a.fmt)), e);
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
