/* `gisa run`: simulate a program on W warps and print the final state. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"

enum { O_STATE, O_OUT, O_TRACE, O_REGS, O_WARPS, O_THREADS, O_FORMAT, O_TRACE_FORMAT, O_TRACE_VALUES, O_VALUES, O_MAXMEM, O_ENGINE,
       O_COVERAGE, O_TRACE_ENGINE, O_BINS };
static const cli_opt opts[] = {
    {"state", 0, "FILE", "initial state (JSON; default: everything 0, all lanes active)"},
    {"output", 'o', "FILE", "write the final state to FILE (default: standard output)"},
    {"trace", 0, "[=FILE]", "commit log: every instruction reached, its exec mask and every write (default: standard error)"},
    {"regs", 0, "N", "registers per lane, R0..R(N-1) (default and most: 255 for gisa128, 63 for fermi)"},
    {"warps", 0, "W", "number of warps (default: as many as the state file has, else 1)"},
    {"threads", 0, "T", "worker threads (default: one per core)"},
    {"format", 0, "FMT", "program format: asm, bin or hex (default: by extension, else asm)"},
    {"trace-format", 0, "FMT", "trace as text (default) or json (one object per instruction)"},
    {"trace-values", 0, "LIST", "also show written values as numbers: f32, f64 (pairs), f16, bf16 (comma-separated)"},
    {"values", 0, "FMT", "write R and UR values as hex (default), f32, f64 (pairs R[0:1], ...), f16x2 or bf16x2"},
    {"max-memory", 0, "SIZE", "refuse a run estimated to need more memory (default 4G; K, M, G, T suffixes)"},
    {"engine", 0, "E[:LIST]", "semantics: native (C), doc (the documents' pseudo-code) or auto (native where it exists); "
                             "with :OPTYPE,... only those optypes, the others auto"},
    {"coverage", 0, "FILE", "add what the run executed to coverage FILE (JSON; made when missing; see 'gisa cov')"},
    {"trace-engine", 0, NULL, "show in the trace which engine ran each instruction ([native] or [doc])"},
    {"bins", 0, "FILE", "with --coverage: user-defined bins to count too (see 'gisa cov')"},
};

/* --trace-format and --trace-values as GISA_TRACE_* flags, or -1 */
static int trace_flags(const cli_cmd *cmd, const cli_args *a, unsigned *flags)
{
    *flags = 0;
    const char *fmt = a->val[O_TRACE_FORMAT];
    if (fmt && strcmp(fmt, "text") && strcmp(fmt, "json"))
        return cli_usage_error(cmd, "--trace-format is text or json, not '%s'", fmt);
    if (fmt && !strcmp(fmt, "json"))
        *flags |= GISA_TRACE_JSON;
    static const struct {
        const char *name;
        unsigned flag;
    } kinds[] = {{"f32", GISA_TRACE_F32}, {"f64", GISA_TRACE_F64}, {"f16", GISA_TRACE_F16}, {"bf16", GISA_TRACE_BF16}};
    for (const char *p = a->val[O_TRACE_VALUES]; p && *p;) {
        size_t n = strcspn(p, ","), k;
        for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (strlen(kinds[k].name) == n && !strncmp(p, kinds[k].name, n))
                break;
        if (k == sizeof kinds / sizeof kinds[0])
            return cli_usage_error(cmd, "--trace-values takes f32, f64, f16 and bf16, not '%.*s'", (int)n, p);
        *flags |= kinds[k].flag;
        p += n + (p[n] == ',');
    }
    return CLI_CONTINUE;
}

/* --engine E or E:OPTYPE,...: the engine, and the list (NULL: none) that
 * gets it while the other optypes run under auto */
static int parse_engine(const cli_cmd *cmd, const char *spec, gisa_sim_engine *engine, const char **list)
{
    static const char *const en[] = {"auto", "native", "doc"};
    if (!spec)
        return CLI_CONTINUE;
    size_t n = strcspn(spec, ":");
    int k = 0;
    while (k < 3 && (strlen(en[k]) != n || strncmp(spec, en[k], n)))
        k++;
    if (k == 3)
        return cli_usage_error(cmd, "unknown engine '%.*s' (expected native, doc or auto, optionally followed by :OPTYPE,...)",
                               (int)n, spec);
    *engine = (gisa_sim_engine)k;
    if (spec[n] == ':') {
        if (!spec[n + 1])
            return cli_usage_error(cmd, "--engine %s: needs optype names after ':' (e.g. %s:FFMA,IMAD)", en[k], en[k]);
        *list = spec + n + 1;
    }
    return CLI_CONTINUE;
}

