#!/usr/bin/env bash
# Soak test of `gisa gen`: SEEDS programs of COUNT instructions per target
# (gisa128 and fermi), each assembled without a diagnostic to exactly the
# generated words, disassembled line by line back to its text, and run in
# the simulator with its state and without, with exactly the registers it
# says it uses, faulting nowhere (tests/unit/test_gen.c with GISA_GEN_SOAK);
# then every 500th seed once more through the gisa program (gen, as, dis,
# run --state). Exits non-zero on the first failing check.
#   usage: scripts/gen_soak.sh [SEEDS [COUNT [BUILD_DIR]]]   (default 10000 1000 build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seeds=${1:-10000} count=${2:-1000} build=${3:-build}
[ -x "$build/tests/test_gen" ] && [ -x "$build/gisa" ] || {
    echo "gen_soak: build first (make, or cmake --build $build)" >&2
    exit 2
}
start=$SECONDS
GISA_GEN_SOAK=$seeds GISA_GEN_COUNT=$count "$build/tests/test_gen"
g=$(pwd)/$build/gisa
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gisa-soak.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cli=0
for ((s = 1; s <= seeds; s += 500)); do
    for t in gisa128 fermi; do
        (cd "$tmp" &&
            "$g" gen --target $t --seed $s -n "$count" -o p.s --words p.hex --state-out st.json &&
            "$g" as --target $t --format hex -o a.hex p.s && cmp -s a.hex p.hex &&
            "$g" dis --target $t p.hex >d.s && grep -v '^//' p.s | cmp -s - d.s &&
            "$g" run --target $t --regs 32 --state st.json p.s -o out.json) ||
            { echo "gen_soak: seed $s, target $t fails through the gisa program (files in $tmp)" >&2; trap - EXIT; exit 1; }
        cli=$((cli + 1))
    done
done
echo "gen_soak: $seeds seeds x $count instructions per target, $cli programs through the CLI: all assemble, round-trip and run without a fault ($((SECONDS - start)) s)"
