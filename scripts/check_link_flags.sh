#!/usr/bin/env bash
# Lists every library that a Makefile, script or CMake file names with -lNAME
# and checks that a package scripts/deps.sh installs provides it, so that a
# library left on a developer machine by hand cannot hide a missing install
# step (that is how -ljansson broke the lockstep example on a fresh machine).
# -lgisa is the project's own library, built, not installed.
#
#   scripts/check_link_flags.sh [--ci] [DIR...]    (default: examples tests)
#
# Exit status: 0 all provided, 1 some are not (each named on stderr with the
# file and line), 77 the check cannot run here (no dpkg).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_args=()
if [[ "${1:-}" == --ci ]]; then
    deps_args=(--ci)
    shift
fi
dirs=("$@")
((${#dirs[@]})) || dirs=("$top/examples" "$top/tests")
CC=${CC:-cc}

if ! command -v dpkg >/dev/null 2>&1; then
    echo "SKIP: no dpkg: cannot tell which package provides a library"
    exit 77
fi
mapfile -t packages < <("$top/scripts/deps.sh" "${deps_args[@]}" --list)

# package_of NAME: the Debian package that provides libNAME.so or libNAME.a
# where the compiler looks, or nothing.
package_of() {
    local ext f p
    for ext in so a; do
        f=$("$CC" -print-file-name="lib$1.$ext")
        [[ "$f" == /* ]] || continue
        f=$(realpath -s "$f")
        for p in "$f" "${f#/usr}" "/usr$f"; do
            dpkg -S "$p" 2>/dev/null | sed -n '1s/:.*//p' && return 0
        done
    done
    return 0
}

bad=0 seen=0
while IFS=: read -r file line text; do
    # -lNAME after a blank, a quote, '=' or '(' (the shell's -lt/-le are tests)
    while read -r name; do
        [[ -n "$name" ]] || continue
        case $name in gisa | t | e) continue ;; esac
        seen=$((seen + 1))
        pkg=$(package_of "$name")
        if [[ -z "$pkg" ]]; then
            echo "$file:$line: -l$name: no installed package provides lib$name (scripts/deps.sh does not install it)" >&2
            bad=1
        elif [[ " ${packages[*]} " != *" ${pkg%%:*} "* ]]; then
            # (no `printf | grep -q` under pipefail: grep may leave before printf has written, a failure)
            echo "$file:$line: -l$name: lib$name comes from $pkg, which scripts/deps.sh ${deps_args[*]} does not install" >&2
            bad=1
        fi
    done < <(grep -oE '(^|[[:space:]"'"'"'=(])-l[A-Za-z0-9_][A-Za-z0-9_+.-]*' <<<"$text" | sed -E 's/^.?-l//')
done < <(grep -rnE --include='Makefile*' --include='*.mk' --include='*.sh' --include='*.bash' \
    --include='*.py' --include='*.cmake' --include='CMakeLists.txt' --include='*.toml' --include='*.cfg' \
    -e '-l[A-Za-z0-9_]' "${dirs[@]}" || true)
echo "check_link_flags: $seen -l flags checked in ${dirs[*]}"
exit $bad
