/* `gisa cov`: run programs and/or add coverage files, print the coverage;
 * and the coverage file of `gisa run --coverage FILE`. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

/* Adds coverage file `path` to cov. CLI_CONTINUE, or EXIT_USAGE after
 * saying why (unreadable, not a coverage file of this ISA). */
static int add_file(const cli_cmd *cmd, gisa_cov *cov, const char *path)
{
    char *text;
    size_t len;
    int r = cli_read_input(cmd, path, &text, &len);
    if (r != CLI_CONTINUE)
        return r;
    gisa_diags *d = cli_diags();
    gisa_status st = gisa_cov_read_json(cov, cli_input_name(path), text, len, d);
    cli_print_diags(stderr, d, 0, NULL);
    gisa_diags_free(d);
    free(text);
    if (st != GISA_OK) {
        cli_error(cmd, "%s: %s", cli_input_name(path),
                  st == GISA_ERR_NOMEM ? "out of memory" : "not a coverage file of this ISA");
        return st == GISA_ERR_NOMEM ? EXIT_INPUT : EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

/* The lock of a coverage file that runs add to: FILE.lock beside it (of
 * the file a link points to), locked with fcntl, which works on NFS (flock
 * there is local to one client on old kernels). The coverage file itself
 * is replaced by a rename under the lock, so it cannot be what is locked:
 * a run waiting on the old file would lock what is no longer there. The
 * lock file stays: removing it would let the next run lock a new one while
 * another still holds the old. Where it cannot be made (a read-only
 * directory, where the coverage file is written in place) and does not
 * exist, the coverage file itself is locked. The kernel (on NFS, the lock
 * manager) releases the lock of a run that is killed. Returns the open
 * lock file, not locked yet, or -1 after saying why. */
static int lock_open(const cli_cmd *cmd, const char *path)
{
    char *real = realpath(path, NULL);
    const char *file = real ? real : path;
    char *name = malloc(strlen(file) + 6);
    int fd = -1;
    if (name) {
        sprintf(name, "%s.lock", file);
        fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        struct stat st;
        if (fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM) && real && stat(name, &st))
            fd = open(real, O_RDWR | O_CLOEXEC); /* no one could make it; an existing one is what others lock */
        if (fd < 0)
            cli_error(cmd, "cannot lock '%s': cannot open '%s': %s", path, name, strerror(errno));
    } else {
        cli_error(cmd, "out of memory");
    }
    free(name);
    free(real);
    return fd;
}

/* Waits for the lock: exclusive, the whole file. */
static int lock_take(const cli_cmd *cmd, const char *path, int fd)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    while (fcntl(fd, F_SETLKW, &fl)) {
        if (errno != EINTR) {
            cli_error(cmd, "cannot lock '%s': %s", path, strerror(errno));
            return EXIT_USAGE;
        }
    }
    return CLI_CONTINUE;
}

/* Adds coverage file `path` to cov when it exists: it must be a regular
 * file (a device would be read to the size limit). */
static int add_existing(const cli_cmd *cmd, gisa_cov *cov, const char *path)
{
    struct stat st;
    if (stat(path, &st))
        return errno == ENOENT ? CLI_CONTINUE : add_file(cmd, cov, path);
    if (!S_ISREG(st.st_mode)) {
        cli_error(cmd, "the coverage file '%s' is not a regular file", path);
        return EXIT_USAGE;
    }
    return add_file(cmd, cov, path);
}

