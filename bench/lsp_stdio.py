"""`gisa lsp` over its pipes, as an editor sees it: the time from writing a
didChange on a 10,000-line assembly file to reading its publishDiagnostics
(bench/lsp_bench.c measures the server alone). Not run by `make bench`
(which runs the C benchmarks): python3 bench/lsp_stdio.py build/gisa"""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lsp"))
from lspclient import Client  # noqa: E402

LINES = ["IADD   R0, P0, R2, R4            // low word, carry out to P0",
         "IADD.X R1, PT, R3, R5, P0        // high word, carry in from P0",
         "IMAD.WIDE.U32 R[8:9], P0, R4, R5, R[6:7]",
         "ISETP.LT.U32.AND P2, PT, R2, R4, PT",
         "FFMA.RZ R10, -|R1|, c[0x0][0x100], R2",
         "@!P2 DADD.RM R[12:13], R[2:3], -0.5 $sched=2 $wsb=1",
         "HFMA2.BF16_V2 R14, R1.H1_H1, -1.5, 2, RZ",
         "LOP3.PAND P3, R15, R1, R2, R3, 0xE8, PT    // majority(R1, R2, R3)",
         "PRMT.F4E R16, R1, R2, 0x1",
         "FADD R0, R1, R2 ; FMUL R3, R4, 1.5"]
EDITS = 101

gisa = sys.argv[1] if len(sys.argv) > 1 else "build/gisa"
with tempfile.TemporaryDirectory() as work:
    c = Client([gisa, "lsp", "--cache-dir", work])
    c.initialize()
    uri = "file://" + os.path.join(work, "bench.s")
    text = "".join(LINES[i % len(LINES)] + "\n" for i in range(10000))
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "gisa", "version": 1, "text": text}})
    c.diagnostics(uri)
    times = []
    for i in range(EDITS):
        t0 = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [
            {"range": {"start": {"line": 5004, "character": 6}, "end": {"line": 5004, "character": 7}},
             "text": "Z" if i % 2 else "X"}]})
        d = c.diagnostics(uri)
        times.append((time.perf_counter() - t0) * 1e3)
        assert len(d) == (0 if i % 2 else 1), d
    c.request("shutdown")
    c.notify("exit")
    c.close()
times.sort()
print("gisa lsp over stdio, didChange -> publishDiagnostics, 10000 lines, %d edits: median %.2f ms, p95 %.2f ms, "
      "worst %.2f ms (target < 100 ms)" % (EDITS, statistics.median(times), times[EDITS * 95 // 100], times[-1]))
