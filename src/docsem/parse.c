/* Lexer and parser of `__Semantics` pseudo-code (docs/semantics-language.md).
 *
 * The documents write C-like code with three habits a C parser refuses:
 * brace-less bodies of several lines that belong together only by their
 * indentation, statements without a closing ';' before a '}' or a new line,
 * and modifiers used as operators (`Ra cmp SrcB`). The rules here: a body
 * that does not start with '{' and does not continue on its own line is
 * every following line indented deeper than the line of its `if`/`else`/
 * `for`; a statement ends at ';', at '}' or where the next token starts a
 * new line; an identifier that follows a complete operand on the same line
 * is a modifier operator with the precedence of `<`. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docsem/ast.h"

typedef enum { T_EOF, T_ID, T_NUM, T_FLT, T_STR, T_OP } tkind;

typedef struct tok {
    tkind kind;
    int op;
    const char *s; /* T_ID, T_FLT, T_STR: the text (arena, NUL-terminated) */
    ds_int v;
    int line, col, indent, bol; /* line: index into the block's lines */
} tok;

typedef struct parser {
    arena *a;
    const ds_line *lines;
    tok *t; /* malloc'd, freed once the variant is parsed: the tree keeps none */
    int nt, cap, i;
    int room; /* tokens the optype may still have (DS_MAX_TOKENS in all) */
    gisa_diags *diags;
    gisa_severity sev;
    int errors;
    int depth;
    int len_line, len_len; /* the length of line len_line (-1: none yet), for loc_of */
} parser;

static srcloc loc_of(parser *p, int line, int col, int len)
{
    srcloc l = p->lines[line].loc;
    l.col = col;
    l.len = len > 0 ? len : 1;
    l.line_text = p->lines[line].text;
    if (line != p->len_line) { /* once per line: a node per token of a 5 MB line was quadratic */
        p->len_line = line;
        p->len_len = (int)strlen(p->lines[line].text);
    }
    l.line_len = p->len_len;
    return l;
}

__attribute__((format(printf, 3, 4))) static void perr(parser *p, const tok *t, const char *fmt, ...)
{
    if (p->errors++ > 0) /* the first error of a variant; the rest follow from it */
        return;
    srcloc l = loc_of(p, t->line, t->col, 1);
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(p->diags, p->sev, &l, fmt, ap);
    va_end(ap);
}

/* The parser's own recursion (expr, primary and stmt each count one) stops
 * here: a parenthesis costs two of them and adds no node, so the tree bound
 * (too_deep) alone would not hold the parser itself. */
#define PARSE_DEPTH (2 * DS_MAX_NESTING)

static void too_deep_at(parser *p, const tok *t)
{
    perr(p, t, "expression nested too deeply (more than %d levels)", DS_MAX_NESTING);
    p->i = p->nt - 1; /* nothing after it can parse sensibly */
}

/* ------------------------------------------------------------------ lexer */

static const struct {
    const char *s;
    int op;
} ops3[] = {{"<<=", DT_SHLEQ}, {">>=", DT_SHREQ}}, ops2[] = {
    {"<=", DT_LE},  {">=", DT_GE},    {"==", DT_EQ},    {"!=", DT_NE},    {"&&", DT_AND},   {"||", DT_OR},
    {"<<", DT_SHL}, {">>", DT_SHR},   {"++", DT_INC},   {"--", DT_DEC},   {"+=", DT_ADDEQ}, {"-=", DT_SUBEQ},
    {"*=", DT_MULEQ}, {"|=", DT_OREQ}, {"&=", DT_ANDEQ}, {"^=", DT_XOREQ},
};

static tok *push_tok(parser *p)
{
    if (p->nt == p->cap) {
        int nc = p->cap ? p->cap * 2 : 64;
        tok *t = realloc(p->t, (size_t)nc * sizeof *t);
        if (!t) {
            p->a->failed = 1; /* the loader reports it */
            return NULL;
        }
        p->t = t;
        p->cap = nc;
    }
    tok *t = &p->t[p->nt++];
    memset(t, 0, sizeof *t);
    return t;
}

