/* `gisa lint`: load the ISA and report every consistency problem. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_WERROR, O_FINGERPRINTS, O_CHECK_SEMANTICS, O_SEED };
static const cli_opt opts[] = {
    {"werror", 0, NULL, "exit 1 when there is any warning too"},
    {"fingerprints", 0, NULL, "print the C semantics' fingerprints instead of the report"},
    {"check-semantics", 0, NULL, "also compare the two engines on random words"},
    {"seed", 0, "N", "the random words of --check-semantics (default 1)"},
};

static const char *plural(size_t n, const char *one, const char *many) { return n == 1 ? one : many; }

#define MAX_OFF 64

/* Takes the -Wno-NAME (and -WNAME, which undoes it) arguments out of argv,
 * as GCC spells them, into off[]; -Wruling (*ruling = 1) and -Wno-ruling
 * (0, the default) say whether the errata that rulings acknowledge (notes
 * with a kind) are shown as warnings. Returns CLI_CONTINUE or a usage error. */
static int warning_options(const cli_cmd *cmd, int *argc, char **argv, const char **off, size_t *noff, int *ruling)
{
    int n = 1;
    *noff = 0;
    *ruling = 0;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) { /* the rest is not options */
            while (i < *argc)
                argv[n++] = argv[i++];
            break;
        }
        if (strncmp(a, "-W", 2)) {
            argv[n++] = argv[i];
            continue;
        }
        int no = !strncmp(a + 2, "no-", 3);
        const char *name = a + 2 + (no ? 3 : 0);
        const char *known = NULL, *near = NULL;
        size_t neard = 3;
        for (size_t k = 0; gisa_isa_lint_category(k); k++) {
            const char *c = gisa_isa_lint_category(k);
            size_t d = cli_edit_distance(name, c);
            if (!d)
                known = c;
            else if (d < neard) {
                neard = d;
                near = c;
            }
        }
        if (!known) {
            fprintf(stderr, "gisa lint: unknown warning '%s'%s%s%s; the warnings are:", name, near ? " (did you mean '" : "",
                    near ? near : "", near ? "'?)" : "");
            for (size_t k = 0; gisa_isa_lint_category(k); k++)
                fprintf(stderr, " %s", gisa_isa_lint_category(k));
            fputc('\n', stderr);
            return cli_usage_error(cmd, "write -Wno-NAME to silence warning NAME");
        }
        if (!strcmp(known, "ruling")) {
            *ruling = !no;
            continue;
        }
        size_t k = 0;
        while (k < *noff && strcmp(off[k], known))
            k++;
        if (no && k == *noff && *noff < MAX_OFF)
            off[(*noff)++] = known;
        else if (!no && k < *noff)
            off[k] = off[--*noff];
    }
    argv[n] = NULL;
    *argc = n;
    return CLI_CONTINUE;
}

static int silenced(const gisa_diag *g, const char *const *off, size_t noff)
{
    for (size_t k = 0; g->category && k < noff; k++)
        if (!strcmp(g->category, off[k]))
            return 1;
    return 0;
}

/* --fingerprints: the table, and an error per optype whose pseudo-code is
 * not what its C semantics declare (the build runs this on the shipped
 * targets: cmake/check_fingerprints.cmake). */
static int fingerprints(const cli_cmd *cmd, gisa_isa *isa)
{
    gisa_diags *d = cli_diags();
    char *table = NULL;
    gisa_status st = d ? gisa_isa_fingerprints(isa, &table, d) : GISA_ERR_NOMEM;
    if (table)
        fputs(table, stdout);
    if (d)
        cli_print_diags(stderr, d, 0, NULL);
    gisa_free(table);
    gisa_diags_free(d);
    gisa_isa_free(isa);
    if (st == GISA_ERR_NOMEM)
        cli_error(cmd, "out of memory");
    return st == GISA_OK ? EXIT_OK : EXIT_INPUT;
}

