/* User-defined bins: a small line format (docs/coverage.md, "User bins"),
 *
 *     # comment
 *     bin NAME: OPTYPE[.VALUE...] [OPERAND=CLASS[|CLASS...]] [guard=G] [exec=E]
 *
 * compiled against the model's optypes, modifier values, source and
 * destination names, and counted by cov_user_record for every executed
 * instruction of the optype that holds every VALUE: the lanes where every
 * OPERAND condition holds, or 1 without one. A coverage file keeps each
 * bin's name, definition and count, so that files merge by name. */
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/strbuf.h"
#include "cov/cov.h"

static const char *const guard_names[] = {"true", "false", "mixed"};
static const char *const exec_names[] = {"all", "none", "partial", "single"};
static const char *const outcome_names[] = {"false", "true"};

int cov_user_find(const gisa_cov *c, const char *name)
{
    for (int i = 0; i < c->nuser; i++)
        if (!strcmp(c->user[i].name, name))
            return i;
    return -1;
}

static char *dup_n(const char *s, size_t n)
{
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = 0;
    }
    return r;
}

/* Kept sorted by name: the file is the same whatever order bins arrived in */
int cov_user_new(gisa_cov *c, const char *name, const char *def)
{
    cov_user *grown = realloc(c->user, sizeof *grown * (size_t)(c->nuser + 1));
    if (!grown)
        return -1;
    c->user = grown;
    int at = 0;
    while (at < c->nuser && strcmp(c->user[at].name, name) < 0)
        at++;
    memmove(&c->user[at + 1], &c->user[at], sizeof *c->user * (size_t)(c->nuser - at));
    cov_user *u = &c->user[at];
    memset(u, 0, sizeof *u);
    u->optype = -1;
    u->name = dup_n(name, strlen(name));
    u->def = dup_n(def, strlen(def));
    c->nuser++;
    if (!u->name || !u->def) {
        free(u->name);
        free(u->def);
        memmove(&c->user[at], &c->user[at + 1], sizeof *c->user * (size_t)(c->nuser - at - 1));
        c->nuser--;
        return -1;
    }
    return at;
}

void cov_user_free(gisa_cov *c)
{
    for (int i = 0; i < c->nuser; i++) {
        free(c->user[i].name);
        free(c->user[i].def);
        free(c->user[i].want);
    }
    free(c->user);
    c->user = NULL;
    c->nuser = 0;
}

int cov_user_merge_check(const gisa_cov *into, const gisa_cov *from)
{
    for (int i = 0; i < from->nuser; i++) {
        int j = cov_user_find(into, from->user[i].name);
        if (j >= 0 && strcmp(into->user[j].def, from->user[i].def))
            return -1;
    }
    return 0;
}

int cov_user_adopt(gisa_cov *into, const gisa_cov *from)
{
    for (int i = 0; i < from->nuser; i++)
        if (cov_user_find(into, from->user[i].name) < 0 && cov_user_new(into, from->user[i].name, from->user[i].def) < 0)
            return -1;
    return 0;
}

/* ------------------------------------------------------------ recording */

static int cond_holds(const cov_user *u, int k, const cov_lanes *L, int l)
{
    int idx = u->cond[k].index;
    const int8_t(*cls)[32] = u->cond[k].dest ? L->dst_class[idx] : L->src_class[idx];
    int8_t fmt = u->cond[k].dest ? L->dst_fmt[idx] : L->src_fmt[idx];
    if (fmt < 0)
        return 0;
    for (int h = 0; h < 2; h++)
        if (cls[h][l] >= 0 && u->cond[k].classes >> cls[h][l] & 1)
            return 1;
    return 0;
}

void cov_user_record(gisa_cov *c, const cov_optype *t, int ti, const cov_lanes *L)
{
    int exec = L->exec == UINT32_MAX ? 0 : !L->exec ? 1 : L->exec & (L->exec - 1) ? 2 : 3;
    int guard = L->exec == L->active ? 0 : !L->exec ? 1 : 2;
    for (int i = 0; i < c->nuser; i++) {
        cov_user *u = &c->user[i];
        if (u->optype != ti || (u->exec && !(u->exec >> exec & 1)) || (u->guard && !(u->guard >> guard & 1)))
            continue;
        int ok = 1;
        for (int m = 0; m < u->nmods && ok; m++) {
            ok = 0;
            for (int g = 0; g < t->ngroups && g < 64 && !ok; g++)
                ok = u->want[m * t->ngroups + g] >= 0 && L->gval[g] == u->want[m * t->ngroups + g];
        }
        if (!ok)
            continue;
        if (!u->nconds) {
            u->hits = cov_sat_add(u->hits, 1);
            continue;
        }
        uint64_t lanes = 0;
        for (int l = 0; l < GISA_SIM_LANES; l++) {
            int all = L->exec >> l & 1;
            for (int k = 0; k < u->nconds && all; k++)
                all = cond_holds(u, k, L, l);
            lanes += (uint64_t)all;
        }
        u->hits = cov_sat_add(u->hits, lanes);
    }
}

