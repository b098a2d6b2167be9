#!/usr/bin/env bash
# `--target fermi` through every subcommand: lint is clean, doc shows the
# 64-bit layout, as writes 8 bytes per word (little-endian) or 16 hex digits,
# dis reads both back, warnings keep exit 0, errors give 1 and no output,
# run simulates with R0..R62 and rejects --regs 64.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" fermi

F=(--target fermi)

expect 0 "lint --target fermi" "$G" lint "${F[@]}"
check "lint is clean" has out 'lint: 0 errors, 0 warnings'
expect 0 "doc FFMA_S" "$G" doc "${F[@]}" FFMA_S
check "doc shows the composite selector" has out '47\.\.46 +src +Composite +== SWAP'
check "doc shows 64-bit words" hasnt out '127'
expect 1 "doc of a gisa128-only name" "$G" doc "${F[@]}" IMAD
expect 2 "unknown target" "$G" lint --target sm_90
check "unknown target named" has err "sm_90"

printf 'FADD R0, R1, R2\n@!P5 DFMA.RP R0, R2, -R4, R6 ; MUFU.RCP R56, R1 // comment\n' >p.s
expect 0 "as to binary" "$G" as "${F[@]}" p.s -o p.bin
check "8 bytes per word" test "$(wc -c <p.bin)" -eq 24
check "little-endian: FADD R0, R1, R2 = 5000000008101c00" test "$(od -An -tx1 -N8 p.bin | tr -d ' \n')" = 001c100800000050
expect 0 "as to hex" "$G" as "${F[@]}" p.s -o p.hex --format hex
check "16 digits, most significant first" test "$(head -1 p.hex)" = 5000000008101c00
check "asfermi's DFMA word" test "$(sed -n 2p p.hex)" = 210c000010203601
expect 0 "dis binary" "$G" dis "${F[@]}" p.bin
check "dis text" test "$(cat out)" = "$(printf 'FADD R0, R1, R2\n@!P5 DFMA.RP R0, R2, -R4, R6\nMUFU.RCP R56, R1')"
expect 0 "dis hex" "$G" dis "${F[@]}" --format hex p.hex
check "hex and binary agree" test "$(sed -n 3p out)" = "MUFU.RCP R56, R1"
printf '4000000000001de4\n' >nop.hex
expect 1 "a word of no modelled instruction (--strict)" "$G" dis "${F[@]}" --strict --format hex nop.hex
check ".invalid with 16 digits" has out '^\.invalid 0x4000000000001de4 '

printf 'FADD R0, R1, F1.00001\n' >w.s
expect 0 "inexact 20-bit immediate" "$G" as "${F[@]}" w.s -o w.hex --format hex
check "warning shows the encoded value" has err 'warning: .*encoded 0x3f800'
check "rounded word written" test "$(cat w.hex)" = 5000cfe000101c00

printf 'FADD R0, R1, R2\nFMLU R0, R1, R2\n' >e.s
expect 1 "unknown mnemonic" "$G" as "${F[@]}" e.s -o e.bin
check "suggestion" has err "did you mean FMUL\?"
check "no output on errors" test ! -e e.bin

printf 'FFMA R3, R1, R2, c[0x10][0x4]\nFCMP.LT R4, R1, R2, R5\n' >r.s
echo '{"R1": "0x3fc00000", "R2": "0x40000000", "R5": "0xbf800000", "c[0x10][0x4]": "0x3f800000"}' >r.json
expect 0 "run --target fermi" "$G" run "${F[@]}" r.s --state r.json --out o.json
check "FFMA with bank 0x10: 1.5 * 2 + 1 = 4" has o.json '"R3": "0x40800000"'
check "FCMP: R5 < 0 selects R1" has o.json '"R4": "0x3fc00000"'
expect 2 "--regs 64 on fermi" "$G" run "${F[@]}" r.s --regs 64
check "names the limit" has err 'only 63 registers'

finish
