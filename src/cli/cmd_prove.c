/* `gisa prove A.s B.s`: whether two straight-line programs give the same
 * results for every input (gisa_prove; docs/prove.md). `--check PROGRAM
 * --assume STATE` instead compares the symbolic model with the doc engine
 * on the state (gisa_prove_check), the differential test's check. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_OUTPUTS, O_SCRATCH, O_ASSUME, O_TIMEOUT, O_CEX, O_CHECK, O_QUIET };
static const cli_opt opts[] = {
    {"outputs", 0, "LIST", "compare these: R0,R1,P0,UR2,R4-R7 (default: every register, predicate and uniform "
                           "register either program writes)"},
    {"scratch", 0, "LIST", "never compare these (temporaries): the same syntax"},
    {"assume", 0, "FILE", "pin the values this state file gives (JSON, the format of gisa run --state; a value per "
                          "lane pins that lane); constants the programs read must be pinned"},
    {"timeout", 0, "S", "give up (unknown) after S seconds per solver call (default 60)"},
    {"cex", 0, "FILE", "on differ, write the counterexample state to FILE (for gisa run --state)"},
    {"check", 0, NULL, "one PROGRAM: evaluate the symbolic model of each instruction on every lane of the --assume "
                       "state and compare it with the doc engine (exit 1 on a difference)"},
    {"quiet", 'q', NULL, "print only the verdict line"},
};

static int read_program(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, size_t k, gisa_word **w, size_t *n)
{
    cli_args one = *a;
    one.pos[0] = a->pos[k];
    one.npos = 1;
    return cli_read_words(cmd, isa, &one, CLI_WORDS_ASM, 100, w, n);
}

static int check(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, const gisa_state *st)
{
    gisa_word *w = NULL;
    size_t n = 0;
    int r = read_program(cmd, isa, a, 0, &w, &n);
    if (r != CLI_CONTINUE)
        return r;
    char *report = NULL;
    unsigned bad = 0;
    gisa_status s = gisa_prove_check(isa, w, n, st, &report, &bad);
    free(w);
    if (s != GISA_OK) {
        cli_error(cmd, "%s", report ? report : "out of memory");
        gisa_free(report);
        return gisa_prove_available() ? EXIT_USAGE : EXIT_FAULT;
    }
    fputs(report, stdout);
    gisa_free(report);
    return bad ? EXIT_INPUT : EXIT_OK;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int r = cli_parse(cmd, argc, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    const int is_check = a.val[O_CHECK] != NULL;
    if (a.npos != (is_check ? 1u : 2u))
        return cli_usage_error(cmd, is_check ? "--check takes one program" : "two programs are needed: A.s B.s");
    if (is_check && !a.val[O_ASSUME])
        return cli_usage_error(cmd, "--check needs the state to run on (--assume FILE)");
    double timeout = 60;
    if (a.val[O_TIMEOUT]) {
        char *end;
        timeout = strtod(a.val[O_TIMEOUT], &end);
        if (end == a.val[O_TIMEOUT] || *end || !(timeout > 0) || timeout > 86400)
            return cli_usage_error(cmd, "--timeout takes seconds (0 < S <= 86400), not '%s'", a.val[O_TIMEOUT]);
    }
    if (a.val[O_CEX] && !*a.val[O_CEX])
        return cli_usage_error(cmd, "--cex needs a file name");
    const char *outputs[] = {a.val[O_CEX]};
    if ((r = cli_check_outputs(cmd, &a, outputs, 1, NULL)) != CLI_CONTINUE)
        return r;
    gisa_isa *isa;
    const char *source;
    if ((r = cli_load_isa(&a, &isa, &source, NULL)) != CLI_CONTINUE)
        return r;
    gisa_state *st = NULL;
    gisa_word *wa = NULL, *wb = NULL;
    size_t na = 0, nb = 0;
    if (a.val[O_ASSUME] && (r = cli_read_state(cmd, a.val[O_ASSUME], &st, "proved")) != CLI_CONTINUE)
        goto done;
    if (is_check) {
        r = check(cmd, isa, &a, st);
        goto done;
    }
    if ((r = read_program(cmd, isa, &a, 0, &wa, &na)) != CLI_CONTINUE ||
        (r = read_program(cmd, isa, &a, 1, &wb, &nb)) != CLI_CONTINUE)
        goto done;
    gisa_prove_options opt = {a.val[O_OUTPUTS], a.val[O_SCRATCH], st, (unsigned)(timeout * 1000)};
    gisa_prove_result res;
    gisa_status s = gisa_prove(isa, wa, na, wb, nb, &opt, &res);
    if (s != GISA_OK) {
        r = s == GISA_ERR_USAGE ? cli_usage_error(cmd, "%s", res.message) : EXIT_INPUT;
        if (s != GISA_ERR_USAGE)
            cli_error(cmd, "%s", res.message[0] ? res.message : "out of memory");
        goto done;
    }
    switch (res.verdict) {
    case GISA_PROVE_EQUIVALENT:
        printf("equivalent\n");
        r = EXIT_OK;
        break;
    case GISA_PROVE_DIFFER:
        printf("differ: %s\n", res.message);
        r = 1;
        if (a.val[O_CEX]) {
            int w = cli_write_output(cmd, a.val[O_CEX], res.cex, strlen(res.cex));
            if (w != EXIT_OK)
                r = w;
        } else if (!a.val[O_QUIET]) {
            fputs(res.cex, stdout);
        }
        break;
    default:
        printf("unknown: %s\n", res.message);
        r = EXIT_FAULT;
        break;
    }
    if (!a.val[O_QUIET] && res.queries)
        fprintf(stderr, "gisa prove: %u solver call%s, %.3f s\n", res.queries, res.queries == 1 ? "" : "s",
                res.solve_seconds);
    gisa_free(res.cex);
done:
    free(wa);
    free(wb);
    gisa_state_free(st);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_prove = {
    "prove",
    "[OPTIONS] A.s B.s",
    "prove two straight-line programs equivalent for every input (SMT), or show a counterexample",
    "Each instruction's pseudo-code, compiled as the doc engine runs it (gisa run\n"
    "--engine doc), becomes SMT terms (Z3) for one lane; the inputs are free but\n"
    "where --assume pins them. The results compared are every register, predicate\n"
    "and uniform register either program writes (--outputs, --scratch). Prints\n"
    "'equivalent' (exit 0); 'differ' and the first differing output (exit 1), once\n"
    "both programs simulated on the counterexample state (--cex FILE, else printed)\n"
    "differ; or 'unknown' and why: a timeout, an instruction prove does not support\n"
    "(exit 3). See docs/prove.md.\n",
    opts,
    sizeof opts / sizeof *opts,
    2,
    run,
};
