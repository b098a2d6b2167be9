"""Callbacks that change their simulator, commit records that outlive
their program, simulators shared by threads or outliving a closed Isa, and
integers too wide for their C type (issue 31 items 2, 3, 5 and 9). Each of
these crashed the interpreter, printed garbage or silently used another
warp or lane; the rules that replace that (docs/python.md, "Threads,
callbacks and lifetimes"):

- a call that would change a Simulator from inside its own trace function
  or commit hook raises RuntimeError (which stops the run, and run()
  raises it); reading calls work there;
- a Simulator, Generator or Coverage is used by one thread at a time: a
  call while another thread's call runs raises RuntimeError;
- Isa.close() frees the Isa and everything made from it at once, which
  then raise gisa.Error; close() itself raises RuntimeError while any of
  them is running;
- Commit.trace() and Coverage.record() of a record made before the last
  load() raise gisa.Error; the record's text, instruction and effects are
  copies and stay;
- an integer outside its C type raises ValueError (TypeError for no
  integer at all).

The Hypothesis tests draw random sequences of all of that (including
load/set_trace/close from inside callbacks and two threads on one
simulator): nothing may crash, and only those exceptions come out."""

import random
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_gisa import SETTINGS

import gisa

DOCUMENTED = (gisa.Error, ValueError, TypeError, RuntimeError)
PROG_A = "IADD R1, R1, 0x1\nIADD R1, R1, 0x1\nIADD R1, R1, 0x1\n"
PROG_B = "MOV R2, 0x7\nFADD R3, R2, R2\n"


def fresh(warps=2, text=PROG_A):
    """A simulator of an Isa of its own (which a test may close)."""
    isa = gisa.load()
    sim = isa.simulator(warps=warps, regs=8, threads=1)
    sim.load(text)
    return isa, sim


def reraised(fn):
    """The exception fn raised (None when it returned)."""
    try:
        fn()
    except BaseException as e:  # noqa: B902 - the test looks at which
        return e
    return None


# ------------------------------------------------------------------ item 2: changing a simulator from its callbacks
@pytest.mark.parametrize("hook", ["set_trace", "set_commit_hook"])
@pytest.mark.parametrize("inner", ["off", "another", "load", "step", "run", "set_reg", "close"])
def test_changing_the_simulator_inside_its_callback_raises(hook, inner):
    isa, sim = fresh()
    calls = []
    actions = {
        "off": lambda: getattr(sim, hook)(None),
        "another": lambda: getattr(sim, hook)(lambda _: None),
        "load": lambda: sim.load(PROG_B),
        "step": lambda: sim.step(0),
        "run": sim.run,
        "set_reg": lambda: sim.set_reg(0, 1, 5),
        "close": lambda: isa.close(),
    }

    def cb(_):
        calls.append(1)
        actions[inner]()

    getattr(sim, hook)(cb)
    e = reraised(sim.run)
    assert isinstance(e, RuntimeError), repr(e)
    assert "callback" in str(e) or "in use" in str(e)
    assert len(calls) == 1  # the run stopped at the first call
    # nothing changed: the callback is still set, the program still loaded, the Isa open
    assert not getattr(isa, "closed", False) and sim.pc(0) == 1 and sim.get_reg(0, 1, 0) == 1
    getattr(sim, hook)(None)
    sim.run()
    assert [sim.get_reg(w, 1, 0) for w in range(2)] == [4, 3]


def test_reading_calls_work_inside_callbacks():
    isa, sim = fresh()
    seen = []
    cov = isa.coverage()

    def hook(c):
        seen.append((sim.get_reg(c.warp, 1, 0), sim.done(c.warp), c.trace()[0]))
        cov.record(sim, c)
        assert sim.state_json() and sim.compare(sim) is None and sim.clone().get_reg(c.warp, 1, 0) == seen[-1][0]
        sim.pc(c.warp)

    sim.set_commit_hook(hook)
    sim.run()
    assert [s[:2] for s in seen] == [(1, False), (2, False), (3, False)] * 2
    assert seen[0][2] == "w0 0 exec 0xffffffff IADD R1, R1, 0x1"
    assert cov.summary().executed == 6


