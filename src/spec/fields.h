/* Field values of one instruction word, and compiled access to them.
 *
 * An opcode's fields are numbered as in isa_opcode.fields; every table
 * below is indexed by that number. A value array has SPEC_NVALS slots: the
 * fields, and one more (SPEC_NONE) that always holds 0, so that a table
 * entry for an absent field needs no test. Readers and writers of fields
 * are grouped by the half of the word a field lies in, so that reading the
 * fields of a word is three short branch-free loops: decoding, encoding and
 * every tool built on them share these. */
#ifndef GISA_SPEC_FIELDS_H
#define GISA_SPEC_FIELDS_H
#include <stdint.h>

#include "spec/model.h"

#define SPEC_MAXF 64                /* most fields an opcode may have */
#define SPEC_NVALS (SPEC_MAXF + 1)  /* value slots: the fields and an always-zero one */
#define SPEC_NONE SPEC_MAXF         /* index of the always-zero value: an absent field */

typedef struct field_rd { /* one field: vals[field] = w[i] >> sh & mask */
    uint8_t field, sh;
} field_rd;

typedef struct field_reads { /* some fields of an opcode: in w[0], in w[1], straddling both */
    const field_rd *x;
    const uint64_t *mask; /* [i]: x[i]'s, apart: the reading loop's data then fits in few cache lines */
    uint8_t n[3];
} field_reads;

/* The values of the fields r lists, from the word. */
static inline void fields_read(const field_reads *r, const gisa_word *w, uint64_t *vals)
{
    const uint64_t w0 = w->w[0], w1 = w->w[1];
    const field_rd *x = r->x;
    const uint64_t *mask = r->mask;
    int i = 0, n0 = r->n[0], n1 = n0 + r->n[1], n2 = n1 + r->n[2];
    for (; i < n0; i++)
        vals[x[i].field] = w0 >> x[i].sh & mask[i];
    for (; i < n1; i++)
        vals[x[i].field] = w1 >> x[i].sh & mask[i];
    for (; i < n2; i++)
        vals[x[i].field] = (w0 >> x[i].sh | w1 << (64 - x[i].sh)) & mask[i];
}

/* The bits of the fields r lists, from their values (the inverse of
 * fields_read; a value wider than its field is cut to it). */
static inline gisa_word fields_write(const field_reads *r, const uint64_t *vals)
{
    uint64_t w0 = 0, w1 = 0;
    const field_rd *x = r->x;
    const uint64_t *mask = r->mask;
    int i = 0, n0 = r->n[0], n1 = n0 + r->n[1], n2 = n1 + r->n[2];
    for (; i < n0; i++)
        w0 |= (vals[x[i].field] & mask[i]) << x[i].sh;
    for (; i < n1; i++)
        w1 |= (vals[x[i].field] & mask[i]) << x[i].sh;
    for (; i < n2; i++) {
        uint64_t v = vals[x[i].field] & mask[i];
        w0 |= v << x[i].sh;
        w1 |= v >> (64 - x[i].sh);
    }
    return (gisa_word){{w0, w1}};
}

#define FIELD_PRED_FIELDS 4 /* a predicate of up to 4 fields ... */
#define FIELD_PRED_BITS 12  /* ... of up to 12 bits in all is a table */

/* A yes/no function of field values (a Bitwidth is 64, an __Exception
 * holds), tabulated by the values of the few fields it reads. */
typedef struct field_pred {
    const uint8_t *table; /* NULL: too many inputs, evaluate the expressions */
    uint8_t field[FIELD_PRED_FIELDS], width[FIELD_PRED_FIELDS];
    uint8_t nfields;
} field_pred;

static inline int field_pred_table(const field_pred *p, const uint64_t *vals)
{
    unsigned k = 0;
    for (int i = 0; i < p->nfields; i++)
        k = k << p->width[i] | (unsigned)vals[p->field[i]];
    return p->table[k];
}

/* Builders (fields.c), allocating in the model's arena. */
/* Readers of the fields of op marked in used[]. */
int field_reads_build(arena *a, const isa_opcode *op, const uint8_t *used, field_reads *r);
/* Tabulates "any of e[0..ne) evaluates to want" (want < 0: to non-zero);
 * leaves table NULL when the inputs are too many. */
void field_pred_build(arena *a, const isa_opcode *op, const expr *const *e, int ne, int64_t want, field_pred *p);
#endif
