"""Python binding of libgisa: assembler, disassembler, decoder, simulator,
random program generator and coverage of ISA-description-driven GPU
instruction sets (ctypes over libgisa.so, nothing to compile).

    import gisa
    isa = gisa.load()                       # the default target, gisa128
    words = isa.assemble("FADD R0, R1, R2")
    print(isa.disassemble(words))           # ['FADD R0, R1, R2']
    sim = isa.simulator()
    sim.load(words)
    sim.set_reg_f32(0, 1, 1.0)
    sim.set_reg_f32(0, 2, 2.0)
    sim.run()
    print(sim.get_reg_f32(0, 0))            # 32 lanes of 3.0 (float32 array)

gisa.__version__ is the loaded library's version. docs/python.md has the
whole API.
"""

from typing import Any as _Any

from ._core import (Diagnostic, Error, Instruction, Isa, Modifier, Operand, SimFault, library_version,
                    lint_categories, load, targets)
from ._cov import Coverage, CoverageSummary
from ._gen import Generator, Program, shrink
from ._lib import find_library, library_path
from ._sim import Commit, Effect, Simulator
from ._values import (bf16_bits, bits_bf16, bits_f16, bits_f32, bits_f64, f16_bits, f32_bits, f32_lanes, f64_bits,
                      lanes_f32)

__all__ = [
    # loading, and what the library is
    "load", "targets", "lint_categories", "library_version", "library_path", "find_library",
    # errors
    "Error", "SimFault", "Diagnostic",
    # the ISA and its instructions
    "Isa", "Instruction", "Operand", "Modifier",
    # the simulator
    "Simulator", "Commit", "Effect",
    # random programs, shrinking, coverage
    "Generator", "Program", "shrink", "Coverage", "CoverageSummary",
    # values
    "f32_bits", "bits_f32", "f64_bits", "bits_f64", "f16_bits", "bits_f16", "bf16_bits", "bits_bf16",
    "lanes_f32", "f32_lanes",
]

# The classes say they are gisa's (repr, help, pickling), not a private module's.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type) or callable(_obj):
        try:
            _obj.__module__ = __name__
        except (AttributeError, TypeError):
            pass
del _name, _obj


def __getattr__(name: str) -> _Any:
    """gisa.__version__: the version of the loaded libgisa (gisa_version()),
    read when asked for, so that importing gisa loads no library."""
    if name == "__version__":
        return library_version()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
