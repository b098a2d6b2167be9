#!/usr/bin/env bash
# End-to-end tests of `gisa gen` and `gisa shrink`: a generated program (both
# targets) assembles to the words `gen --words` wrote (hex and bin), `gisa dis`
# prints its lines back, `gisa run` runs it from the --state-out file and
# without one (exit 0); the same seed gives the same bytes; bad options exit 2
# with a reason and write nothing; --list names families and streams.
# Shrinking: with a test that fails when an instruction pattern is present,
# the result is exactly one line that has it; --status; a test that does not
# fail exits 1; a missing command is refused.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" gen

# ------------------------------------------------------------ gen
expect 0 "gen --help" "$G" gen --help
check "gen --help shows usage" has out '^usage: gisa gen'

for t in gisa128 fermi; do
    expect 0 "gen $t" "$G" gen --target $t --seed 7 -n 400 -o p.s --words p.hex --state-out st.json
    check "$t: header comment repeats the options" has p.s "^// gisa gen --target $t --seed 7 --count 400 --regs 32$"
    check "$t: 400 instructions" test "$(grep -vc '^//' p.s)" -eq 400
    expect 0 "$t: the text assembles" "$G" as --target $t --format hex -o a.hex p.s
    check "$t: to the words gen wrote" cmp -s a.hex p.hex
    expect 0 "$t: words disassemble" "$G" dis --target $t p.hex
    grep -v '^//' p.s >lines.s
    check "$t: to the generated lines" cmp -s out lines.s
    expect 0 "$t: runs from its state" "$G" run --target $t --regs 32 --state st.json p.s -o final.json
    expect 0 "$t: runs without a state" "$G" run --target $t --regs 32 p.s -o final0.json
    expect 0 "$t: binary words" "$G" gen --target $t --seed 7 -n 400 --words p.bin
    check "$t: nothing on stdout with --words alone" test ! -s out
    expect 0 "$t: bin = as output" "$G" as --target $t -o a.bin p.s
    check "$t: bin words" cmp -s a.bin p.bin
done

expect 0 "gen again" "$G" gen --seed 7 -n 400 -o again.s --state-out again.json --target gisa128
expect 0 "gen once more" "$G" gen --seed 7 -n 400 -o once.s --state-out once.json
check "same seed, same program" cmp -s again.s once.s
check "same seed, same state" cmp -s again.json once.json
expect 0 "gen seed 8" "$G" gen --seed 8 -n 400 -o other.s
if cmp -s other.s once.s; then bad "another seed, another program"; else ok; fi
expect 0 "gen hex seed" "$G" gen --seed 0x7 -n 400 -o hexseed.s
check "--seed 0x7 is --seed 7 (but for the header)" cmp -s <(tail -n +2 hexseed.s) <(tail -n +2 once.s)

expect 0 "gen --list" "$G" gen --list
check "--list names the families" has out '^  IALU +IADD'
check "--list names the streams" has out '^  wide128 '
expect 0 "fermi --list" "$G" gen --list --target fermi
check "fermi has no integer streams" has out 'add64 +\(not on this target\)'

expect 0 "weights and lists" "$G" gen --seed 3 -n 300 --weights 'FFMA=1' --include FFMA,FADD \
    --exclude FFMA_RRC --guard-rate 0 -o w.s
check "only FFMA and FADD" test "$(grep -v '^//' w.s | grep -cvE '^(FFMA|FADD)')" -eq 0
check "no FFMA_RRC (a constant SrcC)" test -z "$(grep -E '^FFMA[^,]*,[^,]*,[^,]*, -?[|]?c\[' w.s || true)"
check "FFMA_RCR stays (a constant SrcB)" has w.s '^FFMA[^,]*,[^,]*, -?[|]?c\['
check "no guards at guard-rate 0" hasnt w.s '^@'
check "header has the options" has w.s "--guard-rate 0 --weights 'FFMA=1' --include 'FFMA,FADD' --exclude 'FFMA_RRC'"

# active masks: partial by default, per warp with --warps, by kind with --active
partial=0
for s in 1 2 3 4 5 6 7 8 9 10; do
    "$G" gen --seed $s -n 200 -o m.s --state-out m.json || bad "gen seed $s"
    m=$(grep -oE '"active": "0x[0-9a-f]+"' m.json | grep -oE '0x[0-9a-f]+')
    [ "$m" = 0xffffffff ] || [ "$m" = 0x00000000 ] || partial=$((partial + 1))
    expect 0 "seed $s runs from its state with mask $m" "$G" run --regs 32 --state m.json m.s -o /dev/null
