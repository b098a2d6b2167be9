"""The core of the package: errors and diagnostics, loading an ISA, and
what an Isa does (assemble, disassemble, decode, encode, documents)."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import operator
import os
import threading
import weakref
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar,
                    Union, overload)

from . import _lib as _c

if TYPE_CHECKING:  # only for the annotations
    from ._cov import Coverage
    from ._gen import Generator
    from ._sim import Simulator

Word = Union[int, "_c.gisa_word"]
PathLike = Union[str, bytes, "os.PathLike[str]"]
_F = TypeVar("_F", bound=Callable[..., Any])

_SEVERITY = {_c.NOTE: "note", _c.WARNING: "warning", _c.ERROR: "error"}


def _s(b: Optional[bytes]) -> Any:
    return None if b is None else b.decode("utf-8", "replace")


def _b(s: Any) -> Any:
    return None if s is None else (s if isinstance(s, bytes) else str(s).encode("utf-8"))


# ------------------------------------------------------------------ errors
class Diagnostic:
    """One message of the library: file, line, col (1-based, 0 unknown),
    length, severity ("note", "warning", "error"), message, source_line,
    context (the "In file included from ..." lines of a diagnostic in an
    included file, or None), category (a lint warning's kind, shown as
    [-Wkind], or None) and text (formatted by the library, with the context,
    source line and caret)."""

    __slots__ = ("file", "line", "col", "length", "severity", "message", "source_line", "context",
                 "category", "text")

    def __init__(self, d: _c.gisa_diag) -> None:
        self.file: str = _s(d.file) or ""
        self.line: int = d.line
        self.col: int = d.col
        self.length: int = d.length
        self.severity: str = _SEVERITY.get(d.severity, str(d.severity))
        self.message: str = _s(d.message) or ""
        self.source_line: Optional[str] = _s(d.source_line)
        self.context: Optional[str] = _s(d.context)
        self.category: Optional[str] = _s(d.category)
        self.text: str = _string_out(_c.lib().gisa_diag_format, "gisa_diag_format", ctypes.byref(d), True)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return "Diagnostic(%r, %d, %d, %r, %r)" % (self.file, self.line, self.col,
                                                    self.severity, self.message)


class Error(Exception):
    """A libgisa call failed. .status is the gisa_status code, .status_name
    its name, .diagnostics the Diagnostic list (may be empty), .reason the
    decoder's/encoder's reason when there is one."""

    def __init__(self, message: str, status: int = _c.ERR_INPUT, diagnostics: Iterable[Diagnostic] = (),
                 reason: Optional[str] = None) -> None:
        super().__init__(message)
        self.status: int = status
        self.status_name: str = _s(_c.lib().gisa_status_str(status))
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        self.reason: Optional[str] = reason


class SimFault(Error):
    """The simulated program faulted: .pc (instruction index), .warp, .lane
    (-1 when not lane-specific), .insn (its text), .message (the reason)."""

    def __init__(self, f: _c.gisa_sim_fault) -> None:
        self.pc: int = f.pc
        self.warp: int = f.warp
        self.lane: int = f.lane
        self.insn: str = _s(f.insn)
        self.message: str = _s(f.message)
        lane = "" if self.lane < 0 else ", lane %d" % self.lane
        super().__init__("warp %d, pc %d%s: %s (%s)" % (self.warp, self.pc, lane, self.message, self.insn),
                         _c.ERR_SIM)


class _Diags:
    """A gisa_diags list for the length of a `with` block."""

    def __init__(self) -> None:
        p = ctypes.c_void_p()
        st = _c.lib().gisa_diags_new(ctypes.byref(p))
        if st == _c.ERR_NOMEM:
            raise MemoryError("gisa_diags_new")
        _check(st, "gisa_diags_new")
        self.p = p.value

    def __enter__(self) -> "_Diags":
        return self

    def __exit__(self, *a: Any) -> None:
        _c.lib().gisa_diags_free(self.p)
        self.p = None

    def list(self) -> List[Diagnostic]:
        L = _c.lib()
        return [Diagnostic(L.gisa_diags_get(self.p, i).contents) for i in range(L.gisa_diags_count(self.p))]

    def error(self, what: str, status: int) -> Error:
        ds = self.list()
        errs = [d for d in ds if d.severity == "error"] or ds
        msg = "%s: %s" % (what, _s(_c.lib().gisa_status_str(status)))
        if errs:
            msg += "\n" + "\n".join(d.text for d in errs)
        return Error(msg, status, ds)


def _check(st: int, what: str) -> None:
    if st != _c.OK:
        raise Error("%s: %s" % (what, _s(_c.lib().gisa_status_str(st))), st)


def _string_out(f: Any, what: str, *args: Any) -> str:
    """Calls f(*args, char **out) and returns *out (released with
    gisa_free); raises Error when f fails."""
    p = ctypes.c_void_p()
    st = f(*args, ctypes.byref(p))
    s = _c.take_string(p.value)  # written on success only, but released whenever it was
    if st == _c.ERR_NOMEM:
        raise MemoryError(what)
    _check(st, what)
    return s or ""


# The status a C callback of the package returns when its Python function
# raised: anything but GISA_OK stops the operation that called it, and the
# exception is raised again once the call returns (_Callback.reraise).
_STOPPED = _c.ERR_USAGE


class _Callback:
    """A Python function as a C callback of gisa.h (.c, of a ctypes
    CFUNCTYPE type; fn gets the C arguments, and what it returns is
    ignored). The callback returns GISA_OK; when fn raises, the exception
    is kept and the callback returns _STOPPED, which stops the C operation
    that called it; reraise() raises it again in the caller, after that
    operation returned. Keep the object alive while the library may call
    it."""

    def __init__(self, ctype: Any, fn: Any) -> None:
        self.pending: Optional[BaseException] = None

        def call(*args: Any) -> int:
            if self.pending is not None:
                return _STOPPED
            try:
                fn(*args)
            except BaseException as e:  # noqa: B902 - raised again by reraise()
                self.pending = e
                return _STOPPED
            return _c.OK

        self.c = ctype(call)

    def reraise(self) -> None:
        e, self.pending = self.pending, None
        if e is not None:
            raise e


# ------------------------------------------------------------------ integers
# ctypes narrows a Python int to a C type silently, modulo 2**bits: warp
# 2**32 would be warp 0, lane 2**32 lane 0. Every integer the package hands
# to the library goes through these first.
SIZE_BITS = ctypes.sizeof(ctypes.c_size_t) * 8


def _int_in(value: Any, what: str, lo: int, hi: int) -> int:
    """value as an int in [lo, hi]: TypeError when it is no integer (a
    float is not taken for one), ValueError naming `what` when it is out of
    range."""
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an integer, not %s" % (what, type(value).__name__)) from None
    if not lo <= v <= hi:
        raise ValueError("%s %d is out of range (%d to %d)" % (what, v, lo, hi))
    return v


def _uint(value: Any, what: str, bits: int = 32) -> int:
    """An unsigned C integer of `bits` bits (unsigned, uint32_t: 32; size_t:
    SIZE_BITS; uint64_t: 64)."""
    return _int_in(value, what, 0, (1 << bits) - 1)


def _bits(value: Any, what: str, bits: int = 32) -> int:
    """A register value or mask of `bits` bits: unsigned, or negative in
    two's complement (-1 is all ones); returned unsigned."""
    return _int_in(value, what, -(1 << (bits - 1)), (1 << bits) - 1) & ((1 << bits) - 1)


