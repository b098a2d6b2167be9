/* The message layer: JSON-RPC 2.0 requests, responses and notifications
 * (framed by frame.c), the lifecycle (initialize, shutdown, exit; the
 * client's options in options.c), cancellation and the document
 * notifications; the language features are in asm.c, tokens.c, actions.c
 * and isa.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"

#define MAX_ID 256 /* the longest request id echoed back */

lsp_server *lsp_new(const lsp_options *opt)
{
    lsp_server *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->opt = *opt;
    s->exit_status = -1;
    sb_init(&s->out);
    return s;
}

static void doc_free(lsp_doc *d)
{
    if (!d)
        return;
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d->line);
    gisa_isa_free(d->model);
    free(d);
}

static void clear_cancelled(lsp_server *s)
{
    for (size_t i = 0; i < s->ncancelled; i++)
        free(s->cancelled[i]);
    free(s->cancelled);
    s->cancelled = NULL;
    s->ncancelled = 0;
}

void lsp_free(lsp_server *s)
{
    if (!s)
        return;
    gisa_isa_free(s->own_isa);
    free(s->own_target);
    for (size_t i = 0; i < s->nown_strs; i++)
        free(s->own_strs[i]);
    free(s->own_strs);
    free(s->own_dirs);
    for (int i = 0; i < s->ndocs; i++)
        doc_free(s->docs[i]);
    clear_cancelled(s);
    free(s->in);
    sb_free(&s->out);
    free(s);
}

void lsp_input(lsp_server *s, const char *data, size_t n)
{
    if (s->discard) { /* the rest of a message too long to keep */
        size_t k = n < s->discard ? n : s->discard;
        s->discard -= k;
        data += k;
        n -= k;
    }
    if (!n)
        return;
    if (s->in_start && s->in_start == s->in_len)
        s->in_start = s->in_len = 0;
    if (s->in_len + n > s->in_cap) {
        if (s->in_start) { /* drop what was handled before growing */
            memmove(s->in, s->in + s->in_start, s->in_len - s->in_start);
            s->in_len -= s->in_start;
            s->in_start = 0;
        }
        size_t cap = s->in_cap ? s->in_cap : 4096;
        while (cap < s->in_len + n)
            cap *= 2;
        char *in = realloc(s->in, cap);
        if (!in)
            return; /* the bytes are lost; the framing resynchronises on the next header */
        s->in = in;
        s->in_cap = cap;
    }
    memcpy(s->in + s->in_len, data, n);
    s->in_len += n;
}

const char *lsp_output(const lsp_server *s, size_t *len)
{
    *len = s->out.len - s->out_sent;
    return s->out.s ? s->out.s + s->out_sent : "";
}

void lsp_output_done(lsp_server *s, size_t n)
{
    s->out_sent += n;
    if (s->out_sent >= s->out.len) {
        s->out.len = s->out_sent = 0;
        if (s->out.s)
            s->out.s[0] = 0;
        if (s->out.cap > ((size_t)1 << 24)) { /* give back a big answer's buffer */
            sb_free(&s->out);
            sb_init(&s->out);
        }
    }
}

int lsp_exit_status(const lsp_server *s) { return s->exit_status; }

/* ------------------------------------------------------------ sending */

static void send_body(lsp_server *s, const strbuf *body)
{
    if (body->failed) {
        static const char oom[] =
            "{\"jsonrpc\":\"2.0\",\"method\":\"window/logMessage\",\"params\":{\"type\":1,\"message\":\"gisa lsp: out of memory\"}}";
        sb_printf(&s->out, "Content-Length: %zu\r\n\r\n%s", sizeof oom - 1, oom);
        return;
    }
    sb_printf(&s->out, "Content-Length: %zu\r\n\r\n", body->len);
    sb_putn(&s->out, body->s, body->len);
}

void reply_begin(strbuf *b, const char *id)
{
    sb_printf(b, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":", id);
}

void reply_end(lsp_server *s, strbuf *b)
{
    sb_putc(b, '}');
    send_body(s, b);
}

