#!/usr/bin/env bash
# Coverage on the command line: `gisa run --coverage FILE` makes FILE and
# adds to it on each run (a campaign is a loop), refuses a file of another
# target before running, and still writes it when the program faults;
# `gisa cov` runs programs (assembly and words), merges coverage files,
# prints the text report (hit/total, what was never hit) or JSON, and its
# figures add up across runs and merges.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" coverage

cat >prog.s <<'EOF'
FADD.RZ R1, R2, R3
@P1 FADD.RP R4, R2, R3
FMUL R2, R2, -R2
IADD R5, R2, 0x7
EOF
printf '{"R2": "0x7f800001"}\n' >state.json

expect 0 "run --coverage makes the file" "$G" run prog.s --state state.json --coverage c.json
check "the state is still printed" has out '"R2"'
check "the coverage file is JSON of the format" has c.json '"format": "gisa-coverage"'
check "it counts 3 executed" has c.json '^ "executed": 3,'
expect 0 "a second run adds to it" "$G" run prog.s --state state.json --coverage c.json
check "6 executed" has c.json '^ "executed": 6,'
check "the skipped @P1 FADD.RP is counted as skipped" has c.json '^ "skipped": 2,'
check "no temporary file is left" no_tmp

expect 0 "cov --merge reports it" "$G" cov --merge c.json
check "report header" has out '^coverage of gisa128: 6 instructions executed, 2 reached but not executed$'
check "summary line" has out '^  opcodes +3/187 '
check "FADD line with never-hit opcodes" has out '^FADD: executed 2; opcodes 1/4 \(never: FADD_RU FADD_RI FADD_RC\)'
check "the skipped .RP is never hit" has out '^  rnd: values 1/4 \(never: RN, RP, RM\)$'
sed -n '/^FMUL:/,/^[A-Z]/p' out >fmul.txt
check "a source that is also the destination counts its old value (sNaN, not the NaN result)" \
    has fmul.txt '^  Ra: kinds 1/2 \(never: RZ\); decorations 0/2 \(never: -, \|x\|\); F32 classes 1/10 \(never: \+0, -0, \+subnormal, -subnormal, \+normal, -normal, \+inf, -inf, qNaN\)$'
check "its -R2 decoration is counted" has fmul.txt '^  SrcB: kinds 1/6 .*decorations 1/2 \(never: \|x\|\)'
check "never-executed optypes are listed" has out '^IMUL: never executed \(IMUL_RR IMUL_RU IMUL_RI IMUL_RC\)$'

expect 0 "cov runs a program" "$G" cov prog.s --state state.json --json -o one.json
check "one run: 3 executed" has one.json '^ "executed": 3,'
expect 0 "cov runs words too" "$G" as prog.s --format hex -o prog.hex
expect 0 "cov of the words" "$G" cov prog.hex --state state.json --json -o hex.json
check "words and assembly give the same coverage" cmp -s one.json hex.json
expect 0 "programs and merges together" "$G" cov prog.s --state state.json --merge c.json one.json --json -o all.json
check "3 + 6 + 3 executed" has all.json '^ "executed": 12,'
expect 0 "the JSON merges back to itself" "$G" cov --merge all.json --json -o again.json
check "... byte for byte" cmp -s all.json again.json
expect 0 "repeated --merge options" "$G" cov --merge c.json --merge one.json --json
check "6 + 3 executed" has out '^ "executed": 9,'

printf 'FADD R1, R2, R3;\n' >f.s
expect 2 "a file of another target is refused" "$G" run --target fermi f.s --coverage c.json
check "... saying which" has err 'coverage of target gisa128, not fermi'
check "... once: no second error about the rest of the file" test "$(grep -c 'error' err)" -eq 1
check "... and nothing ran" hasnt out '.'
check "... the file is unchanged" has c.json '^ "executed": 6,'
expect 0 "fermi coverage" "$G" run --target fermi f.s --coverage cf.json
empty=$(mktemp "$T/cov.XXXXXX")
expect 0 "an empty coverage file (as mktemp makes it) is an empty coverage" "$G" run --target fermi f.s --coverage "$empty"
check "... then holds the run" cmp -s "$empty" cf.json
expect 0 "fermi report" "$G" cov --target fermi --merge cf.json
check "fermi header" has out '^coverage of fermi: 1 instructions executed'

echo '{"format": "gisa-coverage", "version": 1, "opcodes": {"NOPE": {"executed": 1}}}' >bad.json
expect 2 "an unknown opcode is refused" "$G" cov --merge bad.json
check "... naming it" has err "no opcode 'NOPE'"
echo 'FADD R1' >broken.json
expect 2 "a file that is not JSON" "$G" cov --merge broken.json
check "... says so" has err 'not JSON'
expect 2 "a missing coverage file" "$G" cov --merge missing.json
expect 2 "nothing to report" "$G" cov
check "... says what to give" has err 'give programs to run or --merge coverage files'
expect 2 "--coverage needs a file" "$G" run prog.s --coverage=
expect 1 "a program that does not assemble" "$G" cov broken.json

# a fault still writes the coverage (and the state), exit 3
printf 'IADD R1, R2, R3\nGETGPR R4, R[UR1+0x7f]\nIADD R6, R2, R3\n' >fault.s
printf '{"UR1": "0x100"}\n' >fstate.json
expect 3 "run --coverage of a faulting program" "$G" run fault.s --state fstate.json --coverage fc.json
check "the coverage is written up to the fault" has fc.json '^ "executed": 2,'
expect 3 "cov of a faulting program" "$G" cov fault.s --state fstate.json
check "... reports the fault" has err 'fault.s: simulation fault'
check "... and still prints the report" has out '^coverage of gisa128: 2 instructions executed'

expect 0 "gisa cov --help" "$G" cov --help
check "help names --merge" has out '--merge COVFILE'
expect 0 "gisa --help lists cov" "$G" --help
check "... with its summary" has out '^  cov +functional coverage'
# counts saturate at 2^63-1 (the largest a coverage file holds) when
# merged, instead of wrapping or writing what cannot be read back
printf 'FADD R0, R1, R2\n' >sat.s
expect 0 "a run's coverage" "$G" run sat.s --coverage sat.json -o /dev/null
sed 's/^ "executed": 1,/ "executed": 9223372036854775807,/' sat.json >satmax.json
check "a file with the largest count" grep -q '"executed": 9223372036854775807,' satmax.json
expect 0 "three of them merge" "$G" cov --merge satmax.json satmax.json satmax.json --json -o sat3.json
check "the sum saturates at 2^63-1" grep -q '^ "executed": 9223372036854775807,' sat3.json
expect 0 "and reads back" "$G" cov --merge sat3.json sat.json --json -o sat4.json
check "still 2^63-1" grep -q '^ "executed": 9223372036854775807,' sat4.json
finish