# ------------------------------------------------------------------ handles: owners, threads, callbacks
def _closed(what: str) -> Error:
    return Error("%s: the Isa is closed (Isa.close()); so is every Simulator, Generator and Coverage made "
                 "from it" % what, _c.ERR_USAGE)


def _isa_call(f: _F) -> _F:
    """A method of Isa that calls the library: raises Error when the Isa
    is closed, and counts as a use of it while it runs (close() raises
    RuntimeError while there is one)."""
    what = "Isa." + f.__name__

    @functools.wraps(f)
    def call(self: "Isa", *args: Any, **kw: Any) -> Any:
        self._enter(what)
        try:
            return f(self, *args, **kw)
        finally:
            self._exit()
    return call  # type: ignore[return-value]


def _guarded(write: bool) -> Callable[[_F], _F]:
    def deco(f: _F) -> _F:
        name = f.__name__

        @functools.wraps(f)
        def call(self: "_Handle", *args: Any, **kw: Any) -> Any:
            self._enter(write, name)
            try:
                return f(self, *args, **kw)
            finally:
                self._exit()
        return call  # type: ignore[return-value]
    return deco


# Methods of a Simulator, Generator or Coverage that call the library:
# _writes may change the object, _reads only look at it (and may run from
# inside its own trace function or commit hook).
_writes = _guarded(True)
_reads = _guarded(False)


