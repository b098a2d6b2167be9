/* End-to-end simulator throughput (issue 19, item 4): what `gisa run`
 * costs beyond its engine. A 1,000-instruction int+fp kernel on 4,096
 * warps (the CLI's default 255 registers, one thread) with a state file
 * whose registers differ per lane, so that the output writes 32-element
 * arrays. Prints thread-instructions per second (instructions x warps x 32
 * lanes / seconds) for
 *   - the engine: gisa_sim_run alone (as bench/sim_bench measures it);
 *   - the library path of `gisa run`: assemble, parse the state, create
 *     the simulator, apply, run, write the state to /dev/null and to a
 *     file (fsync'd, as the CLI does);
 *   - the gisa program itself, when given: `gisa run --threads 1 --warps
 *     4096 --state S K --out /dev/null` and `--out FILE`, as a user runs it.
 * Also the time to read the written state back. Times are CPU seconds
 * (user + system; the fsync's wait for the disk is not in them), best of
 * RUNS; not a test.
 *
 *   run_bench [PATH/TO/gisa]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"

#define INSNS 1000
#define WARPS 4096
#define RUNS 5

/* CPU seconds of this process (one thread runs): the other processes of
 * a shared machine do not inflate them as they do wall time. */
static double now_s(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

static unsigned pick(unsigned n) { return (unsigned)(rnd() % n); }

/* Alternating integer and float instructions over R0..R31, P0..P3. */
static char *kernel(void)
{
    static const char *const forms[] = {
        "IADD R%u, R%u, R%u ;",        "FFMA R%u, R%u, R%u, R%u ;",    "LOP3.POR R%u, R%u, R%u, R%u, 0x96, !PT ;",
        "FADD R%u, R%u, -R%u ;",      "IMAD R%u, R%u, R%u, R%u ;",    "FMUL R%u, R%u, R%u ;",
        "SHF.L.WRAP.U32 R%u, R%u, R%u, R%u ;", "FMNMX R%u, R%u, R%u, P1 ;", "ISETP.LT.AND P1, PT, R%u, R%u, PT ;",
        "SEL R%u, R%u, R%u, P1 ;",
    };
    size_t cap = INSNS * 64, len = 0;
    char *src = malloc(cap);
    for (int i = 0; i < INSNS && src; i++) {
        const char *f = forms[i % 10];
        len += (size_t)snprintf(src + len, cap - len, f, pick(32), pick(32), pick(32), pick(32));
        src[len++] = '\n';
    }
    if (src)
        src[len] = 0;
    return src;
}

/* Per-lane inputs that differ per lane and warp: integers, and floats as
 * their bits (so that gisa versions before float values read it too). */
static char *state_text(void)
{
    size_t cap = 32 * 40 * 32 + 256, len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s, cap, "{\"R0\": \"laneid\", \"R1\": \"warpid\"");
    for (int r = 2; r < 32; r++) {
        len += (size_t)snprintf(s + len, cap - len, ", \"R%d\": [", r);
        for (int l = 0; l < 32; l++)
        {
            float f = (float)(r * 32 + l) + (float)l / 10;
            uint32_t bits;
            memcpy(&bits, &f, sizeof bits);
            len += (size_t)snprintf(s + len, cap - len, "%s\"0x%08x\"", l ? ", " : "", r % 2 ? (uint32_t)(r * 32 + l) : bits);
        }
        len += (size_t)snprintf(s + len, cap - len, "]");
    }
    snprintf(s + len, cap - len, "}\n");
    return s;
}

static gisa_status to_fd(void *user, const char *data, size_t n)
{
    int fd = *(int *)user;
    while (n) {
        ssize_t w = write(fd, data, n);
        if (w <= 0)
            return GISA_ERR_IO;
        data += w;
        n -= (size_t)w;
    }
    return GISA_OK;
}

