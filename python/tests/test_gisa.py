"""Tests of the gisa Python package against libgisa and the gisa CLI.

Run: GISA_LIBRARY=build/libgisa.so python3 -m pytest -q python/tests
(GISA_BIN, the gisa executable for the CLI comparisons, defaults to the
`gisa` next to the library.)
"""

import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gisa
from encoding import layout

TARGETS = ["gisa128", "fermi"]
SETTINGS = settings(max_examples=int(os.environ.get("GISA_PY_EXAMPLES", "12")), deadline=None,
                    database=None, suppress_health_check=list(HealthCheck))

_ISAS = {}


def isa_of(target):
    if target not in _ISAS:
        _ISAS[target] = gisa.load(target=target)
    return _ISAS[target]


_LAYOUTS = {}


def seed_of(target, opcode):
    """A layout of the opcode and one valid word of it (found by a
    deterministic search from the defaults and random field values)."""
    key = (target, opcode)
    if key not in _LAYOUTS:
        isa = isa_of(target)
        lay = layout(isa, opcode)
        rng = random.Random("%s/%s" % key)
        seed = None
        for k in range(20000):
            vals = [d if k == 0 or rng.random() < 0.5 else rng.getrandbits(w)
                    for (_, _, w), d in zip(lay.fields, lay.defaults)]
            w = lay.word(vals)
            if isa.is_valid(w):
                seed = vals
                break
        assert seed is not None, "no valid word of %s found" % opcode
        _LAYOUTS[key] = (lay, seed)
    return _LAYOUTS[key]


def valid_word(target, opcode, mutate, values):
    """The seed word of opcode with values[i] in field i where mutate[i];
    mutations that make the word invalid are undone one at a time."""
    isa = isa_of(target)
    lay, seed = seed_of(target, opcode)
    vals = list(seed)
    changed = []
    for i in range(len(lay.fields)):
        if mutate[i]:
            v = values[i]
            vals[i] = v & ((1 << lay.fields[i][2]) - 1)
            changed.append(i)
    w = lay.word(vals)
    while not isa.is_valid(w):
        i = changed.pop(0)
        vals[i] = seed[i]
        w = lay.word(vals)
    return w


def split_operands(text):
    """(guard, mnemonic, operand texts, controls) of a canonical line."""
    toks = text.split(" ", 1)
    guard = None
    if toks[0].startswith("@"):
        guard = toks[0]
        toks = toks[1].split(" ", 1)
    mnem = toks[0]
    rest = toks[1] if len(toks) > 1 else ""
    controls = re.findall(r"\$(\w+)=(\d+)", rest)
    rest = re.sub(r"\s*\$\w+=\d+", "", rest).strip()
    ops, depth, cur = [], 0, ""
    for ch in rest:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return guard, mnem, ops, dict((k, int(v)) for k, v in controls)


def _opcode_params():
    return [(t, op) for t in TARGETS for op in isa_of(t).opcodes]


def _field_strategy():
    # per field: whether to change it, and a value biased to small and edge numbers
    return st.lists(st.tuples(st.booleans(),
                              st.one_of(st.integers(0, 15), st.integers(0, 2**64 - 1),
                                        st.sampled_from([0, 1, 2**32 - 1, 2**64 - 1]))),
                    min_size=0, max_size=40)


# ------------------------------------------------------------------ loading
def test_load_and_targets():
    assert "gisa128" in gisa.targets() and "fermi" in gisa.targets()
    assert gisa.library_version().split(".")[0] == gisa.__version__.split(".")[0]
    isa = gisa.load()
    assert isa.word_bits == 128
    assert "FADD_RR" in isa.opcodes
    f = gisa.load(target="fermi")
    assert f.word_bits == 64
    assert len(f.opcodes) > 0


def test_load_paths():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "isa", "fermi")
    isa = gisa.load(paths=[root], target="fermi")
    assert isa.opcodes == isa_of("fermi").opcodes
    with pytest.raises(gisa.Error) as e:
        gisa.load(paths=["/nonexistent/dir"])
    assert e.value.status == 3  # GISA_ERR_IO
    assert "/nonexistent/dir" in str(e.value)


