/* `gisa doc [NAME]`: the reference text of an optype or opcode. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_HTML };
static const cli_opt opts[] = {
    {"html", 0, "DIR", "write the HTML reference manual of the loaded ISA into the directory DIR"},
};

#define MANUAL_MARKER ".gisa-manual"

static gisa_status add_page(void *user, const char *name, const char *data, size_t len)
{
    return cli_outdir_add(user, name, data, len) == EXIT_OK ? GISA_OK : GISA_ERR_IO;
}

static int write_manual(const cli_cmd *cmd, const gisa_isa *isa, const char *dir)
{
    cli_outdir out;
    int r = cli_outdir_begin(cmd, dir, MANUAL_MARKER, &out);
    if (r != EXIT_OK)
        return r;
    gisa_status st = gisa_isa_manual(isa, add_page, &out);
    if (st != GISA_OK) {
        if (st != GISA_ERR_IO) /* add_page said why */
            cli_error(cmd, "cannot make the manual: %s", gisa_status_str(st));
        cli_outdir_abort(&out);
        return st == GISA_ERR_IO ? EXIT_USAGE : EXIT_INPUT;
    }
    return cli_outdir_commit(&out);
}

/* Names within a few edits of `name`, closest first, for the error hint. */
static void suggest(const gisa_isa *isa, const char *name)
{
    enum { MAXS = 5 };
    const char *best[MAXS];
    /* about one edit per three characters, at least one, at most three */
    size_t nbest = 0, bestd = strlen(name) / 3;
    bestd = bestd < 1 ? 1 : bestd > 3 ? 3 : bestd;
    for (int pass = 0; pass < 2; pass++) {
        size_t n = pass ? gisa_isa_opcode_count(isa) : gisa_isa_optype_count(isa);
        for (size_t i = 0; i < n; i++) {
            const char *cand = pass ? gisa_isa_opcode_name(isa, i) : gisa_isa_optype_name(isa, i);
            size_t d = cli_edit_distance(name, cand);
            if (d > bestd)
                continue;
            if (d < bestd) {
                bestd = d;
                nbest = 0;
            }
            if (d == bestd && nbest < MAXS) {
                int dup = 0;
                for (size_t k = 0; k < nbest; k++)
                    dup |= !strcmp(best[k], cand);
                if (!dup)
                    best[nbest++] = cand;
            }
        }
    }
    if (!nbest)
        return;
    fputs("did you mean", stderr);
    for (size_t k = 0; k < nbest; k++)
        fprintf(stderr, "%s '%s'", k ? (k + 1 == nbest ? " or" : ",") : "", best[k]);
    fputs("?\n", stderr);
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    gisa_isa *isa;
    const char *source;
    int r = cli_parse_and_load(cmd, argc, argv, &a, &isa, &source, NULL);
    if (r != CLI_CONTINUE)
        return r;
    const char *name = a.npos ? a.pos[0] : NULL;
    if (a.val[O_HTML]) {
        r = name ? cli_usage_error(cmd, "--html writes the whole manual: it takes no NAME")
                 : !*a.val[O_HTML] ? cli_usage_error(cmd, "--html needs a directory")
                                   : write_manual(cmd, isa, a.val[O_HTML]);
        gisa_isa_free(isa);
        return r;
    }
    char *text = NULL;
    gisa_status st = gisa_isa_doc(isa, name, &text);
    if (st == GISA_OK) {
        size_t n = strlen(text);
        fputs(text, stdout);
        if (n && text[n - 1] != '\n')
            putchar('\n');
        r = EXIT_OK;
    } else if (st == GISA_ERR_NOTFOUND && name) {
        cli_error(cmd, "unknown optype or opcode '%s'", name);
        suggest(isa, name);
        r = EXIT_INPUT;
    } else {
        cli_error(cmd, "%s", gisa_status_str(st));
        r = EXIT_INPUT;
    }
    free(text);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_doc = {
    "doc",
    "[OPTIONS] [NAME]",
    "print the reference of an optype or opcode (all of them without NAME)",
    "NAME is an optype (FFMA), an opcode (FFMA_RRC) or a mnemonic. Without it,\n"
    "the list of optypes and their opcodes is printed.\n"
    "--html DIR writes the reference manual as a static web site (open\n"
    "DIR/index.html; no network needed): DIR is replaced whole, and only when it\n"
    "is absent, empty or an earlier manual (marked by its file " MANUAL_MARKER ").\n",
    opts,
    sizeof opts / sizeof opts[0],
    1,
    run,
};
