/* The disassembler: table lookup of the opcode, then the first syntax form
 * whose constraints the word meets is printed in canonical form (modifiers
 * in syntax order, defaults omitted). Anything else is `.invalid` with the
 * reason, never a guess. */
#include <stdio.h>
#include <string.h>

#include "common/fpconv.h"
#include "disasm/disasm.h"
#include "spec/model.h"

typedef struct out {
    char *p, *end;
} out;

static inline void put_n(out *o, const char *s, size_t n)
{
    if (n > (size_t)(o->end - o->p))
        n = (size_t)(o->end - o->p);
    memcpy(o->p, s, n);
    o->p += n;
}

static void put(out *o, const char *s) { put_n(o, s, strlen(s)); }

static inline void put_c(out *o, char c)
{
    if (o->p < o->end)
        *o->p++ = c;
}

static void put_dec(out *o, uint64_t v)
{
    if (v < 10 && o->p < o->end) {
        *o->p++ = (char)('0' + v);
        return;
    }
    if (v < 100 && o->end - o->p >= 2) {
        o->p[0] = (char)('0' + v / 10);
        o->p[1] = (char)('0' + v % 10);
        o->p += 2;
        return;
    }
    char d[24];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) && n < 24);
    while (n && o->p < o->end)
        *o->p++ = d[--n];
}

static void put_hex(out *o, uint64_t v)
{
    static const char hx[] = "0123456789abcdef";
    char d[20];
    int n = 0;
    do
        d[n++] = hx[v & 15];
    while ((v >>= 4) && n < 20);
    put(o, "0x");
    while (n && o->p < o->end)
        *o->p++ = d[--n];
}

static void put_reg(out *o, const isa_type *t, uint64_t v)
{
    if (v == t->zero_value) {
        put_n(o, t->zero, (size_t)t->zero_len);
        return;
    }
    put_n(o, t->prefix, (size_t)t->prefix_len);
    put_dec(o, v);
}

static int choice_of(const mod_slot *m, uint64_t v)
{
    for (int k = 0; k < m->nchoices; k++)
        if (m->choices[k].value == v)
            return k;
    return -1;
}

int disasm_is_pair(const opnd_slot *s, const uint64_t *vals)
{
    if (!s->bitwidth)
        return 0;
    if (s->bitwidth->kind == EX_NUM)
        return s->bitwidth->num == 64;
    return expr_eval(s->bitwidth, vals) == 64;
}

/* Why the form cannot print these field values, or NULL when it can. With
 * why == NULL only the verdict is wanted (the fast path). */
static const char *form_rejects(const isa_opcode *op, const syntax_form *F, const gisa_word *w, const uint64_t *vals,
                                char *why, size_t cap)
{
    if (((w->w[0] ^ F->match.w[0]) & F->mask.w[0]) || ((w->w[1] ^ F->match.w[1]) & F->mask.w[1])) {
        if (!why)
            return "";
        for (int i = 0; i < op->nfields; i++) {
            const isa_field *f = &op->fields[i];
            uint64_t m = word_get(&F->mask, f->off, f->width);
            if (m && ((vals[i] ^ word_get(&F->match, f->off, f->width)) & m)) {
                snprintf(why, cap, "field %s = %llu, which the syntax %s cannot express", f->name, (unsigned long long)vals[i], F->mnemonic);
                return why;
            }
        }
        return "a field holds a value the syntax cannot express";
    }
    for (int j = 0; j < F->nmods; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->field < 0)
            continue;
        uint64_t v = vals[m->field];
        if (choice_of(m, v) < 0 && !(m->optional && v == m->absent)) {
            if (!why)
                return "";
            snprintf(why, cap, "field %s = %llu is not one of the values .%s allows", op->fields[m->field].name, (unsigned long long)v, m->name);
            return why;
        }
    }
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        if (s->kind == OK_REG && disasm_is_pair(s, vals)) {
            uint64_t r = vals[s->field];
            if (r != s->type->zero_value && ((r & 1) || r + 1 >= s->type->zero_value)) {
                if (!why)
                    return "";
                snprintf(why, cap, "64-bit operand %s in odd register %s%llu", s->name, s->type->prefix, (unsigned long long)r);
                return why;
            }
        }
        if (s->kind == OK_CMEM) {
            const isa_type *t = s->type;
            uint64_t off = cmem_offset(t, vals[s->field]);
            uint64_t align = (uint64_t)t->align * (disasm_is_pair(s, vals) ? 2 : 1);
            if ((off % align && !t->misaligned_warn) || (vals[s->field] & ~cmem_used(t))) {
                if (!why)
                    return "";
                snprintf(why, cap, "constant offset 0x%llx of %s is not %llu-byte aligned", (unsigned long long)off, s->name, (unsigned long long)align);
                return why;
            }
        }
    }
    for (int e = 0; e < op->nexceptions; e++)
        if (expr_eval(op->exceptions[e].cond, vals)) {
            if (!why)
                return "";
            snprintf(why, cap, "encoding error: %s", op->exceptions[e].message);
            return why;
        }
    return NULL;
}

