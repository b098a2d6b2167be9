/* The simulator state as JSON (docs/simulator.md). Reading is all or
 * nothing: every key is checked and staged first, then applied. Writing is
 * deterministic (fixed key order) so that outputs can be diffed. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/strbuf.h"
#include "sim/sim.h"
#include "common/text.h"

typedef enum { V_PLAIN, V_LANEID, V_WARPID } special;

/* One staged assignment. */
typedef struct assign {
    gisa_regfile rf;
    int is_active, is_const, pair;
    unsigned index, bank, offset;
    special sp;
    uint64_t lane[LANES];
} assign;

typedef struct reader {
    const gisa_sim *s;
    const char *name;
    gisa_diags *d;
    int errors;
    assign *a;
    size_t n, cap;
} reader;

static void err(reader *r, const char *key, const char *fmt, const char *detail)
{
    srcloc at = {r->name, 0, 0, 0, NULL, 0, NULL};
    char msg[300];
    snprintf(msg, sizeof msg, fmt, detail ? detail : "");
    if (key)
        diag_add(r->d, GISA_ERROR, &at, "state key \"%s\": %s", key, msg);
    else
        diag_add(r->d, GISA_ERROR, &at, "%s", msg);
    r->errors++;
}

/* "0x..." hex, a decimal string, or a JSON integer; fits in `bits` bits
 * (negative decimals as two's complement). */
static int parse_number(json_t *v, int bits, uint64_t *out)
{
    uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0 && (bits < 64 && i < -(json_int_t)(max / 2 + 1)))
            return -1;
        if (i >= 0 && (uint64_t)i > max)
            return -1;
        *out = (uint64_t)i & max;
        return 0;
    }
    if (!json_is_string(v))
        return -1;
    const char *s = json_string_value(v);
    int neg = *s == '-';
    const char *p = s + neg;
    int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    p += hex ? 2 : 0;
    if (!*p)
        return -1;
    uint64_t x = 0;
    for (; *p; p++) {
        int dgt = *p >= '0' && *p <= '9' ? *p - '0' : hex && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
                : hex && *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
        if (dgt < 0 || x > (UINT64_MAX - (uint64_t)dgt) / (hex ? 16 : 10))
            return -1;
        x = x * (hex ? 16 : 10) + (uint64_t)dgt;
    }
    if (neg) {
        if (x == 0 || x > max / 2 + 1)
            return x == 0 ? (*out = 0, 0) : -1;
        *out = (0 - x) & max;
        return 0;
    }
    if (x > max)
        return -1;
    *out = x;
    return 0;
}

/* R12, UR3, P0, UP6: the register file and index; 0 if the key is none */
static int reg_key(const char *key, gisa_regfile *rf, unsigned *index, int *pair)
{
    static const struct {
        const char *prefix;
        gisa_regfile rf;
    } files[] = {{"UR", GISA_RF_UR}, {"UP", GISA_RF_UP}, {"R", GISA_RF_R}, {"P", GISA_RF_P}};
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(files[i].prefix);
        if (strncmp(key, files[i].prefix, n))
            continue;
        const char *p = key + n;
        unsigned lo, hi;
        int used = 0;
        *rf = files[i].rf;
        *pair = 0;
        if (*p == '[' && (*rf == GISA_RF_R || *rf == GISA_RF_UR) &&
            sscanf(p, "[%3u:%3u]%n", &lo, &hi, &used) == 2 && !p[used]) {
            if (hi != lo + 1 || lo % 2)
                return -1;
            *index = lo;
            *pair = 1;
            return 1;
        }
        if (*p < '0' || *p > '9' || (p[0] == '0' && p[1]))
            return 0;
        unsigned long v = strtoul(p, (char **)&p, 10);
        if (*p || v > 100000)
            return 0;
        *index = (unsigned)v;
        return 1;
    }
    return 0;
}

static assign *stage(reader *r)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        assign *a = realloc(r->a, cap * sizeof *a);
        if (!a)
            return NULL;
        r->a = a;
        r->cap = cap;
    }
    assign *a = &r->a[r->n++];
    memset(a, 0, sizeof *a);
    return a;
}

