/* Builds the instruction model from parsed definitions: types, rulings,
 * inheritance (group -> optype -> opcode), field placement, fixed bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/model.h"

#define MAX_ONCE 256 /* places whose error is reported once though every opcode inheriting it meets it */

typedef struct builder {
    gisa_isa *isa;
    gisa_diags *diags;
    int errors;
    strmap defs; /* group/optype/opcode name -> index in raw.defs */
    const srcloc *once[MAX_ONCE];
    int nonce;
} builder;

/* Whether the error at `at` (a place in a group that many opcodes inherit)
 * is reported already; it counts as an error every time. */
static int reported_before(builder *b, const srcloc *at)
{
    for (int i = 0; i < b->nonce; i++)
        if (b->once[i] == at) {
            b->errors++;
            return 1;
        }
    if (b->nonce < MAX_ONCE)
        b->once[b->nonce++] = at;
    return 0;
}

/* The name nearest `name` among the model's types (for "did you mean"), or NULL. */
static const char *nearest_type(const gisa_isa *isa, const char *name)
{
    const char *best = NULL;
    size_t n = strlen(name);
    int bestd = n < 4 ? 1 : n < 8 ? 2 : 3;
    for (int i = 0; i < isa->ntypes; i++) {
        int d = edit_distance(name, n, isa->types[i].name, strlen(isa->types[i].name));
        if (d <= bestd && (!best || d < bestd)) {
            best = isa->types[i].name;
            bestd = d;
        }
    }
    return best;
}

static void error_at(builder *b, const srcloc *at, const char *fmt, const char *a1, const char *a2)
{
    diag_add(b->diags, GISA_ERROR, at, fmt, a1 ? a1 : "", a2 ? a2 : "");
    b->errors++;
}

const isa_type *model_type(const gisa_isa *isa, const char *name)
{
    int i = strmap_get(&isa->type_by_name, name, strlen(name));
    return i < 0 ? NULL : &isa->types[i];
}

int model_field(const isa_opcode *op, const char *name)
{
    for (int i = 0; i < op->nfields; i++)
        if (!strcmp(op->fields[i].name, name))
            return i;
    return -1;
}

static int parse_number(const char *s, size_t n, uint64_t *v)
{
    cursor c = {s, n, 0};
    return cur_uint(&c, v) && c.i == n;
}

int type_value(const isa_type *t, const char *name, size_t n, uint64_t *v)
{
    switch (t->kind) {
    case TY_ENUM:
        for (int i = 0; i < t->nvalues; i++)
            if (strlen(t->values[i].name) == n && !memcmp(t->values[i].name, name, n)) {
                *v = t->values[i].value;
                return 0;
            }
        return -1;
    case TY_REG: {
        if ((size_t)t->zero_len == n && !memcmp(t->zero, name, n)) {
            *v = t->zero_value;
            return 0;
        }
        size_t pl = (size_t)t->prefix_len;
        if (n <= pl || n > pl + 6 || memcmp(name, t->prefix, pl) || (name[pl] == '0' && n != pl + 1))
            return -1;
        uint64_t x = 0;
        for (size_t i = pl; i < n; i++) {
            if (!is_digit(name[i]))
                return -1;
            x = x * 10 + (uint64_t)(name[i] - '0');
        }
        if (x >= t->zero_value)
            return -1;
        *v = x;
        return 0;
    }
    case TY_IMM:
    case TY_CMEM: return parse_number(name, n, v) ? 0 : -1;
    }
    return -1;
}

const char *type_value_name(const isa_type *t, uint64_t v, char *buf, size_t cap)
{
    if (t->kind == TY_ENUM) {
        for (int i = 0; i < t->nvalues; i++)
            if (t->values[i].value == v)
                return t->values[i].name;
        return NULL;
    }
    if (t->kind == TY_REG) {
        if (v == t->zero_value)
            return t->zero;
        if (v < t->zero_value) {
            snprintf(buf, cap, "%s%llu", t->prefix, (unsigned long long)v);
            return buf;
        }
        return NULL;
    }
    snprintf(buf, cap, "%llu", (unsigned long long)v);
    return buf;
}

/* ------------------------------------------------------------------ types */

static const raw_value *kv(const raw_def *d, const char *key)
{
    for (int i = 0; i < d->nvalues; i++)
        if (!strcmp(d->values[i].name, key))
            return &d->values[i];
    return NULL;
}