done
check "default masks: most of 10 seeds partial ($partial)" test "$partial" -ge 5
expect 0 "--warps 4 --active" "$G" gen --seed 3 -n 300 --warps 4 --active 'random=1' -o w4.s --state-out w4.json
check "header has --warps and --active" has w4.s "--warps 4 --active 'full=0,random=1,single=0,empty=0'"
check "four warps in the state" test "$(grep -c '"active"' w4.json)" -eq 4
check "their masks differ" test "$(grep '"active"' w4.json | sort -u | wc -l)" -gt 1
check "no full or empty mask" hasnt w4.json '"active": "0x(ffffffff|00000000)"'
expect 0 "the four warps run" "$G" run --state w4.json w4.s -o w4.out
check "four warps out, their masks kept" cmp -s <(grep '"active"' w4.json | tr -d ' ,') <(grep '"active"' w4.out | tr -d ' ,')
expect 0 "--active single=1" "$G" gen --seed 3 -n 20 --active single=1 --state-out s1.json -o /dev/null
check "one lane" has s1.json '"active": "0x(0*[1248]0*)"'
expect 2 "bad --active kind" "$G" gen --active fulll=1 -o bad.s
check "--active: did you mean" has err "active: unknown mask kind 'fulll' \(did you mean full\?\)"
check "nothing written" test ! -e bad.s
expect 2 "--active all 0" "$G" gen --active full=0
check "--active all 0 explained" has err "every mask kind has weight 0"

# modifier values: NAME.VALUE in --include, --weights, --exclude
expect 0 "--include FFMA.RM,IMAD.HI.X" "$G" gen --seed 4 -n 500 --include FFMA.RM,IMAD.HI.X -o mv.s --words mv.hex
check "only FFMA with .RM and IMAD with .HI.X" \
    test "$(grep -v '^//' mv.s | grep -cvE '^(@!?P[0-6T] )?(FFMA(\.[A-Z0-9]+)*\.RM\b|IMAD\.HI\.X\b)')" -eq 0
check "both there" has mv.s '^(@!?P[0-6T] )?FFMA[.A-Z]*\.RM '
check "both there (IMAD)" has mv.s '^(@!?P[0-6T] )?IMAD\.HI\.X'
expect 0 "... assembles to its words" "$G" as --format hex -o mva.hex mv.s
check "... the same words" cmp -s mva.hex mv.hex
expect 0 "--weights FFMA.RZ=0" "$G" gen --seed 4 -n 500 --include FFMA --weights FFMA.RZ=0 -o rz.s
check "no .RZ" test -z "$(grep -v '^//' rz.s | grep -E '\.RZ\b' || true)"
expect 2 "unknown modifier value" "$G" gen --include FFMA.RMM -o bad.s
check "did you mean FFMA.RM" has err "did you mean FFMA.RM\?"
check "nothing written" test ! -e bad.s

# options that can give nothing of what they ask for: refused, not silence
expect 2 "a stream whose instructions are not included" "$G" gen --include FFMA --streams add64 --stream-rate 1 -o bad.s
check "... says which" has err "--streams add64: it uses IADD, which --include, --exclude or --weights leave out"
check "nothing written" test ! -e bad.s
expect 2 "an included optype excluded" "$G" gen --include FFMA,IADD --exclude FALU -o bad.s
check "... says which" has err "--include FFMA: all its instructions are excluded"
expect 2 "weight 0 on everything included" "$G" gen --include FFMA,IADD --weights FFMA=0,IADD=0 -o bad.s
check "... explained" has err "leave no instruction"
expect 2 "a stream rate with no stream left" "$G" gen --include FFMA --stream-rate 0.5
check "... explained" has err "--stream-rate: no directed stream is left to emit"
expect 0 "a stream rate on a target without streams" "$G" gen --target fermi --stream-rate 0.5 -n 5

