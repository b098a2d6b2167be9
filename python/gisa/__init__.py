"""Python binding of libgisa: assembler, disassembler, decoder and simulator
of ISA-description-driven GPU instruction sets (ctypes, no compilation).

    import gisa
    isa = gisa.load()                       # the default target, gisa128
    words = isa.assemble("FADD R0, R1, R2")
    print(isa.disassemble(words))           # ['FADD R0, R1, R2 ...']
    sim = isa.simulator()
    sim.load(words)
    sim.set_reg(0, 1, gisa.f32_bits(1.0))
    sim.set_reg(0, 2, gisa.f32_bits(2.0))
    sim.run()
    assert sim.get_reg(0, 0) == [gisa.f32_bits(3.0)] * 32

See python/README.md for the whole API.
"""

import ctypes
import struct

from . import _lib as _c
from ._lib import find_library, library_path

__version__ = "0.1.0"
__all__ = [
    "Error", "SimFault", "Diagnostic", "Isa", "Instruction", "Operand", "Modifier",
    "Simulator", "load", "targets", "library_version", "find_library", "library_path",
    "f32_bits", "bits_f32", "f64_bits", "bits_f64", "f16_bits", "bits_f16",
    "bf16_bits", "bits_bf16",
]

_SEVERITY = {_c.NOTE: "note", _c.WARNING: "warning", _c.ERROR: "error"}


def _s(b):
    return None if b is None else b.decode("utf-8", "replace")


def _b(s):
    return None if s is None else (s if isinstance(s, bytes) else str(s).encode("utf-8"))


# ------------------------------------------------------------------ errors
class Diagnostic:
    """One message of the library: file, line, col (1-based, 0 unknown),
    length, severity ("note", "warning", "error"), message, source_line, and
    text (formatted by gisa_diag_format, with the source line and caret)."""

    __slots__ = ("file", "line", "col", "length", "severity", "message", "source_line", "text")

    def __init__(self, d):
        self.file = _s(d.file) or ""
        self.line = d.line
        self.col = d.col
        self.length = d.length
        self.severity = _SEVERITY.get(d.severity, str(d.severity))
        self.message = _s(d.message) or ""
        self.source_line = _s(d.source_line)
        self.text = _c.take_string(_c.lib().gisa_diag_format(ctypes.byref(d), 1)) or ""

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Diagnostic(%r, %d, %d, %r, %r)" % (self.file, self.line, self.col,
                                                    self.severity, self.message)


class Error(Exception):
    """A libgisa call failed. .status is the gisa_status code, .status_name
    its name, .diagnostics the Diagnostic list (may be empty), .reason the
    decoder's/encoder's reason when there is one."""

    def __init__(self, message, status=_c.ERR_INPUT, diagnostics=(), reason=None):
        super().__init__(message)
        self.status = status
        self.status_name = _s(_c.lib().gisa_status_str(status))
        self.diagnostics = list(diagnostics)
        self.reason = reason


class SimFault(Error):
    """The simulated program faulted: .pc (instruction index), .warp, .lane
    (-1 when not lane-specific), .insn (its text), .message (the reason)."""

    def __init__(self, f):
        self.pc = f.pc
        self.warp = f.warp
        self.lane = f.lane
        self.insn = _s(f.insn)
        self.message = _s(f.message)
        lane = "" if self.lane < 0 else ", lane %d" % self.lane
        super().__init__("warp %d, pc %d%s: %s (%s)" % (self.warp, self.pc, lane, self.message, self.insn),
                         _c.ERR_SIM)


class _Diags:
    def __init__(self):
        self.p = _c.lib().gisa_diags_new()
        if not self.p:
            raise MemoryError("gisa_diags_new")

    def __enter__(self):
        return self

    def __exit__(self, *a):
        _c.lib().gisa_diags_free(self.p)
        self.p = None

    def list(self):
        L = _c.lib()
        return [Diagnostic(L.gisa_diags_get(self.p, i).contents) for i in range(L.gisa_diags_count(self.p))]

    def error(self, what, status):
        ds = self.list()
        errs = [d for d in ds if d.severity == "error"] or ds
        msg = "%s: %s" % (what, _s(_c.lib().gisa_status_str(status)))
        if errs:
            msg += "\n" + "\n".join(d.text for d in errs)
        return Error(msg, status, ds)


