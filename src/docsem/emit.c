/* The compiler's emitter: what statements, expressions and built-ins all
 * use and that calls none of them. Slots and operations, the constant
 * pool, fault messages, failing with a located message; variables and the
 * operands they load on first read; modifier names; integer operations
 * with their folding and guards, and conversions between the value kinds.
 * compile.c (statements) calls cexpr.c (expressions), which calls
 * builtin.c (the built-in functions); each of them calls this file, and
 * this file calls back into none of them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpconv.h"
#include "docsem/compile.h"

/* the names of the warp's masks and of the predicate file's bits */
const char *const ds_warp_names[2] = {"activeMask", "pgv"};
const char *const ds_pfile_names[8] = {"P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"};

void cc_fail(cc *c, const ds_node *at, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (at && at->loc.file)
        snprintf(c->why, c->whycap, "%s:%d:%d: %s", at->loc.file, at->loc.line, at->loc.col, msg);
    else
        snprintf(c->why, c->whycap, "%s", msg);
    longjmp(c->fail, 1);
}

int cc_slot(cc *c, const ds_node *at)
{
    if (c->p->nslots >= DS_MAX_SLOTS)
        cc_fail(c, at, "the pseudo-code needs more than %d values", DS_MAX_SLOTS);
    return c->p->nslots++;
}

static ds_op dead_op;

ds_op *cc_emit(cc *c, int code, int d)
{
    if (c->dead)
        return &dead_op;
    if (c->prologue) { /* operand loads: before any branch, so every path sees them */
        if (c->npro == MAX_PROLOGUE)
            cc_fail(c, NULL, "the pseudo-code reads too many operands");
        ds_op *o = &c->pro[c->npro++];
        memset(o, 0, sizeof *o);
        o->code = (uint8_t)code;
        o->d = (uint16_t)d;
        return o;
    }
    if (c->p->nops == c->cap) {
        int nc = c->cap ? c->cap * 2 : 64;
        ds_op *o = realloc(c->p->ops, (size_t)nc * sizeof *o);
        if (!o)
            cc_fail(c, NULL, "out of memory");
        c->p->ops = o;
        c->cap = nc;
    }
    ds_op *o = &c->p->ops[c->p->nops++];
    memset(o, 0, sizeof *o);
    o->code = (uint8_t)code;
    o->d = (uint16_t)d;
    return o;
}

int cc_fault_message(cc *c, const ds_node *at, const char *msg)
{
    if (c->dead)
        return 0; /* the fault operation is dropped too */
    char buf[300];
    if (at && at->loc.file)
        snprintf(buf, sizeof buf, "%s:%d:%d: %s", at->loc.file, at->loc.line, at->loc.col, msg);
    else
        snprintf(buf, sizeof buf, "%s", msg);
    ds_prog *p = c->p;
    const char **v = realloc(p->strings, (size_t)(p->nstrings + 1) * sizeof *v);
    if (!v)
        cc_fail(c, at, "out of memory");
    p->strings = v;
    char *m = malloc(strlen(buf) + 1);
    if (!m)
        cc_fail(c, at, "out of memory");
    memcpy(m, buf, strlen(buf) + 1);
    p->strings[p->nstrings] = m;
    return p->nstrings++;
}

cval cc_const(vty ty, ds_int k)
{
    cval v;
    memset(&v, 0, sizeof v);
    v.ty = ty;
    v.konst = 1;
    v.k = k;
    v.slot = -1;
    return v;
}

int cc_in_slot(cc *c, const cval *v, const ds_node *at)
{
    if (v->ty != V_INT && v->ty != V_BOOL && v->ty != V_FP)
        cc_fail(c, at, "this value has no single bit pattern here");
    if (!v->konst)
        return v->slot;
    /* a constant lives in the pool the program loads first, so that
     * materialising one never emits into the middle of an operation */
    for (int i = 0; i < c->nconsts; i++)
        if (c->consts[i].k == v->k)
            return c->consts[i].slot;
    if (c->nconsts == MAX_CONSTS)
        cc_fail(c, at, "the pseudo-code needs more than %d constants", MAX_CONSTS);
    int s = cc_slot(c, at);
    c->consts[c->nconsts].k = v->k;
    c->consts[c->nconsts++].slot = s;
    return s;
}