/* --check-semantics: the engines against each other; 1 when they disagree */
static int check_semantics(const cli_cmd *cmd, const gisa_isa *isa, size_t seed)
{
    char *report = NULL;
    gisa_status st = gisa_isa_check_semantics(isa, seed, &report);
    if (report)
        fputs(report, stdout);
    gisa_free(report);
    if (st != GISA_OK && st != GISA_ERR_INPUT)
        cli_error(cmd, "check-semantics stopped: %s", gisa_status_str(st));
    return st != GISA_OK;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    gisa_isa *isa;
    const char *source, *off[MAX_OFF];
    size_t load_warnings = 0, noff;
    int ruling;
    int r = warning_options(cmd, &argc, argv, off, &noff, &ruling);
    if (r != CLI_CONTINUE)
        return r;
    r = cli_parse_and_load(cmd, argc, argv, &a, &isa, &source, &load_warnings);
    if (r != CLI_CONTINUE)
        return r;
    if (a.val[O_FINGERPRINTS])
        return fingerprints(cmd, isa);
    size_t seed = 1;
    if (a.val[O_SEED] && cli_parse_count(a.val[O_SEED], &seed)) {
        gisa_isa_free(isa);
        return cli_usage_error(cmd, "--seed needs a number, not '%s'", a.val[O_SEED]);
    }
    printf("loaded %zu opcodes (%zu optypes) from %s\n", gisa_isa_opcode_count(isa), gisa_isa_optype_count(isa),
           source);
    gisa_diags *d = cli_diags();
    if (!d) {
        gisa_isa_free(isa);
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    gisa_diags_set_limit(d, (size_t)-1); /* a lint report is never cut short */
    gisa_status st = gisa_isa_lint(isa, d);
    size_t errors = gisa_diags_errors(d), warnings = load_warnings, quiet = 0, acknowledged = 0;
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        const gisa_diag *g = gisa_diags_get(d, i);
        gisa_diag shown;
        if (g->severity == GISA_NOTE && g->category) { /* an erratum a ruling acknowledges */
            if (ruling) {
                shown = *g;
                shown.severity = GISA_WARNING;
                g = &shown;
            } else
                acknowledged++;
        }
        if (g->severity != GISA_WARNING)
            ;
        else if (silenced(g, off, noff)) {
            quiet++;
            continue;
        } else
            warnings++;
        char *s = NULL;
        gisa_diag_format(g, false, &s);
        printf("%s%s\n", g->file && g->file[0] ? "" : "gisa: ", s ? s : g->message);
        free(s);
    }
    /* warnings of the load itself (printed to stderr above) count too */
    printf("lint: %zu %s, %zu %s", errors, plural(errors, "error", "errors"), warnings,
           plural(warnings, "warning", "warnings"));
    if (quiet)
        printf(" (%zu silenced)", quiet);
    if (acknowledged)
        printf(", %zu acknowledged %s", acknowledged, plural(acknowledged, "erratum", "errata"));
    putchar('\n');
    if (st != GISA_OK && st != GISA_ERR_INPUT)
        cli_error(cmd, "lint stopped: %s", gisa_status_str(st));
    int differ = a.val[O_CHECK_SEMANTICS] && check_semantics(cmd, isa, seed);
    gisa_diags_free(d);
    gisa_isa_free(isa);
    if (errors || differ || st != GISA_OK || (a.val[O_WERROR] && warnings))
        return EXIT_INPUT;
    return EXIT_OK;
}

const cli_cmd cmd_lint = {
    "lint",
    "[OPTIONS]",
    "check the ISA description for consistency problems",
    "Prints 'loaded N opcodes (M optypes) from SOURCE', one line per problem\n"
    "(file:line:col: error|warning: message) and a 'lint: N errors, M warnings'\n"
    "summary. Exits 1 when there are errors (or warnings, with --werror).\n"
    "Each warning ends with its kind, [-Wkind]; -Wno-kind silences that kind\n"
    "(repeatable; -Wkind undoes it). Kinds: asm-format, decoration,\n"
    "default-mismatch, example, narrow-field, operand-order, optype-name,\n"
    "pseudo-code, ruling, shared-value, spelling, stale-erratum,\n"
    "unencodable-modifier, unused-field.\n"
    "An erratum of the documents that a ruling corrects (its own change, or a\n"
    "finding its __Errata section acknowledges) is a note, 'erratum corrected\n"
    "by ruling (FILE:LINE...)', that keeps its kind and is counted as an\n"
    "acknowledged erratum; -Wruling shows them as warnings again (--werror\n"
    "then fails on them), -Wno-ruling (the default) keeps them notes.\n"
    "A note names each optype whose pseudo-code differs from what its C\n"
    "semantics implement (their declared fingerprint): --engine auto runs\n"
    "its pseudo-code and --engine native refuses it. --fingerprints prints\n"
    "the fingerprints as the lines of src/sim/fingerprints.c instead, and\n"
    "exits 1 when one differs from the declared one. --check-semantics runs\n"
    "random valid words of every optype that has both under both engines\n"
    "(hard values, partial warps, guards; the same words for a --seed) and\n"
    "exits 1 when they disagree, printing the instruction, lane, inputs and\n"
    "both results.\n",
    opts,
    sizeof opts / sizeof *opts,
    0,
    run,
};
