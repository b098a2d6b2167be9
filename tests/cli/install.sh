#!/usr/bin/env bash
# `cmake --install` (what `make install PREFIX=...` runs) gives a usable
# library: the build is installed into a temporary prefix, which must hold
# bin/gisa, include/gisa.h, lib/libgisa.a, lib/libgisa.so* (soname
# libgisa.so.MAJOR, exporting exactly the functions of gisa.h),
# lib/pkgconfig/gisa.pc, lib/cmake/gisa/, share/man/man1/gisa.1,
# libexec/gisa/regress.py (which bin/gisa regress must find and run) and the
# Python package (lib/python3/dist-packages/gisa, which must load the
# installed library, also after the prefix is moved). Then
# tests/cli/install_consumer.c is built with `pkg-config --cflags --libs
# gisa` (shared) and `pkg-config --static` (libgisa.a), and with CMake's
# find_package(gisa) (gisa::gisa, gisa::gisa_static), and run: it must
# assemble, disassemble and decode FADD R0, R1, R2 as bin/gisa does, and
# report the version bin/gisa --version prints.
# The build installed is GISA_BUILD_DIR's (ctest sets it; nothing is
# rebuilt), else a fresh Release build of the library and program in a
# temporary directory. A sanitizer/fuzzer build has no shared library: its
# shared-library checks are skipped (SKIP lines) and the static consumers
# are linked with -fsanitize=address,undefined.
# Env: GISA_BIN, GISA_SOURCE_DIR; optional GISA_BUILD_DIR, GISA_CC (the
# build's C compiler), GISA_SANITIZED, JOBS (fresh build, default 2).
source "$(dirname "$0")/lib/harness.bash" install

CC=${GISA_CC:-cc}
skip_part() { echo "SKIP (part of this test): $*"; }

# ------------------------------------------------------------------ the build
B=${GISA_BUILD_DIR:-}
[ -n "$B" ] && [ "${B#/}" = "$B" ] && B=$OLDPWD/$B # relative to where we started (harness.bash cd'ed)
if [ -n "$B" ] && [ -f "$B/CMakeCache.txt" ]; then
    B=$(cd "$B" && pwd)
else
    B=$T/build
    echo "install: no GISA_BUILD_DIR, building the library and program in $B"
    run cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DGISA_BUILD_BENCH=OFF \
        "-DCMAKE_C_COMPILER=$CC"
    [ "$rc" -eq 0 ] || { cat out err >&2; bad "configure"; finish; exit 1; }
    run cmake --build "$B" -j"${JOBS:-2}"
    [ "$rc" -eq 0 ] || { tail -30 out >&2; bad "build"; finish; exit 1; }
fi
cache() { sed -n "s/^$1:[A-Z]*=//p" "$B/CMakeCache.txt"; }
sanitized=0
if [ "${GISA_SANITIZED:-0}" = 1 ] || [ "$(cache GISA_SANITIZE)" = ON ] || [ "$(cache GISA_FUZZ)" = ON ]; then
    sanitized=1
fi
shared=1
if [ "$sanitized" = 1 ]; then
    shared=0
    skip_part "shared library: a sanitizer/fuzzer build makes only libgisa.a (checking the static install)"
elif [ "$(cache GISA_BUILD_SHARED)" = OFF ]; then
    shared=0
    skip_part "shared library: configured with GISA_BUILD_SHARED=OFF"
fi
SAN=()
[ "$sanitized" = 1 ] && SAN=("-fsanitize=address,undefined")

# ------------------------------------------------------------------ install
P=$T/prefix
expect 0 "cmake --install $B --prefix $P" cmake --install "$B" --prefix "$P"
[ "$rc" -eq 0 ] || { cat out err >&2; finish; exit 1; }
PC=$(find "$P" -name gisa.pc -path '*/pkgconfig/*' | head -1)
check "gisa.pc installed" test -n "$PC"
LIB=$(dirname "$(dirname "$PC")")
case $LIB in "$P"/lib*) ok ;; *) bad "gisa.pc not in PREFIX/lib*/pkgconfig: $PC" ;; esac
for f in bin/gisa include/gisa.h include/gisa_dpi.h share/gisa/gisa_dpi.sv share/man/man1/gisa.1; do
    check "installed $f" test -f "$P/$f"
