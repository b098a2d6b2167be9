#!/usr/bin/env bash
# Every mutation of rtl/warp.sv on the programs of seeds 1..N (gen's default
# options for the RTL's opcodes, COUNT instructions, --illegal-rate 0.05 for
# the illegal one): how many programs each changed (the mutant's stderr line),
# how many runs failed, and in how many the report's first line names the
# instruction the mutant changed first. Run by `make mutants N=50`; the
# make variables (GISA_BUILD, OUT, COUNT, ...) pass through MAKEFLAGS.
set -u
N=${N:-10}
for m in ignore-mask masked-write drop-write wrong-carry illegal; do
    il=0
    [ "$m" = illegal ] && il=0.05
    changed=0 caught=0 at=0 first=-
    for s in $(seq 1 "$N"); do
        make --no-print-directory run MUTATION=$m SEED=$s ILLEGAL=$il >"$OUT/mutants.out" 2>"$OUT/mutants.err"
        rc=$?
        where=$(sed -nE 's/^mutant .* first effect at (warp [0-9]+ pc [0-9]+)$/\1/p' "$OUT/mutants.err")
        [ -n "$where" ] && changed=$((changed + 1))
        if [ "$rc" != 0 ]; then
            caught=$((caught + 1))
            [ "$first" = - ] && first=$s
        fi
        [ -n "$where" ] && grep -q "^mismatch: $where (" "$OUT/mutants.out" && at=$((at + 1))
    done
    echo "$m: $N programs, changed $changed, caught $caught, at the mutant's pc $at, first caught with seed $first"
done
