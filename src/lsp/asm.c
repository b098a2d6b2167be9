/* The assembly documents' features: the assembler's diagnostics, hover
 * (gisa doc's text, a line's encoding), completion, signature help,
 * go-to-definition and semantic tokens. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/readfile.h"
#include "lsp/asmtext.h"
#include "lsp/server.h"
#include "spec/doc.h"

#define MAX_DIAGS 1000 /* published per document */

/* ------------------------------------------------------------ includes */

typedef struct reader {
    lsp_server *s;
} reader;

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    char *d = malloc(n + 2);
    if (!d)
        return NULL;
    if (slash) {
        memcpy(d, path, n ? n : 1);
        d[n ? n : 1] = 0;
    } else {
        strcpy(d, ".");
    }
    return d;
}

/* The file `name` included from `from`: the including file's directory,
 * then the include directories; NULL when none exists. */
static char *resolve_include(const lsp_server *s, const char *from, const char *name)
{
    if (s->opt.no_files || !*name)
        return NULL;
    size_t ndirs = s->opt.ninclude_dirs + 1;
    for (size_t i = 0; i < ndirs; i++) {
        char *dir = i ? NULL : dir_of(from);
        const char *base = i ? s->opt.include_dirs[i - 1] : dir;
        if (!base)
            return NULL;
        size_t n = strlen(base) + strlen(name) + 2;
        char *p = malloc(n);
        if (p)
            snprintf(p, n, "%s/%s", base, name);
        free(dir);
        if (name[0] == '/' && p)
            snprintf(p, n, "%s", name);
        FILE *f = p ? fopen(p, "rb") : NULL;
        if (f) {
            fclose(f);
            char *real = realpath(p, NULL);
            if (real) {
                free(p);
                return real;
            }
            return p;
        }
        free(p);
        if (name[0] == '/')
            break;
    }
    return NULL;
}

static gisa_status include_read(void *user, const char *from, const char *name, gisa_include *inc, char *why,
                                size_t cap)
{
    reader *r = user;
    char *path = resolve_include(r->s, from, name);
    if (!path) {
        snprintf(why, cap, r->s->opt.no_files ? "no files are read here" : "no such file");
        return GISA_ERR_IO;
    }
    for (int i = 0; i < r->s->ndocs; i++) /* an open document: its text in the editor */
        if (!strcmp(r->s->docs[i]->path, path)) {
            char *copy = malloc(r->s->docs[i]->len + 1);
            if (!copy)
                break;
            memcpy(copy, r->s->docs[i]->text, r->s->docs[i]->len + 1);
            inc->name = inc->id = path;
            inc->text = copy;
            inc->len = r->s->docs[i]->len;
            inc->handle = copy;
            return GISA_OK;
        }
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0;
    int e = f ? file_read_all(f, &buf, &len) : 1;
    if (f)
        fclose(f);
    if (e) {
        snprintf(why, cap, "cannot read it");
        free(path);
        return GISA_ERR_IO;
    }
    inc->name = inc->id = path;
    inc->text = buf;
    inc->len = len;
    inc->handle = buf;
    return GISA_OK;
}

static void include_release(void *user, gisa_include *inc)
{
    (void)user;
    free(inc->handle);
    free((char *)inc->name);
}

/* ------------------------------------------------------------ diagnostics */

/* The line of the main file that an included file's diagnostic comes
 * through ("In file included from MAIN:LINE"), 0 if none. */
static int included_at(const char *context, const char *main)
{
    if (!context || !*main)
        return 0;
    size_t n = strlen(main);
    int line = 0;
    for (const char *p = strstr(context, main); p; p = strstr(p + 1, main))
        if (p[n] == ':' && p[n + 1] >= '0' && p[n + 1] <= '9') {
            long v = strtol(p + n + 1, NULL, 10);
            line = v > 0 && v < INT_MAX ? (int)v : 0;
        }
    return line;
}

