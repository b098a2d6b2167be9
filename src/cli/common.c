/* Option parsing, help text, ISA loading and diagnostics printing shared by
 * every subcommand. */
#include "common.h"
#include "common/readfile.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ messages */

static void vmsg(const cli_cmd *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "gisa%s%s: ", cmd ? " " : "", cmd ? cmd->name : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_error(const cli_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(cmd, fmt, ap);
    va_end(ap);
}

int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(cmd, fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try 'gisa %s%s--help' for more information.\n", cmd ? cmd->name : "", cmd ? " " : "");
    return EXIT_USAGE;
}

static int upper(int c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }

/* Optimal-string-alignment distance: a swap of two neighbours ("dsi" for
 * "dis") counts as one edit, the typo people make most. */
size_t cli_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (size_t)-1; /* names are short; long ones are never "close" */
    size_t rows[3][65], *pp = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            int ca = upper(a[i - 1]), cb = upper(b[j - 1]);
            size_t best = prev[j - 1] + (ca != cb);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == upper(b[j - 2]) && upper(a[i - 2]) == cb && pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

int cli_parse_count(const char *s, size_t *out)
{
    size_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > ((size_t)-1 - 9) / 10)
            return -1;
        v = v * 10 + (size_t)(*s - '0');
    }
    *out = v;
    return 0;
}

int cli_parse_size(const char *s, size_t *out)
{
    char num[32];
    size_t n = strlen(s), shift = 0;
    const char *units = "KMGT", *u = n ? strchr(units, s[n - 1] & ~0x20) : NULL;
    if (u && s[n - 1] && (s[n - 1] & ~0x20) == *u) {
        shift = 10 * (size_t)(u - units + 1);
        n--;
    }
    if (!n || n >= sizeof num)
        return -1;
    memcpy(num, s, n);
    num[n] = 0;
    size_t v;
    if (cli_parse_count(num, &v) || (shift && v > ((size_t)-1 >> shift)))
        return -1;
    *out = v << shift;
    return 0;
}

void cli_human_size(char *buf, size_t cap, size_t n)
{
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)n;
    int i = 0;
    while (v >= 1024 && i < 6) {
        v /= 1024;
        i++;
    }
    if (i == 0)
        snprintf(buf, cap, "%zu bytes", n);
    else
        snprintf(buf, cap, v < 10 ? "%.1f %s" : "%.0f %s", v, unit[i]);
}

int cli_check_size_option(const cli_cmd *cmd, const char *opt)
{
    size_t size;
    if (opt && cli_parse_size(opt, &size))
        return cli_usage_error(cmd, "--max-memory needs a size such as 512M or 8G, not '%s'", opt);
    return CLI_CONTINUE;
}

int cli_check_memory(const cli_cmd *cmd, const char *what, const char *detail, size_t need, const char *opt, size_t dflt)
{
    size_t limit = dflt;
    int r = cli_check_size_option(cmd, opt);
    if (r != CLI_CONTINUE)
        return r;
    if (opt)
        cli_parse_size(opt, &limit);
    if (need <= limit)
        return CLI_CONTINUE;
    char n[32], l[32];
    cli_human_size(n, sizeof n, need);
    cli_human_size(l, sizeof l, limit);
    cli_error(cmd, "%s needs about %s of memory (%s), over the limit of %s; nothing was done. "
                   "Raise the limit with --max-memory SIZE (e.g. --max-memory %zuG)",
              what, n, detail, l, (need >> 30) + 1);
    return EXIT_INPUT;
}

/* ------------------------------------------------------------ options */

/* The options every subcommand takes besides its own. */
static const cli_opt global_opts[] = {
    {"isa", 0, "PATH",
     "load the ISA from PATH: a description file, a directory\n"
     "                           of them, or a ':'-separated list; repeatable (default:\n"
     "                           $GISA_ISA, same form, else the built-in ISA)"},
    {"isa-add", 0, "PATH",
     "then load PATH (same forms) beside that ISA: an\n"
     "                           author's own instructions; repeatable (docs/semantics-\n"
     "                           language.md, \"Adding an instruction\")"},
    {"isa-overlay", 0, "DIR", "take types.isa/rulings.isa from DIR when the --isa files have none"},
    {"target", 0, "NAME", "target to load (default gisa128)"},
    {"max-memory", 0, "SIZE", "refuse work estimated to need more memory, loading the ISA\n"
                              "                           included (default 4G; K, M, G, T suffixes)"},
    {"help", 'h', NULL, "show this help and exit"},
    {"version", 0, NULL, "show the version and exit"},
};
enum { G_ISA, G_ISA_ADD, G_OVERLAY, G_TARGET, G_MAX_MEMORY, G_HELP, G_VERSION, G_COUNT };

