#!/usr/bin/env bash
# The simulator has no call circle between its files (issue 32): every call
# between the object files of src/sim goes one way (scripts/call_cycles.py
# reads their symbols with nm). The checker itself is checked on two objects
# that call each other, which it must report.
# Env: GISA_BIN (the executable, in the build directory), GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" sim_calls

command -v nm >/dev/null || ci_skip "no nm (binutils)"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
CYCLES=$SRC/scripts/call_cycles.py
BUILD=$(dirname "$G")

# one target's objects of src/sim (the static and the shared library compile
# the same sources)
dir=$(find "$BUILD" -path '*/src/sim/exec.c.o' -print | head -1)
[ -n "$dir" ] || ci_skip "no object files of src/sim under $BUILD"
objs=("$(dirname "$dir")"/*.c.o)
check "the objects of src/sim are there" test "${#objs[@]}" -ge 20
expect 0 "src/sim: no call circle between its files" "$PY" "$CYCLES" "${objs[@]}"
[ "$rc" -eq 0 ] || sed 's/^/  /' out >&2

# the checker finds a circle when there is one
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >a.c
printf 'int a(int);\nint b(int x) { return a(x); }\n' >b.c
printf 'int a(int);\nint c(int x) { return a(x); }\n' >c.c
cc -c a.c -o a.c.o && cc -c b.c -o b.c.o && cc -c c.c -o c.c.o
expect 1 "a circle is reported" "$PY" "$CYCLES" a.c.o b.c.o c.c.o
check "it names both files" has out "^call circle between: a.c, b.c$"
check "and the symbols that close it" has out "a.c -> b.c \(b\)"
expect 0 "a one-way call is none" "$PY" "$CYCLES" a.c.o c.c.o
expect 2 "no objects: a usage error" "$PY" "$CYCLES"
finish
