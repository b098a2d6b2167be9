/* Simulator throughput: a generated straight-line kernel of KERNEL_LEN
 * instructions run on 1,024 warps; prints thread-instructions per second
 * (instructions x warps x 32 lanes / seconds) for 1 thread and for all
 * cores. Not a test.
 *
 *   sim_bench [--engine native|doc|auto] [KERNEL...]
 *   sim_bench --ratio [KERNEL...]
 *   kernels: int fp hfma2 hfma2_bf16 hadd2 ffma_rz dfma dadd dmul mix
 *   (default all)
 *
 * `mix` is the generator's program (gisa_gen, seed 1, default weights:
 * every optype of the model, each about as often) so that no kernel-
 * specific tuning hides a slow optype; it prints how many optypes it has.
 * --ratio runs each kernel on one thread with the native engine and with
 * the doc engine, by CPU time, and prints doc / native.
 *
 * With one thread it also measures the step path: every warp stepped to the
 * end with gisa_sim_step, a commit record filled per instruction (what a
 * lockstep testbench does), against gisa_sim_run's rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tests/unit/apihelp.h"
#include "gisa.h"

#define KERNEL_LEN 1024
#define WARPS 1024
#define RUNS 7

static uint64_t rng = UINT64_C(0x2545F4914F6CDD1D);
static unsigned r32(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static double clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now_s(void) { return clock_of(CLOCK_MONOTONIC); }
/* the process's CPU time: on a shared machine, time given to other
 * processes does not inflate it (one thread: the engine's own time) */
static double cpu_s(void) { return clock_of(CLOCK_PROCESS_CPUTIME_ID); }

/* Registers R0..R31 (R[0:1]..R[30:31] for F64); sources random. */
static void emit(FILE *f, const char *kernel, int i)
{
#define R() r32(32)
    if (!strcmp(kernel, "int")) {
        switch (i % 7) {
        case 0: fprintf(f, "IADD R%u, R%u, R%u ;\n", R(), R(), R()); break;
        case 1: fprintf(f, "IMAD R%u, R%u, R%u, R%u ;\n", R(), R(), R(), R()); break;
        case 2: fprintf(f, "LOP3.POR R%u, R%u, R%u, R%u, 0x%x, !PT ;\n", R(), R(), R(), R(), r32(256)); break;
        case 3: fprintf(f, "SHF.L.WRAP.U32 R%u, R%u, R%u, R%u ;\n", R(), R(), R(), R()); break;
        case 4: fprintf(f, "ISETP.LT.AND P%u, PT, R%u, R%u, PT ;\n", r32(4), R(), R()); break;
        case 5: fprintf(f, "SEL R%u, R%u, R%u, P%u ;\n", R(), R(), R(), r32(4)); break;
        default: fprintf(f, "PRMT R%u, R%u, R%u, 0x%x ;\n", R(), R(), R(), r32(0x10000)); break;
        }
    } else if (!strcmp(kernel, "fp")) {
        switch (i % 5) {
        case 0: fprintf(f, "FFMA R%u, R%u, R%u, R%u ;\n", R(), R(), R(), R()); break;
        case 1: fprintf(f, "FADD R%u, R%u, -R%u ;\n", R(), R(), R()); break;
        case 2: fprintf(f, "FMUL R%u, R%u, R%u ;\n", R(), R(), R()); break;
        case 3: fprintf(f, "FSETP.LT.AND P%u, PT, R%u, R%u, PT ;\n", r32(4), R(), R()); break;
        default: fprintf(f, "FMNMX R%u, R%u, R%u, P%u ;\n", R(), R(), R(), r32(4)); break;
        }
    } else if (!strcmp(kernel, "hfma2")) {
        fprintf(f, "HFMA2 R%u, R%u, R%u, R%u ;\n", R(), R(), R(), R());
    } else if (!strcmp(kernel, "hfma2_bf16")) {
        fprintf(f, "HFMA2.BF16_V2 R%u, R%u, R%u, R%u ;\n", R(), R(), R(), R());
    } else if (!strcmp(kernel, "hadd2")) {
        fprintf(f, "HADD2 R%u, R%u, -R%u ;\n", R(), R(), R());
    } else {
        fprintf(f, "FFMA.RZ R%u, R%u, R%u, R%u ;\n", R(), R(), R(), R());
    }
}

