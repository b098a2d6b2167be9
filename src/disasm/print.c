/* Printing a decoded word by its form's plan (plan.h). Output is written
 * left to right and truncated at the buffer's end; where the buffer has
 * room, texts are copied in fixed-size blocks and decorations that depend
 * on a bit are written unconditionally and kept or not, so that the many
 * data-dependent choices of a line cost no branches. The write position is
 * passed and returned by value: kept in a register, not in memory. */
#include <string.h>

#include "common/fpconv.h"
#include "disasm/plan.h"

/* Every put_* writes at p, never past end (the last byte of the buffer,
 * kept for the NUL), and returns the new position. */
static char *put_n(char *p, const char *end, const char *s, size_t n)
{
    if (n > (size_t)(end - p))
        n = (size_t)(end - p);
    memcpy(p, s, n);
    return p + n;
}

/* Pre-rendered text: one fixed-size copy where the buffer has room (the
 * bytes past n are overwritten next or lie past the end of the text). */
static inline char *put_t(char *p, const char *end, dtext t)
{
    if (t.n > DTEXT_PAD || end - p < DTEXT_PAD)
        return put_n(p, end, t.s, t.n);
    memcpy(p, t.s, DTEXT_PAD);
    return p + t.n;
}

static inline char *put_c(char *p, const char *end, char c)
{
    if (p < end)
        *p++ = c;
    return p;
}

/* c when on, else nothing */
static inline char *put_flag(char *p, const char *end, char c, int on)
{
    if (p < end) {
        *p = c;
        p += on;
    }
    return p;
}

static char *put_dec(char *p, const char *end, uint64_t v)
{
    static const char two[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
    if (v < 100 && end - p >= 2) {
        int one = v < 10;
        memcpy(p, two + 2 * v + one, 2);
        return p + 2 - one;
    }
    char d[24];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) && n < 24);
    while (n && p < end)
        *p++ = d[--n];
    return p;
}

/* Eight hex digits of x, most significant first, without a branch. */
static inline void hex8(uint32_t x, char *d)
{
    x = __builtin_bswap32(x);
    x = (x & 0x0F0F0F0Fu) << 4 | (x >> 4 & 0x0F0F0F0Fu); /* nibbles in reverse order */
    uint64_t v = x;
    v = (v | v << 16) & UINT64_C(0x0000FFFF0000FFFF);
    v = (v | v << 8) & UINT64_C(0x00FF00FF00FF00FF);
    v = (v | v << 4) & UINT64_C(0x0F0F0F0F0F0F0F0F); /* byte i: the i-th digit */
    uint64_t letter = ((v + UINT64_C(0x0606060606060606)) >> 4) & UINT64_C(0x0101010101010101);
    v += UINT64_C(0x3030303030303030) + letter * ('a' - '0' - 10);
    d[0] = (char)v;
    d[1] = (char)(v >> 8);
    d[2] = (char)(v >> 16);
    d[3] = (char)(v >> 24);
    d[4] = (char)(v >> 32);
    d[5] = (char)(v >> 40);
    d[6] = (char)(v >> 48);
    d[7] = (char)(v >> 56);
}

static char *put_hex(char *p, const char *end, uint64_t v)
{
    int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
    char d[32] = {0};
    if (n > 8)
        hex8((uint32_t)(v >> 32), d);
    hex8((uint32_t)v, d + 8);
    if (end - p < 2 + 16) {
        p = put_c(p, end, '0');
        p = put_c(p, end, 'x');
        return put_n(p, end, d + 16 - n, (size_t)n);
    }
    p[0] = '0';
    p[1] = 'x';
    memcpy(p + 2, d + 16 - n, 16);
    return p + 2 + n;
}

/* Registers beyond the name tables (types too wide for them). */
static char *put_reg_slow(char *p, const char *end, const isa_type *t, uint64_t v, int pair)
{
    if (v == t->zero_value)
        return put_n(p, end, t->zero, (size_t)t->zero_len);
    p = put_n(p, end, t->prefix, (size_t)t->prefix_len);
    if (!pair || t->pair_first)
        return put_dec(p, end, v);
    p = put_c(p, end, '[');
    p = put_dec(p, end, v);
    p = put_c(p, end, ':');
    p = put_dec(p, end, v + 1);
    return put_c(p, end, ']');
}

/* A name kept in a table entry: the whole entry is copied in one block
 * (its length byte too, overwritten next). */
static inline char *put_r(char *p, const char *end, const rname *r)
{
    if (end - p < (ptrdiff_t)sizeof *r)
        return put_n(p, end, r->s, r->n);
    memcpy(p, r, sizeof *r);
    return p + r->n;
}