static int read_value(reader *r, const char *key, json_t *v, assign *a, int bits, int lanes)
{
    const int boolean = a->rf == GISA_RF_P || a->rf == GISA_RF_UP;
    if (json_is_array(v)) {
        if (!lanes) {
            err(r, key, "a per-warp value cannot be an array%s", NULL);
            return -1;
        }
        if (json_array_size(v) != LANES) {
            char n[32];
            snprintf(n, sizeof n, "%zu", json_array_size(v));
            err(r, key, "an array must have exactly 32 values (one per lane), not %s", n);
            return -1;
        }
        for (int l = 0; l < LANES; l++) {
            json_t *e = json_array_get(v, (size_t)l);
            if (boolean ? !json_is_boolean(e) : parse_number(e, bits, &a->lane[l]) != 0) {
                char m[80];
                snprintf(m, sizeof m, "lane %d: expected %s", l, boolean ? "true or false" : "a hex string or an integer");
                err(r, key, "%s", m);
                return -1;
            }
            if (boolean)
                a->lane[l] = json_is_true(e);
        }
        return 0;
    }
    if (boolean) {
        if (!json_is_boolean(v)) {
            err(r, key, "expected true or false%s", NULL);
            return -1;
        }
        for (int l = 0; l < LANES; l++)
            a->lane[l] = json_is_true(v);
        return 0;
    }
    if (json_is_string(v) && (!strcmp(json_string_value(v), "laneid") || !strcmp(json_string_value(v), "warpid"))) {
        a->sp = !strcmp(json_string_value(v), "laneid") ? V_LANEID : V_WARPID;
        if (a->sp == V_LANEID && !lanes) {
            err(r, key, "\"laneid\" needs a per-lane register%s", NULL);
            return -1;
        }
        return 0;
    }
    uint64_t x;
    if (parse_number(v, bits, &x)) {
        char m[64];
        snprintf(m, sizeof m, "expected a %d-bit hex string (\"0x...\") or integer", bits);
        err(r, key, "%s", m);
        return -1;
    }
    for (int l = 0; l < LANES; l++)
        a->lane[l] = x;
    return 0;
}

static void read_key(reader *r, const char *key, json_t *v)
{
    assign *a = stage(r);
    if (!a) {
        err(r, key, "out of memory%s", NULL);
        return;
    }
    unsigned bank, off;
    int used = 0;
    if (!strcmp(key, "active")) {
        a->is_active = 1;
        read_value(r, key, v, a, 32, 0);
        return;
    }
    if (sscanf(key, "c[%x][%x]%n", &bank, &off, &used) == 2 && !key[used]) {
        a->is_const = 1;
        a->bank = bank;
        a->offset = off;
        if (bank >= 64 || off >= 65536 || off % 4) {
            err(r, key, "constant address out of range or not 4-byte aligned (banks 0x0..0x3f, offsets 0x0..0xfffc)%s", NULL);
            return;
        }
        read_value(r, key, v, a, 32, 0);
        return;
    }
    int k = reg_key(key, &a->rf, &a->index, &a->pair);
    if (k < 0) {
        err(r, key, "a register pair is written R[n:n+1] with n even%s", NULL);
        return;
    }
    if (k == 0) {
        err(r, key, "unknown key (expected active, Rn, R[n:n+1], Pn, URn, UPn or c[bank][offset])%s", NULL);
        return;
    }
    unsigned limit = a->rf == GISA_RF_R ? r->s->regs : a->rf == GISA_RF_UR ? SIM_NUR : SIM_PT;
    if (a->index + (unsigned)a->pair >= limit) {
        char m[96];
        const char *names[] = {"R", "P", "UR", "UP"};
        snprintf(m, sizeof m, "there is no %s%u here (%s0..%s%u%s)", names[a->rf], a->index + (unsigned)a->pair,
                 names[a->rf], names[a->rf], limit - 1, a->rf == GISA_RF_R ? "; see --regs" : "");
        err(r, key, "%s", m);
        return;
    }
    read_value(r, key, v, a, a->pair ? 64 : 32, a->rf == GISA_RF_R || a->rf == GISA_RF_P);
}

static void read_object(reader *r, json_t *obj)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) read_key(r, key, v);
}

static void apply(gisa_sim *s, const assign *a, unsigned w)
{
    if (a->is_const) {
        gisa_sim_set_const(s, a->bank, a->offset, (uint32_t)a->lane[0]);
        return;
    }
    if (a->is_active) {
        gisa_sim_set_active(s, w, a->sp == V_WARPID ? w : (uint32_t)a->lane[0]);
        return;
    }
    for (int l = 0; l < LANES; l++) {
        uint64_t v = a->sp == V_LANEID ? (uint64_t)l : a->sp == V_WARPID ? w : a->lane[l];
        gisa_sim_set(s, w, a->rf, a->index, l, (uint32_t)v);
        if (a->pair)
            gisa_sim_set(s, w, a->rf, a->index + 1, l, (uint32_t)(v >> 32));
        if (a->rf == GISA_RF_UR || a->rf == GISA_RF_UP)
            break;
    }
}

