#!/usr/bin/env bash
# `gisa trace-diff` on logs as an RTL simulation writes them (issue 33,
# item 3): two warps' records interleaved round-robin (it said they differ
# at record 2); the same JSON trace re-serialized (key order, spacing, hex
# case, numbers as decimal: it said they differ at record 1); a log without
# the disassembly text (differ at record 1); the --trace-engine tag; a
# one-lane difference (33 lines per side; now one line), with the warp,
# its record index within the warp and the pc.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" trace_diff
PY=/usr/bin/python3
differs() { ! cmp -s -- "$1" "$2"; }

printf 'IADD R1, R1, 0x1\nIADD R2, R1, R1\nMOV R3, 0x3\n' >p.s
echo '{"R1": "laneid"}' >lane.json
expect 0 "two warps, text" "$G" run p.s --warps 2 --trace=w.txt -o /dev/null
expect 0 "two warps, json" "$G" run p.s --warps 2 --trace=w.jsonl --trace-format=json -o /dev/null
expect 0 "per-lane values, text" "$G" run p.s --state lane.json --trace=l.txt -o /dev/null
expect 0 "per-lane values, json" "$G" run p.s --state lane.json --trace=l.jsonl --trace-format=json -o /dev/null

# ------------------------------------------------------------ warps interleaved
# w.txt holds warp 0's records, then warp 1's; an RTL scheduler alternates them
awk '/^w[0-9]+ [0-9]/ { w = $1; n[w]++ } { rec[w, n[w]] = rec[w, n[w]] $0 "\n" }
     END { for (i = 1; i <= n["w0"]; i++) printf "%s%s", rec["w0", i], rec["w1", i] }' w.txt >wi.txt
check "interleaved: warp 1's first record is second" has <(sed -n 3p wi.txt) '^w1 0 exec'
expect 0 "interleaved warps agree with the model's order" "$G" trace-diff w.txt wi.txt
check "... all 6 records" has out '^traces agree: 6 instruction records$'
sed '/^w1 1 exec/,/^w1   R2/s/^w1   R2 = 0x00000002 lanes 0xffffffff$/w1   R2 = 0x00000002 lanes 0xfffffffe\nw1   R2[0] = 0x00000007/' wi.txt >wi_bad.txt
expect 1 "a difference in warp 1 of an interleaved log" "$G" trace-diff w.txt wi_bad.txt
check "... names the warp, its record within the warp and the pc" \
    has out '^first difference in warp 1, its instruction record 2 \(pc 1\): R2 lane 0: A 0x2, B 0x7:$'
check "... B's line of that record" has out '^\+ wi_bad.txt:7: w1 1 exec 0xffffffff IADD R2, R1, R1$'
"$PY" -c '
import json, sys
recs = [json.loads(l) for l in open("w.jsonl")]
w0 = [r for r in recs if r["warp"] == 0]; w1 = [r for r in recs if r["warp"] == 1]
for a, b in zip(w0, w1): print(json.dumps(a)); print(json.dumps(b))' >wi.jsonl
expect 0 "interleaved json warps agree" "$G" trace-diff w.jsonl wi.jsonl

# ------------------------------------------------------------ JSON by value
"$PY" -c 'import json
for l in open("l.jsonl"): print(json.dumps(json.loads(l), sort_keys=True, indent=2))' >sorted.json
check "sort_keys/indent: one record spans lines" test "$(wc -l <sorted.json)" -gt 100
expect 0 "json re-serialized (sorted keys, indent 2) agrees" "$G" trace-diff l.jsonl sorted.json
check "... 3 records" has out '^traces agree: 3 instruction records$'
"$PY" -c 'import json
def num(v): return int(v, 16) if isinstance(v, str) and v.startswith("0x") else v
for l in open("l.jsonl"):
    r = json.loads(l)
    r["exec"] = num(r["exec"]); r["pc"] = str(r["pc"]); r["word"] = r["word"].upper().replace("0X", "0x")
    for w in r["writes"]:
        w["lanes"] = w["lanes"].upper().replace("0X", "0x")
        w["values"] = [num(v) for v in w["values"]]
    print(json.dumps(dict(reversed(list(r.items()))), separators=(" , ", " : ")))' >respelled.json
