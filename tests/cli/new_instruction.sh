#!/usr/bin/env bash
# A new instruction with no C code (examples/new-instruction/iadd3.isa,
# loaded with --isa-add beside the shipped gisa128): it lints clean, is
# documented (text and HTML), assembles every form to the bits its fields
# declare (computed by tests/cli/lib/iadd3_ref.py from the description files,
# not by gisa), disassembles back to the same text, and simulates from its
# pseudo-code alone under --engine auto and doc, checked lane by lane against
# Python's unbounded integers over random states; --engine native says it
# has no C semantics. A second one (shlacc.isa) names its operands as no
# shipped file does, has fields of its own and an opcode without operand
# info: checked the same way against tests/cli/lib/shlacc_ref.py. The
# loader's errors for values added to an existing
# __DefBitFieldType are checked word for word, and the shipped model is
# unchanged without the file.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" new_instruction

if ! command -v python3 >/dev/null; then
    ci_skip "no python3 (the reference of this test; apt-get install python3)"
fi
EX=$SRC/examples/new-instruction
ADD=(--isa-add "$EX/iadd3.isa")
REF=$SRC/tests/cli/lib/iadd3_ref.py

# ---- lint: clean, and the same report as the shipped ISA but for the counts
expect 0 "lint with the new instruction" "$G" lint "${ADD[@]}"
check "lint: no error, the shipped warnings only" has out "^lint: 0 errors"
check "lint: lists the file's semantic patch" has out \
    "^$EX/iadd3.isa:[0-9]+:1: note: semantic patch of IADD3: decorate addend: Ra Rc because"
sed 1d out | grep -v "semantic patch of IADD3" >with.txt
head -1 out >with.txt.0
run "$G" lint
sed 1d out >without.txt
check "lint: no other new diagnostic" cmp -s with.txt without.txt
check "lint: 4 more opcodes, 1 more optype" has with.txt.0 \
    "loaded 191 opcodes \(44 optypes\) from embedded gisa128 \+ $EX/iadd3.isa"

# ---- doc: the optype, its opcodes, its pseudo-code; and the HTML manual
expect 0 "doc IADD3" "$G" doc IADD3 "${ADD[@]}"
check "doc: the description" has out "^IADD3: Three-input 32-bit integer addition"
check "doc: every opcode" test "$(grep -cE '^IADD3_(RRR|RIR|RUR|RCR) : IADD3 : IALU : ALL' out)" -eq 4
check "doc: the Optype code of the file" has out "optype +Optype +== IADD3 \(96\)"
check "doc: the pseudo-code, from the file" has out "Pseudo-code of the document \($EX/iadd3.isa:[0-9]+\)"
check "doc: the file's patch" has out "^    $EX/iadd3.isa:[0-9]+: decorate addend: Ra Rc because"
check "doc: the code that runs" has out "Pseudo-code that runs \(patched\)"
expect 0 "doc --html" "$G" doc --html man "${ADD[@]}"
check "html: an IADD3 page" grep -rqs "IADD3_RCR" man
expect 1 "without the file, no IADD3" "$G" doc IADD3

# ---- every form: exact encoding, and back to the same text
for seed in 1 2 3; do
    python3 "$REF" forms "$SRC" "$seed" >forms.txt
    cut -f1 forms.txt >forms.s
    cut -f2 forms.txt >want.hex
    expect 0 "assemble every form (seed $seed)" "$G" as "${ADD[@]}" --format hex -o got.hex forms.s
    check "the bits the fields declare (seed $seed, $(wc -l <forms.s) forms)" cmp -s want.hex got.hex
    expect 0 "disassemble every form (seed $seed)" "$G" dis "${ADD[@]}" --format hex got.hex
    check "disassembly is the source (seed $seed)" cmp -s out forms.s
done
check "every form is there: 4 SrcB kinds x 5 syntax variants x 3 guards" test "$(wc -l <forms.s)" -eq 96
check "-Ra and -Rc in every combination" test "$(grep -cE ', -R[0-9Z]+, [^,]+, -R' forms.s)" -eq 24
# the same with the shipped files given as --isa
expect 0 "--isa DIR --isa-add FILE" "$G" as --isa "$SRC/isa/gisa128" "${ADD[@]}" --format hex -o got2.hex forms.s
check "--isa DIR gives the same words" cmp -s got.hex got2.hex