/* The mix kernel's words: a generated program of every optype */
static gisa_word *mix_words(const gisa_isa *isa, size_t *n)
{
    gisa_gen *g;
    gisa_diags *d = api_diags();
    if (gisa_gen_new(isa, &g) != GISA_OK || gisa_gen_set(g, "streams", "none", d) != GISA_OK ||
        gisa_gen_generate(g, 1, KERNEL_LEN, d) != GISA_OK)
        return NULL;
    gisa_diags_free(d);
    const gisa_word *w = api_gen_words(g, n);
    gisa_word *copy = malloc(*n * sizeof *copy);
    if (copy)
        memcpy(copy, w, *n * sizeof *copy);
    gisa_gen_free(g);
    return copy;
}

static char *kernel_source(const char *kernel)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int i = 0; i < KERNEL_LEN; i++) {
        if (kernel[0] == 'd') { /* dfma dadd dmul */
            unsigned d = 2 * r32(16), a = 2 * r32(16), b = 2 * r32(16), c = 2 * r32(16);
            const char *op = !strcmp(kernel, "dfma") ? "DFMA" : !strcmp(kernel, "dadd") ? "DADD" : "DMUL";
            fprintf(f, "%s R[%u:%u], R[%u:%u], R[%u:%u]", op, d, d + 1, a, a + 1, b, b + 1);
            if (!strcmp(kernel, "dfma"))
                fprintf(f, ", R[%u:%u]", c, c + 1);
            fprintf(f, " ;\n");
        } else {
            emit(f, kernel, i);
        }
    }
    fclose(f);
    return buf;
}

/* Inputs: small positive floats / mixed integers, per lane */
static void fill(gisa_sim *sim, const char *kernel)
{
    const int k = !strcmp(kernel, "int") ? 0 : kernel[0] == 'h' ? 1 : kernel[0] == 'd' ? 2 : 3;
    for (unsigned w = 0; w < WARPS; w++)
        for (unsigned r = 0; r < 32; r++)
            for (int l = 0; l < 32; l++) {
                uint32_t v = k == 0 ? (uint32_t)(w * 2654435761u + r * 40503u + (unsigned)l * 97u)
                           : k == 1 ? 0x3c003c00u + (uint32_t)(l + (int)r)
                           : k == 2 ? (r & 1 ? 0x3ff00000u : (uint32_t)l * 977u)
                                    : 0x3f800000u + (uint32_t)(l * 1024 + (int)r);
                gisa_sim_set(sim, w, GISA_RF_R, r, l, v);
            }
}

static gisa_sim_engine engine = GISA_ENGINE_AUTO;

/* Best time of RUNS runs stepping every warp to the end with commit records. */
static double step_time(gisa_sim *sim, const char *kernel)
{
    static gisa_sim_commit commit;
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        fill(sim, kernel);
        for (unsigned w = 0; w < WARPS; w++)
            gisa_sim_set_pc(sim, w, 0);
        double t0 = now_s();
        for (unsigned w = 0; w < WARPS; w++)
            while (!api_done(sim, w))
                if (gisa_sim_step(sim, w, &commit, NULL) != GISA_OK)
                    return -1;
        double t = now_s() - t0;
        best = t < best ? t : best;
    }
    return best;
}

/* The kernel's words (free them with free) */
static gisa_word *kernel_words(const gisa_isa *isa, const char *kernel, size_t *n)
{
    if (!strcmp(kernel, "mix"))
        return mix_words(isa, n);
    char *src = kernel_source(kernel);
    gisa_diags *d = api_diags();
    gisa_word *words;
    if (gisa_assemble(isa, "kernel", src, strlen(src), NULL, &words, n, d) != GISA_OK)
        words = NULL;
    gisa_diags_free(d);
    free(src);
    return words;
}

/* Best of RUNS gisa_sim_run of the kernel: wall and CPU seconds */
static int time_runs(gisa_sim *sim, const char *kernel, double *best, double *best_cpu)
{
    *best = *best_cpu = 1e30;
    for (int run = 0; run < RUNS; run++) {
        fill(sim, kernel);
        double t0 = now_s(), c0 = cpu_s();
        if (gisa_sim_run(sim, NULL) != GISA_OK) {
            fprintf(stderr, "sim_bench: the %s kernel faulted\n", kernel);
            return 1;
        }
        double t = now_s() - t0, c = cpu_s() - c0;
        *best = t < *best ? t : *best;
        *best_cpu = c < *best_cpu ? c : *best_cpu;
    }
    return 0;
}

