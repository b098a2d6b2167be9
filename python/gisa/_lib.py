"""Low-level ctypes binding of libgisa (include/gisa.h).

The structures mirror the C declarations field for field; every function
the package calls is declared here, in the one table _PROTOS, with its
argument and result types. python/tests/test_header.py checks all of it
against include/gisa.h (sizes, offsets, field types, constant values,
prototypes). Use the high-level API of the `gisa` package instead of this
module where possible: it names no C function, so a change of the C API
touches this table and the thin call sites only.
"""

import ctypes
import ctypes.util
import glob
import os
import threading
from typing import Any, Iterator, Optional

VERSION_MAJOR = 1  # the libgisa major version this package speaks to

# ------------------------------------------------------------------ constants
OK = 0
ERR_INPUT = 1
ERR_USAGE = 2
ERR_IO = 3
ERR_NOMEM = 4
ERR_NOTFOUND = 5
ERR_SIM = 6
ERR_TRUNCATED = 7
ERR_LIMIT = 8

NOTE, WARNING, ERROR = 0, 1, 2

INST_MAX_FIELDS = 64
INST_WHY = 260

OPND_KINDS = ("REG", "PAIR", "UREG", "UPAIR", "PRED", "UPRED", "PR", "IMM",
              "F32", "F64", "F16X2", "CBANK", "INDEXED")

DECO_NEG = 1
DECO_ABS = 2
DECO_INV = 4
DECO_NOT = 8

SIM_LANES = 32
SIM_MAX_REGS = 255
SIM_MAX_WARPS = 65536

RF_R, RF_P, RF_UR, RF_UP = 0, 1, 2, 3

FMT_BIN, FMT_HEX, FMT_C = 0, 1, 2

ASM_ONE = 1  # gisa_asm_options.flags: exactly one instruction

ENGINE_AUTO, ENGINE_NATIVE, ENGINE_DOC = 0, 1, 2

DIFF_NONE, DIFF_SHAPE, DIFF_REG, DIFF_ACTIVE, DIFF_PC, DIFF_CONST = 0, 1, 2, 3, 4, 5

TRACE_JSON = 1
TRACE_F32 = 2
TRACE_F64 = 4
TRACE_F16 = 8
TRACE_BF16 = 16
TRACE_ENGINE = 32

STATE_HEX, STATE_F32, STATE_F64, STATE_F16X2, STATE_BF16X2 = 0, 1, 2, 3, 4

GEN_MAX_COUNT = 50000000

SIM_MAX_EFFECTS = 8


# ------------------------------------------------------------------ structures
class gisa_diag(ctypes.Structure):
    _fields_ = [
        ("severity", ctypes.c_int),
        ("file", ctypes.c_char_p),
        ("line", ctypes.c_int),
        ("col", ctypes.c_int),
        ("length", ctypes.c_int),
        ("message", ctypes.c_char_p),
        ("source_line", ctypes.c_char_p),
        ("context", ctypes.c_char_p),
        ("category", ctypes.c_char_p),
    ]


class gisa_source(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("text", ctypes.c_char_p),
        ("len", ctypes.c_size_t),
    ]


class _Options(ctypes.Structure):
    """An options struct of gisa.h: it begins with `size_t size`, which the
    constructor sets, as the C *_INIT macros do (fields by keyword)."""

    def __init__(self, **fields: Any) -> None:
        super().__init__(ctypes.sizeof(self), **fields)


class gisa_load_options(_Options):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("target", ctypes.c_char_p),
        ("paths", ctypes.POINTER(ctypes.c_char_p)),
        ("npaths", ctypes.c_size_t),
        ("overlay_dir", ctypes.c_char_p),
        ("add", ctypes.POINTER(ctypes.c_char_p)),
        ("nadd", ctypes.c_size_t),
        ("sources", ctypes.POINTER(gisa_source)),
        ("nsources", ctypes.c_size_t),
        ("max_memory", ctypes.c_size_t),
    ]


class gisa_word(ctypes.Structure):
    _fields_ = [("w", ctypes.c_uint64 * 2)]


class gisa_inst(ctypes.Structure):
    _fields_ = [
        ("word", gisa_word),
        ("opcode", ctypes.c_int),
        ("form", ctypes.c_int),
        ("field", ctypes.c_uint64 * (INST_MAX_FIELDS + 1)),
        ("why", ctypes.c_char * INST_WHY),
    ]


