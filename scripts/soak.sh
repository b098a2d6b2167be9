#!/usr/bin/env bash
# Soak test under ASan+UBSan (issue 21 item 5; not in CI): N programs from
# `gisa gen`, seeds 1..N (SEED0 offsets them), odd seeds on gisa128 and even
# seeds on fermi, each through the gisa program built with the sanitizers:
#   gen     program text, words, initial state;
#   as      the text assembles to exactly the generated words;
#   dis     the words disassemble to the generated text, and that text
#           assembles again to the same words;
#   run     the program from its state under --engine native, and on gisa128
#           also under --engine doc: both final states must be byte-identical
#           (fermi has no pseudo-code, so native only).
# A failure is any non-zero exit, any sanitizer report on stderr, or any
# mismatch; each failing program keeps its files and the failing command in
# $SOAK_KEEP (default: a directory named in the summary). Prints the count of
# programs and failures (must be 0) and the time taken; exits 1 on a failure.
#
#   usage: scripts/soak.sh N [COUNT]     (COUNT instructions per program, default 500)
#   env:   SOAK_BUILD (default build-asan; configured and built like `make
#          asan` when it has no gisa), SOAK_JOBS (parallel workers, default
#          the number of CPUs), SEED0 (first seed - 1, default 0),
#          SOAK_KEEP (where failing programs are kept)

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
n=${1:?usage: scripts/soak.sh N [COUNT]}
count=${2:-500}
build=${SOAK_BUILD:-build-asan}
jobs=${SOAK_JOBS:-$(nproc 2>/dev/null || echo 2)}
seed0=${SEED0:-0}
case "$n$count$seed0" in *[!0-9]*) echo "soak: N, COUNT and SEED0 are numbers" >&2; exit 2 ;; esac

if [ ! -x "$build/gisa" ]; then
    [ -f "$build/CMakeCache.txt" ] ||
        CC=${CLANG:-clang} cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGISA_SANITIZE=ON
    cmake --build "$build" -j"$jobs" --target gisa
fi
grep -q '^GISA_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null ||
    echo "soak: warning: $build is not a sanitizer build (GISA_SANITIZE=ON)" >&2

SOAK_GISA=$(pwd)/$build/gisa
export SOAK_GISA SOAK_COUNT=$count
export SOAK_KEEP=${SOAK_KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/gisa-soak-fail.XXXXXX")}
mkdir -p "$SOAK_KEEP"
# a sanitizer report ends the process with a non-zero status, and is looked
# for on stderr as well in case an option turned that off
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99

# one worker: the seeds given as arguments, in a scratch directory of its
# own; prints one line per program, "ok" or "FAIL seed target what"
# shellcheck disable=SC2317 # called through xargs
worker() {
    local tmp s t g=$SOAK_GISA
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/gisa-soak.XXXXXX")
    cd "$tmp"
    step() { # step WHAT COMMAND...: runs it, stderr to err; false on a failure
        local what=$1 rc=0
        shift
        "$@" 2>err || rc=$?
        if [ "$rc" -ne 0 ] || grep -q 'Sanitizer\|runtime error:' err; then
            { printf '%s (exit %d): %s\n' "$what" "$rc" "$*"; head -c 2000 err; } >why
            return 1
        fi
    }
    for s in "$@"; do
        if [ $((s % 2)) -eq 1 ]; then t=gisa128; else t=fermi; fi
        rm -f ./*
        if step gen "$g" gen --target "$t" --seed "$s" -n "$SOAK_COUNT" \
                -o p.s --words p.hex --state-out st.json &&
            step as "$g" as --target "$t" --format hex -o a.hex p.s &&
            { cmp -s a.hex p.hex || { echo "as: words differ from gen's (a.hex, p.hex)" >why; false; }; } &&
            step dis "$g" dis --target "$t" -o d.s p.hex &&
            { grep -v '^//' p.s | cmp -s - d.s || { echo "dis: text differs from gen's (d.s, p.s)" >why; false; }; } &&
            step reas "$g" as --target "$t" --format hex -o d.hex d.s &&
            { cmp -s d.hex p.hex || { echo "dis+as: words differ (d.hex, p.hex)" >why; false; }; } &&
            step native "$g" run --target "$t" --engine native --regs 32 --state st.json -o native.json p.s &&
            { [ "$t" = fermi ] || {
                step doc "$g" run --target "$t" --engine doc --regs 32 --state st.json -o doc.json p.s &&
                { cmp -s native.json doc.json || { echo "engines: final states differ (native.json, doc.json)" >why; false; }; }
            }; }; then
            echo ok
        else
            mkdir -p "$SOAK_KEEP/$t-$s" && cp ./* "$SOAK_KEEP/$t-$s/"
            echo "FAIL seed $s target $t: $(tr "\n" " " <why) [$SOAK_KEEP/$t-$s]"
        fi
    done
    cd / && rm -rf "$tmp"
}
export -f worker

start=$(date +%s)
log=$SOAK_KEEP/soak.log
seq $((seed0 + 1)) $((seed0 + n)) | xargs -n 25 -P "$jobs" bash -c 'worker "$@"' worker >"$log" || true
secs=$(($(date +%s) - start))
done_n=$(grep -c '' "$log" || true)
fails=$(grep -c '^FAIL' "$log" || true)
grep '^FAIL' "$log" | head -20 >&2 || true
echo "soak: $done_n of $n programs ($count instructions each, seeds $((seed0 + 1))..$((seed0 + n)), gisa128 and fermi) under ASan+UBSan: $fails failures, $secs s with $jobs jobs"
[ "$done_n" -eq "$n" ] && [ "$fails" -eq 0 ] && { rm -rf "$SOAK_KEEP"; exit 0; }
echo "soak: failing programs kept in $SOAK_KEEP" >&2
exit 1
