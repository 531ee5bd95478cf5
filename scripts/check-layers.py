#!/usr/bin/env python3
"""Checks that #include lines run one way between the layers of
shared/DESIGN.md: isa < frontend < runtime < sched < timing < api < cudart < tools.

sched/ is special: it may include only sched/ and isa/ headers (the views
that sched/sched.h defines and the opcode rows), never runtime or timing
internals.  Also checks that the folder graph has no cycle.  Exits 1 and
names each offending line; with --self-test it proves that a back-edge is
caught.  Run by the test suite (tests/meson.build, test 'layers')."""
import os
import re
import sys

RANK = {"isa": 0, "frontend": 1, "runtime": 2, "sched": 3, "timing": 4,
        "api": 5, "cudart": 6, "tools": 7}
# What each layer may include besides itself.
ALLOWED = {layer: {l for l, r in RANK.items() if r < rank}
           for layer, rank in RANK.items()}
ALLOWED["sched"] = {"isa"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')


def violations(root):
    bad, edges = [], set()
    for layer in RANK:
        top = os.path.join(root, layer)
        for d, _, files in os.walk(top):
            for f in sorted(files):
                if not f.endswith((".c", ".h", ".y", ".l", ".def")):
                    continue
                path = os.path.join(d, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in RANK:
                            continue
                        dep = m.group(1)
                        if dep == layer:
                            continue
                        edges.add((layer, dep))
                        if dep not in ALLOWED[layer]:
                            rel = os.path.relpath(path, root)
                            bad.append(f"{rel}:{n}: {layer}/ includes {dep}/ "
                                       f"({line.strip()}): layers import one way "
                                       f"({' < '.join(RANK)}; sched/ sees only isa/)")
    return bad, edges


def cycle(edges):
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    state = {}

    def visit(n, path):
        state[n] = 1
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return path + [n, m]
            if not state.get(m):
                c = visit(m, path + [n])
                if c:
                    return c
        state[n] = 2
        return None

    for n in sorted(graph):
        if not state.get(n):
            c = visit(n, [])
            if c:
                return c
    return None


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = sys.argv[1:]
    if args and args[0] == "--self-test":
        # a copy of one isa header with an upward include must be caught
        import shutil
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            for layer in RANK:
                if os.path.isdir(os.path.join(root, layer)):
                    shutil.copytree(os.path.join(root, layer), os.path.join(tmp, layer))
            with open(os.path.join(tmp, "isa", "types.h"), "a") as fh:
                fh.write('\n#include "timing/config.h"\n')
            bad, edges = violations(tmp)
            if not any("isa/types.h" in b and "timing/" in b for b in bad):
                print("self-test: an isa -> timing include was not caught")
                return 1
            if not cycle(edges):
                print("self-test: the isa -> timing -> isa cycle was not found")
                return 1
        print("self-test: a back-edge include and its cycle are caught")
        return 0
    bad, edges = violations(root)
    c = cycle(edges)
    for b in bad:
        print(b)
    if c:
        print("folder include cycle: " + " -> ".join(c))
    if bad or c:
        return 1
    print(f"layers: {len(edges)} folder edges, all downward, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
