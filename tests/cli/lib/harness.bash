# Shared by the CLI tests (sourced, not run): locate the program and the
# source tree, work in a temporary directory, and count checks.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
# Usage: source "$(dirname "$0")/lib/harness.bash" NAME
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/fixtures.bash"

: "${GISA_BIN:?set GISA_BIN to the gisa executable}"
G=$(cd "$(dirname "$GISA_BIN")" && pwd)/$(basename "$GISA_BIN")
SRC=$(cd "${GISA_SOURCE_DIR:-$(dirname "$0")/../..}" && pwd)
unset GISA_ISA # tests choose the ISA themselves

T=$(mktemp -d "${TMPDIR:-/tmp}/gisa-${1:-cli}.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*" >&2
    [ -s err ] && sed 's/^/  stderr: /' err | head -5 >&2
    return 0
}
# run CMD...: stdout -> out, stderr -> err, exit status -> $rc (never aborts)
run() {
    rc=0
    "$@" >out 2>err || rc=$?
}
# expect N DESC CMD...: run CMD, check its exit status is N
expect() {
    local want=$1 desc=$2
    shift 2
    run "$@"
    if [ "$rc" -eq "$want" ]; then ok; else bad "$desc: exit $rc, want $want"; fi
}
# check DESC CMD...: CMD must succeed
check() {
    local desc=$1
    shift
    if "$@"; then ok; else bad "$desc"; fi
}
has() { grep -qE -- "$2" "$1"; }        # has FILE REGEX
hasnt() { ! grep -qE -- "$2" "$1"; }    # hasnt FILE REGEX
# repeat N TEXT: N lines of TEXT on stdout (`yes | head` fails under pipefail)
repeat() { awk -v n="$1" -v t="$2" 'BEGIN { for (i = 0; i < n; i++) print t }'; }
no_tmp() { ! ls -a | grep -q '\.tmp'; } # no leftover FILE.tmpXXXXXX
# finish: the summary line and the exit status
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