/* Reads an integer literal (decimal or 0x hex) that fits 127 bits. */
static int lex_int(const char *s, size_t n, ds_int *v)
{
    ds_int x = 0;
    const ds_int lim = (((ds_int)1) << 122);
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (size_t i = 2; i < n; i++) {
            if (!isxdigit((unsigned char)s[i]) || x >= lim)
                return -1;
            x = x * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10));
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            if (!isdigit((unsigned char)s[i]) || x >= lim)
                return -1;
            x = x * 10 + (s[i] - '0');
        }
    }
    *v = x;
    return 0;
}

static void lex_line(parser *p, int li)
{
    const char *s = p->lines[li].text;
    size_t n = strlen(s), i = 0;
    int indent = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        indent += s[i++] == '\t' ? 4 : 1;
    int bol = 1;
    while (i < n) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/')
            break;
        if (p->nt >= p->room) {
            tok at = {.line = li, .col = (int)i + 1};
            perr(p, &at, "the pseudo-code of this optype is too long: more than %d tokens (the limit of one optype)",
                 DS_MAX_TOKENS);
            return;
        }
        tok *t = push_tok(p);
        if (!t)
            return;
        t->line = li;
        t->col = (int)i + 1;
        t->indent = indent;
        t->bol = bol;
        bol = 0;
        size_t st = i;
        if (isalpha((unsigned char)c) || c == '_') {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
                i++;
            t->kind = T_ID;
            t->s = arena_strndup(p->a, s + st, i - st);
        } else if (isdigit((unsigned char)c)) {
            int flt = 0;
            if (c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
                i += 2;
                while (i < n && isxdigit((unsigned char)s[i]))
                    i++;
            } else {
                while (i < n && (isdigit((unsigned char)s[i]) || s[i] == '.' ||
                                 ((s[i] == 'e' || s[i] == 'E') && i + 1 < n &&
                                  (isdigit((unsigned char)s[i + 1]) || s[i + 1] == '-' || s[i + 1] == '+')))) {
                    if (s[i] == 'e' || s[i] == 'E') {
                        flt = 1;
                        i++;
                    } else if (s[i] == '.')
                        flt = 1;
                    i++;
                }
            }
            size_t end = i;
            if (flt && i < n && (s[i] == 'f' || s[i] == 'F'))
                i++;
            if (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_')) {
                perr(p, t, "malformed number '%.*s'", (int)(i - st + 1), s + st);
                while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
                    i++;
                t->kind = T_NUM;
                continue;
            }
            t->kind = flt ? T_FLT : T_NUM;
            t->s = arena_strndup(p->a, s + st, end - st);
            if (!flt && lex_int(s + st, end - st, &t->v))
                perr(p, t, "number '%.*s' is too large (at most 122 bits)", (int)(end - st), s + st);
        } else if (c == '"') {
            i++;
            while (i < n && s[i] != '"')
                i++;
            if (i >= n)
                perr(p, t, "unterminated string%s", "");
            t->kind = T_STR;
            t->s = arena_strndup(p->a, s + st + 1, i - st - 1);
            i++;
        } else {
            t->kind = T_OP;
            t->op = (unsigned char)c;
            size_t k;
            for (k = 0; k < sizeof ops3 / sizeof ops3[0]; k++)
                if (n - i >= 3 && !memcmp(s + i, ops3[k].s, 3))
                    break;
            if (k < sizeof ops3 / sizeof ops3[0]) {
                t->op = ops3[k].op;
                i += 3;
                continue;
            }
            for (k = 0; k < sizeof ops2 / sizeof ops2[0]; k++)
                if (n - i >= 2 && !memcmp(s + i, ops2[k].s, 2))
                    break;
            if (k < sizeof ops2 / sizeof ops2[0]) {
                t->op = ops2[k].op;
                i += 2;
                continue;
            }
            if (!strchr("+-*/%<>=!~&|^?:()[]{},;.", c)) {
                if ((unsigned char)c >= 0x80)
                    perr(p, t, "unexpected non-ASCII text (a comment needs //)%s", "");
                else
                    perr(p, t, "unexpected character '%c'", c);
                while (i < n && (unsigned char)s[i] >= 0x80)
                    i++;
                if (i == st)
                    i++;
                p->nt--;
                continue;
            }
            i++;
        }
    }
}

