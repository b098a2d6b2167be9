/* The semantics of a model: each optype's `__Semantics` lines, the rulings'
 * patches applied to them (docs/semantics-language.md, "Patches"), parsed
 * once. The documents' text is never changed: the patched lines are a copy,
 * and each patch is recorded with its reason for lint and doc.
 *
 * A ruling `__DefRuling NAME` patches the optypes NAME covers (the optype,
 * or every optype under a group): its `__Semantics` block replaces the
 * optype's, and its `__SemanticPatch` lines are
 *   replace "ANCHOR" with "TEXT" because "REASON"   (ANCHOR occurs exactly once)
 *   type F32|F64|F16|BF16|INT|H2(modifier): NAME ... [because "REASON"]
 *   decorate fp|addend|twos|flags: NAME ...         [because "REASON"] */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docsem/docsem.h"

typedef struct builder {
    const gisa_isa *isa;
    arena *a; /* where the model lives: the isa's, or a lint's scratch arena */
    gisa_diags *diags;
    gisa_severity sev;
    int errors;
} builder;

static void berr(builder *b, const srcloc *at, const char *msg, const char *arg)
{
    diag_add(b->diags, b->sev, at, msg, arg);
    b->errors++;
}

/* whether optype ot is def or lies under it (its first opcode's chain) */
static int covers(const gisa_isa *isa, const isa_optype *ot, const raw_def *def)
{
    if (ot->def == def)
        return 1;
    if (!ot->nopcodes)
        return 0;
    const isa_opcode *op = &isa->opcodes[ot->opcodes[0]];
    for (int i = 0; i < op->nchain; i++)
        if (op->chain[i] == def && def->kind != RAW_OPCODE)
            return 1;
    return 0;
}

static void add_patch(builder *b, ds_optype *s, ds_patch_kind k, const char *what, const char *reason,
                      const srcloc *at)
{
    ds_patch *p = arena_append(b->a, s->patches, (size_t)s->npatches, sizeof *p);
    if (!p)
        return;
    s->patches = p;
    s->patches[s->npatches++] = (ds_patch){k, what, reason, *at};
}

/* ------------------------------------------------------------------ patch lines */

typedef struct pcur {
    const char *s;
    size_t i, n;
    srcloc loc;
} pcur;

static void ws(pcur *c)
{
    while (c->i < c->n && isspace((unsigned char)c->s[c->i]))
        c->i++;
}

static int word(pcur *c, const char *w)
{
    ws(c);
    size_t n = strlen(w);
    if (c->n - c->i >= n && !memcmp(c->s + c->i, w, n) && !isalnum((unsigned char)c->s[c->i + n])) {
        c->i += n;
        return 1;
    }
    return 0;
}

static srcloc here(const pcur *c)
{
    srcloc l = c->loc;
    l.col = (int)c->i + 1;
    return l;
}

