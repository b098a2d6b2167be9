"""Robustness of every entry point of the gisa package (issue 21 item 4):
arbitrary bytes, strings, numbers and mutations of valid inputs must give a
result or one of the documented exceptions -- gisa.Error (SimFault is one),
ValueError for a word or lane list out of range -- never a crash of the
interpreter (which would end this pytest process and fail the ctest test).

Besides the exception type, each test checks that a refusal says something
(a non-empty message) and that the object it was called on still works."""

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_gisa import SETTINGS, TARGETS, isa_of

import gisa

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DOCUMENTED = (gisa.Error, ValueError)

# text that reaches past the first token: fragments of the assembly and
# state syntaxes mixed with arbitrary characters
_TOKENS = ["R0", "R1", "R255", "RZ", "P0", "PT", "!P1", "UR3", "URZ", "UP0", "@P0", "@!PT", "c[0x0][0x4]",
           "c[", "]", "[", "0x", "0xffffffff", "-", "|", "~", "!", ",", ";", ".", "FADD", "IADD", "MOV",
           "LOP3", "FFMA", "HFMA2", "IMAD.WIDE", ".FTZ", ".RN", ".U32", ".64", "//", "/*", "*/", "\n",
           ".include", ".word", "\"", "\\", "{", "}", ":", "1e308", "nan", "-inf", "\x00", "\u00e9"]
_text = st.one_of(st.text(max_size=200),
                  st.lists(st.one_of(st.sampled_from(_TOKENS), st.text(max_size=4)), max_size=40)
                  .map(" ".join))
_bytes = st.one_of(st.binary(max_size=300), _text.map(lambda s: s.encode("utf-8", "surrogatepass")))


def _refused(e):
    assert isinstance(e, DOCUMENTED), repr(e)
    assert str(e), "an exception without a message"


def _mutate(data, text):
    """`text` with a slice replaced by random text drawn from `data`."""
    if not text:
        return data.draw(_text)
    i = data.draw(st.integers(0, len(text)))
    j = data.draw(st.integers(i, min(len(text), i + 40)))
    return text[:i] + data.draw(_text) + text[j:]


def _word(data, isa):
    bits = isa.word_bits
    return data.draw(st.one_of(st.integers(0, 2**bits - 1), st.sampled_from([0, 2**bits - 1]),
                               st.integers(-2**130, 2**130)))


def fuzz_each_target(test):
    """test(target, data): Hypothesis draws, once per target."""
    return pytest.mark.parametrize("target", TARGETS)(SETTINGS(given(data=st.data())(test)))


def _call(fn, *a, **k):
    """fn's result, or None after checking that it refused properly."""
    try:
        return fn(*a, **k)
    except DOCUMENTED as e:
        _refused(e)
        return None


# ------------------------------------------------------------------ loading
@SETTINGS
@given(data=st.data())
def test_load_sources_fuzz(data):
    """Arbitrary files, and the real ISA files with one of them damaged."""
    if data.draw(st.booleans()):
        files = data.draw(st.lists(st.tuples(_text, _text), max_size=4))
    else:
        target = data.draw(st.sampled_from(TARGETS))
        d = os.path.join(SRC, "isa", target)
        files = {n: open(os.path.join(d, n), encoding="utf-8").read() for n in sorted(os.listdir(d))}
        name = data.draw(st.sampled_from(sorted(files)))
        files[name] = _mutate(data, files[name])
    isa = _call(gisa.load, sources=files)
    if isa is not None:
        assert isa.opcodes is not None


@SETTINGS
@given(target=_text, paths=st.none() | st.lists(_text, max_size=2))
def test_load_names_fuzz(target, paths):
    _call(gisa.load, target=target, paths=paths)


# ------------------------------------------------------------------ assembler
@fuzz_each_target
def test_assemble_fuzz(target, data):
    isa = isa_of(target)
    if data.draw(st.booleans()):
        text = data.draw(_text)
    else:  # a valid line damaged
        text = _mutate(data, isa.disassemble(data.draw(st.sampled_from(_valid_words(target)))))
    words = _call(isa.assemble, text, filename=data.draw(_text))
    if words is not None:
        assert all(0 <= w < 2**isa.word_bits for w in words)
    w = _call(isa.assemble_one, text)
    if w is not None:
        assert 0 <= w < 2**isa.word_bits
    _call(isa.assemble, data.draw(_bytes))


