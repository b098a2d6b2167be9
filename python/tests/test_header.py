"""The ctypes side of the package (gisa._lib) against include/gisa.h.

Nothing here is copied by hand from the header: the header is parsed for
its structs, enums, #defines, callback types and function declarations,
and a C program generated from them and compiled with $GISA_CC (or cc)
prints what the compiler makes of them: sizeof and _Alignof of every
struct, offsetof, sizeof and element count of every field, the value of
every enum constant and #define. Then:
  - every ctypes Structure of the binding has the header struct's fields,
    in order, none missing and none extra, each at the compiler's offset
    with its size and a matching type, and the struct's size and alignment;
  - every constant of the binding (an upper-case int of gisa._lib, X for
    GISA_X) has the header's value, every constant of an enum the binding
    mirrors is there, and OPND_KINDS is gisa_operand_kind in order;
  - every prototype of gisa._lib._PROTOS is declared in the header with
    matching result and argument types (callbacks included; a function
    pointer member of a struct is a matching CFUNCTYPE, or a void* that the
    binding leaves NULL);
  - every struct and function of the header is mirrored or named below
    with the reason it is not.
test_drift_is_caught applies drifts to a copy of the header (a new field,
a changed value, a new enum constant, a changed parameter) and checks that
each one is reported, so that the check itself is known to fail."""

import ctypes
import os
import re
import shutil
import subprocess

import pytest

from gisa import _lib

HEADER = os.environ.get("GISA_HEADER") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                        "include", "gisa.h")

# Header structs the binding does not mirror, and why.
NOT_MIRRORED = {
    "gisa_include": "what gisa_asm_options.include fills: the package reads no .include (Isa.assemble takes "
                    "the text whole; the include, release and line members are left NULL)",
    "gisa_asm_line": "what gisa_asm_options.line (a listing) receives, left NULL by the package",
    "gisa_prove_options": "gisa prove is not bound yet (a tool of the command line first: gisa prove)",
    "gisa_prove_result": "gisa prove is not bound yet (a tool of the command line first: gisa prove)",
}

# Header functions the package does not call, and why.
NOT_BOUND = {
    "gisa_state_warps": "Simulator.read_state_json applies a state to a simulator that exists; "
                        "gisa_sim_state_apply checks the warp count",
    "gisa_state_bytes": "the package keeps a parsed state only until it is applied",
    "gisa_isa_fingerprints": "a check of the C semantics' table for their engineers (gisa lint --fingerprints)",
    "gisa_isa_check_semantics": "the differential check of the engines (gisa lint --check-semantics)",
    "gisa_prove_available": "gisa prove is not bound yet (a tool of the command line first: gisa prove)",
    "gisa_prove": "gisa prove is not bound yet (a tool of the command line first: gisa prove)",
    "gisa_prove_check": "the differential check of prove's model (gisa prove --check)",
}

_BASE = {
    ("int",): ctypes.c_int,
    ("unsigned",): ctypes.c_uint,
    ("unsigned", "int"): ctypes.c_uint,
    ("size_t",): ctypes.c_size_t,
    ("uint32_t",): ctypes.c_uint32,
    ("uint64_t",): ctypes.c_uint64,
    ("int64_t",): ctypes.c_int64,
    ("char",): ctypes.c_char,
    ("bool",): ctypes.c_bool,
}


