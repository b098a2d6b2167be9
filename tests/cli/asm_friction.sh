#!/usr/bin/env bash
# The assembler and command line as GNU as / llvm-mc users expect them
# (issue "The command line as GNU as, llvm-mc and Spike users expect it"):
# directives (.inst/.word/.invalid/.include) so that `gisa dis` output
# always assembles back, the listing, labels, and each friction a new user
# met: the unterminated comment, carets, UTF-8 columns, hex integers in
# float operands, misleading messages, --output/--out, write errors, lint
# noise, the targets in --help.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" asm_friction

# ---------------------------------------------------------------- raw words
printf '.inst 0x1, 0x2 ; FADD R0, R1, R2\n.word 0x00000000000000000000000000000003\n.invalid 0x0 // a reason\n' >raw.s
expect 0 "raw-word directives assemble" "$G" as raw.s --format hex -o raw.hex
check "... to the words given, in order" test "$(sed -n '1p;2p;4p;5p' raw.hex | tr '\n' ' ')" = \
    "00000000000000000000000000000001 00000000000000000000000000000002 00000000000000000000000000000003 00000000000000000000000000000000 "
check "... and the instruction between them" test "$(wc -l <raw.hex)" -eq 5
expect 1 "a value wider than the word" "$G" as -o /dev/null - <<<'.inst 0x100000000000000000000000000000000'
check "... says the width" has err 'wider than the 128-bit instruction word'
expect 1 "a value wider than a Fermi word" "$G" as --target fermi -o /dev/null - <<<'.inst 0x10000000000000000'
check "... says 64 bits" has err 'wider than the 64-bit instruction word'
expect 1 "a value of separators only" "$G" as -o /dev/null - <<<'.inst 0x_'
check "... is no word 0" has err "^<stdin>:1:7: error: expected a word written 0x and up to 32 hex digits \(this one has no digit\)$"
printf 'FADD R0, R1, R2\nFADD R0\0R1, R2\n// a NUL \0 in a comment\n' >nul.s
expect 1 "a NUL byte in a statement" "$G" as nul.s -o /dev/null
check "... says so, at its column" has err '^nul\.s:2:8: error: NUL byte in the source line \(assembly is text\)$'
check "... and only that (a NUL in a comment is blank)" test "$(grep -c 'error:' err)" -eq 1
expect 1 "a misspelt directive" "$G" as -o /dev/null - <<<'.incldue "x.s"'
check "... suggests the right one" grep -qF "unknown directive '.incldue' (did you mean '.include'?)" err
expect 0 ".invalid of a valid word" "$G" as -o /dev/null - <<<".invalid 0x$(sed -n 3p raw.hex)"
check "... warns that the word decodes" has err "warning: this word is no invalid one: it is 'FADD R0, R1, R2'"

# every dis output assembles back to the same bits: valid and invalid words
# of both targets, with --offsets and --raw comments
for target in gisa128 fermi; do
    bytes=16
    [ "$target" = fermi ] && bytes=8
    head -c $((bytes * 64)) /dev/urandom >rand.bin
    "$G" as --target "$target" ok.s -o ok1.bin 2>/dev/null || printf 'FADD R0, R1, R2\n' | "$G" as --target "$target" - -o ok1.bin
    cat ok1.bin rand.bin ok1.bin >mix.bin
    expect 0 "$target: dis of valid and invalid words" "$G" dis --target "$target" --offsets --raw mix.bin -o mix.s
    check "$target: some words are .invalid" grep -q '^/\*[0-9a-f]*\*/ \.invalid 0x' mix.s
    expect 0 "$target: the listing assembles" "$G" as --target "$target" mix.s -o back.bin
    check "$target: ... back to the same bits" cmp -s mix.bin back.bin
done

