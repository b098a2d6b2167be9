#!/usr/bin/env bash
# `gisa regress` with the local backend, against a stand-in DUT
# (tests/cli/regress/dut.py: the golden model with two injected bugs, SEL
# lane 5 and ISETP lane 9):
# - a trace-compared campaign: exit 1, failures grouped into exactly the two
#   signatures (optype, register kind) with counts that add up, each with a
#   shrunk reproducer (shorter than its program) whose rerun.sh still fails;
#   summary, results.json, merged coverage with its holes;
# - the JUnit XML: valid against tests/cli/regress/junit.xsd (the usual
#   structure: xmllint, CI installs it) and, parsed, its counts agree with
#   its testcases and with results.json;
# - interrupted (SIGTERM while running), it says so (exit 130) and leaves
#   only whole result files; the re-run runs exactly the jobs missing and
#   ends as a run in one go does;
# - the exit and state comparisons give their signatures; --rerun of one
#   seed; a directory of another config is refused; the help's options are
#   the script's; a gisa program with no runner beside it says so.
# Env: GISA_BIN, GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" regress
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3 (gisa regress runs on it)"
DUT=$SRC/tests/cli/regress/dut.py
PY=/usr/bin/python3

config() { # NAME SEEDS COMPARE DUT-ARGS [MORE CAMPAIGN KEYS]
    cat <<TOML
[campaign]
name = "$1"
seeds = "$2"
compare = "$3"
dut = "$DUT $4"
timeout = 20
${5:-}
[gen]
count = 25
include = "IADD_RR,LOP3_RRR,SHF_RRR,ISETP_RR,SEL_RR"
regs = 32
TOML
}
config t 1-30 trace 'trace {prog} {state} {trace} {dir}/gold.trace' >t.toml

# ------------------------------------------------------------ a campaign
expect 1 "a campaign with failures exits 1" "$G" regress t.toml -j2 -d c
C=$T/c
check "summary on stdout" has out '^campaign t: 30 jobs, 30 done, [0-9]+ passed, [0-9]+ failed$'
check "progress on stderr" has err '^\[30/30\] [0-9.]+ jobs/s, [0-9]+ failed'
check "summary.txt is the summary" cmp -s out "$C/summary.txt"
"$PY" - "$C" >sigs.txt <<'PY' || bad "results.json: $(cat sigs.txt)"
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
assert d["jobs"] == d["done"] == 30 and not d["missing"], d["done"]
assert d["failed"] == sum(s["count"] for s in d["signatures"]), "counts do not add up"
assert d["failed"] == sum(r["status"] != "pass" for r in d["results"])
for s in d["signatures"]:
    assert s["count"] == len(s["seeds"])
    print(s["optype"], s["reg"], s["count"], s["id"], s["reproducer"]["instructions"],
          s["reproducer"]["original_instructions"])
assert d["coverage"]["files"] == 30 and d["coverage"]["holes"] > 0
PY
check "two signatures: SEL R and ISETP P" test "$(cut -d' ' -f1,2 sigs.txt | sort | tr '\n' ,)" = "ISETP P,SEL R,"
while read -r op reg count id n orig; do
    check "$op: a reproducer shorter than its program ($n < $orig)" test "$n" -lt "$orig"
    check "$op: repro/$id holds prog.s, state.json, original.s, original.json" test -s "$C/repro/$id/prog.s" -a -s "$C/repro/$id/state.json" -a -s "$C/repro/$id/original.s" -a -s "$C/repro/$id/original.json"
    check "$op: its state is shrunk ($(wc -c <"$C/repro/$id/state.json") < $(wc -c <"$C/repro/$id/original.json") bytes)" \
        test "$(wc -c <"$C/repro/$id/state.json")" -lt "$(wc -c <"$C/repro/$id/original.json")"
    expect 1 "$op: its rerun.sh fails (trace-diff: differ)" sh "$C/repro/$id/rerun.sh"
    check "$op: ... at a $op" has out "^  pc [0-9]+ (@!?P[0-9T] )?$op"
    check "$op: the summary names it" has "$C/summary.txt" "^ +$count  $id  $op "
    check "$op: ... and its reproducer" has "$C/summary.txt" "reproducer: repro/$id/prog.s \\($n instructions?, from default seed [0-9]+: $orig\\)"
