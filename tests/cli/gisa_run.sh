#!/usr/bin/env bash
# End-to-end tests of `gisa run`: state file in, final state out (--out, or
# standard output), --trace format, --regs, --warps (the warpid special),
# programs as assembly, hex or binary, and the exit statuses: 0 ok,
# 1 assembly errors, 2 usage or state-file errors, 3 simulation fault (the
# state is still written; the message names pc, instruction, lane, reason).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" run
# has_line FILE TEXT: FILE has the line TEXT (a JSON member, with or without its trailing comma)
has_line() { grep -qxF -e "$2" -e "$2," -- "$1"; }
# lanes V0 V1 ...: the JSON array of 32 hex strings "0x%08x", lane i = V_i (the last value repeats)
lanes() {
    local out="" v=0 i
    local -a vals=("$@")
    for ((i = 0; i < 32; i++)); do
        [ $i -lt ${#vals[@]} ] && v=${vals[$i]}
        out+=$(printf '%s"0x%08x"' "${out:+, }" "$v")
    done
    echo "[$out]"
}
# seq_lanes BASE STEP: lane i = BASE + i*STEP
seq_lanes() {
    local -a v=()
    for ((i = 0; i < 32; i++)); do v+=($(($1 + i * $2))); done
    lanes "${v[@]}"
}

# ------------------------------------------------------------ help and usage errors
expect 0 "run --help" "$G" run --help
check "run --help shows usage" has out '^usage: gisa run'
check "run --help documents the trace format" has out "wW PC exec 0xMASK TEXT"
check "run --help lists exit status 3" has out 'status 3'

printf 'MOV R1, 0x5\nIADD R2, R1, R3\nISETP.LT.AND P0, PT, R3, 0x10, PT\nR2UR UR4, R2\n' >prog.s
echo '{"R3": "laneid"}' >state.json

expect 2 "run --bogus" "$G" run --bogus prog.s
check "unknown option named" has err "unknown option '--bogus'"
check "usage hint" has err "Try 'gisa run --help'"
expect 2 "--regs 0" "$G" run --regs 0 prog.s
check "--regs 0 message" has err -- "--regs needs a number from 1 to 255"
expect 2 "--regs 256" "$G" run --regs 256 prog.s
expect 2 "--regs abc" "$G" run --regs abc prog.s
expect 2 "--warps 0" "$G" run --warps 0 prog.s
check "--warps 0 message" has err -- "--warps needs a number"
expect 2 "--warps 65537" "$G" run --warps 65537 prog.s
expect 2 "--format xyz" "$G" run --format xyz prog.s
check "--format message" has err "unknown format 'xyz'"
expect 2 "missing program" "$G" run no-such.s
check "missing program named" has err "cannot open 'no-such.s'"
expect 2 "missing state file" "$G" run --state no-such.json prog.s
check "missing state file named" has err "no-such.json"
expect 2 "two programs" "$G" run prog.s prog.s
expect 2 "--out without a value" "$G" run prog.s -o

# ------------------------------------------------------------ a run: state in, state out
expect 0 "run with --state and --out" "$G" run --state state.json --out final.json prog.s
check "nothing on stdout with --out" test ! -s out
check "--out file written" test -s final.json
check "active mask written" has final.json '^  "active": "0xffffffff",?$'
check "R1: one value for 32 equal lanes" has_line final.json "  \"R1\": \"0x00000005\""
check "R2 = R1 + laneid" has_line final.json "  \"R2\": $(seq_lanes 5 1)"
check "R3 = laneid (from the state file)" has_line final.json "  \"R3\": $(seq_lanes 0 1)"
check "P0 = laneid < 16" has final.json '^  "P0": \[(true, ){16}(false, ){15}false\],?$'
check "UR4 = R2 of lane 0" has final.json '^  "UR4": "0x00000005",?$'
check "no temp files" no_tmp

expect 0 "run to stdout" "$G" run --state state.json prog.s
check "stdout is the same state" diff -u final.json out
expect 0 "program from stdin" "$G" run --state state.json - <prog.s
check "stdin program gives the same state" diff -u final.json out
expect 0 "--threads 1" "$G" run --threads 1 --state state.json prog.s
check "--threads 1 gives the same state" diff -u final.json out

# the output is a valid state file: running an empty program on it changes nothing
: >empty.s
expect 0 "the output read back as a state" "$G" run --state final.json empty.s
check "state round trip" diff -u final.json out

# ------------------------------------------------------------ --trace
expect 0 "--trace=FILE" "$G" run --state state.json --trace=trace.txt -o final2.json prog.s
check "trace file written" test -s trace.txt
check "same final state with a trace" diff -u final.json final2.json
check "trace: instruction line" has trace.txt '^w0 0 exec 0xffffffff MOV R1, 0x5$'
check "trace: uniform change line" has trace.txt '^w0   R1 = 0x00000005 lanes 0xffffffff$'
check "trace: second instruction" has trace.txt '^w0 1 exec 0xffffffff IADD R2, R1, R3$'
check "trace: per-lane lines when lanes differ" has trace.txt '^w0   R2\[0\] = 0x00000005$'
check "trace: per-lane line of lane 31" has trace.txt '^w0   R2\[31\] = 0x00000024$'
check "trace: 32 per-lane lines for R2" test "$(grep -c '^w0   R2\[' trace.txt)" -eq 32
check "trace: predicate as a lane mask" has trace.txt '^w0   P0 = 0x0000ffff lanes 0xffffffff$'
check "trace: the R2UR line" has trace.txt '^w0 3 exec 0xffffffff R2UR UR4, R2$'
check "trace: UR change" has trace.txt '^w0   UR4 = 0x00000005$'
check "trace: 4 instruction lines" test "$(grep -cE '^w0 [0-9]+ ' trace.txt)" -eq 4
check "trace: nothing else" test "$(grep -cvE '^w0 [0-9]+ |^w0   ' trace.txt)" -eq 0
check "trace: instruction order" test "$(grep -E '^w0 [0-9]+ ' trace.txt | cut -d' ' -f2 | tr '\n' ' ')" = "0 1 2 3 "

# a change in the active lanes only, with the old value shown
printf 'IADD R1, R1, 0x1\n' >inc.s
echo '{"R1": "0x10", "active": "0x0000ff00"}' >inc.json
expect 0 "--trace with a partial active mask" "$G" run --state inc.json --trace=inc.txt -o inc.out inc.s
check "trace: lanes mask = the active lanes" has inc.txt '^w0   R1 = 0x00000011 lanes 0x0000ff00$'
check "inactive lanes unchanged" has inc.out "^  \"R1\": \[(\"0x00000010\", ){8}(\"0x00000011\", ){8}(\"0x00000010\", ){15}\"0x00000010\"\],?\$"

# --trace without a file goes to standard error; the state still goes to stdout
expect 0 "--trace to stderr" "$G" run --state state.json --trace prog.s
check "trace on stderr" has err '^w0 0 exec 0xffffffff MOV R1, 0x5$'
check "state on stdout" diff -u final.json out

# the commit log lists writes, not changes: a write of the value a register
# already holds is logged; an instruction its guard skips shows exec 0 and
# no write (issue: both looked the same in the old change log)
printf 'MOV R1, RZ\n@!PT MOV R2, 0x5\n' >nochange.s
expect 0 "--trace of an unchanged write" "$G" run --trace=nc.txt -o nc.json nochange.s
check "trace: 3 lines" test "$(wc -l <nc.txt)" -eq 3
check "trace: the instruction" has nc.txt '^w0 0 exec 0xffffffff MOV R1, RZ$'
check "trace: the unchanged write" has nc.txt '^w0   R1 = 0x00000000 lanes 0xffffffff$'
check "trace: the skipped instruction" has nc.txt '^w0 1 exec 0x00000000 @!PT MOV R2, 0x5$'

# lanes that agree are one line, the others one line each
printf 'IADD R1, R5, 0x0\n' >group.s
echo '{"R5": ["0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x9", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7", "0x7"]}' >group.json
expect 0 "--trace of 31 equal lanes and one other" "$G" run --state group.json --trace=group.txt -o /dev/null group.s
check "trace: the group" has group.txt '^w0   R1 = 0x00000007 lanes 0xfff7ffff$'
check "trace: the exception" has group.txt '^w0   R1\[19\] = 0x00000009$'
check "trace: 3 lines in all" test "$(wc -l <group.txt)" -eq 3

# --trace-format=json: one object per instruction; --trace-values
printf 'MOV R0, 0x3fc00000\nDADD R[2:3], RZ, -2.5\nR2UR UR1, R0\n' >fp.s
expect 0 "--trace-format=json --trace-values" "$G" run --trace=fp.jsonl --trace-format=json --trace-values=f32,f64 -o /dev/null fp.s
check "json trace: 3 lines" test "$(wc -l <fp.jsonl)" -eq 3
if command -v python3 >/dev/null; then
    check "json trace: parses, with the values and numbers" python3 -c '
import json, sys
recs = [json.loads(l) for l in open("fp.jsonl")]
assert [r["pc"] for r in recs] == [0, 1, 2], recs
assert recs[0]["writes"][0]["values"] == ["0x3fc00000"] * 32 and recs[0]["writes"][0]["f32"] == ["1.5"] * 32
assert [w["reg"] for w in recs[1]["writes"]] == ["R2", "R3"] and recs[1]["writes"][1]["f64"] == ["-2.5"] * 32
assert recs[2]["writes"] == [{"reg": "UR1", "value": "0x3fc00000", "f32": "1.5"}], recs[2]
assert recs[1]["exec"] == "0xffffffff" and recs[1]["text"] == "DADD R[2:3], RZ, -2.5"
'
fi
expect 0 "--trace-values in text" "$G" run --trace=fp.txt --trace-values=f32,f64 -o /dev/null fp.s
check "text trace: f32 number" has fp.txt '^w0   R0 = 0x3fc00000 f32=1.5 lanes 0xffffffff$'
check "text trace: a pair as one f64" has fp.txt '^w0   R\[2:3\] = 0xc004000000000000 f64=-2.5 lanes 0xffffffff$'
expect 2 "--trace-values with an unknown kind" "$G" run --trace=fp.txt --trace-values=f32,f8 -o /dev/null fp.s
check "says which kind" has err "not 'f8'"
expect 2 "--trace-format with an unknown format" "$G" run --trace=fp.txt --trace-format=xml -o /dev/null fp.s

# ------------------------------------------------------------ --warps and warpid
printf 'MOV R1, UR2\nIADD R2, R1, 0x1\n' >warps.s
echo '{"UR2": "warpid", "R5": "laneid", "R6": "warpid"}' >warps.json
expect 0 "--warps 3" "$G" run --warps 3 --state warps.json -o warps.out --trace=warps.txt warps.s
check "--warps output has a warps array" has warps.out '^  "warps": \[$'
check "three warp objects" test "$(grep -c '"active"' warps.out)" -eq 3
check "warp 1 R2 = 2" has_line warps.out "      \"R2\": \"0x00000002\""
check "warp 2 R2 = 3" has_line warps.out "      \"R2\": \"0x00000003\""
check "warp 2 R6 = warpid" has_line warps.out "      \"R6\": \"0x00000002\""
check "laneid in every warp" test "$(grep -cxF -e "      \"R5\": $(seq_lanes 0 1)" -e "      \"R5\": $(seq_lanes 0 1)," warps.out)" -eq 3
check "warp 0 R1 stays 0 (not written)" test "$(grep -c '^      "R1": ' warps.out)" -eq 2
check "trace: warps in order" test "$(grep -oE '^w[0-9]+ [0-9]+ ' warps.txt | tr '\n' ',')" = "w0 0 ,w0 1 ,w1 0 ,w1 1 ,w2 0 ,w2 1 ,"
check "trace: warp 2's change" has warps.txt '^w2   R2 = 0x00000003 lanes 0xffffffff$'
expect 0 "the --warps output read back" "$G" run --warps 3 --state warps.out empty.s
check "warps round trip" diff -u warps.out out
expect 2 "a warps array of the wrong length" "$G" run --warps 2 --state warps.out empty.s
check "the warps key named" has err 'state key "warps"'

# ------------------------------------------------------------ --regs
expect 0 "--regs 4: R3 exists" "$G" run --regs 4 prog.s
expect 2 "--regs 4: state key R4" "$G" run --regs 4 --state <(echo '{"R4": 1}') prog.s
check "R4 named" has err 'state key "R4"'
printf 'MOV R4, 0x1\n' >r4.s
expect 3 "--regs 4: an instruction using R4 faults" "$G" run --regs 4 -o r4.json r4.s
check "the fault is reported" has err 'simulation fault'
check "state written on a fault" test -s r4.json

# ------------------------------------------------------------ program formats
"$G" as prog.s -o prog.bin
"$G" as --format hex prog.s -o prog.hex
expect 0 "--format hex" "$G" run --format hex --state state.json prog.hex
check "hex program gives the same state" diff -u final.json out
expect 0 "--format bin" "$G" run --format bin --state state.json prog.bin
check "bin program gives the same state" diff -u final.json out
expect 0 ".hex by extension" "$G" run --state state.json prog.hex
check ".hex extension" diff -u final.json out
expect 0 ".bin by extension" "$G" run --state state.json prog.bin
check ".bin extension" diff -u final.json out
cp prog.bin prog.dat
expect 0 "--format bin of a .dat" "$G" run --format=bin --state state.json prog.dat
check ".dat as bin" diff -u final.json out
expect 1 "a binary read as assembly" "$G" run prog.dat
head -c 24 prog.bin >trunc.bin
expect 1 "a truncated binary" "$G" run trunc.bin
check "truncation reported" has err 'truncated'

# ------------------------------------------------------------ exit 1: assembly errors
printf 'MOV R1, 0x5\nFOO R1\n' >bad.s
echo precious >keep.json
expect 1 "assembly error" "$G" run -o keep.json bad.s
check "assembly error located" has err '^bad.s:2:1: error: '
check "nothing simulated" has err 'nothing was simulated'
check "--out untouched on an assembly error" test "$(cat keep.json)" = precious
rm -f new.json
expect 1 "assembly error, new --out" "$G" run -o new.json bad.s
check "--out not created on an assembly error" test ! -e new.json

# ------------------------------------------------------------ exit 2: bad state files
expect 2 "unknown state key" "$G" run --state <(echo '{"R1": 1, "Q7": 2}') -o keep.json prog.s
check "unknown key named" has err 'state key "Q7"'
check "--out untouched on a bad state" test "$(cat keep.json)" = precious
check "bad state: nothing simulated" has err 'nothing was simulated'
expect 2 "bad value" "$G" run --state <(echo '{"R1": "0xZZ"}') -o new.json prog.s
check "bad value: key named" has err 'state key "R1"'
check "--out not created on a bad state" test ! -e new.json
expect 2 "array of 31" "$G" run --state <(echo '{"R1": [1,2,3]}') prog.s
check "array length reported" has err 'state key "R1".*32'
expect 2 "non-boolean predicate" "$G" run --state <(echo '{"P1": 1}') prog.s
check "predicate key named" has err 'state key "P1"'
expect 2 "bad constant address" "$G" run --state <(echo '{"c[0x1][0x2]": 1}') prog.s
check "constant key named" has err 'state key "c\[0x1\]\[0x2\]"'
printf '{\n  "R1": 5,\n  oops\n}\n' >badjson.json
expect 2 "invalid JSON" "$G" run --state badjson.json -o new.json prog.s
check "invalid JSON: file:line:col" has err '^badjson.json:3:[0-9]+: error: '
check "--out not created on invalid JSON" test ! -e new.json
check "no temp files after errors" no_tmp

# ------------------------------------------------------------ exit 3: simulation faults
printf 'MOV R1, 0x11\nSETGPR R[UR2], R1\nMOV R3, 0x33\n' >fault.s
echo '{"UR2": 20, "active": "0xfffffff0"}' >fault.json
expect 3 "SETGPR out of range" "$G" run --regs 16 --state fault.json -o fault.out fault.s
check "fault message" has err '^gisa run: simulation fault: '
check "fault names the pc" has err 'pc 1\b'
check "fault names the warp" has err 'warp 0'
check "fault names the lane (lowest active)" has err 'lane 4\b'
check "fault names the index" has err '\b20\b'
check "fault names the instruction" has err 'SETGPR R\[UR2\], R1'
check "state written on a fault" test -s fault.out
check "the instruction before the fault ran" has_line fault.out "  \"R1\": $(lanes 0 0 0 0 0x11)"
check "the instruction after the fault did not run" hasnt fault.out '"R3"'
check "no temp files after a fault" no_tmp
expect 3 "fault with the state on stdout" "$G" run --regs 16 --state fault.json fault.s
check "state on stdout on a fault" diff -u fault.out out

# in range with --regs 21: no fault
expect 0 "SETGPR R20 with --regs 21" "$G" run --regs 21 --state fault.json -o ok.out fault.s
check "R20 written" has_line ok.out "  \"R20\": $(lanes 0 0 0 0 0x11)"

# several warps: the other warps run to the end
echo '{"warps": [{"UR2": 2}, {"UR2": 99}, {"UR2": 3}]}' >fault3.json
expect 3 "a fault in warp 1 of 3" "$G" run --warps 3 --regs 16 --state fault3.json -o fault3.out fault.s
check "warp 1 named" has err 'warp 1'
check "the other warps finished" test "$(grep -c '^      "R3": ' fault3.out)" -eq 2

# an undecodable word faults when it is reached
{
    "$G" as --format hex -o - <(echo 'MOV R4, 0x1')
    echo 00000000000000000000000000000000
    "$G" as --format hex -o - <(echo 'MOV R3, 0x33')
} >inv.hex
expect 3 "undecodable word" "$G" run -o inv.out inv.hex
check "undecodable word: pc 1" has err 'pc 1\b'
check "undecodable word: the state before it" has_line inv.out "  \"R4\": \"0x00000001\""
check "undecodable word: nothing after it" hasnt inv.out '"R3"'

# ------------------------------------------------------------ gisa trace-diff
printf 'IADD R1, R1, 0x1\nIADD R2, R1, R1\nMOV R3, 0x3\n' >td.s
echo '{"R1": "laneid"}' >td.json
expect 0 "trace A" "$G" run td.s --trace=ta.txt -o /dev/null
expect 0 "trace B (other inputs)" "$G" run td.s --state td.json --trace=tb.txt -o /dev/null
expect 0 "trace-diff of a trace with itself" "$G" trace-diff ta.txt ta.txt
check "agree: the record count" has out '^traces agree: 3 instruction records$'
expect 1 "trace-diff of different traces" "$G" trace-diff ta.txt tb.txt
check "names the first register and lane that differ" has out '^first difference in warp 0, its instruction record 1 \(pc 0\): R1 lane 1: A 0x1, B 0x2:$'
check "shows A's instruction" has out '^- ta.txt:1: w0 0 exec 0xffffffff IADD R1, R1, 0x1$'
check "one line per lane group" has out '^  pc 0 IADD R1, R1, 0x1: R1 lanes 0x00000002 \(1 lane\): A 0x1, B 0x2$'
expect 1 "trace-diff --verbose of different traces" "$G" trace-diff --verbose ta.txt tb.txt
check "shows A's record" has out '^- ta.txt:2: w0   R1 = 0x00000001 lanes 0xffffffff$'
check "shows B's record" has out '^\+ tb.txt:3: w0   R1\[1\] = 0x00000002$'
# lanes grouped another way (as another tool may write them) still agree
sed 's/^w0   R2 = 0x00000002 lanes 0xffffffff$/w0   R2[0] = 0x00000002\nw0   R2 = 0x00000002 lanes 0xfffffffe/' ta.txt >tc.txt
check "regrouped trace has 2 R2 lines" test "$(grep -c '^w0   R2' tc.txt)" -eq 2
expect 0 "trace-diff ignores the grouping" "$G" trace-diff ta.txt tc.txt
head -4 ta.txt >short.txt
expect 1 "trace-diff of a shorter trace" "$G" trace-diff ta.txt short.txt
check "says where it ends" has out '^\+ short.txt: \(ends here\)$'
expect 0 "json traces" "$G" run td.s --trace=ta.jsonl --trace-format=json -o /dev/null
expect 0 "trace-diff of a json trace with itself" "$G" trace-diff ta.jsonl ta.jsonl
expect 2 "trace-diff needs two files" "$G" trace-diff ta.txt
expect 2 "trace-diff of a missing file" "$G" trace-diff ta.txt nosuch.txt
expect 2 "trace-diff - - (standard input twice)" "$G" trace-diff - - <ta.txt
check "... is refused, saying why" has err "standard input \('-'\) can be one of the traces, not both"
expect 0 "trace-diff with one trace from standard input" "$G" trace-diff - ta.txt <ta.txt

finish