void reply_error(lsp_server *s, const char *id, int code, const char *msg)
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":%d,\"message\":", id ? id : "null", code);
    jcstr(&b, msg);
    sb_puts(&b, "}}");
    send_body(s, &b);
    sb_free(&b);
}

void notify(lsp_server *s, const char *method, const char *params, size_t n)
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"%s\",\"params\":", method);
    sb_putn(&b, params, n);
    sb_putc(&b, '}');
    send_body(s, &b);
    sb_free(&b);
}

/* ------------------------------------------------------------ lifecycle */

const char *const lsp_token_types[] = {"keyword", "modifier", "variable", "parameter", "number",
                                       "property", "comment", "macro", "string", NULL};

static int offers_utf8(void *user, jspan el)
{
    json_val v;
    json_parser j;
    json_init(&j, el.s, el.n);
    if (!json_value(&j, &v) && v.type == JSON_STRING && v.n == 5 && !memcmp(v.s, "utf-8", 5))
        *(int *)user = 1;
    return 0;
}

static void initialize(lsp_server *s, jspan msg, const char *id)
{
    int utf8 = 0;
    client_options(s, msg);
    jeach(msg, "params.capabilities.general.positionEncodings", 16, offers_utf8, &utf8);
    s->utf8 = utf8;
    s->initialized = 1;
    strbuf b;
    sb_init(&b);
    reply_begin(&b, id);
    sb_printf(&b,
              "{\"capabilities\":{\"positionEncoding\":\"%s\","
              "\"textDocumentSync\":{\"openClose\":true,\"change\":2},"
              "\"hoverProvider\":true,"
              "\"completionProvider\":{\"triggerCharacters\":[\".\",\"@\"]},"
              "\"signatureHelpProvider\":{\"triggerCharacters\":[\" \",\",\"]},"
              "\"definitionProvider\":true,"
              "\"documentSymbolProvider\":true,"
              "\"codeActionProvider\":{\"codeActionKinds\":[\"quickfix\"]},"
              "\"semanticTokensProvider\":{\"legend\":{\"tokenTypes\":[",
              utf8 ? "utf-8" : "utf-16");
    for (int i = 0; lsp_token_types[i]; i++)
        sb_printf(&b, "%s\"%s\"", i ? "," : "", lsp_token_types[i]);
    sb_printf(&b, "],\"tokenModifiers\":[]},\"full\":true}},"
                  "\"serverInfo\":{\"name\":\"gisa\",\"version\":\"%s\"}}",
              gisa_version());
    reply_end(s, &b);
    sb_free(&b);
}

/* ------------------------------------------------------------ documents */

static void publish(lsp_server *s, lsp_doc *d, int clear)
{
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "{\"uri\":");
    jcstr(&b, d->uri);
    sb_puts(&b, ",\"diagnostics\":");
    if (clear)
        sb_puts(&b, "[]");
    else if (d->lang == LANG_ASM)
        asm_diagnostics(s, d, &b);
    else
        isa_diagnostics(s, d, &b);
    sb_putc(&b, '}');
    if (!b.failed)
        notify(s, "textDocument/publishDiagnostics", b.s, b.len);
    sb_free(&b);
    d->dirty = 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

static void did_open(lsp_server *s, jspan msg)
{
    char *uri = jget_str(msg, "params.textDocument.uri");
    char *lang = jget_str(msg, "params.textDocument.languageId");
    json_val v;
    if (!uri || !jget(msg, "params.textDocument.text", &v, NULL) || v.type != JSON_STRING)
        goto out;
    lsp_doc *d = doc_find(s, uri);
    if (!d) {
        if (s->ndocs >= LSP_MAX_DOCS)
            goto out;
        d = calloc(1, sizeof *d);
        if (!d || !(d->path = uri_to_path(uri))) {
            free(d);
            goto out;
        }
        d->uri = uri;
        uri = NULL;
        s->docs[s->ndocs++] = d;
    }
    d->lang = (lang && (!strcmp(lang, "gisa-isa") || !strcmp(lang, "isa"))) || ends_with(d->path, ".isa") ||
                      ends_with(d->path, ".isa.txt")
                  ? LANG_ISA
                  : LANG_ASM;
    char *text = malloc(v.n + 1);
    size_t n;
    if (text && (n = json_unescape(&v, text, v.n + 1)) != (size_t)-1)
        doc_set_text(d, text, n);
    free(text);
out:
    free(uri);
    free(lang);
}

