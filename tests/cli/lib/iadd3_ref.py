"""The independent side of tests/cli/new_instruction.sh: every form of the
example instruction IADD3 (examples/new-instruction/iadd3.isa), the bits each
must encode to -- from the fields the description files declare, read here
by a few regular expressions, not by gisa -- random states, and Python's
unbounded integers computing the sums and carries that `gisa run` must give.

  iadd3_ref.py forms SRC SEED [sim]   lines "TEXT<TAB>HEX": source, expected
                                   word (sim: operands that the states set)
  iadd3_ref.py state SEED WARPS    a random state (JSON) on stdout
  iadd3_ref.py check PROG STATE OUT   compares OUT with the reference run
"""

import json
import random
import re
import sys

MASK = 0xFFFFFFFF
# SrcB of each opcode: the suffix of its name and how it is written
OPCODES = ["RRR", "RIR", "RUR", "RCR"]


def enum_values(text, name):
    """The values of __DefBitFieldType name in text (= N or the next one)."""
    m = re.search(r"^__DefBitFieldType %s<\d+>.*?\n((?:[ \t]+\S.*\n)+)" % re.escape(name), text, re.M)
    vals, nxt = {}, 0
    for line in m.group(1).splitlines():
        line = line.split("//")[0].strip().rstrip(";").strip()
        if not line:
            continue
        k, _, v = line.partition("=")
        nxt = int(v.strip(), 0) if v.strip() else nxt
        vals[k.strip()] = nxt
        nxt += 1
    return vals


def block_fields(text, header):
    """field<off, width> Type name [==|=] value lines of one definition."""
    m = re.search(r"^%s\n(.*?)(?=^__Def|\Z)" % re.escape(header), text, re.M | re.S)
    out = {}
    for f in re.finditer(r"field<\s*(\d+),\s*(\d+)>\s*(\w+)\s+([\w.$]+)\s*(?:==?\s*(\w+))?", m.group(1)):
        out[f.group(4)] = (int(f.group(1)), int(f.group(2)), f.group(3), f.group(5))
    return out


def model(src, name="IADD3", opcodes=OPCODES, types_of=("SType", "PModi", "IExt", "SignModi")):
    """The enumerations and, per opcode suffix, the fields of the example
    optype `name` (examples/new-instruction/<name>.isa, lower case)"""
    types = open(src + "/isa/gisa128/types.isa").read()
    ialu = open(src + "/isa/gisa128/ialu.isa").read()
    mine = open(src + "/examples/new-instruction/%s.isa" % name.lower()).read()
    enums = {t: enum_values(types + ialu, t) for t in types_of}
    enums["Optype"] = enum_values(mine, "Optype")  # the file's own added value
    common = block_fields(ialu, "__DefGroup IALU : [ALL]")
    common.update(block_fields(mine, "__DefOptype %s : [IALU]" % name))
    ops = {}
    for o in opcodes:
        f = dict(common)
        f.update(block_fields(mine, "__DefOpcode %s_%s : [%s]" % (name, o, name)))
        ops[o] = f
    return enums, ops


def pred(rng):
    return rng.choice(["P0", "P1", "P2", "P3", "P4", "P5", "P6", "PT"])


