/* Printing a decoded instruction by its form's plan (plan.h): no rule is
 * checked here, the decoder (spec/decoder.c) has judged the word. Output is written
 * left to right and truncated at the buffer's end; where the buffer has
 * room, texts are copied in fixed-size blocks and decorations that depend
 * on a bit are written unconditionally and kept or not, so that the many
 * data-dependent choices of a line cost no branches. The write position is
 * passed and returned by value: kept in a register, not in memory.
 *
 * The line is printed by one of two instances of the same code (dis_run):
 * one checks for room before every piece; the other, for a buffer known to
 * hold the form's longest line (dis_form_bound), checks nothing. A NULL
 * `end` selects the second: the printers on the hot path are always
 * inlined, so the checks fold away there. */
#include <string.h>

#include "common/fpconv.h"
#include "disasm/plan.h"

#if defined(__GNUC__) || defined(__clang__)
#define HOT_INLINE inline __attribute__((always_inline))
#define COLD __attribute__((noinline, cold))
#else
#define HOT_INLINE inline
#define COLD
#endif

/* Room for n more bytes at p: end is the last byte of the buffer (kept for
 * the NUL), or NULL when the caller made sure there is room. */
static HOT_INLINE int room(const char *p, const char *end, size_t n) { return !end || n <= (size_t)(end - p); }

/* Every put_* writes at p, never past end, and returns the new position. */
static char *put_n(char *p, const char *end, const char *s, size_t n)
{
    if (!room(p, end, n))
        n = (size_t)(end - p);
    memcpy(p, s, n);
    return p + n;
}

/* Pre-rendered text: one fixed-size copy where the buffer has room (the
 * bytes past n are overwritten next or lie past the end of the text). */
static HOT_INLINE char *put_t(char *p, const char *end, dtext t)
{
    if (t.n > DTEXT_PAD || !room(p, end, DTEXT_PAD))
        return put_n(p, end, t.s, t.n);
    memcpy(p, t.s, DTEXT_PAD);
    return p + t.n;
}

static HOT_INLINE char *put_c(char *p, const char *end, char c)
{
    if (room(p, end, 1))
        *p++ = c;
    return p;
}

/* c when on, else nothing */
static HOT_INLINE char *put_flag(char *p, const char *end, char c, int on)
{
    if (room(p, end, 1)) {
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
    if (v < 100 && room(p, end, 2)) {
        int one = v < 10;
        memcpy(p, two + 2 * v + one, 2);
        return p + 2 - one;
    }
    char d[24];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) && n < 24);
    while (n && room(p, end, 1))
        *p++ = d[--n];
    return p;
}

/* Eight hex digits of x, most significant first (in the low byte), without
 * a branch. */
static inline uint64_t hex8(uint32_t x)
{
    x = __builtin_bswap32(x);
    x = (x & 0x0F0F0F0Fu) << 4 | (x >> 4 & 0x0F0F0F0Fu); /* nibbles in reverse order */
    uint64_t v = x;
    v = (v | v << 16) & UINT64_C(0x0000FFFF0000FFFF);
    v = (v | v << 8) & UINT64_C(0x00FF00FF00FF00FF);
    v = (v | v << 4) & UINT64_C(0x0F0F0F0F0F0F0F0F); /* byte i: the i-th digit */
    uint64_t letter = ((v + UINT64_C(0x0606060606060606)) >> 4) & UINT64_C(0x0101010101010101);
    return v + UINT64_C(0x3030303030303030) + letter * ('a' - '0' - 10);
}

