/* The symbolic back end of the doc engine (issue 28): a compiled semantics
 * program (docsem/prog.h), the one `gisa run --engine doc` runs, becomes
 * SMT terms for one lane (term.c), which prove.c chains over a straight-
 * line program. Only built with Z3 (HAVE_Z3). */
#ifndef GISA_PROVE_TERM_H
#define GISA_PROVE_TERM_H
#ifdef HAVE_Z3
#include <z3.h>

#include "docsem/prog.h"

/* One word's formula, over variables that stand for its ports: the sources
 * (lo/hi words, predicates), the results' old values, the predicate file.
 * A variable is made only for a port the program reads (NULL otherwise);
 * an output is NULL when the program does not write it. prove.c substitutes
 * the machine's terms for the variables each time the word runs. */
typedef struct pv_tmpl {
    const char *why; /* set: the word is not supported (nothing else is set) */
    char why_buf[200];
    Z3_ast in_lo[DS_NPORTS], in_hi[DS_NPORTS], pred[DS_NPORTS];
    Z3_ast old_lo[DS_NPORTS], old_hi[DS_NPORTS], old_pred[DS_NPORTS];
    Z3_ast pfile; /* 8 bits: P0..P6, PT in bit 7 */
    Z3_ast out_lo[DS_NPORTS], out_hi[DS_NPORTS], out_pred[DS_NPORTS];
    Z3_ast out_pfile, out_pfile_we;
    Z3_ast fault; /* Bool: the program faults */
} pv_tmpl;

/* Builds t for program p of optype `optype` (named in the errors); id makes
 * the variables' names unique. Returns 0, or -1 with t->why set. */
int pv_build(Z3_context z, const ds_prog *p, const char *optype, int id, pv_tmpl *t);
#endif
#endif
