#!/usr/bin/env python3
"""Lockstep: a reference model of your own against gisa, one instruction at
a time, over random programs (the cocotb pattern, without cocotb).

A hardware team checks its design against a golden model by running both
on the same program and comparing every register each instruction writes.
Here the "design" is Model, a small Python model of four integer optypes
(IADD, SEL, LOP3, MOV) written from their descriptions, and gisa is the
golden model:

  1. gisa's generator makes a random program restricted to those optypes,
     with an initial state;
  2. both start from that state (the model copies it from the simulator);
  3. gisa steps one instruction (Simulator.step gives its commit record:
     the lanes that executed and every register written, old and new);
  4. the model executes the same decoded instruction on its own state;
  5. the lanes that executed and every written register must agree, lane
     by lane; the first difference is reported and the run stops.

    python3 lockstep.py                      # 3 seeds x 300 instructions: all agree
    python3 lockstep.py --bug lop3           # a model bug: the first mismatch, exit 1
    python3 lockstep.py --seeds 20 --count 2000 --coverage

--bug puts a deliberate mistake into the model (see BUGS), which the run
must catch. --coverage prints what the programs exercised (gisa.Coverage).
Exit status: 0 when everything agreed, 1 on a mismatch, 2 on bad usage.
"""

import argparse
import sys

import gisa

OPTYPES = ["IADD", "SEL", "LOP3", "MOV"]
M32 = 0xFFFFFFFF
PT = 7  # the always-true predicate's number on gisa128

BUGS = {
    "iadd-carry-in": "IADD.X ignores its carry-in predicate",
    "lop3-order": "LOP3 indexes its truth table with Ra and Rc swapped",
    "sel-not": "SEL ignores the ! of its predicate",
    "mov64": "MOV.64 copies the low word only",
}


class Mismatch(Exception):
    pass


class Model:
    """One warp of the model: 32 lanes of R0..R(regs-1) and P0..P6, the
    uniform registers, the active mask and a window of constant memory."""

    def __init__(self, regs, bug=None):
        self.r = [[0] * 32 for _ in range(regs)]
        self.p = [[False] * 32 for _ in range(7)]
        self.ur = [0] * 63
        self.const = {}
        self.active = M32
        self.bug = bug

    @classmethod
    def copy_of(cls, sim, warp, cbanks, cwords, bug=None):
        """A model holding the simulator's state (what a testbench does when
        it loads the same initial state into the design and the model)."""
        m = cls(sim.regs, bug)
        for i in range(sim.regs):
            m.r[i] = [int(v) for v in sim.get_reg(warp, i)]
        for i in range(7):
            m.p[i] = [bool(v) for v in sim.get_pred(warp, i)]
        for i in range(63):
            m.ur[i] = sim.get_ureg(warp, i)
        for b in range(cbanks):
            for w in range(cwords):
                m.const[(b, 4 * w)] = sim.get_const(b, 4 * w)
        m.active = sim.get_active(warp)
        return m

    # -------------------------------------------------------------- operands
    def pred(self, o, lane):
        v = True if o.is_zero or o.reg == PT else self.p[o.reg][lane]
        return v != o.not_

    def value(self, o, lane):
        """A 32-bit source (a 64-bit one as (low, high))."""
        if o.kind == "REG":
            return 0 if o.is_zero else self.r[o.reg][lane]
        if o.kind == "UREG":
            return 0 if o.is_zero else self.ur[o.reg]
        if o.kind == "IMM":
            return o.value & M32
        if o.kind == "CBANK":
            lo = self.const[(o.bank, o.offset)]
            return (lo, self.const[(o.bank, o.offset + 4)]) if o.pair else lo
        if o.kind == "PAIR":
            return (0, 0) if o.is_zero else (self.r[o.reg][lane], self.r[o.reg + 1][lane])
        if o.kind == "UPAIR":
            return (0, 0) if o.is_zero else (self.ur[o.reg], self.ur[o.reg + 1])
        raise NotImplementedError("operand kind %s" % o.kind)

    # -------------------------------------------------------------- instructions
    def execute(self, inst):
        """Runs one instruction; returns (exec mask, {(rf, index): 32 lane
        values after it}) for the registers it wrote."""
        ops = {o.name: o for o in inst.operands}
        mods = {m.value for m in inst.modifiers if m.value}
        guard = inst.guard or (PT, False)
        ex = 0
        for ln in range(32):
            if self.active >> ln & 1:
                g = True if guard[0] == PT else self.p[guard[0]][ln]
                if g != guard[1]:
                    ex |= 1 << ln
        run = getattr(self, "op_" + inst.optype.lower(), None)
        if run is None:
            raise NotImplementedError("the model has no %s" % inst.optype)
        writes = {}  # (rf, index) -> {lane: value}
        for ln in range(32):
            if ex >> ln & 1:
                for key, v in run(ops, mods, ln):
                    writes.setdefault(key, {})[ln] = v
        result = {}
        for (rf, idx), lanes in writes.items():
            regs = self.r if rf == "R" else self.p
            for ln, v in lanes.items():
                regs[idx][ln] = v
            result[(rf, idx)] = list(regs[idx])
        return ex, result

    def dest(self, o, value):
        """The writes of destination operand o (none for RZ/PT, or absent)."""
        if o is None or not o.present or o.is_zero:
            return []
        if o.kind == "PRED":
            return [] if o.reg == PT else [(("P", o.reg), bool(value))]
        if o.kind == "PAIR":
            return [(("R", o.reg), value[0]), (("R", o.reg + 1), value[1])]
        return [(("R", o.reg), value & M32)]

    @staticmethod
    def addend(o, v):
        """(bits added, extra one) for an IADD source: -x adds ~x + 1, ~x adds ~x."""
        if o.neg:
            return ~v & M32, 1
        if o.inv:
            return ~v & M32, 0
        return v, 0

    def op_iadd(self, ops, mods, ln):
        a, one_a = self.addend(ops["Ra"], self.value(ops["Ra"], ln))
        b, one_b = self.addend(ops["SrcB"], self.value(ops["SrcB"], ln))
        cin = 0
        if "X" in mods and self.bug != "iadd-carry-in":
            pp = ops.get("pp")  # left out, it is its default: !PT, no carry
            cin = 1 if pp is not None and self.pred(pp, ln) else 0
        t = a + b + one_a + one_b + cin
        return self.dest(ops["Rd"], t & M32) + self.dest(ops.get("pu"), t >> 32 != 0)

    def op_sel(self, ops, mods, ln):
        pp = ops["pp"]
        take_a = self.pred(pp, ln) if self.bug != "sel-not" else (True if pp.reg == PT else self.p[pp.reg][ln])
        return self.dest(ops["Rd"], self.value(ops["Ra"] if take_a else ops["SrcB"], ln))

    def op_lop3(self, ops, mods, ln):
        a, b, c = self.value(ops["Ra"], ln), self.value(ops["SrcB"], ln), self.value(ops["Rc"], ln)
        if self.bug == "lop3-order":
            a, c = c, a
        lut = ops["UImm8Lut"].value & 0xFF
        d = 0
        for i in range(32):
            k = (a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1)
            d |= (lut >> k & 1) << i
        pp = self.pred(ops["pp"], ln)
        pu = (d != 0) and pp if "PAND" in mods else (d != 0) or pp
        return self.dest(ops.get("pu"), pu) + self.dest(ops["Rd"], d)

    def op_mov(self, ops, mods, ln):
        src = ops.get("SrcA") or ops["Ra"]
        v = self.value(src, ln)
        if "64" in mods:
            lo, hi = v
            return self.dest(ops["Rd"], (lo, lo if self.bug == "mov64" else hi))
        return self.dest(ops["Rd"], v)


