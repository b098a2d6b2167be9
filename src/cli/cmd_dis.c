/* `gisa dis`: disassemble an instruction image, one line per word. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_OUTPUT, O_FORMAT, O_OFFSETS, O_RAW, O_STRICT, O_MAXMEM };
static const cli_opt opts[] = {
    {"output", 'o', "FILE", "write the listing to FILE (default: standard output)"},
    {"format", 0, "FMT", "input format: bin (16-byte little-endian words) or hex (default: hex for a *.hex file, else bin)"},
    {"offsets", 0, NULL, "prefix each line with its byte offset, /*0040*/"},
    {"raw", 0, NULL, "append the word in hex, // 0x..."},
    {"strict", 0, NULL, "exit 1 when any word is not a valid instruction"},
    {"max-memory", 0, "SIZE", "refuse an input estimated to need more memory (default 4G; K, M, G, T suffixes)"},
};

/* Builds the listing in memory so that -o FILE is written all at once. */
static int listing(const gisa_isa *isa, const cli_args *a, const gisa_word *w, size_t n, char **out, size_t *len,
                   size_t *invalid)
{
    unsigned bits = gisa_isa_word_bits(isa);
    size_t wbytes = bits / 8;
    FILE *f = open_memstream(out, len);
    if (!f)
        return -1;
    char text[1024];
    *invalid = 0;
    for (size_t i = 0; i < n; i++) {
        if (gisa_disassemble(isa, w[i], text, sizeof text) != GISA_OK)
            ++*invalid; /* the text is then the library's `.invalid 0x... // why` */
        if (a->val[O_OFFSETS])
            fprintf(f, "/*%04zx*/ ", i * wbytes);
        fputs(text, f);
        if (a->val[O_RAW]) {
            if (bits == 64)
                fprintf(f, "  // 0x%016llx", (unsigned long long)w[i].w[0]);
            else
                fprintf(f, "  // 0x%016llx%016llx", (unsigned long long)w[i].w[1], (unsigned long long)w[i].w[0]);
        }
        fputc('\n', f);
    }
    return fclose(f) ? -1 : 0;
}

static int disassemble(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, int hex)
{
    gisa_word *words;
    size_t n;
    /* a listing line is about 64 characters (+11 with --offsets, +38 with
     * --raw), in a buffer that doubles */
    const cli_budget budget = {a->val[O_MAXMEM], 2 * (64 + (a->val[O_OFFSETS] ? 11 : 0) + (a->val[O_RAW] ? 38 : 0))};
    int r = cli_read_words_within(cmd, isa, a, hex ? CLI_WORDS_HEX : CLI_WORDS_BIN, 100, &budget, &words, &n);
    if (r != CLI_CONTINUE)
        return r;
    char *out = NULL;
    size_t out_len = 0, invalid = 0;
    if (listing(isa, a, words, n, &out, &out_len, &invalid)) {
        free(words);
        free(out);
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    free(words);
    r = cli_write_output(cmd, a->val[O_OUTPUT] ? a->val[O_OUTPUT] : "-", out, out_len);
    free(out);
    if (r == EXIT_OK && invalid && a->val[O_STRICT]) {
        fprintf(stderr, "%zu invalid %s\n", invalid, invalid == 1 ? "word" : "words");
        r = EXIT_INPUT;
    }
    return r;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int r = cli_parse(cmd, argc, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    int hex = 0;
    const char *fmt = a.val[O_FORMAT];
    if (fmt && strcmp(fmt, "bin") && strcmp(fmt, "hex"))
        return cli_usage_error(cmd, "unknown format '%s' (expected bin or hex)", fmt);
    if ((r = cli_check_size_option(cmd, a.val[O_MAXMEM])) != CLI_CONTINUE)
        return r;
    /* as `gisa run` does: a file named *.hex is hex text unless --format says otherwise */
    size_t plen = a.npos && a.pos[0] ? strlen(a.pos[0]) : 0;
    hex = fmt ? !strcmp(fmt, "hex") : plen > 4 && !strcmp(a.pos[0] + plen - 4, ".hex");
    gisa_isa *isa;
    r = cli_load_for_output(cmd, &a, a.val[O_OUTPUT], &isa);
    if (r != CLI_CONTINUE)
        return r;
    r = disassemble(cmd, isa, &a, hex);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_dis = {
    "dis",
    "[OPTIONS] [FILE|-]",
    "disassemble instruction words",
    "Reads FILE (standard input when absent or '-'). In hex input, each line is\n"
    "32 hex digits (optionally prefixed 0x), blank lines and lines starting with\n"
    "'//' or '#' are ignored. A word that is no valid instruction is printed as\n"
    "'.invalid 0x... // reason'; --strict then makes the exit status 1.\n",
    opts,
    sizeof opts / sizeof *opts,
    1,
    run,
};
