/* The generator's options (gisa_gen_set): each is read from text, checked
 * whole, and only then stored, so that a bad value leaves the previous one.
 * Names are those of `gisa gen` without "--"; docs/verification.md lists
 * them with their meaning. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/diag.h"
#include "gen/gen.h"

typedef enum { OPT_COUNT, OPT_RATE, OPT_WEIGHTS, OPT_INCLUDE, OPT_EXCLUDE, OPT_STREAMS, OPT_ACTIVE, OPT_VALUES, OPT_COVER } opt_kind;

typedef struct opt_def {
    const char *name;
    opt_kind kind;
    size_t off;         /* offsetof(gen_options, the uint32_t) for counts and rates */
    uint32_t def, lo, hi; /* counts: default and range; rates: default */
} opt_def;

#define U32(f) offsetof(gen_options, f)
static const opt_def opt_defs[] = {
    {"regs", OPT_COUNT, U32(regs), 32, 4, GISA_SIM_MAX_REGS},
    {"uregs", OPT_COUNT, U32(uregs), 16, 2, 62},
    {"cbanks", OPT_COUNT, U32(cbanks), 2, 1, 64},
    {"cwords", OPT_COUNT, U32(cwords), 64, 2, 16384},
    {"dep-rate", OPT_RATE, U32(dep), 500000, 0, 0},
    {"guard-rate", OPT_RATE, U32(guard), 200000, 0, 0},
    {"ureg-rate", OPT_RATE, U32(ureg), 150000, 0, 0},
    {"cbank-rate", OPT_RATE, U32(cbank), 150000, 0, 0},
    {"imm-rate", OPT_RATE, U32(imm), 200000, 0, 0},
    {"stream-rate", OPT_RATE, U32(stream), 50000, 0, 0},
    {"fp-rate", OPT_RATE, U32(fp), 300000, 0, 0},
    {"uniform-rate", OPT_RATE, U32(uniform), 250000, 0, 0},
    {"ctl-rate", OPT_RATE, U32(ctl), 0, 0, 0},
    {"illegal-rate", OPT_RATE, U32(illegal), 0, 0, 0},
    {"weights", OPT_WEIGHTS, 0, 0, 0, 0},
    {"include", OPT_INCLUDE, 0, 0, 0, 0},
    {"exclude", OPT_EXCLUDE, 0, 0, 0, 0},
    {"streams", OPT_STREAMS, 0, 0, 0, 0},
    {"warps", OPT_COUNT, U32(warps), 1, 1, 1024},
    {"active", OPT_ACTIVE, 0, 0, 0, 0},
    {"int-values", OPT_VALUES, 0, 0, 0, 0},
    {"cover", OPT_COVER, 0, 0, 0, 0}, /* sets the options above (cover.c); not in the header itself */
};
#define NOPTS (sizeof opt_defs / sizeof *opt_defs)
#define MAX_WEIGHT 1000000

static uint32_t *opt_u32(gen_options *o, const opt_def *d) { return (uint32_t *)((char *)o + d->off); }

__attribute__((format(printf, 3, 4))) static gisa_status fail(gisa_diags *diags, const char *name, const char *fmt,
                                                              ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    srcloc at = {"", 0, 0, 0, NULL, 0, NULL};
    diag_add(diags, GISA_ERROR, &at, "--%s: %s", name, msg);
    return GISA_ERR_USAGE;
}