def check(commit, model_exec, model_writes):
    """The model's exec mask and writes against gisa's commit record."""
    where = "pc %d (%s)" % (commit.pc, commit.text)
    if model_exec != commit.exec:
        raise Mismatch("%s: lanes executed: model 0x%08x, gisa 0x%08x" % (where, model_exec, commit.exec))
    gisa_writes = {(e.rf, e.index): e for e in commit.effects}
    for key in sorted(set(gisa_writes) | set(model_writes)):
        name = "%s%d" % key
        if key not in gisa_writes:
            raise Mismatch("%s: the model wrote %s, gisa did not" % (where, name))
        if key not in model_writes:
            raise Mismatch("%s: gisa wrote %s, the model did not" % (where, name))
        e, mine = gisa_writes[key], model_writes[key]
        for ln in e.lanes:
            if int(e.new[ln]) != int(mine[ln]):
                raise Mismatch("%s: %s lane %d: model 0x%08x, gisa 0x%08x"
                               % (where, name, ln, int(mine[ln]), int(e.new[ln])))


def lockstep(isa, seed, count, bug=None, cov=None, log=print):
    """Runs one generated program on gisa and the model in lockstep.
    Returns the number of instructions compared; raises Mismatch."""
    gen = isa.generator(include=OPTYPES, streams="none", cbanks=2, cwords=64)
    prog = gen.generate(seed=seed, count=count)
    sim = prog.simulator(warps=1, threads=1)
    model = Model.copy_of(sim, 0, 2, 64, bug)
    n = 0
    while not sim.done(0):
        commit = sim.step(0)
        if cov is not None:
            cov.record(sim, commit)
        ex, writes = model.execute(commit.instruction)
        check(commit, ex, writes)
        n += 1
    log("seed %d: %d instructions agree" % (seed, n))
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=3, help="programs to run (seeds 1..N; default 3)")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300, help="instructions per program (default 300)")
    ap.add_argument("--bug", choices=sorted(BUGS), help="put a deliberate bug into the model")
    ap.add_argument("--coverage", action="store_true", help="print the coverage of what ran")
    args = ap.parse_args(argv)
    isa = gisa.load()
    cov = isa.coverage() if args.coverage else None
    if args.bug:
        print("model bug: %s (%s)" % (args.bug, BUGS[args.bug]))
    total = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        try:
            total += lockstep(isa, seed, args.count, args.bug, cov)
        except Mismatch as e:
            print("MISMATCH seed %d %s" % (seed, e))
            return 1
    print("%d instructions, %d programs: the model agrees with gisa" % (total, args.seeds))
    if cov is not None:
        s = cov.summary()
        print("coverage: %d/%d opcodes, %d/%d modifier values, %d/%d operand kinds"
              % (s.opcodes + s.modifier_values + s.operand_kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
