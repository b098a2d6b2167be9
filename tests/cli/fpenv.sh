#!/usr/bin/env bash
# The golden model in a program built with -O3 -ffast-math, as a DPI-C
# testbench's C side may be: GCC links crtfastmath.o, which turns on FTZ and
# DAZ before main. tests/cli/fpenv/dpi_fast_math.c drives the DPI wrapper
# (include/gisa_dpi.h) over a program of FADD/FFMA/FMUL on subnormals and
# checks the exact bits and that the caller's MXCSR is left as it was. The
# program is compiled and linked with the flags the build exports
# (pkgconfig/gisa-uninstalled.pc). The same with `-O0` (no FTZ) must give the
# same results (the lines but those showing MXCSR).
# Env: GISA_BIN, GISA_SOURCE_DIR, GISA_BUILD_DIR, GISA_CC.
source "$(dirname "$0")/lib/harness.bash" fpenv

case $(uname -m) in x86_64 | i?86) ;; *) skip "FTZ/DAZ through MXCSR is an x86 question" ;; esac
CC=${GISA_CC:-cc}
B=${GISA_BUILD_DIR:-$(dirname "$G")}
command -v pkg-config >/dev/null || ci_skip "pkg-config is not installed (scripts/deps.sh installs it)"
read -r -a CFLAGS <<<"$(PKG_CONFIG_PATH=$B/pkgconfig pkg-config --cflags gisa)"
read -r -a LIBS <<<"$(PKG_CONFIG_PATH=$B/pkgconfig pkg-config --static --libs gisa)"

printf 'FADD R0, R1, R2\nFFMA.RP R5, R3, R4, RZ\nFFMA.RM R6, R3, R4, RZ\nFFMA.RZ R8, R3, R4, RZ\nFMUL R9, R1, R4\n' >p.s
for opt in "-O3 -ffast-math" "-O0"; do
    read -r -a O <<<"$opt"
    expect 0 "build with $opt" "$CC" "${O[@]}" "${CFLAGS[@]}" -o tb "$SRC/tests/cli/fpenv/dpi_fast_math.c" "${LIBS[@]}"
    [ "$rc" -eq 0 ] || { cat err >&2; continue; }
    expect 0 "$opt: every check" ./tb p.s
    cat out
    check "$opt: no FAIL line" hasnt out '^FAIL'
    check "$opt: FADD of subnormals is 0x00000002" has out '^ok FADD R0, R1, R2: got 0x00000002'
    if [ "$opt" = -O0 ]; then
        check "-O0: FTZ is off at start" has out 'FTZ off, DAZ off'
    else
        check "-ffast-math: FTZ and DAZ are on at start (crtfastmath.o)" has out 'FTZ on, DAZ on'
        cp out fast.out
    fi
done
check "the same results with and without -ffast-math" cmp -s <(grep -v MXCSR fast.out) <(grep -v MXCSR out)
finish
