"""The independent side of the SHLACC part of tests/cli/new_instruction.sh:
an instruction whose operands no shipped file names (Rdst, Rsrc, Kacc, Amt,
cy, cin; examples/new-instruction/shlacc.isa), with a layout of its own and
one opcode without __OperandInfo. Random programs of every form, the words
they must encode to (from the fields the file declares, read by iadd3_ref's
regular expressions, not by gisa), and Python integers computing what `gisa
run` must give.

  shlacc_ref.py prog SRC SEED N   N lines "TEXT<TAB>HEX"
  shlacc_ref.py check PROG STATE OUT   compares OUT with the reference run
(states: iadd3_ref.py state)
"""

import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iadd3_ref import MASK, check, corner, model, warp_files  # noqa: E402

OPCODES = {"RR": "RRR", "RI": "RIR"}


def reg(rng):
    return rng.choice(["R%d" % rng.randrange(0, 16), "RZ"])


def prog(src, seed, n):
    enums, ops = model(src, "SHLACC", OPCODES, ("SType", "PModi", "IExt"))
    rng = random.Random(seed)
    for _ in range(n):
        o = rng.choice(sorted(OPCODES))
        f, v = ops[o], {}
        v["optype"] = enums["Optype"]["SHLACC"]
        v["stype"] = enums["SType"][OPCODES[o]]
        x = rng.random() < 0.5
        v["ci"] = enums["IExt"]["X" if x else "NoX"]
        guard = rng.choice(["", "@P", "@!P"])
        g = rng.randrange(0, 7)
        v["pg"] = g if guard else 7
        v["pg.not"] = enums["PModi"]["True" if guard == "@!P" else "False"]
        cy = rng.randrange(0, 8)
        rdst, rsrc = reg(rng), reg(rng)
        v["cy"] = cy
        v["rdst"] = 255 if rdst == "RZ" else int(rdst[1:])
        v["rsrc"] = 255 if rsrc == "RZ" else int(rsrc[1:])
        if o == "RR":
            k = reg(rng)
            v["kacc"] = 255 if k == "RZ" else int(k[1:])
        else:
            kv = corner(rng)
            k = "0x%x" % kv
            v["kacc"] = kv
        amt = rng.randrange(0, 32)
        v["amt"] = amt
        text = "%sSHLACC%s %s, %s, %s, %s, 0x%x" % ("%s%d " % (guard, g) if guard else "", ".X" if x else "",
                                                  "PT" if cy == 7 else "P%d" % cy, rdst, rsrc, k, amt)
        v["cin"], v["cin.not"] = 7, enums["PModi"]["True"]  # the omitted default: !PT
        if x:
            c = rng.randrange(0, 8)
            neg = rng.random() < 0.5
            v["cin"], v["cin.not"] = c, enums["PModi"]["True" if neg else "False"]
            text += ", %s%s" % ("!" if neg else "", "PT" if c == 7 else "P%d" % c)
        word = 0
        for name, val in v.items():
            off, w, _, _ = f[name]
            assert 0 <= val < 1 << w, (name, val)
            word |= val << off
        print("%s ;\t%032x" % (text, word))


LINE = re.compile(r"^(?:@(!?)P(\d) )?SHLACC(\.X)? P(\d|T), (R\d+|RZ), (R\d+|RZ), (R\d+|RZ|0x[0-9a-f]+), (0x[0-9a-f]+)"
                  r"(?:, (!?)P(\d|T))?$")


def run_reference(program, st):
    out = []
    for w in st["warps"]:
        R, P = warp_files(w)
        for text in program:
            m = LINE.match(text)
            assert m, text
            gn, g, x, cy, rdst, rsrc, k, amt, cn, cin = m.groups()
            regn = lambda s: 255 if s == "RZ" else int(s[1:])
            for ln in range(32):
                if g is not None and P[int(g)][ln] == bool(gn):
                    continue
                kv = R[regn(k)][ln] if k.startswith("R") else int(k, 16)
                c = 0
                if x:
                    c = int(P[7 if cin == "T" else int(cin)][ln] != bool(cn))
                t = ((R[regn(rsrc)][ln] << int(amt, 16)) & MASK) + kv + c
                if regn(rdst) != 255:
                    R[regn(rdst)][ln] = t & MASK
                if cy != "T":
                    P[int(cy)][ln] = t > MASK
        out.append((R, P))
    return out


if __name__ == "__main__":
    if sys.argv[1] == "prog":
        prog(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(check(*sys.argv[2:5], reference=run_reference))