/* "text" with \n \t \" \\ escapes, into the arena; NULL when malformed */
static char *string(builder *b, pcur *c)
{
    ws(c);
    if (c->i >= c->n || c->s[c->i] != '"')
        return NULL;
    char *out = arena_alloc(b->a, c->n - c->i + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (c->i++; c->i < c->n && c->s[c->i] != '"'; c->i++) {
        char ch = c->s[c->i];
        if (ch == '\\' && c->i + 1 < c->n) {
            ch = c->s[++c->i];
            ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : ch;
        }
        out[o++] = ch;
    }
    if (c->i >= c->n)
        return NULL;
    c->i++;
    out[o] = 0;
    return out;
}

static const char *ident(builder *b, pcur *c)
{
    ws(c);
    size_t st = c->i;
    while (c->i < c->n && (isalnum((unsigned char)c->s[c->i]) || c->s[c->i] == '_'))
        c->i++;
    return c->i > st ? arena_strndup(b->a, c->s + st, c->i - st) : NULL;
}

static const char *because(builder *b, pcur *c, int required)
{
    if (!word(c, "because")) {
        ws(c);
        if (c->i < c->n) {
            srcloc l = here(c);
            berr(b, &l, "unexpected text in a semantic patch (expected because \"REASON\")%s", "");
        } else if (required) {
            srcloc l = here(c);
            berr(b, &l, "this patch needs its reason: because \"REASON\"%s", "");
        }
        return NULL;
    }
    char *r = string(b, c);
    if (!r) {
        srcloc l = here(c);
        berr(b, &l, "expected the reason as a \"string\"%s", "");
    }
    return r;
}

/* Replaces the one occurrence of anchor in the lines; lines of the new text
 * keep the location of the line where the anchor began. */
static int replace(builder *b, ds_optype *s, const char *anchor, const char *text, const srcloc *at)
{
    size_t total = 0;
    for (int i = 0; i < s->nlines; i++)
        total += strlen(s->lines[i].text) + 1;
    char *joined = malloc(total + 1);
    int *line_of = malloc(sizeof *line_of * (total + 1));
    if (!joined || !line_of) {
        free(joined);
        free(line_of);
        return -1;
    }
    size_t o = 0;
    for (int i = 0; i < s->nlines; i++) {
        size_t n = strlen(s->lines[i].text);
        memcpy(joined + o, s->lines[i].text, n);
        for (size_t k = 0; k <= n; k++)
            line_of[o + k] = i;
        o += n;
        joined[o++] = '\n';
    }
    joined[o] = 0;
    line_of[o] = s->nlines ? s->nlines - 1 : 0;
    const char *first = *anchor ? strstr(joined, anchor) : NULL;
    int count = 0;
    for (const char *p = first; p; p = strstr(p + 1, anchor))
        count++;
    if (count != 1) {
        char msg[120];
        snprintf(msg, sizeof msg, "the anchor of this patch occurs %d times in the pseudo-code of %s (it must occur once)",
                 count, s->ot->name);
        berr(b, at, "%s", msg);
        free(joined);
        free(line_of);
        return -1;
    }
    size_t pos = (size_t)(first - joined), alen = strlen(anchor), tlen = strlen(text);
    size_t nlen = o - alen + tlen;
    char *nt = malloc(nlen + 1);
    int *nl = malloc(sizeof *nl * (nlen + 1));
    if (!nt || !nl) {
        free(nt);
        free(nl);
        free(joined);
        free(line_of);
        return -1;
    }
    memcpy(nt, joined, pos);
    memcpy(nt + pos, text, tlen);
    memcpy(nt + pos + tlen, joined + pos + alen, o - pos - alen);
    nt[nlen] = 0;
    for (size_t k = 0; k < pos; k++)
        nl[k] = line_of[k];
    for (size_t k = 0; k < tlen; k++)
        nl[pos + k] = line_of[pos];
    for (size_t k = pos + alen; k <= o; k++)
        nl[k - alen + tlen] = line_of[k];
    int nlines = 0;
    for (size_t k = 0; k < nlen; k++)
        nlines += nt[k] == '\n';
    ds_line *lines = arena_alloc(b->a, sizeof *lines * (size_t)(nlines ? nlines : 1));
    int li = 0;
    for (size_t k = 0, st = 0; k < nlen && lines; k++)
        if (nt[k] == '\n') {
            lines[li].text = arena_strndup(b->a, nt + st, k - st);
            lines[li].loc = s->lines[nl[st]].loc;
            li++;
            st = k + 1;
        }
    free(nt);
    free(nl);
    free(joined);
    free(line_of);
    if (!lines)
        return -1;
    s->lines = lines;
    s->nlines = nlines;
    return 0;
}

static void decl(builder *b, ds_optype *s, const char *name, int is_type, int v, const char *fmtmod)
{
    for (int i = 0; i < s->ndecls; i++)
        if (!strcmp(s->decls[i].name, name)) {
            if (is_type) {
                s->decls[i].type = (ds_vtype)v;
                s->decls[i].fmtmod = fmtmod;
            } else {
                s->decls[i].deco = (ds_deco)v;
            }
            return;
        }
    ds_decl *d = arena_append(b->a, s->decls, (size_t)s->ndecls, sizeof *d);
    if (!d)
        return;
    s->decls = d;
    d[s->ndecls++] = (ds_decl){name, is_type ? (ds_vtype)v : DV_INT, fmtmod, is_type ? DD_NONE : (ds_deco)v};
}

static void patch_line(builder *b, ds_optype *s, const raw_line *l)
{
    pcur c = {l->text, 0, strlen(l->text), l->loc};
    c.loc.line_text = l->text;
    c.loc.line_len = (int)c.n;
    ws(&c);
    if (c.i >= c.n || (c.s[c.i] == '/' && c.i + 1 < c.n && c.s[c.i + 1] == '/'))
        return;
    srcloc at = here(&c);
    if (word(&c, "replace")) {
        char *anchor = string(b, &c);
        char *text = anchor && word(&c, "with") ? string(b, &c) : NULL;
        if (!text) {
            srcloc e = here(&c);
            berr(b, &e, "expected replace \"ANCHOR\" with \"TEXT\" because \"REASON\"%s", "");
            return;
        }
        const char *why = because(b, &c, 1);
        if (why && !replace(b, s, anchor, text, &at))
            add_patch(b, s, DP_REPLACE, anchor, why, &at);
        return;
    }
    int is_type = word(&c, "type");
    if (!is_type && !word(&c, "decorate")) {
        berr(b, &at, "unknown semantic patch (expected replace, type or decorate)%s", "");
        return;
    }
    static const char *const types[] = {"INT", "F16", "BF16", "F32", "F64", "H2", NULL};
    static const char *const decos[] = {"none", "fp", "addend", "twos", "flags", NULL};
    const char *kind = ident(b, &c);
    const char *const *table = is_type ? types : decos;
    int v = -1;
    for (int i = 0; kind && table[i]; i++)
        if (!strcmp(table[i], kind))
            v = i;
    if (v < 0) {
        berr(b, &at, is_type ? "expected a type: INT F16 BF16 F32 F64 H2(modifier)%s"
                             : "expected a decoration rule: fp addend twos flags%s", "");
        return;
    }
    const char *fmtmod = NULL;
    if (v == DV_H2) {
        ws(&c);
        if (c.i < c.n && c.s[c.i] == '(') {
            c.i++;
            fmtmod = ident(b, &c);
            ws(&c);
            if (c.i < c.n && c.s[c.i] == ')')
                c.i++;
            else
                fmtmod = NULL;
        }
        if (!fmtmod) {
            berr(b, &at, "H2 needs the modifier that names the halves' format: H2(hfmt_v2)%s", "");
            return;
        }
    }
    ws(&c);
    if (c.i >= c.n || c.s[c.i] != ':') {
        srcloc e = here(&c);
        berr(b, &e, "expected ':' before the operand names%s", "");
        return;
    }
    c.i++;
    size_t names_at = c.i;
    int n = 0;
    for (;;) {
        size_t at_name = c.i;
        if (word(&c, "because")) {
            c.i = at_name;
            break;
        }
        const char *nm = ident(b, &c);
        if (!nm)
            break;
        decl(b, s, nm, is_type, v, fmtmod);
        n++;
    }
    if (!n) {
        srcloc e = here(&c);
        berr(b, &e, "expected operand names%s", "");
        return;
    }
    size_t names_end = c.i;
    const char *why = because(b, &c, 0);
    char *what = arena_alloc(b->a, names_end - names_at + 32);
    if (what)
        snprintf(what, names_end - names_at + 32, "%s %s:%.*s", is_type ? "type" : "decorate", kind,
                 (int)(names_end - names_at), c.s + names_at);
    add_patch(b, s, is_type ? DP_TYPE : DP_DECORATE, what, why ? why : "", &at);
}

static void apply(builder *b, ds_optype *s, const raw_def *r)
{
    if (r->nsemantics) {
        s->lines = r->semantics;
        s->nlines = r->nsemantics;
        add_patch(b, s, DP_BLOCK, "the whole block", r->description ? r->description : "", &r->loc);
    }
    for (int i = 0; i < r->nsempatch; i++)
        patch_line(b, s, &r->sempatch[i]);
}

/* Optype t's semantics into s: its document's block, the rulings that cover
 * it (group rulings first, outermost first, then the optype's own; extra,
 * when given, last), parsed. */
static void build_optype(builder *b, ds_optype *s, int t, const raw_def *extra)
{
    const gisa_isa *isa = b->isa;
    const isa_optype *ot = &isa->optypes[t];
    memset(s, 0, sizeof *s);
    s->ot = ot;
    s->doc = ot->def->semantics;
    s->ndoc = ot->def->nsemantics;
    s->lines = s->doc;
    s->nlines = s->ndoc;
    int before = b->errors;
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < isa->nrulings; r++) {
            const raw_def *target = isa->rulings[r].target;
            if ((pass == 0) != (target != ot->def) || !covers(isa, ot, target))
                continue;
            apply(b, s, isa->rulings[r].ruling);
        }
    if (extra)
        apply(b, s, extra);
    s->errors = b->errors - before;
    if (s->nlines) {
        int perr = ds_parse_block(b->a, s->lines, s->nlines, &s->variants, &s->nvariants, b->sev, b->diags);
        s->errors += perr;
        b->errors += perr;
    }
    s->fingerprint = ds_fingerprint(s);
}

