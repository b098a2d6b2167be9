/* Coverage as JSON: the file a campaign accumulates into and what tools
 * read. Written in the universe's order (deterministic, diffable); read by
 * name, so a file stays readable while the model's order changes. Reading
 * walks the file twice, checking and then adding, so a bad file changes
 * nothing. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "common/diag.h"
#include "cov/cov.h"

#define COV_FORMAT "gisa-coverage"
#define COV_VERSION 1

/* ------------------------------------------------------------ writing */

static int put(json_t *obj, const char *key, json_t *v) { return json_object_set_new(obj, key, v); }

static json_t *count(uint64_t n) { return json_integer((json_int_t)n); }

static json_t *figure(gisa_cov_figure f)
{
    json_t *o = json_object();
    put(o, "hit", count(f.hit));
    put(o, "total", count(f.total));
    return o;
}

static json_t *summary(const gisa_cov *c)
{
    gisa_cov_summary s;
    gisa_cov_summary_get(c, &s);
    json_t *o = json_object();
    put(o, "opcodes", figure(s.opcodes));
    put(o, "optypes", figure(s.optypes));
    put(o, "modifier_values", figure(s.modifier_values));
    put(o, "combinations", figure(s.combinations));
    put(o, "operand_kinds", figure(s.operand_kinds));
    put(o, "decorations", figure(s.decorations));
    put(o, "fp_classes", figure(s.fp_classes));
    return o;
}

/* names[i]: hits[i] for the possible ones and any hit */
static json_t *counts(const char *const *names, const uint64_t *hits, uint32_t possible, int n)
{
    json_t *o = json_object();
    for (int i = 0; i < n; i++)
        if (possible >> i & 1 || hits[i])
            put(o, names[i], count(hits[i]));
    return o;
}

static json_t *operand(const cov_operand *op)
{
    json_t *o = json_object();
    put(o, "kinds", counts(cov_kind_names, op->kind_hits, op->kinds, K_COUNT));
    put(o, "decorations", counts(cov_deco_names, op->deco_hits, op->decos, D_COUNT));
    json_t *cls = json_object();
    for (int f = 0; f < F_COUNT; f++) {
        int any = op->fmts >> f & 1;
        for (int k = 0; k < C_COUNT; k++)
            any |= op->class_hits[f][k] != 0;
        if (any)
            put(cls, cov_fmt_names[f], counts(cov_class_names, op->class_hits[f], (1u << C_COUNT) - 1, C_COUNT));
    }
    put(o, "fp_classes", cls);
    return o;
}

static json_t *optype(const cov_optype *t)
{
    json_t *o = json_object();
    put(o, "executed", count(t->executed));
    put(o, "skipped", count(t->skipped));
    put(o, "fp_format", t->fp ? json_string(t->fp - 1 == F_F16 ? "F16x2" : cov_fmt_names[t->fp - 1]) : json_null());
    json_t *mods = json_object(), *silent = json_array();
    for (int g = 0; g < t->ngroups; g++) {
        const cov_group *grp = &t->groups[g];
        if (!grp->encoded) {
            json_array_append_new(silent, json_string(grp->name));
            continue;
        }
        json_t *vals = json_object();
        for (int v = 0; v < grp->nvalues; v++)
            put(vals, grp->values[v], count(grp->hits[v]));
        put(mods, grp->name, vals);
    }
    put(o, "modifiers", mods);
    put(o, "not_encoded", silent);
    json_t *combos = json_object();
    for (int k = 0; k < t->ncombos; k++)
        if (t->combo_encodes[k] || t->combo_hits[k])
            put(combos, t->combos[k], count(t->combo_hits[k]));
    put(o, "combinations", combos);
    json_t *ops = json_object();
    for (int k = 0; k < t->nops; k++)
        put(ops, t->ops[k].name, operand(&t->ops[k]));
    put(o, "operands", ops);
    return o;
}

char *gisa_cov_write_json(const gisa_cov *c)
{
    if (!c)
        return NULL;
    json_t *root = json_object();
    put(root, "format", json_string(COV_FORMAT));
    put(root, "version", json_integer(COV_VERSION));
    put(root, "target", c->isa->target_name ? json_string(c->isa->target_name) : json_null());
    put(root, "executed", count(c->executed));
    put(root, "skipped", count(c->skipped));
    put(root, "summary", summary(c));
    json_t *opcodes = json_object();
    for (int i = 0; i < c->nopcodes; i++) {
        json_t *o = json_object();
        put(o, "executed", count(c->opcodes[i].executed));
        put(o, "skipped", count(c->opcodes[i].skipped));
        put(opcodes, c->isa->opcodes[i].name, o);
    }
    put(root, "opcodes", opcodes);
    json_t *optypes = json_object();
    for (int i = 0; i < c->noptypes; i++)
        put(optypes, c->optypes[i].name, optype(&c->optypes[i]));
    put(root, "optypes", optypes);
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return text;
}