class _Handle:
    """A library object made from an Isa (gisa_sim, gisa_gen, gisa_cov),
    freed with the Python object or when its Isa is closed: a subclass
    names its constructor and destructor, two functions of gisa._lib's
    table.

    The library lets one thread at a time use such an object, and a
    callback it runs (a trace function, a commit hook) must not change the
    object under the call that runs it: load() inside a trace function
    freed the program being executed, set_trace(None) freed the callback C
    was returning into. Every method that calls the library takes the
    object's lock without waiting (_reads, _writes): a second thread gets
    RuntimeError instead of racing, and so does a changing call from inside
    the object's own callback (the lock is held by this very thread, on the
    C call that runs the callback); a reading call from there goes on,
    since the library calls back between instructions, where the state is
    whole. Holding the lock counts as a use of the Isa: Isa.close() raises
    RuntimeError while there is one, rather than wait or free it under
    the call."""

    _NEW = ""
    _FREE = ""
    _KIND = ""

    def __init__(self, isa: "Isa", *args: Any) -> None:
        h = ctypes.c_void_p()
        with isa._using("%s.__init__" % self._KIND):
            self._adopt(isa, None)
            st = getattr(self._lib, self._NEW)(isa._h, *args, ctypes.byref(h))
            if st != _c.OK:
                raise Error("%s%r: %s" % (self._NEW, args, _s(self._lib.gisa_status_str(st))), st)
            self._h = h.value

    def _adopt(self, isa: "Isa", h: Optional[int]) -> None:
        """Sets up the Python side of a handle made from isa (call while
        using isa, so that a close cannot come in between)."""
        self.isa = isa
        self._lib = isa._lib
        self._h = h
        self._lock = threading.Lock()
        self._owner: Optional[int] = None  # the thread holding _lock (read only to compare with one's own)
        self._nested = 0                   # reading calls from inside the holder's callbacks
        self._free_lock = threading.Lock()
        isa._dependents.add(self)

    def _enter(self, write: bool, name: str) -> None:
        me = threading.get_ident()
        if self._lock.acquire(blocking=False):
            try:
                self.isa._enter("%s.%s" % (self._KIND, name))
            except BaseException:
                self._lock.release()
                raise
            self._owner = me
            return
        # _owner is this thread only while this thread holds the lock
        if self._owner == me:
            if not write:
                self._nested += 1
                return
            raise RuntimeError("%s.%s called from inside a callback of the same %s (its trace function, commit "
                               "hook or other callback): only reading calls are allowed there"
                               % (self._KIND, name, self._KIND))
        raise RuntimeError("%s.%s: this %s is in use by another thread (one thread at a time: give each thread "
                           "its own, or lock around it)" % (self._KIND, name, self._KIND))

    def _exit(self) -> None:
        if self._nested:
            self._nested -= 1
            return
        self._owner = None
        self.isa._exit()
        self._lock.release()

    @contextlib.contextmanager
    def _held(self, write: bool, name: str) -> Iterator[None]:
        """The lock of a second object a method uses (compare's other)."""
        self._enter(write, name)
        try:
            yield
        finally:
            self._exit()

    def _release(self) -> None:
        """Frees the library object once (from __del__ or Isa.close). The
        free runs under the lock, so that a close() meeting a finaliser
        half done waits for its free before it frees the Isa."""
        with self._free_lock:
            h, self._h = self._h, None
            if h:
                getattr(self._lib, self._FREE)(h)

    def __del__(self) -> None:
        if getattr(self, "_h", None):
            self._release()


