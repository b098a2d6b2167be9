/* Shared plumbing of the gisa subcommands: option parsing, ISA loading,
 * diagnostics printing, reading inputs and writing outputs atomically.
 * The CLI is a thin layer over include/gisa.h and uses nothing else, but
 * for the reading of files it shares with the DPI wrapper (the library's
 * src/common/readfile.h: whole inputs and the `.include` reader). */
#ifndef GISA_CLI_COMMON_H
#define GISA_CLI_COMMON_H
#include <stddef.h>
#include <stdio.h>

#include "gisa.h"


/* Exit statuses, the same for every subcommand (listed in `gisa --help`). */
enum {
    EXIT_OK = 0,
    EXIT_INPUT = 1, /* bad source, description or lint errors, invalid words with --strict,
                     * an input over a limit or too large for memory */
    EXIT_USAGE = 2, /* bad command line, or a file that cannot be opened/written */
    EXIT_FAULT = 3  /* the simulated program faulted */
};

/* cli_parse and friends return this when the command should go on. */
#define CLI_CONTINUE (-1)

#define CLI_MAX_OPTS 32
#define CLI_MAX_POS 8
#define CLI_MAX_ISA 64 /* --isa options on one command line */

/* One subcommand-specific option; `arg` names its argument (NULL: a flag). */
typedef struct cli_opt {
    const char *name; /* long name without "--" */
    char short_name;  /* 0: none */
    const char *arg;
    const char *help;
} cli_opt;

typedef struct cli_cmd cli_cmd;

/* The parsed command line of one subcommand. */
typedef struct cli_args {
    const cli_cmd *cmd;
    const char *val[CLI_MAX_OPTS]; /* option i's value ("" for a flag), NULL when absent */
    const char *isa[CLI_MAX_ISA]; /* the --isa values, in order (each a ':'-separated list) */
    size_t nisa;
    const char *isa_add[CLI_MAX_ISA]; /* the --isa-add values, likewise */
    size_t nisa_add;
    const char *overlay_dir, *target;
    const char *max_memory; /* the global --max-memory (as, dis and run have their own, the same) */
    const char *pos[CLI_MAX_POS];
    size_t npos;
    /* the argument after an option whose value is optional ("--trace
     * t.txt"), taken as positional: named in the hints of errors about it */
    const char *optional_next, *optional_name;
} cli_args;

struct cli_cmd {
    const char *name;
    const char *synopsis; /* after "gisa NAME " */
    const char *summary;  /* one line for `gisa --help` */
    const char *details;  /* extra help text, or NULL */
    const cli_opt *opts;  /* nopts entries */
    size_t nopts;
    size_t max_pos;
    int (*run)(const cli_cmd *cmd, int argc, char **argv);
};

extern const cli_cmd cmd_lint, cmd_doc, cmd_as, cmd_dis, cmd_run, cmd_trace_diff, cmd_gen, cmd_shrink,
    cmd_cov, cmd_regress, cmd_prove, cmd_lsp;

/* Parses argv[1..argc) (argv[0] is the command name). Returns CLI_CONTINUE,
 * or an exit status after printing help (0) or a usage error (2). */
