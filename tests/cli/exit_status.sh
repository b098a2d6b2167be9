#!/usr/bin/env bash
# The exit statuses are the same for every subcommand (docs/robustness.md):
# 0 success, 1 errors in the input (or an input over a limit / too large for
# memory), 2 usage errors and files that cannot be read or written,
# 3 simulation fault (run only). Each subcommand is driven to each status it
# can give, and only `run` ever gives 3.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" status

write_fixtures "$SRC" "$G"

# status CMD... : records the exit status of CMD in the matrix below
seen=""
status() {
    local want=$1 desc=$2
    expect "$@"
    seen+=" $want"
}

for c in lint doc as dis run gen; do
    status 0 "$c --help" "$G" "$c" --help
    status 2 "$c: unknown option" "$G" "$c" --bogus
    status 2 "$c: unknown target" "$G" "$c" --target nope
    status 2 "$c: missing --isa directory" "$G" "$c" --isa "$T/nowhere"
    status 1 "$c: description with errors" "$G" "$c" --isa broken
done
status 2 "help of an unknown command" "$G" help nope
status 2 "no command" "$G"

status 0 "lint" "$G" lint
status 2 "lint: an argument" "$G" lint extra

status 0 "doc NAME" "$G" doc FFMA
status 1 "doc of an unknown name" "$G" doc NOPE

status 0 "as" "$G" as ok.s -o x.bin
status 1 "as: source errors" "$G" as bad.s -o x.bin
status 2 "as: unreadable source" "$G" as nope.s -o x.bin
status 2 "as: unwritable output" "$G" as ok.s -o "$T/nowhere/x.bin"

status 0 "dis" "$G" dis ok.bin
status 0 "dis of an invalid word" "$G" dis --format hex zero.hex
status 1 "dis --strict of an invalid word" "$G" dis --strict --format hex zero.hex
status 1 "dis of malformed hex" "$G" dis --format hex bad.hex
status 2 "dis: unreadable input" "$G" dis nope.bin
status 2 "dis: unwritable output" "$G" dis ok.bin -o "$T/nowhere/x.s"

status 0 "run" "$G" run ok.s -o x.json
status 1 "run: source errors" "$G" run bad.s -o x.json
status 2 "run: unreadable program" "$G" run nope.s
status 2 "run: bad state file" "$G" run --state <(echo '{"Q1": 1}') ok.s
status 2 "run: unwritable output" "$G" run ok.s -o "$T/nowhere/x.json"
status 3 "run: simulation fault" "$G" run --regs 4 fault.s -o x.json

status 0 "gen" "$G" gen -n 20 -o g.s --state-out g.json
status 2 "gen: a bad option value" "$G" gen --guard-rate 2
status 2 "gen: nothing left to generate" "$G" gen --exclude IALU,FALU,HALU,DALU
status 2 "gen: unwritable output" "$G" gen -o "$T/nowhere/g.s"

status 0 "shrink" "$G" shrink g.s -o small.s -- false
status 1 "shrink: the test does not fail" "$G" shrink g.s -- true
status 2 "shrink: no test command" "$G" shrink g.s
status 2 "shrink: unreadable program" "$G" shrink nope.s -- false
status 2 "shrink: a command that cannot run" "$G" shrink g.s -- "$T/nowhere/test"
status 2 "shrink: unwritable output" "$G" shrink g.s -o "$T/nowhere/s.s" -- false

# an input too large for memory is an input error, not a crash
if [ -z "${GISA_SANITIZED:-}" ]; then # sanitizers reserve far more address space than ulimit -v allows
    repeat 2000000 'FADD R5, R6, R7' >big.s
    status 1 "as: out of memory" bash -c "ulimit -v 40000; exec '$G' as big.s -o big.bin"
    check "out of memory is named" has err 'out of memory'
    check "nothing written when out of memory" test ! -e big.bin
    status 1 "gen: out of memory" bash -c "ulimit -v 40000; exec '$G' gen -n 5000000 -o gbig.s"
    check "out of memory is named" has err 'out of memory'
    check "nothing written when out of memory" test ! -e gbig.s
fi

# stdout that cannot be written (a full disk) is a file error
if [ -w /dev/full ]; then
    status 2 "doc to a full disk" bash -c "exec '$G' doc FFMA >/dev/full"
    status 2 "dis to a full disk" bash -c "exec '$G' dis ok.bin >/dev/full"
fi

for s in $seen; do
    case $s in 0 | 1 | 2 | 3) ok ;; *) bad "exit status $s is not documented" ;; esac
done
finish
