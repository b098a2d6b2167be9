/* Reading statements of assembly source for the editor features
 * (asmtext.h). The assembler proper parses for encoding; these only find
 * where the cursor is: which statement, which word, which operand. */
#include <string.h>

#include "lsp/asmtext.h"

int ident_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int mnemonic_prefix(const gisa_isa *isa, const char *word, size_t n, size_t *used)
{
    /* no mnemonic has more parts than the model's longest: look no further
     * (a line of a million dots costs one pass) */
    size_t parts = 0, cut = 0;
    while (cut < n && parts <= (size_t)isa->mnemonic_dots) {
        if (word[cut] == '.')
            parts++;
        if (parts <= (size_t)isa->mnemonic_dots)
            cut++;
    }
    n = cut;
    for (size_t len = n; len > 0; len--) {
        if (len < n && word[len] != '.')
            continue;
        int e = strmap_get(&isa->mnemonic_by_name, word, len);
        if (e >= 0) {
            *used = len;
            return e;
        }
    }
    *used = 0;
    return -1;
}

int register_kind(const gisa_isa *isa, const char *s, size_t n)
{
    if (n == 2 && !memcmp(s, "PR", 2))
        return 1;
    for (int i = 0; i < isa->ntypes; i++) {
        const isa_type *t = &isa->types[i];
        if (t->kind != TY_REG)
            continue;
        int k = t->rclass == RC_PRED || t->rclass == RC_UPRED ? 2 : 1;
        if (t->zero && (size_t)t->zero_len == n && !memcmp(t->zero, s, n))
            return k;
        size_t pl = (size_t)t->prefix_len;
        if (!t->prefix || n <= pl || n > pl + 5 || memcmp(t->prefix, s, pl))
            continue;
        uint64_t v = 0;
        size_t j = pl;
        while (j < n && s[j] >= '0' && s[j] <= '9')
            v = v * 10 + (uint64_t)(s[j++] - '0');
        if (j == n && v < t->zero_value)
            return k;
    }
    return 0;
}

/* The end of the code of a line: where a // or /\* comment starts. */
static size_t code_end(const char *line, size_t len)
{
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (!quoted && line[i] == '/' && i + 1 < len && (line[i + 1] == '/' || line[i + 1] == '*'))
            return i;
    }
    return len;
}

void stmt_at(const gisa_isa *isa, const char *line, size_t len, size_t at, stmt *st)
{
    size_t end = code_end(line, len);
    if (at > end)
        at = end;
    memset(st, 0, sizeof *st);
    st->me = -1;
    size_t a = 0;
    int quoted = 0;
    for (size_t i = 0; i < end; i++) { /* statements are separated by ';' outside strings */
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ';' && !quoted) {
            if (i >= at) {
                end = i;
                break;
            }
            a = i + 1;
        }
    }
    st->a = a;
    st->z = end;
    size_t p = a;
    while (p < end && (line[p] == ' ' || line[p] == '\t'))
        p++;
    if (p < end && line[p] == '@') { /* the guard */
        while (p < end && line[p] != ' ' && line[p] != '\t')
            p++;
        while (p < end && (line[p] == ' ' || line[p] == '\t'))
            p++;
    }
    st->m0 = st->m1 = p;
    if (p < end && line[p] == '.') {
        st->directive = 1;
        p++;
    }
    while (p < end && (ident_char(line[p]) || line[p] == '.'))
        p++;
    st->m1 = p;
    if (!st->directive && st->m1 > st->m0)
        st->me = mnemonic_prefix(isa, line + st->m0, st->m1 - st->m0, &st->mlen);
}
