"""Per-optype engines from Python: set_engine(engine, optypes) runs those
optypes under that engine and the rest as before; each Commit says which
engine ran it; the results equal auto's; an unknown optype is a KeyError.
Also gisa.load(max_memory=)."""

import pytest

import gisa

ISA = gisa.load()
TEXT = "FFMA R0, R1, R2, R3\nIMAD R4, R1, R2, R3\nFADD R5, R1, R2\n"


def run_steps(sim):
    return [(c.text.split()[0], c.engine) for c in sim.commits(0)]


def fresh():
    sim = ISA.simulator(warps=1, regs=8, threads=1)
    sim.load(TEXT)
    for r in range(1, 4):
        for lane in range(32):
            sim.set_reg(0, r, (0x3F800000 + 977 * lane * r) & 0xFFFFFFFF, lane=lane)
    return sim


def test_listed_optypes_run_the_pseudo_code():
    sim = fresh()
    sim.set_engine("doc", optypes=["FFMA", "IMAD"])
    assert run_steps(sim) == [("FFMA", "doc"), ("IMAD", "doc"), ("FADD", "native")]
    auto = fresh()
    assert run_steps(auto) == [("FFMA", "native"), ("IMAD", "native"), ("FADD", "native")]
    for r in (0, 4, 5):
        assert list(sim.get_reg(0, r)) == list(auto.get_reg(0, r))


def test_unknown_optype():
    sim = fresh()
    with pytest.raises(KeyError):
        sim.set_engine("doc", optypes=["FFMX"])


def test_load_memory_limit():
    """gisa.load(max_memory=) bounds the load (gisa_load_options.max_memory)"""
    with pytest.raises(gisa.Error) as e:
        gisa.load(max_memory=1 << 20)
    assert "more memory than the limit" in str(e.value)
    assert len(gisa.load(max_memory=64 << 20).opcodes) > 100
    with pytest.raises(ValueError):
        gisa.load(max_memory=-1)
