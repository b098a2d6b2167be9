/* `gisa lint`: consistency checks over the loaded model. Structural faults
 * (overlaps, decode ambiguity, widths, unknown names) are errors; places
 * where the documents contradict themselves (errata, rulings applied,
 * spellings, examples that do not assemble) are warnings. Each problem is
 * reported once, at the definition that causes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "spec/load.h"
#include "spec/model.h"

/* Distinct problems reported before lint stops: a hostile description (say
 * 100,000 identical opcodes) has billions of pairwise problems, and each
 * would cost memory and time. Real descriptions have a few dozen. */
#define LINT_MAX_REPORTS 10000

typedef struct linter {
    const gisa_isa *isa;
    gisa_diags *diags;
    int errors;
    strmap seen;
    arena keys;
} linter;

static void emit(linter *L, gisa_severity sev, const char *category, const srcloc *at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int full(const linter *L) { return L->seen.count >= LINT_MAX_REPORTS; }

static void emit(linter *L, gisa_severity sev, const char *category, const srcloc *at, const char *fmt, ...)
{
    if (full(L))
        return;
    strbuf sb;
    sb_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    if (!sb.s)
        return;
    char key[64];
    snprintf(key, sizeof key, "%p:%d:", (const void *)(at ? at->file : NULL), at ? at->line : 0);
    size_t kl = strlen(key);
    char *k = arena_alloc(&L->keys, kl + sb.len + 1);
    if (k) {
        memcpy(k, key, kl);
        memcpy(k + kl, sb.s, sb.len + 1);
        if (strmap_get(&L->seen, k, kl + sb.len) >= 0) {
            sb_free(&sb);
            return;
        }
        strmap_put(&L->seen, k, kl + sb.len, 1);
    }
    srcloc loc = {0};
    if (at) { /* where the definition starts: its line, and its column (or the first) */
        loc.file = at->file;
        loc.line = at->line;
        loc.col = at->line > 0 ? (at->col > 0 ? at->col : 1) : 0;
        loc.len = at->len;
    }
    diag_add(L->diags, sev, &loc, "%s", sb.s);
    diag_set_category(L->diags, category);
    if (sev == GISA_ERROR)
        L->errors++;
    sb_free(&sb);
}

/* ------------------------------------------------------------------ types */

static int is_alias(const isa_type *t, const char *name)
{
    for (int v = 0; v < t->nvalues; v++)
        if (t->values[v].alias && !strcmp(t->values[v].name, name))
            return 1;
    return 0;
}

static void lint_types(linter *L)
{
    const gisa_isa *isa = L->isa;
    for (int i = 0; i < isa->ntypes; i++) {
        const isa_type *t = &isa->types[i];
        if (t->kind != TY_ENUM)
            continue;
        for (int v = 0; v < t->nvalues; v++) {
            if (t->width < 64 && t->values[v].value >> t->width)
                emit(L, GISA_ERROR, NULL, &t->values[v].loc, "value %s = %llu of type %s does not fit its %d bits", t->values[v].name,
                     (unsigned long long)t->values[v].value, t->name, t->width);
            for (int w = 0; w < v && !t->values[v].alias; w++)
                if (t->values[w].value == t->values[v].value)
                    emit(L, GISA_WARNING, "shared-value", &t->values[v].loc, "values %s and %s of type %s share the number %llu", t->values[w].name, t->values[v].name,
                         t->name, (unsigned long long)t->values[v].value);
        }
    }
}

/* ------------------------------------------------------------------ fields */

static void lint_fields(linter *L, const isa_opcode *op)
{
    for (int i = 0; i < op->nfields && !full(L); i++) {
        const isa_field *f = &op->fields[i];
        const isa_type *t = f->type;
        if (f->width > t->width)
            emit(L, GISA_ERROR, NULL, &f->loc, "field %s is %d bits wide, wider than its type %s (%d bits)", f->name, f->width, t->name, t->width);
        else if (f->width < t->width && t->kind != TY_IMM)
            emit(L, GISA_WARNING, "narrow-field", &f->loc, "field %s is %d bits wide, narrower than its type %s (%d bits)", f->name, f->width, t->name, t->width);
        if ((f->fixed || f->has_default) && f->width < 64 && f->value >> f->width)
            emit(L, GISA_ERROR, NULL, &f->loc, "the value %llu of field %s does not fit its %d bits", (unsigned long long)f->value, f->name, f->width);
        for (int j = 0; j < i; j++) {
            const isa_field *g = &op->fields[j];
            int lo = f->off > g->off ? f->off : g->off;
            int hi = f->off + f->width < g->off + g->width ? f->off + f->width : g->off + g->width;
            if (lo < hi)
                emit(L, GISA_ERROR, NULL, &f->loc, "fields %s and %s of %s overlap in bits %d..%d", g->name, f->name, op->name, hi - 1, lo);
        }
    }
}

static void lint_ambiguity(linter *L)
{
    const gisa_isa *isa = L->isa;
    for (int i = 0; i < isa->nopcodes && !full(L); i++)
        for (int j = 0; j < i; j++) {
            const isa_opcode *a = &isa->opcodes[i], *b = &isa->opcodes[j];
            if (((a->match.w[0] ^ b->match.w[0]) & a->mask.w[0] & b->mask.w[0]) == 0 &&
                ((a->match.w[1] ^ b->match.w[1]) & a->mask.w[1] & b->mask.w[1]) == 0)
                emit(L, GISA_ERROR, NULL, &a->def->loc, "decode ambiguity: the fixed bits of %s and %s can match the same word", b->name, a->name);
        }
}

/* ------------------------------------------------------------------ syntax */

static int is_free(const syntax_form *F, int field)
{
    for (int i = 0; i < F->nfree; i++)
        if (F->free_fields[i] == field)
            return 1;
    return 0;
}

static void lint_syntax(linter *L, const isa_opcode *op)
{
    for (int k = 0; k < op->nforms; k++) {
        const syntax_form *F = &op->forms[k];
        for (int j = 0; j < F->nmods; j++) {
            const mod_slot *m = &F->mods[j];
            if (m->operand >= 0 && F->ops[m->operand].kind == OK_IMM)
                continue; /* a literal has no half selector: nothing to encode */
            if (m->field < 0) {
                if (m->def_choice >= 0)
                    emit(L, GISA_WARNING, "unencodable-modifier", &F->loc, "%s: modifier .%s has no encoding field: only its default .%s can be written", F->mnemonic, m->name,
                         m->choices[m->def_choice].spell);
                else
                    emit(L, GISA_WARNING, "unencodable-modifier", &F->loc, "%s: modifier .%s has no encoding field: it cannot be written", F->mnemonic, m->name);
                continue;
            }
            const isa_field *f = &op->fields[m->field];
            if (f->fixed && m->nchoices > 1)
                emit(L, GISA_ERROR, NULL, &f->loc, "%s: field %s is fixed (==) but the syntax lets .%s choose between %d values (a typo for '='?)",
                     op->name, f->name, m->name, m->nchoices);
            for (int c = 0; c < m->nchoices; c++) {
                char buf[32];
                const char *tn = type_value_name(f->type, m->choices[c].value, buf, sizeof buf);
                if (tn && strcmp(tn, m->choices[c].spell) && !is_alias(f->type, m->choices[c].spell))
                    emit(L, GISA_WARNING, "spelling", &F->loc, "%s: the syntax spells .%s what type %s calls %s (field %s)", F->mnemonic, m->choices[c].spell,
                         f->type->name, tn, f->name);
            }
            if (!m->literal && m->def_choice >= 0 && f->has_default && m->choices[m->def_choice].value != f->value)
                emit(L, GISA_WARNING, "default-mismatch", &F->loc, "%s: the syntax default .%s differs from the encoding default of field %s", F->mnemonic,
                     m->choices[m->def_choice].spell, f->name);
        }
        for (int j = 0; j < F->nops; j++) {
            const opnd_slot *s = &F->ops[j];
            if (s->kind == OK_IMM)
                continue; /* '-' on an immediate is part of its value */
            if (s->allow_neg && s->neg_field < 0)
                emit(L, GISA_WARNING, "decoration", &F->loc, "%s: the syntax allows '-' on %s but %s has no field %s.neg for it", F->mnemonic, s->name, op->name,
                     s->field >= 0 ? op->fields[s->field].name : s->name);
            if (s->allow_abs && s->abs_field < 0)
                emit(L, GISA_WARNING, "decoration", &F->loc, "%s: the syntax allows |x| on %s but %s has no field for it", F->mnemonic, s->name, op->name);
            if (s->allow_not && s->not_field < 0)
                emit(L, GISA_WARNING, "decoration", &F->loc, "%s: the syntax allows '!' on %s but %s has no field for it", F->mnemonic, s->name, op->name);
        }
    }
    /* a field that no form sets keeps its default forever */
    for (int i = 0; i < op->nfields; i++) {
        const isa_field *f = &op->fields[i];
        if (f->fixed || f->name[0] == '$' || i == op->guard || i == op->guard_not)
            continue;
        int set = 0;
        for (int k = 0; k < op->nforms && !set; k++)
            set = is_free(&op->forms[k], i);
        if (!set)
            emit(L, GISA_WARNING, "unused-field", &f->loc, "field %s of %s (bits %d..%d) is set by no syntax form: it always holds %s", f->name, op->name,
                 f->off + f->width - 1, f->off, f->has_default ? "its default" : "the zero register or 0");
    }
}

/* ------------------------------------------------------------------ operand info */

static const char *role(const char *n, char *buf, size_t cap)
{
    /* rb/urb/vb are one operand in different variants; likewise c, pc/upc */
    if ((n[0] == 'r' || n[0] == 'v') && n[1] && !n[2] && n[1] >= 'b' && n[1] <= 'c')
        snprintf(buf, cap, "src%c", n[1]);
    else if (n[0] == 'u' && n[1] == 'r' && n[2] && !n[3] && n[2] >= 'b' && n[2] <= 'c')
        snprintf(buf, cap, "src%c", n[2]);
    else if (n[0] == 'u' && n[1] == 'p')
        snprintf(buf, cap, "%s", n + 1);
    else
        snprintf(buf, cap, "%s", n);
    return buf;
}

/* A directive in a group or optype may name a field only some variants have. */
static int descendant_has_field(const gisa_isa *isa, const raw_def *d, const char *name)
{
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        for (int c = 0; c < op->nchain; c++)
            if (op->chain[c] == d && model_field(op, name) >= 0)
                return 1;
    }
    return 0;
}

