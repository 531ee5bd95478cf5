#!/usr/bin/env python3
"""Checks that #include lines run one way between the layers of
shared/DESIGN.md: isa < frontend < runtime < sched < timing < api < cudart < tools.

sched/ is special: it may include only sched/ and isa/ headers (the views
that sched/sched.h defines and the opcode rows), never runtime or timing
internals.  Also checks that the folder graph has no cycle.

Inside runtime/ it checks calls too: a file-level call graph of
runtime/*.c (an edge A -> B when A calls, or takes the address of, a
function B defines without `static`) may hold circles, but none through
loader.c, so that decoding runs one way: loader -> family dispatch ->
family files -> decode helpers, and nothing calls back into the loader.

Exits 1 and names each offending line or circle; with --self-test it
proves that a back-edge include and a call circle through loader.c are
caught.  Run by the test suite (tests/meson.build, tests 'layers' and
'layers_self_test')."""
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


# ---------------------------------------------------- runtime call graph

# Comments, string and character literals, preprocessor lines: dropped
# before looking for names (a name in a message or a comment is no call).
STRIP = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                   r"'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*",
                   re.S | re.M)
IDENT = re.compile(r"[A-Za-z_]\w*")
# The function a file-level `head {` defines: the first name before `(`.
DEFNAME = re.compile(r"([A-Za-z_]\w*)\s*\(")


def strip_c(text):
    return STRIP.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def top_level_defs(code):
    """The functions defined in `code`, as (name, is_static)."""
    defs, depth, head_start = [], 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                head = code[head_start:i]
                m = next((m for m in DEFNAME.finditer(head)
                          if m.group(1) != "__attribute__"), None)
                # `=`: an initializer; no `(`: a struct, union or enum
                if m and "=" not in head:
                    defs.append((m.group(1), re.search(r"\bstatic\b", head) is not None))
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                head_start = i + 1
        elif ch == ";" and depth == 0:
            head_start = i + 1
    return defs


DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\(([^)]*)\)\s*(.*)$")
DEF_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+\.def)"')


def x_tables(text):
    """(macro, params, body, .def path) of each X-macro table in a file:
    `#define M(params) body` followed by `#include "dir/x.def"`."""
    out, cur = [], None
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DEFINE.match(line)
        if m:
            body = m.group(3)
            while body.endswith("\\") and i + 1 < len(lines):
                i += 1
                body = body[:-1] + " " + lines[i]
            cur = (m.group(1), [p.strip() for p in m.group(2).split(",")], body)
        elif cur and re.match(r"^\s*#\s*undef\s+%s\b" % cur[0], line):
            cur = None
        else:
            inc = DEF_INCLUDE.match(line)
            if inc and cur:
                out.append(cur + (inc.group(1),))
        i += 1
    return out


def macro_rows(text, name):
    """The argument lists of every `name(...)` row in a .def file."""
    rows = []
    for m in re.finditer(r"^%s\(" % re.escape(name), strip_c(text), re.M):
        args, depth, cur, i = [], 1, "", m.end()
        while i < len(text) and depth:
            ch = text[i]
            if ch == '"':
                j = text.index('"', i + 1)
                cur += text[i:j + 1]
                i = j + 1
                continue
            depth += ch == "("
            depth -= ch == ")"
            if depth and ch == "," and depth == 1:
                args.append(cur.strip())
                cur = ""
            elif depth:
                cur += ch
            i += 1
        rows.append(args + [cur.strip()])
    return rows


def expand_tables(root, text):
    """The expansions of the X-macro tables a file generates, so that a
    name made by token pasting (ex_decode_##decoder) counts as a use."""
    out = []
    for name, params, body, rel in x_tables(text):
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            rows = macro_rows(fh.read(), name)
        for args in rows:
            e = body
            for p, a in zip(params, args):
                e = re.sub(r"\b%s\b" % re.escape(p), lambda _m, a=a: a, e)
            out.append(re.sub(r"\s*##\s*", "", e))
    return "\n".join(out)


def runtime_call_graph(root):
    """(files, edges): runtime/*.c names and the set of file-level edges."""
    top = os.path.join(root, "runtime")
    code, owner = {}, {}
    for f in sorted(os.listdir(top)):
        if f.endswith(".c"):
            with open(os.path.join(top, f), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            code[f] = strip_c(text) + "\n" + strip_c(expand_tables(root, text))
    for f, text in code.items():
        for name, is_static in top_level_defs(text):
            if not is_static:
                owner.setdefault(name, f)
    edges = set()
    for f, text in code.items():
        for name in set(IDENT.findall(text)):
            g = owner.get(name)
            if g and g != f:
                edges.add((f, g))
    return sorted(code), edges


def circles(nodes, edges):
    """Strongly connected components with more than one file (Tarjan)."""
    graph = {n: sorted(b for a, b in edges if a == n) for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(n):
        index[n] = low[n] = len(index)
        stack.append(n)
        on.add(n)
        for m in graph[n]:
            if m not in index:
                visit(m)
                low[n] = min(low[n], low[m])
            elif m in on:
                low[n] = min(low[n], index[m])
        if low[n] == index[n]:
            comp = []
            while True:
                m = stack.pop()
                on.discard(m)
                comp.append(m)
                if m == n:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in nodes:
        if n not in index:
            visit(n)
    return sorted(out)


def loader_circle(root):
    """(message or None, summary) for the runtime call graph under root."""
    nodes, edges = runtime_call_graph(root)
    comps = circles(nodes, edges)
    bad = [c for c in comps if "loader.c" in c]
    if bad:
        return ("runtime call circle through loader.c: " + ", ".join(bad[0]) +
                " call each other (decoding runs one way: loader.c -> family "
                "dispatch -> family files -> decode.c; nothing calls back into "
                "loader.c)"), None
    others = "; ".join("{" + ", ".join(c) + "}" for c in comps)
    return None, (f"runtime calls: {len(nodes)} files, {len(edges)} file edges, "
                  f"loader.c in no circle" +
                  (f" (other circles: {others})" if others else ""))


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
            # a family file that calls back into the loader closes a circle
            msg, _ = loader_circle(tmp)
            if msg:
                print("self-test: the runtime call graph already has a circle "
                      "through loader.c: " + msg)
                return 1
            # exec_cache.c is reached only through the dispatch table that
            # isa/families.def generates, so this also proves the table is read
            with open(os.path.join(tmp, "runtime", "exec_cache.c"), "a") as fh:
                fh.write("\n/* a call back into the loader */\n"
                         "void ex_self_test_back_call(ex_module *m)\n"
                         "{\n    ex_module_free(m);\n}\n")
            msg, _ = loader_circle(tmp)
            if not msg or "exec_cache.c" not in msg or "loader.c" not in msg:
                print("self-test: a call from exec_cache.c back into loader.c "
                      "made no circle")
                return 1
        print("self-test: a back-edge include and its cycle are caught, and "
              "so is a runtime call circle through loader.c")
        return 0
    bad, edges = violations(root)
    c = cycle(edges)
    calls_bad, calls_summary = loader_circle(root)
    for b in bad:
        print(b)
    if c:
        print("folder include cycle: " + " -> ".join(c))
    if calls_bad:
        print(calls_bad)
    if bad or c or calls_bad:
        return 1
    print(f"layers: {len(edges)} folder edges, all downward, no cycle")
    print(calls_summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