/* puts the constant pool in front of the program */
void cc_prepend_consts(cc *c)
{
    int n = c->nconsts + c->npro;
    if (!n)
        return;
    ds_prog *p = c->p;
    ds_op *o = realloc(p->ops, sizeof *o * (size_t)(p->nops + n));
    if (!o)
        cc_fail(c, NULL, "out of memory");
    memmove(o + n, o, sizeof *o * (size_t)p->nops);
    for (int i = 0; i < c->nconsts; i++) {
        memset(&o[i], 0, sizeof o[i]);
        o[i].code = DO_CONST;
        o[i].d = (uint16_t)c->consts[i].slot;
        o[i].imm = c->consts[i].k;
    }
    memcpy(o + c->nconsts, c->pro, sizeof *o * (size_t)c->npro);
    p->ops = o;
    p->nops += n;
    for (int i = n; i < p->nops; i++)
        if (o[i].code == DO_IF || o[i].code == DO_ELSE)
            o[i].k += n;
}

/* ------------------------------------------------------------------ variables */

var *cc_find_var(cc *c, const char *name)
{
    for (int i = 0; i < c->nvars; i++)
        if (!strcmp(c->vars[i].name, name))
            return &c->vars[i];
    return NULL;
}

var *cc_new_var(cc *c, const char *name)
{
    /* a fixed table: callers hold var pointers across the creation of others */
    if (!c->vars) {
        c->vars = calloc(MAX_VARS, sizeof *c->vars);
        if (!c->vars)
            cc_fail(c, NULL, "out of memory");
    }
    if (c->nvars == MAX_VARS)
        cc_fail(c, NULL, "the pseudo-code has more than %d names", MAX_VARS);
    var *v = &c->vars[c->nvars++];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->v.slot = -1;
    return v;
}

/* The operand's value as the pseudo-code sees it: read, then decorated. */
static cval load_operand(cc *c, var *v, const ds_node *at)
{
    const ds_operand *o = v->opnd;
    int w = o->pair ? 64 : 32;
    cval r;
    if (o->pfile) {
        r = cc_const(V_INT, 0);
        r.konst = 0;
        r.slot = cc_slot(c, at);
        cc_emit(c, DO_INPFILE, r.slot);
        c->p->pfile_in = 1;
        return r;
    }
    if (o->pred) {
        r = cc_const(V_BOOL, 0);
        if (o->is_const)
            r.k = o->value != 0;
        else {
            r.konst = 0;
            r.slot = cc_slot(c, at);
            ds_op *op = cc_emit(c, o->out ? DO_OLDPRED : DO_INPRED, r.slot);
            op->k = o->port;
            if (o->out)
                c->p->pred_olds |= 1u << o->port;
        }
        return r;
    }
    if (o->is_const && !o->out)
        r = cc_const(V_INT, o->is_signed ? (ds_int)(int64_t)o->value
                                         : (ds_int)(w == 64 ? o->value : (uint32_t)o->value));
    else {
        r = cc_const(V_INT, 0);
        r.konst = 0;
        r.slot = cc_slot(c, at);
        ds_op *op = cc_emit(c, o->out ? DO_OLD : DO_IN, r.slot);
        op->k = o->port;
        op->width = (uint8_t)w;
        if (o->out)
            c->p->olds |= 1u << o->port;
    }
    int any = !o->out && (o->neg || o->abs || o->inv);
    if (any && v->deco == DD_NONE)
        cc_fail(c, at, "operand %s is written with %s but no `decorate` patch says how that applies", o->name,
                o->neg ? "'-'" : o->abs ? "'|..|'" : "'~'");
    ds_int all = w == 64 ? (ds_int)UINT64_MAX : (ds_int)UINT32_MAX;
    if (any && v->deco == DD_FP) {
        ds_int sign = v->vtype == DV_H2 ? 0x80008000 : v->vtype == DV_F64 ? (ds_int)1 << 63
                     : v->vtype == DV_F32 ? 0x80000000 : 0x8000;
        if (o->abs)
            r = cc_bin_int(c, DO_AND, r, cc_const(V_INT, ~sign & all), at);
        if (o->neg)
            r = cc_bin_int(c, DO_XOR, r, cc_const(V_INT, sign), at);
    } else if (any && (v->deco == DD_ADDEND || v->deco == DD_TWOS)) {
        if (o->abs)
            cc_fail(c, at, "operand %s: |x| has no meaning under an integer decoration rule", o->name);
        if (o->inv)
            r = cc_bin_int(c, DO_XOR, r, cc_const(V_INT, all), at);
        if (o->neg) {
            r = cc_bin_int(c, DO_SUB, cc_const(V_INT, all + 1), r, at);
            if (v->deco == DD_TWOS)
                r = cc_bin_int(c, DO_AND, r, cc_const(V_INT, all), at);
        }
    }
    if (v->vtype != DV_INT && v->vtype != DV_H2) {
        r.ty = V_FP;
        r.fmt = (uint8_t)(v->vtype == DV_F16 ? DS_F16 : v->vtype == DV_BF16 ? DS_BF16
                          : v->vtype == DV_F32 ? DS_F32 : DS_F64);
    }
    return r;
}

