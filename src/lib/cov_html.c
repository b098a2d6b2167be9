/* The coverage report as one HTML page (gisa_cov_report_html), in the
 * manual's look (its style sheet, inlined: the page stands alone). Layer
 * lib: it joins the coverage tables (cov) and the manual's assets. The
 * holes come first, optype by optype, then every group's percentage. */
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/strbuf.h"
#include "cov/cov.h"
#include "manual/assets.h"

#define HOLES_MAX 64 /* never-hit items listed per group before "... N more" */

static void esc(strbuf *b, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '&': sb_puts(b, "&amp;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        default: sb_putc(b, *s);
        }
}

typedef struct page {
    strbuf *b;
    int holes; /* 1: the holes pass, 0: the figures pass */
    int last_ti;
} page;

static gisa_cov_figure figure_of(int n, const uint64_t *hits, const uint8_t *possible)
{
    gisa_cov_figure f = {0, 0};
    for (int i = 0; i < n; i++) {
        f.hit += hits[i] != 0;
        f.total += hits[i] || !possible || possible[i];
    }
    return f;
}

static void pct(strbuf *b, gisa_cov_figure f)
{
    if (f.total)
        sb_printf(b, "%.1f%%", 100.0 * (double)f.hit / (double)f.total);
}

static void group(void *u, const cov_optype *t, int ti, const char *name, int n, const char *const *names,
                  const uint64_t *hits, const uint8_t *possible)
{
    page *p = u;
    strbuf *b = p->b;
    gisa_cov_figure f = figure_of(n, hits, possible);
    if (p->holes && f.hit == f.total)
        return;
    sb_puts(b, "<tr>");
    sb_puts(b, "<td>");
    if (ti != p->last_ti)
        esc(b, t->name);
    p->last_ti = ti;
    sb_puts(b, "</td><td>");
    esc(b, name);
    sb_printf(b, "</td><td>%llu/%llu</td><td>", (unsigned long long)f.hit, (unsigned long long)f.total);
    pct(b, f);
    sb_puts(b, "</td>");
    if (p->holes) {
        sb_puts(b, "<td class=\"code\">");
        int listed = 0;
        for (int i = 0; i < n; i++)
            if (!hits[i] && (!possible || possible[i]) && listed++ < HOLES_MAX) {
                if (listed > 1)
                    sb_puts(b, ", ");
                esc(b, names[i]);
            }
        if (listed > HOLES_MAX)
            sb_printf(b, ", ... %d more", listed - HOLES_MAX);
        sb_puts(b, "</td>");
    }
    sb_puts(b, "</tr>\n");
}

static char *html(const gisa_cov *c)
{
    gisa_cov_summary s;
    gisa_cov_summary_get(c, &s);
    strbuf b;
    sb_init(&b);
    const char *target = c->isa->target_name ? c->isa->target_name : "the ISA";
    sb_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Coverage of ");
    esc(&b, target);
    sb_printf(&b, "</title>\n<style>\n%s"
                  "td.pct{text-align:right}tr.none td{color:#a00}\n</style></head>\n<body>\n"
                  "<nav class=\"top\"><a href=\"#holes\">Holes</a><a href=\"#groups\">Groups</a>"
                  "<a href=\"#user\">User bins</a></nav>\n<main>\n<h1>Coverage of ",
              man_style_css);
    esc(&b, target);
    sb_printf(&b, " <small>%llu instructions executed, %llu reached but not executed</small></h1>\n",
              (unsigned long long)s.executed, (unsigned long long)s.skipped);
    sb_puts(&b, "<table><thead><tr><th>figure</th><th>hit</th><th>total</th><th>%</th></tr></thead>\n");
    gisa_cov_figure f[COV_NFIGURES];
    cov_figures(&s, f);
    for (int i = 0; i < COV_NFIGURES; i++) {
        sb_puts(&b, "<tr><td>");
        for (const char *p = cov_figure_names[i]; *p; p++)
            sb_putc(&b, *p == '_' ? ' ' : *p);
        sb_printf(&b, "</td><td>%llu</td><td>%llu</td><td class=\"pct\">", (unsigned long long)f[i].hit,
                  (unsigned long long)f[i].total);
        pct(&b, f[i]);
        sb_puts(&b, "</td></tr>\n");
    }
    sb_puts(&b, "</table>\n<h2 id=\"holes\">Holes <small>(groups not fully hit, and what they never hit)</small></h2>\n"
                "<table><thead><tr><th>optype</th><th>group</th><th>hit</th><th>%</th><th>never hit</th></tr></thead>\n");
    page p = {&b, 1, -1};
    cov_each_group(c, group, &p);
    sb_puts(&b, "</table>\n<h2 id=\"groups\">Groups</h2>\n"
                "<table><thead><tr><th>optype</th><th>group</th><th>hit</th><th>%</th></tr></thead>\n");
    p.holes = 0;
    p.last_ti = -1;
    cov_each_group(c, group, &p);
    sb_puts(&b, "</table>\n<h2 id=\"user\">User bins</h2>\n");
    if (!c->nuser)
        sb_puts(&b, "<p>None (gisa cov --bins FILE adds them).</p>\n");
    else
        sb_puts(&b, "<table><thead><tr><th>bin</th><th>count</th><th>definition</th></tr></thead>\n");
    for (int i = 0; i < c->nuser; i++) {
        sb_puts(&b, c->user[i].hits ? "<tr><td>" : "<tr class=\"none\"><td>");
        esc(&b, c->user[i].name);
        sb_printf(&b, "</td><td>%llu</td><td class=\"code\">", (unsigned long long)c->user[i].hits);
        esc(&b, c->user[i].def);
        sb_puts(&b, "</td></tr>\n");
    }
    if (c->nuser)
        sb_puts(&b, "</table>\n");
    sb_puts(&b, "</main>\n</body></html>\n");
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return sb_take(&b);
}

static gisa_status report_html_unguarded(const gisa_cov *c, char **out)
{
    if (!c || !out)
        return GISA_ERR_USAGE;
    *out = html(c);
    return *out ? GISA_OK : GISA_ERR_NOMEM;
}

gisa_status gisa_cov_report_html(const gisa_cov *c, char **out)
{
    FPENV_RETURN(gisa_status, report_html_unguarded(c, out));
}
