/* Semantic tokens of assembly documents: each line's words classified by
 * what the model says they are (a mnemonic and its modifiers, registers,
 * predicates), the rest by their spelling. */
#include <string.h>

#include "lsp/asmtext.h"
#include "lsp/server.h"

enum { T_MNEMONIC, T_MODIFIER, T_REGISTER, T_PREDICATE, T_NUMBER, T_BANK, T_COMMENT, T_DIRECTIVE, T_STRING };

typedef struct tok_out {
    lsp_server *s;
    lsp_doc *d;
    strbuf *b;
    int n, last_line, last_char;
} tok_out;

static void emit(tok_out *o, size_t from, size_t to, int type)
{
    if (to <= from)
        return;
    lsp_pos a = doc_pos(o->s, o->d, from), z = doc_pos(o->s, o->d, to);
    if (z.line != a.line)
        return;
    int dl = a.line - o->last_line, dc = dl ? a.character : a.character - o->last_char;
    sb_printf(o->b, "%s%d,%d,%d,%d,0", o->n++ ? "," : "", dl, dc, z.character - a.character, type);
    o->last_line = a.line;
    o->last_char = a.character;
}

/* The tokens of one line's code (comments and strings emitted here too);
 * *in_comment carries a block comment over lines. */
static void line_tokens(tok_out *o, size_t ls, size_t le, int *in_comment)
{
    const gisa_isa *isa = o->s->opt.isa;
    const char *t = o->d->text;
    size_t i = ls;
    int first = 1; /* the next word starts a statement */
    while (i < le) {
        if (*in_comment) {
            size_t j = i;
            while (j < le && !(t[j] == '*' && j + 1 < le && t[j + 1] == '/'))
                j++;
            if (j < le) {
                j += 2;
                *in_comment = 0;
            }
            emit(o, i, j, T_COMMENT);
            i = j;
            continue;
        }
        char ch = t[i];
        if (ch == '/' && i + 1 < le && t[i + 1] == '/') {
            emit(o, i, le, T_COMMENT);
            return;
        }
        if (ch == '/' && i + 1 < le && t[i + 1] == '*') {
            *in_comment = 1;
            size_t j = i + 2;
            while (j < le && !(t[j] == '*' && j + 1 < le && t[j + 1] == '/'))
                j++;
            if (j < le) {
                j += 2;
                *in_comment = 0;
            }
            emit(o, i, j, T_COMMENT);
            i = j;
            continue;
        }
        if (ch == '"') {
            size_t j = i + 1;
            while (j < le && t[j] != '"')
                j++;
            j += j < le;
            emit(o, i, j, T_STRING);
            i = j;
            continue;
        }
        if (ch == ';') {
            first = 1;
            i++;
            continue;
        }
        if (ch == '@') { /* the guard's predicate */
            size_t j = i + 1 + (i + 1 < le && t[i + 1] == '!');
            size_t k = j;
            while (k < le && ident_char(t[k]))
                k++;
            emit(o, j, k, T_PREDICATE);
            i = k;
            continue;
        }
        if (first && (ch == '.' || ident_char(ch))) { /* a directive or a mnemonic with its modifiers */
            size_t j = i + (ch == '.');
            while (j < le && (ident_char(t[j]) || t[j] == '.'))
                j++;
            first = 0;
            if (ch == '.') {
                emit(o, i, j, T_DIRECTIVE);
            } else {
                size_t used;
                int me = isa ? mnemonic_prefix(isa, t + i, j - i, &used) : -1;
                const char *dot = memchr(t + i, '.', j - i);
                size_t mend = me >= 0 ? i + used : dot ? (size_t)(dot - t) : j;
                emit(o, i, mend, T_MNEMONIC);
                for (size_t k = mend; k < j;) {
                    size_t e = k + 1;
                    while (e < j && t[e] != '.')
                        e++;
                    emit(o, k + 1, e, T_MODIFIER);
                    k = e;
                }
            }
            i = j;
            continue;
        }
        if (ch == '$') { /* $sched=N and the other controls */
            size_t j = i + 1;
            while (j < le && ident_char(t[j]))
                j++;
            emit(o, i, j, T_MODIFIER);
            i = j;
            continue;
        }
        if ((ch >= '0' && ch <= '9') || (ch == '.' && i + 1 < le && t[i + 1] >= '0' && t[i + 1] <= '9')) {
            size_t j = i;
            while (j < le && (ident_char(t[j]) || t[j] == '.' ||
                              ((t[j] == '+' || t[j] == '-') && (t[j - 1] == 'e' || t[j - 1] == 'E'))))
                j++;
            emit(o, i, j, T_NUMBER);
            i = j;
            continue;
        }
        if (ident_char(ch)) {
            size_t j = i;
            while (j < le && ident_char(t[j]))
                j++;
            int k = isa ? register_kind(isa, t + i, j - i) : 0;
            if (j - i == 1 && t[i] == 'c' && j < le && t[j] == '[')
                emit(o, i, j, T_BANK);
            else if (j < le && t[j] == '[' && (t[i] == 'R' || t[i] == 'U'))
                emit(o, i, j, T_REGISTER); /* R[2:3], UR[4:5] */
            else if (k)
                emit(o, i, j, k == 2 ? T_PREDICATE : T_REGISTER);
            else if ((j - i == 3 && (!memcmp(t + i, "inf", 3) || !memcmp(t + i, "nan", 3))))
                emit(o, i, j, T_NUMBER);
            i = j;
            continue;
        }
        if (ch == '.' && i > ls && ident_char(t[i - 1])) { /* an operand's suffix: R1.H0_H0 */
            size_t j = i + 1;
            while (j < le && ident_char(t[j]))
                j++;
            emit(o, i + 1, j, T_MODIFIER);
            i = j;
            continue;
        }
        i++;
    }
}

void asm_tokens(lsp_server *s, lsp_doc *d, strbuf *b)
{
    tok_out o = {s, d, b, 0, 0, 0};
    sb_puts(b, "{\"data\":[");
    int in_comment = 0;
    for (size_t l = 0; l < d->nlines; l++) {
        size_t a, z;
        if (doc_line(d, (int)l, &a, &z))
            line_tokens(&o, a, z, &in_comment);
    }
    sb_puts(b, "]}");
}
