#!/usr/bin/env bash
# The lockstep example (examples/cosim) under Verilator, its one model built
# once (the correct RTL, or one mutation chosen per run):
# - `make run` passes on programs of gen's default options for the RTL's
#   opcodes: one warp, four warps issued round-robin, and with illegal words
#   (every warp traps where the model faults, and no earlier);
# - each mutation (ignore-mask, masked-write, drop-write, wrong-carry, and
#   illegal with --illegal-rate) is caught within 10 seeds, reported at the
#   instruction the mutant says it first changed (its stderr line "mutant
#   NAME: first effect at warp W pc N"), with a first line "mismatch: warp W
#   pc N (...)" and the details (the word as `gisa as` encodes it, the
#   lanes, the sources); a seed whose program the mutation does not change
#   passes; with four warps the report names the warp the mutant changed;
# - `make run-bug` (wrong-carry) keeps its report form, and a reproducer
#   bundle shrunk from it (gisa shrink --state --bundle) reproduces the
#   mismatch by itself, its files read by the testbench as they are.
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

expect 0 "make build (the model)" "${MK[@]}" build

# the correct RTL
for seed in 1 2 3; do
    expect 0 "make run (seed $seed)" "${MK[@]}" run SEED=$seed COUNT=300
    check "run: every instruction matched (seed $seed)" has out '^lockstep: 300 instructions retired, 0 mismatches$'
    check "run: the final state matched (seed $seed)" \
        has out '^final state: every register and predicate lane of 1 warps matches; 0 traps where the model faults$'
done
# the generated programs used every opcode the RTL implements
for op in 'IADD ' 'IADD.X ' 'LOP3' 'SHF' 'ISETP' 'SEL '; do
    check "the program has $op" grep -q "^[^/]*$op" "$T/obj/prog.s"
done
expect 0 "make run WARPS=4" "${MK[@]}" run SEED=4 COUNT=300 WARPS=4
check "run WARPS=4: every instruction of every warp matched" has out '^lockstep: 1200 instructions retired, 0 mismatches$'
check "run WARPS=4: the final state of 4 warps" has out '^final state: every register and predicate lane of 4 warps'
check "the state has four different masks" test "$(grep -oE '"active": "0x[0-9a-f]+"' "$T/obj/state.json" | sort -u | wc -l)" -ge 3
for seed in 1 2 3; do
    expect 0 "make run ILLEGAL=0.05 WARPS=2 (seed $seed)" "${MK[@]}" run SEED=$seed COUNT=100 WARPS=2 ILLEGAL=0.05
    fpc=$(sed -nE '2s|^// expected fault: pc ([0-9]+) .*|\1|p' "$T/obj/prog.s")
    check "illegal (seed $seed): the program has an expected fault" test -n "$fpc"
    check "illegal (seed $seed): both warps ran to the fault at pc $fpc and trapped there" \
        has out "^lockstep: $((2 * ${fpc:-0})) instructions retired, 0 mismatches\$"
    check "illegal (seed $seed): two traps" has out '; 2 traps where the model faults$'
done
expect 2 "an unknown mutation" "${MK[@]}" run MUTATION=nosuch
check "an unknown mutation: named" has out "unknown mutation 'nosuch'"

