#!/usr/bin/env python3
"""Checks a manual written by `gisa doc --html DIR` against HTML and against
the model, independently of the generator:

- every page parses with html5lib's strict HTML5 parser (any parse error
  fails), has a <title> and no duplicate id;
- every link (a href, link href, script src) stays inside DIR (no scheme,
  no network), names an existing file and, with #frag, an existing id;
  every page is linked from some other page;
- one page per optype and opcode of `gisa doc` (the plain-text reference);
- each opcode's SVG diagram has one field box per field of `gisa doc
  OPCODE`'s bit table, with the same bit ranges, one reserved box per gap,
  and the boxes cover the word exactly;
- the search index is valid JSON in a JS file and names existing pages;
- every example's hex is what `gisa as --format hex` gives for its text.

Usage: check_manual.py DIR GISA [gisa options that select the ISA...]
Prints one line per problem and a summary; exits 1 on any problem.
"""
import json
import os
import re
import subprocess
import sys

import html5lib

problems = []


def problem(msg):
    problems.append(msg)
    print("FAIL:", msg)


def parse(path):
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    with open(path, "rb") as f:
        return parser.parse(f, transport_encoding="utf-8")


def text_of(el):
    return "".join(el.itertext())


def gisa(args, stdin=None):
    r = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if r.returncode:
        problem("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.decode(errors="replace")[:300]))
    return r.stdout.decode(errors="replace")


def doc_layout(text):
    """(fields {name: "hi:lo"}, gaps {"hi:lo"}) from `gisa doc OPCODE`."""
    fields, gaps, on = {}, set(), False
    for line in text.splitlines():
        if "Encoding (bit ranges" in line:
            on = True
            continue
        m = re.match(r"^\s+(\d+)(?:\.\.(\d+))?\s+(\S+)", line) if on else None
        if not m:
            continue
        hi, lo = int(m.group(1)), int(m.group(2) if m.group(2) else m.group(1))
        if m.group(3) == "-" and "no field" in line:
            gaps.add("%d:%d" % (hi, lo))
        else:
            fields[m.group(3)] = "%d:%d" % (hi, lo)
    return fields, gaps


def main():
    out, g, isa_args = sys.argv[1], sys.argv[2], sys.argv[3:]
    pages = sorted(f for f in os.listdir(out) if f.endswith(".html"))
    trees, ids = {}, {}
    for p in pages:
        try:
            trees[p] = parse(os.path.join(out, p))
        except Exception as e:  # html5lib.html5parser.ParseError and friends
            problem("%s: not valid HTML: %s" % (p, e))
            continue
        seen = set()
        for el in trees[p].iter():
            i = el.get("id")
            if i is not None:
                if i in seen:
                    problem("%s: duplicate id %r" % (p, i))
                seen.add(i)
        ids[p] = seen
        if trees[p].find(".//title") is None or not text_of(trees[p].find(".//title")).strip():
            problem("%s: no title" % p)

    linked, nlinks = set(), 0
    for p, tree in trees.items():
        for el in tree.iter():
            ref = el.get("href") if el.tag in ("a", "link") else el.get("src") if el.tag == "script" else None
            if ref is None:
                continue
            nlinks += 1
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", ref):
                problem("%s: link leaves the manual: %s" % (p, ref))
                continue
            path, _, frag = ref.partition("#")
            path = path or p
            if "/" in path or not os.path.isfile(os.path.join(out, path)):
                problem("%s: link to a missing file: %s" % (p, ref))
                continue
            if path != p:
                linked.add(path)
            if frag and (path not in ids or frag not in ids[path]):
                problem("%s: link to a missing anchor: %s" % (p, ref))
    for p in pages:
        if p != "index.html" and p not in linked:
            problem("%s: no page links to it" % p)

    listing = gisa([g, "doc"] + isa_args)
    m = re.match(r"(\d+) optypes, (\d+) opcodes", listing)
    nopt, nopc = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
    opcode_pages = [p for p in pages if p.startswith("opcode-")]
    optype_pages = [p for p in pages if p.startswith("optype-")]
    if len(opcode_pages) != nopc or len(optype_pages) != nopt:
        problem("%d opcode and %d optype pages for %d opcodes and %d optypes" %
                (len(opcode_pages), len(optype_pages), nopc, nopt))

    word_bits = int(re.search(r"(\d+)-bit words", listing).group(1)) if "-bit words" in listing else 0
    boxes = 0
    for p in opcode_pages:
        if p not in trees:
            continue
        name = text_of(trees[p].find(".//h1")).split()[0]
        fields, gaps = doc_layout(gisa([g, "doc", name] + isa_args))
        got_fields, got_gaps, spans = {}, set(), set()
        for r in (e for e in trees[p].iter() if isinstance(e.tag, str) and e.tag.split("}")[-1] == "rect"):
            cls, bits = r.get("class", "").split(), r.get("data-bits")
            spans.add(bits)
            if "field" in cls:
                got_fields.setdefault(r.get("data-field"), set()).add(bits)
            elif "reserved" in cls:
                got_gaps.add(bits)
        flat = {k: v.pop() if len(v) == 1 else v for k, v in got_fields.items()}
        if flat != fields or got_gaps != gaps:
            problem("%s: diagram boxes %s + reserved %s, gisa doc says %s + %s" %
                    (p, sorted(flat.items()), sorted(got_gaps), sorted(fields.items()), sorted(gaps)))
        covered = sum(int(s.split(":")[0]) - int(s.split(":")[1]) + 1 for s in spans)
        if covered != word_bits:
            problem("%s: the boxes cover %d bits of %d" % (p, covered, word_bits))
        boxes += len(fields) + len(gaps)

    with open(os.path.join(out, "search-index.js"), encoding="utf-8") as f:
        js = f.read()
    m = re.search(r"var GISA_SEARCH = (\[.*\]);\s*$", js, re.S)
    rows = json.loads(m.group(1)) if m else []
    if len(rows) != nopt + nopc:
        problem("search index has %d rows, want %d" % (len(rows), nopt + nopc))
    for row in rows:
        if not os.path.isfile(os.path.join(out, row[1])):
            problem("search index names a missing page %s" % row[1])

    examples = []
    for p in optype_pages:
        for tr in trees[p].iter("tr") if p in trees else ():
            tds = tr.findall("td")
            if len(tds) == 4:
                examples.append((text_of(tds[0]), text_of(tds[1])))
    if examples:
        src = "".join(t.split("//")[0].strip().rstrip(";") + "\n" for t, _ in examples)
        hexes = gisa([g, "as", "--format", "hex", "-o", "-", "-"] + isa_args, src.encode()).split()
        if hexes != [h for _, h in examples]:
            problem("examples: the pages' hex differs from gisa as")

    print("%d pages, %d links, %d diagram boxes, %d examples checked; %d problems" %
          (len(pages), nlinks, boxes, len(examples), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