static void print_float(out *o, uint64_t bits, fp_format f)
{
    static const char raw[] = {'h', 'h', 'f', 'd'};
    static const int dig[] = {4, 4, 8, 16};
    char buf[64];
    if (fp_print(bits, f, buf, sizeof buf) == 0) {
        put(o, buf);
        return;
    }
    /* NaN: raw bits, upper-case digits as in the documents (0f405A7EFA) */
    char r[20] = {'0', raw[f]};
    for (int i = 0; i < dig[f]; i++)
        r[2 + i] = "0123456789ABCDEF"[(bits >> (4 * (dig[f] - 1 - i))) & 15];
    r[2 + dig[f]] = 0;
    put(o, r);
}

static void print_operand(out *o, const isa_opcode *op, const syntax_form *F, const opnd_slot *s, const uint64_t *vals)
{
    if (s->kind == OK_PR) {
        put(o, "PR");
        return;
    }
    int neg = s->neg_field >= 0 && vals[s->neg_field];
    int abs = s->abs_field >= 0 && vals[s->abs_field];
    int inv = neg && s->inv_field >= 0 && vals[s->inv_field] == s->inv_value;
    if (s->not_field >= 0 && vals[s->not_field])
        put(o, "!");
    if (neg)
        put(o, inv ? "~" : "-");
    if (abs)
        put(o, "|");
    uint64_t v = vals[s->field];
    const isa_type *t = s->type;
    switch (s->kind) {
    case OK_REG:
        if (disasm_is_pair(s, vals) && v != t->zero_value && !t->pair_first) {
            put(o, t->prefix);
            put(o, "[");
            put_dec(o, v);
            put(o, ":");
            put_dec(o, v + 1);
            put(o, "]");
        } else {
            put_reg(o, t, v);
        }
        break;
    case OK_CMEM:
        put(o, "c[");
        put_hex(o, cmem_bank(t, v));
        put(o, "][");
        put_hex(o, cmem_offset(t, v));
        put(o, "]");
        break;
    case OK_INDEXED: {
        put(o, "R[");
        put_reg(o, t, v);
        if (s->index_field >= 0) {
            int wdt = op->fields[s->index_field].width;
            uint64_t x = vals[s->index_field];
            int64_t sx = (int64_t)(x << (64 - wdt)) >> (64 - wdt);
            if (sx) {
                put(o, sx < 0 ? "-" : "+");
                put_hex(o, (uint64_t)(sx < 0 ? -sx : sx));
            }
        }
        put(o, "]");
        break;
    }
    case OK_IMM: {
        int w = t->width;
        if (t->prefixed) { /* raw bits, as the target's assembler reads plain numbers */
            put_hex(o, v);
            break;
        }
        switch (t->fmt) {
        case IMM_SIGNED: {
            int64_t sx = w == 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
            /* small negatives read best signed (-0x10); other bit patterns as hex */
            if (sx < 0 && sx >= -0x1000000) {
                put(o, "-");
                put_hex(o, 0 - (uint64_t)sx);
            } else {
                put_hex(o, v);
            }
            break;
        }
        case IMM_UNSIGNED: put_hex(o, v); break;
        case IMM_F32: print_float(o, v << (32 - w), FP_F32); break;
        case IMM_F64: print_float(o, v << (64 - w), FP_F64); break;
        case IMM_F16X2: {
            fp_format f = s->fmt_field >= 0 && vals[s->fmt_field] == s->fmt_value ? FP_BF16 : FP_F16;
            print_float(o, v >> 16 & 0xffff, f);
            put(o, ", ");
            print_float(o, v & 0xffff, f);
            break;
        }
        }
        break;
    }
    case OK_PR: break;
    }
    if (s->sfx_slot >= 0) {
        const mod_slot *m = &F->mods[s->sfx_slot];
        int k = m->field >= 0 ? choice_of(m, vals[m->field]) : -1;
        if (k >= 0 && k != m->def_choice) {
            put_c(o, '.');
            put_n(o, m->choices[k].spell, (size_t)m->choices[k].len);
        }
    }
    if (abs)
        put(o, "|");
}