# ---- simulation from the pseudo-code, against the Python reference
# against_reference WHAT REFERENCE PROG STATE ADD...: run PROG under auto and
# doc with the --isa-add files ADD, each final state checked by REFERENCE
against_reference() {
    local what=$1 ref=$2 prog=$3 state=$4 engine
    shift 4
    for engine in auto doc; do
        expect 0 "$what: run --engine $engine" "$G" run "$@" --engine "$engine" "$prog" --state "$state" -o "out.$engine.json"
        run python3 "$ref" check "$prog" "$state" "out.$engine.json"
        if [ "$rc" -eq 0 ]; then ok; else bad "$what, engine $engine: $(head -3 out)"; fi
    done
}
for seed in 11 12 13 14; do
    python3 "$REF" forms "$SRC" "$seed" sim | cut -f1 >sim.s
    python3 "$REF" state "$seed" 8 >state.json
    against_reference "IADD3 (seed $seed)" "$REF" sim.s state.json "${ADD[@]}"
done
check "the reference compared every lane" has out "^67072 lane values compared, 0 differ$"
expect 3 "--engine native: no C semantics" "$G" run "${ADD[@]}" --engine native sim.s --state state.json -o n.json
check "native: the fault names the missing C semantics" has err \
    "IADD3 has no C semantics \(--engine native runs only those; --engine auto or doc runs its pseudo-code\)"

# the example program and state
expect 0 "the example runs" "$G" run "${ADD[@]}" "$EX/iadd3.s" --state "$EX/iadd3.json" -o ex.json
check "example: 64-bit add with .X" has ex.json '"R9": "0x00000004"'

# ---- SHLACC: operands no shipped file names, a layout of its own, and an
# opcode without __OperandInfo; bound by what the model says the operands are
SADD=(--isa-add "$EX/shlacc.isa")
SREF=$SRC/tests/cli/lib/shlacc_ref.py
expect 0 "lint with SHLACC" "$G" lint "${SADD[@]}"
check "lint SHLACC: no error" has out "^lint: 0 errors"
sed 1d out >with_s.txt
check "lint SHLACC: no new diagnostic" cmp -s with_s.txt without.txt
for seed in 21 22 23; do
    python3 "$SREF" prog "$SRC" "$seed" 40 >sprog.txt
    cut -f1 sprog.txt >sprog.s
    cut -f2 sprog.txt >swant.hex
    expect 0 "SHLACC: assemble (seed $seed)" "$G" as "${SADD[@]}" --format hex -o sgot.hex sprog.s
    check "SHLACC: the bits its fields declare (seed $seed)" cmp -s swant.hex sgot.hex
    expect 0 "SHLACC: disassemble (seed $seed)" "$G" dis "${SADD[@]}" --format hex sgot.hex
    cp out sdis.s
    expect 0 "SHLACC: assemble the disassembly (seed $seed)" "$G" as "${SADD[@]}" --format hex -o sgot2.hex sdis.s
    check "SHLACC: round trip to the same bits (seed $seed)" cmp -s swant.hex sgot2.hex
    python3 "$REF" state "$seed" 4 >sstate.json
    against_reference "SHLACC (seed $seed)" "$SREF" sprog.s sstate.json "${SADD[@]}"
    check "SHLACC: the reference compared every lane (seed $seed)" has out "^33536 lane values compared, 0 differ$"
done
expect 0 "SHLACC: the trace says the doc engine ran it" "$G" run "${SADD[@]}" --trace=strace.txt --trace-engine \
    sprog.s --state sstate.json -o /dev/null
check "SHLACC: [doc] on every instruction of the 4 warps" test "$(grep -c ' exec 0x[0-9a-f]* \[doc\] ' strace.txt)" -eq 160
expect 3 "SHLACC: --engine native has no C semantics" "$G" run "${SADD[@]}" --engine native sprog.s -o /dev/null
check "SHLACC: the fault names it" has err "SHLACC has no C semantics"

# ---- the shipped model without the file
printf 'IADD3 R0, R1, R2, R3 ;\n' >one.s
expect 1 "without --isa-add, IADD3 is unknown" "$G" as one.s -o one.bin
expect 0 "with it, it assembles" "$G" as "${ADD[@]}" one.s -o one.bin
expect 0 "its word is no instruction of the shipped ISA" "$G" dis one.bin
check "dis: .invalid" has out "^\.invalid"

# ---- values added to an existing __DefBitFieldType: the errors, word for word
printf '__DefBitFieldType Optype<8>\n    IADD3 = 0x10;\n' >taken.isa
printf '__DefBitFieldType Optype<8>\n    FADD = 0x61;\n' >name.isa
printf '// a comment\n__DefBitFieldType Optype<9>\n    IADD3 = 0x60;\n' >width.isa
expect 1 "a value taken" "$G" lint --isa-add taken.isa
cat >want <<'EOF'
taken.isa:2:5: error: value 0x10 of type Optype is already taken by FADD (<embedded>/gisa128/types.isa:72)
    IADD3 = 0x10;
    ^~~~~
