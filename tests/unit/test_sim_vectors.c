/* Runs reference vectors (../shared/semantic-sample-vectors.tsv, or the TSV
 * files given as arguments) through both engines of the simulator: the C
 * functions (native) and the documents' pseudo-code with the rulings'
 * patches (doc, issue 20). Each vector is assembled, its inputs set in
 * every lane, run, and every listed output of every lane must equal the
 * reference under both engines. A vector with a word the doc engine does
 * not run (the compile result says why) is counted as skipped for doc; a
 * target whose description has no pseudo-code (fermi) runs native only.
 * The vectors come from an independent model (MPFR, 128-bit C).
 * Format per line: asm<TAB>inputs<TAB>outputs, with R5=0x.., R[2:3]=0x..
 * (low word in R2), P2=1; several instructions are joined by ' ; '. A line
 * that does not assemble for gisa128 is tried on the other targets. */
#include <stdlib.h>
#include <string.h>

#include "docsem/docsem.h"
#include "sim/docexec.h"
#include "spec/model.h"
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

enum { NATIVE, DOC, NENGINES };
static const char *const engine_name[NENGINES] = {"native", "doc"};

/* per optype (of a vector's first instruction), per target */
typedef struct tally {
    int vectors, passed[NENGINES], skipped;
    const char *why; /* the first reason a word did not run under doc */
} tally;

typedef struct target {
    gisa_isa *isa;
    int has_code; /* some optype has pseudo-code: the doc engine applies */
    tally *by_optype;
} target;

/* The simulator with the vector's inputs and program under one engine. */
static gisa_sim *prepare(const gisa_isa *isa, gisa_sim_engine engine, const kv *ins, int nin, const gisa_word *w,
                         size_t n)
{
    gisa_sim *sim = NULL;
    int ok = gisa_sim_new(isa, 255, 1, &sim) == GISA_OK && gisa_sim_set_engine(sim, engine) == GISA_OK;
    for (int i = 0; ok && i < nin; i++)
        ok = !set_kv(sim, &ins[i]);
    if (!ok) {
        gisa_sim_free(sim);
        return NULL;
    }
    gisa_sim_set_threads(sim, 1);
    gisa_sim_load(sim, w, n);
    return sim;
}

/* Runs and compares; *got receives each output's value in the first lane
 * that differs (or lane 0). Returns whether every lane of every output
 * equals the reference; *fault the reason of a fault. */
static int run_compare(gisa_sim *sim, const kv *exp, int nexp, uint64_t *got, char *fault, size_t cap)
{
    gisa_sim_fault f;
    fault[0] = 0;
    if (gisa_sim_run(sim, &f) != GISA_OK) {
        snprintf(fault, cap, "%s", f.message);
        return 0;
    }
    int ok = 1;
    for (int i = 0; i < nexp; i++) {
        got[i] = get_kv(sim, &exp[i], 0);
        for (unsigned l = 0; l < 32; l++)
            if (get_kv(sim, &exp[i], l) != exp[i].value) {
                got[i] = get_kv(sim, &exp[i], l);
                ok = 0;
                break;
            }
    }
    return ok;
}

static void report(const target *t, const gisa_word *w, size_t n, const char *file, int lineno, const char *asm_text,
                   const char *in_text, const kv *exp, int nexp, uint64_t got[NENGINES][64], const int *ran,
                   char fault[NENGINES][256])
{
    if (failures_shown++ >= 40)
        return;
    fprintf(stderr, "DISAGREE %s:%d: %s\n  inputs: %s\n", file, lineno, asm_text, in_text);
    for (int e = 0; e < NENGINES; e++)
        if (ran[e] && fault[e][0])
            fprintf(stderr, "  %s engine faulted: %s\n", engine_name[e], fault[e]);
    for (int i = 0; i < nexp; i++) {
        fprintf(stderr, "  output %d: reference 0x%llx", i, (unsigned long long)exp[i].value);
        for (int e = 0; e < NENGINES; e++)
            if (ran[e] && !fault[e][0])
                fprintf(stderr, ", %s 0x%llx", engine_name[e], (unsigned long long)got[e][i]);
        fputc('\n', stderr);
    }
    for (size_t k = 0; k < n; k++) {
        gisa_inst in;
        if (gisa_decode(t->isa, w[k], &in) != GISA_OK)
            continue;
        const ds_optype *sem = ds_optype_of(t->isa, t->isa->opcodes[in.opcode].optype);
        for (int i = 0; sem && i < sem->npatches; i++)
            fprintf(stderr, "  patch of %s %s:%d: %s%s%s (%s)\n", sem->ot->name, sem->patches[i].loc.file,
                    sem->patches[i].loc.line, sem->patches[i].kind == DP_REPLACE ? "replace \"" : "",
                    sem->patches[i].what, sem->patches[i].kind == DP_REPLACE ? "\"" : "", sem->patches[i].reason);
    }
}