int cli_cov_bins(const cli_cmd *cmd, gisa_cov *cov, const char *path)
{
    if (!path)
        return CLI_CONTINUE;
    char *text;
    size_t len;
    int r = cli_read_input(cmd, path, &text, &len);
    if (r != CLI_CONTINUE)
        return r;
    gisa_diags *d = cli_diags();
    gisa_status st = gisa_cov_load_bins(cov, cli_input_name(path), text, len, d);
    cli_print_diags(stderr, d, 1, NULL);
    gisa_diags_free(d);
    free(text);
    if (st != GISA_OK) {
        cli_error(cmd, "%s: %s", cli_input_name(path), st == GISA_ERR_NOMEM ? "out of memory" : "bad bins file");
        return st == GISA_ERR_NOMEM ? EXIT_INPUT : EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

int cli_cov_begin(const cli_cmd *cmd, const gisa_isa *isa, gisa_sim *sim, const char *path, const char *bins,
                  cli_covfile *cf)
{
    cf->cov = NULL;
    cf->path = path;
    cf->lock = -1;
    if (!path)
        return CLI_CONTINUE;
    if (!*path || !strcmp(path, "-"))
        return cli_usage_error(cmd, "--coverage needs a file name");
    /* read now to refuse a bad file before the run, and again under the
     * lock at the end, for the runs that ended meanwhile */
    gisa_cov *old = NULL;
    if (gisa_cov_new(isa, &old) != GISA_OK || gisa_cov_new(isa, &cf->cov) != GISA_OK) {
        gisa_cov_free(old);
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    int r = cli_cov_bins(cmd, old, bins);
    if (r == CLI_CONTINUE)
        r = cli_cov_bins(cmd, cf->cov, bins);
    if (r == CLI_CONTINUE)
        r = add_existing(cmd, old, path);
    gisa_cov_free(old);
    if (r == CLI_CONTINUE && (cf->lock = lock_open(cmd, path)) < 0)
        r = EXIT_USAGE;
    if (r != CLI_CONTINUE) {
        gisa_cov_free(cf->cov);
        cf->cov = NULL;
        return r;
    }
    gisa_cov_attach(cf->cov, sim);
    return CLI_CONTINUE;
}

/* Under the lock: the file as it is now plus this run, into the set, and
 * the set committed. */
static int commit_locked(const cli_cmd *cmd, cli_covfile *cf, cli_outset *set)
{
    cli_outset_sync(set); /* a long trace is not written to disk under the lock */
    int r = lock_take(cmd, cf->path, cf->lock);
    if (r == CLI_CONTINUE)
        r = add_existing(cmd, cf->cov, cf->path);
    char *json = NULL;
    if (r == CLI_CONTINUE && gisa_cov_write_json(cf->cov, &json) != GISA_OK) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    }
    if (r == CLI_CONTINUE)
        r = cli_outset_put(set, cf->path, json, strlen(json));
    if (r == EXIT_OK)
        r = cli_outset_commit(set);
    cli_outset_abort(set);
    gisa_free(json);
    return r;
}

int cli_cov_commit(const cli_cmd *cmd, cli_covfile *cf, cli_outset *set, int status)
{
    int w = status;
    if (status != EXIT_OK && status != EXIT_FAULT)
        cli_outset_abort(set);
    else if (cf->cov)
        w = commit_locked(cmd, cf, set);
    else
        w = cli_outset_commit(set);
    if (cf->lock >= 0)
        close(cf->lock); /* releases the lock */
    gisa_cov_free(cf->cov);
    cf->cov = NULL;
    cf->lock = -1;
    return status != EXIT_OK ? status : w;
}

/* ------------------------------------------------------------ gisa cov */

enum { O_STATE, O_MERGE, O_JSON, O_OUT, O_FORMAT, O_REGS, O_WARPS, O_BINS, O_HTML };
static const cli_opt opts[] = {
    {"state", 0, "FILE", "initial state of every program (JSON, as for 'run')"},
    {"merge", 0, "COVFILE...", "add coverage files (JSON from 'run --coverage' or 'cov --json');\n"
                               "                           the arguments after it are coverage files"},
    {"json", 0, NULL, "print the coverage as JSON (the coverage file format) instead of text"},
    {"out", 'o', "FILE", "write the report to FILE (default: standard output)"},
    {"format", 0, "FMT", "program format: asm, bin or hex (default: by extension, else asm)"},
    {"regs", 0, "N", "registers per lane (default: the target's most)"},
    {"warps", 0, "W", "number of warps (default 1)"},
    {"bins", 0, "FILE", "user-defined bins (docs/coverage.md, \"User bins\"), counted in the programs run"},
    {"html", 0, "FILE|DIR", "also write the report as HTML to FILE, or to DIR/index.html (holes first)"},
};

/* Whether the argument is an option whose value is the next argument. */
static int takes_value(const cli_cmd *cmd, const char *arg)
{
    if (strchr(arg, '='))
        return 0;
    if (cli_global_option_kind(arg) == 1)
        return 1;
    for (size_t i = 0; i < cmd->nopts; i++) {
        const cli_opt *o = &cmd->opts[i];
        int named = (arg[1] == '-' && !strcmp(arg + 2, o->name)) || (o->short_name && arg[1] == o->short_name && !arg[2]);
        if (named)
            return o->arg && o->arg[0] != '[' && i != O_MERGE;
    }
    return 0;
}

typedef struct cov_inputs {
    char **rest; /* argv without the programs and coverage files, for cli_parse */
    int nrest;
    const char **programs, **merges;
    size_t nprograms, nmerges;
} cov_inputs;

/* Takes the programs and the coverage files out of the command line (their
 * number has no limit): an argument after --merge is a coverage file, up
 * to the next option; any other argument that is not an option's value is
 * a program. */
static int split_inputs(const cli_cmd *cmd, int argc, char **argv, cov_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->rest = malloc(sizeof *in->rest * ((size_t)argc + 1));
    in->programs = malloc(sizeof *in->programs * ((size_t)argc + 1));
    in->merges = malloc(sizeof *in->merges * ((size_t)argc + 1));
    if (!in->rest || !in->programs || !in->merges) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    int merging = 0, only_pos = 0;
    in->rest[in->nrest++] = argv[0];
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        if (!only_pos && !strcmp(arg, "--")) {
            only_pos = 1;
        } else if (!only_pos && !strncmp(arg, "--merge", 7) && (!arg[7] || arg[7] == '=')) {
            merging = 1;
            if (arg[7])
                in->merges[in->nmerges++] = arg + 8;
        } else if (!only_pos && arg[0] == '-' && arg[1]) {
            merging = 0;
            in->rest[in->nrest++] = arg;
            if (takes_value(cmd, arg) && i + 1 < argc)
                in->rest[in->nrest++] = argv[++i];
        } else if (merging) {
            in->merges[in->nmerges++] = arg;
        } else {
            in->programs[in->nprograms++] = arg;
        }
    }
    in->rest[in->nrest] = NULL;
    return CLI_CONTINUE;
}

static void inputs_free(cov_inputs *in)
{
    free(in->rest);
    free(in->programs);
    free(in->merges);
}

static int program_format(const char *path, const char *opt)
{
    static const char *const names[] = {"asm", "bin", "hex"};
    for (int i = 0; opt && i < 3; i++)
        if (!strcmp(opt, names[i]))
            return i;
    if (opt)
        return -1;
    const char *dot = path ? strrchr(path, '.') : NULL;
    for (int i = 1; dot && i < 3; i++)
        if (!strcmp(dot + 1, names[i]))
            return i;
    return CLI_WORDS_ASM;
}

typedef struct cov_run {
    const cli_cmd *cmd;
    const cli_args *a;
    const gisa_isa *isa;
    gisa_cov *cov;
    const char *state; /* the --state file's text, or NULL */
    size_t state_len;
    size_t regs, warps;
} cov_run;

/* Runs one program into the coverage. CLI_CONTINUE, EXIT_FAULT after
 * reporting a fault (its coverage up to the fault counts), or an error. */
static int run_program(const cov_run *cr, const char *path)
{
    const cli_cmd *cmd = cr->cmd;
    int fmt = program_format(path, cr->a->val[O_FORMAT]);
    cli_args one = *cr->a;
    one.npos = 1;
    one.pos[0] = path;
    gisa_word *words = NULL;
    size_t n = 0;
    int r = cli_read_words(cmd, cr->isa, &one, (cli_words_from)fmt, 100, &words, &n);
    if (r != CLI_CONTINUE)
        return r;
    gisa_sim *sim = NULL;
    if (gisa_sim_new(cr->isa, (unsigned)cr->regs, (unsigned)cr->warps, &sim) != GISA_OK) {
        free(words);
        cli_error(cmd, "cannot allocate %zu warps of %zu registers", cr->warps, cr->regs);
        return EXIT_INPUT;
    }
    gisa_sim_load(sim, words, n);
    free(words);
    if (cr->state) {
        gisa_diags *d = cli_diags();
        gisa_status st = cli_state_read(sim, cli_input_name(cr->a->val[O_STATE]), cr->state, cr->state_len, d);
        cli_print_diags(stderr, d, 0, NULL);
        gisa_diags_free(d);
        if (st != GISA_OK) {
            gisa_sim_free(sim);
            cli_error(cmd, "bad state file; nothing was simulated");
            return EXIT_USAGE;
        }
    }
    gisa_cov_attach(cr->cov, sim);
    gisa_sim_fault fault;
    gisa_status st = gisa_sim_run(sim, &fault);
    gisa_sim_free(sim);
    if (st == GISA_ERR_SIM) {
        fprintf(stderr, "gisa cov: %s: simulation fault: warp %u, pc %zu: %s\n  %s\n", cli_input_name(path), fault.warp,
                fault.pc, fault.message, fault.insn);
        return EXIT_FAULT;
    }
    if (st != GISA_OK) {
        cli_error(cmd, "%s: %s", cli_input_name(path), gisa_status_str(st));
        return EXIT_INPUT;
    }
    return CLI_CONTINUE;
}

static int count_opt(const cli_cmd *cmd, const char *val, const char *what, size_t lo, size_t hi, size_t *out)
{
    if (val && (cli_parse_count(val, out) || *out < lo || *out > hi))
        return cli_usage_error(cmd, "--%s needs a number from %zu to %zu, not '%s'", what, lo, hi, val);
    return CLI_CONTINUE;
}

/* The output when --json adds coverage files into one of them
 * (`--merge c.json new.json --json -o c.json`), else NULL. */
static const char *merged_into(const cov_inputs *in, const char *out)
{
    struct stat o, m;
    for (size_t i = 0; i < in->nmerges && !stat(out, &o); i++)
        if (!stat(in->merges[i], &m) && m.st_dev == o.st_dev && m.st_ino == o.st_ino)
            return out;
    return NULL;
}

/* The HTML report into path, or path/index.html when path is a directory */
static int write_html(const cli_cmd *cmd, const gisa_cov *cov, const char *path)
{
    struct stat st;
    char *file = NULL;
    size_t n = strlen(path);
    if ((!stat(path, &st) && S_ISDIR(st.st_mode)) || path[n - 1] == '/') {
        if (stat(path, &st) && mkdir(path, 0777)) {
            cli_error(cmd, "cannot make directory '%s': %s", path, strerror(errno));
            return EXIT_USAGE;
        }
        if (!(file = malloc(n + 12))) {
            cli_error(cmd, "out of memory");
            return EXIT_INPUT;
        }
        sprintf(file, "%s%sindex.html", path, path[n - 1] == '/' ? "" : "/");
    }
    char *html = NULL;
    int r;
    if (gisa_cov_report_html(cov, &html) != GISA_OK) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    } else {
        r = cli_write_output(cmd, file ? file : path, html, strlen(html));
        r = r == EXIT_OK ? CLI_CONTINUE : r;
    }
    gisa_free(html);
    free(file);
    return r;
}