void asm_diagnostics(lsp_server *s, lsp_doc *d, strbuf *b)
{
    sb_putc(b, '[');
    gisa_diags *dg;
    if (!s->opt.isa || gisa_diags_new(&dg) != GISA_OK) {
        sb_putc(b, ']');
        return;
    }
    gisa_diags_set_limit(dg, MAX_DIAGS);
    reader r = {s};
    gisa_asm_options opt = GISA_ASM_OPTIONS_INIT;
    opt.include = include_read;
    opt.release = include_release;
    opt.user = &r;
    gisa_word *words = NULL;
    size_t n = 0;
    gisa_assemble(s->opt.isa, d->path, d->text, d->len, &opt, &words, &n, dg);
    gisa_free(words);
    int k = 0;
    for (size_t i = 0; i < gisa_diags_count(dg); i++) {
        const gisa_diag *g = gisa_diags_get(dg, i);
        lsp_pos a, z;
        strbuf msg;
        sb_init(&msg);
        if (!g->file || strcmp(g->file, d->path)) { /* in an included file: at its .include */
            int at = included_at(g->context, d->path);
            a.line = z.line = at > 0 ? at - 1 : 0;
            a.character = 0;
            size_t ls, le;
            z = doc_line(d, a.line, &ls, &le) ? doc_pos(s, d, le) : a;
            sb_printf(&msg, "%s:%d:%d: %s", g->file ? g->file : "", g->line, g->col, g->message);
        } else {
            a = doc_cp_pos(s, d, g->line - 1, g->col > 0 ? g->col - 1 : 0);
            z = doc_cp_pos(s, d, g->line - 1, (g->col > 0 ? g->col - 1 : 0) + (g->length > 0 ? g->length : 1));
            sb_puts(&msg, g->message);
        }
        put_diagnostic(b, k++ == 0, a, z, g, "gisa", &msg);
        sb_free(&msg);
    }
    sb_putc(b, ']');
    gisa_diags_free(dg);
}

/* ------------------------------------------------------------ cursor */

typedef struct at_cursor {
    size_t ls, le;    /* the line's bytes in the text */
    size_t col;       /* the cursor's byte in the line */
    char *line;       /* a copy of the line, its block comments blanked */
    size_t len;
    stmt st;
} at_cursor;

static int locate(lsp_server *s, lsp_doc *d, lsp_pos p, at_cursor *c)
{
    c->line = NULL;
    if (!doc_line(d, p.line, &c->ls, &c->le))
        return 0;
    size_t off = doc_offset(s, d, p);
    c->col = off - c->ls;
    c->len = c->le - c->ls;
    if (!(c->line = malloc(c->len + 1)))
        return 0;
    memcpy(c->line, d->text + c->ls, c->len);
    c->line[c->len] = 0;
    /* a comment closed on the line is space between the words around it */
    for (char *q = c->line; (q = strstr(q, "/*"));) {
        char *e = strstr(q + 2, "*/");
        if (!e)
            break;
        memset(q, ' ', (size_t)(e + 2 - q));
        q = e + 2;
    }
    stmt_at(s->opt.isa, c->line, c->len, c->col, &c->st);
    return 1;
}

/* The operand the cursor is in: commas before it in the statement, outside
 * brackets. */
static int operand_index(const at_cursor *c)
{
    int n = 0, depth = 0;
    for (size_t i = c->st.m1; i < c->col && i < c->st.z; i++) {
        char ch = c->line[i];
        depth += ch == '[' ? 1 : ch == ']' ? -1 : 0;
        n += ch == ',' && depth <= 0;
    }
    return n;
}

/* ------------------------------------------------------------ hover */

static void put_fenced(strbuf *md, const char *text)
{
    sb_puts(md, "```\n");
    sb_puts(md, text);
    if (*text && text[strlen(text) - 1] != '\n')
        sb_putc(md, '\n');
    sb_puts(md, "```\n");
}

/* The encoding of the statement's words, when it assembles alone. */
static void put_encoding(lsp_server *s, const at_cursor *c, strbuf *md)
{
    if (c->st.m1 == c->st.m0)
        return;
    gisa_diags *dg;
    if (gisa_diags_new(&dg) != GISA_OK)
        return;
    gisa_word *w = NULL;
    size_t n = 0;
    if (gisa_assemble(s->opt.isa, "line", c->line + c->st.a, c->st.z - c->st.a, NULL, &w, &n, dg) == GISA_OK && n) {
        char *hex = NULL;
        size_t len = 0;
        if (gisa_words_serialize(s->opt.isa, w, n, GISA_FMT_HEX, &hex, &len) == GISA_OK) {
            sb_puts(md, "Encoding: `");
            for (size_t i = 0; i < len; i++)
                if (hex[i] == '\n') {
                    if (i + 1 < len)
                        sb_puts(md, "`, `");
                } else {
                    sb_putc(md, hex[i]);
                }
            sb_puts(md, "`\n\n");
        }
        gisa_free(hex);
    }
    gisa_free(w);
    gisa_diags_free(dg);
}

static const isa_opcode *entry_opcode(const gisa_isa *isa, int me, int k)
{
    return &isa->opcodes[isa->mnemonics[me].opcode[k]];
}

