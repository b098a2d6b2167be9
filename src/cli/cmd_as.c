/* `gisa as`: assemble source text into an instruction image. Nothing is
 * written unless the whole file assembles. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_OUTPUT, O_FORMAT, O_MAX_ERRORS, O_MAXMEM };
static const cli_opt opts[] = {
    {"output", 'o', "FILE", "write to FILE ('-': standard output; default a.bin, a.hex or a.c)"},
    {"format", 0, "FMT", "bin (16 bytes per word, little-endian), hex (one word per line) or c"},
    {"max-errors", 0, "N", "show at most N errors, count the rest (default 100; 0: no limit)"},
    {"max-memory", 0, "SIZE", "refuse an input estimated to need more memory (default 4G; K, M, G, T suffixes)"},
};

/* Maps --format text to a format (gisa_out_format order). */
static int parse_format(const char *s, gisa_out_format *fmt)
{
    static const char *const names[] = {"bin", "hex", "c"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *fmt = (gisa_out_format)i;
            return 0;
        }
    return -1;
}

static int assemble(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, gisa_out_format fmt,
                    size_t max_errors)
{
    static const char *const default_out[] = {"a.bin", "a.hex", "a.c"};
    gisa_word *words;
    size_t n;
    /* the image: 16 bytes a word, or text (hex 33, C about 100) in a buffer that doubles */
    static const size_t out_bytes[] = {16, 66, 200};
    const cli_budget budget = {a->val[O_MAXMEM], out_bytes[fmt]};
    int r = cli_read_words_within(cmd, isa, a, CLI_WORDS_ASM, max_errors, &budget, &words, &n);
    if (r != CLI_CONTINUE)
        return r;
    char *out;
    size_t out_len;
    gisa_status st = gisa_words_serialize(isa, words, n, fmt, &out, &out_len);
    free(words);
    if (st != GISA_OK) {
        cli_error(cmd, "cannot format the output: %s", gisa_status_str(st));
        return EXIT_INPUT;
    }
    r = cli_write_output(cmd, a->val[O_OUTPUT] ? a->val[O_OUTPUT] : default_out[fmt], out, out_len);
    free(out);
    return r;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int r = cli_parse(cmd, argc, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    gisa_out_format fmt = GISA_FMT_BIN;
    if (a.val[O_FORMAT] && parse_format(a.val[O_FORMAT], &fmt))
        return cli_usage_error(cmd, "unknown format '%s' (expected bin, hex or c)", a.val[O_FORMAT]);
    size_t max_errors = 100;
    if (a.val[O_MAX_ERRORS] && cli_parse_count(a.val[O_MAX_ERRORS], &max_errors))
        return cli_usage_error(cmd, "--max-errors needs a number, not '%s'", a.val[O_MAX_ERRORS]);
    if ((r = cli_check_size_option(cmd, a.val[O_MAXMEM])) != CLI_CONTINUE)
        return r;
    gisa_isa *isa;
    r = cli_load_for_output(cmd, &a, a.val[O_OUTPUT], &isa);
    if (r != CLI_CONTINUE)
        return r;
    r = assemble(cmd, isa, &a, fmt, max_errors);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_as = {
    "as",
    "[OPTIONS] [FILE|-]",
    "assemble source text into instruction words",
    "Reads FILE (standard input when absent or '-'). On any error the diagnostics\n"
    "are printed with the source line and a caret, followed by 'N errors', and no\n"
    "output is written. Output files are replaced atomically.\n"
    "Formats: bin = 16 bytes per instruction, little-endian (bit i is bit i%8 of\n"
    "byte i/8); hex = one instruction per line, 32 lowercase hex digits, bit 127\n"
    "first; c = a C array 'gisa_code' of bytes plus 'gisa_code_words'.\n",
    opts,
    sizeof opts / sizeof *opts,
    1,
    run,
};