static void lint_opinfo(linter *L, const isa_opcode *op)
{
    const raw_opinfo *lists[3] = {op->inlist, op->outlist, op->order};
    static const char *const names[3] = {"InList", "OutList", "Order"};
    for (int k = 0; k < 3; k++) {
        const raw_opinfo *oi = lists[k];
        if (!oi)
            continue;
        for (int i = 0; i < oi->nnames; i++) {
            const char *n = oi->names[i];
            if (!strcmp(n, "PR"))
                continue;
            char inner[64];
            if (n[0] == 'R' && n[1] == '[') { /* R[urb, ridx] */
                const char *p = n + 2;
                while (*p) {
                    while (*p == ' ' || *p == ',')
                        p++;
                    size_t len = strcspn(p, ", ]");
                    if (!len)
                        break;
                    snprintf(inner, sizeof inner, "%.*s", (int)(len < 60 ? len : 60), p);
                    if (model_field(op, inner) < 0)
                        emit(L, GISA_ERROR, NULL, &oi->name_locs[i], "%s of %s names '%s', which is not a field", names[k], op->name, inner);
                    p += len;
                    if (*p == ']')
                        break;
                }
                continue;
            }
            if (model_field(op, n) < 0)
                emit(L, GISA_ERROR, NULL, &oi->name_locs[i], "%s of %s names '%s', which is not a field", names[k], op->name, n);
        }
    }
    for (int c = 0; c < op->nchain; c++)
        for (int i = 0; i < op->chain[c]->nopinfo; i++) {
            const raw_opinfo *oi = &op->chain[c]->opinfo[i];
            if ((oi->kind == OI_BITWIDTH || oi->kind == OI_ASMFORMAT) && model_field(op, oi->names[0]) < 0 &&
                !descendant_has_field(L->isa, op->chain[c], oi->names[0]))
                emit(L, GISA_ERROR, NULL, &oi->loc, "%s names '%s', which is not a field of %s", oi->kind == OI_BITWIDTH ? "Bitwidth" : "AsmFormat",
                     oi->names[0], op->name);
            if (oi->kind == OI_ASMFORMAT && strcmp(oi->func, "CvtINegX") && strcmp(oi->func, "CvtFImm"))
                emit(L, GISA_WARNING, "asm-format", &oi->loc, "unknown AsmFormat function %s (known: CvtINegX, CvtFImm); it is ignored", oi->func);
        }
}