int gen_options_init(gen_options *o, const gen_tables *t)
{
    const gisa_isa *isa = t->isa;
    for (size_t i = 0; i < NOPTS; i++)
        if (opt_defs[i].kind == OPT_COUNT || opt_defs[i].kind == OPT_RATE)
            *opt_u32(o, &opt_defs[i]) = opt_defs[i].def;
    if (o->regs > t->max_regs)
        o->regs = t->max_regs;
    memcpy(o->active, gen_active_default, sizeof o->active);
    o->w_family = malloc((size_t)(t->nfamilies + 1) * sizeof *o->w_family);
    o->w_optype = malloc((size_t)(isa->noptypes + 1) * sizeof *o->w_optype);
    int sizes[3] = {t->nfamilies, isa->noptypes, isa->nopcodes};
    for (int l = 0; l < 3; l++) {
        o->inc[l] = calloc((size_t)sizes[l] + 1, 1);
        o->exc[l] = calloc((size_t)sizes[l] + 1, 1);
        if (!o->inc[l] || !o->exc[l])
            return -1;
    }
    o->stream_on = calloc((size_t)gen_nstreams + 1, 1);
    if (!o->w_family || !o->w_optype || !o->stream_on)
        return -1;
    for (int i = 0; i < t->nfamilies; i++)
        o->w_family[i] = -1;
    for (int i = 0; i < isa->noptypes; i++)
        o->w_optype[i] = -1;
    return 0;
}

void gen_options_free(gen_options *o)
{
    free(o->w_family);
    free(o->w_optype);
    for (int l = 0; l < 3; l++) {
        free(o->inc[l]);
        free(o->exc[l]);
        free(o->text[l]);
    }
    free(o->stream_on);
    free(o->streams_text);
    free(o->values_text);
    free(o->sel);
}

/* ------------------------------------------------------------ numbers */

/* A decimal count without sign or spaces; -1 when it is none or over hi. */
static int parse_count(const char *s, uint32_t hi, uint32_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > hi)
            return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* A rate from 0 to 1: "0.25", ".5", "1", or a percentage "25%"; digits
 * past the millionth are dropped. Parsed by hand: no locale, no floating
 * point. */
static int parse_rate(const char *s, uint32_t *ppm)
{
    uint64_t whole = 0, frac = 0, scale = GEN_PPM;
    int digits = 0, percent = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        if ((whole = whole * 10 + (uint64_t)(*p - '0')) > 100)
            return -1;
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, digits++)
            if (scale > 1) {
                scale /= 10;
                frac += (uint64_t)(*p - '0') * scale;
            }
    }
    if (*p == '%') {
        percent = 1;
        p++;
    }
    if (*p || !digits)
        return -1;
    uint64_t v = whole * GEN_PPM + frac;
    if (percent)
        v /= 100;
    if (v > GEN_PPM)
        return -1;
    *ppm = (uint32_t)v;
    return 0;
}

/* ------------------------------------------------------------ names */

/* Finds NAME (len n, any case) among families, optypes and opcodes. */
static int find_name(const gisa_gen *g, const char *s, size_t n, name_level *level)
{
    const gisa_isa *isa = g->t.isa;
    for (int i = 0; i < g->t.nfamilies; i++)
        if (strlen(g->t.families[i]) == n && !strncasecmp(g->t.families[i], s, n))
            return *level = NAME_FAMILY, i;
    for (int i = 0; i < isa->noptypes; i++)
        if (strlen(isa->optypes[i].name) == n && !strncasecmp(isa->optypes[i].name, s, n))
            return *level = NAME_OPTYPE, i;
    for (int i = 0; i < isa->nopcodes; i++)
        if (strlen(isa->opcodes[i].name) == n && !strncasecmp(isa->opcodes[i].name, s, n))
            return *level = NAME_OPCODE, i;
    return -1;
}

/* "unknown name 'FFAM' (did you mean FFMA?)" for a name that is none */
static gisa_status unknown_name(const gisa_gen *g, gisa_diags *diags, const char *opt, const char *s, size_t n,
                                int opcodes_too)
{
    const gisa_isa *isa = g->t.isa;
    const char *best = NULL;
    int bestd = n < 4 ? 2 : 3;
    for (int l = 0; l < 3; l++) {
        int count = l == 0 ? g->t.nfamilies : l == 1 ? isa->noptypes : opcodes_too ? isa->nopcodes : 0;
        for (int i = 0; i < count; i++) {
            const char *c = l == 0 ? g->t.families[i] : l == 1 ? isa->optypes[i].name : isa->opcodes[i].name;
            char up[64];
            size_t k = 0;
            for (; k < n && k < sizeof up - 1; k++)
                up[k] = (char)toupper((unsigned char)s[k]);
            int d = edit_distance(up, k, c, strlen(c));
            if (d < bestd) {
                bestd = d;
                best = c;
            }
        }
    }
    const char *what = opcodes_too ? "a family, optype or opcode" : "a family or optype";
    if (best)
        return fail(diags, opt, "unknown name '%.*s': expected %s (did you mean %s?)", (int)n, s, what, best);
    return fail(diags, opt, "unknown name '%.*s': expected %s ('gisa gen --list' lists them)", (int)n, s, what);
}