/* ------------------------------------------------------------------ parser */

static tok *peek(parser *p) { return &p->t[p->i]; }
static tok *next(parser *p) { return p->i < p->nt - 1 ? &p->t[p->i++] : &p->t[p->i]; }
static int is_op(parser *p, int op) { return peek(p)->kind == T_OP && peek(p)->op == op; }
static int is_id(parser *p, const char *s) { return peek(p)->kind == T_ID && !strcmp(peek(p)->s, s); }
static int eat(parser *p, int op)
{
    if (!is_op(p, op))
        return 0;
    next(p);
    return 1;
}

static const char *tok_text(const tok *t, char *buf, size_t cap)
{
    switch (t->kind) {
    case T_EOF: return "the end of the block";
    case T_ID: snprintf(buf, cap, "'%s'", t->s); return buf;
    case T_NUM:
    case T_FLT: return "a number";
    case T_STR: return "a string";
    case T_OP: break;
    }
    if (t->op < 256) {
        snprintf(buf, cap, "'%c'", t->op);
        return buf;
    }
    for (size_t k = 0; k < sizeof ops2 / sizeof ops2[0]; k++)
        if (ops2[k].op == t->op) {
            snprintf(buf, cap, "'%s'", ops2[k].s);
            return buf;
        }
    return "an operator";
}

static void expect(parser *p, int op, const char *what)
{
    if (eat(p, op))
        return;
    char buf[32];
    perr(p, peek(p), "expected %s, found %s", what, tok_text(peek(p), buf, sizeof buf));
}

static ds_node *mk(parser *p, ds_kind k, const tok *at)
{
    ds_node *n = arena_alloc(p->a, sizeof *n);
    if (!n) {
        static ds_node oom; /* arena->failed is reported by the caller */
        return &oom;
    }
    n->kind = k;
    int len = at->kind == T_ID || at->kind == T_FLT ? (int)strlen(at->s) : at->kind == T_OP && at->op >= 256 ? 2 : 1;
    n->loc = loc_of(p, at->line, at->col, len);
    return n;
}

static void add_child(parser *p, ds_node *n, ds_node *c)
{
    ds_node **l = arena_append(p->a, n->list, (size_t)n->n, sizeof *l);
    if (!l)
        return;
    n->list = l;
    n->list[n->n++] = c;
}

static ds_node *expr(parser *p, int minprec);

static int binprec(int op)
{
    switch (op) {
    case DT_OR: return 1;
    case DT_AND: return 2;
    case '|': return 3;
    case '^': return 4;
    case '&': return 5;
    case DT_EQ:
    case DT_NE: return 6;
    case '<':
    case '>':
    case DT_LE:
    case DT_GE: return 7;
    case DT_SHL:
    case DT_SHR: return 8;
    case '+':
    case '-': return 9;
    case '*':
    case '/':
    case '%': return 10;
    default: return -1;
    }
}
#define PREC_MODOP 7

static const char *const keywords[] = {"if", "else", "for", "switch", "case", "default", "break", "true", "false", NULL};
static int is_keyword(const char *s)
{
    for (int i = 0; keywords[i]; i++)
        if (!strcmp(keywords[i], s) && strcmp(s, "true") && strcmp(s, "false"))
            return 1;
    return 0;
}

