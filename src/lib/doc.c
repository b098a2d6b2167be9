/* gisa_isa_doc: the model's reference, and for an optype its pseudo-code as
 * the document writes it and as it runs after the rulings' patches. */
#include <stdlib.h>

#include "common/fpenv.h"
#include "common/strbuf.h"
#include "docsem/docsem.h"
#include "spec/doc.h"

static void lines(strbuf *sb, const ds_line *l, int n)
{
    for (int i = 0; i < n; i++)
        sb_printf(sb, "%s%s\n", *l[i].text ? "    " : "", l[i].text);
}

static void semantics(const gisa_isa *isa, const isa_optype *ot, strbuf *sb)
{
    const ds_optype *s = ds_optype_of(isa, ot);
    if (!s || (!s->ndoc && !s->nlines)) {
        sb_puts(sb, "  Pseudo-code: none (no __Semantics; the doc engine cannot run it)\n");
        return;
    }
    if (s->ndoc)
        sb_printf(sb, "  Pseudo-code of the document (%s:%d):\n", s->doc[0].loc.file, s->doc[0].loc.line);
    else
        sb_puts(sb, "  Pseudo-code of the document: none\n");
    lines(sb, s->doc, s->ndoc);
    if (!s->npatches) {
        sb_puts(sb, "  It runs as written (no semantic patch).\n");
    } else {
        sb_printf(sb, "  Semantic patches (%d):\n", s->npatches);
        for (int p = 0; p < s->npatches; p++) {
            const ds_patch *P = &s->patches[p];
            sb_printf(sb, "    %s:%d: ", P->loc.file, P->loc.line);
            if (P->kind == DP_REPLACE)
                sb_printf(sb, "replace \"%s\"", P->what);
            else if (P->kind == DP_BLOCK)
                sb_puts(sb, "the whole block replaced");
            else
                sb_puts(sb, P->what);
            sb_printf(sb, " because %s\n", P->reason && *P->reason ? P->reason : "(no reason given)");
        }
        sb_puts(sb, "  Pseudo-code that runs (patched):\n");
        lines(sb, s->lines, s->nlines);
    }
    if (s->errors)
        sb_printf(sb, "  It does not parse (%d error%s: see gisa lint); the doc engine cannot run it.\n", s->errors,
                  s->errors == 1 ? "" : "s");
}

static char *isa_doc_unguarded(const gisa_isa *isa, const char *name, gisa_status *st)
{
    char *text = spec_doc(isa, name, st);
    int t = text ? spec_doc_optype(isa, name) : -1;
    if (t < 0)
        return text;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, text);
    free(text);
    semantics(isa, &isa->optypes[t], &sb);
    return sb_take(&sb);
}

static gisa_status isa_doc_status(const gisa_isa *isa, const char *name, char **out)
{
    if (!isa || !out)
        return GISA_ERR_USAGE;
    gisa_status st = GISA_OK;
    *out = isa_doc_unguarded(isa, name, &st);
    return *out ? GISA_OK : st != GISA_OK ? st : GISA_ERR_NOMEM;
}

gisa_status gisa_isa_doc(const gisa_isa *isa, const char *name, char **out)
{
    FPENV_RETURN(gisa_status, isa_doc_status(isa, name, out));
}
