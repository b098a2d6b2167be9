"""Lane values: numpy arrays when numpy can be imported (uint32 registers,
bool predicates, uint64 pairs, float32 views), plain lists otherwise.
Both paths run: this file as it is (with numpy when it is installed), and
again in a subprocess whose imports of numpy fail (test_without_numpy).
GISA_EXPECT_NUMPY=1 or 0 says which of the two a run must be on, so that a
run meant to use numpy cannot fall back to lists unseen (and the other way)."""

import os
import re
import subprocess
import sys

import pytest

import gisa

try:
    import numpy as np
except ImportError:
    np = None

ISA = gisa.load()


def test_the_expected_path():
    want = os.environ.get("GISA_EXPECT_NUMPY")
    if want is None:
        pytest.skip("GISA_EXPECT_NUMPY not set (tests/cli/python.sh sets it)")
    assert (np is not None) == (want == "1"), "numpy importable: %s, GISA_EXPECT_NUMPY=%s" % (np is not None, want)


def lanes_type(v, dtype):
    if np is not None:
        assert isinstance(v, np.ndarray) and v.dtype == dtype and v.shape == (32,), (type(v), getattr(v, "dtype", None))
    else:
        assert isinstance(v, list) and len(v) == 32


def sim_with(text, **regs):
    sim = ISA.simulator(warps=1, regs=16, threads=1)
    for r, v in regs.items():
        sim.set_reg(0, int(r[1:]), v)
    sim.load(text)
    return sim


def test_register_lanes():
    sim = sim_with("IADD R2, R0, R1\nISETP.LT.AND P1, PT, R0, R1, PT\nMOV.64 R[4:5], R[0:1]\n",
                   R0=list(range(32)), R1=[5] * 32)
    sim.run()
    r2 = sim.get_reg(0, 2)
    lanes_type(r2, "uint32")
    assert [int(v) for v in r2] == [i + 5 for i in range(32)]
    p1 = sim.get_pred(0, 1)
    lanes_type(p1, "bool")
    assert [bool(v) for v in p1] == [i < 5 for i in range(32)]
    pair = sim.get_pair(0, 4)
    lanes_type(pair, "uint64")
    assert [int(v) for v in pair] == [5 << 32 | i for i in range(32)]
    assert isinstance(sim.get_reg(0, 2, lane=3), int) and sim.get_reg(0, 2, lane=3) == 8


def test_effects_are_lanes():
    sim = sim_with("IADD R2, R0, 0x1\n", R0=list(range(32)))
    c = sim.step(0)
    (e,) = c.effects
    lanes_type(e.old, "uint32")
    lanes_type(e.new, "uint32")
    assert [int(v) for v in e.new] == [i + 1 for i in range(32)] and e.lanes == list(range(32))


def test_float32_views():
    xs = [1.5 * i - 7.25 for i in range(32)]
    sim = sim_with("FADD R2, R0, R1\n")
    sim.set_reg_f32(0, 0, xs)
    sim.set_reg_f32(0, 1, 0.5)
    sim.run()
    got = sim.get_reg_f32(0, 2)
    assert [float(v) for v in got] == [x + 0.5 for x in xs]
    assert sim.get_reg_f32(0, 2, lane=1) == xs[1] + 0.5
    bits = sim.get_reg(0, 2)
    view = gisa.lanes_f32(bits)
    assert [float(v) for v in view] == [x + 0.5 for x in xs]
    assert [int(v) for v in gisa.f32_lanes(xs)] == [gisa.f32_bits(x) for x in xs]
    if np is not None:
        assert view.dtype == np.float32
        view[0] = 2.0  # a view: the bits change with it
        assert int(bits[0]) == gisa.f32_bits(2.0)
    else:
        assert isinstance(view, list)


def test_set_from_arrays():
    if np is None:
        pytest.skip("numpy arrays need numpy (the list path is the rest of this file)")
    sim = sim_with("FADD R2, R0, R1\nIADD R3, R4, R5\n")
    sim.set_reg(0, 0, np.arange(32, dtype=np.float32))   # float32: its bits
    sim.set_reg(0, 1, np.full(32, 0.25, dtype=np.float32))
    sim.set_reg(0, 4, np.arange(32, dtype=np.int64) - 16)  # negative: two's complement
    sim.set_reg(0, 5, np.ones(32, dtype=np.uint32))
    sim.run()
    assert sim.get_reg_f32(0, 2).tolist() == [i + 0.25 for i in range(32)]
    assert sim.get_reg(0, 3).tolist() == [(i - 15) & 0xFFFFFFFF for i in range(32)]
    sim.set_pair(0, 6, np.full(32, 1.5, dtype=np.float64))
    assert sim.get_pair(0, 6, lane=9) == gisa.f64_bits(1.5)
    with pytest.raises(TypeError):
        sim.set_reg(0, 0, np.zeros(32, dtype=np.float64))  # 64-bit floats in a 32-bit register
    with pytest.raises(ValueError):
        sim.set_reg(0, 0, np.zeros(31, dtype=np.uint32))


def test_lists_are_taken_everywhere():
    sim = sim_with("IADD R2, R0, R1\n")
    sim.set_reg(0, 0, [-1] * 32)
    sim.set_reg(0, 1, tuple(range(32)))
    sim.run()
    assert [int(v) for v in sim.get_reg(0, 2)] == [(i - 1) & 0xFFFFFFFF for i in range(32)]
    with pytest.raises(ValueError):
        sim.set_reg(0, 0, [1, 2, 3])


def test_without_numpy(tmp_path):
    """This file, the stepping tests and the lockstep example again, in
    Pythons where `import numpy` fails (a stub package first on PYTHONPATH,
    so that subprocesses inherit it): every lane value is a list, and
    everything else works the same (GISA_EXPECT_NUMPY=0 makes the first
    test check that numpy is really hidden)."""
    hide = tmp_path / "hide" / "numpy"
    hide.mkdir(parents=True)
    (hide / "__init__.py").write_text('raise ImportError("numpy hidden by test_values.py")\n')
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, GISA_EXPECT_NUMPY="0", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(tmp_path / "hide")] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--rootdir",
                        str(tmp_path), "-k", "not test_without_numpy", os.path.abspath(__file__),
                        os.path.join(here, "test_step.py"), os.path.join(here, "test_lockstep.py")],
                       capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    # only test_set_from_arrays needs numpy
    assert re.search(r"\b\d+ passed, 1 skipped\b", r.stdout) and "numpy arrays need numpy" in r.stdout, r.stdout
