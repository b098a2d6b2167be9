/* The executor's form of a compiled program (doclower.h): passes over a
 * copy of its operations, in this order:
 *  1. NaN and subnormal tests that only open a branch become part of the
 *     branch (every FP result's rounding in the documents ends in one);
 *  2. such a branch with an ELSE that only computes runs the ELSE first,
 *     on every lane, and the branch after it (the usual lanes jump past);
 *  3. such a branch outside others whose body is one store (a canonical
 *     NaN, an FTZ flush) becomes one conditional store;
 *  4. two half-precision operations of the same kind (an F16x2 word's two
 *     lanes) become one pair, which the executor runs as one call of the
 *     64-half lane kernel: the second one, and what computes its operands,
 *     move up to the first where nothing between depends on them;
 *  5. F32 operations read their 32-bit sources from the input ports;
 *  6. a chain of NaN branches gets one test in front that skips it;
 *  7. constants and port reads move to the front, which the executor
 *     runs in a loop of their own;
 *  8. the ports' values get slots of their own (doclower.h, XS_IN_SLOT,
 *     XS_OUT_SLOT), which the executor reads and writes in place.
 * Branches also learn whether their target is their ENDIF, and the program
 * whether it may write the result's rows itself. Nothing here knows an
 * instruction: only the shapes of sequences. */
#include <stdlib.h>
#include <string.h>

#include "sim/doclower.h"
#include "sim/sim.h"

typedef struct ops {
    ds_op *x;
    int n;
    int nslots;
} ops;

static int has_target(int code)
{
    return code == DO_IF || code == XO_IFNAN || code == XO_IFNAN2 || code == XO_IFSUB || code == DO_ELSE ||
           code == XO_NANCHAIN;
}

static int is_nan_if(int code) { return code == XO_IFNAN || code == XO_IFNAN2; }

/* the operations that open a branch */
static int opens(int code) { return code == DO_IF || is_nan_if(code) || code == XO_IFSUB; }

/* ds_op_shape, for the executor's operations too */
static unsigned shape_of(const ds_op *o)
{
    switch (o->code) {
    case XO_IFNAN:
    case XO_IFSUB: return DS_READS_A | DS_KNOWN;
    case XO_IFNAN2: return DS_READS_A | DS_READS_B | DS_KNOWN;
    case XO_NANCHAIN: return DS_READS_A | DS_READS_B | DS_READS_C | DS_KNOWN; /* and d: read, not written */
    case XO_HPAIR:
    case XO_PAIRED: return DS_READS_A | DS_READS_B | DS_READS_C | DS_WRITES_D | DS_PURE | DS_KNOWN;
    case XO_CSTORE: return DS_READS_A | (o->bk == 1 ? 0u : DS_READS_B) | DS_WRITES_D | DS_KNOWN; /* and d */
    default: return ds_op_shape(o);
    }
}

/* operand i of o is an input port (doclower.h: F32 operations' bk) */
static int port_operand(const ds_op *o, int i)
{
    return (o->code == DO_FADD || o->code == DO_FMUL || o->code == DO_FFMA) && o->fmt == DS_F32 && (o->bk >> i & 1);
}

static int reads(const ds_op *o, int s)
{
    if ((o->code == XO_NANCHAIN || o->code == XO_CSTORE) && o->d == s)
        return 1; /* a chain's fourth value; what a conditional store leaves */
    const unsigned sh = shape_of(o);
    return (sh & DS_READS_A && o->a == s && !port_operand(o, 0)) || (sh & DS_READS_B && o->b == s && !port_operand(o, 1)) ||
           (sh & DS_READS_C && o->c == s && !port_operand(o, 2));
}

static int writes(const ds_op *o, int s) { return (shape_of(o) & DS_WRITES_D) && o->d == s; }

/* how many operations write slot s; *last: the last of them */
static int writers(const ops *t, int s, int *last)
{
    int n = 0;
    for (int i = 0; i < t->n; i++)
        if (writes(&t->x[i], s)) {
            n++;
            *last = i;
        }
    return n;
}

/* Rebuilds t->x from order[0..m) (old indices; -1: `extra[k]` instead)
 * and remaps branch targets. map_old[i] is where old op i went. */
