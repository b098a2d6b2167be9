/* The compiler: one instruction word's variant of the pseudo-code into a
 * lane-vector program (prog.h). Everything the word fixes is folded here:
 * modifiers and operand decorations are constants, branches on them vanish,
 * loops with constant bounds are unrolled, and variables holding constants
 * take no slot. What is left depends on lane values only.
 *
 * Variables at the top level are bindings (x = e names e's slot, no copy).
 * A branch on lane values is a region: every variable it assigns first gets
 * a slot of its own, and inside it assignments are masked stores into that
 * slot, so lanes that do not take the branch keep their values. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docsem/compile.h"

/* The slots a value occupies (an exact value has up to three). */
static int value_slots(const cval *v, int *s)
{
    if (v->ty == V_EXACT) {
        s[0] = v->xa;
        s[1] = v->xb;
        s[2] = v->xc;
        return 3;
    }
    s[0] = v->slot;
    return 1;
}

/* Gives v a slot of its own holding its value, for masked stores. */
static void privatize(cc *c, var *v, const ds_node *at)
{
    if (v->private_ || v->absent_out)
        return;
    if (!v->set && !v->opnd && !v->pfile_bit) /* first given a value inside the region */
        return;
    cval val = cc_read_var(c, v, at);
    if (val.ty == V_ARRAY || val.ty == V_NAME || val.ty == V_FUNC || val.ty == V_REAL || val.ty == V_STR)
        cc_fail(c, at, "'%s' cannot change inside a branch on lane values", v->name);
    if (val.ty == V_EXACT) {
        int s[3];
        value_slots(&val, s);
        for (int i = 0; i < 3; i++) {
            int n = cc_slot(c, at);
            if (s[i] >= 0) {
                ds_op *o = cc_emit(c, DO_MOV, n);
                o->a = (uint16_t)s[i];
            }
            s[i] = n;
        }
        val.xa = s[0];
        val.xb = s[1];
        val.xc = s[2];
    } else {
        int n = cc_slot(c, at);
        if (val.konst)
            cc_emit(c, DO_CONST, n)->imm = val.k;
        else
            cc_emit(c, DO_MOV, n)->a = (uint16_t)val.slot;
        val.konst = 0;
        val.slot = n;
    }
    v->v = val;
    v->private_ = 1;
}

/* wraps an integer to the variable's declared type */
static cval wrap(cc *c, var *v, cval val, const ds_node *at)
{
    if (!v->width || (val.ty != V_INT && val.ty != V_BOOL))
        return val;
    val = cc_as_int(c, val, at);
    if (v->is_signed) {
        if (val.konst) {
            int sh = 128 - v->width;
            val.k = (ds_int)((unsigned __int128)val.k << sh) >> sh;
            return val;
        }
        int s = cc_slot(c, at);
        ds_op *o = cc_emit(c, DO_SEXT, s);
        o->a = (uint16_t)val.slot;
        o->width = (uint8_t)v->width;
        val.slot = s;
        return val;
    }
    ds_int m = v->width >= 127 ? ~(ds_int)0 : (((ds_int)1 << v->width) - 1);
    return cc_bin_int(c, DO_AND, val, cc_const(V_INT, m), at);
}

static void store_slot(cc *c, int dst, const cval *val, int src, const ds_node *at)
{
    ds_op *o = cc_emit(c, DO_STORE, dst);
    if (val && val->konst) {
        o->bk = 1;
        o->imm = val->k;
    } else {
        o->a = (uint16_t)src;
    }
    (void)at;
}

/* A predicate of the file is written only on the lanes that assign it (R2P
 * writes the predicates its mask selects): a slot of lanes written so far,
 * 0 before the program, 1 stored under the current mask at each assignment. */
static void pfile_written(cc *c, var *v, const ds_node *at)
{
    if (c->dead)
        return;
    if (!v->pfile_we) {
        int s = cc_slot(c, at);
        c->prologue = 1;
        cc_emit(c, DO_CONST, s)->imm = 0;
        c->prologue = 0;
        v->pfile_we = s + 1;
    }
    ds_op *o = cc_emit(c, DO_STORE, v->pfile_we - 1);
    o->bk = 1;
    o->imm = 1;
}

