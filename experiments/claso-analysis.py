#!/usr/bin/env python3
"""experiments/claso-analysis.py RESULTS

The CLASO paper's figures from the sweep of experiments/claso.ini, as
Markdown on stdout, and this page's rows of docs/experiments/headlines.csv:
- inputs: Table 2's kernels, CTAs, CTAs per core and CTA waves per SM
  against ours (from the LRR run's statistics);
- Figs. 11-12: CLASO10 and CLASO20 upon LRR per benchmark (speedup = IPC
  ratio, idle core cycles and scoreboard stalls normalised to LRR);
- Fig. 13: CLASO upon TL, OWL and behind DYNCTA;
- Figs. 16-17: CLASO XY = (pA, pL) upon LRR;
- the mechanism (method section 4): CTAs per core, idle cycles per core and
  the share of core cycles that are idle, under LRR and CLASO10;
- the 1,024-thread preset value against 1,536.
Idle cycles = core cycles with no CTA resident (core_idle_cycles); scoreboard
stalls = scheduler slots in which every warp waited on an operand
(schedulers.idle_scoreboard).  Headlines (rule in experiments/claso.ini):
claso_ipc = geomean IPC ratio of CLASO10 over LRR, claso_idle = mean over
benchmarks of idle(CLASO10)/idle(LRR), each minus 1, in percent."""
import csv
import json
import math
import os
import subprocess
import sys
from collections import defaultdict
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import headline_rows  # noqa: E402  (scripts/headline_rows.py)

HERE = os.path.dirname(os.path.abspath(__file__))
NCORE = 14
# Table 2 of the paper: abbreviation, kernels, CTAs, CTAs per core (a list
# when it differs by kernel, then the CTAs are split evenly), Fig. 11 / 12
# figures the text gives (speedup %, idle %), or None.
PAPER = {
    "aes": ("AES", 1, 257, [6], 1.1, None),
    "bfs": ("BFS", 20, 2560, [3], None, None),
    "backprop": ("BP", 2, 256, [6, 5], None, None),
    "blackscholes": ("BS", 2, 480, [8], 12.5, None),
    "cp": ("CP", 1, 1024, [8], 26.6, -92.5),
    "fastwalsh": ("FWT", 13, 1472, [4.62], None, None),
    "kmeans": ("KMS", 3, 363, [6], None, None),
    "libor": ("LIB", 2, 256, [8], None, None),
    "montecarlo": ("MC", 2, 384, [8, 5], 5.1, None),
    "scan": ("SLA", 6, 387, [6], 1.0, None),
    "scalarprod": ("SP", 1, 128, [6], 26.1, -80.0),
    "stencil": ("ST", 1, 128, [8], None, None),
}
MISSING = [("NN", "GPGPU-Sim's neural network (4 kernels, 432 CTAs); the registry's nn is "
            "Rodinia's nearest neighbour, a different program")]
LRR = ("lrr", "none", 1, 0, 1536, 20)
C10 = ("lrr", "claso", 1, 0, 1536, 20)


def key(ov):
    return (ov.get("warp.policy"), ov.get("cta.filters"), int(ov.get("claso.pa", 1)),
            int(ov.get("claso.pl", 0)), int(ov.get("core.max_threads", 1024)),
            int(ov.get("core.regs_per_thread", 0)))