def _check(st, what):
    if st != _c.OK:
        raise Error("%s: %s" % (what, _s(_c.lib().gisa_status_str(st))), st)


# ------------------------------------------------------------------ words
def _word(value):
    if isinstance(value, _c.gisa_word):
        return value
    v = int(value)
    if v < 0 or v >> 128:
        raise ValueError("word out of range: %#x" % v)
    w = _c.gisa_word()
    w.w[0] = v & 0xFFFFFFFFFFFFFFFF
    w.w[1] = v >> 64
    return w


def _int(w):
    return int(w.w[0]) | (int(w.w[1]) << 64)


# ------------------------------------------------------------------ decoded instructions
class Operand:
    """An operand in syntax order: kind ("REG", "PAIR", "UREG", "UPAIR",
    "PRED", "UPRED", "PR", "IMM", "F32", "F64", "F16X2", "CBANK", "INDEXED"),
    name, reg, is_zero, value, bits, raw_syntax, bank, offset, pair, bf16,
    deco (GISA_DECO_* bits; also neg/abs/inv/not_ booleans), suffix,
    suffix_default, written, present."""

    def __init__(self, o):
        self.kind = _c.OPND_KINDS[o.kind] if 0 <= o.kind < len(_c.OPND_KINDS) else str(o.kind)
        self.name = _s(o.name)
        self.reg = o.reg
        self.is_zero = bool(o.is_zero)
        self.value = o.value
        self.bits = o.bits
        self.raw_syntax = bool(o.raw_syntax)
        self.bank = o.bank
        self.offset = o.offset
        self.pair = bool(o.pair)
        self.bf16 = bool(o.bf16)
        self.deco = o.deco
        self.neg = bool(o.deco & _c.DECO_NEG)
        self.abs = bool(o.deco & _c.DECO_ABS)
        self.inv = bool(o.deco & _c.DECO_INV)
        self.not_ = bool(o.deco & _c.DECO_NOT)
        self.suffix = _s(o.suffix)
        self.suffix_default = bool(o.suffix_default)
        self.written = bool(o.written)
        self.present = bool(o.present)

    def __repr__(self):
        return "Operand(%s %s reg=%d value=%d%s)" % (self.kind, self.name, self.reg, self.value,
                                                    "" if self.present else " absent")


class Modifier:
    """A modifier after the mnemonic: name (the group, or the fixed word),
    value (its spelling or None), is_default, raw (the field value)."""

    def __init__(self, m):
        self.name = _s(m.name)
        self.value = _s(m.value)
        self.is_default = bool(m.is_default)
        self.raw = m.raw

    def __repr__(self):
        return "Modifier(%s=%s%s)" % (self.name, self.value, " default" if self.is_default else "")


class Instruction:
    """A decoded instruction (gisa_inst): word, opcode (name), opcode_index,
    optype, mnemonic, form, fields (dict name -> value, in field order),
    operands (list of Operand), modifiers (list of Modifier), guard
    ((pred, negated) or None), controls ((sched, req, wsb)), text.
    Change .fields and pass it to Isa.encode to make another word."""

    def __init__(self, isa, inst):
        L = _c.lib()
        self.isa = isa
        self._inst = inst
        p = ctypes.byref(inst)
        h = isa._h
        self.word = _int(inst.word)
        self.opcode_index = inst.opcode
        self.form = inst.form
        self.opcode = _s(L.gisa_inst_opcode_name(h, p))
        self.optype = _s(L.gisa_inst_optype_name(h, p))
        self.mnemonic = _s(L.gisa_inst_mnemonic(h, p))
        self.fields = {}
        for i in range(L.gisa_inst_field_count(h, p)):
            self.fields[_s(L.gisa_inst_field_name(h, p, i))] = int(inst.field[i])
        self.operands = []
        for i in range(L.gisa_inst_operand_count(h, p)):
            o = _c.gisa_operand()
            _check(L.gisa_inst_operand(h, p, i, ctypes.byref(o)), "gisa_inst_operand")
            self.operands.append(Operand(o))
        self.modifiers = []
        for i in range(L.gisa_inst_modifier_count(h, p)):
            m = _c.gisa_modifier()
            _check(L.gisa_inst_modifier(h, p, i, ctypes.byref(m)), "gisa_inst_modifier")
            self.modifiers.append(Modifier(m))
        pred, neg = ctypes.c_uint(), ctypes.c_int()
        if L.gisa_inst_guard(h, p, ctypes.byref(pred), ctypes.byref(neg)) == _c.OK:
            self.guard = (pred.value, bool(neg.value))
        else:
            self.guard = None
        s, r, w = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        L.gisa_inst_controls(h, p, ctypes.byref(s), ctypes.byref(r), ctypes.byref(w))
        self.controls = (s.value, r.value, w.value)
        buf = ctypes.create_string_buffer(1024)
        L.gisa_print(h, p, buf, len(buf))
        self.text = _s(buf.value)

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Instruction(%s: %s)" % (self.opcode, self.text)


