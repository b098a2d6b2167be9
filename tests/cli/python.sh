#!/usr/bin/env bash
# The Python package (python/: pyproject.toml, gisa/, ctypes over
# libgisa.so) as a user gets it, tested installed, not from the source tree:
#  1. `pip install --no-build-isolation --no-deps --no-index` of a copy of
#     python/ into a fresh venv (--system-site-packages, for Debian's
#     pytest, hypothesis and numpy), with GISA_LIBRARY naming this build's
#     libgisa.so so that nothing is compiled; `import gisa` there must be
#     the venv's package, carrying its own libgisa.so;
#  2. its pytest suite (python/tests) run by that venv's python from a
#     temporary directory, against the installed package and the library it
#     carries (GISA_LIBRARY unset), and the simulator compared with this
#     build's `gisa run`; lane values are numpy arrays there (CI: numpy is
#     installed), and test_values.py runs itself, test_step.py and
#     test_lockstep.py again with numpy hidden (lists);
#  3. a wheel (`pip wheel --no-build-isolation --no-deps`): platform
#     tagged, with libgisa.so and py.typed inside, installed into a second
#     fresh venv (no system packages), where `import gisa` gives the
#     version and the opcodes.
# Nothing is written into the source tree (checked).
# Skipped (exit 77, which ctest reports as Skipped, and a "SKIP: ..." line)
# when the build has no libgisa.so (sanitizer and fuzz builds do not build
# it) or no python3 with venv, pip, setuptools, wheel, pytest and
# hypothesis is found (Debian packages, see scripts/deps.sh; under CI,
# where they are installed, their absence fails, and so does numpy's).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository),
# GISA_PYTHON (a python3 to use), GISA_PY_EXAMPLES (Hypothesis examples).
set -euo pipefail

: "${GISA_BIN:?set GISA_BIN to the gisa executable}"
BIN=$(cd "$(dirname "$GISA_BIN")" && pwd)
SRC=$(cd "${GISA_SOURCE_DIR:-$(dirname "$0")/../..}" && pwd)
G=$BIN/$(basename "$GISA_BIN")
LIB=$BIN/libgisa.so
CI=${GISA_CI:-0}

skip() {
    echo "SKIP: $*"
    exit 77
}
ci_skip() {
    if [ "$CI" = 1 ]; then
        echo "FAIL: $* (scripts/deps.sh installs it: under CI this cannot be skipped)"
        exit 1
    fi
    skip "$*"
}

[ -z "${GISA_SANITIZED:-}" ] || skip "sanitized build (its libgisa.so cannot be loaded into python3)"
[ -e "$LIB" ] || skip "$LIB was not built (no shared library in this build)"

# Debian's python3 (a pyenv/venv python3 first on PATH may lack the Debian
# packages that /usr/bin/python3 has): the first with everything needed.
NEED="setuptools wheel venv ensurepip pip pytest hypothesis"
PY=
for p in "${GISA_PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    command -v "$p" >/dev/null 2>&1 || continue
    if "$p" -c "import ${NEED// /, }" >/dev/null 2>&1; then
        PY=$(command -v "$p")
        break
    fi
done
[ -n "$PY" ] || ci_skip "no python3 with $NEED (apt-get install python3-venv python3-pip python3-setuptools python3-wheel python3-pytest python3-hypothesis)"
if "$PY" -c 'import numpy' >/dev/null 2>&1; then
    NUMPY=1
elif [ "$CI" = 1 ]; then
    echo "FAIL: $PY has no numpy (python3-numpy; scripts/deps.sh installs it: under CI this cannot be skipped)"
    exit 1
else
    NUMPY=0
    echo "SKIP (part of this test): no numpy for $PY (python3-numpy): lane values are tested as lists only"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/gisa-python.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
export PYTHONDONTWRITEBYTECODE=1 PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1
unset PYTHONPATH GISA_LIBRARY
fail=0
say() { echo "python.sh: $*"; }
bad() {
    echo "FAIL: $*"
    fail=1
}
# quietly LOG CMD...: runs CMD, its output in LOG, shown when it fails
quietly() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 || {
        cat "$log"
        return 1
    }
}

