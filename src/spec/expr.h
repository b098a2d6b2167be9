/* Expressions of the description language: Bitwidth<x> = 32 + (width=="64")*32,
 * EncodingError<...> = (hfmt_v2=="BF16_V2") and (ftz=="FTZ" or sat=="SAT"). */
#ifndef GISA_SPEC_EXPR_H
#define GISA_SPEC_EXPR_H
#include <stdint.h>

#include "common/diag.h"
#include "spec/cursor.h"

struct arena;
struct strbuf;

typedef enum expr_kind { EX_NUM, EX_STR, EX_NAME, EX_UNARY, EX_BINARY } expr_kind;
typedef enum expr_op {
    OP_OR, OP_AND, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NOT, OP_NEG
} expr_op;

typedef struct expr {
    expr_kind kind;
    expr_op op;
    int64_t num;        /* EX_NUM; EX_STR once resolved against a field's type */
    const char *text;   /* EX_STR / EX_NAME */
    int field;          /* EX_NAME once resolved: field index, else -1 */
    struct expr *a, *b;
    srcloc loc;
} expr;

#define EXPR_MAX_DEPTH 64
#define EXPR_MAX_NODES 256

/* Parses an expression at the cursor; `line` gives file/line for messages.
 * Returns NULL after reporting an error. */
expr *expr_parse(struct arena *a, cursor *c, const srcloc *line, gisa_diags *diags);
/* Evaluates a resolved expression over an opcode's field values. */
int64_t expr_eval(const expr *e, const uint64_t *fields);
void expr_print(const expr *e, struct strbuf *sb);
#endif
