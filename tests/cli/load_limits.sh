#!/usr/bin/env bash
# The memory of loading a description (issue 31 item 14): eight optypes of
# 90,000 pseudo-code statements each, a 14 MB file under the 16 MiB limit of
# a description file, took 1.6 GB to load (`gisa doc`) and 3 GB and 11 s to
# lint, and --max-memory did not cover loading. Now one optype's
# pseudo-code has at most 65,536 tokens (a located error past them), and
# every command loads within --max-memory (gisa_load_options.max_memory):
# over it, an error at the line or optype the load reached names the limit.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository),
# GISA_SANITIZED (set for sanitizer builds: their memory figures mean nothing).
source "$(dirname "$0")/lib/harness.bash" loadlim

# big.isa: optypes BIG0..BIG7, each with 90,000 statements `t = Ra + SrcB;`
awk 'BEGIN {
    print "__DefBitFieldType Optype<8>"
    for (k = 0; k < 8; k++) printf "    BIG%d = 0x%x;\n", k, 96 + k
    for (k = 0; k < 8; k++) {
        printf "\n__DefOptype BIG%d : [IALU]\n  __Description\nBig.\n  __Encoding\n", k
        printf "    field<0,   8> Optype optype == BIG%d;\n    field<16,  8> Reg rd;\n", k
        printf "    field<24,  8> Reg ra;\n    field<64,  8> Reg rc;\n"
        printf "  __Syntax\n```asm\nBIG%d   Rd, Ra, SrcB, Rc               $sched $req ;\n```\n", k
        printf "  __Semantics\n```asm\nBIG%d Rd, Ra, SrcB, Rc:\n", k
        for (i = 0; i < 90000; i++) print "    t = Ra + SrcB;"
        printf "    Rd = t[31:0];\n```\n\n__DefOpcode BIG%d_RRR : [BIG%d]\n  __Encoding\n", k, k
        printf "    field<8,   4> SType stype == RRR;\n    field<32,  8> Reg rb;\n  __OperandInfo\n"
        printf "    InList<pg, ra, rb, rc>;\n    OutList<rd>;\n    Order<pg, rd, ra, rb, rc>;\n"
    }
}' >big.isa
size=$(stat -c %s big.isa)
check "big.isa is 13-16 MiB (took $size bytes)" test "$size" -gt 13000000 -a "$size" -lt $((16 << 20))

usage=()
[ -x /usr/bin/time ] && [ -z "${GISA_SANITIZED:-}" ] && usage=(/usr/bin/time -o usage.txt -f '%M %e')
# peak KB SECONDS: the last command's peak RSS under KB kilobytes and its
# time under SECONDS (where /usr/bin/time measures it)
peak() {
    [ -f usage.txt ] || return 0
    read -r kb secs < <(tail -n 1 usage.txt) # after "Command exited with non-zero status 1"
    echo "  $2: peak RSS $kb kB, $secs s"
    check "$2: peak RSS $kb kB, at most $1 kB" test "$kb" -le "$1"
    rm -f usage.txt
}

# the tokens of one optype: lint refuses each of the eight optypes at the
# token past 65,536, where it crossed (the statement 10,923 of each)
start=$SECONDS
expect 1 "lint refuses the 8 x 90,000 statements" "${usage[@]}" "$G" lint --isa-add big.isa
check "lint: quickly ($((SECONDS - start)) s)" test $((SECONDS - start)) -le 60
peak 300000 "lint of big.isa" # 3 GB before, now about 100 MB
check "lint: located at the token past the limit" has out \
    '^big.isa:[0-9]+:[0-9]+: error: the pseudo-code of this optype is too long: more than 65536 tokens \(the limit of one optype\)'
check "lint: once per optype" test "$(grep -c 'error: .*more than 65536 tokens' out)" -eq 8
check "loading: a warning each (the optype does not run)" test "$(grep -c 'warning: .*more than 65536 tokens' err)" -eq 8
line=$(grep -m1 -o '^big.isa:[0-9]*:[0-9]*: error: the pseudo' out | cut -d: -f2,3 || true)
check "lint: the first at BIG0's statement 10,923, its token SrcB (at $line)" test "$line" = "$((26 + 10922)):14"
expect 0 "doc still loads it (pseudo-code errors are warnings when loading)" "${usage[@]}" \
    "$G" doc --isa-add big.isa BIG0
peak 300000 "doc BIG0 of big.isa" # 1.6 GB before, now about 100 MB
check "doc: the optype does not run" has out 'does not parse'

# --max-memory covers loading, for every command that loads an ISA
printf 'MOV R0, 0x1 ;\n' >one.s
"$G" as one.s -o one.bin
for cmd in "lint" "doc BIG0" "as one.s -o x.bin" "dis one.bin -o x.txt" "run one.s -o x.json"; do
    name=${cmd%% *}
    # shellcheck disable=SC2086 # the command's words
    expect 1 "$name: a load over --max-memory 32M is refused" "${usage[@]}" \
        "$G" $name --max-memory 32M --isa-add big.isa ${cmd#"$name"}
    check "$name: the limit named, at a line of big.isa" has err \
        '^big.isa:[0-9]+: error: loading the ISA description needs more memory than the limit of 32 MiB \(raise the limit with --max-memory SIZE'
    check "$name: why it stopped" has err "gisa $name: cannot load the ISA from .*: over a limit"
    peak 120000 "$name --max-memory 32M"
    check "$name: nothing written" test ! -e x.bin -a ! -e x.txt -a ! -e x.json
done
expect 1 "the texts alone over the limit: refused before they are parsed" "$G" lint --max-memory 8M --isa-add big.isa
check "... at the file" has err '^big.isa: error: loading the ISA description needs more memory than the limit of 8 MiB'
expect 2 "a bad size is a usage error" "$G" lint --max-memory lots
check "... named" has err "--max-memory needs a size such as 512M or 8G, not 'lots'"
check "lint --help lists --max-memory" has <("$G" lint --help) '--max-memory SIZE'
check "as --help lists it as common too" test "$("$G" as --help | grep -c -- '--max-memory')" -eq 2

# normal descriptions load within small limits: the shipped gisa128 takes
# about 5 MB, Fermi 1 MB
expect 0 "gisa128 within 16M" "$G" lint --max-memory 16M
expect 0 "fermi within 4M" "$G" lint --target fermi --max-memory 4M
expect 0 "an author's file within 16M" "$G" lint --max-memory 16M --isa-add "$SRC/examples/new-instruction/iadd3.isa"
expect 0 "and runs within 16M" "$G" run --max-memory 16M --isa-add "$SRC/examples/new-instruction/iadd3.isa" one.s \
    -o x.json
expect 1 "gisa128 over 2M: refused" "$G" lint --max-memory 2M
check "... naming the limit" has err 'needs more memory than the limit of 2 MiB'

finish