done
check "installed bin/gisa runs" test -x "$P/bin/gisa"
check "installed gisa.1 is docs/gisa.1" cmp -s "$P/share/man/man1/gisa.1" "$SRC/docs/gisa.1"
check "installed gisa.h is include/gisa.h" cmp -s "$P/include/gisa.h" "$SRC/include/gisa.h"
check "installed libgisa.a" test -f "$LIB/libgisa.a"
for f in gisaConfig.cmake gisaConfigVersion.cmake gisaTargets.cmake; do
    check "installed cmake/gisa/$f" test -f "$LIB/cmake/gisa/$f"
done

run "$P/bin/gisa" --version
VERSION=$(sed -n 's/^gisa //p' out)
check "bin/gisa --version" test -n "$VERSION"
IFS=. read -r vmaj vmin vpat <<<"$VERSION"
VNUM=$((vmaj * 10000 + vmin * 100 + vpat))
run "$P/bin/gisa" as --format hex -o - - <<<"FADD R0, R1, R2"
WORD=$(cat out)
check "bin/gisa assembles" test -n "$WORD"
# `gisa regress` runs the installed runner, found from bin/gisa's own place
check "installed libexec/gisa/regress.py (executable)" test -x "$P/libexec/gisa/regress.py"
check "installed regress.py is src/cli/regress.py" cmp -s "$P/libexec/gisa/regress.py" "$SRC/src/cli/regress.py"
if [ -x /usr/bin/python3 ]; then
    expect 2 "bin/gisa regress runs the installed runner (on a directory that holds no campaign)" \
        "$P/bin/gisa" regress --report -d "$T/none"
    check "... which answers" has err "^gisa regress: .*/none: not a campaign directory"
else
    skip_part "no /usr/bin/python3: gisa regress not run"
fi

# consumer_ok DESC EXE: EXE runs and prints what bin/gisa says: the version,
# the word of FADD R0, R1, R2, its text, its decoding
consumer_ok() {
    local desc=$1 exe=$2
    run "$exe" "$VERSION"
    if [ "$rc" -ne 0 ]; then
        bad "$desc: exit $rc"
        return 0
    fi
    if grep -q "^version $VERSION $VNUM\$" out && grep -q "^word $WORD\$" out &&
        grep -q '^dis FADD R0, R1, R2$' out && grep -qE '^decode FADD[A-Z0-9_]* FADD [0-9]+ operands$' out &&
        grep -qE '^isa 128 bits [0-9]+ opcodes$' out; then
        ok
    else
        bad "$desc: output"
        sed 's/^/  out: /' out >&2
    fi
}

CONSUMER=$SRC/tests/cli/install_consumer.c
# -Werror -pedantic: the installed header compiles cleanly as C99 (and C++).
CFLAGS_STRICT=(-std=c99 -Wall -Wextra -pedantic -Werror)

# ------------------------------------------------------------------ shared library
if [ "$shared" = 1 ]; then
    SO=$(cd "$LIB" && ls libgisa.so.*.*.* 2>/dev/null | head -1)
    check "installed libgisa.so.$VERSION" test "$SO" = "libgisa.so.$VERSION"
    check "libgisa.so -> libgisa.so.$vmaj" test "$(readlink "$LIB/libgisa.so")" = "libgisa.so.$vmaj"
    check "libgisa.so.$vmaj -> $SO" test "$(readlink "$LIB/libgisa.so.$vmaj")" = "$SO"
    run readelf -d "$LIB/$SO"
    check "soname libgisa.so.$vmaj" has out "SONAME.*\[libgisa\.so\.$vmaj\]"
    # Exports: the functions declared in gisa.h and gisa_dpi.h, nothing else.
    nm -D --defined-only "$LIB/$SO" | awk '{ print $NF }' | sort -u >exports
    grep -v '^gisa_' exports >foreign || true
    if [ -s exports ] && [ ! -s foreign ]; then ok; else
        bad "libgisa.so exports non-gisa_ symbols: $(head -5 foreign | tr '\n' ' ')"
    fi
    # a name before '(' (not '(*': the return type of a function pointer)
    cat "$P/include/gisa.h" "$P/include/gisa_dpi.h" | "$CC" -E -P -I "$P/include" -x c - |
        grep -oE '\bgisa_[a-z0-9_]+ *\([^*]' | sed 's/ *(.*//' | sort -u >declared
    run comm -3 declared exports
    if [ ! -s out ]; then ok; else
        bad "exports of libgisa.so differ from gisa.h's and gisa_dpi.h's functions (left: declared only; right: exported only)"
        sed 's/^/  /' out | head -10 >&2
    fi