# ------------------------------------------------------------------ reading the header
class Header:
    """What gisa.h declares: structs (name -> [(field, base, stars, is_array)]),
    enums (name -> [constant]), defines (those with an integer value: not
    GISA_API or the *_INIT initialisers), opaque types, callback typedefs
    (name -> (result decl, [argument decls])) and functions (same). A
    function pointer member S.f is a field of base (S.f,) that names its
    signature among the callbacks."""

    def __init__(self, text):
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        self.defines = [m.group(1) for m in re.finditer(
            r"^[ \t]*#[ \t]*define[ \t]+(GISA_\w+)[ \t]+[(\s]*-?\d", text, re.M)]
        text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
        text = re.sub(r"\bGISA_API\b", " ", text)  # the visibility attribute of every function
        text = re.sub(r'extern\s+"C"\s*\{|^\s*\}\s*$', " ", text, flags=re.M)
        self.structs, self.enums, self.callbacks, self.functions = {}, {}, {}, {}
        self.opaque = set()
        for m in re.finditer(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
            fields = []
            for f, base, stars, is_array in self._fields(m.group(2)):
                if stars == "fnptr":  # base is (result decl, [argument decls])
                    key = "%s.%s" % (m.group(3), f)
                    self.callbacks[key] = base
                    base, stars = (key,), 0
                fields.append((f, base, stars, is_array))
            self.structs[m.group(3)] = fields
        for m in re.finditer(r"typedef\s+enum\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
            self.enums[m.group(3)] = [c.split("=")[0].strip() for c in m.group(2).split(",") if c.strip()]
        for m in re.finditer(r"typedef\s+struct\s+(\w+)\s+(\w+)\s*;", text):
            self.opaque.add(m.group(2))
        for m in re.finditer(r"typedef\s+([^;{}]*?)\(\s*\*\s*(\w+)\s*\)\s*\(([^)]*)\)\s*;", text):
            self.callbacks[m.group(2)] = (m.group(1), self._params(m.group(3)))
        rest = re.sub(r"typedef[^;{]*\{.*?\}[^;]*;|typedef[^;]*;", " ", text, flags=re.S)
        for decl in rest.split(";"):
            m = re.match(r"\s*(.*?)\b(gisa_\w+)\s*\((.*)\)\s*$", decl, re.S)
            if m:
                self.functions[m.group(2)] = (m.group(1), self._params(m.group(3)))

    @staticmethod
    def _params(text):
        text = " ".join(text.split())
        return [] if text in ("", "void") else [p.strip() for p in text.split(",")]

    @staticmethod
    def _fields(body):
        fields = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            m = re.match(r"(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", decl)
            if m:  # a function pointer member: its signature, for __init__
                fields.append((m.group(2), (m.group(1), Header._params(m.group(3))), "fnptr", False))
                continue
            first, *others = decl.split(",")
            words = re.findall(r"\w+|\*|\[", first)
            base = tuple(w for w in words[:_name_index(words)] if w not in ("const", "volatile", "*"))
            for d in [first] + others:
                dw = re.findall(r"\w+|\*|\[", d if d is first else d)
                i = _name_index(dw)
                stars = sum(1 for w in dw[: i + 1] if w == "*") if d is first else d.count("*")
                fields.append((dw[i], base, stars, "[" in dw[i:]))
        return fields


def _name_index(words):
    """Index of the declared name among a declaration's words: the last
    identifier before any '['."""
    end = words.index("[") if "[" in words else len(words)
    for i in range(end - 1, -1, -1):
        if words[i] not in ("*", "const", "volatile"):
            return i
    raise ValueError("no name in %r" % words)


def split_decl(decl):
    """('const char *const *paths') -> (('char',), 2, 'paths'); a parameter
    without a name (none in gisa.h) would lose its last type word."""
    words = re.findall(r"\w+|\*", decl)
    stars = words.count("*")
    names = [w for w in words if w not in ("const", "volatile", "*")]
    if len(names) > 1 and names[-1] not in ("int", "char", "unsigned", "void") and not names[-1].startswith("gisa_"):
        return tuple(names[:-1]), stars, names[-1]
    return tuple(names), stars, None


# ------------------------------------------------------------------ what the compiler says
def compiler():
    cc = os.environ.get("GISA_CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler (set GISA_CC)")
    return cc


def measure(header_path, hdr, tmp_path):
    """Runs the generated C program: {('struct', S): (size, align),
    ('field', S, f): (offset, size, count), ('const', NAME): value}."""
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "%s"' % os.path.basename(header_path),
             "int main(void) {"]
    for s, fields in hdr.structs.items():
        lines.append('  printf("struct %s %%zu %%zu\\n", sizeof(%s), _Alignof(%s));' % (s, s, s))
        for f, _, _, is_array in fields:
            m = "((%s *)0)->%s" % (s, f)
            count = "sizeof(%s) / sizeof(%s[0])" % (m, m) if is_array else "(size_t)0"
            lines.append('  printf("field %s %s %%zu %%zu %%zu\\n", offsetof(%s, %s), sizeof(%s), %s);'
                         % (s, f, s, f, m, count))
    for name in [c for cs in hdr.enums.values() for c in cs] + hdr.defines:
        lines.append('  printf("const %s %%lld\\n", (long long)(%s));' % (name, name))
    lines += ["  return 0;", "}"]
    src, exe = tmp_path / "layout.c", tmp_path / "layout"
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run([compiler(), "-std=c11", "-I", os.path.dirname(os.path.abspath(header_path)),
                        "-o", str(exe), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, "the generated layout program does not compile:\n" + r.stderr
    out = {}
    for ln in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines():
        w = ln.split()
        if w[0] == "struct":
            out[("struct", w[1])] = (int(w[2]), int(w[3]))
        elif w[0] == "field":
            out[("field", w[1], w[2])] = (int(w[3]), int(w[4]), int(w[5]))
        else:
            out[("const", w[1])] = int(w[2])
    return out


# ------------------------------------------------------------------ comparing
class Types:
    """Whether a ctypes type stands for a C declaration."""

    def __init__(self, hdr):
        self.hdr = hdr

    def base(self, base):
        if base in _BASE:
            return _BASE[base]
        name = base[-1] if len(base) == 1 else None
        if name in self.hdr.enums:
            return ctypes.c_int  # a C enum is int-sized; ctypes has none
        if name in self.hdr.structs:
            return getattr(_lib, name, None)
        return None

    def match(self, ct, base, stars):
        """None when ctype `ct` stands for base/stars, else why not."""
        if stars == 0:
            if base == ("void",):
                return None if ct is None else "%s for void" % _name(ct)
            if len(base) == 1 and base[0] in self.hdr.callbacks:
                return self.callback(ct, base[0])
            want = self.base(base)
            if want is None:
                return "no ctypes type is known for %s" % " ".join(base)
            return None if ct is want else "%s for %s" % (_name(ct), " ".join(base))
        if stars == 1 and (base in (("char",), ("void",)) or base[-1] in self.hdr.opaque):
            ok = (ctypes.c_char_p, ctypes.c_void_p) if base == ("char",) else (ctypes.c_void_p,)
            return None if ct in ok else "%s for %s *" % (_name(ct), " ".join(base))
        if not (isinstance(ct, type) and issubclass(ct, ctypes._Pointer)):
            return "%s for %s %s" % (_name(ct), " ".join(base), "*" * stars)
        return self.match(ct._type_, base, stars - 1)

    def callback(self, ct, name):
        res, params = self.hdr.callbacks[name]
        if "." in name and ct is ctypes.c_void_p:
            return None  # a function pointer member the binding leaves NULL
        if not hasattr(ct, "_argtypes_"):
            return "%s for the callback %s" % (_name(ct), name)
        return self.signature(ct._restype_, list(ct._argtypes_), res, params, name)

    def signature(self, restype, argtypes, res, params, what):
        rb, rs, _ = split_decl(res + " x")
        if rs == 1 and rb == ("char",) and restype is ctypes.c_void_p:
            why = None  # a string to release with gisa_free comes as a void*
        else:
            why = self.match(restype, rb, rs)
        if why:
            return "%s: result %s" % (what, why)
        if len(argtypes) != len(params):
            return "%s: %d arguments, the header has %d" % (what, len(argtypes), len(params))
        for i, (ct, p) in enumerate(zip(argtypes, params)):
            b, s, _ = split_decl(p)
            why = self.match(ct, b, s)
            if why:
                return "%s: argument %d (%s): %s" % (what, i + 1, p, why)
        return None


def _name(ct):
    return "None" if ct is None else getattr(ct, "__name__", repr(ct))


def binding_structs():
    return {n: c for n, c in vars(_lib).items()
            if n.startswith("gisa_") and isinstance(c, type) and issubclass(c, ctypes.Structure)}


def binding_constants():
    return {n: v for n, v in vars(_lib).items()
            if n.isupper() and type(v) is int and n != "VERSION_MAJOR"}


def problems(header_path, tmp_path):
    """Every difference between gisa._lib and the header, as text."""
    with open(header_path) as f:
        hdr = Header(f.read())
    got = measure(header_path, hdr, tmp_path)
    types = Types(hdr)
    out = []
    # structs
    mirrored = binding_structs()
    for name, cls in mirrored.items():
        if name not in hdr.structs:
            out.append("struct %s: not in the header" % name)
            continue
        cf = [f[0] for f in cls._fields_]
        hf = [f[0] for f in hdr.structs[name]]
        if cf != hf:
            out.append("struct %s: fields %s, the header has %s" % (name, cf, hf))
        size, align = got[("struct", name)]
        if (ctypes.sizeof(cls), ctypes.alignment(cls)) != (size, align):
            out.append("struct %s: size/alignment %d/%d, the header's %d/%d"
                       % (name, ctypes.sizeof(cls), ctypes.alignment(cls), size, align))
        ctfields = dict((f[0], f[1]) for f in cls._fields_)
        for f, base, stars, is_array in hdr.structs[name]:
            if f not in ctfields:
                continue
            off, fsize, count = got[("field", name, f)]
            ct = ctfields[f]
            desc = getattr(cls, f)
            if (desc.offset, desc.size) != (off, fsize):
                out.append("%s.%s: offset/size %d/%d, the header's %d/%d" % (name, f, desc.offset, desc.size, off,
                                                                             fsize))
            if is_array:
                if not (isinstance(ct, type) and issubclass(ct, ctypes.Array)) or ct._length_ != count:
                    out.append("%s.%s: %s, the header has an array of %d" % (name, f, _name(ct), count))
                    continue
                ct = ct._type_
            why = types.match(ct, base, stars)
            if why:
                out.append("%s.%s: %s" % (name, f, why))
    for name in hdr.structs:
        if name not in mirrored and name not in NOT_MIRRORED:
            out.append("struct %s: in the header, not in gisa._lib (mirror it, or say why not in NOT_MIRRORED)"
                       % name)
    # constants
    consts = binding_constants()
    for n, v in sorted(consts.items()):
        c = ("const", "GISA_" + n)
        if c not in got:
            out.append("GISA_%s: not in the header (gisa._lib.%s = %d)" % (n, n, v))
        elif got[c] != v:
            out.append("GISA_%s: %d in the header, gisa._lib.%s = %d" % (n, got[c], n, v))
    for enum, names in hdr.enums.items():
        if enum == "gisa_operand_kind":
            want = [c[len("GISA_OPND_"):] for c in sorted(names, key=lambda c: got[("const", c)])]
            if list(_lib.OPND_KINDS) != want:
                out.append("gisa_operand_kind: OPND_KINDS %s, the header %s" % (list(_lib.OPND_KINDS), want))
            continue
        have = [c for c in names if c[len("GISA_"):] in consts]
        if have and len(have) != len(names):
            out.append("enum %s: %s missing from gisa._lib" % (enum, [c for c in names if c not in have]))
    # functions
    for name, (res, args) in _lib._PROTOS.items():
        if name not in hdr.functions:
            out.append("%s: in _PROTOS, not in the header" % name)
            continue
        why = types.signature(res, args, hdr.functions[name][0], hdr.functions[name][1], name)
        if why:
            out.append(why)
    for name in hdr.functions:
        if name not in _lib._PROTOS and name not in NOT_BOUND:
            out.append("%s: in the header, not in _PROTOS (bind it, or say why not in NOT_BOUND)" % name)
    return out


# ------------------------------------------------------------------ the tests
def test_header_was_read():
    """The parser sees what the header has (a parser that found nothing
    would find no difference)."""
    with open(HEADER) as f:
        hdr = Header(f.read())
    assert [f[0] for f in hdr.structs["gisa_diag"]][-2:] == ["context", "category"]
    assert [f[0] for f in hdr.structs["gisa_sim_diff"]] == ["kind", "warp", "rf", "index", "lane", "a", "b", "text"]
    assert len(hdr.functions) > 90 and "gisa_sim_step" in hdr.functions
    assert "GISA_SIM_LANES" in hdr.defines and "GISA_ERR_LIMIT" in hdr.enums["gisa_status"]
    assert "GISA_API" not in hdr.defines and "GISA_LOAD_OPTIONS_INIT" not in hdr.defines
    assert "gisa_trace_fn" in hdr.callbacks and "gisa_sim" in hdr.opaque
    assert hdr.structs["gisa_asm_options"][4] == ("line", ("gisa_asm_options.line",), 0, False)
    assert hdr.callbacks["gisa_asm_options.line"] == ("gisa_status ", ["void *user", "const gisa_asm_line *line"])
    assert ("is_zero", ("bool",), 0, False) in hdr.structs["gisa_operand"]
    assert len(binding_structs()) >= 14 and len(binding_constants()) >= 40


def test_binding_matches_header(tmp_path):
    assert problems(HEADER, tmp_path) == []


DRIFTS = [
    # (what, the header text replaced, by, a word the report must have)
    ("a field gisa_diag lacks", "const char *category;", "const char *category;\n    int extra;", "extra"),
    ("a field removed", "    const char *category;\n", "", "category"),
    ("a field's type", "    int col;  ", "    unsigned col;", "gisa_diag.col"),
    ("an array length", "char insn[160];", "char insn[128];", "insn"),
    ("a #define's value", "#define GISA_SIM_LANES 32", "#define GISA_SIM_LANES 64", "GISA_SIM_LANES"),
    ("an enum constant added", "GISA_ERR_LIMIT = 8", "GISA_ERR_LIMIT = 8,\n    GISA_ERR_NEW = 9", "GISA_ERR_NEW"),
    ("a bool field made int", "    bool is_zero; ", "    int is_zero; ", "gisa_operand.is_zero"),
    ("a bool parameter made int", "gisa_status gisa_sim_done(const gisa_sim *sim, unsigned warp, bool *done);",
     "gisa_status gisa_sim_done(const gisa_sim *sim, unsigned warp, int *done);", "gisa_sim_done"),
    ("a callback's result", "typedef gisa_status (*gisa_trace_fn)(", "typedef void (*gisa_trace_fn)(",
     "gisa_sim_set_trace"),
    ("an option added", "    const char *file_id;\n", "    const char *file_id;\n    unsigned extra;\n", "extra"),
    ("an operand kind added", "GISA_OPND_INDEXED ", "GISA_OPND_INDEXED, GISA_OPND_NEW ", "OPND_KINDS"),
    ("a parameter's type", "gisa_status gisa_sim_set_pc(gisa_sim *sim, unsigned warp, size_t pc);",
     "gisa_status gisa_sim_set_pc(gisa_sim *sim, unsigned warp, unsigned pc);", "gisa_sim_set_pc"),
    ("a function renamed", "gisa_status gisa_isa_load(", "gisa_status gisa_isa_load_options(", "gisa_isa_load"),
    ("a new struct", "typedef struct gisa_cov_figure {", "typedef struct gisa_new { int x; } gisa_new;\n"
     "typedef struct gisa_cov_figure {", "gisa_new"),
]


@pytest.mark.parametrize("what,old,new,word", DRIFTS, ids=[d[0] for d in DRIFTS])
def test_drift_is_caught(tmp_path, what, old, new, word):
    """Each drift of a copy of the header is reported (the check can fail):
    a problem that the header itself does not have."""
    with open(HEADER) as f:
        text = f.read()
    assert text.count(old) == 1, "the drift %r no longer applies to gisa.h: %r" % (what, old)
    (tmp_path / "as_is").mkdir()
    (tmp_path / "drifted").mkdir()
    path = tmp_path / "drifted" / "gisa.h"
    path.write_text(text.replace(old, new))
    found = set(problems(str(path), tmp_path / "drifted")) - set(problems(HEADER, tmp_path / "as_is"))
    assert any(word in p for p in found), "%s not reported: %s" % (what, sorted(found))


def test_function_pointer_members():
    """A function pointer member of a struct is a void* the binding leaves
    NULL, or a CFUNCTYPE checked like a callback: anything else is reported."""
    with open(HEADER) as f:
        types = Types(Header(f.read()))
    line = ("gisa_asm_options.line",)
    assert types.match(ctypes.c_void_p, line, 0) is None
    assert "result" in types.match(ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p), line, 0)
    assert "arguments" in types.match(ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p), line, 0)
    assert types.match(ctypes.c_char_p, line, 0) is not None
