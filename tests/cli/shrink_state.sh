#!/usr/bin/env bash
# `gisa shrink --state`: complete reproducers. A failing program and state
# shrink to a state file smaller than the original, on which the command
# still fails; the generator's header stays in the program; `--bundle DIR`
# holds prog.s, state.json, repro.sh and bundle.json, and repro.sh copied
# to a fresh directory reproduces the failure by itself; `gisa run` takes
# the bundle's files (and the directory) as they are. The same inputs give
# the same bytes. An interrupted shrink leaves no bundle, whole or half,
# and no candidate; a missing or bad state, a command without {state}, and
# a directory that is not a bundle are refused before anything runs.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" shrink_state

# A state of two warps: per-lane and uniform registers, predicates,
# uniforms, an active mask and constants; a program with a header. The
# test fails (exit 1) while R3 is nonzero in the final state.
cat >st.json <<'EOF'
{ "warps": [
  { "active": "0x0000ffff",
    "R1": ["0x3f800000","0x5","0x7","0x9","0xb","0xd","0xf","0x11","0x13","0x15","0x17","0x19","0x1b","0x1d","0x1f","0x21",
           "0x23","0x25","0x27","0x29","0x2b","0x2d","0x2f","0x31","0x33","0x35","0x37","0x39","0x3b","0x3d","0x3f","0x41"],
    "R2": "0x1234", "R4": 99, "P0": true, "UR3": "0xdeadbeef", "UP1": true },
  { "R1": 5, "R7": "0xffff0000" } ],
  "c[0x0][0x10]": "0x3f800000", "c[0x2][0x100]": 7 }
EOF
printf '// gisa gen --target gisa128 --seed 7 --count 3\n// a second header line\nIADD R3, R1, R2\nMOV R5, 0x1\nIADD R6, R4, 0x1\n' >p.s
cat >r3.sh <<EOF
#!/bin/sh
# \$1 program, \$2 state: exit 1 while R3 is nonzero at the end
"$G" run --state "\$2" "\$1" 2>/dev/null | grep -q '"R3"' && exit 1
exit 0
EOF
chmod +x r3.sh
expect 1 "the test fails on the original" ./r3.sh p.s st.json

expect 0 "shrink with --state and --bundle" "$G" shrink p.s --state st.json --state-out small.json -o small.s \
    --bundle bun -- "$T/r3.sh" {} {state}
check "a summary of the state" has err '^gisa shrink: state [0-9]+ -> [0-9]+ bytes in [0-9]+ runs of the command$'
check "the state is smaller than the original ($(wc -c <small.json) < $(wc -c <st.json))" \
    test "$(wc -c <small.json)" -lt "$(wc -c <st.json)"
# one warp, no constant, no predicate; R1 made uniform and simple
check "the smallest state: R1 = 1 in one warp" \
    test "$(tr -d ' \n' <small.json)" = '{"active":"0xffffffff","R1":"0x00000001"}'
check "the header kept, both lines" test "$(head -2 small.s)" = "$(head -2 p.s)"
check "and the one instruction that matters" test "$(tail -n +3 small.s)" = "IADD R3, R1, R2"
expect 1 "the command still fails on the results" ./r3.sh small.s small.json
check "no candidate left" test -z "$(ls -A | grep gisa-shrink || true)"

# the bundle: what it holds and says
for f in prog.s state.json repro.sh bundle.json; do
    check "bundle has $f" test -f "bun/$f"
done
check "bundle's program is the result" cmp -s bun/prog.s small.s
check "bundle's state is the result" cmp -s bun/state.json small.json
check "repro.sh is executable" test -x bun/repro.sh
j() { tr -d '\n' <bun/bundle.json | grep -oE "\"$1\": *(\"[^\"]*\"|\[[^]]*\]|[a-z0-9]+)"; }
check "bundle.json: the version" test "$(j gisa)" = "\"gisa\": \"$("$G" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)\""
check "bundle.json: the seed" test "$(j seed)" = '"seed": "7"'
check "bundle.json: the generator's options" test "$(j gen_options)" = '"gen_options": "--target gisa128 --seed 7 --count 3"'
check "bundle.json: the command, placeholders kept" test "$(j command)" = "\"command\": [\"$T/r3.sh\", \"{}\", \"{state}\"]"
check "bundle.json: the failing status" test "$(j status)" = '"status": 1'
check "bundle.json: the state's sizes" test "$(j state_bytes)" = "\"state_bytes\": [$(wc -c <st.json), $(wc -c <small.json)]"
check "bundle.json: the program's lines" test "$(j program_lines)" = '"program_lines": [5, 3]'
# by itself, from another directory, the bundle copied elsewhere
mkdir -p fresh/elsewhere
cp -r bun fresh/elsewhere/b
(cd fresh && ./elsewhere/b/repro.sh) && rc=0 || rc=$?
check "repro.sh in a fresh directory fails as the original did (status $rc)" test "$rc" -eq 1
expect 0 "gisa run takes the bundle's files as they are" "$G" run --state bun/state.json bun/prog.s
check "... R3 = 0x1 (R1 + R2 = 1 + 0)" has out '"R3": "0x00000001"'
expect 0 "gisa run DIR: a bundle directory" "$G" run bun
check "... the same" has out '"R3": "0x00000001"'
expect 0 "gisa run DIR -o FILE --trace" "$G" run fresh/elsewhere/b --trace=t.txt -o o.json
check "... traced the bundle's program" has t.txt 'IADD R3, R1, R2'
mkdir -p notabundle
expect 2 "gisa run DIR without bundle.json" "$G" run notabundle
check "... says so" has err 'notabundle.*not a bundle'

