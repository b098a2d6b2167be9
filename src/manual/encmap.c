/* The encoding-space map: for each field that some opcode fixes (Optype,
 * SType; Fermi's cls, op, src), which values are taken and by whom, so
 * that an ISA author sees where a new instruction can go. A field that is
 * the same in all the opcodes of every optype that fixes it selects the
 * optype: it gets a grid of all its values. One that varies inside an
 * optype selects the opcode: it gets a table, an optype a row and a value
 * a column. */
#include <stdlib.h>
#include <string.h>

#include "manual/html.h"
#include "manual/manual.h"

enum { GRID_MAX_BITS = 10, MATRIX_MAX_BITS = 6 };

/* A fixed field, by name and type, and whether it varies inside an optype. */
typedef struct fixed_key {
    const char *name;
    const isa_type *type;
    int width;
    int per_opcode;
} fixed_key;

static int find_field(const isa_opcode *op, const fixed_key *k)
{
    for (int i = 0; i < op->nfields; i++)
        if (op->fields[i].fixed && op->fields[i].type == k->type && !strcmp(op->fields[i].name, k->name))
            return i;
    return -1;
}

static int collect_keys(const gisa_isa *isa, fixed_key *keys, int cap)
{
    int n = 0;
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        for (int f = 0; f < op->nfields; f++) {
            const isa_field *fl = &op->fields[f];
            int seen = 0;
            for (int k = 0; k < n && !seen; k++)
                seen = keys[k].type == fl->type && !strcmp(keys[k].name, fl->name);
            if (fl->fixed && !seen && n < cap)
                keys[n++] = (fixed_key){fl->name, fl->type, fl->width, 0};
        }
    }
    for (int k = 0; k < n; k++)
        for (int t = 0; t < isa->noptypes && !keys[k].per_opcode; t++) {
            const isa_optype *ot = &isa->optypes[t];
            int have = -1;
            uint64_t v = 0;
            for (int j = 0; j < ot->nopcodes; j++) {
                const isa_opcode *op = &isa->opcodes[ot->opcodes[j]];
                int f = find_field(op, &keys[k]);
                if (have >= 0 && (f >= 0) != have)
                    keys[k].per_opcode = 1;
                else if (have == 1 && f >= 0 && op->fields[f].value != v)
                    keys[k].per_opcode = 1;
                have = f >= 0;
                if (f >= 0)
                    v = op->fields[f].value;
            }
        }
    return n;
}

static void value_head(const fixed_key *k, uint64_t v, strbuf *sb)
{
    char buf[32];
    const char *name = k->type ? type_value_name(k->type, v, buf, sizeof buf) : NULL;
    sb_printf(sb, "<span class=\"code\">0x%llX</span>", (unsigned long long)v);
    if (name) {
        sb_puts(sb, " <small>");
        html_puts(sb, name);
        sb_puts(sb, "</small>");
    }
}

/* The optypes whose opcodes fix key k at value v, as links, each with the
 * values of the other optype-selecting fields (keys[0..nkeys)). */
static int optypes_at(const gisa_isa *isa, const fixed_key *k, uint64_t v, const fixed_key *keys, int nkeys,
                      strbuf *sb)
{
    int n = 0;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        int uses = 0;
        for (int j = 0; j < ot->nopcodes && !uses; j++) {
            const isa_opcode *op = &isa->opcodes[ot->opcodes[j]];
            int f = find_field(op, k);
            uses = f >= 0 && op->fields[f].value == v;
        }
        if (!uses)
            continue;
        if (sb) {
            sb_puts(sb, n ? "<br>" : "");
            html_link(sb, "optype", ot->name);
            const isa_opcode *op = &isa->opcodes[ot->opcodes[0]];
            for (int i = 0; i < nkeys; i++) {
                int f = &keys[i] == k || keys[i].per_opcode ? -1 : find_field(op, &keys[i]);
                if (f < 0)
                    continue;
                sb_puts(sb, " <small>");
                html_printf(sb, "%s=%llu", keys[i].name, (unsigned long long)op->fields[f].value);
                sb_puts(sb, "</small>");
            }
        }
        n++;
    }
    return n;
}