/* The index of the value of an optional `key = A|B;` line (0 when absent). */
static int key_choice(builder *b, const raw_def *d, const char *key, const char *first, const char *second)
{
    const raw_value *v = kv(d, key);
    if (!v)
        return 0;
    if (v->text && !strcmp(v->text, first))
        return 0;
    if (v->text && !strcmp(v->text, second))
        return 1;
    diag_add(b->diags, GISA_ERROR, &v->loc, "%s of %s must be %s or %s", key, d->name, first, second);
    b->errors++;
    return 0;
}

/* One bit range of a constant-memory sub-field, checked against the type. */
static int cmem_range(builder *b, const raw_def *d, uint64_t packed, int *off, int *w)
{
    *off = (int)(packed >> 16);
    *w = (int)(packed & 0xffff);
    if (*w < 1 || *w > 32 || *off + *w > d->width) {
        error_at(b, &d->loc, "bank/offset sub-fields of %s do not fit its width%s", d->name, NULL);
        return -1;
    }
    return 0;
}

static int build_cmem_type(builder *b, const raw_def *d, isa_type *t)
{
    const raw_value *bank = kv(d, "bank"), *off = kv(d, "offset"), *al = kv(d, "align");
    t->kind = TY_CMEM;
    if (!bank || !off || !bank->has_value || !off->has_value || off->nmore) {
        error_at(b, &d->loc, "constant-memory type %s needs 'bank = field<off, width>;' (several ranges allowed, low bits first) and 'offset = field<off, width>;'%s", d->name, NULL);
        return 0;
    }
    if (cmem_range(b, d, off->value, &t->offs_off, &t->offs_w))
        return 0;
    uint64_t offs_mask = ((UINT64_C(1) << t->offs_w) - 1) << t->offs_off, bank_mask = 0;
    t->nbank_parts = 1 + bank->nmore;
    for (int i = 0; i < t->nbank_parts; i++) {
        int *po = &t->bank_part_off[i], *pw = &t->bank_part_w[i];
        if (cmem_range(b, d, i ? bank->more[i - 1] : bank->value, po, pw))
            return 0;
        uint64_t m = ((UINT64_C(1) << *pw) - 1) << *po;
        if (m & bank_mask)
            error_at(b, &bank->loc, "the bank ranges of %s overlap each other%s", d->name, NULL);
        bank_mask |= m;
        t->bank_bits += *pw;
    }
    if (t->bank_bits > 32)
        error_at(b, &bank->loc, "the bank of %s has more than 32 bits%s", d->name, NULL);
    t->offs_shared = (bank_mask & offs_mask) >> t->offs_off;
    uint64_t a = 4;
    if (al && (!al->text || !parse_number(al->text, strlen(al->text), &a) || !a || a > 256 || (a & (a - 1))))
        error_at(b, &al->loc, "align of %s must be a power of two up to 256%s", d->name, NULL);
    t->align = (int)a;
    t->misaligned_warn = key_choice(b, d, "misaligned", "error", "warning") == 1;
    /* an offset bit shared with the bank must be one that alignment keeps 0 */
    if (t->offs_shared & ~((uint64_t)a - 1))
        error_at(b, &bank->loc, "%s: a bank range overlaps offset bits that an aligned offset can use%s", d->name, NULL);
    return 0;
}