static ds_model *build(const gisa_isa *isa, arena *a, gisa_severity sev, gisa_diags *diags, int *nerrors)
{
    builder b = {isa, a, diags, sev, 0};
    ds_model *m = arena_alloc(a, sizeof *m);
    if (!m)
        return NULL;
    m->n = isa->noptypes;
    m->ot = arena_alloc(a, sizeof *m->ot * (size_t)(m->n ? m->n : 1));
    if (!m->ot)
        return NULL;
    for (int t = 0; t < isa->noptypes; t++) {
        build_optype(&b, &m->ot[t], t, NULL);
        if (a->failed || arena_over(a)) { /* the rest would fail too: say which optype it reached */
            if (!a->failed)
                diag_memory_limit(diags, &isa->optypes[t].def->loc, a->limit);
            else
                diag_add(diags, GISA_ERROR, &isa->optypes[t].def->loc, "out of memory parsing the pseudo-code of %s",
                         isa->optypes[t].name);
            b.errors++;
            break;
        }
    }
    *nerrors = b.errors;
    return m;
}

int ds_model_build(gisa_isa *isa, gisa_severity sev, gisa_diags *diags)
{
    int errors = 1;
    isa->docsem = build(isa, &isa->a, sev, diags, &errors);
    return errors;
}

ds_model *ds_model_rebuild(const gisa_isa *isa, arena *a, gisa_severity sev, gisa_diags *diags)
{
    int errors;
    return build(isa, a, sev, diags, &errors);
}