# ------------------------------------------------------------------ the ISA
def targets():
    """Names of the targets compiled into the library."""
    L = _c.lib()
    return [_s(L.gisa_target_name(i)) for i in range(L.gisa_target_count())]


def library_version():
    """libgisa's version string ("MAJOR.MINOR.PATCH")."""
    return _s(_c.lib().gisa_version())


def _path_array(paths):
    if isinstance(paths, (str, bytes)):
        paths = [paths]
    paths = list(paths)
    return paths, (ctypes.c_char_p * max(len(paths), 1))(*[_b(p) for p in paths])


def load(target=None, paths=None, overlay_dir=None, sources=None, add=None):
    """Loads an ISA: the embedded descriptions of `target` (None: the
    default, gisa128), or the description files/directories `paths`
    (gisa_isa_load_paths; `target` then supplies types.isa/rulings.isa
    unless the files or `overlay_dir` have them), or in-memory `sources`
    (gisa_isa_load_sources: a dict name -> text, or (name, text) pairs, in
    the order given; every file the ISA needs, types and target included,
    must be among them). `add`: description files/directories read after
    that ISA (the embedded one or `paths`), an author's own instructions
    beside the shipped ones (gisa_isa_load, `gisa --isa-add`). Raises Error
    with the diagnostics on failure."""
    L = _c.lib()
    h = ctypes.c_void_p()
    if sum(x is not None for x in (paths, sources)) > 1:
        raise Error("load: give paths or sources, not both", _c.ERR_USAGE)
    if sources is not None and add is not None:
        raise Error("load: add goes with the embedded ISA or paths, not with sources", _c.ERR_USAGE)
    with _Diags() as d:
        if add is not None:
            base, barr = _path_array(paths if paths is not None else [])
            extra, aarr = _path_array(add)
            opt = _c.gisa_load_options(_b(target), barr, len(base), _b(overlay_dir), aarr, len(extra))
            st = L.gisa_isa_load(ctypes.byref(opt), ctypes.byref(h), d.p)
            what = "loading %s + %s" % (", ".join(str(p) for p in base) or "target %s" % (target or "(default)"),
                                        ", ".join(str(p) for p in extra))
        elif sources is not None:
            items = list(sources.items() if isinstance(sources, dict) else sources)
            texts = [_b(t) for _, t in items]  # kept alive while the library reads them
            arr = (_c.gisa_source * len(items))(*[_c.gisa_source(_b(str(n)), t, len(t))
                                                  for (n, _), t in zip(items, texts)])
            st = L.gisa_isa_load_sources(arr, len(items), ctypes.byref(h), d.p)
            what = "loading %s" % ", ".join(str(n) for n, _ in items)
        elif paths is None:
            st = L.gisa_isa_load_embedded(_b(target), ctypes.byref(h), d.p)
            what = "loading target %s" % (target or "(default)")
        else:
            if isinstance(paths, (str, bytes)):
                paths = [paths]
            arr = (ctypes.c_char_p * len(paths))(*[_b(str(p)) for p in paths])
            st = L.gisa_isa_load_paths(arr, len(paths), _b(overlay_dir), _b(target), ctypes.byref(h), d.p)
            what = "loading %s" % ", ".join(str(p) for p in paths)
        if st != _c.OK:
            raise d.error(what, st)
        warnings = d.list()
    isa = Isa(h.value)
    isa.load_diagnostics = warnings
    return isa


