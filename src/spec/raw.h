/* What the parser reads from description files, before names are resolved
 * (see model.h for the resolved instruction model). All memory is in the
 * loader's arena. */
#ifndef GISA_SPEC_RAW_H
#define GISA_SPEC_RAW_H
#include <stdint.h>

#include "common/diag.h"
#include "spec/expr.h"

typedef enum raw_kind {
    RAW_TARGET,  /* __DefTarget name<bits>            (project extension) */
    RAW_ENUM,    /* __DefBitFieldType name<bits>                            */
    RAW_REGTYPE, /* __DefRegisterType name<bits>      (project extension) */
    RAW_IMMTYPE, /* __DefImmediateType name<bits>     (project extension) */
    RAW_GROUP,   /* __DefGroup name : [parent]                              */
    RAW_OPTYPE,  /* __DefOptype name : [parent]                             */
    RAW_OPCODE,  /* __DefOpcode name : [parent]                             */
    RAW_RULING   /* __DefRuling name                  (project extension) */
} raw_kind;

typedef struct raw_value { /* one enumerator, or one key = value line */
    const char *name;
    const char *text; /* for key = value lines: the value text */
    const char *text2; /* "zero = RZ = 255": the second value */
    uint64_t value;
    int alias;         /* enumerator `SAT = FTZ;`: another name for FTZ's value */
    uint32_t more[3];  /* "bank = field<16, 4>, field<0, 1>": further ranges, off << 16 | width */
    int nmore;
    int has_value;
    srcloc loc;
} raw_value;

typedef struct raw_field {
    const char *name, *type;
    int off, width;
    int fixed;       /* written with == */
    int has_value;   /* written with == or = */
    const char *value; /* the value as written (a name or a number) */
    srcloc loc, value_loc, type_loc;
} raw_field;

typedef src_line raw_line; /* a line of a code fence, kept verbatim */

typedef enum oi_kind { OI_INLIST, OI_OUTLIST, OI_ORDER, OI_BITWIDTH, OI_ASMFORMAT, OI_MODIORDER } oi_kind;

typedef struct raw_opinfo {
    oi_kind kind;
    const char **names; /* list directives; Bitwidth/AsmFormat: names[0] = target */
    srcloc *name_locs;
    int nnames;
    expr *value;        /* Bitwidth expression */
    const char *func;   /* AsmFormat function */
    const char **args;
    int nargs;
    srcloc loc;
} raw_opinfo;

typedef struct raw_exception {
    const char *kind, *message;
    expr *cond;
    srcloc loc;
} raw_exception;

typedef struct raw_erratum { /* __DefRuling __Errata: KIND "ANCHOR" because "REASON" */
    const char *kind;   /* a lint warning kind (gisa_isa_lint_category) */
    const char *anchor; /* text the finding's message holds, as a whole */
    const char *reason;
    srcloc loc;
} raw_erratum;

typedef struct raw_def {
    raw_kind kind;
    const char *name, *parent;
    int width; /* <bits> of types and targets */
    srcloc loc, parent_loc;
    raw_value *values;
    int nvalues;
    raw_field *fields;
    int nfields;
    int has_syntax;
    raw_line *syntax; /* lines inside the __Syntax code fence */
    int nsyntax;
    raw_line *examples;
    int nexamples;
    raw_line *semantics;
    int nsemantics;
    raw_line *sempatch; /* __DefRuling: __SemanticPatch lines */
    int nsempatch;
    raw_erratum *errata; /* __DefRuling: __Errata lines, the findings it acknowledges */
    int nerrata;
    raw_opinfo *opinfo;
    int nopinfo;
    raw_exception *exceptions;
    int nexceptions;
    const char *description; /* first line of __Description */
    int ordinal;             /* position among all definitions */
} raw_def;

typedef struct raw_spec {
    raw_def **defs;
    int ndefs, cap;
} raw_spec;

struct arena;
/* Parses one file and appends its definitions. Returns the number of errors. */
int raw_parse_file(struct arena *a, raw_spec *spec, const char *file, const char *text, size_t len,
                   gisa_diags *diags);
#endif
