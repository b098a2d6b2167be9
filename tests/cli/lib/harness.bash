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
# skip REASON: the test did not run. Exit status 77, which ctest reports as
# "Skipped" (SKIP_RETURN_CODE in CMakeLists.txt), with the reason printed.
skip() {
    echo "SKIP: $*"
    exit 77
}
# ci_skip REASON: a skip for want of something .ci/run installs
# (scripts/deps.sh --ci); under CI (GISA_CI=1) it is a failure instead.
ci_skip() {
    if [ "${GISA_CI:-0}" = 1 ]; then
        echo "FAIL: $* (scripts/deps.sh --ci installs it: under CI this cannot be skipped)" >&2
        exit 1
    fi
    skip "$*"
}
# ci_skip_part REASON: one part of the test cannot run here, the rest did:
# a visible line, and under CI a failed check.
ci_skip_part() {
    if [ "${GISA_CI:-0}" = 1 ]; then
        bad "$* (scripts/deps.sh --ci installs it: under CI this cannot be skipped)"
    else
        echo "SKIP (part of this test): $*"
    fi
}
# finish: the summary line and the exit status (a test that made no check
# fails)
finish() {
    echo "$pass passed, $fail failed"
    if [ $((pass + fail)) -eq 0 ]; then
        echo "FAIL: no check was made (a test that checks nothing cannot pass)"
        return 1
    fi
    [ "$fail" -eq 0 ]
}