_FORMATS = {"bin": _c.FMT_BIN, "hex": _c.FMT_HEX, "c": _c.FMT_C}


class Isa:
    """A loaded instruction set (gisa_isa). Use gisa.load() to make one."""

    def __init__(self, handle):
        self._h = handle
        self._lib = _c.lib()
        L = self._lib
        self.word_bits = L.gisa_isa_word_bits(handle)
        self.opcodes = [_s(L.gisa_isa_opcode_name(handle, i)) for i in range(L.gisa_isa_opcode_count(handle))]
        self.optypes = [_s(L.gisa_isa_optype_name(handle, i)) for i in range(L.gisa_isa_optype_count(handle))]
        self.max_regs = L.gisa_sim_max_regs(handle)

    def __del__(self):
        if getattr(self, "_h", None):
            self._lib.gisa_isa_free(self._h)
            self._h = None

    @property
    def word_mask(self):
        return (1 << self.word_bits) - 1

    def doc(self, name=None):
        """Plain-text reference for an optype or opcode (None: the list)."""
        st = ctypes.c_int()
        s = _c.take_string(self._lib.gisa_isa_doc(self._h, _b(name), ctypes.byref(st)))
        if s is None:
            raise Error("no documentation for %r" % name, st.value)
        return s

    def lint(self):
        """Runs the consistency checks; returns the diagnostics."""
        with _Diags() as d:
            self._lib.gisa_isa_lint(self._h, d.p)
            return d.list()

    # -------------------------------------------------------------- assembler
    def assemble(self, text, filename="<string>"):
        """Assembles source text into a list of words (Python ints). Raises
        Error whose .diagnostics say where and why."""
        data = _b(text)
        words = ctypes.POINTER(_c.gisa_word)()
        n = ctypes.c_size_t()
        with _Diags() as d:
            st = self._lib.gisa_assemble(self._h, _b(filename), data, len(data), ctypes.byref(words),
                                         ctypes.byref(n), d.p)
            if st != _c.OK:
                raise d.error("assembling %s" % filename, st)
        try:
            return [_int(words[i]) for i in range(n.value)]
        finally:
            self._lib.gisa_free(words)

    def assemble_one(self, text):
        """Assembles exactly one instruction into a word."""
        w = _c.gisa_word()
        with _Diags() as d:
            st = self._lib.gisa_assemble_one(self._h, _b(text), ctypes.byref(w), d.p)
            if st != _c.OK:
                raise d.error("assembling %r" % text, st)
        return _int(w)

    # -------------------------------------------------------------- disassembler
    def disassemble(self, words):
        """Canonical text of one word (an int: returns a str) or of a list of
        words (returns a list). An invalid word gives `.invalid 0x... // reason`."""
        if isinstance(words, int):
            return self._dis(words)
        return [self._dis(w) for w in words]

    def _dis(self, w):
        buf = ctypes.create_string_buffer(1024)
        self._lib.gisa_disassemble(self._h, _word(w), buf, len(buf))
        return _s(buf.value)

    def decode(self, word):
        """Decodes a word into an Instruction; raises Error (with .reason)
        when the word is no instruction."""
        inst = _c.gisa_inst()
        st = self._lib.gisa_decode(self._h, _word(word), ctypes.byref(inst))
        if st != _c.OK:
            why = _s(inst.why)
            raise Error("invalid word %#x: %s" % (int(word), why), st, reason=why)
        return Instruction(self, inst)

    def is_valid(self, word):
        inst = _c.gisa_inst()
        return self._lib.gisa_decode(self._h, _word(word), ctypes.byref(inst)) == _c.OK

    def _inst(self, inst, fields, opcode, form):
        """A gisa_inst from an Instruction with `fields`, `opcode` (name or
        index) and `form` overriding its own."""
        c = _c.gisa_inst()
        ctypes.memmove(ctypes.byref(c), ctypes.byref(inst._inst), ctypes.sizeof(c))
        op = inst.opcode if opcode is None else opcode
        if isinstance(op, str):
            idx = self._lib.gisa_isa_find_opcode(self._h, _b(op))
            if idx == ctypes.c_size_t(-1).value:
                raise Error("unknown opcode %r" % op, _c.ERR_USAGE)
            op = idx
        if not 0 <= op < len(self.opcodes):
            raise Error("opcode index %r out of range" % op, _c.ERR_USAGE)
        c.opcode = op
        c.form = inst.form if form is None else form
        vals = dict(inst.fields)
        if fields:
            vals.update(fields)
        # field order of the (possibly new) opcode
        p = ctypes.byref(c)
        names = [_s(self._lib.gisa_inst_field_name(self._h, p, i))
                 for i in range(self._lib.gisa_inst_field_count(self._h, p))]
        for k in vals:
            if k not in names:
                raise Error("opcode has no field %r" % k, _c.ERR_USAGE)
        for i, n in enumerate(names):
            if n in vals:
                if not 0 <= vals[n] < 1 << 64:
                    raise Error("field %s: %r is not a 64-bit unsigned value" % (n, vals[n]), _c.ERR_USAGE)
                c.field[i] = vals[n]
        return c

    def encode(self, inst, fields=None, opcode=None, form=None):
        """Encodes an Instruction (its .opcode, .form and .fields, which may
        have been changed; `fields`, `opcode` (name or index) and `form`
        override them) into a word. Raises Error with the reason."""
        c = self._inst(inst, fields, opcode, form)
        w = _c.gisa_word()
        st = self._lib.gisa_encode(self._h, ctypes.byref(c), ctypes.byref(w))
        if st != _c.OK:
            why = _s(c.why)
            raise Error("encode %s: %s" % (inst.opcode, why), st, reason=why)
        return _int(w)

    def print(self, inst, fields=None, opcode=None, form=None):
        """Canonical text of an Instruction as it is, or with `fields`,
        `opcode` and `form` changed (gisa_print): it judges nothing, so a
        combination that encode would refuse still prints. Raises Error
        for an opcode or form out of range or a value wider than its field."""
        c = self._inst(inst, fields, opcode, form)
        buf = ctypes.create_string_buffer(1024)
        st = self._lib.gisa_print(self._h, ctypes.byref(c), buf, len(buf))
        if st != _c.OK:
            raise Error("print %s: %s" % (inst.opcode, _s(buf.value) or "bad instruction"), st)
        return _s(buf.value)

    # -------------------------------------------------------------- words
    def serialize(self, words, format="bin"):
        """Words (ints) as `gisa as` writes them: "bin" (16 bytes per word
        little-endian; 8 on a 64-bit target), "hex" (one word a line) or
        "c" (an array). Returns bytes."""
        if format not in _FORMATS:
            raise Error("unknown format %r (bin, hex or c)" % format, _c.ERR_USAGE)
        arr = (_c.gisa_word * max(len(words), 1))(*[_word(w) for w in words])
        buf, n = ctypes.c_void_p(), ctypes.c_size_t()
        st = self._lib.gisa_words_serialize(self._h, arr, len(words), _FORMATS[format], ctypes.byref(buf),
                                            ctypes.byref(n))
        if st != _c.OK:
            raise Error("serialize: %s" % _s(self._lib.gisa_status_str(st)), st)
        try:
            return ctypes.string_at(buf.value, n.value) if n.value else b""
        finally:
            self._lib.gisa_free(buf)

    def parse_words(self, data, hex=False):
        """Words (ints) from a binary image (hex=False) or hex text, as
        `gisa dis` reads them. Raises Error with the diagnostics."""
        data = _b(data)
        words = ctypes.POINTER(_c.gisa_word)()
        n = ctypes.c_size_t()
        with _Diags() as d:
            st = self._lib.gisa_words_parse(self._h, data, len(data), 1 if hex else 0, ctypes.byref(words),
                                            ctypes.byref(n), d.p)
            if st != _c.OK:
                raise d.error("reading words", st)
        try:
            return [_int(words[i]) for i in range(n.value)]
        finally:
            self._lib.gisa_free(words)

    # -------------------------------------------------------------- manual
    def manual(self):
        """The HTML reference manual (gisa_isa_manual, what `gisa doc
        --html` writes) as a dict: page name -> bytes, in the library's
        order."""
        pages = {}

        def page(_user, name, data, n):
            pages[_s(name)] = ctypes.string_at(data, n) if n else b""
            return _c.OK

        fn = _c.PAGE_FN(page)
        st = self._lib.gisa_isa_manual(self._h, fn, None)
        if st != _c.OK:
            raise Error("manual: %s" % _s(self._lib.gisa_status_str(st)), st)
        return pages

    # -------------------------------------------------------------- simulator
    def simulator(self, warps=1, regs=None, threads=None):
        """A new Simulator: `warps` warps of 32 lanes, `regs` registers per
        lane (None: the most the target names)."""
        return Simulator(self, warps, self.max_regs if regs is None else regs, threads)