/* P0..P6 of the predicate file: bits of the PR operand's byte; P7 is PT */
static cval load_pfile_bit(cc *c, var *v, const ds_node *at)
{
    if (v->pfile_bit == 8)
        return cc_const(V_BOOL, 1);
    var *pr = NULL;
    for (int i = 0; i < c->nvars && !pr; i++)
        if (c->vars[i].opnd && c->vars[i].opnd->pfile)
            pr = &c->vars[i];
    cval file = cc_read_var(c, pr, at);
    c->prologue = 1;
    int s = cc_slot(c, at);
    ds_op *o = cc_emit(c, DO_BITS, s);
    o->a = (uint16_t)file.slot;
    o->k = v->pfile_bit - 1;
    o->width = 1;
    c->prologue = 0;
    cval r = cc_const(V_BOOL, 0);
    r.konst = 0;
    r.slot = s;
    return r;
}

cval cc_read_var(cc *c, var *v, const ds_node *at)
{
    if (!v->set && v->pfile_bit) {
        v->v = load_pfile_bit(c, v, at);
        v->set = 1;
    }
    if (!v->set) {
        if (v->absent_out)
            cc_fail(c, at, "'%s' is read but this form of the instruction has no such operand", v->name);
        if (!v->opnd)
            cc_fail(c, at, "'%s' is read before it is given a value", v->name);
        c->prologue = 1;
        v->v = load_operand(c, v, at);
        c->prologue = 0;
        v->set = 1;
    }
    return v->v;
}

cval cc_runtime(vty ty, int slot, int fmt)
{
    cval v = cc_const(ty, 0);
    v.konst = 0;
    v.slot = slot;
    v.fmt = (uint8_t)fmt;
    return v;
}

int cc_is_regfile(cc *c, const ds_node *t)
{
    if (t->kind != N_INDEX || t->a->kind != N_NAME || strcmp(t->a->name, "R"))
        return 0;
    var *v = cc_find_var(c, "R");
    return !v || v->absent_out;
}

/* ------------------------------------------------------------------ values */

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
        cval r = cc_const(V_FP, (ds_int)bits | (neg ? cc_sign_bit(fmt) : 0));
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
    return cc_runtime(rt, d, 0);
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

cval cc_name_val(const char *name, const char *tname)
{
    cval v = cc_const(V_NAME, 0);
    v.konst = 0;
    v.name = name;
    v.tname = tname;
    return v;
}

cval cc_mod_value(cc *c, const mod_slot *s)
{
    char buf[32];
    const char *tn;
    const char *sp = slot_value(c->in, s, &tn, buf, sizeof buf);
    cval v = cc_name_val(sp, tn == buf ? sp : tn);
    v.mslot = s;
    v.mtype = s->field >= 0 ? c->in->op->fields[s->field].type : NULL;
    return v;
}

cval cc_modifier(cc *c, const ds_node *e, const char *name)
{
    const ds_insn *in = c->in;
    for (int i = 0; i < in->F->nmods; i++) {
        const mod_slot *s = &in->F->mods[i];
        if (!s->literal && s->operand < 0 && !strcmp(s->name, name))
            return cc_mod_value(c, s);
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
        cval v = cc_name_val(tn, tn);
        v.mtype = t;
        return v;
    }
    for (int i = 0; i < in->F->nmods; i++) { /* an operand's suffix (R2P's `.bsel` of Ra.bsel) */
        const mod_slot *s = &in->F->mods[i];
        if (s->operand >= 0 && !strcmp(s->name, name))
            return cc_mod_value(c, s);
    }
    if (name[0] >= 'a' && name[0] <= 'z')
        cc_fail(c, e, "unknown modifier .%s: %s has no modifier or field of that name", name, in->op->name);
    return cc_name_val(name, name);
}