gisa_status gisa_sim_state_read_json(gisa_sim *s, const char *name, const char *text, size_t len, gisa_diags *d)
{
    if (!s || !text)
        return GISA_ERR_USAGE;
    reader r = {s, name ? name : "<state>", d, 0, NULL, 0, 0};
    json_error_t je;
    size_t bom = text ? utf8_bom_len(text, len) : 0;
    json_t *root = json_loadb(text + bom, len - bom, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        srcloc at = {r.name, je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0, 1, NULL, 0, NULL};
        diag_add(d, GISA_ERROR, &at, "invalid JSON: %s", je.text);
        return GISA_ERR_INPUT;
    }
    json_t *warps = json_is_object(root) ? json_object_get(root, "warps") : NULL;
    size_t *ends = NULL;
    if (!json_is_object(root)) {
        err(&r, NULL, "the state must be a JSON object%s", NULL);
    } else if (warps) {
        if (json_object_size(root) != 1 || !json_is_array(warps) || json_array_size(warps) != s->nwarps) {
            char m[120];
            snprintf(m, sizeof m, "\"warps\" must be the only key and an array of %u objects (one per warp)", s->nwarps);
            err(&r, "warps", "%s", m);
        } else if ((ends = calloc(s->nwarps, sizeof *ends)) != NULL) {
            for (unsigned w = 0; w < s->nwarps; w++) {
                json_t *o = json_array_get(warps, w);
                if (!json_is_object(o))
                    err(&r, "warps", "every element must be an object%s", NULL);
                else
                    read_object(&r, o);
                ends[w] = r.n;
            }
        }
    } else {
        read_object(&r, root);
    }
    json_decref(root);
    if (!r.errors) {
        for (unsigned w = 0; w < s->nwarps; w++) {
            size_t from = ends ? (w ? ends[w - 1] : 0) : 0, to = ends ? ends[w] : r.n;
            for (size_t i = from; i < to; i++)
                apply(s, &r.a[i], w);
        }
    }
    free(ends);
    free(r.a);
    return r.errors ? GISA_ERR_INPUT : GISA_OK;
}

static void write_warp(const gisa_sim *s, const sim_warp *w, strbuf *b, const char *ind)
{
    sb_printf(b, "%s\"active\": \"0x%08x\"", ind, w->active);
    for (unsigned i = 0; i < s->regs; i++) {
        const uint32_t *row = w->r + (size_t)i * LANES;
        int any = 0;
        for (int l = 0; l < LANES; l++)
            any |= row[l] != 0;
        if (!any)
            continue;
        sb_printf(b, ",\n%s\"R%u\": [", ind, i);
        for (int l = 0; l < LANES; l++)
            sb_printf(b, "%s\"0x%08x\"", l ? ", " : "", row[l]);
        sb_puts(b, "]");
    }
    for (unsigned i = 0; i < SIM_PT; i++) {
        if (!w->p[i])
            continue;
        sb_printf(b, ",\n%s\"P%u\": [", ind, i);
        for (int l = 0; l < LANES; l++)
            sb_printf(b, "%s%s", l ? ", " : "", w->p[i] >> l & 1 ? "true" : "false");
        sb_puts(b, "]");
    }
    for (unsigned i = 0; i < SIM_NUR; i++)
        if (w->ur[i])
            sb_printf(b, ",\n%s\"UR%u\": \"0x%08x\"", ind, i, w->ur[i]);
    for (unsigned i = 0; i < SIM_PT; i++)
        if (w->up[i])
            sb_printf(b, ",\n%s\"UP%u\": true", ind, i);
}

static void write_consts(const gisa_sim *s, strbuf *b, const char *ind)
{
    for (unsigned bank = 0; bank < 64; bank++)
        for (unsigned i = 0; s->cbank[bank] && i < 16384; i++)
            if (s->cbank[bank][i])
                sb_printf(b, ",\n%s\"c[0x%x][0x%x]\": \"0x%08x\"", ind, bank, i * 4, s->cbank[bank][i]);
}

char *gisa_sim_state_write_json(const gisa_sim *s)
{
    if (!s)
        return NULL;
    strbuf b;
    sb_init(&b);
    if (s->nwarps == 1) {
        sb_puts(&b, "{\n");
        write_warp(s, &s->warps[0], &b, "  ");
        write_consts(s, &b, "  ");
        sb_puts(&b, "\n}\n");
    } else {
        sb_puts(&b, "{\"warps\": [\n");
        for (unsigned w = 0; w < s->nwarps; w++) {
            sb_puts(&b, w ? ",\n  {\n" : "  {\n");
            write_warp(s, &s->warps[w], &b, "    ");
            write_consts(s, &b, "    ");
            sb_puts(&b, "\n  }");
        }
        sb_puts(&b, "\n]}\n");
    }
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return sb_take(&b);
}