gisa lint: cannot load the ISA from embedded gisa128 + taken.isa: the description has errors
EOF
check "a value taken: the message" cmp -s want err
expect 1 "a name taken" "$G" lint --isa-add name.isa
cat >want <<'EOF'
name.isa:2:5: error: value name 'FADD' of type Optype is already taken (= 0x10 at <embedded>/gisa128/types.isa:72)
    FADD = 0x61;
    ^~~~
gisa lint: cannot load the ISA from embedded gisa128 + name.isa: the description has errors
EOF
check "a name taken: the message" cmp -s want err
expect 1 "another width" "$G" lint --isa-add width.isa
cat >want <<'EOF'
width.isa:2:19: error: type 'Optype' is 8 bits wide (<embedded>/gisa128/types.isa:71); a later __DefBitFieldType adds values to it only with the same width, not 9
__DefBitFieldType Optype<9>
                  ^~~~~~
gisa lint: cannot load the ISA from embedded gisa128 + width.isa: the description has errors
EOF
check "another width: the message" cmp -s want err

# ---- lint checks the encoding space of the added opcodes like the shipped ones
sed 's/SType stype == RIR;/SType stype == RRR;/' "$EX/iadd3.isa" >same.isa
expect 1 "two opcodes with the same fixed bits" "$G" lint --isa-add same.isa
check "decode ambiguity named" has out \
    "^same.isa:[0-9]+:13: error: decode ambiguity: the fixed bits of IADD3_RRR and IADD3_RIR can match the same word$"
sed 's/field<64,  8> Reg rc;/field<60,  8> Reg rc;/' "$EX/iadd3.isa" >overlap.isa
expect 1 "overlapping fields" "$G" lint --isa-add overlap.isa
check "overlap named" has out "^overlap.isa:[0-9]+:26: error: fields rc and vb of IADD3_RIR overlap in bits 63..60$"

# ---- --isa-add: usage
expect 2 "--isa-add of a missing file" "$G" lint --isa-add nope.isa
check "names the file" has err "cannot open nope.isa"
expect 2 "--isa-add of an empty list" "$G" lint --isa-add ::
check "says what it needs" has err "\-\-isa-add needs a file or directory"
expect 0 "--help lists --isa-add" "$G" as --help
check "--help: --isa-add" has out "^ +--isa-add PATH"

# ---- a long flat sum and deep parentheses in the pseudo-code: a located error
# from lint and run, never a crash (5,000 `+` overflowed the compiler's stack,
# 1,000,000 lint's); a million is now refused before it is parsed, past the
# 65,536 tokens of one optype's pseudo-code
long_expr() { # long_expr N sum|parens: iadd3.isa with t = that expression
    python3 - "$1" "$2" "$EX/iadd3.isa" >long.isa <<'PY'
import sys
n, k, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
e = " + ".join(["Ra"] * n) if k == "sum" else "- " * n + "Ra" if k == "neg" else "(" * n + "Ra" + ")" * n
sys.stdout.write(open(path).read().replace("t = Ra + SrcB + Rc;", "t = " + e + ";", 1))
PY
}
for n in 5000 1000000; do
    why='expression nested too deeply \(more than 256 levels\)'
    [ "$n" -gt 5000 ] && why='the pseudo-code of this optype is too long: more than 65536 tokens'
    for k in sum parens; do
        long_expr "$n" "$k"
        line=$(grep -n "^    t = " long.isa | head -1 | cut -d: -f1)
        expect 1 "lint, $k of $n" "$G" lint --isa-add long.isa
        check "lint, $k of $n: located" has out "^long.isa:$line:[0-9]+: error: $why"
        expect 3 "run, $k of $n" "$G" run --isa-add long.isa "$EX/iadd3.s" --state "$EX/iadd3.json" -o /dev/null
        check "run, $k of $n: located" has err "^long.isa:$line:[0-9]+: warning: $why"
        check "run, $k of $n: the fault" has err "pseudo-code of IADD3 does not parse"
    done
done
# at the bound (256 levels), the deepest trees compile within a 2 MiB stack
# (the compiler takes about 4 KB a level under ASan, 2 KB in a Release build)
for k in sum neg; do
    long_expr 252 "$k"
    run bash -c 'ulimit -s 2048 && exec "$@"' _ "$G" run --isa-add long.isa "$EX/iadd3.s" --state "$EX/iadd3.json" -o /dev/null
    if [ "$rc" -eq 0 ] || { [ "$rc" -eq 3 ] && has err "needs more than 256 values"; }; then ok; else bad "$k of 252 in a 2 MiB stack: exit $rc"; fi
    check "$k of 252: no depth error" hasnt err "nested too deeply"
done

finish
