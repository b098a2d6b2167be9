/* Parser of the ISA description language, line by line, as the ISA's
 * authors write it: definitions (__DefXxx), sections (__Encoding ...),
 * markdown code fences, // comments and free prose (ignored). */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/text.h"
#include "spec/raw.h"

typedef enum section {
    SEC_NONE, SEC_ENCODING, SEC_SYNTAX, SEC_DESCRIPTION, SEC_OPERANDINFO, SEC_MODIFIERINFO,
    SEC_SEMANTICS, SEC_EXAMPLES, SEC_SIMULATION, SEC_EXCEPTION, SEC_SEMPATCH, SEC_ERRATA
} section;

static const struct { const char *kw; section sec; } section_names[] = {
    {"__Encoding", SEC_ENCODING},       {"__Syntax", SEC_SYNTAX},
    {"__Description", SEC_DESCRIPTION}, {"__OperandInfo", SEC_OPERANDINFO},
    {"__ModifierInfo", SEC_MODIFIERINFO}, {"__Semantics", SEC_SEMANTICS},
    {"__Examples", SEC_EXAMPLES},       {"__Simulation", SEC_SIMULATION},
    {"__Exception", SEC_EXCEPTION},     {"__SemanticPatch", SEC_SEMPATCH},
    {"__Errata", SEC_ERRATA},
};

static const struct { const char *kw; raw_kind kind; int typed; } def_names[] = {
    {"__DefTarget", RAW_TARGET, 1},   {"__DefBitFieldType", RAW_ENUM, 1},
    {"__DefRegisterType", RAW_REGTYPE, 1}, {"__DefImmediateType", RAW_IMMTYPE, 1},
    {"__DefGroup", RAW_GROUP, 0},     {"__DefOptype", RAW_OPTYPE, 0},
    {"__DefOpcode", RAW_OPCODE, 0},   {"__DefRuling", RAW_RULING, 0},
};

typedef struct parser {
    arena *a;
    raw_spec *spec;
    const char *file;
    gisa_diags *diags;
    int errors;
    raw_def *def;
    section sec;
    int in_fence;
    int fence_no; /* code blocks opened in the current section */
    srcloc fence_loc;
    srcloc line; /* the current line (col/len set per message) */
    cursor c;
    /* the open code block's lines, malloc'd, moved to *block / *nblock (in
     * the arena, at their size) when it closes: grown in the arena, a
     * 90,000-line block left the copies of every doubling behind */
    raw_line *kept;
    int nkept, capkept;
    raw_line **block;
    int *nblock;
} parser;

#define MAX_ITEMS 100000 /* per list: bounds memory on hostile input */
/* Bounds of the duplicate checks, which are quadratic: a 12-bit field's
 * worth of values, twice a 128-bit word's worth of fields. */
#define MAX_ENUM_VALUES 4096
#define MAX_DEF_FIELDS 256

static void err(parser *p, size_t col0, size_t len, const char *fmt, const char *arg);

static void *push(parser *p, void *arrp, int *n, size_t item)
{
    void **arr = arrp;
    if (*n >= MAX_ITEMS) {
        err(p, 0, p->c.n, "more than %s entries of one kind (definitions, fields, values or lines)", "100000");
        return NULL;
    }
    if (*n == 0 || (*n >= 4 && (*n & (*n - 1)) == 0)) {
        void *g = arena_grow(p->a, *arr, (size_t)*n, *n < 4 ? 4 : (size_t)*n * 2, item);
        if (!g)
            return NULL;
        *arr = g;
    }
    return (char *)*arr + item * (size_t)(*n)++;
}

static srcloc at_col(parser *p, size_t col0, size_t len)
{
    srcloc l = p->line;
    l.col = (int)col0 + 1;
    l.len = len ? (int)len : 1;
    return l;
}