static void assign(cc *c, var *v, cval val, const ds_node *at)
{
    if (v->absent_out || v->pfile_bit == 8) /* PT stays true */
        return;
    if (v->pfile_bit)
        pfile_written(c, v, at);
    if (val.ty == V_VOID || val.ty == V_STR)
        cc_fail(c, at, "this has no value to assign to '%s'", v->name);
    if (v->set || v->opnd || v->fp_decl) {
        cval cur = v->set ? v->v : cc_const(V_INT, 0);
        int fmt = v->fp_decl ? v->fp_decl - 1 : cur.ty == V_FP ? cur.fmt : -1;
        if (v->opnd && !v->set && v->vtype != DV_INT && v->vtype != DV_H2)
            fmt = v->vtype == DV_F16 ? DS_F16 : v->vtype == DV_BF16 ? DS_BF16 : v->vtype == DV_F32 ? DS_F32 : DS_F64;
        if (fmt >= 0 && val.ty == V_EXACT)
            cc_fail(c, at, "an exact result is assigned to %s without a rounding (roundToF32/F64/F16/BF16, round)",
                    v->name);
        if (fmt >= 0)
            val = cc_to_fp(c, val, fmt, at);
        else if (val.ty == V_FP && v->set && cur.ty != V_FP)
            val = cc_as_int(c, val, at);
    }
    if (val.ty == V_REAL)
        cc_fail(c, at, "a real number is assigned to '%s', which has no floating-point format", v->name);
    val = wrap(c, v, val, at);
    if (c->rt == 0) {
        v->v = val;
        v->set = 1;
        v->private_ = 0;
        return;
    }
    /* inside a region: a masked store into the variable's own slots */
    if (val.ty == V_ARRAY || val.ty == V_NAME || val.ty == V_FUNC)
        cc_fail(c, at, "'%s' cannot be given this kind of value inside a branch on lane values", v->name);
    if (!v->set) {
        cval nv = val;
        if (val.ty == V_EXACT) {
            nv.xa = cc_slot(c, at);
            nv.xb = cc_slot(c, at);
            nv.xc = cc_slot(c, at);
        } else {
            nv.konst = 0;
            nv.slot = cc_slot(c, at);
        }
        v->v = nv;
        v->set = 1;
        v->private_ = 1;
    }
    if (!v->private_)
        privatize(c, v, at);
    if (val.ty == V_EXACT || v->v.ty == V_EXACT) {
        if (val.ty != V_EXACT || v->v.ty != V_EXACT || val.x != v->v.x || val.scale != v->v.scale ||
            val.fmt != v->v.fmt)
            cc_fail(c, at, "'%s' takes exact values of different forms in different branches", v->name);
        int d[3], s[3];
        value_slots(&v->v, d);
        value_slots(&val, s);
        for (int i = 0; i < 3; i++)
            if (s[i] >= 0 && d[i] >= 0)
                store_slot(c, d[i], NULL, s[i], at);
        return;
    }
    if (val.ty == V_FP && v->v.ty != V_FP) {
        v->v.ty = V_FP;
        v->v.fmt = val.fmt;
    }
    store_slot(c, v->v.slot, &val, val.slot, at);
}

/* ------------------------------------------------------------------ statements */

static void stmt(cc *c, const ds_node *s);

/* Names a statement tree assigns (its targets' base variables). */
static void assigned_names(const ds_node *s, const char **out, int *n, int cap)
{
    if (!s)
        return;
    if (s->kind == S_ASSIGN || s->kind == S_MULTI) {
        for (int i = 0; i < s->n; i++) {
            const ds_node *t = s->list[i];
            while (t->kind == N_INDEX || t->kind == N_SLICE)
                t = t->a;
            if (t->kind == N_NAME && *n < cap)
                out[(*n)++] = t->name;
        }
    } else if (s->kind == S_DECL && *n < cap) {
        out[(*n)++] = s->name;
    }
    if (s->kind >= S_ASSIGN) {
        assigned_names(s->b, out, n, cap);
        assigned_names(s->c, out, n, cap);
        assigned_names(s->d, out, n, cap);
        if (s->kind != S_ASSIGN && s->kind != S_MULTI)
            for (int i = 0; i < s->n; i++)
                assigned_names(s->list[i], out, n, cap);
    }
}

static void enter_region(cc *c, const ds_node *a, const ds_node *b)
{
    if (c->rt++ > 0)
        return;
    const char *names[128];
    int n = 0;
    assigned_names(a, names, &n, 128);
    assigned_names(b, names, &n, 128);
    for (int i = 0; i < n; i++) {
        var *v = cc_find_var(c, names[i]);
        if (v)
            privatize(c, v, a);
    }
}