/* ------------------------------------------------------------ the file */

typedef struct uparse {
    gisa_cov *c;
    const char *file;
    gisa_diags *d;
    const char *line;
    int lineno, len;
    int errors;
} uparse;

static void uerr(uparse *p, const char *at, int n, const char *fmt, const char *a, const char *b)
{
    srcloc loc = {p->file, p->lineno, (int)(at - p->line) + 1, n > 0 ? n : 1, p->line, p->len, NULL};
    diag_add(p->d, GISA_ERROR, &loc, fmt, a, b);
    p->errors++;
}

/* The nearest of names to w (for "did you mean"), or NULL */
static const char *nearest(const char *w, size_t n, const char *const *names, int count, int stride)
{
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < count; i++) {
        const char *s = *(const char *const *)((const char *)names + (size_t)i * (size_t)stride);
        int d = edit_distance(w, n, s, strlen(s));
        if (d < bd && d < (int)n) {
            bd = d;
            best = s;
        }
    }
    return best;
}

static int word_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && !memcmp(w, s, n);
}

/* The index of w among names, or -1 */
static int pick(const char *w, size_t n, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (word_is(w, n, names[i]))
            return i;
    return -1;
}

/* Parses "CLASS|CLASS..." (at s, n bytes) among names into bits; 0 after an error. */
static uint32_t class_set(uparse *p, const char *s, size_t n, const char *const *names, int count, const char *what)
{
    uint32_t bits = 0;
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && s[j] != '|')
            j++;
        int k = pick(s + i, j - i, names, count);
        if (k < 0) {
            strbuf all;
            sb_init(&all);
            for (int m = 0; m < count; m++)
                sb_printf(&all, "%s%s", m ? ", " : "", names[m]);
            const char *near = nearest(s + i, j - i, names, count, sizeof *names);
            if (near)
                uerr(p, s + i, (int)(j - i), "unknown %s; did you mean '%s'?", what, near);
            else
                uerr(p, s + i, (int)(j - i), "unknown %s (expected one of: %s)", what, all.failed ? "" : all.s);
            sb_free(&all);
            return 0;
        }
        bits |= 1u << k;
        i = j + 1;
    }
    return bits;
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r';
}

/* One condition OPERAND=CLASS... of bin u */
static void parse_cond(uparse *p, cov_user *u, const cov_optype *t, const char *s, size_t n)
{
    const char *eq = memchr(s, '=', n);
    if (!eq || eq == s || eq == s + n - 1) {
        uerr(p, s, (int)n, "expected OPERAND=CLASS, guard=G or exec=E%s%s", "", "");
        return;
    }
    size_t kn = (size_t)(eq - s), vn = n - kn - 1;
    const char *v = eq + 1;
    if (word_is(s, kn, "guard")) {
        u->guard = class_set(p, v, vn, guard_names, 3, "guard outcome");
        return;
    }
    if (word_is(s, kn, "exec")) {
        u->exec = class_set(p, v, vn, exec_names, 4, "exec-mask pattern");
        return;
    }
    if (u->nconds == COV_USER_MAX) {
        uerr(p, s, (int)n, "more than %s operand conditions%s", "8", "");
        return;
    }
    for (int o = 0; o < t->nops; o++)
        if (word_is(s, kn, t->ops[o].name)) {
            if (o >= COV_REC_OPS)
                break;
            u->cond[u->nconds].dest = 0;
            u->cond[u->nconds].index = o;
            u->cond[u->nconds].classes = t->fp ? class_set(p, v, vn, cov_class_names, C_COUNT, "floating-point class")
                                               : class_set(p, v, vn, cov_int_names, I_COUNT, "integer class");
            u->nconds += u->cond[u->nconds].classes != 0;
            return;
        }
    for (int d = 0; d < t->ndests; d++)
        if (word_is(s, kn, t->dests[d].name)) {
            if (d >= COV_REC_OPS)
                break;
            u->cond[u->nconds].dest = 1;
            u->cond[u->nconds].index = d;
            u->cond[u->nconds].classes = t->dests[d].pred ? class_set(p, v, vn, outcome_names, 2, "predicate outcome")
                                         : t->fp ? class_set(p, v, vn, cov_class_names, C_COUNT, "floating-point class")
                                                 : class_set(p, v, vn, cov_int_names, I_COUNT, "integer class");
            u->nconds += u->cond[u->nconds].classes != 0;
            return;
        }
    strbuf all;
    sb_init(&all);
    for (int o = 0; o < t->nops; o++)
        sb_printf(&all, "%s%s", all.len ? ", " : "", t->ops[o].name);
    for (int d = 0; d < t->ndests; d++)
        sb_printf(&all, "%s%s", all.len ? ", " : "", t->dests[d].name);
    uerr(p, s, (int)kn, "%s has no such operand (expected guard, exec or one of: %s)", t->name, all.failed ? "" : all.s);
    sb_free(&all);
}

