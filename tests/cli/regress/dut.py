#!/usr/bin/python3 -S
"""A stand-in design under test for tests/cli/regress*.sh: the golden model
with injected bugs, as fast as `gisa run`.

  dut.py MODE PROG STATE OUT [GOLD]

runs `$GISA run PROG --state STATE` (or, given GOLD, takes the golden
model's commit log from it: a campaign's {dir}/gold.trace, which saves a
run of the model per job) and then corrupts what it saw:
  - SEL: lane 5 of the register written gets its low bit flipped;
  - ISETP: lane 9 of the predicates written is flipped.
MODE trace: OUT is the commit log (text), with the bugs;
MODE exit: exits 1 with 'mismatch: pc N (INSTR): REG lane L: expected X,
got Y' on stdout at the first corrupted write (the lockstep example's
report), else 0;
MODE state: OUT gets the final state with R5 lane 0 flipped when the
program has a SEL (a final-state bug)."""
import json, os, re, sys

mode, prog, state, out = sys.argv[1:5]
if len(sys.argv) > 5:
    trace = sys.argv[5]
else:
    import subprocess
    trace = out + ".gold" if mode != "trace" else out
    st = subprocess.run([os.environ["GISA"], "run", prog, "--state", state, f"--trace={trace}", "-o", out + ".final"])
    if st.returncode != 0:
        sys.exit(st.returncode)
if mode == "state":
    s = json.load(open(out + ".final"))
    if re.search(r"^\s*(@\S+\s+)?SEL", open(prog).read(), re.M):
        w = s["warps"][0] if "warps" in s else s
        v = w.get("R5", "0x0")
        flip = lambda x: "0x%08x" % (int(x, 16) ^ 1)
        w["R5"] = [flip(v[0])] + v[1:] if isinstance(v, list) else [flip(v)] + [v] * 31
    json.dump(s, open(out, "w"), indent=1)
    sys.exit(0)

lines, first, instr, pc = [], None, "", 0
for line in open(trace):
    m = re.match(r"w\d+ (\d+) exec 0x[0-9a-f]+ (.*)$", line)
    if m:
        pc, instr = m.group(1), m.group(2)
        lines.append(line)
        continue
    op = re.match(r"(?:@!?P\w+\s+)?([A-Z]+)", instr).group(1)
    bug = {"SEL": ("R", 5), "ISETP": ("P", 9)}.get(op)
    w = re.match(r"(w\d+)   ((U?[RP])\w+)(?:\[(\d+)\])? = 0x([0-9a-f]+)(?: lanes 0x([0-9a-f]+))?$", line)
    if not bug or not w or w.group(3) != bug[0]:
        lines.append(line)
        continue
    wp, reg, _, lane, val, lanes = w.groups()
    lane_bit = 1 << bug[1]
    val = int(val, 16)
    if bug[0] == "P" and lanes and int(lanes, 16) & lane_bit:
        lines.append(f"{wp}   {reg} = 0x{val ^ lane_bit:08x} lanes 0x{lanes}\n")
        first = first or (pc, instr, reg, bug[1], (val >> bug[1]) & 1, ((val >> bug[1]) & 1) ^ 1)
    elif bug[0] == "R" and lane is None and lanes and int(lanes, 16) & lane_bit:
        rest = int(lanes, 16) & ~lane_bit
        if rest:
            lines.append(f"{wp}   {reg} = 0x{val:08x} lanes 0x{rest:08x}\n")
        lines.append(f"{wp}   {reg}[{bug[1]}] = 0x{val ^ 1:08x}\n")
        first = first or (pc, instr, reg, bug[1], f"0x{val:08x}", f"0x{val ^ 1:08x}")
    elif bug[0] == "R" and lane is not None and int(lane) == bug[1]:
        lines.append(f"{wp}   {reg}[{lane}] = 0x{val ^ 1:08x}\n")
        first = first or (pc, instr, reg, bug[1], f"0x{val:08x}", f"0x{val ^ 1:08x}")
    else:
        lines.append(line)
if mode == "trace":
    open(out, "w").writelines(lines)
    sys.exit(0)
if first:
    print("mismatch: warp 0 pc %s (%s): %s lane %d: expected %s, got %s" % first)
    sys.exit(1)
print("lockstep: ok")