static void leave_region(cc *c)
{
    if (--c->rt == 0)
        for (int i = 0; i < c->nvars; i++)
            c->vars[i].private_ = 0;
}

/* a[i]: the element variable "a#i" */
static var *element(cc *c, const ds_node *t, int create)
{
    cval i = cc_expr(c, t->b);
    i = cc_as_int(c, i, t->b);
    if (!i.konst)
        cc_fail(c, t->b, "an index must be a constant here");
    if (t->a->kind != N_NAME)
        cc_fail(c, t, "only a named array can be indexed");
    if (i.k < 0 || i.k >= MAX_ELEMS)
        cc_fail(c, t->b, "index %d is outside 0..%d", (int)i.k, MAX_ELEMS - 1);
    char nm[80];
    snprintf(nm, sizeof nm, "%s#%d", t->a->name, (int)i.k);
    var *v = cc_find_var(c, nm);
    if (!v) {
        var *base = cc_find_var(c, t->a->name);
        if (base && base->set && base->v.ty == V_ARRAY) {
            if (i.k >= base->v.nelems)
                cc_fail(c, t->b, "index %d is outside %s[0..%d]", (int)i.k, t->a->name, base->v.nelems - 1);
        } else if (!create) {
            cc_fail(c, t, "'%s' is not an array with a value at [%d]", t->a->name, (int)i.k);
        }
        size_t len = strlen(nm) + 1;
        char *keep = malloc(len);
        if (!keep)
            cc_fail(c, t, "out of memory");
        memcpy(keep, nm, len);
        v = cc_new_var(c, keep);
        v->owned = 1;
        if (base && base->set && base->v.ty == V_ARRAY) {
            v->v = base->v.elems[i.k];
            v->set = 1;
        }
    }
    return v;
}

/* Bit range of a slice: both orders as the documents write them. */
static void slice_range(cc *c, const ds_node *t, int *lo, int *w)
{
    cval a = cc_as_int(c, cc_expr(c, t->b), t->b), b = cc_as_int(c, cc_expr(c, t->c), t->c);
    if (!a.konst || !b.konst)
        cc_fail(c, t, "slice bounds must be constants");
    ds_int hi = a.k > b.k ? a.k : b.k, l = a.k > b.k ? b.k : a.k;
    if (l < 0 || hi > 127)
        cc_fail(c, t, "slice [%d:%d] is outside bits 0..127", (int)a.k, (int)b.k);
    *lo = (int)l;
    *w = (int)(hi - l + 1);
}

static var *target_var(cc *c, const ds_node *t)
{
    if (t->kind == N_INDEX)
        return element(c, t, 1);
    if (t->kind != N_NAME)
        cc_fail(c, t, "this cannot be assigned to");
    var *v = cc_find_var(c, t->name);
    if (!v)
        v = cc_new_var(c, t->name);
    return v;
}

/* R[i] = val: general register i of each lane, written after the program */
static void assign_regfile(cc *c, const ds_node *t, cval val, const ds_node *at)
{
    if (c->rsets++)
        cc_fail(c, t, "an instruction writes at most one register by index (R[i] = ...)");
    cval i = cc_as_int(c, cc_expr(c, t->b), t->b);
    val = cc_as_int(c, val, at);
    ds_op *o = cc_emit(c, DO_RSET, 0);
    o->a = (uint16_t)cc_in_slot(c, &i, t->b);
    o->b = (uint16_t)cc_in_slot(c, &val, at);
    c->p->rset = 1;
}

/* target = val, for a name, an element or a slice of either */
static void assign_to(cc *c, const ds_node *t, cval val, const ds_node *at)
{
    if (cc_is_regfile(c, t)) {
        assign_regfile(c, t, val, at);
        return;
    }
    if (t->kind == N_SLICE) {
        var *v = target_var(c, t->a);
        int lo, w;
        slice_range(c, t, &lo, &w);
        cval cur = v->set || v->opnd ? cc_read_var(c, v, t) : cc_const(V_INT, 0);
        int keep_fp = cur.ty == V_FP, fmt = cur.fmt;
        cval ci = cc_as_int(c, cur, t), vi = cc_as_int(c, val, at);
        cval r;
        ds_int m = w >= 127 ? ~(ds_int)0 : (((ds_int)1 << w) - 1);
        if (ci.konst && vi.konst) {
            r = cc_const(V_INT, (ci.k & ~(m << lo)) | ((vi.k & m) << lo));
        } else {
            r = cc_const(V_INT, 0);
            r.konst = 0;
            r.slot = cc_slot(c, t);
            ds_op *o = cc_emit(c, DO_INSERT, r.slot);
            o->a = (uint16_t)cc_in_slot(c, &ci, t);
            o->b = (uint16_t)cc_in_slot(c, &vi, at);
            o->k = lo;
            o->width = (uint8_t)w;
        }
        if (keep_fp) {
            r.ty = V_FP;
            r.fmt = (uint8_t)fmt;
        }
        assign(c, v, r, at);
        return;
    }
    assign(c, target_var(c, t), val, at);
}