/* Each change costs a pass over the document (moving the text, indexing
 * its lines): one notification may cost this many bytes of passes, so
 * that a million changes to a big document cannot stall the server. */
#define CHANGE_BUDGET ((size_t)1 << 30)

typedef struct change_ctx {
    lsp_server *s;
    lsp_doc *d;
    size_t work;
    int dropped;
} change_ctx;

static int apply_change(void *user, jspan ch)
{
    change_ctx *c = user;
    json_val v;
    c->work += c->d->len + ch.n;
    if (c->work > CHANGE_BUDGET) {
        c->dropped = 1;
        return 1;
    }
    if (!jget(ch, "text", &v, NULL) || v.type != JSON_STRING)
        return 0;
    char *text = malloc(v.n + 1);
    size_t n;
    if (!text || (n = json_unescape(&v, text, v.n + 1)) == (size_t)-1) {
        free(text);
        return 0;
    }
    lsp_pos a, z;
    if (read_pos(ch, "range.start", &a) && read_pos(ch, "range.end", &z)) {
        size_t from = doc_offset(c->s, c->d, a), to = doc_offset(c->s, c->d, z);
        doc_replace(c->d, from, to, text, n);
    } else {
        doc_set_text(c->d, text, n);
    }
    free(text);
    return 0;
}

static void did_change(lsp_server *s, jspan msg)
{
    char *uri = jget_str(msg, "params.textDocument.uri");
    lsp_doc *d = uri ? doc_find(s, uri) : NULL;
    free(uri);
    if (!d)
        return;
    change_ctx c = {s, d, 0, 0};
    jeach(msg, "params.contentChanges", LSP_MAX_CHANGES, apply_change, &c);
    if (c.dropped)
        show_message(s, 1, "gisa lsp: too many changes to a document this large in one notification; the rest were "
                           "dropped: close and reopen the document");
}

static void did_close(lsp_server *s, jspan msg)
{
    char *uri = jget_str(msg, "params.textDocument.uri");
    for (int i = 0; uri && i < s->ndocs; i++)
        if (!strcmp(s->docs[i]->uri, uri)) {
            publish(s, s->docs[i], 1);
            doc_free(s->docs[i]);
            s->docs[i] = s->docs[--s->ndocs];
            break;
        }
    free(uri);
}

/* ------------------------------------------------------------ requests */

/* A request about a document at a position: the document and the position,
 * or an error answered. */
static lsp_doc *target(lsp_server *s, jspan msg, const char *id, lsp_pos *p)
{
    char *uri = jget_str(msg, "params.textDocument.uri");
    lsp_doc *d = uri ? doc_find(s, uri) : NULL;
    free(uri);
    if (!d) {
        reply_error(s, id, E_INVALID_PARAMS, "params.textDocument.uri: not an open document");
        return NULL;
    }
    if (p && !read_pos(msg, "params.position", p)) {
        reply_error(s, id, E_INVALID_PARAMS, "params.position: expected {line, character}, non-negative integers");
        return NULL;
    }
    return d;
}