/* Calls each(item, len) for the comma-separated items of s (spaces around
 * them allowed); an empty item is an error. */
typedef struct list_iter {
    const char *p;
    const char *item;
    size_t len;
} list_iter;

static int list_next(list_iter *it)
{
    if (!it->p)
        return 0;
    const char *s = it->p;
    while (*s == ' ' || *s == '\t')
        s++;
    const char *e = strchr(s, ',');
    const char *end = e ? e : s + strlen(s);
    const char *t = end;
    while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
        t--;
    it->item = s;
    it->len = (size_t)(t - s);
    it->p = e ? e + 1 : NULL;
    return 1;
}

static char *append_text(char *old, const char *add)
{
    size_t n = old ? strlen(old) : 0, m = strlen(add);
    char *s = realloc(old, n + m + 2);
    if (!s)
        return old;
    if (n)
        s[n++] = ',';
    memcpy(s + n, add, m + 1);
    return s;
}

/* ------------------------------------------------------------ modifier values */

/* The closest value of a mnemonic modifier in the scope to s (len n), or NULL */
static const char *close_value(const gisa_gen *g, name_level lv, int idx, const char *s, size_t n)
{
    char up[64];
    size_t k = 0;
    for (; k < n && k < sizeof up - 1; k++)
        up[k] = (char)toupper((unsigned char)s[k]);
    const char *best = NULL;
    int bestd = n < 4 ? 2 : 3;
    for (int o = 0; o < g->t.isa->nopcodes; o++)
        for (int f = 0; gen_in_scope(&g->t, lv, idx, o) && f < g->t.isa->opcodes[o].nforms; f++) {
            const syntax_form *F = &g->t.isa->opcodes[o].forms[f];
            for (int j = 0; j < F->nmods; j++)
                for (int c = 0; F->mods[j].operand < 0 && c < F->mods[j].nchoices; c++) {
                    int d = edit_distance(up, k, F->mods[j].choices[c].spell, (size_t)F->mods[j].choices[c].len);
                    if (d < bestd)
                        bestd = d, best = F->mods[j].choices[c].spell;
                }
        }
    return best;
}

/* NAME.VALUE[.VALUE...] (len bytes of item) into *s */
static gisa_status parse_modsel(const gisa_gen *g, gisa_diags *diags, const char *opt, const char *item, size_t len,
                                gen_modsel *s)
{
    const char *dot = memchr(item, '.', len), *end = item + len;
    size_t bl = (size_t)(dot - item);
    name_level lv;
    int idx = find_name(g, item, bl, &lv);
    if (idx < 0)
        return unknown_name(g, diags, opt, item, bl, 1);
    *s = (gen_modsel){.level = lv, .idx = idx, .weight = -1};
    for (const char *p = dot + 1; p <= end;) {
        const char *q = memchr(p, '.', (size_t)(end - p));
        q = q ? q : end;
        size_t n = (size_t)(q - p);
        const mod_choice *c = NULL;
        int slot;
        for (int o = 0; o < g->t.isa->nopcodes && !c && n; o++)
            for (int f = 0; gen_in_scope(&g->t, lv, idx, o) && f < g->t.isa->opcodes[o].nforms && !c; f++)
                c = gen_form_choice(&g->t.isa->opcodes[o].forms[f], p, n, &slot);
        if (!c) {
            const char *best = n ? close_value(g, lv, idx, p, n) : NULL;
            if (best)
                return fail(diags, opt, "unknown name '%.*s': %.*s has no modifier value %.*s (did you mean %.*s.%s?)",
                            (int)len, item, (int)bl, item, (int)n, p, (int)bl, item, best);
            return fail(diags, opt, "unknown name '%.*s': %.*s has no modifier value '%.*s' (NAME.VALUE takes the "
                        "values of the modifiers written after its mnemonic)", (int)len, item, (int)bl, item, (int)n, p);
        }
        if (s->nmods == GEN_SEL_MODS)
            return fail(diags, opt, "'%.*s': at most %d modifier values", (int)len, item, GEN_SEL_MODS);
        s->mods[s->nmods] = c->spell;
        s->ids[s->nmods++] = c->id;
        p = q + 1;
    }
    for (int o = 0; o < g->t.isa->nopcodes; o++)
        if (gen_sel_covers(&g->t, s, o))
            return GISA_OK;
    return fail(diags, opt, "'%.*s': no syntax form of %.*s has these modifier values together", (int)len, item,
                (int)bl, item);
}