/* OPTYPE[.VALUE...] at s (n bytes) into u */
static void parse_target(uparse *p, cov_user *u, const char *s, size_t n)
{
    gisa_cov *c = p->c;
    size_t tn = 0;
    while (tn < n && s[tn] != '.')
        tn++;
    int ti;
    for (ti = 0; ti < c->noptypes && !word_is(s, tn, c->optypes[ti].name); ti++)
        ;
    if (ti == c->noptypes) {
        const char *near = nearest(s, tn, &c->optypes[0].name, c->noptypes, sizeof *c->optypes);
        if (near)
            uerr(p, s, (int)tn, "unknown optype; did you mean '%s'?%s", near, "");
        else
            uerr(p, s, (int)tn, "unknown optype (gisa cov's report names them)%s%s", "", "");
        return;
    }
    const cov_optype *t = &c->optypes[ti];
    u->optype = ti;
    for (size_t i = tn; i < n && !p->errors;) {
        size_t j = i + 1;
        while (j < n && s[j] != '.')
            j++;
        const char *w = s + i + 1;
        size_t wn = j - i - 1;
        int *grown = realloc(u->want, sizeof *grown * (size_t)((u->nmods + 1) * (t->ngroups ? t->ngroups : 1)));
        if (!grown) {
            uerr(p, w, (int)wn, "out of memory%s%s", "", "");
            return;
        }
        u->want = grown;
        int any = 0;
        for (int g = 0; g < t->ngroups; g++) {
            int v = t->groups[g].encoded && g < 64 ? pick(w, wn, t->groups[g].values, t->groups[g].nvalues) : -1;
            u->want[u->nmods * t->ngroups + g] = v;
            any |= v >= 0;
        }
        if (!any) {
            const char *near = NULL;
            for (int g = 0; g < t->ngroups && !near; g++)
                near = nearest(w, wn, t->groups[g].values, t->groups[g].nvalues, sizeof *t->groups[g].values);
            if (near)
                uerr(p, w, (int)wn, "%s has no modifier value like this; did you mean '%s'?", t->name, near);
            else
                uerr(p, w, (int)wn, "%s has no such modifier value%s", t->name, "");
            return;
        }
        u->nmods++;
        i = j;
    }
}

