/* The page of an optype (what its opcodes share: description, syntax as
 * the document writes it, pseudo-code, examples) and the page of an opcode
 * (its syntax forms with modifiers and operands, encoding diagram,
 * exception rules, findings, the examples that assemble to it). */
#include <string.h>

#include "docsem/docsem.h"
#include "manual/html.h"
#include "manual/manual.h"

int man_in_chain(const isa_opcode *op, const raw_def *def)
{
    for (int c = 0; c < op->nchain; c++)
        if (op->chain[c] == def)
            return 1;
    return 0;
}

static void heading(strbuf *sb, const char *id, const char *title)
{
    sb_printf(sb, "<h2 id=\"%s\">", id);
    html_puts(sb, title);
    sb_puts(sb, "</h2>\n");
}

static void lines_pre(strbuf *sb, const char *cls, const raw_line *lines, int n)
{
    sb_printf(sb, "<pre class=\"%s\">", cls);
    for (int i = 0; i < n; i++) {
        html_puts(sb, lines[i].text);
        sb_putc(sb, '\n');
    }
    sb_puts(sb, "</pre>\n");
}

/* Breadcrumb and description, the start of both pages. */
static void page_head(const manual *m, const isa_opcode *first, const isa_optype *ot, strbuf *sb)
{
    const raw_def *unit = doc_unit(first);
    sb_puts(sb, "<p class=\"crumbs\">");
    if (unit) {
        sb_puts(sb, "<a href=\"index.html#unit-");
        html_id(sb, unit->name);
        sb_puts(sb, "\">");
        html_puts(sb, unit->name);
        sb_puts(sb, "</a> \xE2\x80\xBA ");
    }
    html_link(sb, "optype", ot->name);
    sb_printf(sb, " (%d-bit words, target ", m->isa->word_bits);
    html_puts(sb, m->isa->target_name);
    sb_puts(sb, ")</p>\n");
    if (ot->def->description) {
        sb_puts(sb, "<p class=\"description\">");
        html_puts(sb, ot->def->description);
        sb_puts(sb, "</p>\n");
    }
    sb_puts(sb, "<p class=\"defined\">Defined at <code>");
    html_printf(sb, "%s:%d", ot->def->loc.file, ot->def->loc.line);
    sb_puts(sb, "</code>.</p>\n");
}

/* The document's pseudo-code, then the rulings' patches with their reasons
 * and the code the doc engine runs (as `gisa doc OPTYPE` shows them). */
static void semantics(const manual *m, const isa_optype *ot, strbuf *sb)
{
    heading(sb, "semantics", "Pseudo-code");
    if (ot->def->nsemantics)
        lines_pre(sb, "semantics", ot->def->semantics, ot->def->nsemantics);
    else
        sb_puts(sb, "<p>The document gives none.</p>\n");
    const ds_optype *s = ds_optype_of(m->isa, ot);
    if (!s || (!s->ndoc && !s->nlines))
        return;
    if (!s->npatches) {
        sb_puts(sb, "<p>The doc engine runs it as written (no semantic patch).</p>\n");
    } else {
        heading(sb, "semantic-patches", "Semantic patches");
        sb_puts(sb, "<ul class=\"patches\">\n");
        for (int p = 0; p < s->npatches; p++) {
            const ds_patch *P = &s->patches[p];
            sb_puts(sb, "<li><code>");
            html_printf(sb, "%s:%d", P->loc.file, P->loc.line);
            sb_puts(sb, "</code>: ");
            if (P->kind == DP_REPLACE) {
                sb_puts(sb, "replace <code>");
                html_puts(sb, P->what);
                sb_puts(sb, "</code>");
            } else if (P->kind == DP_BLOCK) {
                sb_puts(sb, "the whole block replaced");
            } else {
                sb_puts(sb, "<code>");
                html_puts(sb, P->what);
                sb_puts(sb, "</code>");
            }
            sb_puts(sb, " because ");
            html_puts(sb, P->reason && *P->reason ? P->reason : "(no reason given)");
            sb_puts(sb, "</li>\n");
        }
        sb_puts(sb, "</ul>\n");
        heading(sb, "semantics-run", "Pseudo-code that runs (patched)");
        sb_puts(sb, "<pre class=\"semantics\">");
        for (int i = 0; i < s->nlines; i++) {
            html_puts(sb, s->lines[i].text);
            sb_putc(sb, '\n');
        }
        sb_puts(sb, "</pre>\n");
    }
    if (s->errors)
        sb_printf(sb, "<p>It does not parse (%d error%s: see <code>gisa lint</code>); the doc engine cannot run it.</p>\n",
                  s->errors, s->errors == 1 ? "" : "s");
}

