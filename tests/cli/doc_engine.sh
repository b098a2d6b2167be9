#!/usr/bin/env bash
# `gisa run --engine doc` (the documents' pseudo-code) against `--engine
# native` (the C semantics) on programs of the optypes whose pseudo-code
# reaches beyond the lane's operands: P2R and R2P (the predicate file),
# R2UR (a warp-level read, from partially active and guarded warps and from
# none), SETGPR and GETGPR (indexed registers: in range, RZ, and an index
# outside the file, which faults), I2IP (sub-byte types). The final state,
# the text and JSON traces, the exit status and the fault message must be
# byte-identical.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" doc-engine

cat >prog.s <<'ASM'
ISETP.LT.AND P1, PT, R0, 0x10, PT
P2R.B1 R2, PR, R0, 0xFF
P2R R3, PR, R0, R0
R2P PR, R5.B2, 0x5F
R2P PR, R5, R0
@P3 R2UR UR4, R5
@!P3 R2UR UR5, R0
@P5 R2UR UR6, R5
I2IP.S4.SATRELU R6, R5, R0, R5
I2IP.U16 R7, R5, R0, RZ
I2IP.S2 R8, R0, R5, R5
SETGPR R[UR2+0x3], R5
SETGPR R[UR3], R0
GETGPR R9, R[UR2+0x3]
GETGPR R10, R[UR3]
GETGPR R11, R[UR2-0x1]
SETGPR R[UR2+0x40], R0
MOV R12, 0x1
ASM
# R5: small values and a negative one (I2IP saturates both ways); lanes 0,
# 3 and 31 inactive; UR6 = 7 stays: P5 is false on every lane (no R2P selects it)
echo '{"R0": "laneid", "R5": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,-300,-7],
       "UR2": "0x10", "UR3": "0xff", "UR6": "0x7", "active": "0x7ffffff6"}' >state.json

for e in native doc; do
    expect 3 "$e engine: the index outside the file faults" "$G" run --regs 64 --engine $e --state state.json \
        --trace=trace.$e -o final.$e prog.s
    cp err err.$e
    expect 3 "$e engine: JSON trace" "$G" run --regs 64 --engine $e --state state.json \
        --trace=json.$e --trace-format=json -o /dev/null prog.s
done
check "same final state" cmp final.native final.doc
check "same text trace" cmp trace.native trace.doc
check "same JSON trace" cmp json.native json.doc
check "same fault message" cmp err.native err.doc
check "the fault names the index, the file and the lane" has err.doc \
    'register index 80 is outside R0\.\.R63 \(and RZ\) in lane 1'
check "nothing runs after the fault" hasnt trace.doc 'MOV R12'
# the programs did what the cases need (so that the comparison is not vacuous)
check "R2P wrote only the selected predicates" has trace.doc '^w0   P3 = 0x3f007f00 lanes 0x7f00ff00$'
check "R2P left P5 (not in the mask 0x5f)" hasnt trace.doc '^w0   P5 ='
check "R2UR read the lowest active lane whose guard holds" has trace.doc '^w0   UR4 = 0x00000009$'
check "R2UR on no lane: skipped, UR6 unchanged" has trace.doc '^w0 7 exec 0x00000000 @P5 R2UR UR6, R5$'
check "UR6 still 7" has final.doc '"UR6": "0x00000007"'
check "SETGPR to RZ writes nothing visible" has trace.doc '^w0 12 exec 0x7ffffff6 SETGPR R\[UR3\], R0$'
check "GETGPR from RZ reads 0" has trace.doc '^w0   R10 = 0x00000000 lanes 0x7ffffff6$'
check "I2IP wrote R6" has trace.doc '^w0   R6\[1\] = '

# every opcode of the six under both engines from a random state
for e in native doc; do
    expect 0 "$e engine: the six optypes, no fault" "$G" run --regs 64 --engine $e --state state.json \
        --trace=t2.$e -o f2.$e <(sed '/R\[UR2+0x40\]/d' prog.s)
done
check "same state without the fault" cmp f2.native f2.doc
check "same trace without the fault" cmp t2.native t2.doc
check "the last instruction ran" has t2.doc 'MOV R12, 0x1$'

# --engine doc:LIST: those optypes by the pseudo-code, the rest by auto; the
# trace says which ran each (only when asked: default traces are unchanged)
cat >mix.s <<'EOF2'
FFMA R0, R1, R2, R3 ;
IMAD R4, R1, R2, R3 ;
FADD R5, R1, R2 ;
LOP3 R6, R1, R2, R3, 0x96, !PT ;
EOF2
expect 0 "--engine doc:FFMA,IMAD" "$G" run --regs 64 --engine doc:FFMA,IMAD --state state.json --trace=mix.trace --trace-engine \
    -o mix.out mix.s
check "FFMA by the pseudo-code" has mix.trace '^w0 0 exec 0x[0-9a-f]+ \[doc\] FFMA R0, R1, R2, R3$'
check "IMAD by the pseudo-code" has mix.trace '^w0 1 exec 0x[0-9a-f]+ \[doc\] IMAD R4, R1, R2, R3$'
check "FADD by its C function" has mix.trace '^w0 2 exec 0x[0-9a-f]+ \[native\] FADD R5, R1, R2$'
check "LOP3 by its C function" has mix.trace '^w0 3 exec 0x[0-9a-f]+ \[native\] LOP3 R6, R1, R2, R3, 0x96, !PT$'
expect 0 "the same program under auto" "$G" run --regs 64 --state state.json --trace=auto.trace -o auto.out mix.s
check "same final state" cmp mix.out auto.out
sed 's/ \[[a-z]*\] / /' mix.trace >mix.plain
check "the same trace but for the engine column" cmp mix.plain auto.trace
check "no engine column unless asked" hasnt auto.trace '\[(doc|native)\]'
expect 0 "JSON trace with the engine" "$G" run --regs 64 --engine native:FADD --state state.json --trace=mix.json \
    --trace-format=json --trace-engine -o /dev/null mix.s
check "JSON: engine member" test "$(grep -c '"text":"FADD R5, R1, R2","engine":"native"' mix.json)" -eq 1
check "JSON: FFMA native under auto" test "$(grep -c '"text":"FFMA R0, R1, R2, R3","engine":"native"' mix.json)" -eq 1
expect 2 "--engine doc:FFMX" "$G" run --engine doc:FFMX mix.s
check "unknown optype: a suggestion" has err "no optype 'FFMX' \(did you mean FFMA\?\)"
expect 2 "--engine doc:" "$G" run --engine doc: mix.s
check "empty list: says what it needs" has err "needs optype names after ':'"
finish
