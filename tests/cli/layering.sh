#!/usr/bin/env bash
# The build enforces the layering on calls (README, "How it fits together"):
# gisa_layer_check_NAME links cmake/layer_check.c with the objects of
# src/NAME and of the layers below it, and nothing else, so that a call to
# a higher or a sibling layer fails the build. The build writes that link
# as build/layers/NAME.objects (the objects) and build/layers/link_flags
# (the system's libraries); this test runs it again:
# - every layer of the tree links (what the build did);
# - with an injected upward call it fails, naming the symbol: src/spec
#   calling gisa_assemble (src/asm), and src/spec/lint.c as it was before
#   the assembler became a service of the ISA handle (spec/model.h);
#   src/sim calling gisa_print (src/disasm, a sibling); src/manual calling
#   gisa_isa_load (src/lib); src/lib or src/dpi calling lsp_new (src/lsp);
# - a call down is fine: src/gen calling gisa_assemble.
# It compiles three small objects and links; no rebuild.
# Env: GISA_BIN, GISA_SOURCE_DIR, GISA_BUILD_DIR, GISA_CC.
source "$(dirname "$0")/lib/harness.bash" layering

CC=${GISA_CC:-cc}
B=${GISA_BUILD_DIR:-$(dirname "$G")}
L=$B/layers
[ -f "$L/link_flags" ] || { echo "FAIL: $L/link_flags: no layer checks in this build" >&2; exit 1; }
mapfile -t flags < <(grep . "$L/link_flags")
CFLAGS=(-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -fvisibility=hidden -I"$SRC/include" -I"$SRC/src")

# link_layer NAME [OBJ...]: the check program of layer NAME, with OBJ added
# (and, with REPLACE=path/x.c.o, that object of the layer left out)
link_layer() {
    local name=$1 objs=()
    shift
    mapfile -t objs < <(grep -v "${REPLACE:-^$}" "$L/$name.objects")
    run "$CC" -o "check_$name" main.o "$@" "${objs[@]}" "${flags[@]}"
}

check "the layer_check main compiles" "$CC" "${CFLAGS[@]}" -c "$SRC/cmake/layer_check.c" -o main.o

# the tree: every layer links with the layers below it only
layers=()
for f in "$L"/*.objects; do
    layers+=("$(basename "$f" .objects)")
done
check "the build lists the layers (${layers[*]})" test "${#layers[@]}" -ge 12
for name in "${layers[@]}"; do
    link_layer "$name"
    if [ "$rc" -eq 0 ]; then ok; else bad "layer $name does not link on its own: $(grep -m1 'undefined reference' err)"; fi
done

# up.c: one function that calls SYMBOL; compiled as a file of some layer
inject() {
    cat >up.c <<EOF
#include <stddef.h>
#include "gisa.h"
void *layering_injected_call(void);
void *layering_injected_call(void) { return (void *)&$1; }
EOF
    "$CC" "${CFLAGS[@]}" -c up.c -o up.o
}
# upward NAME SYMBOL DESC: layer NAME with a call to SYMBOL must not link
upward() {
    link_layer "$1" "${@:4}"
    if [ "$rc" -ne 0 ]; then ok; else bad "$3: the link succeeded"; fi
    check "$3: the error names $2" has err "undefined reference to .$2'|undefined symbol: $2"
}

inject gisa_assemble
upward spec gisa_assemble "src/spec calling gisa_assemble (src/asm)" up.o
link_layer gen up.o
if [ "$rc" -eq 0 ]; then ok; else bad "src/gen calling gisa_assemble (below it) does not link: $(head -3 err)"; fi
inject gisa_print
upward sim gisa_print "src/sim calling gisa_print (src/disasm, a sibling)" up.o
upward asm gisa_print "src/asm calling gisa_print (src/disasm, a sibling)" up.o
inject gisa_isa_load
upward manual gisa_isa_load "src/manual calling gisa_isa_load (src/lib)" up.o
upward docsem gisa_isa_load "src/docsem calling gisa_isa_load (src/lib)" up.o

# src/lib and src/dpi calling the language server (src/lsp: above lib, beside dpi)
cat >up.c <<EOF
#include <stddef.h>
void *lsp_new(const void *opt);
void *layering_injected_call(void);
void *layering_injected_call(void) { return (void *)&lsp_new; }
EOF
"$CC" "${CFLAGS[@]}" -c up.c -o up.o
upward lib lsp_new "src/lib calling lsp_new (src/lsp, above it)" up.o
upward dpi lsp_new "src/dpi calling lsp_new (src/lsp, a sibling)" up.o

# src/spec/lint.c calling the assembler directly, as it once did
sed 's/isa->tools\.assemble(/gisa_assemble(/' "$SRC/src/spec/lint.c" >lint.c
if cmp -s lint.c "$SRC/src/spec/lint.c"; then
    bad "src/spec/lint.c no longer assembles through isa->tools.assemble: update this test"
else
    check "src/spec/lint.c with a direct gisa_assemble compiles" "$CC" "${CFLAGS[@]}" -I"$SRC/src/spec" -c lint.c -o lint.o
    REPLACE='/src/spec/lint\.c\.o$' upward spec gisa_assemble "src/spec/lint.c calling gisa_assemble" lint.o
fi
finish
