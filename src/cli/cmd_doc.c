/* `gisa doc [NAME]`: the reference text of an optype or opcode. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

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
    gisa_status st = GISA_OK;
    char *text = gisa_isa_doc(isa, name, &st);
    if (text) {
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
    "the list of optypes and their opcodes is printed.\n",
    NULL,
    0,
    1,
    run,
};
