#!/usr/bin/env python3
"""tests/fuzz/fuzz_cli.py — mutational fuzzer of the ptxemu program.

Mutates every benchmark's PTX (benchmarks/*/kernels*.ptx) and the PTX corpus
(tests/corpus/{nvcc,hand,bad}, tests/fuzz/seeds) and runs the real binary's
`check` and `phases --json` on each mutant, so the parser, loader, CFG and
phase analyses all see it.  A run must exit 0 or 1; when it fails, stderr
must carry a located message (`file:line:col: error:` for PTX).  A signal,
an exit status above 2, a sanitizer report or a run past --timeout counts
as a finding; its input is saved under --out.

    tests/fuzz/fuzz_cli.py BUILD/tools/ptxemu --minutes 10 --seed 1

Deterministic for a given seed and binary.  Exits 1 when anything was
found, and prints iterations, crashes and hangs."""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

INTERESTING = ["0", "1", "-1", "4294967295", "4294967296", "18446744073709551615",
               "99999999999999", "9223372036854775808", "0x7fffffff", "1e99999999999",
               "0f7f800000", "0d7ff0000000000000", "1.5", "65536", "2147483648"]
TOKENS = ["%r1", "%rd1", "%f1", "%p1", "%fd1", "[%rd1]", "[%rd1+4]", "{%r1, %r2}", "_",
          ".u32", ".s64", ".f32", ".b64", ".pred", ".shared", ".global", ".local", "bra",
          "$L__BB0_1", "ret;", "exit;", "bar.sync 0;", "@%p1", "@!%p1", ";", ",", "{", "}",
          "(", ")", "[", "]", "+", "-", "=", ".reg .b32 %r<99999>;", ".target sm_9999",
          ".version 9.9", "// c", "/*", "\"", "\x00", "\xff"]
LOCATED = re.compile(r"(:\d+:\d+: (error: |'.*' is not supported yet)|kernel '|: error: )")


def load_seeds():
    paths = sorted(glob.glob(os.path.join(ROOT, "benchmarks", "*", "kernels*.ptx")))
    bench = len(paths)
    for d in ("tests/corpus/nvcc", "tests/corpus/hand", "tests/corpus/bad", "tests/fuzz/seeds"):
        paths += sorted(glob.glob(os.path.join(ROOT, d, "*.ptx")))
    seeds = []
    for p in paths:
        with open(p, "rb") as f:
            seeds.append(f.read())
    return seeds, bench


def mutate(rng, data):
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        if not lines:
            lines = [b""]
        i = rng.randrange(len(lines))
        line = lines[i]
        if op == 0 and line:                       # flip a byte
            j = rng.randrange(len(line))
            line = line[:j] + bytes([rng.randrange(256)]) + line[j + 1:]
        elif op == 1:                              # delete a line
            del lines[i]
            continue
        elif op == 2:                              # duplicate a line elsewhere
            lines.insert(rng.randrange(len(lines) + 1), line)
            continue
        elif op == 3:                              # swap two lines
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
            continue
        elif op == 4:                              # replace a number
            nums = list(re.finditer(rb"\d+", line))
            if nums:
                m = rng.choice(nums)
                line = line[:m.start()] + rng.choice(INTERESTING).encode() + line[m.end():]
        elif op == 5:                              # insert a token
            j = rng.randrange(len(line) + 1)
            line = line[:j] + rng.choice(TOKENS).encode("latin-1") + line[j:]
        elif op == 6 and line:                     # delete a span
            j = rng.randrange(len(line))
            line = line[:j] + line[j + rng.randint(1, 8):]
        elif op == 7:                              # replace a word with another one of the file
            words = re.findall(rb"[%$.\w]+", data)
            ws = list(re.finditer(rb"[%$.\w]+", line))
            if words and ws:
                m = rng.choice(ws)
                line = line[:m.start()] + rng.choice(words) + line[m.end():]
        else:                                      # truncate the file here
            lines = lines[:i + 1]
        lines[i] = line
    return b"\n".join(lines)


def run(binary, args, path, timeout):
    try:
        p = subprocess.run([binary] + args + [path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", b""
    err = p.stderr
    if p.returncode < 0 or p.returncode > 2:
        return "crash", err
    if b"Sanitizer" in err or b"runtime error:" in err:
        return "crash", err
    # `check` lists what cannot run on stdout, one located line each
    said = err + (p.stdout[:4096] if args[0] == "check" else b"")
    if p.returncode != 0 and not LOCATED.search(said.decode("latin-1")):
        return "unlocated", said
    return "ok", err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--iterations", type=int, default=0, help="stop after N (0: time only)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per run = a hang")
    ap.add_argument("--out", default="fuzz-findings")
    a = ap.parse_args()
    seeds, nbench = load_seeds()
    rng = random.Random(a.seed)
    counts = {"ok": 0, "crash": 0, "hang": 0, "unlocated": 0}
    end = time.monotonic() + a.minutes * 60
    it = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mutant.ptx")
        while time.monotonic() < end and (not a.iterations or it < a.iterations):
            # every benchmark first, then any seed
            data = seeds[it] if it < nbench else mutate(rng, rng.choice(seeds))
            it += 1
            with open(path, "wb") as f:
                f.write(data)
            for args in (["check", "-q"], ["phases", "--json"]):
                kind, err = run(a.binary, args, path, a.timeout)
                counts[kind] += 1
                if kind != "ok":
                    os.makedirs(a.out, exist_ok=True)
                    name = os.path.join(a.out, "%s-%d-%s.ptx" % (kind, it, args[0]))
                    with open(name, "wb") as f:
                        f.write(data)
                    print("%s: ptxemu %s %s\n%s" % (kind, " ".join(args), name,
                                                   err.decode("latin-1")[-2000:]), flush=True)
    print("fuzz_cli: %d inputs (%d benchmark files), %d runs: %d crashes, %d hangs, "
          "%d failures without a located message" %
          (it, nbench, sum(counts.values()), counts["crash"], counts["hang"],
           counts["unlocated"]))
    return 1 if counts["crash"] or counts["hang"] or counts["unlocated"] else 0


if __name__ == "__main__":
    sys.exit(main())
