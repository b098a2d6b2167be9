#!/usr/bin/python3
"""File-level call circles between the object files of one source directory.

Usage: call_cycles.py OBJ...   (the .o files of one directory, e.g. src/sim)

Each object defines symbols (nm: T, D, R, B) and refers to others (U). File
A calls file B when A refers to a symbol B defines. Prints every strongly
connected group of more than one file (a circle: A calls B calls ... A) with
the symbols that close it, and exits 1; exits 0 when the graph is acyclic.
Only calls between the given files count; the library's other directories
are checked by the link of each layer (CMake)."""
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defs, refs = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            refs.add(name)
        elif kind in "TDRBVW" and kind.isupper():
            defs.add(name)
    return defs, refs


def name_of(obj):
    base = os.path.basename(obj)
    return base[: -len(".o")] if base.endswith(".o") else base


def main(objs):
    if not objs:
        print("call_cycles: no object files given", file=sys.stderr)
        return 2
    info = {name_of(o): symbols(o) for o in objs}
    owner = {}
    for f, (defs, _) in info.items():
        for s in defs:
            owner[s] = f
    edges = {f: {} for f in info}
    for f, (_, refs) in info.items():
        for s in refs:
            g = owner.get(s)
            if g and g != f:
                edges[f].setdefault(g, []).append(s)
    # Tarjan's strongly connected components
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(info):
        if v not in index:
            visit(v)
    bad = [sorted(c) for c in sccs if len(c) > 1]
    for comp in bad:
        print("call circle between: " + ", ".join(comp))
        for f in comp:
            for g, syms in sorted(edges[f].items()):
                if g in comp:
                    print("  %s -> %s (%s)" % (f, g, ", ".join(sorted(syms)[:4])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