static int build_type(builder *b, const raw_def *d, isa_type *t)
{
    gisa_isa *isa = b->isa;
    t->name = d->name;
    t->width = d->width;
    t->loc = d->loc;
    if (d->kind == RAW_ENUM) {
        t->kind = TY_ENUM;
        raw_value *vals = arena_alloc(&isa->a, sizeof *vals * (size_t)(d->nvalues ? d->nvalues : 1));
        if (!vals)
            return -1;
        uint64_t next = 0;
        for (int i = 0; i < d->nvalues; i++) {
            vals[i] = d->values[i];
            if (!vals[i].has_value)
                vals[i].value = next;
            next = vals[i].value + 1;
        }
        t->values = vals;
        t->nvalues = d->nvalues;
        if (t->width <= 16) {
            t->named = arena_alloc(&isa->a, (size_t)1 << t->width);
            if (!t->named)
                return -1;
            for (int i = 0; i < t->nvalues; i++)
                if (vals[i].value < ((uint64_t)1 << t->width))
                    t->named[vals[i].value] = 1;
        }
        return 0;
    }
    if (d->kind == RAW_REGTYPE) {
        static const char *const classes[] = {"GPR", "UGPR", "PRED", "UPRED"};
        const raw_value *cl = kv(d, "class"), *pf = kv(d, "prefix"), *z = kv(d, "zero");
        t->kind = TY_REG;
        if (!cl || !pf || !z || !z->text2) {
            error_at(b, &d->loc, "register type %s needs 'class = GPR|UGPR|PRED|UPRED;', 'prefix = R;' and 'zero = RZ = 255;'%s", d->name, NULL);
            return 0;
        }
        int k;
        for (k = 0; k < 4; k++)
            if (!strcmp(cl->text, classes[k]))
                break;
        if (k == 4) {
            error_at(b, &cl->loc, "unknown register class '%s' (expected GPR, UGPR, PRED or UPRED)%s", cl->text, NULL);
            return 0;
        }
        t->rclass = (reg_class)k;
        t->prefix = pf->text;
        t->zero = z->text;
        t->prefix_len = (int)strlen(t->prefix);
        t->zero_len = (int)strlen(t->zero);
        t->pair_first = key_choice(b, d, "pair", "range", "first") == 1;
        if (!parse_number(z->text2, strlen(z->text2), &t->zero_value) ||
            (t->width < 64 && t->zero_value >> t->width)) {
            error_at(b, &z->loc, "zero register number '%s' does not fit the type%s", z->text2, NULL);
            t->zero_value = 0;
        }
        return 0;
    }
    /* RAW_IMMTYPE */
    static const char *const fmts[] = {"signed", "unsigned", "f32", "f64", "f16x2", "cmem"};
    const raw_value *f = kv(d, "format");
    int k = 0;
    if (f)
        for (k = 0; k < 6; k++)
            if (!strcmp(f->text ? f->text : "", fmts[k]))
                break;
    if (!f || k == 6) {
        error_at(b, f ? &f->loc : &d->loc, "immediate type %s needs 'format = signed|unsigned|f32|f64|f16x2|cmem;'%s", d->name, NULL);
        return 0;
    }
    if (k == 5)
        return build_cmem_type(b, d, t);
    t->kind = TY_IMM;
    t->fmt = (imm_format)k;
    if ((t->fmt == IMM_F32 || t->fmt == IMM_F16X2) && t->width > 32)
        error_at(b, &d->loc, "%s: a %s immediate holds at most 32 bits%s", d->name, fmts[k]);
    int floating = t->fmt == IMM_F32 || t->fmt == IMM_F64;
    t->prefixed = key_choice(b, d, "literal", "plain", "prefixed") == 1;
    t->inexact_round = key_choice(b, d, "inexact", "error", "round") == 1;
    if ((t->prefixed || t->inexact_round) && !floating)
        error_at(b, &d->loc, "%s: 'literal' and 'inexact' apply to f32/f64 immediates only%s", d->name, NULL);
    return 0;
}

/* ------------------------------------------------------------------ rulings */

static raw_def *find_def(builder *b, const char *name)
{
    int i = strmap_get(&b->defs, name, strlen(name));
    return i < 0 ? NULL : b->isa->raw.defs[i];
}

