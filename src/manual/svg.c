/* The encoding diagram of an opcode: the word drawn 32 bits a row, bit
 * word_bits-1 at the top left as in the hex listings, one box per field
 * (a field that crosses a row is drawn in two boxes with the same
 * data-field), fixed bits with their values, bits no field covers marked
 * reserved with the 0 they must hold, the scheduling controls ($sched,
 * $req, $wsb) coloured apart. */
#include <string.h>

#include "manual/html.h"
#include "manual/manual.h"

enum {
    BIT_W = 26,   /* one bit's width */
    MARGIN = 8,
    NUM_H = 14,   /* the bit numbers above a row */
    BOX_H = 66,
    ROW_H = NUM_H + BOX_H + 12,
    FONT = 11,    /* label size; a monospace character is about 0.6 of it */
};

/* Characters of a label that fit `px` at the label font. */
static int fits(int px) { return px * 10 / (FONT * 6); }

static void label(strbuf *sb, const char *text, int x, int y, int w)
{
    int n = (int)strlen(text), room = fits(w - 4);
    if (n <= room) {
        sb_printf(sb, "<text class=\"lbl\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x + w / 2, y + 22);
        html_puts(sb, text);
    } else { /* narrow: written upwards, cut with an ellipsis when too long */
        room = fits(BOX_H - 22);
        sb_printf(sb, "<text class=\"lbl\" transform=\"translate(%d %d) rotate(-90)\">", x + w / 2 + FONT / 3,
                  y + BOX_H - 18);
        if (n <= room)
            html_puts(sb, text);
        else {
            html_text(sb, text, (size_t)room - 1);
            sb_puts(sb, "\xE2\x80\xA6");
        }
    }
    sb_puts(sb, "</text>");
}

static void span_title(const isa_opcode *op, const doc_span *s, strbuf *sb)
{
    sb_puts(sb, "<title>");
    if (s->field < 0) {
        html_printf(sb, "bits %d..%d: no field, must be 0", s->hi, s->lo);
    } else {
        const isa_field *f = &op->fields[s->field];
        html_printf(sb, "%s: bits %d..%d, %s", f->name, s->hi, s->lo, f->type ? f->type->name : "?");
        if (f->fixed || f->has_default) {
            strbuf v;
            sb_init(&v);
            doc_value_text(f, f->value, &v);
            html_printf(sb, "%s%s", f->fixed ? " == " : " = ", v.s ? v.s : "");
            sb_free(&v);
        }
    }
    sb_puts(sb, "</title>");
}

/* One box: the part of span s that lies in row r. */
static void segment(const isa_opcode *op, const doc_span *s, int word_bits, int r, strbuf *sb)
{
    int rhi = word_bits - 1 - 32 * r, rlo = rhi - 31;
    int hi = s->hi < rhi ? s->hi : rhi, lo = s->lo > rlo ? s->lo : rlo;
    if (hi < lo)
        return;
    const isa_field *f = s->field >= 0 ? &op->fields[s->field] : NULL;
    int x = MARGIN + (rhi - hi) * BIT_W, y = r * ROW_H + NUM_H, w = (hi - lo + 1) * BIT_W;
    const char *cls = !f ? "reserved" : f->name[0] == '$' ? "field ctl" : f->fixed ? "field fixed" : "field";
    sb_printf(sb, "<g><rect class=\"box %s\" data-field=\"", cls);
    html_puts(sb, f ? f->name : "");
    sb_printf(sb, "\" data-bits=\"%d:%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", s->hi, s->lo, x, y, w, BOX_H);
    span_title(op, s, sb);
    strbuf name; /* "optype=FFMA" where it fits, else the field's name */
    sb_init(&name);
    if (f && f->fixed) {
        char buf[32];
        const char *vn = f->type ? type_value_name(f->type, f->value, buf, sizeof buf) : NULL;
        if (vn)
            sb_printf(&name, "%s=%s", f->name, vn);
        else
            sb_printf(&name, "%s=%llu", f->name, (unsigned long long)f->value);
        if (name.s && (int)name.len > fits(w - 4))
            name.len = 0;
    }
    if (!name.len)
        sb_puts(&name, f ? f->name : fits(w - 4) >= 8 ? "reserved" : "");
    if (name.len)
        label(sb, name.s, x, y, w);
    sb_free(&name);
    if (!f || f->fixed) { /* the bits' values, one per cell */
        for (int b = hi; b >= lo; b--) {
            int bit = f ? (int)(f->value >> (b - s->lo) & 1) : 0;
            sb_printf(sb, "<text class=\"bit\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>",
                      MARGIN + (rhi - b) * BIT_W + BIT_W / 2, y + BOX_H - 6, bit);
        }
    }
    if (hi > lo) { /* ticks between the bits of a field */
        sb_puts(sb, "<path class=\"tick\" d=\"");
        for (int k = 1; k <= hi - lo; k++)
            sb_printf(sb, "M%d %dv-5", x + k * BIT_W, y + BOX_H);
        sb_puts(sb, "\"/>");
    }
    sb_puts(sb, "</g>\n");
}

static void field_table(const isa_opcode *op, const doc_span *spans, int n, strbuf *sb)
{
    html_table(sb, "fields", "<th>bits</th><th>field</th><th>type</th><th>value</th>");
    for (int k = 0; k < n; k++) {
        const doc_span *s = &spans[k];
        if (s->hi == s->lo)
            sb_printf(sb, "<tr><td>%d</td>", s->hi);
        else
            sb_printf(sb, "<tr><td>%d..%d</td>", s->hi, s->lo);
        if (s->field < 0) {
            sb_puts(sb, "<td class=\"reserved\">reserved</td><td></td><td>must be 0</td></tr>\n");
            continue;
        }
        const isa_field *f = &op->fields[s->field];
        sb_puts(sb, "<td><code>");
        html_puts(sb, f->name);
        sb_puts(sb, "</code></td><td>");
        html_puts(sb, f->type ? f->type->name : "?");
        sb_puts(sb, "</td><td>");
        if (f->fixed || f->has_default) {
            strbuf v;
            sb_init(&v);
            doc_value_text(f, f->value, &v);
            sb_puts(sb, f->fixed ? "fixed: " : "default: ");
            html_puts(sb, v.s);
            sb_free(&v);
        }
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n");
}

void man_diagram(const manual *m, const isa_opcode *op, strbuf *sb)
{
    int word_bits = m->isa->word_bits, rows = (word_bits + 31) / 32;
    doc_span spans[DOC_MAX_SPANS];
    int n = doc_layout(op, word_bits, spans, DOC_MAX_SPANS);
    int width = 2 * MARGIN + 32 * BIT_W, height = rows * ROW_H;
    sb_printf(sb, "<figure class=\"encoding\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diagram\" "
                  "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"encoding of ",
              width, height, width, height);
    html_puts(sb, op->name);
    sb_puts(sb, "\">\n");
    for (int r = 0; r < rows; r++) {
        int rhi = word_bits - 1 - 32 * r;
        for (int b = 0; b < 32; b++)
            sb_printf(sb, "<text class=\"num\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>",
                      MARGIN + b * BIT_W + BIT_W / 2, r * ROW_H + NUM_H - 3, rhi - b);
        sb_putc(sb, '\n');
        for (int k = 0; k < n; k++)
            segment(op, &spans[k], word_bits, r, sb);
    }
    sb_puts(sb, "</svg>\n<figcaption><span class=\"key fixed\"></span> fixed (opcode) bits "
                "<span class=\"key field\"></span> operand and modifier fields "
                "<span class=\"key ctl\"></span> scheduling controls "
                "<span class=\"key reserved\"></span> reserved (must be 0)</figcaption>\n</figure>\n");
    field_table(op, spans, n, sb);
}