/* The command's own option named `name`, or -1. */
static int own_opt(const cli_cmd *cmd, const char *name)
{
    for (size_t i = 0; i < cmd->nopts; i++)
        if (!strcmp(cmd->opts[i].name, name))
            return (int)i;
    return -1;
}

static void print_opt(FILE *f, const cli_opt *o)
{
    char left[64];
    int n = 0;
    if (o->short_name)
        n = snprintf(left, sizeof left, "-%c, --%s", o->short_name, o->name);
    else
        n = snprintf(left, sizeof left, "    --%s", o->name);
    if (o->arg && n > 0 && (size_t)n < sizeof left)
        snprintf(left + n, sizeof left - (size_t)n, o->arg[0] == '[' ? "%s" : " %s", o->arg);
    fprintf(f, "  %-24s %s\n", left, o->help);
}

void cli_print_global_options(FILE *f)
{
    for (size_t i = 0; i < G_COUNT; i++)
        print_opt(f, &global_opts[i]);
}

void cli_print_help(const cli_cmd *cmd, FILE *f)
{
    fprintf(f, "usage: gisa %s %s\n\n%s\n", cmd->name, cmd->synopsis, cmd->summary);
    if (cmd->details)
        fprintf(f, "\n%s", cmd->details);
    if (cmd->nopts) {
        fputs("\nOptions:\n", f);
        for (size_t i = 0; i < cmd->nopts; i++)
            print_opt(f, &cmd->opts[i]);
    }
    fputs("\nCommon options:\n", f);
    cli_print_global_options(f); /* all of them, --max-memory too where the command says more of it above */
    fputs("\nExit status: 0 ok, 1 input errors, 2 usage or file errors, 3 simulation fault (see 'gisa --help').\n", f);
}

/* Whether the long option `name` (len bytes) names opts: its name, or
 * for the output file either of --out and --output, which every command
 * that writes a file takes. */
static int names_opt(const cli_opt *o, const char *name, size_t len)
{
    if (strlen(o->name) == len && !strncmp(o->name, name, len))
        return 1;
    int out = (len == 3 && !strncmp(name, "out", 3)) || (len == 6 && !strncmp(name, "output", 6));
    return out && (!strcmp(o->name, "out") || !strcmp(o->name, "output"));
}

/* Splits "--name=value" / "--name" / "-x" / "-xVALUE" into its parts and
 * finds the option in `opts`. Returns its index or -1. */
static int match_opt(const cli_opt *opts, size_t n, const char *arg, const char **inline_val)
{
    *inline_val = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (size_t i = 0; i < n; i++)
            if (names_opt(&opts[i], name, len)) {
                *inline_val = eq ? eq + 1 : NULL;
                return (int)i;
            }
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (opts[i].short_name && opts[i].short_name == arg[1]) {
            *inline_val = arg[2] ? arg + 2 : NULL;
            return (int)i;
        }
    return -1;
}

int cli_global_option_kind(const char *arg)
{
    const char *v;
    if (arg[0] != '-' || !arg[1])
        return -1;
    int i = match_opt(global_opts, G_COUNT, arg, &v);
    return i < 0 ? -1 : global_opts[i].arg != NULL;
}

/* The closest long option name, for the unknown-option hint. */
static const char *closest_opt(const cli_cmd *cmd, const char *arg)
{
    char name[80];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len >= sizeof name)
        return NULL;
    memcpy(name, arg, len);
    name[len] = 0;
    const char *best = NULL;
    size_t bestd = 3; /* farther than 2 edits is no hint */
    for (size_t k = 0; k < cmd->nopts + G_COUNT; k++) {
        const char *cand = k < cmd->nopts ? cmd->opts[k].name : global_opts[k - cmd->nopts].name;
        size_t d = cli_edit_distance(name, cand);
        if (d < bestd) {
            bestd = d;
            best = cand;
        }
    }
    return best;
}