# illegal words: .inst lines the decoder refuses, the first one's fault announced
expect 0 "--illegal-rate" "$G" gen --seed 2 -n 300 --illegal-rate 0.1 -o il.s --words il.hex --state-out il.json
check "some .inst lines, each with its reason" has il.s '^\.inst 0x[0-9a-f]{32} // invalid: '
check "300 words" test "$(grep -vc '^//' il.s)" -eq 300
expect 0 "... assembles" "$G" as --format hex -o ila.hex il.s
check "... to the words gen wrote" cmp -s ila.hex il.hex
want=$(sed -n '2s|^// expected fault: ||p' il.s)
check "second header line: the expected fault ($want)" test -n "$want"
expect 3 "the run faults" "$G" run --state il.json il.s -o /dev/null
check "... where the header says" grep -qxF "gisa run: simulation fault: warp 0, $want" err
expect 0 "off by default" "$G" gen --seed 2 -n 300 -o noil.s
check "... no .inst" hasnt noil.s '^\.inst'

# value classes: the header repeats them, the program runs; refused where nothing has an immediate
expect 0 "--int-values" "$G" gen --seed 4 -n 200 --int-values 'imm:zero=1,minus-one=1' --state-out v.json -o v.s
check "the header repeats --int-values" has v.s "^// gisa gen .* --int-values 'imm:zero=1,minus-one=1'$"
odd=$(grep -v '^//' v.s | grep -oE ', 0x[0-9a-f]+' | sort -u | grep -vxE ', 0x(0|[137]?f*)' || true)
check "integer immediates are 0 or all ones of their width (${odd:-none else})" test -z "$odd"
check "... both seen" has v.s ', 0x0(,|$)'
expect 0 "... runs without a fault" "$G" run --state v.json v.s -o /dev/null
expect 2 "--int-values imm: without integer immediates" "$G" gen --include FADD --int-values imm:small=1 -o bad.s
check "... explained" has err "no instruction the options allow has an integer immediate"
check "nothing written" test ! -e bad.s
expect 2 "bad value class" "$G" gen --int-values imm:smal=1
check "... did you mean" has err "unknown value class 'smal' .did you mean small"

# a header longer than any fixed buffer (every opcode named) is whole: the
# program comes back from it alone
ops=$("$G" doc | awk 'NR > 1 && /^           [A-Z]/ { for (i = 1; i <= NF; i++) printf "%s%s", n++ ? "," : "", $i }')
expect 0 "every opcode included by name" "$G" gen --seed 6 -n 50 --include "$ops" -o long.s
check "... a header of $(head -1 long.s | wc -c) bytes" test "$(head -1 long.s | wc -c)" -gt 1100
header=$(head -1 long.s | sed 's|^// gisa gen ||')
eval "set -- $header"
expect 0 "... regenerated from its header" "$G" gen "$@" -o long2.s
check "... the same program" cmp -s long.s long2.s

# bad options: exit 2, a reason, no output
expect 2 "bad rate" "$G" gen --guard-rate 2 -o bad.s
check "bad rate explained" has err "guard-rate: expected a rate from 0 to 1"
check "nothing written" test ! -e bad.s
expect 2 "bad weight name" "$G" gen --weights FFAM=2 -o bad.s
check "did you mean" has err "did you mean FFMA"
expect 2 "bad regs" "$G" gen --regs 64 --target fermi
check "regs range" has err "from 4 to 63"
expect 2 "bad seed" "$G" gen --seed -1
check "seed range" has err "seed needs a number"
expect 2 "bad count" "$G" gen --count 1e3
expect 2 "--format without --words" "$G" gen --format bin
expect 2 "unknown stream" "$G" gen --streams add65
check "streams listed" has err "expected some of: add64"
expect 2 "nothing left" "$G" gen --exclude IALU,FALU,HALU,DALU -o bad.s
check "nothing left explained" has err "leave no instruction"
check "nothing written" test ! -e bad.s

# ------------------------------------------------------------ shrink
expect 0 "shrink --help" "$G" shrink --help
"$G" gen --seed 5 -n 300 --stream-rate 0.3 --streams wide128 -o big.s
check "the program has the pattern" has big.s 'IMAD\.WIDE\.X'
cat >pattern.sh <<'EOF'
#!/bin/sh
# fails (exit 1) when the candidate has an IMAD.WIDE.X
! grep -q 'IMAD\.WIDE\.X' "$1"
EOF
chmod +x pattern.sh
expect 0 "shrink to the pattern" "$G" shrink big.s -o small.s -- ./pattern.sh {}
check "the header and one line left" test "$(wc -l <small.s)" -eq 2
check "the header kept" test "$(head -1 small.s)" = "$(head -1 big.s)"
check "the line with the pattern" has small.s '^(@!?P[0-6] )?IMAD\.WIDE\.X'
check "the line comes from the program" grep -qxF -f small.s big.s
check "a summary on stderr" has err '^gisa shrink: 301 -> 2 lines in [0-9]+ runs'
# the path appended when no argument has {}; the result on stdout
expect 0 "shrink, path appended" "$G" shrink big.s -- ./pattern.sh
check "stdout has the line" test "$(cat out)" = "$(cat small.s)"

