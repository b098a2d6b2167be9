#include "spec/expr.h"

#include <string.h>

#include "common/arena.h"
#include "common/strbuf.h"

typedef struct eparser {
    arena *a;
    cursor *c;
    const srcloc *line;
    gisa_diags *diags;
    int depth;
    int nodes;
    int failed;
} eparser;

static srcloc here(eparser *p)
{
    srcloc l = *p->line;
    l.col = cur_col(p->c);
    l.len = 1;
    return l;
}

static expr *fail(eparser *p, const char *what)
{
    if (!p->failed) {
        srcloc l = here(p);
        diag_add(p->diags, GISA_ERROR, &l, "%s", what);
    }
    p->failed = 1;
    return NULL;
}

static expr *node(eparser *p, expr_kind k, expr_op op, expr *x, expr *y)
{
    /* evaluation recurses over the tree: bound its size, not just nesting */
    if (++p->nodes > EXPR_MAX_NODES)
        return fail(p, "expression too long (more than 256 terms)");
    expr *e = arena_alloc(p->a, sizeof *e);
    if (!e)
        return fail(p, "out of memory");
    e->kind = k;
    e->op = op;
    e->a = x;
    e->b = y;
    e->field = -1;
    e->loc = here(p);
    return e;
}

static expr *parse_or(eparser *p);

static int eat_word(eparser *p, const char *w)
{
    cursor save = *p->c;
    const char *s;
    size_t n = cur_ident(p->c, &s);
    if (n == strlen(w) && !memcmp(s, w, n))
        return 1;
    *p->c = save;
    return 0;
}

static int eat2(eparser *p, char a, char b)
{
    cur_skip_ws(p->c);
    if (cur_peek(p->c) == a && cur_peek2(p->c) == b) {
        p->c->i += 2;
        return 1;
    }
    return 0;
}

static expr *parse_primary(eparser *p)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return fail(p, "expression nested too deeply");
    cur_skip_ws(p->c);
    srcloc at = here(p);
    char ch = cur_peek(p->c);
    expr *e = NULL;
    if (ch == '(') {
        p->c->i++;
        e = parse_or(p);
        if (e && !cur_eat(p->c, ')'))
            e = fail(p, "expected ')' in expression");
    } else if (ch == '"') {
        const char *s;
        long n = cur_string(p->c, &s);
        if (n < 0) {
            p->c->i = (size_t)at.col - 1; /* point at the opening quote */
            return fail(p, "unterminated string in expression");
        }
        e = node(p, EX_STR, OP_EQ, NULL, NULL);
        if (e)
            e->text = arena_strndup(p->a, s, (size_t)n);
    } else if (is_digit(ch)) {
        uint64_t v;
        if (!cur_uint(p->c, &v) || v > INT64_MAX)
            return fail(p, "bad number in expression");
        e = node(p, EX_NUM, OP_EQ, NULL, NULL);
        if (e)
            e->num = (int64_t)v;
    } else if (is_ident_start(ch)) {
        const char *s;
        size_t n = cur_ident(p->c, &s);
        /* dotted names such as ra.neg */
        while (cur_peek(p->c) == '.' && is_ident_start(cur_peek2(p->c))) {
            p->c->i++;
            const char *t;
            n += 1 + cur_word(p->c, &t);
        }
        e = node(p, EX_NAME, OP_EQ, NULL, NULL);
        if (e)
            e->text = arena_strndup(p->a, s, n);
    } else {
        return fail(p, "expected a number, a \"string\", a field name or '(' in expression");
    }
    if (e)
        e->loc = at;
    p->depth--;
    return e;
}

static expr *parse_unary(eparser *p)
{
    cur_skip_ws(p->c);
    if (++p->depth > EXPR_MAX_DEPTH)
        return fail(p, "expression nested too deeply");
    expr *e;
    if (cur_peek(p->c) == '!' && cur_peek2(p->c) != '=') {
        p->c->i++;
        e = parse_unary(p);
        e = e ? node(p, EX_UNARY, OP_NOT, e, NULL) : NULL;
    } else if (eat_word(p, "not")) {
        e = parse_unary(p);
        e = e ? node(p, EX_UNARY, OP_NOT, e, NULL) : NULL;
    } else if (cur_peek(p->c) == '-') {
        p->c->i++;
        e = parse_unary(p);
        e = e ? node(p, EX_UNARY, OP_NEG, e, NULL) : NULL;
    } else {
        e = parse_primary(p);
    }
    p->depth--;
    return e;
}