/* The nearest optype name to `name`, for "did you mean" (NULL: none near) */
static const char *nearest_optype(const gisa_isa *isa, const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < gisa_isa_optype_count(isa); i++) {
        size_t d = cli_edit_distance(name, gisa_isa_optype_name(isa, i));
        if (d < best_d) {
            best_d = d;
            best = gisa_isa_optype_name(isa, i);
        }
    }
    return best;
}

/* The simulator's engines: all one, or the listed optypes one and the rest auto */
static int set_engine(const cli_cmd *cmd, gisa_sim *sim, gisa_sim_engine engine, const char *list)
{
    if (!list) {
        gisa_sim_set_engine(sim, engine);
        return CLI_CONTINUE;
    }
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        char name[128];
        if (!n || n >= sizeof name)
            return cli_usage_error(cmd, "--engine: '%.*s' is not an optype name", (int)n, p);
        memcpy(name, p, n);
        name[n] = 0;
        if (gisa_sim_set_engine_for(sim, name, engine) != GISA_OK) {
            const char *near = nearest_optype(gisa_sim_isa(sim), name);
            return near ? cli_usage_error(cmd, "--engine: no optype '%s' (did you mean %s?)", name, near)
                        : cli_usage_error(cmd, "--engine: no optype '%s' ('gisa doc' lists them)", name);
        }
        p += n + (p[n] == ',');
    }
    return CLI_CONTINUE;
}

/* The --format of the program, in cli_words_from order */
static int program_format(const char *path, const char *opt)
{
    static const char *const names[] = {"asm", "bin", "hex"};
    if (opt) {
        for (int i = 0; i < 3; i++)
            if (!strcmp(opt, names[i]))
                return i;
        return -1;
    }
    size_t n = path ? strlen(path) : 0;
    if (n > 4 && !strcmp(path + n - 4, ".bin"))
        return 1;
    if (n > 4 && !strcmp(path + n - 4, ".hex"))
        return 2;
    return 0;
}

/* Write errors show when the file is closed. */
static gisa_status trace_to_file(void *user, const char *line)
{
    fputs(line, (FILE *)user);
    fputc('\n', (FILE *)user);
    return GISA_OK;
}

static int parse_limit(const cli_cmd *cmd, const char *val, const char *what, size_t lo, size_t hi, size_t *out)
{
    if (!val)
        return CLI_CONTINUE;
    if (cli_parse_count(val, out) || *out < lo || *out > hi)
        return cli_usage_error(cmd, "--%s needs a number from %zu to %zu, not '%s'", what, lo, hi, val);
    return CLI_CONTINUE;
}

static int value_format(const char *s)
{
    static const char *const names[] = {"hex", "f32", "f64", "f16x2", "bf16x2"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(s ? s : "hex", names[i]))
            return i;
    return -1;
}

static gisa_status to_stream(void *user, const char *data, size_t n)
{
    return fwrite(data, 1, n, (FILE *)user) != n ? GISA_ERR_IO : GISA_OK;
}

/* Runs the simulation with its outputs streamed to their files in the
 * set: neither the trace nor the final state is held in memory. The caller
 * commits the set, or aborts it on an error. */
static int simulate(const cli_cmd *cmd, gisa_sim *sim, const cli_args *a, unsigned flags, cli_outset *set)
{
    const char *trace_path = a->val[O_TRACE], *out_path = a->val[O_OUT] ? a->val[O_OUT] : "-";
    FILE *trace = NULL, *out;
    if (trace_path && *trace_path && !(trace = cli_outset_open(set, trace_path)))
        return EXIT_USAGE;
    if (trace_path && !*trace_path)
        trace = stderr;
    if (!(out = cli_outset_open(set, out_path)))
        return EXIT_USAGE;
    if (trace) {
        gisa_sim_set_trace(sim, trace_to_file, trace);
        gisa_sim_set_trace_flags(sim, flags);
    }
    gisa_sim_fault fault;
    gisa_status st = gisa_sim_run(sim, &fault);
    if (st == GISA_ERR_SIM) {
        fprintf(stderr, "gisa run: simulation fault: warp %u, pc %zu (byte 0x%zx): %s\n  %s\n", fault.warp, fault.pc,
                fault.pc * 16, fault.message, fault.insn);
    } else if (st != GISA_OK) {
        cli_error(cmd, "%s", gisa_status_str(st));
        return EXIT_INPUT;
    }
    gisa_status ws = gisa_sim_state_write(sim, (gisa_state_values)value_format(a->val[O_VALUES]), to_stream, out);
    if (ws != GISA_OK) {
        int e = errno;
        if (ws == GISA_ERR_IO)
            cli_error(cmd, "cannot write '%s': %s", out_path, strerror(e));
        else
            cli_error(cmd, "%s", gisa_status_str(ws));
        return ws == GISA_ERR_IO ? EXIT_USAGE : EXIT_INPUT;
    }
    return st == GISA_ERR_SIM ? EXIT_FAULT : EXIT_OK;
}