/* The examples of the definitions in `op`'s chain (all_of_optype), or those
 * that assemble to `op`. */
static void examples(const manual *m, const isa_optype *ot, const isa_opcode *op, strbuf *sb)
{
    heading(sb, "examples", "Examples");
    int shown = 0;
    for (int i = 0; i < m->nexamples; i++) {
        const man_example *e = &m->examples[i];
        int mine = 0;
        if (op)
            mine = e->opcode == op->index;
        else
            for (int k = 0; k < ot->nopcodes && !mine; k++)
                mine = man_in_chain(&m->isa->opcodes[ot->opcodes[k]], e->def);
        if (!mine)
            continue;
        if (!shown++)
            html_table(sb, "examples", "<th>as the document writes it</th><th>word (hex)</th>"
                              "<th>opcode</th><th>canonical text</th>");
        sb_puts(sb, "<tr><td><code>");
        html_puts(sb, e->line->text);
        sb_puts(sb, "</code></td>");
        if (e->opcode >= 0) {
            sb_puts(sb, "<td><code class=\"hex\">");
            html_puts(sb, e->hex);
            sb_puts(sb, "</code></td><td>");
            html_link(sb, "opcode", m->isa->opcodes[e->opcode].name);
            sb_puts(sb, "</td><td><code>");
            html_puts(sb, e->text);
            sb_puts(sb, "</code></td></tr>\n");
        } else {
            sb_puts(sb, "<td colspan=\"3\" class=\"error\">does not assemble: ");
            html_puts(sb, e->text);
            sb_puts(sb, "</td></tr>\n");
        }
    }
    if (shown)
        sb_puts(sb, "</tbody>\n</table>\n");
    else
        sb_puts(sb, op ? "<p>No example of the document assembles to this opcode.</p>\n" : "<p>The document gives none.</p>\n");
}

void man_notes(const manual *m, const isa_opcode *op, const isa_optype *ot, strbuf *sb)
{
    heading(sb, "notes", "Rulings and errata");
    int shown = 0;
    for (int i = 0; i < m->nnotes; i++) {
        const man_note *n = &m->notes[i];
        int mine = 0;
        if (op)
            mine = man_in_chain(op, n->def);
        else
            for (int k = 0; k < ot->nopcodes && !mine; k++)
                mine = man_in_chain(&m->isa->opcodes[ot->opcodes[k]], n->def);
        if (!mine)
            continue;
        if (!shown++)
            sb_puts(sb, "<ul class=\"notes\">\n");
        sb_printf(sb, "<li class=\"%s\"><code>", man_note_class(n));
        html_printf(sb, "%s:%d", n->file, n->line);
        sb_puts(sb, "</code> (");
        html_puts(sb, n->def->name);
        sb_puts(sb, n->severity == GISA_ERROR ? ", error) " : ") ");
        html_puts(sb, n->message);
        sb_puts(sb, "</li>\n");
    }
    if (shown)
        sb_puts(sb, "</ul>\n");
    else
        sb_puts(sb, "<p>gisa lint finds nothing to say, and no ruling changes these definitions.</p>\n");
}

