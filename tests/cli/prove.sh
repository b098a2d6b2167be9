#!/usr/bin/env bash
# gisa prove (docs/prove.md): every example of examples/prove/examples.txt
# gives its verdict and exit status; each `differ` writes a counterexample
# (--cex) on which `gisa run` of A and of B give different values of the
# register prove names, and the counterexamples have what the examples are
# about (the low words carry; a subnormal input, or result flushed). Then the options:
# --assume pins all lanes or one, --outputs and --scratch choose what is
# compared, an unpinned constant and an unsupported instruction are
# `unknown` (exit 3), a short --timeout too, bad options exit 2.
# Skipped without Z3 (a build without libz3-dev), except under CI.
# Env: GISA_BIN, GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" prove
# Z3's process-long memory is not gisa's leak (make asan: LeakSanitizer)
export LSAN_OPTIONS="suppressions=$SRC/scripts/lsan-z3.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

E=$SRC/examples/prove
printf 'MOV R0, R1 ;\n' >same.s
run "$G" prove same.s same.s
if grep -q 'built without Z3' out; then
    check "without Z3: unknown, exit 3" test "$rc" -eq 3
    ci_skip "gisa was built without Z3 (Debian: libz3-dev): no proof was tried"
fi
check "a program is equivalent to itself (exit $rc)" test "$rc" -eq 0

# the value of register NAME in a `gisa run` output (absent: 0)
reg() {
    local v
    v=$(grep -oE "\"$2\": (\"0x[0-9a-f]+\"|true|false)" "$1" | head -1 | sed -E 's/.*: //; s/"//g') || true
    case $v in true) echo 1 ;; false | '') echo 0 ;; *) echo $((v)) ;; esac
}
# the input R<n> of a counterexample state
cexreg() { reg "$1" "R$2"; }
subnormal() { (((($1 & 0x7f800000) == 0) && (($1 & 0x7fffff) != 0))); }

n=0
while read -r verdict a b opts; do
    case $verdict in '#'* | '') continue ;; esac
    n=$((n + 1))
    # shellcheck disable=SC2086 # the options are words
    run "$G" prove -q --timeout 60 --cex "cex$n.json" $opts "$E/$a" "$E/$b"
    want=0
    [ "$verdict" = differ ] && want=1
    check "$a vs $b: $verdict, exit $want (got exit $rc: $(head -1 out))" test "$rc" -eq "$want"
    check "$a vs $b: the verdict line" grep -q "^$verdict" out
    [ "$verdict" = differ ] || continue
    check "$a vs $b: the counterexample is written" test -s "cex$n.json"
    name=$(sed -nE 's/^differ: ([A-Z]+[0-9]+) in lane ([0-9]+).*/\1/p' out)
    check "$a vs $b: the first differing output is named" test -n "$name"
    "$G" run --state "cex$n.json" "$E/$a" >runa 2>/dev/null || true
    "$G" run --state "cex$n.json" "$E/$b" >runb 2>/dev/null || true
    check "$a vs $b: gisa run of A and of B differ in $name on the counterexample" \
        test "$(reg runa "$name")" != "$(reg runb "$name")"
    case $a-$b in
    add64.s-add64_nox.s)
        check "add64: the counterexample's low words carry" \
            test $(($(cexreg "cex$n.json" 2) + $(cexreg "cex$n.json" 4))) -ge $((1 << 32)) ;;
    ffma1_RN.s-fadd_ftz.s)
        check "FFMA vs FADD.FTZ: a subnormal input or exact result" \
            bash -c "$(declare -f subnormal); subnormal $(cexreg "cex$n.json" 1) || subnormal $(cexreg "cex$n.json" 2) ||
                subnormal $(reg runa R0)" ;;
    fmul_half_twice.s-mov.s)
        r1=$(cexreg "cex$n.json" 1)
        check "x*0.5*2 vs x: a subnormal or NaN input ($r1)" \
            bash -c "$(declare -f subnormal); subnormal $r1 || (( ($r1 & 0x7f800000) == 0x7f800000 && ($r1 & 0x7fffff) != 0 ))" ;;
    esac
done <"$E/examples.txt"
check "the examples were read ($n)" test "$n" -ge 20

# --assume: R1 = 1.5 in every lane makes x*0.5*2 exact; a subnormal in lane 5 only differs there
echo '{"R1": 1.5}' >r1.json
expect 0 "--assume R1=1.5: equivalent" "$G" prove --assume r1.json "$E/fmul_half_twice.s" "$E/mov.s"
lanes=$(for l in $(seq 0 31); do [ "$l" = 5 ] && printf '"0x00000003"' || printf '"0x3fc00000"'; [ "$l" = 31 ] || printf ,; done)
echo "{\"R1\": [$lanes]}" >lane5.json
expect 1 "--assume with a subnormal in lane 5: differ" "$G" prove --cex c5.json --assume lane5.json "$E/fmul_half_twice.s" "$E/mov.s"
check "lane 5 is the one" grep -q '^differ: R0 in lane 5' out
check "the counterexample keeps the pinned lanes" grep -q '0x3fc00000' c5.json

# --outputs, --scratch
expect 0 "--outputs R0: the missing carry does not show" "$G" prove --outputs R0 "$E/add64.s" "$E/add64_nox.s"
expect 0 "--scratch R1: neither" "$G" prove --scratch R1 "$E/add64.s" "$E/add64_nox.s"
expect 1 "without --scratch P0, the wide add writes no P0: differ" "$G" prove "$E/add64.s" "$E/add64_wide.s"
check "P0 is named" grep -q '^differ: P0' out
expect 2 "a bad --outputs" "$G" prove --outputs R0,Q7 "$E/add64.s" "$E/add64_nox.s"
check "it names the item" grep -q "'Q7' is not a register" err
expect 2 "one program" "$G" prove "$E/add64.s"

# constants: compiled into the word's program, so they must be pinned
printf 'FADD R0, R1, c[0x0][0x10] ;\n' >cm.s
printf 'FADD R2, RZ, c[0x0][0x10] ;\nFADD R0, R1, R2 ;\n' >cm2.s
expect 3 "an unpinned constant: unknown" "$G" prove --scratch R2 cm.s cm2.s
check "it says which" grep -q 'reads c\[0x0\]\[0x10\], which prove needs pinned' out
echo '{"c[0x0][0x10]": 1.5}' >c.json
expect 0 "pinned: equivalent" "$G" prove --scratch R2 --assume c.json cm.s cm2.s

# what prove does not support, and a timeout
printf 'GETGPR R1, R[UR1+0x2] ;\n' >getgpr.s
expect 3 "GETGPR: unknown" "$G" prove getgpr.s same.s
check "not supported, named" grep -q '^unknown: not supported by prove: GETGPR (' out
expect 3 "GETGPR in B: unknown" "$G" prove same.s getgpr.s
check "where: B at pc 0" grep -q ', in B at pc 0$' out
printf '.inst 0x0\n' >inv.s
expect 3 "a word that does not decode: unknown" "$G" prove inv.s same.s
check "it says so" grep -q '^unknown: not an instruction prove can read: .*, in A at pc 0$' out
printf 'FFMA R0, R1, R2, R3 ;\n' >f1.s
printf 'FFMA R0, -R1, -R2, R3 ;\n' >f2.s
expect 3 "a general FFMA identity under --timeout 0.5: unknown" "$G" prove --timeout 0.5 f1.s f2.s
check "the reason is the timeout" grep -q '^unknown: .*timeout' out
expect 2 "a bad --timeout" "$G" prove --timeout -1 f1.s f2.s
finish
