/* The HTML reference manual (gisa_isa_manual): what its parts share. */
#ifndef GISA_MANUAL_MANUAL_H
#define GISA_MANUAL_MANUAL_H
#include "common/strbuf.h"
#include "spec/doc.h"
#include "spec/model.h"

/* One finding of lint, attributed to the definition it is about. */
typedef struct man_note {
    const raw_def *def;
    gisa_severity severity;
    const char *file;
    int line;
    const char *message;
} man_note;

/* The HTML class of a finding: error, warning or note (an erratum a ruling
 * acknowledges, a semantic patch). */
static inline const char *man_note_class(const man_note *n)
{
    return n->severity == GISA_ERROR ? "error" : n->severity == GISA_NOTE ? "note" : "warning";
}

/* One example line of the documents, assembled. */
typedef struct man_example {
    const raw_def *def;  /* the definition it is written in */
    const raw_line *line;
    int opcode;          /* the opcode its word decodes to, -1 when it did not assemble */
    char hex[40];        /* the word as `gisa as --format hex` writes it */
    char text[256];      /* canonical text, or the assembler's error */
} man_example;

typedef struct manual {
    const gisa_isa *isa;
    gisa_diags *lint;    /* owns the notes' strings */
    man_note *notes;
    int nnotes;
    man_example *examples;
    int nexamples;
} manual;

/* The encoding diagram of an opcode: inline SVG, 32 bits a row, then the
 * table of its fields. */
void man_diagram(const manual *m, const isa_opcode *op, strbuf *sb);

/* The pages of one optype and of one opcode. */
void man_optype_page(const manual *m, const isa_optype *ot, strbuf *sb);
void man_opcode_page(const manual *m, const isa_opcode *op, strbuf *sb);

/* The encoding-space map (encoding.html). */
void man_encoding_page(const manual *m, strbuf *sb);

/* Whether def is one of the opcode's definitions (its chain). */
int man_in_chain(const isa_opcode *op, const raw_def *def);
/* The findings about the opcode's definitions, as a list (nothing when
 * there are none). */
void man_notes(const manual *m, const isa_opcode *op, const isa_optype *ot, strbuf *sb);
#endif
