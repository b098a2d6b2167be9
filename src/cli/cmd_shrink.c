/* `gisa shrink PROG [--state STATE] -- CMD ARGS...`: the smallest program,
 * then the smallest state, on which a test command still fails
 * (gisa_shrink's and gisa_shrink_state's delta debugging). Each candidate
 * is written next to its original (a program from standard input: in the
 * current directory), to a hidden file of a unique name that ends like
 * the original's, so that a program's relative `.include`s resolve as they
 * do for PROG itself; the command runs with every `{}` (or `{prog}`) in its
 * arguments replaced by the program's path (appended when no argument has
 * one) and every `{state}` by the state's. Only where a directory cannot
 * be written do the candidates go to a fresh temporary directory, with a
 * warning. The program's leading `//` lines (the generator's seed and
 * options) are kept in every candidate and in the result.
 *
 * Each run of the command is a process group of its own: on a timeout, on
 * SIGINT/SIGTERM/SIGHUP of shrink itself (Ctrl-C reaches only the
 * terminal's foreground group, which the command is not in) and when the
 * command has ended, the whole group is killed, so that nothing it started
 * (a simulator under `make`, a `sleep` under `sh -c`) outlives shrink. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shrink.h"

enum { O_OUT, O_STATE, O_STATE_OUT, O_BUNDLE, O_STATUS, O_TIMEOUT, O_VERBOSE };
static const cli_opt opts[] = {
    {"output", 'o', "FILE", "write the smallest program to FILE (default: standard output, unless --bundle)"},
    {"state", 0, "FILE", "the state the command fails with ('{state}' names it), shrunk after the program"},
    {"state-out", 0, "FILE", "write the smallest state to FILE"},
    {"bundle", 0, "DIR", "write a reproducer directory: prog.s, state.json, repro.sh, bundle.json"},
    {"status", 0, "N", "the command fails when it exits with status N (default: any non-zero status)"},
    {"timeout", 0, "S", "a run longer than S seconds does not count as failing (default: no limit)"},
    {"verbose", 'v', NULL, "show the command's output and each step"},
};

#define EXEC_FAILED 127 /* the child could not run the command */

typedef struct tester {
    const cli_cmd *cmd;
    char **argv;         /* the command, with the candidates' paths in place */
    const char *path;    /* the program's candidate */
    const char *spath;   /* the state's candidate */
    const char *header;  /* the program's leading comment lines, kept in every candidate */
    size_t header_len;
    int status;          /* -1: any non-zero */
    unsigned timeout;
    int verbose;
    int last;            /* the last run's exit status (128+N: killed by signal N; -1 timed out) */
} tester;

static int write_candidate(const char *path, const char *head, size_t head_len, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(head, 1, head_len, f) != head_len || fwrite(text, 1, len, f) != len;
    return fclose(f) || bad ? -1 : 0;
}

/* The process group of the command running now (0: none), for the
 * signal handler; the candidates' files and directories (the program's,
 * the state's), which it removes. */
static volatile sig_atomic_t running_group;
static const char *volatile candidate_path[2], *volatile candidate_dir[2];

static void on_interrupt(int sig)
{
    pid_t g = (pid_t)running_group;
    if (g > 0)
        kill(-g, SIGKILL);
    for (int i = 0; i < 2; i++) {
        if (candidate_path[i])
            unlink(candidate_path[i]);
        if (candidate_dir[i])
            rmdir(candidate_dir[i]);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int interrupts[] = {SIGINT, SIGTERM, SIGHUP};
#define NINTERRUPTS (sizeof interrupts / sizeof *interrupts)
static struct sigaction interrupts_before[NINTERRUPTS];

/* on_interrupt for each interrupt that is not ignored (a shell starts
 * background jobs with SIGINT ignored: they stay so), saving the actions. */
static void catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NINTERRUPTS; i++) {
        sigaction(interrupts[i], NULL, &interrupts_before[i]);
        if (interrupts_before[i].sa_handler != SIG_IGN)
            sigaction(interrupts[i], &sa, NULL);
    }
}

/* The actions catch_interrupts found (in shrink at the end, and in the
 * command before it starts). */