# ------------------------------------------------------------------ words
@fuzz_each_target
def test_words_fuzz(target, data):
    isa = isa_of(target)
    w = _word(data, isa)
    text = _call(isa.disassemble, w)
    if text is not None:
        assert isinstance(text, str) and text
    _call(isa.decode, w)
    _call(isa.is_valid, w)
    words = data.draw(st.lists(st.integers(-2, 2**isa.word_bits + 1), max_size=8))
    fmt = data.draw(st.sampled_from(["bin", "hex", "c"]) | _text)
    _call(isa.serialize, words, fmt)
    got = _call(isa.parse_words, data.draw(_bytes), hex=data.draw(st.booleans()))
    if got is not None:
        assert all(0 <= x < 2**isa.word_bits for x in got)


# ------------------------------------------------------------------ encode/print
_VALID = {}


def _valid_words(target):
    """One valid word per opcode (the disassembly of each, re-assembled)."""
    if target not in _VALID:
        from test_gisa import seed_of
        isa = isa_of(target)
        _VALID[target] = [seed_of(target, op)[0].word(seed_of(target, op)[1]) for op in isa.opcodes]
    return _VALID[target]


@fuzz_each_target
def test_encode_print_fuzz(target, data):
    isa = isa_of(target)
    inst = isa.decode(data.draw(st.sampled_from(_valid_words(target))))
    names = list(inst.fields)
    value = st.one_of(st.integers(0, 2**64 - 1), st.integers(-2**70, 2**70), st.sampled_from([0, 1, 2**64 - 1]))
    fields = data.draw(st.dictionaries(st.sampled_from(names) | _text, value, max_size=4) if names else
                       st.dictionaries(_text, value, max_size=2))
    opcode = data.draw(st.none() | st.sampled_from(isa.opcodes) | _text | st.integers(-5, len(isa.opcodes) + 5))
    form = data.draw(st.none() | st.integers(-2**31, 2**31 - 1))
    w = _call(isa.encode, inst, fields=fields, opcode=opcode, form=form)
    if w is not None:
        assert 0 <= w < 2**isa.word_bits
    text = _call(isa.print, inst, fields=fields, opcode=opcode, form=form)
    if text is not None:
        assert isinstance(text, str)
    # the instruction is unchanged by what was tried
    assert isa.encode(inst) == isa.assemble_one(isa.print(inst))


# ------------------------------------------------------------------ simulator
@fuzz_each_target
def test_state_fuzz(target, data):
    isa = isa_of(target)
    sim = isa.simulator(warps=data.draw(st.integers(1, 3)), regs=data.draw(st.integers(1, isa.max_regs)))
    good = sim.state_json()
    text = data.draw(_text) if data.draw(st.booleans()) else _mutate(data, good)
    before = sim.state_json()
    try:
        sim.read_state_json(text, name=data.draw(_text))
    except DOCUMENTED as e:
        _refused(e)
        assert sim.state_json() == before, "a refused state changed the simulator"
    sim.state_json()
    _call(sim.read_state_json, data.draw(_bytes))


@fuzz_each_target
def test_registers_fuzz(target, data):
    """Reads and writes of every register file at any index, lane and warp."""
    isa = isa_of(target)
    sim = isa.simulator(warps=2, regs=8)
    idx, lane = st.integers(-3, 300), st.none() | st.integers(-3, 40)
    for _ in range(data.draw(st.integers(1, 6))):
        warp, i = data.draw(st.integers(-1, 3)), data.draw(idx)
        v = data.draw(st.integers(-2**40, 2**40) | st.lists(st.integers(0, 2**32 - 1), max_size=33))
        kind = data.draw(st.sampled_from(["reg", "pair", "pred", "ureg", "upred", "const", "active", "pc"]))
        if kind == "const":
            _call(sim.set_const, data.draw(st.integers(-1, 40)), data.draw(st.integers(-4, 2**17)), 7)
            _call(sim.get_const, data.draw(st.integers(-1, 40)), data.draw(st.integers(-4, 2**17)))
        elif kind == "active":
            # a negative warp reaches the library as a huge unsigned one
            _call(sim.set_active, warp, data.draw(st.integers(0, 2**32 - 1)))
            _call(sim.get_active, warp)
        elif kind == "pc":
            _call(sim.set_pc, warp, data.draw(st.integers(0, 2**64 - 1)))
            _call(sim.pc, warp)
            _call(sim.done, warp)
        elif kind in ("ureg", "upred"):
            if isinstance(v, list):
                v = len(v)
            _call(getattr(sim, "set_" + kind), warp, i, v)
            _call(getattr(sim, "get_" + kind), warp, i)
        else:
            ln = data.draw(lane)
            _call(getattr(sim, "set_" + kind), warp, i, v, ln if not isinstance(v, list) else None)
            _call(getattr(sim, "get_" + kind), warp, i, ln)
    assert sim.state_json()