static void err(parser *p, size_t col0, size_t len, const char *fmt, const char *arg)
{
    srcloc l = at_col(p, col0, len);
    diag_add(p->diags, GISA_ERROR, &l, fmt, arg ? arg : "");
    p->errors++;
}

static int expect(parser *p, char ch, const char *what)
{
    if (cur_eat(&p->c, ch))
        return 1;
    cur_skip_ws(&p->c);
    err(p, p->c.i, 1, "expected %s", what);
    return 0;
}

static int expect_end(parser *p)
{
    cur_eat(&p->c, ';');
    if (cur_at_end(&p->c))
        return 1;
    err(p, p->c.i, p->c.n - p->c.i, "unexpected text after the end of the %s", "statement");
    return 0;
}

static const char *ident(parser *p, const char *what)
{
    const char *s;
    size_t n = cur_ident(&p->c, &s);
    if (!n) {
        cur_skip_ws(&p->c);
        err(p, p->c.i, 1, "expected %s", what);
        return NULL;
    }
    return arena_strndup(p->a, s, n);
}

/* Name with dotted parts: ra.neg, pp.not, $sched. */
static const char *dotted_name(parser *p, const char *what, size_t *col)
{
    cur_skip_ws(&p->c);
    *col = p->c.i;
    const char *s;
    size_t n = cur_ident(&p->c, &s);
    if (!n) {
        err(p, p->c.i, 1, "expected %s", what);
        return NULL;
    }
    while (cur_peek(&p->c) == '.' && is_ident_char(cur_peek2(&p->c))) {
        p->c.i++;
        const char *t;
        n += 1 + cur_word(&p->c, &t);
    }
    return arena_strndup(p->a, s, n);
}

/* A value token: a name or a number, possibly starting with a digit ("64"). */
static const char *value_word(parser *p, size_t *col)
{
    cur_skip_ws(&p->c);
    *col = p->c.i;
    const char *s;
    size_t n = cur_word(&p->c, &s);
    if (!n) {
        err(p, p->c.i, 1, "expected a value (a name or a number)%s", "");
        return NULL;
    }
    return arena_strndup(p->a, s, n);
}

static int parse_int(parser *p, int *out, const char *what)
{
    uint64_t v;
    cur_skip_ws(&p->c);
    size_t col = p->c.i;
    if (!cur_uint(&p->c, &v) || v > 4096) {
        err(p, col, 1, "expected %s (a number from 0 to 4096)", what);
        return 0;
    }
    *out = (int)v;
    return 1;
}

/* ------------------------------------------------------------ definitions */

static void begin_def(parser *p, raw_kind kind, int typed, size_t kwcol, size_t kwlen)
{
    p->def = NULL;
    p->sec = SEC_NONE;
    raw_def *d = arena_alloc(p->a, sizeof *d);
    if (!d)
        return;
    d->kind = kind;
    d->loc = at_col(p, kwcol, kwlen);
    cur_skip_ws(&p->c);
    size_t namecol = p->c.i;
    d->name = ident(p, "a definition name");
    if (!d->name)
        return;
    d->loc = at_col(p, namecol, strlen(d->name));
    if (typed) {
        if (!expect(p, '<', "'<' and the width in bits") || !parse_int(p, &d->width, "a width") ||
            !expect(p, '>', "'>'"))
            return;
        if (d->width < 1 || d->width > (kind == RAW_TARGET ? 128 : 64)) {
            err(p, namecol, strlen(d->name), "width of %s must be 1..64 bits (targets: ..128)", d->name);
            return;
        }
    } else if (kind != RAW_RULING && cur_eat(&p->c, ':')) {
        if (!expect(p, '[', "'[' before the parent name"))
            return;
        cur_skip_ws(&p->c);
        size_t pc = p->c.i;
        d->parent = ident(p, "the parent's name");
        if (!d->parent || !expect(p, ']', "']' after the parent name"))
            return;
        d->parent_loc = at_col(p, pc, strlen(d->parent));
    }
    if (!cur_at_end(&p->c)) {
        err(p, p->c.i, p->c.n - p->c.i, "unexpected text after the definition header%s", "");
        return;
    }
    raw_def **slot = push(p, &p->spec->defs, &p->spec->ndefs, sizeof *slot);
    if (!slot)
        return;
    d->ordinal = p->spec->ndefs - 1;
    *slot = d;
    p->def = d;
}