static void request(lsp_server *s, jspan msg, const char *method, const char *id)
{
    if (!strcmp(method, "initialize")) {
        if (s->initialized)
            reply_error(s, id, E_INVALID_REQUEST, "initialize: the server is initialized already");
        else
            initialize(s, msg, id);
        return;
    }
    if (!s->initialized) {
        reply_error(s, id, E_NOT_INITIALIZED, "the server is not initialized: send 'initialize' first");
        return;
    }
    if (s->shutdown) {
        reply_error(s, id, E_INVALID_REQUEST, "the server is shut down: only 'exit' is accepted");
        return;
    }
    strbuf b;
    sb_init(&b);
    lsp_pos p;
    lsp_doc *d;
    if (!strcmp(method, "shutdown")) {
        s->shutdown = 1;
        reply_begin(&b, id);
        sb_puts(&b, "null");
    } else if (!strcmp(method, "textDocument/hover")) {
        if (!(d = target(s, msg, id, &p)))
            goto out;
        reply_begin(&b, id);
        (d->lang == LANG_ASM ? asm_hover : isa_hover)(s, d, p, &b);
    } else if (!strcmp(method, "textDocument/completion")) {
        if (!(d = target(s, msg, id, &p)))
            goto out;
        reply_begin(&b, id);
        if (d->lang == LANG_ASM)
            asm_completion(s, d, p, &b);
        else
            sb_puts(&b, "null");
    } else if (!strcmp(method, "textDocument/signatureHelp")) {
        if (!(d = target(s, msg, id, &p)))
            goto out;
        reply_begin(&b, id);
        if (d->lang == LANG_ASM)
            asm_signature(s, d, p, &b);
        else
            sb_puts(&b, "null");
    } else if (!strcmp(method, "textDocument/definition")) {
        if (!(d = target(s, msg, id, &p)))
            goto out;
        reply_begin(&b, id);
        (d->lang == LANG_ASM ? asm_definition : isa_definition)(s, d, p, &b);
    } else if (!strcmp(method, "textDocument/documentSymbol")) {
        if (!(d = target(s, msg, id, NULL)))
            goto out;
        reply_begin(&b, id);
        if (d->lang == LANG_ISA)
            isa_symbols(s, d, &b);
        else
            sb_puts(&b, "[]");
    } else if (!strcmp(method, "textDocument/semanticTokens/full")) {
        if (!(d = target(s, msg, id, NULL)))
            goto out;
        reply_begin(&b, id);
        if (d->lang == LANG_ASM)
            asm_tokens(s, d, &b);
        else
            sb_puts(&b, "{\"data\":[]}");
    } else if (!strcmp(method, "textDocument/codeAction")) {
        if (!(d = target(s, msg, id, NULL)))
            goto out;
        reply_begin(&b, id);
        code_actions(s, d, msg, &b);
    } else {
        char m[128];
        snprintf(m, sizeof m, "unknown method '%.80s'", method);
        reply_error(s, id, E_NO_METHOD, m);
        goto out;
    }
    if (b.failed)
        reply_error(s, id, E_INTERNAL, "out of memory");
    else
        reply_end(s, &b);
out:
    sb_free(&b);
}

static void notification(lsp_server *s, jspan msg, const char *method)
{
    if (!strcmp(method, "exit")) {
        s->exit_status = s->shutdown ? 0 : 1;
        return;
    }
    if (!s->initialized || s->shutdown)
        return; /* notifications before initialize are dropped (LSP) */
    if (!strcmp(method, "textDocument/didOpen"))
        did_open(s, msg);
    else if (!strcmp(method, "textDocument/didChange"))
        did_change(s, msg);
    else if (!strcmp(method, "textDocument/didClose"))
        did_close(s, msg);
    /* initialized, didSave, $/cancelRequest (handled per batch),
     * $/setTrace and the others need nothing */
}

/* ------------------------------------------------------------ messages */

static int is_cancelled(const lsp_server *s, const char *id)
{
    for (size_t i = 0; i < s->ncancelled; i++)
        if (!strcmp(s->cancelled[i], id))
            return 1;
    return 0;
}

/* The id of a request: its JSON text (a number or a string), NULL for a
 * notification; *bad when it is there but neither. */
static char *read_id(jspan msg, int *bad)
{
    json_val v;
    jspan sp;
    *bad = 0;
    if (!jget(msg, "id", &v, &sp))
        return NULL;
    if ((v.type != JSON_NUMBER && v.type != JSON_STRING) || sp.n > MAX_ID) {
        *bad = 1;
        return NULL;
    }
    char *id = malloc(sp.n + 1);
    if (id) {
        memcpy(id, sp.s, sp.n);
        id[sp.n] = 0;
    }
    return id;
}

