#!/usr/bin/env bash
# Issue 31's hardening of inputs and outputs (docs/robustness.md):
# - devices are refused as inputs up front (not read to the 1 GiB limit);
#   pipes and standard input still work.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" outputs

printf 'FADD R5, R6, R7\n' >ok.s
have_full=0
[ -w /dev/full ] && have_full=1

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

finish