/* Handles one option at argv[*i]; advances *i past its value. */
static int parse_one(const cli_cmd *cmd, int argc, char **argv, int *i, cli_args *a)
{
    const char *arg = argv[*i], *val;
    const cli_opt *o;
    int own = match_opt(cmd->opts, cmd->nopts, arg, &val), glob = -1;
    if (own >= 0)
        o = &cmd->opts[own];
    else if ((glob = match_opt(global_opts, G_COUNT, arg, &val)) >= 0)
        o = &global_opts[glob];
    else {
        const char *hint = arg[1] == '-' ? closest_opt(cmd, arg + 2) : NULL;
        if (hint)
            return cli_usage_error(cmd, "unknown option '%s' (did you mean '--%s'?)", arg, hint);
        return cli_usage_error(cmd, "unknown option '%s'", arg);
    }
    if (!o->arg && val) {
        if (arg[1] != '-') /* "-hx": no bundled short flags */
            return cli_usage_error(cmd, "unknown option '%s'", arg);
        return cli_usage_error(cmd, "option '--%s' takes no argument", o->name);
    }
    if (o->arg && !val && o->arg[0] != '[') { /* "[=FILE]": the value is optional and inline only */
        if (*i + 1 >= argc)
            return cli_usage_error(cmd, "option '%s' needs an argument %s", arg, o->arg);
        val = argv[++*i];
    }
    if (o->arg && !val && *i + 1 < argc && argv[*i + 1][0] != '-') {
        /* "--trace t.txt": t.txt is a positional argument; if it turns out
         * wrong, the hint says how to give the option its value */
        a->optional_next = argv[*i + 1];
        a->optional_name = o->name;
    }
    if (own >= 0) {
        a->val[own] = val ? val : "";
        return CLI_CONTINUE;
    }
    switch (glob) {
    case G_ISA:
        if (a->nisa == CLI_MAX_ISA)
            return cli_usage_error(cmd, "more than %d --isa options", CLI_MAX_ISA);
        a->isa[a->nisa++] = val;
        break;
    case G_ISA_ADD:
        if (a->nisa_add == CLI_MAX_ISA)
            return cli_usage_error(cmd, "more than %d --isa-add options", CLI_MAX_ISA);
        a->isa_add[a->nisa_add++] = val;
        break;
    case G_OVERLAY: a->overlay_dir = val; break;
    case G_TARGET: a->target = val; break;
    case G_MAX_MEMORY: a->max_memory = val; break;
    case G_HELP: cli_print_help(cmd, stdout); return EXIT_OK;
    default: printf("gisa %s\n", gisa_version()); return EXIT_OK;
    }
    return CLI_CONTINUE;
}

int cli_parse(const cli_cmd *cmd, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_pos && !strcmp(arg, "--")) {
            only_pos = 1;
        } else if (!only_pos && arg[0] == '-' && arg[1]) {
            int r = parse_one(cmd, argc, argv, &i, a);
            if (r != CLI_CONTINUE)
                return r;
        } else {
            if ((a->npos >= cmd->max_pos || a->npos >= CLI_MAX_POS) && a->optional_next && a->npos &&
                a->pos[a->npos - 1] == a->optional_next)
                return cli_usage_error(cmd, "unexpected argument '%s' (to give --%s a value, write --%s=%s)", arg,
                                       a->optional_name, a->optional_name, a->optional_next);
            if (a->npos >= cmd->max_pos || a->npos >= CLI_MAX_POS)
                return cli_usage_error(cmd, "unexpected argument '%s'", arg);
            a->pos[a->npos++] = arg;
        }
    }
    return CLI_CONTINUE;
}

/* ------------------------------------------------------------ ISA */

static int target_known(const char *name)
{
    for (size_t i = 0; i < gisa_target_count(); i++)
        if (!strcmp(gisa_target_name(i), name))
            return 1;
    return 0;
}