def test_load_add():
    """An author's own description file beside the shipped ISA (gisa --isa-add):
    the example IADD3 assembles, round-trips and runs on its pseudo-code."""
    here = os.path.dirname(os.path.abspath(__file__))
    extra = os.path.join(here, "..", "..", "examples", "new-instruction", "iadd3.isa")
    shipped = os.path.join(here, "..", "..", "isa", "gisa128")
    for isa in (gisa.load(add=extra), gisa.load(paths=[shipped], add=[extra])):
        assert set(isa.opcodes) == set(isa_of("gisa128").opcodes) | {"IADD3_RRR", "IADD3_RIR", "IADD3_RUR", "IADD3_RCR"}
        text = "IADD3.X R4, P1, R1, 0x7fffffff, R3, P0"
        assert isa.disassemble(isa.assemble(text)) == [text]
        sim = isa.simulator()
        sim.load(isa.assemble("IADD3 R0, P0, R1, R2, R3"))
        sim.set_reg(0, 1, 0xFFFFFFFF)
        sim.set_reg(0, 2, 0xFFFFFFFF)
        sim.set_reg(0, 3, 5)
        sim.run()
        assert sim.get_reg(0, 0, 0) == 3 and sim.get_pred(0, 0, 0)
    with pytest.raises(gisa.Error) as e:
        gisa.load(add=["/nonexistent/x.isa"])
    assert e.value.status == 3 and "/nonexistent/x.isa" in str(e.value)
    with pytest.raises(gisa.Error):
        gisa.load(sources={"a.isa": ""}, add=extra)


def test_unknown_target():
    with pytest.raises(gisa.Error):
        gisa.load(target="nope")


def test_refusals_and_their_statuses():
    """What the library refuses comes as gisa.Error with its gisa_status:
    GISA_ERR_USAGE 2, GISA_ERR_INPUT 1, GISA_ERR_NOTFOUND 5, GISA_ERR_LIMIT 8."""
    isa = isa_of("gisa128")
    with pytest.raises(gisa.Error) as e:
        gisa.load(paths=[])  # never the embedded ISA
    assert e.value.status == 2
    with pytest.raises(gisa.Error) as e:
        isa.doc("NO_SUCH_OPTYPE")
    assert e.value.status == 5 and e.value.status_name
    assert "FADD" in isa.doc("FADD") and "FADD" in isa.doc()
    for text in ("FADD R0, R1, R2\nFADD R0, R1, R2", "", "// nothing", "FOO R1"):
        with pytest.raises(gisa.Error) as e:
            isa.assemble_one(text)  # exactly one instruction (GISA_ASM_ONE)
        assert e.value.status == 1 and e.value.diagnostics, text
    assert isa.assemble_one("FADD R0, R1, R2 // one") == isa.assemble("FADD R0, R1, R2")[0]
    inst = isa.decode(isa.assemble_one("@!P3 FADD R0, R1, R2 $sched=3"))
    assert inst.guard == (3, True) and inst.controls[0] == 3
    assert isa.decode(isa.assemble_one("@P2 FADD R0, R1, R2")).guard == (2, False)
    with pytest.raises(gisa.Error):
        isa.encode(inst, opcode="NO_SUCH_OPCODE")
    assert isa.encode(inst, opcode="FADD_RR") == inst.word
    with pytest.raises(gisa.Error) as e:
        isa.generator().generate(count=gisa._lib.GEN_MAX_COUNT + 1)
    assert e.value.status == gisa._lib.ERR_LIMIT == 8
    sim = isa.simulator(warps=2, regs=4)
    assert (sim.pc(1), sim.done(1), sim.get_active(1)) == (0, True, 0xFFFFFFFF)  # no program: done
    for f in (sim.pc, sim.done, sim.get_active):
        with pytest.raises(gisa.Error) as e:
            f(2)  # no warp 2
        assert e.value.status == 2, f


