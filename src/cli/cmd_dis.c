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
typedef struct lister {
    const gisa_isa *isa;
    FILE *out;
    char *buf, *p;  /* the chunk, and where its next line goes */
    unsigned bits;  /* of a word */
    size_t next;    /* the index of the next word listed */
    size_t invalid; /* words that are no valid instruction */
    int offsets, raw;
    int failed; /* a write failed: nothing more is listed (cli_outset_commit reports it) */
} lister;

/* The lines of the next n words. */
static void list_words(lister *l, const gisa_word *w, size_t n)
{
    char *p = l->p;
    for (size_t i = 0; i < n && !l->failed; i++) {
        if (l->offsets) { /* the byte offset, at least 4 digits, in a comment */
            size_t off = (l->next + i) * (l->bits / 8);
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
        if (gisa_disassemble(l->isa, w[i], p, 512, &len) != GISA_OK)
            l->invalid++; /* the text is then the library's `.invalid 0x... // why` */
        p += len;
        if (l->raw) {
            memcpy(p, "  // 0x", 7);
            p += 7;
            if (l->bits == 128)
                p = put_hex(p, w[i].w[1], 16);
            p = put_hex(p, w[i].w[0], 16);
        }
        *p++ = '\n';
        if ((size_t)(p - l->buf) >= CHUNK) {
            l->failed = fwrite(l->buf, 1, (size_t)(p - l->buf), l->out) != (size_t)(p - l->buf);
            p = l->buf;
        }
    }
    l->p = p;
    l->next += n;
}

#define SLICE 4096 /* words of a binary image converted at a time */

/* The lines of a binary image of whole words, converted a slice at a time
 * (its words are never all in memory beside its bytes); -1 when out of
 * memory. */
static int list_image(lister *l, const cli_image *img)
{
    size_t wbytes = l->bits / 8, n = img->len / wbytes;
    for (size_t i = 0; i < n && !l->failed; i += SLICE) {
        size_t k = n - i < SLICE ? n - i : SLICE, got;
        gisa_word *w;
        if (gisa_words_parse(l->isa, img->data + i * wbytes, k * wbytes, false, &w, &got, NULL) != GISA_OK)
            return -1; /* whole words convert: only memory runs out */
        list_words(l, w, got);
        free(w);
    }
    return 0;
}

/* The listing of the words, or of the image when it has data; -1 when out
 * of memory. */
static int listing(const gisa_isa *isa, const cli_args *a, const cli_image *img, const gisa_word *w, size_t n,
                   FILE *out, size_t *invalid)
{
    lister l = {isa, out, malloc(CHUNK + LINE_MAX_TEXT), NULL, gisa_isa_word_bits(isa), 0, 0,
                a->val[O_OFFSETS] != NULL, a->val[O_RAW] != NULL, 0};
    if (!l.buf)
        return -1;
    l.p = l.buf;
    int r = 0;
    if (img->data)
        r = list_image(&l, img);
    else
        list_words(&l, w, n);
    fwrite(l.buf, 1, (size_t)(l.p - l.buf), out);
    free(l.buf);
    *invalid = l.invalid;
    return r;
}

static int disassemble(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, int hex)
{
    gisa_word *words;
    size_t n;
    cli_image img;
    /* the listing is written in pieces: no output held per word */
    const cli_budget budget = {a->val[O_MAXMEM], 0, CHUNK + LINE_MAX_TEXT};
    int r = cli_read_image_within(cmd, isa, a, hex ? CLI_WORDS_HEX : CLI_WORDS_BIN, 100, &budget, &img, &words, &n);
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
    if (out && listing(isa, a, &img, words, n, out, &invalid)) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    } else if (out)
        r = cli_outset_commit(&set);
    if (r != EXIT_OK)
        cli_outset_abort(&set);
    free(words);
    free(img.data);
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
