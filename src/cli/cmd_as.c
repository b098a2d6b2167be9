/* `gisa as`: assemble source text into an instruction image. Nothing is
 * written unless the whole file assembles. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_OUTPUT, O_FORMAT, O_MAX_ERRORS, O_MAXMEM, O_LISTING };
static const cli_opt opts[] = {
    {"output", 'o', "FILE", "write to FILE ('-': standard output; default a.bin, a.hex or a.c)"},
    {"format", 0, "FMT", "bin (16 bytes per word, little-endian), hex (one word per line) or c"},
    {"max-errors", 0, "N", "show at most N errors, count the rest (default 100; 0: no limit)"},
    {"max-memory", 0, "SIZE", "refuse an input estimated to need more memory (default 4G; K, M, G, T suffixes)"},
    {"listing", 'a', "[=FILE]", "also write a listing: line, offset, encoding, source (default: standard output)"},
};

/* The listing, built while assembling (one call per source line). */
typedef struct listing {
    FILE *f;
    char *file; /* a copy of the last line's file name: a new file gets a heading */
    unsigned bits;
} listing;

static void put_word(FILE *f, unsigned bits, const gisa_word *w)
{
    if (bits == 64)
        fprintf(f, "%016llx", (unsigned long long)w->w[0]);
    else
        fprintf(f, "%016llx%016llx", (unsigned long long)w->w[1], (unsigned long long)w->w[0]);
}

/* `LINE  OFFSET  ENCODING  SOURCE`, one row per word (a line without words:
 * its source alone), and `// FILE` where the file changes (includes). */
static gisa_status list_line(void *user, const gisa_asm_line *l)
{
    listing *ls = user;
    int digits = (int)ls->bits / 4;
    if (!ls->file || strcmp(ls->file, l->file)) {
        fprintf(ls->f, "// %s\n", l->file);
        free(ls->file);
        ls->file = strdup(l->file); /* NULL: the next line gets a heading too */
    }
    if (!l->nwords) {
        if (l->len)
            fprintf(ls->f, "%6d  %*s  %.*s\n", l->line, 4 + 2 + digits, "", (int)l->len, l->text);
        else
            fprintf(ls->f, "%6d\n", l->line);
        return GISA_OK;
    }
    for (size_t i = 0; i < l->nwords; i++) {
        if (i)
            fprintf(ls->f, "%6s  ", "");
        else
            fprintf(ls->f, "%6d  ", l->line);
        fprintf(ls->f, "%04zx  ", (l->first_word + i) * (ls->bits / 8));
        put_word(ls->f, ls->bits, &l->words[i]);
        if (i)
            fputc('\n', ls->f);
        else
            fprintf(ls->f, "  %.*s\n", (int)l->len, l->text);
    }
    return GISA_OK;
}

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
    const char *list_path = a->val[O_LISTING];
    char *list_buf = NULL;
    size_t list_len = 0;
    /* in memory, and written at the end like every output */
    listing ls = {NULL, NULL, gisa_isa_word_bits(isa)};
    if (list_path && !(ls.f = open_memstream(&list_buf, &list_len))) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    /* the image: 16 bytes a word, or text (hex 33, C about 100) in a buffer that doubles */
    static const size_t out_bytes[] = {16, 66, 200};
    const cli_budget budget = {a->val[O_MAXMEM], out_bytes[fmt] + (list_path ? 160 : 0), 0};
    int r = cli_assemble_input(cmd, isa, a, max_errors, &budget, ls.f ? list_line : NULL, &ls, &words, &n);
    free(ls.file);
    if (ls.f && fclose(ls.f) && r == CLI_CONTINUE) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    }
    if (r != CLI_CONTINUE) {
        free(list_buf);
        return r;
    }
    char *out;
    size_t out_len;
    gisa_status st = gisa_words_serialize(isa, words, n, fmt, &out, &out_len);
    free(words);
    if (st != GISA_OK) {
        free(list_buf);
        cli_error(cmd, "cannot format the output: %s", gisa_status_str(st));
        return EXIT_INPUT;
    }
    const char *outputs[] = {a->val[O_OUTPUT] ? a->val[O_OUTPUT] : default_out[fmt],
                             !list_path ? NULL : *list_path ? list_path : "-"};
    cli_outset set;
    cli_outset_init(&set, cmd);
    r = cli_check_outputs(cmd, a, outputs, 2, NULL);
    if (r == CLI_CONTINUE)
        r = cli_outset_put(&set, outputs[0], out, out_len);
    if (r == EXIT_OK && list_path)
        r = cli_outset_put(&set, outputs[1], list_buf, list_len);
    if (r == EXIT_OK)
        r = cli_outset_commit(&set);
    cli_outset_abort(&set);
    free(out);
    free(list_buf);
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
    const char *list = a.val[O_LISTING];
    if (list && *list == '=') /* -a=FILE */
        a.val[O_LISTING] = ++list;
    if (list && (!*list || !strcmp(list, "-")) && a.val[O_OUTPUT] && !strcmp(a.val[O_OUTPUT], "-"))
        return cli_usage_error(cmd, "the listing and the words (-o -) cannot both go to standard output: write --listing=FILE");
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
    "Besides instructions: .inst 0x... / .word 0x... (raw words), .invalid 0x...\n"
    "(as 'gisa dis' prints a word that does not decode) and .include \"FILE\"\n"
    "(relative to the including file's directory).\n"
    "The listing (-a, --listing[=FILE]) shows each source line with its number,\n"
    "and each word's byte offset and encoding (32 hex digits, bit 127 first).\n"
    "Formats: bin = 16 bytes per instruction, little-endian (bit i is bit i%8 of\n"
    "byte i/8); hex = one instruction per line, 32 lowercase hex digits, bit 127\n"
    "first; c = a C array 'gisa_code' of bytes plus 'gisa_code_words'.\n",
    opts,
    sizeof opts / sizeof *opts,
    1,
    run,
};
