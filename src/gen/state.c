/* The initial state of a generated program, in the JSON format of
 * gisa_state_parse (docs/simulator.md): every register of the
 * pool, the predicates, the uniform registers (the index base register
 * among them) and the constant window. Each register holds one kind of
 * value (integer, F32, F16x2, BF16x2, or F64 across a pair), the same in
 * every lane (warp-uniform) at the uniform rate, else one per lane; a
 * value is a floating-point corner value of its kind (signed zeros,
 * subnormals, infinities, quiet and signalling NaNs with payloads, 1.0,
 * values near overflow) at the fp rate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "gen/gen.h"

typedef enum { K_INT, K_F32, K_F16X2, K_BF16X2, K_F64, K_COUNT } value_kind;

/* One half of F16 or BF16: the corner values of the format */
static uint16_t half_value(gen_rng *r, int bf16, int corner)
{
    int mbits = bf16 ? 7 : 10, ebits = 15 - mbits;
    uint16_t emax = (uint16_t)((1u << ebits) - 1), sign = (uint16_t)(gen_below(r, 2) << 15);
    uint16_t mmask = (uint16_t)((1u << mbits) - 1), quiet = (uint16_t)(1u << (mbits - 1));
    uint16_t inf = (uint16_t)(emax << mbits), one = (uint16_t)((emax >> 1) << mbits);
    uint16_t m = (uint16_t)(gen_next(r) & mmask);
    if (!corner) { /* an ordinary normal number within a few binades of 1 */
        unsigned e = (emax >> 1) - 6 + (unsigned)gen_below(r, 12);
        return (uint16_t)(sign | e << mbits | m);
    }
    switch (gen_below(r, 9)) {
    case 0: return sign;                                          /* +-0 */
    case 1: return (uint16_t)(sign | (m ? m : 1));                /* subnormal */
    case 2: return (uint16_t)(sign | (gen_below(r, 2) ? 1 : mmask)); /* smallest, largest subnormal */
    case 3: return (uint16_t)(sign | inf);                        /* +-inf */
    case 4: return (uint16_t)(sign | inf | quiet | (m & (quiet - 1))); /* quiet NaN, payload */
    case 5: return (uint16_t)(sign | inf | ((m & (quiet - 1)) ? (m & (quiet - 1)) : 1)); /* signalling NaN */
    case 6: return (uint16_t)(sign | one);                        /* +-1.0 */
    case 7: return (uint16_t)(sign | (inf - 1 - (uint16_t)gen_below(r, 4))); /* near overflow */
    default: return (uint16_t)(sign | 1u << mbits);               /* smallest normal */
    }
}

static uint32_t f32_value(gen_rng *r, int corner)
{
    uint32_t sign = (uint32_t)gen_below(r, 2) << 31, m = (uint32_t)gen_next(r) & 0x7FFFFF;
    if (!corner)
        return sign | (uint32_t)(117 + gen_below(r, 20)) << 23 | m;
    switch (gen_below(r, 9)) {
    case 0: return sign;
    case 1: return sign | (m ? m : 1);
    case 2: return sign | (gen_below(r, 2) ? 1u : 0x7FFFFFu);
    case 3: return sign | 0x7F800000u;
    case 4: return sign | 0x7FC00000u | (m & 0x3FFFFF);
    case 5: return sign | 0x7F800000u | ((m & 0x3FFFFF) ? (m & 0x3FFFFF) : 1);
    case 6: return sign | 0x3F800000u;
    case 7: return sign | (0x7F7FFFFFu - (uint32_t)gen_below(r, 4));
    default: return sign | 0x00800000u;
    }
}

static uint64_t f64_value(gen_rng *r, int corner)
{
    const uint64_t mmask = (UINT64_C(1) << 52) - 1, quiet = UINT64_C(1) << 51, inf = UINT64_C(0x7FF) << 52;
    uint64_t sign = gen_below(r, 2) << 63, m = gen_next(r) & mmask;
    if (!corner)
        return sign | (uint64_t)(1013 + gen_below(r, 20)) << 52 | m;
    switch (gen_below(r, 9)) {
    case 0: return sign;
    case 1: return sign | (m ? m : 1);
    case 2: return sign | (gen_below(r, 2) ? 1 : mmask);
    case 3: return sign | inf;
    case 4: return sign | inf | quiet | (m & (quiet - 1));
    case 5: return sign | inf | ((m & (quiet - 1)) ? (m & (quiet - 1)) : 1);
    case 6: return sign | UINT64_C(0x3FF0000000000000);
    case 7: return sign | (inf - 1 - gen_below(r, 4));
    default: return sign | UINT64_C(1) << 52;
    }
}