/* The 8 bytes of v at p, the low byte first. */
static inline void put8(char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

#define HEX_MAX (2 + 16) /* "0x" and 16 digits */
#define DEC_MAX 20       /* digits of a uint64_t */

/* The digits are made in registers and stored in 8-byte blocks (a copy
 * from a scratch buffer would read bytes just stored one by one, which
 * waits for the stores to complete). */
static char *put_hex(char *p, const char *end, uint64_t v)
{
    int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
    char t[HEX_MAX + 8];
    char *q = room(p, end, HEX_MAX) ? p : t; /* else truncated from t */
    q[0] = '0';
    q[1] = 'x';
    if (n > 8) { /* the high digits, then the low eight over the high block's tail */
        put8(q + 2, hex8((uint32_t)(v >> 32)) >> 8 * (16 - n));
        put8(q + 2 + n - 8, hex8((uint32_t)v));
    } else {
        put8(q + 2, hex8((uint32_t)v) >> 8 * (8 - n));
    }
    return q == p ? p + 2 + n : put_n(p, end, t, 2 + (size_t)n);
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
static HOT_INLINE char *put_r(char *p, const char *end, const rname *r)
{
    if (!room(p, end, sizeof *r))
        return put_n(p, end, r->s, r->n);
    memcpy(p, r, sizeof *r);
    return p + r->n;
}

static HOT_INLINE char *put_reg(char *p, const char *end, const dis_regs *r, const isa_type *t, uint64_t v, int pair)
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
    /* straight into the line where the form's bound made room (FLOAT_MAX) */
    int n = fp_print_n(bits, f, end ? buf : p, end ? sizeof buf : FP_PRINT_MAX + 1);
    if (n >= 0)
        return end ? put_n(p, end, buf, (size_t)n) : p + n;
    /* NaN: raw bits, upper-case digits as in the documents (0f405A7EFA) */
    char r[20] = {'0', raw[f]};
    for (int i = 0; i < dig[f]; i++)
        r[2 + i] = "0123456789ABCDEF"[(bits >> (4 * (dig[f] - 1 - i))) & 15];
    return put_n(p, end, r, 2 + (size_t)dig[f]);
}

/* ------------------------------------------------------------ operands */

/* A modifier's text for its code. */
static HOT_INLINE char *put_mod(char *p, const char *end, const dis_mod *m, int code)
{
    return m->name ? put_r(p, end, &m->name[code]) : put_t(p, end, m->text[code]);
}

static HOT_INLINE char *print_reg(char *p, const char *end, const dis_opnd *d, const uint64_t *vals)
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
    p = put_hex(p, end, cmem_offset(t, v));
    return put_c(p, end, ']');
}

