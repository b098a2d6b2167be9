"""Random programs from the model (gisa_gen: `gisa gen`), and shrinking a
failing program (gisa_shrink: `gisa shrink`)."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union

from . import _lib as _c
from ._core import SIZE_BITS, _b, _Callback, _check, _Diags, _Handle, _int, _reads, _string_out, _uint, _writes

if TYPE_CHECKING:
    from ._core import Isa
    from ._sim import Simulator

OptionValue = Union[str, int, float, Dict[str, int], List[str], Tuple[str, ...]]


def _option_text(name: str, value: OptionValue) -> str:
    """An option's value as the text gisa_gen_set reads."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise TypeError("option %s: a bool is no value (give a number or text)" % name)
    if isinstance(value, dict):
        return ",".join("%s=%d" % (k, int(w)) for k, w in value.items())
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value) if value else "none"
    if isinstance(value, float):
        return "%.6f" % value  # the library reads rates to the millionth
    return str(int(value))


class Program:
    """A generated program: words (ints), text (one canonical instruction a
    line after a header comment), state (the initial state, JSON for
    Simulator.read_state_json), regs (the registers per lane it needs),
    seed and count."""

    def __init__(self, isa: Isa, seed: int, words: List[int], text: str, state: str, regs: int) -> None:
        self.isa = isa
        self.seed = seed
        self.words = words
        self.count = len(words)
        self.text = text
        self.state = state
        self.regs = regs

    def lines(self) -> List[str]:
        """The instructions' text, one per word (the header left out)."""
        return [ln for ln in self.text.splitlines() if ln and not ln.startswith("//")]

    def simulator(self, warps: Optional[int] = None, threads: Optional[int] = None,
                  engine: Optional[str] = None) -> Simulator:
        """A Simulator with the registers the program needs, its initial
        state read and the program loaded; as many warps as the state has
        (the generator's warps option) unless warps says."""
        if warps is None:
            warps = self.state.count('"active"') or 1
        sim = self.isa.simulator(warps=warps, regs=self.regs, threads=threads, engine=engine)
        sim.read_state_json(self.state, name="<generated state, seed %d>" % self.seed)
        sim.load(self.words)
        return sim

    def __repr__(self) -> str:
        return "Program(seed=%d, %d instructions, regs=%d)" % (self.seed, self.count, self.regs)


class Generator(_Handle):
    """A random program generator driven by the model (docs/verification.md):
    every program decodes, disassembles to its text and runs without a
    fault. Options are `gisa gen`'s, by name ("guard-rate" or guard_rate):
    numbers, rates as floats from 0 to 1, weights as a dict {"FFMA": 5},
    include/exclude/streams as lists of names, or any of them as the text
    the command line takes. The same options and seed give the same program
    on any machine."""

    _NEW, _FREE, _KIND = "gisa_gen_new", "gisa_gen_free", "Generator"

    def __init__(self, isa: Isa, **options: OptionValue) -> None:
        super().__init__(isa)
        self.configure(**options)

    @_writes
    def set(self, name: str, value: OptionValue) -> None:
        """Sets one option; raises Error (with a diagnostic naming the
        option, the value and what was expected) and keeps the old value
        when the value is refused."""
        name = name.replace("_", "-")
        text = _option_text(name, value)
        with _Diags() as d:
            st = self._lib.gisa_gen_set(self._h, _b(name), _b(text), d.p)
            if st != _c.OK:
                raise d.error("option %s=%r" % (name, text), st)

    def configure(self, **options: OptionValue) -> Generator:
        """Sets several options (keyword names use _ for -); returns self."""
        for name, value in options.items():
            self.set(name, value)
        return self

    @_writes
    def generate(self, seed: int = 1, count: int = 100) -> Program:
        """`count` instructions from `seed` (0 to 2**64-1) as a Program."""
        seed = _uint(seed, "seed", 64)
        count = _uint(count, "count", SIZE_BITS)
        L = self._lib
        with _Diags() as d:
            st = L.gisa_gen_generate(self._h, seed, count, d.p)
            if st != _c.OK:
                raise d.error("generating %d instructions from seed %d" % (count, seed), st)
        wp, n = ctypes.POINTER(_c.gisa_word)(), ctypes.c_size_t()
        _check(L.gisa_gen_words(self._h, ctypes.byref(wp), ctypes.byref(n)), "gisa_gen_words")
        words = [_int(wp[i]) for i in range(n.value)]
        return Program(self.isa, seed, words, self._text(L.gisa_gen_text, "gisa_gen_text"),
                       self._text(L.gisa_gen_state, "gisa_gen_state"), int(L.gisa_gen_regs(self._h)))

    def _text(self, f: Any, what: str) -> str:
        """The text f(g, const char **, size_t *) gives (owned by g)."""
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        _check(f(self._h, ctypes.byref(p), ctypes.byref(n)), what)
        return ctypes.string_at(p.value, n.value).decode("utf-8") if p.value and n.value else ""

    @_reads
    def names(self) -> str:
        """The names the options take (families and their optypes, directed
        streams), as `gisa gen --list` prints them."""
        return _string_out(self._lib.gisa_gen_names, "gisa_gen_names", self._h)


def shrink(text: str, test: Callable[[str], bool]) -> Tuple[str, int]:
    """Delta debugging over the lines of `text` (gisa_shrink, `gisa
    shrink`): test(candidate) says whether a candidate (a subset of the
    lines, in order) still shows the failure. Returns the smallest such
    text found (1-minimal: no single line can be removed) and the number of
    tests run. Raises Error when `text` itself does not fail; an exception
    in `test` stops the search and is raised again."""
    L = _c.lib()

    def call(_user: Any, data: int, n: int, interesting: Any) -> None:
        interesting[0] = bool(test(ctypes.string_at(data, n).decode("utf-8", "replace")))

    fn = _Callback(_c.SHRINK_FN, call)
    data = _b(text)
    out, out_len, ntests = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_size_t()
    with _Diags() as d:
        st = L.gisa_shrink(data, len(data), fn.c, None, ctypes.byref(out), ctypes.byref(out_len),
                           ctypes.byref(ntests), d.p)
        try:
            result = ctypes.string_at(out.value, out_len.value).decode("utf-8") if out.value else ""
        finally:
            L.gisa_free(out)
        fn.reraise()
        if st != _c.OK:
            raise d.error("shrink", st)
    return result, ntests.value
