/* The executor's form of a compiled program (doclower.h): NaN tests that
 * only open a branch become part of the branch (the rounding of every FP
 * result in the documents ends in such a test), and branches learn whether
 * their target is their ENDIF. Nothing here knows an instruction: only the
 * shapes of sequences. */
#include <stdlib.h>

#include "sim/doclower.h"

/* how often each slot is read in the whole program */
static void count_reads(const ds_prog *p, int *reads)
{
    for (int i = 0; i < p->nops; i++) {
        const ds_op *o = &p->ops[i];
        const unsigned r = ds_op_reads(o);
        if (r & 1 && o->a < p->nslots)
            reads[o->a]++;
        if (r & 2 && o->b < p->nslots)
            reads[o->b]++;
        if (r & 4 && o->c < p->nslots)
            reads[o->c]++;
    }
}

/* op i is a NaN test whose result only the operation `user` reads */
static int nan_test_for(const ds_prog *p, const int *reads, int i, int user)
{
    const ds_op *t = &p->ops[i], *u = &p->ops[user];
    if (t->code != DO_FISNAN || t->d >= p->nslots || reads[t->d] != 1)
        return 0;
    return u->a == t->d || (u->code == DO_LOR && !u->bk && u->b == t->d);
}

/* the fused operation that starts at op i, or 0; *len: how many it covers */
static int fuse_at(const ds_prog *p, const int *reads, int i, ds_op *out, int *len)
{
    const ds_op *o = p->ops;
    const int left = p->nops - i;
    if (left >= 4 && o[i + 3].code == DO_IF && o[i + 2].code == DO_LOR && !o[i + 2].bk &&
        o[i + 3].a == o[i + 2].d && o[i + 2].d < p->nslots && reads[o[i + 2].d] == 1 &&
        nan_test_for(p, reads, i, i + 2) && nan_test_for(p, reads, i + 1, i + 2) && o[i].d != o[i + 1].d &&
        o[i + 1].a != o[i].d && o[i].fmt == o[i + 1].fmt) {
        *out = o[i + 3];
        out->code = XO_IFNAN2;
        out->a = o[i].a;
        out->b = o[i + 1].a;
        out->fmt = o[i].fmt;
        *len = 4;
        return 1;
    }
    if (left >= 2 && o[i + 1].code == DO_IF && nan_test_for(p, reads, i, i + 1)) {
        *out = o[i + 1];
        out->code = XO_IFNAN;
        out->a = o[i].a;
        out->fmt = o[i].fmt;
        *len = 2;
        return 1;
    }
    return 0;
}

static int opens_or_skips(int code)
{
    return code == DO_IF || code == XO_IFNAN || code == XO_IFNAN2 || code == DO_ELSE || code == XO_NANCHAIN;
}

static int is_nan_if(int code) { return code == XO_IFNAN || code == XO_IFNAN2; }

/* the ENDIF of the branch that op i (an IF) opens */
static int end_of(const ds_op *x, int n, int i)
{
    const int k = x[i].k;
    if (k < 0 || k >= n)
        return -1;
    return x[k].code == DO_ELSE ? x[k].k : x[k].code == DO_ENDIF ? k : -1;
}

/* The NaN chain that starts at op i (doclower.h, XO_NANCHAIN): its tested
 * slots in *pre (a, b, c, d, count in width) and its last ENDIF in pre->k;
 * 0 when op i starts none of two links or more, or one of more than four
 * values. chained[] marks the links after the first. */
static int nan_chain(const ds_op *x, int n, int i, ds_op *pre, uint8_t *chained)
{
    uint16_t v[4];
    int nv = 0, links = 0, at = i, last = end_of(x, n, i);
    if (last < 0)
        return 0;
    for (;;) {
        const ds_op *o = &x[at];
        const int count = o->code == XO_IFNAN2 ? 2 : 1;
        if (!is_nan_if(o->code) || o->fmt != x[i].fmt || nv + count > 4)
            return 0;
        v[nv++] = o->a;
        if (count == 2)
            v[nv++] = o->b;
        links++;
        const int k = o->k;
        if (k < 0 || k >= n)
            return 0;
        if (x[k].code == DO_ENDIF)
            break; /* the last link: no ELSE */
        /* its ELSE holds exactly the next link */
        const int next = k + 1;
        if (x[k].code != DO_ELSE || next >= n || !is_nan_if(x[next].code) || end_of(x, n, next) != x[k].k - 1)
            return 0;
        at = next;
    }
    if (links < 2)
        return 0;
    *pre = (ds_op){.code = XO_NANCHAIN, .fmt = x[i].fmt, .width = (uint8_t)nv, .k = last};
    pre->a = v[0];
    pre->b = nv > 1 ? v[1] : v[0];
    pre->c = nv > 2 ? v[2] : v[0];
    pre->d = nv > 3 ? v[3] : v[0];
    for (int j = i + 1; j < n; j++)
        if (is_nan_if(x[j].code) && j <= last)
            chained[j] = 1;
    return 1;
}

/* x[0..n) with a XO_NANCHAIN before each chain; NULL when memory is short */
static ds_op *add_chains(const ds_op *x, int n, int *out_n)
{
    ds_op *y = malloc(sizeof *y * (size_t)(2 * n + 1));
    int *map = malloc(sizeof *map * (size_t)(n + 1));
    uint8_t *chained = calloc((size_t)n + 1, 1);
    if (!y || !map || !chained) {
        free(y);
        free(map);
        free(chained);
        return NULL;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        ds_op pre;
        if (is_nan_if(x[i].code) && !chained[i] && nan_chain(x, n, i, &pre, chained))
            y[m++] = pre;
        map[i] = m;
        y[m++] = x[i];
    }
    map[n] = m;
    for (int i = 0; i < m; i++)
        if (opens_or_skips(y[i].code) && y[i].k >= 0 && y[i].k <= n)
            y[i].k = map[y[i].k];
    free(map);
    free(chained);
    *out_n = m;
    return y;
}

void sim_doc_lower(ds_prog *p)
{
    ds_op *x = malloc(sizeof *x * (size_t)(p->nops + 1));
    int *map = malloc(sizeof *map * (size_t)(p->nops + 1));
    int *reads = calloc((size_t)p->nslots + 1, sizeof *reads);
    if (!x || !map || !reads) {
        free(x);
        free(map);
        free(reads);
        return;
    }
    count_reads(p, reads);
    int n = 0;
    for (int i = 0; i < p->nops;) {
        int len = 1;
        map[i] = n;
        if (!fuse_at(p, reads, i, &x[n], &len))
            x[n] = p->ops[i];
        for (int k = 1; k < len; k++)
            map[i + k] = n;
        n++;
        i += len;
    }
    map[p->nops] = n;
    for (int i = 0; i < n; i++) {
        ds_op *o = &x[i];
        if (!opens_or_skips(o->code) || o->k < 0 || o->k > p->nops)
            continue;
        o->k = map[o->k];
        o->width = o->k < n && x[o->k].code == DO_ENDIF ? XO_TO_ENDIF : 0;
    }
    free(map);
    free(reads);
    int m;
    ds_op *y = add_chains(x, n, &m);
    if (y) {
        free(x);
        x = y;
        n = m;
    }
    free(p->run_ops);
    p->run_ops = x;
    p->run_nops = n;
}
