/* Builders of the compiled field access of fields.h. */
#include <string.h>

#include "spec/fields.h"

static void *alloc(arena *a, size_t n, size_t size) { return arena_alloc(a, size * (n ? n : 1)); }

int field_reads_build(arena *a, const isa_opcode *op, const uint8_t *used, field_reads *r)
{
    field_rd *x = alloc(a, (size_t)op->nfields, sizeof *x);
    uint64_t *m = alloc(a, (size_t)op->nfields, sizeof *m);
    if (!x || !m)
        return -1;
    int n = 0;
    *r = (field_reads){0};
    for (int part = 0; part < 3; part++) /* in w[0], in w[1], straddling */
        for (int i = 0; i < op->nfields; i++) {
            const isa_field *f = &op->fields[i];
            if ((f->off + f->width <= 64 ? 0 : f->off >= 64 ? 1 : 2) != part || !used[i])
                continue;
            m[n] = f->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->width) - 1;
            x[n++] = (field_rd){(uint8_t)i, (uint8_t)(f->off & 63)};
            r->n[part]++;
        }
    r->x = x;
    r->mask = m;
    return 0;
}

/* Adds the fields e reads to p; -1 when they are too many for a table. */
static int pred_inputs(const isa_opcode *op, const expr *e, field_pred *p)
{
    if (!e)
        return 0;
    if (e->kind == EX_NAME && e->field >= 0) {
        int bits = 0, seen = 0;
        for (int i = 0; i < p->nfields; i++) {
            bits += p->width[i];
            seen |= p->field[i] == e->field;
        }
        if (seen)
            return 0;
        int w = op->fields[e->field].width;
        if (p->nfields == FIELD_PRED_FIELDS || bits + w > FIELD_PRED_BITS)
            return -1;
        p->field[p->nfields] = (uint8_t)e->field;
        p->width[p->nfields++] = (uint8_t)w;
        return 0;
    }
    return pred_inputs(op, e->a, p) || pred_inputs(op, e->b, p);
}

void field_pred_build(arena *a, const isa_opcode *op, const expr *const *e, int ne, int64_t want, field_pred *p)
{
    *p = (field_pred){0};
    for (int i = 0; i < ne; i++)
        if (pred_inputs(op, e[i], p))
            return;
    int bits = 0;
    for (int i = 0; i < p->nfields; i++)
        bits += p->width[i];
    uint8_t *table = alloc(a, (size_t)1 << bits, 1);
    if (!table)
        return;
    memset(table, 0, (size_t)1 << bits);
    uint64_t vals[SPEC_NVALS] = {0};
    for (unsigned k = 0; k < 1u << bits; k++) {
        for (int i = p->nfields - 1, at = 0; i >= 0; at += p->width[i--])
            vals[p->field[i]] = k >> at & ((1u << p->width[i]) - 1);
        for (int j = 0; j < ne && !table[k]; j++) {
            int64_t v = expr_eval(e[j], vals);
            table[k] = (uint8_t)(want < 0 ? v != 0 : v == want);
        }
    }
    p->table = table;
}