# ------------------------------------------------------------------ round trips of every opcode
@pytest.mark.parametrize("target,opcode", _opcode_params())
@SETTINGS
@given(fields=_field_strategy())
def test_roundtrip(target, opcode, fields):
    isa = isa_of(target)
    lay, _ = seed_of(target, opcode)
    mutate = [m for m, _ in fields] + [False] * len(lay.fields)
    values = [v for _, v in fields] + [0] * len(lay.fields)
    w = valid_word(target, opcode, mutate, values)

    text = isa.disassemble(w)
    assert not text.startswith(".invalid"), text
    assert isa.disassemble([w]) == [text]
    # the text assembles back to the same word
    assert isa.assemble(text) == [w], text
    assert isa.assemble_one(text) == w

    inst = isa.decode(w)
    assert inst.opcode == opcode
    assert inst.word == w
    assert inst.text == text
    assert isa.encode(inst) == w

    # what the text shows agrees with the decoded operands, modifiers, guard, controls
    guard, mnem, ops, controls = split_operands(text)
    assert mnem.startswith(inst.mnemonic.split(".")[0])
    present = [o for o in inst.operands if o.present]
    # an F16X2 immediate is written as its two halves, "H1, H0"
    assert sum(2 if o.kind == "F16X2" else 1 for o in present) == len(ops), (text, inst.operands)
    texts = list(ops)
    for o in present:
        t = texts.pop(0)
        if o.kind == "F16X2":
            t += ", " + texts.pop(0)
        if o.kind in ("REG", "UREG") and not o.is_zero:
            assert re.search(r"\bU?R%d\b" % o.reg, t), (t, o)
        if o.kind == "PAIR" and not o.is_zero and "[" in t:
            assert "R[%d:%d]" % (o.reg, o.reg + 1) in t, (t, o)
        if o.kind == "CBANK":
            assert "c[%#x][%#x]" % (o.bank, o.offset) in t, (t, o)
        assert ("-" in t) >= o.neg, (t, o)
        assert ("|" in t) == o.abs, (t, o)
        if o.kind in ("PRED", "UPRED"):
            assert t.startswith("!") == o.not_, (t, o)
    for name, value in (("sched", inst.controls[0]), ("req", inst.controls[1]), ("wsb", inst.controls[2])):
        assert controls.get(name, 0) == value, text
    if inst.guard is not None:
        pred, neg = inst.guard
        if guard is None:
            assert not neg
        else:
            assert guard.startswith("@!") == neg
            assert guard.lstrip("@!") in ("P%d" % pred, "PT")
    for m in inst.modifiers:
        if not m.is_default and m.value is not None:
            assert "." + m.value in mnem, (text, m)

    # changing one field through encode gives a word that decodes to that value
    names = list(inst.fields)
    if names:
        nw = isa.encode(inst, fields={names[0]: inst.fields[names[0]]})
        assert nw == w


def test_every_opcode_covered():
    for t in TARGETS:
        isa = isa_of(t)
        for op in isa.opcodes:
            lay, seed = seed_of(t, op)
            assert isa.decode(lay.word(seed)).opcode == op


# ------------------------------------------------------------------ decode details and errors
def test_decode_fields():
    isa = isa_of("gisa128")
    (w,) = isa.assemble("@!P2 FFMA.RZ R1, -R2, |R3|, R4 $sched=3")
    i = isa.decode(w)
    assert (i.opcode, i.optype, i.mnemonic) == ("FFMA_RRR", "FFMA", "FFMA")
    assert i.guard == (2, True)
    assert i.controls == (3, 0, 0)
    assert [o.kind for o in i.operands] == ["REG"] * 4
    assert [o.reg for o in i.operands] == [1, 2, 3, 4]
    assert [o.name for o in i.operands][0] == "Rd"
    assert i.operands[0].written and not i.operands[1].written
    assert i.operands[1].neg and not i.operands[1].abs
    assert i.operands[2].abs and not i.operands[2].neg
    assert i.fields["rd"] == 1 and i.fields["ra"] == 2
    rnd = [m for m in i.modifiers if m.name == "rnd"][0]
    assert rnd.value == "RZ" and not rnd.is_default
    # encode with a changed field
    w2 = isa.encode(i, fields={"rd": 9})
    assert isa.disassemble(w2).startswith("@!P2 FFMA.RZ R9, -R2")
    with pytest.raises(gisa.Error) as e:
        isa.encode(i, fields={"rd": 1 << 20})
    assert e.value.reason


def test_decode_invalid():
    isa = isa_of("gisa128")
    with pytest.raises(gisa.Error) as e:
        isa.decode(0)
    assert e.value.reason == "no opcode has these fixed bits"
    assert isa.disassemble(0).startswith(".invalid 0x")
    (w,) = isa.assemble("FADD R0, R1, R2")
    bad = w | (1 << 127)  # a must-be-0 bit
    with pytest.raises(gisa.Error) as e:
        isa.decode(bad)
    assert e.value.reason
    assert not isa.is_valid(bad)


def test_wide_words():
    isa = isa_of("gisa128")
    words = isa.assemble("IMAD.WIDE R[2:3], R4, 0x12345678, R[6:7] $req=5")
    assert words[0] >> 64  # the upper half is used
    assert isa.disassemble(words[0]).startswith("IMAD.WIDE R[2:3], R4, 0x12345678, R[6:7]")


