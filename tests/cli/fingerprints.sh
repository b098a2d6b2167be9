#!/usr/bin/env bash
# The C semantics as a checked accelerator of the documents (issue 32,
# docs/semantics-language.md "C semantics and the documents"):
#  - `gisa lint --fingerprints` on both shipped targets gives the table of
#    src/sim/fingerprints.c (what the build checks), and each entry's C
#    function is where the messages say;
#  - a copy of the shipped description with FMNMX's NaN rule edited: lint
#    notes it at the edited line (a note: no more warnings), --fingerprints
#    fails with the value to declare, `gisa run` (--engine auto) gives the
#    edited pseudo-code's result; layout and comments alone change nothing;
#    a ruling in an --isa-add file is named as the change;
#  - `gisa lint --check-semantics`: the shipped ISA agrees (in under 30 s),
#    the edited copy disagrees with the instruction, lane, inputs and both
#    results, and a seed gives the same words.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" fingerprints

FP=$SRC/src/sim/fingerprints.c
for t in gisa128 fermi; do
    expect 0 "$t: the declared fingerprints are the shipped pseudo-code's" "$G" lint --fingerprints --target $t
    cp out table.$t
done
check "gisa128: a line per optype with C semantics and pseudo-code" test "$(grep -c UINT64_C table.gisa128)" -eq 43
check "fermi: no pseudo-code, no line" test "$(grep -c UINT64_C table.fermi)" -eq 0
while read -r line; do
    check "declared in fingerprints.c: $line" grep -qF -- "$line" "$FP"
done < <(grep UINT64_C table.gisa128 | sed 's/^ *//')
# every declaration's C function is in the file its comment names (the messages' "op_x in FILE")
awk '/^    \/\* src\/sim\/ops_.*\.c \*\/$/ { f = $2; next }
     /^    \{"/ { split($0, q, "\""); print f, q[2], "op_" tolower(q[2]) }' "$FP" >entries
check "fingerprints.c declares the 45 C entries" test "$(wc -l <entries)" -eq 45
while read -r file name fn; do
    check "$name: $fn in $file" grep -qF "{\"$name\", $fn," "$SRC/$file"
done <entries

# ---------------------------------------------------------------- an edited copy
cp -r "$SRC/isa/gisa128" desc
line=$(awk '/^FMNMX.ftz.nan Rd/ { on = 1 } on && /^            Rd = Ra;$/ { print NR; exit }' desc/falu.isa)
check "FMNMX's 'Rd = Ra;' found" test -n "$line"
sed -i "${line}s/Rd = Ra;/Rd[31:0] = 0x7FFFFFFF;/" desc/falu.isa
expect 0 "lint of the shipped copy" "$G" lint --isa "$SRC/isa/gisa128"
tail -1 out >summary.shipped
expect 0 "lint of the edited copy" "$G" lint --isa desc
check "a note is no warning: the same summary" test "$(tail -1 out)" = "$(cat summary.shipped)"
check "lint notes FMNMX at the edited line" has out "^desc/falu.isa:$line:[0-9]+: note: the pseudo-code of FMNMX differs from what its C semantics implement \(op_fmnmx in src/sim/ops_f32.c\): --engine auto runs the pseudo-code for it, --engine native refuses it$"
check "and no other optype" test "$(grep -c 'differs from what its C' out)" -eq 1
expect 0 "the shipped ISA has no such note" "$G" lint
check "no note" hasnt out 'differs from what its C'
expect 1 "--fingerprints fails on the edited copy" "$G" lint --fingerprints --isa desc
check "it says what changed and what to declare" has err "error: the pseudo-code of FMNMX changed \(desc/falu.isa:$line:[0-9]+\): review op_fmnmx in src/sim/ops_f32.c against it, then update its fingerprint in src/sim/fingerprints.c to 0x[0-9a-f]{16}$"
check "the table marks it" has out '^    \{"FMNMX", UINT64_C\(0x[0-9a-f]{16}\)\}, /\* changed \*/$'