static int cov_main(const cli_cmd *cmd, const cli_args *a, const cov_inputs *in, gisa_isa *isa)
{
    cov_run cr = {cmd, a, isa, NULL, NULL, 0, gisa_sim_max_regs(isa), 1};
    int r;
    if ((r = count_opt(cmd, a->val[O_REGS], "regs", 1, gisa_sim_max_regs(isa), &cr.regs)) != CLI_CONTINUE ||
        (r = count_opt(cmd, a->val[O_WARPS], "warps", 1, GISA_SIM_MAX_WARPS, &cr.warps)) != CLI_CONTINUE)
        return r;
    if (program_format(NULL, a->val[O_FORMAT]) < 0)
        return cli_usage_error(cmd, "unknown format '%s' (expected asm, bin or hex)", a->val[O_FORMAT]);
    if (!in->nprograms && !in->nmerges)
        return cli_usage_error(cmd, "nothing to report: give programs to run or --merge coverage files");
    if (a->val[O_OUT] && !*a->val[O_OUT])
        return cli_usage_error(cmd, "--out needs a file name");
    if (a->val[O_HTML] && !*a->val[O_HTML])
        return cli_usage_error(cmd, "--html needs a file or directory name");
    if (gisa_cov_new(isa, &cr.cov) != GISA_OK) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    if ((r = cli_cov_bins(cmd, cr.cov, a->val[O_BINS])) != CLI_CONTINUE) {
        gisa_cov_free(cr.cov);
        return r;
    }
    char *state = NULL;
    const char *out = a->val[O_OUT] ? a->val[O_OUT] : "-";
    int lock = -1;
    if (a->val[O_STATE] && (r = cli_read_input(cmd, a->val[O_STATE], &state, &cr.state_len)) != CLI_CONTINUE)
        goto done;
    cr.state = state;
    int faulted = 0;
    for (size_t i = 0; i < in->nprograms; i++) {
        r = run_program(&cr, in->programs[i]);
        if (r == EXIT_FAULT)
            faulted = 1;
        else if (r != CLI_CONTINUE)
            goto done;
    }
    /* a coverage file written is locked like that of `run --coverage`
     * from before its old counts may be read (as a --merge file) until it
     * is replaced, so that the runs that end meanwhile wait and are not
     * lost; the programs ran before, not to hold the lock while they run */
    if (a->val[O_JSON] && strcmp(out, "-") && ((lock = lock_open(cmd, out)) < 0 || lock_take(cmd, out, lock) != CLI_CONTINUE)) {
        r = EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < in->nmerges; i++)
        if ((r = add_file(cmd, cr.cov, in->merges[i])) != CLI_CONTINUE)
            goto done;
    if (a->val[O_HTML] && (r = write_html(cmd, cr.cov, a->val[O_HTML])) != CLI_CONTINUE)
        goto done;
    char *text = NULL;
    if (a->val[O_JSON])
        gisa_cov_write_json(cr.cov, &text);
    else
        gisa_cov_report(cr.cov, &text);
    if (!text) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
        goto done;
    }
    r = cli_check_outputs(cmd, a, &out, 1, a->val[O_JSON] ? merged_into(in, out) : NULL);
    if (r == CLI_CONTINUE)
        r = cli_write_output(cmd, out, text, strlen(text));
    free(text);
    if (r == EXIT_OK && faulted)
        r = EXIT_FAULT;