static int rebuild(ops *t, const int *order, const ds_op *extra, int m)
{
    ds_op *y = malloc(sizeof *y * (size_t)(m + 1));
    int *where = malloc(sizeof *where * (size_t)(t->n + 1));
    if (!y || !where) {
        free(y);
        free(where);
        return 0;
    }
    for (int i = 0; i <= t->n; i++)
        where[i] = m; /* an op that is gone (fused): its target is the next one kept */
    for (int k = m - 1; k >= 0; k--)
        if (order[k] >= 0)
            where[order[k]] = k;
    for (int i = t->n - 1; i >= 0; i--)
        if (where[i] == m)
            where[i] = where[i + 1];
    for (int k = 0; k < m; k++) {
        y[k] = order[k] >= 0 ? t->x[order[k]] : extra[k];
        if (has_target(y[k].code) && y[k].k >= 0 && y[k].k <= t->n)
            y[k].k = where[y[k].k];
    }
    free(where);
    free(t->x);
    t->x = y;
    t->n = m;
    return 1;
}

/* A pass lists the new order of t's operations (old indices; -1: extra[k]
 * at that place) and returns how many, or -1 when memory is short. */
typedef int pass_fn(const ops *t, int *order, ds_op *extra);

static int apply(ops *t, pass_fn *pass)
{
    int *order = malloc(sizeof *order * (size_t)(2 * t->n + 1));
    ds_op *extra = calloc((size_t)(2 * t->n + 1), sizeof *extra);
    const int m = order && extra ? pass(t, order, extra) : -1;
    const int ok = m >= 0 && rebuild(t, order, extra, m);
    free(order);
    free(extra);
    return ok;
}

/* how often each slot is read (calloc'd; NULL when memory is short) */
static int *read_counts(const ops *t)
{
    int *n = calloc((size_t)t->nslots + 1, sizeof *n);
    for (int i = 0; n && i < t->n; i++)
        for (int s = 0; s < t->nslots; s++)
            n[s] += reads(&t->x[i], s);
    return n;
}

/* ---------------------------------------------------------------- pairs */

static int is_half_op(const ds_op *o)
{
    return (o->code == DO_FADD || o->code == DO_FMUL || o->code == DO_FFMA) && (o->fmt == DS_F16 || o->fmt == DS_BF16);
}

static int same_kind(const ds_op *a, const ds_op *b)
{
    return a->code == b->code && a->fmt == b->fmt && a->rnd == b->rnd && a->k == b->k;
}

/* an operation that may move up, across others that do not touch its slots */
static int movable(const ds_op *o)
{
    const unsigned sh = shape_of(o);
    return o->code == XO_CSTORE || ((sh & DS_PURE) && (sh & DS_WRITES_D) && (sh & DS_KNOWN) && o->code != DO_STORE);
}

/* Whether op j (same kind as op i, both at one depth) can join op i: in[k]
 * marks j and the operations between that compute its operands (they move
 * up in front of the pair). None of them may depend on i's result or write
 * what i reads; nothing else between may read or write what they write. */
static int can_pair(const ops *t, int i, int j, uint8_t *in)
{
    const ds_op *x = t->x;
    uint8_t rd[DS_MAX_SLOTS] = {0}, wr[DS_MAX_SLOTS] = {0};
    memset(in, 0, (size_t)t->n);
    in[j] = 1;
    for (int k = j; k > i; k--) {
        if (k < j && !(shape_of(&x[k]) & DS_WRITES_D && rd[x[k].d]))
            continue;
        if (k < j && !movable(&x[k]))
            return 0;
        in[k] = 1;
        const unsigned sh = shape_of(&x[k]);
        if (sh & DS_READS_A)
            rd[x[k].a] = 1;
        if (sh & DS_READS_B)
            rd[x[k].b] = 1;
        if (sh & DS_READS_C)
            rd[x[k].c] = 1;
        if (x[k].code == XO_CSTORE)
            rd[x[k].d] = 1;
        wr[x[k].d] = 1;
    }
    const unsigned si = shape_of(&x[i]);
    if (rd[x[i].d] || wr[x[i].d] || (si & DS_READS_A && wr[x[i].a]) || (si & DS_READS_B && wr[x[i].b]) ||
        (si & DS_READS_C && wr[x[i].c]))
        return 0;
    int depth = 0;
    for (int k = i + 1; k < j; k++) {
        const ds_op *o = &x[k];
        if (in[k]) {
            if (depth != 0)
                return 0; /* inside a branch it may not run at all */
            continue;
        }
        depth += opens(o->code) ? 1 : o->code == DO_ENDIF ? -1 : 0;
        if (!(shape_of(o) & DS_KNOWN) || (shape_of(o) & DS_WRITES_D && (wr[o->d] || rd[o->d])))
            return 0;
        for (int s = 0; s < t->nslots; s++)
            if (wr[s] && reads(o, s))
                return 0;
    }
    return 1;
}

