/* Syntax forms: parses the lines of a __Syntax block
 *     FFMA{.FTZ}{.SAT}{.rnd} Rd, {-}{|}Ra{|}, {-}{|}SrcB{|}, {-}{|}SrcC{|}  $sched $req ;
 *     .rnd = {.RN*, .RP, .RM, .RZ}
 * and maps every modifier and operand onto an opcode's fields. The mapping
 * rules are documented in docs/isa-language.md ("From syntax to fields"). */
#include <stdio.h>
#include <string.h>

#include "spec/model.h"

#define MAX_SLOTS 24
#define MAX_OPS 16
#define MAX_LISTS 16
#define MAX_CHOICES 64

typedef struct vlist {
    const char *name;
    mod_choice choices[MAX_CHOICES]; /* value = index into list before mapping */
    int nchoices, def;
    srcloc loc;
} vlist;

typedef struct sctx {
    gisa_isa *isa;
    isa_opcode *op;
    gisa_diags *diags;
    int errors;
    vlist lists[MAX_LISTS];
    int nlists;
    srcloc line;
} sctx;

static void serr(sctx *s, int col0, int len, const char *fmt, const char *a1, const char *a2)
{
    srcloc l = s->line;
    l.col = col0 + 1;
    l.len = len > 0 ? len : 1;
    diag_add(s->diags, GISA_ERROR, &l, fmt, a1 ? a1 : "", a2 ? a2 : "");
    s->errors++;
}

static const char *dupn(sctx *s, const char *p, size_t n) { return arena_strndup(&s->isa->a, p, n); }

/* ---------------------------------------------------------------- value lists */

static int parse_value_list(sctx *s, cursor *c)
{
    cursor t = *c;
    cur_skip_ws(&t);
    size_t col = t.i;
    if (cur_peek(&t) == '.')
        t.i++;
    const char *nm;
    size_t n = cur_ident(&t, &nm);
    if (!n || !cur_eat(&t, '=') || !cur_eat(&t, '{'))
        return 0; /* not a value list */
    if (s->nlists == MAX_LISTS) {
        serr(s, (int)col, 1, "too many value lists in one syntax block%s%s", NULL, NULL);
        return 1;
    }
    vlist *v = &s->lists[s->nlists];
    memset(v, 0, sizeof *v);
    v->name = dupn(s, nm, n);
    v->def = -1;
    v->loc = s->line;
    v->loc.col = (int)col + 1;
    v->loc.len = (int)n + 1;
    for (;;) {
        cur_skip_ws(&t);
        if (cur_peek(&t) == '}') {
            t.i++;
            break;
        }
        size_t ic = t.i;
        if (!cur_eat(&t, '.')) {
            serr(s, (int)t.i, 1, "expected '.VALUE' in the value list of .%s%s", v->name, NULL);
            return 1;
        }
        const char *w;
        size_t wn = cur_word(&t, &w);
        if (!wn) {
            serr(s, (int)t.i, 1, "expected a value name after '.' in .%s%s", v->name, NULL);
            return 1;
        }
        if (v->nchoices == MAX_CHOICES) {
            serr(s, (int)ic, 1, "too many values in .%s%s", v->name, NULL);
            return 1;
        }
        for (int k = 0; k < v->nchoices; k++)
            if (strlen(v->choices[k].spell) == wn && !memcmp(v->choices[k].spell, w, wn)) {
                serr(s, (int)ic, (int)wn + 1, "value .%s is listed twice in .%s", dupn(s, w, wn), v->name);
                return 1;
            }
        v->choices[v->nchoices].spell = dupn(s, w, wn);
        if (cur_eat(&t, '*')) {
            if (v->def >= 0)
                serr(s, (int)ic, (int)wn + 1, "two defaults ('*') in .%s%s", v->name, NULL);
            v->def = v->nchoices;
        }
        v->nchoices++;
        if (cur_eat(&t, ','))
            continue;
        if (!cur_eat(&t, '}')) {
            serr(s, (int)t.i, 1, "expected ',' or '}' in the value list of .%s%s", v->name, NULL);
            return 1;
        }
        break;
    }
    if (!cur_at_end(&t))
        serr(s, (int)t.i, 1, "unexpected text after the value list%s%s", NULL, NULL);
    s->nlists++;
    return 1;
}

