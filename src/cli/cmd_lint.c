/* `gisa lint`: load the ISA and report every consistency problem. */
#include <stdlib.h>

#include "common.h"

enum { O_WERROR };
static const cli_opt opts[] = {
    {"werror", 0, NULL, "exit 1 when there is any warning too"},
};

static const char *plural(size_t n, const char *one, const char *many) { return n == 1 ? one : many; }

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    gisa_isa *isa;
    const char *source;
    size_t load_warnings = 0;
    int r = cli_parse_and_load(cmd, argc, argv, &a, &isa, &source, &load_warnings);
    if (r != CLI_CONTINUE)
        return r;
    printf("loaded %zu opcodes (%zu optypes) from %s\n", gisa_isa_opcode_count(isa), gisa_isa_optype_count(isa),
           source);
    gisa_diags *d = gisa_diags_new();
    if (!d) {
        gisa_isa_free(isa);
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    gisa_diags_set_limit(d, (size_t)-1); /* a lint report is never cut short */
    gisa_status st = gisa_isa_lint(isa, d);
    cli_print_diags(stdout, d, 0, NULL);
    /* warnings of the load itself (printed to stderr above) count too */
    size_t errors = gisa_diags_errors(d), warnings = gisa_diags_warnings(d) + load_warnings;
    printf("lint: %zu %s, %zu %s\n", errors, plural(errors, "error", "errors"), warnings,
           plural(warnings, "warning", "warnings"));
    if (st != GISA_OK && st != GISA_ERR_INPUT)
        cli_error(cmd, "lint stopped: %s", gisa_status_str(st));
    gisa_diags_free(d);
    gisa_isa_free(isa);
    if (errors || st != GISA_OK || (a.val[O_WERROR] && warnings))
        return EXIT_INPUT;
    return EXIT_OK;
}

const cli_cmd cmd_lint = {
    "lint",
    "[OPTIONS]",
    "check the ISA description for consistency problems",
    "Prints 'loaded N opcodes (M optypes) from SOURCE', one line per problem\n"
    "(file:line:col: error|warning: message) and a 'lint: N errors, M warnings'\n"
    "summary. Exits 1 when there are errors (or warnings, with --werror).\n",
    opts,
    sizeof opts / sizeof *opts,
    0,
    run,
};
