#!/usr/bin/env bash
# State files as a user meets them (issues 18 and 21): float values in
# every spelling, the warp count a state carries, values shared by lanes or
# warps written once, --values to show registers as floats, and the size
# of outputs and the --max-memory limit at scale.
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" state
# has_line FILE TEXT: FILE has the line TEXT (a JSON member, with or without its trailing comma)
has_line() { grep -qxF -e "$2" -e "$2," -- "$1"; }
: >empty.s

# ------------------------------------------------------------ floats read exactly
cat >floats.json <<'EOF'
{"R2": "1.5", "R3": 1.5, "R4": "-0.0", "R5": -0.0, "R6": "inf", "R7": "-inf", "R8": "nan",
 "R9": "f16:1.5", "R10": "bf16:1.5", "R11": "f16x2:1.5, -2", "R12": "bf16x2:-0.0, 3",
 "R13": 0.1, "R14": "0x1p-149", "R15": "f32:1", "R[16:17]": 0.1, "R[18:19]": "f64:-2.5",
 "R20": 1e-46, "R21": 3.4028235677973366e38, "UR1": 2.5, "c[0x0][0x10]": 0.5, "R22": 16777217.0}
EOF
expect 0 "a state of floats" "$G" run --regs 32 --state floats.json -o f.json empty.s
for kv in R2:3fc00000 R3:3fc00000 R4:80000000 R5:80000000 R6:7f800000 R7:ff800000 R8:7fc00000 \
    R9:00003e00 R10:00003fc0 R11:3e00c000 R12:80004040 R13:3dcccccd R14:00000001 R15:3f800000 \
    R16:9999999a R17:3fb99999 R18:00000000 R19:c0040000 R21:7f7fffff UR1:40200000 R22:4b800000; do
    k=${kv%%:*} v=${kv#*:}
    [ "$v" = 00000000 ] && continue
    check "$k = 0x$v" has_line f.json "  \"$k\": \"0x$v\""
done
check "1e-46 rounds to +0 (not written)" hasnt f.json '"R20"'
check "a constant as a float" has_line f.json '  "c[0x0][0x10]": "0x3f000000"'
# values that are no number, or out of range: the key is named, nothing runs
for bad in '{"R1": "1.5.2"}' '{"R1": 1e39}' '{"R1": "f64:1"}' '{"R[2:3]": "f16:1"}' '{"R1": "f16x2:1"}' \
    '{"R1": "f16:70000"}' '{"active": 1.0}' '{"R1": "f32:"}'; do
    expect 2 "bad float $bad" "$G" run --state <(echo "$bad") empty.s
    check "the key is named for $bad" has err 'state key "'
done
# a float literal over the 127-character limit: said so (not "not a number")
long=$(printf '1%.0s' $(seq 130))
expect 2 "a float literal of 130 characters" "$G" run --state <(echo "{\"R1\": \"f32:$long\"}") empty.s
check "... is too long, not 'not a number'" has err "is too long for a number: more than 127 characters"

# ------------------------------------------------------------ --values: registers as floats
printf 'MOV R1, 0x3fc00000\nMOV R2, 0x7fc00001\nMOV R3, 0x7f800000\nMOV R4, 0x40000000\nMOV R7, 0x3ff80000\n' >fl.s
echo '{"R0": "laneid", "UR6": "0x3f800000"}' >lane.json
expect 0 "run with hex output" "$G" run --regs 8 --state lane.json -o hex.json fl.s
expect 0 "--values f32" "$G" run --regs 8 --state lane.json --values f32 -o f32.json fl.s
check "f32: a number" has_line f32.json '  "R1": 1.5'
check "f32: a NaN keeps its bits" has_line f32.json '  "R2": "0x7fc00001"'
check "f32: infinity" has_line f32.json '  "R3": "inf"'
check "f32: an integral float reads back as a float" has_line f32.json '  "R4": 2.0'
check "f32: UR too" has_line f32.json '  "UR6": 1.0'
check "f32: lanes differ: an array" has f32.json '^  "R0": \[0.0, 1e-45, '
expect 0 "--values f64" "$G" run --regs 8 --state lane.json --values f64 -o f64.json fl.s
check "f64: pairs" has_line f64.json '  "R[6:7]": 1.5'
expect 0 "--values f16x2" "$G" run --regs 8 --state lane.json --values f16x2 -o f16.json fl.s
check "f16x2: two halves" has_line f16.json '  "R1": "f16x2:1.9375, 0"'
expect 0 "--values bf16x2" "$G" run --regs 8 --state lane.json --values bf16x2 -o bf16.json fl.s
check "bf16x2: two halves" has_line bf16.json '  "R1": "bf16x2:1.5, 0"'
for f in f32 f64 f16 bf16; do
    expect 0 "the $f output read back" "$G" run --regs 8 --state $f.json -o back.json empty.s
    check "the $f output holds the same bits as hex" cmp hex.json back.json
done
expect 2 "--values xyz" "$G" run --values xyz empty.s
check "--values choices listed" has err 'hex, f32, f64, f16x2 or bf16x2'

# ------------------------------------------------------------ the warp count travels with the state
printf 'MOV R1, UR2\n' >w.s
echo '{"UR2": "warpid", "R5": "laneid"}' >w.json
expect 0 "a 4-warp run" "$G" run --warps 4 --state w.json -o w4.json w.s
check "the output has four warp objects" test "$(grep -c '"active"' w4.json)" -eq 4
expect 0 "its output read back without --warps" "$G" run --state w4.json -o w4b.json empty.s
check "four warps again, the same state" cmp w4.json w4b.json
expect 0 "a later run on it keeps the warp count" "$G" run --state w4.json -o w4c.json w.s
check "still four warps" cmp w4.json w4c.json
expect 2 "--warps that contradicts the state" "$G" run --warps 2 --state w4.json empty.s
check "the counts are named" has err 'state key "warps": the state has 4 warps and the simulator 2'
check "uniform per-lane values written once" has_line w4.json '      "R1": "0x00000003"'
check "uniform registers as one value" has w4.json '^      "UR2": "0x00000003",?$'
echo '{"warps": [{}, {}], "R1": 1}' >mixed.json
expect 2 "registers beside a warps array" "$G" run --state mixed.json empty.s
check "why it is refused" has err 'go inside its objects'
# files written before (32-element arrays of equal values, constants in every warp) still read
printf '{"warps": [\n  {\n    "active": "0xffffffff",\n    "R1": [%s],\n    "c[0x0][0x8]": "0x00000007"\n  },\n  {\n    "active": "0x0000ffff",\n    "c[0x0][0x8]": "0x00000007"\n  }\n]}\n' \
    "$(printf '"0x00000002", %.0s' {1..31})\"0x00000002\"" >old.json
expect 0 "an old two-warp file" "$G" run --state old.json -o old.out empty.s
check "read as two warps" test "$(grep -c '"active"' old.out)" -eq 2
check "its 32 equal lanes now one value" has_line old.out '      "R1": "0x00000002"'
check "its constant once" test "$(grep -c 'c\[0x0\]\[0x8\]' old.out)" -eq 1
echo '{"warps": [{"c[0x0][0x8]": 1}, {"c[0x0][0x8]": 2}]}' >clash.json
expect 2 "a constant given two values" "$G" run --state clash.json empty.s
check "the clash is explained" has err 'shared by every warp'

# ------------------------------------------------------------ scale (issue 21)
# 8,000 constants and 1,024 warps: once 293 MB of output in 7 s
awk 'BEGIN { printf "{"; for (i = 0; i < 8000; i++) printf "%s\"c[0x%x][0x%x]\": \"0x%08x\"", i ? ", " : "", int(i / 4000), (i % 4000) * 4, i + 1; print "}" }' >c.json
printf 'MOV R0, 0x1 ;\n' >one.s
expect 0 "8,000 constants on 1,024 warps" timeout 60 "$G" run one.s --warps 1024 --state c.json --out o.json
check "each constant written once" test "$(grep -c '"c\[' o.json)" -eq 8000
check "the output is small (under 1 MB)" test "$(wc -c <o.json)" -lt 1000000
expect 0 "the output read back (1,024 warps from the file)" timeout 60 "$G" run --state o.json --out o2.json empty.s
check "the same state" cmp o.json o2.json
# 65,536 warps (the most) with the same state: once more than 25 minutes
expect 0 "8,000 constants on 65,536 warps" timeout 120 "$G" run one.s --regs 4 --warps 65536 --state c.json --out o3.json
check "65,536 warp objects" test "$(grep -c '"active"' o3.json)" -eq 65536
check "still each constant once" test "$(grep -c '"c\[' o3.json)" -eq 8000

# --max-memory: the estimate is made before anything is allocated
expect 1 "a run over --max-memory" "$G" run --warps 65536 --max-memory 1G one.s -o big.json
check "the estimate" has err 'this run needs about 2\.[0-9] GiB of memory'
check "what it is made of" has err '65536 warps x 255 registers x 32 lanes'
check "the limit" has err 'over the limit of 1\.0 GiB'
check "the option" has err -- '--max-memory SIZE'
check "nothing written" test ! -e big.json
expect 0 "the same run under the default limit (4 GiB)" "$G" run --warps 65536 --regs 8 one.s -o /dev/null
expect 2 "a bad --max-memory" "$G" run --max-memory 12Q one.s
check "bad size named" has err "12Q"
expect 0 "--max-memory with a suffix" "$G" run --max-memory 64M one.s -o /dev/null
# (a limit of 8M at least: loading the ISA within it takes about 5 MB)
expect 1 "a state file too large for the limit" "$G" run --max-memory 8M --warps 1024 --state c.json one.s
check "the state's share is shown" has err 'the state file'

finish
