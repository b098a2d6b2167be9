#!/usr/bin/env bash
# --max-memory of `gisa as` and `gisa dis` (issue 21): the memory an input
# will need is estimated once it is read and before it is processed; over
# the limit the command stops at once, saying the estimate, what it is made
# of, the limit and the option, and writes nothing. (`gisa run`'s limit is
# tested in state_files.sh.) The limits are 8M and more: every command loads
# its ISA within --max-memory too (about 5 MB for gisa128; load_limits.sh).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" limits

repeat 400000 'FADD R5, R6, R7' >many.s
expect 0 "as under the default limit" "$G" as many.s -o many.bin
expect 1 "as over --max-memory" "$G" as --max-memory 8M many.s -o over.bin
check "as: the estimate" has err 'assembling this input needs about [0-9.]+ [KM]iB of memory'
check "as: what it is made of" has err 'up to 400001 words'
check "as: the limit" has err 'over the limit of 8.0 MiB'
check "as: the option" has err -- '--max-memory SIZE'
check "as: nothing written" test ! -e over.bin
check "as: not assembled (no other message)" test "$(wc -l <err)" -eq 1
expect 1 "as --format c counts its larger output" "$G" as --format c --max-memory 32M many.s -o over.c
expect 0 "the same as bin within 32M" "$G" as --max-memory 32M many.s -o ok.bin
check "the same image" cmp many.bin ok.bin
expect 2 "as: a bad size" "$G" as --max-memory lots many.s
check "as: the bad size named" has err "'lots'"

expect 0 "dis under the default limit" "$G" dis many.bin -o many.txt
expect 1 "dis over --max-memory" "$G" dis --max-memory 8M many.bin -o over.txt
check "dis: the estimate" has err 'disassembling this input needs about [0-9.]+ MiB of memory'
check "dis: the limit" has err 'over the limit of 8.0 MiB'
check "dis: what it is made of" has err 'a 1.0 MiB output buffer'
check "dis: nothing written" test ! -e over.txt
expect 0 "dis within 16M" "$G" dis --max-memory 16M many.bin -o ok.txt
check "the same listing" cmp many.txt ok.txt
expect 0 "dis --raw --offsets within 16M too: the listing is streamed" "$G" dis --raw --offsets --max-memory 16M many.bin -o raw.txt
check "... whole" test "$(wc -l <raw.txt)" -eq 400000
expect 2 "dis: a bad size" "$G" dis --max-memory 1X many.bin
expect 0 "sizes take T" "$G" dis --max-memory 1T many.bin -o /dev/null

finish
