#!/usr/bin/env bash
# `gisa lsp`, the language server, through its protocol: tests/lsp/test_protocol.py
# (a small client in Python, standard library only) checks every request
# and notification the server announces in its capabilities, the
# lifecycle, cancellation, incremental sync in UTF-16 and UTF-8 positions,
# description files (lint's diagnostics, hover, definition across files,
# symbols) and malformed input answered with JSON-RPC errors. Then a few
# byte streams from the shell: the server answers and exits, whatever
# comes. Env: GISA_BIN, GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" lsp

PY=/usr/bin/python3
[ -x "$PY" ] || ci_skip "no /usr/bin/python3"

run timeout 120 "$PY" "$SRC/tests/lsp/test_protocol.py" "$G" "$SRC" "$T"
if [ "$rc" -eq 0 ]; then ok; else bad "the protocol tests failed: $(grep FAIL err | head -10)"; fi
cat out

# streams that end mid-message, garbage, NUL bytes: a prompt exit, never a hang
for input in '' 'Content-Length: 10\r\n\r\n{"a"' 'garbage\r\n\r\n\0\0\0' 'Content-Length: 2\r\n\r\n{}'; do
    printf "$input" >in
    run timeout 10 "$G" lsp --cache-dir "$T/cache" <in
    if [ "$rc" -eq 1 ]; then ok; else bad "input '$input': exit $rc, want 1 (the client left without exit)"; fi
done
run "$G" lsp --no-such-option
if [ "$rc" -eq 2 ]; then ok; else bad "a bad option: exit $rc, want 2"; fi
finish
