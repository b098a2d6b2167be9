/* The commit log: text (or JSON) of commit records. gisa_sim_run's trace
 * and anyone stepping with gisa_sim_step format the same records here, so a
 * trace and a lockstep run can never disagree about what was written.
 *
 * Text, one line per instruction reached, then one per write:
 *   w0 4 exec 0x0000ffff IMAD R5, R1, R3, R2
 *   w0   R5 = 0x00000009 lanes 0x0000fffe      most common value, its lanes
 *   w0   R5[0] = 0x0000000d                    the other lanes, one by one
 *   w0   P0 = 0x0000000f lanes 0x0000ffff      predicate: lane bits, lanes written
 *   w0   UR3 = 0x00000003
 * The GISA_TRACE_F32/F16/BF16 flags add `f32=1.5` / `f16=H1,H0` after each
 * value; GISA_TRACE_F64 shows a written pair R[n:n+1] as one 64-bit value;
 * GISA_TRACE_ENGINE writes the engine that ran it before the text
 * (`w0 4 exec 0x0000ffff [doc] IMAD ...`). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/fpconv.h"
#include "common/strbuf.h"
#include "sim/sim.h"

static const char *const rf_name[] = {"R", "P", "UR", "UP"};

static void put_float(strbuf *b, uint64_t bits, fp_format f)
{
    char num[FP_PRINT_MAX + 1];
    if (fp_print(bits, f, num, sizeof num) != 0)
        strcpy(num, bits >> (f == FP_F64 ? 63 : f == FP_F32 ? 31 : 15) & 1 ? "-nan" : "nan");
    sb_puts(b, num);
}

static const struct {
    unsigned flag;
    fp_format f;
    const char *name;
} number_kinds[] = {{GISA_TRACE_F32, FP_F32, "f32"}, {GISA_TRACE_F16, FP_F16, "f16"}, {GISA_TRACE_BF16, FP_BF16, "bf16"}};

/* A 32-bit value read as one F32 or two halves (H1,H0). */
static void put_number(strbuf *b, uint32_t v, fp_format f)
{
    if (f == FP_F32) {
        put_float(b, v, f);
        return;
    }
    put_float(b, v >> 16, f);
    sb_putc(b, ',');
    put_float(b, v & 0xffff, f);
}

/* ` f32=1.5 f16=1.9,0`: the numbers of a value as the flags ask */
static void put_numbers(strbuf *b, uint32_t v, unsigned flags)
{
    for (size_t i = 0; i < sizeof number_kinds / sizeof number_kinds[0]; i++)
        if (flags & number_kinds[i].flag) {
            sb_printf(b, " %s=", number_kinds[i].name);
            put_number(b, v, number_kinds[i].f);
        }
}

/* ,"f32":["1.5",null,...]: per lane, for the lanes written; a uniform
 * register's value: ,"f32":"1.5" */
static void json_numbers(strbuf *b, const uint32_t *v, uint32_t mask, unsigned flags, int uniform)
{
    for (size_t i = 0; i < sizeof number_kinds / sizeof number_kinds[0]; i++) {
        if (!(flags & number_kinds[i].flag))
            continue;
        sb_printf(b, ",\"%s\":", number_kinds[i].name);
        if (uniform) {
            sb_putc(b, '"');
            put_number(b, v[0], number_kinds[i].f);
            sb_putc(b, '"');
            continue;
        }
        sb_putc(b, '[');
        for (int l = 0; l < LANES; l++) {
            sb_puts(b, l ? "," : "");
            if (!(mask >> l & 1)) {
                sb_puts(b, "null");
                continue;
            }
            sb_putc(b, '"');
            put_number(b, v[l], number_kinds[i].f);
            sb_putc(b, '"');
        }
        sb_putc(b, ']');
    }
}

static void put_value(strbuf *b, uint64_t v, int wide, unsigned flags)
{
    if (wide) {
        sb_printf(b, "0x%016llx", (unsigned long long)v);
        sb_puts(b, " f64=");
        put_float(b, v, FP_F64);
    } else {
        sb_printf(b, "0x%08x", (unsigned)v);
        put_numbers(b, (uint32_t)v, flags);
    }
}

/* Where the lines go: the callback, and its first status other than
 * GISA_OK, after which no line is sent. */
typedef struct sink {
    gisa_trace_fn fn;
    void *user;
    gisa_status st;
} sink;

static void emit(strbuf *b, sink *k)
{
    if (!b->failed && k->st == GISA_OK)
        k->st = k->fn(k->user, b->s);
    b->len = 0;
    if (b->s)
        b->s[0] = 0;
}

/* One register's lanes: the most common value with its lanes, then each
 * other lane. v(l) is the lane's value (64-bit for a pair). */