/* Adds s, or replaces the weight of the same entry */
static int add_sel(gen_options *o, const gen_modsel *s)
{
    for (int i = 0; i < o->nsel; i++) {
        gen_modsel *t = &o->sel[i];
        if (t->level == s->level && t->idx == s->idx && t->nmods == s->nmods && (t->weight < 0) == (s->weight < 0) &&
            !memcmp(t->ids, s->ids, sizeof s->ids)) {
            t->weight = s->weight;
            return 0;
        }
    }
    gen_modsel *n = realloc(o->sel, (size_t)(o->nsel + 1) * sizeof *n);
    if (!n)
        return -1;
    o->sel = n;
    o->sel[o->nsel++] = *s;
    return 0;
}

static gisa_status set_weights(gisa_gen *g, const char *value, gisa_diags *diags)
{
    gen_options *o = &g->o;
    /* checked whole first: NAME=W, ... */
    list_iter it = {value, NULL, 0};
    int n = 0;
    while (list_next(&it)) {
        const char *eq = memchr(it.item, '=', it.len);
        if (!it.len || !eq)
            return fail(diags, "weights", "expected NAME=WEIGHT items separated by commas, not '%.*s'", (int)it.len,
                        it.item);
        name_level lv;
        size_t nl = (size_t)(eq - it.item);
        while (nl && it.item[nl - 1] == ' ')
            nl--;
        gen_modsel ms;
        int idx0 = find_name(g, it.item, nl, &lv);
        if (idx0 < 0 && memchr(it.item, '.', nl)) {
            gisa_status st = parse_modsel(g, diags, "weights", it.item, nl, &ms);
            if (st != GISA_OK)
                return st;
            lv = ms.level;
        } else if (idx0 < 0)
            return unknown_name(g, diags, "weights", it.item, nl, 0);
        if (lv == NAME_OPCODE)
            return fail(diags, "weights", "'%.*s' is an opcode: weights are per family or optype (--include and "
                        "--exclude take opcodes)", (int)nl, it.item);
        char num[16];
        const char *w = eq + 1;
        while (*w == ' ')
            w++;
        size_t wl = (size_t)(it.item + it.len - w);
        uint32_t v;
        if (wl >= sizeof num || (memcpy(num, w, wl), num[wl] = 0, parse_count(num, MAX_WEIGHT, &v)))
            return fail(diags, "weights", "weight of %.*s: expected an integer from 0 to %d, not '%.*s'", (int)nl,
                        it.item, MAX_WEIGHT, (int)wl, w);
        /* one name twice in a value is a slip (which weight was meant?),
         * not "the last wins" */
        int idx = find_name(g, it.item, nl, &lv);
        list_iter before = {value, NULL, 0};
        for (int k = 0; k < n && list_next(&before); k++) {
            const char *beq = memchr(before.item, '=', before.len);
            size_t bl = (size_t)(beq - before.item);
            while (bl && before.item[bl - 1] == ' ')
                bl--;
            name_level blv;
            if (find_name(g, before.item, bl, &blv) == idx && blv == lv)
                return fail(diags, "weights", "%.*s is given two weights", (int)nl, it.item);
        }
        n++;
    }
    if (!n)
        return fail(diags, "weights", "expected NAME=WEIGHT items separated by commas");
    it = (list_iter){value, NULL, 0};
    while (list_next(&it)) {
        const char *eq = memchr(it.item, '=', it.len);
        size_t nl = (size_t)(eq - it.item);
        while (nl && it.item[nl - 1] == ' ')
            nl--;
        name_level lv;
        int idx = find_name(g, it.item, nl, &lv);
        const char *w = eq + 1;
        uint32_t v = 0;
        for (; w < it.item + it.len; w++)
            if (*w >= '0' && *w <= '9')
                v = v * 10 + (uint32_t)(*w - '0');
        gen_modsel ms;
        if (idx < 0) { /* NAME.VALUE: checked above */
            parse_modsel(g, NULL, "weights", it.item, nl, &ms);
            ms.weight = v;
            if (add_sel(o, &ms))
                return GISA_ERR_NOMEM;
            continue;
        }
        (lv == NAME_FAMILY ? o->w_family : o->w_optype)[idx] = v;
    }
    o->text[0] = append_text(o->text[0], value);
    return GISA_OK;
}