done:
    if (lock >= 0)
        close(lock);
    free(state);
    gisa_cov_free(cr.cov);
    return r;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cov_inputs in;
    int r = split_inputs(cmd, argc, argv, &in);
    cli_args a;
    if (r == CLI_CONTINUE)
        r = cli_parse(cmd, in.nrest, in.rest, &a);
    gisa_isa *isa = NULL;
    const char *source;
    if (r == CLI_CONTINUE)
        r = cli_load_isa(&a, &isa, &source, NULL);
    if (r == CLI_CONTINUE)
        r = cov_main(cmd, &a, &in, isa);
    gisa_isa_free(isa);
    inputs_free(&in);
    return r;
}

const cli_cmd cmd_cov = {
    "cov",
    "[OPTIONS] [PROGRAM...] [--merge COVFILE...]",
    "functional coverage: run programs and/or add coverage files, print what was hit",
    "Each PROGRAM (assembly, or words with --format bin|hex or a .bin/.hex name)\n"
    "runs from the --state file like 'gisa run'; what it executes is counted:\n"
    "per opcode, per optype the modifier values and their combinations, per\n"
    "source the operand kinds, decorations and floating-point classes of the\n"
    "values read, and bins: integer value classes, result classes, predicate\n"
    "outcomes, guard and exec-mask patterns, read-after-write distances,\n"
    "crosses, and the user bins of --bins (docs/coverage.md). An instruction\n"
    "whose guard lets no lane execute counts only as a pattern. The text\n"
    "report gives hit/total per optype and names what was never hit; --html\n"
    "writes it as a page, holes first; --json writes the coverage file format,\n"
    "which --merge and 'run --coverage' read. A program that faults still\n"
    "counts up to the fault; the exit status is then 3.\n",
    opts,
    sizeof opts / sizeof *opts,
    0,
    run,
};
