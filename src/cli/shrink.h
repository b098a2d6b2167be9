/* What `gisa shrink` (cmd_shrink.c) and its reproducer bundle
 * (shrink_bundle.c) share. */
#ifndef GISA_CLI_SHRINK_H
#define GISA_CLI_SHRINK_H
#include <stddef.h>

#include "common.h"

/* The leading `//` lines of a program (what `gisa gen` writes there: its
 * command line, the expected fault): their length in bytes. */
size_t shrink_header_len(const char *text, size_t len);

/* What a bundle holds and says. */
typedef struct shrink_bundle {
    const char *prog;          /* the shrunk program, header included */
    size_t prog_len;
    const char *state;         /* the shrunk state (NULL: none) */
    size_t state_len;
    char **command;            /* the command as given, with "{}" appended where shrink appended the path */
    int ncommand;
    int status;                /* what the command exited with on the result (-1: it passed) */
    int status_required;       /* --status N: only that status counts as failing */
    size_t lines_before, lines_after, prog_bytes_before, state_bytes_before;
    size_t runs;
} shrink_bundle;

/* The placeholders of the command's arguments. */
#define SHRINK_PROG "{}"
#define SHRINK_PROG_LONG "{prog}"
#define SHRINK_STATE "{state}"

/* Checks before the long work that DIR can become a bundle (absent, an
 * empty directory or an earlier bundle): CLI_CONTINUE or EXIT_USAGE. */
int shrink_bundle_check(const cli_cmd *cmd, const char *dir);
/* Writes DIR whole (prog.s, state.json, repro.sh, bundle.json last, as the
 * marker of cli_outdir): EXIT_OK or EXIT_USAGE, nothing half-written. */
int shrink_bundle_write(const cli_cmd *cmd, const char *dir, const shrink_bundle *b);
#endif
