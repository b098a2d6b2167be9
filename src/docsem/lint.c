/* What `gisa lint` says about the pseudo-code (docs/semantics-language.md):
 * the model's semantics rebuilt in a scratch arena so that parse and patch
 * problems are errors here (the loader only warns), a note per semantic
 * patch with its reason, a warning per name the code reads that nothing
 * defines (such an optype faults under the doc engine), and one per
 * constant divisor of 0 or constant negative shift count (a word that
 * reaches one faults). */
#include <stdlib.h>
#include <string.h>

#include "docsem/docsem.h"

typedef struct names {
    const char **v;
    int n, cap;
} names;

static int known(const names *k, const char *s)
{
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->v[i], s))
            return 1;
    return !strcmp(s, "true") || !strcmp(s, "false");
}

static void add(arena *a, names *k, const char *s)
{
    if (!s || known(k, s))
        return;
    const char **v = arena_append(a, (void *)k->v, (size_t)k->n, sizeof *v);
    if (!v)
        return;
    k->v = v;
    k->v[k->n++] = s;
}

/* the variable a target writes: x, x[i], x[hi:lo], x.name */
static const char *target_name(const ds_node *t)
{
    while (t && (t->kind == N_INDEX || t->kind == N_SLICE || t->kind == N_MEMBER))
        t = t->a;
    return t && t->kind == N_NAME ? t->name : NULL;
}

/* every name the variant defines anywhere (flow-insensitive: a read before
 * the write is the compiler's to report for a given word) */
static void collect(arena *a, names *k, const ds_node *s)
{
    if (!s)
        return;
    if (s->kind == S_ASSIGN || s->kind == S_MULTI)
        for (int i = 0; i < s->n; i++)
            add(a, k, target_name(s->list[i]));
    if (s->kind == S_DECL)
        add(a, k, s->name);
    collect(a, k, s->a);
    collect(a, k, s->b);
    collect(a, k, s->c);
    collect(a, k, s->d);
    if (s->kind != S_ASSIGN && s->kind != S_MULTI)
        for (int i = 0; i < s->n; i++)
            collect(a, k, s->list[i]);
}

/* The value of an integer literal, written with signs and + - * of
 * literals (`0`, `-1`, `1 - 1`); 0 when e is anything else. 128-bit
 * arithmetic wraps, as the compiler's does. */
static int literal(const ds_node *e, ds_int *v)
{
    typedef unsigned __int128 u;
    ds_int x, y;
    if (e->kind == N_NUM) {
        *v = e->num;
        return 1;
    }
    if (e->kind == N_UN && (e->op == '-' || e->op == '+') && literal(e->a, &x)) {
        *v = e->op == '-' ? (ds_int)(0 - (u)x) : x;
        return 1;
    }
    if (e->kind == N_BIN && (e->op == '+' || e->op == '-' || e->op == '*') && literal(e->a, &x) &&
        literal(e->b, &y)) {
        *v = (ds_int)(e->op == '+' ? (u)x + (u)y : e->op == '-' ? (u)x - (u)y : (u)x * (u)y);
        return 1;
    }
    return 0;
}

/* What the compiler makes a fault of a word that reaches it, seen in the
 * text: a constant divisor of 0, a constant negative shift count (e the
 * operator or the compound assignment, d its right operand). */
static void check_operand(const ds_node *e, int op, const ds_node *d, const char *optype, gisa_diags *diags)
{
    ds_int v;
    if (!d || !literal(d, &v))
        return;
    if ((op == '/' || op == '%') && v == 0)
        diag_add(diags, GISA_WARNING, &e->loc,
                 "division by zero in the pseudo-code of %s (a word that reaches it faults)", optype);
    else if ((op == DT_SHL || op == DT_SHR || op == DT_SHLEQ || op == DT_SHREQ) && v < 0)
        diag_add(diags, GISA_WARNING, &e->loc,
                 "negative shift count in the pseudo-code of %s (a word that reaches it faults)", optype);
    else
        return;
    diag_set_category(diags, "pseudo-code");
}

