/* Runs reference vectors (../shared/semantic-sample-vectors.tsv, or the TSV
 * files given as arguments) through the simulator: assemble the program,
 * set the inputs in every lane, run, compare every listed output in every
 * lane. The vectors come from an independent model (MPFR, 128-bit C).
 * Format per line: asm<TAB>inputs<TAB>outputs, with R5=0x.., R[2:3]=0x..
 * (low word in R2), P2=1; several instructions are joined by ' ; '. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

typedef struct kv {
    gisa_regfile rf;
    unsigned index;
    int pair;
    uint64_t value;
} kv;

/* Parses "R5=0x1 R[2:3]=0x.. P2=1 UR4=.. UP1=.." into kv[]; returns count or -1. */
static int parse_kvs(char *s, kv *out, int max)
{
    int n = 0;
    for (char *tok = strtok(s, " "); tok; tok = strtok(NULL, " ")) {
        if (n == max)
            return -1;
        kv *k = &out[n];
        char *eq = strchr(tok, '=');
        if (!eq)
            return -1;
        *eq = 0;
        unsigned lo, hi;
        const char *name = tok;
        k->pair = 0;
        if (!strncmp(name, "UR", 2)) {
            k->rf = GISA_RF_UR;
            name += 2;
        } else if (!strncmp(name, "UP", 2)) {
            k->rf = GISA_RF_UP;
            name += 2;
        } else if (name[0] == 'R') {
            k->rf = GISA_RF_R;
            name += 1;
        } else if (name[0] == 'P') {
            k->rf = GISA_RF_P;
            name += 1;
        } else {
            return -1;
        }
        if (sscanf(name, "[%u:%u]", &lo, &hi) == 2) {
            k->pair = 1;
            k->index = lo;
        } else if (sscanf(name, "%u", &lo) == 1) {
            k->index = lo;
        } else {
            return -1;
        }
        k->value = strtoull(eq + 1, NULL, 0);
        n++;
    }
    return n;
}

static int set_kv(gisa_sim *sim, const kv *k)
{
    int bad = gisa_sim_set(sim, 0, k->rf, k->index, -1, (uint32_t)k->value) != GISA_OK;
    if (k->pair)
        bad |= gisa_sim_set(sim, 0, k->rf, k->index + 1, -1, (uint32_t)(k->value >> 32)) != GISA_OK;
    return bad;
}

static uint64_t get_kv(const gisa_sim *sim, const kv *k, unsigned lane)
{
    uint32_t lo = 0, hi = 0;
    gisa_sim_get(sim, 0, k->rf, k->index, lane, &lo);
    if (k->pair)
        gisa_sim_get(sim, 0, k->rf, k->index + 1, lane, &hi);
    return (uint64_t)hi << 32 | lo;
}

static int failures_shown;

static void run_line(gisa_isa *isa, const char *file, int lineno, char *line)
{
    char *asm_text = line, *in = strchr(line, '\t'), *outs = in ? strchr(in + 1, '\t') : NULL;
    if (!in || !outs) {
        CHECKF(0, "%s:%d: malformed vector line", file, lineno);
        return;
    }
    *in++ = 0;
    *outs++ = 0;
    char *nl = strpbrk(outs, "\r\n");
    if (nl)
        *nl = 0;
    gisa_diags *d = gisa_diags_new();
    gisa_word *w = NULL;
    size_t n = 0;
    if (gisa_assemble(isa, file, asm_text, strlen(asm_text), &w, &n, d) != GISA_OK) {
        CHECKF(0, "%s:%d: does not assemble: %s", file, lineno, asm_text);
        if (failures_shown++ < 20)
            test_dump_diags(d);
        gisa_diags_free(d);
        return;
    }
    gisa_diags_free(d);
    kv ins[64], exp[64];
    int nin = parse_kvs(in, ins, 64), nexp = parse_kvs(outs, exp, 64);
    gisa_sim *sim = NULL;
    int ok = nin >= 0 && nexp >= 0 && gisa_sim_new(isa, 255, 1, &sim) == GISA_OK;
    for (int i = 0; ok && i < nin; i++)
        ok = !set_kv(sim, &ins[i]);
    if (!ok) {
        CHECKF(0, "%s:%d: bad inputs or outputs", file, lineno);
    } else {
        gisa_sim_set_threads(sim, 1);
        gisa_sim_load(sim, w, n);
        gisa_sim_fault f;
        gisa_status st = gisa_sim_run(sim, &f);
        CHECKF(st == GISA_OK, "%s:%d: %s faulted: %s", file, lineno, asm_text, st == GISA_ERR_SIM ? f.message : "?");
        for (int i = 0; st == GISA_OK && i < nexp; i++) {
            int lane_bad = -1;
            for (unsigned l = 0; l < 32 && lane_bad < 0; l++)
                if (get_kv(sim, &exp[i], l) != exp[i].value)
                    lane_bad = (int)l;
            if (lane_bad >= 0 && failures_shown++ < 40)
                fprintf(stderr, "%s:%d: %s\n  output %d: expected 0x%llx, got 0x%llx (lane %d)\n", file, lineno, asm_text,
                        i, (unsigned long long)exp[i].value,
                        (unsigned long long)get_kv(sim, &exp[i], (unsigned)lane_bad), lane_bad);
            CHECK(lane_bad < 0);
        }
    }
    gisa_sim_free(sim);
    free(w);
}

static void run_file(gisa_isa *isa, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        CHECKF(0, "cannot open %s", path);
        return;
    }
    char line[4096];
    int lineno = 0, before = test_failed, count = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        count++;
        run_line(isa, path, lineno, line);
    }
    fclose(f);
    printf("%s: %d vectors, %d failed checks\n", path, count, test_failed - before);
}

int main(int argc, char **argv)
{
    gisa_isa *isa = test_isa();
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            run_file(isa, argv[i]);
    } else {
        const char *shared = test_shared_dir();
        if (!shared) {
            printf("skipped: ../shared is not present (no reference vectors)\n");
        } else {
            char path[4200];
            snprintf(path, sizeof path, "%s/semantic-sample-vectors.tsv", shared);
            run_file(isa, path);
        }
    }
    gisa_isa_free(isa);
    return test_summary();
}