cat >status.sh <<'EOF'
#!/bin/sh
# exit 3 with both an ISETP and an IMAD.WIDE; 1 with only one of them
grep -q '^ISETP' "$1" && grep -q 'IMAD\.WIDE' "$1" && exit 3
exit 1
EOF
chmod +x status.sh
expect 0 "shrink --status 3" "$G" shrink --status 3 big.s -o two.s -- ./status.sh {}
check "the header and two lines left" test "$(wc -l <two.s)" -eq 3
check "an ISETP and an IMAD.WIDE" test "$(grep -c '^ISETP' two.s)" -eq 1 -a "$(grep -c 'IMAD\.WIDE' two.s)" -eq 1

expect 1 "a test that passes" "$G" shrink big.s -- true
check "said so" has err "does not fail on big.s"
expect 2 "no command" "$G" shrink big.s
check "command needed" has err "expected '-- COMMAND"
expect 2 "a command that cannot run" "$G" shrink big.s -- ./no-such-test
check "cannot run" has err "cannot run './no-such-test'"
expect 2 "bad --status" "$G" shrink --status 0 big.s -- ./pattern.sh

# a simulator-driven test: fails while the first register of the final
# state (lane 0) has the value the whole program gives it
"$G" gen --seed 11 -n 60 --regs 8 -o sim.s --state-out sim.json
"$G" run --regs 8 --state sim.json sim.s -o full.json
lane0() { tr -d ' \n' <"$1" | grep -oE "\"$2\":(\\[\"0x[0-9a-f]+\"|\"0x[0-9a-f]+\")" | grep -oE '0x[0-9a-f]+' | head -1; }
reg=$(grep -oE '^  "R[0-9]+"' full.json | head -1 | tr -d ' "')
want=$(lane0 full.json "$reg")
cat >same_reg.sh <<EOF
#!/bin/bash
$(declare -f lane0)
"$G" run --regs 8 --state sim.json "\$1" -o cand.json || exit 0
[ "\$(lane0 cand.json $reg)" != "$want" ]
EOF
chmod +x same_reg.sh
check "the test fails on the program ($reg = $want)" test -n "$reg" -a -n "$want"
expect 0 "shrink against the simulator" "$G" shrink sim.s -o small_sim.s -- ./same_reg.sh {}
check "a few lines left" test "$(wc -l <small_sim.s)" -le 12
expect 1 "the test still fails on the result" ./same_reg.sh small_sim.s
check "no temporary files left" no_tmp

# a program with a relative .include: the candidates are written next to
# it, where the include still resolves
mkdir -p incdir
printf '.include "lib.s"\nMOV R1, 0x1\nMOV R3, 0x3\nMOV R2, 0x2\n' >incdir/prog.s
printf 'MOV R9, 0x9\n' >incdir/lib.s
cat >inc_test.sh <<EOF
#!/bin/sh
# fails (exit 1) when the candidate assembles with lib.s's R9 and an R3
out=\$("$G" as -a "\$1" -o /dev/null) || exit 0
case \$out in *R9*R3*) exit 1 ;; esac
EOF
chmod +x inc_test.sh
expect 0 "shrink a program with a relative .include" "$G" shrink incdir/prog.s -o inc_small.s -- ./inc_test.sh {}
check "... to the include and the line that matters" test "$(tr '\n' ' ' <inc_small.s)" = '.include "lib.s" MOV R3, 0x3 '
check "... leaving no candidate next to the program" test "$(ls -A incdir | tr '\n' ' ')" = "lib.s prog.s "
(cd incdir && "$G" shrink -o ../inc_stdin.s - -- ../inc_test.sh <prog.s) 2>err && rc=0 || rc=$?
check "from standard input: relative to the current directory ($rc)" test "$rc" -eq 0 -a "$(wc -l <inc_stdin.s)" -eq 2
check "... leaving no candidate there" test "$(ls -A incdir | tr '\n' ' ')" = "lib.s prog.s "
# where no candidate can be written next to the program (here: its name is
# too long for the candidate's), a temporary directory, with a warning
long=$(printf 'p%.0s' $(seq 240)).s
cp incdir/prog.s "incdir/$long"
expect 1 "a candidate that cannot go next to the program" "$G" shrink "incdir/$long" -- ./inc_test.sh {}
check "... warns that relative includes do not resolve" has err "warning: cannot write a candidate next to incdir/p+\.s \(File name too long\): they go to a temporary directory, where its relative \.include do not resolve"
rm "incdir/$long"