/* The first pair of half operations that can join, made: returns 1. */
static int pair_one(ops *t)
{
    const ds_op *x = t->x;
    uint8_t *in = malloc((size_t)t->n + 1);
    int *order = malloc(sizeof *order * (size_t)(t->n + 1));
    ds_op *extra = calloc((size_t)t->n + 1, sizeof *extra);
    int done = 0;
    for (int i = 0; i < t->n && !done && in && order && extra; i++) {
        if (!is_half_op(&x[i]))
            continue;
        int depth = 0, j = i + 1;
        for (; j < t->n; j++) { /* the next one of its kind in its branch */
            depth += opens(x[j].code) ? 1 : x[j].code == DO_ENDIF ? -1 : 0;
            if (depth < 0 || (depth == 0 && x[j].code == DO_ELSE))
                break;
            if (depth == 0 && is_half_op(&x[j]) && same_kind(&x[i], &x[j]))
                break;
        }
        if (j >= t->n || !is_half_op(&x[j]) || !same_kind(&x[i], &x[j]) || x[i].d == x[j].d || !can_pair(t, i, j, in))
            continue;
        /* before i as it was; j's operands; the pair; the rest in between; after j */
        int m = 0;
        for (int k = 0; k < i; k++)
            order[m++] = k;
        for (int k = i + 1; k < j; k++)
            if (in[k])
                order[m++] = k;
        extra[m] = x[i];
        extra[m].code = XO_HPAIR;
        extra[m].width = x[i].code;
        order[m++] = -1;
        extra[m] = x[j];
        extra[m].code = XO_PAIRED;
        order[m++] = -1;
        for (int k = i + 1; k < j; k++)
            if (!in[k])
                order[m++] = k;
        for (int k = j + 1; k < t->n; k++)
            order[m++] = k;
        done = rebuild(t, order, extra, m);
    }
    free(in);
    free(order);
    free(extra);
    return done;
}

/* ---------------------------------------------------- speculated ELSE */

static int full_write(const ds_op *o, int v) { return writes(o, v) && o->code != XO_CSTORE; }

/* Whether every path through ops [from, to) writes slot v before anything
 * there reads it (prog.h, ds_paths) */
static int written_first(const ops *t, int from, int to, int v)
{
    ds_paths paths = {0};
    for (int i = from; i < to; i++) {
        const ds_op *o = &t->x[i];
        if (reads(o, v) && !ds_paths_written(&paths))
            return 0;
        const int what = opens(o->code) ? DS_PATH_OPEN : o->code == DO_ELSE ? DS_PATH_ELSE
                         : o->code == DO_ENDIF ? DS_PATH_ENDIF : full_write(o, v) ? DS_PATH_WRITE : -1;
        if (what < 0 && !(shape_of(o) & DS_KNOWN))
            return 0;
        if (what >= 0 && !ds_paths_step(&paths, what))
            return 0;
    }
    return ds_paths_written(&paths);
}

static int touches(const ops *t, int from, int to, int v)
{
    for (int i = from; i < to; i++)
        if (reads(&t->x[i], v) || writes(&t->x[i], v))
            return 1;
    return 0;
}

/* Whether the ELSE branch (e, n) of the NaN test at i can run first, on
 * every lane, before the test: it only computes (no branch, nothing that
 * faults or has another effect), and what it writes the test does not
 * read, and the THEN branch (i, e) either writes first on every path or
 * leaves alone, in which case nothing outside the ELSE writes it */
static int speculable(const ops *t, int i, int e, int n)
{
    for (int j = e + 1; j < n; j++) {
        const ds_op *o = &t->x[j];
        const unsigned sh = shape_of(o);
        if (!(sh & DS_KNOWN) || !(sh & DS_WRITES_D) || (!(sh & DS_PURE) && o->code != DO_STORE))
            return 0;
        if (reads(&t->x[i], o->d))
            return 0;
        if (touches(t, i + 1, e, o->d)) {
            if (!written_first(t, i + 1, e, o->d))
                return 0;
        } else if (touches(t, 0, e + 1, o->d) || touches(t, n, t->n, o->d)) {
            for (int k = 0; k < t->n; k++)
                if ((k <= e || k >= n) && writes(&t->x[k], o->d))
                    return 0;
        }
    }
    return 1;
}