static const syntax_form *entry_form(const gisa_isa *isa, int me, int k)
{
    return &entry_opcode(isa, me, k)->forms[isa->mnemonics[me].form[k]];
}

/* The modifier slot spelled word[0..n) in the mnemonic's forms: its form
 * (*k) and choice (*choice). */
static const mod_slot *find_modifier(const gisa_isa *isa, int me, const char *word, size_t n, int *k, int *choice)
{
    for (int i = 0; i < isa->mnemonics[me].n; i++) {
        const syntax_form *f = entry_form(isa, me, i);
        for (int m = 0; m < f->nmods; m++)
            for (int ch = 0; ch < f->mods[m].nchoices; ch++)
                if ((size_t)f->mods[m].choices[ch].len == n && !memcmp(f->mods[m].choices[ch].spell, word, n)) {
                    *k = i;
                    *choice = ch;
                    return &f->mods[m];
                }
    }
    return NULL;
}

static void asm_hover_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp);

void asm_hover(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b)
{
    at_cursor c = {0};
    asm_hover_at(s, d, p, b, &c);
    free(c.line);
}

static void asm_hover_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp)
{
    const gisa_isa *isa = s->opt.isa;
    if (!isa || !locate(s, d, p, cp) || cp->st.me < 0 || cp->col < cp->st.m0 || cp->col > cp->st.z) {
        sb_puts(b, "null");
        return;
    }
    strbuf md;
    sb_init(&md);
    const mnemonic_entry *me = &isa->mnemonics[cp->st.me];
    size_t w0 = cp->col, w1 = cp->col; /* the word under the cursor */
    while (w0 > cp->st.m0 && ident_char(cp->line[w0 - 1]))
        w0--;
    while (w1 < cp->st.z && ident_char(cp->line[w1]))
        w1++;
    if (cp->col <= cp->st.m0 + cp->st.mlen) { /* the mnemonic */
        sb_printf(&md, "**%s**\n\n", me->mnemonic);
        put_encoding(s, cp, &md);
        char *doc = NULL;
        if (gisa_isa_doc(isa, entry_opcode(isa, cp->st.me, 0)->optype->name, &doc) == GISA_OK)
            put_fenced(&md, doc);
        gisa_free(doc);
    } else if (cp->col <= cp->st.m1) { /* a modifier */
        int k, ch;
        const mod_slot *m = find_modifier(isa, cp->st.me, cp->line + w0, w1 - w0, &k, &ch);
        if (!m) {
            sb_puts(b, "null");
            sb_free(&md);
            return;
        }
        sb_printf(&md, "**%s.%.*s**: modifier `%s` of %s: ", me->mnemonic, (int)(w1 - w0), cp->line + w0, m->name,
                  me->mnemonic);
        for (int i = 0; i < m->nchoices; i++)
            sb_printf(&md, "%s`.%s`%s", i ? " " : "", m->choices[i].spell, i == m->def_choice ? " (default)" : "");
        sb_puts(&md, m->optional ? ", optional\n\n" : "\n\n");
        put_encoding(s, cp, &md);
        put_fenced(&md, entry_form(isa, cp->st.me, k)->text);
    } else { /* an operand: what each form takes there */
        int op = operand_index(cp);
        sb_printf(&md, "**%s** operand %d\n\n", me->mnemonic, op + 1);
        put_encoding(s, cp, &md);
        for (int i = 0; i < me->n && i < 16; i++) {
            const syntax_form *f = entry_form(isa, cp->st.me, i);
            if (op < f->nops)
                sb_printf(&md, "- `%s` (%s): %s\n", f->ops[op].name, entry_opcode(isa, cp->st.me, i)->name,
                          doc_operand_kind(&f->ops[op]));
        }
    }
    lsp_pos a = doc_pos(s, d, cp->ls + w0), z = doc_pos(s, d, cp->ls + w1);
    sb_puts(b, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
    jstr(b, md.s ? md.s : "", md.len);
    sb_puts(b, "},\"range\":");
    put_range(b, a, z);
    sb_putc(b, '}');
    sb_free(&md);
}

/* ------------------------------------------------------------ completion */

typedef struct items {
    strbuf *b;
    int n;
    char **seen;
    size_t nseen, cap;
} items;

static int seen(items *it, const char *label)
{
    for (size_t i = 0; i < it->nseen; i++)
        if (!strcmp(it->seen[i], label))
            return 1;
    if (it->nseen == it->cap) {
        size_t cap = it->cap ? it->cap * 2 : 64;
        char **s = realloc(it->seen, cap * sizeof *s);
        if (!s)
            return 0;
        it->seen = s;
        it->cap = cap;
    }
    char *copy = strdup(label);
    if (copy)
        it->seen[it->nseen++] = copy;
    return 0;
}

static void item(items *it, const char *label, int kind, const char *detail)
{
    if (seen(it, label))
        return;
    sb_puts(it->b, it->n++ ? ",{\"label\":" : "{\"label\":");
    jcstr(it->b, label);
    sb_printf(it->b, ",\"kind\":%d", kind);
    if (detail) {
        sb_puts(it->b, ",\"detail\":");
        jcstr(it->b, detail);
    }
    sb_putc(it->b, '}');
}

static const char *const directives[] = {"inst", "word", "invalid", "include"};

enum { K_FUNCTION = 3, K_VARIABLE = 6, K_KEYWORD = 14, K_ENUM_MEMBER = 20 };

static void complete_registers(const gisa_isa *isa, items *it)
{
    char name[64];
    for (int i = 0; i < isa->ntypes; i++) {
        const isa_type *t = &isa->types[i];
        if (t->kind != TY_REG)
            continue;
        const char *what = t->rclass == RC_PRED || t->rclass == RC_UPRED ? "predicate" : "register";
        if (t->zero)
            item(it, t->zero, K_VARIABLE, what);
        for (uint64_t v = 0; t->prefix && v < t->zero_value && v < 256; v++) {
            snprintf(name, sizeof name, "%s%llu", t->prefix, (unsigned long long)v);
            item(it, name, K_VARIABLE, what);
        }
    }
}

static void asm_completion_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp);