/* NAME;  NAME = 0x3;  32;   (enumerators of a __DefBitFieldType) */
static void parse_enum_value(parser *p)
{
    size_t col;
    const char *name = value_word(p, &col);
    if (!name)
        return;
    raw_def *d = p->def;
    if (d->nvalues >= MAX_ENUM_VALUES) {
        err(p, col, strlen(name), "more than %s values in one type", "4096");
        return;
    }
    for (int i = 0; i < d->nvalues; i++)
        if (!strcmp(d->values[i].name, name)) {
            err(p, col, strlen(name), "duplicate value name '%s'", name);
            return;
        }
    raw_value v = {.name = name, .loc = at_col(p, col, strlen(name))};
    if (cur_eat(&p->c, '=')) {
        cur_skip_ws(&p->c);
        size_t vc = p->c.i;
        const char *other;
        size_t on = cur_word(&p->c, &other);
        if (on && !is_digit(other[0])) { /* an alias of an earlier value */
            int i;
            for (i = 0; i < d->nvalues; i++)
                if (strlen(d->values[i].name) == on && !memcmp(d->values[i].name, other, on))
                    break;
            if (i == d->nvalues) {
                err(p, vc, on, "'%s' is not an earlier value of this type", arena_strndup(p->a, other, on));
                return;
            }
            v.value = d->values[i].value;
            v.alias = 1;
        } else {
            p->c.i = vc;
            if (!cur_uint(&p->c, &v.value)) {
                err(p, vc, 1, "expected a number or an earlier value's name after '=' for value '%s'", name);
                return;
            }
        }
        v.has_value = 1;
    }
    if (!expect_end(p))
        return;
    raw_value *slot = push(p, &d->values, &d->nvalues, sizeof v);
    if (slot)
        *slot = v;
}

/* key = value;  key = A = B;  key = field<off, width>;   (project types) */
static void parse_key_value(parser *p)
{
    size_t col;
    const char *key = value_word(p, &col);
    if (!key || !expect(p, '=', "'=' after the key"))
        return;
    raw_value v = {.name = key, .loc = at_col(p, col, strlen(key))};
    cur_skip_ws(&p->c);
    size_t vc = p->c.i;
    const char *s;
    size_t n = cur_word(&p->c, &s);
    if (n == 5 && !memcmp(s, "field", 5) && cur_eat(&p->c, '<')) {
        int off = 0, w = 0;
        if (!parse_int(p, &off, "an offset") || !expect(p, ',', "','") || !parse_int(p, &w, "a width") ||
            !expect(p, '>', "'>'"))
            return;
        v.value = (uint64_t)off << 16 | (uint64_t)w;
        v.has_value = 1;
        v.text = "field";
        while (cur_eat(&p->c, ',')) { /* a field split over several bit ranges */
            cur_skip_ws(&p->c);
            n = cur_word(&p->c, &s);
            if (n != 5 || memcmp(s, "field", 5) || !cur_eat(&p->c, '<')) {
                err(p, p->c.i, 1, "expected another 'field<off, width>' after ','%s", "");
                return;
            }
            if (!parse_int(p, &off, "an offset") || !expect(p, ',', "','") || !parse_int(p, &w, "a width") ||
                !expect(p, '>', "'>'"))
                return;
            if (v.nmore == 3) {
                err(p, p->c.i, 1, "at most four bit ranges per value%s", "");
                return;
            }
            v.more[v.nmore++] = (uint32_t)off << 16 | (uint32_t)w;
        }
    } else if (!n) {
        err(p, vc, 1, "expected a value after '=' for '%s'", key);
        return;
    } else {
        v.text = arena_strndup(p->a, s, n);
        if (cur_eat(&p->c, '=')) {
            size_t c2;
            v.text2 = value_word(p, &c2);
            if (!v.text2)
                return;
        }
    }
    if (!expect_end(p))
        return;
    raw_value *slot = push(p, &p->def->values, &p->def->nvalues, sizeof v);
    if (slot)
        *slot = v;
}

