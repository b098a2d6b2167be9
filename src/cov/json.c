/* Coverage as JSON: the file a campaign accumulates into and what tools
 * read. Written in the universe's order, one member per line (diffable);
 * read by name with the pull parser (common/json.h), so a file stays
 * readable while the model's order changes. Reading walks the text three
 * times: the header (format, version, target), then every item checked,
 * then every count added, so a bad file changes nothing. */
#include <stdio.h>
#include <string.h>

#include "common/diag.h"
#include "common/json.h"
#include "common/strbuf.h"
#include "common/text.h"
#include "cov/cov.h"

#define COV_FORMAT "gisa-coverage"
#define COV_VERSION 2 /* 2: bins and user_bins; version 1 files read as they are */
#define DEPTH_MAX 8

/* ------------------------------------------------------------ writing */

typedef struct writer {
    strbuf b;
    int depth;
    int members[DEPTH_MAX]; /* written so far at each open level */
} writer;

static void w_string(writer *w, const char *s)
{
    sb_putc(&w->b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(&w->b, "\\%c", c);
        else if (c < 0x20)
            sb_printf(&w->b, "\\u%04x", c);
        else
            sb_putc(&w->b, (char)c);
    }
    sb_putc(&w->b, '"');
}

/* The separator and indentation before a member (key NULL: an element). */
static void w_key(writer *w, const char *key)
{
    sb_puts(&w->b, w->members[w->depth]++ ? ",\n" : "\n");
    for (int i = 0; i <= w->depth; i++)
        sb_putc(&w->b, ' ');
    if (key) {
        w_string(w, key);
        sb_puts(&w->b, ": ");
    }
}

static void w_open(writer *w, const char *key, char bracket)
{
    if (w->depth >= 0)
        w_key(w, key);
    sb_putc(&w->b, bracket);
    w->members[++w->depth] = 0;
}

static void w_close(writer *w, char bracket)
{
    if (w->members[w->depth]) {
        sb_putc(&w->b, '\n');
        for (int i = 0; i < w->depth; i++)
            sb_putc(&w->b, ' ');
    }
    sb_putc(&w->b, bracket);
    w->depth--;
}

static void w_count(writer *w, const char *key, uint64_t n)
{
    w_key(w, key);
    sb_printf(&w->b, "%llu", (unsigned long long)n);
}

static void w_text(writer *w, const char *key, const char *s)
{
    w_key(w, key);
    if (s)
        w_string(w, s);
    else
        sb_puts(&w->b, "null");
}

static void w_figure(writer *w, const char *key, gisa_cov_figure f)
{
    w_open(w, key, '{');
    w_count(w, "hit", f.hit);
    w_count(w, "total", f.total);
    w_close(w, '}');
}

/* names[i]: hits[i] for the possible ones and any hit */
static void w_counts(writer *w, const char *key, const char *const *names, const uint64_t *hits, uint32_t possible,
                     int n)
{
    w_open(w, key, '{');
    for (int i = 0; i < n; i++)
        if (possible >> i & 1 || hits[i])
            w_count(w, names[i], hits[i]);
    w_close(w, '}');
}

static void w_operand(writer *w, const cov_operand *op)
{
    w_open(w, op->name, '{');
    w_counts(w, "kinds", cov_kind_names, op->kind_hits, op->kinds, K_COUNT);
    w_counts(w, "decorations", cov_deco_names, op->deco_hits, op->decos, D_COUNT);
    w_open(w, "fp_classes", '{');
    for (int f = 0; f < F_COUNT; f++) {
        int any = op->fmts >> f & 1;
        for (int k = 0; k < C_COUNT; k++)
            any |= op->class_hits[f][k] != 0;
        if (any)
            w_counts(w, cov_fmt_names[f], cov_class_names, op->class_hits[f], (1u << C_COUNT) - 1, C_COUNT);
    }
    w_close(w, '}');
    w_close(w, '}');
}