int cli_load_isa(const cli_args *a, gisa_isa **isa, const char **source, size_t *warnings)
{
    static char label[1024];
    const cli_cmd *cmd = a->cmd;
    const char *target = a->target ? a->target : "gisa128";
    *isa = NULL;
    if (!target_known(target)) {
        fprintf(stderr, "gisa %s: unknown target '%s' (known:", cmd->name, target);
        for (size_t i = 0; i < gisa_target_count(); i++)
            fprintf(stderr, " %s", gisa_target_name(i));
        fputs(")\n", stderr);
        return EXIT_USAGE;
    }
    const char *env = getenv("GISA_ISA");
    const char *const *vals = a->isa;
    size_t nvals = a->nisa;
    if (!nvals && env && *env) {
        vals = &env;
        nvals = 1;
    }
    /* each value is a list: "a.txt:b.txt:dir" (like PATH); empty items are ignored */
    size_t total = 0, npaths = 0, nadd = 0;
    for (size_t i = 0; i < nvals + a->nisa_add; i++)
        total += strlen(i < nvals ? vals[i] : a->isa_add[i - nvals]) + 1;
    char *buf = total ? malloc(total) : NULL;
    const char **paths = total ? malloc(total * sizeof *paths) : NULL;
    if (total && (!buf || !paths)) {
        free(buf);
        free(paths);
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    char *w = buf;
    for (size_t i = 0; i < nvals + a->nisa_add; i++) {
        const char *v = i < nvals ? vals[i] : a->isa_add[i - nvals];
        strcpy(w, v);
        for (char *s = strtok(w, ":"); s; s = strtok(NULL, ":")) {
            paths[npaths + nadd] = s;
            *(i < nvals ? &npaths : &nadd) += 1;
        }
        w += strlen(v) + 1;
        if ((i + 1 == nvals && !npaths) || (i + 1 == nvals + a->nisa_add && a->nisa_add && !nadd)) {
            free(buf);
            free(paths);
            return cli_usage_error(cmd, "--isa%s needs a file or directory", i < nvals ? "" : "-add");
        }
    }
    gisa_diags *d = cli_diags();
    if (!d) {
        free(buf);
        free(paths);
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    gisa_load_options lo = GISA_LOAD_OPTIONS_INIT;
    /* the same limit as the command's own estimates (0: the library's
     * default, 4 GiB like CLI_DEFAULT_MAX_MEMORY) */
    int mm = own_opt(cmd, "max-memory");
    const char *max_memory = mm >= 0 ? a->val[mm] : a->max_memory;
    if (max_memory && cli_parse_size(max_memory, &lo.max_memory)) {
        free(buf);
        free(paths);
        gisa_diags_free(d);
        return cli_check_size_option(cmd, max_memory);
    }
    lo.target = target;
    lo.paths = paths;
    lo.npaths = npaths;
    lo.overlay_dir = a->overlay_dir;
    lo.add = nadd ? paths + npaths : NULL;
    lo.nadd = nadd;
    gisa_status st = gisa_isa_load(&lo, isa, d);
    cli_print_diags(stderr, d, 1, NULL);
    if (warnings)
        *warnings = gisa_diags_warnings(d);
    size_t errors = gisa_diags_errors(d);
    gisa_diags_free(d);
    /* the paths, as given (cut to the label's size) */
    if (npaths)
        label[0] = 0;
    else
        snprintf(label, sizeof label, "embedded %s", target);
    for (size_t i = 0; i < npaths + nadd; i++) {
        if (i || !npaths)
            strncat(label, i == npaths ? " + " : ", ", sizeof label - strlen(label) - 1);
        strncat(label, paths[i], sizeof label - strlen(label) - 1);
    }
    free(buf);
    free(paths);
    *source = label;
    if (st == GISA_OK)
        return CLI_CONTINUE;
    if (st == GISA_ERR_IO) /* a file or directory that cannot be read */
        return EXIT_USAGE;
    cli_error(cmd, "cannot load the ISA from %s: %s", *source,
              st == GISA_ERR_LIMIT ? "over a limit" : errors ? "the description has errors" : gisa_status_str(st));
    return EXIT_INPUT;
}

gisa_diags *cli_diags(void)
{
    gisa_diags *d = NULL;
    return gisa_diags_new(&d) == GISA_OK ? d : NULL;
}

int cli_read_state(const cli_cmd *cmd, const char *path, gisa_state **st, const char *what)
{
    char *text = NULL;
    size_t len = 0;
    int r = cli_read_input(cmd, path, &text, &len);
    if (r != CLI_CONTINUE)
        return r;
    gisa_diags *d = cli_diags();
    gisa_status s = gisa_state_parse(cli_input_name(path), text, len, st, d);
    free(text);
    cli_print_diags(stderr, d, 0, NULL);
    gisa_diags_free(d);
    if (s != GISA_OK) {
        cli_error(cmd, "%s state file; nothing was %s", s == GISA_ERR_NOMEM ? "out of memory reading the" : "bad",
                  what);
        return s == GISA_ERR_NOMEM ? EXIT_INPUT : EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

gisa_status cli_state_read(gisa_sim *sim, const char *name, const char *text, size_t len, gisa_diags *d)
{
    gisa_state *st = NULL;
    gisa_status r = gisa_state_parse(name, text, len, &st, d);
    if (r == GISA_OK)
        r = gisa_sim_state_apply(sim, st, d);
    gisa_state_free(st);
    return r;
}

void cli_print_diags(FILE *f, const gisa_diags *d, int with_source, const char *input_name)
{
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        gisa_diag g = *gisa_diags_get(d, i);
        if (input_name && g.file && !strcmp(g.file, "<input>"))
            g.file = input_name;
        char *s = NULL;
        gisa_diag_format(&g, with_source, &s);
        /* a message tied to no file says who is speaking, like "gcc: error:" */
        fprintf(f, "%s%s\n", g.file && g.file[0] ? "" : "gisa: ", s ? s : g.message);
        free(s);
    }
    /* the library counts what it drops over the limit: say how much */
    size_t shown_errors = 0, shown_warnings = 0;
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        shown_errors += gisa_diags_get(d, i)->severity == GISA_ERROR;
        shown_warnings += gisa_diags_get(d, i)->severity == GISA_WARNING;
    }
    size_t more_errors = gisa_diags_errors(d) - shown_errors, more_warnings = gisa_diags_warnings(d) - shown_warnings;
    if (more_errors)
        fprintf(f, "%zu more %s not shown\n", more_errors, more_errors == 1 ? "error" : "errors");
    if (more_warnings)
        fprintf(f, "%zu more %s not shown\n", more_warnings, more_warnings == 1 ? "warning" : "warnings");
}

static int open_input(const cli_cmd *cmd, const cli_args *a, size_t limit, const char **name, char **data, size_t *len,
                      gisa_diags **d)
{
    const char *in = a->npos ? a->pos[0] : "-";
    *name = cli_input_name(in);
    int r = cli_read_input(cmd, in, data, len);
    if (r != CLI_CONTINUE) {
        if (a->npos && a->pos[0] == a->optional_next)
            fprintf(stderr, "hint: '%s' was read as the input; to give --%s a value, write --%s=%s\n", in,
                    a->optional_name, a->optional_name, in);
        return r;
    }
    *d = cli_diags();
    if (!*d) {
        free(*data);
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    gisa_diags_set_limit(*d, limit ? limit : (size_t)-1);
    return CLI_CONTINUE;
}

/* An upper bound of the words in an input: its statements or lines. */
static size_t words_in(const gisa_isa *isa, cli_words_from from, const char *data, size_t len)
{
    if (from == CLI_WORDS_BIN)
        return len / (gisa_isa_word_bits(isa) / 8) + 1;
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += data[i] == '\n' || (from == CLI_WORDS_ASM && data[i] == ';');
    return n;
}

static int check_budget(const cli_cmd *cmd, const gisa_isa *isa, cli_words_from from, const cli_budget *b,
                        const char *data, size_t len)
{
    size_t n = words_in(isa, from, data, len), need = len + n * (sizeof(gisa_word) + b->per_word) + b->fixed;
    char detail[240], in[32], buf[32];
    cli_human_size(in, sizeof in, len);
    cli_human_size(buf, sizeof buf, b->fixed);
    if (b->fixed)
        snprintf(detail, sizeof detail, "the input: %s; up to %zu words of 16 bytes; a %s output buffer", in, n, buf);
    else
        snprintf(detail, sizeof detail, "the input: %s; up to %zu words of 16 bytes and %zu bytes of output each", in, n,
                 b->per_word);
    return cli_check_memory(cmd, from == CLI_WORDS_ASM ? "assembling this input" : "disassembling this input", detail,
                            need, b->max_memory, CLI_DEFAULT_MAX_MEMORY);
}

/* file_include_read, noting each file read as an input. */
static gisa_status include_input(void *user, const char *from, const char *name, gisa_include *inc, char *why,
                                 size_t why_cap)
{
    gisa_status st = file_include_read(user, from, name, inc, why, why_cap);
    if (st == GISA_OK)
        cli_note_input_path(inc->name);
    return st;
}

/* image: where a binary image of whole words is handed over as its bytes
 * (NULL: it is converted here). */
static int read_words(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, cli_words_from from, size_t limit,
                      const cli_budget *budget, gisa_asm_options *opt, cli_image *image, gisa_word **words, size_t *n)
{
    const char *name;
    char *data;
    size_t len;
    gisa_diags *d;
    int r = open_input(cmd, a, limit, &name, &data, &len, &d);
    if (r != CLI_CONTINUE)
        return r;
    if (budget && (r = check_budget(cmd, isa, from, budget, data, len)) != CLI_CONTINUE) {
        free(data);
        gisa_diags_free(d);
        return r;
    }
    *words = NULL;
    *n = 0;
    if (image && from == CLI_WORDS_BIN && len % (gisa_isa_word_bits(isa) / 8) == 0) {
        image->data = data; /* no diagnostics: whole words always convert */
        image->len = len;
        gisa_diags_free(d);
        return CLI_CONTINUE;
    }
    gisa_status st;
    if (from == CLI_WORDS_ASM) {
        char *id = strcmp(name, "<stdin>") ? realpath(name, NULL) : NULL;
        opt->include = include_input;
        opt->release = file_include_release;
        opt->file_id = id;
        st = gisa_assemble(isa, name, data, len, opt, words, n, d);
        free(id);
    } else {
        st = gisa_words_parse(isa, data, len, from == CLI_WORDS_HEX, words, n, d);
    }
    free(data);
    cli_print_diags(stderr, d, 1, name);
    if (st != GISA_OK) {
        size_t errors = gisa_diags_errors(d);
        if (errors)
            fprintf(stderr, "%zu %s\n", errors, errors == 1 ? "error" : "errors");
        else
            cli_error(cmd, "%s: %s", name, gisa_status_str(st));
        r = EXIT_INPUT;
    }
    gisa_diags_free(d);
    return r;
}

int cli_read_words_within(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, cli_words_from from,
                          size_t limit, const cli_budget *budget, gisa_word **words, size_t *n)
{
    gisa_asm_options opt = GISA_ASM_OPTIONS_INIT;
    return read_words(cmd, isa, a, from, limit, budget, &opt, NULL, words, n);
}

int cli_read_image_within(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, cli_words_from from,
                          size_t limit, const cli_budget *budget, cli_image *image, gisa_word **words, size_t *n)
{
    gisa_asm_options opt = GISA_ASM_OPTIONS_INIT;
    image->data = NULL;
    image->len = 0;
    return read_words(cmd, isa, a, from, limit, budget, &opt, image, words, n);
}

int cli_read_words(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, cli_words_from from, size_t limit,
                   gisa_word **words, size_t *n)
{
    return cli_read_words_within(cmd, isa, a, from, limit, NULL, words, n);
}

int cli_assemble_input(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, size_t limit,
                       const cli_budget *budget, gisa_status (*line)(void *user, const gisa_asm_line *l), void *user,
                       gisa_word **words, size_t *n)
{
    gisa_asm_options opt = GISA_ASM_OPTIONS_INIT;
    opt.line = line;
    opt.user = user;
    return read_words(cmd, isa, a, CLI_WORDS_ASM, limit, budget, &opt, NULL, words, n);
}

int cli_parse_and_load(const cli_cmd *cmd, int argc, char **argv, cli_args *a, gisa_isa **isa, const char **source,
                       size_t *warnings)
{
    int r = cli_parse(cmd, argc, argv, a);
    return r != CLI_CONTINUE ? r : cli_load_isa(a, isa, source, warnings);
}

int cli_load_for_output(const cli_cmd *cmd, const cli_args *a, const char *out, gisa_isa **isa)
{
    if (out && !*out)
        return cli_usage_error(cmd, "-o needs a file name");
    const char *source;
    return cli_load_isa(a, isa, &source, NULL);
}