/* field<off, width> Type name [== value | = value]; */
static void parse_field(parser *p)
{
    const char *s;
    cur_skip_ws(&p->c);
    size_t col = p->c.i;
    size_t n = cur_ident(&p->c, &s);
    if (n != 5 || memcmp(s, "field", 5)) {
        err(p, col, n, "expected 'field<offset, width> Type name;' in __Encoding%s", "");
        return;
    }
    raw_field f = {0};
    f.loc = at_col(p, col, 5);
    if (!expect(p, '<', "'<' after 'field'") || !parse_int(p, &f.off, "the bit offset") ||
        !expect(p, ',', "',' between offset and width") || !parse_int(p, &f.width, "the width") ||
        !expect(p, '>', "'>' after the width"))
        return;
    if (f.width < 1 || f.width > 64) {
        err(p, col, p->c.i - col, "field width must be 1..64 bits%s", "");
        return;
    }
    cur_skip_ws(&p->c);
    size_t tcol = p->c.i;
    f.type = ident(p, "the field's type name");
    if (!f.type)
        return;
    f.type_loc = at_col(p, tcol, strlen(f.type));
    size_t ncol;
    f.name = dotted_name(p, "the field's name", &ncol);
    if (!f.name)
        return;
    f.loc = at_col(p, ncol, strlen(f.name));
    cur_skip_ws(&p->c);
    if (cur_peek(&p->c) == '=') {
        p->c.i++;
        if (cur_peek(&p->c) == '=') {
            p->c.i++;
            f.fixed = 1;
        }
        size_t vc;
        f.value = value_word(p, &vc);
        if (!f.value)
            return;
        f.has_value = 1;
        f.value_loc = at_col(p, vc, strlen(f.value));
    }
    if (!expect_end(p))
        return;
    raw_def *d = p->def;
    if (d->nfields >= MAX_DEF_FIELDS) {
        err(p, ncol, strlen(f.name), "more than %s fields in one definition", "256");
        return;
    }
    for (int i = 0; i < d->nfields; i++)
        if (!strcmp(d->fields[i].name, f.name)) {
            err(p, ncol, strlen(f.name), "field '%s' is defined twice in this definition", f.name);
            return;
        }
    raw_field *slot = push(p, &d->fields, &d->nfields, sizeof f);
    if (slot)
        *slot = f;
}

/* Items of a <...> list; an item may hold brackets: Order<pg, R[urb, ridx], ra>. */
static int parse_name_list(parser *p, raw_opinfo *oi)
{
    if (!expect(p, '<', "'<'"))
        return 0;
    cur_skip_ws(&p->c);
    if (cur_peek(&p->c) == '>') {
        p->c.i++;
        return 1;
    }
    for (;;) {
        cur_skip_ws(&p->c);
        size_t b = p->c.i;
        int depth = 0;
        while (p->c.i < p->c.n) {
            char ch = p->c.s[p->c.i];
            if (ch == '[')
                depth++;
            else if (ch == ']')
                depth--;
            else if (depth == 0 && (ch == ',' || ch == '>'))
                break;
            p->c.i++;
        }
        size_t e = p->c.i;
        while (e > b && (p->c.s[e - 1] == ' ' || p->c.s[e - 1] == '\t'))
            e--;
        if (e == b || p->c.i >= p->c.n) {
            err(p, b, 1, "expected a name in the list%s", e == b ? "" : " and a closing '>'");
            return 0;
        }
        const char **nm = push(p, &oi->names, &oi->nnames, sizeof *nm);
        int k = oi->nnames - 1;
        srcloc *lc = push(p, &oi->name_locs, &k, sizeof *lc);
        if (!nm || !lc)
            return 0;
        *nm = arena_strndup(p->a, p->c.s + b, e - b);
        *lc = at_col(p, b, e - b);
        if (p->c.s[p->c.i++] == '>')
            return 1;
    }
}

