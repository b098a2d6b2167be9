/* Whether the C semantics implement a model's optype (fingerprint.h): the
 * declared fingerprints (fingerprints.c) against the model's, and where a
 * difference comes from. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/strbuf.h"
#include "docsem/docsem.h"
#include "sim/bind.h"
#include "sim/fingerprint.h"
#include "spec/load.h"

int sim_declared_fingerprint(const char *semantics_name, uint64_t *fp)
{
    for (const sim_fingerprint *f = sim_fingerprints; f->semantics; f++)
        if (!strcmp(f->semantics, semantics_name)) {
            *fp = f->fp;
            return 1;
        }
    return 0;
}

uint64_t sim_doc_fingerprint(const gisa_isa *isa, const isa_optype *ot)
{
    const ds_optype *s = ds_optype_of(isa, ot);
    return s ? s->fingerprint : 0;
}

const char *sim_semantics_source(const char *semantics_name)
{
    for (const sim_family_source *f = sim_family_sources; f->family; f++)
        for (const sim_opdef *d = f->family; d->optype; d++)
            if (!strcmp(d->optype, semantics_name))
                return f->file;
    return NULL;
}

/* the C function of an entry, by the tables' convention: FFMA -> op_ffma */
static const char *fn_name(const char *semantics, char *buf, size_t cap)
{
    size_t n = 0;
    for (const char *p = "op_"; *p && n + 1 < cap; p++)
        buf[n++] = *p;
    for (const char *p = semantics; *p && n + 1 < cap; p++)
        buf[n++] = (char)tolower((unsigned char)*p);
    buf[n] = 0;
    return buf;
}

static int is_embedded(const char *file) { return file && !strncmp(file, "<embedded>/", 11); }

/* "file:line:col" (shipped files as their source path isa/... when source_path) */
static const char *place(const srcloc *at, int source_path, char *buf, size_t cap)
{
    const char *f = at->file ? at->file : "?";
    if (source_path && is_embedded(f))
        snprintf(buf, cap, "isa/%s:%d", f + 11, at->line);
    else if (at->col > 0)
        snprintf(buf, cap, "%s:%d:%d", f, at->line, at->col);
    else
        snprintf(buf, cap, "%s:%d", f, at->line);
    return buf;
}

/* The shipped description of the model's target, loaded on first need. */
typedef struct explain {
    gisa_isa *shipped;
    int tried;
} explain;

static const ds_optype *shipped_optype(explain *x, const gisa_isa *isa, const char *name)
{
    if (!x->tried) {
        x->tried = 1;
        if (!isa->target_name || spec_load_embedded(isa->target_name, SIZE_MAX, &x->shipped, NULL) != GISA_OK ||
            ds_model_build(x->shipped, GISA_WARNING, NULL) || !x->shipped->docsem) {
            gisa_isa_free(x->shipped);
            x->shipped = NULL;
        }
    }
    for (int t = 0; x->shipped && t < x->shipped->noptypes; t++)
        if (!strcmp(x->shipped->optypes[t].name, name))
            return ds_optype_of(x->shipped, &x->shipped->optypes[t]);
    return NULL;
}

/* Where optype ot's pseudo-code changed: the first line of its canonical
 * form that differs from the shipped description's, when that line comes
 * from a file of the user's or nothing of the user's patches the optype;
 * else the first patch (or the block) from a file that is not shipped;
 * else the first line of the code that runs. */
