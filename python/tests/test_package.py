"""The package as Python users expect it: its namespace is __all__ and
nothing else, __version__ is the library's, every public function and
method is annotated (and the annotations resolve), py.typed is shipped,
and the library it loads is the one installed with it unless
$GISA_LIBRARY says otherwise."""

import importlib.metadata
import inspect
import os
import re
import subprocess
import sys
import types
import typing

import gisa
from test_gisa import gisa_bin


def test_namespace_is_all():
    public = {n for n in vars(gisa) if not n.startswith("_")}
    assert public == set(gisa.__all__), "names outside __all__: %s; missing: %s" % (
        sorted(public - set(gisa.__all__)), sorted(set(gisa.__all__) - public))
    assert len(gisa.__all__) == len(set(gisa.__all__))
    for name in gisa.__all__:
        assert not isinstance(getattr(gisa, name), types.ModuleType), name
    for name in ("ctypes", "struct", "os", "typing", "numpy", "annotations"):
        assert not hasattr(gisa, name), name


def test_star_import():
    ns = {}
    exec("from gisa import *", ns)
    assert {n for n in ns if n != "__builtins__"} == set(gisa.__all__)


def test_classes_say_they_are_gisas():
    for name in gisa.__all__:
        obj = getattr(gisa, name)
        if isinstance(obj, type):
            assert obj.__module__ == "gisa" and repr(obj) == "<class 'gisa.%s'>" % name


def test_version():
    v = gisa.__version__
    assert v == gisa.library_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", v)
    assert int(v.split(".")[0]) == gisa._lib.VERSION_MAJOR == 1  # API 1.0 (libgisa.so.1)
    b = gisa_bin()
    if b:  # the library of the build whose program this is
        out = subprocess.run([b, "--version"], capture_output=True, text=True, check=True).stdout
        assert out.split()[1] == v
    try:
        dist = importlib.metadata.version("gisa")
    except importlib.metadata.PackageNotFoundError:
        dist = None  # run from a source tree, not installed
    if dist is not None:
        assert dist == v, "installed as %s, the library is %s" % (dist, v)


def test_library_is_the_packages_own():
    """Installed with pip, the package carries libgisa.so next to its
    modules and loads it (when $GISA_LIBRARY does not name another)."""
    here = os.path.dirname(os.path.abspath(gisa.__file__))
    bundled = os.path.join(here, "libgisa.so")
    env = os.environ.get("GISA_LIBRARY")
    if env:
        assert gisa.library_path() == env
    elif os.path.exists(bundled):
        assert os.path.abspath(gisa.library_path()) == bundled


def test_py_typed_is_shipped():
    assert os.path.isfile(os.path.join(os.path.dirname(gisa.__file__), "py.typed"))


def _public_callables():
    for name in gisa.__all__:
        obj = getattr(gisa, name)
        if isinstance(obj, type):
            if issubclass(obj, BaseException):
                yield name, obj.__init__
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr != "__init__":
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if isinstance(member, property):
                    member = member.fget
                if inspect.isfunction(member):
                    yield "%s.%s" % (name, attr), member
        elif inspect.isfunction(obj):
            yield name, obj


def test_public_api_is_annotated():
    missing = []
    checked = 0
    for what, fn in _public_callables():
        sig = inspect.signature(fn)
        for p in list(sig.parameters.values())[1 if "." in what or what[0].isupper() else 0:]:
            if p.annotation is inspect.Parameter.empty:
                missing.append("%s(%s)" % (what, p.name))
        if sig.return_annotation is inspect.Signature.empty:
            missing.append("%s -> ?" % what)
        # the annotations name things that exist
        # (a method the package wraps, to guard its handle, names its own module's globals)
        hints = typing.get_type_hints(fn, globalns={**inspect.unwrap(fn).__globals__, **vars(gisa)})
        assert "return" in hints, what
        checked += 1
    assert not missing, "not annotated: %s" % ", ".join(missing)
    assert checked > 80


def test_installed_package_imports_without_loading_the_library():
    """import gisa loads no library (so a missing one is an error at first
    use, with a message saying what to do, not at import)."""
    code = "import gisa, gisa._lib as l; assert l._lib is None; print(gisa.Isa.__name__)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "GISA_LIBRARY": "/nonexistent/libgisa.so"})
    assert r.returncode == 0 and r.stdout.strip() == "Isa", r.stderr
    code = "import gisa; gisa.load()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "GISA_LIBRARY": "/nonexistent/libgisa.so"})
    assert r.returncode != 0 and "/nonexistent/libgisa.so" in r.stderr
