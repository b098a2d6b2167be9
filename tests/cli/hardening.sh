#!/usr/bin/env bash
# Small hardening items of issue 31: `gisa doc --html DIR` through a
# symbolic link to a manual directory (it said "not a directory"); a NUL
# byte in a trace given to `gisa trace-diff` (it cut the line silently);
# a 50 MB trace line (trace-diff echoed all of it).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" hardening

# ------------------------------------------------------------ doc --html through a link
expect 0 "doc --html into a directory" "$G" doc --html real
ln -s real manual
expect 0 "doc --html through a link to it" "$G" doc --html manual
check "no 'not a directory'" hasnt err "not a directory"
check "the link is still a link" test -L manual
check "... to the manual, rewritten" test -s real/index.html -a -f real/.gisa-manual
check "nothing left beside it" no_tmp
check "no old copy left" bash -c '! ls | grep -q "\.old"'
ln -s real/ manual2
expect 0 "a link given with a trailing slash" "$G" doc --html manual2/
check "... still a link" test -L manual2
mkdir empty && ln -s empty elink
expect 0 "a link to an empty directory" "$G" doc --html elink
check "... written there" test -s empty/index.html -a -L elink
mkdir mine && echo x >mine/notes.txt && ln -s mine mlink
expect 2 "a link to a directory gisa did not write: refused" "$G" doc --html mlink
check "... and left alone" test "$(ls mine)" = notes.txt -a -L mlink

# ------------------------------------------------------------ trace-diff: NUL bytes
printf 'MOV R0, 0x1 ;\nMOV R1, 0x2 ;\n' >p.s
"$G" run p.s --trace=a.txt -o /dev/null
{ head -n 2 a.txt; printf 'w0 1 exec 0xffffffff MOV R1,\0 0x2\n'; tail -n +4 a.txt; } >nul.txt
expect 2 "a NUL byte in a trace: refused" "$G" trace-diff a.txt nul.txt
check "... at its line and column" has err '^gisa trace-diff: nul.txt:3:29: a NUL byte: a trace is text'
expect 2 "in the first trace too" "$G" trace-diff nul.txt a.txt
check "... named" has err 'nul.txt:3:29: a NUL byte'
expect 0 "a trace without one agrees with itself" "$G" trace-diff a.txt a.txt

# ------------------------------------------------------------ trace-diff: long lines
awk 'BEGIN { s = "x"; while (length(s) < 25000000) s = s s; printf "w0 0 exec 0xffffffff MOV %s A%s\n", s, s }' >la.txt
sed 's/ A/ B/' la.txt >lb.txt
expect 1 "two traces with 50 MB lines that differ" "$G" trace-diff la.txt lb.txt
check "the output is short ($(wc -c <out) bytes)" test "$(wc -c <out)" -lt 2000
check "where they differ" has out 'the instruction lines differ at column 33554459'
check "A's line around the difference" has out '^- la.txt:1: \.\.\.x+ Ax+\.\.\. \(a line of 67108891 characters, shown from column 33554359\)$'
check "B's line too" has out '^\+ lb.txt:1: \.\.\.x+ Bx+\.\.\. '
check "200 columns of each" test "$(grep -o 'x* [AB]x*' out | awk '{ print length }' | sort -u)" = 200
printf 'MOV R0, 0x1\n' >short.txt
expect 1 "a long line against a short one" "$G" trace-diff la.txt short.txt
check "... shows its start" has out '^- la.txt:1: w0 0 exec 0xffffffff MOV x+\.\.\. \(a line of 67108891 characters, shown from column 1\)$'
check "... short ($(wc -c <out) bytes)" test "$(wc -c <out)" -lt 2000

finish