static void parse_opinfo(parser *p)
{
    static const struct { const char *name; oi_kind kind; } kinds[] = {
        {"InList", OI_INLIST},       {"OutList", OI_OUTLIST},     {"Order", OI_ORDER},
        {"Bitwidth", OI_BITWIDTH},   {"AsmFormat", OI_ASMFORMAT}, {"ModiOrder", OI_MODIORDER},
    };
    cursor save = p->c;
    const char *s;
    cur_skip_ws(&p->c);
    size_t col = p->c.i;
    size_t n = cur_ident(&p->c, &s);
    cur_skip_ws(&p->c);
    if (!n || cur_peek(&p->c) != '<') {
        p->c = save; /* prose */
        return;
    }
    raw_opinfo oi = {0};
    oi.loc = at_col(p, col, n);
    size_t k;
    for (k = 0; k < sizeof kinds / sizeof *kinds; k++)
        if (strlen(kinds[k].name) == n && !memcmp(kinds[k].name, s, n))
            break;
    if (k == sizeof kinds / sizeof *kinds) {
        char *nm = arena_strndup(p->a, s, n);
        err(p, col, n, "unknown operand-info directive '%s' (expected InList, OutList, Order, Bitwidth, AsmFormat or ModiOrder)", nm);
        return;
    }
    oi.kind = kinds[k].kind;
    if (!parse_name_list(p, &oi))
        return;
    if (oi.kind == OI_BITWIDTH || oi.kind == OI_ASMFORMAT) {
        if (oi.nnames != 1) {
            err(p, col, n, "%s<...> takes exactly one operand name", kinds[k].name);
            return;
        }
        if (!expect(p, '=', "'=' after the directive"))
            return;
        if (oi.kind == OI_BITWIDTH) {
            oi.value = expr_parse(p->a, &p->c, &p->line, p->diags);
            if (!oi.value) {
                p->errors++;
                return;
            }
        } else {
            oi.func = ident(p, "a conversion function name");
            if (!oi.func || !expect(p, '(', "'(' after the function name"))
                return;
            do {
                size_t ac;
                const char *arg = dotted_name(p, "a function argument", &ac);
                const char **slot = arg ? push(p, &oi.args, &oi.nargs, sizeof *slot) : NULL;
                if (!slot)
                    return;
                *slot = arg;
            } while (cur_eat(&p->c, ','));
            if (!expect(p, ')', "')' after the arguments"))
                return;
        }
    }
    if (!expect_end(p))
        return;
    raw_opinfo *slot = push(p, &p->def->opinfo, &p->def->nopinfo, sizeof oi);
    if (slot)
        *slot = oi;
}

