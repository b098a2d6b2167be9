#!/usr/bin/env bash
# The pseudo-code compiler's files call one way (src/docsem/compile.h):
# compile.c (statements) -> cexpr.c (expressions) -> builtin.c (the
# built-in functions), and each of them -> emit.c (the emitter), which
# calls none of them; so the recursion of expressions stays in cexpr.c.
# Read from the objects the build made (build/layers/docsem.objects): the
# symbols each object needs that another of the four defines.
# Env: GISA_BIN, GISA_BUILD_DIR.
source "$(dirname "$0")/lib/harness.bash" compiler_calls

B=${GISA_BUILD_DIR:-$(dirname "$G")}
list=$B/layers/docsem.objects
[ -f "$list" ] || { echo "FAIL: $list: no layer objects in this build" >&2; exit 1; }
declare -A obj
for f in compile cexpr builtin emit; do
    obj[$f]=$(grep -m1 "/$f\.c\.o$" "$list" || true)
    check "the build has $f.c's object" test -n "${obj[$f]}"
done

# calls FROM TO: the symbols FROM's object needs that TO's object defines
calls() {
    comm -12 <(nm "${obj[$1]}" | awk '$1 == "U" { print $2 }' | sort -u) \
        <(nm "${obj[$2]}" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | sort -u)
}
for from in compile cexpr builtin emit; do
    for to in compile cexpr builtin emit; do
        [ "$from" = "$to" ] && continue
        case "$from>$to" in
        compile\>cexpr | compile\>emit | cexpr\>builtin | cexpr\>emit | builtin\>emit) want=some ;;
        *) want=none ;;
        esac
        got=$(calls "$from" "$to" | tr '\n' ' ')
        if [ "$want" = none ]; then
            check "$from.c calls nothing of $to.c (${got:-none})" test -z "$got"
        else
            check "$from.c calls $to.c ($got)" test -n "$got"
        fi
    done
done
finish
