#!/usr/bin/env bash
# The Python binding (python/gisa, ctypes over libgisa.so): runs its pytest
# suite (python/tests) against the shared library of the build that made
# GISA_BIN, and compares the simulator with that `gisa run`.
# Skipped (exit 77, which ctest reports as Skipped, and a "SKIP: ..." line)
# when the build has no libgisa.so (sanitizer and fuzz builds do not build
# it) or no python3 with pytest and hypothesis is found (Debian:
# python3-pytest python3-hypothesis, see scripts/deps.sh; under CI, where
# they are installed, their absence fails).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
set -euo pipefail

: "${GISA_BIN:?set GISA_BIN to the gisa executable}"
BIN=$(cd "$(dirname "$GISA_BIN")" && pwd)
SRC=$(cd "${GISA_SOURCE_DIR:-$(dirname "$0")/../..}" && pwd)
LIB=$BIN/libgisa.so

if [ -n "${GISA_SANITIZED:-}" ]; then
    echo "SKIP: sanitized build (its libgisa.so cannot be loaded into python3)"
    exit 77
fi
if [ ! -e "$LIB" ]; then
    echo "SKIP: $LIB was not built (no shared library in this build)"
    exit 77
fi

# the first python3 that has pytest and hypothesis (a pyenv/venv python3 on
# PATH may lack the Debian packages that /usr/bin/python3 has)
PY=
for p in "${GISA_PYTHON:-}" python3 /usr/bin/python3; do
    [ -n "$p" ] || continue
    command -v "$p" >/dev/null 2>&1 || continue
    if "$p" -c 'import pytest, hypothesis' >/dev/null 2>&1; then
        PY=$p
        break
    fi
done
if [ -z "$PY" ]; then
    if [ "${GISA_CI:-0}" = 1 ]; then
        echo "FAIL: no python3 with pytest and hypothesis (scripts/deps.sh installs them: under CI this cannot be skipped)"
        exit 1
    fi
    echo "SKIP: no python3 with pytest and hypothesis (apt-get install python3-pytest python3-hypothesis)"
    exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/gisa-python.XXXXXX")
trap 'rm -rf "$T"' EXIT
# nothing written into the source tree: no __pycache__, no .pytest_cache,
# no .hypothesis (the tests use database=None)
cd "$T"
GISA_LIBRARY=$LIB GISA_BIN="$BIN/$(basename "$GISA_BIN")" PYTHONDONTWRITEBYTECODE=1 \
    HYPOTHESIS_STORAGE_DIRECTORY="$T/.hypothesis" \
    "$PY" -m pytest -q -p no:cacheprovider --rootdir "$T" "$SRC/python/tests"