static expr *parse_mul(eparser *p)
{
    expr *e = parse_unary(p);
    while (e) {
        cur_skip_ws(p->c);
        char ch = cur_peek(p->c);
        if (ch != '*' && ch != '/')
            break;
        p->c->i++;
        expr *r = parse_unary(p);
        e = r ? node(p, EX_BINARY, ch == '*' ? OP_MUL : OP_DIV, e, r) : NULL;
    }
    return e;
}

static expr *parse_add(eparser *p)
{
    expr *e = parse_mul(p);
    while (e) {
        cur_skip_ws(p->c);
        char ch = cur_peek(p->c);
        if (ch != '+' && ch != '-')
            break;
        p->c->i++;
        expr *r = parse_mul(p);
        e = r ? node(p, EX_BINARY, ch == '+' ? OP_ADD : OP_SUB, e, r) : NULL;
    }
    return e;
}

static expr *parse_cmp(eparser *p)
{
    expr *e = parse_add(p);
    if (!e)
        return NULL;
    expr_op op;
    if (eat2(p, '=', '='))
        op = OP_EQ;
    else if (eat2(p, '!', '='))
        op = OP_NE;
    else if (eat2(p, '<', '='))
        op = OP_LE;
    else if (eat2(p, '>', '='))
        op = OP_GE;
    else if (cur_eat(p->c, '<'))
        op = OP_LT;
    else if (cur_eat(p->c, '>'))
        op = OP_GT;
    else
        return e;
    expr *r = parse_add(p);
    return r ? node(p, EX_BINARY, op, e, r) : NULL;
}

static expr *parse_and(eparser *p)
{
    expr *e = parse_cmp(p);
    while (e && (eat_word(p, "and") || eat2(p, '&', '&'))) {
        expr *r = parse_cmp(p);
        e = r ? node(p, EX_BINARY, OP_AND, e, r) : NULL;
    }
    return e;
}

static expr *parse_or(eparser *p)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return fail(p, "expression nested too deeply");
    expr *e = parse_and(p);
    while (e && (eat_word(p, "or") || eat2(p, '|', '|'))) {
        expr *r = parse_and(p);
        e = r ? node(p, EX_BINARY, OP_OR, e, r) : NULL;
    }
    p->depth--;
    return e;
}

expr *expr_parse(arena *a, cursor *c, const srcloc *line, gisa_diags *diags)
{
    eparser p = {a, c, line, diags, 0, 0, 0};
    expr *e = parse_or(&p);
    return p.failed ? NULL : e;
}

int64_t expr_eval(const expr *e, const uint64_t *fields)
{
    switch (e->kind) {
    case EX_NUM:
    case EX_STR: return e->num;
    case EX_NAME: return e->field >= 0 ? (int64_t)fields[e->field] : 0;
    case EX_UNARY: {
        int64_t v = expr_eval(e->a, fields);
        return e->op == OP_NOT ? !v : (int64_t)(0 - (uint64_t)v);
    }
    case EX_BINARY: break;
    }
    int64_t x = expr_eval(e->a, fields);
    if (e->op == OP_AND && !x)
        return 0;
    if (e->op == OP_OR && x)
        return 1;
    int64_t y = expr_eval(e->b, fields);
    switch (e->op) {
    case OP_OR:
    case OP_AND: return y != 0;
    case OP_EQ: return x == y;
    case OP_NE: return x != y;
    case OP_LT: return x < y;
    case OP_LE: return x <= y;
    case OP_GT: return x > y;
    case OP_GE: return x >= y;
    case OP_ADD: return (int64_t)((uint64_t)x + (uint64_t)y);
    case OP_SUB: return (int64_t)((uint64_t)x - (uint64_t)y);
    case OP_MUL: return (int64_t)((uint64_t)x * (uint64_t)y);
    case OP_DIV: return y == 0 || (x == INT64_MIN && y == -1) ? 0 : x / y;
    default: return 0;
    }
}

void expr_print(const expr *e, strbuf *sb)
{
    static const char *const ops[] = {" or ", " and ", " == ", " != ", " < ", " <= ", " > ", " >= ",
                                      " + ",  " - ",   " * ",  " / "};
    switch (e->kind) {
    case EX_NUM: sb_printf(sb, "%lld", (long long)e->num); return;
    case EX_STR: sb_printf(sb, "\"%s\"", e->text); return;
    case EX_NAME: sb_puts(sb, e->text); return;
    case EX_UNARY:
        sb_puts(sb, e->op == OP_NOT ? "!" : "-");
        expr_print(e->a, sb);
        return;
    case EX_BINARY:
        sb_putc(sb, '(');
        expr_print(e->a, sb);
        sb_puts(sb, ops[e->op]);
        expr_print(e->b, sb);
        sb_putc(sb, ')');
        return;
    }
}