def gm(xs):
    xs = [x for x in xs if x and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def mean(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return sum(xs) / len(xs) if xs else float("nan")


def pct(r):
    return "–" if r is None or math.isnan(r) else "%+.1f%%" % (100 * (r - 1))


def summarise(stats):
    t = stats["total"]
    cores = defaultdict(lambda: [0, 0, 0])  # sm -> [ctas issued, idle cycles, memory served]
    launches = []
    for k in stats["kernels"]:
        launches.append((k["ctas"], k["occupancy"]["ctas_per_sm"]))
        for c in k.get("cores", []):
            cores[c["sm"]][0] += c["ctas_issued"]
            cores[c["sm"]][1] += c["idle_cycles"]
            cores[c["sm"]][2] += c.get("memory_served", 0)
    return {"cycles": t["cycles"], "ipc": t["ipc"], "idle": t["core_idle_cycles"],
            "sb": t["schedulers"]["idle_scoreboard"], "launches": launches,
            "ctas_per_core": [cores[s][0] for s in sorted(cores)],
            "idle_per_core": [cores[s][1] for s in sorted(cores)],
            "served_per_core": [cores[s][2] for s in sorted(cores)]}


def load(results):
    runs = defaultdict(dict)
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            if j.get("status") != "ok" or not j.get("stats"):
                continue
            runs[j["benchmark"]][key(j["overrides"])] = summarise(j["stats"])
    return runs


def waves(launches):
    return sum(c / (NCORE * cpc) for c, cpc in launches)


def paper_waves(nk, nc, cpc):
    per = nc / nk
    return sum(per / (NCORE * cpc[i % len(cpc)]) for i in range(nk))


def inputs_table(runs, benches):
    o = ["### Inputs: Table 2 against ours (method section 1)\n",
         "Waves per SM = CTAs / (14 x CTAs per core), summed over the launches (for "
         "Table 2's \"6, 5\" and \"8, 5\" the CTAs are split evenly over the kernels; "
         "\"avg\" values as given).  Ours: size `claso`, c2050 with 1,536 threads per core, "
         "20 registers per thread, from the LRR run's statistics (CTAs per core: the "
         "occupancy each launch got; in the last column with the registers estimated "
         "from our PTX instead).\n",
         "| paper | ours | paper #K / #C / CpC | paper waves | ours #K / #C / CpC | our waves "
         "| CpC, waves with estimated registers |",
         "|---|---|---|---:|---|---:|---|"]
    for b in benches:
        ab, nk, nc, cpc, _, _ = PAPER[b]
        r = runs[b].get(LRR)
        if not r:
            o.append("| %s | %s | %d / %d / %s | %.2f | not run | | |" % (
                ab, b, nk, nc, ", ".join("%g" % c for c in cpc), paper_waves(nk, nc, cpc)))
            continue
        ours_cpc = sorted({c for _, c in r["launches"]})
        e = runs[b].get(("lrr", "none", 1, 0, 1536, 0))
        est = "%s; %.2f" % (", ".join(str(c) for c in sorted({c for _, c in e["launches"]})),
                            waves(e["launches"])) if e else "–"
        o.append("| %s | %s | %d / %s / %s | %.2f | %d / %s / %s | %.2f | %s |" % (
            ab, b, nk, format(nc, ","), ", ".join("%g" % c for c in cpc),
            paper_waves(nk, nc, cpc), len(r["launches"]),
            format(sum(c for c, _ in r["launches"]), ","),
            ", ".join(str(c) for c in ours_cpc), waves(r["launches"]), est))
    for ab, why in MISSING:
        o.append("| %s | **missing** | 4 / 432 / avg 7 | %.2f | %s | | |" % (
            ab, paper_waves(4, 432, [7]), why))
    return o


def fig11(runs, benches):
    o = ["### Figs. 11-12: CLASO upon LRR, per benchmark\n",
         "Speedup = IPC with CLASO / IPC of LRR; idle and scoreboard: CLASO's over LRR's "
         "(1,536 threads per core, 20 registers per thread).\n",
         "| benchmark | LRR cycles | CLASO10 speedup | paper | CLASO20 speedup | "
         "idle CLASO10/LRR | paper | scoreboard CLASO10/LRR |",
         "|---|---:|---:|---:|---:|---:|---:|---:|"]
    sp10, sp20, idl = [], [], []
    for b in benches:
        base, v1, v2 = (runs[b].get(k) for k in (LRR, C10, ("lrr", "claso", 2, 0, 1536, 20)))
        if not base or not v1:
            o.append("| %s | not run | | | | | | |" % b)
            continue
        s1 = v1["ipc"] / base["ipc"]
        s2 = v2["ipc"] / base["ipc"] if v2 else float("nan")
        ir = v1["idle"] / base["idle"] if base["idle"] else float("nan")
        sr = v1["sb"] / base["sb"] if base["sb"] else float("nan")
        sp10.append(s1)
        sp20.append(s2)
        idl.append(ir)
        _, _, _, _, psp, pid = PAPER[b]
        o.append("| %s | %d | %.3f | %s | %.3f | %s | %s | %s |" % (
            b, base["cycles"], s1, "%+.1f%%" % psp if psp is not None else "", s2, pct(ir),
            "%+.1f%%" % pid if pid is not None else "", pct(sr)))
    o.append("| **mean** | | **%.3f** (geomean) | +8.4%% | **%.3f** | **%s** (mean) | −52.4%% | |"
             % (gm(sp10), gm(sp20), pct(mean(idl))))
    return o, gm(sp10), mean(idl), len(sp10)


def fig13(runs, benches):
    bases = [("LRR", LRR, "lrr", "claso"), ("TL (tl-rr)", ("tl-rr", "none", 1, 0, 1536, 20),
                                             "tl-rr", "claso"),
             ("OWL", ("owl", "none", 1, 0, 1536, 20), "owl", "claso"),
             ("DYNCTA", ("lrr", "dyncta", 1, 0, 1536, 20), "lrr", "dyncta+claso")]
    o = ["### Fig. 13: CLASO upon each base\n",
         "Speedup = IPC with CLASO / IPC of the same base without it; idle: mean over the "
         "benchmarks of CLASO's idle cycles over the base's.\n",
         "| base | variant | " + " | ".join(benches) + " | geomean | idle (mean) | paper |",
         "|---|---|" + "---:|" * (len(benches) + 3)]
    paper = {"LRR": "+8.4%", "TL (tl-rr)": "+7.4%", "OWL": "+4.4%", "DYNCTA": "+3.5%"}
    for label, bkey, warp, filt in bases:
        for pa in (1, 2):
            vkey = (warp, filt, pa, 0, 1536, 20)
            sps, idl, cells = [], [], []
            for b in benches:
                base, v = runs[b].get(bkey), runs[b].get(vkey)
                if not base or not v:
                    cells.append("–")
                    continue
                sp = v["ipc"] / base["ipc"]
                sps.append(sp)
                idl.append(v["idle"] / base["idle"] if base["idle"] else float("nan"))
                cells.append("%.3f" % sp)
            if sps:
                o.append("| %s | CLASO%d0 | %s | **%.3f** | %s | %s |" % (
                    label, pa, " | ".join(cells), gm(sps), pct(mean(idl)),
                    paper[label] if pa == 1 else ""))
    return o


def fig16(runs, benches):
    grid = sorted({(k[2], k[3]) for r in runs.values() for k in r
                   if k[0] == "lrr" and k[1] == "claso" and k[4:] == (1536, 20)})
    o = ["### Figs. 16-17: CLASO XY = (pA, pL) upon LRR\n",
         "| CLASO XY | " + " | ".join(benches) + " | geomean | idle (mean) | scoreboard (mean) |",
         "|---|" + "---:|" * (len(benches) + 3)]
    for pa, pl in grid:
        sps, idl, sbs, cells = [], [], [], []
        for b in benches:
            base, v = runs[b].get(LRR), runs[b].get(("lrr", "claso", pa, pl, 1536, 20))
            if not base or not v:
                cells.append("–")
                continue
            sp = v["ipc"] / base["ipc"]
            sps.append(sp)
            idl.append(v["idle"] / base["idle"] if base["idle"] else float("nan"))
            sbs.append(v["sb"] / base["sb"] if base["sb"] else float("nan"))
            cells.append("%.3f" % sp)
        o.append("| CLASO%d%d | %s | **%.3f** | %s | %s |" % (
            pa, pl, " | ".join(cells), gm(sps), pct(mean(idl)), pct(mean(sbs))))
    o.append("\nPaper: the speedup fades as pA and pL grow, pL faster than pA; idle cycles "
             "rise and scoreboard conflicts fall with them; CLASO42 equals the baseline on "
             "AES, LIB, MC, SLA and ST.")
    return o


def mechanism(runs, benches):
    o = ["### The mechanism: CTAs and idle cycles per core (method section 4)\n",
         "Per core, summed over the launches.  *idle share*: idle core cycles / (14 x "
         "cycles).  *CTAs per core*: min–max over the 14 cores.  *idle per core*: "
         "max / mean over the cores.  *decisions*: whether CLASO10 placed any CTA "
         "differently (the per-core CTA counts differ from LRR's); where they do not, "
         "CLASO refused nothing that the greedy placement would have done and the run "
         "is the same.  *served max/min*: the largest over the smallest per-core count of "
         "memory requests served (`memory_served`) under LRR, the quantity of the paper's "
         "Fig. 4 (above 1.2 on every benchmark, above 2.5 for CP and NN), whose unfairness "
         "makes some cores finish their CTAs sooner.\n",
         "| benchmark | waves | LRR served max/min | LRR idle share | LRR CTAs per core | "
         "LRR idle per core max / mean | CLASO10 idle share | CLASO10 CTAs per core | "
         "CLASO10 idle per core max / mean | decisions |",
         "|---|---:|---:|---:|---|---:|---:|---|---:|---|"]
    for b in benches:
        base, v = runs[b].get(LRR), runs[b].get(C10)
        if not base or not v:
            continue

        def cells(r):
            ipc = r["idle_per_core"]
            m = sum(ipc) / len(ipc) if ipc else 0
            return ("%.1f%%" % (100 * r["idle"] / (NCORE * r["cycles"])),
                    "%d–%d" % (min(r["ctas_per_core"]), max(r["ctas_per_core"])),
                    "%d / %.0f" % (max(ipc), m) if ipc else "–")
        a, c = cells(base), cells(v)
        same = base["ctas_per_core"] == v["ctas_per_core"] and base["cycles"] == v["cycles"]
        sv = base["served_per_core"]
        served = "%.2f" % (max(sv) / min(sv)) if sv and min(sv) > 0 else "–"
        o.append("| %s | %.2f | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            b, waves(base["launches"]), served, *a, *c,
            "none (same run)" if same else "changed"))
    return o


def configs(runs, benches):
    cfgs = [("1,024 threads, estimated registers", 1024, 0),
            ("1,536 threads, estimated registers", 1536, 0),
            ("1,536 threads, 20 registers (headline)", 1536, 20)]
    o = ["### The occupancy settings: CLASO10 upon LRR under each\n",
         "1,024 threads is the c2050 preset's Table 1 value; estimated registers is the "
         "model's default (each kernel's registers estimated from our PTX).  Cells: CTAs "
         "per core of the launches; speedup; idle CLASO10/LRR.\n",
         "| benchmark | " + " | ".join(c[0] for c in cfgs) + " |",
         "|---|" + "---|" * len(cfgs)]
    sps = [[] for _ in cfgs]
    idl = [[] for _ in cfgs]
    for b in benches:
        cells = []
        for i, (_, t, r) in enumerate(cfgs):
            base = runs[b].get(("lrr", "none", 1, 0, t, r))
            v = runs[b].get(("lrr", "claso", 1, 0, t, r))
            if not base or not v:
                cells.append("–")
                continue
            sp = v["ipc"] / base["ipc"]
            ir = v["idle"] / base["idle"] if base["idle"] else float("nan")
            sps[i].append(sp)
            idl[i].append(ir)
            cells.append("%s; %.3f; %s" % (
                ", ".join(str(c) for c in sorted({c for _, c in base["launches"]})), sp, pct(ir)))
        o.append("| %s | %s |" % (b, " | ".join(cells)))
    o.append("| **mean** | %s |" % " | ".join(
        "**%.3f**; **%s**" % (gm(sps[i]), pct(mean(idl[i]))) for i in range(len(cfgs))))
    return o


def write_headlines(nbench, rows):
    """This page's rows of docs/experiments/headlines.csv (EXPERIMENT-METHOD.md
    section 5); other pages' rows are kept.  Scale `paper`: Table 2's kernel
    and CTA counts (the inputs table gives both, with the waves)."""
    root = os.path.dirname(HERE)
    commit = headline_rows.made_on(root)
    new = []
    for hid, (paper, ratio, better) in rows.items():
        ours = "" if ratio is None or math.isnan(ratio) else "%.1f" % ((ratio - 1.0) * 100.0)
        new.append([hid, "%.1f" % paper, ours, "pct", better, "paper", str(nbench), "13",
                    commit, "docs/experiments/claso.md"])
    headline_rows.write(root, new)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs = load(sys.argv[1])
    benches = [b for b in PAPER if b in runs]
    o = ["\n## The paper's figures (experiments/claso-analysis.py)\n"]
    o += inputs_table(runs, benches) + [""]
    f11, ipc, idle, n = fig11(runs, benches)
    o += f11 + [""]
    o.append("**Headlines** (docs/experiments/headlines.csv): claso_ipc %s (paper +8.4%%), "
             "claso_idle %s (paper −52.4%%), over %d of the paper's 13 benchmarks.\n"
             % (pct(ipc), pct(idle), n))
    o += fig13(runs, benches) + [""]
    o += fig16(runs, benches) + [""]
    o += mechanism(runs, benches) + [""]
    o += configs(runs, benches) + [""]
    sys.stdout.write("\n".join(o) + "\n")
    write_headlines(n, {"claso_ipc": (8.4, ipc, "higher"), "claso_idle": (-52.4, idle, "lower")})


if __name__ == "__main__":
    main()