/* EncodingError<Kind, "message"> = expression; */
static void parse_exception(parser *p)
{
    const char *s;
    cur_skip_ws(&p->c);
    size_t col = p->c.i;
    size_t n = cur_ident(&p->c, &s);
    if (n != 13 || memcmp(s, "EncodingError", 13)) {
        err(p, col, n, "expected 'EncodingError<Kind, \"message\"> = condition;' in __Exception%s", "");
        return;
    }
    raw_exception ex = {0};
    ex.loc = at_col(p, col, n);
    if (!expect(p, '<', "'<'"))
        return;
    ex.kind = ident(p, "the error kind");
    if (!ex.kind || !expect(p, ',', "','"))
        return;
    cur_skip_ws(&p->c);
    size_t qcol = p->c.i;
    long len = cur_string(&p->c, &s);
    if (len < 0) {
        err(p, qcol, 1, cur_peek(&(cursor){p->c.s, p->c.n, qcol}) == '"' ? "unterminated \"message\" string%s" : "expected a \"message\"%s", "");
        return;
    }
    ex.message = arena_strndup(p->a, s, (size_t)len);
    if (!expect(p, '>', "'>'") || !expect(p, '=', "'=' before the condition"))
        return;
    ex.cond = expr_parse(p->a, &p->c, &p->line, p->diags);
    if (!ex.cond) {
        p->errors++;
        return;
    }
    if (!expect_end(p))
        return;
    raw_exception *slot = push(p, &p->def->exceptions, &p->def->nexceptions, sizeof ex);
    if (slot)
        *slot = ex;
}

/* A "..." string of an __Errata line: what names it in the error. */
static const char *quoted(parser *p, const char *what)
{
    const char *s;
    cur_skip_ws(&p->c);
    size_t col = p->c.i;
    long len = cur_string(&p->c, &s);
    if (len <= 0) {
        err(p, col, 1, len ? "expected %s in double quotes" : "%s must not be empty", what);
        return NULL;
    }
    return arena_strndup(p->a, s, (size_t)len);
}

/* __Errata (in a __DefRuling): `KIND "ANCHOR" because "REASON"`, a lint
 * finding the ruling acknowledges (src/spec/errata.c). */
static void parse_erratum(parser *p)
{
    cursor *c = &p->c;
    cur_skip_ws(c);
    size_t col = c->i, e = col;
    while (e < c->n && ((c->s[e] >= 'a' && c->s[e] <= 'z') || c->s[e] == '-'))
        e++;
    raw_erratum er = {0};
    er.loc = at_col(p, col, e - col);
    char *kind = arena_strndup(p->a, c->s + col, e - col);
    int known = 0;
    for (size_t k = 0; kind && gisa_isa_lint_category(k) && !known; k++)
        known = !strcmp(kind, gisa_isa_lint_category(k)) && strcmp(kind, "ruling") && strcmp(kind, "stale-erratum");
    if (!known) {
        err(p, col, e > col ? e - col : 1,
            e > col ? "'%s' is not a lint warning kind that an erratum can acknowledge (gisa lint --help lists them)"
                    : "expected 'KIND \"ANCHOR\" because \"REASON\"' in __Errata%s",
            e > col ? kind : "");
        return;
    }
    c->i = e;
    er.kind = kind;
    if (!(er.anchor = quoted(p, "the \"ANCHOR\" text of the finding")))
        return;
    const char *s;
    size_t bl = cur_ident(c, &s);
    if (bl != 7 || memcmp(s, "because", 7)) {
        err(p, c->i, 1, "expected 'because \"REASON\"' after the anchor%s", "");
        return;
    }
    if (!(er.reason = quoted(p, "the \"REASON\"")) || !expect_end(p))
        return;
    raw_erratum *slot = push(p, &p->def->errata, &p->def->nerrata, sizeof er);
    if (slot)
        *slot = er;
}

static void keep_line(parser *p, raw_line **arr, int *n)
{
    raw_line *l = push(p, arr, n, sizeof **arr);
    if (!l)
        return;
    l->text = arena_strndup(p->a, p->c.s, p->c.n);
    l->loc = p->line;
    l->loc.col = 1;
}

/* The open block's lines into their list, after what it holds already. */
static void flush_block(parser *p)
{
    if (p->nkept) {
        raw_line *all = arena_alloc(p->a, sizeof *all * (size_t)(*p->nblock + p->nkept));
        if (all) {
            if (*p->nblock)
                memcpy(all, *p->block, sizeof *all * (size_t)*p->nblock);
            memcpy(all + *p->nblock, p->kept, sizeof *all * (size_t)p->nkept);
            *p->block = all;
            *p->nblock += p->nkept;
        }
    }
    p->nkept = 0;
    p->block = NULL;
}