void asm_completion(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b)
{
    at_cursor c = {0};
    asm_completion_at(s, d, p, b, &c);
    free(c.line);
}

static void asm_completion_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp)
{
    const gisa_isa *isa = s->opt.isa;
    if (!isa || !locate(s, d, p, cp)) {
        sb_puts(b, "null");
        return;
    }
    items it = {b, 0, NULL, 0, 0};
    sb_puts(b, "{\"isIncomplete\":false,\"items\":[");
    if (cp->col < cp->st.m0 || cp->col > cp->st.z) {
        /* in a comment or before a guard: nothing */
    } else if (cp->col <= cp->st.m1 && cp->st.directive) {
        for (size_t i = 0; i < sizeof directives / sizeof *directives; i++)
            item(&it, directives[i], K_KEYWORD, "directive");
    } else if (cp->col <= cp->st.m1) {
        const char *word = cp->line + cp->st.m0;
        size_t n = cp->col - cp->st.m0, used;
        const char *dot = NULL;
        for (size_t i = n; i > 0 && !dot; i--)
            if (word[i - 1] == '.')
                dot = word + i - 1;
        int me = dot ? mnemonic_prefix(isa, word, (size_t)(dot - word), &used) : -1;
        if (me >= 0) { /* after MNEMONIC.: its modifiers, and longer mnemonics */
            for (int k = 0; k < isa->mnemonics[me].n; k++) {
                const syntax_form *f = entry_form(isa, me, k);
                for (int m = 0; m < f->nmods; m++)
                    if (f->mods[m].operand < 0)
                        for (int ch = 0; ch < f->mods[m].nchoices; ch++)
                            item(&it, f->mods[m].choices[ch].spell, K_ENUM_MEMBER, f->mods[m].name);
            }
            size_t ml = strlen(isa->mnemonics[me].mnemonic);
            for (int e = 0; e < isa->nmnemonics; e++) {
                const char *m = isa->mnemonics[e].mnemonic;
                if (!strncmp(m, isa->mnemonics[me].mnemonic, ml) && m[ml] == '.') {
                    char part[64];
                    size_t pn = strcspn(m + ml + 1, ".");
                    snprintf(part, sizeof part, "%.*s", (int)(pn < 60 ? pn : 60), m + ml + 1);
                    item(&it, part, K_FUNCTION, m);
                }
            }
        } else if (!dot) {
            for (int e = 0; e < isa->nmnemonics; e++)
                if (!strchr(isa->mnemonics[e].mnemonic, '.'))
                    item(&it, isa->mnemonics[e].mnemonic, K_FUNCTION,
                         entry_form(isa, e, 0)->text);
        }
    } else {
        complete_registers(isa, &it);
    }
    sb_puts(b, "]}");
    for (size_t i = 0; i < it.nseen; i++)
        free(it.seen[i]);
    free(it.seen);
}

/* ------------------------------------------------------------ signatures */

static void asm_signature_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp);

void asm_signature(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b)
{
    at_cursor c = {0};
    asm_signature_at(s, d, p, b, &c);
    free(c.line);
}

