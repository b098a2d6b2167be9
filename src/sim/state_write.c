/* Writing the state as JSON (docs/simulator.md): streamed through a 64 KiB
 * buffer, formatted by hand (no printf per value), in a fixed key order so
 * that outputs diff. What is shared is written once: constants once per
 * file, a register whose 32 lanes agree as one value. */
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/fpconv.h"
#include "common/strbuf.h"
#include "sim/sim.h"
#include "sim/state_io.h"

#define WBUF 65536
#define ROOM 4096 /* the most one step writes: a key and 32 floats of 25 characters */

typedef struct writer {
    gisa_write_fn fn;
    void *user;
    size_t n;
    gisa_status st; /* the callback's first status other than GISA_OK: nothing more is sent */
    gisa_state_values values;
    char buf[WBUF];
} writer;

static void flush(writer *w)
{
    if (w->n && w->st == GISA_OK)
        w->st = w->fn(w->user, w->buf, w->n);
    w->n = 0;
}

/* Space for the next ROOM bytes. */
static char *room(writer *w)
{
    if (WBUF - w->n < ROOM)
        flush(w);
    return w->buf + w->n;
}

static void put(writer *w, const char *s, size_t n)
{
    memcpy(room(w), s, n);
    w->n += n;
}
#define PUT(w, lit) put(w, lit, sizeof lit - 1)

