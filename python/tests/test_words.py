"""The bindings of words (serialize/parse_words), in-memory sources
(load(sources=...)), printing hand-modified instructions (Isa.print) and
the HTML manual (Isa.manual), against independent references: Python's
own byte and hex formatting, the embedded ISA, the encoder and
disassembler, and the files `gisa doc --html` writes."""
import os
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_gisa import SETTINGS, TARGETS, _field_strategy, _opcode_params, isa_of, seed_of, valid_word

import gisa

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def _words(target):
    bits = isa_of(target).word_bits
    return st.lists(st.one_of(st.integers(0, 2**bits - 1), st.sampled_from([0, 1, 2**bits - 1])), max_size=20)


# ------------------------------------------------------------------ words
@pytest.mark.parametrize("target", TARGETS)
@SETTINGS
@given(data=st.data())
def test_serialize_parse(target, data):
    isa = isa_of(target)
    words = data.draw(_words(target))
    nbytes = isa.word_bits // 8
    binary = isa.serialize(words)
    assert binary == b"".join(w.to_bytes(nbytes, "little") for w in words)
    assert isa.parse_words(binary) == words
    text = isa.serialize(words, "hex").decode()
    assert text.split() == ["%0*x" % (nbytes * 2, w) for w in words]
    assert isa.parse_words(text, hex=True) == words


def test_serialize_c_matches_cli(tmp_path):
    isa = isa_of("gisa128")
    src = "FADD R0, R1, R2\nIADD R3, R4, 0x5\n"
    (tmp_path / "p.s").write_text(src)
    cli = subprocess.run([os.environ["GISA_BIN"], "as", "--format", "c", "-o", "-", str(tmp_path / "p.s")],
                         stdout=subprocess.PIPE, check=True).stdout
    assert isa.serialize(isa.assemble(src), "c") == cli


def test_parse_words_errors():
    isa = isa_of("gisa128")
    with pytest.raises(gisa.Error) as e:
        isa.parse_words(b"\0" * 15)  # not a whole word
    assert e.value.status == 1  # GISA_ERR_INPUT
    with pytest.raises(gisa.Error) as e:
        isa.parse_words("0123\nnot hex\n", hex=True)
    assert any(d.line == 2 for d in e.value.diagnostics), e.value.diagnostics
    with pytest.raises(gisa.Error):
        isa.serialize([1], "elf")


# ------------------------------------------------------------------ sources
def _sources(target):
    d = os.path.join(SRC, "isa", target)
    return {name: open(os.path.join(d, name), encoding="utf-8").read() for name in sorted(os.listdir(d))}


@pytest.mark.parametrize("target", TARGETS)
def test_load_sources_is_the_embedded_isa(target):
    mem, emb = gisa.load(sources=_sources(target)), isa_of(target)
    assert mem.opcodes == emb.opcodes and mem.optypes == emb.optypes and mem.word_bits == emb.word_bits
    assert mem.doc() == emb.doc()
    for op in emb.opcodes:
        lay, seed = seed_of(target, op)
        w = lay.word(seed)
        assert mem.disassemble(w) == emb.disassemble(w)
    # pairs work as well as a dict
    assert gisa.load(sources=list(_sources(target).items())).opcodes == emb.opcodes


def test_load_sources_errors():
    files = _sources("gisa128")
    files["falu.isa"] = files["falu.isa"].replace("__DefOptype FADD : [F_ARITH]", "__DefOptype FADD : [NO_SUCH]", 1)
    line = files["falu.isa"].splitlines().index("__DefOptype FADD : [NO_SUCH]") + 1
    with pytest.raises(gisa.Error) as e:
        gisa.load(sources=files)
    assert any(d.file == "falu.isa" and d.line == line for d in e.value.diagnostics), e.value.diagnostics
    with pytest.raises(gisa.Error):
        gisa.load(sources={"empty.isa": ""})
    with pytest.raises(gisa.Error):
        gisa.load(paths=["x"], sources={"a": ""})


# ------------------------------------------------------------------ print
@pytest.mark.parametrize("target,opcode", _opcode_params())
@SETTINGS
@given(fields=_field_strategy(), pick=st.integers(0, 1000), value=st.integers(0, 2**64 - 1))
def test_print_modified(target, opcode, fields, pick, value):
    """A decoded instruction with one field changed prints as the encoder
    and disassembler say when the change is legal and keeps the syntax
    form, and still prints (it judges nothing) when it is not."""
    isa = isa_of(target)
    lay, _ = seed_of(target, opcode)
    w = valid_word(target, opcode, [m for m, _ in fields] + [False] * len(lay.fields),
                   [v for _, v in fields] + [0] * len(lay.fields))
    inst = isa.decode(w)
    assert isa.print(inst) == isa.disassemble(w)
    if not lay.fields:
        return
    name, _, width = lay.fields[pick % len(lay.fields)]
    v = value & ((1 << width) - 1)
    text = isa.print(inst, fields={name: v})
    try:
        nw = isa.encode(inst, fields={name: v})
    except gisa.Error:
        assert text  # illegal, yet printable
    else:  # the same text, unless the new value makes the word another form (IADD's ext=1: IADD.X)
        if isa.decode(nw).form == inst.form:
            assert text == isa.disassemble(nw)
    if width < 64:
        with pytest.raises(gisa.Error):
            isa.print(inst, fields={name: 1 << width})


# ------------------------------------------------------------------ manual
def test_manual_is_what_the_cli_writes(tmp_path):
    isa = isa_of("fermi")
    pages = isa.manual()
    assert len(pages) == 6 + len(isa.optypes) + len(isa.opcodes)
    assert list(pages)[:4] == ["style.css", "search.js", "search-index.js", "index.html"]
    out = tmp_path / "m"
    subprocess.run([os.environ["GISA_BIN"], "doc", "--target", "fermi", "--html", str(out)], check=True)
    assert sorted(os.listdir(out)) == sorted(list(pages) + [".gisa-manual"])
    for name, data in pages.items():
        assert (out / name).read_bytes() == data, name
