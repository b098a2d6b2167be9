/* The findings that rulings acknowledge (`__Errata` of a __DefRuling): a
 * lint warning of the acknowledged kind, about the ruling's definition or
 * one that inherits from it, whose message holds the anchor as a whole
 * (white space runs compared as one blank), is the documents' erratum that
 * the ruling settles: it becomes a note that names the ruling's line and
 * reason, and keeps its category. An acknowledgment no warning matches is
 * itself a warning, so that the list cannot outlive the findings. */
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "spec/load.h"
#include "spec/model.h"

/* Acknowledgments lint matches: each warning is compared with each, so a
 * hostile description with 100,000 of them and 10,000 warnings would take
 * minutes. The shipped rulings have 34. */
#define MAX_ERRATA 1000

typedef struct ack {
    const raw_erratum *e;
    const raw_def *ruling, *target;
    int used;
} ack;

/* s with every run of white space made one blank, none at either end or
 * beside a backtick (an example quoted as `text   ` holds its spacing);
 * NULL when out of memory. */
static char *squeeze(const char *s)
{
    char *o = malloc(strlen(s) + 1), *p = o;
    if (!o)
        return NULL;
    int blank = 0;
    for (; *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
            blank = 1;
            continue;
        }
        if (blank && p > o && *s != '`' && p[-1] != '`')
            *p++ = ' ';
        blank = 0;
        *p++ = *s;
    }
    *p = 0;
    return o;
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

/* The anchor (squeezed) in the message (squeezed), not inside a longer
 * word: "rb.neg" is not in "urb.neg". */
static int holds(const char *msg, const char *anchor)
{
    size_t n = strlen(anchor);
    if (!n)
        return 0;
    for (const char *p = msg; (p = strstr(p, anchor)) != NULL; p++) {
        int before = p > msg && word_char(anchor[0]) && word_char(p[-1]);
        int after = word_char(anchor[n - 1]) && word_char(p[n]);
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* The definition that holds line `line` of `file`: the last one starting
 * at or before it. */
static const raw_def *def_at(const gisa_isa *isa, const char *file, int line)
{
    const raw_def *best = NULL;
    for (int i = 0; i < isa->raw.ndefs; i++) {
        const raw_def *d = isa->raw.defs[i];
        if (d->loc.file && !strcmp(d->loc.file, file) && d->loc.line <= line && (!best || d->loc.line >= best->loc.line))
            best = d;
    }
    return best;
}

static const raw_def *def_named(const gisa_isa *isa, const char *name)
{
    for (int i = 0; name && i < isa->raw.ndefs; i++) {
        const raw_def *d = isa->raw.defs[i];
        if (d->kind >= RAW_GROUP && d->kind != RAW_RULING && !strcmp(d->name, name))
            return d;
    }
    return NULL;
}

/* d is target, or inherits from it (parents by name, at most 64 levels). */
static int in_chain(const gisa_isa *isa, const raw_def *d, const raw_def *target)
{
    const char *name = d ? d->name : NULL;
    for (int depth = 0; name && depth < 64; depth++) {
        if (!strcmp(name, target->name))
            return 1;
        const raw_def *p = def_named(isa, name);
        name = p ? p->parent : NULL;
    }
    return 0;
}

void spec_lint_errata(const gisa_isa *isa, gisa_diags *diags, size_t first)
{
    size_t nacks = 0;
    for (int r = 0; r < isa->nrulings; r++)
        nacks += (size_t)isa->rulings[r].ruling->nerrata;
    if (!nacks)
        return;
    if (nacks > MAX_ERRATA) {
        for (int r = 0, seen = 0; r < isa->nrulings; r++) {
            const raw_def *rd = isa->rulings[r].ruling;
            if (seen + rd->nerrata > MAX_ERRATA) {
                diag_add(diags, GISA_ERROR, &rd->errata[MAX_ERRATA - seen].loc,
                         "more than %d __Errata lines: lint matches none of them", MAX_ERRATA);
                return;
            }
            seen += rd->nerrata;
        }
    }
    ack *acks = calloc(nacks, sizeof *acks);
    char **anchors = calloc(nacks, sizeof *anchors);
    if (!acks || !anchors) {
        free(acks);
        free(anchors);
        return;
    }
    size_t k = 0;
    for (int r = 0; r < isa->nrulings; r++)
        for (int e = 0; e < isa->rulings[r].ruling->nerrata; e++, k++) {
            acks[k] = (ack){&isa->rulings[r].ruling->errata[e], isa->rulings[r].ruling, isa->rulings[r].target, 0};
            anchors[k] = squeeze(acks[k].e->anchor);
        }
    size_t n = gisa_diags_count(diags);
    for (size_t i = first; i < n; i++) {
        const gisa_diag *g = gisa_diags_get(diags, i);
        if (g->severity != GISA_WARNING || !g->category)
            continue;
        char *msg = squeeze(g->message);
        const raw_def *d = NULL;
        int looked = 0;
        for (k = 0; msg && k < nacks; k++) {
            if (!anchors[k] || strcmp(acks[k].e->kind, g->category) || !holds(msg, anchors[k]))
                continue;
            if (!looked++)
                d = g->file && g->line > 0 ? def_at(isa, g->file, g->line) : NULL;
            if (!in_chain(isa, d, acks[k].target))
                continue;
            strbuf pre;
            sb_init(&pre);
            sb_printf(&pre, "erratum corrected by ruling (%s:%d: %s): ", acks[k].e->loc.file, acks[k].e->loc.line,
                      acks[k].e->reason);
            if (pre.s && diag_warning_to_note(diags, i, pre.s, ""))
                acks[k].used = 1;
            sb_free(&pre);
            break;
        }
        free(msg);
    }
    for (k = 0; k < nacks; k++) {
        if (acks[k].used)
            continue;
        diag_add(diags, GISA_WARNING, &acks[k].e->loc,
                 "stale acknowledgment: ruling %s acknowledges a finding of kind %s holding \"%s\" that lint does not "
                 "report (about %s or what inherits from it): remove the line or correct its anchor",
                 acks[k].ruling->name, acks[k].e->kind, acks[k].e->anchor, acks[k].target->name);
        diag_set_category(diags, "stale-erratum");
    }
    for (k = 0; k < nacks; k++)
        free(anchors[k]);
    free(anchors);
    free(acks);
}
