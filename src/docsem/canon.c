/* The canonical form of an optype's semantics, and its fingerprint: what
 * the doc engine compiles (the variants of the patched block, parsed, and
 * the operand types and decorations of the `type`/`decorate` patches),
 * printed so that layout, comments, optional `;`, bodies by indentation
 * or in braces and redundant parentheses do not matter. One line per
 * variant header, statement (a compound statement's head, its parts,
 * `end`) and operand declaration, each with the place it came from, so
 * that two forms can be compared line by line (sim/fingerprint.c names
 * the first line that differs). The fingerprint is the 64-bit FNV-1a of
 * the lines, each ended by '\n'; an optype without pseudo-code has 0. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "docsem/docsem.h"

/* The printer writes into a line (ds_canon_lines) or straight into the
 * hash (ds_fingerprint: no line is built, nothing is formatted). */
typedef struct canon {
    strbuf line;
    uint64_t hash;
    int hashing;
    void (*emit)(void *user, const char *text, size_t n, const srcloc *loc);
    void *user;
} canon;

static void put(canon *c, const char *s, size_t n)
{
    if (!c->hashing) {
        sb_putn(&c->line, s, n);
        return;
    }
    uint64_t h = c->hash;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= UINT64_C(0x100000001b3);
    }
    c->hash = h;
}

static void puts_(canon *c, const char *s) { put(c, s, strlen(s)); }

/* the strings up to NULL */
static void cat(canon *c, ...)
{
    va_list ap;
    va_start(ap, c);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        puts_(c, s);
    va_end(ap);
}
static void putc_(canon *c, char ch) { put(c, &ch, 1); }

static void flush(canon *c, const srcloc *loc)
{
    if (c->hashing) {
        putc_(c, '\n');
        return;
    }
    c->emit(c->user, c->line.s ? c->line.s : "", c->line.len, loc);
    c->line.len = 0;
    if (c->line.s)
        c->line.s[0] = 0;
}

static const char *op_text(int op, char *buf)
{
    static const char *const two[] = {"<=", ">=", "==", "!=", "&&", "||", "<<", ">>", "++", "--",
                                      "+=", "-=", "*=", "|=", "&=", "^=", "<<=", ">>="};
    if (op >= DT_LE && op <= DT_SHREQ)
        return two[op - DT_LE];
    buf[0] = (char)op;
    buf[1] = 0;
    return buf;
}