static gisa_status set_list(gisa_gen *g, int exclude, const char *value, gisa_diags *diags)
{
    gen_options *o = &g->o;
    const char *opt = exclude ? "exclude" : "include";
    list_iter it = {value, NULL, 0};
    int n = 0;
    while (list_next(&it)) {
        name_level lv;
        if (!it.len)
            return fail(diags, opt, "expected names separated by commas, found an empty item");
        gen_modsel ms;
        if (find_name(g, it.item, it.len, &lv) < 0 && memchr(it.item, '.', it.len)) {
            gisa_status st = parse_modsel(g, diags, opt, it.item, it.len, &ms);
            if (st != GISA_OK)
                return st;
        } else if (find_name(g, it.item, it.len, &lv) < 0)
            return unknown_name(g, diags, opt, it.item, it.len, 1);
        n++;
    }
    if (!n)
        return fail(diags, opt, "expected names separated by commas");
    it = (list_iter){value, NULL, 0};
    while (list_next(&it)) {
        name_level lv;
        int idx = find_name(g, it.item, it.len, &lv);
        o->ninclude += !exclude;
        if (idx < 0) { /* NAME.VALUE: only with those values; excluded: never with them */
            gen_modsel ms;
            parse_modsel(g, NULL, opt, it.item, it.len, &ms);
            ms.weight = exclude ? 0 : -1;
            if (add_sel(o, &ms))
                return GISA_ERR_NOMEM;
            continue;
        }
        (exclude ? o->exc : o->inc)[lv][idx] = 1;
    }
    o->text[exclude ? 2 : 1] = append_text(o->text[exclude ? 2 : 1], value);
    return GISA_OK;
}

static gisa_status set_streams(gisa_gen *g, const char *value, gisa_diags *diags)
{
    gen_options *o = &g->o;
    uint8_t on[64] = {0};
    int none = 0, some = 0;
    list_iter it = {value, NULL, 0};
    while (list_next(&it)) {
        int s = -1;
        for (int k = 0; k < gen_nstreams && s < 0; k++)
            if (strlen(gen_stream_defs[k].name) == it.len && !strncasecmp(gen_stream_defs[k].name, it.item, it.len))
                s = k;
        if (it.len == 4 && !strncasecmp(it.item, "none", 4)) {
            none = 1;
            continue;
        }
        if (s < 0) {
            char names[256] = "";
            for (int k = 0; k < gen_nstreams; k++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                         gen_stream_defs[k].name);
            return fail(diags, "streams", "unknown stream '%.*s' (expected some of: %s; or none)", (int)it.len,
                        it.item, names);
        }
        if (!g->t.stream_ok[s])
            return fail(diags, "streams", "stream %s uses instructions target %s does not have", gen_stream_defs[s].name,
                        g->t.isa->target_name ? g->t.isa->target_name : "(this ISA)");
        on[s] = 1;
        some = 1;
    }
    if (none && some)
        return fail(diags, "streams", "'none' and streams together: give the streams, or none alone");
    memcpy(o->stream_on, on, (size_t)gen_nstreams);
    o->streams_given = 1;
    free(o->streams_text);
    o->streams_text = strdup(value);
    return GISA_OK;
}

