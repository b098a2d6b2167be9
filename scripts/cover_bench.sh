#!/usr/bin/env bash
# Coverage-directed generation against undirected, from the same start:
# the coverage of BASE default programs (seeds 1..BASE), then N more
# programs each way (the same seeds, 100001..), every program run into its
# arm's coverage file; `gisa gen --cover FILE` reads the directed arm's file
# as it stands before each program. Prints the holes (total - hit of every
# summary figure but user bins) every STEP programs, and the holes closed
# per 100 programs. docs/coverage.md quotes its output.
#
#   scripts/cover_bench.sh [-g GISA] [-t TARGET] [-b BASE] [-n N] [-s STEP]
set -euo pipefail
G=build/gisa TARGET=gisa128 BASE=200 N=200 STEP=50
while getopts g:t:b:n:s: o; do
    case $o in
    g) G=$OPTARG ;; t) TARGET=$OPTARG ;; b) BASE=$OPTARG ;; n) N=$OPTARG ;; s) STEP=$OPTARG ;;
    *) exit 2 ;;
    esac
done
G=$(realpath "$G")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"

holes() {
    /usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(sum(f["total"] - f["hit"] for k, f in s.items() if k != "user_bins"))' "$1"
}

one() { # one program of seed $1 into coverage $2, directed by $3 when given
    "$G" gen --target "$TARGET" --seed "$1" ${3:+--cover "$3"} -o p.s --state-out s.json
    "$G" run --target "$TARGET" p.s --state s.json --coverage "$2" >/dev/null
}

for s in $(seq 1 "$BASE"); do one "$s" base.json; done
cp base.json undirected.json
cp base.json directed.json
start=$(holes base.json)
echo "target $TARGET: holes after $BASE default programs: $start"
printf '%8s %12s %12s\n' programs undirected directed
for i in $(seq 1 "$N"); do
    one $((100000 + i)) undirected.json
    one $((100000 + i)) directed.json directed.json
    if [ $((i % STEP)) -eq 0 ] || [ "$i" -eq "$N" ]; then
        u=$(holes undirected.json) d=$(holes directed.json)
        printf '%8d %12d %12d\n' "$i" "$u" "$d"
    fi
done
awk -v s="$start" -v u="$u" -v d="$d" -v n="$N" 'BEGIN {
    printf "holes closed per 100 programs: undirected %.1f, directed %.1f\n", (s - u) * 100 / n, (s - d) * 100 / n }'