class gisa_operand(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("name", ctypes.c_char_p),
        ("reg", ctypes.c_uint),
        ("is_zero", ctypes.c_bool),
        ("value", ctypes.c_int64),
        ("bits", ctypes.c_uint64),
        ("raw_syntax", ctypes.c_bool),
        ("bank", ctypes.c_uint),
        ("offset", ctypes.c_uint),
        ("pair", ctypes.c_bool),
        ("bf16", ctypes.c_bool),
        ("deco", ctypes.c_uint),
        ("suffix", ctypes.c_char_p),
        ("suffix_default", ctypes.c_bool),
        ("written", ctypes.c_bool),
        ("present", ctypes.c_bool),
    ]


class gisa_modifier(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("value", ctypes.c_char_p),
        ("is_default", ctypes.c_bool),
        ("raw", ctypes.c_uint64),
    ]


class gisa_asm_options(_Options):
    # include, release and line (the .include reader and the listing) are
    # function pointers the package leaves NULL: void* here
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("flags", ctypes.c_uint),
        ("include", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("line", ctypes.c_void_p),
        ("user", ctypes.c_void_p),
        ("file_id", ctypes.c_char_p),
    ]


class gisa_sim_fault(ctypes.Structure):
    _fields_ = [
        ("pc", ctypes.c_size_t),
        ("warp", ctypes.c_uint),
        ("lane", ctypes.c_int),
        ("insn", ctypes.c_char * 160),
        ("message", ctypes.c_char * 256),
    ]


class gisa_sim_effect(ctypes.Structure):
    _fields_ = [
        ("rf", ctypes.c_int),
        ("index", ctypes.c_uint),
        ("mask", ctypes.c_uint32),
        ("old_value", ctypes.c_uint32 * SIM_LANES),
        ("value", ctypes.c_uint32 * SIM_LANES),
    ]


class gisa_sim_commit(ctypes.Structure):
    _fields_ = [
        ("warp", ctypes.c_uint),
        ("engine", ctypes.c_uint),
        ("pc", ctypes.c_size_t),
        ("word", gisa_word),
        ("inst", ctypes.POINTER(gisa_inst)),
        ("text", ctypes.c_char_p),
        ("active", ctypes.c_uint32),
        ("exec", ctypes.c_uint32),
        ("neffects", ctypes.c_uint),
        ("effect", gisa_sim_effect * SIM_MAX_EFFECTS),
    ]


class gisa_sim_diff(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("warp", ctypes.c_uint),
        ("rf", ctypes.c_int),
        ("index", ctypes.c_uint),
        ("lane", ctypes.c_uint),
        ("a", ctypes.c_uint64),
        ("b", ctypes.c_uint64),
        ("text", ctypes.c_char * 160),
    ]


class gisa_cov_figure(ctypes.Structure):
    _fields_ = [("hit", ctypes.c_uint64), ("total", ctypes.c_uint64)]


class gisa_cov_summary(ctypes.Structure):
    _fields_ = [
        ("executed", ctypes.c_uint64),
        ("skipped", ctypes.c_uint64),
        ("opcodes", gisa_cov_figure),
        ("optypes", gisa_cov_figure),
        ("modifier_values", gisa_cov_figure),
        ("combinations", gisa_cov_figure),
        ("operand_kinds", gisa_cov_figure),
        ("decorations", gisa_cov_figure),
        ("fp_classes", gisa_cov_figure),
        ("value_classes", gisa_cov_figure),
        ("results", gisa_cov_figure),
        ("patterns", gisa_cov_figure),
        ("raw_distances", gisa_cov_figure),
        ("crosses", gisa_cov_figure),
        ("user_bins", gisa_cov_figure),
    ]


