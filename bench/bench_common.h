/* Shared workload of the benchmarks: a pool of distinct valid instruction
 * words generated from the model (every opcode in rotation, random syntax
 * form, random legal field values), cycled to BENCH_N instructions.
 * Not a test: the programs print rates. */
#ifndef GISA_BENCH_COMMON_H
#define GISA_BENCH_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/unit/apihelp.h"
#include "gisa.h"
#include "spec/expr.h"
#include "spec/model.h"

#define BENCH_N 1000000     /* instructions per timed run */
#define BENCH_POOL 10000    /* distinct valid words, cycled to BENCH_N */
#define BENCH_RUNS 5        /* best of */
#define BENCH_TRIES 1000    /* random attempts per pool word */
#define BENCH_MAXF 64
#define BENCH_SET (1 << 16) /* distinct-word table, power of two > BENCH_POOL */
#define BENCH_TEXT 256      /* disassembly buffer */

static inline double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best times of the runs: the benchmark thread's CPU time, which the
 * other processes of a shared machine do not inflate, and wall time. */
typedef struct bench_time {
    double cpu, wall, cpu0, wall0;
} bench_time;

static inline bench_time bench_time_init(void) { return (bench_time){1e30, 1e30, 0, 0}; }

static inline void bench_start(bench_time *t)
{
    t->wall0 = clock_s(CLOCK_MONOTONIC);
    t->cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static inline void bench_stop(bench_time *t)
{
    double cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - t->cpu0, wall = clock_s(CLOCK_MONOTONIC) - t->wall0;
    t->cpu = cpu < t->cpu ? cpu : t->cpu;
    t->wall = wall < t->wall ? wall : t->wall;
}

static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15); /* fixed seed: same workload every run */

static inline uint64_t rnd(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(0x2545F4914F6CDD1D);
}

static inline uint64_t rnd_bits(int width) { return width >= 64 ? rnd() : rnd() & ((UINT64_C(1) << width) - 1); }

static inline gisa_isa *bench_load(void)
{
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    if (!d || api_load_embedded(NULL, &isa, d) != GISA_OK) {
        for (size_t i = 0; d && i < gisa_diags_count(d); i++) {
            char *s = api_diag_text(gisa_diags_get(d, i), 0);
            fprintf(stderr, "%s\n", s ? s : "?");
            free(s);
        }
        fprintf(stderr, "bench: cannot load the embedded ISA\n");
        exit(1);
    }
    gisa_diags_free(d);
    return isa;
}

/* Value of a field when its syntax element is left out (as the assembler does). */
static inline uint64_t field_absent(const isa_field *f)
{
    if (f->fixed || f->has_default)
        return f->value;
    return f->type && f->type->kind == TY_REG ? f->type->zero_value : 0;
}

static inline uint64_t random_value(const isa_type *t)
{
    switch (t->kind) {
    case TY_REG: return rnd() % (t->zero_value + 1); /* R0..R254 or RZ */
    case TY_ENUM:
        for (int k = 0; t->named && t->width <= 16 && k < 1000; k++) {
            uint64_t v = rnd_bits(t->width);
            if (t->named[v])
                return v;
        }
        return t->nvalues ? t->values[rnd() % (uint64_t)t->nvalues].value : 0;
    case TY_CMEM:
        return cmem_pack(t, rnd_bits(t->bank_bits), rnd_bits(t->offs_w) & ~(uint64_t)(t->align - 1));
    case TY_IMM: break;
    }
    return rnd_bits(t->width);
}

/* Fields of operand slot s, reset to their omitted values (absent group). */
static inline void omit_operand(const isa_opcode *op, const syntax_form *F, const opnd_slot *s, uint64_t *v)
{
    int fl[5] = {s->field, s->neg_field, s->abs_field, s->not_field, s->index_field};
    for (int i = 0; i < 5; i++)
        if (fl[i] >= 0)
            v[fl[i]] = field_absent(&op->fields[fl[i]]);
    if (s->sfx_slot >= 0 && F->mods[s->sfx_slot].field >= 0)
        v[F->mods[s->sfx_slot].field] = F->mods[s->sfx_slot].absent;
}

/* One random word of opcode op written with syntax form F (may still be
 * rejected by an exception: the caller checks with gisa_disassemble). */
