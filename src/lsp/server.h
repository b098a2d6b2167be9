/* The language server's internals shared by its files: the documents, the
 * JSON the messages are read from and written to, positions. */
#ifndef GISA_LSP_SERVER_H
#define GISA_LSP_SERVER_H
#include <stddef.h>

#include "common/json.h"
#include "common/strbuf.h"
#include "lsp/lsp.h"

/* ------------------------------------------------------------ JSON in */

/* A stretch of JSON text holding one whole value. */
typedef struct jspan {
    const char *s;
    size_t n;
} jspan;

/* The value at `path` in span: keys separated by '.', a number picks an
 * element of an array ("params.contentChanges.0.range"). 1 when found (*v
 * its start, *out its whole text; either may be NULL), else 0. The span
 * must be valid JSON (the message was checked whole first). */
int jget(jspan in, const char *path, json_val *v, jspan *out);
/* A string at path, unescaped and NUL-terminated (release with free);
 * NULL when absent, not a string, holding a NUL, or out of memory. */
char *jget_str(jspan in, const char *path);
/* An integer at path within [0, INT_MAX]: 1 and *out, else 0. */
int jget_int(jspan in, const char *path, int *out);
/* Calls fn for each element of the array at path (at most max); returns
 * the count, or -1 when path is no array. fn returning nonzero stops. */
int jeach(jspan in, const char *path, int max, int (*fn)(void *user, jspan el), void *user);
/* 1 when the value at path is true. */
int jget_true(jspan in, const char *path);

/* ------------------------------------------------------------ JSON out */

/* A JSON string of s[0..n) (invalid UTF-8 bytes become U+FFFD, so that the
 * output is always valid JSON). */
void jstr(strbuf *b, const char *s, size_t n);
void jcstr(strbuf *b, const char *s);

/* ------------------------------------------------------------ documents */

enum { LANG_ASM, LANG_ISA };

typedef struct lsp_doc {
    char *uri;
    char *path; /* the file of a file: URI (decoded), else the URI */
    int lang;
    char *text;
    size_t len, cap;
    size_t *line; /* offsets of the lines' starts */
    size_t nlines, lcap;
    int dirty;    /* changed since its diagnostics were published */
    gisa_isa *model; /* description files: the model last loaded with this text, or NULL */
} lsp_doc;

typedef struct lsp_pos {
    int line, character;
} lsp_pos;

struct lsp_server {
    lsp_options opt;
    char *in;   /* bytes taken, not yet handled: in[in_start..in_len) */
    size_t in_len, in_cap, in_start;
    size_t discard; /* bytes of an over-long message still to drop */
    strbuf out;
    size_t out_sent;
    int initialized, shutdown, exit_status;
    int utf8; /* positions count bytes (negotiated), else UTF-16 code units */
    lsp_doc *docs[LSP_MAX_DOCS];
    int ndocs;
    /* cancelled request ids of the batch being handled (their JSON text) */
    char **cancelled;
    size_t ncancelled;
    /* what the client's initializationOptions chose: the ISA of assembly
     * documents (loaded here, replacing the options'), the target, the
     * include directories (the options' and then the client's) */
    gisa_isa *own_isa;
    char *own_target;
    char **own_strs;
    size_t nown_strs;
    const char **own_dirs;
};

lsp_doc *doc_find(lsp_server *s, const char *uri);
/* Replaces the whole text (0, or -1 when out of memory). */
int doc_set_text(lsp_doc *d, const char *text, size_t len);
/* Replaces the range [from, to) (byte offsets) by text[0..len). */
int doc_replace(lsp_doc *d, size_t from, size_t to, const char *text, size_t len);
/* The byte offset of a position (clamped to the document). */
size_t doc_offset(const lsp_server *s, const lsp_doc *d, lsp_pos p);
/* The position of a byte offset. */
lsp_pos doc_pos(const lsp_server *s, const lsp_doc *d, size_t off);
/* Line `i` (0-based) as text[*start .. *end) without its newline; 0 when
 * there is no such line. */
int doc_line(const lsp_doc *d, int i, size_t *start, size_t *end);
/* The position of code point `cp` (0-based) of line `i`. */
lsp_pos doc_cp_pos(const lsp_server *s, const lsp_doc *d, int line, int cp);
/* A position read from a message at path ("params.position"). */
int read_pos(jspan msg, const char *path, lsp_pos *p);
void put_range(strbuf *b, lsp_pos a, lsp_pos z);
/* One Diagnostic object of a publishDiagnostics array (first: no comma
 * before it): the range a..z, g's severity and category, the message. */
void put_diagnostic(strbuf *b, int first, lsp_pos a, lsp_pos z, const gisa_diag *g, const char *source,
                    const strbuf *msg);
/* file:// URIs and paths */
char *uri_to_path(const char *uri);
void put_uri(strbuf *b, const char *path);

/* ------------------------------------------------------------ messages */

/* JSON-RPC and LSP error codes */
enum {
    E_PARSE = -32700,
    E_INVALID_REQUEST = -32600,
    E_NO_METHOD = -32601,
    E_INVALID_PARAMS = -32602,
    E_INTERNAL = -32603,
    E_NOT_INITIALIZED = -32002,
    E_CANCELLED = -32800
};

/* One message's place in the input. */
typedef struct frame {
    size_t body, len;
} frame;

/* Parses the header block at s->in[at..) (frame.c): 1 with the frame (and
 * *next after it) when the whole message is there, 0 when more input is
 * needed, -1 after answering a bad header (*next past what is dropped). */
int frame_at(lsp_server *s, size_t at, frame *f, size_t *next);
/* The client's initializationOptions (options.c). */
void client_options(lsp_server *s, jspan msg);

/* ------------------------------------------------------------ replies */

/* An error response (id NULL: null). */
void reply_error(lsp_server *s, const char *id, int code, const char *msg);
/* A window/showMessage notification (type 1: error). */
void show_message(lsp_server *s, int type, const char *text);

/* Starts a response {"jsonrpc":"2.0","id":ID,"result": ... the caller
 * writes the result, then reply_end. */
void reply_begin(strbuf *b, const char *id);
void reply_end(lsp_server *s, strbuf *b);
/* Sends a notification whose params are `params` (JSON text). */
void notify(lsp_server *s, const char *method, const char *params, size_t n);

/* ------------------------------------------------------------ languages */

/* Each writes the JSON result of the request into b (null when nothing). */
void asm_diagnostics(lsp_server *s, lsp_doc *d, strbuf *b);
void asm_hover(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b);
void asm_completion(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b);
void asm_definition(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b);
void asm_signature(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b);
void asm_tokens(lsp_server *s, lsp_doc *d, strbuf *b);
void code_actions(lsp_server *s, lsp_doc *d, jspan msg, strbuf *b);

void isa_diagnostics(lsp_server *s, lsp_doc *d, strbuf *b);
void isa_hover(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b);
void isa_definition(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b);
void isa_symbols(lsp_server *s, lsp_doc *d, strbuf *b);

/* The Location of a description's definition (file:line:col) into b; 0
 * when it has no file the client can open (b unchanged). */
int put_def_location(lsp_server *s, const char *file, int line, int col, strbuf *b);

/* The semantic token types, in the order of the legend. */
extern const char *const lsp_token_types[];
#endif