# ------------------------------------------------------------------ item 3: commit records after load()
def test_commit_after_load_keeps_its_copies_and_refuses_to_trace():
    isa, sim = fresh(warps=1)
    c = sim.step(0)
    lines = c.trace()
    assert lines[0] == "w0 0 exec 0xffffffff IADD R1, R1, 0x1"
    sim.load(PROG_B)
    sim.step(0)  # the new program is decoded (maybe where the old one was)
    with pytest.raises(gisa.Error, match="loaded another program"):
        c.trace()
    with pytest.raises(gisa.Error, match="loaded another program"):
        isa.coverage().record(sim, c)
    # what the Commit shows is its own
    assert c.text == "IADD R1, R1, 0x1" and c.instruction.opcode.startswith("IADD")
    assert c.pc == 0 and [e.rf + str(e.index) for e in c.effects] == ["R1"]
    # a record of another simulator is refused by record(), not read
    other = sim.clone()
    with pytest.raises(gisa.Error, match="another simulator"):
        isa.coverage().record(other, sim.step(0))


# ------------------------------------------------------------------ item 5: a closed Isa, threads
def test_everything_of_a_closed_isa_raises():
    isa, sim = fresh()
    c = sim.step(0)
    gen, cov = isa.generator(), isa.coverage()
    inst = isa.decode(isa.assemble_one("MOV R1, 0x1"))
    isa.close()
    isa.close()  # again: nothing
    assert isa.closed
    for call in (sim.run, lambda: sim.get_reg(0, 1), lambda: sim.load(PROG_B), lambda: sim.step(0), sim.clone,
                 lambda: sim.set_trace(None), c.trace, lambda: gen.generate(1, 5), cov.summary, cov.json,
                 lambda: cov.record(sim, c), lambda: isa.assemble("MOV R1, 0x1"), lambda: isa.encode(inst),
                 lambda: isa.decode(0), isa.simulator, isa.generator, isa.coverage):
        e = reraised(call)
        assert isinstance(e, gisa.Error) and "closed" in str(e), repr(e)
    with gisa.load() as other:
        s2 = other.simulator(regs=4)
    with pytest.raises(gisa.Error, match="closed"):
        s2.pc(0)


def test_explicitly_finalised_isa():
    """isa.__del__() called by hand (as some object-pool code does) is a
    close(): the simulator raises instead of using the freed ISA."""
    isa, sim = fresh()
    isa.__del__()
    with pytest.raises(gisa.Error, match="closed"):
        sim.run()
    del sim, isa  # and the real finalisers free nothing twice


def test_a_second_thread_gets_runtime_error():
    """While one thread is in run() (held in its trace function), a call
    from another thread on the same simulator raises RuntimeError, and so
    does closing its Isa; after the run both work."""
    isa, sim = fresh()
    inside, release = threading.Event(), threading.Event()
    errors = []

    def cb(_):
        if not inside.is_set():
            inside.set()
            release.wait(30)

    sim.set_trace(cb)
    t = threading.Thread(target=lambda: errors.append(reraised(sim.run)))
    t.start()
    assert inside.wait(30)
    try:
        for call in (lambda: sim.get_reg(0, 1), lambda: sim.set_reg(0, 1, 1), lambda: sim.load(PROG_B),
                     lambda: sim.set_trace(None), sim.run, lambda: isa.close()):
            e = reraised(call)
            assert isinstance(e, RuntimeError) and "in use" in str(e), repr(e)
        assert isa.simulator(regs=4).pc(0) == 0  # the Isa itself and its other simulators go on
    finally:
        release.set()
        t.join(30)
    assert errors == [None]
    assert [sim.get_reg(w, 1, 0) for w in range(2)] == [3, 3]
    isa.close()


