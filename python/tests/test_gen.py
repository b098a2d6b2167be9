"""The rest of the library from Python: the random program generator
(against `gisa gen`), coverage (record = attach = `gisa run --coverage`,
merge, JSON, report), engine choice, the commit hook, trace and state
value formats, shrinking, the simulator's footprint and diagnostics'
lint categories."""

import json
import os
import subprocess

import pytest

import gisa
from test_gisa import gisa_bin, isa_of

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OPTS = dict(include=["IADD", "SEL", "FFMA", "ISETP"], streams="none", guard_rate=0.5, regs=16)


def need_bin():
    b = gisa_bin()
    if b is None:
        pytest.skip("no gisa executable (set GISA_BIN)")
    return b


# ------------------------------------------------------------------ generator
def test_generate_is_legal_and_deterministic():
    isa = isa_of("gisa128")
    p = isa.generator(**OPTS).generate(seed=11, count=200)
    assert p.count == 200 and len(p.words) == 200 and p.regs == 16
    assert p.lines() == isa.disassemble(p.words)
    assert {isa.decode(w).optype for w in p.words} <= set(OPTS["include"])
    q = gisa.Generator(isa, **OPTS).generate(seed=11, count=200)
    assert (q.words, q.text, q.state) == (p.words, p.text, p.state)
    assert isa.generator(**OPTS).generate(seed=12, count=200).words != p.words
    sim = p.simulator(warps=2)
    sim.run()  # no fault, with its state


def test_generate_equals_the_cli(tmp_path):
    b = need_bin()
    isa = isa_of("gisa128")
    p = isa.generator(**OPTS).generate(seed=5, count=100)
    subprocess.run([b, "gen", "--seed", "5", "--count", "100", "--include", "IADD,SEL,FFMA,ISETP", "--streams",
                    "none", "--guard-rate", "0.5", "--regs", "16", "-o", str(tmp_path / "p.s"),
                    "--state-out", str(tmp_path / "s.json")], check=True)
    assert p.text == (tmp_path / "p.s").read_text()
    assert p.state == (tmp_path / "s.json").read_text()


def test_options_by_name():
    isa = isa_of("gisa128")
    g = isa.generator(streams="none", include="IADD,SEL")
    none = g.configure(guard_rate=0.0).generate(seed=3, count=100)
    assert all(isa.decode(w).guard in (None, (7, False)) for w in none.words)
    g.set("guard-rate", "100%")
    every = g.generate(seed=3, count=100)
    assert all(isa.decode(w).guard != (7, False) for w in every.words)
    g.set("weights", {"IADD": 1, "SEL": 0})
    assert {isa.decode(w).optype for w in g.generate(seed=3, count=50).words} == {"IADD"}
    assert "IALU" in g.names() and "add64" in g.names()


def test_refused_options_keep_the_old_value():
    isa = isa_of("gisa128")
    g = isa.generator(**OPTS)
    want = g.generate(seed=9, count=30).words
    with pytest.raises(gisa.Error) as e:
        g.set("guard_rate", 1.5)
    assert "guard-rate" in str(e.value) and e.value.diagnostics
    with pytest.raises(gisa.Error) as e:
        g.set("gaurd-rate", 0.5)
    assert "guard-rate" in str(e.value)  # did you mean
    with pytest.raises(gisa.Error):
        g.set("include", ["NOSUCHOP"])
    assert g.generate(seed=9, count=30).words == want
    with pytest.raises(gisa.Error):
        g.generate(seed=1, count=50000001)
    with pytest.raises(ValueError):
        g.generate(seed=-1)


def test_fermi_generates_too():
    isa = isa_of("fermi")
    p = isa.generator().generate(seed=1, count=100)
    assert p.lines() == isa.disassemble(p.words)
    p.simulator().run()


# ------------------------------------------------------------------ coverage
def test_coverage_record_attach_and_cli(tmp_path):
    isa = isa_of("gisa128")
    p = isa.generator(streams="none", regs=32).generate(seed=21, count=300)
    stepped, ran = isa.coverage(), isa.coverage()
    sim = p.simulator()
    executed = 0
    for c in sim.commits(0):
        stepped.record(sim, c)
        executed += c.exec != 0
    sim2 = p.simulator()
    ran.attach(sim2)
    sim2.run()
    assert stepped.json() == ran.json()
    s = stepped.summary()
    assert s.executed == executed and s.executed + s.skipped == 300
    assert 0 < s.opcodes[0] <= s.opcodes[1] == len(isa.opcodes)
    assert set(s.as_dict()) >= {"executed", "skipped", "fp_classes"}
    b = gisa_bin()
    if b:
        (tmp_path / "p.s").write_text(p.text)
        (tmp_path / "s.json").write_text(p.state)
        subprocess.run([b, "run", str(tmp_path / "p.s"), "--regs", str(p.regs), "--state", str(tmp_path / "s.json"),
                        "--coverage", str(tmp_path / "cov.json"), "-o", os.devnull], check=True)
        assert json.loads((tmp_path / "cov.json").read_text()) == json.loads(stepped.json())
    # merge and files
    stepped.merge(ran)
    assert stepped.summary().executed == 2 * executed
    again = isa.coverage()
    again.read_json(stepped.json(), name="cov.json")
    assert again.json() == stepped.json()
    assert "opcodes" in again.report()
    with pytest.raises(gisa.Error) as e:
        again.read_json('{"format": "something else"}', name="bad.json")
    assert e.value.diagnostics and e.value.diagnostics[0].file == "bad.json"
    assert again.json() == stepped.json()  # all or nothing
    # detaching: the hook off, nothing more counted
    sim2.set_commit_hook(None)
    sim2.run()
    assert ran.summary().executed == executed