static void apply_ruling(builder *b, const raw_def *r)
{
    raw_def *t = find_def(b, r->name);
    if (!t) { /* e.g. --isa on a directory holding only some of the documents */
        diag_add(b->diags, GISA_WARNING, &r->loc, "ruling for '%s' not applied: no group, optype or opcode has that name", r->name);
        return;
    }
    gisa_isa *isa = b->isa;
    isa_ruling *rl = arena_append(&isa->a, isa->rulings, (size_t)isa->nrulings, sizeof *rl);
    if (!rl)
        return;
    isa->rulings = rl;
    isa->rulings[isa->nrulings++] = (isa_ruling){r, t};
    if (r->nfields) {
        raw_field *nf = arena_alloc(&isa->a, sizeof *nf * (size_t)(t->nfields + r->nfields));
        if (!nf)
            return;
        if (t->nfields)
            memcpy(nf, t->fields, sizeof *nf * (size_t)t->nfields);
        int n = t->nfields;
        for (int i = 0; i < r->nfields; i++) {
            int j;
            for (j = 0; j < n; j++)
                if (!strcmp(nf[j].name, r->fields[i].name))
                    break;
            nf[j] = r->fields[i];
            if (j == n)
                n++;
        }
        t->fields = nf;
        t->nfields = n;
    }
    if (r->has_syntax) {
        t->syntax = r->syntax;
        t->nsyntax = r->nsyntax;
        t->has_syntax = 1;
    }
    if (r->nexceptions) {
        raw_exception *ne = arena_alloc(&isa->a, sizeof *ne * (size_t)(t->nexceptions + r->nexceptions));
        if (!ne)
            return;
        if (t->nexceptions)
            memcpy(ne, t->exceptions, sizeof *ne * (size_t)t->nexceptions);
        memcpy(ne + t->nexceptions, r->exceptions, sizeof *ne * (size_t)r->nexceptions);
        t->exceptions = ne;
        t->nexceptions += r->nexceptions;
    }
    if (r->nopinfo) {
        raw_opinfo *no = arena_alloc(&isa->a, sizeof *no * (size_t)(t->nopinfo + r->nopinfo));
        if (!no)
            return;
        if (t->nopinfo)
            memcpy(no, t->opinfo, sizeof *no * (size_t)t->nopinfo);
        int n = t->nopinfo;
        for (int i = 0; i < r->nopinfo; i++) {
            const raw_opinfo *o = &r->opinfo[i];
            int j;
            for (j = 0; j < n; j++)
                if (no[j].kind == o->kind &&
                    ((o->kind != OI_BITWIDTH && o->kind != OI_ASMFORMAT) ||
                     (no[j].nnames && o->nnames && !strcmp(no[j].names[0], o->names[0]))))
                    break;
            no[j] = *o;
            if (j == n)
                n++;
        }
        t->opinfo = no;
        t->nopinfo = n;
    }
}

/* ------------------------------------------------------------------ opcodes */

static int field_value(builder *b, const raw_field *rf, const isa_type *t, uint64_t *v)
{
    if (type_value(t, rf->value, strlen(rf->value), v) == 0)
        return 0;
    error_at(b, &rf->value_loc, "'%s' is not a value of type %s", rf->value, t->name);
    return -1;
}

static const raw_opinfo *nearest_opinfo(const isa_opcode *op, oi_kind kind)
{
    for (int c = op->nchain - 1; c >= 0; c--)
        for (int i = 0; i < op->chain[c]->nopinfo; i++)
            if (op->chain[c]->opinfo[i].kind == kind)
                return &op->chain[c]->opinfo[i];
    return NULL;
}

/* Resolves names in an expression against an opcode's fields: a name is a
 * field, a "string" compared with a field is one of that field's values. */
static expr *resolve_expr(builder *b, const isa_opcode *op, const expr *e, const isa_type *ctx)
{
    expr *r = arena_alloc(&b->isa->a, sizeof *r);
    if (!r)
        return NULL;
    *r = *e;
    if (e->kind == EX_NAME) {
        r->field = model_field(op, e->text);
        if (r->field < 0) {
            error_at(b, &e->loc, "'%s' is not a field of %s", e->text, op->name);
            return NULL;
        }
        return r;
    }
    if (e->kind == EX_STR) {
        if (!ctx || type_value(ctx, e->text, strlen(e->text), (uint64_t *)&r->num)) {
            error_at(b, &e->loc, "\"%s\" must be compared with a field that has such a value (%s)", e->text,
                     ctx ? ctx->name : "no field in the comparison");
            return NULL;
        }
        return r;
    }
    const isa_type *sub = NULL;
    if (e->kind == EX_BINARY && (e->op == OP_EQ || e->op == OP_NE)) {
        const expr *side = e->a->kind == EX_NAME ? e->a : e->b->kind == EX_NAME ? e->b : NULL;
        int f = side ? model_field(op, side->text) : -1;
        if (f >= 0)
            sub = op->fields[f].type;
    }
    if (e->a && !(r->a = resolve_expr(b, op, e->a, sub)))
        return NULL;
    if (e->b && !(r->b = resolve_expr(b, op, e->b, sub)))
        return NULL;
    return r;
}

expr *spec_resolve_expr(gisa_isa *isa, const isa_opcode *op, const expr *e, gisa_diags *diags)
{
    builder b = {isa, diags, 0, {0}, {0}, 0};
    return resolve_expr(&b, op, e, NULL);
}

