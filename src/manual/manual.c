/* gisa_isa_manual: the HTML reference manual of the loaded ISA, page by
 * page to the caller's callback (the library writes no file). It runs lint
 * and assembles the documents' examples once, then writes the pages:
 * style.css, search.js, search-index.js, index.html, encoding.html,
 * errata.html, then optype-NAME.html and opcode-NAME.html for each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "manual/assets.h"
#include "manual/html.h"
#include "manual/manual.h"

/* ------------------------------------------------------------------ findings */

static int def_order(const void *a, const void *b)
{
    const raw_def *x = *(const raw_def *const *)a, *y = *(const raw_def *const *)b;
    int c = strcmp(x->loc.file ? x->loc.file : "", y->loc.file ? y->loc.file : "");
    return c ? c : (x->loc.line > y->loc.line) - (x->loc.line < y->loc.line);
}

/* The definition a finding at file:line is about: the last one that starts
 * at or before it in that file; a ruling's findings are about the
 * definition it corrects. */
static const raw_def *def_at(const gisa_isa *isa, const raw_def **sorted, int n, const char *file, int line)
{
    int lo = 0, hi = n; /* first definition after file:line */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(sorted[mid]->loc.file ? sorted[mid]->loc.file : "", file);
        if (c < 0 || (c == 0 && sorted[mid]->loc.line <= line))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo || strcmp(sorted[lo - 1]->loc.file ? sorted[lo - 1]->loc.file : "", file))
        return NULL;
    const raw_def *d = sorted[lo - 1];
    for (int r = 0; r < isa->nrulings && d->kind == RAW_RULING; r++)
        if (isa->rulings[r].ruling == d)
            return isa->rulings[r].target;
    return d;
}

static gisa_status collect_notes(manual *m)
{
    const gisa_isa *isa = m->isa;
    m->lint = diags_alloc();
    if (!m->lint)
        return GISA_ERR_NOMEM;
    gisa_isa_lint(isa, m->lint);
    size_t n = gisa_diags_count(m->lint);
    const raw_def **sorted = malloc(sizeof *sorted * (size_t)(isa->raw.ndefs + 1));
    m->notes = calloc(n + 1, sizeof *m->notes);
    if (!sorted || !m->notes) {
        free(sorted);
        return GISA_ERR_NOMEM;
    }
    memcpy(sorted, isa->raw.defs, sizeof *sorted * (size_t)isa->raw.ndefs);
    qsort(sorted, (size_t)isa->raw.ndefs, sizeof *sorted, def_order);
    for (size_t i = 0; i < n; i++) {
        const gisa_diag *g = gisa_diags_get(m->lint, i);
        man_note *note = &m->notes[m->nnotes++];
        note->severity = g->severity;
        note->file = g->file ? g->file : "";
        note->line = g->line;
        note->message = g->message;
        note->def = g->file && g->line ? def_at(isa, sorted, isa->raw.ndefs, g->file, g->line) : NULL;
    }
    free(sorted);
    return GISA_OK;
}

/* ------------------------------------------------------------------ examples */

static void assemble_example(const gisa_isa *isa, man_example *e, gisa_diags *d)
{
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_diags_clear(d);
    e->opcode = -1;
    const char *t = e->line->text;
    if (gisa_assemble(isa, e->line->loc.file, t, strlen(t), NULL, &w, &n, d) != GISA_OK || n != 1) {
        const gisa_diag *g = gisa_diags_get(d, 0);
        snprintf(e->text, sizeof e->text, "%s", g ? g->message : n ? "more than one instruction" : "no instruction");
        free(w);
        return;
    }
    char *hex = NULL;
    size_t len = 0;
    if (gisa_words_serialize(isa, w, 1, GISA_FMT_HEX, &hex, &len) == GISA_OK) {
        while (len && (hex[len - 1] == '\n' || hex[len - 1] == '\r'))
            len--;
        snprintf(e->hex, sizeof e->hex, "%.*s", (int)len, hex);
    }
    gisa_free(hex);
    gisa_disassemble(isa, w[0], e->text, sizeof e->text, NULL);
    size_t op = 0;
    e->opcode = gisa_decode_opcode(isa, w[0], &op) == GISA_OK ? (int)op : -1;
    free(w);
}

