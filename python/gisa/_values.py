"""Values: the bits of floating-point numbers, and the 32 lanes of a
register as a NumPy array (when numpy can be imported) or a list."""

from __future__ import annotations

import struct
from typing import Any, List, Sequence

from ._core import _bits

LANES = 32
_U32 = 0xFFFFFFFF

# numpy is optional: found on first use, never required.
_np: Any = None
_np_looked = False


def numpy_module() -> Any:
    """The numpy module, or None when it cannot be imported."""
    global _np, _np_looked
    if not _np_looked:
        try:
            import numpy
            _np = numpy
        except ImportError:
            _np = None
        _np_looked = True
    return _np


# What the lane readers return: a numpy.ndarray when numpy is there, a list
# otherwise. (Typed as Any-friendly Sequence so both fit.)
Lanes = Sequence[Any]


def u32_lanes(values: Sequence[int]) -> Lanes:
    """32 unsigned 32-bit lane values as the package returns them: a
    numpy.ndarray of dtype uint32, or a list of ints without numpy."""
    np = numpy_module()
    if np is not None:
        return np.array(values, dtype=np.uint32)
    return [int(v) for v in values]


def u64_lanes(values: Sequence[int]) -> Lanes:
    """64-bit lane values (register pairs): dtype uint64, or a list."""
    np = numpy_module()
    if np is not None:
        return np.array(values, dtype=np.uint64)
    return [int(v) for v in values]


def bool_lanes(values: Sequence[Any]) -> Lanes:
    """Predicate lanes: dtype bool, or a list of bools."""
    np = numpy_module()
    if np is not None:
        return np.array([bool(v) for v in values], dtype=bool)
    return [bool(v) for v in values]


def is_lanes(value: Any) -> bool:
    """True for a per-lane value (a list, tuple or numpy array), False for
    one value that goes to every lane."""
    if isinstance(value, (list, tuple)):
        return True
    np = numpy_module()
    return np is not None and isinstance(value, np.ndarray)


def to_u32_list(value: Any, width: int = 32) -> List[int]:
    """A per-lane value as a list of unsigned ints of `width` bits: a float
    numpy array gives its bits (float32 for width 32, float64 for 64);
    negative ints are two's complement."""
    np = numpy_module()
    if np is not None and isinstance(value, np.ndarray):
        if value.dtype.kind == "f":
            want = np.float32 if width == 32 else np.float64
            if value.dtype != want:
                raise TypeError("a float array for %d-bit lanes must be %s, not %s"
                                % (width, np.dtype(want).name, value.dtype.name))
            value = value.view(np.uint32 if width == 32 else np.uint64)
        value = value.tolist()
    out = [_bits(v, "lane value", width) for v in value]  # one too wide raises, as a scalar does
    if len(out) != LANES:
        raise ValueError("need %d lane values, got %d" % (LANES, len(out)))
    return out


def lanes_f32(lanes: Any) -> Any:
    """The binary32 numbers that 32-bit lane values (bits) hold: a float32
    view of a numpy array (sharing its memory), or a list of floats."""
    np = numpy_module()
    if np is not None and isinstance(lanes, np.ndarray):
        return lanes.astype(np.uint32, copy=False).view(np.float32)
    return [bits_f32(b) for b in lanes]


def f32_lanes(values: Any) -> Lanes:
    """The bits of binary32 numbers, as lane values (the inverse of
    lanes_f32): a uint32 array with numpy, else a list."""
    np = numpy_module()
    if np is not None:
        return np.asarray(values, dtype=np.float32).view(np.uint32).copy()
    return [f32_bits(x) for x in values]


# ------------------------------------------------------------------ floating-point bits
def f32_bits(x: float) -> int:
    """The IEEE binary32 bits of float x (rounded to nearest)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", int(b) & _U32))[0]


def f64_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits_f64(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", int(b) & 0xFFFFFFFFFFFFFFFF))[0]


def f16_bits(x: float) -> int:
    """The IEEE binary16 bits of x (round to nearest even; OverflowError
    beyond the largest finite half, as struct does)."""
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bits_f16(b: int) -> float:
    return struct.unpack("<e", struct.pack("<H", int(b) & 0xFFFF))[0]


def bf16_bits(x: float) -> int:
    """The bfloat16 bits of x: its binary32 bits rounded to nearest even to
    the upper 16 (NaN stays a quiet NaN)."""
    b = f32_bits(x)
    if (b & 0x7F800000) == 0x7F800000 and (b & 0x007FFFFF):
        return (b >> 16) | 0x0040
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def bits_bf16(b: int) -> float:
    return bits_f32((int(b) & 0xFFFF) << 16)