def forms(src, seed, sim):
    enums, ops = model(src)
    rng = random.Random(seed)
    if sim:  # sources among R0..R15 (and RZ) as the states set them, results R0..R47
        reg = lambda: rng.choice(list(range(16)) + [255])
        dest = lambda: rng.randrange(0, 48)
    else:
        reg = dest = lambda: rng.randrange(0, 256)  # 255 is RZ
    rname = lambda r: "RZ" if r == 255 else "R%d" % r
    count = 0
    for o in OPCODES:
        for x in (False, True):
            for with_pu in (False, True):
                for pp_kind in ((None, "P", "!P") if x else (None,)):
                    for guard in (None, "@P", "@!P"):
                        f = ops[o]
                        v = {}

                        def put(name, value):
                            v[name] = value

                        def enum(name, t):
                            off, w, typ, val = f[name]
                            put(name, enums[typ][val] if t is None else t)

                        enum("optype", None)
                        enum("stype", None)
                        rd, ra, rc = dest(), reg(), reg()
                        put("rd", rd)
                        put("ra", ra)
                        put("rc", rc)
                        text = []
                        g = rng.randrange(0, 7)
                        put("pg", 7 if guard is None else g)
                        put("pg.not", enums["PModi"]["True" if guard == "@!P" else "False"])
                        if guard:
                            text.append("%s%d " % (guard, g))
                        text.append("IADD3.X " if x else "IADD3 ")
                        put("ext", enums["IExt"]["X" if x else "NoX"])
                        ops_text = [rname(rd)]
                        pu = rng.randrange(0, 7) if with_pu else 7
                        put("pu", pu)
                        if with_pu:
                            ops_text.append("P%d" % pu)
                        count += 1  # -Ra, -Rc: the four combinations in turn
                        neg_a, neg_c = count & 1, count >> 1 & 1
                        put("ra.neg", enums["SignModi"]["True" if neg_a else "False"])
                        put("rc.neg", enums["SignModi"]["True" if neg_c else "False"])
                        ops_text.append("-" * neg_a + rname(ra))
                        if o == "RRR":
                            b = reg()
                            put("rb", b)
                            ops_text.append(rname(b))
                        elif o == "RIR":
                            b = rng.choice([rng.randrange(0, 1 << 32), -rng.randrange(1, 1 << 24), 0, 1, -1]) & MASK
                            put("vb", b)
                            # gisa dis writes -0x1000000..-0x1 signed, other bits as hex
                            ops_text.append("-0x%x" % (-b & MASK) if b >= (1 << 32) - (1 << 24) else "0x%x" % b)
                        elif o == "RUR":
                            b = rng.randrange(0, 64)
                            put("urb", b)
                            ops_text.append("URZ" if b == 63 else "UR%d" % b)
                        else:
                            bank, off = rng.randrange(0, 4 if sim else 64), rng.randrange(0, 16 if sim else 1 << 14) * 4
                            put("vb", bank << 16 | off)
                            ops_text.append("c[0x%x][0x%x]" % (bank, off))
                        ops_text.append("-" * neg_c + rname(rc))
                        pp, pp_not = 7, 1  # omitted: !PT, no carry-in
                        if pp_kind:
                            pp, pp_not = rng.randrange(0, 7), 0 if pp_kind == "P" else 1
                            ops_text.append("%sP%d" % ("!" if pp_not else "", pp))
                        put("pp", pp)
                        put("pp.not", enums["PModi"]["True" if pp_not else "False"])
                        word = 0
                        for name, value in v.items():
                            off, w, _, _ = f[name]
                            assert 0 <= value < 1 << w, (name, value)
                            word |= value << off
                        print("%s%s\t%032x" % ("".join(text), ", ".join(ops_text), word))


def corner(rng):
    return rng.choice([0, 1, MASK, MASK - 1, 0x80000000, 0x7FFFFFFF, rng.randrange(0, 1 << 32),
                       rng.randrange(0, 1 << 32)])


def state(seed, warps):
    rng = random.Random(seed)
    ws = []
    for _ in range(warps):
        w = {"R%d" % r: ["0x%08x" % corner(rng) for _ in range(32)] for r in range(16)}
        w.update({"P%d" % p: [rng.random() < 0.5 for _ in range(32)] for p in range(7)})
        w.update({"UR%d" % u: "0x%08x" % corner(rng) for u in range(63)})
        ws.append(w)
    consts = {"c[0x%x][0x%x]" % (b, o * 4): "0x%08x" % corner(rng) for b in range(4) for o in range(16)}
    return dict({"warps": ws}, **consts)


def value(x):
    if isinstance(x, bool):
        return int(x)
    return int(x, 0) if isinstance(x, str) else x


def lanes(obj, key, default=0):
    x = obj.get(key, default)
    return [value(v) for v in x] if isinstance(x, list) else [value(x)] * 32