static gisa_status collect_examples(manual *m)
{
    const gisa_isa *isa = m->isa;
    size_t n = 0;
    for (int i = 0; i < isa->raw.ndefs; i++)
        n += (size_t)isa->raw.defs[i]->nexamples;
    m->examples = calloc(n + 1, sizeof *m->examples);
    gisa_diags *d = diags_alloc();
    if (!m->examples || !d) {
        gisa_diags_free(d);
        return GISA_ERR_NOMEM;
    }
    for (int i = 0; i < isa->raw.ndefs; i++) {
        const raw_def *def = isa->raw.defs[i];
        for (int k = 0; k < def->nexamples; k++) {
            man_example *e = &m->examples[m->nexamples++];
            e->def = def;
            e->line = &def->examples[k];
            assemble_example(isa, e, d);
        }
    }
    gisa_diags_free(d);
    return GISA_OK;
}

/* ------------------------------------------------------------------ index */

static int opcode_order(const void *a, const void *b)
{
    return strcmp((*(const isa_opcode *const *)a)->name, (*(const isa_opcode *const *)b)->name);
}

static const raw_def *unit_of(const gisa_isa *isa, const isa_optype *ot)
{
    return ot->nopcodes ? doc_unit(&isa->opcodes[ot->opcodes[0]]) : NULL;
}

static void optype_row(const gisa_isa *isa, const isa_optype *ot, strbuf *sb)
{
    sb_puts(sb, "<tr><td>");
    html_link(sb, "optype", ot->name);
    sb_puts(sb, "</td><td>");
    for (int k = 0; k < ot->nopcodes; k++) {
        sb_puts(sb, k ? " " : "");
        html_link(sb, "opcode", isa->opcodes[ot->opcodes[k]].name);
    }
    sb_puts(sb, "</td><td>");
    html_puts(sb, ot->def->description);
    sb_puts(sb, "</td></tr>\n");
}

static void units(const gisa_isa *isa, strbuf *sb)
{
    sb_printf(sb, "<section id=\"optypes\">\n<h2>Optypes by unit</h2>\n");
    for (int t = 0; t < isa->noptypes; t++) {
        const raw_def *unit = unit_of(isa, &isa->optypes[t]);
        int first = 1;
        for (int s = 0; s < t && first; s++)
            first = unit_of(isa, &isa->optypes[s]) != unit;
        if (!first)
            continue;
        sb_puts(sb, "<h3 id=\"unit-");
        html_id(sb, unit ? unit->name : "");
        sb_puts(sb, "\">");
        html_puts(sb, unit ? unit->name : "Other");
        if (unit && unit->description) {
            sb_puts(sb, " <small>");
            html_puts(sb, unit->description);
            sb_puts(sb, "</small>");
        }
        sb_puts(sb, "</h3>\n");
        html_table(sb, "optypes", "<th>optype</th><th>opcodes</th><th>description</th>");
        for (int s = t; s < isa->noptypes; s++)
            if (unit_of(isa, &isa->optypes[s]) == unit)
                optype_row(isa, &isa->optypes[s], sb);
        sb_puts(sb, "</tbody>\n</table>\n");
    }
    sb_puts(sb, "</section>\n");
}