static void w_optype(writer *w, const cov_optype *t)
{
    w_open(w, t->name, '{');
    w_count(w, "executed", t->executed);
    w_count(w, "skipped", t->skipped);
    w_text(w, "fp_format", !t->fp ? NULL : t->fp - 1 == F_F16 ? "F16x2" : cov_fmt_names[t->fp - 1]);
    w_open(w, "modifiers", '{');
    for (int g = 0; g < t->ngroups; g++) {
        const cov_group *grp = &t->groups[g];
        if (!grp->encoded)
            continue;
        w_open(w, grp->name, '{');
        for (int v = 0; v < grp->nvalues; v++)
            w_count(w, grp->values[v], grp->hits[v]);
        w_close(w, '}');
    }
    w_close(w, '}');
    w_open(w, "not_encoded", '[');
    for (int g = 0; g < t->ngroups; g++)
        if (!t->groups[g].encoded)
            w_text(w, NULL, t->groups[g].name);
    w_close(w, ']');
    w_open(w, "combinations", '{');
    for (int k = 0; k < t->ncombos; k++)
        if (t->combo_encodes[k] || t->combo_hits[k])
            w_count(w, t->combos[k], t->combo_hits[k]);
    w_close(w, '}');
    w_open(w, "operands", '{');
    for (int k = 0; k < t->nops; k++)
        w_operand(w, &t->ops[k]);
    w_close(w, '}');
    w_open(w, "bins", '{');
    for (int g = 0; g < t->nbins; g++) {
        const cov_bins *b = &t->bins[g];
        w_open(w, b->name, '{');
        for (int k = 0; k < b->nbins; k++)
            if (b->possible[k] || b->hits[k])
                w_count(w, b->names[k], b->hits[k]);
        w_close(w, '}');
    }
    w_close(w, '}');
    w_close(w, '}');
}

static char *cov_json(const gisa_cov *c)
{
    gisa_cov_summary s;
    gisa_cov_summary_get(c, &s);
    writer w = {.depth = -1};
    sb_init(&w.b);
    w_open(&w, NULL, '{');
    w_text(&w, "format", COV_FORMAT);
    w_count(&w, "version", COV_VERSION);
    w_text(&w, "target", c->isa->target_name);
    w_count(&w, "executed", c->executed);
    w_count(&w, "skipped", c->skipped);
    w_open(&w, "summary", '{');
    gisa_cov_figure f[COV_NFIGURES];
    cov_figures(&s, f);
    for (int i = 0; i < COV_NFIGURES; i++)
        w_figure(&w, cov_figure_names[i], f[i]);
    w_close(&w, '}');
    w_open(&w, "opcodes", '{');
    for (int i = 0; i < c->nopcodes; i++) {
        w_open(&w, c->isa->opcodes[i].name, '{');
        w_count(&w, "executed", c->opcodes[i].executed);
        w_count(&w, "skipped", c->opcodes[i].skipped);
        w_close(&w, '}');
    }
    w_close(&w, '}');
    w_open(&w, "optypes", '{');
    for (int i = 0; i < c->noptypes; i++)
        w_optype(&w, &c->optypes[i]);
    w_close(&w, '}');
    w_open(&w, "user_bins", '{');
    for (int i = 0; i < c->nuser; i++) {
        w_open(&w, c->user[i].name, '{');
        w_text(&w, "definition", c->user[i].def);
        w_count(&w, "count", c->user[i].hits);
        w_close(&w, '}');
    }
    w_close(&w, '}');
    w_close(&w, '}');
    sb_putc(&w.b, '\n');
    if (w.b.failed) {
        sb_free(&w.b);
        return NULL;
    }
    return sb_take(&w.b);
}

gisa_status gisa_cov_write_json(const gisa_cov *c, char **out)
{
    if (!c || !out)
        return GISA_ERR_USAGE;
    *out = cov_json(c);
    return *out ? GISA_OK : GISA_ERR_NOMEM;
}

/* ------------------------------------------------------------ reading */

typedef struct reader {
    gisa_cov *c;
    json_parser j;
    const char *name;
    gisa_diags *d;
    int apply; /* 0: check only */
    int errors, oom;
    char path[1024]; /* where in the file, for messages */
} reader;

static void fail(reader *r, const json_val *at, const char *what, const char *key)
{
    if (r->apply || r->errors++ >= 20)
        return;
    srcloc loc = {r->name, at ? at->line : 0, at ? at->col : 0, 1, NULL, 0, NULL};
    diag_add(r->d, GISA_ERROR, &loc, "coverage %s: %s '%s'", r->path, what, key);
}

/* A count: a non-negative integer below 2^63 (what the writer can write back). */
static int count_of(const json_val *v, uint64_t *out)
{
    if (v->type != JSON_NUMBER || v->fraction || !v->n || v->s[0] == '-')
        return -1;
    uint64_t n = 0;
    for (size_t i = 0; i < v->n; i++) {
        if (v->s[i] < '0' || v->s[i] > '9' || n > (UINT64_C(1) << 62) / 5)
            return -1;
        n = n * 10 + (uint64_t)(v->s[i] - '0');
    }
    if (n >> 63)
        return -1;
    *out = n;
    return 0;
}

