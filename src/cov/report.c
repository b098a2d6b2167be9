/* The summary figures and the text report. Every total is the universe's
 * count plus anything hit outside it, so that hit <= total always. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/strbuf.h"
#include "cov/cov.h"

static void add(gisa_cov_figure *f, int hit, int possible)
{
    f->hit += hit != 0;
    f->total += hit || possible;
}

static gisa_cov_figure group_figure(const cov_group *g)
{
    gisa_cov_figure f = {0, 0};
    for (int v = 0; v < g->nvalues; v++)
        add(&f, g->hits[v] != 0, 1);
    return f;
}

static gisa_cov_figure combo_figure(const cov_optype *t)
{
    gisa_cov_figure f = {0, 0};
    for (int k = 0; k < t->ncombos; k++)
        add(&f, t->combo_hits[k] != 0, t->combo_encodes[k]);
    return f;
}

typedef struct operand_figures {
    gisa_cov_figure kinds, decos, classes[F_COUNT];
} operand_figures;

static operand_figures operand_figure(const cov_operand *o)
{
    operand_figures r;
    memset(&r, 0, sizeof r);
    for (int k = 0; k < K_COUNT; k++)
        add(&r.kinds, o->kind_hits[k] != 0, o->kinds >> k & 1);
    for (int d = 0; d < D_COUNT; d++)
        add(&r.decos, o->deco_hits[d] != 0, o->decos >> d & 1);
    for (int f = 0; f < F_COUNT; f++)
        for (int k = 0; k < C_COUNT; k++)
            add(&r.classes[f], o->class_hits[f][k] != 0, o->fmts >> f & 1);
    return r;
}

static void sum(gisa_cov_figure *into, gisa_cov_figure f)
{
    into->hit += f.hit;
    into->total += f.total;
}

const char *const cov_figure_names[COV_NFIGURES] = {
    "opcodes",    "optypes", "modifier_values", "combinations",  "operand_kinds", "decorations", "fp_classes",
    "value_classes", "results", "patterns",      "raw_distances", "crosses",       "user_bins"};

void cov_figures(const gisa_cov_summary *s, gisa_cov_figure *out)
{
    const gisa_cov_figure f[COV_NFIGURES] = {
        s->opcodes,       s->optypes, s->modifier_values, s->combinations,  s->operand_kinds, s->decorations, s->fp_classes,
        s->value_classes, s->results, s->patterns,        s->raw_distances, s->crosses,       s->user_bins};
    memcpy(out, f, sizeof f);
}

gisa_status gisa_cov_summary_get(const gisa_cov *c, gisa_cov_summary *s)
{
    if (!c || !s)
        return GISA_ERR_USAGE;
    memset(s, 0, sizeof *s);
    s->executed = c->executed;
    s->skipped = c->skipped;
    for (int i = 0; i < c->nopcodes; i++)
        add(&s->opcodes, c->opcodes[i].executed != 0, 1);
    for (int i = 0; i < c->noptypes; i++) {
        const cov_optype *t = &c->optypes[i];
        add(&s->optypes, t->executed != 0, 1);
        for (int g = 0; g < t->ngroups; g++)
            if (t->groups[g].encoded)
                sum(&s->modifier_values, group_figure(&t->groups[g]));
        sum(&s->combinations, combo_figure(t));
        for (int o = 0; o < t->nops; o++) {
            operand_figures r = operand_figure(&t->ops[o]);
            sum(&s->operand_kinds, r.kinds);
            sum(&s->decorations, r.decos);
            for (int f = 0; f < F_COUNT; f++)
                sum(&s->fp_classes, r.classes[f]);
        }
        for (int g = 0; g < t->nbins; g++) {
            gisa_cov_figure *into[B_COUNT] = {&s->value_classes, &s->results, &s->patterns, &s->raw_distances,
                                              &s->crosses};
            sum(into[t->bins[g].kind], cov_bins_figure(&t->bins[g]));
        }
    }
    for (int i = 0; i < c->nuser; i++)
        add(&s->user_bins, c->user[i].hits != 0, 1);
    return GISA_OK;
}

/* ------------------------------------------------------------ text */

#define LIST_MAX 12 /* never-hit items listed per line before "... N more" */

/* " (never: a, b, ...)" for the names whose hit is 0 among the possible */
static void never_list(strbuf *b, const char *const *names, const uint64_t *hits, const uint8_t *possible,
                       uint32_t possible_bits, int n)
{
    int listed = 0, more = 0;
    for (int i = 0; i < n; i++) {
        int can = possible ? possible[i] : i >= 32 || (possible_bits >> i & 1);
        if (!can || hits[i])
            continue;
        if (listed == LIST_MAX) {
            more++;
            continue;
        }
        sb_puts(b, listed++ ? ", " : " (never: ");
        sb_puts(b, names[i]);
    }
    if (more)
        sb_printf(b, ", ... %d more", more);
    if (listed)
        sb_putc(b, ')');
}