static void text_lanes(strbuf *b, const gisa_sim_commit *c, const char *reg, const uint64_t *v, uint32_t mask,
                       int wide, unsigned flags, sink *k)
{
    int best = -1, best_n = 0;
    for (int l = 0; l < LANES; l++) {
        if (!(mask >> l & 1))
            continue;
        int n = 0;
        for (int k = l; k < LANES; k++)
            n += (mask >> k & 1) && v[k] == v[l];
        if (n > best_n)
            best = l, best_n = n;
    }
    uint32_t grouped = 0;
    if (best_n > 1) {
        for (int l = 0; l < LANES; l++)
            if ((mask >> l & 1) && v[l] == v[best])
                grouped |= UINT32_C(1) << l;
        sb_printf(b, "w%u   %s = ", c->warp, reg);
        put_value(b, v[best], wide, flags);
        sb_printf(b, " lanes 0x%08x", grouped);
        emit(b, k);
    }
    for (int l = 0; l < LANES; l++) {
        if (!(mask >> l & 1) || (grouped >> l & 1))
            continue;
        sb_printf(b, "w%u   %s[%d] = ", c->warp, reg, l);
        put_value(b, v[l], wide, flags);
        emit(b, k);
    }
}

/* A written pair R[n:n+1] shown as one value (GISA_TRACE_F64). */
static int is_pair(const gisa_sim_commit *c, unsigned i, unsigned flags)
{
    const gisa_sim_effect *e = &c->effect[i];
    return (flags & GISA_TRACE_F64) && i + 1 < c->neffects && e->rf == GISA_RF_R && e[1].rf == GISA_RF_R &&
           e[1].index == e->index + 1 && e[1].mask == e->mask;
}

static const char *engine_name(unsigned engine)
{
    return engine == GISA_ENGINE_NATIVE ? "native" : engine == GISA_ENGINE_DOC ? "doc" : "none";
}

static void format_text(strbuf *b, const gisa_sim_commit *c, unsigned flags, sink *k)
{
    sb_printf(b, "w%u %zu exec 0x%08x ", c->warp, c->pc, c->exec);
    if (flags & GISA_TRACE_ENGINE)
        sb_printf(b, "[%s] ", engine_name(c->engine));
    sb_puts(b, c->text ? c->text : "");
    emit(b, k);
    for (unsigned i = 0; i < c->neffects; i++) {
        const gisa_sim_effect *e = &c->effect[i];
        char reg[24];
        uint64_t v[LANES];
        switch (e->rf) {
        case GISA_RF_R:
            if (is_pair(c, i, flags)) {
                snprintf(reg, sizeof reg, "R[%u:%u]", e->index, e->index + 1);
                for (int l = 0; l < LANES; l++)
                    v[l] = (uint64_t)e[1].value[l] << 32 | e->value[l];
                text_lanes(b, c, reg, v, e->mask, 1, flags, k);
                i++;
                break;
            }
            snprintf(reg, sizeof reg, "R%u", e->index);
            for (int l = 0; l < LANES; l++)
                v[l] = e->value[l];
            text_lanes(b, c, reg, v, e->mask, 0, flags, k);
            break;
        case GISA_RF_P: {
            uint32_t bits = 0;
            for (int l = 0; l < LANES; l++)
                bits |= (e->value[l] & 1u) << l;
            sb_printf(b, "w%u   P%u = 0x%08x lanes 0x%08x", c->warp, e->index, bits & e->mask, e->mask);
            emit(b, k);
            break;
        }
        case GISA_RF_UR:
            sb_printf(b, "w%u   UR%u = ", c->warp, e->index);
            put_value(b, e->value[0], 0, flags);
            emit(b, k);
            break;
        case GISA_RF_UP:
            sb_printf(b, "w%u   UP%u = %u", c->warp, e->index, e->value[0] & 1u);
            emit(b, k);
            break;
        }
    }
}

static void json_string(strbuf *b, const char *s)
{
    sb_putc(b, '"');
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            sb_printf(b, "\\%c", ch);
        else if (ch < 0x20)
            sb_printf(b, "\\u%04x", ch);
        else
            sb_putc(b, (char)ch);
    }
    sb_putc(b, '"');
}

/* {"warp":0,"pc":4,"exec":"0x..","active":"0x..","word":"0x..","text":"..",
 *  "writes":[{"reg":"R5","lanes":"0x..","values":["0x..",null,...]}, ...]} */