static void release_interrupts(void)
{
    for (size_t i = 0; i < NINTERRUPTS; i++)
        sigaction(interrupts[i], &interrupts_before[i], NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits for the command `pid` (SIGCHLD blocked by the caller), killing its
 * group after t->timeout seconds; *timed_out says whether it was. 0, or -1
 * when waiting failed. */
static int wait_command(const tester *t, pid_t pid, int *ws, int *timed_out)
{
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    double deadline = t->timeout ? now_s() + t->timeout : 0;
    *timed_out = 0;
    for (;;) {
        pid_t r = waitpid(pid, ws, WNOHANG);
        if (r == pid)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
        if (t->timeout) {
            double left = deadline - now_s();
            if (left <= 0) {
                kill(-pid, SIGKILL);
                *timed_out = 1;
                while (waitpid(pid, ws, 0) < 0)
                    if (errno != EINTR)
                        return -1;
                return 0;
            }
            struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
            sigtimedwait(&chld, NULL, &ts);
        } else {
            sigwaitinfo(&chld, NULL);
        }
    }
}

/* Runs the command once on the candidates as they are on disk: *fails,
 * or GISA_ERR_IO: stop. */
static gisa_status run_command(tester *t, bool *fails)
{
    fflush(NULL);
    /* SIGCHLD stays blocked for wait_command; the interrupts only until
     * running_group names the new group: on a loaded machine the command
     * may run (and be interrupted) before fork returns here */
    sigset_t chld, ints, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigemptyset(&ints);
    for (size_t i = 0; i < NINTERRUPTS; i++)
        sigaddset(&ints, interrupts[i]);
    sigprocmask(SIG_BLOCK, &chld, &old);
    sigprocmask(SIG_BLOCK, &ints, NULL);
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        cli_error(t->cmd, "cannot start the command: %s", strerror(errno));
        return GISA_ERR_IO;
    }
    if (pid == 0) {
        setpgid(0, 0);
        release_interrupts();
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (!t->verbose) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) {
                dup2(null, 1);
                dup2(null, 2);
            }
        }
        execvp(t->argv[0], t->argv);
        _exit(EXEC_FAILED);
    }
    setpgid(pid, pid); /* also here: the group exists before anything is sent to it */
    running_group = pid;
    sigprocmask(SIG_UNBLOCK, &ints, NULL);
    int ws, timed_out;
    int waited = wait_command(t, pid, &ws, &timed_out);
    kill(-pid, SIGKILL); /* whatever the command left running in its group */
    running_group = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (waited < 0) {
        cli_error(t->cmd, "waiting for the command: %s", strerror(errno));
        return GISA_ERR_IO;
    }
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXEC_FAILED && t->status != EXEC_FAILED) {
        cli_error(t->cmd, "cannot run '%s' (exit status %d)", t->argv[0], EXEC_FAILED);
        return GISA_ERR_IO;
    }
    t->last = timed_out ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : -1;
    *fails = timed_out      ? false
             : WIFEXITED(ws) ? (t->status < 0 ? WEXITSTATUS(ws) != 0 : WEXITSTATUS(ws) == t->status)
                             : WIFSIGNALED(ws) && t->status < 0;
    if (t->verbose)
        fprintf(stderr, "gisa shrink: %s\n", timed_out ? "timed out (passes)" : *fails ? "fails (kept)" : "passes");
    return GISA_OK;
}

/* gisa_shrink's test: the candidate program (after the header). */
static gisa_status program_fails(void *user, const char *text, size_t len, bool *fails)
{
    tester *t = user;
    if (write_candidate(t->path, t->header, t->header_len, text, len)) {
        cli_error(t->cmd, "cannot write %s: %s", t->path, strerror(errno));
        return GISA_ERR_IO;
    }
    if (t->verbose) {
        size_t n = 0;
        for (size_t i = 0; i < len; i++)
            n += text[i] == '\n';
        fprintf(stderr, "gisa shrink: program of %zu lines (and the header)\n", n);
    }
    return run_command(t, fails);
}

/* gisa_shrink_state's test: the candidate state (the program stays). */
static gisa_status state_fails(void *user, const char *text, size_t len, bool *fails)
{
    tester *t = user;
    if (write_candidate(t->spath, "", 0, text, len)) {
        cli_error(t->cmd, "cannot write %s: %s", t->spath, strerror(errno));
        return GISA_ERR_IO;
    }
    if (t->verbose)
        fprintf(stderr, "gisa shrink: state of %zu bytes\n", len);
    return run_command(t, fails);
}