/* "0x%08x" with quotes, two digits per table look-up: most of a state. */
static char *put_hex8(char *p, uint32_t v)
{
    static const char pairs[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                                "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
                                "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
                                "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                                "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
                                "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
                                "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                                "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    memcpy(p, "\"0x", 3);
    memcpy(p + 3, pairs + 2 * (v >> 24), 2);
    memcpy(p + 5, pairs + 2 * (v >> 16 & 255), 2);
    memcpy(p + 7, pairs + 2 * (v >> 8 & 255), 2);
    memcpy(p + 9, pairs + 2 * (v & 255), 2);
    p[11] = '"';
    return p + 12;
}

static char *put_hex_digits(char *p, uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    *p++ = '0';
    *p++ = 'x';
    for (int i = digits - 1; i >= 0; i--)
        *p++ = hex[v >> (4 * i) & 15];
    return p;
}

/* "0x" and exactly `digits` digits, quoted */
static char *put_hex(char *p, uint64_t v, int digits)
{
    *p = '"';
    p = put_hex_digits(p + 1, v, digits);
    *p = '"';
    return p + 1;
}

/* 0x and the digits %x prints */
static char *put_hex_min(char *p, unsigned v)
{
    int digits = 1;
    while (digits < 8 && v >> (4 * digits))
        digits++;
    return put_hex_digits(p, v, digits);
}

static char *put_uint(char *p, unsigned v)
{
    char t[12];
    int n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while (v /= 10);
    while (n)
        *p++ = t[--n];
    return p;
}

/* A finite float as a JSON number: with a point or exponent, so that it
 * reads back as a float and not as integer bits. */
static char *put_number(char *p, uint64_t bits, fp_format f)
{
    int n = fp_print_n(bits, f, p, FP_PRINT_MAX + 1);
    if (memchr(p, '.', (size_t)n) || memchr(p, 'e', (size_t)n))
        return p + n;
    memcpy(p + n, ".0", 2);
    return p + n + 2;
}

static int is_nan(uint64_t bits, fp_format f)
{
    static const int eb[] = {5, 8, 8, 11}, mb[] = {10, 7, 23, 52};
    uint64_t e = bits >> mb[f] & ((UINT64_C(1) << eb[f]) - 1);
    return e == (UINT64_C(1) << eb[f]) - 1 && (bits & ((UINT64_C(1) << mb[f]) - 1));
}

static char *put_half(char *p, uint64_t bits, fp_format f)
{
    return p + fp_print_n(bits, f, p, FP_PRINT_MAX + 1);
}

/* One register value (64-bit for pairs) in the chosen form; NaNs keep
 * their payload as hex bits. */
static char *put_value(char *p, uint64_t v, int pair, gisa_state_values values)
{
    fp_format f = values == GISA_STATE_F64 ? FP_F64 : values == GISA_STATE_BF16X2 ? FP_BF16 : values == GISA_STATE_F16X2 ? FP_F16 : FP_F32;
    if (!pair && (values == GISA_STATE_HEX || values == GISA_STATE_F64))
        return put_hex8(p, (uint32_t)v);
    if (values == GISA_STATE_HEX || (values == GISA_STATE_F64) != pair)
        return put_hex(p, v, pair ? 16 : 8);
    if (values == GISA_STATE_F32 || values == GISA_STATE_F64) {
        if (is_nan(v, f))
            return put_hex(p, v, pair ? 16 : 8);
        uint64_t mag = v & ~(UINT64_C(1) << (pair ? 63 : 31));
        if (mag == (pair ? UINT64_C(0x7ff0000000000000) : 0x7f800000u)) {
            memcpy(p, mag == v ? "\"inf\"" : "\"-inf\"", 6);
            return p + (mag == v ? 5 : 6);
        }
        return put_number(p, v, f);
    }
    uint64_t hi = v >> 16 & 0xFFFF, lo = v & 0xFFFF;
    if (is_nan(hi, f) || is_nan(lo, f))
        return put_hex(p, v, 8);
    const char *pre = f == FP_F16 ? "\"f16x2:" : "\"bf16x2:";
    size_t pn = strlen(pre);
    memcpy(p, pre, pn);
    p = put_half(p + pn, hi, f);
    *p++ = ',';
    *p++ = ' ';
    p = put_half(p, lo, f);
    *p++ = '"';
    return p;
}

/* ,\n<indent>"<name><index>": */
static char *put_key(writer *w, const char *ind, const char *name, unsigned index, int pair)
{
    char *p = room(w);
    *p++ = ',';
    *p++ = '\n';
    size_t il = strlen(ind), nl = strlen(name);
    memcpy(p, ind, il);
    p += il;
    *p++ = '"';
    memcpy(p, name, nl);
    p += nl;
    if (pair) {
        *p++ = '[';
        p = put_uint(p, index);
        *p++ = ':';
        p = put_uint(p, index + 1);
        *p++ = ']';
    } else {
        p = put_uint(p, index);
    }
    memcpy(p, "\": ", 3);
    return p + 3;
}

static void put_row(writer *w, const char *ind, unsigned i, const uint32_t *lo, const uint32_t *hi)
{
    int pair = hi != NULL, same = 1;
    uint32_t any = 0;
    for (int l = 0; l < LANES; l++) {
        any |= lo[l] | (pair ? hi[l] : 0);
        same &= lo[l] == lo[0] && (!pair || hi[l] == hi[0]);
    }
    if (!any)
        return;
    char *p = put_key(w, ind, "R", i, pair);
    if (same) {
        p = put_value(p, (pair ? (uint64_t)hi[0] << 32 : 0) | lo[0], pair, w->values);
    } else {
        *p++ = '[';
        if (!pair && w->values == GISA_STATE_HEX) {
            p = put_hex8(p, lo[0]);
            for (int l = 1; l < LANES; l++) {
                memcpy(p, ", ", 2);
                p = put_hex8(p + 2, lo[l]);
            }
        } else {
            for (int l = 0; l < LANES; l++) {
                if (l) {
                    *p++ = ',';
                    *p++ = ' ';
                }
                p = put_value(p, (pair ? (uint64_t)hi[l] << 32 : 0) | lo[l], pair, w->values);
            }
        }
        *p++ = ']';
    }
    w->n = (size_t)(p - w->buf);
}

static void write_warp(writer *w, const gisa_sim *s, const sim_warp *wp, const char *ind)
{
    char *p = room(w);
    size_t il = strlen(ind);
    memcpy(p, ind, il);
    memcpy(p + il, "\"active\": ", 10);
    p = put_hex(p + il + 10, wp->active, 8);
    w->n = (size_t)(p - w->buf);
    const int pairs = w->values == GISA_STATE_F64;
    unsigned rows = wp->rows_used < s->regs ? wp->rows_used : s->regs; /* the others were never written */
    for (unsigned i = 0; i < rows; i += pairs && i + 1 < s->regs ? 2 : 1) {
        const uint32_t *row = wp->r + (size_t)i * LANES;
        put_row(w, ind, i, row, pairs && i + 1 < s->regs ? row + LANES : NULL);
    }
    for (unsigned i = 0; i < SIM_PT; i++) {
        if (!wp->p[i])
            continue;
        p = put_key(w, ind, "P", i, 0);
        if (wp->p[i] == UINT32_MAX) {
            memcpy(p, "true", 4);
            p += 4;
        } else {
            *p++ = '[';
            for (int l = 0; l < LANES; l++) {
                if (l) {
                    *p++ = ',';
                    *p++ = ' ';
                }
                memcpy(p, wp->p[i] >> l & 1 ? "true" : "false", 5);
                p += wp->p[i] >> l & 1 ? 4 : 5;
            }
            *p++ = ']';
        }
        w->n = (size_t)(p - w->buf);
    }
    for (unsigned i = 0; i < SIM_NUR; i += pairs && i + 1 < SIM_NUR ? 2 : 1) {
        int pair = pairs && i + 1 < SIM_NUR;
        uint64_t v = wp->ur[i] | (pair ? (uint64_t)wp->ur[i + 1] << 32 : 0);
        if (!v)
            continue;
        p = put_key(w, ind, "UR", i, pair);
        p = put_value(p, v, pair, w->values);
        w->n = (size_t)(p - w->buf);
    }
    for (unsigned i = 0; i < SIM_PT; i++) {
        if (!wp->up[i])
            continue;
        p = put_key(w, ind, "UP", i, 0);
        memcpy(p, "true", 4);
        w->n = (size_t)(p + 4 - w->buf);
    }
}

/* Asks for the rows of the warp written next while this one is formatted:
 * a warp's rows are on a page of their own, which the cache's prefetcher
 * does not enter, and the engine left most warps out of the cache. */
static void prefetch_warp(const gisa_sim *s, const sim_warp *wp)
{
#if defined(__GNUC__) || defined(__clang__)
    unsigned rows = wp->rows_used < s->regs ? wp->rows_used : s->regs;
    const char *r = (const char *)wp->r;
    for (size_t b = 0; b < (size_t)rows * LANES * sizeof *wp->r; b += 64)
        __builtin_prefetch(r + b);
#else
    (void)s;
    (void)wp;
#endif
}

static void write_consts(writer *w, const gisa_sim *s, const char *ind)
{
    size_t il = strlen(ind);
    for (unsigned bank = 0; bank < 64; bank++)
        for (unsigned i = 0; s->cbank[bank] && i < 16384; i++) {
            if (!s->cbank[bank][i])
                continue;
            char *p = room(w);
            memcpy(p, ",\n", 2);
            memcpy(p + 2, ind, il);
            memcpy(p + 2 + il, "\"c[", 3);
            p = put_hex_min(p + 5 + il, bank);
            memcpy(p, "][", 2);
            p = put_hex_min(p + 2, i * 4);
            memcpy(p, "]\": ", 4);
            p = put_hex(p + 4, s->cbank[bank][i], 8);
            w->n = (size_t)(p - w->buf);
        }
}

static gisa_status sim_state_write_unguarded(const gisa_sim *s, gisa_state_values values, gisa_write_fn fn, void *user)
{
    if (!s || !fn || values > GISA_STATE_BF16X2)
        return GISA_ERR_USAGE;
    writer *w = malloc(sizeof *w);
    if (!w)
        return GISA_ERR_NOMEM;
    w->fn = fn;
    w->user = user;
    w->n = 0;
    w->st = GISA_OK;
    w->values = values;
    if (s->nwarps == 1) {
        PUT(w, "{\n");
        write_warp(w, s, &s->warps[0], "  ");
    } else {
        PUT(w, "{\n  \"warps\": [\n");
        for (unsigned i = 0; i < s->nwarps; i++) {
            if (i)
                PUT(w, "\n    },\n    {\n");
            else
                PUT(w, "    {\n");
            if (i + 1 < s->nwarps)
                prefetch_warp(s, &s->warps[i + 1]);
            write_warp(w, s, &s->warps[i], "      ");
        }
        PUT(w, "\n    }\n  ]");
    }
    write_consts(w, s, "  ");
    PUT(w, "\n}\n");
    flush(w);
    gisa_status st = w->st;
    free(w);
    return st;
}

gisa_status gisa_sim_state_write(const gisa_sim *s, gisa_state_values values, gisa_write_fn fn, void *user)
{
    FPENV_RETURN(gisa_status, sim_state_write_unguarded(s, values, fn, user));
}

static gisa_status to_strbuf(void *user, const char *data, size_t n)
{
    strbuf *b = user;
    sb_putn(b, data, n);
    return b->failed ? GISA_ERR_NOMEM : GISA_OK;
}

char *sim_state_write_json(const gisa_sim *s)
{
    if (!s)
        return NULL;
    strbuf b;
    sb_init(&b);
    if (gisa_sim_state_write(s, GISA_STATE_HEX, to_strbuf, &b) != GISA_OK || b.failed) {
        sb_free(&b);
        return NULL;
    }
    return sb_take(&b);
}