static ds_node *postfix(parser *p, ds_node *e)
{
    for (;;) {
        tok *t = peek(p);
        if (t->kind != T_OP)
            return e;
        if (t->op == '(') {
            next(p);
            ds_node *c = mk(p, N_CALL, t);
            c->a = e;
            c->name = e->kind == N_NAME ? e->name : NULL;
            c->loc = e->loc;
            if (!is_op(p, ')'))
                do
                    add_child(p, c, expr(p, 0));
                while (eat(p, ',') && p->errors == 0);
            expect(p, ')', "')' closing the argument list");
            e = c;
        } else if (t->op == '[') {
            next(p);
            ds_node *i = expr(p, 0);
            if (eat(p, ':')) {
                ds_node *s = mk(p, N_SLICE, t);
                s->a = e;
                s->b = i;
                s->c = expr(p, 0);
                e = s;
            } else {
                ds_node *x = mk(p, N_INDEX, t);
                x->a = e;
                x->b = i;
                e = x;
            }
            expect(p, ']', "']'");
        } else if (t->op == '.' && p->i + 1 < p->nt && p->t[p->i + 1].kind == T_ID && p->t[p->i + 1].line == t->line &&
                   p->t[p->i + 1].col == t->col + 1) {
            next(p);
            tok *id = next(p);
            ds_node *m = mk(p, N_MEMBER, id);
            m->a = e;
            m->name = id->s;
            e = m;
        } else {
            return e;
        }
    }
}

static ds_node *primary(parser *p)
{
    tok *t = peek(p);
    char buf[32];
    if (++p->depth > PARSE_DEPTH) {
        too_deep_at(p, t);
        p->depth--;
        return mk(p, N_NUM, t);
    }
    ds_node *e;
    switch (t->kind) {
    case T_NUM:
        next(p);
        e = mk(p, N_NUM, t);
        e->num = t->v;
        break;
    case T_FLT:
        next(p);
        e = mk(p, N_FLT, t);
        e->name = t->s;
        e->fnum = strtod(t->s, NULL);
        break;
    case T_STR:
        next(p);
        e = mk(p, N_STR, t);
        e->name = t->s;
        break;
    case T_ID:
        if (is_keyword(t->s)) {
            perr(p, t, "expected an expression, found '%s'", t->s);
            next(p);
            e = mk(p, N_NUM, t);
            break;
        }
        next(p);
        e = mk(p, N_NAME, t);
        e->name = t->s;
        break;
    case T_OP:
        if (t->op == '(') {
            next(p);
            e = expr(p, 0);
            expect(p, ')', "')'");
            break;
        }
        if (t->op == '.' && p->i + 1 < p->nt && p->t[p->i + 1].kind == T_ID) {
            next(p);
            tok *id = next(p);
            e = mk(p, N_MOD, t);
            e->name = id->s;
            break;
        }
        if (t->op == '|') { /* |x|: the operand binds tighter than a bitwise or */
            next(p);
            e = mk(p, N_ABS, t);
            e->a = expr(p, binprec('|') + 1);
            expect(p, '|', "'|' closing the absolute value");
            break;
        }
        if (t->op == '!' || t->op == '~' || t->op == '-' || t->op == '+') {
            next(p);
            e = mk(p, N_UN, t);
            e->op = t->op;
            e->a = postfix(p, primary(p));
            break;
        }
        /* fall through */
    default:
        perr(p, t, "expected an expression, found %s", tok_text(t, buf, sizeof buf));
        if (t->kind != T_EOF)
            next(p);
        e = mk(p, N_NUM, t);
        break;
    }
    p->depth--;
    return postfix(p, e);
}

static ds_node *expr(parser *p, int minprec)
{
    if (++p->depth > PARSE_DEPTH) { /* a ? b : c ? ..., f(f(...)), x[x[...]] recurse here, not in primary */
        too_deep_at(p, peek(p));
        p->depth--;
        return mk(p, N_NUM, peek(p));
    }
    ds_node *l = primary(p);
    for (;;) {
        tok *t = peek(p);
        int prec;
        if (t->kind == T_OP && (prec = binprec(t->op)) >= 0) {
            if (prec < minprec)
                break;
            next(p);
            ds_node *b = mk(p, N_BIN, t);
            b->op = t->op;
            b->a = l;
            b->b = expr(p, prec + 1);
            l = b;
        } else if (t->kind == T_ID && !t->bol && !is_keyword(t->s) && p->i > 0 && p->t[p->i - 1].line == t->line) {
            if (PREC_MODOP < minprec)
                break;
            next(p);
            ds_node *b = mk(p, N_MODOP, t);
            b->name = t->s;
            b->a = l;
            b->b = expr(p, PREC_MODOP + 1);
            l = b;
        } else if (t->kind == T_OP && t->op == '?' && minprec == 0) {
            next(p);
            ds_node *c = mk(p, N_TERN, t);
            c->a = l;
            c->b = expr(p, 0);
            expect(p, ':', "':' of the conditional expression");
            c->c = expr(p, 0);
            l = c;
        } else {
            break;
        }
        if (p->errors)
            break;
    }
    p->depth--;
    return l;
}