/* "full=W,random=W,single=W,empty=W": the kinds not named get 0 */
static gisa_status set_active(gisa_gen *g, const char *value, gisa_diags *diags)
{
    uint32_t w[GEN_ACTIVE_KINDS] = {0}, seen = 0, total = 0;
    list_iter it = {value, NULL, 0};
    while (list_next(&it)) {
        const char *eq = memchr(it.item, '=', it.len);
        if (!eq)
            return fail(diags, "active", "expected KIND=WEIGHT items separated by commas (kinds: full, random, "
                        "single, empty), not '%.*s'", (int)it.len, it.item);
        size_t nl = (size_t)(eq - it.item);
        while (nl && it.item[nl - 1] == ' ')
            nl--;
        int k = -1, best = -1, bestd = 3;
        for (int j = 0; j < GEN_ACTIVE_KINDS; j++) {
            int d = edit_distance(it.item, nl, gen_active_names[j], strlen(gen_active_names[j]));
            if (strlen(gen_active_names[j]) == nl && !strncasecmp(it.item, gen_active_names[j], nl))
                k = j;
            else if (d < bestd)
                bestd = d, best = j;
        }
        if (k < 0 && best >= 0)
            return fail(diags, "active", "unknown mask kind '%.*s' (did you mean %s?)", (int)nl, it.item,
                        gen_active_names[best]);
        if (k < 0)
            return fail(diags, "active", "unknown mask kind '%.*s' (expected full, random, single or empty)", (int)nl,
                        it.item);
        if (seen >> k & 1)
            return fail(diags, "active", "%s is given two weights", gen_active_names[k]);
        const char *v = eq + 1;
        while (*v == ' ')
            v++;
        char num[16];
        size_t vl = (size_t)(it.item + it.len - v);
        if (vl >= sizeof num || (memcpy(num, v, vl), num[vl] = 0, parse_count(num, MAX_WEIGHT, &w[k])))
            return fail(diags, "active", "weight of %s: expected an integer from 0 to %d, not '%.*s'",
                        gen_active_names[k], MAX_WEIGHT, (int)vl, v);
        seen |= 1u << k;
        total += w[k];
    }
    if (!total)
        return fail(diags, "active", "every mask kind has weight 0: give one a weight above 0");
    memcpy(g->o.active, w, sizeof w);
    g->o.active_given = memcmp(w, gen_active_default, sizeof w) != 0;
    return GISA_OK;
}

static gisa_status set_option(gisa_gen *g, const opt_def *d, const char *value, gisa_diags *diags);

gisa_status gisa_gen_set(gisa_gen *g, const char *name, const char *value, gisa_diags *diags)
{
    if (!g || !name || !value)
        return GISA_ERR_USAGE;
    const opt_def *d = NULL;
    for (size_t i = 0; i < NOPTS && !d; i++)
        if (!strcmp(opt_defs[i].name, name))
            d = &opt_defs[i];
    if (!d) {
        const char *best = NULL;
        int bestd = 3;
        for (size_t i = 0; i < NOPTS; i++) {
            int dist = edit_distance(name, strlen(name), opt_defs[i].name, strlen(opt_defs[i].name));
            if (dist < bestd) {
                bestd = dist;
                best = opt_defs[i].name;
            }
        }
        if (best)
            return fail(diags, name, "unknown generator option (did you mean --%s?)", best);
        return fail(diags, name, "unknown generator option");
    }
    gisa_status st = set_option(g, d, value, diags);
    if (st == GISA_OK && !strcmp(d->name, "stream-rate"))
        g->o.stream_rate_given = 1;
    return st;
}

/* The index of name (len n, any case) in names, or -1 with the closest
 * within two edits in *best (-1: none) */