# ------------------------------------------------------------------ item 9: integers too wide for C
def test_integers_out_of_range():
    isa, sim = fresh()
    sim.set_reg(0, 1, 9)
    cases = [
        lambda: sim.set_reg(2**32, 1, 5), lambda: sim.set_reg(0, 2**32 + 1, 5), lambda: sim.set_reg(0, 1, 5, 2**32),
        lambda: sim.set_reg(0, 1, 5, -1), lambda: sim.set_reg(0, 1, 2**32), lambda: sim.set_reg(0, 1, -2**31 - 1),
        lambda: sim.get_reg(2**32, 1), lambda: sim.get_reg(0, 1, 2**32), lambda: sim.get_reg(-1, 1),
        lambda: sim.set_pred(2**32, 0, True), lambda: sim.get_pred(0, 2**32), lambda: sim.set_ureg(0, 2**32, 1),
        lambda: sim.get_upred(0, 2**32 + 1), lambda: sim.set_pair(0, 2, 2**64), lambda: sim.get_pair(0, 2, 2**32),
        lambda: sim.set_reg(0, 1, [2**40] * 32), lambda: sim.set_pair(0, 2, [2**64] * 32),
        lambda: sim.set_active(2**32, 1), lambda: sim.set_active(0, 2**32), lambda: sim.get_active(2**32),
        lambda: sim.set_const(2**32, 0, 1), lambda: sim.set_const(0, 2**32, 1), lambda: sim.get_const(0, 2**32),
        lambda: sim.set_pc(0, 2**64), lambda: sim.set_pc(2**32, 0), lambda: sim.pc(2**32), lambda: sim.done(2**32),
        lambda: sim.step(2**32), lambda: sim.set_threads(2**32), lambda: isa.simulator(warps=2**32 + 1),
        lambda: isa.simulator(regs=2**32 + 8), lambda: gisa.Simulator.footprint(8, 2**32 + 1, 1),
        lambda: isa.generator().generate(seed=2**64), lambda: isa.generator().generate(count=2**64 + 3),
        lambda: isa.encode(isa.decode(isa.assemble_one("MOV R1, 0x1")), form=2**32),
    ]
    for i, call in enumerate(cases):
        e = reraised(call)
        assert isinstance(e, ValueError) and "out of range" in str(e), (i, repr(e))
    # nothing was written to warp 0, lane 0 or R1 by the wrapped numbers
    assert sim.get_reg(0, 1, 0) == 9 and sim.get_reg(1, 1, 0) == 0
    assert sim.get_active(0) == 0xFFFFFFFF and sim.get_const(0, 0) == 0
    with pytest.raises(TypeError):
        sim.set_reg(0, 1.0, 5)
    # the edges still work: two's complement values, the largest lane
    sim.set_reg(0, 1, -1, 31)
    assert sim.get_reg(0, 1, 31) == 0xFFFFFFFF
    assert isa.simulator(warps=3, regs=4).warps == 3


# ------------------------------------------------------------------ property tests
_PROGS = [PROG_A, PROG_B, "FADD R0, R1, R2\n", "", "IADD R1, R1, 0x1\n" * 7]
_INTS = st.one_of(st.integers(-2, 4), st.integers(-2**70, 2**70), st.sampled_from([2**31, 2**32, 2**32 + 1, 2**64]))
_OPS = ["load", "run", "resume", "step", "trace", "record", "set_reg", "get_reg", "pc", "clone", "close",
        "finalise", "set_trace", "set_hook", "state"]
_INNER = ["none", "off", "another", "load", "step", "get_reg", "trace", "close", "record", "raise"]


class _Boom(Exception):
    pass


class _Drawn:
    """The choices of _do, drawn by Hypothesis."""

    alone = True  # the only thread using the simulator

    def __init__(self, data):
        self.draw = data.draw

    def prog(self):
        return self.draw(st.sampled_from(_PROGS))

    def int(self):
        return self.draw(_INTS)

    def lane(self):
        return self.draw(st.none() | _INTS)

    def flag(self):
        return self.draw(st.booleans())

    def one(self, items):
        return self.draw(st.sampled_from(items))


class _Seeded(_Drawn):
    """The same choices from a random.Random, for the threads (Hypothesis
    draws from the test's own thread only)."""

    alone = False

    def __init__(self, seed):
        r = random.Random(seed)
        self.draw = None
        self.prog = lambda: r.choice(_PROGS)
        self.int = lambda: r.choice([0, 1, 2, -1, 2**32, 2**31, 2**64, r.randrange(-2**70, 2**70)])
        self.lane = lambda: r.choice([None, self.int()])
        self.flag = lambda: r.random() < 0.5
        self.one = r.choice


def _fits(v, lo, bits):
    return lo <= v < 2**bits