# ---------------------------------------------------------------- .include
mkdir -p inc/sub
printf 'FADD R0, R1, R2\n.include "sub/b.s"\nFMUL R3, R4, R5\n' >inc/a.s
printf '// b\n.include "c.s"\n' >inc/sub/b.s
printf 'IADD R0, R1, R2\n' >inc/sub/c.s
printf 'FADD R0, R1, R2\nIADD R0, R1, R2\nFMUL R3, R4, R5\n' >flat.s
"$G" as flat.s -o flat.bin
expect 0 "includes relative to the including file's directory" "$G" as inc/a.s -o inc.bin
check "... give the words of the flat file" cmp -s flat.bin inc.bin
(cd inc && "$G" as a.s -o ../inc2.bin) && check "... from another directory too" cmp -s flat.bin inc2.bin
printf 'FADD R0, R1, P2\n' >inc/sub/c.s
expect 1 "an error in an included file" "$G" as inc/a.s -o /dev/null
check "... names the including files as GCC does" has err '^In file included from inc/sub/b\.s:2,$'
check "... up to the main file" has err '^                 from inc/a\.s:2:$'
check "... then the error in the included file" has err '^inc/sub/c\.s:1:14: error: FADD: SrcB cannot be a predicate'
printf '.include "b.s"\n' >inc/sub/c.s
expect 1 "a cycle of includes" "$G" as inc/a.s -o /dev/null
check "... is an error naming the chain" has err "'inc/sub/b\.s' includes itself: inc/sub/b\.s -> inc/sub/c\.s -> inc/sub/b\.s"
printf '.include "../a.s"\n' >inc/sub/c.s
expect 1 "a cycle through the main file (another spelling of its path)" "$G" as inc/a.s -o /dev/null
check "... is found" has err "includes itself: inc/a\.s -> inc/sub/b\.s -> inc/sub/c\.s -> inc/sub/\.\./a\.s"
printf '.include "nothere.s"\n' >inc/sub/c.s
expect 1 "a missing include" "$G" as inc/a.s -o /dev/null
check "... says which path was tried and why" has err "cannot include 'nothere.s': 'inc/sub/nothere.s': No such file or directory"
mkdir -p deep
for i in $(seq 0 40); do printf '.include "f%d.s"\n' $((i + 1)) >deep/f$i.s; done
printf 'FADD R0, R1, R2\n' >deep/f41.s
expect 1 "includes nested too deep" "$G" as deep/f0.s -o /dev/null
check "... stop at the depth limit" has err 'includes nested more than 32 deep'
expect 0 "an include from standard input: relative to the current directory" "$G" as - -o /dev/null <<<'.include "flat.s"'
# a fan-out: each file includes the next twice, 2^31 inclusions (hours)
mkdir -p fan
for i in $(seq 0 30); do printf '.include "f%d.s"\n.include "f%d.s"\n' $((i + 1)) $((i + 1)) >fan/f$i.s; done
printf 'FADD R0, R1, R2\n' >fan/f31.s
expect 1 "includes that fan out to 2^31 inclusions" timeout 60 "$G" as fan/f0.s -o fan.bin
check "... stop at the limit of inclusions, at the directive" \
    has err "^fan/f[0-9]+\.s:[12]:10: error: cannot include 'f[0-9]+\.s': more than 10000 inclusions in one assembly \(the limit\)$"
check "... said once" test "$(grep -c 'error:' err)" -eq 1
check "... and nothing is written" test ! -e fan.bin
printf '.include "f19.s"\n' >fan/top.s # 2^13 - 1 inclusions: under the limit
expect 0 "a fan-out under the limit assembles" "$G" as fan/top.s --format hex -o fan.hex
check "... every inclusion" test "$(wc -l <fan.hex)" -eq 4096
awk 'BEGIN { l = sprintf("%4000s", ""); gsub(/ /, "x", l); for (i = 0; i < 4400; i++) print "// " l }' >fan/big.s # 17 MiB
printf '.include "big.s"\n.include "big.s"\n.include "big.s"\nFADD R0, R1, R2\n.include "big.s"\n' >fan/bytes.s
expect 1 "more than 64 MiB of included files" "$G" as fan/bytes.s -o /dev/null
check "... stop at the limit of bytes, at the directive" \
    has err "^fan/bytes\.s:5:10: error: cannot include 'big\.s': more than 64 MiB of included files in one assembly \(the limit\)$"

