/* gisa: the command-line front end. Finds the subcommand (global options
 * may come before it) and hands it the rest of the command line. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const cli_cmd *const commands[] = {&cmd_lint, &cmd_doc,    &cmd_as,         &cmd_dis, &cmd_run,
                                          &cmd_gen,  &cmd_shrink, &cmd_trace_diff, &cmd_cov, &cmd_regress, &cmd_prove,
                                          &cmd_lsp};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static void print_main_help(FILE *f)
{
    fputs("usage: gisa [COMMON OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
          "Assembler, disassembler and simulator for the gisa GPU ISA, driven by ISA\ndescription files.\n\n"
          "Commands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-6s %s\n", commands[i]->name, commands[i]->summary);
    fputs("  help   show the help of a command ('gisa help as')\n\n"
          "Common options (accepted by every command, before or after it):\n",
          f);
    cli_print_global_options(f);
    fputs("\nTargets (--target NAME):\n", f);
    for (size_t i = 0; i < gisa_target_count(); i++)
        fprintf(f, "  %s%s\n", gisa_target_name(i), strcmp(gisa_target_name(i), "gisa128") ? "" : " (default)");
    fputs("\nOptions and arguments may be mixed; '--opt=value' and '--opt value' both work,\n"
          "'--' ends the options and '-' names standard input or output.\n\n"
          "Exit status:\n"
          "  0  success\n"
          "  1  input errors: bad assembly source, ISA description errors, lint errors,\n"
          "     malformed word files, invalid words with 'dis --strict', 'doc' of an\n"
          "     unknown name, an input over a limit or too large for memory, a\n"
          "     program that the 'shrink' test command does not fail on; 'prove':\n"
          "     the programs differ\n"
          "  2  usage errors: unknown command or option, missing or bad argument,\n"
          "     unknown target, a file or directory that cannot be read or written,\n"
          "     a bad 'run --state' file\n"
          "  3  simulation fault ('run': an invalid instruction or register index reached);\n"
          "     'prove': unknown (a timeout, an instruction it does not support)\n",
          f);
}

static const cli_cmd *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i]->name, name))
            return commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    const char *best = NULL;
    size_t bestd = 3;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        size_t d = cli_edit_distance(name, commands[i]->name);
        if (d < bestd && d < strlen(name)) {
            bestd = d;
            best = commands[i]->name;
        }
    }
    if (best)
        return cli_usage_error(NULL, "unknown command '%s' (did you mean '%s'?)", name, best);
    return cli_usage_error(NULL, "unknown command '%s'", name);
}

/* `gisa help [COMMAND]` */
static int run_help(int argc, char **argv, int first)
{
    if (first + 1 >= argc) {
        print_main_help(stdout);
        return EXIT_OK;
    }
    const cli_cmd *c = find_command(argv[first + 1]);
    if (!c)
        return unknown_command(argv[first + 1]);
    cli_print_help(c, stdout);
    return EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
    /* Options before the command must be common ones; remember where the
     * command is and skip the values of options that take one. */
    int cmd_at = -1;
    for (int i = 1; i < argc && cmd_at < 0; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--") || a[0] != '-' || !a[1]) {
            cmd_at = !strcmp(a, "--") ? i + 1 : i;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_main_help(stdout);
            return EXIT_OK;
        }
        if (!strcmp(a, "--version")) {
            printf("gisa %s\n", gisa_version());
            return EXIT_OK;
        }
        int kind = cli_global_option_kind(a);
        if (kind < 0)
            return cli_usage_error(NULL, "unknown option '%s' before the command", a);
        if (kind == 1 && !strchr(a, '=') && ++i >= argc)
            return cli_usage_error(NULL, "option '%s' needs an argument", a);
    }
    if (cmd_at < 0 || cmd_at >= argc) {
        print_main_help(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[cmd_at], "help"))
        return run_help(argc, argv, cmd_at);
    const cli_cmd *c = find_command(argv[cmd_at]);
    if (!c)
        return unknown_command(argv[cmd_at]);
    /* The command sees: its name, the common options given before it, the rest. */
    char **args = malloc(((size_t)argc + 1) * sizeof *args);
    if (!args) {
        cli_error(NULL, "out of memory");
        return EXIT_INPUT;
    }
    int n = 0;
    args[n++] = argv[cmd_at];
    for (int i = 1; i < cmd_at; i++)
        if (strcmp(argv[i], "--"))
            args[n++] = argv[i];
    for (int i = cmd_at + 1; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    int r = c->run(c, n, args);
    free(args);
    cli_inputs_free();
    return r;
}

int main(int argc, char **argv)
{
    int r = dispatch(argc, argv);
    /* a full disk or closed pipe on stdout must not pass for success */
    if (fflush(stdout) || ferror(stdout)) {
        cli_error(NULL, "error writing to standard output");
        if (r == EXIT_OK)
            r = EXIT_USAGE;
    }
    return r;
}