/* The placeholder at p: its length, *state whether it is {state}. */
static size_t placeholder(const char *p, int *state)
{
    *state = 0;
    if (!strncmp(p, SHRINK_STATE, strlen(SHRINK_STATE))) {
        *state = 1;
        return strlen(SHRINK_STATE);
    }
    if (!strncmp(p, SHRINK_PROG_LONG, strlen(SHRINK_PROG_LONG)))
        return strlen(SHRINK_PROG_LONG);
    return strncmp(p, SHRINK_PROG, strlen(SHRINK_PROG)) ? 0 : strlen(SHRINK_PROG);
}

/* arg with its placeholders replaced (a malloc'ed string, or NULL); *has
 * gets bit 1 for a program placeholder, bit 2 for {state}. */
static char *substitute(const char *arg, const char *prog, const char *state, int *has)
{
    size_t n = 1, pl = strlen(prog), sl = state ? strlen(state) : 0, k;
    int st;
    for (const char *p = arg; *p;)
        if ((k = placeholder(p, &st))) {
            n += st ? sl : pl;
            *has |= st ? 2 : 1;
            p += k;
        } else {
            n++;
            p++;
        }
    char *out = malloc(n), *o = out;
    if (!out)
        return NULL;
    for (const char *p = arg; *p;)
        if ((k = placeholder(p, &st))) {
            memcpy(o, st ? state : prog, st ? sl : pl);
            o += st ? sl : pl;
            p += k;
        } else {
            *o++ = *p++;
        }
    *o = 0;
    return out;
}

