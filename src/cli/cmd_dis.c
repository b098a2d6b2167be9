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

#define CHUNK (1u << 20) /* bytes of text written at a time */
#define LINE_MAX_TEXT 640 /* the longest line: offset, text (gisa_disassemble fits 512), raw word */

/* Writes `digits` hex digits of v (lowercase) at p; returns the end. */
static char *put_hex(char *p, uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; i--, v >>= 4)
        p[i] = hex[v & 15];
    return p + digits;
}

/* The listing, one line per word, formatted into a buffer that is written
 * out whenever it holds a chunk: the text of a large image is never all in
 * memory, and the output is written while the next words are printed. */
static int listing(const gisa_isa *isa, const cli_args *a, const gisa_word *w, size_t n, FILE *out, size_t *invalid)
{
    unsigned bits = gisa_isa_word_bits(isa);
    size_t wbytes = bits / 8;
    int offsets = a->val[O_OFFSETS] != NULL, raw = a->val[O_RAW] != NULL;
    char *buf = malloc(CHUNK + LINE_MAX_TEXT);
    if (!buf)
        return -1;
    char *p = buf;
    *invalid = 0;
    for (size_t i = 0; i < n; i++) {
        if (offsets) { /* the byte offset, at least 4 digits, in a comment */
            size_t off = i * wbytes;
            int digits = 4;
            while (digits < 16 && off >> (4 * digits))
                digits++;
            *p++ = '/';
            *p++ = '*';
            p = put_hex(p, off, digits);
            memcpy(p, "*/ ", 3);
            p += 3;
        }
        size_t len;
        if (gisa_disassemble(isa, w[i], p, 512, &len) != GISA_OK)
            ++*invalid; /* the text is then the library's `.invalid 0x... // why` */
        p += len;
        if (raw) {
            memcpy(p, "  // 0x", 7);
            p += 7;
            if (bits == 128)
                p = put_hex(p, w[i].w[1], 16);
            p = put_hex(p, w[i].w[0], 16);
        }
        *p++ = '\n';
        if ((size_t)(p - buf) >= CHUNK) {
            if (fwrite(buf, 1, (size_t)(p - buf), out) != (size_t)(p - buf))
                break; /* the error is cli_outset_commit's to report */
            p = buf;
        }
    }
    fwrite(buf, 1, (size_t)(p - buf), out);
    free(buf);
    return 0;
}

static int disassemble(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, int hex)
{
    gisa_word *words;
    size_t n;
    /* the listing is written in pieces: no output held per word */
    const cli_budget budget = {a->val[O_MAXMEM], 0, CHUNK + LINE_MAX_TEXT};
    int r = cli_read_words_within(cmd, isa, a, hex ? CLI_WORDS_HEX : CLI_WORDS_BIN, 100, &budget, &words, &n);
    if (r != CLI_CONTINUE)
        return r;
    /* the text is written as it is made: a chunk's worth of memory, not the whole listing's */
    cli_outset set;
    cli_outset_init(&set, cmd);
    size_t invalid = 0;
    const char *path = a->val[O_OUTPUT] ? a->val[O_OUTPUT] : "-";
    FILE *out = NULL;
    if ((r = cli_check_outputs(cmd, a, &path, 1, NULL)) == CLI_CONTINUE && !(out = cli_outset_open(&set, path)))
        r = EXIT_USAGE;
    if (out && listing(isa, a, words, n, out, &invalid)) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    } else if (out)
        r = cli_outset_commit(&set);
    if (r != EXIT_OK)
        cli_outset_abort(&set);
    free(words);
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