static void order_roles(const raw_opinfo *oi, char *out, size_t cap)
{
    out[0] = 0;
    for (int i = 0; oi && i < oi->nnames; i++) {
        char buf[64];
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "%s%s", i ? ", " : "", role(oi->names[i], buf, sizeof buf));
    }
}

static void lint_siblings(linter *L)
{
    const gisa_isa *isa = L->isa;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        if (ot->nopcodes < 2)
            continue;
        char ref[512], cur[512];
        /* the order most siblings use is the reference */
        int best = -1, bestn = -1;
        for (int i = 0; i < ot->nopcodes; i++) {
            if (!isa->opcodes[ot->opcodes[i]].order)
                continue; /* no Order<> is no opinion */
            order_roles(isa->opcodes[ot->opcodes[i]].order, ref, sizeof ref);
            int n = 0;
            for (int j = 0; j < ot->nopcodes; j++) {
                if (!isa->opcodes[ot->opcodes[j]].order)
                    continue;
                order_roles(isa->opcodes[ot->opcodes[j]].order, cur, sizeof cur);
                n += !strcmp(ref, cur);
            }
            if (n > bestn) {
                bestn = n;
                best = i;
            }
        }
        if (best < 0)
            continue;
        order_roles(isa->opcodes[ot->opcodes[best]].order, ref, sizeof ref);
        for (int i = 0; i < ot->nopcodes; i++) {
            const isa_opcode *op = &isa->opcodes[ot->opcodes[i]];
            order_roles(op->order, cur, sizeof cur);
            if (strcmp(ref, cur) && op->order)
                emit(L, GISA_WARNING, "operand-order", &op->order->loc, "%s: operand order <%s> differs from its siblings' <%s>", op->name, cur, ref);
        }
    }
}