# ------------------------------------------------------------------ words
def _word(value: Word) -> _c.gisa_word:
    if isinstance(value, _c.gisa_word):
        return value
    v = _int_in(value, "word", 0, (1 << 128) - 1)
    w = _c.gisa_word()
    w.w[0] = v & 0xFFFFFFFFFFFFFFFF
    w.w[1] = v >> 64
    return w


def _int(w: _c.gisa_word) -> int:
    return int(w.w[0]) | (int(w.w[1]) << 64)


# ------------------------------------------------------------------ decoded instructions
class Operand:
    """An operand in syntax order: kind ("REG", "PAIR", "UREG", "UPAIR",
    "PRED", "UPRED", "PR", "IMM", "F32", "F64", "F16X2", "CBANK", "INDEXED"),
    name, reg, is_zero, value, bits, raw_syntax, bank, offset, pair, bf16,
    deco (GISA_DECO_* bits; also neg/abs/inv/not_ booleans), suffix,
    suffix_default, written, present."""

    def __init__(self, o: _c.gisa_operand) -> None:
        self.kind: str = _c.OPND_KINDS[o.kind] if 0 <= o.kind < len(_c.OPND_KINDS) else str(o.kind)
        self.name: str = _s(o.name)
        self.reg: int = o.reg
        self.is_zero = bool(o.is_zero)
        self.value: int = o.value
        self.bits: int = o.bits
        self.raw_syntax = bool(o.raw_syntax)
        self.bank: int = o.bank
        self.offset: int = o.offset
        self.pair = bool(o.pair)
        self.bf16 = bool(o.bf16)
        self.deco: int = o.deco
        self.neg = bool(o.deco & _c.DECO_NEG)
        self.abs = bool(o.deco & _c.DECO_ABS)
        self.inv = bool(o.deco & _c.DECO_INV)
        self.not_ = bool(o.deco & _c.DECO_NOT)
        self.suffix: Optional[str] = _s(o.suffix)
        self.suffix_default = bool(o.suffix_default)
        self.written = bool(o.written)
        self.present = bool(o.present)

    def __repr__(self) -> str:
        return "Operand(%s %s reg=%d value=%d%s)" % (self.kind, self.name, self.reg, self.value,
                                                    "" if self.present else " absent")


class Modifier:
    """A modifier after the mnemonic: name (the group, or the fixed word),
    value (its spelling or None), is_default, raw (the field value)."""

    def __init__(self, m: _c.gisa_modifier) -> None:
        self.name: str = _s(m.name)
        self.value: Optional[str] = _s(m.value)
        self.is_default = bool(m.is_default)
        self.raw: int = m.raw

    def __repr__(self) -> str:
        return "Modifier(%s=%s%s)" % (self.name, self.value, " default" if self.is_default else "")


