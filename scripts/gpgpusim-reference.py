#!/usr/bin/env python3
"""Records reference figures for `ptxemu correlate`: every benchmark of
benchmarks/ built as a standalone CUDA program (its own driver and CPU
check, as tests/cuda/run_cuda_tests.py builds it for the drop-in tests) and
run under GPGPU-Sim's cycle-level model with its SM2_GTX480 tested config;
one CSV row per kernel launch.

GPGPU-Sim is never part of the project: build it beside the checkout with
../shared/gpgpusim/build.sh (see ../shared/gpgpusim/README.md) and point
GPGPUSIM_ROOT at it.  This script only runs programs under it through
../shared/gpgpusim/run_gpgpusim.sh and reads the figures it prints.

Usage: scripts/gpgpusim-reference.py [--size small] [--out CSV]
           [--work DIR] [--timeout S] [BENCHMARK...]
Env:   GPGPUSIM_ROOT (built checkout, required), NVCC (default: PATH or
       /usr/local/cuda/bin/nvcc), REAL_CUDA_INSTALL_PATH (default: nvcc's
       toolkit).
Rows already in --out are kept and their benchmarks skipped, so an
interrupted run resumes; a benchmark whose program fails its own CPU check
under GPGPU-Sim, or times out, gets a `# skipped NAME: why` line instead.

Per-launch figures (GPGPU-Sim prints them after every kernel; the cache,
DRAM and instruction totals it prints are cumulative over the program, so
each launch's value is the difference from the previous print):
  cycles            gpu_sim_cycle (core clock, 700 MHz in SM2_GTX480)
  instructions      gpu_sim_insn (thread-instructions)
  warp_instructions gpgpu_n_tot_w_icount
  ipc               instructions / cycles
  l1_hit            HIT / TOTAL_ACCESS of Total_core_cache_stats_breakdown over
                    the L1 data reads (GLOBAL_ACC_R, LOCAL_ACC_R): a hit on a
                    line still being filled (HIT_RESERVED) is not a hit, as in
                    ptxemu, which counts an MSHR merge as a miss (GPGPU-Sim's
                    own L1D_total_cache_miss_rate counts it as a hit)
  l2_hit            HIT / TOTAL_ACCESS of L2_cache_stats_breakdown over the
                    read-type requests (GLOBAL/LOCAL/CONST/TEXTURE/INST_ACC_R;
                    writes left out, as ptxemu leaves them out); GPGPU-Sim's L2
                    is sectored, so a line request counts once per sector
  dram_reads        sum of n_rd over the DRAM[i] channels (32-byte sectors:
                    `# dram_request_bytes: 32`)
  dram_writes       sum of n_write + n_wr_bk (L2 write-backs) over the channels
  icnt_stalls       gpu_stall_icnt2sh (cycles a reply could not enter the
                    interconnect toward an SM)
"""
import argparse
import csv
import glob
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SRC, "tests", "cuda"))
import run_cuda_tests  # noqa: E402  (the benchmark-program builder)

COLUMNS = ["benchmark", "size", "launch", "kernel", "cycles", "warp_instructions",
           "instructions", "ipc", "l1_hit", "l2_hit", "dram_reads", "dram_writes",
           "icnt_stalls"]
CUMULATIVE = ["warp_icount", "l1_acc", "l1_hit", "l2_acc", "l2_hit", "dram_rd",
              "dram_wr", "icnt2sh"]
# The access types whose lookups form the hit rates, as ptxemu counts them:
# L1 data reads (stores and atomics do not look up L1 hits in either), and
# every read-type request reaching the L2 (data, constant, texture and
# instruction fills, atomics); writes are left out of both.
L1_READS = ("GLOBAL_ACC_R", "LOCAL_ACC_R")
L2_READS = ("GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R", "INST_ACC_R")


def breakdown(block, which, types, status):
    """Sum of `which[TYPE][status] = N` over `types` (GPGPU-Sim's cache
    breakdowns, cumulative over the program)."""
    total = 0.0
    for t, n in re.findall(rf"^\s*{which}\[(\w+)\]\[{status}\] = (\d+)", block, re.M):
        if t in types:
            total += float(n)
    return total


