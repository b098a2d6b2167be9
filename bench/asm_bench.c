/* Assembler throughput: the disassembly of BENCH_N generated valid words
 * (one instruction per line, all opcodes) assembled by gisa_assemble as one
 * buffer, best of BENCH_RUNS by the thread's CPU time (wall time printed
 * too), on one thread.  Target: >= 3 M instructions/s.
 * The result is compared with the generated words (a round-trip check).
 * Measured with `taskset -c 1 build/bench/asm_bench` (2-core Xeon VM, GCC
 * Release): 3.01-3.04 M/s (183-185 MB/s of source); 2.87 M/s before the
 * third round (the parser finds the line's end, the mnemonic is looked up
 * while the operands are parsed), 2.0 M/s before the second round (fewer
 * mispredicted branches, per-form encoder tables, decimal floats without
 * libc), 1.41 M/s before the candidate pair tables and in-place lexing,
 * 0.90 M/s before any work on the lexer and the candidate matching.
 * Usage: asm_bench [FILE]   FILE receives the generated source text. */
#include "bench_common.h"

/* One line per word, each the word's disassembly. Caller frees. */
static char *make_source(const gisa_isa *isa, const gisa_word *words, size_t *len)
{
    size_t cap = (size_t)BENCH_N * 64, n = 0;
    char *src = malloc(cap), line[BENCH_TEXT];
    for (size_t i = 0; src && i < BENCH_N; i++) {
        gisa_disassemble(isa, words[i], line, sizeof line, NULL);
        size_t k = strlen(line);
        if (n + k + 1 > cap) {
            char *p = realloc(src, cap *= 2);
            if (!p) {
                free(src);
                return NULL;
            }
            src = p;
        }
        memcpy(src + n, line, k);
        src[n + k] = '\n';
        n += k + 1;
    }
    *len = n;
    return src;
}

int main(int argc, char **argv)
{
    gisa_isa *isa = bench_load();
    gisa_word *words = make_workload(isa);
    size_t len = 0;
    char *src = make_source(isa, words, &len);
    char line[BENCH_TEXT];
    if (!src) {
        fprintf(stderr, "asm_bench: out of memory\n");
        return 1;
    }
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(src, 1, len, f) != len || fclose(f)) {
            fprintf(stderr, "asm_bench: cannot write %s\n", argv[1]);
            return 1;
        }
        printf("source written to %s\n", argv[1]);
    }

    gisa_diags *d = api_diags();
    gisa_diags_set_limit(d, 10);
    gisa_word *out = NULL;
    size_t nout = 0;
    bench_time best = bench_time_init();
    for (int run = 0; run < BENCH_RUNS; run++) {
        free(out);
        out = NULL;
        gisa_diags_clear(d);
        bench_start(&best);
        gisa_status st = gisa_assemble(isa, "bench.s", src, len, NULL, &out, &nout, d);
        bench_stop(&best);
        if (st != GISA_OK) {
            printf("assemble failed: %s (%zu errors)\n", gisa_status_str(st), gisa_diags_errors(d));
            for (size_t i = 0; i < gisa_diags_count(d); i++) {
                char *s = api_diag_text(gisa_diags_get(d, i), 1);
                printf("%s\n", s ? s : "?");
                free(s);
            }
            return 1;
        }
    }
    print_rate("assemble", best, 3.0);
    printf("assemble: %zu bytes of source = %.1f MB/s\n", len, (double)len / best.cpu / 1e6);

    size_t bad = nout == BENCH_N ? 0 : BENCH_N;
    for (size_t i = 0; i < nout && i < BENCH_N; i++) {
        if (out[i].w[0] == words[i].w[0] && out[i].w[1] == words[i].w[1])
            continue;
        if (bad++ < 5) {
            gisa_disassemble(isa, words[i], line, sizeof line, NULL);
            printf("mismatch at line %zu: %s\n  expected %016llx%016llx got %016llx%016llx\n", i + 1, line,
                   (unsigned long long)words[i].w[1], (unsigned long long)words[i].w[0],
                   (unsigned long long)out[i].w[1], (unsigned long long)out[i].w[0]);
        }
    }
    if (bad)
        printf("round trip: MISMATCH %zu of %d instructions (got %zu words)\n", bad, BENCH_N, nout);
    else
        printf("round trip: OK (%d instructions reassemble to the generated words)\n", BENCH_N);

    free(out);
    free(src);
    free(words);
    gisa_diags_free(d);
    gisa_isa_free(isa);
    return bad != 0;
}