/* IF isnan(..) {A} ELSE {B} ENDIF outside every branch, where B only
 * computes: B first, on every lane, then IF isnan(..) {A} ENDIF, whose A
 * writes over what B wrote on its lanes. The test is rarely true: the
 * usual lanes then run B and jump past A, not IF, ELSE, B and ENDIF. */
static int speculate_else(const ops *t, int *order, ds_op *extra)
{
    int m = 0, depth = 0;
    for (int i = 0; i < t->n;) {
        const ds_op *o = &t->x[i];
        const int e = o->k, n = e > i && e < t->n && t->x[e].code == DO_ELSE ? t->x[e].k : -1;
        if (depth == 0 && (is_nan_if(o->code) || o->code == XO_IFSUB) && n > e && n < t->n &&
            t->x[n].code == DO_ENDIF && speculable(t, i, e, n)) {
            for (int j = e + 1; j < n; j++)
                order[m++] = j;
            extra[m] = *o;
            extra[m].k = n; /* its ENDIF now */
            order[m++] = -1;
            for (int j = i + 1; j < e; j++)
                order[m++] = j;
            order[m++] = n;
            i = n + 1;
            continue;
        }
        depth += opens(o->code) ? 1 : o->code == DO_ENDIF ? -1 : 0;
        order[m++] = i++;
    }
    return m;
}

/* Half operands read from their words: an operand of a pair (XO_HPAIR,
 * XO_PAIRED) that is the low or high half of a word (BITS of width 16 at
 * bit 0 or 16) reads the word, the half chosen by its bk bit; the BITS
 * nobody reads any more go. */
static int pair_sources(const ops *t, int *order, ds_op *extra)
{
    int *nreads = read_counts(t), m = 0, w = -1;
    for (int i = 0; nreads && i < t->n; i++) {
        const ds_op *o = &t->x[i];
        if (o->code != XO_HPAIR && o->code != XO_PAIRED)
            continue;
        ds_op *y = &extra[i]; /* the pair's new form, at i's place below */
        *y = *o;
        y->bk = 0;
        uint16_t *opnd[3] = {&y->a, &y->b, &y->c};
        for (int r = 0; r < 3; r++) {
            const int v = *opnd[r];
            if (v >= t->nslots || writers(t, v, &w) != 1 || w > i)
                continue;
            const ds_op *f = &t->x[w];
            if (f->code != DO_BITS || f->width != 16 || (f->k != 0 && f->k != 16) || f->a >= t->nslots)
                continue;
            int quiet = 1; /* the word keeps its value from the BITS to the pair */
            for (int k = w + 1; k < i && quiet; k++)
                quiet = !writes(&t->x[k], f->a);
            if (!quiet)
                continue;
            *opnd[r] = f->a;
            y->bk |= (uint8_t)((f->k == 16) << r);
            nreads[v]--;
            nreads[f->a]++;
        }
    }
    for (int i = 0; nreads && i < t->n; i++) {
        const ds_op *o = &t->x[i];
        if (o->code == DO_BITS && o->d < t->nslots && nreads[o->d] == 0)
            continue; /* read by nobody now */
        order[m] = o->code == XO_HPAIR || o->code == XO_PAIRED ? -1 : i;
        if (order[m] < 0)
            extra[m] = extra[i];
        m++;
    }
    const int ok = nreads != NULL;
    free(nreads);
    return ok ? m : -1;
}

/* ---------------------------------------------------- conditional stores */

/* XO_IFNAN/XO_IFSUB at i, outside every branch, whose branch (no ELSE) is
 * one store of a slot, of a constant, or of y & constant: one XO_CSTORE */
