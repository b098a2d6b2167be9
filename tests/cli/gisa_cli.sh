#!/usr/bin/env bash
# End-to-end tests of the gisa command line: exit statuses (0 ok, 1 input
# errors, 2 usage/file errors), output formats and round trips, atomic
# output (nothing written on errors), diagnostics format, ISA selection.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" cli

printf 'FFMA.RZ R1, R2, R3, R4\nFADD R5, R6, R7\nFMUL R1, R2, 1.5\n' >ok.s
printf 'FADD R5, R6, R7\nFOO R1\n  FADD R5, R6, Q7\n' >bad.s

# ------------------------------------------------------------ usage, exit 2
expect 0 "--help" "$G" --help
check "--help lists exit statuses" has out '^Exit status'
check "--help lists 3 as a simulation fault" has out '3 +simulation fault'
expect 0 "--version" "$G" --version
check "--version prints a version" has out '^gisa [0-9]'
expect 2 "no command" "$G"
expect 2 "unknown command" "$G" frobnicate
check "unknown command is named" has err "unknown command 'frobnicate'"
expect 0 "help as" "$G" help as
check "help as shows usage" has out '^usage: gisa as'
for c in lint doc as dis; do
    expect 0 "$c --help" "$G" "$c" --help
    check "$c --help shows usage" has out "^usage: gisa $c"
    expect 0 "$c -h" "$G" "$c" -h
    expect 2 "$c --bogus" "$G" "$c" --bogus
    check "$c --bogus names the option" has err "unknown option '--bogus'"
    check "$c --bogus gives a usage hint" has err "Try 'gisa $c --help'"
    expect 2 "$c --target nope" "$G" "$c" --target nope
    check "$c unknown target" has err "unknown target 'nope'"
done
expect 2 "as -o without argument" "$G" as ok.s -o
check "missing argument message" has err "needs an argument"
expect 2 "as --format=xyz" "$G" as --format=xyz ok.s
expect 2 "as --max-errors abc" "$G" as --max-errors abc ok.s
expect 2 "dis --format c" "$G" dis --format c
expect 2 "two input files" "$G" as ok.s bad.s
expect 2 "lint takes no argument" "$G" lint extra
expect 2 "flag with a value" "$G" dis --raw=1
expect 2 "unreadable input" "$G" as does-not-exist.s
check "unreadable input message" has err "cannot open 'does-not-exist.s'"
expect 2 "dis unreadable input" "$G" dis does-not-exist.bin
expect 2 "--isa of a missing directory" "$G" lint --isa "$T/no-such-dir"
expect 2 "output into a missing directory" "$G" as ok.s -o no-such-dir/x.bin
check "no temp file after a failed write" no_tmp

# ------------------------------------------------------------ lint
expect_lint() { # the exit status must agree with the summary line
    local sum errs warns
    sum=$(grep -E '^lint: [0-9]+ errors?, [0-9]+ warnings?(, [0-9]+ acknowledged errat(um|a))?$' out || true)
    if [ -z "$sum" ]; then
        bad "lint $*: no summary line"
        return
    fi
    errs=$(echo "$sum" | sed -E 's/^lint: ([0-9]+).*/\1/')
    warns=$(echo "$sum" | sed -E 's/^lint: [0-9]+ errors?, ([0-9]+) warnings?.*$/\1/')
    local want=0
    [ "$errs" -gt 0 ] && want=1
    [ "${1:-}" = --werror ] && [ "$warns" -gt 0 ] && want=1
    if [ "$rc" -eq "$want" ]; then ok; else bad "lint $*: exit $rc with $sum"; fi
}
# the model's size as `gisa doc` lists it: one name per opcode under its optype
nops=$("$G" doc | awk 'NR > 1 && /^ / {n += NF} END {print n + 0}')
check "doc lists the opcodes" test "$nops" -gt 0
run "$G" lint
expect_lint
check "lint: loaded as many opcodes as doc lists" has out "^loaded $nops opcodes \([0-9]+ optypes\) from embedded gisa128\$"
check "lint: diagnostics are file:line[:col]: severity:" \
    bash -c '! grep -vE "^(loaded |lint: )" out | grep -vqE "^[^ :]+:[0-9]+(:[0-9]+)?: (note|warning|error): "'
check "lint: lists each semantic patch with its optype and reason" \
    has out '^[^ :]*rulings\.isa:[0-9]+(:[0-9]+)?: note: semantic patch of FFMA: replace "Rd = t \+ SrcC;" because SPEC-RULINGS: fused'
check "lint: no unknown name in the shipped pseudo-code (all of it runs)" \
    bash -c '! grep -E "unknown name .* in the pseudo-code of " out'
check "lint: the R2P patch is listed" \
    has out '^[^ :]*rulings\.isa:[0-9]+(:[0-9]+)?: note: semantic patch of R2P: replace "P0,P1,P2'