LINE = re.compile(r"^(?:@(!?)P(\d) )?IADD3(\.X)? (R\d+|RZ)(?:, P(\d))?, (-?)(R\d+|RZ), ([^,]+|c\[[^]]+\]\[[^]]+\]), "
                  r"(-?)(R\d+|RZ)(?:, (!?)P(\d|T))?$")


def warp_files(w):
    """A state's warp as register and predicate files: R[0..255] (RZ reads
    0), P[0..7] (PT true), 32 lanes each"""
    R = {r: lanes(w, "R%d" % r) for r in range(256)}
    R[255] = [0] * 32
    P = {p: [bool(v) for v in lanes(w, "P%d" % p)] for p in range(7)}
    P[7] = [True] * 32
    return R, P


def run_reference(program, st):
    consts = {k: value(v) for k, v in st.items() if k.startswith("c[")}
    out = []
    for w in st["warps"]:
        R, P = warp_files(w)
        UR = {u: value(w.get("UR%d" % u, 0)) for u in range(63)}
        UR[63] = 0
        for text in program:
            m = LINE.match(text)
            assert m, text
            gn, g, x, rd, pu, na, ra, b, nc, rc, ppn, pp = m.groups()
            # -x is the addend 2^32 - x (the file's `decorate addend` rule)
            addend = lambda v, neg: (1 << 32) - v if neg else v
            reg = lambda s: 255 if s == "RZ" else int(s[1:])
            for ln in range(32):
                if g is not None and P[int(g)][ln] == bool(gn):
                    continue
                if b.startswith("c["):
                    bank, off = [int(t, 16) for t in re.findall(r"\[(0x[0-9a-f]+)\]", b)]
                    bv = consts.get("c[0x%x][0x%x]" % (bank, off), 0)
                elif b.startswith("UR"):
                    bv = UR[63 if b == "URZ" else int(b[2:])]
                elif b.startswith("R"):
                    bv = R[reg(b)][ln]
                else:
                    bv = int(b, 0) & MASK
                cin = 0
                if x:
                    p = P[7 if pp in (None, "T") else int(pp)][ln]
                    cin = int(p != bool(ppn)) if pp is not None else 0
                t = addend(R[reg(ra)][ln], na) + bv + addend(R[reg(rc)][ln], nc) + cin
                if reg(rd) != 255:
                    R[reg(rd)][ln] = t & MASK
                if pu is not None:
                    P[int(pu)][ln] = t > MASK
        out.append((R, P))
    return out


def check(prog_file, state_file, out_file, reference=None):
    """OUT against reference(program, state) (default: IADD3's), lane by lane"""
    program = [ln.split("//")[0].strip().rstrip(";").strip() for ln in open(prog_file)]
    program = [p for p in program if p]
    st, got = json.load(open(state_file)), json.load(open(out_file))
    bad = n = 0
    for wi, (R, P) in enumerate((reference or run_reference)(program, st)):
        gw = got["warps"][wi]
        for r in range(255):
            for ln, (a, b) in enumerate(zip(lanes(gw, "R%d" % r), R[r])):
                n += 1
                if a != b and bad < 10:
                    print("warp %d lane %d R%d: gisa 0x%08x, reference 0x%08x" % (wi, ln, r, a, b))
                bad += a != b
        for p in range(7):
            for ln, (a, b) in enumerate(zip(lanes(gw, "P%d" % p), P[p])):
                n += 1
                if bool(a) != b and bad < 10:
                    print("warp %d lane %d P%d: gisa %s, reference %s" % (wi, ln, p, bool(a), b))
                bad += bool(a) != b
    print("%d lane values compared, %d differ" % (n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "forms":
        forms(sys.argv[2], int(sys.argv[3]), len(sys.argv) > 4)
    elif cmd == "state":
        json.dump(state(int(sys.argv[2]), int(sys.argv[3])), sys.stdout)
    else:
        sys.exit(check(*sys.argv[2:5]))
