/* What the references of an opcode read from the model: the plain text of
 * `gisa doc` (doc.c) and the HTML manual (src/manual/) say the same things
 * in two formats, from these helpers. */
#ifndef GISA_SPEC_DOC_H
#define GISA_SPEC_DOC_H
#include "common/strbuf.h"
#include "spec/model.h"

/* "register", "F32 immediate", "constant memory c[bank][offset]", ... */
const char *doc_operand_kind(const opnd_slot *o);

/* A field value as the documents name it: "RZ (3)" for an enumerator, the
 * register's name, else the number. */
void doc_value_text(const isa_field *f, uint64_t v, strbuf *sb);

/* One stretch of the word, from bit hi down to bit lo: a field (its index)
 * or bits no field covers (field -1, which must be 0). */
typedef struct doc_span {
    int field;
    int hi, lo;
} doc_span;

#define DOC_MAX_FIELDS 256 /* the most fields the loader accepts in an opcode (syntax.c) */
#define DOC_MAX_SPANS (2 * DOC_MAX_FIELDS + 1)

/* The word's stretches from bit word_bits-1 down to 0, fields in offset
 * order with the gaps between them, into out[cap]; returns how many (at
 * most cap, at most 2 * nfields + 1). */
int doc_layout(const isa_opcode *op, int word_bits, doc_span *out, int cap);

/* Whether the operand-info list (InList, OutList, NULL: none) names the
 * opcode's field. */
int doc_list_names(const raw_opinfo *list, const isa_opcode *op, int field);

/* The definitions an opcode's optype consists of are the chain's; the
 * functional unit it belongs to (FALU, IALU; FERMI) is the outermost
 * group below the root group, else the root: NULL when there is none. */
const raw_def *doc_unit(const isa_opcode *op);
#endif