/* What the run will hold in memory, checked against --max-memory before
 * anything is allocated. The outputs are streamed and not counted. */
static int check_memory(const cli_cmd *cmd, const cli_args *a, size_t regs, size_t warps, size_t nwords,
                        size_t state_bytes)
{
    size_t sim = gisa_sim_footprint((unsigned)regs, (unsigned)warps, 0);
    size_t prog = gisa_sim_footprint((unsigned)regs, 0, nwords) - gisa_sim_footprint((unsigned)regs, 0, 0);
    /* the program's words and text are still held besides the simulator's copy */
    size_t need = sim + 2 * prog + state_bytes;
    char detail[300], s[32], p[32], f[32];
    cli_human_size(s, sizeof s, sim);
    cli_human_size(p, sizeof p, 2 * prog);
    cli_human_size(f, sizeof f, state_bytes);
    snprintf(detail, sizeof detail,
             "%zu warps x %zu registers x 32 lanes: %s; %zu instructions: %s; the state file: %s; "
             "the output and the trace are streamed",
             warps, regs, s, nwords, p, f);
    return cli_check_memory(cmd, "this run", detail, need, a->val[O_MAXMEM], CLI_DEFAULT_MAX_MEMORY);
}

/* PROGRAM a directory: a bundle of `gisa shrink --bundle` (it has
 * bundle.json), run as its prog.s from its state.json (unless --state). */