static cval compound(cc *c, int op, cval cur, cval val, const ds_node *at)
{
    static const struct {
        int op, code;
    } map[] = {{DT_ADDEQ, '+'}, {DT_SUBEQ, '-'}, {DT_MULEQ, '*'}, {DT_OREQ, '|'},
               {DT_ANDEQ, '&'}, {DT_XOREQ, '^'}, {DT_SHLEQ, DT_SHL}, {DT_SHREQ, DT_SHR}};
    ds_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.kind = N_BIN;
    tmp.loc = at->loc;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].op == op)
            tmp.op = map[i].code;
    /* evaluate through the expression compiler with both sides known */
    ds_node a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.kind = b.kind = N_NAME;
    a.name = "\x01lhs";
    b.name = "\x01rhs";
    a.loc = b.loc = at->loc;
    var *va = cc_new_var(c, a.name), *vb = cc_new_var(c, b.name);
    va->v = cur;
    va->set = 1;
    vb->v = val;
    vb->set = 1;
    tmp.a = &a;
    tmp.b = &b;
    cval r = cc_expr(c, &tmp);
    c->nvars -= 2;
    return r;
}

static void s_assign(cc *c, const ds_node *s)
{
    if (s->op == DT_INC || s->op == DT_DEC) {
        const ds_node *t = s->list[0];
        cval cur = cc_expr(c, t);
        assign_to(c, t, compound(c, s->op == DT_INC ? DT_ADDEQ : DT_SUBEQ, cur, cc_const(V_INT, 1), s), s);
        return;
    }
    cval val = cc_expr(c, s->a);
    if (s->op != '=') {
        cval cur = cc_expr(c, s->list[0]);
        assign_to(c, s->list[0], compound(c, s->op, cur, val, s), s);
        return;
    }
    for (int i = s->n - 1; i >= 0; i--)
        assign_to(c, s->list[i], val, s);
}

static int decl_type(const char *t, int *width, int *sgn, int *fp)
{
    static const struct {
        const char *n;
        int w, s, fp;
    } tt[] = {{"UINT64", 64, 0, 0}, {"INT64", 64, 1, 0}, {"UINT32", 32, 0, 0}, {"INT32", 32, 1, 0},
              {"UINT16", 16, 0, 0}, {"INT16", 16, 1, 0}, {"UINT8", 8, 0, 0},   {"INT8", 8, 1, 0},
              {"UINT128", 127, 0, 0}, {"INT128", 0, 1, 0}, {"BOOL", 0, 0, 0},  {"F16", 0, 0, DS_F16 + 1},
              {"BF16", 0, 0, DS_BF16 + 1}, {"F32", 0, 0, DS_F32 + 1}, {"F64", 0, 0, DS_F64 + 1}};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++)
        if (!strcmp(tt[i].n, t)) {
            *width = tt[i].w;
            *sgn = tt[i].s;
            *fp = tt[i].fp;
            return 0;
        }
    return -1;
}

static void s_decl(cc *c, const ds_node *s)
{
    var *v = cc_find_var(c, s->name);
    if (v && v->opnd)
        cc_fail(c, s, "'%s' is an operand; it cannot be declared again", s->name);
    if (!v)
        v = cc_new_var(c, s->name);
    if (decl_type(s->type, &v->width, &v->is_signed, &v->fp_decl))
        cc_fail(c, s, "unknown type %s", s->type);
    if (s->a)
        assign(c, v, cc_expr(c, s->a), s);
    else if (!v->set)
        assign(c, v, v->fp_decl ? cc_to_fp(c, cc_const(V_INT, 0), v->fp_decl - 1, s) : cc_const(V_INT, 0), s);
}

