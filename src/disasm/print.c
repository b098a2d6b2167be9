/* Printing a decoded word by its form's plan (plan.h). Output is written
 * left to right and truncated at the buffer's end; where the buffer has
 * room, texts are copied in fixed-size blocks and decorations that depend
 * on a bit are written unconditionally and kept or not, so that the many
 * data-dependent choices of a line cost no branches. */
#include <string.h>

#include "common/fpconv.h"
#include "disasm/plan.h"

typedef struct out {
    char *p, *end; /* end: the last byte, kept for the NUL */
} out;

static void put_n(out *o, const char *s, size_t n)
{
    if (n > (size_t)(o->end - o->p))
        n = (size_t)(o->end - o->p);
    memcpy(o->p, s, n);
    o->p += n;
}

/* Pre-rendered text: one fixed-size copy where the buffer has room (the
 * bytes past n are overwritten next or lie past the end of the text). */
static inline void put_t(out *o, dtext t)
{
    if (t.n <= DTEXT_PAD && o->end - o->p >= DTEXT_PAD) {
        memcpy(o->p, t.s, DTEXT_PAD);
        o->p += t.n;
    } else {
        put_n(o, t.s, t.n);
    }
}

static inline void put_c(out *o, char c)
{
    if (o->p < o->end)
        *o->p++ = c;
}

/* c when on, else nothing */
static inline void put_flag(out *o, char c, int on)
{
    if (o->p < o->end) {
        *o->p = c;
        o->p += on;
    }
}