# ------------------------------------------------------------------ the simulator
_RF_NAMES = ("R", "P", "UR", "UP")


class Effect:
    """One register an instruction wrote (gisa_sim_effect): rf ("R", "P",
    "UR", "UP"), index, mask (the lanes written; 1 for uniform ones), and
    old/new: the 32 lanes' values before and after (uniform: lane 0)."""

    __slots__ = ("rf", "index", "mask", "old", "new")

    def __init__(self, e):
        self.rf = _RF_NAMES[e.rf]
        self.index = e.index
        self.mask = e.mask
        self.old = list(e.old_value)
        self.new = list(e.value)

    @property
    def lanes(self):
        """The lanes written, in order."""
        return [ln for ln in range(_c.SIM_LANES) if self.mask >> ln & 1]

    def __repr__(self):
        return "Effect(%s%d, mask=0x%08x)" % (self.rf, self.index, self.mask)


class Commit:
    """What one executed instruction did (gisa_sim_commit): warp, pc, word,
    text, instruction (an Instruction), active and exec masks (exec 0: the
    guard skipped it), effects (list of Effect, in write order)."""

    def __init__(self, sim, c):
        self.warp = c.warp
        self.pc = c.pc
        self.word = _int(c.word)
        self.text = _s(c.text)
        self.active = c.active
        self.exec = c.exec
        self.effects = [Effect(c.effect[i]) for i in range(c.neffects)]
        self.instruction = Instruction(sim.isa, _c.gisa_inst.from_buffer_copy(c.inst.contents)) if c.inst else None
        self._raw = c

    def trace(self, json=False):
        """The trace lines of this record (as gisa run --trace prints them)."""
        lines = []
        cb = _c.TRACE_FN(lambda user, line: lines.append(_s(line)))
        self._sim._lib.gisa_sim_commit_format(self._sim._h, ctypes.byref(self._raw), 1 if json else 0, cb, None)
        return lines

    def __repr__(self):
        return "Commit(w%d pc %d exec 0x%08x %s, %d writes)" % (self.warp, self.pc, self.exec, self.text,
                                                               len(self.effects))


