#!/usr/bin/env bash
# `gisa doc --html DIR`, the HTML reference manual: for the shipped ISA, the
# Fermi target and an edited copy loaded with --isa, every page validates as
# HTML (html5lib's strict parser) and every internal link and anchor
# resolves, the diagrams match `gisa doc`, the examples' hex matches `gisa
# as` (tests/cli/lib/check_manual.py); text from the description is escaped
# (markup, quotes, bytes that are not UTF-8, control characters); DIR is
# written whole or not at all, and only replaces an earlier manual.
# Skipped, loudly, without a python3 that has html5lib (Debian
# python3-html5lib, installed by scripts/deps.sh).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" manual

PY=
for p in "${GISA_PYTHON:-}" python3 /usr/bin/python3; do
    [ -n "$p" ] && command -v "$p" >/dev/null 2>&1 && "$p" -c 'import html5lib' >/dev/null 2>&1 && { PY=$p; break; }
done
if [ -z "$PY" ]; then
    ci_skip "no python3 with html5lib (apt-get install python3-html5lib; scripts/deps.sh installs it)"
fi
CHECK=$SRC/tests/cli/lib/check_manual.py

# the shipped ISA and Fermi: valid, linked, diagrams and examples as gisa says
expect 0 "doc --html" "$G" doc --html gisa128
check "checked: gisa128" "$PY" "$CHECK" gisa128 "$G"
check "index.html and the marker" test -s gisa128/index.html -a -f gisa128/.gisa-manual
expect 0 "doc --html --target fermi" "$G" doc --html fermi --target fermi
check "checked: fermi" "$PY" "$CHECK" fermi "$G" --target fermi
check "fermi diagram: two rows of 32 bits" has fermi/opcode-FADD_R.html 'viewBox="0 0 848 184"'
check "gisa128 diagram: four rows" has gisa128/opcode-FADD_RR.html 'viewBox="0 0 848 368"'

# each optype page shows the rulings' semantic patches and the code the doc
# engine runs, exactly as `gisa doc OPTYPE` gives them
cat >patched.py <<'PYEOF'
import glob, html, os, re, subprocess, sys
gisa, bad, seen = sys.argv[1], 0, 0
for page in sorted(glob.glob("gisa128/optype-*.html")):
    name = os.path.basename(page)[len("optype-"):-len(".html")]
    doc = subprocess.run([gisa, "doc", name], capture_output=True, text=True).stdout
    text = open(page, encoding="utf-8").read()
    m = re.search(r"Semantic patches \((\d+)\):\n", doc)
    if not m:
        if 'id="semantic-patches"' in text:
            print(name, ": patches shown that gisa doc does not list"); bad += 1
        continue
    seen += 1
    want = doc[doc.index("Pseudo-code that runs (patched):\n") + len("Pseudo-code that runs (patched):\n"):]
    want = [l[4:] if l.startswith("    ") else l for l in want.split("\n")]
    got = re.search(r'<h2 id="semantics-run">.*?</h2>\n<pre class="semantics">(.*?)</pre>', text, re.S)
    items = re.search(r'<h2 id="semantic-patches">.*?<ul class="patches">(.*?)</ul>', text, re.S)
    if not got or not items:
        print(name, ": no patches or patched code on the page"); bad += 1
        continue
    if items.group(1).count("<li>") != int(m.group(1)):
        print(name, ": patch count differs"); bad += 1
    lines = html.unescape(got.group(1)).split("\n")
    while want and not want[-1]: want.pop()
    while lines and not lines[-1]: lines.pop()
    if lines[:len(want)] != want:
        print(name, ": patched code differs from gisa doc"); bad += 1
print(seen, "optypes with patches checked,", bad, "differences")
sys.exit(1 if bad or seen < 10 else 0)
PYEOF
check "optype pages: patches and patched code as gisa doc" "$PY" patched.py "$G"

# an edited description (--isa): what it says is shown, escaped
mkdir isa
cp "$SRC"/isa/gisa128/* isa/
"$PY" - <<'PYEOF'
p = "isa/falu.isa"
s = open(p, "rb").read()
s = s.replace(b"F32 addition Rd = Ra + SrcB, rounded once per .rnd.",
              b"F32 <script>alert(\"x\")</script> & 'q' \x01 \xff end", 1)
open(p, "wb").write(s)
PYEOF
expect 0 "doc --html --isa (edited)" "$G" doc --html edited --isa isa
check "checked: edited" "$PY" "$CHECK" edited "$G" --isa isa
cat >escaped.py <<'PYEOF'
import sys, html5lib
tree = html5lib.parse(open(sys.argv[1], "rb"), namespaceHTMLElements=False, transport_encoding="utf-8")
want = "F32 <script>alert(\"x\")</script> & 'q' \ufffd \ufffd end"
got = ["".join(p.itertext()) for p in tree.iter("p") if p.get("class") == "description"]
scripts = [s for s in tree.iter("script")]
sys.exit(0 if got == [want] and not scripts else 1)
PYEOF
check "description escaped, bad bytes replaced" "$PY" escaped.py edited/optype-FADD.html
check "search index: no raw markup" hasnt edited/search-index.js '<script'

# all or nothing: an existing directory that is not a manual is left alone
mkdir mine
echo keep >mine/notes.txt
expect 2 "doc --html over a foreign directory" "$G" doc --html mine
check "foreign directory untouched" test "$(ls -A mine)" = notes.txt
check "says why" has err "not a directory gisa wrote"
check "no temporary directory left" no_tmp
# an earlier manual is replaced whole (a stray file goes with it)
touch gisa128/stray.html
expect 0 "doc --html over an earlier manual" "$G" doc --html gisa128/
check "replaced whole" test ! -e gisa128/stray.html -a -s gisa128/index.html
check "no old directory left" test -z "$(ls -d gisa128.old* 2>/dev/null)"
mkdir empty
expect 0 "doc --html into an empty directory" "$G" doc --html empty
check "empty directory filled" test -s empty/index.html
: >plain
expect 2 "doc --html over a file" "$G" doc --html plain
check "file untouched" test -f plain -a ! -s plain
expect 2 "doc --html in a missing directory" "$G" doc --html no/such/dir
check "nothing created" test ! -e no
expect 2 "doc --html with a NAME" "$G" doc --html x FADD
expect 2 "doc --html with an empty DIR" "$G" doc --html ''
check "no temporary directory left" no_tmp
if [ "$(id -u)" != 0 ]; then # root writes anywhere
    mkdir ro && chmod 555 ro
    expect 2 "doc --html in a read-only directory" "$G" doc --html ro/m
    chmod 755 ro
fi
finish