# every {} of an argument is replaced
printf 'MOV R1, 0x1\nMOV R2, 0x2\nMOV R3, 0x3\n' >three.s
cat >twice.sh <<'EOF'
#!/bin/sh
# fails (exit 1) when $2 is "a{}b{}" with both {} replaced by $1, and $1 has R2
[ "$2" = "a$1b$1" ] && grep -q R2 "$1" && exit 1
exit 0
EOF
chmod +x twice.sh
expect 0 "{} twice in one argument" "$G" shrink three.s -o twice.s -- ./twice.sh {} 'a{}b{}'
check "... both replaced" test "$(cat twice.s)" = "MOV R2, 0x2"

# No process outlives shrink: each run of the command is a process group
# that is killed on timeout, when the command ends, and when shrink is
# interrupted. The command starts a grandchild (a `sleep` its shell does not
# wait for, or waits for) and records its pid.
alive() { # alive PIDFILE: the pids in it that still run (a zombie that no init reaps has ended)
    local p st
    for p in $(cat "$1" 2>/dev/null); do
        st=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1) || st=
        [ -n "$st" ] && [ "$st" != Z ] && echo "$p"
    done
    return 0
}
gone() { # gone PIDFILE: waits up to 5 s for a SIGKILLed process to be torn down (a loaded machine is slow to)
    local i
    for i in $(seq 50); do
        [ -z "$(alive "$1")" ] && return 0
        sleep 0.1
    done
    return 1
}
cat >grandchild.sh <<'EOF'
#!/bin/sh
# $1 wait|leave, $2 the pid file
sleep 30 &
echo $! >>"$2"
[ "$1" = wait ] && wait
exit 1
EOF
chmod +x grandchild.sh
printf 'MOV R1, 0x1\nMOV R2, 0x2\nMOV R3, 0x3\n' >three.s
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
start=$SECONDS
expect 1 "--timeout 1 with a grandchild the command waits for" "$G" shrink --timeout 1 three.s -- ./grandchild.sh wait waited.pids
check "timed out: the command does not fail" has err 'does not fail on three.s'
check "the grandchild ran" test -s waited.pids
check "no grandchild left after a timeout: $(alive waited.pids)" gone waited.pids
check "the timeout took about a second, not 30 ($((SECONDS - start)) s)" test $((SECONDS - start)) -lt 20
expect 0 "a command that exits and leaves its grandchild running" "$G" shrink three.s -o one.s -- ./grandchild.sh leave left.pids
check "each run left one" test "$(wc -l <left.pids)" -ge 2
check "none is left after shrink: $(alive left.pids)" gone left.pids
for sig in TERM INT; do
    rm -f sig.pids
    # a background job of a script starts with SIGINT ignored: env gives it back
    env --default-signal=INT "$G" shrink three.s -- ./grandchild.sh wait sig.pids >/dev/null 2>&1 &
    shrink_pid=$!
    for _ in $(seq 400); do [ -s sig.pids ] && break; sleep 0.05; done
    check "SIG$sig: the grandchild started" test -s sig.pids
    kill -"$sig" "$shrink_pid"
    rc=0
    wait "$shrink_pid" || rc=$?
    check "SIG$sig: shrink ended by the signal (status $rc)" test "$rc" -gt 128
    check "SIG$sig: no grandchild left: $(alive sig.pids)" gone sig.pids
done
check "no temporary directory left by the interrupted runs" test -z "$(ls -A "$TMPDIR")"
check "no candidate left by them" test -z "$(ls -A | grep gisa-shrink)"
finish
