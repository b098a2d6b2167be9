#!/usr/bin/env bash
# The symbolic back end of gisa prove against the doc engine, bit for bit:
# for every optype of gisa128 `gisa gen --include OPTYPE` writes random
# instructions of it and a state rich in floating-point corner values
# (zeros, subnormals, infinities, quiet and signalling NaNs, values near
# overflow: --fp-rate), and `gisa prove --check` evaluates each
# instruction's SMT terms on every lane that executes it, with that lane's
# values, and compares them with what `gisa run --engine doc` wrote. No
# mismatch anywhere; every optype but those prove refuses (docs/prove.md:
# GETGPR, SETGPR, R2UR) is checked; those are named as not supported.
# Skipped without Z3, except under CI.
# Env: GISA_BIN, GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" prove_diff
# Z3's process-long memory is not gisa's leak (make asan: LeakSanitizer)
export LSAN_OPTIONS="suppressions=$SRC/scripts/lsan-z3.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

printf 'MOV R0, R1 ;\n' >same.s
run "$G" prove same.s same.s
grep -q 'built without Z3' out && ci_skip "gisa was built without Z3 (Debian: libz3-dev): nothing was checked"

optypes=$("$G" gen --list | sed -n '/^Families/,/^Directed/p' | grep -vE '^(Families|Directed)' | awk '{ $1 = ""; print }')
check "the optypes are listed" test "$(wc -w <<<"$optypes")" -ge 40
unsupported=" GETGPR SETGPR R2UR "
seed=1
for o in $optypes; do
    seed=$((seed + 1))
    "$G" gen --include "$o" -n 16 --seed "$seed" --fp-rate 0.6 --active full=3,random=1 -o "$o.s" --state-out "$o.json" 2>err ||
        { bad "gisa gen --include $o"; continue; }
    run "$G" prove --check --assume "$o.json" "$o.s"
    summary=$(tail -1 out)
    if [[ $unsupported == *" $o "* ]]; then
        check "$o: not supported, said so ($summary)" grep -q "not supported by prove: $o (" out
        continue
    fi
    check "$o: no mismatch (exit $rc): $(grep -m1 'gives\|faults\|evaluate' out || true)" test "$rc" -eq 0
    check "$o: instructions were checked on lanes ($summary)" \
        grep -qE '^checked ([1-9][0-9]*) instructions, ([1-9][0-9]*) lane evaluations: 0 mismatches; 0 not supported$' out
done
finish