# ------------------------------------------------------------------ locating the library
def _candidates() -> Iterator[str]:
    env = os.environ.get("GISA_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("libgisa.so", "libgisa.so.%d" % VERSION_MAJOR):
        yield os.path.join(here, name)
    try:  # an installed package: the library make install put beside it
        from . import _installed
        yield os.path.normpath(os.path.join(here, _installed.LIBRARY_DIR, _installed.LIBRARY_NAME))
    except ImportError:
        pass
    # build directories of the checkout: python/gisa -> repository root
    root = os.path.dirname(os.path.dirname(here))
    for d in ["build"] + sorted(glob.glob(os.path.join(root, "build*"))):
        p = os.path.join(root, d, "libgisa.so")
        yield p
    found = ctypes.util.find_library("gisa")
    if found:
        yield found


def find_library() -> Optional[str]:
    """The path (or loader name) of the libgisa to use, or None."""
    env = os.environ.get("GISA_LIBRARY")
    if env:
        return env
    for c in _candidates():
        if os.sep not in c or os.path.exists(c):
            return c
    return None


_P = ctypes.POINTER
c_size = ctypes.c_size_t
c_int = ctypes.c_int
c_uint = ctypes.c_uint
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_u32 = ctypes.c_uint32

c_u64 = ctypes.c_uint64
c_bool = ctypes.c_bool

# The callback types of gisa.h: each returns a gisa_status, and anything but
# GISA_OK stops the operation that called it. Data that is not
# NUL-terminated (a length goes with it) comes as a void*.
TRACE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_char_p)                         # gisa_trace_fn
PAGE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_char_p, c_void_p, c_size)       # gisa_page_fn
COMMIT_FN = ctypes.CFUNCTYPE(c_int, c_void_p, _P(gisa_sim_commit))             # gisa_commit_fn
WRITE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_size)                # gisa_write_fn
SHRINK_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_size, _P(c_bool))   # gisa_shrink_test