static int find_word(const char *const *names, int count, const char *s, size_t n, int *best)
{
    int bestd = 3;
    *best = -1;
    for (int j = 0; j < count; j++) {
        if (strlen(names[j]) == n && !strncasecmp(s, names[j], n))
            return j;
        int d = edit_distance(s, n, names[j], strlen(names[j]));
        if (d < bestd)
            bestd = d, *best = j;
    }
    return -1;
}

/* "[SCOPE:]CLASS=W,...": a scope named (imm, reg, const; none: all three)
 * takes its weights from these items only, its other classes get 0; a
 * scope never named keeps the built-in mix. */
static gisa_status set_values(gen_options *o, const char *value, gisa_diags *diags)
{
    uint32_t w[GEN_VALUE_SCOPES][GEN_VALUE_CLASSES] = {{0}};
    uint8_t given[GEN_VALUE_SCOPES] = {0}, seen[GEN_VALUE_SCOPES][GEN_VALUE_CLASSES] = {{0}};
    list_iter it = {value, NULL, 0};
    int n = 0;
    while (list_next(&it)) {
        const char *eq = memchr(it.item, '=', it.len), *colon = memchr(it.item, ':', it.len);
        if (!eq || (colon && colon > eq))
            return fail(diags, "int-values", "expected [SCOPE:]CLASS=WEIGHT items separated by commas (scopes: imm, reg, "
                        "const; classes: zero, one, minus-one, min, max, pow2, small, random), not '%.*s'",
                        (int)it.len, it.item);
        int lo = 0, hi = GEN_VALUE_SCOPES, best;
        const char *c = it.item;
        if (colon) {
            int sc = find_word(gen_value_scope_names, GEN_VALUE_SCOPES, it.item, (size_t)(colon - it.item), &best);
            if (sc < 0)
                return fail(diags, "int-values", "unknown scope '%.*s' (%s%s%sexpected imm, reg or const)",
                            (int)(colon - it.item), it.item, best >= 0 ? "did you mean " : "",
                            best >= 0 ? gen_value_scope_names[best] : "", best >= 0 ? "? " : "");
            lo = sc, hi = sc + 1;
            c = colon + 1;
        }
        size_t cl = (size_t)(eq - c);
        while (cl && c[cl - 1] == ' ')
            cl--;
        int k = find_word(gen_value_names, GEN_VALUE_CLASSES, c, cl, &best);
        if (k < 0 && best >= 0)
            return fail(diags, "int-values", "unknown value class '%.*s' (did you mean %s?)", (int)cl, c,
                        gen_value_names[best]);
        if (k < 0)
            return fail(diags, "int-values", "unknown value class '%.*s' (expected zero, one, minus-one, min, max, pow2, "
                        "small or random)", (int)cl, c);
        const char *v = eq + 1;
        while (*v == ' ')
            v++;
        char num[16];
        size_t vl = (size_t)(it.item + it.len - v);
        uint32_t x;
        if (vl >= sizeof num || (memcpy(num, v, vl), num[vl] = 0, parse_count(num, MAX_WEIGHT, &x)))
            return fail(diags, "int-values", "weight of %.*s: expected an integer from 0 to %d, not '%.*s'", (int)cl, c,
                        MAX_WEIGHT, (int)vl, v);
        for (int sc = lo; sc < hi; sc++) {
            if (seen[sc][k])
                return fail(diags, "int-values", "%s:%s is given two weights", gen_value_scope_names[sc],
                            gen_value_names[k]);
            seen[sc][k] = given[sc] = 1;
            w[sc][k] = x;
        }
        n++;
    }
    if (!n)
        return fail(diags, "int-values", "expected [SCOPE:]CLASS=WEIGHT items separated by commas");
    for (int sc = 0; sc < GEN_VALUE_SCOPES; sc++) {
        uint64_t total = 0;
        for (int k = 0; k < GEN_VALUE_CLASSES; k++)
            total += w[sc][k];
        if (given[sc] && !total)
            return fail(diags, "int-values", "every class of %s has weight 0: give one a weight above 0",
                        gen_value_scope_names[sc]);
    }
    char *text = strdup(value);
    if (!text)
        return GISA_ERR_NOMEM;
    memcpy(o->values, w, sizeof w);
    memcpy(o->values_given, given, sizeof given);
    free(o->values_text);
    o->values_text = text;
    return GISA_OK;
}

