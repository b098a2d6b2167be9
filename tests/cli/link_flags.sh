#!/usr/bin/env bash
# Nothing outside CMake links a library that no install step provides:
# scripts/check_link_flags.sh finds every -l<name> in the Makefiles and
# scripts under examples/ and tests/ and checks that a package named in
# scripts/deps.sh --ci provides it. It must pass on the tree, and fail
# (naming the file, line and library) on a Makefile that links a library no
# package of deps.sh gives (jansson, as examples/cosim once did) or that
# does not exist. The lockstep example takes its flags from the build's
# pkg-config file, which must name libgisa.a of this build.
# Env: GISA_BIN, GISA_SOURCE_DIR, GISA_BUILD_DIR.
source "$(dirname "$0")/lib/harness.bash" link_flags

command -v dpkg >/dev/null || skip "no dpkg: which package provides a library cannot be told here"
CHECK=$SRC/scripts/check_link_flags.sh

expect 0 "the tree: every -l flag is provided by scripts/deps.sh --ci" "$CHECK" --ci
check "the tree: the flags were looked at" has out '-l flags checked'

mkdir -p fake/examples/tb
L=-l # the fixtures' flags are spelled "$L..." so that this file names none
printf 'LDFLAGS = libgisa.a %sjansson %sm\n' $L $L >fake/examples/tb/Makefile
expect 1 "a Makefile linking jansson fails" "$CHECK" --ci fake/examples
check "the failure names the file, line and library" has err "fake/examples/tb/Makefile:1: ${L}jansson"
check "libm is fine" hasnt err "${L}m:"
printf '#!/bin/sh\ncc t.c "%sgisa_no_such_library_x"\n' $L >fake/examples/tb/build.sh
expect 1 "a script with a library that does not exist fails" "$CHECK" --ci fake/examples
check "the missing library is named" has err "build.sh:2: ${L}gisa_no_such_library_x: no installed package"
printf 'test "$n" -lt 3 && wc -l f && grep -l x f\n' >fake/examples/tb/build.sh
printf 'all:\n\tcc t.c %sm %spthread %sgisa\n' $L $L $L >fake/examples/tb/Makefile
expect 0 "test operators, wc -l, libm, libpthread and libgisa are fine" "$CHECK" --ci fake/examples

# the build's own flags for consumers outside CMake
B=${GISA_BUILD_DIR:-$(dirname "$G")}
PC=$B/pkgconfig/gisa-uninstalled.pc
check "the build wrote $PC" test -f "$PC"
if command -v pkg-config >/dev/null; then
    run env PKG_CONFIG_PATH="$B/pkgconfig" pkg-config --static --libs gisa
    check "pkg-config --static --libs gisa names this build's libgisa.a" has out "$B/libgisa\\.a"
    check "and the libraries it needs" has out "${L}m"
    run env PKG_CONFIG_PATH="$B/pkgconfig" pkg-config --cflags gisa
    check "pkg-config --cflags gisa names include/" has out "-I$SRC/include"
else
    ci_skip_part "pkg-config is not installed (scripts/deps.sh installs it)"
fi
check "examples/cosim takes its link flags from pkg-config" grep -q 'pkg-config\|PKG_CONFIG' "$SRC/examples/cosim/Makefile"
finish