# char ** results (strings to release with gisa_free) are _P(c_void_p).
_PROTOS = {
    "gisa_status_str": (c_char_p, [c_int]),
    "gisa_version": (c_char_p, []),
    "gisa_version_number": (c_uint, []),
    "gisa_free": (None, [c_void_p]),
    "gisa_diags_new": (c_int, [_P(c_void_p)]),
    "gisa_diags_free": (None, [c_void_p]),
    "gisa_diags_count": (c_size, [c_void_p]),
    "gisa_diags_get": (_P(gisa_diag), [c_void_p, c_size]),
    "gisa_diags_errors": (c_size, [c_void_p]),
    "gisa_diags_warnings": (c_size, [c_void_p]),
    "gisa_diags_set_limit": (None, [c_void_p, c_size]),
    "gisa_diags_dropped": (c_size, [c_void_p]),
    "gisa_diags_clear": (None, [c_void_p]),
    "gisa_diag_format": (c_int, [_P(gisa_diag), c_bool, _P(c_void_p)]),
    "gisa_target_count": (c_size, []),
    "gisa_target_name": (c_char_p, [c_size]),
    "gisa_isa_load": (c_int, [_P(gisa_load_options), _P(c_void_p), c_void_p]),
    "gisa_isa_free": (None, [c_void_p]),
    "gisa_isa_word_bits": (c_uint, [c_void_p]),
    "gisa_isa_opcode_count": (c_size, [c_void_p]),
    "gisa_isa_opcode_name": (c_char_p, [c_void_p, c_size]),
    "gisa_isa_optype_count": (c_size, [c_void_p]),
    "gisa_isa_optype_name": (c_char_p, [c_void_p, c_size]),
    "gisa_isa_find_opcode": (c_int, [c_void_p, c_char_p, _P(c_size)]),
    "gisa_isa_lint": (c_int, [c_void_p, c_void_p]),
    "gisa_isa_lint_category": (c_char_p, [c_size]),
    "gisa_isa_doc": (c_int, [c_void_p, c_char_p, _P(c_void_p)]),
    "gisa_isa_manual": (c_int, [c_void_p, PAGE_FN, c_void_p]),
    "gisa_decode": (c_int, [c_void_p, gisa_word, _P(gisa_inst)]),
    "gisa_encode": (c_int, [c_void_p, _P(gisa_inst), _P(gisa_word)]),
    "gisa_print": (c_int, [c_void_p, _P(gisa_inst), ctypes.c_char_p, c_size]),
    "gisa_inst_opcode_name": (c_char_p, [c_void_p, _P(gisa_inst)]),
    "gisa_inst_optype_name": (c_char_p, [c_void_p, _P(gisa_inst)]),
    "gisa_inst_mnemonic": (c_char_p, [c_void_p, _P(gisa_inst)]),
    "gisa_inst_field_count": (c_size, [c_void_p, _P(gisa_inst)]),
    "gisa_inst_field_name": (c_char_p, [c_void_p, _P(gisa_inst), c_size]),
    "gisa_inst_operand_count": (c_size, [c_void_p, _P(gisa_inst)]),
    "gisa_inst_operand": (c_int, [c_void_p, _P(gisa_inst), c_size, _P(gisa_operand)]),
    "gisa_inst_modifier_count": (c_size, [c_void_p, _P(gisa_inst)]),
    "gisa_inst_modifier": (c_int, [c_void_p, _P(gisa_inst), c_size, _P(gisa_modifier)]),
    "gisa_inst_guard": (c_int, [c_void_p, _P(gisa_inst), _P(c_uint), _P(c_bool)]),
    "gisa_inst_controls": (c_int, [c_void_p, _P(gisa_inst), _P(c_uint), _P(c_uint), _P(c_uint)]),
    "gisa_assemble": (c_int, [c_void_p, c_char_p, c_char_p, c_size, _P(gisa_asm_options), _P(_P(gisa_word)),
                              _P(c_size), c_void_p]),
    "gisa_words_serialize": (c_int, [c_void_p, _P(gisa_word), c_size, c_int, _P(c_void_p), _P(c_size)]),
    "gisa_words_parse": (c_int, [c_void_p, c_char_p, c_size, c_bool, _P(_P(gisa_word)), _P(c_size), c_void_p]),
    "gisa_disassemble": (c_int, [c_void_p, gisa_word, ctypes.c_char_p, c_size, _P(c_size)]),
    "gisa_decode_opcode": (c_int, [c_void_p, gisa_word, _P(c_size)]),
    "gisa_sim_max_regs": (c_uint, [c_void_p]),
    "gisa_sim_new": (c_int, [c_void_p, c_uint, c_uint, _P(c_void_p)]),
    "gisa_sim_free": (None, [c_void_p]),
    "gisa_sim_regs": (c_uint, [c_void_p]),
    "gisa_sim_isa": (c_void_p, [c_void_p]),
    "gisa_sim_warps": (c_uint, [c_void_p]),
    "gisa_sim_set_threads": (c_int, [c_void_p, c_uint]),
    "gisa_sim_set_engine": (c_int, [c_void_p, c_int]),
    "gisa_sim_set_engine_for": (c_int, [c_void_p, c_char_p, c_int]),
    "gisa_sim_footprint": (c_size, [c_uint, c_uint, c_size]),
    "gisa_sim_set": (c_int, [c_void_p, c_uint, c_int, c_uint, c_int, c_u32]),
    "gisa_sim_get": (c_int, [c_void_p, c_uint, c_int, c_uint, c_uint, _P(c_u32)]),
    "gisa_sim_set_active": (c_int, [c_void_p, c_uint, c_u32]),
    "gisa_sim_get_active": (c_int, [c_void_p, c_uint, _P(c_u32)]),
    "gisa_sim_set_const": (c_int, [c_void_p, c_uint, c_uint, c_u32]),
    "gisa_sim_get_const": (c_int, [c_void_p, c_uint, c_uint, _P(c_u32)]),
    "gisa_sim_load": (c_int, [c_void_p, _P(gisa_word), c_size]),
    "gisa_sim_set_trace": (c_int, [c_void_p, TRACE_FN, c_void_p]),
    "gisa_sim_run": (c_int, [c_void_p, _P(gisa_sim_fault)]),
    "gisa_sim_step": (c_int, [c_void_p, c_uint, _P(gisa_sim_commit), _P(gisa_sim_fault)]),
    "gisa_sim_continue": (c_int, [c_void_p, _P(gisa_sim_fault)]),
    "gisa_sim_pc": (c_int, [c_void_p, c_uint, _P(c_size)]),
    "gisa_sim_set_pc": (c_int, [c_void_p, c_uint, c_size]),
    "gisa_sim_done": (c_int, [c_void_p, c_uint, _P(c_bool)]),
    "gisa_sim_clone": (c_int, [c_void_p, _P(c_void_p)]),
    "gisa_sim_compare": (c_int, [c_void_p, c_void_p, _P(c_bool), _P(gisa_sim_diff)]),
    "gisa_sim_set_commit_hook": (c_int, [c_void_p, COMMIT_FN, c_void_p]),
    "gisa_sim_commit_format": (c_int, [c_void_p, _P(gisa_sim_commit), c_uint, TRACE_FN, c_void_p]),
    "gisa_sim_set_trace_flags": (c_int, [c_void_p, c_uint]),
    "gisa_state_parse": (c_int, [c_char_p, c_char_p, c_size, _P(c_void_p), c_void_p]),
    "gisa_sim_state_apply": (c_int, [c_void_p, c_void_p, c_void_p]),
    "gisa_state_free": (None, [c_void_p]),
    "gisa_sim_state_write": (c_int, [c_void_p, c_int, WRITE_FN, c_void_p]),
    "gisa_gen_new": (c_int, [c_void_p, _P(c_void_p)]),
    "gisa_gen_free": (None, [c_void_p]),
    "gisa_gen_set": (c_int, [c_void_p, c_char_p, c_char_p, c_void_p]),
    "gisa_gen_generate": (c_int, [c_void_p, c_u64, c_size, c_void_p]),
    "gisa_gen_words": (c_int, [c_void_p, _P(_P(gisa_word)), _P(c_size)]),
    "gisa_gen_text": (c_int, [c_void_p, _P(c_void_p), _P(c_size)]),
    "gisa_gen_state": (c_int, [c_void_p, _P(c_void_p), _P(c_size)]),
    "gisa_gen_regs": (c_uint, [c_void_p]),
    "gisa_gen_names": (c_int, [c_void_p, _P(c_void_p)]),
    "gisa_shrink": (c_int, [c_char_p, c_size, SHRINK_FN, c_void_p, _P(c_void_p), _P(c_size), _P(c_size), c_void_p]),
    "gisa_shrink_state": (c_int, [c_void_p, SHRINK_FN, c_void_p, _P(c_void_p), _P(c_size), _P(c_size), c_void_p]),
    "gisa_cov_new": (c_int, [c_void_p, _P(c_void_p)]),
    "gisa_cov_free": (None, [c_void_p]),
    "gisa_cov_record": (c_int, [c_void_p, c_void_p, _P(gisa_sim_commit)]),
    "gisa_cov_attach": (c_int, [c_void_p, c_void_p]),
    "gisa_cov_merge": (c_int, [c_void_p, c_void_p]),
    "gisa_cov_write_json": (c_int, [c_void_p, _P(c_void_p)]),
    "gisa_cov_read_json": (c_int, [c_void_p, c_char_p, c_char_p, c_size, c_void_p]),
    "gisa_cov_report": (c_int, [c_void_p, _P(c_void_p)]),
    "gisa_cov_report_html": (c_int, [c_void_p, _P(c_void_p)]),
    "gisa_cov_load_bins": (c_int, [c_void_p, c_char_p, c_char_p, c_size, c_void_p]),
    "gisa_cov_summary_get": (c_int, [c_void_p, _P(gisa_cov_summary)]),
}