static void message(lsp_server *s, const char *body, size_t n)
{
    json_parser j;
    json_val v;
    json_init(&j, body, n);
    if (json_value(&j, &v) || json_skip(&j, &v) || json_finish(&j)) {
        char m[200];
        snprintf(m, sizeof m, "parse error at %d:%d: %s", j.err_line, j.err_col, j.error);
        reply_error(s, NULL, E_PARSE, m);
        return;
    }
    jspan msg = {body, n};
    int bad;
    char *id = read_id(msg, &bad);
    if (v.type != JSON_OBJECT || bad) {
        reply_error(s, NULL, E_INVALID_REQUEST, bad ? "invalid request: the id must be a number or a short string"
                                                    : "invalid request: expected a JSON object");
        free(id);
        return;
    }
    char *method = jget_str(msg, "method");
    if (!method) {
        json_val m;
        if (jget(msg, "method", &m, NULL) || !id) /* a bad method; or no method and no id */
            reply_error(s, id, E_INVALID_REQUEST, "invalid request: 'method' must be a string");
        /* else a response to a request of ours: the server sends none */
    } else if (id) {
        if (is_cancelled(s, id))
            reply_error(s, id, E_CANCELLED, "request cancelled");
        else
            request(s, msg, method, id);
    } else {
        notification(s, msg, method);
    }
    free(id);
    free(method);
}

static int mentions(const char *s, size_t n, const char *what)
{
    size_t m = strlen(what);
    for (const char *p = s; (p = memchr(p, what[0], n - (size_t)(p - s))) && (size_t)(s + n - p) >= m; p++)
        if (!memcmp(p, what, m))
            return 1;
    return 0;
}

/* Notes the id a $/cancelRequest names. */
static void note_cancel(lsp_server *s, const char *body, size_t n)
{
    jspan msg = {body, n};
    if (!mentions(body, n, "cancelRequest")) /* the other messages are not parsed twice */
        return;
    json_parser j;
    json_val v;
    json_init(&j, body, n);
    if (json_value(&j, &v) || json_skip(&j, &v) || json_finish(&j) || v.type != JSON_OBJECT)
        return;
    char *method = jget_str(msg, "method");
    jspan sp;
    if (method && !strcmp(method, "$/cancelRequest") && jget(msg, "params.id", &v, &sp) &&
        (v.type == JSON_NUMBER || v.type == JSON_STRING) && sp.n <= MAX_ID && s->ncancelled < 1024) {
        char **c = realloc(s->cancelled, (s->ncancelled + 1) * sizeof *c);
        char *id = malloc(sp.n + 1);
        if (c)
            s->cancelled = c;
        if (c && id) {
            memcpy(id, sp.s, sp.n);
            id[sp.n] = 0;
            s->cancelled[s->ncancelled++] = id;
        } else {
            free(id);
        }
    }
    free(method);
}

void lsp_process(lsp_server *s)
{
    /* first the cancellations among the whole messages at hand, so that a
     * request they name is answered as cancelled rather than run */
    size_t at = s->in_start, next;
    frame f;
    int r;
    clear_cancelled(s);
    while (at < s->in_len && s->exit_status < 0) {
        size_t before = s->out.len;
        r = frame_at(s, at, &f, &next);
        s->out.len = before; /* answered on the second pass */
        if (s->out.s)
            s->out.s[before] = 0;
        if (r == 0 || s->discard)
            break;
        if (r == 1)
            note_cancel(s, s->in + f.body, f.len);
        at = next;
    }
    s->discard = 0;
    while (s->in_start < s->in_len && s->exit_status < 0) {
        r = frame_at(s, s->in_start, &f, &next);
        if (r == 0)
            break;
        s->in_start = next;
        if (r == 1)
            message(s, s->in + f.body, f.len);
    }
    clear_cancelled(s);
    if (s->in_start == s->in_len)
        s->in_start = s->in_len = 0;
    if (s->exit_status >= 0)
        return;
    for (int i = 0; i < s->ndocs; i++)
        if (s->docs[i]->dirty)
            publish(s, s->docs[i], 0);
}
