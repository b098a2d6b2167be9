#!/usr/bin/env bash
# Errata that rulings acknowledge (issue 32): on the shipped descriptions
# every lint finding is an erratum that a ruling corrects, a note naming the
# ruling's line, so `gisa lint --werror` passes; -Wruling makes them
# warnings again. A copy of the descriptions with one more bad example, with
# an acknowledgment removed, or with one that matches nothing gets a warning;
# the HTML manual lists the same findings as notes.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" lint_errata

NOTE_RE=': note: erratum corrected by ruling \(.*\[-W[a-z-]+\]$'

# ---- the shipped targets pass --werror
expect 0 "lint --werror of the shipped gisa128" "$G" lint --werror
check "... summary: no warning, the acknowledged errata counted" \
    has out '^lint: 0 errors, 0 warnings, 38 acknowledged errata$'
check "... no warning line" hasnt out ': warning: '
check "... each erratum is a note with its kind" test "$(grep -cE "$NOTE_RE" out)" -eq 38
check "... an acknowledged one names its ruling's line and reason" has out \
    "ialu\.isa:[0-9]+:1: note: erratum corrected by ruling \(<embedded>/gisa128/rulings\.isa:[0-9]+: SPEC-RULINGS LEA: the document's LEA examples do not match its syntax\): example \`LEA R0, R1, 0x10, R3\` matches no syntax form: .*\[-Wexample\]$"
check "... a ruling's own correction is a note too" has out \
    ': note: erratum corrected by ruling \(<embedded>/gisa128/rulings\.isa:8\): ISET.*\[-Wruling\]$'
cp out notes.txt
expect 0 "lint --werror of the shipped fermi" "$G" lint --target fermi --werror
check "... is clean" has out '^lint: 0 errors, 0 warnings$'
if [ -d "$SRC/../shared/seeds" ]; then
    expect 0 "lint --werror of the original documents" "$G" lint --werror --isa "$SRC/../shared/seeds"
    check "... the same errata" has out '^lint: 0 errors, 0 warnings, 38 acknowledged errata$'
fi

# ---- -Wruling: warnings again
expect 1 "lint -Wruling --werror fails" "$G" lint -Wruling --werror
check "... 38 warnings, no acknowledged count" has out '^lint: 0 errors, 38 warnings$'
check "... the same lines, as warnings" cmp -s <(grep -E "$NOTE_RE" notes.txt | sed 's/: note: /: warning: /') \
    <(grep ': warning: erratum corrected by ruling' out)
expect 0 "lint -Wruling without --werror exits 0" "$G" lint -Wruling

# ---- an author's edits
fresh() { rm -rf isa && mkdir isa && cp "$SRC"/isa/gisa128/*.isa isa/; }

fresh # one more bad example beside the acknowledged LEA ones
sed -i "s/^LEA R0, R1, 0x10, R3;.*/&\nLEA R9, R9, R9, R9/" isa/ialu.isa
check "(the example was added)" grep -q '^LEA R9, R9, R9, R9$' isa/ialu.isa
expect 1 "a new bad example: lint --werror fails" "$G" lint --werror --isa isa
check "... it is a warning" has out '^isa/ialu\.isa:[0-9]+:1: warning: example `LEA R9, R9, R9, R9` matches no syntax form: .*\[-Wexample\]$'
check "... the only one" has out '^lint: 0 errors, 1 warning, 38 acknowledged errata$'

fresh # an acknowledgment removed
grep -q '^spelling "SHF: the syntax spells .WRAP' isa/rulings.isa || bad "rulings.isa has no SHF .WRAP acknowledgment"
sed -i '/^spelling "SHF: the syntax spells .WRAP/d' isa/rulings.isa
expect 1 "an acknowledgment removed: lint --werror fails" "$G" lint --werror --isa isa
check "... its finding is a warning again" has out \
    '^isa/ialu\.isa:[0-9]+:1: warning: SHF: the syntax spells \.WRAP what type CWMode calls W \(field cwmod\) \[-Wspelling\]$'
check "... 37 acknowledged" has out '^lint: 0 errors, 1 warning, 37 acknowledged errata$'

fresh # an erratum fixed in the document: its acknowledgment is stale
sed -i 's/^IADD\.X R0, P0, R2, -R4 /IADD   R0, P0, R2, -R4 /' isa/ialu.isa
expect 1 "a fixed example: lint --werror fails" "$G" lint --werror --isa isa
line=$(grep -n '^example "`IADD.X R0, P0, R2, -R4`"' isa/rulings.isa | cut -d: -f1)
check "... the stale acknowledgment is a warning at its line" has out \
    "^isa/rulings\.isa:$line:1: warning: stale acknowledgment: ruling IADD acknowledges a finding of kind example .*\[-Wstale-erratum\]$"
check "... the only one" has out '^lint: 0 errors, 1 warning, 37 acknowledged errata$'
expect 0 "... -Wno-stale-erratum silences it" "$G" lint --werror --isa isa -Wno-stale-erratum

fresh # an acknowledgment of a finding of another definition
printf '\n__DefRuling FADD\n  __Errata\nexample "`LEA R0, R1, 0x10, R3`" because "wrong place"\n' >>isa/rulings.isa
expect 1 "an acknowledgment under the wrong ruling is stale" "$G" lint --werror --isa isa
check "... warned" has out 'warning: stale acknowledgment: ruling FADD .*\[-Wstale-erratum\]$'
check "... and acknowledges nothing" has out '^lint: 0 errors, 1 warning, 38 acknowledged errata$'

fresh # a malformed line is an error at its place
printf '\n__DefRuling FADD\n  __Errata\nexampel "x" because "y"\n' >>isa/rulings.isa
expect 1 "an unknown kind in __Errata" "$G" lint --isa isa
check "... located error" has err "^isa/rulings\.isa:[0-9]+:1: error: 'exampel' is not a lint warning kind"

# ---- the HTML manual lists the same findings, as notes
expect 0 "doc --html" "$G" doc --html man
check "errata page: the 38 errata" test "$(grep -c 'erratum corrected by ruling' man/errata.html)" -eq 38
check "errata page: notes, no warning" bash -c '! grep -q "<tr class=\"warning\">" man/errata.html && grep -q "<tr class=\"note\">" man/errata.html'
check "LEA's page: its acknowledged examples" test "$(grep -c '<li class="note">.*erratum corrected by ruling.*example `LEA' man/optype-LEA.html)" -eq 5

finish