/* ------------------------------------------------------------------ documents */

/* "IMAD.WIDE" has the parts IMAD and WIDE */
static int mnemonic_has_part(const char *m, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = m; *p;) {
        size_t n = strcspn(p, ".");
        if (n == wl && !strncmp(p, word, wl))
            return 1;
        p += n + (p[n] == '.');
    }
    return 0;
}

static void lint_names(linter *L)
{
    const gisa_isa *isa = L->isa;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        const isa_opcode *op = &isa->opcodes[ot->opcodes[0]];
        for (int k = 0; k < op->nforms; k++) {
            const char *m = op->forms[k].mnemonic;
            char flat[128];
            size_t n = 0;
            for (const char *p = m; *p && n + 1 < sizeof flat; p++)
                flat[n++] = *p == '.' ? '_' : *p;
            flat[n] = 0;
            char nodot[128];
            n = 0;
            for (const char *p = m; *p && n + 1 < sizeof nodot; p++)
                if (*p != '.')
                    nodot[n++] = *p;
            nodot[n] = 0;
            if (strcmp(m, ot->name) && (!strcmp(flat, ot->name) || !strcmp(nodot, ot->name)))
                emit(L, GISA_WARNING, "optype-name", &ot->def->loc, "optype %s is written %s in assembly", ot->name, m);
        }
        /* pseudo-code headers such as "ISETP.compop.boolop.itype.EX pu, ...:" */
        for (int s = 0; s < ot->def->nsemantics; s++) {
            const raw_line *rl = &ot->def->semantics[s];
            const char *p = rl->text;
            while (*p == ' ')
                p++;
            size_t ml = strcspn(p, ". ");
            size_t len = strlen(p);
            while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
                len--;
            if (!ml || len < 2 || p[len - 1] != ':' || strncmp(p, op->forms[0].mnemonic, ml) || p[ml] != '.')
                continue;
            const char *w = p + ml;
            while (*w == '.') {
                w++;
                size_t wl = strcspn(w, ". ");
                char word[64];
                snprintf(word, sizeof word, "%.*s", (int)(wl < 60 ? wl : 60), w);
                w += wl;
                int known = model_field(op, word) >= 0;
                for (int k = 0; k < op->nforms && !known; k++) {
                    const syntax_form *F = &op->forms[k];
                    known = mnemonic_has_part(F->mnemonic, word);
                    for (int j = 0; j < F->nmods && !known; j++) {
                        known = !strcmp(F->mods[j].name, word);
                        for (int c = 0; c < F->mods[j].nchoices && !known; c++)
                            known = !strcmp(F->mods[j].choices[c].spell, word);
                    }
                }
                if (!known)
                    emit(L, GISA_WARNING, "pseudo-code", &rl->loc, "%s: the pseudo-code writes .%s, which no syntax line of %s has", ot->name, word, ot->name);
            }
        }
    }
}