void man_optype_page(const manual *m, const isa_optype *ot, strbuf *sb)
{
    const isa_opcode *first = &m->isa->opcodes[ot->opcodes[0]];
    html_begin(sb, ot->name, m->isa->target_name);
    sb_puts(sb, "<h1>");
    html_puts(sb, ot->name);
    sb_puts(sb, " <small>optype</small></h1>\n");
    page_head(m, first, ot, sb);
    heading(sb, "opcodes", "Opcodes");
    html_table(sb, "opcodes", "<th>opcode</th><th>syntax</th>");
    for (int k = 0; k < ot->nopcodes; k++) {
        const isa_opcode *op = &m->isa->opcodes[ot->opcodes[k]];
        sb_puts(sb, "<tr><td>");
        html_link(sb, "opcode", op->name);
        sb_puts(sb, "</td><td>");
        for (int f = 0; f < op->nforms; f++) {
            const char *t = op->forms[f].text;
            sb_puts(sb, f ? "<br><code>" : "<code>");
            html_puts(sb, t + strspn(t, " "));
            sb_puts(sb, "</code>");
        }
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n");
    heading(sb, "syntax", "Syntax as the document writes it");
    lines_pre(sb, "syntax", ot->def->syntax, ot->def->nsyntax);
    semantics(m, ot, sb);
    examples(m, ot, NULL, sb);
    man_notes(m, NULL, ot, sb);
    html_end(sb);
}

/* ------------------------------------------------------------------ opcode page */

static void modifiers(const isa_opcode *op, const syntax_form *F, strbuf *sb)
{
    if (!F->nmods)
        return;
    html_table(sb, "modifiers", "<th>modifier</th><th>values (default in bold)</th>"
                              "<th>field</th><th>notes</th>");
    for (int i = 0; i < F->nmods; i++) {
        const mod_slot *s = &F->mods[i];
        sb_puts(sb, "<tr><td><code>.");
        html_puts(sb, s->name);
        sb_puts(sb, "</code></td><td>");
        for (int c = 0; c < s->nchoices; c++) {
            sb_puts(sb, c == s->def_choice ? " <strong><code>." : " <code>.");
            html_puts(sb, s->choices[c].spell);
            sb_printf(sb, "</code>%s<small>=%llu</small>", c == s->def_choice ? "</strong>" : "",
                      (unsigned long long)s->choices[c].value);
        }
        sb_puts(sb, "</td><td>");
        if (s->field >= 0) {
            html_code(sb, op->fields[s->field].name);
        } else
            sb_puts(sb, "none");
        sb_puts(sb, "</td><td>");
        const char *sep = "";
        if (s->literal) {
            sb_puts(sb, s->optional ? "a flag: written or left out" : "a word the syntax requires");
            sep = "; ";
        }
        if (s->operand >= 0) {
            sb_printf(sb, "%ssuffix of <code>", sep);
            html_puts(sb, F->ops[s->operand].name);
            sb_puts(sb, "</code>");
            sep = "; ";
        }
        if (s->field < 0) {
            sb_printf(sb, "%sno encoding field: only the default can be written", sep);
            sep = "; ";
        } else if (s->optional && !s->literal)
            sb_printf(sb, "%soptional", sep);
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n");
}

/* Whether an operand-info list names the operand. */
static int lists_operand(const raw_opinfo *list, const isa_opcode *op, const opnd_slot *o)
{
    if (!list)
        return 0;
    if (o->kind == OK_PR || o->kind == OK_INDEXED)
        for (int i = 0; i < list->nnames; i++) {
            const char *n = list->names[i];
            if (o->kind == OK_PR ? !strcmp(n, "PR") : n[0] == 'R' && n[1] == '[')
                return 1;
        }
    return doc_list_names(list, op, o->field);
}

static void operand_width(const opnd_slot *o, strbuf *sb)
{
    if (o->kind == OK_REG && (o->type->rclass == RC_PRED || o->type->rclass == RC_UPRED))
        sb_puts(sb, "1");
    else if (o->kind == OK_PR)
        sb_puts(sb, "all predicates");
    else if (!o->bitwidth)
        sb_puts(sb, "32");
    else if (o->bitwidth->kind == EX_NUM)
        sb_printf(sb, "%lld", (long long)o->bitwidth->num);
    else {
        strbuf e;
        sb_init(&e);
        expr_print(o->bitwidth, &e);
        html_code(sb, e.s);
        sb_free(&e);
    }
}

static void operands(const isa_opcode *op, const syntax_form *F, strbuf *sb)
{
    if (!F->nops)
        return;
    html_table(sb, "operands", "<th>operand</th><th>kind</th><th>field</th><th>width</th>"
                              "<th>access</th><th>decorations</th>");
    for (int i = 0; i < F->nops; i++) {
        const opnd_slot *o = &F->ops[i];
        sb_puts(sb, "<tr><td><code>");
        html_puts(sb, o->name);
        sb_printf(sb, "</code>%s</td><td>", o->group ? " <small>(optional)</small>" : "");
        html_puts(sb, doc_operand_kind(o));
        sb_puts(sb, "</td><td>");
        if (o->field >= 0) {
            html_code(sb, op->fields[o->field].name);
        }
        sb_puts(sb, "</td><td>");
        operand_width(o, sb);
        int rd = lists_operand(op->inlist, op, o), wr = lists_operand(op->outlist, op, o);
        sb_printf(sb, "</td><td>%s</td><td>", rd && wr ? "read, written" : wr ? "written" : rd ? "read" : "\xE2\x80\x94");
        const char *sep = "";
        if (o->allow_neg) {
            sb_puts(sb, o->inv_field >= 0 ? "<code>-x</code> (<code>~x</code> with .X)" : "<code>-x</code>");
            sep = ", ";
        }
        if (o->allow_abs) {
            sb_printf(sb, "%s<code>|x|</code>", sep);
            sep = ", ";
        }
        if (o->allow_not) {
            sb_printf(sb, "%s<code>!p</code>", sep);
            sep = ", ";
        }
        if (o->sfx_slot >= 0) {
            sb_printf(sb, "%ssuffix <code>.", sep);
            html_puts(sb, F->mods[o->sfx_slot].name);
            sb_puts(sb, "</code>");
        }
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n");
}

static void exceptions(const isa_opcode *op, strbuf *sb)
{
    heading(sb, "exceptions", "Encoding rules");
    if (!op->nexceptions) {
        sb_puts(sb, "<p>None: every combination of field values the syntax allows is legal.</p>\n");
        return;
    }
    html_table(sb, "exceptions", "<th>error</th><th>message</th><th>when</th>");
    for (int e = 0; e < op->nexceptions; e++) {
        const isa_exception *x = &op->exceptions[e];
        sb_puts(sb, "<tr><td>");
        html_puts(sb, x->kind);
        sb_puts(sb, "</td><td>");
        html_puts(sb, x->message);
        sb_puts(sb, "</td><td><code>");
        strbuf c;
        sb_init(&c);
        if (x->cond)
            expr_print(x->cond, &c);
        html_puts(sb, c.s);
        sb_free(&c);
        sb_puts(sb, "</code></td></tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n");
}

void man_opcode_page(const manual *m, const isa_opcode *op, strbuf *sb)
{
    const isa_optype *ot = op->optype;
    html_begin(sb, op->name, m->isa->target_name);
    sb_puts(sb, "<h1>");
    html_puts(sb, op->name);
    sb_puts(sb, " <small>opcode</small></h1>\n");
    page_head(m, op, ot, sb);
    heading(sb, "syntax", "Syntax");
    for (int f = 0; f < op->nforms; f++) {
        const syntax_form *F = &op->forms[f];
        sb_printf(sb, "<section class=\"form\" id=\"form-%d\">\n<pre class=\"syntax\">", f);
        html_puts(sb, F->text + strspn(F->text, " "));
        sb_puts(sb, "</pre>\n");
        modifiers(op, F, sb);
        operands(op, F, sb);
        sb_puts(sb, "</section>\n");
    }
    heading(sb, "encoding", "Encoding");
    man_diagram(m, op, sb);
    exceptions(op, sb);
    man_notes(m, op, ot, sb);
    examples(m, ot, op, sb);
    semantics(m, ot, sb);
    html_end(sb);
}
