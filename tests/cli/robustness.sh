#!/usr/bin/env bash
# Resource bounds and hostile inputs (docs/robustness.md): 10 million
# instructions in bounded memory and time, 1 MB lines, 100,000 errors capped
# with a count, description files with deep nesting, unterminated
# constructs, huge numbers and over-long lists, and outputs that a failed or
# killed run never leaves half-written.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository),
# GISA_SANITIZED (set for sanitizer builds: no address-space limit, more time).
source "$(dirname "$0")/lib/harness.bash" robust

# bounded MAXKB CMD...: CMD within MAXKB of address space (not for sanitizers,
# which reserve terabytes up front)
bounded() {
    local kb=$1
    shift
    if [ -n "${GISA_SANITIZED:-}" ]; then
        "$@"
    else
        (ulimit -v "$kb" && exec "$@")
    fi
}
# Sanitizers run the same code paths 10-20 times slower, and their memory
# figures mean nothing: 1 million instructions are enough for them.
N=10000000 time_limit=120
[ -n "${GISA_SANITIZED:-}" ] && N=1000000 time_limit=300

# ------------------------------------------------------------ 10 million instructions
repeat "$N" 'FADD R5, R6, R7' >big.s
echo 'FADD R5, R6, R7' >one.s
"$G" as one.s -o one.bin
usage=()
[ -x /usr/bin/time ] && usage=(/usr/bin/time -o usage.txt -f '%M kB max RSS, %e s')
start=$SECONDS
# 800 MB of address space: the source held whole (160 MB), the words (16
# bytes each, in a doubling array) and the output image (16 bytes each)
expect 0 "$N instructions in 800 MB" bounded 819200 "${usage[@]}" "$G" as big.s -o big.bin
secs=$((SECONDS - start))
[ -f usage.txt ] && echo "$N instructions: $(cat usage.txt)"
check "$N instructions in at most ${time_limit}s (took ${secs}s)" test "$secs" -le "$time_limit"
check "$N instructions: 16 bytes each" test "$(stat -c %s big.bin)" -eq $((16 * N))
check "$N instructions: the first word" cmp <(head -c 16 big.bin) one.bin
check "$N instructions: the last word" cmp <(tail -c 16 big.bin) one.bin

# A run killed while it works leaves no partial output and no temporary file.
rm -f big.bin
"$G" as big.s -o big.bin 2>/dev/null &
pid=$!
sleep 1
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
check "a killed run leaves no partial output" \
    bash -c '[ ! -e big.bin ] || [ "$(stat -c %s big.bin)" -eq '$((16 * N))' ]'
check "a killed run leaves no temporary file" no_tmp
rm -f big.s big.bin

# ------------------------------------------------------------ 1 MB lines
awk 'BEGIN { for (i = 0; i < 65536; i++) printf "FADD R5, R6, R7;"; print "" }' >line.s
expect 0 "a 1 MB line of 65536 statements" "$G" as line.s -o line.bin
check "65536 words from one line" test "$(stat -c %s line.bin)" -eq $((16 * 65536))
mb() { awk -v c="$1" 'BEGIN { s = c; while (length(s) < 1000000) s = s s; printf "%s", substr(s, 1, 1000000) }'; }
{ printf '// '; mb x; printf '\nFADD R5, R6, R7\n'; } >comment.s
expect 0 "a 1 MB comment" "$G" as comment.s -o comment.bin
{ mb A; echo; } >token.s
expect 1 "a 1 MB mnemonic" "$G" as token.s -o token.bin
check "1 MB mnemonic: named" has err '^token.s:1:1: error: unknown instruction'
check "1 MB mnemonic: the echoed line is cut" test "$(wc -c <err)" -lt 20000
{ printf 'IADD R5, R6, '; mb 9; echo; } >int.s
expect 1 "a 1 MB integer" "$G" as int.s -o int.bin
check "1 MB integer: out of range" has err 'error: SImm32 out of range'
{ printf 'FADD R5, R6, '; mb 9; echo; } >float.s
expect 1 "a 1 MB float" "$G" as float.s -o float.bin
check "1 MB float: too long" has err 'error: F32 immediate too long'
{ mb 0; echo; } >line.hex
expect 1 "a 1 MB hex line" "$G" dis --format hex line.hex
check "1 MB hex line: digit count" has err 'expected 32 hex digits, got 1000000'
check "nothing written for a bad line" test ! -e token.bin -a ! -e int.bin -a ! -e float.bin
{ echo 'FADD R5, R6, R7'; printf '/* '; mb x; echo; } >open.s
expect 1 "an unterminated 1 MB comment" "$G" as open.s -o open.bin
check "unterminated comment: named" has err 'unterminated /\* comment'

# ------------------------------------------------------------ 100,000 errors
repeat 100000 'FADD R5, R6, Q7' >errors.s
expect 1 "100,000 errors" "$G" as errors.s -o errors.bin
check "100,000 errors: 100 shown" test "$(grep -c ': error: ' err)" -eq 100
check "100,000 errors: the rest counted" has err '^99900 more errors not shown$'
check "100,000 errors: the total" has err '^100000 errors$'
check "100,000 errors: output bounded" test "$(wc -l <err)" -le 302
repeat 100000 'zz' >errors.hex
expect 1 "100,000 bad hex lines" "$G" dis --format hex errors.hex
check "bad hex lines: the rest counted" has err '^99900 more errors not shown$'