static void build_opcode(builder *b, raw_def *d, isa_opcode *op)
{
    gisa_isa *isa = b->isa;
    const raw_def *chain[32];
    int n = 0;
    for (const raw_def *c = d; c; ) {
        if (n == 32) {
            error_at(b, &d->loc, "inheritance of %s is deeper than 32 levels (a cycle?)%s", d->name, NULL);
            return;
        }
        for (int k = 0; k < n; k++)
            if (chain[k] == c) {
                error_at(b, &d->loc, "inheritance cycle through %s%s", c->name, NULL);
                return;
            }
        chain[n++] = c;
        if (!c->parent)
            break;
        const raw_def *p = find_def(b, c->parent);
        if (!p) { /* model_build reported it, once for each definition */
            b->errors++;
            return;
        }
        if (p->kind == RAW_OPCODE) {
            error_at(b, &c->parent_loc, "'%s' is an opcode and cannot be a parent%s", c->parent, NULL);
            return;
        }
        c = p;
    }
    op->name = d->name;
    op->def = d;
    op->chain = arena_alloc(&isa->a, sizeof *op->chain * (size_t)n);
    if (!op->chain)
        return;
    for (int k = 0; k < n; k++)
        op->chain[k] = chain[n - 1 - k];
    op->nchain = n;
    int total = 0;
    for (int k = 0; k < n; k++)
        total += chain[k]->nfields;
    op->fields = arena_alloc(&isa->a, sizeof *op->fields * (size_t)(total ? total : 1));
    if (!op->fields)
        return;
    for (int k = 0; k < n; k++) {
        const raw_def *c = op->chain[k];
        for (int i = 0; i < c->nfields; i++) {
            const raw_field *rf = &c->fields[i];
            int j = model_field(op, rf->name);
            if (j < 0)
                j = op->nfields++;
            isa_field *f = &op->fields[j];
            memset(f, 0, sizeof *f);
            f->name = rf->name;
            f->off = rf->off;
            f->width = rf->width;
            f->loc = rf->loc;
            f->owner = c;
            f->type = model_type(isa, rf->type);
            if (!f->type) {
                if (reported_before(b, &rf->type_loc)) /* a group's field, met again by another opcode */
                    continue;
                const char *near = nearest_type(isa, rf->type);
                diag_add(b->diags, GISA_ERROR, &rf->type_loc, "unknown type '%s' of field '%s'%s%s%s", rf->type, rf->name,
                         near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
                b->errors++;
                continue;
            }
            if (rf->off + rf->width > isa->word_bits) {
                error_at(b, &rf->loc, "field '%s' ends past the last bit of the instruction word%s", rf->name, NULL);
                f->type = NULL; /* never placed */
                continue;
            }
            if (rf->has_value && field_value(b, rf, f->type, &f->value) == 0) {
                f->fixed = rf->fixed;
                f->has_default = !rf->fixed;
            }
        }
    }
    for (int i = 0; i < op->nfields; i++) {
        const isa_field *f = &op->fields[i];
        if (!f->type)
            continue;
        word_set(&op->covered, f->off, f->width, ~UINT64_C(0));
        if (f->fixed) {
            word_set(&op->mask, f->off, f->width, ~UINT64_C(0));
            word_set(&op->match, f->off, f->width, f->value);
        }
    }
    op->guard = model_field(op, "pg");
    op->guard_not = model_field(op, "pg.not");
    op->inlist = nearest_opinfo(op, OI_INLIST);
    op->outlist = nearest_opinfo(op, OI_OUTLIST);
    op->order = nearest_opinfo(op, OI_ORDER);
    op->modiorder = nearest_opinfo(op, OI_MODIORDER);
    int nex = 0;
    for (int k = 0; k < n; k++)
        nex += op->chain[k]->nexceptions;
    op->exceptions = arena_alloc(&isa->a, sizeof *op->exceptions * (size_t)(nex ? nex : 1));
    if (!op->exceptions)
        return;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < op->chain[k]->nexceptions; i++) {
            const raw_exception *re = &op->chain[k]->exceptions[i];
            const expr *cond = resolve_expr(b, op, re->cond, NULL);
            if (cond)
                op->exceptions[op->nexceptions++] = (isa_exception){re->kind, re->message, cond, re->loc};
        }
}

static const char *value_hex(uint64_t v, char *buf, size_t cap)
{
    snprintf(buf, cap, "0x%llx", (unsigned long long)v);
    return buf;
}

