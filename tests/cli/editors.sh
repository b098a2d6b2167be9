#!/usr/bin/env bash
# The editor files of editors/ (docs/editors.md):
# - the TextMate grammar (VS Code and others) is JSON whose every regular
#   expression compiles (checked with Python's re, which reads the subset
#   the grammar uses), and whose statement rule finds the guard, mnemonic
#   and modifiers of sample lines and no mnemonic among operands;
# - the VS Code extension's package.json names the grammar and languages;
# - in Neovim (headless; skipped without nvim, except under CI): the Vim
#   syntax file gives the expected groups, and editors/nvim/gisa.lua, the
#   configuration the docs give, starts `gisa lsp` for a *.gisa file.
# Env: GISA_BIN, GISA_SOURCE_DIR.
source "$(dirname "$0")/lib/harness.bash" editors

PY=/usr/bin/python3
E=$SRC/editors
run "$PY" - "$E" <<'PYEOF'
import json, os, re, sys
E = sys.argv[1]
g = json.load(open(os.path.join(E, "vscode/syntaxes/gisa.tmLanguage.json")))
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k in ("match", "begin", "end"):
                re.compile(v)
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(g)
start = re.compile(g["repository"]["statement"]["patterns"][0]["match"])
for line, want in [("@!P2 DADD.RM R[12:13], R[2:3], -0.5", ("@!", "P2", "DADD", ".RM")),
                   ("FFMA.RZ R10, -|R1|, c[0x0][0x100], R2", (None, None, "FFMA", ".RZ")),
                   ("IMAD.WIDE.U32 R[8:9], P0, R4, R5, R[6:7]", (None, None, "IMAD", ".WIDE.U32"))]:
    m = start.search(line)
    assert m and m.groups() == want, (line, m and m.groups())
    assert not start.search(line, m.end()), "a second mnemonic in " + line
m = start.findall("FADD R0, R1, R2 ; FMUL R3, R4, 1.5")
assert [x[2] for x in m] == ["FADD", "FMUL"], m
p = json.load(open(os.path.join(E, "vscode/package.json")))
assert os.path.exists(os.path.join(E, "vscode", p["contributes"]["grammars"][0]["path"]))
assert {l["id"] for l in p["contributes"]["languages"]} == {"gisa", "gisa-isa"}
print("grammar ok")
PYEOF
if [ "$rc" -eq 0 ]; then ok; else bad "the TextMate grammar or package.json: $(tail -3 err)"; fi

command -v nvim >/dev/null || ci_skip "nvim not found (Debian package neovim)"
printf '@!P2 DADD.RM R[12:13], R[2:3], c[0x0][0x100] $sched=2 // c\n.include "a.s" /* x */\nFFMA.RX R1, R2, R3, R4\n' >prog.gisa
printf 'FADD R0, R1, R2\n' >a.s
mkdir -p xdg
run env GISA="$G" CACHE="$T/cache" RESULT="$T/result" EDITORS="$E" HOME="$T" XDG_CONFIG_HOME="$T/xdg" \
    XDG_DATA_HOME="$T/xdg" XDG_STATE_HOME="$T/xdg" XDG_CACHE_HOME="$T/xdg" \
    timeout 60 nvim --headless -n -i NONE -u "$SRC/tests/lsp/nvim_editors.lua" prog.gisa
[ "$rc" -eq 0 ] || bad "nvim exited with status $rc"
if [ -s result ]; then
    while read -r status what; do
        if [ "$status" = ok ]; then ok; else bad "$what"; fi
    done <result
    check "twelve checks ran" test "$(grep -c . result)" -eq 12
else
    bad "the Lua test wrote no result"
fi
finish
