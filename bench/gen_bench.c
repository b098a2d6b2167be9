/* Generator throughput: gisa_gen_generate of BENCH_N instructions (words,
 * assembly text and the initial state) with the default options, best of
 * BENCH_RUNS by the thread's CPU time (wall time printed too), on one
 * thread, for each target. Target: >= 1 M instructions/s of assembly text.
 * Usage: gen_bench [SEED]   (taskset -c 1 build/bench/gen_bench) */
#include "bench_common.h"

static int bench_target(const char *target, uint64_t seed)
{
    gisa_isa *isa;
    gisa_diags *d = api_diags();
    gisa_gen *g = NULL;
    if (api_load_embedded(target, &isa, d) != GISA_OK || gisa_gen_new(isa, &g) != GISA_OK) {
        fprintf(stderr, "gen_bench: cannot load target %s\n", target);
        return 1;
    }
    bench_time t = bench_time_init();
    size_t len = 0;
    for (int run = 0; run < BENCH_RUNS; run++) {
        bench_start(&t);
        gisa_status st = gisa_gen_generate(g, seed + (uint64_t)run, BENCH_N, d);
        bench_stop(&t);
        if (st != GISA_OK) {
            fprintf(stderr, "gen_bench: %s\n", gisa_status_str(st));
            return 1;
        }
        api_gen_text(g, &len);
    }
    double mb = (double)len / 1e6;
    printf("%-8s gen: %d instructions in %.4f s CPU = %.2f M instr/s, %.0f MB/s of text (wall %.4f s = %.2f M/s)"
           "  (target >= 1 M: %s)\n",
           target, BENCH_N, t.cpu, BENCH_N / t.cpu / 1e6, mb / t.cpu, t.wall, BENCH_N / t.wall / 1e6,
           BENCH_N / t.cpu >= 1e6 ? "met" : "BELOW");
    gisa_gen_free(g);
    gisa_isa_free(isa);
    gisa_diags_free(d);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
    return bench_target("gisa128", seed) | bench_target("fermi", seed);
}