/* A later __DefBitFieldType with the name and width of an earlier one adds
 * its values to it: how a description file of its own gives a new optype
 * its Optype code. A value without `=` follows the type's highest value. */
static int extend_enum(builder *b, const raw_def *d, isa_type *t)
{
    const srcloc *was = &t->loc;
    if (d->width != t->width) {
        diag_add(b->diags, GISA_ERROR, &d->loc,
                 "type '%s' is %d bits wide (%s:%d); a later __DefBitFieldType adds values to it only with the same width, not %d",
                 d->name, t->width, was->file, was->line, d->width);
        b->errors++;
        return 0;
    }
    raw_value *vals = arena_alloc(&b->isa->a, sizeof *vals * (size_t)(t->nvalues + d->nvalues + 1));
    if (!vals)
        return -1;
    memcpy(vals, t->values, sizeof *vals * (size_t)t->nvalues);
    int n = t->nvalues;
    uint64_t next = 0;
    for (int i = 0; i < n; i++)
        if (vals[i].value + 1 > next)
            next = vals[i].value + 1;
    for (int k = 0; k < d->nvalues; k++) {
        raw_value v = d->values[k];
        if (!v.has_value)
            v.value = next;
        int taken = -1, same_value = -1;
        for (int i = 0; i < n && taken < 0; i++) {
            if (!strcmp(vals[i].name, v.name))
                taken = i;
            else if (!v.alias && !vals[i].alias && vals[i].value == v.value && i < t->nvalues && same_value < 0)
                same_value = i;
        }
        char hex[24];
        if (taken >= 0 || same_value >= 0) {
            const raw_value *o = &vals[taken >= 0 ? taken : same_value];
            if (taken >= 0)
                diag_add(b->diags, GISA_ERROR, &v.loc, "value name '%s' of type %s is already taken (= %s at %s:%d)",
                         v.name, t->name, value_hex(o->value, hex, sizeof hex), o->loc.file, o->loc.line);
            else
                diag_add(b->diags, GISA_ERROR, &v.loc, "value %s of type %s is already taken by %s (%s:%d)",
                         value_hex(v.value, hex, sizeof hex), t->name, o->name, o->loc.file, o->loc.line);
            b->errors++;
            continue;
        }
        vals[n++] = v;
        next = v.value + 1 > next ? v.value + 1 : next;
        if (t->named && v.value < ((uint64_t)1 << t->width))
            t->named[v.value] = 1;
    }
    t->values = vals;
    t->nvalues = n;
    return 0;
}

static int register_defs(builder *b)
{
    gisa_isa *isa = b->isa;
    int ntypes = 0, ntargets = 0;
    for (int i = 0; i < isa->raw.ndefs; i++) {
        raw_def *d = isa->raw.defs[i];
        if (d->kind == RAW_ENUM || d->kind == RAW_REGTYPE || d->kind == RAW_IMMTYPE)
            ntypes++;
    }
    isa->types = arena_alloc(&isa->a, sizeof *isa->types * (size_t)(ntypes ? ntypes : 1));
    if (!isa->types)
        return -1;
    for (int i = 0; i < isa->raw.ndefs; i++) {
        raw_def *d = isa->raw.defs[i];
        if (d->kind == RAW_TARGET) {
            if (ntargets++)
                error_at(b, &d->loc, "a second __DefTarget (%s); one set of files describes one target%s", d->name, NULL);
            else {
                isa->word_bits = d->width;
                isa->target_name = d->name;
                if (d->width != 64 && d->width != 128)
                    error_at(b, &d->loc, "target %s: instruction words must be 64 or 128 bits%s", d->name, NULL);
            }
        } else if (d->kind == RAW_ENUM || d->kind == RAW_REGTYPE || d->kind == RAW_IMMTYPE) {
            int had = strmap_get(&isa->type_by_name, d->name, strlen(d->name));
            if (had >= 0 && d->kind == RAW_ENUM && isa->types[had].kind == TY_ENUM) {
                if (extend_enum(b, d, &isa->types[had]) < 0)
                    return -1;
                continue;
            }
            if (had >= 0) {
                error_at(b, &d->loc, "type '%s' is defined twice%s", d->name, NULL);
                continue;
            }
            isa_type *t = &isa->types[isa->ntypes];
            if (build_type(b, d, t) < 0 || strmap_put(&isa->type_by_name, d->name, strlen(d->name), isa->ntypes))
                return -1;
            isa->ntypes++;
        } else if (d->kind != RAW_RULING) {
            if (strmap_get(&b->defs, d->name, strlen(d->name)) >= 0) {
                error_at(b, &d->loc, "'%s' is defined twice%s", d->name, NULL);
                continue;
            }
            if (strmap_put(&b->defs, d->name, strlen(d->name), i))
                return -1;
        }
    }
    if (!ntargets) {
        diag_add(b->diags, GISA_ERROR, NULL, "no __DefTarget found: the project's types file is missing (give --isa a directory with one, or keep the embedded one)");
        b->errors++;
    }
    return 0;
}