static int open_bundle(const cli_cmd *cmd, cli_args *a, char *prog, char *state, size_t cap)
{
    struct stat st;
    if (!a->npos || stat(a->pos[0], &st) || !S_ISDIR(st.st_mode))
        return CLI_CONTINUE;
    const char *dir = a->pos[0];
    snprintf(prog, cap, "%s/bundle.json", dir);
    if (strlen(dir) + 16 > cap || stat(prog, &st))
        return cli_usage_error(cmd, "%s is a directory, not a bundle of 'gisa shrink --bundle' (no bundle.json)", dir);
    snprintf(prog, cap, "%s/prog.s", dir);
    a->pos[0] = prog;
    snprintf(state, cap, "%s/state.json", dir);
    if (!a->val[O_STATE] && !stat(state, &st))
        a->val[O_STATE] = state;
    return CLI_CONTINUE;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int r = cli_parse(cmd, argc, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    char bundle_prog[4200], bundle_state[4200];
    if ((r = open_bundle(cmd, &a, bundle_prog, bundle_state, sizeof bundle_prog)) != CLI_CONTINUE)
        return r;
    size_t regs = 0, warps = 1, threads = 0;
    unsigned flags = 0;
    if ((r = parse_limit(cmd, a.val[O_REGS], "regs", 1, GISA_SIM_MAX_REGS, &regs)) != CLI_CONTINUE ||
        (r = parse_limit(cmd, a.val[O_WARPS], "warps", 1, GISA_SIM_MAX_WARPS, &warps)) != CLI_CONTINUE ||
        (r = parse_limit(cmd, a.val[O_THREADS], "threads", 0, 256, &threads)) != CLI_CONTINUE ||
        (r = trace_flags(cmd, &a, &flags)) != CLI_CONTINUE)
        return r;
    gisa_sim_engine engine = GISA_ENGINE_AUTO;
    const char *engine_list = NULL;
    if ((r = parse_engine(cmd, a.val[O_ENGINE], &engine, &engine_list)) != CLI_CONTINUE)
        return r;
    if (a.val[O_TRACE_ENGINE])
        flags |= GISA_TRACE_ENGINE;
    int fmt = program_format(a.npos ? a.pos[0] : NULL, a.val[O_FORMAT]);
    if (fmt < 0)
        return cli_usage_error(cmd, "unknown format '%s' (expected asm, bin or hex)", a.val[O_FORMAT]);
    if (value_format(a.val[O_VALUES]) < 0)
        return cli_usage_error(cmd, "unknown --values '%s' (expected hex, f32, f64, f16x2 or bf16x2)", a.val[O_VALUES]);
    if ((r = cli_check_size_option(cmd, a.val[O_MAXMEM])) != CLI_CONTINUE)
        return r;
    if (a.val[O_OUT] && !*a.val[O_OUT])
        return cli_usage_error(cmd, "-o needs a file name");
    gisa_isa *isa;
    const char *isa_source;
    if ((r = cli_load_isa(&a, &isa, &isa_source, NULL)) != CLI_CONTINUE)
        return r;
    gisa_word *words = NULL;
    size_t n = 0;
    gisa_sim *sim = NULL;
    gisa_state *state = NULL;
    if ((r = cli_read_words(cmd, isa, &a, (cli_words_from)fmt, 100, &words, &n)) != CLI_CONTINUE) {
        fputs("gisa run: nothing was simulated\n", stderr);
        goto done;
    }
    if (!a.val[O_REGS])
        regs = gisa_sim_max_regs(isa);
    if (regs > gisa_sim_max_regs(isa)) {
        r = cli_usage_error(cmd, "--regs %zu: target %s has only %u registers per lane", regs, a.target ? a.target : "gisa128",
                            gisa_sim_max_regs(isa));
        goto done;
    }
    if (a.val[O_STATE] && (r = cli_read_state(cmd, a.val[O_STATE], &state, "simulated")) != CLI_CONTINUE)
        goto done;
    const char *trace = a.val[O_TRACE] && *a.val[O_TRACE] ? a.val[O_TRACE] : NULL;
    const char *outputs[] = {a.val[O_OUT], trace, a.val[O_COVERAGE]};
    if ((r = cli_check_outputs(cmd, &a, outputs, 3, a.val[O_COVERAGE])) != CLI_CONTINUE)
        goto done;
    if (!a.val[O_WARPS] && gisa_state_warps(state))
        warps = gisa_state_warps(state); /* a state written by a W-warp run starts W warps */
    if ((r = check_memory(cmd, &a, regs, warps, n, gisa_state_bytes(state))) != CLI_CONTINUE)
        goto done;
    if (gisa_sim_new(isa, (unsigned)regs, (unsigned)warps, &sim) != GISA_OK) {
        cli_error(cmd, "cannot allocate %zu warps of %zu registers", warps, regs);
        r = EXIT_INPUT;
        goto done;
    }
    gisa_sim_set_threads(sim, (unsigned)threads);
    if ((r = set_engine(cmd, sim, engine, engine_list)) != CLI_CONTINUE)
        goto done;
    if (gisa_sim_load(sim, words, n) != GISA_OK) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
        goto done;
    }
    free(words);
    words = NULL;
    if (state) {
        gisa_diags *d = cli_diags();
        gisa_status st = gisa_sim_state_apply(sim, state, d);
        cli_print_diags(stderr, d, 0, NULL);
        gisa_diags_free(d);
        gisa_state_free(state);
        state = NULL;
        if (st != GISA_OK) {
            cli_error(cmd, "bad state file; nothing was simulated");
            r = st == GISA_ERR_NOMEM ? EXIT_INPUT : EXIT_USAGE;
            goto done;
        }
    }
    cli_covfile cov;
    if (a.val[O_BINS] && !a.val[O_COVERAGE]) {
        r = cli_usage_error(cmd, "--bins counts into a coverage file: give --coverage FILE too");
        goto done;
    }
    if ((r = cli_cov_begin(cmd, isa, sim, a.val[O_COVERAGE], a.val[O_BINS], &cov)) != CLI_CONTINUE)
        goto done;
    cli_outset set;
    cli_outset_init(&set, cmd);
    r = cli_cov_commit(cmd, &cov, &set, simulate(cmd, sim, &a, flags, &set));
done:
    gisa_state_free(state);
    free(words);
    gisa_sim_free(sim);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_run = {
    "run",
    "[OPTIONS] [PROGRAM|-|BUNDLE-DIR]",
    "simulate a program on 32-lane warps and print the final state as JSON",
    "PROGRAM is assembly source (assembled first), or words with --format bin|hex;\n"
    "a directory of 'gisa shrink --bundle' runs its prog.s from its state.json.\n"
    "Every warp runs the whole program in order; lanes whose guard predicate is\n"
    "false, or that are not active, change nothing. The state file and the output\n"
    "use the same JSON format (docs/simulator.md); a state with a \"warps\" array\n"
    "(what a run of several warps writes) starts that many warps; otherwise, with\n"
    "--warps W, every warp starts from the state file, except the \"laneid\" and\n"
    "\"warpid\" specials. Values may be integers or floats (1.5, \"-0.0\", \"f16:1.5\").\n"
    "The memory a run needs (registers of every warp, the program, the state\n"
    "file) is estimated first; over --max-memory the run is refused at once.\n"
    "A fault (an invalid instruction or register index reached) stops the warp,\n"
    "prints where and why, still writes the state, and exits with status 3.\n"
    "Trace (commit log): 'wW PC exec 0xMASK TEXT' per instruction reached (exec:\n"
    "active lanes whose guard holds; 0 when skipped), then one line per write,\n"
    "changed or not: 'wW   R5 = 0xVALUE lanes 0xMASK' for the lanes that agree,\n"
    "'wW   R5[LANE] = 0xVALUE' for each other; predicates as lane masks, uniform\n"
    "registers as one value. --trace-format=json: one object per instruction.\n",
    opts,
    sizeof opts / sizeof *opts,
    1,
    run,
};
