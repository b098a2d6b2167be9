#!/usr/bin/env bash
# Issue 31's hardening of inputs and outputs (docs/robustness.md):
# - the outputs of one command are all or nothing (gen, run, as): a failed
#   output leaves every other output as it was;
# - an output that is an input or another output is refused before
#   anything is written;
# - devices are refused as inputs up front (not read to the 1 GiB limit);
#   pipes and standard input still work;
# - concurrent `run --coverage FILE` on one file record every run (the
#   file is locked and merged under the lock).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" outputs

printf 'FADD R5, R6, R7\n' >ok.s
printf 'MOV R4, 0x1\n' >fault.s
have_full=0
[ -w /dev/full ] && have_full=1

# ------------------------------------------------------------ all or nothing
# old FILE...: mark files with their old contents; unchanged FILE...: still those
old() { for f in "$@"; do echo "old $f" >"$f"; done; }
unchanged() { for f in "$@"; do [ "$(cat "$f")" = "old $f" ] || return 1; done; }

if [ "$have_full" = 1 ]; then
    old p.s w.hex
    expect 2 "gen with a state on a full disk" "$G" gen -n 5 -o p.s --words w.hex --state-out /dev/full
    check "... says why" has err "cannot write '/dev/full'"
    check "... and leaves the program and the words as they were" unchanged p.s w.hex
    old out.json
    expect 2 "run with its trace on a full disk" "$G" run ok.s --trace=/dev/full -o out.json
    check "... leaves the state as it was" unchanged out.json
    old o.bin
    expect 2 "as with its listing on a full disk" "$G" as ok.s -o o.bin --listing=/dev/full
    check "... leaves the words as they were" unchanged o.bin
    old o.bin
    expect 2 "as with its words on a full disk" "$G" as ok.s -o /dev/full --listing=l.txt
    check "... writes no listing" test ! -e l.txt
else
    ci_skip_part "no writable /dev/full: the full-disk cases of all-or-nothing outputs"
fi
old out.json
expect 2 "run with its coverage in a missing directory" "$G" run ok.s --coverage nodir/c.json -o out.json
check "... leaves the state as it was" unchanged out.json
check "... and says why" has err "nodir/c.json"
rm -f out.json
expect 2 "the same with no state file yet" "$G" run ok.s --coverage nodir/c.json -o out.json
check "... makes none" test ! -e out.json
mkdir ro && old ro/p.s && chmod a-w ro
if [ ! -w ro ]; then
    old w.hex s.json
    expect 2 "gen whose program cannot be written" "$G" gen -n 5 -o ro/new.s --words w.hex --state-out s.json
    check "... leaves the other outputs as they were" unchanged w.hex s.json
fi
chmod u+w ro
expect 0 "gen writes all three" "$G" gen -n 5 -o p.s --words w.hex --state-out s.json
check "... program" has p.s 'gisa gen'
check "... state" has s.json '"R'
check "no temporary file is left" no_tmp
expect 3 "a fault still writes the state and the trace" "$G" run fault.s --regs 4 -o f.json --trace=f.txt
check "... the state" test -s f.json
check "... the trace" has f.txt 'MOV'