static int conditional_store(const ops *t, const int *nreads, int i, ds_op *out, int *len)
{
    const ds_op *x = t->x, *o = &x[i];
    const int end = o->k;
    if ((o->code != XO_IFNAN && o->code != XO_IFSUB) || end <= i + 1 || end > i + 3 || end >= t->n ||
        x[end].code != DO_ENDIF)
        return 0;
    const ds_op *st = &x[end - 1], *v = end == i + 3 ? &x[i + 1] : NULL;
    if (st->code != DO_STORE)
        return 0;
    *out = (ds_op){.code = XO_CSTORE, .fmt = o->fmt, .rnd = o->code == XO_IFSUB, .a = o->a, .d = st->d};
    if (!v) {
        out->bk = st->bk ? 1 : 0;
        out->b = st->a;
        out->imm = st->imm;
    } else if (!st->bk && st->a == v->d && nreads[v->d] == 1 && v->code == DO_CONST) {
        out->bk = 1;
        out->imm = v->imm;
    } else if (!st->bk && st->a == v->d && nreads[v->d] == 1 && v->code == DO_AND && v->bk) {
        out->bk = 2;
        out->b = v->a;
        out->imm = v->imm;
    } else {
        return 0;
    }
    *len = end - i + 1;
    return 1;
}

static int conditional_stores(const ops *t, int *order, ds_op *extra)
{
    int *nreads = read_counts(t), m = 0, depth = 0;
    for (int i = 0; nreads && i < t->n;) {
        int len = 1;
        if (depth == 0 && conditional_store(t, nreads, i, &extra[m], &len)) {
            order[m++] = -1;
            i += len;
            continue;
        }
        depth += opens(t->x[i].code) ? 1 : t->x[i].code == DO_ENDIF ? -1 : 0;
        order[m++] = i++;
    }
    const int ok = nreads != NULL;
    free(nreads);
    return ok ? m : -1;
}

/* ---------------------------------------------------- NaN tests, chains */

/* nothing in (from, to) is a branch or an operation the optimiser does not
 * know, or writes slot s */
static int quiet_between(const ops *t, int from, int to, int s)
{
    for (int k = from + 1; k < to; k++)
        if (has_target(t->x[k].code) || t->x[k].code == DO_ENDIF || writes(&t->x[k], s) ||
            !(shape_of(&t->x[k]) & DS_KNOWN))
            return 0;
    return 1;
}

/* the last operation before op k that writes slot s, or -1 */
static int last_writer(const ops *t, int k, int s)
{
    while (--k >= 0 && !writes(&t->x[k], s))
        ;
    return k;
}

/* op i is a NaN (or subnormal) test that only op `user` reads, of a value
 * nothing between them changes */
static int class_test_for(const ops *t, const int *nreads, int i, int user, int code)
{
    const ds_op *o = &t->x[i];
    return i >= 0 && o->code == code && nreads[o->d] == 1 && reads(&t->x[user], o->d) &&
           quiet_between(t, i, user, o->a) && quiet_between(t, i, user, o->d);
}
static int nan_test_for(const ops *t, const int *nreads, int i, int user)
{
    return class_test_for(t, nreads, i, user, DO_FISNAN);
}

/* IF t where t is a NaN test (or the OR of two), read nowhere else: the
 * test joins the IF, wherever it stands before it in the branch */
static int fuse_nan_tests(const ops *t, int *order, ds_op *extra)
{
    int *nreads = read_counts(t);
    uint8_t *gone = calloc((size_t)t->n + 1, 1);
    const int ok = nreads && gone;
    int m = 0;
    for (int k = 0; ok && k < t->n; k++) {
        const ds_op *o = &t->x[k];
        const int def = o->code == DO_IF ? last_writer(t, k, o->a) : -1;
        const ds_op *d = def >= 0 ? &t->x[def] : NULL;
        extra[m] = *o;
        if (d && (nan_test_for(t, nreads, def, k) || class_test_for(t, nreads, def, k, DO_FISSUB))) {
            extra[m].code = d->code == DO_FISNAN ? XO_IFNAN : XO_IFSUB;
            extra[m].a = d->a;
            extra[m].fmt = d->fmt;
            gone[def] = 1;
            order[m++] = -1;
            continue;
        }
        if (d && d->code == DO_LOR && !d->bk && nreads[d->d] == 1 && quiet_between(t, def, k, d->d)) {
            const int p = last_writer(t, def, d->a), q = last_writer(t, def, d->b);
            if (p >= 0 && q >= 0 && p != q && nan_test_for(t, nreads, p, def) && nan_test_for(t, nreads, q, def) &&
                t->x[p].fmt == t->x[q].fmt && quiet_between(t, def - 1, k, t->x[p].a) &&
                quiet_between(t, def - 1, k, t->x[q].a)) {
                extra[m].code = XO_IFNAN2;
                extra[m].a = t->x[p].a;
                extra[m].b = t->x[q].a;
                extra[m].fmt = t->x[p].fmt;
                gone[p] = gone[q] = gone[def] = 1;
                order[m++] = -1;
                continue;
            }
        }
        order[m++] = k;
    }
    /* the tests that joined their IF go */
    int w = 0;
    for (int k = 0; ok && k < m; k++)
        if (order[k] < 0 || !gone[order[k]]) {
            extra[w] = extra[k];
            order[w++] = order[k];
        }
    free(nreads);
    free(gone);
    return ok ? w : -1;
}