printf 'FMNMX R0, R1, R2, PT\nFMNMX R3, R1, R4, PT\nFADD R5, R1, R4\n' >p.s
echo '{"R1": "0x3f800000", "R2": "0x7fc00000", "R4": "0x40000000"}' >s.json
expect 0 "run, shipped" "$G" run --state s.json -o shipped.json p.s
check "shipped: the number beside a NaN" has shipped.json '"R0": "0x3f800000"'
for e in auto doc; do
    expect 0 "run --engine $e, edited" "$G" run --isa desc --engine $e --state s.json -o $e.json p.s
    check "$e: the edited rule (a NaN)" has $e.json '"R0": "0x7fffffff"'
    check "$e: the rest as before" has $e.json '"R3": "0x3f800000"'
    check "$e: FADD as before" has $e.json '"R5": "0x40400000"'
done
expect 0 "auto: the trace says FMNMX ran the pseudo-code" "$G" run --isa desc --state s.json --trace=t.txt \
    --trace-engine -o /dev/null p.s
check "auto: FMNMX by the pseudo-code" has t.txt '^w0 0 exec 0xffffffff \[doc\] FMNMX R0, R1, R2, PT$'
check "auto: FADD by its C function" has t.txt '^w0 2 exec 0xffffffff \[native\] FADD R5, R1, R4$'
expect 3 "--engine native refuses the edited optype" "$G" run --isa desc --engine native --state s.json -o n.json p.s
check "native: the same message, at the edited line" has err \
    "FMNMX: the pseudo-code differs from what the C semantics implement \(desc/falu.isa:$line:[0-9]+ changed it\)"
check "native: nothing after the refused word" hasnt err "FADD"
expect 0 "--engine native:FADD runs the rest" "$G" run --isa desc --engine native:FADD --state s.json -o nf.json p.s
check "native:FADD: FMNMX still by the edited pseudo-code" has nf.json '"R0": "0x7fffffff"'

# layout and comments are no change
cp -r "$SRC/isa/gisa128" layout
sed -i "${line}s|Rd = Ra;|Rd = (Ra) ;   // the other one|" layout/falu.isa
sed -i "$((line + 1))s|^|\n        // a comment and a blank line\n|" layout/falu.isa
expect 0 "--fingerprints: layout only" "$G" lint --fingerprints --isa layout
expect 0 "lint: layout only" "$G" lint --isa layout
check "no note" hasnt out 'differs from what its C'

# a ruling of an author's file
cat >ruling.isa <<'ISA'
// an author's correction of FMNMX
__DefRuling FMNMX
  __SemanticPatch
replace "Rd = Ra;" with "Rd = SrcB;" because "a test"
ISA
expect 0 "lint with the author's ruling" "$G" lint --isa-add ruling.isa
check "the change is the author's patch" has out "^ruling.isa:4:1: note: the pseudo-code of FMNMX differs"

# ---------------------------------------------------------------- --check-semantics
start=$(date +%s)
expect 0 "--check-semantics: the shipped ISA agrees" "$G" lint --check-semantics
took=$(($(date +%s) - start))
check "in under 30 s (took $took s)" test "$took" -lt 30
check "a line per optype" test "$(grep -cE '^[A-Z0-9_]+ +[0-9]+ +[0-9]+ +0 ' out)" -eq 43
check "the total" has out '^total: [0-9]+ lane results compared over 43 optypes, 0 instructions disagree$'
expect 1 "--check-semantics: the edited copy disagrees" "$G" lint --isa desc --check-semantics --seed 5
check "the FMNMX line counts them" has out '^FMNMX +[0-9]+ +[0-9]+ +[1-9]'
check "instruction, lane, both results" has out '^DISAGREE FMNMX: .*FMNMX.* lane [0-9]+: R[0-9]+ native 0x[0-9a-f]{8} doc 0x7fffffff$'
check "the inputs" has out '^  inputs: R[0-9]+=0x[0-9a-f]{8} .*\(lane (in)?active\)$'
check "no other optype disagrees" test "$(grep -c '^DISAGREE' out | tr -d ' ')" -eq "$(grep -c '^DISAGREE FMNMX' out)"
check "the first three" test "$(grep -c '^DISAGREE FMNMX' out)" -eq 3
cp out seed5
expect 1 "the same seed again" "$G" lint --isa desc --check-semantics --seed 5
check "the same report" cmp -s seed5 out
expect 2 "a bad seed" "$G" lint --check-semantics --seed x
finish
