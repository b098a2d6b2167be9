/* `gisa regress`: regression campaigns. The campaign runner is a Python
 * script (src/cli/regress.py, standard library only): it runs processes,
 * waits on a batch scheduler and writes reports, none of which the library
 * is for. This command finds the script beside the gisa program (build tree
 * or install tree), names the program to it in $GISA_PROGRAM and execs
 * /usr/bin/python3 on it with the command line. Only --help (and
 * --version) are answered here, so that `gisa regress --help` reads like
 * every other command's; the options are the script's. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#ifndef GISA_REGRESS_INSTALLED
#define GISA_REGRESS_INSTALLED "../libexec/gisa/regress.py"
#endif
#define PYTHON "/usr/bin/python3"

/* dir/rel (rel absolute: itself) when it is a file, into buf. */
static int try_script(char *buf, size_t cap, const char *dir, const char *rel)
{
    int n = rel[0] == '/' ? snprintf(buf, cap, "%s", rel) : snprintf(buf, cap, "%s/%s", dir, rel);
    return n > 0 && (size_t)n < cap && access(buf, R_OK) == 0;
}

static int run_regress(const cli_cmd *cmd, int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            cli_print_help(cmd, stdout);
            return EXIT_OK;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("gisa %s\n", gisa_version());
            return EXIT_OK;
        }
    }
    /* the program's own path, not argv[0]: it may have come from $PATH */
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        cli_error(cmd, "cannot find the gisa program's own path (/proc/self/exe): %s", strerror(errno));
        return EXIT_USAGE;
    }
    exe[n] = '\0';
    char dir[PATH_MAX];
    memcpy(dir, exe, (size_t)n + 1);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char script[PATH_MAX + 64];
    if (!try_script(script, sizeof script, dir, GISA_REGRESS_INSTALLED) &&
        !try_script(script, sizeof script, dir, "regress/regress.py")) {
        cli_error(cmd, "the campaign runner is missing: looked for %s%s%s and %s/regress/regress.py",
                  GISA_REGRESS_INSTALLED[0] == '/' ? "" : dir, GISA_REGRESS_INSTALLED[0] == '/' ? "" : "/",
                  GISA_REGRESS_INSTALLED, dir);
        return EXIT_USAGE;
    }
    /* $GISA_REGRESS_PYTHON: another interpreter (tests name a missing one) */
    const char *python = getenv("GISA_REGRESS_PYTHON");
    if (!python || !*python)
        python = PYTHON;
    if (access(python, X_OK) != 0) {
        cli_error(cmd, "needs %s (Python 3.11 or later; Debian: apt-get install python3): %s", python,
                  strerror(errno));
        return EXIT_USAGE;
    }
    if (setenv("GISA_PROGRAM", exe, 1)) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    if (!args) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    args[0] = (char *)python;
    args[1] = script;
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    args[argc + 1] = NULL;
    fflush(stdout);
    execv(python, args);
    cli_error(cmd, "cannot run %s: %s", python, strerror(errno));
    free(args);
    return EXIT_USAGE;
}

/* The script's options, for --help and the manual page (it parses them). */
static const cli_opt opts[] = {
    {"dir", 'd', "DIR", "campaign directory (default: [campaign] dir, else NAME.campaign)"},
    {"jobs", 'j', "N", "local backend: jobs at a time (default 1)"},
    {"backend", 0, "NAME", "where jobs run: local or slurm (default local)"},
    {"chunk", 0, "N", "slurm: jobs per array task (default 50)"},
    {"slurm-args", 0, "ARGS", "slurm: more sbatch options, one string ('-p short -t 10')"},
    {"no-wait", 0, NULL, "slurm: submit and return; --report merges later"},
    {"report", 0, NULL, "merge and report what the campaign directory holds; run nothing"},
    {"rerun", 0, "SEED", "re-run one job alone, keep its files and show its commands"},
    {"group", 0, "NAME", "the group of --rerun (default: the first)"},
    {"quiet", 'q', NULL, "no progress line and no summary on standard output"},
};

const cli_cmd cmd_regress = {
    "regress",
    "[OPTIONS] CONFIG",
    "run a regression campaign: generated programs, golden model, DUT, compared",
    "Runs the jobs of a campaign (a TOML file: seeds, 'gisa gen' options per\n"
    "group, the DUT command with {prog} {state} {trace} {out} {seed}, the\n"
    "comparison: exit, trace or state, a time limit and retries). Each job\n"
    "generates a program from its seed, runs the golden model and the DUT and\n"
    "compares; its result is a file in the campaign directory, so a re-run\n"
    "runs only the jobs without one. Failures are grouped by signature (first\n"
    "mismatching optype, register kind, message), and the shortest failing\n"
    "program of each is shrunk into repro/SIGNATURE/. Writes summary.txt,\n"
    "results.json, junit.xml and the merged coverage.json/coverage.txt.\n"
    "Backends: this machine (-j N) or Slurm array jobs (--backend slurm).\n"
    "Needs /usr/bin/python3 (3.11 or later). See docs/verification.md,\n"
    "'Campaigns'. Exit status: 0 all passed, 1 failures, 2 usage or config\n"
    "errors, 3 jobs not run, 130 interrupted.\n",
    opts,
    sizeof opts / sizeof *opts,
    1,
    run_regress,
};
