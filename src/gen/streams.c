/* Directed streams: the multi-instruction idioms of the rulings (wide adds
 * and subtracts carried through a predicate, multiply-adds with the high
 * word, IMAD.WIDE 128-bit chains, 64-bit compares, LEA pairs), with fresh
 * registers, carry predicate, shift, immediate and comparison each time.
 * They are written as assembly templates and go through the assembler:
 * a stream whose instructions the target lacks is not offered.
 *
 * Template placeholders: %a0..%a3 the number of register variable a plus
 * 0..3 (the variables and how many registers each spans are in `vars`;
 * a spans at least 2 starts even; a is the destination, the others are
 * sources that read recent destinations at the dependency rate and never
 * overlap a); %p the carry or result predicate; %i a 32-bit immediate;
 * %s a shift 0..31; %C a comparison (.LT ...); %T .U32 or nothing. */
#include <stdio.h>
#include <string.h>

#include "gen/gen.h"

#define NVARS 4

/* The choices of one instance */
typedef struct stream_pick {
    unsigned base[NVARS], span[NVARS];
    unsigned pred, guard, shift;
    int guarded;
    uint32_t imm;
    const char *cmp, *type;
} stream_pick;

int gen_stream_length(int s)
{
    int n = 1;
    for (const char *p = gen_stream_defs[s].lines; *p; p++)
        n += *p == '\n';
    return n;
}

static int overlaps(const stream_pick *k, int v)
{
    return k->base[v] < k->base[0] + k->span[0] && k->base[0] < k->base[v] + k->span[v];
}

/* Registers for each variable: a at random, the sources dependent at the
 * dependency rate, clear of a when a few tries allow. */
static void choose(const gisa_gen *g, gen_run *run, const gen_stream_def *d, stream_pick *k)
{
    gen_rng *r = &run->rng;
    unsigned regs = g->o.regs;
    memset(k, 0, sizeof *k);
    for (const char *p = d->vars; *p; p++) {
        if (*p < 'a' || *p >= 'a' + NVARS)
            continue;
        int v = *p - 'a';
        unsigned span = (unsigned)(p[1] - '0'), slots = (regs - span) / (span > 1 ? 2 : 1) + 1;
        k->span[v] = span;
        for (int tries = 0; tries < 8; tries++) {
            unsigned b = span > 1 ? 2 * (unsigned)gen_below(r, slots) : (unsigned)gen_below(r, slots);
            if (v && run->rgpr.n && gen_chance(r, g->o.dep)) {
                unsigned c = gen_gpr_source(g, run, span > 1);
                if (c + span <= regs)
                    b = c;
            }
            k->base[v] = b;
            if (!v || !overlaps(k, v))
                break;
        }
    }
    static const char *const cmps[] = {".LT", ".LE", ".GT", ".GE", ".EQ", ".NE"};
    k->pred = (unsigned)gen_below(r, 7);
    k->guarded = gen_chance(r, g->o.guard);
    k->guard = (k->pred + 1 + (unsigned)gen_below(r, 6)) % 7; /* never the carry */
    k->shift = g->o.values_given[VS_IMM] ? (unsigned)gen_value_of_class(r, g->o.values[VS_IMM], 5, 0)
                                         : (unsigned)gen_below(r, 32);
    k->imm = g->o.values_given[VS_IMM] ? (uint32_t)gen_value_of_class(r, g->o.values[VS_IMM], 32, 0)
                                         : (uint32_t)gen_next(r);
    k->cmp = cmps[gen_below(r, 6)];
    k->type = gen_below(r, 2) ? ".U32" : "";
}

/* Line `line` of the template with the choices filled in; -1 if too long. */
static int expand(const gen_stream_def *d, int line, const stream_pick *k, char *out, size_t cap)
{
    const char *p = d->lines;
    for (int i = 0; i < line; i++)
        p = strchr(p, '\n') + 1;
    size_t n = 0;
    if (k->guarded)
        n += (size_t)snprintf(out, cap, "@P%u ", k->guard);
    for (; *p && *p != '\n' && n + 16 < cap; p++) {
        if (*p != '%') {
            out[n++] = *p;
            continue;
        }
        char c = *++p;
        if (c >= 'a' && c < 'a' + NVARS)
            n += (size_t)snprintf(out + n, cap - n, "%u", k->base[c - 'a'] + (unsigned)(p[1] - '0')), p++;
        else if (c == 'p')
            n += (size_t)snprintf(out + n, cap - n, "P%u", k->pred);
        else if (c == 'i')
            n += (size_t)snprintf(out + n, cap - n, "0x%x", k->imm);
        else if (c == 's')
            n += (size_t)snprintf(out + n, cap - n, "%u", k->shift);
        else if (c == 'C')
            n += (size_t)snprintf(out + n, cap - n, "%s", k->cmp);
        else if (c == 'T')
            n += (size_t)snprintf(out + n, cap - n, "%s", k->type);
    }
    if (n + 16 >= cap)
        return -1;
    out[n] = 0;
    return 0;
}

/* Assembles the instance; the number of instructions, or 0. */
static int instantiate(const gisa_isa *isa, gisa_diags *scratch, int s, const stream_pick *k, gisa_inst *insts,
                       int max)
{
    const gen_stream_def *d = &gen_stream_defs[s];
    int n = gen_stream_length(s);
    if (n > max || n > GEN_STREAM_LINES)
        return 0;
    for (int i = 0; i < n; i++) {
        char text[GEN_TEXT];
        gisa_diags_clear(scratch);
        gisa_asm_options one = GISA_ASM_OPTIONS_INIT;
        one.flags = GISA_ASM_ONE;
        gisa_word *w = NULL;
        size_t nw = 0;
        int bad = expand(d, i, k, text, sizeof text) ||
                  gisa_assemble(isa, "<input>", text, strlen(text), &one, &w, &nw, scratch) != GISA_OK ||
                  gisa_diags_count(scratch) || gisa_decode(isa, w[0], &insts[i]) != GISA_OK;
        gisa_free(w);
        if (bad)
            return 0;
    }
    return n;
}

void gen_stream_probe(gen_tables *t, gisa_diags *scratch)
{
    for (int s = 0; s < gen_nstreams; s++) {
        stream_pick k = {.base = {0, 8, 16, 24}, .span = {4, 4, 4, 4}, .pred = 0, .cmp = ".LT", .type = ""};
        gisa_inst insts[GEN_STREAM_LINES];
        int n = t->max_regs >= 32 ? instantiate(t->isa, scratch, s, &k, insts, GEN_STREAM_LINES) : 0;
        t->stream_ok[s] = n > 0;
        for (int i = 0; i < GEN_STREAM_LINES; i++)
            t->stream_ops[s][i] = i < n ? insts[i].opcode : -1;
    }
}

int gen_stream_emit(const gisa_gen *g, gen_run *r, int s, gisa_inst *insts, int max)
{
    stream_pick k;
    choose(g, r, &gen_stream_defs[s], &k);
    return instantiate(g->t.isa, g->scratch, s, &k, insts, max);
}
