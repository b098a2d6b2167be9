#!/usr/bin/env bash
# The libraries define no name but the API's: `nm -D` of libgisa.so and
# `nm` of libgisa.a (defined, external) list exactly the functions the
# public headers declare (GISA_API), each starting with gisa_. And a
# program that defines, for its own use, names the library uses inside
# (f32_add, json_init, arena_alloc, ... taken from the internal archive:
# what SoftFloat or a JSON library would bring) links with libgisa.a and
# still gets gisa's results.
# Env: GISA_BIN, GISA_SOURCE_DIR, GISA_BUILD_DIR, GISA_CC.
source "$(dirname "$0")/lib/harness.bash" symbols

command -v nm >/dev/null || ci_skip "nm is not installed (binutils)"
B=${GISA_BUILD_DIR:-$(dirname "$G")}
CC=${GISA_CC:-cc}
grep -ohE 'gisa_[a-z0-9_]+\(' "$SRC/include/gisa.h" "$SRC/include/gisa_dpi.h" | tr -d '(' | sort -u >declared
check "the headers declare functions" test "$(wc -l <declared)" -gt 50
defined() { awk 'NF == 3 { print $3 }' | sort -u; }

nm --defined-only --extern-only "$B/libgisa.a" 2>/dev/null | defined >static
check "libgisa.a: every global name starts with gisa_: $(grep -v '^gisa_' static | head -5 | tr '\n' ' ')" \
    test -z "$(grep -v '^gisa_' static)"
check "libgisa.a: exactly the declared functions: $(comm -3 declared static | head -5 | tr '\n' ' ')" cmp -s declared static
if [ -e "$B/libgisa.so" ]; then
    nm -D --defined-only "$B/libgisa.so" | defined >shared
    check "libgisa.so: every exported name starts with gisa_: $(grep -v '^gisa_' shared | head -5 | tr '\n' ' ')" \
        test -z "$(grep -v '^gisa_' shared)"
    check "libgisa.so: exactly the declared functions: $(comm -3 declared shared | head -5 | tr '\n' ' ')" cmp -s declared shared
else
    echo "SKIP (part of this test): no libgisa.so in this build"
fi

# names gisa uses inside, defined again by the program
nm --defined-only --extern-only "$B/libgisa_internal.a" 2>/dev/null | awk 'NF == 3 && $2 == "T" { print $3 }' |
    grep -E '^(f32_|f64_|json_|arena_|fp_|sb_|diag_)' | sort -u >internal
check "the internal archive has such names" test "$(wc -l <internal)" -ge 10
{
    echo '#include <stdio.h>'
    echo '#include "gisa.h"'
    while read -r n; do echo "int $n(void) { return 42; }"; done <internal
    cat <<'C'
int main(void)
{
    gisa_isa *isa;
    gisa_sim *sim;
    gisa_word *w;
    size_t n;
    uint32_t r0 = 0;
    gisa_diags *d;
    if (gisa_diags_new(&d) || gisa_isa_load(NULL, &isa, d) ||
        gisa_assemble(isa, "t.s", "FADD R0, R1, R2\n", 16, NULL, &w, &n, d) || gisa_sim_new(isa, 8, 1, &sim) ||
        gisa_sim_load(sim, w, n))
        return 1;
    gisa_sim_set(sim, 0, GISA_RF_R, 1, -1, 0x3f800000); /* 1.0 */
    gisa_sim_set(sim, 0, GISA_RF_R, 2, -1, 0x40000000); /* 2.0 */
    if (gisa_sim_run(sim, NULL) || gisa_sim_get(sim, 0, GISA_RF_R, 0, 5, &r0))
        return 1;
    printf("0x%08x %d\n", (unsigned)r0, f32_add() + json_init());
    gisa_free(w);
    gisa_sim_free(sim);
    gisa_isa_free(isa);
    gisa_diags_free(d);
    return 0;
}
C
} >clash.c
if grep -q '^f32_add$' internal && grep -q '^json_init$' internal; then
    read -r -a PC <<<"$(PKG_CONFIG_PATH=$B/pkgconfig pkg-config --static --cflags --libs gisa)"
    expect 0 "a program defining $(wc -l <internal) of gisa's internal names links with libgisa.a" \
        "$CC" -o clash clash.c "${PC[@]}"
    [ "$rc" -eq 0 ] || sed 's/^/  /' err | head -5 >&2
    expect 0 "and runs" ./clash
    check "gisa's FADD still gives 3.0, the program's own functions its own 42s: $(cat out)" has out '^0x40400000 84$'
else
    bad "f32_add and json_init are no longer internal names: choose others for this test"
fi
finish
