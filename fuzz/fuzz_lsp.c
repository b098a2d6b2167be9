/* libFuzzer harness: the language server (src/lsp) fed arbitrary client
 * bytes. Byte 0 picks the target (the ISA of assembly documents); byte 1
 * the mode: bit 0 set, the rest is the raw byte stream (headers and all);
 * clear, it is message bodies separated by lines "%%", each framed here
 * with its Content-Length (so that the fuzzer spends its time on the
 * messages, not on the framing); bit 1 sends an `initialize` first (bit 2:
 * offering UTF-8 positions); bits 3-7 cut the stream into pieces of that
 * many bytes times 7, each handled before the next comes (0: all at once).
 * The server reads no file (lsp_options.no_files). Properties: it never
 * crashes, and everything it writes is a sequence of whole frames
 * ("Content-Length: N\r\n\r\n" and N bytes), each a JSON object with
 * "jsonrpc": "2.0". */
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/strbuf.h"
#include "fuzz_target.h"
#include "lsp/lsp.h"

/* The first "\n%%\n" in text[0..n), or NULL. */
static const char *separator(const char *text, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++)
        if (!memcmp(text + i, "\n%%\n", 4))
            return text + i;
    return NULL;
}

static int has(const char *s, size_t n, const char *what)
{
    size_t m = strlen(what);
    for (size_t i = 0; i + m <= n; i++)
        if (!memcmp(s + i, what, m))
            return 1;
    return 0;
}

static void check_output(const char *out, size_t n)
{
    size_t at = 0;
    while (at < n) {
        static const char head[] = "Content-Length: ";
        if (n - at < sizeof head - 1 || memcmp(out + at, head, sizeof head - 1))
            abort(); /* not a header */
        at += sizeof head - 1;
        size_t len = 0;
        while (at < n && out[at] >= '0' && out[at] <= '9')
            len = len * 10 + (size_t)(out[at++] - '0');
        if (n - at < 4 || memcmp(out + at, "\r\n\r\n", 4))
            abort();
        at += 4;
        if (n - at < len)
            abort(); /* a body cut short */
        json_parser j;
        json_val v;
        json_init(&j, out + at, len);
        if (json_value(&j, &v) || v.type != JSON_OBJECT || json_skip(&j, &v) || json_finish(&j))
            abort(); /* the server wrote invalid JSON */
        if (!has(out + at, len, "\"jsonrpc\":\"2.0\""))
            abort();
        at += len;
    }
}

static void feed(lsp_server *s, const char *data, size_t n, size_t piece)
{
    for (size_t at = 0; at < n && lsp_exit_status(s) < 0;) {
        size_t k = piece && n - at > piece ? piece : n - at;
        lsp_input(s, data + at, k);
        lsp_process(s);
        size_t len;
        const char *out = lsp_output(s, &len);
        check_output(out, len);
        lsp_output_done(s, len);
        at += k;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    lsp_options opt = {fuzz_target_isa(data[0]), gisa_target_name(fuzz_target_index(data[0])), NULL, 0, NULL, 1};
    unsigned mode = data[1];
    size_t piece = (size_t)(mode >> 3) * 7;
    const char *text = (const char *)data + 2;
    size_t n = size - 2;
    lsp_server *s = lsp_new(&opt);
    if (!s)
        return 0;
    strbuf b;
    sb_init(&b);
    if (mode & 2) {
        const char *init = mode & 4 ? "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"capabilities\":"
                                      "{\"general\":{\"positionEncodings\":[\"utf-8\"]}}}}"
                                    : "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}";
        sb_printf(&b, "Content-Length: %zu\r\n\r\n%s", strlen(init), init);
    }
    if (mode & 1) {
        sb_putn(&b, text, n);
    } else {
        while (n) {
            const char *sep = separator(text, n);
            size_t len = sep ? (size_t)(sep - text) : n;
            sb_printf(&b, "Content-Length: %zu\r\n\r\n", len);
            sb_putn(&b, text, len);
            if (!sep)
                break;
            text = sep + 4;
            n -= len + 4;
        }
    }
    if (!b.failed)
        feed(s, b.s, b.len, piece);
    sb_free(&b);
    lsp_free(s);
    return 0;
}