# ------------------------------------------------------------ description files
# desc DESC REGEX: x.isa beside the real description must fail with REGEX
desc() {
    rm -rf d
    mkdir d
    cp "$SRC"/isa/gisa128/*.isa d/
    mv x.isa d/
    expect 1 "$1" "$G" lint --isa d
    check "$1: message" grep -qE -- "$2" out err
}
nest() { awk -v n="$1" -v c="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", c }'; }
exc() { printf '__DefRuling FADD\n  __Exception\n    EncodingError<IllegalBitFieldCombination, %s;\n' "$1"; }
exc "\"x\"> = $(nest 10000 '(')1$(nest 10000 ')')" >x.isa
desc "10,000 nested parentheses" 'expression nested too deeply'
exc '"never closed> = 1' >x.isa
desc "unterminated string" 'unterminated "message" string'
printf '__DefOptype ZZZ : [F_ARITH]\n  __Syntax\n```asm\nZZZ Rd, Ra\n' >x.isa
desc "unterminated code fence" 'unterminated code block'
printf '__DefBitFieldType Huge<4294967297>\n    A;\n' >x.isa
desc "a huge type width" 'expected a width'
printf '__DefRuling FADD\n  __Encoding\n    field<0, 100> FPSat sat = NoSAT;\n' >x.isa
desc "a 100-bit field" 'field width must be 1..64 bits'
printf '__DefRuling FADD\n  __Encoding\n    field<4294967296, 99999999999999999999> FPSat sat = NoSAT;\n' >x.isa
desc "a huge bit offset" 'expected the bit offset'
{ printf '__DefGroup GG : [ALL]\n  __Semantics\n```\n'; repeat 100001 'x = 1;'; echo '```'; } >x.isa
desc "100,001 lines in a code block" 'more than 100000 entries'
printf '__DefGroup G1 : [G3]\n__DefGroup G2 : [G1]\n__DefGroup G3 : [G2]\n__DefOptype ZZZ : [G3]\n__DefOpcode ZZZ_R : [ZZZ]\n' >x.isa
desc "an inheritance cycle" 'inheritance cycle'
{ echo '__DefGroup G0 : [ALL]'; for i in $(seq 1 40); do echo "__DefGroup G$i : [G$((i - 1))]"; done
  printf '__DefOptype ZZZ : [G40]\n__DefOpcode ZZZ_R : [ZZZ]\n'; } >x.isa
desc "inheritance 40 levels deep" 'deeper than 32 levels'
repeat 100000 '    A;' >x.isa
desc "100,000 errors in a description" 'too many errors in d/x.isa; giving up'
check "description errors: output bounded" test "$(wc -l <err)" -le 700
awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i }' >x.isa
desc "every byte value" 'NUL byte in description file'
awk 'BEGIN { for (i = 0; i < 600000; i++) print "// 28 bytes of comment text" }' >x.isa
desc "a description over 16 MiB" 'larger than the 16 MiB limit'
{ echo '__DefBitFieldType Many<64>'; awk 'BEGIN { for (i = 0; i <= 4096; i++) print "    V" i ";" }'; } >x.isa
desc "4097 enumerators" 'more than 4096 values in one type'
{ echo '__DefGroup GG : [ALL]'; echo '  __Encoding'; awk 'BEGIN { for (i = 0; i <= 256; i++) print "    field<16, 8> Reg r" i ";" }'; } >x.isa
desc "257 fields in a definition" 'more than 256 fields in one definition'
# 50,000 opcodes that all decode alike: a billion pairwise problems, reported
# up to a cap, in bounded time and memory (20,000 once took 23 GB)
{ printf '__DefOptype ZZZ : [F_ARITH]\n  __Encoding\n    field<0, 8> Optype optype == FADD;\n'
  printf '  __Syntax\n```asm\nZZZ Rd, Ra\n```\n'
  awk 'BEGIN { for (i = 0; i < 50000; i++) print "__DefOpcode ZZZ_" i " : [ZZZ]" }'; } >x.isa
start=$SECONDS
desc "50,000 ambiguous opcodes" 'more than 10000 problems: lint stopped'
check "50,000 ambiguous opcodes in at most ${time_limit}s" test $((SECONDS - start)) -le "$time_limit"
expect 0 "50,000 ambiguous opcodes load in 1 GB" bounded 1048576 "$G" doc --isa d ZZZ_49999

# ------------------------------------------------------------ outputs are all or nothing
write_fixtures "$SRC" "$G"
for f in keep.bin keep.s keep.json keep.txt; do echo precious >"$f"; done
expect 1 "as with errors over an existing file" "$G" as bad.s -o keep.bin
expect 1 "dis with errors over an existing file" "$G" dis --format hex bad.hex -o keep.s
expect 1 "run with errors over an existing file" "$G" run bad.s -o keep.json --trace=keep.txt
expect 2 "run with a bad state over an existing file" "$G" run --state <(echo '{"Q1": 1}') ok.s -o keep.json --trace=keep.txt
for f in keep.bin keep.s keep.json keep.txt; do
    check "$f untouched by a failed run" test "$(cat "$f")" = precious
done
expect 1 "dis with errors, new file" "$G" dis --format hex bad.hex -o new.s
expect 1 "run with errors, new files" "$G" run bad.s -o new.json --trace=new.txt
check "no new file after a failed run" test ! -e new.s -a ! -e new.json -a ! -e new.txt
if [ -w /dev/full ]; then
    expect 2 "a full disk" "$G" as ok.s -o /dev/full
    check "a full disk is named" has err 'No space left'
fi
expect 2 "an output directory that is a file" "$G" as ok.s -o ok.s/x.bin
check "no temporary file anywhere" no_tmp

finish
