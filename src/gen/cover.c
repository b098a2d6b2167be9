/* --cover: coverage-directed generation. The value is a coverage file's
 * text (gisa cov --json, run --coverage; docs/coverage.md), read here as
 * JSON (the generator does not link the coverage tables): every item it
 * lists with a count of 0 is a hole. The holes become ordinary options,
 * set as if given, so the program's header repeats them and the program
 * is reproducible without the file:
 *  - --weights OPTYPE=1+holes for every optype with holes (the others keep
 *    weight 1), so the draw goes where the holes are;
 *  - --int-values with each integer class weighted by the value and result
 *    bins of integer optypes it would fill (random keeps a base weight);
 *  - --fp-rate 0.6 (corner values twice as often as the default) while
 *    floating-point optypes have holes.
 * Options given after it (the CLI sets it first) override what it set. */
#include <stdio.h>
#include <string.h>

#include "common/diag.h"
#include "common/json.h"
#include "common/strbuf.h"
#include "gen/gen.h"

/* The coverage's integer class names, in the order of gen_value_names */
static const char *const cov_int[GEN_VALUE_CLASSES] = {"0", "1", "-1", "MIN", "MAX", "2^n", "small", "other"};

#define COVER_MAX_WEIGHT 1000
#define COVER_FP_RATE "0.6"

typedef struct cover {
    json_parser j;
    const gen_tables *t;
    uint64_t *holes;                   /* per optype */
    uint64_t int_holes[GEN_VALUE_CLASSES];
    uint64_t fp_holes;
    int bad;
} cover;

/* Counts the zero counts under v (any depth); int_group: v is a bin group
 * of integer classes, whose zero keys are class holes. */
static uint64_t zeros(cover *c, const json_val *v, int int_group, int depth)
{
    if (v->type == JSON_NUMBER)
        return v->n == 1 && v->s[0] == '0';
    if (v->type != JSON_OBJECT || depth > 8) {
        c->bad |= json_skip(&c->j, v) != 0;
        return 0;
    }
    uint64_t n = 0;
    json_val k, val;
    char key[256];
    for (int first = 1; json_member(&c->j, &first, &k) == 1 && !json_value(&c->j, &val);) {
        if (json_unescape(&k, key, sizeof key) == (size_t)-1)
            key[0] = 0;
        size_t kl = strlen(key);
        int ints = kl > 6 && (!strcmp(key + kl - 6, " value") || !strcmp(key + kl - 7, " result"));
        uint64_t z = zeros(c, &val, depth == 1 && ints, depth + 1);
        n += z;
        for (int i = 0; int_group && z && i < GEN_VALUE_CLASSES; i++)
            if (!strcmp(key, cov_int[i]))
                c->int_holes[i]++;
    }
    return n;
}

static void read_optype(cover *c, int ti, const json_val *v)
{
    json_val k, val;
    char key[64];
    int fp = 0;
    uint64_t h = 0;
    if (v->type != JSON_OBJECT) {
        c->bad |= json_skip(&c->j, v) != 0;
        return;
    }
    for (int first = 1; json_member(&c->j, &first, &k) == 1 && !json_value(&c->j, &val);) {
        if (json_unescape(&k, key, sizeof key) == (size_t)-1)
            key[0] = 0;
        if (!strcmp(key, "fp_format")) {
            fp = val.type == JSON_STRING;
            c->bad |= json_skip(&c->j, &val) != 0;
        } else if (!strcmp(key, "modifiers") || !strcmp(key, "combinations") || !strcmp(key, "operands") ||
                   !strcmp(key, "bins")) {
            uint64_t z = zeros(c, &val, 0, !strcmp(key, "bins"));
            h += z;
            if (fp && strcmp(key, "modifiers") && strcmp(key, "combinations"))
                c->fp_holes += z;
        } else {
            c->bad |= json_skip(&c->j, &val) != 0;
        }
    }
    if (ti >= 0)
        c->holes[ti] += h;
}

static gisa_status fail(gisa_diags *d, const char *fmt, const char *a)
{
    srcloc at = {"cover", 0, 0, 0, NULL, 0, NULL};
    diag_add(d, GISA_ERROR, &at, fmt, a);
    return GISA_ERR_USAGE;
}