static void check(const names *k, const ds_node *e, const char *optype, gisa_diags *diags)
{
    if (!e)
        return;
    if (e->kind == N_BIN || e->kind == S_ASSIGN)
        check_operand(e, e->op, e->kind == N_BIN ? e->b : e->a, optype, diags);
    if (e->kind == N_NAME && !known(k, e->name)) {
        diag_add(diags, GISA_WARNING, &e->loc,
                 "unknown name '%s' in the pseudo-code of %s (it does not run under the doc engine)", e->name,
                 optype);
        diag_set_category(diags, "pseudo-code");
    }
    if (e->kind == N_CALL && e->a && e->a->kind == N_NAME) /* a function: the built-ins' to resolve */
        ;
    else
        check(k, e->a, optype, diags);
    check(k, e->b, optype, diags);
    check(k, e->c, optype, diags);
    check(k, e->d, optype, diags);
    for (int i = 0; i < e->n; i++)
        check(k, e->list[i], optype, diags);
}

/* the operand names of a header `IADD.X Rd, pu, Ra, SrcB, pp` */
static void header_names(arena *a, names *k, const char *h)
{
    size_t i = strcspn(h, " \t");
    while (h[i]) {
        size_t st = i;
        while (h[i] == '_' || (h[i] >= 'a' && h[i] <= 'z') || (h[i] >= 'A' && h[i] <= 'Z') ||
               (h[i] >= '0' && h[i] <= '9'))
            i++;
        if (i > st)
            add(a, k, arena_strndup(a, h + st, i - st));
        else
            i++;
    }
}

static void patch_note(const ds_optype *s, const ds_patch *p, gisa_diags *diags)
{
    const char *why = p->reason && *p->reason ? p->reason : "(no reason given)";
    if (p->kind == DP_REPLACE)
        diag_add(diags, GISA_NOTE, &p->loc, "semantic patch of %s: replace \"%s\" because %s", s->ot->name,
                 p->what, why);
    else if (p->kind == DP_BLOCK)
        diag_add(diags, GISA_NOTE, &p->loc, "semantic patch of %s: the whole __Semantics block replaced because %s",
                 s->ot->name, why);
    else
        diag_add(diags, GISA_NOTE, &p->loc, "semantic patch of %s: %s because %s", s->ot->name, p->what, why);
}

void ds_lint_optype(const ds_optype *s, arena *a, gisa_diags *diags)
{
    for (int p = 0; p < s->npatches; p++)
        patch_note(s, &s->patches[p], diags);
    if (s->errors)
        return;
    for (int v = 0; v < s->nvariants; v++) {
        names k = {0};
        header_names(a, &k, s->variants[v].header);
        for (int w = 0; w < 2; w++)
            add(a, &k, ds_warp_names[w]);
        if (known(&k, "PR"))
            for (int p = 0; p < 8; p++)
                add(a, &k, ds_pfile_names[p]);
        collect(a, &k, s->variants[v].body);
        check(&k, s->variants[v].body, s->ot->name, diags);
    }
}

static int by_name(const void *x, const void *y)
{
    return strcmp((*(const ds_optype *const *)x)->ot->name, (*(const ds_optype *const *)y)->ot->name);
}

/* Optypes in name order, so that the report does not depend on the order
 * the description files were read in. */
void ds_lint(const gisa_isa *isa, gisa_diags *diags)
{
    arena a;
    arena_init(&a);
    a.limit = isa->max_memory; /* the copy may take what the load could */
    const ds_model *m = ds_model_rebuild(isa, &a, GISA_ERROR, diags);
    int stopped = m && (a.failed || arena_over(&a)); /* build() said at which optype; the rest is not built */
    const ds_optype **order = m && !stopped ? arena_alloc(&a, sizeof *order * (size_t)(m->n ? m->n : 1)) : NULL;
    for (int t = 0; order && t < m->n; t++)
        order[t] = &m->ot[t];
    if (order)
        qsort(order, (size_t)m->n, sizeof *order, by_name);
    for (int t = 0; order && t < m->n; t++)
        ds_lint_optype(order[t], &a, diags);
    if (!order && !stopped)
        diag_add(diags, GISA_ERROR, NULL, "out of memory checking the pseudo-code");
    arena_free(&a);
}