static int group_present(const isa_opcode *op, const syntax_form *F, int g, const uint64_t *vals)
{
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        if (s->group != g)
            continue;
        int fl[5] = {s->field, s->neg_field, s->abs_field, s->not_field, s->index_field};
        for (int i = 0; i < 5; i++)
            if (fl[i] >= 0 && vals[fl[i]] != op->absent[fl[i]])
                return 1;
        if (s->sfx_slot >= 0 && F->mods[s->sfx_slot].field >= 0 &&
            vals[F->mods[s->sfx_slot].field] != F->mods[s->sfx_slot].absent)
            return 1;
    }
    return 0;
}

/* A group is printed when its fields differ from the omitted values, or
 * when a later group directly after it (no required operand between) is
 * printed: otherwise "{, pp}{, pq}" would read back pq as pp. */
static int group_printed(const isa_opcode *op, const syntax_form *F, int g, const uint64_t *vals)
{
    if (group_present(op, F, g, vals))
        return 1;
    int last = -1;
    for (int k = 0; k < F->nops; k++)
        if (F->ops[k].group == g)
            last = k;
    if (last + 1 < F->nops && F->ops[last + 1].group && F->ops[last + 1].group != g)
        return group_printed(op, F, F->ops[last + 1].group, vals);
    return 0;
}

static void print_form(out *o, const isa_opcode *op, const syntax_form *F, const uint64_t *vals)
{
    if (op->guard >= 0) {
        const isa_field *g = &op->fields[op->guard];
        int gnot = op->guard_not >= 0 && vals[op->guard_not];
        if (vals[op->guard] != g->type->zero_value || gnot) {
            put(o, gnot ? "@!" : "@");
            put_reg(o, g->type, vals[op->guard]);
            put(o, " ");
        }
    }
    put_n(o, F->mnemonic, (size_t)F->mnemonic_len);
    for (int j = 0; j < F->nmods; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->operand >= 0 || m->field < 0)
            continue;
        int k = choice_of(m, vals[m->field]);
        if ((m->literal && k == 0 && (!m->optional || vals[m->field] != m->absent)) ||
            (!m->literal && k >= 0 && k != m->def_choice)) {
            put_c(o, '.');
            put_n(o, m->choices[k].spell, (size_t)m->choices[k].len);
        }
    }
    char printed[32] = {0};
    for (int g = F->ngroups < 31 ? F->ngroups : 31; g >= 1; g--)
        printed[g] = (char)group_printed(op, F, g, vals);
    int first = 1;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        if (s->group && (s->group > 31 || !printed[s->group]))
            continue;
        put_n(o, first ? " " : ", ", first ? 1 : 2);
        first = 0;
        print_operand(o, op, F, s, vals);
    }
    static const char *const ctl[3] = {"$sched", "$req", "$wsb"};
    for (int k = 0; k < 3; k++)
        if (F->ctl[k] >= 0 && vals[F->ctl[k]]) {
            put(o, " ");
            put(o, ctl[k]);
            put(o, "=");
            put_dec(o, vals[F->ctl[k]]);
        }
}

