/* Disassembler throughput: BENCH_N generated valid words (all opcodes in
 * rotation) through gisa_disassemble, best of BENCH_RUNS by the thread's
 * CPU time (wall time printed too), on one thread.  Target: >= 10 M
 * instructions/s.  Also times the opcode lookup alone.
 * Measured with `taskset -c 1 build/bench/dis_bench` (2-core Xeon VM, GCC
 * Release; three invocations): 10.77-10.83 M/s, against 9.34-9.42 M/s on
 * the same machine before the unchecked printing (9.1-9.2 when first
 * measured) and 2.6 M/s before the compiled print plans; lookup alone
 * 236-238 M/s. */
#include "bench_common.h"

int main(void)
{
    gisa_isa *isa = bench_load();
    gisa_word *words = make_workload(isa);
    static char text[BENCH_TEXT];

    bench_time best = bench_time_init();
    size_t invalid = 0, bytes = 0;
    for (int run = 0; run < BENCH_RUNS; run++) {
        invalid = bytes = 0;
        bench_start(&best);
        for (size_t i = 0; i < BENCH_N; i++) {
            invalid += gisa_disassemble(isa, words[i], text, sizeof text, NULL) != GISA_OK;
            bytes += (unsigned char)text[0];
        }
        bench_stop(&best);
    }
    print_rate("disassemble", best, 10.0);
    if (invalid)
        printf("disassemble: %zu words reported invalid (expected 0)\n", invalid);

    bench_time best_dec = bench_time_init();
    size_t sum = 0;
    for (int run = 0; run < BENCH_RUNS; run++) {
        sum = 0;
        bench_start(&best_dec);
        for (size_t i = 0; i < BENCH_N; i++)
            sum += api_decode_opcode(isa, words[i]);
        bench_stop(&best_dec);
    }
    print_rate("decode lookup only", best_dec, 0);
    printf("(checksums %zu %zu)\n", bytes, sum);

    free(words);
    gisa_isa_free(isa);
    return 0;
}