check "respelled: numbers in decimal" has respelled.json '"exec" : 4294967295'
expect 0 "json with numbers respelled (decimal, upper-case hex, keys reversed) agrees" "$G" trace-diff l.jsonl respelled.json
sed '1s/"values" : \[1 , 2 , 3 ,/"values" : [1 , 2 , 9 ,/' respelled.json >respelled_bad.json
check "respelled_bad differs from respelled" differs respelled.json respelled_bad.json
expect 1 "... and a changed lane in it is found" "$G" trace-diff l.jsonl respelled_bad.json
check "... by register, lane and value" has out '^first difference in warp 0, its instruction record 1 \(pc 0\): R1 lane 2: A 0x3, B 0x9:$'
check "... one line for it" has out '^  pc 0 IADD R1, R1, 0x1: R1 lanes 0x00000004 \(1 lane\): A 0x3, B 0x9$'

# ------------------------------------------------------------ without the text; --ignore-text; engine tag
sed -E 's/^(w[0-9]+ [0-9]+ exec 0x[0-9a-f]+) .*/\1/' l.txt >notext.txt
check "notext: no instruction text" hasnt notext.txt 'IADD'
expect 0 "a text log without the disassembly agrees" "$G" trace-diff l.txt notext.txt
"$PY" -c 'import json
for l in open("l.jsonl"):
    r = json.loads(l); del r["text"]; del r["active"]; print(json.dumps(r))' >notext.jsonl
expect 0 "a json log without text (or active) agrees" "$G" trace-diff l.jsonl notext.jsonl
sed 's/IADD R2, R1, R1/IADD R2, R1, R2/' l.txt >othertext.txt
expect 1 "another text differs" "$G" trace-diff l.txt othertext.txt
check "... at its column" has out ': the instruction lines differ at column 36:$'
expect 0 "... not with --ignore-text" "$G" trace-diff --ignore-text l.txt othertext.txt
expect 0 "run --trace-engine" "$G" run p.s --state lane.json --trace=e.txt --trace-engine -o /dev/null
check "e.txt has the engine tag" has e.txt '^w0 0 exec 0xffffffff \[[a-z]+\] IADD'
expect 0 "the engine tag is not compared" "$G" trace-diff l.txt e.txt
expect 0 "... in json either" "$G" run p.s --state lane.json --trace=e.jsonl --trace-format=json --trace-engine -o /dev/null
expect 0 "... json agrees" "$G" trace-diff l.jsonl e.jsonl

# ------------------------------------------------------------ a one-lane difference in one line
sed 's/^w0   R1\[5\] = 0x00000006$/w0   R1[5] = 0x00000063/' l.txt >onelane.txt
check "onelane differs from l.txt" differs l.txt onelane.txt
expect 1 "a one-lane difference" "$G" trace-diff l.txt onelane.txt
check "... one line for the lane" has out '^  pc 0 IADD R1, R1, 0x1: R1 lanes 0x00000020 \(1 lane\): A 0x6, B 0x63$'
check "... and the two instruction lines: 4 lines in all ($(wc -l <out))" test "$(wc -l <out)" -eq 4
expect 1 "--verbose shows the records whole" "$G" trace-diff --verbose l.txt onelane.txt
check "... every write line" test "$(grep -c '^[-+] ' out)" -eq 66

expect 0 "a trace where every lane's R1 differs from l.txt's" "$G" run p.s --trace=u.txt -o /dev/null
expect 1 "31 lanes that differ, each otherwise" "$G" trace-diff l.txt u.txt
check "... 8 lines of lane groups" test "$(grep -c '^  pc 0 IADD R1, R1, 0x1: R1 lanes' out)" -eq 8
check "... then how many more" has out '^  pc 0 IADD R1, R1, 0x1: \.\.\. and 23 more lanes that differ \(--verbose: the records whole\)$'