@pytest.mark.parametrize("line,col", [(1, 1), (2, 3), (3, 17)])
def test_assemble_error_position(line, col):
    good = "FADD R0, R1, R2"
    lines = [good, good, good]
    if (line, col) == (1, 1):
        lines[0] = "FOO R1, R2"
    elif (line, col) == (2, 3):
        lines[1] = "  BAR R1"
    else:
        lines[2] = "FADD R5, R6, R7, Q7"
    with pytest.raises(gisa.Error) as e:
        isa_of("gisa128").assemble("\n".join(lines) + "\n", filename="t.s")
    ds = [d for d in e.value.diagnostics if d.severity == "error"]
    assert ds, e.value.diagnostics
    d = ds[0]
    assert (d.file, d.line) == ("t.s", line)
    if (line, col) != (3, 17):
        assert d.col == col
    else:
        assert d.col >= 15
    assert d.text.startswith("t.s:%d:%d: error: " % (d.line, d.col))
    assert d.source_line == lines[line - 1]
    assert "^" in d.text


def test_assemble_many_errors():
    with pytest.raises(gisa.Error) as e:
        isa_of("gisa128").assemble("FOO\nFADD R0, R1, R2\nBAR\n")
    assert [d.line for d in e.value.diagnostics if d.severity == "error"] == [1, 3]


# ------------------------------------------------------------------ floating-point helpers
def test_float_helpers():
    assert gisa.f32_bits(1.0) == 0x3F800000
    assert gisa.bits_f32(0x40400000) == 3.0
    assert gisa.f64_bits(1.0) == 0x3FF0000000000000
    assert gisa.bits_f64(0x4000000000000000) == 2.0
    assert gisa.f16_bits(1.0) == 0x3C00
    assert gisa.bits_f16(0xC000) == -2.0
    assert gisa.bf16_bits(1.0) == 0x3F80
    assert gisa.bits_bf16(0x4040) == 3.0
    assert gisa.bf16_bits(float("inf")) == 0x7F80
    assert math.isnan(gisa.bits_bf16(gisa.bf16_bits(float("nan"))))
    # round to nearest even on the 16 dropped bits
    assert gisa.bf16_bits(gisa.bits_f32(0x3F808000)) == 0x3F80
    assert gisa.bf16_bits(gisa.bits_f32(0x3F818000)) == 0x3F82
    assert gisa.bf16_bits(gisa.bits_f32(0x3F808001)) == 0x3F81


@settings(max_examples=200, deadline=None, database=None)
@given(st.integers(0, 2**32 - 1))
def test_bf16_matches_float32_rounding(b):
    x = gisa.bits_f32(b)
    if math.isnan(x):
        return
    h = gisa.bf16_bits(x)
    y = gisa.bits_bf16(h)
    # y is one of the two bf16 neighbours, and the nearest
    lo = gisa.bits_f32(b & 0xFFFF0000)
    hi_bits = (b & 0xFFFF0000) + 0x10000
    if (hi_bits & 0x7F800000) == 0x7F800000 and (hi_bits & 0x7FFFFF) == 0:
        hi = math.copysign(float("inf"), x)
    else:
        hi = gisa.bits_f32(hi_bits & 0xFFFFFFFF)
    assert y in (lo, hi)
    if not math.isinf(hi) and not math.isinf(x):
        assert abs(y - x) <= min(abs(lo - x), abs(hi - x))
    assert gisa.f16_bits(gisa.bits_f16(b & 0xFFFF)) == (b & 0xFFFF) or math.isnan(gisa.bits_f16(b & 0xFFFF))


# ------------------------------------------------------------------ simulator
def gisa_bin():
    b = os.environ.get("GISA_BIN")
    if not b:
        b = os.path.join(os.path.dirname(os.path.abspath(gisa.library_path())), "gisa")
    return b if os.path.isfile(b) and os.access(b, os.X_OK) else None


