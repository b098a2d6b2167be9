/* `gisa gen`: a random program (and its initial state) from the library's
 * generator; the options after the first few are the generator's own,
 * handed to gisa_gen_set by name. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { O_SEED, O_COUNT, O_OUT, O_WORDS, O_FORMAT, O_STATE, O_LIST, O_COVER, O_GEN };
static const cli_opt opts[] = {
    {"seed", 0, "N", "random seed, decimal or 0x hex (default 1): the same seed gives the same bytes"},
    {"count", 'n', "N", "instructions to generate (default 100)"},
    {"output", 'o', "FILE", "write the assembly text to FILE (default: standard output unless --words)"},
    {"words", 0, "FILE", "write the instruction words to FILE"},
    {"format", 0, "FMT", "format of --words: hex or bin (default: bin for *.bin, else hex)"},
    {"state-out", 0, "FILE", "write an initial state for 'gisa run --state' to FILE"},
    {"list", 0, NULL, "list the families, optypes and directed streams the options take"},
    {"cover", 0, "COVFILE", "aim at the holes of a coverage file (run --coverage, cov --json): weights per optype "
                            "by its holes, --int-values by the integer classes missing, a higher --fp-rate; the "
                            "header lists the options it set, other options override them"},
    /* the generator's options (gisa_gen_set), from O_GEN on */
    {"weights", 0, "LIST", "NAME=W,...: weight per family or optype (default 1 each); NAME.VALUE=W (FFMA.RZ=4): "
                           "a draw of its own of NAME with those modifier values, 0: never them"},
    {"include", 0, "LIST", "only these families, optypes or opcodes (comma-separated); NAME.VALUE[.VALUE] "
                           "(FFMA.RM, IMAD.HI.X): only with those modifier values"},
    {"exclude", 0, "LIST", "never these families, optypes or opcodes; NAME.VALUE: never with those values"},
    {"regs", 0, "N", "registers per lane the program uses, R0..R(N-1) (default 32)"},
    {"uregs", 0, "N", "uniform registers it uses, UR0..UR(N-1) (default 16)"},
    {"cbanks", 0, "N", "constant banks it reads, from c[0x0] (default 2)"},
    {"cwords", 0, "N", "32-bit constants per bank it reads, from offset 0 (default 64)"},
    {"dep-rate", 0, "R", "chance that a source reads a recent destination (default 0.5)"},
    {"guard-rate", 0, "R", "chance of a guard predicate @Pn / @!Pn (default 0.2)"},
    {"ureg-rate", 0, "R", "chance of an opcode with a uniform-register operand (default 0.15)"},
    {"cbank-rate", 0, "R", "chance of an opcode with a constant-bank operand (default 0.15)"},
    {"imm-rate", 0, "R", "chance of an opcode with an immediate operand (default 0.2)"},
    {"stream-rate", 0, "R", "chance that the next item is a directed stream (default 0.05)"},
    {"streams", 0, "LIST", "the directed streams to use (default: all the target has; 'none')"},
    {"fp-rate", 0, "R", "chance that a state value is a floating-point corner value (default 0.3)"},
    {"uniform-rate", 0, "R", "chance that a state register is the same in every lane (default 0.25)"},
    {"ctl-rate", 0, "R", "chance of random scheduling controls $sched $req $wsb (default 0)"},
    {"illegal-rate", 0, "R", "chance that the next item is a word the decoder refuses, '.inst 0x... // invalid: "
                             "why', of each kind of reason; the first one's fault is in a second header line "
                             "(default 0)"},
    {"warps", 0, "N", "warps in the --state-out file, each with its own registers and mask (default 1)"},
    {"active", 0, "LIST", "KIND=W,...: active masks per warp by kind, full, random (partial), single (one "
                          "lane), empty; kinds not named get 0 (default full=2,random=6,single=2,empty=0)"},
    {"int-values", 0, "LIST", "[SCOPE:]CLASS=W,...: integer values by class, zero, one, minus-one, min, max, pow2, "
                          "small, random, in immediates (imm), state registers (reg), constants (const); no "
                          "scope: all three; a scope named gets 0 for the classes it does not name (default: "
                          "a built-in mix)"},
};
#define NOPTS (sizeof opts / sizeof *opts)

