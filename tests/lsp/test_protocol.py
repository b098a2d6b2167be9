"""Protocol tests of `gisa lsp`: every request and notification the server
announces in its capabilities, the lifecycle, cancellation, incremental
sync in UTF-16 and UTF-8 positions, and malformed input answered with
JSON-RPC errors. Run by tests/cli/lsp.sh:
    python3 test_protocol.py GISA_BIN SOURCE_DIR WORKDIR
Exits 1 after printing each failed check."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Client  # noqa: E402

GISA, SRC, WORK = sys.argv[1:4]
failures = 0
exercised = set()  # capabilities used by a check


def check(cond, what, detail=None):
    global failures
    if not cond:
        failures += 1
        print("FAIL: %s%s" % (what, "" if detail is None else ": %r" % (detail,)), file=sys.stderr)


def uri(path):
    return "file://" + os.path.abspath(path)


def start(*extra):
    return Client([GISA, "lsp", "--cache-dir", os.path.join(WORK, "cache")] + list(extra), cwd=WORK)


def pos(line, character):
    return {"line": line, "character": character}


def rng(l0, c0, l1, c1):
    return {"start": pos(l0, c0), "end": pos(l1, c1)}


def err_code(m):
    return m.get("error", {}).get("code")


# ------------------------------------------------------------------ fixtures
asm_path = os.path.join(WORK, "prog.s")
inc_path = os.path.join(WORK, "inc", "part.s")
os.makedirs(os.path.dirname(inc_path), exist_ok=True)
with open(inc_path, "w") as f:
    f.write("FADD R0, R1, R2\n")
ASM = ("// test program\n"
       "FFMA.RX R1, R2, R3, R4\n"
       "@!P2 FADD R5, R6, c[0x0][0x100] // add\n"
       ".include \"inc/part.s\"\n"
       "FFMA.RZ R10, -|R1|, c[0x0][0x100], R2 $sched=2\n")
with open(asm_path, "w") as f:
    f.write(ASM)
isa_dir = os.path.join(WORK, "isa")
shutil.copytree(os.path.join(SRC, "isa", "gisa128"), isa_dir)
falu = os.path.join(isa_dir, "falu.isa")
with open(falu) as f:
    FALU = f.read()

# ------------------------------------------------------------------ lifecycle
c = start()
m = c.request("textDocument/hover", {"textDocument": {"uri": uri(asm_path)}, "position": pos(1, 1)})
check(err_code(m) == -32002, "a request before initialize is refused with ServerNotInitialized", m)
caps = c.initialize(["utf-16"])["capabilities"]
check(caps.get("positionEncoding") == "utf-16", "UTF-16 positions when the client offers no UTF-8", caps)
announced = {k for k, v in caps.items() if v and k.endswith("Provider")}
check(caps["textDocumentSync"] == {"openClose": True, "change": 2}, "incremental sync", caps["textDocumentSync"])
m = c.request("initialize", {"capabilities": {}})
check(err_code(m) == -32600, "a second initialize is refused", m)

# ------------------------------------------------------------------ assembly diagnostics
c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(asm_path), "languageId": "gisa", "version": 1, "text": ASM}})
d = c.diagnostics(uri(asm_path))
check(len(d) == 1, "one diagnostic for the source with one error", d)
if d:
    check(d[0]["range"] == rng(1, 4, 1, 7), "the diagnostic's range is .RX", d[0]["range"])
    check(d[0]["severity"] == 1 and "did you mean .RZ" in d[0]["message"], "an error with its suggestion", d[0])
    # code action: the suggestion as a quick fix
    m = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(asm_path)}, "range": d[0]["range"],
                                              "context": {"diagnostics": d}})
    acts = m.get("result") or []
    exercised.add("codeActionProvider")
    check(len(acts) == 1 and acts[0]["kind"] == "quickfix", "one quick fix", m)
    if acts:
        edit = acts[0]["edit"]["changes"][uri(asm_path)][0]
        check(edit == {"range": rng(1, 4, 1, 7), "newText": ".RZ"}, "the fix replaces .RX by .RZ", edit)

# incremental change: .RX -> .RM, then an error in line 2 added and removed
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(asm_path), "version": 2},
                                    "contentChanges": [{"range": rng(1, 5, 1, 7), "text": "RM"}]})
d = c.diagnostics(uri(asm_path))
check(d == [], "no diagnostic once the modifier is fixed", d)
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(asm_path), "version": 3},
                                    "contentChanges": [{"range": rng(2, 10, 2, 12), "text": "Q6"},
                                                       {"range": rng(2, 10, 2, 12), "text": "R6"},
                                                       {"range": rng(0, 0, 0, 0), "text": "FMUL R0, R1\n"}]})
d = c.diagnostics(uri(asm_path))
check(len(d) == 1 and d[0]["range"]["start"]["line"] == 0 and "too few operands" in d[0]["message"],
      "several changes in one notification, applied in order", d)
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(asm_path), "version": 4},
                                    "contentChanges": [{"range": rng(0, 0, 1, 0), "text": ""}]})
check(c.diagnostics(uri(asm_path)) == [], "a deleted line's diagnostic goes")
# full replacement
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(asm_path), "version": 5},
                                    "contentChanges": [{"text": ASM.replace(".RX", ".RZ")}]})
check(c.diagnostics(uri(asm_path)) == [], "a whole-text change")

# a diagnostic in an included file shows at its .include line
with open(os.path.join(WORK, "inc", "bad.s"), "w") as f:
    f.write("FADD R0, R1\n")
bad_uri = uri(os.path.join(WORK, "badinc.s"))
c.notify("textDocument/didOpen", {"textDocument": {"uri": bad_uri, "languageId": "gisa", "version": 1,
                                                   "text": "FADD R0, R1, R2\n.include \"inc/bad.s\"\n"}})
d = c.diagnostics(bad_uri)
check(len(d) == 1 and d[0]["range"]["start"]["line"] == 1 and "bad.s:1" in d[0]["message"],
      "an included file's error at the .include line", d)

# ------------------------------------------------------------------ hover
doc = {"uri": uri(asm_path)}
m = c.request("textDocument/hover", {"textDocument": doc, "position": pos(1, 1)})
exercised.add("hoverProvider")
v = (m.get("result") or {}).get("contents", {}).get("value", "")
check(m["result"]["contents"]["kind"] == "markdown", "hover is Markdown", m)
check("FFMA{.FTZ}{.SAT}{.rnd} Rd" in v and "Encoding (bit ranges" in v, "hover on FFMA shows gisa doc's syntax and encoding", v[:300])
check(m["result"]["range"] == rng(1, 0, 1, 4), "hover's range is the mnemonic", m["result"].get("range"))
m = c.request("textDocument/hover", {"textDocument": doc, "position": pos(1, 6)})
v = (m.get("result") or {}).get("contents", {}).get("value", "")
check("modifier `rnd`" in v and "`.RZ`" in v, "hover on a modifier names its group and choices", v)
m = c.request("textDocument/hover", {"textDocument": doc, "position": pos(4, 15)})
v = (m.get("result") or {}).get("contents", {}).get("value", "")
check("Encoding: `" in v and "operand 2" in v, "hover on an operand: the line's encoding in hex and the operand", v)
m = c.request("textDocument/hover", {"textDocument": doc, "position": pos(0, 5)})
check(m.get("result") is None, "no hover in a comment", m)

# ------------------------------------------------------------------ completion
def labels(line, character):
    m = c.request("textDocument/completion", {"textDocument": doc, "position": pos(line, character)})
    r = m.get("result") or {}
    return {i["label"] for i in r.get("items", [])}


exercised.add("completionProvider")
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(asm_path), "version": 6},
                                    "contentChanges": [{"range": rng(5, 0, 5, 0), "text": "FFMA.\nIMAD.\n.in\nFA\n"}]})
c.diagnostics(uri(asm_path))
got = labels(5, 5)
check({"RZ", "RN", "FTZ", "SAT"} <= got and "FADD" not in got, "completion after FFMA. offers its modifiers", sorted(got))
got = labels(6, 5)
check("WIDE" in got, "completion after IMAD. offers the longer mnemonic IMAD.WIDE", sorted(got))
got = labels(7, 3)
check(got == {"inst", "word", "invalid", "include"}, "completion of directives", sorted(got))
got = labels(8, 2)
check({"FADD", "FFMA", "IMAD"} <= got, "completion of mnemonics", len(got))
got = labels(2, 11)
check({"R0", "R254", "RZ", "P0", "PT", "UR4"} <= got and "FADD" not in got, "completion of registers in operands", len(got))

# ------------------------------------------------------------------ signature help
m = c.request("textDocument/signatureHelp", {"textDocument": doc, "position": pos(4, 15)})
exercised.add("signatureHelpProvider")
r = m.get("result") or {}
sigs = r.get("signatures", [])
check(sigs and sigs[0]["label"].startswith("FFMA{.FTZ}") and r.get("activeParameter") == 1,
      "signature help: FFMA's forms, the second operand active", r)
if sigs:
    a, z = sigs[0]["parameters"][1]["label"]
    check(sigs[0]["label"][a:z] == "Ra", "the parameter's label is its place in the form", sigs[0]["label"][a:z])

# ------------------------------------------------------------------ definition
def definition(d, line, character):
    m = c.request("textDocument/definition", {"textDocument": d, "position": pos(line, character)})
    return m.get("result")


exercised.add("definitionProvider")
loc = definition(doc, 1, 2)
check(loc and loc["uri"].endswith("/gisa128/falu.isa"), "definition of FFMA: the embedded falu.isa, written to the cache", loc)
if loc:
    path = loc["uri"][len("file://"):]
    lines = open(path).read().split("\n")
    check("__DefOptype FFMA" in lines[loc["range"]["start"]["line"]], "it lands on FFMA's definition line",
          lines[loc["range"]["start"]["line"]])
loc = definition(doc, 1, 6)
if loc:
    path = loc["uri"][len("file://"):]
    line = open(path).read().split("\n")[loc["range"]["start"]["line"]]
    check("RZ" in line, "definition of .RZ: its value's line in the type", line)
else:
    check(False, "definition of .RZ")
loc = definition(doc, 3, 3)
check(loc and loc["uri"] == uri(inc_path), "definition of an .include: the file", loc)

# ------------------------------------------------------------------ semantic tokens
m = c.request("textDocument/semanticTokens/full", {"textDocument": doc})
exercised.add("semanticTokensProvider")
data = (m.get("result") or {}).get("data", [])
types = caps["semanticTokensProvider"]["legend"]["tokenTypes"]
check(data and len(data) % 5 == 0, "semantic tokens come in fives", len(data))
toks, line, ch = [], 0, 0
cur_text = ASM.replace(".RX", ".RZ") + "FFMA.\nIMAD.\n.in\nFA\n"
src_lines = cur_text.split("\n")
for i in range(0, len(data), 5):
    dl, dc, n, t, _ = data[i:i + 5]
    line += dl
    ch = dc if dl else ch + dc
    toks.append((src_lines[line][ch:ch + n], types[t]))
for want in [("// test program", "comment"), ("FFMA", "keyword"), ("RZ", "modifier"), ("R1", "variable"),
             ("P2", "parameter"), ("c", "property"), ("0x100", "number"), (".include", "macro"),
             ("\"inc/part.s\"", "string"), ("$sched", "modifier")]:
    check(want in toks, "semantic token %r" % (want,), toks[:12])

# ------------------------------------------------------------------ cancellation
rid = c.next_id
c.write(c.frame({"jsonrpc": "2.0", "id": rid, "method": "textDocument/hover",
                 "params": {"textDocument": doc, "position": pos(1, 1)}}) +
        c.frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": rid}}))
c.next_id += 1
m = c.response(rid)
check(err_code(m) == -32800, "a request cancelled in the same batch is answered RequestCancelled", m)

# ------------------------------------------------------------------ malformed input
c.write(b"Content-Length: 5\r\n\r\n{oops")
m = c.read_message()
check(err_code(m) == -32700 and m.get("id") is None, "malformed JSON: ParseError with id null", m)
c.write(b"Content-Type: x\r\n\r\n")
m = c.read_message()
check(err_code(m) == -32700, "a header block without Content-Length: ParseError", m)
c.write(b"Content-Length: 12x\r\n\r\n")
m = c.read_message()
check(err_code(m) == -32700, "a bad Content-Length: ParseError", m)
c.write(c.frame([1, 2]))
m = c.read_message()
check(err_code(m) == -32600, "a batch array: InvalidRequest", m)
c.write(c.frame({"jsonrpc": "2.0", "id": {"x": 1}, "method": "shutdown"}))
m = c.read_message()
check(err_code(m) == -32600, "an object id: InvalidRequest", m)
m = c.request("no/such/method", {})
check(err_code(m) == -32601, "an unknown method: MethodNotFound", m)
m = c.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.s"}, "position": pos(0, 0)})
check(err_code(m) == -32602, "a document not open: InvalidParams", m)
m = c.request("textDocument/hover", {"textDocument": doc, "position": {"line": -1, "character": "x"}})
check(err_code(m) == -32602, "a bad position: InvalidParams", m)
c.write(b"Content-Length: 99999999999\r\n\r\n")
m = c.read_message()
check(err_code(m) == -32700 and "limit" in m["error"]["message"], "a message over the limit is refused", m)
# the client then sends that many bytes: the server drops them. Here we
# restart, since 100 GB are not sent; the next server sees a long header
c.close()

c = start()
c.write(b"X" * 9000)
m = c.read_message()
check(err_code(m) == -32700, "a header block over 8 KiB: ParseError", m)
c.initialize()
m = c.request("shutdown")
check("result" in m and m["result"] is None, "shutdown answers null", m)
m = c.request("textDocument/hover", {"textDocument": doc, "position": pos(0, 0)})
check(err_code(m) == -32600, "a request after shutdown: InvalidRequest", m)
c.notify("exit")
check(c.close() == 0, "exit after shutdown: status 0")

c = start()
c.initialize()
c.notify("exit")
check(c.close() == 1, "exit without shutdown: status 1")

# ------------------------------------------------------------------ positions: UTF-16 and UTF-8
TEXT = "/* \u00e9\U0001D11E */ FFMA.RX R1, R2, R3, R4\n"
for enc, col in (("utf-16", 10), ("utf-8", 13)):
    c = start()
    got = c.initialize([enc] if enc == "utf-8" else None)["capabilities"]["positionEncoding"]
    check(got == enc, "position encoding %s negotiated" % enc, got)
    u = uri(os.path.join(WORK, "enc.s"))
    c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "gisa", "version": 1, "text": TEXT}})
    d = c.diagnostics(u)
    check(d and d[0]["range"]["start"] == pos(0, col + 4), "%s: the diagnostic after non-ASCII text" % enc, d)
    c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": 2},
                                        "contentChanges": [{"range": rng(0, col + 6, 0, col + 7), "text": "Z"}]})
    check(c.diagnostics(u) == [], "%s: an edit after non-ASCII text lands where meant" % enc)
    m = c.request("textDocument/hover", {"textDocument": {"uri": u}, "position": pos(0, col + 1)})
    check(m.get("result") and m["result"]["range"] == rng(0, col, 0, col + 4), "%s: hover's range" % enc, m)
    c.request("shutdown")
    c.notify("exit")
    c.close()

# ------------------------------------------------------------------ description files
c = start()
c.initialize()
bad = FALU.replace("__DefOptype FFMA", "__DefOptype FFMA_BROKEN", 1)
fu = uri(falu)
c.notify("textDocument/didOpen", {"textDocument": {"uri": fu, "languageId": "gisa-isa", "version": 1, "text": FALU}})
d = c.diagnostics(fu, timeout=60)
check(all(x["severity"] != 1 for x in d), "the shipped falu.isa has no error", d[:3])
lines = FALU.split("\n")
ln = next(i for i, l in enumerate(lines) if l.startswith("__DefOptype FFMA"))
m = c.request("textDocument/documentSymbol", {"textDocument": {"uri": fu}})
exercised.add("documentSymbolProvider")
syms = m.get("result") or []
ffma = [s for s in syms if s["name"] == "FFMA"]
check(ffma and ffma[0]["range"]["start"]["line"] == ln and ffma[0]["kind"] == 5, "document symbols: the optype FFMA", ffma)
check(any(s["kind"] == 12 for s in syms), "document symbols: opcodes", len(syms))
# a type used in falu.isa, defined in types.isa: hover and definition
tl = next(i for i, l in enumerate(lines) if "FPRound" in l)
tc = lines[tl].index("FPRound") + 2
m = c.request("textDocument/hover", {"textDocument": {"uri": fu}, "position": pos(tl, tc)})
v = (m.get("result") or {}).get("contents", {}).get("value", "")
check("`FPRound`" in v and "RZ" in v, "hover on a type: its values", v)
loc = c.request("textDocument/definition", {"textDocument": {"uri": fu}, "position": pos(tl, tc)}).get("result")
check(loc and loc["uri"] == uri(os.path.join(isa_dir, "types.isa")), "definition of a type: in types.isa", loc)
if loc:
    tline = open(os.path.join(isa_dir, "types.isa")).read().split("\n")[loc["range"]["start"]["line"]]
    check("FPRound" in tline, "on its definition line", tline)
m = c.request("textDocument/hover", {"textDocument": {"uri": fu}, "position": pos(ln, 13)})
v = (m.get("result") or {}).get("contents", {}).get("value", "")
check("**optype** `FFMA`" in v and "Syntax forms" in v, "hover on an optype: gisa doc", v[:200])
fl = next(i for i, l in enumerate(lines) if l.strip().endswith("Reg rd;"))
m = c.request("textDocument/hover", {"textDocument": {"uri": fu}, "position": pos(fl, lines[fl].index("rd;"))})
v = (m.get("result") or {}).get("contents", {}).get("value", "")
check("**field** `rd`" in v, "hover on a field", v)
# an error as you type, and lint's warnings
c.notify("textDocument/didChange", {"textDocument": {"uri": fu, "version": 2}, "contentChanges": [{"text": bad}]})
d = c.diagnostics(fu, timeout=60)
check(any(x["severity"] == 1 for x in d), "an edited description: the loader's errors", d[:3])
c.notify("textDocument/didClose", {"textDocument": {"uri": fu}})
check(c.diagnostics(fu) == [], "didClose clears the diagnostics")
c.request("shutdown")
c.notify("exit")
c.close()

# ------------------------------------------------------------------ --isa files, and a flood of changes
c = start("--isa", isa_dir)
c.initialize()
big_uri = uri(os.path.join(WORK, "big.s"))
big = "FADD R0, R1, R2 // padding padding padding\n" * 25000  # 1.1 MB
c.notify("textDocument/didOpen", {"textDocument": {"uri": big_uri, "languageId": "gisa", "version": 1, "text": big}})
check(c.diagnostics(big_uri) == [], "a 25,000-line file has no diagnostic")
loc = c.request("textDocument/definition", {"textDocument": {"uri": big_uri}, "position": pos(0, 1)}).get("result")
check(loc and loc["uri"] == uri(os.path.join(isa_dir, "falu.isa")), "with --isa, definitions are in its files", loc)
c.notify("textDocument/didChange", {"textDocument": {"uri": big_uri, "version": 2},
                                    "contentChanges": [{"range": rng(0, 0, 0, 0), "text": "x"}] * 2000})
m = c.notification("window/showMessage", timeout=60)
check("dropped" in m["message"], "a flood of changes to a big document is cut short, and said so", m)
m = c.request("textDocument/hover", {"textDocument": {"uri": big_uri}, "position": pos(1, 1)}, timeout=10)
check("result" in m, "the server answers after the flood", m)
c.request("shutdown")
c.notify("exit")
c.close()

# ------------------------------------------------------------------ initializationOptions
os.makedirs(os.path.join(WORK, "incdir"), exist_ok=True)
with open(os.path.join(WORK, "incdir", "lib.s"), "w") as f:
    f.write("FADD R0, R1\n")
c = start()
c.initialize(options={"isa": [isa_dir], "includeDirs": [os.path.join(WORK, "incdir")]})
u = uri(os.path.join(WORK, "opts.s"))
c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "gisa", "version": 1,
                                                   "text": "FFMA R1, R2, R3, R4\n.include \"lib.s\"\n"}})
d = c.diagnostics(u)
check(len(d) == 1 and d[0]["range"]["start"]["line"] == 1 and "lib.s:1" in d[0]["message"],
      "initializationOptions.includeDirs: .include finds the file there", d)
loc = c.request("textDocument/definition", {"textDocument": {"uri": u}, "position": pos(0, 1)}).get("result")
check(loc and loc["uri"] == uri(os.path.join(isa_dir, "falu.isa")), "initializationOptions.isa: the ISA of those files", loc)
c.request("shutdown")
c.notify("exit")
c.close()
c = start()
c.initialize(options={"target": "fermi"})
c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "gisa", "version": 1,
                                                   "text": "IMAD.WIDE R0, P0, R1, R2, R[4:5]\n"}})
d = c.diagnostics(u)
check(len(d) == 1 and "unknown instruction 'IMAD'" in d[0]["message"], "initializationOptions.target: fermi has no IMAD", d)
c.close()
c = start()
c.initialize(options={"isa": [os.path.join(WORK, "nowhere")]})
m = c.notification("window/showMessage")
check(m["type"] == 1 and "does not load" in m["message"] and "nowhere" in m["message"], "a bad initializationOptions.isa is shown", m)
c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "gisa", "version": 1, "text": "FFMA R1, R2, R3, R4\n"}})
check(c.diagnostics(u) == [], "and the command line's ISA stays")
c.close()

missing = announced - exercised
check(not missing, "every announced capability is exercised", sorted(missing))
print("lsp protocol: %d capabilities exercised, %d failures" % (len(exercised), failures))
sys.exit(1 if failures else 0)