/* ---------------------------------------------------------------- statements */

static ds_node *stmt(parser *p);

static void end_stmt(parser *p)
{
    if (eat(p, ';'))
        return;
    tok *t = peek(p);
    if (t->kind == T_EOF || t->bol || (t->kind == T_OP && t->op == '}'))
        return;
    char buf[32];
    perr(p, t, "expected ';' or the end of the line, found %s", tok_text(t, buf, sizeof buf));
}

/* A body: `{...}`, a statement on the same line, or the following lines
 * indented deeper than the line of the keyword that owns it. */
static ds_node *body(parser *p, const tok *owner)
{
    tok *t = peek(p);
    if (t->kind == T_OP && t->op == '{')
        return stmt(p);
    if (!t->bol || t->kind == T_EOF)
        return stmt(p);
    ds_node *b = mk(p, S_BLOCK, t);
    int indent = owner->indent;
    while (peek(p)->kind != T_EOF && peek(p)->bol && peek(p)->indent > indent && !p->errors)
        add_child(p, b, stmt(p));
    return b;
}

static const char *const type_names[] = {"UINT64", "INT64", "UINT32", "INT32", "UINT16", "INT16", "UINT8", "INT8",
                                          "UINT128", "INT128", "BOOL", "F16", "BF16", "F32", "F64", NULL};
int ds_type_name(const char *s);
int ds_type_name(const char *s)
{
    for (int i = 0; type_names[i]; i++)
        if (!strcmp(type_names[i], s))
            return i;
    return -1;
}

static ds_node *simple(parser *p)
{
    tok *t = peek(p);
    if (t->kind == T_ID && ds_type_name(t->s) >= 0 && p->i + 1 < p->nt && p->t[p->i + 1].kind == T_ID) {
        next(p);
        tok *nm = next(p);
        ds_node *d = mk(p, S_DECL, nm);
        d->type = t->s;
        d->name = nm->s;
        if (eat(p, '='))
            d->a = expr(p, 0);
        return d;
    }
    ds_node *first = expr(p, 0);
    if (is_op(p, ',')) { /* P0,P1,... = f(...) */
        ds_node *m = mk(p, S_MULTI, t);
        add_child(p, m, first);
        while (eat(p, ',') && !p->errors)
            add_child(p, m, expr(p, 0));
        expect(p, '=', "'=' after the list of targets");
        m->a = expr(p, 0);
        return m;
    }
    tok *o = peek(p);
    if (o->kind == T_OP && (o->op == DT_INC || o->op == DT_DEC)) {
        next(p);
        ds_node *s = mk(p, S_ASSIGN, o);
        s->op = o->op;
        add_child(p, s, first);
        return s;
    }
    if (o->kind == T_OP && (o->op == '=' || (o->op >= DT_ADDEQ && o->op <= DT_SHREQ))) {
        ds_node *s = mk(p, S_ASSIGN, o);
        s->op = o->op;
        add_child(p, s, first);
        next(p);
        ds_node *v = expr(p, 0);
        while (s->op == '=' && is_op(p, '=') && !p->errors) { /* a = b = c */
            next(p);
            add_child(p, s, v);
            v = expr(p, 0);
        }
        s->a = v;
        return s;
    }
    ds_node *s = mk(p, S_EXPR, t);
    s->a = first;
    return s;
}