/* ------------------------------------------------------------ reading */

typedef struct reader {
    gisa_cov *c;
    const char *name;
    gisa_diags *d;
    int apply; /* 0: check only */
    int errors;
    char path[256]; /* where in the file, for messages */
} reader;

static void fail(reader *r, const char *what, const char *key)
{
    if (r->apply || r->errors++ >= 20)
        return;
    srcloc at = {r->name, 0, 0, 0, NULL, 0};
    diag_add(r->d, GISA_ERROR, &at, "coverage %s: %s '%s'", r->path, what, key);
}

/* Adds a count (a non-negative integer) to *into. */
static void add_count(reader *r, json_t *v, uint64_t *into, const char *key)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        fail(r, "not a count (a non-negative integer):", key);
        return;
    }
    if (r->apply)
        *into += (uint64_t)json_integer_value(v);
}

static json_t *object_at(reader *r, json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (v && !json_is_object(v)) {
        fail(r, "not an object:", key);
        return NULL;
    }
    return v;
}

static int find(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* Each key of obj names one of names[n]; its count adds to hits[i]. A
 * name this model lacks is refused unless its count is 0. */
static void read_counts(reader *r, json_t *obj, const char *const *names, int n, uint64_t *hits)
{
    const char *key;
    json_t *v;
    if (!obj)
        return;
    json_object_foreach(obj, key, v) {
        int i = find(names, n, key);
        if (i < 0 && json_is_integer(v) && json_integer_value(v) == 0)
            continue; /* nothing lost: an item an older model had */
        if (i < 0)
            fail(r, "no such item", key);
        else
            add_count(r, v, &hits[i], key);
    }
}

/* r->path becomes "optypes.T.WHAT.NAME" */
static void at(reader *r, const cov_optype *t, const char *what, const char *name)
{
    snprintf(r->path, sizeof r->path, "optypes.%s.%s%s%s", t->name, what, name ? "." : "", name ? name : "");
}

static void read_operand(reader *r, const cov_optype *t, cov_operand *o, json_t *obj)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        at(r, t, "operands", o->name);
        if (!strcmp(key, "kinds"))
            read_counts(r, object_at(r, obj, key), cov_kind_names, K_COUNT, o->kind_hits);
        else if (!strcmp(key, "decorations"))
            read_counts(r, object_at(r, obj, key), cov_deco_names, D_COUNT, o->deco_hits);
        else if (!strcmp(key, "fp_classes")) {
            json_t *cls = object_at(r, obj, key), *fv;
            const char *fkey;
            if (cls)
                json_object_foreach(cls, fkey, fv) {
                    int f = find(cov_fmt_names, F_COUNT, fkey);
                    if (f < 0)
                        fail(r, "no such format", fkey);
                    else
                        read_counts(r, object_at(r, cls, fkey), cov_class_names, C_COUNT, o->class_hits[f]);
                }
        } else
            fail(r, "unknown key", key);
    }
}

static void read_optype(reader *r, cov_optype *t, json_t *obj)
{
    const char *key, *k2;
    json_t *v, *v2;
    json_object_foreach(obj, key, v) {
        at(r, t, key, NULL);
        if (!strcmp(key, "executed"))
            add_count(r, v, &t->executed, key);
        else if (!strcmp(key, "skipped"))
            add_count(r, v, &t->skipped, key);
        else if (!strcmp(key, "fp_format") || !strcmp(key, "not_encoded"))
            continue; /* from the model */
        else if (!strcmp(key, "modifiers")) {
            json_t *mods = object_at(r, obj, key);
            if (mods)
                json_object_foreach(mods, k2, v2) {
                    int g;
                    for (g = 0; g < t->ngroups && (strcmp(t->groups[g].name, k2) || !t->groups[g].encoded); g++)
                        ;
                    at(r, t, "modifiers", k2);
                    if (g == t->ngroups)
                        fail(r, "this model has no modifier", k2);
                    else
                        read_counts(r, object_at(r, mods, k2), t->groups[g].values, t->groups[g].nvalues,
                                    t->groups[g].hits);
                }
        } else if (!strcmp(key, "combinations"))
            read_counts(r, object_at(r, obj, key), t->combos, t->ncombos, t->combo_hits);
        else if (!strcmp(key, "operands")) {
            json_t *ops = object_at(r, obj, key);
            if (ops)
                json_object_foreach(ops, k2, v2) {
                    int o;
                    for (o = 0; o < t->nops && strcmp(t->ops[o].name, k2); o++)
                        ;
                    if (o == t->nops)
                        fail(r, "this model has no source operand", k2);
                    else if (json_is_object(v2))
                        read_operand(r, t, &t->ops[o], v2);
                    else
                        fail(r, "not an object:", k2);
                }
        } else
            fail(r, "unknown key", key);
    }
}