static int bench(const gisa_isa *isa, const char *kernel, unsigned threads)
{
    size_t n;
    gisa_word *words = kernel_words(isa, kernel, &n);
    if (!words) {
        fprintf(stderr, "sim_bench: no %s kernel (it does not assemble or generate)\n", kernel);
        return 1;
    }
    gisa_sim *sim;
    if (gisa_sim_new(isa, 32, WARPS, &sim) != GISA_OK)
        return 1;
    gisa_sim_set_threads(sim, threads);
    gisa_sim_set_engine(sim, engine);
    gisa_sim_load(sim, words, n);
    double best, best_cpu;
    if (time_runs(sim, kernel, &best, &best_cpu))
        return 1;
    double ti = (double)n * WARPS * 32;
    printf("%-8s %u thread%s: %8.1f M thread-instructions/s  (%zu instructions x %d warps x 32 lanes in %.3f s",
           kernel, threads, threads == 1 ? " " : "s", ti / best / 1e6, n, WARPS, best);
    if (threads == 1)
        printf("; by CPU time %.1f M/s", ti / best_cpu / 1e6);
    printf(")\n");
    if (threads == 1) {
        double st = step_time(sim, kernel);
        if (st < 0) {
            fprintf(stderr, "sim_bench: stepping the %s kernel faulted\n", kernel);
            return 1;
        }
        printf("%-8s step    : %8.1f M thread-instructions/s  (gisa_sim_step with commit records, %.0f%% of run)\n",
               kernel, ti / st / 1e6, 100 * best / st);
    }
    gisa_sim_free(sim);
    free(words);
    return 0;
}

/* The optypes the words use */
static int optypes_of(const gisa_isa *isa, const gisa_word *w, size_t n)
{
    const char *seen[512];
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        gisa_inst in;
        if (gisa_decode(isa, w[i], &in) != GISA_OK)
            continue;
        const char *t = gisa_inst_optype_name(isa, &in);
        int j = 0;
        while (j < k && strcmp(seen[j], t))
            j++;
        if (j == k && k < 512)
            seen[k++] = t;
    }
    return k;
}

/* One thread, the native engine and the doc engine, by CPU time */
static int ratio(const gisa_isa *isa, const char *kernel)
{
    size_t n;
    gisa_word *words = kernel_words(isa, kernel, &n);
    if (!words)
        return 1;
    double rate[2];
    static const gisa_sim_engine engines[2] = {GISA_ENGINE_NATIVE, GISA_ENGINE_DOC};
    for (int e = 0; e < 2; e++) {
        gisa_sim *sim;
        if (gisa_sim_new(isa, 32, WARPS, &sim) != GISA_OK)
            return 1;
        gisa_sim_set_threads(sim, 1);
        gisa_sim_set_engine(sim, engines[e]);
        gisa_sim_load(sim, words, n);
        double best, best_cpu;
        if (time_runs(sim, kernel, &best, &best_cpu))
            return 1;
        rate[e] = (double)n * WARPS * 32 / best_cpu / 1e6;
        gisa_sim_free(sim);
    }
    printf("%-10s native %8.1f  doc %8.1f M thread-instructions/s (CPU time)  doc/native %.2f", kernel, rate[0],
           rate[1], rate[1] / rate[0]);
    if (!strcmp(kernel, "mix"))
        printf("  (%d optypes)", optypes_of(isa, words, n));
    printf("\n");
    free(words);
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const all[] = {"int", "fp", "hfma2", "hfma2_bf16", "hadd2", "ffma_rz", "dfma", "dadd", "dmul",
                                      "mix"};
    gisa_isa *isa;
    if (api_load_embedded(NULL, &isa, NULL) != GISA_OK)
        return 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int rc = 0;
    if (argc > 2 && !strcmp(argv[1], "--engine")) {
        engine = !strcmp(argv[2], "doc") ? GISA_ENGINE_DOC : !strcmp(argv[2], "native") ? GISA_ENGINE_NATIVE
                                                                                        : GISA_ENGINE_AUTO;
        argc -= 2;
        argv += 2;
    }
    int ratios = argc > 1 && !strcmp(argv[1], "--ratio");
    if (ratios) {
        argc--;
        argv++;
    }
    int nk = argc > 1 ? argc - 1 : (int)(sizeof all / sizeof all[0]);
    for (int k = 0; k < nk; k++) {
        const char *kernel = argc > 1 ? argv[k + 1] : all[k];
        if (ratios) {
            rc |= ratio(isa, kernel);
            continue;
        }
        rc |= bench(isa, kernel, 1);
        if (cores > 1)
            rc |= bench(isa, kernel, (unsigned)cores);
    }
    gisa_isa_free(isa);
    return rc;
}