static void num(canon *c, ds_int v)
{
    unsigned __int128 u = v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    char d[48];
    int n = sizeof d;
    do {
        d[--n] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (v < 0)
        d[--n] = '-';
    put(c, d + n, sizeof d - (size_t)n);
}

/* An expression, fully parenthesised: (a + b), (- a), f(x, y). */
static void canon_expr(canon *c, const ds_node *e)
{
    char ob[2];
    if (!e) {
        puts_(c, "_");
        return;
    }
    switch (e->kind) {
    case N_NUM: num(c, e->num); return;
    case N_FLT: puts_(c, e->name ? e->name : "?"); return;
    case N_STR:
        putc_(c, '"');
        puts_(c, e->name ? e->name : "");
        putc_(c, '"');
        return;
    case N_NAME: puts_(c, e->name); return;
    case N_MOD: cat(c, ".", e->name, NULL); return;
    case N_MEMBER:
        canon_expr(c, e->a);
        cat(c, ".", e->name, NULL);
        return;
    case N_CALL:
        canon_expr(c, e->a);
        putc_(c, '(');
        for (int i = 0; i < e->n; i++) {
            if (i)
                puts_(c, ", ");
            canon_expr(c, e->list[i]);
        }
        putc_(c, ')');
        return;
    case N_INDEX:
    case N_SLICE:
        canon_expr(c, e->a);
        putc_(c, '[');
        canon_expr(c, e->b);
        if (e->kind == N_SLICE) {
            putc_(c, ':');
            canon_expr(c, e->c);
        }
        putc_(c, ']');
        return;
    case N_UN:
        cat(c, "(", op_text(e->op, ob), " ", NULL);
        canon_expr(c, e->a);
        putc_(c, ')');
        return;
    case N_BIN:
    case N_MODOP:
        putc_(c, '(');
        canon_expr(c, e->a);
        cat(c, " ", e->kind == N_BIN ? op_text(e->op, ob) : e->name, " ", NULL);
        canon_expr(c, e->b);
        putc_(c, ')');
        return;
    case N_ABS:
        putc_(c, '|');
        canon_expr(c, e->a);
        putc_(c, '|');
        return;
    case N_TERN:
        putc_(c, '(');
        canon_expr(c, e->a);
        puts_(c, " ? ");
        canon_expr(c, e->b);
        puts_(c, " : ");
        canon_expr(c, e->c);
        putc_(c, ')');
        return;
    default: puts_(c, "<statement>"); return;
    }
}

/* a statement without its line end (the heads of for) */
static void canon_simple(canon *c, const ds_node *s)
{
    char ob[2];
    if (!s)
        return;
    switch (s->kind) {
    case S_ASSIGN:
        for (int i = 0; i < s->n; i++) {
            canon_expr(c, s->list[i]);
            if (s->op == DT_INC || s->op == DT_DEC)
                puts_(c, op_text(s->op, ob));
            else
                cat(c, " ", i + 1 < s->n ? "=" : op_text(s->op, ob), " ", NULL);
        }
        if (s->op != DT_INC && s->op != DT_DEC)
            canon_expr(c, s->a);
        return;
    case S_MULTI:
        for (int i = 0; i < s->n; i++) {
            if (i)
                puts_(c, ", ");
            canon_expr(c, s->list[i]);
        }
        puts_(c, " = ");
        canon_expr(c, s->a);
        return;
    case S_DECL:
        cat(c, s->type, " ", s->name, NULL);
        if (s->a) {
            puts_(c, " = ");
            canon_expr(c, s->a);
        }
        return;
    case S_EXPR: canon_expr(c, s->a); return;
    default: puts_(c, "<expression>"); return;
    }
}

static void stmt(canon *c, const ds_node *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK: /* braces and bodies by indentation are the same block */
        for (int i = 0; i < s->n; i++)
            stmt(c, s->list[i]);
        return;
    case S_IF:
        puts_(c, "if ");
        canon_expr(c, s->a);
        flush(c, &s->loc);
        stmt(c, s->b);
        if (s->c) {
            puts_(c, "else");
            flush(c, &s->loc);
            stmt(c, s->c);
        }
        break;
    case S_FOR:
        puts_(c, "for ");
        canon_simple(c, s->a);
        puts_(c, "; ");
        canon_expr(c, s->b);
        puts_(c, "; ");
        canon_simple(c, s->c);
        flush(c, &s->loc);
        stmt(c, s->d);
        break;
    case S_SWITCH:
        puts_(c, "switch ");
        canon_expr(c, s->a);
        flush(c, &s->loc);
        for (int i = 0; i < s->n; i++) {
            const ds_node *k = s->list[i];
            if (k->a) {
                puts_(c, "case ");
                canon_expr(c, k->a);
            } else {
                puts_(c, "default");
            }
            flush(c, &k->loc);
            for (int j = 0; j < k->n; j++)
                stmt(c, k->list[j]);
        }
        break;
    case S_BREAK:
        puts_(c, "break");
        flush(c, &s->loc);
        return;
    default:
        canon_simple(c, s);
        flush(c, &s->loc);
        return;
    }
    puts_(c, "end");
    flush(c, &s->loc);
}

/* the header: mnemonic, dotted words, operand names (what the compiler reads of it) */
static void header(canon *c, const ds_variant *v)
{
    cat(c, "variant ", v->mnemonic, NULL);
    for (int i = 0; i < v->nwords; i++)
        cat(c, ".", v->words[i], NULL);
    const char *h = strchr(v->header, ' ');
    while (h && *h) {
        const char *st = h;
        while (*h == '_' || (*h >= 'a' && *h <= 'z') || (*h >= 'A' && *h <= 'Z') || (*h >= '0' && *h <= '9'))
            h++;
        if (h > st) {
            putc_(c, ' ');
            put(c, st, (size_t)(h - st));
        }
        else
            h++;
    }
    flush(c, &v->loc);
}