/* Adds the count v to *into (apply pass), or checks it. */
static void add_count(reader *r, const json_val *v, uint64_t *into, const char *key)
{
    uint64_t n;
    if (count_of(v, &n)) {
        fail(r, v, "not a count (a non-negative integer):", key);
        json_skip(&r->j, v);
        return;
    }
    if (r->apply)
        *into = cov_sat_add(*into, n);
}

/* Iterates the members of an object whose start is v: 1 with the key
 * (decoded into key[256]) and the value's start in *val; 0 at the end or
 * on a syntax error. A value that is no object is refused (and skipped)
 * by the first call. */
static int member(reader *r, const json_val *v, int *first, char *key, json_val *val, const char *what)
{
    if (*first && v->type != JSON_OBJECT) {
        fail(r, v, "not an object:", what);
        json_skip(&r->j, v);
        return 0;
    }
    json_val k;
    while (json_member(&r->j, first, &k) == 1 && !json_value(&r->j, val)) {
        if (json_unescape(&k, key, 256) != (size_t)-1)
            return 1;
        fail(r, &k, "a key too long or with a NUL character", "");
        json_skip(&r->j, val);
    }
    return 0;
}

static int find(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* Each key of the object v names one of names[n]; its count adds to
 * hits[i]. A name this model lacks is refused unless its count is 0 (an
 * item an older model had: nothing is lost). */
static void read_counts(reader *r, const json_val *v, const char *what, const char *const *names, int n,
                        uint64_t *hits)
{
    char key[256];
    json_val val;
    uint64_t zero;
    for (int first = 1; member(r, v, &first, key, &val, what);) {
        int i = find(names, n, key);
        if (i >= 0)
            add_count(r, &val, &hits[i], key);
        else if (count_of(&val, &zero) || zero) {
            fail(r, &val, "no such item", key);
            json_skip(&r->j, &val);
        }
    }
}

/* r->path becomes "optypes.T.WHAT.NAME" */
static void at(reader *r, const cov_optype *t, const char *what, const char *name)
{
    snprintf(r->path, sizeof r->path, "optypes.%s.%s%s%s", t->name, what, name ? "." : "", name ? name : "");
}

static void read_operand(reader *r, const cov_optype *t, cov_operand *o, const json_val *v)
{
    char key[256], fkey[256];
    json_val val, fval;
    for (int first = 1; member(r, v, &first, key, &val, o->name);) {
        at(r, t, "operands", o->name);
        if (!strcmp(key, "kinds"))
            read_counts(r, &val, key, cov_kind_names, K_COUNT, o->kind_hits);
        else if (!strcmp(key, "decorations"))
            read_counts(r, &val, key, cov_deco_names, D_COUNT, o->deco_hits);
        else if (!strcmp(key, "fp_classes"))
            for (int ff = 1; member(r, &val, &ff, fkey, &fval, key);) {
                int f = find(cov_fmt_names, F_COUNT, fkey);
                if (f >= 0) {
                    read_counts(r, &fval, fkey, cov_class_names, C_COUNT, o->class_hits[f]);
                } else {
                    fail(r, &fval, "no such format", fkey);
                    json_skip(&r->j, &fval);
                }
            }
        else {
            fail(r, &val, "unknown key", key);
            json_skip(&r->j, &val);
        }
    }
}

static void read_modifiers(reader *r, cov_optype *t, const json_val *v)
{
    char key[256];
    json_val val;
    for (int first = 1; member(r, v, &first, key, &val, "modifiers");) {
        int g;
        for (g = 0; g < t->ngroups && (strcmp(t->groups[g].name, key) || !t->groups[g].encoded); g++)
            ;
        at(r, t, "modifiers", key);
        if (g < t->ngroups) {
            read_counts(r, &val, key, t->groups[g].values, t->groups[g].nvalues, t->groups[g].hits);
        } else {
            fail(r, &val, "this model has no modifier", key);
            json_skip(&r->j, &val);
        }
    }
}

static void read_operands(reader *r, cov_optype *t, const json_val *v)
{
    char key[256];
    json_val val;
    for (int first = 1; member(r, v, &first, key, &val, "operands");) {
        int o;
        for (o = 0; o < t->nops && strcmp(t->ops[o].name, key); o++)
            ;
        at(r, t, "operands", key);
        if (o < t->nops) {
            read_operand(r, t, &t->ops[o], &val);
        } else {
            fail(r, &val, "this model has no source operand", key);
            json_skip(&r->j, &val);
        }
    }
}

static void read_bins(reader *r, cov_optype *t, const json_val *v)
{
    char key[256];
    json_val val;
    for (int first = 1; member(r, v, &first, key, &val, "bins");) {
        int g;
        for (g = 0; g < t->nbins && strcmp(t->bins[g].name, key); g++)
            ;
        at(r, t, "bins", key);
        /* a group this model lacks reads as one without items: only its
         * non-zero counts are refused (an older model's file loses nothing) */
        if (g < t->nbins)
            read_counts(r, &val, key, t->bins[g].names, t->bins[g].nbins, t->bins[g].hits);
        else
            read_counts(r, &val, key, NULL, 0, NULL);
    }
}

/* A user bin: its definition must be the one this coverage has, if any */
static void read_user(reader *r, const char *name, const json_val *v)
{
    char key[256], def[1024];
    json_val val;
    uint64_t n = 0;
    int have_def = 0, have_count = 0;
    json_val at_def = *v;
    for (int first = 1; member(r, v, &first, key, &val, name);) {
        if (!strcmp(key, "definition") && val.type == JSON_STRING && json_unescape(&val, def, sizeof def) != (size_t)-1) {
            have_def = 1;
            at_def = val;
        } else if (!strcmp(key, "count") && !count_of(&val, &n)) {
            have_count = 1;
        } else {
            fail(r, &val, "not a definition (a string) or a count:", key);
            json_skip(&r->j, &val);
        }
    }
    if (!have_def || !have_count) {
        fail(r, v, "a user bin needs \"definition\" and \"count\":", name);
        return;
    }
    int i = cov_user_find(r->c, name);
    if (i >= 0 && strcmp(r->c->user[i].def, def)) {
        fail(r, &at_def, "defined otherwise here: user bin", name);
        return;
    }
    if (!r->apply)
        return;
    if (i < 0 && (i = cov_user_new(r->c, name, def)) < 0) {
        r->oom = 1;
        return;
    }
    r->c->user[i].hits = cov_sat_add(r->c->user[i].hits, n);
}

static void read_optype(reader *r, cov_optype *t, const json_val *v)
{
    char key[256];
    json_val val;
    for (int first = 1; member(r, v, &first, key, &val, t->name);) {
        at(r, t, key, NULL);
        if (!strcmp(key, "executed"))
            add_count(r, &val, &t->executed, key);
        else if (!strcmp(key, "skipped"))
            add_count(r, &val, &t->skipped, key);
        else if (!strcmp(key, "modifiers"))
            read_modifiers(r, t, &val);
        else if (!strcmp(key, "combinations"))
            read_counts(r, &val, key, t->combos, t->ncombos, t->combo_hits);
        else if (!strcmp(key, "operands"))
            read_operands(r, t, &val);
        else if (!strcmp(key, "bins"))
            read_bins(r, t, &val);
        else if (strcmp(key, "fp_format") && strcmp(key, "not_encoded")) { /* those two are the model's */
            fail(r, &val, "unknown key", key);
            json_skip(&r->j, &val);
        } else {
            json_skip(&r->j, &val);
        }
    }
}

static void read_opcode(reader *r, size_t i, const json_val *v, const char *name)
{
    char key[256];
    json_val val;
    for (int first = 1; member(r, v, &first, key, &val, name);) {
        if (!strcmp(key, "executed"))
            add_count(r, &val, &r->c->opcodes[i].executed, key);
        else if (!strcmp(key, "skipped"))
            add_count(r, &val, &r->c->opcodes[i].skipped, key);
        else {
            fail(r, &val, "unknown key", key);
            json_skip(&r->j, &val);
        }
    }
}

static void read_body(reader *r, const json_val *root)
{
    gisa_cov *c = r->c;
    char key[256], k2[256];
    json_val val, v2;
    for (int first = 1; member(r, root, &first, key, &val, "the file");) {
        snprintf(r->path, sizeof r->path, "%s", key);
        if (!strcmp(key, "executed"))
            add_count(r, &val, &c->executed, key);
        else if (!strcmp(key, "skipped"))
            add_count(r, &val, &c->skipped, key);
        else if (!strcmp(key, "opcodes"))
            for (int f2 = 1; member(r, &val, &f2, k2, &v2, key);) {
                size_t i = 0;
                gisa_status found = gisa_isa_find_opcode(c->isa, k2, &i);
                snprintf(r->path, sizeof r->path, "opcodes.%s", k2);
                if (found == GISA_OK) {
                    read_opcode(r, i, &v2, k2);
                } else {
                    fail(r, &v2, "this model has no opcode", k2);
                    json_skip(&r->j, &v2);
                }
            }
        else if (!strcmp(key, "optypes"))
            for (int f2 = 1; member(r, &val, &f2, k2, &v2, key);) {
                int t;
                for (t = 0; t < c->noptypes && strcmp(c->optypes[t].name, k2); t++)
                    ;
                snprintf(r->path, sizeof r->path, "optypes.%s", k2);
                if (t < c->noptypes) {
                    read_optype(r, &c->optypes[t], &v2);
                } else {
                    fail(r, &v2, "this model has no optype", k2);
                    json_skip(&r->j, &v2);
                }
            }
        else if (!strcmp(key, "user_bins"))
            for (int f2 = 1; member(r, &val, &f2, k2, &v2, key);) {
                snprintf(r->path, sizeof r->path, "user_bins.%s", k2);
                read_user(r, k2, &v2);
            }
        else if (strcmp(key, "format") && strcmp(key, "version") && strcmp(key, "target") && strcmp(key, "summary")) {
            fail(r, &val, "unknown key", key);
            json_skip(&r->j, &val);
        } else {
            json_skip(&r->j, &val); /* checked first, or derived */
        }
    }
}

/* The header: format, version and target. Returns 0 when they are right. */
static int read_header(reader *r, const json_val *root, srcloc *loc)
{
    char key[256], value[256];
    json_val val;
    int format = 0, version = 0, wrong_target = 0;
    value[0] = 0;
    for (int first = 1; root->type == JSON_OBJECT && member(r, root, &first, key, &val, "the file");) {
        uint64_t n;
        size_t len = val.type == JSON_STRING ? json_unescape(&val, value, sizeof value) : (size_t)-1;
        if (!strcmp(key, "format"))
            format = len != (size_t)-1 && !strcmp(value, COV_FORMAT);
        else if (!strcmp(key, "version"))
            version = !count_of(&val, &n) && n >= 1 && n <= COV_VERSION;
        else if (!strcmp(key, "target") && len != (size_t)-1 && r->c->isa->target_name &&
                 strcmp(value, r->c->isa->target_name)) {
            /* the rest of the header is read on: leaving the object half
             * read would make a second, bogus error of its remainder */
            diag_add(r->d, GISA_ERROR, loc, "coverage of target %s, not %s", value, r->c->isa->target_name);
            wrong_target = 1;
        }
        json_skip(&r->j, &val);
    }
    if (wrong_target)
        return -1;
    if (root->type != JSON_OBJECT || !format)
        diag_add(r->d, GISA_ERROR, loc, "not a coverage file (no \"format\": \"%s\")", COV_FORMAT);
    else if (!version)
        diag_add(r->d, GISA_ERROR, loc, "coverage file version is not 1 to %d (a newer gisa's file?)", COV_VERSION);
    return root->type == JSON_OBJECT && format && version ? 0 : -1;
}

/* One walk over the text: 0 when it parsed and nothing was refused. */
static int walk(reader *r, const char *text, size_t len, int pass)
{
    srcloc loc = {r->name, 0, 0, 0, NULL, 0, NULL};
    json_val root;
    json_init(&r->j, text, len);
    r->apply = pass == 2;
    int bad = 0;
    if (!json_value(&r->j, &root)) {
        if (pass == 0)
            bad = read_header(r, &root, &loc);
        else
            read_body(r, &root);
    }
    if (!r->j.failed)
        json_finish(&r->j);
    if (r->j.failed) {
        srcloc e = {r->name, r->j.err_line, r->j.err_col, 1, NULL, 0, NULL};
        diag_add(r->d, GISA_ERROR, &e, "not JSON: %s", r->j.error);
        return -1;
    }
    return bad || r->errors ? -1 : 0;
}

gisa_status gisa_cov_read_json(gisa_cov *c, const char *name, const char *text, size_t len, gisa_diags *d)
{
    if (!c || (!text && len))
        return GISA_ERR_USAGE;
    reader r = {.c = c, .name = name ? name : "<input>", .d = d};
    size_t bom = text ? utf8_bom_len(text, len) : 0;
    text = text ? text + bom : "";
    len -= bom;
    /* an empty file (as mktemp makes one to collect into) is no coverage
     * yet: it adds nothing */
    size_t blank = 0;
    while (blank < len && (text[blank] == ' ' || text[blank] == '\t' || text[blank] == '\n' || text[blank] == '\r'))
        blank++;
    if (blank == len)
        return GISA_OK;
    for (int pass = 0; pass < 3; pass++)
        if (walk(&r, text, len, pass))
            return GISA_ERR_INPUT;
    return r.oom ? GISA_ERR_NOMEM : GISA_OK;
}
