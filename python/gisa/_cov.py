"""Functional coverage of what the simulator executed (gisa_cov: `gisa
cov`, docs/coverage.md)."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Dict, Tuple, Union

from . import _lib as _c
from ._core import Error, _b, _check, _Diags, _Handle, _reads, _string_out, _writes

if TYPE_CHECKING:
    from ._core import Isa
    from ._sim import Commit, Simulator

_FIGURES = ("opcodes", "optypes", "modifier_values", "combinations", "operand_kinds", "decorations", "fp_classes",
            "value_classes", "results", "patterns", "raw_distances", "crosses", "user_bins")


class CoverageSummary:
    """The summary of a Coverage: executed and skipped instruction counts,
    and (hit, total) for each of opcodes, optypes, modifier_values,
    combinations, operand_kinds, decorations and fp_classes."""

    __slots__ = ("executed", "skipped") + _FIGURES

    def __init__(self, s: _c.gisa_cov_summary) -> None:
        self.executed: int = s.executed
        self.skipped: int = s.skipped
        for name in _FIGURES:
            f = getattr(s, name)
            setattr(self, name, (int(f.hit), int(f.total)))

    def as_dict(self) -> Dict[str, Union[int, Tuple[int, int]]]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __repr__(self) -> str:
        return "CoverageSummary(%s)" % ", ".join("%s=%r" % kv for kv in self.as_dict().items())


class Coverage(_Handle):
    """What executed instructions exercised, against the universe the model
    gives (opcodes, modifier values, their combinations, operand kinds,
    decorations, floating-point classes of the sources). Count a step with
    record(sim, commit), or every instruction of a simulator's runs with
    attach(sim); merge() adds another Coverage of the same Isa; json() and
    read_json() are the files of `gisa cov`."""

    _NEW, _FREE, _KIND = "gisa_cov_new", "gisa_cov_free", "Coverage"

    def __init__(self, isa: Isa) -> None:
        super().__init__(isa)

    @_writes
    def record(self, sim: Simulator, commit: Commit) -> None:
        """Counts one Commit of `sim` (from Simulator.step); call it before
        `sim` executes anything else (sources are read from its state)."""
        if commit._sim is not sim:
            raise Error("Coverage.record: the commit record is of another simulator", _c.ERR_USAGE)
        commit._check_current("Coverage.record")  # the library reads its inst
        with sim._held(False, "record"):
            _check(self._lib.gisa_cov_record(self._h, sim._h, ctypes.byref(commit._raw)), "coverage record")

    @_writes
    def attach(self, sim: Simulator) -> None:
        """Counts every instruction of `sim`'s later run()/resume() (through
        its commit hook, which this replaces); sim.set_commit_hook(None)
        ends it. `sim` keeps this Coverage alive while attached."""
        with sim._held(True, "attach"):  # it sets sim's commit hook
            _check(self._lib.gisa_cov_attach(self._h, sim._h), "coverage attach")
            sim._hook = self

    @_writes
    def merge(self, other: Coverage) -> None:
        """Adds the counts of `other` (made from the same Isa object)."""
        with other._held(False, "merge"):
            _check(self._lib.gisa_cov_merge(self._h, other._h), "coverage merge")

    @_reads
    def json(self) -> str:
        """Every item of the universe with its count, and the summary, as
        the JSON text `gisa cov --json` writes."""
        return _string_out(self._lib.gisa_cov_write_json, "gisa_cov_write_json", self._h)

    @_writes
    def read_json(self, text: Union[str, bytes], name: str = "<coverage>") -> None:
        """Adds the counts of a coverage file: all or nothing; raises Error
        with diagnostics (not a coverage file, another target, a name this
        model does not have)."""
        data = _b(text)
        with _Diags() as d:
            st = self._lib.gisa_cov_read_json(self._h, _b(name), data, len(data), d.p)
            if st != _c.OK:
                raise d.error("reading coverage %s" % name, st)

    @_reads
    def report(self) -> str:
        """The report for people: the summary, then per optype its hit/total
        figures and what was never hit."""
        return _string_out(self._lib.gisa_cov_report, "gisa_cov_report", self._h)

    @_reads
    def report_html(self) -> str:
        """The report as one HTML page (the manual's look): the holes first,
        then every group's hit/total."""
        return _string_out(self._lib.gisa_cov_report_html, "gisa_cov_report_html", self._h)

    @_writes
    def load_bins(self, text: Union[str, bytes], name: str = "<bins>") -> None:
        """Adds the user-defined bins of a bins file ("bin NAME: OPTYPE[.VALUE...]
        [OPERAND=CLASS ...]", docs/coverage.md): all or nothing; raises Error
        with diagnostics located name:line:col."""
        data = _b(text)
        with _Diags() as d:
            st = self._lib.gisa_cov_load_bins(self._h, _b(name), data, len(data), d.p)
            if st != _c.OK:
                raise d.error("reading bins %s" % name, st)

    @_reads
    def summary(self) -> CoverageSummary:
        s = _c.gisa_cov_summary()
        _check(self._lib.gisa_cov_summary_get(self._h, ctypes.byref(s)), "coverage summary")
        return CoverageSummary(s)