static void put_dec(out *o, uint64_t v)
{
    static const char two[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
    if (v < 100 && o->end - o->p >= 2) {
        int one = v < 10;
        memcpy(o->p, two + 2 * v + one, 2);
        o->p += 2 - one;
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

/* Eight hex digits of x, most significant first, without a branch. */
static void hex8(uint32_t x, char *d)
{
    uint64_t v = x;
    v = (v | v << 16) & UINT64_C(0x0000FFFF0000FFFF);
    v = (v | v << 8) & UINT64_C(0x00FF00FF00FF00FF);
    v = (v | v << 4) & UINT64_C(0x0F0F0F0F0F0F0F0F); /* byte i holds nibble i */
    uint64_t letter = ((v + UINT64_C(0x0606060606060606)) >> 4) & UINT64_C(0x0101010101010101);
    v += UINT64_C(0x3030303030303030) + letter * ('a' - '0' - 10);
    for (int i = 0; i < 8; i++)
        d[i] = (char)(v >> (56 - 8 * i));
}

static void put_hex(out *o, uint64_t v)
{
    int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
    char d[32] = {0};
    hex8((uint32_t)(v >> 32), d);
    hex8((uint32_t)v, d + 8);
    if (o->end - o->p >= 2 + 16) {
        o->p[0] = '0';
        o->p[1] = 'x';
        memcpy(o->p + 2, d + 16 - n, 16);
        o->p += 2 + n;
        return;
    }
    put_c(o, '0');
    put_c(o, 'x');
    put_n(o, d + 16 - n, (size_t)n);
}

/* Registers beyond the name tables (types too wide for them). */
static void put_reg_slow(out *o, const isa_type *t, uint64_t v, int pair)
{
    if (v == t->zero_value) {
        put_n(o, t->zero, (size_t)t->zero_len);
        return;
    }
    put_n(o, t->prefix, (size_t)t->prefix_len);
    if (pair)
        put_c(o, '[');
    put_dec(o, v);
    if (pair) {
        put_c(o, ':');
        put_dec(o, v + 1);
        put_c(o, ']');
    }
}

static inline void put_reg(out *o, const dis_regs *r, const isa_type *t, uint64_t v, int pair)
{
    if (v >= r->n || o->end - o->p < (ptrdiff_t)sizeof(rname)) {
        put_reg_slow(o, t, v, pair);
        return;
    }
    const rname *n = pair ? &r->pair[v] : &r->name[v];
    memcpy(o->p, n->s, sizeof n->s);
    o->p += n->n;
}

static void print_float(out *o, uint64_t bits, fp_format f)
{
    static const char raw[] = {'h', 'h', 'f', 'd'};
    static const int dig[] = {4, 4, 8, 16};
    char buf[64];
    if (fp_print(bits, f, buf, sizeof buf) == 0) {
        put_n(o, buf, strlen(buf));
        return;
    }
    /* NaN: raw bits, upper-case digits as in the documents (0f405A7EFA) */
    char r[20] = {'0', raw[f]};
    for (int i = 0; i < dig[f]; i++)
        r[2 + i] = "0123456789ABCDEF"[(bits >> (4 * (dig[f] - 1 - i))) & 15];
    put_n(o, r, 2 + (size_t)dig[f]);
}

static void print_reg(out *o, const dis_opnd *d, const uint64_t *vals)
{
    put_reg(o, d->regs, d->type, vals[d->field], dis_opnd_pair(d, vals));
}

static void print_cmem(out *o, const dis_opnd *d, const uint64_t *vals)
{
    const isa_type *t = d->type;
    uint64_t v = vals[d->field];
    put_c(o, 'c');
    put_c(o, '[');
    put_hex(o, (v >> t->bank_off) & ((UINT64_C(1) << t->bank_w) - 1));
    put_c(o, ']');
    put_c(o, '[');
    put_hex(o, (v >> t->offs_off) & ((UINT64_C(1) << t->offs_w) - 1));
    put_c(o, ']');
}

static void print_indexed(out *o, const dis_opnd *d, const uint64_t *vals)
{
    put_c(o, 'R');
    put_c(o, '[');
    put_reg(o, d->regs, d->type, vals[d->field], 0);
    if (d->index != DIS_NONE) {
        int wdt = d->index_width;
        int64_t sx = (int64_t)(vals[d->index] << (64 - wdt)) >> (64 - wdt);
        if (sx) {
            put_c(o, sx < 0 ? '-' : '+');
            put_hex(o, (uint64_t)(sx < 0 ? -sx : sx));
        }
    }
    put_c(o, ']');
}

static void print_imm(out *o, const dis_opnd *d, const uint64_t *vals)
{
    uint64_t v = vals[d->field];
    int w = d->type->width;
    switch (d->type->fmt) {
    case IMM_SIGNED: {
        int64_t sx = w == 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
        /* small negatives read best signed (-0x10); other bit patterns as hex */
        int neg = sx < 0 && sx >= -0x1000000;
        put_flag(o, '-', neg);
        put_hex(o, neg ? 0 - (uint64_t)sx : v);
        break;
    }
    case IMM_UNSIGNED: put_hex(o, v); break;
    case IMM_F32: print_float(o, v << (32 - w), FP_F32); break;
    case IMM_F64: print_float(o, v << (64 - w), FP_F64); break;
    case IMM_F16X2: {
        fp_format f = vals[d->fmt] == d->fmt_value ? FP_BF16 : FP_F16;
        print_float(o, v >> 16 & 0xffff, f);
        put_c(o, ',');
        put_c(o, ' ');
        print_float(o, v & 0xffff, f);
        break;
    }
    }
}

static void print_operand(out *o, const dis_opnd *d, const uint64_t *vals)
{
    if (d->kind == OK_PR) {
        put_c(o, 'P');
        put_c(o, 'R');
        return;
    }
    int abs = vals[d->abs] != 0;
    put_flag(o, '!', vals[d->not_] != 0);
    put_flag(o, vals[d->inv] == d->inv_value ? '~' : '-', vals[d->neg] != 0);
    put_flag(o, '|', abs);
    switch (d->kind) {
    case OK_REG: print_reg(o, d, vals); break;
    case OK_CMEM: print_cmem(o, d, vals); break;
    case OK_INDEXED: print_indexed(o, d, vals); break;
    case OK_IMM: print_imm(o, d, vals); break;
    case OK_PR: break;
    }
    if (d->sfx)
        put_t(o, d->sfx->text[dis_mod_code(d->sfx, vals[d->sfx->field])]);
    put_flag(o, '|', abs);
}

/* A group is printed when its fields differ from the omitted values, or
 * when a later group directly after it (no required operand between) is
 * printed: otherwise "{, pp}{, pq}" would read back pq as pp. */
static int group_printed(const dis_form *df, int g, const uint64_t *vals)
{
    for (; g; g = df->groups[g].next) {
        const dis_group *d = &df->groups[g];
        for (int i = 0; i < d->n; i++)
            if (vals[d->field[i]] != d->absent[i])
                return 1;
    }
    return 0;
}

/* "@P3 " / "@!PT ", left out for the always-true PT */
static void print_guard(out *o, const dis_opcode *dop, const uint64_t *vals)
{
    uint64_t g = vals[dop->guard];
    int gnot = vals[dop->guard_not] != 0;
    char *start = o->p;
    put_c(o, '@');
    put_flag(o, '!', gnot);
    put_reg(o, dop->guard_regs, dop->guard_type, g, 0);
    put_c(o, ' ');
    o->p = g != dop->guard_type->zero_value || gnot ? o->p : start;
}

void dis_print(const gisa_isa *isa, const isa_opcode *op, const syntax_form *F, const uint64_t *vals, char *buf,
               size_t cap)
{
    const dis_model *dm = isa->dis;
    const dis_form *df = F->dis;
    const dis_opcode *dop = &dm->op[op->index];
    out o = {buf, buf + cap - 1};
    if (dop->guard_type)
        print_guard(&o, dop, vals);
    put_t(&o, df->mnemonic);
    for (int j = 0; j < df->nmnem; j++)
        put_t(&o, df->mnem[j]->text[dis_mod_code(df->mnem[j], vals[df->mnem[j]->field])]);
    uint32_t printed = 0;
    for (int g = df->ngroups < 31 ? df->ngroups : 31; g >= 1; g--)
        printed |= (uint32_t)group_printed(df, g, vals) << g;
    int first = 1;
    for (int k = 0; k < df->nops; k++) {
        const dis_opnd *d = &df->ops[k];
        if (d->group && (d->group > 31 || !(printed >> d->group & 1)))
            continue;
        put_t(&o, dm->sep[first]);
        first = 0;
        print_operand(&o, d, vals);
    }
    for (int k = 0; k < df->nctl; k++) {
        uint64_t v = vals[df->ctl[k].field];
        char *start = o.p;
        put_t(&o, df->ctl[k].text);
        put_dec(&o, v);
        o.p = v ? o.p : start;
    }
    *o.p = 0;
}