static gisa_status index_page(const manual *m, strbuf *sb)
{
    const gisa_isa *isa = m->isa;
    const isa_opcode **sorted = malloc(sizeof *sorted * (size_t)(isa->nopcodes + 1));
    if (!sorted)
        return GISA_ERR_NOMEM;
    for (int i = 0; i < isa->nopcodes; i++)
        sorted[i] = &isa->opcodes[i];
    qsort(sorted, (size_t)isa->nopcodes, sizeof *sorted, opcode_order);
    html_begin(sb, "Index", isa->target_name);
    sb_puts(sb, "<h1>");
    html_puts(sb, isa->target_name);
    sb_printf(sb, " ISA reference</h1>\n<p>%d optypes, %d opcodes, %d-bit instruction words. Generated by gisa %s "
                  "from the loaded description; every example is assembled by gisa.</p>\n",
              isa->noptypes, isa->nopcodes, isa->word_bits, gisa_version());
    sb_puts(sb, "<section id=\"search\">\n<h2>Search</h2>\n<p><input id=\"q\" type=\"search\" "
                "placeholder=\"opcode, mnemonic, modifier or word of a description\" aria-label=\"search\" autofocus> "
                "<span id=\"search-status\"></span></p>\n<ol id=\"results\"></ol>\n</section>\n");
    units(isa, sb);
    sb_puts(sb, "<section id=\"opcodes\">\n<h2>Opcodes</h2>\n");
    html_table(sb, "opcodes", "<th>opcode</th><th>optype</th><th>syntax</th>");
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = sorted[i];
        sb_puts(sb, "<tr><td>");
        html_link(sb, "opcode", op->name);
        sb_puts(sb, "</td><td>");
        html_link(sb, "optype", op->optype->name);
        sb_puts(sb, "</td><td><code>");
        if (op->nforms)
            html_puts(sb, op->forms[0].text + strspn(op->forms[0].text, " "));
        sb_puts(sb, "</code></td></tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n</section>\n<script src=\"search-index.js\"></script>\n"
                "<script src=\"search.js\"></script>\n");
    html_end(sb);
    free(sorted);
    return GISA_OK;
}

static void search_index(const gisa_isa *isa, strbuf *sb)
{
    sb_puts(sb, "/* The search index of the manual: [name, page, kind, text]. */\nvar GISA_SEARCH = [\n");
    strbuf t, ref;
    sb_init(&t);
    sb_init(&ref);
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? isa->nopcodes : isa->noptypes;
        for (int i = 0; i < n; i++) {
            const isa_opcode *op = pass ? &isa->opcodes[i] : NULL;
            const isa_optype *ot = pass ? op->optype : &isa->optypes[i];
            const char *name = pass ? op->name : ot->name;
            if (!pass && !ot->nopcodes)
                continue;
            const isa_opcode *forms = pass ? op : &isa->opcodes[ot->opcodes[0]];
            t.len = ref.len = 0;
            if (t.s)
                t.s[0] = 0;
            for (int f = 0; f < forms->nforms; f++)
                sb_printf(&t, "%s%s", f ? " | " : "", forms->forms[f].text + strspn(forms->forms[f].text, " "));
            if (ot->def->description)
                sb_printf(&t, " \xE2\x80\x94 %s", ot->def->description);
            html_page_ref(&ref, pass ? "opcode" : "optype", name);
            sb_puts(sb, sb->s && sb->s[sb->len - 1] == ']' ? ",\n[" : "[");
            js_string(sb, name);
            sb_putc(sb, ',');
            js_string(sb, ref.s ? ref.s : "");
            sb_puts(sb, pass ? ",\"opcode\"," : ",\"optype\",");
            js_string(sb, t.s ? t.s : "");
            sb_putc(sb, ']');
            sb->failed |= t.failed | ref.failed;
        }
    }
    sb_free(&t);
    sb_free(&ref);
    sb_puts(sb, "\n];\n");
}

