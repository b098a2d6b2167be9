#!/usr/bin/env bash
# Coverage-directed generation, `gisa gen --cover COVFILE`: the holes of a
# coverage file become weights per optype, integer value classes and the
# fp rate, listed in the program's header (the program is reproducible
# from the header alone); options given override them; a bad or foreign
# file is refused; and from the same start, directed programs close more
# holes than the same number of undirected ones.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" gen_cover

holes() {
    /usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(sum(f["total"] - f["hit"] for k, f in s.items() if k != "user_bins"))' "$1"
}

# a start: 8 default programs
for s in 1 2 3 4 5 6 7 8; do
    "$G" gen --seed $s -o p.s --state-out s.json && "$G" run p.s --state s.json --coverage base.json >/dev/null
done
check "the start has holes" test "$(holes base.json)" -gt 100

expect 0 "gen --cover" "$G" gen --seed 9 --cover base.json -o d.s
check "the header lists the weights it set" has d.s "^// gisa gen .* --weights '[A-Z0-9]+=[0-9]+"
check "... the integer value classes" has d.s "^// gisa gen .* --int-values 'zero=[0-9]+,one=[0-9]+,minus-one="
check "... and the fp rate" has d.s "^// gisa gen .* --fp-rate 0.6"
expect 0 "the same seed and file give the same program" "$G" gen --seed 9 --cover base.json -o d2.s
check "... byte for byte" cmp -s d.s d2.s
header=$(head -1 d.s | sed 's|^// gisa gen ||')
eval "set -- $header"
expect 0 "the header's options alone" "$G" gen "$@" -o h.s
check "... give the same program" cmp -s d.s h.s

expect 0 "an option given overrides it" "$G" gen --seed 9 --cover base.json --fp-rate 0.1 -o o.s
check "... its value is in the header, last" has o.s "^// gisa gen .* --fp-rate 0.1"
check "... and not the cover's" hasnt o.s "fp-rate 0.6"

printf '{"format": "gisa-coverage", "version": 2, "target": "fermi"}\n' >fermi.json
expect 2 "a coverage of another target" "$G" gen --cover fermi.json
check "... is refused" has err "fermi.json: --cover: the coverage is of target 'fermi', not this one"
printf '{"format": "other"}\n' >other.json
expect 2 "not a coverage file" "$G" gen --cover other.json
check "... says so" has err 'not a coverage file'
printf '{"format": "gisa-coverage", "optypes": [1, {' >broken.json
expect 2 "broken JSON" "$G" gen --cover broken.json
check "... says so" has err 'its JSON does not parse'
expect 2 "a missing file" "$G" gen --cover nothere.json

# directed against undirected, from the same start, the same seeds
cp base.json und.json
cp base.json dir.json
for s in 11 12 13 14 15 16; do
    "$G" gen --seed $s -o u.s --state-out us.json && "$G" run u.s --state us.json --coverage und.json >/dev/null
    "$G" gen --seed $s --cover dir.json -o v.s --state-out vs.json &&
        "$G" run v.s --state vs.json --coverage dir.json >/dev/null
done
u=$(holes und.json) d=$(holes dir.json)
echo "holes: start $(holes base.json), undirected $u, directed $d"
check "directed programs leave fewer holes ($d) than undirected ones ($u)" test "$d" -lt "$u"
finish