static ds_node *stmt(parser *p)
{
    tok *t = peek(p);
    char buf[32];
    if (++p->depth > 100) {
        perr(p, t, "statements nested too deeply%s", "");
        p->i = p->nt - 1;
        p->depth--;
        return mk(p, S_BLOCK, t);
    }
    ds_node *s;
    if (t->kind == T_OP && t->op == '{') {
        next(p);
        s = mk(p, S_BLOCK, t);
        while (!is_op(p, '}') && peek(p)->kind != T_EOF && !p->errors)
            add_child(p, s, stmt(p));
        expect(p, '}', "'}'");
    } else if (is_id(p, "if")) {
        next(p);
        s = mk(p, S_IF, t);
        expect(p, '(', "'(' after if");
        s->a = expr(p, 0);
        expect(p, ')', "')' closing the condition");
        s->b = body(p, t);
        if (is_id(p, "else")) {
            tok *e = next(p);
            s->c = is_id(p, "if") ? stmt(p) : body(p, e);
        }
    } else if (is_id(p, "for")) {
        next(p);
        s = mk(p, S_FOR, t);
        expect(p, '(', "'(' after for");
        s->a = simple(p);
        expect(p, ';', "';' after the loop's start");
        s->b = expr(p, 0);
        expect(p, ';', "';' after the loop's condition");
        s->c = simple(p);
        expect(p, ')', "')' closing the loop header");
        s->d = body(p, t);
    } else if (is_id(p, "switch")) {
        next(p);
        s = mk(p, S_SWITCH, t);
        expect(p, '(', "'(' after switch");
        s->a = expr(p, 0);
        expect(p, ')', "')'");
        expect(p, '{', "'{' opening the cases");
        while ((is_id(p, "case") || is_id(p, "default")) && !p->errors) {
            tok *c = next(p);
            ds_node *cs = mk(p, S_CASE, c);
            if (!strcmp(c->s, "case"))
                cs->a = expr(p, 0);
            expect(p, ':', "':' after the case");
            while (!is_id(p, "case") && !is_id(p, "default") && !is_op(p, '}') && peek(p)->kind != T_EOF &&
                   !p->errors)
                add_child(p, cs, stmt(p));
            add_child(p, s, cs);
        }
        expect(p, '}', "'}' closing the switch");
    } else if (is_id(p, "break")) {
        next(p);
        s = mk(p, S_BREAK, t);
        end_stmt(p);
    } else if (t->kind == T_ID && is_keyword(t->s)) {
        perr(p, t, "unexpected '%s'", t->s);
        next(p);
        s = mk(p, S_BLOCK, t);
    } else if (t->kind == T_OP && t->op == ';') {
        next(p);
        s = mk(p, S_BLOCK, t);
    } else if (t->kind == T_EOF) {
        perr(p, t, "expected a statement, found %s", tok_text(t, buf, sizeof buf));
        s = mk(p, S_BLOCK, t);
    } else {
        s = simple(p);
        end_stmt(p);
    }
    p->depth--;
    return s;
}

int ds_is_header(const char *line)
{
    if (!line[0] || isspace((unsigned char)line[0]) || (line[0] == '/' && line[1] == '/'))
        return 0;
    if (!isupper((unsigned char)line[0]))
        return 0;
    const char *c = strstr(line, "//");
    size_t n = c ? (size_t)(c - line) : strlen(line);
    while (n && isspace((unsigned char)line[n - 1]))
        n--;
    return n && line[n - 1] == ':';
}

static void parse_header(parser *p, ds_variant *v, const ds_line *l)
{
    const char *s = l->text;
    const char *c = strstr(s, "//");
    size_t n = c ? (size_t)(c - s) : strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    v->header = arena_strndup(p->a, s, n ? n - 1 : 0);
    v->loc = l->loc;
    v->loc.col = 1;
    v->loc.line_text = l->text;
    v->loc.line_len = (int)strlen(l->text);
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
        i++;
    v->mnemonic = arena_strndup(p->a, s, i);
    while (i < n && s[i] == '.') {
        size_t st = ++i;
        while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
            i++;
        const char **w = arena_append(p->a, (void *)v->words, (size_t)v->nwords, sizeof *w);
        if (!w)
            return;
        v->words = w;
        v->words[v->nwords++] = arena_strndup(p->a, s + st, i - st);
    }
}