static char *print_indexed(char *p, const char *end, const dis_opnd *d, const uint64_t *vals)
{
    p = put_c(p, end, 'R');
    p = put_c(p, end, '[');
    p = put_reg(p, end, d->regs, d->type, vals[d->field], 0);
    if (d->index != SPEC_NONE) {
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
static HOT_INLINE char *print_operand(char *p, const char *end, const dis_model *dm, int first, int kind, const dis_opnd *d,
                           const uint64_t *vals)
{
    unsigned deco = d->has_deco ? deco_of(&d->deco, vals) : 0; /* most operands have none: no look-ups */
    p = put_r(p, end, &dm->prefix[DIS_PREFIX(first, deco)]);
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
    return put_flag(p, end, '|', (deco & GISA_DECO_ABS) != 0);
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
static HOT_INLINE char *print_guard(char *p, const char *end, const dis_opcode *dop, const uint64_t *vals)
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
static HOT_INLINE char *print_ctl(char *p, const char *end, const dis_ctl *c, const uint64_t *vals)
{
    uint64_t v = vals[c->field];
    if (c->shown)
        return put_r(p, end, &c->shown[v]);
    char *start = p;
    p = put_t(p, end, c->text);
    p = put_dec(p, end, v);
    return v ? p : start;
}

/* The line, left to right. end: see room(). */
static HOT_INLINE char *print_line(const dis_model *dm, int opcode, const dis_form *df, const uint64_t *vals, char *buf,
                                   const char *end)
{
    const dis_opcode *dop = &dm->op[opcode];
    char *p = buf;
    int first = 1;
    if (dop->guard_type)
        p = print_guard(p, end, dop, vals);
    p = put_t(p, end, df->mnemonic);
    for (const dis_mod *m = df->mnem, *e = m + df->nmnem; m < e; m++) {
        p = put_mod(p, end, m, dis_mod_code(m, vals[m->field]));
    }
    for (const dis_step *s = df->steps; s->kind != DS_END; s++) {
        switch (s->kind) {
        case DS_GROUP:
            if (s->group > 31 || !group_printed(df, s->group, vals))
                s += s->skip;
            break;
        case DS_REG_PLAIN: /* print_operand without what it would skip */
            p = put_r(p, end, &dm->prefix[DIS_PREFIX(first, 0)]);
            p = put_reg(p, end, s->opnd->regs, s->opnd->type, vals[s->opnd->field], 0);
            first = 0;
            break;
        case DS_PR:
            p = put_r(p, end, &dm->prefix[DIS_PREFIX(first, 0)]);
            p = put_c(p, end, 'P');
            p = put_c(p, end, 'R');
            first = 0;
            break;
        default:
            p = print_operand(p, end, dm, first, s->kind, s->opnd, vals);
            first = 0;
            break;
        }
    }
    for (int k = 0; k < df->nctl; k++)
        p = print_ctl(p, end, &df->ctl[k], vals);
    *p = 0;
    return p;
}

/* The instance that checks, out of the way: small buffers are rare. The
 * text is cut at cap, and is whole when it ends (NUL) before the end. */
static COLD int print_line_checked(const dis_model *dm, int opcode, const dis_form *df, const uint64_t *vals, char *buf,
                                   size_t cap, size_t *len)
{
    char whole[512];
    if (df->bound + DIS_SLACK <= sizeof whole) {
        size_t n = (size_t)(print_line(dm, opcode, df, vals, whole, NULL) - whole);
        size_t k = n < cap ? n : cap - 1;
        memcpy(buf, whole, k);
        buf[k] = 0;
        *len = k;
        return n >= cap;
    }
    *len = (size_t)(print_line(dm, opcode, df, vals, buf, buf + cap - 1) - buf);
    return *len + 1 >= cap; /* filled to the end: maybe cut */
}

int dis_print(const dis_model *dm, int opcode, int form, const uint64_t *vals, char *buf, size_t cap, size_t *len)
{
    const dis_form *df = &dm->op[opcode].forms[form];
    if (cap >= (size_t)df->bound + DIS_SLACK) {
        *len = (size_t)(print_line(dm, opcode, df, vals, buf, NULL) - buf);
        return 0;
    }
    return print_line_checked(dm, opcode, df, vals, buf, cap, len);
}

/* ------------------------------------------------------------ bounds */

/* The longest texts of the printers above, for dis_form_bound. */

#define NAME_MAX_LEN (sizeof ((rname *)0)->s - 1) /* an rname's text */
#define FLOAT_MAX (FP_PRINT_MAX > HEX_MAX ? FP_PRINT_MAX : HEX_MAX) /* a number, or a NaN's raw bits */

static size_t max_of(size_t a, size_t b) { return a > b ? a : b; }

/* put_reg for values of a width-bit field */
static size_t reg_bound(const dis_regs *r, const isa_type *t, int width)
{
    size_t n = r->longest;
    if (width >= 32 || (UINT64_C(1) << width) > r->n) /* put_reg_slow: "R[v:v+1]", the zero register */
        n = max_of(n, max_of((size_t)t->zero_len, (size_t)t->prefix_len + 3 + 2 * DEC_MAX));
    return n;
}

/* put_mod, by name or by text */
static size_t mod_bound(const dis_mod *m)
{
    size_t n = 0;
    for (int k = 0; k < MOD_TEXT + m->slot->nchoices; k++)
        n = max_of(n, max_of(m->text[k].n, m->name ? m->name[k].n : 0));
    return n;
}

static size_t imm_bound(const isa_type *t)
{
    if (t->prefixed)
        return HEX_MAX;
    switch (t->fmt) {
    case IMM_SIGNED: return 1 + HEX_MAX;
    case IMM_UNSIGNED: return HEX_MAX;
    case IMM_F32:
    case IMM_F64: return FLOAT_MAX;
    case IMM_F16X2: return 2 * FLOAT_MAX + 2;
    }
    return 0;
}

/* print_operand, or the PR step */
static size_t opnd_bound(const dis_model *dm, const isa_opcode *op, const dis_opnd *d)
{
    size_t n = 0; /* the separator and decorations */
    for (int k = 0; k < 32; k++)
        n = max_of(n, dm->prefix[k].n);
    int width = d->field != SPEC_NONE ? op->fields[d->field].width : 0;
    switch ((opnd_kind)d->kind) {
    case OK_REG: n += reg_bound(d->regs, d->type, width); break;
    case OK_CMEM: n += 2 + HEX_MAX + 2 + HEX_MAX + 1; break;                   /* c[bank][offset] */
    case OK_INDEXED: n += 2 + reg_bound(d->regs, d->type, width) + 1 + HEX_MAX + 1; break; /* R[reg+offset] */
    case OK_IMM: n += imm_bound(d->type); break;
    case OK_PR: n += 2; break;
    }
    return n + (d->sfx ? mod_bound(d->sfx) : 0) + 1; /* .suffix, '|' */
}

size_t dis_form_bound(const dis_model *dm, const isa_opcode *op, const dis_opcode *dop, const dis_form *df)
{
    size_t n = df->mnemonic.n;
    if (dop->guard_type) /* "@!" register ' ' */
        n += dop->guard_text ? NAME_MAX_LEN : 3 + reg_bound(dop->guard_regs, dop->guard_type, op->fields[dop->guard].width);
    for (int i = 0; i < df->nmnem; i++)
        n += mod_bound(&df->mnem[i]);
    for (int k = 0; k < df->nops; k++)
        n += opnd_bound(dm, op, &df->ops[k]);
    for (int k = 0; k < df->nctl; k++)
        n += df->ctl[k].shown ? NAME_MAX_LEN : df->ctl[k].text.n + DEC_MAX;
    return n;
}