@fuzz_each_target
def test_run_step_fuzz(target, data):
    """Random words, valid ones among them, loaded and run, or stepped."""
    isa = isa_of(target)
    valid = _valid_words(target)
    prog = data.draw(st.lists(st.integers(0, 2**isa.word_bits - 1) | st.sampled_from(valid), max_size=12))
    sim = isa.simulator(warps=data.draw(st.integers(1, 2)), regs=data.draw(st.integers(1, isa.max_regs)))
    for r in range(min(sim.regs, 4)):
        sim.set_reg(0, r, data.draw(st.integers(0, 2**32 - 1)))
    try:
        sim.load(prog)
    except DOCUMENTED as e:
        _refused(e)
        return
    if data.draw(st.booleans()):
        _call(sim.run)
        _call(sim.resume)
    else:
        for _ in range(len(prog) + 2):
            _call(sim.step, data.draw(st.integers(0, sim.warps)))
    assert sim.state_json()
    other = sim.clone()
    assert sim.compare(other) is None


# ------------------------------------------------------------------ generator and coverage
_GEN_OPTIONS = ["regs", "uregs", "cbanks", "cwords", "dep-rate", "guard-rate", "ureg-rate", "cbank-rate", "imm-rate",
                "stream-rate", "fp-rate", "uniform-rate", "ctl-rate", "weights", "include", "exclude", "streams", "warps", "active"]


@fuzz_each_target
def test_generator_options_fuzz(target, data):
    """Arbitrary option names and values: refused, or taken; either way a
    program generated afterwards is legal (it disassembles to its lines and
    runs without a fault)."""
    isa = isa_of(target)
    gen = isa.generator()
    for _ in range(data.draw(st.integers(1, 4))):
        name = data.draw(st.one_of(st.sampled_from(_GEN_OPTIONS), _text))
        value = data.draw(st.one_of(_text, st.integers(-5, 300),
                                    # rates; not st.floats, which refuses to run once test_fpenv.py's
                                    # -ffast-math helper has set flush-to-zero in this process
                                    st.integers(-100, 200).map(lambda n: n / 100),
                                    st.lists(st.sampled_from(isa.optypes + ["IALU", "FALU", "x"]), max_size=3)))
        try:
            gen.set(name, value)
        except (gisa.Error, ValueError, TypeError) as e:
            assert str(e)
    p = _call(gen.generate, seed=data.draw(st.integers(0, 2**64 - 1)), count=data.draw(st.integers(0, 60)))
    if p is not None:
        assert p.lines() == isa.disassemble(p.words)
        p.simulator().run()


@fuzz_each_target
def test_coverage_json_fuzz(target, data):
    """Arbitrary text, and a real coverage file with a slice replaced, to
    Coverage.read_json: all or nothing."""
    isa = isa_of(target)
    real = isa.coverage()
    sim = isa.generator().generate(seed=data.draw(st.integers(1, 1000)), count=30).simulator()
    real.attach(sim)
    sim.run()
    cov = isa.coverage()
    before = cov.json()
    text = data.draw(st.one_of(_text, st.just(real.json()).map(lambda t: _mutate(data, t))))
    try:
        cov.read_json(text, name="fuzz.json")
    except DOCUMENTED as e:
        _refused(e)
        assert cov.json() == before
    else:
        assert cov.summary().executed >= 0 and cov.report()