/* Child i of n: a, b, c, d, then the list; NULL for an absent one. */
static const ds_node *child(const ds_node *n, int i)
{
    switch (i) {
    case 0: return n->a;
    case 1: return n->b;
    case 2: return n->c;
    case 3: return n->d;
    default: return i - 4 < n->n ? n->list[i - 4] : NULL;
    }
}

/* The first node of the tree under root (at depth 1) that lies deeper than
 * DS_MAX_NESTING, or NULL. The parser builds a chain of left-associative
 * operators (a + b + c ...) in a loop, so only the finished tree shows its
 * depth; this walk keeps its path on the heap, as it runs before the bound
 * holds. *oom is set when the path cannot be allocated. */
static const ds_node *too_deep(const ds_node *root, int *oom)
{
    struct frame {
        const ds_node *n;
        int next;
    } *path = malloc(DS_MAX_NESTING * sizeof *path);
    if (!path) {
        *oom = 1;
        return NULL;
    }
    const ds_node *deep = NULL;
    int top = 0;
    path[0] = (struct frame){root, 0};
    while (top >= 0 && !deep) {
        struct frame *f = &path[top];
        if (f->next >= 4 + f->n->n) {
            top--;
            continue;
        }
        const ds_node *c = child(f->n, f->next++);
        if (!c)
            continue;
        if (top + 1 == DS_MAX_NESTING)
            deep = c;
        else
            path[++top] = (struct frame){c, 0};
    }
    free(path);
    return deep;
}

int ds_parse_block(arena *a, const ds_line *lines, int n, ds_variant **out, int *nout, gisa_severity sev,
                   gisa_diags *diags)
{
    *out = NULL;
    *nout = 0;
    int errors = 0, room = DS_MAX_TOKENS;
    for (int i = 0; i < n;) {
        if (!ds_is_header(lines[i].text)) {
            const char *s = lines[i].text;
            while (*s == ' ' || *s == '\t')
                s++;
            if (*s && !(s[0] == '/' && s[1] == '/')) {
                srcloc l = lines[i].loc;
                l.col = (int)(s - lines[i].text) + 1;
                l.line_text = lines[i].text;
                l.line_len = (int)strlen(lines[i].text);
                diag_add(diags, sev, &l, "pseudo-code before the first header (expected `MNEMONIC.mods operands:`)");
                errors++;
            }
            i++;
            continue;
        }
        int end = i + 1;
        while (end < n && !ds_is_header(lines[end].text))
            end++;
        ds_variant *vs = arena_append(a, *out, (size_t)*nout, sizeof *vs);
        if (!vs)
            return errors + 1;
        *out = vs;
        ds_variant *v = &vs[(*nout)++];
        memset(v, 0, sizeof *v);
        parser p = {.a = a, .lines = lines, .diags = diags, .sev = sev, .len_line = -1, .room = room};
        parse_header(&p, v, &lines[i]);
        for (int k = i + 1; k < end && !(p.errors && p.nt >= p.room); k++)
            lex_line(&p, k);
        room = p.nt < room ? room - p.nt : 0;
        tok *eof = push_tok(&p);
        if (!eof) {
            free(p.t);
            return errors + 1;
        }
        eof->kind = T_EOF;
        eof->line = end - 1;
        eof->col = (int)strlen(lines[end - 1].text) + 1;
        eof->bol = 1;
        ds_node *b = arena_alloc(a, sizeof *b);
        if (!b) {
            free(p.t);
            return errors + 1;
        }
        b->kind = S_BLOCK;
        b->loc = v->loc;
        while (peek(&p)->kind != T_EOF && !p.errors)
            add_child(&p, b, stmt(&p));
        int oom = 0;
        const ds_node *deep = p.errors ? NULL : too_deep(b, &oom);
        if (deep || oom) {
            if (oom)
                diag_add(diags, sev, &v->loc, "out of memory while checking the pseudo-code's depth");
            else
                diag_add(diags, sev, &deep->loc, "expression nested too deeply (more than %d levels)",
                         DS_MAX_NESTING);
            p.errors++;
            b->n = 0; /* no later walk (the compiler, lint) ever sees the deep tree */
        }
        v->body = b;
        errors += p.errors;
        free(p.t);
        i = end;
    }
    return errors;
}
