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

static int opens_or_skips(int code) { return code == DO_IF || code == XO_IFNAN || code == XO_IFNAN2 || code == DO_ELSE; }

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
    free(p->run_ops);
    p->run_ops = x;
    p->run_nops = n;
}