static int truth_const(cc *c, cval v, const ds_node *at, int *known)
{
    if (v.ty == V_NAME)
        cc_fail(c, at, "a modifier is not a condition: compare it (.%s == .VALUE)", v.name);
    v = cc_as_int(c, v, at);
    *known = v.konst;
    return v.konst && v.k != 0;
}

static void s_if(cc *c, const ds_node *s)
{
    cval cond = cc_expr(c, s->a);
    int known;
    int t = truth_const(c, cond, s->a, &known);
    if (known) { /* the branch not taken is not compiled: it may not even make sense for this word */
        stmt(c, t ? s->b : s->c);
        return;
    }
    cond = cc_as_int(c, cond, s->a);
    enter_region(c, s->b, s->c);
    int at_if = c->p->nops, at_else = -1;
    cc_emit(c, DO_IF, 0)->a = (uint16_t)cond.slot;
    stmt(c, s->b);
    if (s->c) {
        at_else = c->p->nops;
        cc_emit(c, DO_ELSE, 0);
        stmt(c, s->c);
    }
    int at_end = c->p->nops;
    cc_emit(c, DO_ENDIF, 0);
    /* where an empty mask jumps: the else (or the end), and from the else the end */
    c->p->ops[at_if].k = at_else >= 0 ? at_else : at_end;
    if (at_else >= 0)
        c->p->ops[at_else].k = at_end;
    if (c->rt > DS_MAX_DEPTH)
        cc_fail(c, s, "branches on lane values nested deeper than %d", DS_MAX_DEPTH);
    leave_region(c);
}

/* for (i = k0; i < n; i++): unrolled, the loop variable a constant */
static void s_for(cc *c, const ds_node *s)
{
    int rt = c->rt;
    c->rt = 0; /* the loop variable is bound, not stored */
    stmt(c, s->a);
    c->rt = rt;
    for (int iter = 0;; iter++) {
        cval cond = cc_expr(c, s->b);
        int known;
        int t = truth_const(c, cond, s->b, &known);
        if (!known)
            cc_fail(c, s->b, "a loop condition must be known when the instruction is compiled");
        if (!t)
            break;
        if (iter >= 64)
            cc_fail(c, s, "a loop runs more than 64 times");
        if (++c->unrolled > MAX_UNROLL)
            cc_fail(c, s, "the loops run more than %d times in all", MAX_UNROLL);
        stmt(c, s->d);
        c->rt = 0;
        stmt(c, s->c);
        c->rt = rt;
    }
}

static void s_switch(cc *c, const ds_node *s)
{
    cval v = cc_expr(c, s->a);
    int taken = 0, done = 0;
    for (int i = 0; i < s->n && !done; i++) {
        const ds_node *cs = s->list[i];
        if (!taken) {
            if (!cs->a)
                taken = 1;
            else {
                cval k = cc_expr(c, cs->a);
                if (v.ty == V_NAME || k.ty == V_NAME)
                    taken = cc_name_eq(c, &v, &k, cs->a);
                else {
                    cval a = cc_as_int(c, v, s->a), b = cc_as_int(c, k, cs->a);
                    if (!a.konst || !b.konst)
                        cc_fail(c, s->a, "switch needs a value known when the instruction is compiled");
                    taken = a.k == b.k;
                }
            }
        }
        if (!taken)
            continue;
        for (int j = 0; j < cs->n; j++) {
            if (cs->list[j]->kind == S_BREAK) {
                done = 1;
                break;
            }
            stmt(c, cs->list[j]);
        }
    }
}

static void s_multi(cc *c, const ds_node *s)
{
    cval v = cc_expr(c, s->a);
    if (v.ty != V_ARRAY || v.nelems != s->n)
        cc_fail(c, s, "%d targets need a function giving %d values", s->n, s->n);
    for (int i = 0; i < s->n; i++)
        assign_to(c, s->list[i], v.elems[i], s);
}

static void stmt(cc *c, const ds_node *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->n; i++)
            stmt(c, s->list[i]);
        break;
    case S_ASSIGN: s_assign(c, s); break;
    case S_MULTI: s_multi(c, s); break;
    case S_DECL: s_decl(c, s); break;
    case S_IF: s_if(c, s); break;
    case S_FOR: s_for(c, s); break;
    case S_SWITCH: s_switch(c, s); break;
    case S_BREAK: cc_fail(c, s, "break outside a switch case");
    case S_EXPR: {
        cval v = cc_expr(c, s->a);
        (void)v;
        break;
    }
    default: cc_fail(c, s, "not a statement");
    }
}