run "$G" lint --werror
expect_lint --werror

if [ -d "$SRC/../shared/seeds" ]; then
    run "$G" lint --isa "$SRC/../shared/seeds"
    expect_lint
    check "lint --isa seeds loads them" has out "^loaded [0-9]+ opcodes .* from $SRC/../shared/seeds$"
else
    echo "skip: no ../shared/seeds"
fi

# GISA_ISA names the description directory; --isa wins over it.
mkdir isa-copy
cp "$SRC"/isa/gisa128/*.isa isa-copy/
run env GISA_ISA="$T/isa-copy" "$G" lint
check "GISA_ISA is honoured" has out "^loaded $nops opcodes .* from $T/isa-copy$"
expect 2 "GISA_ISA of a missing directory" env GISA_ISA="$T/nowhere" "$G" doc FFMA
run env GISA_ISA="$T/nowhere" "$G" --isa "$T/isa-copy" lint
check "--isa overrides GISA_ISA" has out "from $T/isa-copy$"
run env GISA_ISA= "$G" lint
check "empty GISA_ISA means embedded" has out "from embedded gisa128$"

# A description that fails to load: diagnostics and exit 1.
mkdir broken
cp "$SRC"/isa/gisa128/*.isa broken/
echo '__Bogus x' >>broken/falu.isa
expect 1 "lint of a broken description" "$G" lint --isa broken
check "broken description: located error" has err "^broken/falu.isa:[0-9]+:1: error: "
expect 1 "as with a broken description" "$G" --isa broken as ok.s -o x.bin
check "nothing written with a broken description" test ! -e x.bin

# ------------------------------------------------------------ doc
expect 0 "doc FFMA" "$G" doc FFMA
check "doc FFMA mentions rnd" has out 'rnd'
check "doc FFMA shows the document's pseudo-code" has out '^  Pseudo-code of the document \(.*:[0-9]+\):$'
check "doc FFMA shows the patched pseudo-code that runs" has out '^ +Rd = roundToF32\(t \+ SrcC, \.rnd\);'
check "doc FFMA lists its patches with reasons" has out 'replace "t = a \* SrcB;" because `a` is Ra'
expect 0 "doc FFMA_RRC" "$G" doc FFMA_RRC
check "doc FFMA_RRC mentions rnd" has out 'rnd'
expect 0 "doc (list)" "$G" doc
check "doc lists FFMA" has out 'FFMA'
expect 1 "doc NOPE" "$G" doc NOPE
check "doc NOPE message" has err "unknown optype or opcode 'NOPE'"
expect 1 "doc FFAM" "$G" doc FFAM
check "doc suggests a close name" has err "did you mean 'FFMA'"

# ------------------------------------------------------------ as
expect 0 "as hex to stdout" "$G" as -o - --format hex ok.s
check "hex: 3 lines of 32 lowercase digits" test "$(grep -cE '^[0-9a-f]{32}$' out)" -eq 3
check "hex: nothing else" test "$(wc -l <out)" -eq 3
run bash -c "echo 'FADD R5, R6, R7' | '$G' as -o - --format hex"
check "FADD from stdin gives one 32-digit line" test "$(cat out | grep -cE '^[0-9a-f]{32}$')" -eq 1
cp out fadd.hex
expect 0 "as - (stdin)" "$G" as - -o - --format=hex <ok.s
expect 0 "options after the file" "$G" as ok.s --format hex -o x.hex
check "-o x.hex written" test "$(wc -l <x.hex)" -eq 3

expect 0 "as default output" "$G" as ok.s
check "default output a.bin, 16 bytes per instruction" test "$(wc -c <a.bin)" -eq 48
expect 0 "as --format hex default output" "$G" as ok.s --format hex
check "default hex output a.hex" test -s a.hex
expect 0 "as --format c" "$G" as ok.s --format c
check "default c output a.c" has a.c 'const unsigned gisa_code_words = 3;'
check "c output: 16 bytes per line" test "$(grep -cE '^ +(0x[0-9a-f]{2}, ){15}0x[0-9a-f]{2},?$' a.c)" -eq 3
if command -v cc >/dev/null; then
    check "c output compiles" cc -std=c11 -Wall -Werror -c a.c -o a.o
fi
check "hex and bin agree (bit 127 first vs little-endian)" \
    test "$(od -An -v -tx1 a.bin | tr -d ' \n' | fold -w32 | sed -E 's/(..)/\1 /g' | awk '{for(i=NF;i>0;i--) printf "%s", $i; print ""}')" = "$(cat a.hex)"

# round trips: bin and hex through dis, and back through as
expect 0 "dis of bin" "$G" dis a.bin
check "bin round trip text" diff -u <(cat ok.s) out
"$G" as out -o again.bin
check "bin round trip bytes" cmp a.bin again.bin
expect 0 "dis of hex" "$G" dis --format hex a.hex
check "hex round trip text" diff -u <(cat ok.s) out
run bash -c "'$G' as -o - --format hex ok.s | '$G' dis --format=hex - | '$G' as -o - --format hex"
check "hex pipe round trip" diff -u a.hex out

# errors: diagnostics, summary, exit 1, nothing written
echo 'precious' >keep.bin
expect 1 "as with errors" "$G" as bad.s -o keep.bin
check "error format file:line:col: error:" has err '^bad.s:2:1: error: '
check "second error located" has err '^bad.s:3:16: error: '
check "source line echoed" has err '^  FADD R5, R6, Q7$'
check "caret line" has err '^ +\^~*$'
check "error summary" has err '^2 errors$'
check "output untouched on errors" test "$(cat keep.bin)" = precious
check "no temp file left on errors" no_tmp
rm -f a.bin
expect 1 "as with errors, default output" "$G" as bad.s
check "no a.bin on errors" test ! -e a.bin
expect 1 "as errors to stdout" "$G" as bad.s -o -
check "nothing on stdout on errors" test ! -s out
expect 1 "stdin errors are named <stdin>" "$G" as -o - <bad.s
check "<stdin> in messages" has err '^<stdin>:2:1: error: '

for i in 1 2 3 4 5; do echo "BAD$i R1"; done >many.s
expect 1 "--max-errors 2" "$G" as --max-errors 2 many.s -o -
check "only 2 errors shown" test "$(grep -c ': error: ' err)" -eq 2
check "the errors not shown are counted" has err '^3 more errors not shown$'
check "summary counts every error" has err '^5 errors$'
expect 1 "--max-errors 0 is no limit" "$G" as --max-errors=0 many.s -o -
check "all 5 errors shown" test "$(grep -c ': error: ' err)" -eq 5

# replacing an existing file keeps its permissions and leaves no temp file
echo old >perm.bin
chmod 640 perm.bin
expect 0 "as over an existing file" "$G" as ok.s -o perm.bin
check "replaced contents" test "$(wc -c <perm.bin)" -eq 48
check "permissions kept" test "$(stat -c %a perm.bin)" = 640
check "no temp file after success" no_tmp
expect 0 "as -o /dev/null" "$G" as ok.s -o /dev/null
check "/dev/null is still a device" test -c /dev/null

# ------------------------------------------------------------ dis
"$G" as ok.s -o ok.bin
head -c 40 ok.bin >trunc.bin
expect 1 "dis of a truncated bin" "$G" dis trunc.bin
check "truncation message" has err '^trunc.bin: error: .*truncated'
check "no listing for a truncated file" test ! -s out

printf '00000000000000000000000000000000\n' >zero.hex
expect 1 "dis --strict of an invalid word" "$G" dis --strict --format hex zero.hex
check "invalid word printed" has out '^\.invalid 0x0{32}'
check "invalid count" has err '^1 invalid word'
expect 0 "dis of an invalid word without --strict" "$G" dis --format hex zero.hex
check "invalid word printed without --strict" has out '^\.invalid'
expect 0 "dis --strict of valid words" "$G" dis --strict ok.bin

expect 0 "dis --offsets" "$G" dis --offsets ok.bin
check "offsets" test "$(cut -c1-8 out | tr '\n' ' ')" = '/*0000*/ /*0010*/ /*0020*/ '
check "offsets then text" has out '^/\*0010\*/ FADD R5, R6, R7$'
expect 0 "dis --raw" "$G" dis --raw ok.bin
check "raw word appended" has out "^FADD R5, R6, R7  // 0x$(cat fadd.hex)$"

printf '# a comment\n\n0x%s\n  // another\n%s  # trailing\n' "$(cat fadd.hex)" "$(tr a-f A-F <fadd.hex)" >loose.hex
expect 0 "hex with comments, blanks, 0x, uppercase" "$G" dis --format hex loose.hex
check "two words decoded" test "$(grep -c '^FADD R5, R6, R7$' out)" -eq 2
printf '%s\n\n0123\n%sg\n' "$(cat fadd.hex)" "$(cut -c1-31 fadd.hex)" >badhex.hex
expect 1 "dis of bad hex" "$G" dis --format hex badhex.hex
check "bad hex line located" has err '^badhex.hex:3: error: .*32 hex digits'
check "bad hex char located" has err "^badhex.hex:4: error: invalid character 'g'"
check "no listing for bad hex" test ! -s out
expect 0 "dis of empty input" "$G" dis - </dev/null
check "empty listing" test ! -s out
expect 0 "dis -o FILE" "$G" dis ok.bin -o listing.s
check "dis -o wrote the listing" diff -u ok.s listing.s
check "no temp files at the end" no_tmp

finish