static void figure(strbuf *b, const char *what, gisa_cov_figure f)
{
    sb_printf(b, "%s %llu/%llu", what, (unsigned long long)f.hit, (unsigned long long)f.total);
}

static void summary_line(strbuf *b, const char *name, gisa_cov_figure f)
{
    char what[32];
    snprintf(what, sizeof what, "%s", name);
    for (char *p = what; *p; p++)
        *p = *p == '_' ? ' ' : *p;
    sb_printf(b, "  %-16s %6llu/%-6llu", what, (unsigned long long)f.hit, (unsigned long long)f.total);
    if (f.total)
        sb_printf(b, " %5.1f%%", 100.0 * (double)f.hit / (double)f.total);
    sb_putc(b, '\n');
}

static void optype_opcodes(strbuf *b, const gisa_cov *c, int ti, int executed)
{
    int listed = 0;
    for (int i = 0; i < c->nopcodes; i++)
        if (c->opcodes[i].optype == ti && (executed ? c->opcodes[i].executed != 0 : !c->opcodes[i].executed))
            sb_printf(b, "%s%s", listed++ ? " " : "", c->isa->opcodes[i].name);
}

static void report_operand(strbuf *b, const cov_operand *o)
{
    operand_figures r = operand_figure(o);
    sb_printf(b, "  %s: ", o->name);
    figure(b, "kinds", r.kinds);
    never_list(b, cov_kind_names, o->kind_hits, NULL, o->kinds, K_COUNT);
    if (r.decos.total) {
        sb_puts(b, "; ");
        figure(b, "decorations", r.decos);
        never_list(b, cov_deco_names, o->deco_hits, NULL, o->decos, D_COUNT);
    }
    for (int f = 0; f < F_COUNT; f++)
        if (r.classes[f].total) {
            sb_printf(b, "; %s ", cov_fmt_names[f]);
            figure(b, "classes", r.classes[f]);
            never_list(b, cov_class_names, o->class_hits[f], NULL, (1u << C_COUNT) - 1, C_COUNT);
        }
    sb_putc(b, '\n');
}

static void report_optype(strbuf *b, const gisa_cov *c, int ti)
{
    const cov_optype *t = &c->optypes[ti];
    if (!t->executed) {
        sb_printf(b, "%s: never executed (", t->name);
        optype_opcodes(b, c, ti, 0);
        sb_printf(b, ")%s\n", t->skipped ? ", only skipped" : "");
        return;
    }
    gisa_cov_figure ops = {0, 0}, vals = {0, 0};
    for (int i = 0; i < c->nopcodes; i++)
        if (c->opcodes[i].optype == ti)
            add(&ops, c->opcodes[i].executed != 0, 1);
    for (int g = 0; g < t->ngroups; g++)
        if (t->groups[g].encoded)
            sum(&vals, group_figure(&t->groups[g]));
    sb_printf(b, "%s: executed %llu; ", t->name, (unsigned long long)t->executed);
    figure(b, "opcodes", ops);
    if (ops.hit < ops.total) {
        sb_puts(b, " (never: ");
        optype_opcodes(b, c, ti, 0);
        sb_putc(b, ')');
    }
    if (vals.total) {
        sb_puts(b, "; ");
        figure(b, "modifier values", vals);
    }
    sb_puts(b, "; ");
    figure(b, "combinations", combo_figure(t));
    sb_putc(b, '\n');
    for (int g = 0; g < t->ngroups; g++) {
        const cov_group *grp = &t->groups[g];
        gisa_cov_figure f = group_figure(grp);
        if (!grp->encoded || f.hit == f.total)
            continue;
        sb_printf(b, "  %s: ", grp->name);
        figure(b, "values", f);
        never_list(b, grp->values, grp->hits, NULL, UINT32_MAX, grp->nvalues);
        sb_putc(b, '\n');
    }
    gisa_cov_figure cf = combo_figure(t);
    if (cf.hit < cf.total) {
        sb_puts(b, "  combinations never hit:");
        int n = 0;
        for (int k = 0; k < t->ncombos; k++)
            if (t->combo_encodes[k] && !t->combo_hits[k] && n++ < LIST_MAX)
                sb_printf(b, " %s", t->combos[k]);
        if (n > LIST_MAX)
            sb_printf(b, " ... %d more", n - LIST_MAX);
        sb_putc(b, '\n');
    }
    for (int o = 0; o < t->nops; o++)
        report_operand(b, &t->ops[o]);
    for (int g = 0; g < t->nbins; g++) {
        const cov_bins *x = &t->bins[g];
        gisa_cov_figure f = cov_bins_figure(x);
        if (f.hit == f.total)
            continue;
        sb_printf(b, "  %s: ", x->name);
        figure(b, "bins", f);
        never_list(b, x->names, x->hits, x->possible, 0, x->nbins);
        sb_putc(b, '\n');
    }
    int first = 1;
    for (int g = 0; g < t->ngroups; g++)
        if (!t->groups[g].encoded) {
            sb_printf(b, "%s%s", first ? "  not encoded (no field; not counted): " : ", ", t->groups[g].name);
            first = 0;
        }
    if (!first)
        sb_putc(b, '\n');
}