# the same inputs, the same bytes; an earlier bundle is replaced
expect 0 "shrink again into the same bundle" "$G" shrink p.s --state st.json --state-out again.json -o again.s \
    --bundle bun -- "$T/r3.sh" {} {state}
check "same state" cmp -s again.json small.json
check "same program" cmp -s again.s small.s
check "bundle replaced, no temporary beside it" test "$(ls -d bun* | tr '\n' ' ')" = "bun "
expect 0 "{prog} is {}" "$G" shrink p.s --state st.json --state-out prog.json -- "$T/r3.sh" {prog} {state}
check "... same state" cmp -s prog.json small.json
check "without -o or --bundle the program goes to stdout" test "$(tail -1 out)" = "IADD R3, R1, R2"

# the command never gets the original state's path: a candidate beside it
cat >paths.sh <<EOF
#!/bin/sh
echo "\$2" >>"$T/paths.log"
exec "$T/r3.sh" "\$1" "\$2"
EOF
chmod +x paths.sh
expect 0 "{state}: always a candidate" "$G" shrink p.s --state st.json -o /dev/null -- "$T/paths.sh" {} {state}
check "... beside the state, hidden, never st.json itself" test -z "$(grep -vxE '\./\.gisa-shrink-[A-Za-z0-9]{6}\.st\.json|\.gisa-shrink-[A-Za-z0-9]{6}\.st\.json' paths.log)"
check "... one candidate for all runs" test "$(sort -u paths.log | wc -l)" -eq 1