static srcloc locate(explain *x, const gisa_isa *isa, const isa_optype *ot)
{
    const ds_optype *s = ds_optype_of(isa, ot);
    srcloc at = ot->def->loc, diff = {0}, own = {0};
    if (!s)
        return at;
    if (s->nlines)
        at = s->lines[0].loc;
    for (int i = 0; i < s->npatches && !own.file; i++)
        if (!is_embedded(s->patches[i].loc.file))
            own = s->patches[i].loc;
    if (!own.file && s->ndoc && !is_embedded(s->doc[0].loc.file))
        own = s->doc[0].loc;
    arena a;
    arena_init(&a);
    ds_canon_line *mine, *theirs;
    int nm = ds_canon_lines(s, &a, &mine);
    const ds_optype *t = shipped_optype(x, isa, ot->name);
    int nt = t ? ds_canon_lines(t, &a, &theirs) : -1;
    if (nm > 0 && nt >= 0) {
        int i = 0;
        while (i < nm && i < nt && !strcmp(mine[i].text, theirs[i].text))
            i++;
        if (i < nm || i < nt)
            diff = mine[i < nm ? i : nm - 1].loc; /* lines removed at the end: the last one left */
    }
    arena_free(&a);
    if (diff.file && (!is_embedded(diff.file) || !own.file))
        return diff;
    return own.file ? own : at;
}

static int implements(explain *x, const gisa_isa *isa, const isa_optype *ot, char *why, size_t cap)
{
    if (!sim_find_opdef(ot->semantics)) {
        if (why)
            snprintf(why, cap,
                 "%s has no C semantics (--engine native runs only those; --engine auto or doc runs its pseudo-code)",
                 ot->name);
        return 0;
    }
    uint64_t doc = sim_doc_fingerprint(isa, ot), decl;
    if (!doc)
        return 1; /* no pseudo-code: the C function is the only semantics */
    if (!sim_declared_fingerprint(ot->semantics, &decl)) {
        if (why)
            snprintf(why, cap,
                 "%s: the C semantics declare no fingerprint (src/sim/fingerprints.c): --engine auto runs the "
                 "pseudo-code", ot->name);
        return 0;
    }
    if (decl == doc)
        return 1;
    if (why && cap) {
        char w[300];
        srcloc at = locate(x, isa, ot);
        snprintf(why, cap,
                 "%s: the pseudo-code differs from what the C semantics implement (%s changed it): --engine auto "
                 "runs the pseudo-code", ot->name, place(&at, 0, w, sizeof w));
    }
    return 0;
}

int sim_native_implements(const gisa_isa *isa, const isa_optype *ot, char *why, size_t cap)
{
    explain x = {0};
    int r = implements(&x, isa, ot, why, cap);
    gisa_isa_free(x.shipped);
    return r;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const isa_optype *const *)a)->name, (*(const isa_optype *const *)b)->name);
}

void sim_lint_fingerprints(const gisa_isa *isa, gisa_diags *diags)
{
    const isa_optype **order = malloc(sizeof *order * (size_t)(isa->noptypes ? isa->noptypes : 1));
    if (!order) {
        diag_add(diags, GISA_ERROR, NULL, "out of memory checking the fingerprints");
        return;
    }
    for (int t = 0; t < isa->noptypes; t++)
        order[t] = &isa->optypes[t];
    qsort(order, (size_t)isa->noptypes, sizeof *order, by_name);
    explain x = {0};
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = order[t];
        char fn[64];
        if (!sim_find_opdef(ot->semantics) || implements(&x, isa, ot, NULL, 0))
            continue;
        srcloc at = locate(&x, isa, ot);
        const char *file = sim_semantics_source(ot->semantics);
        diag_add(diags, GISA_NOTE, &at,
                 "the pseudo-code of %s differs from what its C semantics implement (%s in %s): --engine auto runs "
                 "the pseudo-code for it, --engine native refuses it", ot->name,
                 fn_name(ot->semantics, fn, sizeof fn), file ? file : "src/sim");
    }
    gisa_isa_free(x.shipped);
    free(order);
}