const ds_optype *ds_optype_of(const gisa_isa *isa, const isa_optype *ot)
{
    const ds_model *m = isa->docsem;
    if (!m || !ot)
        return NULL;
    long i = ot - isa->optypes;
    return i >= 0 && i < m->n ? &m->ot[i] : NULL;
}

int ds_optype_rebuild(const gisa_isa *isa, int t, const raw_def *extra, arena *a, gisa_severity sev,
                      gisa_diags *diags, ds_optype *out)
{
    builder b = {isa, a, diags, sev, 0};
    if (t < 0 || t >= isa->noptypes)
        return -1;
    build_optype(&b, out, t, extra);
    return b.errors;
}

void ds_optype_swap(const gisa_isa *isa, int t, ds_optype *s)
{
    const ds_model *m = isa->docsem;
    if (!m || t < 0 || t >= m->n)
        return;
    ds_optype keep = m->ot[t];
    m->ot[t] = *s;
    *s = keep;
}

/* The operand a target names: Rd in `Rd = ...`, `Rd[31:0] = ...`,
 * `Rd.H0 = ...` */
static const ds_node *target_base(const ds_node *t)
{
    while (t && (t->kind == N_SLICE || t->kind == N_INDEX || t->kind == N_MEMBER))
        t = t->a;
    return t;
}

static int assigns(const ds_node *s, const char *name)
{
    if (!s)
        return 0;
    if (s->kind == S_ASSIGN || s->kind == S_MULTI)
        for (int i = 0; i < s->n; i++) {
            const ds_node *t = target_base(s->list[i]);
            if (t && t->kind == N_NAME && !strcmp(t->name, name))
                return 1;
        }
    if (s->kind < S_ASSIGN) /* an expression holds no statement */
        return 0;
    if (assigns(s->a, name) || assigns(s->b, name) || assigns(s->c, name) || assigns(s->d, name))
        return 1;
    for (int i = 0; i < s->n; i++)
        if (assigns(s->list[i], name))
            return 1;
    return 0;
}

int ds_assigns(const ds_optype *s, const char *name)
{
    for (int v = 0; s && v < s->nvariants; v++)
        if (assigns(s->variants[v].body, name))
            return 1;
    return 0;
}