else
    skip_part "libgisa.so checks (symlinks, soname, exported symbols)"
fi

# ------------------------------------------------------------------ pkg-config
if command -v pkg-config >/dev/null 2>&1; then
    export PKG_CONFIG_PATH=$LIB/pkgconfig
    check "pkg-config --modversion gisa = $VERSION" test "$(pkg-config --modversion gisa)" = "$VERSION"
    run pkg-config --static --libs gisa
    check "pkg-config --static: -lm -lpthread" has out '-lm( |$)'
    check "pkg-config --static: -lpthread" has out '-lpthread'
    if [ "$shared" = 1 ]; then
        # shellcheck disable=SC2046
        run "$CC" "${CFLAGS_STRICT[@]}" -o consumer_shared "$CONSUMER" $(pkg-config --cflags --libs gisa) \
            -Wl,-rpath,"$LIB"
        if [ "$rc" -eq 0 ]; then ok; else bad "cc \$(pkg-config --cflags --libs gisa)"; fi
        if [ -x consumer_shared ]; then
            run readelf -d consumer_shared
            check "consumer needs libgisa.so.$vmaj" has out "NEEDED.*\[libgisa\.so\.$vmaj\]"
            run ldd ./consumer_shared
            check "consumer loads the installed libgisa.so" has out "libgisa\.so\.$vmaj => $LIB/"
            consumer_ok "consumer (pkg-config, shared)" ./consumer_shared
        fi
    else
        skip_part "pkg-config consumer of the shared library"
    fi
    # Static: both libraries are in libdir and -lgisa would pick the shared
    # one, so the archive is named: -l:libgisa.a.
    libs=$(pkg-config --static --libs gisa)
    libs=${libs/-lgisa/-l:libgisa.a}
    # shellcheck disable=SC2046,SC2086
    run "$CC" "${CFLAGS_STRICT[@]}" "${SAN[@]}" -o consumer_static "$CONSUMER" $(pkg-config --cflags gisa) $libs
    if [ "$rc" -eq 0 ]; then ok; else bad "cc \$(pkg-config --static --libs gisa) with libgisa.a"; fi
    if [ -x consumer_static ]; then
        run readelf -d consumer_static
        check "static consumer needs no libgisa.so" hasnt out 'libgisa'
        consumer_ok "consumer (pkg-config --static, libgisa.a)" ./consumer_static
    fi
else
    ci_skip_part "pkg-config consumers (pkg-config not installed)"
fi

# The header is C++-clean too.
if command -v c++ >/dev/null 2>&1; then
    printf '#include <gisa.h>\nint main() { return gisa_version_number() > 0 ? 0 : 1; }\n' >hpp.cc
    run c++ -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$P/include" hpp.cc
    if [ "$rc" -eq 0 ]; then ok; else bad "gisa.h in C++"; fi
else
    skip_part "gisa.h as C++ (no c++ compiler)"
fi