def cli_run(tmp_path, program, state, target=None, regs=None):
    b = gisa_bin()
    if b is None:
        pytest.skip("no gisa executable (set GISA_BIN)")
    (tmp_path / "p.s").write_text(program)
    (tmp_path / "s.json").write_text(json.dumps(state))
    cmd = [b, "run", "--state", str(tmp_path / "s.json"), str(tmp_path / "p.s")]
    if target:
        cmd += ["--target", target]
    if regs:
        cmd += ["--regs", str(regs)]
    env = dict(os.environ)
    env.pop("GISA_ISA", None)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def test_sim_fadd():
    isa = isa_of("gisa128")
    sim = isa.simulator(warps=1, regs=255)
    sim.load(isa.assemble("FADD R0, R1, R2\n"))
    sim.set_reg(0, 1, gisa.f32_bits(1.0))
    sim.set_reg(0, 2, gisa.f32_bits(2.0))
    sim.run()
    assert list(sim.get_reg(0, 0)) == [gisa.f32_bits(3.0)] * 32
    assert gisa.bits_f32(sim.get_reg(0, 0, lane=5)) == 3.0


def test_sim_against_cli(tmp_path):
    prog = ("FADD R0, R1, R2\n"
            "IADD R3, R4, 0x5\n"
            "ISETP.LT.AND P0, PT, R4, 0x10, PT\n"
            "@P0 IADD R5, R3, c[0x0][0x10]\n"
            "R2UR UR4, R3\n")
    state = {"R1": "0x3f800000", "R2": "0x40000000", "R4": "laneid", "c[0x0][0x10]": 100, "active": "0x7fffffff"}
    rc, out, err = cli_run(tmp_path, prog, state)
    assert rc == 0, err
    isa = isa_of("gisa128")
    sim = isa.simulator()
    sim.read_state_json(json.dumps(state))
    sim.load(prog)
    sim.run()
    assert sim.state_json().strip() == out.strip()
    # the same through the bulk accessors
    cli = json.loads(out)
    assert list(sim.get_reg(0, 0)) == [int(v, 16) for v in cli["R0"]]
    assert list(sim.get_reg(0, 5)) == [int(v, 16) for v in cli["R5"]]
    assert list(sim.get_reg(0, 3))[:31] == [i + 5 for i in range(31)]
    assert list(sim.get_reg(0, 3))[31] == 0  # inactive lane
    assert list(sim.get_pred(0, 0)) == [i < 16 for i in range(31)] + [False]
    assert sim.get_ureg(0, 4) == 5
    assert sim.get_const(0, 0x10) == 100
    assert sim.get_active(0) == 0x7FFFFFFF


def test_sim_setters(tmp_path):
    isa = isa_of("gisa128")
    sim = isa.simulator(warps=2, regs=16)
    sim.set_reg(1, 3, [i * 2 for i in range(32)])
    sim.set_reg(1, 4, 7, lane=3)
    sim.set_reg(0, 4, -1)
    sim.set_pred(0, 2, True)
    sim.set_pred(1, 1, [i % 2 == 0 for i in range(32)])
    sim.set_ureg(0, 7, 0x1234)
    sim.set_upred(1, 0, True)
    sim.set_const(2, 0x40, 0xDEADBEEF)
    sim.set_pair(0, 8, 0x3FF0000000000000)
    assert list(sim.get_reg(1, 3)) == [i * 2 for i in range(32)]
    assert list(sim.get_reg(1, 4)) == [7 if i == 3 else 0 for i in range(32)]
    assert list(sim.get_reg(0, 4)) == [0xFFFFFFFF] * 32
    assert list(sim.get_pred(0, 2)) == [True] * 32
    assert list(sim.get_pred(1, 1))[:3] == [True, False, True]
    assert sim.get_ureg(0, 7) == 0x1234 and sim.get_ureg(1, 7) == 0
    assert sim.get_upred(1, 0) and not sim.get_upred(0, 0)
    assert sim.get_const(2, 0x40) == 0xDEADBEEF
    assert sim.get_pair(0, 8, lane=0) == 0x3FF0000000000000
    with pytest.raises(gisa.Error):
        sim.set_reg(0, 16, 1)  # beyond regs
    with pytest.raises(gisa.Error):
        sim.set_const(0, 3, 1)  # misaligned
    with pytest.raises(gisa.Error) as e:
        sim.read_state_json('{"R99": 1}')
    assert e.value.diagnostics and "R99" in e.value.diagnostics[0].message


def test_sim_fault(tmp_path):
    isa = isa_of("gisa128")
    sim = isa.simulator(regs=8)
    prog = "IADD R1, R2, 0x1\nIADD R9, R1, R1\nIADD R3, R1, 0x1\n"
    sim.load(prog)
    with pytest.raises(gisa.SimFault) as e:
        sim.run()
    f = e.value
    assert (f.pc, f.warp) == (1, 0)
    assert "IADD R9" in f.insn
    assert f.message
    assert list(sim.get_reg(0, 1)) == [1] * 32  # the state before the fault stays
    assert list(sim.get_reg(0, 3)) == [0] * 32
    rc, out, err = cli_run(tmp_path, prog, {}, regs=8)
    assert rc == 3
    assert f.message in err
    assert sim.state_json().strip() == out.strip()