static void asm_signature_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp)
{
    const gisa_isa *isa = s->opt.isa;
    if (!isa || !locate(s, d, p, cp) || cp->st.me < 0 || cp->col <= cp->st.m1 || cp->col > cp->st.z) {
        sb_puts(b, "null");
        return;
    }
    const mnemonic_entry *me = &isa->mnemonics[cp->st.me];
    sb_puts(b, "{\"signatures\":[");
    int n = 0;
    for (int k = 0; k < me->n && n < 32; k++) {
        const syntax_form *f = entry_form(isa, cp->st.me, k);
        size_t len = strlen(f->text);
        while (len && (f->text[len - 1] == ' ' || f->text[len - 1] == ';'))
            len--;
        int dup = 0; /* forms written alike in several opcodes: once */
        for (int j = 0; j < k && !dup; j++)
            dup = !strcmp(entry_form(isa, cp->st.me, j)->text, f->text);
        if (dup)
            continue;
        sb_puts(b, n++ ? ",{\"label\":" : "{\"label\":");
        jstr(b, f->text, len);
        sb_puts(b, ",\"parameters\":[");
        size_t from = strcspn(f->text, " \t");
        for (int o = 0; o < f->nops; o++) {
            const char *at = strstr(f->text + from, f->ops[o].name);
            size_t a = at ? (size_t)(at - f->text) : from, z = a + (at ? strlen(f->ops[o].name) : 0);
            if (a > len || z > len)
                a = z = len;
            sb_printf(b, "%s{\"label\":[%zu,%zu],\"documentation\":", o ? "," : "", a, z);
            jcstr(b, doc_operand_kind(&f->ops[o]));
            sb_putc(b, '}');
            from = z;
        }
        sb_puts(b, "]}");
    }
    sb_printf(b, "],\"activeSignature\":0,\"activeParameter\":%d}", operand_index(cp));
}

/* ------------------------------------------------------------ definition */

static void asm_definition_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp);

void asm_definition(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b)
{
    at_cursor c = {0};
    asm_definition_at(s, d, p, b, &c);
    free(c.line);
}

static void asm_definition_at(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b, at_cursor *cp)
{
    const gisa_isa *isa = s->opt.isa;
    if (!isa || !locate(s, d, p, cp) || cp->col < cp->st.m0 || cp->col > cp->st.z) {
        sb_puts(b, "null");
        return;
    }
    if (cp->st.directive) { /* .include "FILE" */
        const char *q0 = memchr(cp->line + cp->st.m1, '"', cp->st.z - cp->st.m1);
        const char *q1 = q0 ? memchr(q0 + 1, '"', (size_t)(cp->line + cp->st.z - q0 - 1)) : NULL;
        char *path = NULL;
        if (cp->st.m1 - cp->st.m0 == 8 && !memcmp(cp->line + cp->st.m0, ".include", 8) && q1) {
            char *name = strndup(q0 + 1, (size_t)(q1 - q0 - 1));
            path = name ? resolve_include(s, d->path, name) : NULL;
            free(name);
        }
        if (!path || !put_def_location(s, path, 1, 1, b))
            sb_puts(b, "null");
        free(path);
        return;
    }
    if (cp->st.me < 0 || cp->col > cp->st.m1) {
        sb_puts(b, "null");
        return;
    }
    if (cp->col <= cp->st.m0 + cp->st.mlen) {
        const raw_def *def = entry_opcode(isa, cp->st.me, 0)->optype->def;
        if (!put_def_location(s, def->loc.file, def->loc.line, def->loc.col, b))
            sb_puts(b, "null");
        return;
    }
    size_t w0 = cp->col, w1 = cp->col;
    while (w0 > cp->st.m0 && ident_char(cp->line[w0 - 1]))
        w0--;
    while (w1 < cp->st.m1 && ident_char(cp->line[w1]))
        w1++;
    int k, ch;
    const mod_slot *m = find_modifier(isa, cp->st.me, cp->line + w0, w1 - w0, &k, &ch);
    srcloc at = m ? m->loc : (srcloc){0};
    if (m && m->field >= 0) { /* the value's line in its type's definition */
        const isa_type *t = entry_opcode(isa, cp->st.me, k)->fields[m->field].type;
        for (int i = 0; t && i < t->nvalues; i++)
            if (!strcmp(t->values[i].name, m->choices[ch].spell) && t->values[i].loc.file)
                at = t->values[i].loc;
    }
    if (!m || !at.file || !put_def_location(s, at.file, at.line, at.col, b))
        sb_puts(b, "null");
}