# ------------------------------------------------------------ an output that is an input
cp ok.s prog.s
expect 2 "as prog.s -o prog.s" "$G" as prog.s -o prog.s
check "... says so" has err "gisa as: .*prog.s.* input"
check "... leaves the source" cmp -s prog.s ok.s
cp ok.s prog.s
expect 2 "as --listing=prog.s prog.s" "$G" as --listing=prog.s prog.s -o x.bin
check "... leaves the source" cmp -s prog.s ok.s
check "... writes no words" test ! -e x.bin
cp ok.s prog.s
expect 2 "the same file by another path" "$G" as prog.s -o ./../"$(basename "$PWD")"/prog.s
check "... leaves the source" cmp -s prog.s ok.s
cp ok.s prog.s && ln -s prog.s link.s
expect 2 "... or through a link" "$G" as link.s -o prog.s
check "... leaves the source" cmp -s prog.s ok.s
printf '.include "inc.s"\n' >main.s && cp ok.s inc.s
cp ok.s prog.s
expect 2 "as -o prog.s <prog.s" "$G" as -o prog.s <prog.s
check "... says so" has err "'prog.s' is the input '<stdin>'"
check "... leaves the source" cmp -s prog.s ok.s
expect 2 "as over a file it includes" "$G" as main.s -o inc.s
check "... leaves the included file" cmp -s inc.s ok.s
rm -f x.s
expect 2 "gen -o x.s --words x.s" "$G" gen -n 5 -o x.s --words x.s
check "... says so" has err "gisa gen: .*x.s.*two outputs"
check "... writes neither" test ! -e x.s
expect 2 "... also by another path (neither exists)" "$G" gen -n 5 -o x.s --state-out ./x.s
check "... writes neither" test ! -e x.s
echo '{}' >st.json
expect 2 "run over its state file" "$G" run ok.s --state st.json -o st.json
check "... leaves it" test "$(cat st.json)" = '{}'
expect 2 "run: the trace over the state" "$G" run ok.s -o t.json --trace=t.json
check "... writes neither" test ! -e t.json
expect 2 "run: the coverage over the state" "$G" run ok.s -o c2.json --coverage c2.json
check "... writes neither, nor a lock file" test ! -e c2.json -a ! -e c2.json.lock
cp ok.s prog.s
expect 2 "shrink over its program" "$G" shrink prog.s -o prog.s -- false
check "... leaves it" cmp -s prog.s ok.s
"$G" as ok.s -o ok.bin
expect 2 "dis over its input" "$G" dis ok.bin -o ok.bin
check "... leaves it" cmp -s ok.bin <("$G" as ok.s -o -)
mkdir isa && cp "$SRC"/isa/gisa128/*.isa isa/
one=$(ls isa | head -1)
cp "isa/$one" keep.isa
expect 2 "an output over a description file" "$G" as ok.s --isa isa -o "isa/$one"
check "... leaves it" cmp -s "isa/$one" keep.isa
cp "$SRC"/examples/new-instruction/iadd3.isa add.isa && cp add.isa add0.isa
expect 2 "... or an --isa-add file" "$G" as ok.s --isa-add add.isa -o add.isa
check "... leaves it" cmp -s add.isa add0.isa
"$G" run ok.s --coverage cv.json -o /dev/null
cp cv.json cv0.json
expect 2 "cov's report over a coverage file it reads" "$G" cov --merge cv.json -o cv.json
check "... leaves it" cmp -s cv.json cv0.json
cp cv0.json cv.json
expect 0 "cov --json adds coverage files into one of them" "$G" cov --merge cv.json cv0.json --json -o cv.json
check "... which then counts both" has cv.json '^ "executed": 2,'
cp ok.s ok3.s
expect 2 "... but not into a program it runs" "$G" cov ok3.s --merge cv.json --json -o ok3.s
check "... which is left" cmp -s ok3.s ok.s
expect 0 "devices may be named twice" "$G" run ok.s -o /dev/null --trace=/dev/null
expect 0 "standard output and a file" "$G" gen -n 5 -o - --words w.hex
check "no temporary file is left" no_tmp

# ------------------------------------------------------------ devices as inputs
t0=$SECONDS
expect 2 "as /dev/zero" timeout 20 "$G" as /dev/zero -o z.bin
check "... refused as a device" has err "'/dev/zero' is not a regular file"
expect 2 "as /dev/urandom" timeout 20 "$G" as /dev/urandom -o z.bin
expect 2 "run --state /dev/zero" timeout 20 "$G" run ok.s --state /dev/zero
check "... refused as a device" has err "'/dev/zero' is not a regular file"
expect 2 "dis /dev/zero" timeout 20 "$G" dis /dev/zero
if [ "$have_full" = 1 ]; then
    expect 2 "run --coverage /dev/full" timeout 20 "$G" run ok.s --coverage /dev/full
    check "... refused as a device" has err "/dev/full.*not a regular file"
    expect 2 "cov --merge /dev/full" timeout 20 "$G" cov --merge /dev/full
fi
printf '.include "/dev/zero"\n' >incz.s
expect 1 ".include of a device" timeout 20 "$G" as incz.s -o z.bin
check "... says it is a device" has err "'/dev/zero' is not a regular file \(a character device\)"
mkdir incdir
printf '.include "incdir"\n' >incd.s
expect 1 ".include of a directory" "$G" as incd.s -o z.bin
check "... says it is a directory" has err "incdir.*directory"
expect 2 "as of a directory" "$G" as incdir -o z.bin
check "... says it is a directory" has err "incdir.*directory"
check "devices are refused at once (took $((SECONDS - t0)) s)" test $((SECONDS - t0)) -lt 20
check "nothing was written" test ! -e z.bin
expect 0 "standard input still works" "$G" as -o s.bin <ok.s
expect 0 "a pipe still works" "$G" as <(cat ok.s) -o p.bin
check "... the same words" cmp -s s.bin p.bin
expect 0 "a state through a pipe" "$G" run ok.s --state <(echo '{}') -o /dev/null

# ------------------------------------------------------------ concurrent coverage
# Regression farms run many `run --coverage` on one file at once: every run
# must be in the file (one instruction each).
rm -f farm.json
rounds=4 width=8
for ((i = 0; i < rounds; i++)); do
    pids=()
    for ((j = 0; j < width; j++)); do
        "$G" run ok.s --coverage farm.json -o /dev/null 2>>farm.err &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || echo "run failed" >>farm.err; done
done
check "no concurrent run failed" test ! -s farm.err
check "$((rounds * width)) concurrent runs all counted ($(grep -m1 '^ "executed"' farm.json))" \
    has farm.json "^ \"executed\": $((rounds * width)),"
check "no temporary file is left" no_tmp

# A run waits for the lock (FILE.lock, an fcntl lock), a run killed while
# it waits changes nothing, and the lock of a killed holder is released.
# hold_lock: another process holds held.json's lock ($holder) until killed
hold_lock() {
    rm -f locked
    python3 -c 'import fcntl, time
f = open("held.json.lock", "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open("locked", "w").close()
time.sleep(60)' &
    holder=$!
    for ((i = 0; i < 100; i++)); do [ -e locked ] && break || sleep 0.1; done
}
release_lock() {
    kill "$holder" 2>/dev/null || true
    wait "$holder" 2>/dev/null || true
}
if command -v python3 >/dev/null; then
    "$G" run ok.s --coverage held.json -o /dev/null
    hold_lock
    "$G" run ok.s --coverage held.json -o w.json --trace=w.txt 2>/dev/null &
    waiter=$!
    sleep 1
    check "a run waits for the lock" kill -0 "$waiter"
    kill -TERM "$waiter" 2>/dev/null || true
    wait "$waiter" 2>/dev/null || true
    check "... and, killed while it waits, adds nothing" has held.json '^ "executed": 1,'
    check "... and writes nothing" test ! -e w.json -a ! -e w.txt
    check "... and leaves no temporary file" no_tmp
    release_lock
    expect 0 "the lock of a killed run is released" timeout 20 "$G" run ok.s --coverage held.json -o /dev/null
    check "... and the next run adds to the file" has held.json '^ "executed": 2,'
    # cov --json -o FILE takes the same lock
    hold_lock
    "$G" cov ok.s --merge held.json --json -o held.json 2>/dev/null &
    waiter=$!
    sleep 1
    check "cov --json -o waits for the lock" kill -0 "$waiter"
    release_lock
    check "... and adds once it is released" wait "$waiter"
    check "... into the file" has held.json '^ "executed": 3,'
else
    ci_skip_part "no python3: the test of a run waiting for the coverage lock"
fi

finish