def parse_gpgpusim(text):
    """The per-kernel blocks of GPGPU-Sim's stdout, cumulative totals turned
    into per-launch differences.  Returns a list of dicts."""
    blocks = re.split(r"^kernel_name = ", text, flags=re.M)[1:]
    out, prev = [], dict.fromkeys(CUMULATIVE, 0)

    def num(pat, b, default=None):
        m = re.search(pat, b, re.M)
        return float(m.group(1)) if m else default

    for b in blocks:
        names = b.split("\n", 1)[0].split()
        cur = {
            "warp_icount": num(r"^gpgpu_n_tot_w_icount = (\d+)", b),
            "l1_acc": breakdown(b, "Total_core_cache_stats_breakdown", L1_READS, "TOTAL_ACCESS"),
            "l1_hit": breakdown(b, "Total_core_cache_stats_breakdown", L1_READS, "HIT"),
            "l2_acc": breakdown(b, "L2_cache_stats_breakdown", L2_READS, "TOTAL_ACCESS"),
            "l2_hit": breakdown(b, "L2_cache_stats_breakdown", L2_READS, "HIT"),
            "dram_rd": sum(float(x) for x in re.findall(r"^n_cmd=.* n_rd=(\d+) ", b, re.M)),
            "dram_wr": sum(float(x) + float(y) for x, y in
                           re.findall(r"^n_cmd=.* n_write=(\d+) n_wr_bk=(\d+) ", b, re.M)),
            "icnt2sh": num(r"^gpu_stall_icnt2sh\s*= (\d+)", b, 0),
        }
        d = {k: cur[k] - prev[k] for k in CUMULATIVE if cur[k] is not None}
        prev = {k: (cur[k] if cur[k] is not None else prev[k]) for k in CUMULATIVE}
        d["names"] = names
        d["cycles"] = num(r"^gpu_sim_cycle = (\d+)", b)
        d["insn"] = num(r"^gpu_sim_insn = (\d+)", b)
        out.append(d)
    return out


def rate(accesses, hits):
    return "" if accesses <= 0 else f"{hits / accesses:.4f}"


def rows_for(bench, size, launches):
    rows = []
    for i, d in enumerate(launches):
        if len(d["names"]) != 1:
            raise RuntimeError(f"launch {i}: kernels ran together ({' '.join(d['names'])})")
        cyc, insn = d["cycles"], d["insn"]
        rows.append({
            "benchmark": bench, "size": size, "launch": i, "kernel": d["names"][0],
            "cycles": int(cyc), "warp_instructions": int(d.get("warp_icount", 0)),
            "instructions": int(insn), "ipc": f"{insn / cyc:.4f}" if cyc else "",
            "l1_hit": rate(d["l1_acc"], d["l1_hit"]), "l2_hit": rate(d["l2_acc"], d["l2_hit"]),
            "dram_reads": int(d["dram_rd"]), "dram_writes": int(d["dram_wr"]),
            "icnt_stalls": int(d["icnt2sh"]),
        })
    return rows


def read_existing(path):
    """(header comment lines, rows, benchmarks done or skipped)."""
    if not os.path.exists(path):
        return [], [], set()
    comments, body = [], []
    for line in open(path):
        (comments if line.startswith("#") else body).append(line)
    rows = list(csv.DictReader(io.StringIO("".join(body))))
    done = {r["benchmark"] for r in rows}
    done |= {m.group(1) for c in comments for m in [re.match(r"# skipped (\S+):", c)] if m}
    return comments, rows, done