static inline char *put_reg(char *p, const char *end, const dis_regs *r, const isa_type *t, uint64_t v, int pair)
{
    if (v >= r->n)
        return put_reg_slow(p, end, t, v, pair);
    return put_r(p, end, pair ? &r->pair[v] : &r->name[v]);
}

static char *print_float(char *p, const char *end, uint64_t bits, fp_format f)
{
    static const char raw[] = {'h', 'h', 'f', 'd'};
    static const int dig[] = {4, 4, 8, 16};
    char buf[64];
    if (fp_print(bits, f, buf, sizeof buf) == 0)
        return put_n(p, end, buf, strlen(buf));
    /* NaN: raw bits, upper-case digits as in the documents (0f405A7EFA) */
    char r[20] = {'0', raw[f]};
    for (int i = 0; i < dig[f]; i++)
        r[2 + i] = "0123456789ABCDEF"[(bits >> (4 * (dig[f] - 1 - i))) & 15];
    return put_n(p, end, r, 2 + (size_t)dig[f]);
}

/* ------------------------------------------------------------ operands */

/* The rules of an operand: a register pair starts even, a constant is
 * aligned, a suffix holds a value the form can print. */
/* A modifier's text for its code. */
static inline char *put_mod(char *p, const char *end, const dis_mod *m, int code)
{
    return m->name ? put_r(p, end, &m->name[code]) : put_t(p, end, m->text[code]);
}

static inline int opnd_bad(const dis_opnd *d, const uint64_t *vals)
{
    int pair = dis_opnd_pair(d, vals), bad = d->sfx && dis_mod_code(d->sfx, vals[d->sfx->field]) == DM_REJECT;
    if (d->kind == OK_REG)
        bad |= pair && dis_pair_bad(d->type, vals[d->field]);
    if (d->kind == OK_CMEM)
        bad |= dis_cmem_bad(d->type, vals[d->field], pair);
    return bad;
}

static char *print_reg(char *p, const char *end, const dis_opnd *d, const uint64_t *vals)
{
    return put_reg(p, end, d->regs, d->type, vals[d->field], dis_opnd_pair(d, vals));
}

static char *print_cmem(char *p, const char *end, const dis_opnd *d, const uint64_t *vals)
{
    const isa_type *t = d->type;
    uint64_t v = vals[d->field];
    p = put_c(p, end, 'c');
    p = put_c(p, end, '[');
    p = put_hex(p, end, cmem_bank(t, v));
    p = put_c(p, end, ']');
    p = put_c(p, end, '[');
    p = put_hex(p, end, dis_cmem_offset(t, v));
    return put_c(p, end, ']');
}

static char *print_indexed(char *p, const char *end, const dis_opnd *d, const uint64_t *vals)
{
    p = put_c(p, end, 'R');
    p = put_c(p, end, '[');
    p = put_reg(p, end, d->regs, d->type, vals[d->field], 0);
    if (d->index != DIS_NONE) {
        int wdt = d->index_width;
        int64_t sx = (int64_t)(vals[d->index] << (64 - wdt)) >> (64 - wdt);
        if (sx) {
            p = put_c(p, end, sx < 0 ? '-' : '+');
            p = put_hex(p, end, (uint64_t)(sx < 0 ? -sx : sx));
        }
    }
    return put_c(p, end, ']');
}

static char *print_imm(char *p, const char *end, const dis_opnd *d, const uint64_t *vals)
{
    uint64_t v = vals[d->field];
    int w = d->type->width;
    if (d->type->prefixed) /* raw bits, as the target's assembler reads plain numbers */
        return put_hex(p, end, v);
    switch (d->type->fmt) {
    case IMM_SIGNED: {
        int64_t sx = w == 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
        /* small negatives read best signed (-0x10); other bit patterns as hex */
        int neg = sx < 0 && sx >= -0x1000000;
        p = put_flag(p, end, '-', neg);
        return put_hex(p, end, neg ? 0 - (uint64_t)sx : v);
    }
    case IMM_UNSIGNED: return put_hex(p, end, v);
    case IMM_F32: return print_float(p, end, v << (32 - w), FP_F32);
    case IMM_F64: return print_float(p, end, v << (64 - w), FP_F64);
    case IMM_F16X2: {
        fp_format f = vals[d->fmt] == d->fmt_value ? FP_BF16 : FP_F16;
        p = print_float(p, end, v >> 16 & 0xffff, f);
        p = put_c(p, end, ',');
        p = put_c(p, end, ' ');
        return print_float(p, end, v & 0xffff, f);
    }
    }
    return p;
}