class Instruction:
    """A decoded instruction (gisa_inst): word, opcode (name), opcode_index,
    optype, mnemonic, form, fields (dict name -> value, in field order),
    operands (list of Operand), modifiers (list of Modifier), guard
    ((pred, negated) or None), controls ((sched, req, wsb)), text.
    Change .fields and pass it to Isa.encode to make another word."""

    def __init__(self, isa: Isa, inst: _c.gisa_inst) -> None:
        L = _c.lib()
        self.isa = isa
        self._inst = inst
        p = ctypes.byref(inst)
        h = isa._h
        self.word: int = _int(inst.word)
        self.opcode_index: int = inst.opcode
        self.form: int = inst.form
        self.opcode: str = _s(L.gisa_inst_opcode_name(h, p))
        self.optype: str = _s(L.gisa_inst_optype_name(h, p))
        self.mnemonic: str = _s(L.gisa_inst_mnemonic(h, p))
        self.fields: Dict[str, int] = {}
        for i in range(L.gisa_inst_field_count(h, p)):
            self.fields[_s(L.gisa_inst_field_name(h, p, i))] = int(inst.field[i])
        self.operands: List[Operand] = []
        for i in range(L.gisa_inst_operand_count(h, p)):
            o = _c.gisa_operand()
            _check(L.gisa_inst_operand(h, p, i, ctypes.byref(o)), "gisa_inst_operand")
            self.operands.append(Operand(o))
        self.modifiers: List[Modifier] = []
        for i in range(L.gisa_inst_modifier_count(h, p)):
            m = _c.gisa_modifier()
            _check(L.gisa_inst_modifier(h, p, i, ctypes.byref(m)), "gisa_inst_modifier")
            self.modifiers.append(Modifier(m))
        pred, neg = ctypes.c_uint(), ctypes.c_bool()
        self.guard: Optional[Tuple[int, bool]]
        if L.gisa_inst_guard(h, p, ctypes.byref(pred), ctypes.byref(neg)) == _c.OK:
            self.guard = (pred.value, bool(neg.value))
        else:
            self.guard = None
        s, r, w = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        _check(L.gisa_inst_controls(h, p, ctypes.byref(s), ctypes.byref(r), ctypes.byref(w)), "gisa_inst_controls")
        self.controls: Tuple[int, int, int] = (s.value, r.value, w.value)
        buf = ctypes.create_string_buffer(1024)
        L.gisa_print(h, p, buf, len(buf))
        self.text: str = _s(buf.value)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return "Instruction(%s: %s)" % (self.opcode, self.text)


# ------------------------------------------------------------------ the ISA
def targets() -> List[str]:
    """Names of the targets compiled into the library."""
    L = _c.lib()
    return [_s(L.gisa_target_name(i)) for i in range(L.gisa_target_count())]


def library_version() -> str:
    """libgisa's version string ("MAJOR.MINOR.PATCH")."""
    return _s(_c.lib().gisa_version())


def lint_categories() -> List[str]:
    """The categories of lint warnings (Diagnostic.category)."""
    L = _c.lib()
    out: List[str] = []
    while True:
        name = L.gisa_isa_lint_category(len(out))
        if name is None:
            return out
        out.append(_s(name))


def _path_array(paths: Any) -> Tuple[List[Any], Any]:
    if isinstance(paths, (str, bytes)):
        paths = [paths]
    paths = list(paths)
    return paths, (ctypes.c_char_p * max(len(paths), 1))(*[_b(p) for p in paths])


