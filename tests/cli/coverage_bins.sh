#!/usr/bin/env bash
# The coverage model's bins on the command line: value classes, results,
# patterns, RAW distances and crosses in the text report and the JSON;
# user bins from a bins file with `run --coverage --bins` and `cov --bins`
# (errors located file:line:col, the coverage file untouched); the HTML
# report (`cov --html FILE|DIR`), holes first; version 1 files still read.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" coverage_bins

cat >prog.s <<'EOF'
IADD R1, P0, R2, R3
IADD R4, R1, 0x1
@P2 IADD R5, R2, R3
FFMA R7, R8, R9, R10
EOF
printf '{"R2": "0xffffffff", "R3": "0x1", "R8": "0x7f800000", "R9": "0x0"}\n' >state.json
cat >my.bins <<'EOF'
# carry out of -1 + 1
bin carry: IADD pu=true
bin inf_x_zero: FFMA Ra=+inf SrcB=+0|-0
bin skipped: IADD.X
EOF

expect 0 "run --coverage --bins" "$G" run prog.s --state state.json --coverage c.json --bins my.bins
check "the carry bin counts the 32 lanes" has c.json '"carry": \{'
grep -A2 '"carry": {' c.json >carry.txt
check "carry count 32" has carry.txt '"count": 32'
check "the version is 2" has c.json '^ "version": 2,'
check "value classes in the summary" has c.json '"value_classes": \{'
check "Ra value bins" has c.json '"Ra value": \{'
check "the carry-out predicate's outcomes" has c.json '"pu outcome": \{'
check "FFMA's cross of the multiplied sources" has c.json '"Ra x SrcB F32": \{'

expect 0 "a second run without --bins keeps the user bins" "$G" run prog.s --state state.json --coverage c.json
grep -A2 '"carry": {' c.json >carry.txt
check "... and adds nothing to them (no rule here)" has carry.txt '"count": 32'
expect 0 "with --bins again, they count" "$G" run prog.s --state state.json --coverage c.json --bins my.bins
grep -A2 '"carry": {' c.json >carry.txt
check "... 64" has carry.txt '"count": 64'

expect 0 "cov --merge reports them" "$G" cov --merge c.json
check "summary lines for the new figures" has out '^  raw distances +[0-9]+/[0-9]+ '
check "crosses" has out '^  crosses +[0-9]+/[0-9]+ '
check "the user bin that never hit" has out '^  skipped: 0, never hit \(IADD.X\)$'
check "the RAW distance bins never hit" has out '^  Ra RAW distance: bins 2/6 \(never: 2, 3-4, 5-8, >8\)$'

cat >bad.bins <<'EOF'
bin ok: IADD
bin oops: FFMA.RQ Ra=+inf
EOF
cp c.json before.json
expect 2 "a bad bins file is refused" "$G" run prog.s --state state.json --coverage c.json --bins bad.bins
check "located file:line:col, did you mean" has err '^bad.bins:2:16: error: FFMA has no modifier value like this; did you mean'
check "with the line and a caret" has err '^bin oops: FFMA.RQ Ra=\+inf$'
check "nothing ran, the coverage file is unchanged" cmp -s c.json before.json
expect 2 "cov --bins refuses it too" "$G" cov prog.s --state state.json --bins bad.bins
check "... located" has err '^bad.bins:2:16: error:'
expect 2 "--bins without --coverage" "$G" run prog.s --state state.json --bins my.bins
check "... says why" has err 'give --coverage FILE too'
printf 'bin carry: IADD pu=false\n' >other.bins
expect 2 "a bin of the same name defined otherwise" "$G" run prog.s --state state.json --coverage c.json --bins other.bins
check "... is refused" has err "defined otherwise here: user bin 'carry'"
check "... and the file is unchanged" cmp -s c.json before.json

expect 0 "cov --html FILE" "$G" cov --merge c.json --html report.html
check "an HTML page" has report.html '^<!DOCTYPE html>'
check "with the manual's style" has report.html 'nav.top\{background:#243447'
check "holes come before the groups" test "$(grep -n 'id="holes"' report.html | cut -d: -f1)" -lt "$(grep -n 'id="groups"' report.html | cut -d: -f1)"
check "a hole listed with what it never hit" has report.html '<td>Ra RAW distance</td><td>2/6</td><td>33.3%</td><td class="code">2, 3-4, 5-8, &gt;8</td>'
check "the user bins" has report.html '<td>carry</td><td>64</td>'
check "the text report is still printed" has out '^coverage of gisa128'
mkdir -p site
expect 0 "cov --html DIR" "$G" cov --merge c.json --html site
check "writes DIR/index.html" cmp -s site/index.html report.html
expect 0 "cov --html new/ makes the directory" "$G" cov --merge c.json --html new/
check "new/index.html" cmp -s new/index.html report.html

# a version 1 file (before bins) still reads; a later version is refused by name
printf '{"format": "gisa-coverage", "version": 1, "executed": 2, "optypes": {"IADD": {"executed": 2}}}\n' >v1.json
expect 0 "a version 1 file merges" "$G" cov --merge v1.json --json
check "its counts kept" has out '^ "executed": 2,'
printf '{"format": "gisa-coverage", "version": 3}\n' >v3.json
expect 2 "a version 3 file is refused" "$G" cov --merge v3.json
check "... saying which versions are read" has err 'coverage file version is not 1 to 2'
check "no temporary file is left" no_tmp
finish