done <sigs.txt
check "merged coverage file" test -s "$C/coverage.json"
check "coverage report with its holes" has "$C/coverage.txt" 'never executed'
check "no work left of passing jobs" test "$(ls "$C/work/default" | wc -l)" -eq "$(ls "$C"/results/default/*.json | grep -v '\.cov\.json$' | xargs grep -l '"status": "fail"' | wc -l)"

# ------------------------------------------------------------ JUnit XML
if command -v xmllint >/dev/null; then
    expect 0 "junit.xml is valid against the JUnit schema" xmllint --noout --schema "$SRC/tests/cli/regress/junit.xsd" "$C/junit.xml"
else
    ci_skip_part "xmllint is not installed: junit.xml not checked against the schema (Debian: libxml2-utils)"
fi
"$PY" - "$C" >junit.txt 2>&1 <<'PY' || bad "junit.xml: $(cat junit.txt)"
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/junit.xml").getroot()
d = json.load(open(sys.argv[1] + "/results.json"))
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1
cases = [c for s in suites for c in s.findall("testcase")]
fails = [c for c in cases if c.find("failure") is not None]
for el in [root] + suites:
    n = el.iter("testcase")
    cs = list(n)
    assert int(el.get("tests")) == len(cs)
    assert int(el.get("failures")) == sum(c.find("failure") is not None for c in cs)
    assert int(el.get("errors")) == sum(c.find("error") is not None for c in cs)
    assert abs(float(el.get("time")) - sum(float(c.get("time")) for c in cs)) < 0.01 * len(cs)
assert len(cases) == 30 and len(fails) == d["failed"]
for c in cases:
    assert c.get("classname") == "t.default" and c.get("name").startswith("seed ")
    assert len(list(c)) <= 1
for c in fails:
    f = c.find("failure")
    assert f.get("type").startswith("signature ") and f.get("message") and f.text
PY

