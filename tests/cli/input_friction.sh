#!/usr/bin/env bash
# Input friction a new user hit (issue "The command line as GNU as, llvm-mc
# and Spike users expect it"): a UTF-8 byte-order mark is skipped by every
# text reader (assembly, hex words, state JSON) as it is by the ISA loader,
# and columns after it are unchanged; `gisa dis x.hex` reads hex text by the
# extension as `gisa run` does; binary input that is really hex text says so.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" input_friction

BOM=$'\xEF\xBB\xBF'
printf 'FADD R0, R1, R2\n' >plain.s
printf '%sFADD R0, R1, R2\n' "$BOM" >bom.s
expect 0 "assembly without a BOM" "$G" as plain.s --format hex -o plain.hex
expect 0 "assembly after a BOM" "$G" as bom.s --format hex -o bom.hex
check "a BOM changes no word" cmp -s plain.hex bom.hex

printf '%sFADD R0, R1, P2\n' "$BOM" >bad.s
expect 1 "an error after a BOM" "$G" as bad.s -o /dev/null
check "its column ignores the BOM" has err '^bad\.s:1:14: error'
check "its source line has no BOM" has err '^FADD R0, R1, P2$'

{ printf '%s' "$BOM"; cat plain.hex; } >bomwords.hex
expect 0 "hex words after a BOM" "$G" dis --format hex bomwords.hex
check "hex words after a BOM disassemble" has out '^FADD R0, R1, R2$'

printf '%s{"R1": "0x3f800000"}\n' "$BOM" >state.json
printf 'FADD R0, R1, R1\n' >double.s
expect 0 "state JSON after a BOM" "$G" run double.s --state state.json --out out.json
check "the state was read" has out.json '"R0": "0x40000000"'

expect 0 "dis of a *.hex file reads hex text" "$G" dis plain.hex
check "... and prints the instruction" has out '^FADD R0, R1, R2$'
head -c 32 /dev/zero >zeros32.hex
expect 0 "--format bin overrides the extension" "$G" dis --format bin zeros32.hex
check "... two binary words" test "$(grep -c '^\.invalid' out)" -eq 2
cp plain.hex words.txt
expect 1 "hex text read as binary" "$G" dis words.txt
check "the error says the data looks like hex text" has err 'looks like hex text'
head -c 40 /dev/zero >zeros.bin
expect 1 "a truncated binary" "$G" dis zeros.bin
check "a binary is not called hex text" hasnt err 'looks like hex text'

finish
