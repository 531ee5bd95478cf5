#!/usr/bin/env python3
"""Builds CUDA programs with nvcc 13 (`-cudart shared`, PTX embedded) and
runs them on ptxemu's drop-in libcudart.so.13, through `ptxemu exec` and
once with the library put on LD_LIBRARY_PATH by hand.

Usage: run_cuda_tests.py PTXEMU CUDART_DIR SOURCE_DIR CACHE_DIR SANITIZE [WHAT]
WHAT: `programs` (default): the programs of tests/cuda (streams and events,
      -rdc, error codes, ...);
      `benchmarks`: every benchmark of benchmarks/ as a standalone CUDA
      program (its kernels.cu and its own driver.c, the host flow with the
      CPU reference, on the CUDA runtime through tests/cuda/bench/), each
      run at size tiny in functional mode, and a sample under timing whose
      cycles must equal `ptxemu bench run`'s, kernel by kernel.

Exits 77 (meson's "skipped") with the reason when nvcc is not installed or
when the library is built with sanitizers (a program nvcc built without
them cannot load an ASan-instrumented library).  Binaries are built
PTXEMU_NVCC_JOBS (default 2) at a time and cached in CACHE_DIR by a hash of
their sources and flags, so a re-run compiles only what changed."""
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

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
        self.used = set()  # cache entries this run built or reused

    def _spec(self, name, flags):
        """What building tests/cuda/NAME.cu (plus extra sources) takes."""
        names = name if isinstance(name, (list, tuple)) else [name]
        srcs = [os.path.join(self.src, "tests", "cuda", n + ".cu") for n in names]
        deps = srcs + [os.path.join(self.src, "tests", "cuda", "check.h"),
                       os.path.join(self.src, "cudart", "device_attrs.def")]
        return "-".join(names), srcs, deps, list(flags), {}

    def _bench_spec(self, bench):
        """A benchmark as a CUDA program: its kernels.cu (with the table of
        PTX names, from its kernels.ptx), its driver.c and the shim."""
        bdir = os.path.join(self.src, "benchmarks", bench)
        with open(os.path.join(bdir, "driver.c")) as f:
            defs = re.findall(r"const bench_def (\w+) =", f.read())
        with open(os.path.join(bdir, "kernels.ptx")) as f:
            ptx = f.read()
        names = re.findall(r"^\.visible \.entry (\w+)\(", ptx, re.M)
        names += [n for n in re.findall(
            r"^(?:\.visible |\.extern )?\.(?:const|global) (?:\.align \d+ )?\.\w+ (\w+)", ptx, re.M)
            if not n.startswith(("_Z", "__", "$"))]
        table = "".join(f'    {{"{n}", (const void *)&{n}}},\n' for n in names)
        syms = (f'#include "benchmarks/{bench}/kernels.cu"\n'
                'struct bench_host_sym { const char *name; const void *host; };\n'
                'extern "C" const bench_host_sym bench_host_syms[];\n'
                f'extern "C" const bench_host_sym bench_host_syms[] = {{\n{table}    {{0, 0}}\n}};\n')
        # device-side launches (the CDP benchmarks) need separate compilation,
        # as scripts/regen-ptx.sh compiles their kernels.ptx
        with open(os.path.join(bdir, "kernels.cu")) as f:
            rdc = ["-rdc=true"] if "ptxemu: -rdc=true" in f.read() else []
        shim = os.path.join(self.src, "tests", "cuda", "bench")
        srcs = [os.path.join(shim, "ptxemu_on_cuda.c"), os.path.join(shim, "bench_main.c"),
                os.path.join(bdir, "driver.c"), os.path.join(self.src, "benchmarks", "bench_util.c")]
        if rdc:  # the CDP drivers' shared inputs and CPU references
            srcs += [os.path.join(self.src, "benchmarks", n)
                     for n in ("cdp_inputs.c", "cdp_regx_inputs.c", "cdp_pre_inputs.c", "cdp_ref.c")]
        deps = srcs + [os.path.join(bdir, "kernels.cu"), os.path.join(bdir, "kernels.ptx"),
                       os.path.join(self.src, "benchmarks", "bench.h"),
                       os.path.join(self.src, "api", "ptxemu.h")]
        glib = subprocess.run(["pkg-config", "--cflags", "--libs", "glib-2.0"],
                              capture_output=True, text=True).stdout.split()
        flags = rdc + PTX75 + ["-I", self.src,
                               "-DBENCH_DEFS=" + " ".join(f"X({d})" for d in defs),
                               *glib, "-lm"]
        return "bench-" + bench, srcs, deps, flags, {"syms.cu": syms}

    def _out(self, spec):
        label, srcs, deps, flags, generated = spec
        h = hashlib.sha256()
        for dep in deps:
            with open(dep, "rb") as f:
                h.update(f.read())
        for name, text in sorted(generated.items()):
            h.update(name.encode() + text.encode())
        h.update(" ".join(flags).encode())
        return os.path.join(self.cache, f"{label}-{h.hexdigest()[:16]}")

    def _compile(self, spec):
        label, srcs, deps, flags, generated = spec
        out = self._out(spec)
        self.used.add(os.path.basename(out))
        if os.path.exists(out):
            return out
        extra = []
        for name, text in generated.items():
            path = f"{out}.{name}"
            with open(path, "w") as f:
                f.write(text)
            extra.append(path)
        cmd = [self.nvcc, "-cudart", "shared", *flags, "-o", out + ".tmp", *extra, *srcs]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"nvcc failed: {' '.join(cmd)}\n{r.stderr}")
        os.replace(out + ".tmp", out)
        return out

    def prebuild(self, specs):
        """Compiles what is not cached yet, PTXEMU_NVCC_JOBS at a time."""
        todo = [sp for sp in specs if not os.path.exists(self._out(sp))]
        if not todo:
            return
        jobs = max(1, int(os.environ.get("PTXEMU_NVCC_JOBS", "2")))
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for f in [pool.submit(self._compile, sp) for sp in todo]:
                f.result()
        print(f"compiled {len(todo)} programs with nvcc in {time.monotonic() - t0:.1f} s "
              f"({jobs} at a time)")

    def prune(self, benchmarks):
        """Removes this test's stale cache entries (sources changed), so
        the cache does not grow; the other test's entries are left alone."""
        for name in os.listdir(self.cache):
            if name.startswith("bench-") != benchmarks or name.endswith(".tmp"):
                continue
            if name.split(".")[0] not in self.used:
                os.remove(os.path.join(self.cache, name))

    def build(self, name, flags):
        return self._compile(self._spec(name, flags))

    def build_bench(self, bench):
        return self._compile(self._bench_spec(bench))

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
PTX80 = ["-gencode", "arch=compute_80,code=compute_80"]