static int decl_order(const void *x, const void *y)
{
    return strcmp((*(const ds_decl *const *)x)->name, (*(const ds_decl *const *)y)->name);
}

/* The type or decorate patch that last named operand `name`, for the place of its line. */
static const srcloc *decl_loc(const ds_optype *s, const char *name)
{
    const srcloc *at = s->nvariants ? &s->variants[0].loc : NULL;
    size_t n = strlen(name);
    for (int i = 0; i < s->npatches; i++) {
        const ds_patch *p = &s->patches[i];
        const char *w = p->kind == DP_TYPE || p->kind == DP_DECORATE ? strchr(p->what, ':') : NULL;
        for (const char *f = w ? strstr(w, name) : NULL; f; f = strstr(f + 1, name))
            if ((f[-1] == ' ' || f[-1] == ':') && (f[n] == 0 || f[n] == ' '))
                at = &p->loc;
    }
    return at;
}

static void decls(canon *c, const ds_optype *s)
{
    static const char *const types[] = {"INT", "F16", "BF16", "F32", "F64", "H2"};
    static const char *const decos[] = {"none", "fp", "addend", "twos", "flags"};
    const ds_decl *stack[16], **order = s->ndecls <= 16 ? stack : malloc(sizeof *order * (size_t)s->ndecls);
    if (!order) {
        puts_(c, "out of memory");
        flush(c, NULL);
        return;
    }
    for (int i = 0; i < s->ndecls; i++)
        order[i] = &s->decls[i];
    qsort(order, (size_t)s->ndecls, sizeof *order, decl_order);
    for (int i = 0; i < s->ndecls; i++) {
        const ds_decl *d = order[i];
        cat(c, "operand ", d->name, " ", types[d->type], NULL);
        if (d->type == DV_H2)
            cat(c, "(", d->fmtmod ? d->fmtmod : "", ")", NULL);
        cat(c, " ", decos[d->deco], NULL);
        flush(c, decl_loc(s, d->name));
    }
    if (order != stack)
        free(order);
}

/* hashing: into c->hash; otherwise each line to emit(user, ...) */
static void walk(const ds_optype *s, int hashing, void (*emit)(void *, const char *, size_t, const srcloc *),
                 void *user, uint64_t *hash)
{
    canon c = {.hash = UINT64_C(0xcbf29ce484222325), .hashing = hashing, .emit = emit, .user = user};
    sb_init(&c.line);
    for (int v = 0; v < s->nvariants; v++) {
        header(&c, &s->variants[v]);
        stmt(&c, s->variants[v].body);
    }
    decls(&c, s);
    if (s->errors) { /* it does not run */
        puts_(&c, "errors ");
        num(&c, s->errors);
        flush(&c, s->nlines ? &s->lines[0].loc : NULL);
    }
    if (c.line.failed && emit) /* out of memory: a form no description has */
        emit(user, "\n", 1, NULL);
    sb_free(&c.line);
    if (hash)
        *hash = c.hash;
}

uint64_t ds_fingerprint(const ds_optype *s)
{
    if (!s || !s->nlines)
        return 0;
    uint64_t h;
    walk(s, 1, NULL, NULL, &h);
    return h ? h : 1;
}

typedef struct lines {
    arena *a;
    ds_canon_line *v;
    int n;
    int failed;
} lines;

static void keep_line(void *user, const char *text, size_t n, const srcloc *loc)
{
    lines *l = user;
    ds_canon_line *v = arena_append(l->a, l->v, (size_t)l->n, sizeof *v);
    char *t = arena_strndup(l->a, text, n);
    if (!v || !t) {
        l->failed = 1;
        return;
    }
    l->v = v;
    v[l->n].text = t;
    v[l->n].loc = loc ? *loc : (srcloc){0};
    l->n++;
}

int ds_canon_lines(const ds_optype *s, arena *a, ds_canon_line **out)
{
    lines l = {a, NULL, 0, 0};
    *out = NULL;
    if (!s || !s->nlines)
        return 0;
    walk(s, 0, keep_line, &l, NULL);
    *out = l.v;
    return l.failed ? -1 : l.n;
}
