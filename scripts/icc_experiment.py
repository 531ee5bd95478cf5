#!/usr/bin/env python3
"""The ICC seed's experiment (issue 14; docs/experiments/icc.md) until the
`ptxemu sweep` tooling lands: every Table 3 benchmark we have under the
seed's CTA policies and ICC modes on the icc60 preset, one process per run
(-j workers), and the markdown tables of Figs. 7, 8, 10 and 13.

  scripts/icc_experiment.py [--size tiny|small] [-j N] [--bench a,b] [--out FILE]
"""
import argparse, json, os, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

BENCH = ["hotspot", "b+tree", "backprop", "bfs", "srad", "lud", "2dconv", "matrixmul",
         "dct8x8", "nn", "fdtd3d"]
# name: (cta.policy, icc.mode)
CONFIGS = {
    "2lrr": ("2lrr", "off"), "grr": ("grr", "off"), "greedy": ("greedy-cluster", "off"),
    "bcs": ("bcs", "off"), "D": ("distributed", "off"),
    "DB": ("distributed-block", "off"), "D+ICC": ("distributed", "icc"),
    "DB+ICC": ("distributed-block", "icc"), "DB+ICC+CC": ("distributed-block", "icc-cc"),
}


def run(exe, size, bench, cfg, tmp):
    pol, mode = CONFIGS[cfg]
    out = os.path.join(tmp, f"{bench}-{cfg}.json".replace("+", "p"))
    cmd = [exe, "bench", "run", bench, "--size", size, "--timing", "--config", "icc60",
           "--set", f"cta.policy={pol}", "--set", f"icc.mode={mode}", "--stats", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or "PASS" not in r.stdout:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout}{r.stderr}")
    t = json.load(open(out))["total"]
    m = t["memory"]
    bus_reads = m["noc_read_requests"] + m["icc_merges"] + m["icc_cache_hits"]
    return bench, cfg, {"cycles": t["cycles"], "ipc": t["ipc"],
                        "noc_reads": m["noc_read_requests"], "l1_misses": m["l1_misses"],
                        "merges": m["icc_merges"], "cc_hits": m["icc_cache_hits"],
                        "locality": m["redundant_requests"] / bus_reads if bus_reads else 0.0,
                        "l1_hit_rate": m["l1_hit_rate"]}


def gmean(xs):
    p = 1.0
    for x in xs:
        p *= x
    return p ** (1.0 / len(xs)) if xs else float("nan")


def table(res, benches, cfgs, base, key, title, invert=False, fmt="{:.3f}", absolute=False):
    lines = [f"**{title}**", "", "| benchmark | " + " | ".join(cfgs) + " |",
             "|---|" + "---:|" * len(cfgs)]
    cols = {c: [] for c in cfgs}
    for b in benches:
        row = []
        for c in cfgs:
            v, bv = res[b][c][key], res[b][base][key]
            if absolute:
                x = v
            else:
                x = (bv / v if invert else v / bv) if (v and bv) else float("nan")
            cols[c].append(x)
            row.append(fmt.format(x))
        lines.append(f"| {b} | " + " | ".join(row) + " |")
    mean = (lambda xs: sum(xs) / len(xs)) if absolute else gmean
    lines.append(f"| **{'mean' if absolute else 'geomean'}** | " +
                 " | ".join(fmt.format(mean(cols[c])) for c in cfgs) + " |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="tiny")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--bench", default=",".join(BENCH))
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--exe", default="build/tools/ptxemu")
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    benches, cfgs = a.bench.split(","), a.configs.split(",")
    res = {b: {} for b in benches}
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.j) as ex:
        for b, c, r in ex.map(lambda bc: run(a.exe, a.size, bc[0], bc[1], tmp),
                              [(b, c) for b in benches for c in cfgs]):
            res[b][c] = r
    out = [f"Size `{a.size}`, icc60 preset; {len(benches)} benchmarks x {len(cfgs)} configurations.\n"]
    f7 = [c for c in ["2lrr", "grr", "greedy", "bcs", "D"] if c in cfgs]
    if "2lrr" in cfgs:
        out.append(table(res, benches, f7, "2lrr", "cycles", "Fig. 7: speed-up over 2lrr "
                         "(cycles of 2lrr / cycles)", invert=True))
        out.append(table(res, benches, f7, "2lrr", "locality",
                         "Fig. 8: intra-cluster locality (redundant share of a cluster's "
                         "read requests, 2,000-cycle window)", absolute=True))
    f10 = [c for c in ["D", "DB", "D+ICC", "DB+ICC", "DB+ICC+CC"] if c in cfgs]
    if "D" in cfgs:
        out.append(table(res, benches, f10, "D", "cycles",
                         "Fig. 10: speed-up over distributed", invert=True))
        out.append(table(res, benches, f10, "D", "noc_reads",
                         "Fig. 13: NoC read requests, normalised to distributed"))
    raw = ["**Raw figures** (cycles; NoC reads; merge-table coverage = merges / L1 misses; "
           "CC hits; locality)", "", "| benchmark | config | cycles | NoC reads | coverage | "
           "CC hits | locality | L1 hit rate |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for b in benches:
        for c in cfgs:
            r = res[b][c]
            cov = r["merges"] / r["l1_misses"] if r["l1_misses"] else 0
            raw.append(f"| {b} | {c} | {r['cycles']} | {r['noc_reads']} | {cov:.3f} | "
                       f"{r['cc_hits']} | {r['locality']:.3f} | {r['l1_hit_rate']:.3f} |")
    out.append("\n".join(raw) + "\n")
    text = "\n".join(out)
    if a.out == "-":
        print(text)
    else:
        open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