/* A line of a code block, for the list arr (n entries) once it closes. */
static void keep_block_line(parser *p, raw_line **arr, int *n)
{
    if (p->block != arr)
        flush_block(p);
    p->block = arr;
    p->nblock = n;
    if (*n + p->nkept >= MAX_ITEMS) {
        err(p, 0, p->c.n, "more than %s entries of one kind (definitions, fields, values or lines)", "100000");
        return;
    }
    if (p->nkept == p->capkept) {
        int nc = p->capkept ? 2 * p->capkept : 64;
        raw_line *k = realloc(p->kept, sizeof *k * (size_t)nc);
        if (!k) {
            p->a->failed = 1;
            return;
        }
        p->kept = k;
        p->capkept = nc;
    }
    raw_line *l = &p->kept[p->nkept++];
    l->text = arena_strndup(p->a, p->c.s, p->c.n);
    l->loc = p->line;
    l->loc.col = 1;
}

static int is_blank_or_comment(cursor *c)
{
    cursor t = *c;
    return cur_at_end(&t);
}

static void parse_line(parser *p)
{
    cursor *c = &p->c;
    cur_skip_ws(c);
    size_t start = c->i;
    int fence = c->n - start >= 3 && !memcmp(c->s + start, "```", 3);
    if (p->in_fence) {
        if (fence) {
            p->in_fence = 0;
            flush_block(p);
            return;
        }
        if (!p->def)
            return;
        if (p->sec == SEC_SYNTAX)
            keep_block_line(p, &p->def->syntax, &p->def->nsyntax);
        else if (p->sec == SEC_EXAMPLES)
            keep_block_line(p, &p->def->examples, &p->def->nexamples);
        else if (p->sec == SEC_SEMANTICS && p->fence_no == 1) /* later blocks illustrate, they do not run */
            keep_block_line(p, &p->def->semantics, &p->def->nsemantics);
        return;
    }
    if (fence) {
        p->in_fence = 1;
        p->fence_no++;
        p->fence_loc = at_col(p, start, 3);
        if (p->def && p->sec == SEC_SYNTAX)
            p->def->has_syntax = 1;
        return;
    }
    if (c->n - start >= 2 && c->s[start] == '_' && c->s[start + 1] == '_') {
        const char *s;
        size_t n = cur_ident(c, &s);
        for (size_t k = 0; k < sizeof def_names / sizeof *def_names; k++)
            if (strlen(def_names[k].kw) == n && !memcmp(def_names[k].kw, s, n)) {
                begin_def(p, def_names[k].kind, def_names[k].typed, start, n);
                return;
            }
        for (size_t k = 0; k < sizeof section_names / sizeof *section_names; k++)
            if (strlen(section_names[k].kw) == n && !memcmp(section_names[k].kw, s, n)) {
                if (!p->def || p->def->kind < RAW_GROUP)
                    err(p, start, n, "section %s outside a group, optype, opcode or ruling definition",
                        section_names[k].kw);
                else if (!cur_at_end(c))
                    err(p, c->i, c->n - c->i, "unexpected text after %s", section_names[k].kw);
                p->sec = section_names[k].sec;
                p->fence_no = 0;
                if (p->sec == SEC_SYNTAX && p->def)
                    p->def->has_syntax = 1;
                return;
            }
        char *nm = arena_strndup(p->a, s, n ? n : 2);
        err(p, start, n ? n : 2, "unknown keyword '%s'", nm);
        return;
    }
    if (is_blank_or_comment(c))
        return;
    if (!p->def) {
        err(p, start, c->n - start, "text outside any definition (expected __DefXxx)%s", "");
        return;
    }
    switch (p->def->kind) {
    case RAW_ENUM:
        if (p->sec == SEC_NONE) {
            parse_enum_value(p);
            return;
        }
        break;
    case RAW_TARGET:
    case RAW_REGTYPE:
    case RAW_IMMTYPE:
        if (p->sec == SEC_NONE) {
            parse_key_value(p);
            return;
        }
        break;
    default: break;
    }
    switch (p->sec) {
    case SEC_SIMULATION: /* `semantics = NAME;` (project extension); other lines are prose */
        if (c->n - start > 9 && !memcmp(c->s + start, "semantics", 9) && !is_ident_char(c->s[start + 9]))
            parse_key_value(p);
        break;
    case SEC_SEMPATCH: /* lines for the semantics layer (docsem/model.c), kept as written */
        if (p->def->kind != RAW_RULING)
            err(p, start, c->n - start, "__SemanticPatch belongs in a __DefRuling%s", "");
        else
            keep_line(p, &p->def->sempatch, &p->def->nsempatch);
        break;
    case SEC_ERRATA:
        if (p->def->kind != RAW_RULING)
            err(p, start, c->n - start, "__Errata belongs in a __DefRuling%s", "");
        else
            parse_erratum(p);
        break;
    case SEC_ENCODING: parse_field(p); break;
    case SEC_OPERANDINFO: parse_opinfo(p); break;
    case SEC_EXCEPTION: parse_exception(p); break;
    case SEC_DESCRIPTION:
        if (!p->def->description) {
            size_t e = c->n;
            while (e > start && (c->s[e - 1] == ' ' || c->s[e - 1] == '\r'))
                e--;
            p->def->description = arena_strndup(p->a, c->s + start, e - start);
        }
        break;
    case SEC_NONE:
        err(p, start, c->n - start, "text before the first section of %s (expected __Encoding, __Syntax, ...)",
            p->def->name);
        break;
    default: break; /* prose */
    }
}