static void read_root(reader *r, json_t *root)
{
    gisa_cov *c = r->c;
    const char *key, *k2;
    json_t *v, *v2;
    json_object_foreach(root, key, v) {
        snprintf(r->path, sizeof r->path, "%s", key);
        if (!strcmp(key, "format") || !strcmp(key, "version") || !strcmp(key, "target") || !strcmp(key, "summary"))
            continue; /* checked before, or derived */
        if (!strcmp(key, "executed"))
            add_count(r, v, &c->executed, key);
        else if (!strcmp(key, "skipped"))
            add_count(r, v, &c->skipped, key);
        else if (!strcmp(key, "opcodes")) {
            json_t *ops = object_at(r, root, key);
            if (ops)
                json_object_foreach(ops, k2, v2) {
                    size_t i = gisa_isa_find_opcode(c->isa, k2);
                    snprintf(r->path, sizeof r->path, "opcodes.%s", k2);
                    if (i == (size_t)-1)
                        fail(r, "this model has no opcode", k2);
                    else if (!json_is_object(v2))
                        fail(r, "not an object:", k2);
                    else {
                        const char *k3;
                        json_t *v3;
                        json_object_foreach(v2, k3, v3) {
                            if (!strcmp(k3, "executed"))
                                add_count(r, v3, &c->opcodes[i].executed, k3);
                            else if (!strcmp(k3, "skipped"))
                                add_count(r, v3, &c->opcodes[i].skipped, k3);
                            else
                                fail(r, "unknown key", k3);
                        }
                    }
                }
        } else if (!strcmp(key, "optypes")) {
            json_t *ts = object_at(r, root, key);
            if (ts)
                json_object_foreach(ts, k2, v2) {
                    int t;
                    for (t = 0; t < c->noptypes && strcmp(c->optypes[t].name, k2); t++)
                        ;
                    snprintf(r->path, sizeof r->path, "optypes.%s", k2);
                    if (t == c->noptypes)
                        fail(r, "this model has no optype", k2);
                    else if (!json_is_object(v2))
                        fail(r, "not an object:", k2);
                    else
                        read_optype(r, &c->optypes[t], v2);
                }
        } else
            fail(r, "unknown key", key);
    }
}

gisa_status gisa_cov_read_json(gisa_cov *c, const char *name, const char *text, size_t len, gisa_diags *d)
{
    if (!c || (!text && len))
        return GISA_ERR_USAGE;
    reader r = {.c = c, .name = name ? name : "<input>", .d = d};
    srcloc at = {r.name, 0, 0, 0, NULL, 0};
    json_error_t err;
    json_t *root = json_loadb(text ? text : "", len, 0, &err);
    if (!root) {
        at.line = err.line > 0 ? err.line : 0;
        at.col = err.column > 0 ? err.column : 0;
        diag_add(d, GISA_ERROR, &at, "not JSON: %s", err.text);
        return GISA_ERR_INPUT;
    }
    json_t *fmt = json_object_get(root, "format"), *ver = json_object_get(root, "version");
    json_t *target = json_object_get(root, "target");
    const char *want = c->isa->target_name;
    if (!json_is_object(root) || !json_is_string(fmt) || strcmp(json_string_value(fmt), COV_FORMAT)) {
        diag_add(d, GISA_ERROR, &at, "not a coverage file (no \"format\": \"%s\")", COV_FORMAT);
        r.errors++;
    } else if (!json_is_integer(ver) || json_integer_value(ver) != COV_VERSION) {
        diag_add(d, GISA_ERROR, &at, "coverage file version is not %d", COV_VERSION);
        r.errors++;
    } else if (json_is_string(target) && want && strcmp(json_string_value(target), want)) {
        diag_add(d, GISA_ERROR, &at, "coverage of target %s, not %s", json_string_value(target), want);
        r.errors++;
    } else {
        read_root(&r, root);
    }
    if (!r.errors) {
        r.apply = 1;
        read_root(&r, root);
    }
    json_decref(root);
    return r.errors ? GISA_ERR_INPUT : GISA_OK;
}
