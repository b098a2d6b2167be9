/* `gisa lsp`: a language server for gisa assembly and ISA description files
 * (docs/editors.md). The server is a state machine fed with the bytes the
 * client sends; it answers into an output buffer, so that the program's loop
 * (src/cli/cmd_lsp.c), the tests and the fuzzer (fuzz/fuzz_lsp.c) drive the
 * same code. It never reads the client's stream itself and never blocks. */
#ifndef GISA_LSP_LSP_H
#define GISA_LSP_LSP_H
#include <stddef.h>

#include "gisa.h"

/* Bounds that keep every input finite (the server must not run out of
 * memory or time on any input). */
#define LSP_MAX_MESSAGE ((size_t)64 << 20) /* one message's body */
#define LSP_MAX_HEADER 8192                /* one message's header block */
#define LSP_MAX_DOCS 256                   /* documents open at once */
#define LSP_MAX_CHANGES 100000             /* content changes in one didChange */

typedef struct lsp_options {
    /* the ISA for assembly documents (the caller's; it outlives the server) */
    const gisa_isa *isa;
    /* the target whose types and rulings description files are read with */
    const char *target;
    /* directories searched for `.include` files after the including file's */
    const char *const *include_dirs;
    size_t ninclude_dirs;
    /* where the embedded descriptions are written for go-to-definition
     * (NULL: no definitions into embedded descriptions) */
    const char *cache_dir;
    /* 0: read from the disk; 1: the fuzzer's mode, which never touches the
     * file system (no include, no description directory, no cache) */
    int no_files;
} lsp_options;

typedef struct lsp_server lsp_server;

/* NULL when out of memory. The options' strings must outlive the server.
 * The client may choose another ISA, target and include directories in
 * `initialize` (initializationOptions: "isa" and "isaAdd", arrays of files
 * and directories, "target", "includeDirs"; docs/editors.md). */
lsp_server *lsp_new(const lsp_options *opt);
void lsp_free(lsp_server *s);
/* Takes bytes from the client. They are handled by lsp_process. */
void lsp_input(lsp_server *s, const char *data, size_t n);
/* Handles every whole message taken so far (a request cancelled by a later
 * message of the same batch is answered as cancelled), then publishes the
 * diagnostics of the documents that changed. */
void lsp_process(lsp_server *s);
/* The bytes to send to the client (framed messages); lsp_output_done says
 * that n of them were sent. */
const char *lsp_output(const lsp_server *s, size_t *len);
void lsp_output_done(lsp_server *s, size_t n);
/* -1 while the server runs; after the `exit` notification its exit status
 * (0 when `shutdown` came first, else 1). */
int lsp_exit_status(const lsp_server *s);
#endif