RDC = ["-rdc=true"] + PTX75


def run(t):
    t.prebuild([t._spec(*a) for a in (
        ("kernels", PTX75_86), ("kernels", PTX75 + ["--compress-mode=none"]),
        ("kernels", PTX75 + ["--compress-mode=speed"]), ("kernels", PTX75),
        ("symbols", PTX75), ("copy2d", PTX75), ("errors", PTX75), ("host_errors", PTX75), ("managed", PTX75), ("wmma_gemm", PTX75),
        ("sass_only", ["-gencode", "arch=compute_75,code=sm_75"]), ("bench_2dconv", PTX75),
        ("bench_matrixmul", PTX75), ("bench_reduction", PTX75), ("streams", PTX75),
        ("streams", PTX75 + ["--default-stream", "per-thread"]),
        ("rdc", RDC), ("cdp", RDC), (["rdc", "rdc_second"], RDC),
        ("attributes", PTX75 + ["-I", t.src]), ("dynshared", PTX80), ("samples", PTX75),
        ("long_kernel", PTX75), ("mapped", PTX75), ("graphs", PTX75),
        ("mallocasync", PTX75), ("fresh_heap", PTX75), ("races", PTX75))])
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
    wmma = t.build("wmma_gemm", PTX75)
    t.check("wmma_gemm: nvcuda::wmma GEMM", t.exec("--", wmma), want_out=["PASS wmma_gemm"])
    t.check("wmma_gemm: timing mode", t.exec("--timing", "--", wmma),
            want_out=["PASS wmma_gemm"])
    t.check("texture and surface objects, CUDA arrays",
            t.exec("--", t.build("texture", PTX75)), want_out=["PASS texture"])
    t.check("async_coop: grid.sync, device heap, cp.async (sm_80 PTX)",
            t.exec("--", t.build("async_coop", ["-gencode", "arch=compute_80,code=compute_80"])),
            want_out=["PASS async_coop"])
    errors = t.build("errors", PTX75)
    t.check("errors: documented error codes", t.exec("--", errors),
            want_out=["PASS errors"],
            want_err=["not supported yet: cudaDeviceCanAccessPeer", "out-of-bounds",
                      os.path.basename(errors) + ".fatbin0.compute_75.ptx:",
                      "rerun with `ptxemu exec --keep-ptx DIR`"])
    with tempfile.TemporaryDirectory() as tmp:
        kept = os.path.join(tmp, "ptx")
        r = t.check("errors: --keep-ptx DIR writes the PTX the fault's location names",
                    t.exec("--keep-ptx", kept, "--", errors), want_out=["PASS errors"],
                    want_err=[os.path.join(kept, os.path.basename(errors)) +
                              ".fatbin0.compute_75.ptx:"])
        # the location opens: its line is the instruction the message quotes
        m = re.search(r"\((\S+\.ptx):(\d+):(\d+): ([^)]*)\)", r.stderr)
        line = None
        if m and os.path.isfile(m.group(1)):
            with open(m.group(1)) as f:
                lines = f.read().split("\n")
            n = int(m.group(2))
            line = lines[n - 1].strip() if 0 < n <= len(lines) else None
        good = m is not None and line == m.group(4).strip() and "--keep-ptx" not in r.stderr
        print(f"{'ok' if good else 'FAIL':4} errors: the kept file's line {m and m.group(2)} "
              f"is {line!r}, the message quotes {m and m.group(4)!r}")
        if not good:
            t.failures.append("keep-ptx location")
    host = t.build("host_errors", PTX75)
    t.check("host_errors: impossible host sizes and registrations (documented codes)",
            t.exec("--", host), want_out=["PASS host_errors"],
            want_err=["cudaMallocHost(1099511627776 bytes): more than the host's physical memory",
                      "cudaMallocManaged(18446744073709551615 bytes): larger than the device's",
                      "(0 failed)"])
    t.check("host_errors: timing mode", t.exec("--timing", "--", host),
            want_out=["PASS host_errors"])
    t.check("exec --stats in a folder that does not exist: refused, program not run",
            t.exec("--timing", "--stats", "/nonexistent/dir/s.json", "--", host), want_rc=1,
            want_err=["--stats: cannot write /nonexistent/dir/s.json"])
    with tempfile.TemporaryDirectory() as tmp:
        # without exec's check (the library by hand): the summary records
        # the lost statistics, in both modes
        for mode in ("functional", "timing"):
            env = dict(os.environ)
            env["LD_LIBRARY_PATH"] = t.cudart_dir + ":" + env.get("LD_LIBRARY_PATH", "")
            env.update(PTXEMU_MODE=mode, PTXEMU_STATS="/nonexistent/dir/s.json",
                       PTXEMU_SUMMARY=os.path.join(tmp, mode))
            r = t.check(f"PTXEMU_STATS unwritable ({mode}): said, and in the summary", [host],
                        env=env, want_rc=0 if mode == "functional" else 1,
                        want_err=["cannot write /nonexistent/dir/s.json"])
            try:
                summary = open(os.path.join(tmp, mode)).read()
            except OSError as e:
                summary = str(e)
            good = "output_error=" in summary and "/nonexistent/dir/s.json" in summary
            print(f"{'ok' if good else 'FAIL':4} summary ({mode}) carries output_error")
            if not good:
                t.failures.append(f"summary output_error {mode}")
    attrs = t.build("attributes", PTX75 + ["-I", t.src])
    t.check("attributes: every cudaDeviceAttr, deviceQuery properties (functional)",
            t.exec("--", attrs), want_out=["PASS attributes: 137 attributes", "ptxemu "])
    t.check("attributes: every cudaDeviceAttr under timing on c2050",
            t.exec("--timing", "--config", "c2050", "--", attrs),
            want_out=["PASS attributes", "Tesla C2050", "14 SMs"])
    dyn = t.build("dynshared", PTX80)
    t.check("dynshared: dynamic shared memory opt-in above 48 KiB (functional)",
            t.exec("--set", "core.shared_mem=228K", "--", dyn), want_out=["PASS dynshared"])
    t.check("dynshared: dynamic shared memory opt-in above 48 KiB (timing)",
            t.exec("--timing", "--set", "core.shared_mem=228K", "--", dyn),
            want_out=["PASS dynshared"], want_err=["(0 failed)"])
    smp = t.build("samples", PTX75)
    t.check("samples: profiler start/stop, stream priorities, host functions, events",
            t.exec("--", smp), want_out=["PASS samples"])
    t.check("samples: event times are simulated time under timing",
            t.exec("--timing", "--", smp, "timing"), want_out=["PASS samples (timing)"])
    lk = t.build("long_kernel", PTX75)
    t.check("long_kernel: 1.1e8 warp instructions in one launch, no limit under exec by default",
            t.exec("--", lk, "50000000"), want_out=["PASS long_kernel"])
    t.check("long_kernel: a limit the config asks for names its key and how to raise it",
            t.exec("--set", "limits.max_warp_instructions=100000", "--", lk, "50000000"),
            want_rc=2, want_out=["cudaErrorLaunchTimeout"],
            want_err=["stopped after 100000 warp instructions (limits.max_warp_instructions; "
                      "raise it with --max-warp-instructions or --set "
                      "limits.max_warp_instructions=N); it was in the loop at line"])
    mp = t.build("mapped", PTX75)
    t.check("mapped: cudaHostAllocMapped zero-copy memory (functional)", t.exec("--", mp),
            want_out=["PASS mapped"])
    t.check("mapped: cudaHostAllocMapped zero-copy memory (timing)", t.exec("--timing", "--", mp),
            want_out=["PASS mapped"])
    gr = t.build("graphs", PTX75)
    t.check("graphs: explicit nodes, stream capture across streams, child graphs, update, "
            "misuse codes (functional)", t.exec("--", gr), want_out=["PASS graphs"])
    t.check("graphs: the same under timing", t.exec("--timing", "--", gr),
            want_out=["PASS graphs"], want_err=["(0 failed)"])
    ma = t.build("mallocasync", PTX75)
    t.check("mallocasync: stream-ordered allocation and pools (functional)", t.exec("--", ma),
            want_out=["PASS mallocasync"])
    t.check("mallocasync: the same under timing", t.exec("--timing", "--", ma),
            want_out=["PASS mallocasync"], want_err=["(0 failed)"])
    fh = t.build("fresh_heap", PTX75)
    # without meson's MALLOC_PERTURB_, which makes glibc fill every malloc
    # (natively too), so fresh memory reads as glibc hands it out
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
    t.check("fresh_heap: ptxemu's device memory and staging copies leave the program's heap "
            "as natively (fresh large mallocs read as zeros)", t.exec("--", fh),
            env=env, want_out=["PASS fresh_heap"])
    t.check("fresh_heap: the same under timing", t.exec("--timing", "--", fh), env=env,
            want_out=["PASS fresh_heap"])
    rc_ = t.build("races", PTX75)
    r = t.check("races: --race-check reports the plain += between blocks with both lines",
                t.exec("--race-check", "--", rc_), want_out=["PASS races"],
                want_err=["race: read of global address", "kernel '_Z9plain_incPj', CTA (1,0,0)",
                          "earlier write by kernel '_Z9plain_incPj', CTA (0,0,0)",
                          "ld.global.u32", "st.global.u32", "two CTAs"])
    n = r.stderr.count("ptxemu: race:") if r else -1
    print(f"{'ok' if n == 1 else 'FAIL':4} races: one report (atomicAdd and __syncthreads "
          f"hand-off report none), got {n}")
    if n != 1:
        t.failures.append("races count")
    r = t.check("races: off by default", t.exec("--", rc_), want_out=["PASS races"])
    if r and "race:" in r.stderr:
        print("FAIL races: reported without --race-check")
        t.failures.append("races off")
    t.check("managed memory and __managed__ variables",
            t.exec("--", t.build("managed", PTX75)), want_out=["PASS managed"])
    sass = t.build("sass_only", ["-gencode", "arch=compute_75,code=sm_75"])
    t.check("sass_only: clear error, cudaErrorNoKernelImageForDevice", t.exec("--", sass),
            want_out=["PASS sass_only"],
            want_err=["carries no PTX", "-gencode arch=compute_XX,code=compute_XX"])

    streams = t.build("streams", PTX75)
    t.check("streams and events: functional", t.exec("--", streams), want_out=["PASS streams"])
    t.check("streams: --default-stream per-thread (_ptsz/_ptds entry points)",
            t.exec("--timing", "--", t.build("streams", PTX75 + ["--default-stream", "per-thread"]),
                   "overlap"), want_out=["PASS streams"], want_err=["(0 failed)"])
    t.check("rdc: -rdc=true program (__cudaRegisterLinkedBinary)",
            t.exec("--", t.build("rdc", RDC)), want_out=["PASS rdc"])
    t.check("cdp: a device-side launch runs (docs/cdp.md)",
            t.exec("--", t.build("cdp", RDC)), want_out=["PASS cdp"])
    t.check("cdp: a device-side launch on the timing model with a LaPerm policy",
            t.exec("--timing", "--set", "cta.policy=laperm-adaptive", "--",
                   t.build("cdp", RDC)), want_out=["PASS cdp"])
    t.check("rdc: device code in two units is a clear error",
            t.exec("--", t.build(["rdc", "rdc_second"], RDC)), want_rc=1,
            want_err=["not supported yet: a program built with -rdc=true"])

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
        # two independent kernels: one stream, then two streams (the last
        # four launches of `streams overlap`)
        st = os.path.join(tmp, "streams.json")
        t.check("streams: timing, two streams overlap",
                t.exec("--timing", "--config", "c2050", "--stats", st, "--", streams, "overlap"),
                want_out=["PASS streams"])
        try:
            k = json.load(open(st))["kernels"][-4:]
            iv = [(x["start_cycle"], x["end_cycle"]) for x in k]
        except (OSError, KeyError, ValueError) as e:
            iv = str(e)
        good = (isinstance(iv, list) and len(iv) == 4 and iv[1][0] >= iv[0][1]
                and iv[3][0] < iv[2][1] and iv[2][0] < iv[3][1]
                and max(iv[2][1], iv[3][1]) - min(iv[2][0], iv[3][0]) < iv[1][1] - iv[0][0])
        print(f"{'ok' if good else 'FAIL':4} stream overlap in the stats: one stream "
              f"{iv[:2] if isinstance(iv, list) else iv}, two streams "
              f"{iv[2:] if isinstance(iv, list) else ''}")
        if not good:
            t.failures.append("stream overlap")


