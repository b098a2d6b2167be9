/* The parsed form of a `__Semantics` block (see docs/semantics-language.md):
 * one variant per header line (`IADD.X Rd, pu, Ra, SrcB, pp:`), each a
 * statement tree. Built by parse.c from the (patched) lines of the block;
 * all memory in the caller's arena. */
#ifndef GISA_DOCSEM_AST_H
#define GISA_DOCSEM_AST_H
#include <stdint.h>

#include "common/arena.h"
#include "common/diag.h"

typedef __int128 ds_int;

/* operators: single characters are their own code; the rest follow */
enum {
    DT_LE = 256, DT_GE, DT_EQ, DT_NE, DT_AND, DT_OR, DT_SHL, DT_SHR, DT_INC, DT_DEC,
    DT_ADDEQ, DT_SUBEQ, DT_MULEQ, DT_OREQ, DT_ANDEQ, DT_XOREQ, DT_SHLEQ, DT_SHREQ
};

typedef enum ds_kind {
    /* expressions */
    N_NUM,    /* integer literal: num */
    N_FLT,    /* real literal: fnum (0.0f, +0.0, 1.0) */
    N_STR,    /* "text" (assert messages) */
    N_NAME,   /* a variable, operand or constant name */
    N_MOD,    /* .name: a modifier (.rnd) or a value name (.RN) */
    N_MEMBER, /* a.name: Ra.hsel2, thread(l).Rb */
    N_CALL,   /* name(args) or expr(args) (F(Ra, SrcB, Rc)) */
    N_INDEX,  /* a[i] */
    N_SLICE,  /* a[hi:lo], either order as written; hi/lo normalised at compile time */
    N_UN,     /* op a: ! ~ - + */
    N_BIN,    /* a op b */
    N_MODOP,  /* a name b: a modifier used as an operator (Ra cmp SrcB) */
    N_ABS,    /* |a| */
    N_TERN,   /* a ? b : c */
    /* statements */
    S_ASSIGN, /* list[0..n-1] = a (chained targets), op: '=' or a compound op; DT_INC/DT_DEC: a++ */
    S_MULTI,  /* list[0..n-1] = a: P0,P1,... = f(...) (one value per target) */
    S_DECL,   /* name (typed as type) [= a] */
    S_IF,     /* if (a) b else c */
    S_FOR,    /* for (a; b; c) d */
    S_SWITCH, /* switch (a) { list: S_CASE } */
    S_CASE,   /* case a: list (stmts) */
    S_BREAK,
    S_BLOCK,  /* list */
    S_EXPR    /* a; (assert(...)) */
} ds_kind;

typedef struct ds_node ds_node;
struct ds_node {
    ds_kind kind;
    int op;
    const char *name;
    const char *type; /* S_DECL: UINT64 ... */
    ds_int num;
    double fnum;
    ds_node *a, *b, *c, *d;
    ds_node **list;
    int n;
    srcloc loc;
};

typedef struct ds_variant {
    const char *header;    /* the header line as written, without ':' */
    const char *mnemonic;  /* first word: "IADD", "IDP" */
    const char **words;    /* dotted words after the first ("X", "itype", "2A") */
    int nwords;
    ds_node *body;         /* S_BLOCK */
    srcloc loc;
} ds_variant;

/* One line of a block with where it came from (document or ruling): the
 * description's own lines (raw_line), not a copy (a copy per line of a
 * 90,000-line block was 5 MB an optype, and again in lint's rebuild). */
typedef src_line ds_line;

/* The deepest statement or expression tree the parser hands on, counted
 * from the variant's body: one level per statement, operator, call,
 * parenthesis or index, so that a chain of 5,000 `+` is 5,000 levels deep.
 * The compiler, lint and every other walk of the tree recurse, and this
 * bound (the documents need a few tens) keeps them inside small thread and
 * sanitizer stacks: the compiler's cc_expr takes about 2 KB a level, 4 KB
 * under ASan, so 1 MiB at most. A deeper tree is an error of the variant at
 * the place where it crosses the bound. */
#define DS_MAX_NESTING 256

/* The tokens of one optype's pseudo-code, all its variants together (the
 * documents' longest has a few hundred). The tree takes about 200 bytes a
 * token, so one optype holds at most about 15 MB; the loader's memory
 * budget (gisa_load_options.max_memory) bounds the optypes together. A
 * block over it is an error at the first token past the limit, and nothing
 * after it is parsed. */
#define DS_MAX_TOKENS 65536

/* Parses lines[0..n-1] into variants. Returns the number of errors added to
 * diags (file:line:col of the offending token); *out / *nout are the
 * variants parsed so far. */
int ds_parse_block(arena *a, const ds_line *lines, int n, ds_variant **out, int *nout, gisa_severity sev,
                   gisa_diags *diags);

/* Whether a line is a variant header: text at column 1 ending with ':' */
int ds_is_header(const char *line);
#endif