def _do(sim, isa, cov, commits, op, pick):
    """One operation on the simulator; the documented exceptions (and the
    callbacks' own _Boom) are fine, anything else fails the test."""

    def inner_action(kind):
        def act(_arg):
            if kind == "off":
                sim.set_trace(None)
            elif kind == "another":
                sim.set_commit_hook(lambda c: None)
            elif kind == "load":
                sim.load(pick.prog())
            elif kind == "step":
                sim.step(0)
            elif kind == "get_reg":
                sim.get_reg(pick.int(), pick.int(), pick.lane())
            elif kind == "trace" and commits:
                pick.one(commits).trace()
            elif kind == "close":
                isa.close()
            elif kind == "record" and commits:
                cov.record(sim, pick.one(commits))
            elif kind == "raise":
                raise _Boom()
        return act

    try:
        if op == "load":
            sim.load(pick.prog())
        elif op in ("run", "resume"):
            getattr(sim, op)()
        elif op == "step":
            commits.append(sim.step(pick.int()))
        elif op == "trace" and commits:
            lines = pick.one(commits).trace(json=pick.flag())
            assert lines and all(isinstance(ln, str) for ln in lines)
        elif op == "record" and commits:
            cov.record(sim, pick.one(commits))
        elif op == "set_reg":
            warp, index, value, lane = pick.int(), pick.int(), pick.int(), pick.lane()
            wide = not (_fits(warp, 0, 32) and _fits(index, 0, 32) and _fits(value, -2**31, 33) and
                        (lane is None or _fits(lane, 0, 31)))
            sim.set_reg(warp, index, value, lane)
            assert not wide, "set_reg%r took an integer too wide for C" % ((warp, index, value, lane),)
        elif op == "get_reg":
            warp, index, lane = pick.int(), pick.int(), pick.lane()
            sim.get_reg(warp, index, lane)
            assert _fits(warp, 0, 32) and _fits(index, 0, 32) and (lane is None or _fits(lane, 0, 31)), \
                "get_reg%r took an integer too wide for C" % ((warp, index, lane),)
        elif op == "pc":
            sim.set_pc(pick.int(), pick.int())
        elif op == "clone":
            other = sim.clone()
            diff = other.compare(sim)
            assert diff is None or not pick.alone, diff  # another thread may change sim in between
        elif op == "close":
            isa.close()
        elif op == "finalise":
            isa.__del__()
        elif op in ("set_trace", "set_hook"):  # and a run, where they are called
            (sim.set_trace if op == "set_trace" else sim.set_commit_hook)(inner_action(pick.one(_INNER)))
            sim.run()
        elif op == "state":
            assert sim.state_json()
    except DOCUMENTED + (_Boom,) as e:
        assert str(e) or isinstance(e, _Boom)


@SETTINGS
@given(data=st.data())
def test_random_operations_with_reentrant_callbacks(data):
    """Random sequences of operations, callbacks that load, retrace, record,
    step or close from inside a run, integers of any size: never a crash,
    only documented exceptions; and once the Isa is closed, every call
    raises gisa.Error."""
    isa = gisa.load()
    sim = isa.simulator(warps=data.draw(st.integers(1, 2)), regs=8, threads=1)
    sim.load(PROG_A)
    cov = isa.coverage()
    commits = []
    pick = _Drawn(data)
    for op in data.draw(st.lists(st.sampled_from(_OPS), min_size=1, max_size=25)):
        _do(sim, isa, cov, commits, op, pick)
    if isa.closed:
        for call in (sim.run, lambda: sim.get_reg(0, 0), cov.summary):
            assert isinstance(reraised(call), gisa.Error)
    isa.close()


@SETTINGS
@given(seeds=st.lists(st.integers(0, 2**32), min_size=2, max_size=2), close=st.booleans())
def test_two_threads_hammering_one_simulator(seeds, close):
    """Two threads call random operations (callbacks that re-enter
    included) on one simulator, and may close its Isa: each call works or
    raises a documented exception (a busy simulator: RuntimeError), and
    nothing crashes."""
    isa = gisa.load()
    sim = isa.simulator(warps=2, regs=8, threads=1)
    sim.load(PROG_A * 20)
    cov = isa.coverage()
    ops = [o for o in _OPS if close or o not in ("close", "finalise")]
    failures = []

    def work(seed):
        try:
            pick, commits = _Seeded(seed), []
            for _ in range(150):
                _do(sim, isa, cov, commits, pick.one(ops), pick)
        except BaseException as e:  # noqa: B902 - reported below
            failures.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures, failures
    isa.close()