static int table(explain *x, const gisa_isa *isa, strbuf *b, gisa_diags *diags)
{
    int errors = 0;
    sb_printf(b, "    /* %s (gisa lint --fingerprints) */\n", isa->target_name ? isa->target_name : "this ISA");
    for (size_t f = 0; f < sim_nfamilies; f++)
        for (const sim_opdef *d = sim_families[f]; d->optype; d++)
            for (int t = 0; t < isa->noptypes; t++) {
                const isa_optype *ot = &isa->optypes[t];
                uint64_t doc = sim_doc_fingerprint(isa, ot), decl = 0;
                if (strcmp(ot->semantics, d->optype) || !doc)
                    continue;
                int declared = sim_declared_fingerprint(d->optype, &decl);
                sb_printf(b, "    {\"%s\", UINT64_C(0x%016llx)},%s\n", d->optype, (unsigned long long)doc,
                          !declared ? " /* new */" : decl != doc ? " /* changed */" : "");
                if (declared && decl == doc)
                    continue;
                char w[300], fn[64];
                srcloc at = locate(x, isa, ot);
                const char *file = sim_semantics_source(d->optype);
                if (declared)
                    diag_add(diags, GISA_ERROR, NULL,
                             "the pseudo-code of %s changed (%s): review %s in %s against it, then update its "
                             "fingerprint in src/sim/fingerprints.c to 0x%016llx", ot->name, place(&at, 1, w, sizeof w),
                             fn_name(d->optype, fn, sizeof fn), file ? file : "src/sim", (unsigned long long)doc);
                else
                    diag_add(diags, GISA_ERROR, NULL,
                             "%s in %s declares no fingerprint: review it against the pseudo-code of %s (%s), then "
                             "add {\"%s\", UINT64_C(0x%016llx)} to src/sim/fingerprints.c",
                             fn_name(d->optype, fn, sizeof fn), file ? file : "src/sim", ot->name,
                             place(&at, 1, w, sizeof w), d->optype, (unsigned long long)doc);
                errors++;
            }
    return errors;
}

int sim_fingerprint_table(const gisa_isa *isa, char **out, gisa_diags *diags)
{
    strbuf b;
    sb_init(&b);
    explain x = {0};
    int errors = table(&x, isa, &b, diags);
    gisa_isa_free(x.shipped);
    *out = sb_take(&b);
    return *out ? errors : -1;
}

int sim_check_fingerprints(const gisa_isa *const *isas, size_t n, gisa_diags *diags)
{
    int errors = 0;
    for (size_t f = 0; f < sim_nfamilies; f++) {
        const sim_family_source *s = sim_family_sources;
        while (s->family && s->family != sim_families[f])
            s++;
        if (!s->family) {
            diag_add(diags, GISA_ERROR, NULL, "family %zu of the C tables (optable.c) has no file in sim_family_sources",
                     f);
            errors++;
        }
        for (const sim_opdef *d = sim_families[f]; d->optype; d++) {
            uint64_t fp;
            if (!sim_declared_fingerprint(d->optype, &fp)) {
                diag_add(diags, GISA_ERROR, NULL, "the C entry %s declares no fingerprint in src/sim/fingerprints.c",
                         d->optype);
                errors++;
            }
        }
    }
    for (const sim_fingerprint *f = sim_fingerprints; f->semantics; f++) {
        int used = !f->fp;
        for (const sim_fingerprint *g = sim_fingerprints; g < f; g++)
            if (!strcmp(g->semantics, f->semantics)) {
                diag_add(diags, GISA_ERROR, NULL, "src/sim/fingerprints.c declares %s twice", f->semantics);
                errors++;
            }
        if (!sim_find_opdef(f->semantics)) {
            diag_add(diags, GISA_ERROR, NULL, "src/sim/fingerprints.c declares %s, which has no C entry", f->semantics);
            errors++;
        }
        for (size_t i = 0; i < n && !used; i++) /* (an optype with pseudo-code: the table's check) */
            for (int t = 0; t < isas[i]->noptypes && !used; t++)
                used = !strcmp(isas[i]->optypes[t].semantics, f->semantics) &&
                       sim_doc_fingerprint(isas[i], &isas[i]->optypes[t]) != 0;
        if (!used) {
            diag_add(diags, GISA_ERROR, NULL,
                     "src/sim/fingerprints.c declares a fingerprint for %s, but no shipped optype it serves has "
                     "pseudo-code (declare 0)", f->semantics);
            errors++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        strbuf b;
        sb_init(&b);
        explain x = {0};
        errors += table(&x, isas[i], &b, diags);
        gisa_isa_free(x.shipped);
        sb_free(&b);
    }
    return errors;
}