def load(target: Optional[str] = None, paths: Optional[Union[PathLike, Sequence[PathLike]]] = None,
         overlay_dir: Optional[PathLike] = None,
         sources: Optional[Union[Dict[str, Union[str, bytes]], Iterable[Tuple[str, Union[str, bytes]]]]] = None,
         add: Optional[Union[PathLike, Sequence[PathLike]]] = None, max_memory: int = 0) -> Isa:
    """Loads an ISA (gisa_isa_load): the embedded descriptions of `target`
    (None: the default, gisa128), or the description files/directories
    `paths` (`target` then supplies types.isa/rulings.isa unless the files
    or `overlay_dir` have them), or in-memory `sources` (a dict name ->
    text, or (name, text) pairs, in the order given; every file the ISA
    needs, types and target included, must be among them). `add`:
    description files/directories read after that ISA (the embedded one or
    `paths`), an author's own instructions beside the shipped ones (`gisa
    --isa-add`). `max_memory`: bytes the load may use (0: the library's
    default, 4 GiB; gisa --max-memory). Raises Error with the diagnostics on
    failure."""
    L = _c.lib()
    h = ctypes.c_void_p()
    if sum(x is not None for x in (paths, sources)) > 1:
        raise Error("load: give paths or sources, not both", _c.ERR_USAGE)
    if sources is not None and add is not None:
        raise Error("load: add goes with the embedded ISA or paths, not with sources", _c.ERR_USAGE)
    opt = _c.gisa_load_options(target=_b(target), overlay_dir=_b(overlay_dir),
                               max_memory=_uint(max_memory, "max_memory", SIZE_BITS))
    keep: List[Any] = []  # what opt points to, alive while the library reads it
    if sources is not None:
        items = list(sources.items() if isinstance(sources, dict) else sources)
        texts = [_b(t) for _, t in items]
        arr = (_c.gisa_source * max(len(items), 1))(*[_c.gisa_source(_b(str(n)), t, len(t))
                                                      for (n, _), t in zip(items, texts)])
        keep += [texts, arr]
        opt.sources, opt.nsources = arr, len(items)
        what = "loading %s" % ", ".join(str(n) for n, _ in items)
    else:
        base, barr = _path_array(paths if paths is not None else [])
        extra, aarr = _path_array(add if add is not None else [])
        if paths is not None and not base and not extra:
            # an empty list of paths is a mistake, never the embedded ISA
            raise Error("load: paths is empty", _c.ERR_USAGE)
        keep += [barr, aarr]
        opt.paths, opt.npaths, opt.add, opt.nadd = barr, len(base), aarr, len(extra)
        what = "loading %s" % (", ".join(str(p) for p in base) or "target %s" % (target or "(default)"))
        if extra:
            what += " + %s" % ", ".join(str(p) for p in extra)
    with _Diags() as d:
        st = L.gisa_isa_load(ctypes.byref(opt), ctypes.byref(h), d.p)
        if st != _c.OK:
            raise d.error(what, st)
        warnings = d.list()
    isa = Isa(h.value)
    isa.load_diagnostics = warnings
    return isa


_FORMATS = {"bin": _c.FMT_BIN, "hex": _c.FMT_HEX, "c": _c.FMT_C}


