#!/usr/bin/env bash
# The lockstep example (examples/cosim) under Verilator: `make run` must pass
# (every retired instruction of a generated program matches the golden
# model) and `make run-bug` (the RTL with INJECT_BUG) must fail with a report
# whose first line starts with "mismatch" and names the pc, the
# instruction, the register, the lane and both values (the bug is in lane 5:
# a seed whose generated active mask lacks lane 5 passes). Both with a few
# seeds' programs. A reproducer bundle shrunk against the buggy RTL
# reproduces the mismatch by itself, its files read by the testbench.
# Skipped (ctest: Skipped, with the reason) when verilator is not installed,
# except under CI (GISA_CI=1, set by .ci/run, where scripts/deps.sh --ci
# installs it): there a missing verilator fails. Also skipped for sanitized
# builds (their libgisa.a needs the sanitizer runtime in the Verilated
# program).
# Env: GISA_BIN, GISA_SOURCE_DIR, GISA_BUILD_DIR (libgisa.a).
source "$(dirname "$0")/lib/harness.bash" cosim

command -v verilator >/dev/null ||
    ci_skip "verilator is not installed: the lockstep example did not run (Debian: verilator)"
[ -z "${GISA_SANITIZED:-}" ] || skip "sanitized build: the lockstep example runs in the plain builds"
BUILD=${GISA_BUILD_DIR:-$(dirname "$G")}
MK=(make --no-print-directory -C "$SRC/examples/cosim" "GISA_BUILD=$BUILD" "GISA=$G" "OUT=$T/obj")

seen=0
for seed in 1 2 3; do
    rm -f "$T/obj/prog.s"
    expect 0 "make run (seed $seed)" "${MK[@]}" run SEED=$seed COUNT=1500
    check "run: every instruction matched (seed $seed)" has out '^lockstep: 1500 instructions retired, 0 mismatches$'
    # the injected bug is in lane 5: seen when the generated active mask has it
    mask=$(grep -m1 -oE '"active": "0x[0-9a-f]+"' "$T/obj/state.json" | grep -oE '0x[0-9a-f]+')
    if (((mask >> 5) & 1)); then
        seen=$((seen + 1))
        [ -e bug.s ] || cp "$T/obj/prog.s" bug.s
        [ -e bug.json ] || cp "$T/obj/state.json" bug.json
        expect 2 "make run-bug (seed $seed)" "${MK[@]}" run-bug SEED=$seed COUNT=1500
        first=$(head -1 "$T/obj/report.txt")
        check "run-bug: the report on stdout (seed $seed)" cmp -s out "$T/obj/report.txt"
        check "run-bug: the first line of the report says mismatch (seed $seed): $first" \
            grep -qE '^mismatch: warp 0 pc [0-9]+ \(IADD[^)]*\): P[0-6] lane 5: expected [01], got [01]$' <<<"$first"
    else
        expect 0 "make run-bug (seed $seed, active $mask: lane 5 inactive, the bug unseen)" "${MK[@]}" run-bug \
            SEED=$seed COUNT=1500
    fi
done
check "the bug was caught with some seed ($seen)" test "$seen" -ge 1
# a complete reproducer (gisa shrink --state --bundle) against the buggy
# RTL: the bundle's files go to the testbench as they are
if [ -e bug.s ]; then
    cat >tb.sh <<EOF
#!/bin/sh
"$T/obj/bug/Vtb" +prog="\$1" +state="\$2" | grep -q '^mismatch' && exit 1
exit 0
EOF
    chmod +x tb.sh
    expect 0 "shrink program and state against the buggy RTL" "$G" shrink bug.s --state bug.json --bundle bugb \
        -- "$T/tb.sh" {} {state}
    check "the bundle's state is smaller ($(wc -c <bugb/state.json) < $(wc -c <bug.json))" \
        test "$(wc -c <bugb/state.json)" -lt "$(wc -c <bug.json)"
    mkdir -p fresh
    (cd fresh && ../bugb/repro.sh) && rc=0 || rc=$?
    check "the bundle reproduces the mismatch by itself (status $rc)" test "$rc" -eq 1
    run "$T/obj/bug/Vtb" +prog=bugb/prog.s +state=bugb/state.json
    check "the testbench takes the bundle's files: mismatch at the one IADD" has out '^mismatch: warp 0 pc 0 \(IADD'
fi
# the generated programs used every opcode the RTL implements
for op in 'IADD ' 'IADD.X ' 'LOP3' 'SHF' 'ISETP' 'SEL '; do
    check "the program has $op" grep -q "^[^/]*$op" "$T/obj/prog.s"
done
finish