/* Separator and prefixes ("!", "-" or "~", "|"), the operand, its .suffix,
 * the closing "|". */
static char *print_operand(char *p, const char *end, const dis_model *dm, int first, int kind, const dis_opnd *d,
                           const uint64_t *vals)
{
    int abs = vals[d->abs] != 0;
    p = put_r(p, end, &dm->prefix[DIS_PREFIX(first, vals[d->not_] != 0, vals[d->neg] != 0, vals[d->inv] == d->inv_value, abs)]);
    if (kind == DS_REG)
        p = print_reg(p, end, d, vals);
    else if (kind == DS_CMEM)
        p = print_cmem(p, end, d, vals);
    else if (kind == DS_IMM)
        p = print_imm(p, end, d, vals);
    else
        p = print_indexed(p, end, d, vals);
    if (d->sfx)
        p = put_mod(p, end, d->sfx, dis_mod_code(d->sfx, vals[d->sfx->field]));
    return put_flag(p, end, '|', abs);
}

/* ------------------------------------------------------------ the line */

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
static char *print_guard(char *p, const char *end, const dis_opcode *dop, const uint64_t *vals)
{
    uint64_t g = vals[dop->guard];
    int gnot = vals[dop->guard_not] != 0;
    if (dop->guard_text)
        return put_r(p, end, &dop->guard_text[(uint64_t)gnot << dop->guard_type->width | g]);
    char *start = p;
    p = put_c(p, end, '@');
    p = put_flag(p, end, '!', gnot);
    p = put_reg(p, end, dop->guard_regs, dop->guard_type, g, 0);
    p = put_c(p, end, ' ');
    return g != dop->guard_type->zero_value || gnot ? p : start;
}

/* " $sched=3", left out when 0 */
static char *print_ctl(char *p, const char *end, const dis_ctl *c, const uint64_t *vals)
{
    uint64_t v = vals[c->field];
    if (c->shown)
        return put_r(p, end, &c->shown[v]);
    char *start = p;
    p = put_t(p, end, c->text);
    p = put_dec(p, end, v);
    return v ? p : start;
}

static int exception_raised(const isa_opcode *op, const dis_opcode *dop, const uint64_t *vals)
{
    if (dop->raised.table)
        return dis_pred_table(&dop->raised, vals);
    for (int e = 0; e < op->nexceptions; e++)
        if (expr_eval(op->exceptions[e].cond, vals))
            return 1;
    return 0;
}

/* One pass: every check only accumulates into `bad`, so the text of a word
 * the form cannot express is simply discarded. */
int dis_run(const gisa_isa *isa, int opcode, int form, const uint64_t *vals, char *buf, size_t cap)
{
    const dis_model *dm = isa->dis;
    const dis_opcode *dop = &dm->op[opcode];
    const dis_form *df = &dop->forms[form];
    char *p = buf;
    const char *end = buf + cap - 1;
    int bad = 0, first = 1;
    if (dop->guard_type)
        p = print_guard(p, end, dop, vals);
    p = put_t(p, end, df->mnemonic);
    for (const dis_mod *m = df->mnem, *e = m + df->nmnem; m < e; m++) {
        int code = dis_mod_code(m, vals[m->field]);
        p = put_mod(p, end, m, code);
        bad |= code == DM_REJECT;
    }
    for (int i = 0; i < df->nnamed; i++) {
        uint64_t v = vals[df->named[i].field];
        bad |= v >> df->named[i].width || !df->named[i].named[v];
    }
    for (const dis_step *s = df->steps; s->kind != DS_END; s++) {
        switch (s->kind) {
        case DS_GROUP:
            if (s->group > 31 || !group_printed(df, s->group, vals))
                s += s->skip;
            break;
        case DS_CHECK: bad |= opnd_bad(s->opnd, vals); break;
        case DS_PR:
            p = put_r(p, end, &dm->prefix[DIS_PREFIX(first, 0, 0, 0, 0)]);
            p = put_c(p, end, 'P');
            p = put_c(p, end, 'R');
            first = 0;
            break;
        default:
            if (s->opnd->rules)
                bad |= opnd_bad(s->opnd, vals);
            p = print_operand(p, end, dm, first, s->kind, s->opnd, vals);
            first = 0;
            break;
        }
    }
    for (int k = 0; k < df->nctl; k++)
        p = print_ctl(p, end, &df->ctl[k], vals);
    if (dop->exceptions)
        bad |= exception_raised(&isa->opcodes[opcode], dop, vals);
    *p = 0;
    return bad;
}
