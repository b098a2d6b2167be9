/* `gisa lsp`: the language server on standard input and output. The server
 * (src/lsp/) is fed whatever has arrived, all of it, before it answers: a
 * `$/cancelRequest` that came with its request cancels it, and edits typed
 * in a burst are checked once. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "lsp/lsp.h"

enum { O_INCLUDE, O_CACHE };
static const cli_opt opts[] = {
    {"include-dir", 'I', "DIRS", "search the ':'-separated DIRS for .include files (after the including file's directory)"},
    {"cache-dir", 0, "DIR", "where the embedded descriptions are written for go-to-definition (default: $XDG_CACHE_HOME/gisa, else ~/.cache/gisa)"},
};

#define MAX_INCLUDE_DIRS 64
#define BATCH ((size_t)16 << 20) /* bytes taken before answering, at most */

static char *default_cache(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *base = xdg && *xdg ? xdg : home && *home ? home : NULL;
    if (!base)
        return NULL;
    size_t n = strlen(base) + 64;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s/gisa/lsp-%s", base, xdg && *xdg ? "" : "/.cache", gisa_version());
    return p;
}

static int send_all(lsp_server *s)
{
    size_t n;
    const char *out = lsp_output(s, &n);
    if (n && cli_write_all(STDOUT_FILENO, out, n))
        return -1;
    lsp_output_done(s, n);
    return 0;
}

static int serve(lsp_server *s)
{
    static char buf[1 << 16];
    for (;;) {
        /* wait for input, then take all that is there */
        size_t taken = 0;
        int eof = 0;
        for (;;) {
            struct pollfd p = {STDIN_FILENO, POLLIN, 0};
            int r = poll(&p, 1, taken ? 0 : -1);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (n <= 0) {
                eof = 1;
                break;
            }
            lsp_input(s, buf, (size_t)n);
            taken += (size_t)n;
            if (taken >= BATCH)
                break;
        }
        lsp_process(s);
        if (send_all(s))
            return EXIT_USAGE;
        if (lsp_exit_status(s) >= 0)
            return lsp_exit_status(s);
        if (eof)
            return EXIT_INPUT; /* the client went away without `exit` */
    }
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    gisa_isa *isa;
    const char *source;
    int r = cli_parse_and_load(cmd, argc, argv, &a, &isa, &source, NULL);
    if (r != CLI_CONTINUE)
        return r;
    const char *dirs[MAX_INCLUDE_DIRS];
    size_t ndirs = 0;
    char *inc = a.val[O_INCLUDE] ? strdup(a.val[O_INCLUDE]) : NULL;
    for (char *save = NULL, *d = inc ? strtok_r(inc, ":", &save) : NULL; d && ndirs < MAX_INCLUDE_DIRS;
         d = strtok_r(NULL, ":", &save))
        dirs[ndirs++] = d;
    char *cache = a.val[O_CACHE] ? strdup(a.val[O_CACHE]) : default_cache();
    lsp_options o = {isa, a.target, dirs, ndirs, cache, 0};
    lsp_server *s = lsp_new(&o);
    if (!s) {
        cli_error(cmd, "out of memory");
        r = EXIT_INPUT;
    } else {
        signal(SIGPIPE, SIG_IGN); /* a client gone is a write error, not a signal */
        r = serve(s);
    }
    lsp_free(s);
    free(cache);
    free(inc);
    gisa_isa_free(isa);
    return r;
}

const cli_cmd cmd_lsp = {
    "lsp",
    "[OPTIONS]",
    "language server for assembly and ISA description files (stdio)",
    "Speaks the Language Server Protocol (JSON-RPC 2.0 with Content-Length\n"
    "framing) on standard input and output, for gisa assembly (*.s, *.gisa)\n"
    "and ISA description files (*.isa): diagnostics as you type, hover,\n"
    "completion, signature help, go-to-definition, semantic tokens, code\n"
    "actions and document symbols. The common options (--isa, --isa-add,\n"
    "--target) choose the ISA of assembly documents; a description file is\n"
    "linted with the description files of its directory. See docs/editors.md\n"
    "for the editors' configuration. Exit status 0 after `shutdown` and `exit`,\n"
    "1 when the client leaves without them.\n",
    opts,
    sizeof opts / sizeof opts[0],
    0,
    run,
};
