"""The SIMT simulator: registers as lanes, running and stepping, commit
records, checkpoints, engines, traces and state files."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, List, Optional, Sequence, Union

from . import _lib as _c
from ._core import (SIZE_BITS, Error, Instruction, SimFault, _b, _bits, _Callback, _check, _Diags, _Handle, _int,
                    _int_in, _reads, _s, _uint, _word, _writes)
from ._values import (Lanes, bits_f32, bool_lanes, f32_bits, is_lanes, lanes_f32, to_u32_list, u32_lanes,
                      u64_lanes)

if TYPE_CHECKING:
    from ._core import Isa

_RF_NAMES = ("R", "P", "UR", "UP")
ENGINES = {"auto": _c.ENGINE_AUTO, "native": _c.ENGINE_NATIVE, "doc": _c.ENGINE_DOC}
_TRACE_VALUES = {"f32": _c.TRACE_F32, "f64": _c.TRACE_F64, "f16": _c.TRACE_F16, "bf16": _c.TRACE_BF16}
_STATE_VALUES = {"hex": _c.STATE_HEX, "f32": _c.STATE_F32, "f64": _c.STATE_F64, "f16x2": _c.STATE_F16X2,
                 "bf16x2": _c.STATE_BF16X2}


def _trace_flags(json: bool, values: Iterable[str]) -> int:
    flags = _c.TRACE_JSON if json else 0
    for v in values:
        if v not in _TRACE_VALUES:
            raise ValueError("unknown trace value format %r (%s)" % (v, ", ".join(_TRACE_VALUES)))
        flags |= _TRACE_VALUES[v]
    return flags


def _lane(lane: Any) -> int:
    """A lane number for gisa_sim_set (int, where -1 is every lane: the
    package says None for that) and gisa_sim_get (unsigned)."""
    return _int_in(lane, "lane", 0, (1 << 31) - 1)


class Effect:
    """One register an instruction wrote (gisa_sim_effect): rf ("R", "P",
    "UR", "UP"), index, mask (the lanes written; 1 for uniform ones), and
    old/new: the 32 lanes' values before and after (uniform: lane 0), a
    numpy uint32 array (a list without numpy)."""

    __slots__ = ("rf", "index", "mask", "old", "new")

    def __init__(self, e: _c.gisa_sim_effect) -> None:
        self.rf: str = _RF_NAMES[e.rf]
        self.index: int = e.index
        self.mask: int = e.mask
        self.old: Lanes = u32_lanes(e.old_value)
        self.new: Lanes = u32_lanes(e.value)

    @property
    def lanes(self) -> List[int]:
        """The lanes written, in order."""
        return [ln for ln in range(_c.SIM_LANES) if self.mask >> ln & 1]

    def __repr__(self) -> str:
        return "Effect(%s%d, mask=0x%08x)" % (self.rf, self.index, self.mask)


class Commit:
    """What one executed instruction did (gisa_sim_commit): warp, pc, word,
    text, instruction (an Instruction), active and exec masks (exec 0: the
    guard skipped it), engine ("native" or "doc": which ran it; None when
    neither could), effects (list of Effect, in write order). These are
    copies, the Commit's own for good; trace() and Coverage.record, which
    hand the record to the library, need the program it was made from
    still loaded, and raise Error otherwise."""

    def __init__(self, sim: Simulator, c: _c.gisa_sim_commit) -> None:
        self._sim = sim
        self._program = sim._program  # the record's inst and text point into that program
        self.warp: int = c.warp
        self.pc: int = c.pc
        self.word: int = _int(c.word)
        self.text: str = _s(c.text)
        self.active: int = c.active
        self.exec: int = c.exec
        self.engine: Optional[str] = {v: k for k, v in ENGINES.items()}.get(c.engine) if c.engine else None
        self.effects: List[Effect] = [Effect(c.effect[i]) for i in range(c.neffects)]
        self.instruction: Optional[Instruction] = (
            Instruction(sim.isa, _c.gisa_inst.from_buffer_copy(c.inst.contents)) if c.inst else None)
        self._raw = c

    def trace(self, json: bool = False, values: Iterable[str] = ()) -> List[str]:
        """The trace lines of this record, as gisa run --trace prints them:
        text or JSON, with the values also read as numbers for each format
        of `values` ("f32", "f64", "f16", "bf16")."""
        return self._sim._format(self, _trace_flags(json, values))

    def _check_current(self, what: str) -> None:
        """Raises unless the record still points into the program its
        simulator has loaded (the library frees it on the next load)."""
        if self._program is not self._sim._program:
            raise Error("%s: the simulator loaded another program after this commit record was made (its "
                        ".text, .instruction and .effects stay readable)" % what, _c.ERR_USAGE)

    def __repr__(self) -> str:
        return "Commit(w%d pc %d exec 0x%08x %s, %d writes)" % (self.warp, self.pc, self.exec, self.text,
                                                               len(self.effects))


class Simulator(_Handle):
    """A functional SIMT simulator (gisa_sim). Register values are unsigned
    32-bit ints (negative ones are taken as two's complement); the 32 lanes
    of a register come as a numpy array when numpy can be imported (uint32;
    bool for predicates, uint64 for pairs), else as a list.

    One thread at a time: a call while another thread's call runs raises
    RuntimeError, and so does a call that would change the simulator
    (load, set_*, run, step, ...) from inside its own trace function or
    commit hook; reading calls (get_*, pc, done, state_json, compare,
    clone, Commit.trace) work there. Integers out of their C type's range
    raise ValueError. After its Isa is closed every call raises Error."""

    _NEW, _FREE, _KIND = "gisa_sim_new", "gisa_sim_free", "Simulator"

    def __init__(self, isa: Isa, warps: int = 1, regs: int = 255, threads: Optional[int] = None,
                 engine: Optional[str] = None) -> None:
        super().__init__(isa, _uint(regs, "regs"), _uint(warps, "warps"))
        self._init_state(self._lib.gisa_sim_warps(self._h), self._lib.gisa_sim_regs(self._h), "auto")
        if threads is not None:
            self.set_threads(threads)
        if engine is not None:
            self.set_engine(engine)

    def _init_state(self, warps: int, regs: int, engine: str) -> None:
        self.warps: int = warps
        self.regs: int = regs
        self.engine: str = engine
        self._trace_cb: Optional[_Callback] = None
        self._hook: Any = None  # the commit callback (a _Callback), or the Coverage attached
        self._program = object()  # a new one per load: what Commit records point into

    @staticmethod
    def footprint(regs: int, warps: int, nwords: int) -> int:
        """Bytes a simulator of `warps` warps and `regs` registers running a
        program of `nwords` words needs (a resource check before making it)."""
        return int(_c.lib().gisa_sim_footprint(_uint(regs, "regs"), _uint(warps, "warps"),
                                               _uint(nwords, "nwords", SIZE_BITS)))

    @_writes
    def set_engine(self, engine: str, optypes: Optional[Iterable[str]] = None) -> None:
        """Which semantics run the instructions: "native" (the C functions),
        "doc" (the ISA documents' pseudo-code with the rulings' patches) or
        "auto" (native where the optype has a C function, doc otherwise).
        With `optypes` (names such as "FFMA"), only those run under `engine`,
        the others as before (gisa_sim_set_engine_for); an unknown name
        raises KeyError."""
        if engine not in ENGINES:
            raise ValueError("unknown engine %r (auto, native or doc)" % engine)
        if optypes is None:
            _check(self._lib.gisa_sim_set_engine(self._h, ENGINES[engine]), "set_engine")
            self.engine = engine
            return
        for name in optypes:
            st = self._lib.gisa_sim_set_engine_for(self._h, str(name).encode(), ENGINES[engine])
            if st == _c.ERR_NOTFOUND:
                raise KeyError("no optype %r" % name)
            _check(st, "set_engine")

    @_writes
    def set_threads(self, threads: int) -> None:
        """Worker threads of run() (0: one per online core)."""
        _check(self._lib.gisa_sim_set_threads(self._h, _uint(threads, "threads")), "gisa_sim_set_threads")

    @_writes
    def load(self, program: Union[str, bytes, Sequence[int]]) -> None:
        """Loads the program: a list of words, or assembly text."""
        if isinstance(program, (str, bytes)):
            program = self.isa.assemble(program)
        arr = (_c.gisa_word * max(1, len(program)))()
        for i, w in enumerate(program):
            arr[i] = _word(w)
        self._program = object()  # earlier Commit records now point into freed memory
        _check(self._lib.gisa_sim_load(self._h, arr, len(program)), "gisa_sim_load")

    @_writes
    def run(self) -> None:
        """Runs every warp to the end; raises SimFault on a fault (the state
        stays readable). An exception raised by the trace function or the
        commit hook stops the run after that instruction and is raised
        again here (resume() goes on from there)."""
        f = _c.gisa_sim_fault()
        st = self._lib.gisa_sim_run(self._h, ctypes.byref(f))
        self._ran(st, f, "gisa_sim_run")

    def _ran(self, st: int, f: _c.gisa_sim_fault, what: str) -> None:
        """After a run: the exception of a callback that stopped it, the
        fault, or the status."""
        for cb in (self._trace_cb, self._hook):
            if isinstance(cb, _Callback):
                cb.reraise()
        if st == _c.ERR_SIM:
            raise SimFault(f)
        _check(st, what)

    @_writes
    def step(self, warp: int = 0) -> Commit:
        """Executes the next instruction of `warp` and returns its Commit;
        raises SimFault when it faults (the warp halts at it), Error when
        the warp is done."""
        c = _c.gisa_sim_commit()
        f = _c.gisa_sim_fault()
        st = self._lib.gisa_sim_step(self._h, _uint(warp, "warp"), ctypes.byref(c), ctypes.byref(f))
        if st == _c.ERR_SIM:
            raise SimFault(f)
        _check(st, "gisa_sim_step(warp %d)" % warp)
        return Commit(self, c)

    def commits(self, warp: int = 0) -> Iterator[Commit]:
        """Steps `warp` to its end, yielding each Commit."""
        while not self.done(warp):
            yield self.step(warp)

    @_reads
    def pc(self, warp: int = 0) -> int:
        pc = ctypes.c_size_t()
        _check(self._lib.gisa_sim_pc(self._h, _uint(warp, "warp"), ctypes.byref(pc)), "gisa_sim_pc(warp %d)" % warp)
        return pc.value

    @_writes
    def set_pc(self, warp: int, pc: int) -> None:
        _check(self._lib.gisa_sim_set_pc(self._h, _uint(warp, "warp"), _uint(pc, "pc", SIZE_BITS)), "gisa_sim_set_pc")

    @_reads
    def done(self, warp: int = 0) -> bool:
        done = ctypes.c_bool()
        _check(self._lib.gisa_sim_done(self._h, _uint(warp, "warp"), ctypes.byref(done)),
               "gisa_sim_done(warp %d)" % warp)
        return done.value

    @_writes
    def resume(self) -> None:
        """Runs every warp from its own pc to the end (gisa_sim_continue)."""
        f = _c.gisa_sim_fault()
        st = self._lib.gisa_sim_continue(self._h, ctypes.byref(f))
        self._ran(st, f, "gisa_sim_continue")

    @_reads
    def clone(self) -> Simulator:
        """An independent copy of the whole simulator (a checkpoint: state,
        constants, program, pcs, engine; not the trace or commit hooks)."""
        h = ctypes.c_void_p()
        _check(self._lib.gisa_sim_clone(self._h, ctypes.byref(h)), "gisa_sim_clone")
        other = Simulator.__new__(Simulator)
        other._adopt(self.isa, h.value)  # this call's use of the Isa keeps a close out meanwhile
        other._init_state(self.warps, self.regs, self.engine)
        return other

    @_reads
    def compare(self, other: Simulator) -> Optional[str]:
        """None when both simulators' states are equal, else the first
        difference as text ("warp 0 R5 lane 3: 0x... != 0x...")."""
        d = _c.gisa_sim_diff()
        equal = ctypes.c_bool()
        with other._held(False, "compare"):
            _check(self._lib.gisa_sim_compare(self._h, other._h, ctypes.byref(equal), ctypes.byref(d)),
                   "gisa_sim_compare")
        return None if equal.value else _s(d.text)

    @_reads
    def _format(self, commit: Commit, flags: int) -> List[str]:
        """Commit.trace: the library reads the record's inst and text,
        which point into the program loaded when it was made."""
        commit._check_current("Commit.trace")
        lines: List[str] = []
        cb = _Callback(_c.TRACE_FN, lambda user, line: lines.append(_s(line)))
        st = self._lib.gisa_sim_commit_format(self._h, ctypes.byref(commit._raw), flags, cb.c, None)
        cb.reraise()
        _check(st, "trace")
        return lines

    @_writes
    def set_trace(self, fn: Optional[Callable[[str], Any]], json: bool = False,
                  values: Iterable[str] = ()) -> None:
        """fn(line) is called per trace line during run()/resume() (None:
        tracing off); `json` and `values` as Commit.trace. An exception fn
        raises stops the run, which raises it."""
        _check(self._lib.gisa_sim_set_trace_flags(self._h, _trace_flags(json, values)), "gisa_sim_set_trace_flags")
        cb = None if fn is None else _Callback(_c.TRACE_FN, lambda user, line: fn(_s(line)))
        _check(self._lib.gisa_sim_set_trace(self._h, _c.TRACE_FN() if cb is None else cb.c, None),
               "gisa_sim_set_trace")
        self._trace_cb = cb

    @_writes
    def set_commit_hook(self, fn: Optional[Callable[[Commit], Any]]) -> None:
        """fn(commit) is called with the Commit of every instruction that
        run()/resume() executes (the run then uses one thread); None turns
        it off. It replaces a Coverage attached with Coverage.attach. An
        exception fn raises stops the run, which raises it."""
        cb = None if fn is None else _Callback(
            _c.COMMIT_FN, lambda user, c: fn(Commit(self, _c.gisa_sim_commit.from_buffer_copy(c.contents))))
        _check(self._lib.gisa_sim_set_commit_hook(self._h, _c.COMMIT_FN() if cb is None else cb.c, None),
               "gisa_sim_set_commit_hook")
        self._hook = cb

    # -------------------------------------------------------------- registers
    def _set(self, warp: int, rf: int, index: int, value: Any, lane: Optional[int]) -> None:
        if is_lanes(value):
            for ln, v in enumerate(to_u32_list(value)):
                self._set(warp, rf, index, v, ln)
            return
        v = _bits(value, "value")
        st = self._lib.gisa_sim_set(self._h, _uint(warp, "warp"), rf, _uint(index, "register index"),
                                    -1 if lane is None else _lane(lane), v)
        _check(st, "set %s%d (warp %d)" % (_RF_NAMES[rf], index, warp))

    def _get(self, warp: int, rf: int, index: int, lane: int) -> int:
        v = ctypes.c_uint32()
        st = self._lib.gisa_sim_get(self._h, _uint(warp, "warp"), rf, _uint(index, "register index"), _lane(lane),
                                    ctypes.byref(v))
        _check(st, "get %s%d (warp %d)" % (_RF_NAMES[rf], index, warp))
        return v.value

    def _lanes(self, warp: int, rf: int, index: int) -> List[int]:
        return [self._get(warp, rf, index, ln) for ln in range(_c.SIM_LANES)]

    @_writes
    def set_reg(self, warp: int, index: int, value: Any, lane: Optional[int] = None) -> None:
        """Sets R<index> of one lane, of every lane (lane None), or from 32
        lane values (a list, or a numpy array: integers, or float32 numbers
        whose bits are taken)."""
        self._set(warp, _c.RF_R, index, value, lane)

    @_reads
    def get_reg(self, warp: int, index: int, lane: Optional[int] = None) -> Any:
        """R<index>: the 32 lane values (numpy uint32 array, or a list), or
        one lane's value (an int)."""
        if lane is not None:
            return self._get(warp, _c.RF_R, index, lane)
        return u32_lanes(self._lanes(warp, _c.RF_R, index))

    @_writes
    def set_reg_f32(self, warp: int, index: int, value: Any, lane: Optional[int] = None) -> None:
        """Sets R<index> to the binary32 bits of a float, or of 32 floats."""
        if is_lanes(value):
            value = [f32_bits(float(x)) for x in value]
        else:
            value = f32_bits(float(value))
        self._set(warp, _c.RF_R, index, value, lane)

    @_reads
    def get_reg_f32(self, warp: int, index: int, lane: Optional[int] = None) -> Any:
        """R<index> read as binary32: a float32 array (a list of floats
        without numpy), or one lane's float."""
        if lane is not None:
            return bits_f32(self._get(warp, _c.RF_R, index, lane))
        return lanes_f32(u32_lanes(self._lanes(warp, _c.RF_R, index)))

    @_writes
    def set_pair(self, warp: int, index: int, value: Any, lane: Optional[int] = None) -> None:
        """Sets R[index:index+1] from a 64-bit value (low word in R<index>),
        or from 32 lane values (a float64 array gives its bits)."""
        if is_lanes(value):
            for ln, v in enumerate(to_u32_list(value, 64)):
                self._set_pair(warp, index, v, ln)
            return
        self._set_pair(warp, index, value, lane)

    def _set_pair(self, warp: int, index: int, value: Any, lane: Optional[int]) -> None:
        v = _bits(value, "value", 64)
        self._set(warp, _c.RF_R, index, v & 0xFFFFFFFF, lane)
        self._set(warp, _c.RF_R, _uint(index, "register index") + 1, v >> 32, lane)

    @_reads
    def get_pair(self, warp: int, index: int, lane: Optional[int] = None) -> Any:
        """R[index:index+1] as 64-bit values: uint64 array (or list), or one
        lane's int."""
        if lane is not None:
            return self._get(warp, _c.RF_R, index, lane) | self._get(warp, _c.RF_R, index + 1, lane) << 32
        lo, hi = self._lanes(warp, _c.RF_R, index), self._lanes(warp, _c.RF_R, index + 1)
        return u64_lanes([a | b << 32 for a, b in zip(lo, hi)])

    @_writes
    def set_pred(self, warp: int, index: int, value: Any, lane: Optional[int] = None) -> None:
        if is_lanes(value):
            value = [1 if v else 0 for v in value]
        else:
            value = 1 if value else 0
        self._set(warp, _c.RF_P, index, value, lane)

    @_reads
    def get_pred(self, warp: int, index: int, lane: Optional[int] = None) -> Any:
        """P<index>: 32 lanes (numpy bool array, or a list), or one bool."""
        if lane is not None:
            return bool(self._get(warp, _c.RF_P, index, lane))
        return bool_lanes(self._lanes(warp, _c.RF_P, index))

    @_writes
    def set_ureg(self, warp: int, index: int, value: int) -> None:
        self._set(warp, _c.RF_UR, index, value, 0)

    @_reads
    def get_ureg(self, warp: int, index: int) -> int:
        return self._get(warp, _c.RF_UR, index, 0)

    @_writes
    def set_upred(self, warp: int, index: int, value: bool) -> None:
        self._set(warp, _c.RF_UP, index, 1 if value else 0, 0)

    @_reads
    def get_upred(self, warp: int, index: int) -> bool:
        return bool(self._get(warp, _c.RF_UP, index, 0))

    @_writes
    def set_active(self, warp: int, mask: int) -> None:
        _check(self._lib.gisa_sim_set_active(self._h, _uint(warp, "warp"), _bits(mask, "mask")), "set_active")

    @_reads
    def get_active(self, warp: int) -> int:
        mask = ctypes.c_uint32()
        _check(self._lib.gisa_sim_get_active(self._h, _uint(warp, "warp"), ctypes.byref(mask)), "get_active")
        return mask.value

    @_writes
    def set_const(self, bank: int, offset: int, value: int) -> None:
        """Constant memory c[bank][offset] (4-byte aligned byte offset)."""
        _check(self._lib.gisa_sim_set_const(self._h, _uint(bank, "bank"), _uint(offset, "offset"),
                                            _bits(value, "value")),
               "set c[%#x][%#x]" % (bank, offset))

    @_reads
    def get_const(self, bank: int, offset: int) -> int:
        v = ctypes.c_uint32()
        _check(self._lib.gisa_sim_get_const(self._h, _uint(bank, "bank"), _uint(offset, "offset"), ctypes.byref(v)),
               "get c[%#x][%#x]" % (bank, offset))
        return v.value

    # -------------------------------------------------------------- state files
    @_reads
    def state_json(self, values: str = "hex") -> str:
        """The state as JSON text (docs/simulator.md), as `gisa run` writes
        it; `values` shows R and UR as "hex" bits (the default), or as
        "f32", "f64" (pairs), "f16x2" or "bf16x2" numbers."""
        if values not in _STATE_VALUES:
            raise ValueError("unknown state value format %r (%s)" % (values, ", ".join(_STATE_VALUES)))
        parts: List[bytes] = []
        fn = _Callback(_c.WRITE_FN, lambda _user, data, n: parts.append(ctypes.string_at(data, n)))
        st = self._lib.gisa_sim_state_write(self._h, _STATE_VALUES[values], fn.c, None)
        fn.reraise()
        if st == _c.ERR_NOMEM:
            raise MemoryError("gisa_sim_state_write")
        _check(st, "state_json")
        return b"".join(parts).decode("utf-8")

    @_writes
    def read_state_json(self, text: Union[str, bytes], name: str = "<state>") -> None:
        """Applies a JSON state (the `gisa run --state` format); raises Error
        with diagnostics naming the key, changing nothing. The text is
        checked first (gisa_state_parse), then applied to this simulator
        (gisa_sim_state_apply: the warp count and the registers must fit)."""
        data = _b(text)
        state = ctypes.c_void_p()
        with _Diags() as d:
            st = self._lib.gisa_state_parse(_b(name), data, len(data), ctypes.byref(state), d.p)
            if st != _c.OK:
                raise d.error("reading state %s" % name, st)
            try:
                st = self._lib.gisa_sim_state_apply(self._h, state, d.p)
            finally:
                self._lib.gisa_state_free(state)
            if st != _c.OK:
                raise d.error("reading state %s" % name, st)