static gisa_status set_option(gisa_gen *g, const opt_def *d, const char *value, gisa_diags *diags)
{
    uint32_t v;
    switch (d->kind) {
    case OPT_COUNT: {
        uint32_t hi = d->hi;
        if (!strcmp(d->name, "regs") && hi > g->t.max_regs)
            hi = g->t.max_regs;
        if (!strcmp(d->name, "uregs") && !g->t.has_uniform) /* the value would go into the state and the header for nothing */
            return fail(diags, d->name, "target %s has no uniform registers",
                        g->t.isa->target_name ? g->t.isa->target_name : "(this ISA)");
        if (parse_count(value, hi, &v) || v < d->lo)
            return fail(diags, d->name, "expected an integer from %u to %u, not '%s'", d->lo, hi, value);
        *opt_u32(&g->o, d) = v;
        return GISA_OK;
    }
    case OPT_RATE:
        if (parse_rate(value, &v))
            return fail(diags, d->name, "expected a rate from 0 to 1 (like 0.25) or a percentage (25%%), not '%s'",
                        value);
        *opt_u32(&g->o, d) = v;
        return GISA_OK;
    case OPT_WEIGHTS: return set_weights(g, value, diags);
    case OPT_INCLUDE: return set_list(g, 0, value, diags);
    case OPT_EXCLUDE: return set_list(g, 1, value, diags);
    case OPT_STREAMS: return set_streams(g, value, diags);
    case OPT_ACTIVE: return set_active(g, value, diags);
    case OPT_VALUES: return set_values(&g->o, value, diags);
    case OPT_COVER: return gen_cover_set(g, value, diags);
    }
    return GISA_ERR_USAGE;
}

static void put_rate(char *buf, size_t cap, uint32_t ppm)
{
    char frac[8];
    snprintf(frac, sizeof frac, "%06u", ppm % GEN_PPM);
    for (int i = 5; i > 0 && frac[i] == '0'; i--)
        frac[i] = 0;
    if (ppm % GEN_PPM == 0)
        snprintf(buf, cap, "%u", ppm / GEN_PPM);
    else
        snprintf(buf, cap, "%u.%s", ppm / GEN_PPM, frac);
}

void gen_options_describe(const gen_options *o, const gen_tables *t, uint64_t seed, size_t count, strbuf *b)
{
#define PUT(...) sb_printf(b, __VA_ARGS__)
    PUT("// gisa gen --target %s --seed %llu --count %zu", t->isa->target_name ? t->isa->target_name : "?",
        (unsigned long long)seed, count);
    for (size_t i = 0; i < NOPTS; i++) {
        const opt_def *d = &opt_defs[i];
        uint32_t v = d->kind == OPT_COUNT || d->kind == OPT_RATE ? *opt_u32((gen_options *)o, d) : 0;
        if (d->kind == OPT_COUNT && (v != d->def || !strcmp(d->name, "regs")))
            PUT(" --%s %u", d->name, v);
        else if (d->kind == OPT_RATE && v != d->def) {
            char r[24];
            put_rate(r, sizeof r, v);
            PUT(" --%s %s", d->name, r);
        } else if (d->kind >= OPT_WEIGHTS && d->kind <= OPT_EXCLUDE && o->text[d->kind - OPT_WEIGHTS])
            PUT(" --%s '%s'", d->name, o->text[d->kind - OPT_WEIGHTS]);
        else if (d->kind == OPT_STREAMS && o->streams_text)
            PUT(" --%s '%s'", d->name, o->streams_text);
        else if (d->kind == OPT_VALUES && o->values_text)
            PUT(" --%s '%s'", d->name, o->values_text);
        else if (d->kind == OPT_ACTIVE && o->active_given)
            PUT(" --%s 'full=%u,random=%u,single=%u,empty=%u'", d->name, o->active[ACT_FULL], o->active[ACT_RANDOM],
                o->active[ACT_SINGLE], o->active[ACT_EMPTY]);
    }
#undef PUT
}