int cli_parse(const cli_cmd *cmd, int argc, char **argv, cli_args *a);
void cli_print_help(const cli_cmd *cmd, FILE *f);
/* "gisa CMD: message" plus the --help hint; returns EXIT_USAGE. */
int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "gisa CMD: message" on stderr. */
void cli_error(const cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Global options shared by every subcommand, for `gisa --help` and main. */
void cli_print_global_options(FILE *f);
/* 1 if `name` is a global option taking a value (--isa, ...), 0 if a global
 * flag, -1 if it is not global. `name` is argv text such as "--isa=x". */
int cli_global_option_kind(const char *arg);

/* Loads the ISA the options select (--isa, $GISA_ISA, else embedded)
 * within --max-memory (gisa_load_options.max_memory) and prints its
 * diagnostics to stderr. Returns CLI_CONTINUE or an exit status.
 * *source describes it ("embedded gisa128", or the paths, ", "-separated). */
int cli_load_isa(const cli_args *a, gisa_isa **isa, const char **source, size_t *warnings);

/* Prints each diagnostic on its own line; those naming "<input>" (the library's
 * name for an anonymous buffer) are shown under `input_name` when given. */
void cli_print_diags(FILE *f, const gisa_diags *d, int with_source, const char *input_name);
/* A new diagnostics list (gisa_diags_new), NULL when out of memory. */
gisa_diags *cli_diags(void);
/* A state file's text applied to sim (gisa_state_parse, then
 * gisa_sim_state_apply). */
/* Reads and parses the state file at path into *st (its diagnostics
 * printed); CLI_CONTINUE, or the exit status after "bad state file;
 * nothing was WHAT". */
int cli_read_state(const cli_cmd *cmd, const char *path, gisa_state **st, const char *what);
gisa_status cli_state_read(gisa_sim *sim, const char *name, const char *text, size_t len, gisa_diags *d);

/* Reads a whole file ("-" or NULL: stdin). Returns CLI_CONTINUE or an exit
 * status after printing the reason. *buf is malloc'd and NUL-terminated. */
int cli_read_input(const cli_cmd *cmd, const char *path, char **buf, size_t *len);
/* The outputs of one command, written all or nothing: each regular file
 * goes to a temporary file beside it, and none is renamed over its file
 * until every one is whole on disk (fsync). Standard output and devices
 * (/dev/null, a FIFO) cannot be renamed over: they are written in place,
 * after the temporaries are whole and before any rename, so that a failed
 * temporary writes nothing anywhere, and a failed device replaces no file.
 * On any failure every temporary is removed (SIGINT/SIGTERM/SIGHUP remove
 * them too). */
#define CLI_MAX_OUTPUTS 4
typedef struct cli_outfile {
    char *shown, *real;  /* the path as given; the file a link points to */
    const char *target;
    FILE *f;
    int slot;            /* its temporary (io.c), -1: written in place */
    unsigned mode;
    const char *data;    /* cli_outset_put in place: written at the commit */
    size_t len;
} cli_outfile;
typedef struct cli_outset {
    const cli_cmd *cmd;
    size_t n;
    cli_outfile out[CLI_MAX_OUTPUTS];
} cli_outset;
void cli_outset_init(cli_outset *s, const cli_cmd *cmd);
/* An output written as it is produced ("-": stdout): the stream to write,
 * or NULL after printing the reason. Write errors show at the commit. */
FILE *cli_outset_open(cli_outset *s, const char *path);
/* An output made in memory: `data` must stay valid until the commit.
 * EXIT_OK, or EXIT_USAGE after printing why. */
int cli_outset_put(cli_outset *s, const char *path, const char *data, size_t len);
/* Puts every output in place: EXIT_OK, or EXIT_USAGE after printing why
 * with every file as it was (but a device already written). */
int cli_outset_commit(cli_outset *s);
/* Puts what is written so far on disk (errors show at the commit): a
 * commit under a lock then holds it for less time. */
void cli_outset_sync(cli_outset *s);
/* Removes every temporary (after an error). */
void cli_outset_abort(cli_outset *s);
/* A set of one output (path "-": stdout). */
int cli_write_output(const cli_cmd *cmd, const char *path, const char *buf, size_t len);

/* `run --coverage FILE` (cmd_cov.c): begin checks FILE (when it exists),
 * makes this run's coverage and attaches it to sim, and opens FILE's lock
 * (FILE.lock); path NULL does nothing. commit, when status is EXIT_OK or
 * EXIT_FAULT, takes the lock, adds FILE as it is now to the run's
 * coverage, puts it into the set and commits the set, then releases the
 * lock; on another status it aborts the set. It returns status, or the
 * commit's error. */
typedef struct cli_covfile {
    gisa_cov *cov;
    const char *path;
    int lock; /* the lock file, -1: none */
} cli_covfile;
int cli_cov_begin(const cli_cmd *cmd, const gisa_isa *isa, gisa_sim *sim, const char *path, const char *bins,
                  cli_covfile *cf);
/* Adds the user bins of bins file `path` to cov (CLI_CONTINUE, or an exit
 * status after saying why). */
int cli_cov_bins(const cli_cmd *cmd, gisa_cov *cov, const char *path);
int cli_cov_commit(const cli_cmd *cmd, cli_covfile *cf, cli_outset *set, int status);
/* Writes all len bytes to fd, retrying short writes and EINTR. Returns 0,
 * or -1 with errno set. */
int cli_write_all(int fd, const char *buf, size_t len);

/* A directory written whole (`gisa doc --html DIR`): the files go into
 * DIR.tmpXXXXXX beside it, which replaces DIR only once every file is
 * written. DIR may be absent, an empty directory, or a directory an earlier
 * run wrote (it holds the file named `marker`); anything else is refused
 * and left as it was. On any error the temporary directory is removed; a
 * run killed midway can leave it behind, never a half-written DIR. */
typedef struct cli_outdir {
    const cli_cmd *cmd;
    const char *dir;    /* as given, for messages */
    const char *marker; /* the file that marks a directory as ours */
    const char *marker_data; /* its contents (NULL: empty), written last */
    size_t marker_len;
    char target[4096];  /* dir without trailing slashes */
    char tmp[4096 + 16];
    int failed;         /* an add failed; commit refuses */
} cli_outdir;
int cli_outdir_begin(const cli_cmd *cmd, const char *dir, const char *marker, cli_outdir *o);
/* Writes one file (a plain name: no '/', no leading '.'). */
int cli_outdir_add(cli_outdir *o, const char *name, const char *data, size_t len);
/* Writes the marker and puts the directory in place. */
int cli_outdir_commit(cli_outdir *o);
/* Removes the temporary directory (after an error). */
void cli_outdir_abort(cli_outdir *o);

/* Inputs, noted as they are opened (cli_read_input and the `.include`
 * reader do it), so that no output replaces one. */
void cli_note_input(int fd, const char *name);
void cli_note_input_path(const char *path);
void cli_inputs_free(void);
/* Refuses (EXIT_USAGE, nothing written) an output that is an input noted
 * so far or a description file of the command line, or that another output
 * names too, by (st_dev, st_ino) for existing files and by resolved path
 * for new ones; stdout, devices and NULL entries are skipped. `inout` (may
 * be NULL) may be both (a coverage file that a run adds to). Else
 * CLI_CONTINUE. */
int cli_check_outputs(const cli_cmd *cmd, const cli_args *a, const char *const *outputs, size_t n, const char *inout);
/* Parses a size: a count of bytes with an optional K, M, G or T suffix
 * (powers of 1024). Returns 0 on success. */
int cli_parse_size(const char *s, size_t *out);
/* When `need` bytes exceed the limit (`opt`, the --max-memory value, else
 * `dflt`), prints the estimate, what it is made of (`detail`), the limit
 * and the option that raises it, and returns EXIT_INPUT; else CLI_CONTINUE
 * (EXIT_USAGE for a bad opt). `what` names the work ("this run"). */
int cli_check_memory(const cli_cmd *cmd, const char *what, const char *detail, size_t need, const char *opt,
                     size_t dflt);
#define CLI_DEFAULT_MAX_MEMORY ((size_t)4 << 30)
/* n bytes for a message: "1.5 GiB", "300 MiB", "12 KiB", "100 bytes". */
void cli_human_size(char *buf, size_t cap, size_t n);
/* CLI_CONTINUE when the --max-memory value `opt` (may be NULL) is a size,
 * else a usage error. */
int cli_check_size_option(const cli_cmd *cmd, const char *opt);
/* Reads the input named by the first positional argument (none or "-":
 * stdin) and turns it into words: assembles it, or parses a binary or hex
 * image. Prints the diagnostics (at most `limit`, 0: no limit) and, on
 * errors, their count. Returns CLI_CONTINUE with *words malloc'd, or an exit
 * status. */
typedef enum cli_words_from { CLI_WORDS_ASM, CLI_WORDS_BIN, CLI_WORDS_HEX } cli_words_from;
int cli_read_words(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, cli_words_from from, size_t limit,
                   gisa_word **words, size_t *n);
/* The memory `as` and `dis` will hold, checked once the input is read and
 * before it is processed: the input, its words (an upper bound: the lines
 * and ';' of a source, the size of an image), `per_word` bytes of output
 * per word and `fixed` bytes of output buffer (a streamed output). `max_memory`
 * is the --max-memory value (NULL: the default). */
typedef struct cli_budget {
    const char *max_memory;
    size_t per_word, fixed;
} cli_budget;
int cli_read_words_within(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, cli_words_from from,
                          size_t limit, const cli_budget *budget, gisa_word **words, size_t *n);
/* cli_read_words_within, except that a binary image of whole words comes
 * back as its bytes (image->data, malloc'd; *words NULL) for the caller to
 * convert a slice at a time with gisa_words_parse: a large image's words
 * are then never all in memory beside its bytes. Any other input comes
 * back as words (image->data NULL). */
typedef struct cli_image {
    char *data;
    size_t len;
} cli_image;
int cli_read_image_within(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, cli_words_from from,
                          size_t limit, const cli_budget *budget, cli_image *image, gisa_word **words, size_t *n);
/* cli_read_words_within for assembly, with a listing callback (gisa_asm_options.line). */
int cli_assemble_input(const cli_cmd *cmd, const gisa_isa *isa, const cli_args *a, size_t limit,
                       const cli_budget *budget, gisa_status (*line)(void *user, const gisa_asm_line *l), void *user,
                       gisa_word **words, size_t *n);
/* For commands that write a file: rejects an empty -o, then loads the ISA. */
int cli_load_for_output(const cli_cmd *cmd, const cli_args *a, const char *out, gisa_isa **isa);
/* cli_parse, then cli_load_isa: the start of every command. */
int cli_parse_and_load(const cli_cmd *cmd, int argc, char **argv, cli_args *a, gisa_isa **isa, const char **source,
                       size_t *warnings);
/* Shown for an input path in messages: the path, or "<stdin>". */
const char *cli_input_name(const char *path);

/* Parses a non-negative decimal count. Returns 0 on success. */
int cli_parse_count(const char *s, size_t *out);
/* Levenshtein distance, case-insensitive; for "did you mean" hints. */
size_t cli_edit_distance(const char *a, const char *b);
#endif