static void format_json(strbuf *b, const gisa_isa *isa, const gisa_sim_commit *c, unsigned flags)
{
    sb_printf(b, "{\"warp\":%u,\"pc\":%zu,\"exec\":\"0x%08x\",\"active\":\"0x%08x\",\"word\":\"0x", c->warp, c->pc,
              c->exec, c->active);
    if (gisa_isa_word_bits(isa) > 64)
        sb_printf(b, "%016llx", (unsigned long long)c->word.w[1]);
    sb_printf(b, "%016llx\",\"text\":", (unsigned long long)c->word.w[0]);
    json_string(b, c->text);
    if (flags & GISA_TRACE_ENGINE)
        sb_printf(b, ",\"engine\":\"%s\"", engine_name(c->engine));
    sb_puts(b, ",\"writes\":[");
    for (unsigned i = 0; i < c->neffects; i++) {
        const gisa_sim_effect *e = &c->effect[i];
        sb_printf(b, "%s{\"reg\":\"%s%u\"", i ? "," : "", rf_name[e->rf], e->index);
        if (e->rf == GISA_RF_UR) {
            sb_printf(b, ",\"value\":\"0x%08x\"", e->value[0]);
            json_numbers(b, e->value, 1, flags, 1);
        } else if (e->rf == GISA_RF_UP) {
            sb_printf(b, ",\"value\":%u", e->value[0] & 1u);
        } else {
            sb_printf(b, ",\"lanes\":\"0x%08x\",\"values\":[", e->mask);
            for (int l = 0; l < LANES; l++) {
                if (l)
                    sb_putc(b, ',');
                if (!(e->mask >> l & 1))
                    sb_puts(b, "null");
                else if (e->rf == GISA_RF_P)
                    sb_printf(b, "%u", e->value[l] & 1u);
                else
                    sb_printf(b, "\"0x%08x\"", e->value[l]);
            }
            sb_putc(b, ']');
            if (e->rf == GISA_RF_R)
                json_numbers(b, e->value, e->mask, flags, 0);
            if (i > 0 && is_pair(c, i - 1, flags)) {
                sb_puts(b, ",\"f64\":[");
                for (int l = 0; l < LANES; l++) {
                    sb_puts(b, l ? "," : "");
                    if (!(e->mask >> l & 1)) {
                        sb_puts(b, "null");
                        continue;
                    }
                    sb_putc(b, '"');
                    put_float(b, (uint64_t)e->value[l] << 32 | e[-1].value[l], FP_F64);
                    sb_putc(b, '"');
                }
                sb_putc(b, ']');
            }
        }
        sb_putc(b, '}');
    }
    sb_puts(b, "]}");
}

/* Whether the record's inst and text may be read: NULL, or exactly the
 * simulator's pointers for that pc of the program loaded now. A record made
 * before a gisa_sim_load (or by another simulator) points into memory that
 * load freed: formatting it read freed memory (and printed garbage). The
 * record has no room for a generation number (its layout is API 1.0), so
 * the pointers themselves are compared, as integers, never followed; the
 * word must match too, so that a new program that malloc placed at the old
 * address passes only where it has the same instruction at that pc, whose
 * text is then the record's own. */
static int commit_current(const gisa_sim *s, const gisa_sim_commit *c)
{
    if (!c->text && !c->inst)
        return 1;
    if (c->pc >= s->nwords || c->pc >= s->nprog || !s->prog ||
        memcmp(&c->word, &s->words[c->pc], sizeof c->word) != 0)
        return 0;
    if (c->text && (uintptr_t)c->text != (uintptr_t)s->prog[c->pc].text)
        return 0;
    return !c->inst || (s->insts && (uintptr_t)c->inst == (uintptr_t)&s->insts[c->pc]);
}

static gisa_status sim_commit_format_unguarded(const gisa_sim *s, const gisa_sim_commit *c, unsigned flags, gisa_trace_fn fn,
                                   void *user)
{
    if (!s || !c || !fn || c->neffects > GISA_SIM_MAX_EFFECTS || !commit_current(s, c))
        return GISA_ERR_USAGE;
    for (unsigned i = 0; i < c->neffects; i++)
        if ((unsigned)c->effect[i].rf > GISA_RF_UP)
            return GISA_ERR_USAGE;
    strbuf b;
    sb_init(&b);
    sink k = {fn, user, GISA_OK};
    if (flags & GISA_TRACE_JSON) {
        format_json(&b, s->isa, c, flags);
        emit(&b, &k);
    } else {
        format_text(&b, c, flags, &k);
    }
    int failed = b.failed;
    sb_free(&b);
    return failed ? GISA_ERR_NOMEM : k.st;
}

gisa_status gisa_sim_commit_format(const gisa_sim *s, const gisa_sim_commit *c, unsigned flags, gisa_trace_fn fn,
                                   void *user)
{
    FPENV_RETURN(gisa_status, sim_commit_format_unguarded(s, c, flags, fn, user));
}