static inline gisa_word gen_word(const isa_opcode *op, const syntax_form *F)
{
    uint64_t v[BENCH_MAXF];
    for (int i = 0; i < op->nfields; i++)
        v[i] = field_absent(&op->fields[i]);
    for (int i = 0; i < F->nfree; i++) {
        const isa_field *f = &op->fields[F->free_fields[i]];
        v[F->free_fields[i]] = random_value(f->type);
    }
    for (int j = 0; j < F->nmods; j++) { /* modifiers: one of the slot's choices, or omitted */
        const mod_slot *m = &F->mods[j];
        if (m->field < 0)
            continue;
        v[m->field] = m->optional && (rnd() & 1) ? m->absent : m->choices[rnd() % (uint64_t)m->nchoices].value;
    }
    for (int g = 1; g <= F->ngroups; g++) /* optional {...} groups: present or not */
        if (rnd() & 1)
            for (int k = 0; k < F->nops; k++)
                if (F->ops[k].group == g)
                    omit_operand(op, F, &F->ops[k], v);
    for (int k = 0; k < F->nops; k++) { /* 64-bit operands: even register pairs, 8-byte cmem */
        const opnd_slot *s = &F->ops[k];
        int pair = s->bitwidth && expr_eval(s->bitwidth, v) == 64;
        if (s->kind == OK_REG && pair && v[s->field] != s->type->zero_value) {
            v[s->field] &= ~UINT64_C(1);
            if (v[s->field] + 1 >= s->type->zero_value)
                v[s->field] -= 2;
        }
        if (s->kind == OK_CMEM && pair)
            v[s->field] = cmem_pack(s->type, cmem_bank(s->type, v[s->field]), cmem_offset(s->type, v[s->field]) & ~(uint64_t)s->type->align);
    }
    gisa_word w = {{0, 0}};
    for (int i = 0; i < op->nfields; i++)
        word_set(&w, op->fields[i].off, op->fields[i].width, v[i]);
    w.w[0] = (w.w[0] & ~F->mask.w[0]) | (F->match.w[0] & F->mask.w[0]);
    w.w[1] = (w.w[1] & ~F->mask.w[1]) | (F->match.w[1] & F->mask.w[1]);
    return w;
}

/* Open-addressing set of words, to keep the pool distinct. */
typedef struct bench_set {
    gisa_word *slot;
    unsigned char *used;
    size_t mask;
} bench_set;

static inline int bench_set_add(bench_set *s, gisa_word w) /* 1 when new */
{
    uint64_t h = (w.w[0] ^ (w.w[1] * UINT64_C(0x9E3779B97F4A7C15))) * UINT64_C(0xBF58476D1CE4E5B9);
    for (size_t i = (size_t)(h >> 40) & s->mask;; i = (i + 1) & s->mask) {
        if (!s->used[i]) {
            s->used[i] = 1;
            s->slot[i] = w;
            return 1;
        }
        if (s->slot[i].w[0] == w.w[0] && s->slot[i].w[1] == w.w[1])
            return 0;
    }
}

/* Fills pool[BENCH_POOL] with distinct valid words, opcode i % nopcodes at
 * position i. Returns the number of opcodes covered; prints the others. */
static inline int make_pool(const gisa_isa *isa, gisa_word *pool)
{
    bench_set set = {calloc(BENCH_SET, sizeof(gisa_word)), calloc(BENCH_SET, 1), BENCH_SET - 1};
    char *bad = calloc((size_t)isa->nopcodes + 1, 1);
    if (!set.slot || !set.used || !bad) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    size_t n = 0;
    char text[BENCH_TEXT];
    for (size_t i = 0; n < BENCH_POOL && i < 100 * (size_t)BENCH_POOL; i++) {
        const isa_opcode *op = &isa->opcodes[i % (size_t)isa->nopcodes];
        if (bad[op->index] || !op->nforms || op->nfields > BENCH_MAXF)
            continue;
        int t;
        for (t = 0; t < BENCH_TRIES; t++) {
            gisa_word w = gen_word(op, &op->forms[rnd() % (uint64_t)op->nforms]);
            if (gisa_disassemble(isa, w, text, sizeof text, NULL) == GISA_OK && bench_set_add(&set, w)) {
                pool[n++] = w;
                break;
            }
        }
        if (t == BENCH_TRIES) {
            bad[op->index] = 1;
            fprintf(stderr, "bench: no valid word found for %s\n", op->name);
        }
    }
    int covered = 0;
    for (int i = 0; i < isa->nopcodes; i++)
        covered += !bad[i];
    if (n < BENCH_POOL) {
        fprintf(stderr, "bench: only %zu pool words generated\n", n);
        exit(1);
    }
    free(set.slot);
    free(set.used);
    free(bad);
    return covered;
}

/* The BENCH_N-instruction workload: the pool cycled. Caller frees. */
static inline gisa_word *make_workload(const gisa_isa *isa)
{
    gisa_word *pool = malloc(BENCH_POOL * sizeof *pool);
    gisa_word *words = malloc(BENCH_N * sizeof *words);
    if (!pool || !words) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    int covered = make_pool(isa, pool);
    for (size_t i = 0; i < BENCH_N; i++)
        words[i] = pool[i % BENCH_POOL];
    printf("workload: %d instructions, %d/%d opcodes, %d distinct valid words cycled\n", BENCH_N, covered,
           isa->nopcodes, BENCH_POOL);
    free(pool);
    return words;
}

/* The rate by CPU time (the one judged against the target), and by wall time. */
static inline void print_rate(const char *what, bench_time t, double target_m)
{
    double rate = BENCH_N / t.cpu / 1e6;
    printf("%s: %d instructions in %.4f s CPU = %.2f M instr/s (wall %.4f s = %.2f M/s)", what, BENCH_N, t.cpu, rate,
           t.wall, BENCH_N / t.wall / 1e6);
    if (target_m > 0)
        printf("  (target >= %g M: %s)", target_m, rate >= target_m ? "met" : "BELOW");
    printf("\n");
}
#endif
