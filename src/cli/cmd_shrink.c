/* `gisa shrink PROG -- CMD ARGS...`: the smallest program on which a test
 * command still fails (gisa_shrink's delta debugging). Each candidate is
 * written next to PROG (standard input: in the current directory), to a
 * hidden file of a unique name that ends like PROG's, so that its relative
 * `.include`s resolve as they do for PROG itself; the command runs with
 * every `{}` in its arguments replaced by that path (or the path appended
 * when no argument has `{}`). Only where PROG's directory cannot be written
 * do the candidates go to a fresh temporary directory, with a warning.
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

#include "common.h"

enum { O_OUT, O_STATUS, O_TIMEOUT, O_VERBOSE };
static const cli_opt opts[] = {
    {"output", 'o', "FILE", "write the smallest program to FILE (default: standard output)"},
    {"status", 0, "N", "the command fails when it exits with status N (default: any non-zero status)"},
    {"timeout", 0, "S", "a run longer than S seconds does not count as failing (default: no limit)"},
    {"verbose", 'v', NULL, "show the command's output and each step"},
};

#define EXEC_FAILED 127 /* the child could not run the command */

typedef struct tester {
    const cli_cmd *cmd;
    char **argv;       /* the command, with the candidate's path in place */
    const char *path;
    int status;        /* -1: any non-zero */
    unsigned timeout;
    int verbose;
    size_t lines, best;
} tester;

static int write_candidate(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fwrite(text, 1, len, f) != len;
    return fclose(f) || bad ? -1 : 0;
}

/* The process group of the command running now (0: none), for the
 * signal handler; the candidate's file and directory, which it removes. */
static volatile sig_atomic_t running_group;
static const char *volatile candidate_path, *volatile candidate_dir;

static void on_interrupt(int sig)
{
    pid_t g = (pid_t)running_group;
    if (g > 0)
        kill(-g, SIGKILL);
    if (candidate_path)
        unlink(candidate_path);
    if (candidate_dir)
        rmdir(candidate_dir);
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

/* *fails: the command still fails on the candidate; GISA_ERR_IO: stop. */
static gisa_status still_fails(void *user, const char *text, size_t len, bool *fails)
{
    tester *t = user;
    if (write_candidate(t->path, text, len)) {
        cli_error(t->cmd, "cannot write %s: %s", t->path, strerror(errno));
        return GISA_ERR_IO;
    }
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
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXEC_FAILED && t->status != EXEC_FAILED) {
        cli_error(t->cmd, "cannot run '%s' (exit status %d)", t->argv[0], EXEC_FAILED);
        return GISA_ERR_IO;
    }
    *fails = timed_out      ? false
             : WIFEXITED(ws) ? (t->status < 0 ? WEXITSTATUS(ws) != 0 : WEXITSTATUS(ws) == t->status)
                             : WIFSIGNALED(ws) && t->status < 0;
    if (t->verbose)
        fprintf(stderr, "gisa shrink: %zu lines: %s\n", n,
                timed_out ? "timed out (passes)" : *fails ? "fails (kept)" : "passes");
    return GISA_OK;
}

/* arg with every "{}" replaced by path (a malloc'ed string, or NULL) */
static char *substitute(const char *arg, const char *path)
{
    size_t count = 0, pl = strlen(path);
    for (const char *at = strstr(arg, "{}"); at; at = strstr(at + 2, "{}"))
        count++;
    char *out = malloc(strlen(arg) + count * pl + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = arg, *at; *p; p = at + 2) {
        at = strstr(p, "{}");
        if (!at) {
            strcpy(o, p);
            return out;
        }
        memcpy(o, p, (size_t)(at - p));
        o += at - p;
        memcpy(o, path, pl);
        o += pl;
    }
    *o = 0;
    return out;
}

/* argv with every "{}" of the command replaced by path, or path appended */
static char **command_line(char **cmd, int n, const char *path)
{
    char **out = calloc((size_t)n + 2, sizeof *out);
    if (!out)
        return NULL;
    int placed = 0;
    for (int i = 0; i < n; i++) {
        placed |= strstr(cmd[i], "{}") != NULL;
        out[i] = substitute(cmd[i], path);
        if (!out[i])
            return out; /* freed by the caller; NULL-terminated so far */
    }
    if (!placed)
        out[n] = strdup(path);
    return out;
}