# Benchmarks compared under timing with `ptxemu bench run` (tiny): host
# loops (bfs, kmeans), __constant__ memory (kmeans), shared-memory tiles
# with ping-pong buffers (hotspot), and the simplest kernel (vector-add).
TIMING_SAMPLE = ("vector-add", "bfs", "kmeans", "hotspot")


def run_benchmarks(t):
    benches = sorted(os.path.basename(os.path.dirname(p)) for p in
                     glob.glob(os.path.join(t.src, "benchmarks", "*", "kernels.cu"))
                     if os.path.exists(os.path.join(os.path.dirname(p), "driver.c")))
    # PTXEMU_TEST_SAMPLE=I/N (the default test run, tests/meson.build): the
    # benchmarks whose index in that list is I modulo N, and the timing
    # sample; unset (scripts/test.sh --full): all of them
    try:
        i, n = (int(x) for x in os.environ.get("PTXEMU_TEST_SAMPLE", "").split("/"))
        if not 0 <= i < n:
            raise ValueError
        benches = [b for k, b in enumerate(benches) if k % n == i or b in TIMING_SAMPLE]
        print(f"sampled (PTXEMU_TEST_SAMPLE={i}/{n}): {len(benches)} programs")
    except ValueError:
        pass
    t.prebuild([t._bench_spec(b) for b in benches])
    t0 = time.monotonic()
    for b in benches:
        prog = t.build_bench(b)
        names = subprocess.run([prog, "--list"], capture_output=True, text=True).stdout.split()
        if not names:
            t.failures.append(f"{b}: --list")
            print(f"FAIL {b}: the program lists no benchmark")
        for name in names:
            t.check(f"benchmark {name}: functional (tiny)", t.exec("-q", "--", prog, name, "tiny"),
                    want_out=[f"PASS {name} tiny"])
    print(f"functional runs: {time.monotonic() - t0:.1f} s")
    t.check("benchmark vector-add: a broken CPU reference fails the check",
            t.exec("-q", "--", t.build_bench("vector-add"), "vector-add", "tiny", "1", "break"),
            want_rc=1, want_out=["FAIL vector-add tiny: c["])
    with tempfile.TemporaryDirectory() as tmp:
        for b in TIMING_SAMPLE:
            a, c = os.path.join(tmp, b + "-exec.json"), os.path.join(tmp, b + "-bench.json")
            t.check(f"benchmark {b}: timing under exec",
                    t.exec("-q", "--timing", "--config", "c2050", "--stats", a, "--",
                           t.build_bench(b), b, "tiny"), want_out=[f"PASS {b} tiny"])
            t.check(f"{b}: timing under bench run",
                    [t.ptxemu, "bench", "run", b, "--size", "tiny", "--timing", "--config",
                     "c2050", "--stats", c], want_out=["PASS"])
            try:
                ca = [k["cycles"] for k in json.load(open(a))["kernels"]]
                cb = [k["cycles"] for k in json.load(open(c))["kernels"]]
            except (OSError, KeyError, ValueError) as e:
                ca, cb = None, str(e)
            same = ca == cb and bool(ca)
            print(f"{'ok' if same else 'FAIL':4} {b} cycles per launch equal: "
                  f"{len(ca or [])} launches, {sum(ca or [])} cycles under exec; "
                  f"bench run {cb if not same else sum(cb)}")
            if not same:
                t.failures.append(f"{b} cycles")


def main():
    if len(sys.argv) not in (6, 7) or sys.argv[6:] not in ([], ["programs"], ["benchmarks"]):
        print(__doc__)
        return 2
    ptxemu, cudart_dir, src, cache, sanitize = sys.argv[1:6]
    what = sys.argv[6] if len(sys.argv) > 6 else "programs"
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
    (run_benchmarks if what == "benchmarks" else run)(t)
    t.prune(what == "benchmarks")
    if t.failures:
        print(f"{len(t.failures)} failed: {', '.join(t.failures)}")
        return 1
    print("all CUDA program tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