# the source tree's python/ before: nothing may be added or changed under it
(cd "$SRC/python" && find . -printf '%p %y %s %T@\n' | sort) >before.txt

# the package sources, without anything a build of the tree left there
mkdir pkg
(cd "$SRC/python" && tar cf - --exclude=./build --exclude=./dist --exclude='*.egg-info' --exclude=__pycache__ .) |
    (cd pkg && tar xf -)

# ------------------------------------------------------------------ 1. pip install
quietly venv.log "$PY" -m venv --system-site-packages venv || {
    echo "FAIL: $PY -m venv"
    exit 1
}
VPY=$T/venv/bin/python
quietly install.log env GISA_LIBRARY="$LIB" "$VPY" -m pip install --no-build-isolation --no-deps --no-index ./pkg ||
    bad "pip install of python/ into a venv"
mkdir run && cd run
if "$VPY" -c '
import os, sys, gisa
venv = os.path.realpath(sys.argv[1])
f = os.path.realpath(gisa.__file__)
assert f.startswith(venv + os.sep), "gisa is %s, not under %s" % (f, venv)
lib = os.path.realpath(gisa.library_path())
assert lib == os.path.join(os.path.dirname(f), "libgisa.so"), "the library is %s" % lib
print(gisa.__version__, f)' "$T/venv" >where.txt 2>&1; then
    say "installed: $(cat where.txt)"
else
    cat where.txt
    bad "import gisa in the venv is not the installed package with its own library"
fi

# ------------------------------------------------------------------ 2. the tests, against the installed package
# (no __pycache__, .pytest_cache or .hypothesis written: the tests use
# database=None and the cache plugin is off)
GISA_BIN=$G GISA_EXPECT_NUMPY=$NUMPY HYPOTHESIS_STORAGE_DIRECTORY="$T/.hypothesis" \
    GISA_HEADER="$SRC/include/gisa.h" \
    "$VPY" -m pytest -q -p no:cacheprovider --rootdir "$T/run" "$SRC/python/tests" || bad "pytest python/tests"

# ------------------------------------------------------------------ 3. a wheel, in a second venv
cd "$T"
quietly wheel.log env GISA_LIBRARY="$LIB" "$VPY" -m pip wheel --no-build-isolation --no-deps --no-index -w dist ./pkg ||
    bad "pip wheel"
WHL=$(ls dist/gisa-*.whl 2>/dev/null | head -1)
if [ -z "$WHL" ]; then
    bad "no wheel in dist/"
else
    say "wheel: $(basename "$WHL")"
    case $(basename "$WHL") in
    gisa-*-py3-none-linux_*.whl) ;;
    *) bad "the wheel is not tagged py3-none-linux_<arch>: $(basename "$WHL")" ;;
    esac
    "$PY" -m zipfile -l "$WHL" >contents.txt
    for f in gisa/__init__.py gisa/_lib.py gisa/libgisa.so gisa/py.typed; do
        grep -q "^$f " contents.txt || bad "the wheel lacks $f"
    done
    quietly venv2.log "$PY" -m venv venv2 || bad "$PY -m venv (second venv)"
    quietly install2.log venv2/bin/python -m pip install --no-deps --no-index "$WHL" || bad "pip install of the wheel"
    got=$(cd / && "$T/venv2/bin/python" -c 'import gisa; print(gisa.__version__, len(gisa.load().opcodes))' 2>&1 ||
        true)
    say "wheel in a fresh venv: $got"
    # what this build's program says: its version, and "loaded N opcodes ..."
    want="$("$G" --version | cut -d' ' -f2) $("$G" lint 2>&1 | sed -n '1s/^loaded \([0-9]*\) opcodes.*/\1/p')"
    [ "$got" = "$want" ] || bad "the wheel in a fresh venv: gisa.__version__ and opcodes '$got', gisa says '$want'"
fi

# ------------------------------------------------------------------ the source tree is untouched
(cd "$SRC/python" && find . -printf '%p %y %s %T@\n' | sort) >after.txt
cmp -s before.txt after.txt || {
    diff before.txt after.txt | head
    bad "the test wrote into $SRC/python"
}

[ "$fail" = 0 ] && say "passed" || exit 1