static char *cov_report_text(const gisa_cov *c)
{
    gisa_cov_summary s;
    gisa_cov_summary_get(c, &s);
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "coverage of %s: %llu instructions executed, %llu reached but not executed\n",
              c->isa->target_name ? c->isa->target_name : "the ISA", (unsigned long long)s.executed,
              (unsigned long long)s.skipped);
    gisa_cov_figure f[COV_NFIGURES];
    cov_figures(&s, f);
    for (int i = 0; i < COV_NFIGURES; i++)
        summary_line(&b, cov_figure_names[i], f[i]);
    sb_putc(&b, '\n');
    for (int i = 0; i < c->noptypes; i++)
        report_optype(&b, c, i);
    if (c->nuser)
        sb_puts(&b, "user bins:\n");
    for (int i = 0; i < c->nuser; i++)
        sb_printf(&b, "  %s: %llu%s (%s)\n", c->user[i].name, (unsigned long long)c->user[i].hits,
                  c->user[i].hits ? "" : ", never hit", c->user[i].def);
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return sb_take(&b);
}

static gisa_status cov_report_unguarded(const gisa_cov *c, char **out)
{
    if (!c || !out)
        return GISA_ERR_USAGE;
    *out = cov_report_text(c);
    return *out ? GISA_OK : GISA_ERR_NOMEM;
}

gisa_status gisa_cov_report(const gisa_cov *c, char **out)
{
    FPENV_RETURN(gisa_status, cov_report_unguarded(c, out));
}

/* ------------------------------------------------------------ every group */

static void each_bits(const cov_optype *t, int ti, const char *op, const char *what, const char *const *names,
                      const uint64_t *hits, uint32_t possible, int n, cov_group_fn fn, void *u)
{
    uint8_t can[32];
    int any = 0;
    for (int i = 0; i < n && i < 32; i++) {
        can[i] = (uint8_t)(possible >> i & 1 || hits[i]);
        any |= can[i];
    }
    char name[300];
    snprintf(name, sizeof name, "%s %s", op, what);
    if (any)
        fn(u, t, ti, name, n, names, hits, can);
}

void cov_each_group(const gisa_cov *c, cov_group_fn fn, void *u)
{
    const char **names = malloc(sizeof *names * (size_t)(c->nopcodes + 1));
    uint64_t *hits = malloc(sizeof *hits * (size_t)(c->nopcodes + 1));
    uint8_t *can = malloc((size_t)c->nopcodes + 1);
    for (int ti = 0; ti < c->noptypes; ti++) {
        const cov_optype *t = &c->optypes[ti];
        int n = 0;
        for (int i = 0; names && hits && can && i < c->nopcodes; i++)
            if (c->opcodes[i].optype == ti) {
                names[n] = c->isa->opcodes[i].name;
                hits[n] = c->opcodes[i].executed;
                can[n++] = 1;
            }
        if (n)
            fn(u, t, ti, "opcodes", n, names, hits, can);
        for (int g = 0; g < t->ngroups; g++)
            if (t->groups[g].encoded)
                fn(u, t, ti, t->groups[g].name, t->groups[g].nvalues, t->groups[g].values, t->groups[g].hits, NULL);
        if (t->ncombos)
            fn(u, t, ti, "combinations", t->ncombos, t->combos, t->combo_hits, t->combo_encodes);
        for (int o = 0; o < t->nops; o++) {
            const cov_operand *op = &t->ops[o];
            each_bits(t, ti, op->name, "kinds", cov_kind_names, op->kind_hits, op->kinds, K_COUNT, fn, u);
            each_bits(t, ti, op->name, "decorations", cov_deco_names, op->deco_hits, op->decos, D_COUNT, fn, u);
            for (int f = 0; f < F_COUNT; f++) {
                char what[32];
                snprintf(what, sizeof what, "%s classes", cov_fmt_names[f]);
                each_bits(t, ti, op->name, what, cov_class_names, op->class_hits[f],
                          op->fmts >> f & 1 ? (1u << C_COUNT) - 1 : 0, C_COUNT, fn, u);
            }
        }
        for (int g = 0; g < t->nbins; g++)
            fn(u, t, ti, t->bins[g].name, t->bins[g].nbins, t->bins[g].names, t->bins[g].hits, t->bins[g].possible);
    }
    free(names);
    free(hits);
    free(can);
}