static gisa_status invalid(const gisa_isa *isa, gisa_word w, const char *why, char *buf, size_t cap)
{
    if (isa->word_bits == 64)
        snprintf(buf, cap, ".invalid 0x%016llx // %s", (unsigned long long)w.w[0], why);
    else
        snprintf(buf, cap, ".invalid 0x%016llx%016llx // %s", (unsigned long long)w.w[1], (unsigned long long)w.w[0], why);
    return GISA_ERR_INPUT;
}

int disasm_match(const gisa_isa *isa, const gisa_word *wp, int *opcode, int *form, uint64_t *vals, char *why, size_t cap)
{
    gisa_word w = *wp;
    *opcode = *form = -1;
    int idx = decode_lookup(isa, &w);
    if (idx < 0) {
        snprintf(why, cap, "no opcode has these fixed bits");
        return -1;
    }
    *opcode = idx;
    const isa_opcode *op = &isa->opcodes[idx];
    if ((w.w[0] & ~op->covered.w[0]) || (w.w[1] & ~op->covered.w[1])) {
        int b;
        for (b = 0; b < isa->word_bits && !(word_get_bit(&w, b) && !word_get_bit(&op->covered, b)); b++)
            ;
        snprintf(why, cap, "%s: bit %d is set but no field covers it", op->name, b);
        return -1;
    }
    if (op->nfields > DISASM_MAXF) {
        snprintf(why, cap, "%s: too many fields", op->name);
        return -1;
    }
    /* fast path: a form whose pinned bits match; only its free fields are
     * read from the word (pinned ones hold their known, valid values) */
    for (int k = 0; k < op->nforms; k++) {
        const syntax_form *F = &op->forms[k];
        if (((w.w[0] ^ F->match.w[0]) & F->mask.w[0]) || ((w.w[1] ^ F->match.w[1]) & F->mask.w[1]))
            continue;
        memcpy(vals, F->base, sizeof *vals * (size_t)op->nfields);
        int bad = 0;
        for (int i = 0; i < F->nfree && !bad; i++) {
            const field_x *x = &op->fx[F->free_fields[i]];
            uint64_t v = word_get(&w, x->off, x->width);
            vals[F->free_fields[i]] = v;
            bad = x->named && (v >> x->enum_width || !x->named[v]);
        }
        if (!bad && !form_rejects(op, F, &w, vals, NULL, 0)) {
            *form = k;
            return 0;
        }
    }
    /* invalid: read every field to say why */
    for (int i = 0; i < op->nfields; i++) {
        const field_x *x = &op->fx[i];
        vals[i] = word_get(&w, x->off, x->width);
        if (x->named && (vals[i] >> x->enum_width || !x->named[vals[i]])) {
            const isa_field *f = &op->fields[i];
            snprintf(why, cap, "%s: field %s = %llu is no value of %s", op->name, f->name, (unsigned long long)vals[i], f->type->name);
            return -1;
        }
    }
    /* invalid: now say why, from the first form's point of view */
    char reason_buf[200];
    const char *reason = op->nforms ? form_rejects(op, &op->forms[0], &w, vals, reason_buf, sizeof reason_buf) : NULL;
    snprintf(why, cap, "%s: %s", op->name, reason ? reason : "no syntax form");
    return -1;
}

gisa_status gisa_disassemble(const gisa_isa *isa, gisa_word w, char *buf, size_t cap)
{
    if (!isa || !buf || !cap)
        return GISA_ERR_USAGE;
    char why[260];
    uint64_t vals[DISASM_MAXF];
    int opcode, form;
    if (disasm_match(isa, &w, &opcode, &form, vals, why, sizeof why) < 0)
        return invalid(isa, w, why, buf, cap);
    out o = {buf, buf + cap - 1};
    print_form(&o, &isa->opcodes[opcode], &isa->opcodes[opcode].forms[form], vals);
    *o.p = 0;
    return GISA_OK;
}