/* One `gisa run` through the library; returns the engine's seconds. */
static double library_run(const gisa_isa *isa, const char *src, const char *state, const char *out, int sync,
                          size_t *out_bytes)
{
    gisa_word *words;
    size_t n;
    gisa_state *st;
    gisa_sim *sim;
    if (gisa_assemble(isa, "k.s", src, strlen(src), NULL, &words, &n, NULL) != GISA_OK ||
        gisa_state_parse("s.json", state, strlen(state), &st, NULL) != GISA_OK ||
        gisa_sim_new(isa, gisa_sim_max_regs(isa), WARPS, &sim) != GISA_OK) {
        fprintf(stderr, "run_bench: setup failed\n");
        exit(1);
    }
    gisa_sim_set_threads(sim, 1);
    gisa_sim_load(sim, words, n);
    gisa_sim_state_apply(sim, st, NULL);
    gisa_state_free(st);
    double t0 = now_s();
    if (gisa_sim_run(sim, NULL) != GISA_OK)
        exit(1);
    double engine = now_s() - t0;
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || gisa_sim_state_write(sim, GISA_STATE_HEX, to_fd, &fd) != GISA_OK || (sync && fsync(fd))) {
        fprintf(stderr, "run_bench: cannot write %s\n", out);
        exit(1);
    }
    *out_bytes = (size_t)lseek(fd, 0, SEEK_CUR);
    close(fd);
    gisa_sim_free(sim);
    free(words);
    return engine;
}

/* The child's CPU seconds (user + system). */
static double cli_run(const char *gisa, const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        execl(gisa, gisa, "run", "--threads", "1", "--warps", "4096", "--state", "run_bench_state.json", "--out", out, "run_bench_kernel.s",
              (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "run_bench: %s run failed\n", gisa);
        exit(1);
    }
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

static void print_e2e(const char *what, double s, double engine)
{
    const double ti = (double)INSNS * WARPS * 32;
    printf("%-44s %7.1f M thread-instructions/s  (%.3f s; %3.0f%% of the engine)\n", what, ti / s / 1e6, s,
           100 * engine / s);
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        fprintf(stderr, "run_bench: cannot write %s\n", path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    gisa_isa *isa;
    if (api_load_embedded(NULL, &isa, NULL) != GISA_OK)
        return 1;
    char *src = kernel(), *state = state_text();
    const char *file = "run_bench_out.json";
    double engine = 1e30, lib_null = 1e30, lib_file = 1e30;
    size_t bytes = 0;
    for (int i = 0; i < RUNS; i++) {
        double t0 = now_s(), e = library_run(isa, src, state, "/dev/null", 0, &bytes);
        double t = now_s() - t0;
        engine = e < engine ? e : engine;
        lib_null = t < lib_null ? t : lib_null;
        t0 = now_s();
        library_run(isa, src, state, file, 1, &bytes);
        t = now_s() - t0;
        lib_file = t < lib_file ? t : lib_file;
    }
    printf("%d instructions x %d warps x 32 lanes, 255 registers, 1 thread; the state written is %.1f MB\n", INSNS,
           WARPS, (double)bytes / 1e6);
    print_e2e("engine (gisa_sim_run)", engine, engine);
    print_e2e("library path, state to /dev/null", lib_null, engine);
    print_e2e("library path, state to a file (fsync)", lib_file, engine);
    /* reading the written state back */
    FILE *f = fopen(file, "rb");
    char *text = malloc(bytes + 1);
    if (!f || !text || fread(text, 1, bytes, f) != bytes)
        return 1;
    fclose(f);
    double read = 1e30;
    for (int i = 0; i < RUNS; i++) {
        gisa_sim *sim;
        gisa_sim_new(isa, gisa_sim_max_regs(isa), WARPS, &sim);
        double t0 = now_s();
        if (api_state_read(sim, file, text, bytes, NULL) != GISA_OK)
            return 1;
        double t = now_s() - t0;
        read = t < read ? t : read;
        gisa_sim_free(sim);
    }
    printf("%-44s %7.1f MB/s  (%.3f s)\n", "reading that state back", (double)bytes / read / 1e6, read);
    if (argc > 1) {
        put_file("run_bench_kernel.s", src);
        put_file("run_bench_state.json", state);
        double cn = 1e30, cf = 1e30;
        for (int i = 0; i < RUNS; i++) {
            double t = cli_run(argv[1], "/dev/null");
            cn = t < cn ? t : cn;
            t = cli_run(argv[1], file);
            cf = t < cf ? t : cf;
        }
        print_e2e("gisa run --threads 1 --out /dev/null", cn, engine);
        print_e2e("gisa run --threads 1 --out FILE", cf, engine);
        remove("run_bench_kernel.s");
        remove("run_bench_state.json");
    }
    remove(file);
    free(text);
    free(src);
    free(state);
    gisa_isa_free(isa);
    return 0;
}