# ---------------------------------------------------------------- listing
printf 'FADD R0, R1, R2\nIADD R0, R1, R2\n' >inc/sub/c.s
expect 0 "-a lists" "$G" as -a inc/a.s -o inc.bin
cp out listing.txt
check "the listing names each file where it starts" test "$(grep -c '^// ' listing.txt)" -eq 4
check "a line: number, offset, encoding, source" grep -qE '^     1  0000  [0-9a-f]{32}  FADD R0, R1, R2$' listing.txt
check "an included line has its own number and the next offset" grep -qE '^     2  0020  [0-9a-f]{32}  IADD R0, R1, R2$' listing.txt
check "a line without words: its source" grep -qE '^     1 {42}// b$' listing.txt
check "the encodings are the words written" \
    test "$(grep -oE '^ +[0-9]+  [0-9a-f]{4}  [0-9a-f]{32}' listing.txt | awk '{print $3}' | tr '\n' ' ')" = \
    "$("$G" as inc/a.s --format hex -o - | tr '\n' ' ')"
expect 0 "--listing=FILE" "$G" as --listing=l.txt inc/a.s -o inc.bin
check "... writes the same listing there" cmp -s l.txt listing.txt
expect 2 "the listing and -o - on standard output" "$G" as -a inc/a.s -o -
check "... is a usage error" has err 'cannot both go to standard output'
printf 'FADD R0, R1, R2\n' | "$G" as --target fermi -a - -o /dev/null >fermi.lst
check "a Fermi listing shows 16 digits" grep -qE '^     1  0000  [0-9a-f]{16}  FADD R0, R1, R2$' fermi.lst

# ---------------------------------------------------------------- labels, comments, carets
expect 1 "a label" "$G" as - -o /dev/null <<<'start:'
check "... says labels are not part of this ISA" has err "1:1: error: labels are not part of this ISA"
printf 'FADD R0,R1,P2\n/* x\nFADD R0,R1,R2\n' >uc.s
expect 1 "an unterminated comment after another error" "$G" as uc.s -o /dev/null
check "... the other error" has err '^uc\.s:1:12: error'
check "... and the comment, at its start" has err '^uc\.s:2:1: error: unterminated /\* comment'
check "... with its source line" grep -qx '/\* x' err
check "... two errors" has err '^2 errors$'
expect 1 "an operand before a // comment" "$G" as - -o /dev/null <<<'IADD R0, P0, R2, P4 // low word'
check "... the caret spans the operand only" grep -qx '                 ^~' err
printf '/* 中文 */ FADD R0, R1, P2\n' >utf.s
expect 1 "an error after UTF-8 text" "$G" as utf.s -o /dev/null
check "... its column counts characters" has err '^utf\.s:1:23: error'
check "... the caret stands under the operand" grep -qx '                      ^~' err

# ---------------------------------------------------------------- immediates and messages
expect 0 "a hex integer as a float operand" "$G" as - -o /dev/null <<<'FADD R0, R1, 0x3f800000'
check "... warns" has err 'warning: FADD: 0x3f800000 is the integer 1065353216 converted to F32'
check "... and says how to write either" has err 'write 1.0 or 0f3F800000, for the integer 1065353216.0'
expect 0 "the bits written 0f" "$G" as - -o /dev/null <<<'FADD R0, R1, 0f3F800000'
check "... do not warn" test ! -s err
printf 'FADD R0, R1, 0x1234\n' >fermi_hex.s
expect 0 "under Fermi plain hex is raw bits" "$G" as --target fermi fermi_hex.s -o /dev/null
check "... without a warning" test ! -s err
expect 1 "a float for an integer operand" "$G" as - -o /dev/null <<<'IADD R0, R1, 1.5'
check "... says it is a float value" grep -qF 'IADD: SrcB cannot be a float value (1.5); expected' err
expect 1 "a missing comma" "$G" as - -o /dev/null <<<'FFMA R0 R1, R2, R3'
check "... says so" has err "1:9: error: expected ',' before 'R1'"

