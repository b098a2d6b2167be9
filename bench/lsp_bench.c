/* Language server latency: the time from a didChange on a 10,000-line
 * assembly file to its publishDiagnostics, as the server sees it (the
 * bytes of the notification handed to the server, until the diagnostics'
 * message is in its output; the pipe to the editor is not counted).
 * BENCH_EDITS edits, each one character in a line near the middle that
 * makes an error or removes it, so that every edit publishes a different
 * list; prints the median, the 95th percentile and the worst, wall time
 * on one thread. Target (issue 30): under 100 ms. The figure in
 * docs/editors.md was measured with `build/bench/lsp_bench`. */
#include "bench_common.h"
#include "common/strbuf.h"
#include "lsp/lsp.h"

#define LINES 10000
#define BENCH_EDITS 101

static const char *const lines[] = {
    "IADD   R0, P0, R2, R4            // low word, carry out to P0",
    "IADD.X R1, PT, R3, R5, P0        // high word, carry in from P0",
    "IMAD.WIDE.U32 R[8:9], P0, R4, R5, R[6:7]",
    "ISETP.LT.U32.AND P2, PT, R2, R4, PT",
    "FFMA.RZ R10, -|R1|, c[0x0][0x100], R2",
    "@!P2 DADD.RM R[12:13], R[2:3], -0.5 $sched=2 $wsb=1",
    "HFMA2.BF16_V2 R14, R1.H1_H1, -1.5, 2, RZ",
    "LOP3.PAND P3, R15, R1, R2, R3, 0xE8, PT    // majority(R1, R2, R3)",
    "PRMT.F4E R16, R1, R2, 0x1",
    "FADD R0, R1, R2 ; FMUL R3, R4, 1.5",
};

static void send(lsp_server *s, const char *body)
{
    char head[64];
    int n = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(body));
    lsp_input(s, head, (size_t)n);
    lsp_input(s, body, strlen(body));
}

static int has_diagnostics(lsp_server *s)
{
    size_t n;
    const char *out = lsp_output(s, &n);
    int found = n && strstr(out, "textDocument/publishDiagnostics") != NULL;
    lsp_output_done(s, n);
    return found;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    gisa_isa *isa = bench_load();
    lsp_options opt = {isa, NULL, NULL, 0, NULL, 1};
    lsp_server *s = lsp_new(&opt);
    strbuf text, msg;
    sb_init(&text);
    sb_init(&msg);
    size_t nl = sizeof lines / sizeof *lines;
    for (int i = 0; i < LINES; i++) {
        sb_puts(&text, lines[i % nl]);
        sb_puts(&text, "\\n");
    }
    send(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
    sb_printf(&msg,
              "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
              "{\"uri\":\"file:///bench.s\",\"languageId\":\"gisa\",\"version\":1,\"text\":\"%s\"}}}",
              text.s);
    send(s, msg.s);
    lsp_process(s);
    if (!s || text.failed || msg.failed || !has_diagnostics(s)) {
        fprintf(stderr, "lsp_bench: no diagnostics after didOpen\n");
        return 1;
    }
    /* line 5000 is "FFMA.RZ ...": the Z of .RZ becomes X (an error) and back */
    double t[BENCH_EDITS];
    for (int i = 0; i < BENCH_EDITS; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":"
                 "{\"uri\":\"file:///bench.s\",\"version\":%d},\"contentChanges\":[{\"range\":{\"start\":"
                 "{\"line\":5004,\"character\":6},\"end\":{\"line\":5004,\"character\":7}},\"text\":\"%s\"}]}}",
                 i + 2, i % 2 ? "Z" : "X");
        bench_time bt = bench_time_init();
        bench_start(&bt);
        send(s, body);
        lsp_process(s);
        int ok = has_diagnostics(s);
        bench_stop(&bt);
        if (!ok) {
            fprintf(stderr, "lsp_bench: edit %d published no diagnostics\n", i);
            return 1;
        }
        t[i] = bt.wall * 1e3;
    }
    qsort(t, BENCH_EDITS, sizeof *t, by_value);
    printf("lsp didChange -> publishDiagnostics, %d-line file (%zu bytes), %d edits: median %.2f ms, p95 %.2f ms, "
           "worst %.2f ms (target < 100 ms)\n",
           LINES, strlen(text.s) - LINES, BENCH_EDITS, t[BENCH_EDITS / 2], t[BENCH_EDITS * 95 / 100],
           t[BENCH_EDITS - 1]);
    sb_free(&text);
    sb_free(&msg);
    lsp_free(s);
    gisa_isa_free(isa);
    return 0;
}