# ------------------------------------------------------------------ CMake find_package
mkdir cm
cp "$CONSUMER" cm/consumer.c
{
    echo 'cmake_minimum_required(VERSION 3.20)'
    echo 'project(gisa_consumer C)'
    echo "find_package(gisa $vmaj.$vmin REQUIRED CONFIG)"
    echo 'add_executable(consumer_static consumer.c)'
    echo 'target_link_libraries(consumer_static PRIVATE gisa::gisa_static)'
    if [ "$shared" = 1 ]; then
        echo 'add_executable(consumer_shared consumer.c)'
        echo 'target_link_libraries(consumer_shared PRIVATE gisa::gisa)'
    fi
} >cm/CMakeLists.txt
run cmake -S cm -B cm/build -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$P" "-DCMAKE_C_COMPILER=$CC" \
    "-DCMAKE_C_FLAGS=${SAN[*]}" "-DCMAKE_EXE_LINKER_FLAGS=${SAN[*]}"
if [ "$rc" -eq 0 ]; then ok; else bad "find_package(gisa)"; cat out >&2; fi
if [ "$rc" -eq 0 ]; then
    run cmake --build cm/build -j"${JOBS:-2}"
    if [ "$rc" -eq 0 ]; then ok; else bad "CMake consumer build"; tail -20 out >&2; fi
    [ -x cm/build/consumer_static ] && consumer_ok "consumer (CMake, gisa::gisa_static)" cm/build/consumer_static
    if [ "$shared" = 1 ] && [ -x cm/build/consumer_shared ]; then
        run ldd cm/build/consumer_shared
        check "CMake consumer loads the installed libgisa.so" has out "libgisa\.so\.$vmaj => $LIB/"
        consumer_ok "consumer (CMake, gisa::gisa)" cm/build/consumer_shared
    fi
fi
sed -i "s/find_package(gisa $vmaj.$vmin /find_package(gisa $((vmaj + 1)).0 /" cm/CMakeLists.txt
run cmake -S cm -B cm/build3 "-DCMAKE_PREFIX_PATH=$P" "-DCMAKE_C_COMPILER=$CC"
check "find_package(gisa $((vmaj + 1)).0) refuses $VERSION" test "$rc" -ne 0

# ------------------------------------------------------------------ Python
# The package installed under GISA_PYTHON_DIR finds the installed library
# (not the build's), from anywhere, and still does once the prefix moves.
PYDIR=$(cache GISA_PYTHON_DIR)
PYDIR=${PYDIR:-lib/python3/dist-packages}
[ "${PYDIR#/}" = "$PYDIR" ] && PYDIR=$P/$PYDIR
py_installed() { # py_installed PREFIX PYDIR: the package there works and loads PREFIX's library
    (cd / && env -u GISA_LIBRARY PYTHONPATH="$2" PYTHONDONTWRITEBYTECODE=1 python3 -c '
import sys, gisa
isa = gisa.load()
print(gisa.library_path())
print(isa.disassemble(isa.assemble("FADD R0, R1, R2")[0]))' >"$T/py.out" 2>&1)
    grep -qx "$1/${LIB#"$P"/}/libgisa.so.$vmaj" "$T/py.out" && grep -qx "FADD R0, R1, R2" "$T/py.out"
}
if [ "$shared" = 1 ] && command -v python3 >/dev/null 2>&1; then
    check "Python package installed in $PYDIR" test -f "$PYDIR/gisa/__init__.py" -a -f "$PYDIR/gisa/_installed.py"
    check "installed Python package loads the installed library" py_installed "$P" "$PYDIR"
    [ -s "$T/py.out" ] && sed 's/^/  python: /' "$T/py.out"
else
    skip_part "Python package (no shared library or no python3)"
fi

# ------------------------------------------------------------------ relocation
mv "$P" "$T/moved"
if [ "$shared" = 1 ] && command -v python3 >/dev/null 2>&1; then
    check "the Python package moves with the prefix" py_installed "$T/moved" "$T/moved/${PYDIR#"$P"/}"
fi
if command -v pkg-config >/dev/null 2>&1; then
    export PKG_CONFIG_PATH=$T/moved/${LIB#"$P"/}/pkgconfig
    run pkg-config --cflags gisa
    check "gisa.pc is relocatable" has out "-I$T/moved/"
fi

finish