int model_build(gisa_isa *isa, gisa_diags *diags)
{
    builder b = {isa, diags, 0, {0}, {0}, 0};
    strmap_init(&b.defs);
    if (register_defs(&b) < 0 || b.errors) {
        strmap_free(&b.defs);
        return b.errors ? b.errors : 1;
    }
    for (int i = 0; i < isa->raw.ndefs; i++) {
        const raw_def *d = isa->raw.defs[i];
        const raw_def *p = d->parent ? find_def(&b, d->parent) : NULL;
        if (d->parent && !p)
            error_at(&b, &d->parent_loc, "unknown parent '%s' of %s", d->parent, d->name);
        else if (p && p->kind == RAW_OPCODE)
            error_at(&b, &d->parent_loc, "'%s' is an opcode and cannot be a parent%s", d->parent, NULL);
    }
    for (int i = 0; i < isa->raw.ndefs; i++)
        if (isa->raw.defs[i]->kind == RAW_RULING)
            apply_ruling(&b, isa->raw.defs[i]);
    isa->guard_type = model_type(isa, "Pred");
    int nop = 0;
    for (int i = 0; i < isa->raw.ndefs; i++)
        nop += isa->raw.defs[i]->kind == RAW_OPCODE;
    isa->opcodes = arena_alloc(&isa->a, sizeof *isa->opcodes * (size_t)(nop ? nop : 1));
    isa->optypes = arena_alloc(&isa->a, sizeof *isa->optypes * (size_t)(nop ? nop : 1));
    if (!isa->opcodes || !isa->optypes) {
        strmap_free(&b.defs);
        return 1;
    }
    for (int i = 0; i < isa->raw.ndefs && b.errors < 100; i++) {
        raw_def *d = isa->raw.defs[i];
        if (d->kind != RAW_OPCODE)
            continue;
        isa_opcode *op = &isa->opcodes[isa->nopcodes];
        memset(op, 0, sizeof *op);
        op->index = isa->nopcodes;
        int before = b.errors;
        build_opcode(&b, d, op);
        if (b.errors != before)
            continue;
        /* the optype is the nearest ancestor holding a __Syntax block */
        const raw_def *sdef = NULL;
        for (int c = op->nchain - 1; c >= 0 && !sdef; c--)
            if (op->chain[c]->has_syntax)
                sdef = op->chain[c];
        if (!sdef) {
            error_at(&b, &d->loc, "%s has no __Syntax block in its definition or its ancestors%s", d->name, NULL);
            continue;
        }
        int t;
        for (t = 0; t < isa->noptypes; t++)
            if (isa->optypes[t].def == sdef)
                break;
        if (t == isa->noptypes) {
            const raw_value *sem = kv(sdef, "semantics");
            isa->optypes[t] = (isa_optype){sdef->name, sdef, NULL, 0, sem && sem->text ? sem->text : sdef->name};
            isa->noptypes++;
        }
        isa_optype *ot = &isa->optypes[t];
        int *ops = arena_append(&isa->a, ot->opcodes, (size_t)ot->nopcodes, sizeof *ops);
        if (!ops)
            break;
        ops[ot->nopcodes++] = op->index;
        ot->opcodes = ops;
        op->optype = ot;
        if (strmap_put(&isa->opcode_by_name, op->name, strlen(op->name), op->index))
            break;
        isa->nopcodes++;
        b.errors += syntax_build_forms(isa, op, sdef, diags);
    }
    strmap_free(&b.defs);
    if (!b.errors && decode_build(isa))
        b.errors++;
    if (isa->a.failed) {
        diag_add(diags, GISA_ERROR, NULL, "out of memory while building the ISA model");
        b.errors++;
    }
    return b.errors;
}