def write_csv(path, header, skipped, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        for h in header:
            f.write(h if h.endswith("\n") else h + "\n")
        for s in skipped:
            f.write(s if s.endswith("\n") else s + "\n")
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def run_gpgpusim(runner_sh, rundir, log, prog, name, size, env, timeout):
    """Runs `prog name size` under GPGPU-Sim; its output is saved to `log`.
    Returns (output, None) or (output, why it failed)."""
    shutil.rmtree(rundir, ignore_errors=True)
    try:
        r = subprocess.run([runner_sh, rundir, "perf", prog, name, size], env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "", f"over {timeout} s"
    out = r.stdout + r.stderr
    with open(log, "w") as f:
        f.write(out)
    return out, None if r.returncode == 0 else f"exit {r.returncode}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="small")
    ap.add_argument("--out", default=os.path.join(SRC, "docs", "validation",
                                                  "gpgpusim-sm2_gtx480-small.csv"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "ptxemu-gpgpusim"))
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--from-logs", action="store_true",
                    help="read the GPGPU-Sim output a previous run saved under --work "
                         "(run/NAME/gpgpusim.log) instead of running it again")
    ap.add_argument("benchmarks", nargs="*")
    a = ap.parse_args()
    root = os.environ.get("GPGPUSIM_ROOT")
    if not root or not glob.glob(os.path.join(root, "lib", "*", "cuda-*", "release", "libcudart.so")):
        sys.exit("GPGPUSIM_ROOT must name a GPGPU-Sim checkout built with ../shared/gpgpusim/build.sh")
    shared = os.path.join(os.path.dirname(SRC), "shared", "gpgpusim")
    runner_sh = os.path.join(shared, "run_gpgpusim.sh")
    if not os.path.exists(runner_sh):
        sys.exit(f"{runner_sh} missing: this script runs GPGPU-Sim through ../shared/gpgpusim")
    nvcc = run_cuda_tests.find_nvcc()
    if not nvcc:
        sys.exit("nvcc not found (set NVCC)")
    env = dict(os.environ)
    env.setdefault("REAL_CUDA_INSTALL_PATH", os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    os.makedirs(a.work, exist_ok=True)
    cache = os.path.join(a.work, "programs")
    os.makedirs(cache, exist_ok=True)
    preload = os.path.join(a.work, "liblaunch_push.so")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", preload,
                    os.path.join(HERE, "gpgpusim", "launch_push.c"), "-ldl"], check=True)
    env["LD_PRELOAD"] = preload

    commit = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    header = [
        f"# reference: GPGPU-Sim dev {commit[:8]} SM2_GTX480, gpgpu-sim_distribution {commit} built by "
        "../shared/gpgpusim/build.sh; configs/tested-cfgs/SM2_GTX480/gpgpusim.config with the power model off "
        "(run_gpgpusim.sh); perf mode",
        "# core_clock_mhz: 700",
        "# dram_request_bytes: 32",
        "# hit rates: HIT / TOTAL_ACCESS of GPGPU-Sim's cache breakdowns over read requests (L1: "
        "GLOBAL_ACC_R, LOCAL_ACC_R; L2: also CONST, TEXTURE, INST); a hit on a reserved line is not a hit",
        f"# size: {a.size}",
        "# command: GPGPUSIM_ROOT=... scripts/gpgpusim-reference.py --size " + a.size,
        "# programs: benchmarks/NAME/{kernels.cu,driver.c} + tests/cuda/bench (nvcc -cudart shared, "
        "PTX for compute_75 given to GPGPU-Sim), each passing its own CPU check under GPGPU-Sim",
    ]
    old_comments, rows, done = read_existing(a.out)
    skipped = [c for c in old_comments if c.startswith("# skipped ")]
    t = run_cuda_tests.Runner("", "", SRC, cache, nvcc)
    benches = sorted(os.path.basename(os.path.dirname(p)) for p in
                     glob.glob(os.path.join(SRC, "benchmarks", "*", "driver.c")))
    if a.benchmarks:
        benches = [b for b in benches if b in a.benchmarks]
    for prog_dir in benches:
        spec = t._bench_spec(prog_dir)
        try:
            prog = t._compile(spec)
        except RuntimeError as e:
            skipped.append(f"# skipped {prog_dir}: nvcc failed ({str(e).splitlines()[0][:80]})")
            continue
        ptx = prog + ".ptx"
        if not os.path.exists(ptx):
            rdc = [f for f in spec[3] if f == "-rdc=true"]
            subprocess.run([nvcc, "-ptx", "-arch=sm_75", *rdc, "-I", SRC, prog + ".syms.cu",
                            "-o", ptx], check=True)
        names = subprocess.run([prog, "--list"], capture_output=True, text=True).stdout.split()
        for name in names:
            if name in done:
                continue
            rundir = os.path.join(a.work, "run", name)
            log = os.path.join(rundir, "gpgpusim.log")
            t0 = time.monotonic()
            if a.from_logs:
                if not os.path.exists(log):
                    continue
                out, why = open(log).read(), None
            else:
                out, why = run_gpgpusim(runner_sh, rundir, log, prog, name, a.size, env,
                                        a.timeout)
            if why is None and f"PASS {name} {a.size}" not in out:
                tail = [l for l in out.splitlines() if l.strip()][-1:] or ["no output"]
                why = f"no PASS line ({tail[0][:100]})"
            secs = time.monotonic() - t0
            if why is None:
                try:
                    new = rows_for(name, a.size, parse_gpgpusim(out))
                    if not new:
                        why = "no kernel statistics in GPGPU-Sim's output"
                except RuntimeError as e:
                    why = str(e)
            if why:
                skipped.append(f"# skipped {name}: {why}")
                print(f"skip {name}: {why} ({secs:.0f} s)", flush=True)
            else:
                rows.extend(new)
                print(f"ok   {name}: {len(new)} launches, {sum(r['cycles'] for r in new)} cycles "
                      f"({secs:.0f} s)", flush=True)
            write_csv(a.out, header, skipped, rows)
    write_csv(a.out, header, skipped, rows)


if __name__ == "__main__":
    main()