/* ----------------------------------------------------------- ports */

/* An F32 operation's operand that is a 32-bit input as it came (a slot
 * written once, by an IN at the top level before it) reads the port: bk
 * bit i (doclower.h). An IN that nobody reads then goes. */
static int port_operands(const ops *t, int *order, ds_op *extra)
{
    int *nwrites = calloc((size_t)t->nslots + 1, sizeof *nwrites), *port = malloc(sizeof *port * (size_t)(t->nslots + 1));
    const int ok = nwrites && port;
    int depth = 0, m = 0;
    (void)extra;
    for (int i = 0; ok && i < t->n; i++)
        if (shape_of(&t->x[i]) & DS_WRITES_D)
            nwrites[t->x[i].d]++;
    for (int s = 0; ok && s < t->nslots; s++)
        port[s] = -1;
    for (int i = 0; ok && i < t->n; i++) {
        ds_op *o = &t->x[i]; /* the operands are renamed in place: no operation moves */
        depth += opens(o->code) ? 1 : o->code == DO_ENDIF ? -1 : 0;
        if (o->code == DO_IN && o->width == 32 && depth == 0 && nwrites[o->d] == 1 && o->k >= 0 && o->k < DS_NPORTS)
            port[o->d] = o->k;
        if ((o->code != DO_FADD && o->code != DO_FMUL && o->code != DO_FFMA) || o->fmt != DS_F32)
            continue;
        uint16_t *slot[3] = {&o->a, &o->b, o->code == DO_FFMA ? &o->c : NULL};
        o->bk = 0;
        for (int r = 0; r < 3; r++)
            if (slot[r] && port[*slot[r]] >= 0) {
                *slot[r] = (uint16_t)port[*slot[r]];
                o->bk |= (uint8_t)(1u << r);
            }
    }
    for (int i = 0; ok && i < t->n; i++) {
        int read = t->x[i].code != DO_IN;
        for (int k = 0; k < t->n && !read; k++)
            read = reads(&t->x[k], t->x[i].d);
        if (read)
            order[m++] = i;
    }
    free(nwrites);
    free(port);
    return ok ? m : -1;
}

/* ---------------------------------------------------------- chains */



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
    for (int j = i + 1; j < n && j <= last; j++)
        if (is_nan_if(x[j].code))
            chained[j] = 1;
    return 1;
}

/* a XO_NANCHAIN before each chain */
static int add_chains(const ops *t, int *order, ds_op *extra)
{
    uint8_t *chained = calloc((size_t)t->n + 1, 1);
    int m = 0;
    for (int i = 0; chained && i < t->n; i++) {
        if (is_nan_if(t->x[i].code) && !chained[i] && nan_chain(t->x, t->n, i, &extra[m], chained))
            order[m++] = -1;
        order[m++] = i;
    }
    const int ok = chained != NULL;
    free(chained);
    return ok ? m : -1;
}

/* Whether the result's rows can be port 0 itself (ds_prog.run_direct): no
 * operation reads its old value, and none that can fault comes after an
 * output (a faulting word writes nothing). */
static int direct_ok(const ops *t)
{
    int out = 0;
    for (int i = 0; i < t->n; i++) {
        const int code = t->x[i].code;
        if ((code == DO_OLD && t->x[i].k == RO_D) || (out && (code == DO_FAULT || code == DO_RGET || code == DO_RSET)))
            return 0;
        out |= code == DO_OUT || code == DO_OUTPRED || code == DO_OUTPFILE;
    }
    return 1;
}

/* ---------------------------------------------------------- stores */