static void run_line(target *targets, size_t ntargets, const char *file, int lineno, char *line)
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
    gisa_word *w = NULL;
    size_t n = 0;
    target *t = NULL;
    for (size_t k = 0; k < ntargets && !t; k++) {
        gisa_diags *d = api_diags();
        if (gisa_assemble(targets[k].isa, file, asm_text, strlen(asm_text), NULL, &w, &n, d) == GISA_OK)
            t = &targets[k];
        else if (k == 0 && failures_shown < 20 && ntargets == 1)
            test_dump_diags(d);
        gisa_diags_free(d);
    }
    if (!t) {
        CHECKF(0, "%s:%d: does not assemble: %s", file, lineno, asm_text);
        failures_shown++;
        return;
    }
    char in_text[1024];
    snprintf(in_text, sizeof in_text, "%s", in);
    kv ins[64], exp[64];
    int nin = parse_kvs(in, ins, 64), nexp = parse_kvs(outs, exp, 64);
    gisa_inst first;
    tally *ty = n && gisa_decode(t->isa, w[0], &first) == GISA_OK
                    ? &t->by_optype[t->isa->opcodes[first.opcode].optype - t->isa->optypes]
                    : NULL;
    if (nin < 0 || nexp < 0 || !ty) {
        CHECKF(0, "%s:%d: bad inputs or outputs", file, lineno);
        free(w);
        return;
    }
    ty->vectors++;
    uint64_t got[NENGINES][64];
    char fault[NENGINES][256];
    int ran[NENGINES] = {0}, ok[NENGINES] = {0};
    for (int e = 0; e < NENGINES; e++) {
        if (e == DOC && !t->has_code)
            continue;
        gisa_sim *sim = prepare(t->isa, e == DOC ? GISA_ENGINE_DOC : GISA_ENGINE_NATIVE, ins, nin, w, n);
        CHECKF(sim != NULL, "%s:%d: cannot set the inputs", file, lineno);
        const char *why = NULL;
        for (size_t pc = 0; sim && e == DOC && pc < n && !why; pc++)
            why = sim_doc_why_not(sim, pc);
        if (why) {
            ty->skipped++;
            if (!ty->why)
                ty->why = strdup(why);
        } else if (sim) {
            ran[e] = 1;
            ok[e] = run_compare(sim, exp, nexp, got[e], fault[e], sizeof fault[e]);
            ty->passed[e] += ok[e];
            CHECKF(ok[e], "%s:%d: %s: the %s engine differs from the reference", file, lineno, asm_text,
                   engine_name[e]);
        }
        gisa_sim_free(sim);
    }
    if ((ran[NATIVE] && !ok[NATIVE]) || (ran[DOC] && !ok[DOC]))
        report(t, w, n, file, lineno, asm_text, in_text, exp, nexp, got, ran, fault);
    free(w);
}

static void print_counts(const target *t, const char *name)
{
    int vectors = 0, passed[NENGINES] = {0}, skipped = 0;
    for (int i = 0; i < t->isa->noptypes; i++)
        vectors += t->by_optype[i].vectors;
    if (!t->has_code) {
        printf("%s: its description has no pseudo-code: native engine only (%d vectors)\n", name, vectors);
        if (!vectors)
            return;
    }
    printf("%s:\n  %-10s %7s %7s %7s %11s\n", name, "optype", "vectors", "native", "doc", "doc-skipped");
    vectors = 0;
    for (int i = 0; i < t->isa->noptypes; i++) {
        const tally *y = &t->by_optype[i];
        if (!y->vectors)
            continue;
        printf("  %-10s %7d %7d %7d %11d%s%s%s\n", t->isa->optypes[i].name, y->vectors, y->passed[NATIVE],
               y->passed[DOC], y->skipped, y->why ? "  (" : "", y->why ? y->why : "", y->why ? ")" : "");
        vectors += y->vectors;
        passed[NATIVE] += y->passed[NATIVE];
        passed[DOC] += y->passed[DOC];
        skipped += y->skipped;
    }
    printf("  total: %d vectors; native engine %d equal the reference; doc engine %d equal the reference, "
               "%d skipped (a word the doc engine does not run)\n",
               vectors, passed[NATIVE], passed[DOC], skipped);
}

static void run_file(target *targets, size_t ntargets, const char *path)
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
        run_line(targets, ntargets, path, lineno, line);
    }
    fclose(f);
    printf("%s: %d vectors, %d failed checks\n", path, count, test_failed - before);
}

int main(int argc, char **argv)
{
    /* gisa128 first: the vectors are written for it */
    size_t ntargets = gisa_target_count();
    target *targets = calloc(ntargets, sizeof *targets);
    const char *names[16];
    size_t k = 0;
    names[k++] = "gisa128";
    for (size_t i = 0; i < ntargets && k < 16; i++)
        if (strcmp(gisa_target_name(i), "gisa128"))
            names[k++] = gisa_target_name(i);
    ntargets = k;
    for (size_t i = 0; i < ntargets; i++) {
        target *t = &targets[i];
        t->isa = test_isa_target(names[i]);
        t->by_optype = calloc((size_t)t->isa->noptypes, sizeof *t->by_optype);
        for (int o = 0; o < t->isa->noptypes; o++) {
            const ds_optype *sem = ds_optype_of(t->isa, &t->isa->optypes[o]);
            t->has_code |= sem && sem->nlines > 0;
        }
    }
    const char *shared = argc > 1 ? NULL : test_shared_dir();
    if (argc == 1 && !shared)
        return test_skip("../shared is not beside the source tree: no reference vectors to run");
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            run_file(targets, ntargets, argv[i]);
    } else {
        char path[4200];
        snprintf(path, sizeof path, "%s/semantic-sample-vectors.tsv", shared);
        run_file(targets, ntargets, path);
    }
    for (size_t i = 0; i < ntargets; i++) {
        print_counts(&targets[i], names[i]);
        for (int o = 0; o < targets[i].isa->noptypes; o++)
            free((char *)targets[i].by_optype[o].why);
        free(targets[i].by_optype);
    }
    free(targets);
    return test_summary();
}