/* ------------------------------------------------------------------ variants */

static const struct {
    const char *doc, *syntax;
} word_alias[] = {{"EX", "X"}};

/* Whether the dotted word w of a header holds for the word being compiled */
static int word_holds(const ds_insn *in, const char *w)
{
    const syntax_form *F = in->F;
    const char *m = F->mnemonic;
    for (const char *d = strchr(m, '.'); d; d = strchr(d + 1, '.')) {
        size_t n = strcspn(d + 1, ".");
        if (strlen(w) == n && !strncmp(d + 1, w, n))
            return 1;
    }
    for (size_t a = 0; a < sizeof word_alias / sizeof word_alias[0]; a++)
        if (!strcmp(w, word_alias[a].doc))
            w = word_alias[a].syntax;
    for (int i = 0; i < F->nmods; i++) {
        const mod_slot *s = &F->mods[i];
        if (s->operand >= 0)
            continue;
        for (int k = 0; k < s->nchoices; k++) {
            if (strcmp(s->choices[k].spell, w))
                continue;
            if (s->field < 0)
                return s->literal || k == s->def_choice;
            return in->fields[s->field] == s->choices[k].value;
        }
    }
    return 0;
}

static int is_literal_word(const char *w) { return !islower((unsigned char)w[0]); }

static const ds_variant *choose_variant(const ds_insn *in, const ds_optype *sem)
{
    const char *m = in->F->mnemonic;
    size_t base = strcspn(m, ".");
    const ds_variant *best = NULL;
    int best_score = -1;
    for (int i = 0; i < sem->nvariants; i++) {
        const ds_variant *v = &sem->variants[i];
        if (strlen(v->mnemonic) != base || strncmp(v->mnemonic, m, base))
            continue;
        int score = 0, ok = 1;
        for (int k = 0; k < v->nwords && ok; k++) {
            if (!is_literal_word(v->words[k]))
                continue;
            ok = word_holds(in, v->words[k]);
            score++;
        }
        if (ok && score > best_score) {
            best = v;
            best_score = score;
        }
    }
    return best;
}

/* Operand names of the header that this form lacks: results written there are dropped. */
static void header_names(cc *c, const ds_variant *v)
{
    const char *s = strchr(v->header, ' ');
    while (s && *s) {
        while (*s && !isalpha((unsigned char)*s))
            s++;
        const char *b = s;
        while (*s && (isalnum((unsigned char)*s) || *s == '_'))
            s++;
        if (s == b)
            break;
        size_t n = (size_t)(s - b);
        int known = 0;
        for (int i = 0; i < c->nvars; i++)
            known |= strlen(c->vars[i].name) == n && !strncmp(c->vars[i].name, b, n);
        if (known)
            continue;
        for (int i = 0; i < c->in->nops; i++)
            known |= strlen(c->in->ops[i].name) == n && !strncmp(c->in->ops[i].name, b, n);
        if (known || !(b[0] == 'p' || b[0] == 'R' || b[0] == 'U'))
            continue;
        char *nm = malloc(n + 1);
        if (!nm)
            cc_fail(c, NULL, "out of memory");
        memcpy(nm, b, n);
        nm[n] = 0;
        var *x = cc_new_var(c, nm);
        x->absent_out = 1;
        x->owned = 1;
    }
}

static void finish_outputs(cc *c)
{
    for (int i = 0; i < c->nvars; i++) {
        var *v = &c->vars[i];
        if (!v->opnd || !v->opnd->out || !v->set || v->opnd->discard)
            continue;
        const ds_operand *o = v->opnd;
        cval val = v->v;
        if (val.ty == V_EXACT)
            cc_fail(c, NULL, "%s is given an exact value that is never rounded", o->name);
        if (val.ty != V_INT && val.ty != V_BOOL && val.ty != V_FP)
            cc_fail(c, NULL, "%s is given a value that is not a number", o->name);
        val = cc_as_int(c, val, NULL);
        ds_op *op = cc_emit(c, o->pred ? DO_OUTPRED : DO_OUT, 0);
        op->a = (uint16_t)cc_in_slot(c, &val, NULL);
        op->k = o->port;
        op->width = o->pair ? 64 : 32;
        if (o->pred)
            c->p->pred_outs |= 1u << o->port;
        else
            c->p->outs |= 1u << o->port;
    }
}