static void free_argv(char **argv)
{
    for (int i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* argv with the placeholders replaced, the program's path appended when
 * no argument names it; *has as substitute's (1 also when appended). */
static char **command_line(char **cmd, int n, const char *prog, const char *state, int *has)
{
    char **out = calloc((size_t)n + 2, sizeof *out);
    *has = 0;
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++)
        if (!(out[i] = substitute(cmd[i], prog, state ? state : "", has))) {
            free_argv(out);
            return NULL;
        }
    if (!(*has & 1) && !(out[n] = strdup(prog))) {
        free_argv(out);
        return NULL;
    }
    return out;
}

/* A candidate for `file` (NULL: standard input, named `base`):
 * `.gisa-shrink-XXXXXX.NAME` beside it, else in a fresh temporary
 * directory (dir, with a warning). 0, or -1 after printing why. */
static int make_candidate(const cli_cmd *cmd, const char *file, const char *fallback, char *path, size_t cap, char *dir,
                          size_t dcap)
{
    const char *slash = file ? strrchr(file, '/') : NULL;
    const char *base = slash ? slash + 1 : file ? file : fallback;
    *dir = 0;
    if (strlen(base) >= 4096 || (slash && slash - file >= 4096)) {
        cli_error(cmd, "the path '%s' is too long", file);
        return -1;
    }
    snprintf(path, cap, "%.*s%s.gisa-shrink-XXXXXX.%s", slash ? (int)(slash - file) : 0, slash ? file : "",
             slash ? "/" : "", base);
    int fd = mkstemps(path, (int)strlen(base) + 1);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    const char *tmp = getenv("TMPDIR");
    fprintf(stderr, "gisa shrink: warning: cannot write a candidate next to %s (%s): they go to a temporary directory, where its relative .include do not resolve\n",
            cli_input_name(file), strerror(errno));
    snprintf(dir, dcap, "%s/gisa-shrink.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        cli_error(cmd, "cannot make a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp", strerror(errno));
        *dir = 0;
        return -1;
    }
    snprintf(path, cap, "%s/%s", dir, base);
    return 0;
}

static size_t count_lines(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n' || (i + 1 == n && s[i] != '\n');
    return k;
}

/* The state file parsed and applied to a simulator of its warp count. */
static int load_state(const cli_cmd *cmd, const cli_args *a, const char *text, size_t len, gisa_isa **isa, gisa_sim **sim)
{
    const char *source;
    int r = cli_load_isa(a, isa, &source, NULL);
    if (r != CLI_CONTINUE)
        return r;
    gisa_diags *d = cli_diags();
    gisa_state *state = NULL;
    gisa_status st = d ? gisa_state_parse(cli_input_name(a->val[O_STATE]), text, len, &state, d) : GISA_ERR_NOMEM;
    if (st == GISA_OK)
        st = gisa_sim_new(*isa, gisa_sim_max_regs(*isa), gisa_state_warps(state) ? gisa_state_warps(state) : 1, sim);
    if (st == GISA_OK)
        st = gisa_sim_state_apply(*sim, state, d);
    gisa_state_free(state);
    if (d)
        cli_print_diags(stderr, d, 0, NULL);
    gisa_diags_free(d);
    if (st != GISA_OK) {
        cli_error(cmd, st == GISA_ERR_NOMEM ? "out of memory reading the state file" : "bad state file %s; nothing was run",
                  cli_input_name(a->val[O_STATE]));
        return st == GISA_ERR_NOMEM ? EXIT_INPUT : EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

typedef struct work {
    char *text, *state_text;   /* the inputs */
    size_t len, state_len;
    gisa_isa *isa;
    gisa_sim *sim;
    char path[8500], dir[4096], spath[8500], sdir[4096];
    char *prog_out, *state_out; /* the results (gisa_free) */
    size_t prog_out_len, state_out_len;
    char *result;               /* header + program */
    size_t result_len;
} work;

static void work_free(work *w)
{
    free(w->text);
    free(w->state_text);
    gisa_free(w->prog_out);
    gisa_free(w->state_out);
    free(w->result);
    gisa_sim_free(w->sim);
    gisa_isa_free(w->isa);
}

/* The state phase, on the shrunk program (written once to its candidate);
 * GISA_ERR_INPUT: the command passes on the state as gisa writes it. */
static gisa_status shrink_state(tester *t, work *w, size_t *tests)
{
    if (write_candidate(w->path, "", 0, w->result, w->result_len)) {
        cli_error(t->cmd, "cannot write %s: %s", w->path, strerror(errno));
        return GISA_ERR_IO;
    }
    gisa_diags *d = cli_diags();
    gisa_status st = d ? gisa_shrink_state(w->sim, state_fails, t, &w->state_out, &w->state_out_len, tests, d)
                       : GISA_ERR_NOMEM;
    gisa_diags_free(d);
    return st;
}

/* A copy of text[0..len) that gisa_free releases (NULL: out of memory). */
static char *copy_text(const char *text, size_t len, size_t *out_len)
{
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, text, len);
        c[len] = 0;
        *out_len = len;
    }
    return c;
}

/* w->result: the header, then w->prog_out. 0, or -1 out of memory. */
static int set_result(work *w, size_t header_len)
{
    free(w->result);
    w->result_len = header_len + w->prog_out_len;
    if (!(w->result = malloc(w->result_len + 1)))
        return -1;
    memcpy(w->result, w->text, header_len);
    memcpy(w->result + header_len, w->prog_out, w->prog_out_len);
    return 0;
}

/* The program once more, on the smallest state: lines that only the
 * values dropped from the state needed go too. */
static gisa_status reshrink_program(tester *t, work *w, size_t *tests)
{
    if (write_candidate(w->spath, "", 0, w->state_out, w->state_out_len)) {
        cli_error(t->cmd, "cannot write %s: %s", w->spath, strerror(errno));
        return GISA_ERR_IO;
    }
    char *again = NULL;
    size_t again_len = 0, n = 0;
    gisa_diags *d = cli_diags();
    gisa_status st = d ? gisa_shrink(w->prog_out, w->prog_out_len, program_fails, t, &again, &again_len, &n, d)
                       : GISA_ERR_NOMEM;
    gisa_diags_free(d);
    *tests += n;
    if (st == GISA_OK && again_len < w->prog_out_len) {
        gisa_free(w->prog_out);
        w->prog_out = again;
        w->prog_out_len = again_len;
        again = NULL;
        if (set_result(w, t->header_len))
            st = GISA_ERR_NOMEM;
    }
    gisa_free(again);
    /* GISA_ERR_INPUT: the command passed where it had failed; the earlier
     * program stays, and the run once more tells */
    return st == GISA_ERR_INPUT ? GISA_OK : st;
}

static int shrink(const cli_cmd *cmd, const cli_args *a, tester *t, char **command, int ncommand)
{
    work *w = calloc(1, sizeof *w);
    if (!w) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    const char *prog = a->npos && strcmp(a->pos[0], "-") ? a->pos[0] : NULL;
    const char *state = a->val[O_STATE];
    const char *outputs[2] = {a->val[O_OUT], a->val[O_STATE_OUT]};
    int r = cli_read_input(cmd, a->npos ? a->pos[0] : NULL, &w->text, &w->len);
    if (r == CLI_CONTINUE && state)
        r = cli_read_input(cmd, state, &w->state_text, &w->state_len);
    if (r == CLI_CONTINUE)
        r = cli_check_outputs(cmd, a, outputs, 2, NULL);
    if (r == CLI_CONTINUE && a->val[O_BUNDLE])
        r = shrink_bundle_check(cmd, a->val[O_BUNDLE]);
    if (r == CLI_CONTINUE && state)
        r = load_state(cmd, a, w->state_text, w->state_len, &w->isa, &w->sim);
    if (r == CLI_CONTINUE && make_candidate(cmd, prog, "prog.s", w->path, sizeof w->path, w->dir, sizeof w->dir))
        r = EXIT_USAGE;
    if (r == CLI_CONTINUE && state &&
        make_candidate(cmd, state, "state.json", w->spath, sizeof w->spath, w->sdir, sizeof w->sdir)) {
        unlink(w->path);
        if (*w->dir)
            rmdir(w->dir);
        r = EXIT_USAGE;
    }
    if (r != CLI_CONTINUE) {
        work_free(w);
        free(w);
        return r;
    }
    candidate_path[0] = w->path;
    candidate_dir[0] = *w->dir ? w->dir : NULL;
    candidate_path[1] = state ? w->spath : NULL;
    candidate_dir[1] = *w->sdir ? w->sdir : NULL;
    catch_interrupts();

    t->path = w->path;
    t->header = w->text;
    t->header_len = shrink_header_len(w->text, w->len);
    /* {state} is the state's candidate from the start (the command never
     * gets the original's path), the original's text while the program
     * shrinks */
    int has;
    t->argv = command_line(command, ncommand, w->path, state ? w->spath : NULL, &has);
    size_t tests = 0, state_tests = 0;
    gisa_diags *d = cli_diags();
    gisa_status st = GISA_OK;
    if (state && write_candidate(w->spath, "", 0, w->state_text, w->state_len)) {
        cli_error(cmd, "cannot write %s: %s", w->spath, strerror(errno));
        st = GISA_ERR_IO;
    }
    if (st == GISA_OK)
        st = t->argv && d ? gisa_shrink(w->text + t->header_len, w->len - t->header_len, program_fails, t, &w->prog_out,
                                        &w->prog_out_len, &tests, d)
                          : GISA_ERR_NOMEM;
    gisa_diags_free(d);
    if (!w->prog_out && st == GISA_ERR_IO) /* stopped before the first run: the program as it was */
        w->prog_out = copy_text(w->text + t->header_len, w->len - t->header_len, &w->prog_out_len);
    if (w->prog_out && set_result(w, t->header_len))
        st = GISA_ERR_NOMEM;
    gisa_status sst = GISA_OK;
    int state_ran = st == GISA_OK && state;
    if (state_ran) {
        t->spath = w->spath;
        sst = shrink_state(t, w, &state_tests);
        if (sst == GISA_ERR_INPUT)
            fprintf(stderr, "gisa shrink: warning: the command does not fail on %s as gisa writes it (%s): the state is "
                            "kept as it is\n",
                    cli_input_name(state), "registers in hex, zeros left out");
        if (sst == GISA_OK)
            sst = reshrink_program(t, w, &tests);
    }
    /* once more on the result, for the status it fails with */
    int final_status = -1;
    gisa_status rst = GISA_OK;
    if (st == GISA_OK && (sst == GISA_OK || sst == GISA_ERR_INPUT)) {
        const char *s_text = sst == GISA_OK && state ? w->state_out : w->state_text;
        size_t s_len = sst == GISA_OK && state ? w->state_out_len : w->state_len;
        bool fails = false;
        if (write_candidate(w->path, "", 0, w->result, w->result_len) ||
            (state && write_candidate(w->spath, "", 0, s_text, s_len))) {
            cli_error(cmd, "cannot write a candidate: %s", strerror(errno));
            rst = GISA_ERR_IO;
        } else if ((rst = run_command(t, &fails)) == GISA_OK) {
            tests++;
            if (fails)
                final_status = t->last;
            else
                fprintf(stderr, "gisa shrink: warning: the command passed on the result when run once more: does it "
                                "always fail the same way?\n");
        }
    }
    release_interrupts();
    candidate_path[0] = candidate_path[1] = candidate_dir[0] = candidate_dir[1] = NULL;
    unlink(w->path);
    if (*w->dir)
        rmdir(w->dir);
    if (state) {
        unlink(w->spath);
        if (*w->sdir)
            rmdir(w->sdir);
    }
    if (st == GISA_ERR_INPUT) {
        cli_error(cmd, "the command does not fail on %s%s%s: nothing to shrink", cli_input_name(a->npos ? a->pos[0] : NULL),
                  state ? " with " : "", state ? cli_input_name(state) : "");
        r = EXIT_INPUT;
    } else if (st == GISA_ERR_NOMEM || sst == GISA_ERR_NOMEM) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    } else {
        int stopped = st != GISA_OK || (sst != GISA_OK && sst != GISA_ERR_INPUT) || rst != GISA_OK;
        fprintf(stderr, "gisa shrink: %zu -> %zu lines in %zu runs of the command%s\n", count_lines(w->text, w->len),
                count_lines(w->result, w->result_len), tests,
                st == GISA_OK                         ? ""
                : a->val[O_OUT] || !a->val[O_BUNDLE] ? " (stopped: the smallest so far follows)"
                                                      : " (stopped)");
        const char *s_out = w->state_text;
        size_t s_len = w->state_len;
        if (state_ran && sst != GISA_ERR_INPUT && w->state_out) {
            s_out = w->state_out;
            s_len = w->state_out_len;
            fprintf(stderr, "gisa shrink: state %zu -> %zu bytes in %zu runs of the command%s\n", w->state_len, s_len,
                    state_tests, sst != GISA_OK ? " (stopped: the smallest so far follows)" : "");
        }
        cli_outset set;
        cli_outset_init(&set, cmd);
        r = EXIT_OK;
        if (a->val[O_OUT] || !a->val[O_BUNDLE])
            r = cli_outset_put(&set, a->val[O_OUT] ? a->val[O_OUT] : "-", w->result, w->result_len);
        if (r == EXIT_OK && a->val[O_STATE_OUT])
            r = cli_outset_put(&set, a->val[O_STATE_OUT], s_out, s_len);
        r = r == EXIT_OK ? cli_outset_commit(&set) : (cli_outset_abort(&set), r);
        if (r == EXIT_OK && a->val[O_BUNDLE] && stopped)
            fprintf(stderr, "gisa shrink: no bundle written: the shrinking stopped\n");
        else if (r == EXIT_OK && a->val[O_BUNDLE]) {
            char **cmdline = calloc((size_t)ncommand + 2, sizeof *cmdline);
            if (!cmdline) {
                cli_error(cmd, "out of memory");
                r = EXIT_INPUT;
            } else {
                memcpy(cmdline, command, (size_t)ncommand * sizeof *cmdline);
                cmdline[ncommand] = SHRINK_PROG; /* where shrink appended the program's path */
                shrink_bundle b = {.prog = w->result,
                                   .prog_len = w->result_len,
                                   .state = state ? s_out : NULL,
                                   .state_len = s_len,
                                   .command = cmdline,
                                   .ncommand = ncommand + !(has & 1),
                                   .status = final_status,
                                   .status_required = t->status >= 0,
                                   .lines_before = count_lines(w->text, w->len),
                                   .lines_after = count_lines(w->result, w->result_len),
                                   .prog_bytes_before = w->len,
                                   .state_bytes_before = w->state_len,
                                   .runs = tests + state_tests};
                r = shrink_bundle_write(cmd, a->val[O_BUNDLE], &b);
                free(cmdline);
            }
        }
        if (stopped && r == EXIT_OK)
            r = EXIT_USAGE;
    }
    free_argv(t->argv);
    work_free(w);
    free(w);
    return r;
}