static void grid(const gisa_isa *isa, const fixed_key *k, const fixed_key *keys, int nkeys, strbuf *sb)
{
    uint64_t nvals = UINT64_C(1) << k->width, used = 0;
    for (uint64_t v = 0; v < nvals; v++)
        used += optypes_at(isa, k, v, keys, nkeys, NULL) > 0;
    sb_printf(sb, "<p>%llu of %llu values used, %llu free.</p>\n", (unsigned long long)used, (unsigned long long)nvals,
              (unsigned long long)(nvals - used));
    int cols = k->width >= 4 ? 16 : (int)nvals;
    sb_puts(sb, "<table class=\"grid\">\n<tbody>\n");
    for (uint64_t v = 0; v < nvals; v++) {
        if (v % (uint64_t)cols == 0)
            sb_puts(sb, "<tr>");
        int taken = optypes_at(isa, k, v, keys, nkeys, NULL) > 0;
        sb_printf(sb, "<td class=\"%s\">", taken ? "used" : "free");
        value_head(k, v, sb);
        sb_puts(sb, "<br>");
        if (taken)
            optypes_at(isa, k, v, keys, nkeys, sb);
        else
            sb_puts(sb, "free");
        sb_puts(sb, "</td>");
        if (v % (uint64_t)cols == (uint64_t)cols - 1 || v + 1 == nvals)
            sb_puts(sb, "</tr>\n");
    }
    sb_puts(sb, "</tbody>\n</table>\n");
}

/* Only the used values, for fields too wide for a grid. */
static void used_list(const gisa_isa *isa, const fixed_key *k, strbuf *sb)
{
    sb_puts(sb, "<ul>\n");
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        int f = find_field(op, k);
        if (f < 0)
            continue;
        sb_puts(sb, "<li>");
        value_head(k, op->fields[f].value, sb);
        sb_puts(sb, ": ");
        html_link(sb, "opcode", op->name);
        sb_puts(sb, "</li>\n");
    }
    sb_puts(sb, "</ul>\n");
}

static void matrix(const gisa_isa *isa, const fixed_key *k, strbuf *sb)
{
    uint64_t nvals = UINT64_C(1) << k->width;
    sb_puts(sb, "<table class=\"matrix\">\n<thead><tr><th>optype</th>");
    for (uint64_t v = 0; v < nvals; v++) {
        sb_puts(sb, "<th>");
        value_head(k, v, sb);
        sb_puts(sb, "</th>");
    }
    sb_puts(sb, "<th>free</th></tr></thead>\n<tbody>\n");
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        int any = 0;
        for (int j = 0; j < ot->nopcodes && !any; j++)
            any = find_field(&isa->opcodes[ot->opcodes[j]], k) >= 0;
        if (!any)
            continue;
        sb_puts(sb, "<tr><th>");
        html_link(sb, "optype", ot->name);
        sb_puts(sb, "</th>");
        uint64_t nfree = 0;
        for (uint64_t v = 0; v < nvals; v++) {
            int shown = 0;
            for (int j = 0; j < ot->nopcodes; j++) {
                const isa_opcode *op = &isa->opcodes[ot->opcodes[j]];
                int f = find_field(op, k);
                if (f < 0 || op->fields[f].value != v)
                    continue;
                sb_puts(sb, shown++ ? " " : "<td class=\"used\">");
                html_link(sb, "opcode", op->name);
            }
            if (!shown)
                nfree++;
            sb_puts(sb, shown ? "</td>" : "<td class=\"free\">\xC2\xB7</td>");
        }
        sb_printf(sb, "<td>%llu</td></tr>\n", (unsigned long long)nfree);
    }
    sb_puts(sb, "</tbody>\n</table>\n");
}

void man_encoding_page(const manual *m, strbuf *sb)
{
    const gisa_isa *isa = m->isa;
    fixed_key keys[64];
    int n = collect_keys(isa, keys, 64);
    html_begin(sb, "Encoding space", isa->target_name);
    sb_puts(sb, "<h1>Encoding space</h1>\n<p>The fields an opcode fixes (its <code>==</code> fields) and the values "
                "they take. A free value is where a new instruction can go: a free optype code for a new optype, "
                "a free cell in an optype's row for a new opcode of it.</p>\n");
    int selecting = 0;
    for (int i = 0; i < n; i++)
        selecting += !keys[i].per_opcode;
    if (selecting > 1)
        sb_puts(sb, "<p>Several fields select the optype together: a value taken in one of them is free again "
                    "with other values of the others (shown beside each optype).</p>\n");
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const fixed_key *k = &keys[i];
            if (k->per_opcode != pass)
                continue;
            sb_puts(sb, "<h2 id=\"field-");
            html_id(sb, k->name);
            sb_putc(sb, '-');
            html_id(sb, k->type ? k->type->name : "");
            sb_puts(sb, "\">Field <code>");
            html_puts(sb, k->name);
            sb_puts(sb, "</code> (");
            html_puts(sb, k->type ? k->type->name : "?");
            sb_printf(sb, ", %d bits): %s</h2>\n", k->width, pass ? "selects the opcode within an optype" : "selects the optype");
            if (!pass && k->width <= GRID_MAX_BITS)
                grid(isa, k, keys, n, sb);
            else if (pass && k->width <= MATRIX_MAX_BITS)
                matrix(isa, k, sb);
            else
                used_list(isa, k, sb);
        }
    html_end(sb);
}
