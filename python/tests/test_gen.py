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


def test_active_masks_per_warp():
    isa = isa_of("gisa128")
    p = isa.generator(**OPTS, warps=4, active={"random": 1}).generate(seed=2, count=100)
    masks = [int(w["active"], 16) for w in json.loads(p.state)["warps"]]
    assert len(masks) == 4 and all(0 < m < 2**32 - 1 for m in masks) and len(set(masks)) > 1
    assert "--warps 4 --active 'full=0,random=1,single=0,empty=0'" in p.text.splitlines()[0]
    sim = p.simulator()  # four warps, from the state
    sim.run()
    assert [sim.get_active(w) for w in range(4)] == masks
    one = isa.generator(**OPTS, active="single=1").generate(seed=2, count=10)
    m = int(json.loads(one.state)["active"], 16)
    assert m and m & (m - 1) == 0
    with pytest.raises(gisa.Error, match="did you mean full"):
        isa.generator(active="ful=1")


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


def test_coverage_bins_html_and_cover():
    isa = isa_of("gisa128")
    cov = isa.coverage()
    cov.load_bins("bin carry: IADD pu=true\nbin any_iadd: IADD\n", name="my.bins")
    with pytest.raises(gisa.Error) as e:
        cov.load_bins("bin x: FADX\n", name="bad.bins")
    d = e.value.diagnostics[0]
    assert (d.file, d.line, d.col) == ("bad.bins", 1, 8) and "FADD" in d.message
    p = isa.generator().generate(seed=3, count=200)
    sim = p.simulator()
    cov.attach(sim)
    sim.run()
    data = json.loads(cov.json())
    assert data["version"] == 2 and data["user_bins"]["any_iadd"]["count"] > 0
    assert data["summary"]["raw_distances"]["hit"] > 0
    assert cov.summary().user_bins[1] == 2
    page = cov.report_html()
    assert page.startswith("<!DOCTYPE html>") and 'id="holes"' in page
    # directed generation: the holes become the options in the header
    g = isa.generator()
    g.set("cover", cov.json())
    header = g.generate(seed=4, count=20).text.splitlines()[0]
    assert "--weights '" in header and "--int-values '" in header


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


def test_a_raising_callback_stops_the_run():
    """A trace function or commit hook that raises stops the run after the
    instruction it saw (gisa_trace_fn/gisa_commit_fn return a status), and
    run() raises its exception; resume() goes on from there."""
    isa = isa_of("gisa128")
    text = "IADD R1, R1, 0x1\nIADD R1, R1, 0x1\nIADD R1, R1, 0x1\n"

    class Stop(Exception):
        pass

    def stop(_):
        seen.append(_)
        raise Stop("from the callback")

    for hook in ("set_trace", "set_commit_hook"):
        sim = isa.simulator(warps=2, regs=4)
        sim.load(text)
        seen = []
        getattr(sim, hook)(stop)
        with pytest.raises(Stop):
            sim.run()
        assert len(seen) == 1, hook  # the run stopped at the first call
        assert (sim.pc(0), sim.pc(1), sim.get_reg(0, 1, 0), sim.get_reg(1, 1, 0)) == (1, 0, 1, 0), hook
        with pytest.raises(Stop):
            sim.resume()  # still set: stops again, one instruction on
        assert (sim.pc(0), sim.get_reg(0, 1, 0)) == (2, 2), hook
        getattr(sim, hook)(None)
        sim.resume()
        assert [sim.get_reg(w, 1, 0) for w in range(2)] == [3, 3] and sim.done(0) and sim.done(1), hook
        # and a later run is not stopped by the old exception
        lines = []
        getattr(sim, hook)(lines.append)
        sim.run()
        assert len(lines) >= 6 and sim.get_reg(0, 1, 0) == 6, hook


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


def test_state_is_parsed_then_applied():
    """read_state_json checks the text (gisa_state_parse), then applies it
    to the simulator (gisa_sim_state_apply): an error of either step raises
    gisa.Error with a diagnostic and changes nothing."""
    isa = isa_of("gisa128")
    sim = isa.simulator(warps=2, regs=4, threads=1)
    sim.read_state_json('{"warps": [{"R1": "0x5"}, {"R1": "0x6", "active": "0xf"}], "c[0][0x4]": "0x7"}')
    assert (sim.get_reg(0, 1, 31), sim.get_reg(1, 1, 0), sim.get_active(0), sim.get_active(1)) == (5, 6, 2**32 - 1, 15)
    assert sim.get_const(0, 4) == 7
    before = sim.state_json()
    bad = [
        ('{"R1": "0x5",', "parse"),                       # not JSON
        ('{"R1": "0x5", "Q9": 1}', "parse"),              # an unknown key
        ('{"R7": "0x5"}', "apply"),                       # beyond regs=4
        ('{"warps": [{"R1": "0x5"}]}', "apply"),          # one warp, the simulator has two
        ('{"warps": [{"R1": 1}, {"R1": 2}, {"R1": 3}]}', "apply"),
    ]
    for text, step in bad:
        with pytest.raises(gisa.Error) as e:
            sim.read_state_json(text, name="s.json")
        assert e.value.status == 1 and e.value.diagnostics, (text, step)
        assert all(d.file == "s.json" for d in e.value.diagnostics if d.severity == "error"), text
        assert sim.state_json() == before, "a refused state (%s) changed the simulator" % step
    # the same keys apply to every warp of any simulator
    one, four = isa.simulator(warps=1, regs=4), isa.simulator(warps=4, regs=4)
    for s in (one, four):
        s.read_state_json('{"R2": "0x9"}')
        assert all(s.get_reg(w, 2, 0) == 9 for w in range(s.warps))


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

    tried = []

    def broken(t):
        tried.append(t)
        raise KeyError("from the test")

    with pytest.raises(KeyError):
        gisa.shrink(text, broken)
    assert tried == [text]  # the first exception stopped the search


# ------------------------------------------------------------------ diagnostics
def test_lint_categories():
    cats = gisa.lint_categories()
    assert cats and len(set(cats)) == len(cats)
    # the shipped errata are notes that keep their kind (the rulings acknowledge them)
    findings = [d for d in isa_of("gisa128").lint() if d.category]
    assert findings and all(d.category in cats for d in findings)
    assert all(d.severity == "note" for d in findings)
    assert all("[-W%s]" % d.category in d.text for d in findings)
    assert all(d.context is None for d in findings)