/* The command after "--": its placeholders agree with the options. */
static int check_command(const cli_cmd *cmd, const cli_args *a, char **command, int n)
{
    int has = 0;
    for (int i = 0; i < n; i++) {
        char *s = substitute(command[i], "", "", &has);
        free(s);
    }
    if ((has & 2) && !a->val[O_STATE])
        return cli_usage_error(cmd, "the command names '{state}', but no --state FILE was given");
    if (a->val[O_STATE] && !(has & 2))
        return cli_usage_error(cmd, "--state: the command must name the candidate state as '{state}' (the state "
                                    "shrunk is the one it reads)");
    if (a->val[O_STATE] && !strcmp(a->val[O_STATE], "-"))
        return cli_usage_error(cmd, "--state needs a file, not standard input: the command reads it as '{state}'");
    if (a->val[O_STATE_OUT] && !a->val[O_STATE])
        return cli_usage_error(cmd, "--state-out needs --state FILE");
    return CLI_CONTINUE;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    int dd = 1;
    while (dd < argc && strcmp(argv[dd], "--"))
        dd++;
    cli_args a;
    int r = cli_parse(cmd, dd, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    if (dd + 1 >= argc)
        return cli_usage_error(cmd, "expected '-- COMMAND [ARGS...]' after the program: the test that fails on it");
    tester t = {.cmd = cmd, .status = -1, .verbose = a.val[O_VERBOSE] != NULL};
    size_t v;
    if (a.val[O_STATUS]) {
        if (cli_parse_count(a.val[O_STATUS], &v) || v < 1 || v > 255)
            return cli_usage_error(cmd, "--status needs an exit status from 1 to 255, not '%s'", a.val[O_STATUS]);
        t.status = (int)v;
    }
    if (a.val[O_TIMEOUT]) {
        if (cli_parse_count(a.val[O_TIMEOUT], &v) || v < 1 || v > 86400)
            return cli_usage_error(cmd, "--timeout needs seconds from 1 to 86400, not '%s'", a.val[O_TIMEOUT]);
        t.timeout = (unsigned)v;
    }
    for (int i = O_OUT; i <= O_BUNDLE; i++)
        if (a.val[i] && !*a.val[i])
            return cli_usage_error(cmd, "--%s needs a file name", opts[i].name);
    if ((r = check_command(cmd, &a, argv + dd + 1, argc - dd - 1)) != CLI_CONTINUE)
        return r;
    return shrink(cmd, &a, &t, argv + dd + 1, argc - dd - 1);
}

const cli_cmd cmd_shrink = {
    "shrink",
    "[OPTIONS] [PROG|-] [--state STATE] -- COMMAND [ARGS...]",
    "shrink a program, and its state, while a test command still fails on them",
    "Runs COMMAND on candidate programs, with each '{}' (or '{prog}') in its\n"
    "arguments replaced by the candidate's path (the path is appended when no\n"
    "argument has one). A candidate is a hidden file next to PROG, so that its\n"
    ".include resolve; the program's leading '//' lines (the seed and options\n"
    "'gisa gen' wrote) are kept in each. The command fails when it exits\n"
    "non-zero (or with --status N), or is killed by a signal; the original\n"
    "program must make it fail. Lines are removed in chunks, then one at a time\n"
    "(delta debugging): no single line of the result can go.\n"
    "With --state FILE, '{state}' names a candidate state (a hidden file next\n"
    "to FILE); after the program, the state is shrunk: warps, then registers,\n"
    "predicates, uniforms, active masks and constants the failure does not need,\n"
    "then values toward 0, 1 and fewer set bits, per-lane values made uniform.\n"
    "--bundle DIR writes prog.s, state.json, repro.sh (the command on them) and\n"
    "bundle.json (version, seed, options, command, status, sizes), all or nothing.\n"
    "Exit status 1 when the command does not fail on PROG.\n",
    opts,
    sizeof opts / sizeof *opts,
    1,
    run,
};
