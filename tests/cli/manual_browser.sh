#!/usr/bin/env bash
# The HTML manual in a real browser: headless Chromium renders the index,
# the encoding map and instruction pages of both targets to PNG (each must
# show something: several colours and ink beyond the background, decoded by
# tests/cli/lib/png_stats.py), its DOM after loading (--dump-dom) has one
# SVG box per field of `gisa doc OPCODE` and one per reserved gap, and the
# offline search (search.js over search-index.js, ?q=) lists the opcode
# asked for first.
# Skipped (ctest: Skipped, with the reason) when chromium is not installed
# (Debian chromium; `scripts/deps.sh --ci` installs it, so under CI its
# absence fails).
# Env: GISA_BIN (the executable), GISA_SOURCE_DIR (the repository).
source "$(dirname "$0")/lib/harness.bash" manual_browser

CHROME=
for c in "${GISA_CHROMIUM:-}" chromium chromium-browser; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { CHROME=$c; break; }
done
if [ -z "$CHROME" ]; then
    ci_skip "chromium is not installed (apt-get install chromium; scripts/deps.sh --ci installs it)"
fi
PY=python3
command -v /usr/bin/python3 >/dev/null 2>&1 && PY=/usr/bin/python3

# browse OUTFLAG URL: one headless run (its own profile; no sandbox, which
# needs privileges a CI container or root does not give)
browse() {
    timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$T/profile" --window-size=1200,1400 "$@" 2>>chromium.log
}

expect 0 "doc --html" "$G" doc --html m
expect 0 "doc --html --target fermi" "$G" doc --html f --target fermi

# rendered, not blank
for page in m/index.html m/encoding.html m/opcode-FFMA_RRC.html m/opcode-IMAD_RRR.html m/optype-HFMA2.html \
    f/opcode-FFMA_C.html; do
    png=$(echo "$page" | tr / _).png
    browse --screenshot="$T/$png" "file://$T/$page" >/dev/null || true
    if [ -s "$png" ] && read -r w h colours ink < <("$PY" "$SRC/tests/cli/lib/png_stats.py" "$png"); then
        check "$page renders ($w x $h, $colours colours, ink $ink)" \
            "$PY" -c "import sys; sys.exit(not ($w == 1200 and $colours >= 16 and $ink >= 0.02))"
    else
        bad "$page: no screenshot"
        tail -3 chromium.log >&2
    fi
done

# the diagrams as the browser sees them: boxes per field and per gap
cat >boxes.py <<'PYEOF'
import re, sys
from html.parser import HTMLParser
class Boxes(HTMLParser):
    def __init__(self):
        super().__init__()
        self.fields, self.gaps = set(), set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "").split()
        if tag == "rect" and "field" in cls:
            self.fields.add(a.get("data-field"))
        elif tag == "rect" and "reserved" in cls:
            self.gaps.add(a.get("data-bits"))
b = Boxes()
b.feed(open(sys.argv[1], encoding="utf-8").read())
doc = open(sys.argv[2]).read().split("Encoding (bit ranges")[1].splitlines()[1:]
fields = [l for l in doc if re.match(r"^\s+\d", l) and "no field" not in l]
gaps = [l for l in doc if "no field" in l]
print(len(b.fields), len(b.gaps), len(fields), len(gaps))
sys.exit(not (len(b.fields) == len(fields) and len(b.gaps) == len(gaps) and fields))
PYEOF
for spec in m:FFMA_RRC: m:IMAD_RRR: m:HFMA2_RCR: f:FFMA_C:--target=fermi f:DSETP_I:--target=fermi; do
    IFS=: read -r dir op opt <<<"$spec"
    rm -f dom.html
    browse --dump-dom "file://$T/$dir/opcode-$op.html" >dom.html || true
    "$G" doc $opt "$op" >doc.txt
    check "$dir/$op: DOM boxes match gisa doc ($("$PY" boxes.py dom.html doc.txt 2>&1 | tr '\n' ' '))" \
        "$PY" boxes.py dom.html doc.txt
done

# offline search: the script runs and finds the opcode asked for
browse --dump-dom "file://$T/m/index.html?q=dfma+rrc" >search.html || true
check "search ?q=dfma rrc lists DFMA_RRC first" \
    "$PY" -c "import re,sys; h=open('search.html').read(); m=re.search(r'<ol id=\"results\"><li><a href=\"([^\"]+)\"', h); sys.exit(not (m and m.group(1) == 'opcode-DFMA_RRC.html'))"
check "search says how many matched" has search.html 'id="search-status">[0-9]+ match'
finish
