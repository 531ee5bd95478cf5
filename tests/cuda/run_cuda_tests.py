#!/usr/bin/env python3
"""Builds the CUDA programs of tests/cuda with nvcc 13 (`-cudart shared`,
PTX embedded) and runs them on ptxemu's drop-in libcudart.so.13, through
`ptxemu exec` and once with the library put on LD_LIBRARY_PATH by hand.

Usage: run_cuda_tests.py PTXEMU CUDART_DIR SOURCE_DIR CACHE_DIR SANITIZE

Exits 77 (meson's "skipped") with the reason when nvcc is not installed or
when the library is built with sanitizers (a program nvcc built without
them cannot load an ASan-instrumented library).  Binaries are cached in
CACHE_DIR by a hash of their source and flags, so a re-run compiles only
what changed.  Every case checks the program's exit status and output;
the timing sample checks that `ptxemu exec --timing` gives the same cycles
as `ptxemu bench run` for the same kernel and input size."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def find_nvcc():
    env = os.environ.get("NVCC")
    if env is not None:
        return env if env and os.access(env, os.X_OK) else None
    found = shutil.which("nvcc")
    if found:
        return found
    for d in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        p = os.path.join(d, "bin", "nvcc") if d else ""
        if p and os.access(p, os.X_OK):
            return p
    return None


class Runner:
    def __init__(self, ptxemu, cudart_dir, src, cache, nvcc):
        self.ptxemu, self.cudart_dir, self.src, self.cache, self.nvcc = (
            ptxemu, cudart_dir, src, cache, nvcc)
        self.failures = []

    def build(self, name, flags):
        path = os.path.join(self.src, "tests", "cuda", name + ".cu")
        h = hashlib.sha256()
        for dep in (path, os.path.join(self.src, "tests", "cuda", "check.h")):
            with open(dep, "rb") as f:
                h.update(f.read())
        h.update(" ".join(flags).encode())
        out = os.path.join(self.cache, f"{name}-{h.hexdigest()[:16]}")
        if not os.path.exists(out):
            cmd = [self.nvcc, "-cudart", "shared", *flags, "-o", out + ".tmp", path]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"nvcc failed: {' '.join(cmd)}\n{r.stderr}")
            os.replace(out + ".tmp", out)
        return out

    def check(self, label, cmd, env=None, want_rc=0, want_out=(), want_err=()):
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        problems = []
        if r.returncode != want_rc:
            problems.append(f"exit status {r.returncode}, expected {want_rc}")
        problems += [f"stdout lacks {w!r}" for w in want_out if w not in r.stdout]
        problems += [f"stderr lacks {w!r}" for w in want_err if w not in r.stderr]
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {label}")
        if problems:
            print(f"     command: {' '.join(cmd)}")
            for p in problems:
                print(f"     {p}")
            print("     stdout: " + r.stdout.strip().replace("\n", "\n             "))
            print("     stderr: " + r.stderr.strip().replace("\n", "\n             "))
            self.failures.append(label)
        return r

    def exec(self, *args):
        return [self.ptxemu, "exec", *args]


PTX75 = ["-gencode", "arch=compute_75,code=compute_75"]
PTX75_86 = PTX75 + ["-gencode", "arch=compute_86,code=compute_86"]


def run(t):
    kern = t.build("kernels", PTX75_86)  # nvcc 13's default: Zstandard
    t.check("kernels: zstd fatbin, compute_86 picked for target 90",
            t.exec("--", kern, "86", "90"), want_out=["PASS kernels"],
            want_err=["4 launches of 4 kernels (0 failed)"])
    t.check("kernels: target 80 picks compute_75 (PTXEMU_SET via --set)",
            t.exec("--set", "gpu.compute_capability=80", "--", kern, "75", "80"),
            want_out=["PASS kernels"])
    t.check("kernels: no PTX at or below target 70 is a clear error",
            t.exec("--set", "gpu.compute_capability=70", "--", kern), want_rc=1,
            want_err=["above the config's gpu.compute_capability 70",
                      "cudaErrorNoKernelImageForDevice"])
    for mode, label in (("none", "uncompressed"), ("speed", "LZ4")):
        b = t.build("kernels", PTX75 + [f"--compress-mode={mode}"])
        t.check(f"kernels: {label} fatbin", t.exec("--", b, "75"), want_out=["PASS kernels"])
    t.check("kernels: timing mode on c2050",
            t.exec("--timing", "--config", "c2050", "--", t.build("kernels", PTX75), "75"),
            want_out=["PASS kernels", "Tesla C2050"], want_err=["timing mode on Tesla C2050"])

    sym = t.build("symbols", PTX75)
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = t.cudart_dir + ":" + env.get("LD_LIBRARY_PATH", "")
    env["PTXEMU_MODE"] = "functional"
    t.check("symbols: drop-in by LD_LIBRARY_PATH alone", [sym], env=env,
            want_out=["PASS symbols"])
    t.check("copy2d", t.exec("--", t.build("copy2d", PTX75)), want_out=["PASS copy2d"])
    t.check("errors: documented error codes", t.exec("--", t.build("errors", PTX75)),
            want_out=["PASS errors"],
            want_err=["not supported yet: cudaGraphCreate", "out-of-bounds"])
    t.check("managed memory and __managed__ variables",
            t.exec("--", t.build("managed", PTX75)), want_out=["PASS managed"])
    sass = t.build("sass_only", ["-gencode", "arch=compute_75,code=sm_75"])
    t.check("sass_only: clear error, cudaErrorNoKernelImageForDevice", t.exec("--", sass),
            want_out=["PASS sass_only"],
            want_err=["carries no PTX", "-gencode arch=compute_XX,code=compute_XX"])

    for name, args in (("bench_2dconv", ["256"]), ("bench_matrixmul", []),
                       ("bench_reduction", ["100000"])):
        t.check(f"{name}: functional", t.exec("--", t.build(name, PTX75), *args),
                want_out=["PASS"])

    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "red.json")
        t.check("bench_reduction: PTXEMU_STATS in functional mode",
                t.exec("--stats", stats, "--", t.build("bench_reduction", PTX75), "100000"),
                want_out=["PASS reduction n=100000 (2 launches)"])
        if os.path.exists(stats):
            with open(stats) as f:
                recs = json.load(f)["kernels"]
            if len(recs) != 2 or recs[0]["grid"] != [64, 1, 1] or recs[1]["grid"] != [1, 1, 1]:
                t.failures.append("functional stats records")
                print(f"FAIL functional stats: {recs}")
        else:
            t.failures.append("functional stats file")
            print("FAIL functional stats: no file")
        # same kernel, same size (benchmarks/2dconv at tiny is 256 x 256):
        # 2dconv's control flow and addresses do not depend on the data, so
        # the cycles must be equal
        a, b = os.path.join(tmp, "exec.json"), os.path.join(tmp, "bench.json")
        t.check("bench_2dconv: timing under exec",
                t.exec("--timing", "--config", "c2050", "--stats", a, "--",
                       t.build("bench_2dconv", PTX75), "256"), want_out=["PASS"])
        t.check("2dconv: timing under bench run",
                [t.ptxemu, "bench", "run", "2dconv", "--size", "tiny", "--timing",
                 "--config", "c2050", "--stats", b], want_out=["PASS"])
        try:
            ca = json.load(open(a))["kernels"][0]["cycles"]
            cb = json.load(open(b))["kernels"][0]["cycles"]
        except (OSError, KeyError, IndexError, ValueError) as e:
            ca, cb = None, str(e)
        print(f"{'ok' if ca == cb else 'FAIL':4} 2dconv cycles: exec {ca}, bench run {cb}")
        if ca != cb:
            t.failures.append("2dconv cycles")


def main():
    if len(sys.argv) != 6:
        print(__doc__)
        return 2
    ptxemu, cudart_dir, src, cache, sanitize = sys.argv[1:]
    if sanitize not in ("", "none"):
        print(f"SKIP: libcudart.so.13 is built with -fsanitize={sanitize}; programs nvcc "
              "builds cannot load it (the optimised build runs these tests)")
        return SKIP
    nvcc = find_nvcc()
    if not nvcc:
        print("SKIP: nvcc not found ($NVCC, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin); "
              "the CUDA program tests need nvcc 13")
        return SKIP
    os.makedirs(cache, exist_ok=True)
    t = Runner(ptxemu, cudart_dir, src, cache, nvcc)
    run(t)
    if t.failures:
        print(f"{len(t.failures)} failed: {', '.join(t.failures)}")
        return 1
    print("all CUDA program tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