static vlist *find_list(sctx *s, const char *name)
{
    for (int i = 0; i < s->nlists; i++)
        if (!strcmp(s->lists[i].name, name))
            return &s->lists[i];
    return NULL;
}

static int is_value_list(const cursor *c)
{
    cursor t = *c;
    cur_skip_ws(&t);
    if (cur_peek(&t) == '.')
        t.i++;
    const char *w;
    return cur_ident(&t, &w) && cur_eat(&t, '=') && cur_eat(&t, '{');
}

/* ---------------------------------------------------------------- line tokens */

typedef struct head_word {
    const char *w;
    int optional;
    int col, len;
} head_word;

typedef struct syn_opnd {
    const char *name;
    const char *index_name; /* R[URb{+SImm9}]: "SImm9" */
    int indexed, group, is_pr;
    char neg, abs, not_, inv;
    const char *sfx;        /* suffix modifier name (hsel2, bsel) */
    int sfx_optional;
    int col, len;
} syn_opnd;

typedef struct syn_line {
    head_word head[MAX_SLOTS];
    int nhead;
    syn_opnd ops[MAX_OPS];
    int nops, ngroups;
    int ctl[3];
} syn_line;

static const char *const ctl_names[3] = {"$sched", "$req", "$wsb"};

static int parse_head(sctx *s, cursor *c, syn_line *L)
{
    cur_skip_ws(c);
    const char *w;
    int col = (int)c->i;
    size_t n = cur_ident(c, &w);
    if (!n) {
        serr(s, col, 1, "expected an instruction name at the start of the syntax line%s%s", NULL, NULL);
        return -1;
    }
    L->head[0] = (head_word){dupn(s, w, n), 0, col, (int)n};
    L->nhead = 1;
    for (;;) {
        int opt = 0;
        col = (int)c->i;
        if (cur_peek(c) == '{' && cur_peek2(c) == '.') {
            opt = 1;
            c->i++;
        }
        if (cur_peek(c) != '.')
            break;
        c->i++;
        size_t wn = cur_word(c, &w);
        if (!wn) {
            serr(s, (int)c->i, 1, "expected a modifier name after '.'%s%s", NULL, NULL);
            return -1;
        }
        if (opt && cur_peek(c) != '}') {
            serr(s, (int)c->i, 1, "expected '}' after the optional modifier .%s%s", dupn(s, w, wn), NULL);
            return -1;
        }
        c->i += (size_t)opt;
        if (L->nhead == MAX_SLOTS) {
            serr(s, col, 1, "too many modifiers in one syntax line%s%s", NULL, NULL);
            return -1;
        }
        L->head[L->nhead++] = (head_word){dupn(s, w, wn), opt, col, (int)(c->i - (size_t)col)};
    }
    return 0;
}