int raw_parse_file(arena *a, raw_spec *spec, const char *file, const char *text, size_t len,
                   gisa_diags *diags)
{
    parser p = {0};
    p.a = a;
    p.spec = spec;
    p.file = file;
    p.diags = diags;
    size_t i = 0;
    int lineno = 0;
    i = utf8_bom_len(text, len);
    size_t b, e;
    /* out of memory, or over the load's budget (checked line by line, so
     * that no line stops half-made): the error names the line it reached */
    while (!a->failed && !arena_over(a) && next_line(text, len, &i, &b, &e)) {
        if (e > b && text[e - 1] == '\r')
            e--;
        lineno++;
        if (memchr(text + b, 0, e - b)) {
            p.line = (srcloc){file, lineno, 1, 1, NULL, 0, NULL};
            err(&p, 0, 1, "NUL byte in description file%s", "");
            continue;
        }
        p.line = (srcloc){file, lineno, 1, 1, text + b, (int)(e - b > 100000 ? 100000 : e - b), NULL};
        p.c = (cursor){text + b, e - b, 0};
        parse_line(&p);
        if (p.errors > 200) {
            diag_add(diags, GISA_ERROR, &p.line, "too many errors in %s; giving up", file);
            free(p.kept);
            return p.errors;
        }
    }
    flush_block(&p); /* a block the file does not close still has its lines */
    free(p.kept);
    if (p.in_fence && !a->failed && !arena_over(a)) { /* not when the file was left midway */
        diag_add(diags, GISA_ERROR, &p.fence_loc, "unterminated code block: this ``` has no closing ```");
        p.errors++;
    }
    if (arena_over(a)) {
        p.line.col = 0; /* the line as a whole: its text is no culprit */
        p.line.line_text = NULL;
        diag_memory_limit(diags, &p.line, a->limit);
        p.errors++;
    } else if (a->failed) {
        diag_add(diags, GISA_ERROR, NULL, "%s: out of memory while loading", file);
        p.errors++;
    }
    return p.errors;
}