# ---------------------------------------------------------------- options and files
printf 'FADD R0, R1, R2\n' >p.s
expect 2 "run --trace FILE (a space)" "$G" run --trace t.txt
check "... hints at --trace=t.txt" has err "write --trace=t.txt"
expect 2 "run --trace FILE PROGRAM" "$G" run --trace t.txt p.s
check "... hints at --trace=t.txt" has err "to give --trace a value, write --trace=t.txt"
"$G" as p.s -o p.bin
expect 0 "as --out" "$G" as p.s --out o1.bin
expect 0 "dis --out" "$G" dis p.bin --out o1.txt
expect 0 "run --output" "$G" run p.s --output o1.json
expect 0 "run --out" "$G" run p.s --out o2.json
check "as --out wrote the words" cmp -s p.bin o1.bin
check "dis --out wrote the text" grep -qx 'FADD R0, R1, R2' o1.txt
check "run --output and --out write the same" cmp -s o1.json o2.json
expect 2 "-o into a missing directory" "$G" as p.s -o nodir/x.bin
check "... says why" has err "cannot create 'nodir/x.bin': No such file or directory"
mkdir ro && chmod 555 ro
if touch ro/probe 2>/dev/null; then
    echo "skip: -o into a read-only directory (this user writes anywhere)"
else
    expect 2 "-o into a read-only directory" "$G" as p.s -o ro/x.bin
    check "... says why" has err "cannot create 'ro/x.bin': Permission denied"
fi
if [ -e /proc/version ]; then
    expect 2 "-o /proc/version" "$G" as p.s -o /proc/version
    check "... gives the file's own reason" hasnt err 'No such file or directory'
    check "... and says it cannot write it" has err "cannot write '/proc/version': "
fi

expect 0 "gisa --help" "$G" --help
check "... lists the targets" has out '^  gisa128 \(default\)$'
check "... and fermi" has out '^  fermi$'

# ---------------------------------------------------------------- lint
mkdir -p mis
cp "$SRC"/isa/gisa128/*.isa mis/
sed -i '0,/PModi pg.not/s//PModl pg.not/' mis/falu.isa
expect 1 "lint of a misspelt type inherited by many opcodes" "$G" lint --isa mis
check "... reports it once" test "$(grep -c "unknown type 'PModl'" err)" -eq 1
check "... with did you mean" grep -qF "(did you mean 'PModi'?)" err
mkdir -p docs128
for f in dalu falu halu ialu; do cp "$SRC/isa/gisa128/$f.isa" docs128/; done
expect 1 "lint --target fermi of gisa128 descriptions" "$G" lint --target fermi --isa docs128
check "... says the target does not match, once" test "$(grep -c 'error:' err)" -eq 1
check "... and names the target they fit" has err "not for target 'fermi'.*load without errors as target 'gisa128'"
expect 0 "lint of the shipped ISA" "$G" lint
check "every lint line has a column" test -z "$(grep -E ': (warning|error): ' out | grep -vE '^[^:]+:[0-9]+:[0-9]+: ')"
check "every warning shows its kind" test -z "$(grep ': warning: ' out | grep -vE ' \[-W[a-z-]+\]$')"
check "lint: every acknowledged erratum is a note, with its kind" test "$(grep -cE ': note: erratum corrected by ruling \(.*\[-W[a-z-]+\]$' out)" -gt 0
run "$G" lint -Wruling
kinds=$(grep -oE '\[-W[a-z-]+\]$' out | sed 's/\[-W//; s/\]//' | sort -u)
nos=()
for k in $kinds; do [ "$k" = ruling ] || nos+=("-Wno-$k"); done
expect 1 "lint --werror -Wruling with every other kind silenced" "$G" lint --werror -Wruling "${nos[@]}"
check "... reports the rulings' own corrections only" test -z "$(grep ': warning: ' out | grep -v '\[-Wruling\]$')"
check "... and says how many were silenced" has out '^lint: 0 errors, 4 warnings \([0-9]+ silenced\)$'
expect 1 "lint --werror -Wruling with one kind on" "$G" lint --werror -Wruling "${nos[@]}" -Wexample
check "... reports that kind" has out ': warning: .*\[-Wexample\]$'
check "... and no note of it" hasnt out ': note: .*\[-Wexample\]$'
expect 0 "lint --werror: -Wno-ruling after -Wruling keeps the notes" "$G" lint --werror -Wruling -Wno-ruling
check "... and counts them" has out '^lint: 0 errors, 0 warnings, [0-9]+ acknowledged errata$'
expect 2 "an unknown kind" "$G" lint -Wno-rulng
check "... suggests the right one" grep -qF "unknown warning 'rulng' (did you mean 'ruling'?)" err
expect 0 "gisa lint --help" "$G" lint --help
for k in $kinds; do
    if grep -q -- "$k" out; then ok; else bad "lint --help does not name warning kind $k"; fi
done

finish