# Runs MUTATION on seeds 1..10 of gen's default options (with ILLEGAL) until
# one is caught; checks each seed's verdict against the mutant's own word.
mutant() {
    local m=$1 il=$2 seed caught=
    for seed in $(seq 1 10); do
        run "${MK[@]}" run MUTATION=$m SEED=$seed COUNT=100 ILLEGAL=$il
        local eff where
        eff=$(grep -m1 "^mutant $m: first effect at " err || true)
        where=$(sed -nE 's/.* first effect at (warp [0-9]+ pc [0-9]+)$/\1/p' <<<"$eff")
        if [ -z "$eff" ]; then
            check "$m (seed $seed): unchanged by the mutation, passes" test "$rc" = 0
            continue
        fi
        caught=$seed
        echo "$m: caught with seed $seed at $where"
        check "$m (seed $seed): caught ($eff)" test "$rc" = 2
        check "$m (seed $seed): reported at $where: $(head -1 out)" has out "^mismatch: $where \\("
        check "$m (seed $seed): the report on stdout" cmp -s out "$T/obj/report.txt"
        local pc=${where##* } word
        "$G" as "$T/obj/prog.s" --format hex -o "$T/words.hex"
        word=$(sed -n "$((pc + 1))p" "$T/words.hex")
        check "$m (seed $seed): the word in hex (0x$word)" has out "^  word 0x$word\$"
        break
    done
    check "$m: caught within 10 programs" test -n "$caught"
    [ -n "$caught" ] || return 0
    echo "$caught" >"$T/seed.$m"
}
mutant ignore-mask 0
check "ignore-mask: the exec mask compared" has out '^mismatch: warp 0 pc [0-9]+ \([^)]*\): exec mask: expected 0x[0-9a-f]{8}, got 0x[0-9a-f]{8}$'
mutant masked-write 0
check "masked-write: at the write, a lane the mask disabled" has out '^mismatch: .*: R[0-9]+ lane [0-9]+: expected no write, got 0x'
mutant drop-write 0
check "drop-write: the missing write" has out '^mismatch: .*: R[0-9]+ lane [0-9]+: expected 0x[0-9a-f]{8}, got no write$'
mutant illegal 0.05
check "illegal: the model faults where the RTL executes" has out '^mismatch: warp 0 pc [0-9]+ \(.*\): the model faults: '
mutant wrong-carry 0
check "wrong-carry: the first line" \
    grep -qE '^mismatch: warp 0 pc [0-9]+ \(IADD[^)]*\): P[0-6] lane 5: expected [01], got [01]$' <(head -1 out)
check "wrong-carry: one lane, listed" has out '^  1 mismatching lane: 5$'
check "wrong-carry: the sources of lane 5" has out '^  lane 5 read: Ra R[0-9]+ = 0x[0-9a-f]{8}, SrcB R[0-9]+ = 0x[0-9a-f]{8}'

# four warps, round-robin: seed 1's warp 0 is full, warp 1 not: the mask
# that is ignored is warp 1's, found at its first instruction
run "${MK[@]}" run MUTATION=ignore-mask SEED=1 WARPS=4 COUNT=100
check "ignore-mask, 4 warps: caught" test "$rc" = 2
check "ignore-mask, 4 warps: the mutant's first effect in warp 1" has err '^mutant ignore-mask: first effect at warp 1 pc 0$'
check "ignore-mask, 4 warps: reported in warp 1: $(head -1 out)" has out '^mismatch: warp 1 pc 0 \(.*\): exec mask: '
check "ignore-mask, 4 warps: after warp 0's first instruction" has out '^  \(1 instructions retired before it\)$'

# make run-bug is wrong-carry
seed=$(cat "$T/seed.wrong-carry" 2>/dev/null || echo 1)
expect 2 "make run-bug (seed $seed)" "${MK[@]}" run-bug SEED=$seed COUNT=100
check "run-bug: the report on stdout" cmp -s out "$T/obj/report.txt"
check "run-bug: the first line of the report says mismatch: $(head -1 out)" \
    grep -qE '^mismatch: warp 0 pc [0-9]+ \(IADD[^)]*\): P[0-6] lane 5: expected [01], got [01]$' <(head -1 out)

# a complete reproducer (gisa shrink --state --bundle) of run-bug's
# mismatch: the bundle's files go to the testbench as they are
cp "$T/obj/prog.s" bug.s
cp "$T/obj/state.json" bug.json
cat >tb.sh <<EOF
#!/bin/sh
"$T/obj/model/Vtb" +prog="\$1" +state="\$2" +mutation=wrong-carry | grep -q '^mismatch' && exit 1
exit 0
EOF
chmod +x tb.sh
expect 0 "shrink program and state against wrong-carry" "$G" shrink bug.s --state bug.json --bundle bugb \
    -- "$T/tb.sh" {} {state}
check "the bundle's state is smaller ($(wc -c <bugb/state.json) < $(wc -c <bug.json))" \
    test "$(wc -c <bugb/state.json)" -lt "$(wc -c <bug.json)"
check "the bundle's program: the header and an instruction or two: $(grep -v '^//' bugb/prog.s | tr '\n' ';')" \
    test "$(grep -vc '^//' bugb/prog.s)" -le 2 -a "$(head -1 bugb/prog.s)" = "$(head -1 bug.s)"
mkdir -p fresh
(cd fresh && ../bugb/repro.sh) && rc=0 || rc=$?
check "the bundle reproduces the mismatch by itself (status $rc)" test "$rc" -eq 1
run "$T/obj/model/Vtb" +prog=bugb/prog.s +state=bugb/state.json +mutation=wrong-carry
check "the testbench takes the bundle's files: mismatch at an IADD: $(head -1 out)" has out '^mismatch: warp 0 pc [01] \((@!?P[0-6T] )?IADD'
finish
