"""The simulator's step API from Python: stepping every warp gives the
state and the trace gisa_sim_run gives; each Commit's effects agree with the
registers read before and after the step; checkpoints and compare."""

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gisa

SETTINGS = settings(max_examples=int(os.environ.get("GISA_PY_EXAMPLES", "12")), deadline=None,
                    database=None, suppress_health_check=list(HealthCheck))

ISA = gisa.load()
OPS = ["IADD R%d, P%d, R%d, -R%d", "LOP3.POR P%d, R%d, R%d, R%d, R%d, 0x96, !PT",
       "ISETP.LT.AND P%d, PT, R%d, R%d, PT", "SEL R%d, R%d, R%d, P%d", "FFMA R%d, R%d, R%d, R%d",
       "@P%d MOV R%d, 0x%x", "R2UR UR%d, R%d", "DADD R[%d:%d], R[%d:%d], 1.5"]


def program(rnd, n):
    lines = []
    for _ in range(n):
        op = rnd.choice(OPS)
        if op.startswith("DADD"):
            d, a = 2 * rnd.randrange(4), 2 * rnd.randrange(4)
            lines.append(op % (d, d + 1, a, a + 1))
        elif op.startswith("@P"):
            lines.append(op % (rnd.randrange(7), rnd.randrange(8), rnd.randrange(1 << 32)))
        else:
            k = op.count("%d")
            lines.append(op % tuple(rnd.randrange(7) for _ in range(k)))
    return "\n".join(lines) + "\n"


def fresh(text, seed, warps=2):
    rnd = random.Random(seed)
    sim = ISA.simulator(warps=warps, regs=8, threads=1)
    sim.load(text)
    for w in range(warps):
        for r in range(8):
            sim.set_reg(w, r, [rnd.randrange(1 << 32) for _ in range(32)])
        for p in range(7):
            sim.set_pred(w, p, [rnd.randrange(2) for _ in range(32)])
        sim.set_active(w, rnd.choice([0xFFFFFFFF, rnd.randrange(1, 1 << 32)]))
    return sim


def registers(sim, w):
    return ([list(sim.get_reg(w, r)) for r in range(8)], [list(sim.get_pred(w, p)) for p in range(7)],
            [sim.get_ureg(w, u) for u in range(63)])


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(1, 30))
def test_step_equals_run(seed, n):
    text = program(random.Random(seed), n)
    ran, stepped = fresh(text, seed), fresh(text, seed)
    assert ran.compare(stepped) is None
    run_lines, step_lines = [], []
    ran.set_trace(run_lines.append)
    ran.run()
    for w in range(2):
        for c in stepped.commits(w):
            step_lines.extend(c.trace())
    assert stepped.compare(ran) is None
    assert step_lines == run_lines


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_effects_match_the_state(seed):
    text = program(random.Random(seed), 20)
    sim = fresh(text, seed, warps=1)
    for pc in range(20):
        before = registers(sim, 0)
        c = sim.step(0)
        after = registers(sim, 0)
        assert c.pc == pc and c.warp == 0 and c.instruction is not None and c.text == str(c.instruction)
        files = {"R": 0, "P": 1, "UR": 2}
        changed = set()
        for e in c.effects:
            assert e.mask & ~c.exec == 0 or e.rf == "UR"
            if e.rf in files:
                f = files[e.rf]
                for ln in (e.lanes if e.rf != "UR" else [0]):
                    new = after[f][e.index][ln] if e.rf != "UR" else after[f][e.index]
                    assert e.new[ln] == new
                    changed.add((e.rf, e.index, ln))
        # every register that changed is in the commit
        for r in range(8):
            for ln in range(32):
                if before[0][r][ln] != after[0][r][ln]:
                    assert ("R", r, ln) in changed


def test_checkpoint_and_compare():
    sim = ISA.simulator(warps=1, regs=8, threads=1)
    sim.load("IADD R1, R1, 0x1\nIADD R1, R1, 0x1\n")
    saved = sim.clone()
    sim.step(0)
    assert sim.pc(0) == 1 and saved.pc(0) == 0
    assert sim.compare(saved).startswith("warp 0 R1 lane 0: 0x00000001 != 0x00000000")
    saved.step(0)
    assert sim.compare(saved) is None
    sim.resume()
    assert sim.done(0) and list(sim.get_reg(0, 1)) == [2] * 32
    sim.set_pc(0, 0)
    c = sim.step(0)
    assert list(c.effects[0].old) == [2] * 32 and list(c.effects[0].new) == [3] * 32
    assert c.trace() == ["w0 0 exec 0xffffffff IADD R1, R1, 0x1", "w0   R1 = 0x00000003 lanes 0xffffffff"]


def test_step_faults_and_done():
    sim = ISA.simulator(warps=1, regs=8, threads=1)
    sim.load("MOV R1, 0x1\nIADD R9, R1, R1\n")  # R9 is beyond --regs 8
    sim.step(0)
    try:
        sim.step(0)
        raise AssertionError("no fault")
    except gisa.SimFault as f:
        assert f.pc == 1 and "beyond" in str(f)
    assert sim.done(0) and sim.pc(0) == 1
    try:
        sim.step(0)
        raise AssertionError("stepped a halted warp")
    except gisa.Error:
        pass
