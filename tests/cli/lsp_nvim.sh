#!/usr/bin/env bash
# `gisa lsp` in a real editor: Neovim (Debian `neovim`, with its built-in LSP
# client) runs headless with tests/lsp/nvim_test.lua, which starts the
# server for an assembly file with an error and checks through Neovim's API
# that the diagnostic arrives with the right range, that hover on FFMA shows
# its syntax, that completion after `FFMA.` offers RZ and that
# go-to-definition opens the description on FFMA's line. Skipped without
# nvim, except under CI (scripts/deps.sh --ci installs it).
# Env: GISA_BIN, GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" lsp_nvim

command -v nvim >/dev/null || ci_skip "nvim not found (Debian package neovim)"

printf '// an error on line 2\nFFMA.RX R1, R2, R3, R4\nFADD R0, R1, R2\n' >prog.s
mkdir -p xdg
# Neovim's state, logs and configuration stay in the test's directory
run env GISA="$G" CACHE="$T/cache" RESULT="$T/result" HOME="$T" XDG_CONFIG_HOME="$T/xdg" \
    XDG_DATA_HOME="$T/xdg" XDG_STATE_HOME="$T/xdg" XDG_CACHE_HOME="$T/xdg" \
    timeout 60 nvim --headless -n -i NONE -u "$SRC/tests/lsp/nvim_test.lua" prog.s
[ "$rc" -eq 0 ] || bad "nvim exited with status $rc"
if [ ! -s result ]; then
    bad "the Lua test wrote no result"
else
    cat result
    while read -r status what; do
        if [ "$status" = ok ]; then ok; else bad "$what"; fi
    done <result
    check "five checks ran" test "$(grep -c . result)" -eq 5
fi
finish