static int parse_operands(sctx *s, cursor *c, syn_line *L)
{
    char pend_neg = 0, pend_abs = 0, pend_not = 0, pend_inv = 0;
    int group = 0, abs_close = 0;
    L->ctl[0] = L->ctl[1] = L->ctl[2] = 0;
    for (;;) {
        cur_skip_ws(c);
        if (cur_eof(c) || cur_peek(c) == ';' || (cur_peek(c) == '/' && cur_peek2(c) == '/'))
            break;
        int col = (int)c->i;
        char ch = cur_peek(c);
        if (ch == '{') {
            char a = cur_peek2(c);
            if ((a == '-' || a == '|' || a == '!' || a == '~') && c->i + 2 < c->n && c->s[c->i + 2] == '}') {
                c->i += 3;
                if (a == '|' && abs_close && L->nops) {
                    abs_close = 0;
                } else if (a == '|') {
                    pend_abs = 1;
                } else if (a == '-') {
                    pend_neg = 1;
                } else if (a == '!') {
                    pend_not = 1;
                } else {
                    pend_inv = 1;
                }
                continue;
            }
            if (a == '.') {
                c->i += 2;
                const char *w;
                size_t wn = cur_word(c, &w);
                if (!wn || cur_peek(c) != '}' || !L->nops) {
                    serr(s, col, 2, "expected '{.suffix}' after an operand%s%s", NULL, NULL);
                    return -1;
                }
                c->i++;
                L->ops[L->nops - 1].sfx = dupn(s, w, wn);
                L->ops[L->nops - 1].sfx_optional = 1;
                continue;
            }
            if (group) {
                serr(s, col, 1, "optional operand groups cannot nest%s%s", NULL, NULL);
                return -1;
            }
            c->i++;
            group = ++L->ngroups;
            continue;
        }
        if (ch == '}') {
            if (!group) {
                serr(s, col, 1, "'}' without a matching '{'%s%s", NULL, NULL);
                return -1;
            }
            c->i++;
            group = 0;
            continue;
        }
        if (ch == ',') {
            c->i++;
            continue;
        }
        if (ch == '|' || ch == '-' || ch == '!' || ch == '~') {
            c->i++;
            if (ch == '|' && abs_close)
                abs_close = 0;
            else
                *(ch == '|' ? &pend_abs : ch == '-' ? &pend_neg : ch == '!' ? &pend_not : &pend_inv) = 1;
            continue;
        }
        if (ch == '.' && L->nops) { /* a required suffix: Ra.bsel */
            c->i++;
            const char *w;
            size_t wn = cur_word(c, &w);
            if (!wn) {
                serr(s, col, 1, "expected a suffix name after '.'%s%s", NULL, NULL);
                return -1;
            }
            L->ops[L->nops - 1].sfx = dupn(s, w, wn);
            continue;
        }
        const char *w;
        size_t wn = cur_ident(c, &w);
        if (!wn) {
            serr(s, col, 1, "unexpected character '%s' in the syntax line", dupn(s, c->s + c->i, 1), NULL);
            return -1;
        }
        if (w[0] == '$') {
            int k;
            for (k = 0; k < 3; k++)
                if (strlen(ctl_names[k]) == wn && !memcmp(ctl_names[k], w, wn))
                    break;
            if (k == 3) {
                serr(s, col, (int)wn, "unknown scheduling control '%s' (expected $sched, $req or $wsb)", dupn(s, w, wn), NULL);
                return -1;
            }
            L->ctl[k] = 1;
            continue;
        }
        if (L->nops == MAX_OPS) {
            serr(s, col, 1, "too many operands in one syntax line%s%s", NULL, NULL);
            return -1;
        }
        syn_opnd *o = &L->ops[L->nops++];
        memset(o, 0, sizeof *o);
        o->name = dupn(s, w, wn);
        o->group = group;
        o->col = col;
        o->neg = pend_neg;
        o->abs = pend_abs;
        o->not_ = pend_not;
        o->inv = pend_inv;
        abs_close = pend_abs;
        pend_neg = pend_abs = pend_not = pend_inv = 0;
        o->is_pr = wn == 2 && !memcmp(w, "PR", 2);
        if (cur_peek(c) == '[') { /* R[URb{+SImm9}] */
            c->i++;
            const char *in;
            size_t inn = cur_ident(c, &in);
            if (!inn) {
                serr(s, (int)c->i, 1, "expected a register name inside '[...]'%s%s", NULL, NULL);
                return -1;
            }
            o->indexed = 1;
            o->name = dupn(s, in, inn);
            cur_skip_ws(c);
            int opt = cur_eat(c, '{');
            if (cur_eat(c, '+')) {
                const char *iw;
                size_t iwn = cur_ident(c, &iw);
                if (!iwn) {
                    serr(s, (int)c->i, 1, "expected an immediate name after '+'%s%s", NULL, NULL);
                    return -1;
                }
                o->index_name = dupn(s, iw, iwn);
            }
            if ((opt && !cur_eat(c, '}')) || !cur_eat(c, ']')) {
                serr(s, (int)c->i, 1, "expected ']' closing the indexed operand%s%s", NULL, NULL);
                return -1;
            }
        }
        o->len = (int)c->i - col;
    }
    if (group) {
        serr(s, (int)c->i, 1, "optional operand group '{' is not closed%s%s", NULL, NULL);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- mapping */

static int field_for_operand(const isa_opcode *op, const syn_line *L, int k, const char *name,
                             const int *claimed)
{
    char buf[64];
    size_t n = strlen(name);
    if (n >= sizeof buf - 2)
        return -1;
    for (size_t i = 0; i <= n; i++)
        buf[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    int f = model_field(op, buf);
    if (f >= 0 && !claimed[f])
        return f;
    if (n == 4 && !strncmp(name, "Src", 3)) { /* SrcB -> rb | urb | vb */
        static const char *const pre[] = {"r", "ur", "v"};
        for (int p = 0; p < 3; p++) {
            snprintf(buf, sizeof buf, "%s%c", pre[p], name[3] + 32);
            f = model_field(op, buf);
            if (f >= 0 && !claimed[f])
                return f;
        }
    }
    buf[0] = 'u'; /* pc -> upc */
    for (size_t i = 0; i <= n; i++)
        buf[i + 1] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    f = model_field(op, buf);
    if (f >= 0 && !claimed[f])
        return f;
    for (int i = 0; i < op->nfields; i++) { /* UImm5Sca -> the UImm5 field */
        const isa_type *t = op->fields[i].type;
        if (!claimed[i] && t && (t->kind == TY_IMM) && !strncmp(name, t->name, strlen(t->name)) &&
            !op->fields[i].fixed)
            return i;
    }
    if (op->order) { /* by position in Order<...> (pg excluded) */
        int pos = -1;
        for (int i = 0; i < op->order->nnames; i++) {
            if (!strcmp(op->order->names[i], "pg"))
                continue;
            if (++pos == k) {
                f = model_field(op, op->order->names[i]);
                if (f >= 0 && !claimed[f])
                    return f;
            }
        }
    }
    (void)L;
    return -1;
}

static int sub_field(const isa_opcode *op, int main, const char *suffix)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s.%s", op->fields[main].name, suffix);
    return model_field(op, buf);
}

/* Maps a value list (or a literal) onto a field's type values. */
static int map_choices(sctx *s, mod_slot *m, const vlist *v, const char *literal)
{
    const isa_type *t = m->field >= 0 ? s->op->fields[m->field].type : NULL;
    int n = v ? v->nchoices : literal ? 1 : t ? t->nvalues : 0;
    mod_choice *ch = arena_alloc(&s->isa->a, sizeof *ch * (size_t)(n ? n : 1));
    if (!ch)
        return -1;
    m->def_choice = v ? v->def : -1;
    for (int i = 0; i < n; i++) {
        const char *spell = v ? v->choices[i].spell : literal ? literal : t->values[i].name;
        ch[i].spell = spell;
        ch[i].len = (int)strlen(spell);
        ch[i].id = strmap_get(&s->isa->modifier_by_name, spell, (size_t)ch[i].len);
        if (ch[i].id < 0) {
            ch[i].id = s->isa->nmodifiers++;
            if (strmap_put(&s->isa->modifier_by_name, spell, (size_t)ch[i].len, ch[i].id)) {
                s->isa->a.failed = 1;
                return -1;
            }
        }
        ch[i].value = (uint64_t)i;
        if (!t)
            continue;
        if (t->kind != TY_ENUM) {
            serr(s, m->loc.col - 1, m->loc.len, "modifier .%s maps to field '%s', which is not an enumeration", m->name,
                 s->op->fields[m->field].name);
            return -1;
        }
        uint64_t val;
        if (type_value(t, spell, strlen(spell), &val) == 0) {
            ch[i].value = val;
            continue;
        }
        /* a spelling that differs from the type's (CLAMP vs C): the unique
         * type value that is a prefix of it; lint lists these */
        int found = -1;
        for (int k = 0; k < t->nvalues; k++)
            if (!strncmp(spell, t->values[k].name, strlen(t->values[k].name))) {
                found = found == -1 ? k : -2;
            }
        if (found < 0) {
            serr(s, m->loc.col - 1, m->loc.len, "value .%s has no counterpart in type %s", spell, t->name);
            return -1;
        }
        ch[i].value = t->values[found].value;
    }
    m->choices = ch;
    m->nchoices = n;
    if (m->def_choice < 0 && m->field >= 0 && s->op->fields[m->field].has_default)
        for (int i = 0; i < n; i++)
            if (ch[i].value == s->op->fields[m->field].value)
                m->def_choice = i;
    return 0;
}

static int literal_field(sctx *s, const char *word)
{
    int found = -1;
    for (int i = 0; i < s->op->nfields; i++) {
        const isa_field *f = &s->op->fields[i];
        uint64_t v;
        if (!f->type || f->type->kind != TY_ENUM || f->fixed || strchr(f->name, '.') || f->name[0] == '$')
            continue;
        if (type_value(f->type, word, strlen(word), &v) == 0)
            found = found == -1 ? i : -2;
    }
    return found;
}

static void pin(syntax_form *F, const isa_field *f, uint64_t v)
{
    word_set(&F->mask, f->off, f->width, ~UINT64_C(0));
    word_set(&F->match, f->off, f->width, v);
}

/* The value a field takes when the form leaves it out: its default, else
 * the zero register of its type (RZ, URZ, PT), else 0. */
uint64_t field_absent_value(const isa_field *f)
{
    if (f->has_default || f->fixed)
        return f->value;
    if (f->type && f->type->kind == TY_REG)
        return f->type->zero_value;
    return 0;
}
static int build_form(sctx *s, const syn_line *L, syntax_form *F, const raw_line *rl)
{
    isa_opcode *op = s->op;
    arena *a = &s->isa->a;
    int claimed[256] = {0};
    if (op->nfields > 256)
        return -1;
    mod_slot slots[MAX_SLOTS + MAX_OPS];
    int nslots = 0;
    char mnem[256];
    snprintf(mnem, sizeof mnem, "%s", L->head[0].w);
    int in_mnemonic = 1;
    for (int i = 1; i < L->nhead; i++) {
        const head_word *h = &L->head[i];
        mod_slot *m = &slots[nslots];
        memset(m, 0, sizeof *m);
        m->name = h->w;
        m->operand = -1;
        m->loc = s->line;
        m->loc.col = h->col + 1;
        m->loc.len = h->len;
        m->optional = h->optional;
        const vlist *v = find_list(s, h->w);
        if (v) {
            m->field = model_field(op, h->w);
            if (m->field >= 0 && claimed[m->field]) {
                serr(s, h->col, h->len, "modifier .%s sets field '%s' that another part of the line already sets", h->w, h->w);
                return -1;
            }
            if (map_choices(s, m, v, NULL))
                return -1;
            if (m->def_choice >= 0)
                m->optional = 1;
        } else {
            m->literal = 1;
            m->field = literal_field(s, h->w);
            if (m->field == -2) {
                serr(s, h->col, h->len, "modifier .%s names a value of several fields%s", h->w, NULL);
                return -1;
            }
            if (m->field < 0 && in_mnemonic && !h->optional) { /* IMAD.WIDE, IDP.2A */
                size_t ml = strlen(mnem);
                snprintf(mnem + ml, sizeof mnem - ml, ".%s", h->w);
                continue;
            }
            if (m->field < 0 && !h->optional) {
                serr(s, h->col, h->len, "required modifier .%s has no encoding field%s", h->w, NULL);
                return -1;
            }
            if (m->field >= 0 && claimed[m->field]) {
                serr(s, h->col, h->len, "modifier .%s sets a field that another part of the line already sets%s", h->w, NULL);
                return -1;
            }
            if (map_choices(s, m, NULL, h->w))
                return -1;
        }
        in_mnemonic = 0;
        if (m->field >= 0) {
            claimed[m->field] = 1;
            m->absent = field_absent_value(&op->fields[m->field]);
            if (m->literal && !m->optional)
                m->absent = m->choices[0].value;
        } else if (m->def_choice >= 0) {
            m->absent = (uint64_t)m->def_choice;
        }
        nslots++;
    }
    opnd_slot ops[MAX_OPS];
    for (int k = 0; k < L->nops; k++) {
        const syn_opnd *so = &L->ops[k];
        opnd_slot *o = &ops[k];
        memset(o, 0, sizeof *o);
        o->name = so->name;
        o->group = so->group;
        o->neg_field = o->abs_field = o->not_field = o->sfx_slot = o->inv_field = o->fmt_field = -1;
        o->index_field = -1;
        o->loc = s->line;
        o->loc.col = so->col + 1;
        o->loc.len = so->len;
        o->allow_neg = so->neg || so->inv;
        o->allow_abs = so->abs;
        o->allow_not = so->not_;
        if (so->is_pr) {
            o->kind = OK_PR;
            o->field = -1;
            continue;
        }
        o->field = field_for_operand(op, L, k, so->name, claimed);
        if (o->field < 0) {
            serr(s, so->col, so->len, "operand '%s' matches no field of %s", so->name, op->name);
            return -1;
        }
        claimed[o->field] = 1;
        const isa_field *f = &op->fields[o->field];
        o->type = f->type;
        o->kind = f->type->kind == TY_REG ? OK_REG : f->type->kind == TY_CMEM ? OK_CMEM : OK_IMM;
        if (so->indexed) {
            o->kind = OK_INDEXED;
            if (so->index_name) {
                o->index_field = field_for_operand(op, L, -1, so->index_name, claimed);
                if (o->index_field < 0) {
                    serr(s, so->col, so->len, "index '%s' matches no field of %s", so->index_name, op->name);
                    return -1;
                }
                claimed[o->index_field] = 1;
            }
        }
        /* a decoration field belongs to the form only where the line allows
         * the decoration: LEA's rb.neg, with no {-} on SrcB, stays pinned */
        static const char *const deco[3] = {"neg", "abs", "not"};
        int *dst[3] = {&o->neg_field, &o->abs_field, &o->not_field};
        const char allowed[3] = {o->allow_neg, o->allow_abs, o->allow_not};
        for (int d = 0; d < 3; d++) {
            int sf = allowed[d] ? sub_field(op, o->field, deco[d]) : -1;
            if (sf >= 0) {
                *dst[d] = sf;
                claimed[sf] = 1;
            }
        }
        if (so->sfx) {
            mod_slot *m = &slots[nslots];
            memset(m, 0, sizeof *m);
            m->name = so->sfx;
            m->operand = k;
            m->optional = so->sfx_optional;
            m->loc = o->loc;
            m->field = sub_field(op, o->field, so->sfx);
            if (m->field >= 0)
                claimed[m->field] = 1;
            if (map_choices(s, m, find_list(s, so->sfx), NULL))
                return -1;
            if (m->def_choice >= 0)
                m->optional = 1;
            m->absent = m->field >= 0 ? field_absent_value(&op->fields[m->field]) : (uint64_t)(m->def_choice > 0 ? m->def_choice : 0);
            o->sfx_slot = nslots++;
        }
        /* Bitwidth<> and AsmFormat<> directives, nearest definition first */
        for (int c = op->nchain - 1; c >= 0; c--) {
            const raw_def *d = op->chain[c];
            for (int i = 0; i < d->nopinfo; i++) {
                const raw_opinfo *oi = &d->opinfo[i];
                if (oi->kind == OI_BITWIDTH && !o->bitwidth && !strcmp(oi->names[0], f->name)) {
                    o->bitwidth = spec_resolve_expr(s->isa, op, oi->value, s->diags);
                    if (!o->bitwidth)
                        return -1;
                }
                if (oi->kind != OI_ASMFORMAT || oi->nargs != 2)
                    continue;
                int ext = model_field(op, oi->args[1]);
                if (ext < 0)
                    continue;
                const isa_type *et = op->fields[ext].type;
                uint64_t val;
                if (!strcmp(oi->func, "CvtINegX") && o->neg_field >= 0 &&
                    !strcmp(oi->names[0], op->fields[o->neg_field].name) && o->inv_field < 0 &&
                    type_value(et, "X", 1, &val) == 0) {
                    o->inv_field = ext;
                    o->inv_value = val;
                } else if (!strcmp(oi->func, "CvtFImm") && !strcmp(oi->names[0], f->name) && o->fmt_field < 0 &&
                           type_value(et, "BF16_V2", 7, &val) == 0) {
                    o->fmt_field = ext;
                    o->fmt_value = val;
                }
            }
        }
    }
    /* the guard and the scheduling controls */
    if (op->guard >= 0)
        claimed[op->guard] = 1;
    if (op->guard_not >= 0)
        claimed[op->guard_not] = 1;
    for (int k = 0; k < 3; k++) {
        F->ctl[k] = -1;
        int cf = model_field(op, ctl_names[k]);
        if (L->ctl[k] && cf < 0) {
            serr(s, L->head[0].col, L->head[0].len, "the line uses %s but %s has no such field", ctl_names[k], op->name);
            return -1;
        }
        if (L->ctl[k]) {
            F->ctl[k] = cf;
            claimed[cf] = 1;
        }
    }
    F->mnemonic = arena_strdup(a, mnem);
    F->text = rl->text;
    F->loc = rl->loc;
    F->ngroups = L->ngroups;
    F->mods = arena_alloc(a, sizeof *F->mods * (size_t)(nslots ? nslots : 1));
    F->ops = arena_alloc(a, sizeof *F->ops * (size_t)(L->nops ? L->nops : 1));
    F->free_fields = arena_alloc(a, sizeof(int) * (size_t)(op->nfields ? op->nfields : 1));
    if (!F->mods || !F->ops || !F->free_fields)
        return -1;
    memcpy(F->mods, slots, sizeof *slots * (size_t)nslots);
    F->nmods = nslots;
    memcpy(F->ops, ops, sizeof *ops * (size_t)L->nops);
    F->nops = L->nops;
    for (int i = 0; i < op->nfields; i++) {
        const isa_field *f = &op->fields[i];
        if (!f->type)
            continue;
        if (claimed[i] && !f->fixed) {
            F->free_fields[F->nfree++] = i;
            continue;
        }
        pin(F, f, field_absent_value(f));
    }
    for (int i = 0; i < nslots; i++) /* required literals pin their field */
        if (slots[i].literal && !slots[i].optional && slots[i].field >= 0)
            pin(F, &op->fields[slots[i].field], slots[i].choices[0].value);
    return 0;
}

/* Makes rl the line that messages point into and returns a cursor on it. */
static cursor at_line(sctx *s, const raw_line *rl)
{
    s->line = rl->loc;
    s->line.line_text = rl->text;
    s->line.line_len = (int)strlen(rl->text);
    return (cursor){rl->text, strlen(rl->text), 0};
}

int syntax_build_forms(gisa_isa *isa, isa_opcode *op, const raw_def *sdef, gisa_diags *diags)
{
    sctx s = {0};
    s.isa = isa;
    s.op = op;
    s.diags = diags;
    for (int i = 0; i < sdef->nsyntax; i++) {
        const raw_line *rl = &sdef->syntax[i];
        cursor c = at_line(&s, rl);
        if (cur_at_end(&c))
            continue;
        parse_value_list(&s, &c);
    }
    syntax_form forms[16];
    int nforms = 0;
    for (int i = 0; i < sdef->nsyntax && !s.errors; i++) {
        const raw_line *rl = &sdef->syntax[i];
        cursor c = at_line(&s, rl);
        if (cur_at_end(&c))
            continue;
        if (is_value_list(&c))
            continue;
        syn_line L;
        memset(&L, 0, sizeof L);
        if (parse_head(&s, &c, &L) || parse_operands(&s, &c, &L))
            continue;
        cur_eat(&c, ';');
        if (!cur_at_end(&c)) {
            serr(&s, (int)c.i, 1, "unexpected text after ';' in the syntax line%s%s", NULL, NULL);
            continue;
        }
        if (nforms == 16) {
            serr(&s, 0, 1, "too many syntax lines%s%s", NULL, NULL);
            break;
        }
        memset(&forms[nforms], 0, sizeof forms[nforms]);
        if (build_form(&s, &L, &forms[nforms], rl) == 0)
            nforms++;
        else if (!s.errors)
            s.errors++;
    }
    if (!s.errors && !nforms) {
        diag_add(diags, GISA_ERROR, &sdef->loc, "%s: the __Syntax block has no syntax line", sdef->name);
        s.errors++;
    }
    op->forms = arena_alloc(&isa->a, sizeof *op->forms * (size_t)(nforms ? nforms : 1));
    if (!op->forms)
        return s.errors + 1;
    memcpy(op->forms, forms, sizeof *forms * (size_t)nforms);
    op->nforms = nforms;
    return s.errors;
}
