/* What the assembly features read from a line of source: its statements,
 * the mnemonic of each and its dotted parts, and names of the model. */
#ifndef GISA_LSP_ASMTEXT_H
#define GISA_LSP_ASMTEXT_H
#include <stddef.h>

#include "spec/model.h"

/* The statement of a line around byte `at` (line-relative): the text
 * between the ';' (or the line's ends) around it, comments cut off. */
typedef struct stmt {
    size_t a, z;        /* the statement's bytes in the line */
    size_t m0, m1;      /* its first word (mnemonic or directive), m0 == m1 if none */
    int directive;      /* the first word starts with '.' */
    int me;             /* the mnemonic's entry (isa->mnemonics), -1 if none */
    size_t mlen;        /* bytes of the first word that are the mnemonic (IMAD.WIDE of IMAD.WIDE.U32) */
} stmt;

void stmt_at(const gisa_isa *isa, const char *line, size_t len, size_t at, stmt *st);
/* The entry of a mnemonic (the longest dotted prefix of word[0..n) that is
 * one): its index and *used (the bytes it covers), or -1. */
int mnemonic_prefix(const gisa_isa *isa, const char *word, size_t n, size_t *used);
/* Whether s[0..n) names a register: 1 a register, 2 a predicate, 0 no. */
int register_kind(const gisa_isa *isa, const char *s, size_t n);
/* Letters, digits and '_'. */
int ident_char(char c);
#endif