static int shrink(const cli_cmd *cmd, const cli_args *a, tester *t, char **command, int ncommand)
{
    char *text;
    size_t len;
    int r = cli_read_input(cmd, a->npos ? a->pos[0] : NULL, &text, &len);
    if (r != CLI_CONTINUE)
        return r;
    if ((r = cli_check_outputs(cmd, a, &a->val[O_OUT], 1, NULL)) != CLI_CONTINUE) {
        free(text);
        return r;
    }
    /* the candidate: `.gisa-shrink-XXXXXX.NAME` in PROG's directory */
    const char *prog = a->npos && strcmp(a->pos[0], "-") ? a->pos[0] : NULL;
    const char *slash = prog ? strrchr(prog, '/') : NULL;
    const char *base = slash ? slash + 1 : prog ? prog : "prog.s";
    char dir[4096] = "", path[8500];
    if (strlen(base) >= 4096 || (slash && slash - prog >= 4096)) {
        cli_error(cmd, "the program's path is too long");
        free(text);
        return EXIT_USAGE;
    }
    snprintf(path, sizeof path, "%.*s%s.gisa-shrink-XXXXXX.%s", slash ? (int)(slash - prog) : 0, slash ? prog : "",
             slash ? "/" : "", base);
    int fd = mkstemps(path, (int)strlen(base) + 1);
    if (fd >= 0) {
        close(fd);
    } else {
        const char *tmp = getenv("TMPDIR");
        fprintf(stderr, "gisa shrink: warning: cannot write a candidate next to %s (%s): they go to a temporary directory, where its relative .include do not resolve\n",
                cli_input_name(prog), strerror(errno));
        snprintf(dir, sizeof dir, "%s/gisa-shrink.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            cli_error(cmd, "cannot make a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp", strerror(errno));
            free(text);
            return EXIT_USAGE;
        }
        snprintf(path, sizeof path, "%s/%s", dir, base);
        candidate_dir = dir;
    }
    t->path = path;
    candidate_path = path;
    catch_interrupts();
    t->argv = command_line(command, ncommand, path);
    char *out = NULL;
    size_t out_len = 0, tests = 0;
    gisa_diags *d = cli_diags();
    gisa_status st = t->argv && d ? gisa_shrink(text, len, still_fails, t, &out, &out_len, &tests, d) : GISA_ERR_NOMEM;
    release_interrupts();
    candidate_path = candidate_dir = NULL;
    unlink(path);
    if (*dir)
        rmdir(dir);
    size_t before = 0, after = 0;
    for (size_t i = 0; i < len; i++)
        before += text[i] == '\n' || (i + 1 == len && text[i] != '\n');
    for (size_t i = 0; i < out_len; i++)
        after += out[i] == '\n';
    if (st == GISA_ERR_INPUT) {
        cli_error(cmd, "the command does not fail on %s: nothing to shrink", cli_input_name(a->npos ? a->pos[0] : NULL));
        r = EXIT_INPUT;
    } else if (st == GISA_ERR_NOMEM) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    } else {
        fprintf(stderr, "gisa shrink: %zu -> %zu lines in %zu runs of the command%s\n", before, after, tests,
                st == GISA_ERR_IO ? " (stopped: the smallest so far follows)" : "");
        r = cli_write_output(cmd, a->val[O_OUT] ? a->val[O_OUT] : "-", out, out_len);
        if (st == GISA_ERR_IO && r == EXIT_OK)
            r = EXIT_USAGE;
    }
    for (int i = 0; t->argv && t->argv[i]; i++)
        free(t->argv[i]);
    free(t->argv);
    gisa_free(out);
    gisa_diags_free(d);
    free(text);
    return r;
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
    if (a.val[O_OUT] && !*a.val[O_OUT])
        return cli_usage_error(cmd, "--output needs a file name");
    return shrink(cmd, &a, &t, argv + dd + 1, argc - dd - 1);
}

const cli_cmd cmd_shrink = {
    "shrink",
    "[OPTIONS] [PROG|-] -- COMMAND [ARGS...]",
    "remove instructions from a program while a test command still fails on it",
    "Runs COMMAND on candidate programs, with each '{}' in its arguments replaced\n"
    "by the candidate's path (the path is appended when no argument has '{}').\n"
    "A candidate is a hidden file next to PROG, so that its .include resolve.\n"
    "The command fails when it exits non-zero (or with --status N), or is killed\n"
    "by a signal; the original program must make it fail. Lines are removed in\n"
    "chunks, then one at a time (delta debugging), and the smallest program on\n"
    "which the command still fails is printed: no single line of it can go.\n"
    "Exit status 1 when the command does not fail on PROG.\n",
    opts,
    sizeof opts / sizeof *opts,
    1,
    run,
};