static void lint_examples(linter *L)
{
    const gisa_isa *isa = L->isa;
    gisa_diags *d = diags_alloc();
    if (!d)
        return;
    for (int i = 0; i < isa->raw.ndefs; i++) {
        const raw_def *def = isa->raw.defs[i];
        for (int e = 0; e < def->nexamples; e++) {
            const raw_line *rl = &def->examples[e];
            gisa_word *w = NULL;
            size_t n = 0;
            gisa_diags_clear(d);
            if (isa->tools.assemble(isa, rl->loc.file, rl->text, strlen(rl->text), NULL, &w, &n, d) == GISA_OK) {
                free(w);
                continue;
            }
            const gisa_diag *g = gisa_diags_get(d, 0);
            const char *t = rl->text;
            while (*t == ' ')
                t++;
            emit(L, GISA_WARNING, "example", &rl->loc, "example `%.*s` matches no syntax form: %s", (int)strcspn(t, ";/"), t, g ? g->message : "error");
        }
    }
    gisa_diags_free(d);
}

static const char *const categories[] = {
    "asm-format", "decoration", "default-mismatch", "example", "narrow-field", "operand-order", "optype-name",
    "pseudo-code", "ruling", "shared-value", "spelling", "stale-erratum", "unencodable-modifier", "unused-field",
};

const char *gisa_isa_lint_category(size_t i)
{
    return i < sizeof categories / sizeof *categories ? categories[i] : NULL;
}

gisa_status spec_lint(const gisa_isa *isa, gisa_diags *diags)
{
    if (!isa)
        return GISA_ERR_USAGE;
    linter L = {isa, diags, 0, {0}, {0}};
    strmap_init(&L.seen);
    arena_init(&L.keys);
    for (int r = 0; r < isa->nrulings; r++) {
        const raw_def *rd = isa->rulings[r].ruling;
        /* semantic patches are listed by the semantics layer with their reasons,
         * acknowledged findings where they are found (errata.c) */
        if (!rd->nfields && !rd->has_syntax && !rd->nexceptions && !rd->nopinfo &&
            (rd->nsempatch || rd->nsemantics || rd->nerrata))
            continue;
        /* the erratum is the ruling's own correction: a note (-Wruling: a warning) */
        emit(&L, GISA_NOTE, "ruling", &isa->rulings[r].target->loc, "erratum corrected by ruling (%s:%d): %s", isa->rulings[r].ruling->loc.file,
             isa->rulings[r].ruling->loc.line, isa->rulings[r].ruling->description ? isa->rulings[r].ruling->description : "");
    }
    lint_types(&L);
    for (int i = 0; i < isa->nopcodes && !full(&L); i++) {
        lint_fields(&L, &isa->opcodes[i]);
        lint_syntax(&L, &isa->opcodes[i]);
        lint_opinfo(&L, &isa->opcodes[i]);
    }
    lint_ambiguity(&L);
    lint_siblings(&L);
    lint_names(&L);
    lint_examples(&L);
    if (full(&L)) {
        diag_add(diags, GISA_ERROR, NULL, "more than %d problems: lint stopped", LINT_MAX_REPORTS);
        L.errors++;
    }
    strmap_free(&L.seen);
    arena_free(&L.keys);
    return L.errors ? GISA_ERR_INPUT : GISA_OK;
}
