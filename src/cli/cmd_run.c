/* `gisa run`: simulate a program on W warps and print the final state. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_STATE, O_OUT, O_TRACE, O_REGS, O_WARPS, O_THREADS, O_FORMAT, O_TRACE_FORMAT, O_TRACE_VALUES };
static const cli_opt opts[] = {
    {"state", 0, "FILE", "initial state (JSON; default: everything 0, all lanes active)"},
    {"output", 'o', "FILE", "write the final state to FILE (default: standard output)"},
    {"trace", 0, "[=FILE]", "commit log: every instruction reached, its exec mask and every write (default: standard error)"},
    {"regs", 0, "N", "registers per lane, R0..R(N-1) (default and most: 255 for gisa128, 63 for fermi)"},
    {"warps", 0, "W", "number of warps (default 1)"},
    {"threads", 0, "T", "worker threads (default: one per core)"},
    {"format", 0, "FMT", "program format: asm, bin or hex (default: by extension, else asm)"},
    {"trace-format", 0, "FMT", "trace as text (default) or json (one object per instruction)"},
    {"trace-values", 0, "LIST", "also show written values as numbers: f32, f64 (pairs), f16, bf16 (comma-separated)"},
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

static void trace_to_file(void *user, const char *line)
{
    fputs(line, (FILE *)user);
    fputc('\n', (FILE *)user);
}

static int parse_limit(const cli_cmd *cmd, const char *val, const char *what, size_t lo, size_t hi, size_t *out)
{
    if (!val)
        return CLI_CONTINUE;
    if (cli_parse_count(val, out) || *out < lo || *out > hi)
        return cli_usage_error(cmd, "--%s needs a number from %zu to %zu, not '%s'", what, lo, hi, val);
    return CLI_CONTINUE;
}

static int simulate(const cli_cmd *cmd, gisa_sim *sim, const cli_args *a, unsigned flags)
{
    const char *trace_path = a->val[O_TRACE];
    FILE *trace = NULL;
    char *trace_buf = NULL;
    size_t trace_len = 0;
    if (trace_path) {
        /* a trace file is written whole at the end, like every output */
        trace = *trace_path ? open_memstream(&trace_buf, &trace_len) : stderr;
        if (!trace) {
            cli_error(cmd, "out of memory");
            return EXIT_INPUT;
        }
        gisa_sim_set_trace(sim, trace_to_file, trace);
        gisa_sim_set_trace_flags(sim, flags);
    }
    gisa_sim_fault fault;
    gisa_status st = gisa_sim_run(sim, &fault);
    int r = EXIT_OK;
    if (trace && trace != stderr) {
        fclose(trace);
        r = cli_write_output(cmd, trace_path, trace_buf, trace_len);
        free(trace_buf);
    }
    if (st == GISA_ERR_SIM) {
        fprintf(stderr, "gisa run: simulation fault: warp %u, pc %zu (byte 0x%zx): %s\n  %s\n", fault.warp, fault.pc,
                fault.pc * 16, fault.message, fault.insn);
    } else if (st != GISA_OK) {
        cli_error(cmd, "%s", gisa_status_str(st));
        return EXIT_INPUT;
    }
    char *json = gisa_sim_state_write_json(sim);
    if (!json) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    int w = cli_write_output(cmd, a->val[O_OUT] ? a->val[O_OUT] : "-", json, strlen(json));
    free(json);
    if (st == GISA_ERR_SIM)
        return EXIT_FAULT;
    return r != EXIT_OK ? r : w;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int r = cli_parse(cmd, argc, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    size_t regs = 0, warps = 1, threads = 0;
    unsigned flags = 0;
    if ((r = parse_limit(cmd, a.val[O_REGS], "regs", 1, GISA_SIM_MAX_REGS, &regs)) != CLI_CONTINUE ||
        (r = parse_limit(cmd, a.val[O_WARPS], "warps", 1, GISA_SIM_MAX_WARPS, &warps)) != CLI_CONTINUE ||
        (r = parse_limit(cmd, a.val[O_THREADS], "threads", 0, 256, &threads)) != CLI_CONTINUE ||
        (r = trace_flags(cmd, &a, &flags)) != CLI_CONTINUE)
        return r;
    int fmt = program_format(a.npos ? a.pos[0] : NULL, a.val[O_FORMAT]);
    if (fmt < 0)
        return cli_usage_error(cmd, "unknown format '%s' (expected asm, bin or hex)", a.val[O_FORMAT]);
    if (a.val[O_OUT] && !*a.val[O_OUT])
        return cli_usage_error(cmd, "-o needs a file name");
    gisa_isa *isa;
    const char *isa_source;
    if ((r = cli_load_isa(&a, &isa, &isa_source, NULL)) != CLI_CONTINUE)
        return r;
    gisa_word *words = NULL;
    size_t n = 0;
    gisa_sim *sim = NULL;
    char *state = NULL;
    size_t state_len = 0;
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
    if (gisa_sim_new(isa, (unsigned)regs, (unsigned)warps, &sim) != GISA_OK) {
        cli_error(cmd, "cannot allocate %zu warps of %zu registers", warps, regs);
        r = EXIT_INPUT;
        goto done;
    }
    gisa_sim_set_threads(sim, (unsigned)threads);
    gisa_sim_load(sim, words, n);
    if (a.val[O_STATE]) {
        if ((r = cli_read_input(cmd, a.val[O_STATE], &state, &state_len)) != CLI_CONTINUE)
            goto done;
        gisa_diags *d = gisa_diags_new();
        gisa_status st = gisa_sim_state_read_json(sim, cli_input_name(a.val[O_STATE]), state, state_len, d);
        cli_print_diags(stderr, d, 0, NULL);
        gisa_diags_free(d);
        if (st != GISA_OK) {
            cli_error(cmd, "bad state file; nothing was simulated");
            r = EXIT_USAGE;
            goto done;
        }
    }
    r = simulate(cmd, sim, &a, flags);
done:
    free(state);
    free(words);
    gisa_sim_free(sim);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_run = {
    "run",
    "[OPTIONS] [PROGRAM|-]",
    "simulate a program on 32-lane warps and print the final state as JSON",
    "PROGRAM is assembly source (assembled first), or words with --format bin|hex.\n"
    "Every warp runs the whole program in order; lanes whose guard predicate is\n"
    "false, or that are not active, change nothing. The state file and the output\n"
    "use the same JSON format (docs/simulator.md); with --warps W every warp starts\n"
    "from the state file, except the \"laneid\" and \"warpid\" specials.\n"
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