/* P0..P6 written: their values and the lanes that wrote them, as bytes */
static void finish_pfile(cc *c)
{
    cval val = cc_const(V_INT, 0), we = cc_const(V_INT, 0);
    int any = 0;
    for (int i = 0; i < c->nvars; i++) {
        var *v = &c->vars[i];
        if (!v->pfile_bit || !v->pfile_we)
            continue;
        cval bit = cc_bin_int(c, DO_NE, v->v, cc_const(V_INT, 0), NULL);
        cval lanes = cc_const(V_INT, 0);
        lanes.konst = 0;
        lanes.slot = v->pfile_we - 1;
        cval sh = cc_const(V_INT, v->pfile_bit - 1);
        val = cc_bin_int(c, DO_OR, val, cc_bin_int(c, DO_SHL, bit, sh, NULL), NULL);
        we = cc_bin_int(c, DO_OR, we, cc_bin_int(c, DO_SHL, lanes, sh, NULL), NULL);
        any = 1;
    }
    if (!any)
        return;
    ds_op *o = cc_emit(c, DO_OUTPFILE, 0);
    o->a = (uint16_t)cc_in_slot(c, &val, NULL);
    o->b = (uint16_t)cc_in_slot(c, &we, NULL);
    c->p->pfile_out = 1;
}

static void free_vars(cc *c)
{
    for (int i = 0; i < c->nvars; i++) {
        if (!strcmp(c->vars[i].name, "\x02array"))
            free(c->vars[i].v.elems);
        if (c->vars[i].owned)
            free((char *)c->vars[i].name);
    }
    free(c->vars);
}

void ds_prog_free(ds_prog *p)
{
    if (!p)
        return;
    free(p->ops);
    free(p->run_ops);
    for (int i = 0; i < p->nstrings; i++)
        free((void *)p->strings[i]);
    free(p->strings);
    free(p);
}

/* 0, or 1 after a failure (c->why says why); everything it needs is in c */
static int compile_body(cc *c, const ds_variant *v)
{
    if (setjmp(c->fail))
        return 1;
    const ds_insn *in = c->in;
    for (int i = 0; i < in->nops; i++) {
        var *x = cc_new_var(c, in->ops[i].name);
        x->opnd = &in->ops[i];
        for (int d = 0; d < c->sem->ndecls; d++)
            if (!strcmp(c->sem->decls[d].name, x->name)) {
                x->vtype = c->sem->decls[d].type;
                x->deco = c->sem->decls[d].deco;
            }
    }
    for (int i = 0; i < in->nops; i++)
        if (in->ops[i].pfile) { /* the predicate file by its registers' names */
            for (int k = 0; k < 8; k++)
                if (!cc_find_var(c, ds_pfile_names[k]))
                    cc_new_var(c, ds_pfile_names[k])->pfile_bit = k + 1;
        }
    header_names(c, v);
    stmt(c, v->body);
    finish_outputs(c);
    finish_pfile(c);
    cc_prepend_consts(c);
    ds_optimize(c->p);
    c->p->lane_bits = (uint8_t)ds_lane_bits(c->p);
    return 0;
}

ds_prog *ds_compile(const ds_insn *in, char *why, size_t cap)
{
    const ds_optype *sem = ds_optype_of(in->isa, in->op->optype);
    if (!sem || !sem->nvariants) {
        snprintf(why, cap, "%s has no pseudo-code (__Semantics) to run", in->op->optype->name);
        return NULL;
    }
    if (sem->errors) {
        snprintf(why, cap, "the pseudo-code of %s does not parse (see gisa lint)", in->op->optype->name);
        return NULL;
    }
    const ds_variant *v = choose_variant(in, sem);
    if (!v) {
        snprintf(why, cap, "no variant of %s's pseudo-code matches %s", in->op->optype->name, in->F->mnemonic);
        return NULL;
    }
    cc *c = calloc(1, sizeof *c);
    ds_prog *p = calloc(1, sizeof *p);
    if (!c || !p) {
        free(c);
        free(p);
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    c->in = in;
    c->sem = sem;
    c->p = p;
    c->why = why;
    c->whycap = cap;
    p->variant = v;
    if (compile_body(c, v)) {
        free_vars(c);
        ds_prog_free(c->p);
        free(c);
        return NULL;
    }
    free_vars(c);
    free(c);
    return p;
}
