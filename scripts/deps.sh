#!/usr/bin/env bash
# Check (and, as root, install) the Debian packages gisa needs to build.
#
# To add a dependency: append its Debian package to GISA_DEB_PACKAGES, and a
# command it must provide (if any) to GISA_TOOLS.
#   e.g. GISA_DEB_PACKAGES+=(libmpfr-dev libgmp-dev)
# Extra packages can also be passed in the environment:
#   GISA_EXTRA_PACKAGES="foo bar" scripts/deps.sh
# `scripts/deps.sh --ci` adds what .ci/run needs besides the build (see
# GISA_CI_PACKAGES). `--list` (after --ci or alone) prints the packages it
# would check, one per line, and changes nothing (tests/cli/link_flags.sh).
set -euo pipefail

GISA_DEB_PACKAGES=(
    cmake
    gcc
    # the C library's headers and libm/libpthread (gcc only recommends it)
    libc6-dev
    make
    pkg-config
    libmpfr-dev
    # the SMT solver of gisa prove (optional at build time: CMake finds it)
    libz3-dev
    libgmp-dev
    # the Python binding's tests (python/, tests/cli/python.sh; skipped without them)
    python3
    python3-pytest
    python3-hypothesis
    # the Python package as pip installs and builds it (pyproject.toml: pip
    # install --no-build-isolation, pip wheel, in a venv; tests/cli/python.sh)
    python3-setuptools
    python3-pip
    python3-venv
    python3-wheel
    # lane values as NumPy arrays (optional at run time; tested both ways)
    python3-numpy
    # the HTML manual's validation (tests/cli/manual.sh; skipped without it)
    python3-html5lib
)

# Commands that must be on PATH once the packages are installed.
GISA_TOOLS=(
    cmake
    ctest
    gcc
    make
    pkg-config
)

# CI only: clang with its sanitizer and libFuzzer runtimes (make clang, make
# asan, make tsan, make fuzz; libclang-rt-dev holds the ThreadSanitizer
# runtime too), valgrind (make valgrind), GNU time (the memory figure of
# tests/cli/robustness.sh), groff (tests/cli/manpage.sh renders docs/gisa.1;
# skipped without it), chromium (tests/cli/manual_browser.sh renders the HTML
# manual headless; skipped without it), Verilator (tests/cli/cosim.sh: the
# lockstep example, examples/cosim; skipped without it, except under CI),
# Slurm and munge (tests/cli/regress_slurm.sh starts a one-node cluster for
# `gisa regress --backend slurm`; skipped without them, except under CI),
# xmllint (tests/cli/regress.sh validates the JUnit XML against its schema),
# Neovim (tests/cli/lsp_nvim.sh: `gisa lsp` in a real editor's LSP client;
# skipped without it, except under CI).
GISA_CI_PACKAGES=(clang libclang-rt-dev valgrind time groff-base chromium verilator slurm-wlm munge libxml2-utils neovim)
GISA_CI_TOOLS=(clang valgrind groff chromium verilator slurmctld slurmd sbatch munged xmllint nvim)
list_only=0
for arg in "$@"; do
    case $arg in
    --ci)
        GISA_DEB_PACKAGES+=("${GISA_CI_PACKAGES[@]}")
        GISA_TOOLS+=("${GISA_CI_TOOLS[@]}")
        ;;
    --list) list_only=1 ;;
    *)
        echo "usage: $0 [--ci] [--list]" >&2
        exit 2
        ;;
    esac
done

if [[ -n "${GISA_EXTRA_PACKAGES:-}" ]]; then
    read -r -a _extra <<<"$GISA_EXTRA_PACKAGES"
    GISA_DEB_PACKAGES+=("${_extra[@]}")
fi

if ((list_only)); then
    printf '%s\n' "${GISA_DEB_PACKAGES[@]}"
    exit 0
fi

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for pkg in "${GISA_DEB_PACKAGES[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    if ((${#missing[@]} > 0)); then
        if [[ "$(id -u)" -eq 0 ]]; then
            echo "deps.sh: installing ${missing[*]}" >&2
            apt-get update
            DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
        else
            echo "missing Debian packages; run: sudo apt-get install -y ${missing[*]}" >&2
            exit 1
        fi
    fi
else
    echo "deps.sh: dpkg-query not found (not Debian?); only checking tools" >&2
fi

missing_tools=()
for tool in "${GISA_TOOLS[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing_tools+=("$tool")
done
if ((${#missing_tools[@]} > 0)); then
    echo "deps.sh: missing build tools: ${missing_tools[*]}" >&2
    exit 1
fi