/* which operations are outside every branch (calloc'd; NULL when memory is short) */
static uint8_t *top_level(const ops *t)
{
    uint8_t *top = calloc((size_t)t->n + 1, 1);
    for (int i = 0, depth = 0; top && i < t->n; i++) {
        const int code = t->x[i].code;
        depth -= code == DO_ENDIF;
        top[i] = depth == 0 && code != DO_ELSE;
        depth += opens(code);
    }
    return top;
}

/* A store outside every branch copies every lane: where its value is a
 * value only it reads, computed outside every branch with nothing between
 * touching the variable, that operation writes the variable itself. */
static int store_sources(const ops *t, int *order, ds_op *extra)
{
    int *nreads = read_counts(t), m = 0;
    uint8_t *top = top_level(t);
    int *at = malloc(sizeof *at * (size_t)(t->n + 1)); /* where each op went in order[] */
    for (int i = 0; nreads && top && at && i < t->n; i++) {
        const ds_op *o = &t->x[i];
        int w = -1;
        at[i] = m;
        order[m++] = i;
        if (top[i] && o->code == DO_STORE && !o->bk && o->a < t->nslots && nreads[o->a] == 1 &&
            writers(t, o->a, &w) == 1 && w < i && top[w]) {
            const ds_op *src = &t->x[w];
            const unsigned sh = shape_of(src);
            int quiet = (sh & DS_PURE) && (sh & DS_KNOWN) && src->code != DO_STORE && src->code != XO_CSTORE;
            for (int k = w; quiet && k < i; k++)
                quiet = k == w ? !reads(src, o->d) : !reads(&t->x[k], o->d) && !writes(&t->x[k], o->d);
            if (quiet) {
                extra[at[w]] = *src;
                extra[at[w]].d = o->d;
                order[at[w]] = -1;
                m--; /* the store */
            }
        }
    }
    const int ok = nreads && top && at;
    free(nreads);
    free(top);
    free(at);
    return ok ? m : -1;
}

/* ---------------------------------------------------------- leading reads */

/* The operations that read only a port or a constant, in the order they
 * lead a program */
static const uint8_t lead_codes[] = {DO_CONST, DO_IN, DO_OLD, DO_INPRED, DO_OLDPRED};

/* Constants and port reads whose slot nothing else writes move to the
 * front, grouped by kind (ds_prog.run_nlead: the executor runs them in a
 * loop of their own, without a jump each). A port holds its value for
 * the whole program, and such a slot holds one value. */
static int hoist_leads(const ops *t, int *order, ds_op *extra)
{
    (void)extra;
    uint8_t *lead = calloc((size_t)t->n + 1, 1);
    if (!lead)
        return -1;
    int m = 0, w;
    for (size_t c = 0; c < sizeof lead_codes; c++)
        for (int i = 0; i < t->n; i++)
            if (t->x[i].code == lead_codes[c] && t->x[i].d < DS_MAX_SLOTS && writers(t, t->x[i].d, &w) == 1) {
                lead[i] = 1;
                order[m++] = i;
            }
    for (int i = 0; i < t->n; i++)
        if (!lead[i])
            order[m++] = i;
    free(lead);
    return m;
}

/* how many operations lead the program (hoist_leads) */
static int count_leads(const ops *t)
{
    int n = 0;
    while (n < t->n && memchr(lead_codes, t->x[n].code, sizeof lead_codes))
        n++;
    return n;
}

/* ---------------------------------------------------------- ports' slots */

static int can_fault(int code) { return code == DO_FAULT || code == DO_RGET || code == DO_RSET; }


static void rename_reads(ds_op *o, int from, int to)
{
    const unsigned sh = shape_of(o);
    if (sh & DS_READS_A && o->a == from && !port_operand(o, 0))
        o->a = (uint16_t)to;
    if (sh & DS_READS_B && o->b == from && !port_operand(o, 1))
        o->b = (uint16_t)to;
    if (sh & DS_READS_C && o->c == from && !port_operand(o, 2))
        o->c = (uint16_t)to;
    if ((o->code == XO_NANCHAIN || o->code == XO_CSTORE) && o->d == from)
        o->d = (uint16_t)to;
}

/* slot `from` becomes `to`, in every operation that writes or reads it */
static void rename_slot(ops *t, int from, int to)
{
    for (int j = 0; j < t->n; j++) {
        if (writes(&t->x[j], from))
            t->x[j].d = (uint16_t)to;
        rename_reads(&t->x[j], from, to);
    }
}