# ------------------------------------------------------------ each warp's first difference
sed -E 's/^(w[01])   R3 = 0x00000003 lanes 0xffffffff$/\1   R3 = 0x00000004 lanes 0xffffffff/' wi.txt >both.txt
expect 1 "both warps differ" "$G" trace-diff w.txt both.txt
check "... warp 0's first difference" has out '^first difference in warp 0, its instruction record 3 \(pc 2\): R3 lane 0: A 0x3, B 0x4:$'
check "... and warp 1's" has out '^first difference in warp 1, its instruction record 3 \(pc 2\): R3 lane 0: A 0x3, B 0x4:$'
check "... one lane group each" test "$(grep -c 'R3 lanes 0xffffffff (32 lanes): A 0x3, B 0x4$' out)" -eq 2

# ------------------------------------------------------------ pairs written as one value
# --trace-values f64 writes R[4:5] = <64 bits>; a log that writes R4 and R5
# apart says the same (the low word in R4), in the uniform and per-lane forms
printf 'MOV.64 R[4:5], R[2:3]\nDADD R[6:7], R[2:3], R[4:5]\nMOV R9, 0x7\n' >pair.s
expect 0 "a state with per-lane values" "$G" gen --seed 3 -n 1 --active full=1 --state-out st1.json -o /dev/null
expect 0 "a program writing pairs" "$G" run pair.s --state st1.json --trace=pw.txt --trace-values f64 -o /dev/null
expect 0 "... and its plain trace" "$G" run pair.s --state st1.json --trace=pn.txt -o /dev/null
check "the f64 trace writes pairs" has pw.txt '^w0   R\[4:5\]'
expect 0 "a pair and its two registers agree" "$G" trace-diff pw.txt pn.txt
sed -E '0,/^(w0   R\[6:7\][^=]*= 0x)[0-9a-f]{8}/s//\100000000/' pw.txt >pbad.txt
check "... the test's change took ($(grep -m1 'R\[6:7\]' pbad.txt))" test "$(cmp -s pw.txt pbad.txt; echo $?)" -eq 1
expect 1 "a changed high word is found" "$G" trace-diff pbad.txt pn.txt
check "... in R7, the pair's high register" has out '^first difference in warp 0, its instruction record 2 \(pc 1\): R7 lane'

# ------------------------------------------------------------ the minimum of docs/verification.md
printf 'MOV R1, 0x5\nISETP.GT.AND P0, PT, R1, 0x3, PT\n' >m.s
expect 0 "the documented program runs" "$G" run m.s --trace=m.txt -o /dev/null
# the two logs of the documentation, taken from it
awk '/^#### The minimum an RTL log/ { on = 1 } on && /^```$/ { n++; next } on && n == 1 { print >"rtl.txt" }
     on && n == 3 { print >"rtl.jsonl" } n == 4 { exit }' "$GISA_SOURCE_DIR/docs/verification.md"
check "the documented text log" has rtl.txt '^w0   P0 = 0xffffffff lanes 0xffffffff$'
check "the documented json log" has rtl.jsonl '"pc": 1, "exec": 4294967295'
expect 0 "the documented minimal text log agrees with the model" "$G" trace-diff m.txt rtl.txt
expect 0 "the documented minimal json log agrees with the model" "$G" trace-diff m.txt rtl.jsonl
sed 's/R1 = 0x5/R1 = 0x6/' rtl.txt >rtl_bad.txt
expect 1 "... and a wrong value in it is found" "$G" trace-diff m.txt rtl_bad.txt
check "... its line has the word-less instruction" has out '^\+ rtl_bad.txt:1: w0 0 exec 0xffffffff$'

finish