/* One "bin NAME: ..." line (s: its start after blanks, n bytes) */
static void parse_bin(uparse *p, const char *s, size_t n)
{
    size_t i = 3;
    while (i < n && is_space(s[i]))
        i++;
    size_t ns = i;
    while (i < n && s[i] != ':' && !is_space(s[i]))
        i++;
    size_t nn = i - ns;
    while (i < n && is_space(s[i]))
        i++;
    if (!nn || i >= n || s[i] != ':') {
        uerr(p, s + (nn ? i : ns), 1, "expected 'bin NAME: OPTYPE[.VALUE...] [CONDITION...]'%s%s", "", "");
        return;
    }
    for (size_t k = ns; k < ns + nn; k++) {
        char ch = s[k];
        if (!(ch == '_' || ch == '-' || ch == '.' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
              (ch >= 'A' && ch <= 'Z'))) {
            uerr(p, s + k, 1, "a bin name is letters, digits, '_', '-' and '.'%s%s", "", "");
            return;
        }
    }
    char name[128];
    if (nn >= sizeof name) {
        uerr(p, s + ns, (int)nn, "a bin name of more than 127 characters%s%s", "", "");
        return;
    }
    memcpy(name, s + ns, nn);
    name[nn] = 0;
    size_t ds = i + 1;
    while (ds < n && is_space(s[ds]))
        ds++;
    size_t de = n;
    while (de > ds && is_space(s[de - 1]))
        de--;
    if (ds == de) {
        uerr(p, s + i, 1, "bin '%s' has no definition (expected OPTYPE[.VALUE...] after ':')%s", name, "");
        return;
    }
    /* the definition as written, blanks collapsed, is what files compare */
    strbuf def;
    sb_init(&def);
    for (size_t k = ds; k < de; k++)
        if (!is_space(s[k]))
            sb_putc(&def, s[k]);
        else if (!is_space(s[k - 1]))
            sb_putc(&def, ' ');
    int at = cov_user_find(p->c, name);
    int errors = p->errors;
    cov_user u;
    memset(&u, 0, sizeof u);
    size_t w = ds;
    while (w < de && !is_space(s[w]))
        w++;
    parse_target(p, &u, s + ds, w - ds);
    while (p->errors == errors && w < de) {
        while (w < de && is_space(s[w]))
            w++;
        size_t e = w;
        while (e < de && !is_space(s[e]))
            e++;
        parse_cond(p, &u, &p->c->optypes[u.optype], s + w, e - w);
        w = e;
    }
    if (p->errors == errors && at >= 0 && (p->c->user[at].optype >= 0 || strcmp(p->c->user[at].def, def.s ? def.s : "")))
        uerr(p, s + ns, (int)nn, "bin '%s' is defined twice (or otherwise in a coverage file read before)%s", name, "");
    if (p->errors == errors && def.failed)
        uerr(p, s + ns, (int)nn, "out of memory%s%s", "", "");
    if (p->errors == errors && at < 0 && (at = cov_user_new(p->c, name, def.s)) < 0)
        uerr(p, s + ns, (int)nn, "out of memory%s%s", "", "");
    if (p->errors == errors) {
        cov_user *into = &p->c->user[at];
        u.name = into->name;
        u.def = into->def;
        u.hits = into->hits;
        free(into->want);
        *into = u;
    } else {
        free(u.want);
    }
    sb_free(&def);
}

gisa_status gisa_cov_load_bins(gisa_cov *cov, const char *name, const char *text, size_t len, gisa_diags *d)
{
    if (!cov || (!text && len))
        return GISA_ERR_USAGE;
    uparse p = {.c = cov, .file = name ? name : "<bins>", .d = d};
    /* checked whole first: a file with an error adds no bin */
    gisa_cov *probe = NULL;
    if (gisa_cov_new(cov->isa, &probe) != GISA_OK)
        return GISA_ERR_NOMEM;
    if (cov_user_adopt(probe, cov)) {
        gisa_cov_free(probe);
        return GISA_ERR_NOMEM;
    }
    for (int i = 0; i < cov->nuser; i++)
        probe->user[i].optype = cov->user[i].optype; /* defined here already: a second definition is refused */
    for (int pass = 0; pass < 2; pass++) {
        p.c = pass ? cov : probe;
        p.lineno = 0;
        for (size_t at = 0; at < len && (pass || p.errors < 20);) {
            size_t e = at;
            while (e < len && text[e] != '\n')
                e++;
            p.line = text + at;
            p.len = (int)(e - at);
            p.lineno++;
            size_t s = at;
            while (s < e && is_space(text[s]))
                s++;
            if (s < e && text[s] != '#') {
                if (e - s > 3 && !memcmp(text + s, "bin", 3) && is_space(text[s + 3]))
                    parse_bin(&p, text + s, e - s);
                else
                    uerr(&p, text + s, 1, "expected 'bin NAME: OPTYPE[.VALUE...] [CONDITION...]' or a '#' comment%s%s",
                         "", "");
            }
            at = e + 1;
        }
        if (p.errors) {
            gisa_cov_free(probe);
            return GISA_ERR_INPUT;
        }
    }
    gisa_cov_free(probe);
    return GISA_OK;
}