/* The operation that computes slot v for a DO_OUT at j in place: the
 * first of v's writers, which writes every lane (not a store, not a
 * port's copy) outside every branch; every writer after every operation
 * that can fault, before j (the others: stores over some lanes, a NaN's
 * canonical bits). -1 when there is none. */
static int first_writer(const ops *t, int v, const uint8_t *top, int last_fault, int j)
{
    int first = -1;
    for (int i = 0; i < t->n; i++) {
        if (!writes(&t->x[i], v))
            continue;
        const int code = t->x[i].code;
        if (i > j || i < last_fault)
            return -1;
        if (first < 0 && (!top[i] || code == DO_STORE || code == XO_CSTORE || code == DO_IN || code == DO_OLD))
            return -1;
        if (first < 0)
            first = i;
    }
    return first;
}

/* Input ports read where they are, results computed in the output
 * port (doclower.h, XS_IN_SLOT and XS_OUT_SLOT): a value of a port that
 * only its DO_IN or DO_OLD outside every branch writes; a DO_OUT's value
 * that one operation outside every branch writes, after every operation
 * that can fault or read registers by index, where that port has no other
 * DO_OUT. Returns the ports computed in place. */
static uint16_t bind_ports(ops *t)
{
    uint8_t *top = top_level(t);
    if (!top)
        return 0;
    int last_fault = -1, nouts[DS_NPORTS] = {0};
    for (int i = 0; i < t->n; i++) {
        const ds_op *o = &t->x[i];
        if (can_fault(o->code))
            last_fault = i;
        if (o->code == DO_OUT && o->k >= 0 && o->k < DS_NPORTS)
            nouts[o->k]++;
    }
    int w;
    for (int i = 0; i < t->n; i++) {
        const ds_op *o = &t->x[i];
        if ((o->code == DO_IN || o->code == DO_OLD) && top[i] && o->d < DS_MAX_SLOTS && o->k >= 0 &&
            o->k < DS_NPORTS && writers(t, o->d, &w) == 1)
            rename_slot(t, o->d, XS_IN_SLOT(o->k, o->code == DO_OLD, o->width == 64));
    }
    uint16_t in_place = 0;
    for (int j = 0; j < t->n; j++) {
        const ds_op *o = &t->x[j];
        if (o->code != DO_OUT || !top[j] || o->width != 32 || o->a >= DS_MAX_SLOTS || o->k < 0 ||
            o->k >= DS_NPORTS || nouts[o->k] != 1)
            continue;
        const int first = first_writer(t, o->a, top, last_fault, j);
        if (first < 0)
            continue;
        in_place |= (uint16_t)(1u << o->k);
        rename_slot(t, o->a, XS_OUT_SLOT(o->k));
    }
    free(top);
    return in_place;
}

void sim_doc_lower(ds_prog *p)
{
    ops t = {malloc(sizeof(ds_op) * (size_t)(p->nops + 1)), p->nops, p->nslots};
    if (!t.x || p->nslots > DS_MAX_SLOTS)
        goto fail;
    if (p->nops) /* an empty program has no ops array */
        memcpy(t.x, p->ops, sizeof(ds_op) * (size_t)p->nops);
    if (!apply(&t, fuse_nan_tests) || !apply(&t, speculate_else) || !apply(&t, conditional_stores))
        goto fail;
    for (int guard = 0; guard < p->nops && pair_one(&t); guard++)
        ;
    if (!apply(&t, pair_sources))
        goto fail;
    if (!apply(&t, port_operands) || !apply(&t, add_chains) || !apply(&t, store_sources) ||
        !apply(&t, hoist_leads))
        goto fail;
    for (int i = 0; i < t.n; i++) {
        ds_op *o = &t.x[i];
        if (has_target(o->code) && o->code != XO_NANCHAIN)
            o->width = o->k >= 0 && o->k < t.n && t.x[o->k].code == DO_ENDIF ? XO_TO_ENDIF : 0;
    }
    free(p->run_ops);
    p->run_ops = t.x;
    p->run_nops = t.n;
    p->run_direct = direct_ok(&t);
    p->run_in_place = bind_ports(&t);
    p->run_nlead = (uint16_t)count_leads(&t);
    return;
fail:
    free(t.x); /* p->ops run as they are */
}