class Isa:
    """A loaded instruction set (gisa_isa). Use gisa.load() to make one.

    close() (or the end of a `with` block) frees it at once, with every
    Simulator, Generator and Coverage made from it; a later call of any of
    them raises Error (status GISA_ERR_USAGE) rather than reach freed
    memory. close() raises RuntimeError, closing nothing, while a call of
    the Isa or of one of those objects runs (in another thread, or the
    call whose callback this is)."""

    def __init__(self, handle: int) -> None:
        self._h: Optional[int] = handle
        self._lib = _c.lib()
        self._use_lock = threading.Lock()
        self._users = 0  # calls of the Isa and of its dependents running now
        self._dependents: "weakref.WeakSet[_Handle]" = weakref.WeakSet()
        L = self._lib
        self.word_bits: int = L.gisa_isa_word_bits(handle)
        self.opcodes: List[str] = [_s(L.gisa_isa_opcode_name(handle, i))
                                   for i in range(L.gisa_isa_opcode_count(handle))]
        self.optypes: List[str] = [_s(L.gisa_isa_optype_name(handle, i))
                                   for i in range(L.gisa_isa_optype_count(handle))]
        self.max_regs: int = L.gisa_sim_max_regs(handle)
        self.load_diagnostics: List[Diagnostic] = []

    # -------------------------------------------------------------- lifetime
    def _enter(self, what: str) -> None:
        with self._use_lock:
            if not self._h:
                raise _closed(what)
            self._users += 1

    def _exit(self) -> None:
        with self._use_lock:
            self._users -= 1

    @contextlib.contextmanager
    def _using(self, what: str) -> Iterator[None]:
        self._enter(what)
        try:
            yield
        finally:
            self._exit()

    @property
    def closed(self) -> bool:
        return not getattr(self, "_h", None)

    def close(self) -> None:
        """Frees the ISA now, and every Simulator, Generator and Coverage
        made from it (they raise Error from then on); again: nothing.
        RuntimeError while a call of any of them runs."""
        with self._use_lock:
            h = getattr(self, "_h", None)
            if not h:
                return
            if self._users:
                raise RuntimeError("Isa.close(): the Isa is in use (a call of it, or of a Simulator, Generator "
                                   "or Coverage made from it, is running: in another thread, or the one whose "
                                   "callback this is)")
            self._h = None  # from here on every _enter raises, so nothing reaches the handles freed below
        for d in list(self._dependents):
            d._release()
        self._lib.gisa_isa_free(h)

    def __enter__(self) -> "Isa":
        return self

    def __exit__(self, *a: Any) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_use_lock", None) is not None:
            self.close()

    @property
    def word_mask(self) -> int:
        return (1 << self.word_bits) - 1

    @_isa_call
    def doc(self, name: Optional[str] = None) -> str:
        """Plain-text reference for an optype or opcode (None: the list)."""
        out = ctypes.c_void_p()
        st = self._lib.gisa_isa_doc(self._h, _b(name), ctypes.byref(out))
        s = _c.take_string(out.value)
        if st != _c.OK:
            raise Error("no documentation for %r" % name, st)
        return s or ""

    @_isa_call
    def lint(self) -> List[Diagnostic]:
        """Runs the consistency checks; returns the diagnostics."""
        with _Diags() as d:
            self._lib.gisa_isa_lint(self._h, d.p)
            return d.list()

    # -------------------------------------------------------------- assembler
    def assemble(self, text: Union[str, bytes], filename: str = "<string>") -> List[int]:
        """Assembles source text into a list of words (Python ints). Raises
        Error whose .diagnostics say where and why."""
        return self._assemble(text, filename, None, "assembling %s" % filename)

    def assemble_one(self, text: Union[str, bytes]) -> int:
        """Assembles exactly one instruction into a word."""
        (w,) = self._assemble(text, "<input>", _c.gisa_asm_options(flags=_c.ASM_ONE), "assembling %r" % text)
        return w

    @_isa_call
    def _assemble(self, text: Union[str, bytes], filename: str, opt: Optional[_c.gisa_asm_options],
                  what: str) -> List[int]:
        data = _b(text)
        words = ctypes.POINTER(_c.gisa_word)()
        n = ctypes.c_size_t()
        with _Diags() as d:
            st = self._lib.gisa_assemble(self._h, _b(filename), data, len(data), opt, ctypes.byref(words),
                                         ctypes.byref(n), d.p)
            if st != _c.OK:
                raise d.error(what, st)
        try:
            return [_int(words[i]) for i in range(n.value)]
        finally:
            self._lib.gisa_free(words)

    # -------------------------------------------------------------- disassembler
    @overload
    def disassemble(self, words: int) -> str: ...

    @overload
    def disassemble(self, words: Iterable[int]) -> List[str]: ...

    @_isa_call
    def disassemble(self, words: Union[int, Iterable[int]]) -> Union[str, List[str]]:
        """Canonical text of one word (an int: returns a str) or of a list of
        words (returns a list). An invalid word gives `.invalid 0x... // reason`."""
        if isinstance(words, int):
            return self._dis(words)
        return [self._dis(w) for w in words]

    def _dis(self, w: int) -> str:
        buf = ctypes.create_string_buffer(1024)
        self._lib.gisa_disassemble(self._h, _word(w), buf, len(buf), None)
        return _s(buf.value)

    @_isa_call
    def decode(self, word: int) -> Instruction:
        """Decodes a word into an Instruction; raises Error (with .reason)
        when the word is no instruction."""
        inst = _c.gisa_inst()
        st = self._lib.gisa_decode(self._h, _word(word), ctypes.byref(inst))
        if st != _c.OK:
            why = _s(inst.why)
            raise Error("invalid word %#x: %s" % (int(word), why), st, reason=why)
        return Instruction(self, inst)

    @_isa_call
    def is_valid(self, word: int) -> bool:
        inst = _c.gisa_inst()
        return self._lib.gisa_decode(self._h, _word(word), ctypes.byref(inst)) == _c.OK

    def _inst(self, inst: Instruction, fields: Optional[Dict[str, int]], opcode: Optional[Union[str, int]],
              form: Optional[int]) -> _c.gisa_inst:
        """A gisa_inst from an Instruction with `fields`, `opcode` (name or
        index) and `form` overriding its own."""
        c = _c.gisa_inst()
        ctypes.memmove(ctypes.byref(c), ctypes.byref(inst._inst), ctypes.sizeof(c))
        op = inst.opcode if opcode is None else opcode
        if isinstance(op, str):
            idx = ctypes.c_size_t()
            if self._lib.gisa_isa_find_opcode(self._h, _b(op), ctypes.byref(idx)) != _c.OK:
                raise Error("unknown opcode %r" % op, _c.ERR_USAGE)
            op = idx.value
        if not 0 <= op < len(self.opcodes):
            raise Error("opcode index %r out of range" % op, _c.ERR_USAGE)
        c.opcode = op
        c.form = inst.form if form is None else _int_in(form, "form", -(1 << 31), (1 << 31) - 1)
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

    @_isa_call
    def encode(self, inst: Instruction, fields: Optional[Dict[str, int]] = None,
               opcode: Optional[Union[str, int]] = None, form: Optional[int] = None) -> int:
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

    @_isa_call
    def print(self, inst: Instruction, fields: Optional[Dict[str, int]] = None,
              opcode: Optional[Union[str, int]] = None, form: Optional[int] = None) -> str:
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
    @_isa_call
    def serialize(self, words: Sequence[int], format: str = "bin") -> bytes:
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

    @_isa_call
    def parse_words(self, data: Union[str, bytes], hex: bool = False) -> List[int]:
        """Words (ints) from a binary image (hex=False) or hex text, as
        `gisa dis` reads them. Raises Error with the diagnostics."""
        data = _b(data)
        words = ctypes.POINTER(_c.gisa_word)()
        n = ctypes.c_size_t()
        with _Diags() as d:
            st = self._lib.gisa_words_parse(self._h, data, len(data), bool(hex), ctypes.byref(words),
                                            ctypes.byref(n), d.p)
            if st != _c.OK:
                raise d.error("reading words", st)
        try:
            return [_int(words[i]) for i in range(n.value)]
        finally:
            self._lib.gisa_free(words)

    # -------------------------------------------------------------- manual
    @_isa_call
    def manual(self) -> Dict[str, bytes]:
        """The HTML reference manual (gisa_isa_manual, what `gisa doc
        --html` writes) as a dict: page name -> bytes, in the library's
        order."""
        pages: Dict[str, bytes] = {}

        def page(_user: Any, name: bytes, data: int, n: int) -> None:
            pages[_s(name)] = ctypes.string_at(data, n) if n else b""

        fn = _Callback(_c.PAGE_FN, page)
        st = self._lib.gisa_isa_manual(self._h, fn.c, None)
        fn.reraise()
        if st != _c.OK:
            raise Error("manual: %s" % _s(self._lib.gisa_status_str(st)), st)
        return pages

    # -------------------------------------------------------------- simulator, generator, coverage
    def simulator(self, warps: int = 1, regs: Optional[int] = None, threads: Optional[int] = None,
                  engine: Optional[str] = None) -> Simulator:
        """A new Simulator: `warps` warps of 32 lanes, `regs` registers per
        lane (None: the most the target names), `threads` workers for run()
        (None: the library's default, one per core), `engine` ("auto",
        "native" or "doc"; None: auto)."""
        from ._sim import Simulator
        return Simulator(self, warps, self.max_regs if regs is None else regs, threads, engine)

    def generator(self, **options: Any) -> Generator:
        """A random program Generator for this ISA, with options set by
        name (generator(regs=16, guard_rate=0.5, include=["IADD", "SEL"]))."""
        from ._gen import Generator
        return Generator(self, **options)

    def coverage(self) -> Coverage:
        """An empty Coverage of this ISA's model."""
        from ._cov import Coverage
        return Coverage(self)
