"""A reference model for hardware verification (e.g. a cocotb testbench):
given an instruction word and the values of its input registers, return
the values it writes, computed by the gisa simulator.

    import gisa, refmodel
    isa = gisa.load()
    (word,) = isa.assemble("FFMA R0, R1, R2, R3")
    refmodel.expected(isa, word, {"R1": gisa.f32_bits(2.0), "R2": gisa.f32_bits(3.0),
                                  "R3": gisa.f32_bits(1.0)})
    # -> {"R0": 0x40e00000}

In a cocotb test:

    @cocotb.test()
    async def ffma(dut):
        isa = gisa.load()
        for _ in range(1000):
            a, b, c = (random.getrandbits(32) for _ in range(3))
            (word,) = isa.assemble("FFMA R0, R1, R2, R3")
            dut.insn.value = word
            dut.ra.value, dut.rb.value, dut.rc.value = a, b, c
            await RisingEdge(dut.clk)
            want = expected(isa, word, {"R1": a, "R2": b, "R3": c})
            assert dut.rd.value == want["R0"]

Inputs: "R5", "UR4", "P0", "UP1" -> a value for every lane (or a list of 32
lane values); "R[4:5]" -> a 64-bit pair; "c[0x0][0x10]" -> constant memory.
Outputs: each register the instruction writes (its written operands), with
a single value when every lane agrees and the inputs were single values,
else a list of 32.
"""

import re

import gisa

_CONST = re.compile(r"^c\[(\w+)\]\[(\w+)\]$")
_PAIR = re.compile(r"^R\[(\d+):(\d+)\]$")
_REG = re.compile(r"^(UR|UP|R|P)(\d+)$")


def _apply(sim, name, value):
    m = _CONST.match(name)
    if m:
        sim.set_const(int(m.group(1), 0), int(m.group(2), 0), value)
        return
    m = _PAIR.match(name)
    if m:
        sim.set_pair(0, int(m.group(1)), value)
        return
    m = _REG.match(name)
    if not m:
        raise ValueError("unknown input %r" % name)
    kind, n = m.group(1), int(m.group(2))
    if kind == "R":
        sim.set_reg(0, n, value)
    elif kind == "P":
        sim.set_pred(0, n, value)
    elif kind == "UR":
        sim.set_ureg(0, n, value)
    else:
        sim.set_upred(0, n, value)


def _outputs(inst):
    """(name, reader) for each register the instruction writes."""
    out = []
    for o in inst.operands:
        if not o.written or not o.present or o.is_zero:
            continue
        # lanes as plain ints and bools (the simulator gives numpy arrays when it can)
        if o.kind == "REG":
            out.append(("R%d" % o.reg, lambda s, n=o.reg: [int(v) for v in s.get_reg(0, n)]))
        elif o.kind == "PAIR":
            out.append(("R[%d:%d]" % (o.reg, o.reg + 1), lambda s, n=o.reg: [int(v) for v in s.get_pair(0, n)]))
        elif o.kind == "PRED":
            out.append(("P%d" % o.reg, lambda s, n=o.reg: [bool(v) for v in s.get_pred(0, n)]))
        elif o.kind == "UREG":
            out.append(("UR%d" % o.reg, lambda s, n=o.reg: s.get_ureg(0, n)))
        elif o.kind == "UPAIR":
            out.append(("UR[%d:%d]" % (o.reg, o.reg + 1),
                        lambda s, n=o.reg: s.get_ureg(0, n) | s.get_ureg(0, n + 1) << 32))
        elif o.kind == "UPRED":
            out.append(("UP%d" % o.reg, lambda s, n=o.reg: s.get_upred(0, n)))
        elif o.kind == "PR":
            out.append(("PR", lambda s: [sum(s.get_pred(0, p, lane=ln) << p for p in range(7))
                                         for ln in range(32)]))
    return out


def expected(isa, word, inputs, state=None):
    """The values `word` writes when its inputs hold `inputs` (a dict, see the
    module's text); everything else starts at 0. `state` (JSON text in the
    `gisa run --state` format) is applied first when given. Raises
    gisa.Error for an invalid word, gisa.SimFault when it faults."""
    inst = isa.decode(word)
    sim = isa.simulator(warps=1, threads=1)
    if state:
        sim.read_state_json(state)
    per_lane = False
    for name, value in inputs.items():
        per_lane |= isinstance(value, (list, tuple))
        _apply(sim, name, value)
    sim.load([word])
    sim.run()
    result = {}
    for name, read in _outputs(inst):
        v = read(sim)
        if isinstance(v, list) and not per_lane and all(x == v[0] for x in v):
            v = v[0]
        result[name] = v
    return result


if __name__ == "__main__":
    isa = gisa.load()
    for text, inputs in [
        ("FFMA R0, R1, R2, R3", {"R1": gisa.f32_bits(2.0), "R2": gisa.f32_bits(3.0), "R3": gisa.f32_bits(1.0)}),
        ("IADD R7, R1, 0x10", {"R1": list(range(32))}),
        ("DADD R[2:3], R[4:5], R[6:7]", {"R[4:5]": gisa.f64_bits(0.5), "R[6:7]": gisa.f64_bits(0.25)}),
    ]:
        (w,) = isa.assemble(text)
        out = expected(isa, w, inputs)
        print("%-32s %s" % (text, {k: (hex(v) if isinstance(v, int) else v) for k, v in out.items()}))
