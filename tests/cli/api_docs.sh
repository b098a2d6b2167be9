#!/usr/bin/env bash
# docs/api.md's programs are real: every ```c block of it is compiled with
# -std=c11 -Wall -Wextra -Werror and the build's pkg-config flags (its
# libgisa.a), run from the source tree, and its output compared with the
# ```text block that follows "Output:" after it.
# Env: GISA_BIN, GISA_SOURCE_DIR, GISA_BUILD_DIR, GISA_CC.
source "$(dirname "$0")/lib/harness.bash" api_docs

command -v pkg-config >/dev/null || ci_skip "pkg-config is not installed (scripts/deps.sh installs it)"
B=${GISA_BUILD_DIR:-$(dirname "$G")}
CC=${GISA_CC:-cc}
read -r -a PC <<<"$(PKG_CONFIG_PATH=$B/pkgconfig pkg-config --cflags --static --libs gisa)"
# prog_N.c and want_N.txt from the document
awk -v dir="$T" '
    /^```c$/ { n++; out = dir "/prog_" n ".c"; inc = 1; next }
    /^```text$/ && want { out = dir "/want_" n ".txt"; inc = 1; printf "" > out; next }
    /^```$/ { inc = 0; want = 0; next }
    /^Output:$/ { want = 1 }
    inc { print > out }
' "$SRC/docs/api.md"
count=$(ls prog_*.c 2>/dev/null | wc -l)
check "docs/api.md has its programs ($count)" test "$count" -ge 8
for p in prog_*.c; do
    n=${p#prog_}
    n=${n%.c}
    title=$(awk -v k="$n" '/^## / { t = $0 } /^```c$/ && ++c == k { print t; exit }' "$SRC/docs/api.md")
    expect 0 "$title: compiles" "$CC" -std=c11 -Wall -Wextra -Werror -o "prog_$n" "$p" "${PC[@]}"
    [ "$rc" -eq 0 ] || { sed 's/^/  /' err | head -10 >&2; continue; }
    rc=0
    (cd "$SRC" && "$T/prog_$n") >"out_$n" 2>"err_$n" || rc=$?
    check "$title: runs (exit $rc)" test "$rc" -eq 0
    check "$title: a block of its output follows it" test -f "want_$n.txt"
    check "$title: prints what the document shows" cmp -s "want_$n.txt" "out_$n"
    cmp -s "want_$n.txt" "out_$n" || diff "want_$n.txt" "out_$n" | head -10 >&2
done
finish