static uint32_t int_value(gen_rng *r, int corner)
{
    static const uint32_t corners[] = {0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0xFFFF, 0x8000, 0xFF, 0x80, 0x10000};
    if (corner)
        return corners[gen_below(r, sizeof corners / sizeof *corners)];
    switch (gen_below(r, 4)) {
    case 0: return (uint32_t)gen_below(r, 64);
    case 1: return (uint32_t)-(int32_t)gen_below(r, 64);
    default: return (uint32_t)gen_next(r);
    }
}

/* A value of kind k; an integer by the --int-values classes when given (NULL:
 * the built-in mix) */
static uint64_t value_of(gen_rng *r, value_kind k, uint32_t fp_rate, const uint32_t *classes)
{
    int corner = gen_chance(r, fp_rate);
    if (k == K_INT && classes)
        return gen_value_of_class(r, classes, 32, 1);
    switch (k) {
    case K_F32: return f32_value(r, corner);
    case K_F16X2: return (uint32_t)half_value(r, 0, corner) << 16 | half_value(r, 0, gen_chance(r, fp_rate));
    case K_BF16X2: return (uint32_t)half_value(r, 1, corner) << 16 | half_value(r, 1, gen_chance(r, fp_rate));
    case K_F64: return f64_value(r, corner);
    default: return int_value(r, corner);
    }
}

static const uint32_t *int_classes(const gisa_gen *g, int scope)
{
    return g->o.values_given[scope] ? g->o.values[scope] : NULL;
}

/* "0x%08x" or "0x%016llx", without printf: a state has thousands */
static void put_value(strbuf *b, uint64_t v, int wide)
{
    char s[20];
    int n = wide ? 16 : 8;
    s[0] = '"', s[1] = '0', s[2] = 'x';
    for (int i = 0; i < n; i++)
        s[3 + i] = "0123456789abcdef"[v >> (4 * (n - 1 - i)) & 15];
    s[3 + n] = '"';
    sb_putn(b, s, (size_t)n + 4);
}

/* "R5": [32 values] or one value; a pair (F64) when `pair` */
static void put_register(strbuf *b, const gisa_gen *g, gen_rng *r, const char *nl, const char *file, unsigned n, int pair,
                         int lanes)
{
    value_kind k = pair ? K_F64 : (value_kind)gen_below(r, K_F64);
    if (pair)
        sb_printf(b, ",%s\"%s[%u:%u]\": ", nl, file, n, n + 1);
    else
        sb_printf(b, ",%s\"%s%u\": ", nl, file, n);
    if (!lanes || gen_chance(r, g->o.uniform)) {
        put_value(b, value_of(r, k, g->o.fp, int_classes(g, VS_REG)), pair);
        return;
    }
    sb_putc(b, '[');
    for (int l = 0; l < GISA_SIM_LANES; l++) {
        if (l)
            sb_puts(b, ", ");
        put_value(b, value_of(r, k, g->o.fp, int_classes(g, VS_REG)), pair);
    }
    sb_putc(b, ']');
}

/* Registers 0..count-1 of a file; a pair now and then (a fifth of them) */
static void put_file(strbuf *b, const gisa_gen *g, gen_rng *r, const char *nl, const char *file, unsigned count, int lanes)
{
    for (unsigned n = 0; n < count;) {
        int pair = n % 2 == 0 && n + 1 < count && gen_below(r, K_COUNT) == 0;
        put_register(b, g, r, nl, file, n, pair, lanes);
        n += pair ? 2u : 1u;
    }
}

static void put_preds(strbuf *b, const gisa_gen *g, gen_rng *r, const char *nl, const char *file, int lanes)
{
    for (int p = 0; p < 7; p++) {
        sb_printf(b, ",%s\"%s%d\": ", nl, file, p);
        if (!lanes || gen_chance(r, g->o.uniform)) {
            sb_puts(b, gen_below(r, 2) ? "true" : "false");
            continue;
        }
        uint64_t bits = gen_next(r);
        sb_putc(b, '[');
        for (int l = 0; l < GISA_SIM_LANES; l++)
            sb_puts(b, l ? (bits >> l & 1 ? ", true" : ", false") : (bits & 1 ? "true" : "false"));
        sb_putc(b, ']');
    }
}

