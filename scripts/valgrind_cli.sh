#!/usr/bin/env bash
# Runs the gisa program under valgrind memcheck on good and bad inputs of
# every subcommand. Any memory error or any leak (of any kind, "still
# reachable" included) fails, and each run must give its documented exit
# status, so an error path that leaks or crashes is caught too.
#   usage: scripts/valgrind_cli.sh [GISA_BINARY]   (default build/gisa)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
gisa=$(realpath "${1:-build/gisa}")
src=$PWD
command -v valgrind >/dev/null || { echo "valgrind_cli: valgrind is not installed (scripts/deps.sh --ci)" >&2; exit 1; }

VG_FAIL=99 # valgrind's exit status when it found an error or a leak
# Z3's own process-long memory (gisa prove) is suppressed: valgrind-z3.supp
vg=(valgrind -q --error-exitcode=$VG_FAIL --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all
    --track-origins=yes --suppressions="$src/scripts/valgrind-z3.supp")

work=$(mktemp -d "${TMPDIR:-/tmp}/gisa-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
source "$src/tests/cli/lib/fixtures.bash"
write_fixtures "$src" "$gisa"
printf '__DefOptype ZZZ : [F_ARITH]\n  __Syntax\n```asm\nZZZ Rd, Ra\n' >>broken/ialu.isa # unterminated too
"$gisa" as "$src/examples/demo.s" -o demo.bin
"$gisa" as --format hex "$src/examples/demo.s" -o demo.hex

failed=0 runs=0
# vg_run STATUS CMD-ARGS...: gisa CMD-ARGS under valgrind must exit with STATUS
vg_run() {
    local want=$1 rc=0
    shift
    runs=$((runs + 1))
    "${vg[@]}" "$gisa" "$@" >out.txt 2>err.txt || rc=$?
    if [ "$rc" -ne "$want" ]; then
        failed=$((failed + 1))
        echo "FAIL: gisa $*: exit $rc, want $want$([ "$rc" -eq $VG_FAIL ] && echo ' (valgrind found errors)')" >&2
        sed 's/^/  /' err.txt | head -40 >&2
    fi
}

vg_run 0 --help
vg_run 2 frobnicate
vg_run 0 lint
vg_run 1 lint --isa broken
vg_run 2 lint --isa nowhere
vg_run 0 doc
vg_run 0 doc FFMA_RRC
vg_run 1 doc FFAM
vg_run 0 as "$src/examples/demo.s" -o out.bin
vg_run 0 as --format c "$src/examples/demo.s" -o out.c
vg_run 1 as bad.s -o out.bin
vg_run 1 as --max-errors 1 bad.s -o out.bin
vg_run 2 as nowhere.s
vg_run 2 as --bogus
vg_run 0 dis --offsets --raw demo.bin
vg_run 0 dis --format hex demo.hex -o out.s
vg_run 1 dis --format hex bad.hex
vg_run 1 dis --strict --format hex zero.hex
vg_run 0 run --state "$src/examples/sim_demo.json" --trace=trace.txt -o out.json "$src/examples/sim_demo.s"
vg_run 0 run --warps 3 --threads 2 "$src/examples/sim_demo.s" -o out.json
vg_run 1 run bad.s
vg_run 2 run --state <(echo '{"R1": "0xZZ"}') "$src/examples/sim_demo.s"
vg_run 3 run --regs 4 fault.s -o out.json
printf 'bin a: FADD Ra=+0|-0\nbin b: FADD.RM exec=all\n' >ok.bins
printf 'bin a: FADX\nbin b: FADD Rq=1\n' >bad.bins
vg_run 0 run --coverage cov.json --bins ok.bins ok.s -o out.json
vg_run 2 run --coverage cov.json --bins bad.bins ok.s -o out.json
vg_run 0 cov --merge cov.json --html page.html
vg_run 0 cov ok.s --bins ok.bins --json -o cov2.json
vg_run 0 gen --seed 2 --cover cov.json -o gen.s
vg_run 2 gen --cover bad.hex
if "$gisa" prove "$src/examples/prove/mov.s" "$src/examples/prove/mov.s" 2>/dev/null | grep -q '^equivalent'; then # built with Z3
    vg_run 1 prove --cex cex.json "$src/examples/prove/add64.s" "$src/examples/prove/add64_nox.s"
    vg_run 0 prove --check --assume "$src/examples/sim_demo.json" "$src/examples/sim_demo.s"
fi
vg_run 2 prove --outputs Q1 "$src/examples/prove/add64.s" "$src/examples/prove/add64_nox.s"
printf '{"R1": 5, "R2": ["0x1", "0x2", "0x3", "0x4", "0x5", "0x6", "0x7", "0x8", "0x9", "0xa", "0xb", "0xc", "0xd", "0xe", "0xf", "0x10", "0x11", "0x12", "0x13", "0x14", "0x15", "0x16", "0x17", "0x18", "0x19", "0x1a", "0x1b", "0x1c", "0x1d", "0x1e", "0x1f", "0x20"], "P3": true}\n' >st.json
vg_run 0 shrink ok.s --state st.json --state-out small.json --bundle bundle -- sh -c 'grep -q "\"R[12]\"" "$2" && exit 1; exit 0' sh {} {state}
vg_run 0 run bundle
vg_run 1 shrink ok.s --state st.json -- sh -c 'exit 0' sh {} {state}
vg_run 2 shrink ok.s --state <(echo '{"R1": "0xZZ"}') -- sh -c 'exit 1' sh {} {state}
vg_run 2 shrink ok.s --state st.json -- sh -c 'exit 1' sh {}

# the language server: a session of every request on a file with an error
# (status 0 after shutdown and exit), and a stream that is cut short (1)
frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
doc='"textDocument":{"uri":"file://'"$work"'/a.s"}'
at='"position":{"line":1,"character":1}'
{
    frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
    frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://'"$work"'/a.s","languageId":"gisa","version":1,"text":"// x\nFFMA.RX R1, R2, R3, R4\n.include \"nowhere.s\"\n"}}}'
    for m in hover completion signatureHelp definition; do
        frame '{"jsonrpc":"2.0","id":2,"method":"textDocument/'$m'","params":{'"$doc,$at"'}}'
    done
    frame '{"jsonrpc":"2.0","id":3,"method":"textDocument/semanticTokens/full","params":{'"$doc"'}}'
    frame '{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{'"$doc"',"context":{"diagnostics":[{"range":{"start":{"line":1,"character":4},"end":{"line":1,"character":7}},"message":"did you mean .RZ?"}]}}}'
    frame '{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file://'"$work"'/a.s","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":6},"end":{"line":1,"character":7}},"text":"Z"}]}}'
    frame '{oops'
    frame '{"jsonrpc":"2.0","id":5,"method":"shutdown"}'
    frame '{"jsonrpc":"2.0","method":"exit"}'
} >session.lsp
vg_run 0 lsp --cache-dir "$work/cache" <session.lsp
head -c 300 session.lsp >cut.lsp
vg_run 1 lsp --cache-dir "$work/cache" <cut.lsp

echo "valgrind: $runs runs, $failed failed"
[ "$failed" -eq 0 ]