# ------------------------------------------------------------ interrupted, then completed
# t's campaign, each DUT run made 0.1 s longer (so that it is still running
# when killed, however fast the machine): its results must be t's
sed 's/^dut = "/dut = "sleep 0.1; /' t.toml >r.toml
"$G" regress r.toml -j2 -d r >r1.out 2>r1.err &
pid=$!
for _ in $(seq 300); do
    [ "$(ls r/results/default 2>/dev/null | grep -c '^[0-9]*\.json$')" -ge 5 ] && break
    sleep 0.1
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
check "interrupted: exit 130 ($rc)" test "$rc" -eq 130
check "... says how many are done and how to go on" has r1.err '^gisa regress: interrupted: [0-9]+ of 30 jobs done; run the same command again'
check "... only whole result files" test -z "$(find r/results -name '*.tmp*')"
done1=$(ls r/results/default | grep -c '^[0-9]*\.json$')
check "... fewer than all done ($done1)" test "$done1" -lt 30
ls r/results/default | grep '^[0-9]*\.json$' | sort >before.txt
for f in $(cat before.txt); do stat -c '%n %i %Y' "r/results/default/$f"; done >before.stat
expect 1 "the re-run completes it" "$G" regress r.toml -j2 -d r
check "... runs only the missing jobs" has err "^gisa regress: .*: 30 jobs, $done1 done before, $((30 - done1)) to run"
check "... all done" has out '^campaign t: 30 jobs, 30 done'
for f in $(cat before.txt); do stat -c '%n %i %Y' "r/results/default/$f"; done >after.stat
check "... the results done before are untouched" cmp -s before.stat after.stat
expect 1 "a third run has nothing to do" "$G" regress r.toml -j2 -d r
check "... 0 to run" has err ': 30 jobs, 30 done before, 0 to run'
# the interrupted campaign ends as the one in one go: the same failures, signatures and reproducers
project() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps([d["results"] and sorted((r["seed"], r["status"], r["signature"]) for r in d["results"]), [(s["id"], s["count"]) for s in d["signatures"]]]))' "$1"; }
check "... the same results as t's in one go" test "$(project r/results.json)" = "$(project c/results.json)"
for p in c/repro/*/prog.s; do
    check "... the same reproducer ${p#c/}" cmp -s "$p" "r/${p#c/}"
done

# ------------------------------------------------------------ exit and state comparisons
config e 1-12 exit 'exit {prog} {state} {dir}/x' 'shrink = 0' >e.toml
expect 1 "compare = exit" "$G" regress e.toml -d e -q
check "... the DUT's report line gives the optype and register kind" \
    has e/summary.txt '^ +[0-9]+  [0-9a-f]{10}  (SEL +R +mismatch: warp N pc N: R lane N: expected N, got N|ISETP +P +mismatch: warp N pc N: P lane N: expected N, got N)$'
config s 1-6 state 'state {prog} {state} {out}' 'shrink = 0' >s.toml
expect 1 "compare = state" "$G" regress s.toml -d s -q
check "... the first differing register of the final state" has s/summary.txt '^ +[0-9]+  [0-9a-f]{10}  - +R +final state: warp N R lane N: expected N, got N$'
check "... shrink = 0: not shrunk" has s/summary.txt 'first: default seed [0-9]+ \(not shrunk\)'

# a DUT that hangs: killed at the time limit, retried once, then a timeout (not shrunk)
printf '[campaign]\nname = "hang"\nseeds = "1-2"\ndut = "sleep 29.7"\ntimeout = 0.5\nretries = 1\n[gen]\ncount = 3\n' >h.toml
expect 1 "a hanging DUT" "$G" regress h.toml -j2 -d h -q
check "... two attempts, then a timeout" test "$(grep -hE '"(status|attempts)"' h/results/default/1.json | tr -d ' \n')" = '"status":"timeout","attempts":2,'
check "... one signature, not shrunk" has h/summary.txt '^ +2  [0-9a-f]{10}  - +- +timeout after 0.5 s$'
check "... no sleep left running" test -z "$(pgrep -f '^sleep 29.7$' || true)"

# ------------------------------------------------------------ one seed again, and refusals
seed=$("$PY" -c 'import json; d=json.load(open("c/results.json")); print(d["signatures"][0]["seeds"][0]["seed"])')
expect 1 "--rerun $seed (a failing seed)" "$G" regress t.toml -d c --rerun "$seed"
check "... shows the gen command and the failure" has out "^\\\$ .*gisa gen --seed $seed "
check "... the failure" has out "^default seed $seed: fail \[[0-9a-f]{10}\]"
check "... its files" test -s "c/rerun/default/$seed/prog.s"
cp t.toml t2.toml
sed -i 's/count = 25/count = 26/' t2.toml
expect 2 "a directory of another config is refused" "$G" regress t2.toml -d c
check "... saying so" has err 'holds a campaign of another config'
printf '[campaign]\nseeds = "1-3"\ndut = "x {prog} {nope}"\n' >bad.toml
expect 2 "an unknown placeholder" "$G" regress bad.toml -d bad
check "... is named" has err 'unknown placeholder \{nope\}'
printf '[campaign]\nseed = "1-3"\ndut = "x"\n' >bad.toml
expect 2 "an unknown key" "$G" regress bad.toml -d bad
check "... with a suggestion" has err "unknown key 'seed' \(did you mean 'seeds'\?\)"

# ------------------------------------------------------------ the command
expect 0 "gisa regress --help" "$G" regress --help
opts() { grep -oE -- '^ +(-[a-zA-Z]( [A-Z_]+)?, )?--[a-z][a-z-]+' | grep -oE -- '--[a-z-]+' | grep -vE -- '--(help|version|isa|isa-add|isa-overlay|target|max-memory)$' | sort -u; }
sed -n '/^Options:/,/^Common options:/p' out | opts >c_opts
GISA_PROGRAM=$G "$PY" "$(dirname "$G")/regress/regress.py" --help | opts >py_opts
check "the help lists the runner's options" cmp -s c_opts py_opts
mkdir -p alone && cp "$G" alone/gisa
expect 2 "a gisa without its runner" alone/gisa regress t.toml
check "... says where it looked" has err 'the campaign runner is missing: looked for .*alone/.*regress\.py'
GISA_REGRESS_PYTHON=$T/no-python expect 2 "no python3" "$G" regress t.toml
check "... says what it needs" has err "^gisa regress: needs $T/no-python \\(Python 3.11 or later; Debian: apt-get install python3\\)"
finish