# placeholders inside arguments, and quotes, in repro.sh
cat >args.sh <<'EOF'
#!/bin/sh
# $1 "prog=PATH", $2 "it's STATE": exit 3 while R3 is nonzero
p=${1#prog=}; s=${2#it\'s }
[ "$1" = "prog=$p" ] && [ "$2" = "it's $s" ] || exit 0
"$GISA" run --state "$s" "$p" 2>/dev/null | grep -q '"R3"' && exit 3
exit 0
EOF
chmod +x args.sh
export GISA=$G
expect 0 "--status 3 with placeholders inside arguments" "$G" shrink --status 3 p.s --state st.json --bundle bun2 \
    -- "$T/args.sh" 'prog={}' "it's {state}"
check "nothing on stdout with --bundle alone" test ! -s out
check "same state" cmp -s bun2/state.json small.json
(cd fresh && ../bun2/repro.sh) && rc=0 || rc=$?
check "repro.sh passes the arguments as shrink did (status $rc)" test "$rc" -eq 3
check "bundle.json: status 3, required" test "$(tr -d '\n' <bun2/bundle.json | grep -oE '"status(_required)?": [a-z0-9]+' | tr '\n' ' ')" = '"status": 3 "status_required": true '

# a generated program and state; the failure (as a lane-mask bug of an RTL
# would show): a guarded instruction executes in some lanes, not all
"$G" gen --seed 11 -n 40 -o gen.s --state-out gen.json
cat >partial.sh <<EOF
#!/bin/sh
t=\$(mktemp)
trap 'rm -f "\$t"' EXIT
"$G" run --state "\$2" "\$1" -o /dev/null --trace="\$t" 2>/dev/null || exit 0
grep -E '^w[0-9]+ [0-9]+ exec 0x[0-9a-f]+ @!?P[0-6] ' "\$t" | grep -qvE 'exec 0x(00000000|ffffffff) ' && exit 1
exit 0
EOF
chmod +x partial.sh
expect 1 "the test fails on the generated program" ./partial.sh gen.s gen.json
expect 0 "shrink a generated program and state" "$G" shrink gen.s --state gen.json --bundle genb -- "$T/partial.sh" {} {state}
check "the state shrank ($(wc -c <genb/state.json) of $(wc -c <gen.json) bytes)" \
    test "$(wc -c <genb/state.json)" -lt "$(($(wc -c <gen.json) / 10))"
check "the generator's header and one guarded instruction" test "$(grep -c . genb/prog.s)" -eq 2 -a "$(head -1 genb/prog.s)" = "$(head -1 gen.s)"
check "the state: one predicate, true in one lane" \
    test "$(tr -d ' \n' <genb/state.json | sed 's/"P[0-6]"/"P"/; s/false,//g; s/,false//g')" = '{"active":"0xffffffff","P":[true]}'
check "bundle.json: the seed" has genb/bundle.json '"seed": "11"'
(cd fresh && ../genb/repro.sh) && rc=0 || rc=$?
check "the bundle reproduces the failure by itself (status $rc)" test "$rc" -eq 1
expect 0 "gisa run takes it" "$G" run genb

# the program once more on the smallest state: both guarded lines are
# needed with the original predicate, one once the predicate is dropped
printf '// header\n@P0 MOV R3, 0x1\n@!P0 MOV R3, 0x1\n' >guards.s
printf '{ "P0": [%s], "R7": 9 }\n' "$(printf 'true,%.0s' $(seq 16))$(printf 'false,%.0s' $(seq 15))false" >guards.json
cat >uniform.sh <<EOF
#!/bin/sh
# exit 1 while R3 ends 1 in every lane
"$G" run --state "\$2" "\$1" 2>/dev/null | grep -q '"R3": "0x00000001"' && exit 1
exit 0
EOF
chmod +x uniform.sh
expect 1 "the test fails on both lines" ./uniform.sh guards.s guards.json
sed 3d guards.s >first.s
sed 2d guards.s >second.s
expect 0 "... not on the first alone" ./uniform.sh first.s guards.json
expect 0 "... nor on the second alone" ./uniform.sh second.s guards.json
expect 0 "shrink: program, state, program" "$G" shrink guards.s --state guards.json --state-out guards_out.json \
    -- "$T/uniform.sh" {} {state}
check "... one line left on the empty state" test "$(tr '\n' ' ' <out)" = '// header @!P0 MOV R3, 0x1 '
check "... the state empty" test "$(tr -d ' \n' <guards_out.json)" = '{"active":"0xffffffff"}'

# a command that passes on the state as gisa rewrites it (it reads the text)
cat >text.sh <<'EOF'
#!/bin/sh
grep -q '"R4": 99' "$2" && exit 1
exit 0
EOF
chmod +x text.sh
expect 0 "a test of the state's text" "$G" shrink p.s --state st.json --state-out kept.json -o /dev/null -- ./text.sh {} {state}
check "... warned" has err "warning: the command does not fail on st.json as gisa writes it"
check "... the state kept as it was" cmp -s kept.json st.json

# interrupted: no bundle, no temporary directory, no candidate
cat >slow.sh <<'EOF'
#!/bin/sh
echo started >>slow.log
sleep 30
exit 1
EOF
chmod +x slow.sh
rm -f slow.log
env --default-signal=INT "$G" shrink p.s --state st.json --bundle cut -- ./slow.sh {} {state} >/dev/null 2>&1 &
pid=$!
for _ in $(seq 400); do [ -s slow.log ] && break; sleep 0.05; done
check "the command started" test -s slow.log
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
check "shrink ended by the signal (status $rc)" test "$rc" -gt 128
check "no bundle, whole or half" test -z "$(ls -d cut* 2>/dev/null || true)"
check "no candidate left" test -z "$(ls -A | grep gisa-shrink || true)"

# errors: before anything runs
: >ran.log
cat >count.sh <<'EOF'
#!/bin/sh
echo ran >>ran.log
exit 1
EOF
chmod +x count.sh
expect 2 "a missing state" "$G" shrink p.s --state nosuch.json -- ./count.sh {} {state}
check "... named" has err 'nosuch.json'
printf '{ "R1": 1,\n  "R999": 2 }\n' >bad.json
expect 2 "a bad state" "$G" shrink p.s --state bad.json -- ./count.sh {} {state}
check "... where and why" has err '^bad.json:2:3: error: .*R999'
check "... bad state file" has err 'bad state file bad.json; nothing was run'
printf '{ "R1": 1, ' >cut.json
expect 2 "a truncated state" "$G" shrink p.s --state cut.json -- ./count.sh {} {state}
expect 2 "{state} without --state" "$G" shrink p.s -- ./count.sh {} {state}
check "... explained" has err "names '\{state\}', but no --state FILE"
expect 2 "--state without {state}" "$G" shrink p.s --state st.json -- ./count.sh {}
check "... explained" has err "must name the candidate state as '\{state\}'"
expect 2 "--state-out over the state read" "$G" shrink p.s --state st.json --state-out st.json -- ./count.sh {} {state}
check "... refused" has err 'st.json'
expect 2 "--state from standard input" "$G" shrink p.s --state - -- ./count.sh {} {state} </dev/null
check "... refused" has err 'needs a file, not standard input'
expect 2 "--state-out without --state" "$G" shrink p.s --state-out x.json -- ./count.sh {}
mkdir -p full && echo x >full/keep
expect 2 "--bundle onto a directory that is not a bundle" "$G" shrink p.s --state st.json --bundle full -- ./count.sh {} {state}
check "... refused" has err 'neither empty nor a bundle'
check "... left as it was" test "$(ls full)" = keep
echo x >afile
expect 2 "--bundle onto a file" "$G" shrink p.s --state st.json --bundle afile -- ./count.sh {} {state}
check "the command never ran" test ! -s ran.log
check "no candidate left" test -z "$(ls -A | grep gisa-shrink || true)"
finish