class Simulator:
    """A functional SIMT simulator (gisa_sim). Values are 32-bit unsigned
    ints; negative ones are taken as two's complement."""

    def __init__(self, isa, warps=1, regs=255, threads=None):
        self.isa = isa
        self._lib = isa._lib
        h = ctypes.c_void_p()
        st = self._lib.gisa_sim_new(isa._h, regs, warps, ctypes.byref(h))
        if st != _c.OK:
            raise Error("gisa_sim_new(regs=%d, warps=%d): %s" % (regs, warps, _s(self._lib.gisa_status_str(st))), st)
        self._h = h.value
        self.warps = warps
        self.regs = regs
        if threads is not None:
            self._lib.gisa_sim_set_threads(self._h, threads)
        self._trace_cb = None

    def __del__(self):
        if getattr(self, "_h", None):
            self._lib.gisa_sim_free(self._h)
            self._h = None

    def load(self, program):
        """Loads the program: a list of words, or assembly text."""
        if isinstance(program, (str, bytes)):
            program = self.isa.assemble(program)
        arr = (_c.gisa_word * max(1, len(program)))()
        for i, w in enumerate(program):
            arr[i] = _word(w)
        _check(self._lib.gisa_sim_load(self._h, arr, len(program)), "gisa_sim_load")

    def run(self):
        """Runs every warp to the end; raises SimFault on a fault (the state
        stays readable)."""
        f = _c.gisa_sim_fault()
        st = self._lib.gisa_sim_run(self._h, ctypes.byref(f))
        if st == _c.ERR_SIM:
            raise SimFault(f)
        _check(st, "gisa_sim_run")

    def step(self, warp=0):
        """Executes the next instruction of `warp` and returns its Commit;
        raises SimFault when it faults (the warp halts at it), Error when
        the warp is done."""
        c = _c.gisa_sim_commit()
        f = _c.gisa_sim_fault()
        st = self._lib.gisa_sim_step(self._h, warp, ctypes.byref(c), ctypes.byref(f))
        if st == _c.ERR_SIM:
            raise SimFault(f)
        _check(st, "gisa_sim_step(warp %d)" % warp)
        commit = Commit(self, c)
        commit._sim = self
        return commit

    def commits(self, warp=0):
        """Steps `warp` to its end, yielding each Commit."""
        while not self.done(warp):
            yield self.step(warp)

    def pc(self, warp=0):
        return self._lib.gisa_sim_pc(self._h, warp)

    def set_pc(self, warp, pc):
        _check(self._lib.gisa_sim_set_pc(self._h, warp, pc), "gisa_sim_set_pc")

    def done(self, warp=0):
        return bool(self._lib.gisa_sim_done(self._h, warp))

    def resume(self):
        """Runs every warp from its own pc to the end (gisa_sim_continue)."""
        f = _c.gisa_sim_fault()
        st = self._lib.gisa_sim_continue(self._h, ctypes.byref(f))
        if st == _c.ERR_SIM:
            raise SimFault(f)
        _check(st, "gisa_sim_continue")

    def clone(self):
        """An independent copy of the whole simulator (a checkpoint)."""
        h = ctypes.c_void_p()
        _check(self._lib.gisa_sim_clone(self._h, ctypes.byref(h)), "gisa_sim_clone")
        other = Simulator.__new__(Simulator)
        other.isa, other._lib, other._h = self.isa, self._lib, h.value
        other.warps, other.regs, other._trace_cb = self.warps, self.regs, None
        return other

    def compare(self, other):
        """None when both simulators' states are equal, else the first
        difference as text ("warp 0 R5 lane 3: 0x... != 0x...")."""
        d = _c.gisa_sim_diff()
        if self._lib.gisa_sim_compare(self._h, other._h, ctypes.byref(d)) == 0:
            return None
        return _s(d.text)

    def set_trace(self, fn):
        """fn(line) is called per trace line (None: tracing off)."""
        if fn is None:
            self._trace_cb = None
            self._lib.gisa_sim_set_trace(self._h, _c.TRACE_FN(), None)
            return
        self._trace_cb = _c.TRACE_FN(lambda user, line: fn(_s(line)))
        self._lib.gisa_sim_set_trace(self._h, self._trace_cb, None)

    # per-lane and per-warp registers
    def _set(self, warp, rf, index, value, lane):
        if isinstance(value, (list, tuple)):
            if len(value) != _c.SIM_LANES:
                raise ValueError("need %d lane values" % _c.SIM_LANES)
            for ln, v in enumerate(value):
                self._set(warp, rf, index, v, ln)
            return
        v = int(value) & 0xFFFFFFFF
        st = self._lib.gisa_sim_set(self._h, warp, rf, index, -1 if lane is None else lane, v)
        _check(st, "set %s%d (warp %d)" % (("R", "P", "UR", "UP")[rf], index, warp))

    def _get(self, warp, rf, index, lane):
        v = ctypes.c_uint32()
        st = self._lib.gisa_sim_get(self._h, warp, rf, index, lane, ctypes.byref(v))
        _check(st, "get %s%d (warp %d)" % (("R", "P", "UR", "UP")[rf], index, warp))
        return v.value

    def set_reg(self, warp, index, value, lane=None):
        """Sets R<index> of one lane, of every lane (lane None), or from a list
        of 32 lane values."""
        self._set(warp, _c.RF_R, index, value, lane)

    def get_reg(self, warp, index, lane=None):
        """R<index>: a list of the 32 lane values, or one lane's value."""
        if lane is not None:
            return self._get(warp, _c.RF_R, index, lane)
        return [self._get(warp, _c.RF_R, index, ln) for ln in range(_c.SIM_LANES)]

    def set_pair(self, warp, index, value, lane=None):
        """Sets R[index:index+1] from a 64-bit value (low word in R<index>)."""
        if isinstance(value, (list, tuple)):
            for ln, v in enumerate(value):
                self.set_pair(warp, index, v, ln)
            return
        v = int(value) & 0xFFFFFFFFFFFFFFFF
        self.set_reg(warp, index, v & 0xFFFFFFFF, lane)
        self.set_reg(warp, index + 1, v >> 32, lane)

    def get_pair(self, warp, index, lane=None):
        lo, hi = self.get_reg(warp, index, lane), self.get_reg(warp, index + 1, lane)
        if lane is not None:
            return lo | hi << 32
        return [a | b << 32 for a, b in zip(lo, hi)]

    def set_pred(self, warp, index, value, lane=None):
        if isinstance(value, (list, tuple)):
            value = [1 if v else 0 for v in value]
        else:
            value = 1 if value else 0
        self._set(warp, _c.RF_P, index, value, lane)

    def get_pred(self, warp, index, lane=None):
        if lane is not None:
            return bool(self._get(warp, _c.RF_P, index, lane))
        return [bool(self._get(warp, _c.RF_P, index, ln)) for ln in range(_c.SIM_LANES)]

    def set_ureg(self, warp, index, value):
        self._set(warp, _c.RF_UR, index, value, 0)

    def get_ureg(self, warp, index):
        return self._get(warp, _c.RF_UR, index, 0)

    def set_upred(self, warp, index, value):
        self._set(warp, _c.RF_UP, index, 1 if value else 0, 0)

    def get_upred(self, warp, index):
        return bool(self._get(warp, _c.RF_UP, index, 0))

    def set_active(self, warp, mask):
        _check(self._lib.gisa_sim_set_active(self._h, warp, mask & 0xFFFFFFFF), "set_active")

    def get_active(self, warp):
        return self._lib.gisa_sim_get_active(self._h, warp)

    def set_const(self, bank, offset, value):
        """Constant memory c[bank][offset] (4-byte aligned byte offset)."""
        _check(self._lib.gisa_sim_set_const(self._h, bank, offset, int(value) & 0xFFFFFFFF),
               "set c[%#x][%#x]" % (bank, offset))

    def get_const(self, bank, offset):
        v = ctypes.c_uint32()
        _check(self._lib.gisa_sim_get_const(self._h, bank, offset, ctypes.byref(v)),
               "get c[%#x][%#x]" % (bank, offset))
        return v.value

    def state_json(self):
        """The state as JSON text (docs/simulator.md), as `gisa run` writes it."""
        s = _c.take_string(self._lib.gisa_sim_state_write_json(self._h))
        if s is None:
            raise MemoryError("gisa_sim_state_write_json")
        return s

    def read_state_json(self, text, name="<state>"):
        """Applies a JSON state (the `gisa run --state` format); raises Error
        with diagnostics naming the key, changing nothing."""
        data = _b(text)
        with _Diags() as d:
            st = self._lib.gisa_sim_state_read_json(self._h, _b(name), data, len(data), d.p)
            if st != _c.OK:
                raise d.error("reading state %s" % name, st)


# ------------------------------------------------------------------ floating-point bits
def f32_bits(x):
    """The IEEE binary32 bits of float x (rounded to nearest)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits_f64(b):
    return struct.unpack("<d", struct.pack("<Q", b & 0xFFFFFFFFFFFFFFFF))[0]


def f16_bits(x):
    """The IEEE binary16 bits of x (round to nearest even; OverflowError
    beyond the largest finite half, as struct does)."""
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bits_f16(b):
    return struct.unpack("<e", struct.pack("<H", b & 0xFFFF))[0]


def bf16_bits(x):
    """The bfloat16 bits of x: its binary32 bits rounded to nearest even to
    the upper 16 (NaN stays a quiet NaN)."""
    b = f32_bits(x)
    if (b & 0x7F800000) == 0x7F800000 and (b & 0x007FFFFF):
        return (b >> 16) | 0x0040
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def bits_bf16(b):
    return bits_f32((b & 0xFFFF) << 16)