# ------------------------------------------------------------------ engines
def test_engines():
    """An instruction described only by its document (examples/new-instruction)
    runs under doc and auto; native has no C code for it and faults."""
    add = os.path.join(SRC, "examples", "new-instruction", "iadd3.isa")
    isa = gisa.load(add=add)
    results = {}
    for engine in ("auto", "doc", "native"):
        sim = isa.simulator(regs=8, engine=engine)
        assert sim.engine == engine
        sim.load("IADD3 R0, R1, R2, R3\n")
        sim.set_reg(0, 1, 1)
        sim.set_reg(0, 2, 2)
        sim.set_reg(0, 3, 4)
        try:
            sim.run()
            results[engine] = sim.get_reg(0, 0, lane=0)
        except gisa.SimFault as e:
            results[engine] = e.message
    assert results["auto"] == results["doc"] == 7
    assert isinstance(results["native"], str) and "native" in results["native"].lower(), results
    with pytest.raises(ValueError):
        isa_of("gisa128").simulator(engine="fast")
    # native and doc agree on a generated program, and a clone keeps the engine
    isa = isa_of("gisa128")
    p = isa.generator(include=["FFMA", "FADD", "IADD"], streams="none").generate(seed=4, count=200)
    a, b = p.simulator(engine="native"), p.simulator(engine="doc")
    c = b.clone()
    assert c.engine == "doc"
    for s in (a, b, c):
        s.run()
    assert a.compare(b) is None and b.compare(c) is None


# ------------------------------------------------------------------ hooks, traces, states
def test_commit_hook_sees_what_step_gives():
    isa = isa_of("gisa128")
    p = isa.generator(**OPTS).generate(seed=8, count=60)
    stepped = [(c.pc, c.text, c.exec, [(e.rf, e.index, [int(v) for v in e.new]) for e in c.effects])
               for c in p.simulator().commits(0)]
    seen = []
    sim = p.simulator()
    sim.set_commit_hook(lambda c: seen.append((c.pc, c.text, c.exec,
                                               [(e.rf, e.index, [int(v) for v in e.new]) for e in c.effects])))
    sim.run()
    assert seen == stepped


def test_trace_formats():
    isa = isa_of("gisa128")
    sim = isa.simulator(regs=8, threads=1)
    sim.load("FADD R0, R1, R2\n")
    sim.set_reg_f32(0, 1, 1.5)
    sim.set_reg_f32(0, 2, 0.25)
    lines = []
    sim.set_trace(lines.append, json=True, values=["f32"])
    sim.run()
    recs = [json.loads(ln) for ln in lines]
    assert recs and "1.75" in lines[0]
    sim.set_trace(None)
    c = sim.clone()
    c.set_pc(0, 0)
    commit = c.step(0)
    assert commit.trace() == ["w0 0 exec 0xffffffff FADD R0, R1, R2", "w0   R0 = 0x3fe00000 lanes 0xffffffff"]
    assert any("1.75" in ln for ln in commit.trace(values=("f32",)))
    with pytest.raises(ValueError):
        commit.trace(values=("f128",))


def test_state_value_formats():
    isa = isa_of("gisa128")
    sim = isa.simulator(regs=4, threads=1)
    sim.set_reg_f32(0, 1, 2.5)
    sim.set_reg(0, 2, gisa.f32_bits(-0.125))
    f32 = json.loads(sim.state_json(values="f32"))
    assert f32["R1"] == 2.5 and f32["R2"] == -0.125
    assert json.loads(sim.state_json())["R1"] == "0x40200000"
    other = isa.simulator(regs=4, threads=1)
    other.read_state_json(sim.state_json(values="f32"))
    assert other.compare(sim) is None
    with pytest.raises(ValueError):
        sim.state_json(values="decimal")


def test_footprint():
    small = gisa.Simulator.footprint(32, 1, 100)
    assert 0 < small < gisa.Simulator.footprint(32, 64, 100)


# ------------------------------------------------------------------ shrink
def test_shrink():
    text = "".join("MOV R%d, 0x%x\n" % (i % 8, i) for i in range(40))
    calls = []

    def still_fails(t):
        calls.append(t)
        return "0x7\n" in t and "0x1d\n" in t

    small, n = gisa.shrink(text, still_fails)
    assert small == "MOV R7, 0x7\nMOV R5, 0x1d\n" and n == len(calls) > 0
    with pytest.raises(gisa.Error):
        gisa.shrink(text, lambda t: False)  # the text itself does not fail

    def broken(t):
        raise KeyError("from the test")

    with pytest.raises(KeyError):
        gisa.shrink(text, broken)


# ------------------------------------------------------------------ diagnostics
def test_lint_categories():
    cats = gisa.lint_categories()
    assert cats and len(set(cats)) == len(cats)
    warnings = [d for d in isa_of("gisa128").lint() if d.severity == "warning"]
    assert warnings and all(d.category in cats for d in warnings)
    assert all("[-W%s]" % d.category in d.text for d in warnings)
    assert all(d.context is None for d in warnings)