def test_sim_invalid_word_faults():
    isa = isa_of("gisa128")
    sim = isa.simulator()
    sim.load([0])
    with pytest.raises(gisa.SimFault) as e:
        sim.run()
    assert e.value.pc == 0


def test_sim_fermi(tmp_path):
    isa = isa_of("fermi")
    sim = isa.simulator()
    prog = "FADD R0, R1, R2\n"
    sim.load(prog)
    sim.set_reg(0, 1, gisa.f32_bits(1.5))
    sim.set_reg(0, 2, gisa.f32_bits(2.25))
    sim.run()
    assert list(sim.get_reg(0, 0)) == [gisa.f32_bits(3.75)] * 32
    rc, out, err = cli_run(tmp_path, prog, {"R1": gisa.f32_bits(1.5), "R2": gisa.f32_bits(2.25)}, target="fermi")
    assert rc == 0, err
    assert sim.state_json().strip() == out.strip()


def test_trace():
    isa = isa_of("gisa128")
    sim = isa.simulator(threads=1)
    lines = []
    sim.set_trace(lines.append)
    sim.load("IADD R1, R2, 0x1\n")
    sim.run()
    assert lines == ["w0 0 exec 0xffffffff IADD R1, R2, 0x1", "w0   R1 = 0x00000001 lanes 0xffffffff"]


def test_refmodel_example():
    ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    sys.path.insert(0, ex)
    try:
        import refmodel
    finally:
        sys.path.remove(ex)
    isa = isa_of("gisa128")
    (w,) = isa.assemble("FFMA R0, R1, R2, R3")
    out = refmodel.expected(isa, w, {"R1": gisa.f32_bits(2.0), "R2": gisa.f32_bits(3.0), "R3": gisa.f32_bits(1.0)})
    assert out == {"R0": gisa.f32_bits(7.0)}
    (w,) = isa.assemble("ISETP.LT.AND P1, PT, R4, R5, PT")
    out = refmodel.expected(isa, w, {"R4": 1, "R5": 2})
    assert out == {"P1": True}


def _thread_work(isa, words):
    """Everything one thread does on a shared Isa; the result to compare."""
    out = []
    for w in words:
        out.append(isa.disassemble(w))
        if isa.is_valid(w):
            inst = isa.decode(w)
            out.append((inst.opcode, inst.mnemonic, sorted(inst.fields.items()),
                        [(o.kind, o.name, o.reg, o.value) for o in inst.operands],
                        [(m.name, m.value) for m in inst.modifiers], isa.encode(inst)))
    texts = [t for t in out if isinstance(t, str) and not t.startswith(".invalid")]
    out.append(isa.assemble("\n".join(texts)))
    try:
        isa.assemble("FADD R0, R1\nFAD R0, R1, R2\n", filename="bad.s")
    except gisa.Error as e:
        out.append([d.text for d in e.diagnostics])
    out.append([isa.doc(n) for n in isa.optypes[:20]])
    out.append([d.text for d in isa.lint()])
    if isa.word_bits == 128:
        sim = isa.simulator(warps=4, threads=2)
        sim.read_state_json(json.dumps({"R1": "laneid", "R2": "warpid", "R3": "0x3fc00000"}))
        sim.load("FADD.RM R0, R1, R3\nFFMA.RP R4, R3, R3, R1\nIADD R5, R1, R2\n")
        sim.run()
        out.append(sim.state_json())
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_threads_share_an_isa(target):
    """Four Python threads use one Isa at once (ctypes releases the GIL, so
    the library runs in parallel), each with its own Simulator: the results
    are those of one thread alone."""
    isa = isa_of(target)
    rng = random.Random(target)
    words = [rng.getrandbits(isa.word_bits) for _ in range(300)]
    words += [seed_of(target, op)[0].word(seed_of(target, op)[1]) for op in isa.opcodes[:60]]
    want = _thread_work(isa, words)
    got, errors = [None] * 4, []

    def run(i):
        try:
            got[i] = _thread_work(isa, words)
        except Exception as e:  # reported below, in the main thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(g == want for g in got)