static void errata_page(const manual *m, strbuf *sb)
{
    html_begin(sb, "Errata and rulings", m->isa->target_name);
    sb_printf(sb, "<h1>Errata and rulings</h1>\n<p>What <code>gisa lint</code> reports about the loaded description: "
                  "%d findings, the errata that a ruling corrects among them. Each is also shown on the pages of the "
                  "definitions it is about.</p>\n",
              m->nnotes);
    if (!m->nnotes) {
        html_end(sb);
        return;
    }
    html_table(sb, "notes", "<th>where</th><th>about</th><th>finding</th>");
    for (int i = 0; i < m->nnotes; i++) {
        const man_note *n = &m->notes[i];
        sb_printf(sb, "<tr class=\"%s\"><td><code>", man_note_class(n));
        html_printf(sb, "%s:%d", n->file, n->line);
        sb_puts(sb, "</code></td><td>");
        const raw_def *d = n->def;
        if (d && d->kind == RAW_OPCODE && strmap_get(&m->isa->opcode_by_name, d->name, strlen(d->name)) >= 0)
            html_link(sb, "opcode", d->name);
        else if (d && d->kind == RAW_OPTYPE) {
            int found = 0;
            for (int t = 0; t < m->isa->noptypes && !found; t++)
                found = m->isa->optypes[t].def == d && m->isa->optypes[t].nopcodes;
            if (found)
                html_link(sb, "optype", d->name);
            else
                html_puts(sb, d->name);
        } else if (d)
            html_puts(sb, d->name);
        sb_puts(sb, "</td><td>");
        html_puts(sb, n->severity == GISA_ERROR ? "error: " : "");
        html_puts(sb, n->message);
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n");
    html_end(sb);
}

/* ------------------------------------------------------------------ pages */

/* Hands one finished page to the caller and empties the buffer. */
static gisa_status emit(strbuf *sb, gisa_page_fn page, void *user, const char *name)
{
    if (sb->failed)
        return GISA_ERR_NOMEM;
    gisa_status st = page(user, name, sb->s ? sb->s : "", sb->len);
    sb->len = 0;
    if (sb->s)
        sb->s[0] = 0;
    return st;
}

static gisa_status pages(const manual *m, gisa_page_fn page, void *user, strbuf *sb, strbuf *name)
{
    const gisa_isa *isa = m->isa;
    gisa_status st;
    sb_puts(sb, man_style_css);
    if ((st = emit(sb, page, user, "style.css")))
        return st;
    sb_puts(sb, man_search_js);
    if ((st = emit(sb, page, user, "search.js")))
        return st;
    search_index(isa, sb);
    if ((st = emit(sb, page, user, "search-index.js")))
        return st;
    if ((st = index_page(m, sb)) || (st = emit(sb, page, user, "index.html")))
        return st;
    man_encoding_page(m, sb);
    if ((st = emit(sb, page, user, "encoding.html")))
        return st;
    errata_page(m, sb);
    if ((st = emit(sb, page, user, "errata.html")))
        return st;
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? isa->nopcodes : isa->noptypes;
        for (int i = 0; i < n; i++) {
            if (!pass && !isa->optypes[i].nopcodes)
                continue;
            name->len = 0;
            html_page_ref(name, pass ? "opcode" : "optype", pass ? isa->opcodes[i].name : isa->optypes[i].name);
            if (name->failed)
                return GISA_ERR_NOMEM;
            if (pass)
                man_opcode_page(m, &isa->opcodes[i], sb);
            else
                man_optype_page(m, &isa->optypes[i], sb);
            if ((st = emit(sb, page, user, name->s)))
                return st;
        }
    }
    return GISA_OK;
}

static gisa_status isa_manual_unguarded(const gisa_isa *isa, gisa_page_fn page, void *user)
{
    if (!isa || !page)
        return GISA_ERR_USAGE;
    manual m = {isa, NULL, NULL, 0, NULL, 0};
    strbuf sb, name;
    sb_init(&sb);
    sb_init(&name);
    gisa_status st = collect_notes(&m);
    if (!st)
        st = collect_examples(&m);
    if (!st)
        st = pages(&m, page, user, &sb, &name);
    sb_free(&sb);
    sb_free(&name);
    free(m.notes);
    free(m.examples);
    gisa_diags_free(m.lint);
    return st;
}

gisa_status gisa_isa_manual(const gisa_isa *isa, gisa_page_fn page, void *user)
{
    FPENV_RETURN(gisa_status, isa_manual_unguarded(isa, page, user));
}