const char *const gen_active_names[GEN_ACTIVE_KINDS] = {"full", "random", "single", "empty"};
const uint32_t gen_active_default[GEN_ACTIVE_KINDS] = {2, 6, 2, 0};

/* A warp's active mask: a kind by the --active weights; a random mask is
 * partial (neither empty nor full), dense, sparse or even. */
static uint32_t active_mask(const gisa_gen *g, gen_rng *r)
{
    uint64_t total = 0;
    for (int k = 0; k < GEN_ACTIVE_KINDS; k++)
        total += g->o.active[k];
    uint64_t x = gen_below(r, total);
    int k = 0;
    while (x >= g->o.active[k])
        x -= g->o.active[k++];
    switch (k) {
    case ACT_FULL: return UINT32_MAX;
    case ACT_SINGLE: return 1u << gen_below(r, GISA_SIM_LANES);
    case ACT_EMPTY: return 0;
    default:
        for (;;) {
            uint32_t m = (uint32_t)gen_next(r), d = gen_below(r, 3);
            m = d == 0 ? m & (uint32_t)gen_next(r) : d == 1 ? m | (uint32_t)gen_next(r) : m;
            if (m != 0 && m != UINT32_MAX)
                return m;
        }
    }
}

/* One warp's registers and predicates, each key after `nl` */
static void put_warp(strbuf *b, const gisa_gen *g, const gen_run *run, gen_rng *r, const char *nl)
{
    put_file(b, g, r, nl, "R", g->o.regs, 1);
    put_preds(b, g, r, nl, "P", 1);
    if (g->t.has_uniform) {
        put_file(b, g, r, nl, "UR", g->o.uregs, 0);
        if (g->t.has_indexed)
            sb_printf(b, ",%s\"UR%u\": \"0x%08x\"", nl, g->o.uregs, run->base_value);
        put_preds(b, g, r, nl, "UP", 0);
    }
}

int gen_state_build(const gisa_gen *g, gen_run *run, uint64_t seed)
{
    gen_rng r, masks;
    gen_rng_seed(&r, seed, 2);
    gen_rng_seed(&masks, seed, 4); /* its own stream: the masks leave the values as they were */
    strbuf b;
    sb_init(&b);
    if (g->o.warps <= 1) {
        sb_printf(&b, "{\n  \"active\": \"0x%08x\"", active_mask(g, &masks));
        put_warp(&b, g, run, &r, "\n  ");
    } else {
        sb_puts(&b, "{\n  \"warps\": [");
        for (uint32_t w = 0; w < g->o.warps; w++) {
            sb_printf(&b, "%s\n    {\n      \"active\": \"0x%08x\"", w ? "," : "", active_mask(g, &masks));
            put_warp(&b, g, run, &r, "\n      ");
            sb_puts(&b, "\n    }");
        }
        sb_puts(&b, "\n  ]");
    }
    unsigned banks = gen_cbanks(g), words = gen_cbytes(g) / 4;
    for (unsigned bank = 0; bank < banks; bank++)
        for (unsigned w = 0; w < words; w++) {
            /* an F64 spans an aligned pair of words, low word first */
            int pair = w % 2 == 0 && w + 1 < words && gen_below(&r, K_COUNT) == 0;
            uint64_t v = value_of(&r, pair ? K_F64 : (value_kind)gen_below(&r, K_F64), g->o.fp, int_classes(g, VS_CONST));
            for (int h = 0; h <= pair; h++) {
                sb_printf(&b, ",\n  \"c[0x%x][0x%x]\": ", bank, 4 * (w + (unsigned)h));
                put_value(&b, (uint32_t)(v >> (32 * h)), 0);
            }
            w += (unsigned)pair;
        }
    sb_puts(&b, "\n}\n");
    if (b.failed) {
        sb_free(&b);
        return -1;
    }
    free(run->state);
    run->state_len = b.len;
    run->state = sb_take(&b);
    return run->state ? 0 : -1;
}