gisa_status gen_cover_set(gisa_gen *g, const char *text, gisa_diags *diags)
{
    const gisa_isa *isa = g->t.isa;
    uint64_t holes[512];
    if (isa->noptypes > 512)
        return fail(diags, "--cover: %s", "too many optypes");
    memset(holes, 0, sizeof holes);
    cover c = {.t = &g->t, .holes = holes};
    json_init(&c.j, text, strlen(text));
    json_val root, k, val;
    char key[256], target[256] = "", format[64] = "";
    if (json_value(&c.j, &root) || root.type != JSON_OBJECT)
        return fail(diags, "--cover: %s", "not a coverage file (a JSON object from 'gisa cov --json' or 'run --coverage')");
    for (int first = 1; json_member(&c.j, &first, &k) == 1 && !json_value(&c.j, &val);) {
        if (json_unescape(&k, key, sizeof key) == (size_t)-1)
            key[0] = 0;
        if (!strcmp(key, "format") && val.type == JSON_STRING)
            json_unescape(&val, format, sizeof format);
        else if (!strcmp(key, "target") && val.type == JSON_STRING)
            json_unescape(&val, target, sizeof target);
        if (!strcmp(key, "optypes") && val.type == JSON_OBJECT) {
            json_val tk, tv;
            for (int f2 = 1; json_member(&c.j, &f2, &tk) == 1 && !json_value(&c.j, &tv);) {
                int ti = -1;
                if (json_unescape(&tk, key, sizeof key) != (size_t)-1)
                    for (int i = 0; i < isa->noptypes && ti < 0; i++)
                        if (!strcmp(isa->optypes[i].name, key))
                            ti = i;
                read_optype(&c, ti, &tv);
            }
        } else {
            c.bad |= json_skip(&c.j, &val) != 0;
        }
    }
    if (c.j.failed || c.bad || json_finish(&c.j))
        return fail(diags, "--cover: %s", "not a coverage file (its JSON does not parse)");
    if (strcmp(format, "gisa-coverage"))
        return fail(diags, "--cover: %s", "not a coverage file (no \"format\": \"gisa-coverage\")");
    if (isa->target_name && strcmp(target, isa->target_name))
        return fail(diags, "--cover: the coverage is of target '%s', not this one", target);
    /* the options it stands for */
    strbuf w;
    sb_init(&w);
    for (int i = 0; i < isa->noptypes; i++)
        if (holes[i])
            sb_printf(&w, "%s%s=%llu", w.len ? "," : "", isa->optypes[i].name,
                      (unsigned long long)(holes[i] + 1 < COVER_MAX_WEIGHT ? holes[i] + 1 : COVER_MAX_WEIGHT));
    strbuf v;
    sb_init(&v);
    uint64_t any_int = 0;
    for (int i = 0; i < GEN_VALUE_CLASSES; i++)
        any_int += c.int_holes[i];
    /* every scope when the model has integer immediates, else the state's
     * (--int-values imm:... is refused where none is allowed) */
    int has_imm = 0;
    for (int o = 0; o < isa->nopcodes && !has_imm; o++)
        has_imm = g->t.ops[o].int_imm && g->t.ops[o].usable;
    for (int s = has_imm ? -1 : VS_REG; any_int && s < (has_imm ? 0 : GEN_VALUE_SCOPES); s++)
        for (int i = 0; i < GEN_VALUE_CLASSES; i++) {
            uint64_t x = 1 + c.int_holes[i] + (i == VAL_RANDOM ? 4 : 0);
            sb_printf(&v, "%s%s%s%s=%llu", v.len ? "," : "", s < 0 ? "" : gen_value_scope_names[s], s < 0 ? "" : ":",
                      gen_value_names[i], (unsigned long long)(x < COVER_MAX_WEIGHT ? x : COVER_MAX_WEIGHT));
        }
    gisa_status st = w.failed || v.failed ? GISA_ERR_NOMEM : GISA_OK;
    if (st == GISA_OK && w.len)
        st = gisa_gen_set(g, "weights", w.s, diags);
    if (st == GISA_OK && v.len)
        st = gisa_gen_set(g, "int-values", v.s, diags);
    if (st == GISA_OK && c.fp_holes)
        st = gisa_gen_set(g, "fp-rate", COVER_FP_RATE, diags);
    sb_free(&w);
    sb_free(&v);
    return st;
}