# The package's only module-level state: the library, loaded once. The lock
# makes the first use from several threads load and declare it once.
_lib = None
_lib_path = None
_lib_lock = threading.Lock()


def lib() -> Any:
    """The loaded libgisa (ctypes.CDLL), loading it on first use."""
    if _lib is not None:
        return _lib
    with _lib_lock:
        return _lib if _lib is not None else _load()


def _load() -> Any:
    global _lib, _lib_path
    path = find_library()
    if path is None:
        raise OSError("gisa: libgisa.so not found; set GISA_LIBRARY to its path "
                      "(build it with `cmake --build build --target gisa_shared`)")
    dll = ctypes.CDLL(path)
    for name, (res, args) in _PROTOS.items():
        f = getattr(dll, name)
        f.restype = res
        f.argtypes = args
    num = dll.gisa_version_number()
    if num // 10000 != VERSION_MAJOR:
        raise OSError("gisa: %s is version %s, this package needs major version %d"
                      % (path, dll.gisa_version().decode(), VERSION_MAJOR))
    _lib_path = path
    _lib = dll
    return dll


def library_path() -> str:
    """The path (or loader name) of the libgisa in use, loading it first."""
    lib()
    return _lib_path


def take_string(ptr: Optional[int]) -> Optional[str]:
    """Copies a char* the library returned, then releases it with gisa_free."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib().gisa_free(ptr)