static int parse_seed(const char *s, uint64_t *out)
{
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *p = s + (hex ? 2 : 0);
    uint64_t v = 0, base = hex ? 16 : 10;
    if (!*p)
        return -1;
    for (; *p; p++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : hex && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
              : hex && *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
        if (d < 0 || v > (UINT64_MAX - (uint64_t)d) / base)
            return -1;
        v = v * base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

static int configure(const cli_cmd *cmd, gisa_gen *g, const cli_args *a)
{
    gisa_diags *d = cli_diags();
    int r = CLI_CONTINUE;
    if (a->val[O_COVER]) { /* first: the options given override what it sets */
        char *text = NULL;
        size_t len = 0;
        r = cli_read_input(cmd, a->val[O_COVER], &text, &len);
        if (r == CLI_CONTINUE && strlen(text) != len) {
            cli_error(cmd, "%s: not a coverage file (a NUL byte)", cli_input_name(a->val[O_COVER]));
            r = EXIT_USAGE;
        }
        if (r == CLI_CONTINUE && gisa_gen_set(g, "cover", text, d) != GISA_OK) {
            for (size_t k = 0; k < gisa_diags_count(d); k++)
                cli_error(cmd, "%s: %s", cli_input_name(a->val[O_COVER]), gisa_diags_get(d, k)->message);
            r = EXIT_USAGE;
        }
        free(text);
        gisa_diags_clear(d);
    }
    for (size_t i = O_GEN; i < NOPTS && r == CLI_CONTINUE; i++)
        if (a->val[i] && gisa_gen_set(g, opts[i].name, a->val[i], d) != GISA_OK) {
            for (size_t k = 0; k < gisa_diags_count(d); k++)
                cli_error(cmd, "%s", gisa_diags_get(d, k)->message);
            r = EXIT_USAGE;
        }
    gisa_diags_free(d);
    return r;
}

/* Writes the outputs the options name, after everything was generated:
 * all of them or none. */
static int write_outputs(const cli_cmd *cmd, const gisa_isa *isa, gisa_gen *g, const cli_args *a)
{
    size_t len = 0, n = 0, slen = 0, blen = 0;
    const char *text = "", *state = "";
    gisa_gen_text(g, &text, &len);
    gisa_gen_state(g, &state, &slen);
    char *buf = NULL;
    if (a->val[O_WORDS]) {
        const char *path = a->val[O_WORDS], *f = a->val[O_FORMAT];
        size_t pl = strlen(path);
        int bin = f ? !strcmp(f, "bin") : pl > 4 && !strcmp(path + pl - 4, ".bin");
        const gisa_word *words = NULL;
        gisa_gen_words(g, &words, &n);
        if (gisa_words_serialize(isa, words, n, bin ? GISA_FMT_BIN : GISA_FMT_HEX, &buf, &blen) != GISA_OK) {
            cli_error(cmd, "out of memory");
            return EXIT_INPUT;
        }
    }
    cli_outset set;
    cli_outset_init(&set, cmd);
    int r = EXIT_OK;
    if (a->val[O_OUT] || !a->val[O_WORDS])
        r = cli_outset_put(&set, a->val[O_OUT] ? a->val[O_OUT] : "-", text, len);
    if (r == EXIT_OK && buf)
        r = cli_outset_put(&set, a->val[O_WORDS], buf, blen);
    if (r == EXIT_OK && a->val[O_STATE])
        r = cli_outset_put(&set, a->val[O_STATE], state, slen);
    if (r == EXIT_OK)
        r = cli_outset_commit(&set);
    cli_outset_abort(&set);
    gisa_free(buf);
    return r;
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int r = cli_parse(cmd, argc, argv, &a);
    if (r != CLI_CONTINUE)
        return r;
    uint64_t seed = 1;
    size_t count = 100;
    if (a.val[O_SEED] && parse_seed(a.val[O_SEED], &seed))
        return cli_usage_error(cmd, "--seed needs a number from 0 to 2^64-1 (decimal or 0x hex), not '%s'",
                               a.val[O_SEED]);
    if (a.val[O_COUNT] && (cli_parse_count(a.val[O_COUNT], &count) || count > GISA_GEN_MAX_COUNT))
        return cli_usage_error(cmd, "--count needs a number from 0 to %u, not '%s'", GISA_GEN_MAX_COUNT, a.val[O_COUNT]);
    if (a.val[O_FORMAT] && strcmp(a.val[O_FORMAT], "hex") && strcmp(a.val[O_FORMAT], "bin"))
        return cli_usage_error(cmd, "unknown format '%s' (expected hex or bin)", a.val[O_FORMAT]);
    if (a.val[O_FORMAT] && !a.val[O_WORDS])
        return cli_usage_error(cmd, "--format is the format of --words, which is missing");
    for (int i = O_OUT; i <= O_STATE; i++)
        if (i != O_FORMAT && a.val[i] && !*a.val[i])
            return cli_usage_error(cmd, "--%s needs a file name", opts[i].name);
    gisa_isa *isa;
    const char *isa_source;
    const char *outputs[] = {a.val[O_OUT], a.val[O_WORDS], a.val[O_STATE]};
    if ((r = cli_load_isa(&a, &isa, &isa_source, NULL)) != CLI_CONTINUE ||
        (r = cli_check_outputs(cmd, &a, outputs, 3, NULL)) != CLI_CONTINUE) {
        gisa_isa_free(isa);
        return r;
    }
    gisa_gen *g = NULL;
    if (gisa_gen_new(isa, &g) != GISA_OK) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    } else if ((r = configure(cmd, g, &a)) == CLI_CONTINUE) {
        if (a.val[O_LIST]) {
            char *names = NULL;
            gisa_gen_names(g, &names);
            fputs(names ? names : "", stdout);
            gisa_free(names);
            r = EXIT_OK;
        } else {
            gisa_diags *d = cli_diags();
            gisa_status st = gisa_gen_generate(g, seed, count, d);
            for (size_t k = 0; k < gisa_diags_count(d); k++)
                cli_error(cmd, "%s", gisa_diags_get(d, k)->message);
            if (st != GISA_OK && gisa_diags_count(d) == 0)
                cli_error(cmd, "%s", st == GISA_ERR_NOMEM ? "out of memory" : gisa_status_str(st));
            gisa_diags_free(d);
            r = st == GISA_OK ? write_outputs(cmd, isa, g, &a) : st == GISA_ERR_USAGE ? EXIT_USAGE : EXIT_INPUT;
        }
    }
    gisa_gen_free(g);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_gen = {
    "gen",
    "[OPTIONS]",
    "generate a random program (and its initial state) that runs without a fault",
    "Draws instructions from the ISA model: an optype by --weights, an opcode of\n"
    "it by the operand-kind rates, then random legal modifiers and operands from\n"
    "the register pools, with directed multi-instruction streams (wide adds,\n"
    "IMAD.WIDE chains, 64-bit compares, LEA pairs) mixed in. Every instruction\n"
    "assembles, prints as 'gisa dis' prints its word, and runs under 'gisa run'\n"
    "without a fault (with the --state-out file or without). Rates R are 0..1 or\n"
    "a percentage (25%). The text starts with a comment that repeats the options.\n"
    "See docs/verification.md.\n",
    opts,
    NOPTS,
    0,
    run,
};
