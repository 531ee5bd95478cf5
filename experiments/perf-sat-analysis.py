#!/usr/bin/env python3
"""experiments/perf-sat-analysis.py RESULTS

The per-kernel analysis of the Perf-Sat experiment (experiments/
perf-sat.ini), as Markdown on stdout, beside the thesis's §4.3.3 numbers.

RESULTS is the sweep's results folder (results.jsonl).  Per kernel (the
launches of one kernel name summed):

- Nmax: CTAs of the kernel that fit one core (occupancy, at the preset cap);
- the fixed-cap curve: cycles with core.max_ctas = 1 .. Nmax, no filter;
- N_ref, the reference optimum (thesis §4.3.3.2): the smallest cap n after
  which one more CTA gains under 2% (cycles(n) / cycles(n+1) < 1.02); Nmax
  when every step gains 2% or more;
- N_det, Perf-Sat's detected count: per launch, the mean over the cores
  that ran its CTAs of the CTA cap Perf-Sat left on the core (stats
  `cores[].cta_limit`; a core it never capped counts as Nmax), averaged
  over launches weighted by their cycles (the thesis also averages cores);
- accuracy = max(0, 1 - |N_det - N_ref| / N_ref), the mean over kernels;
- loss = Perf-Sat cycles / cycles at the preset cap (the baseline) - 1;
- resources saved, two ways: 1 - N_det / Nmax (the thesis's Fig. 4.7:
  the slots the detected count leaves free), and 1 - CTA-cycles under
  Perf-Sat / CTA-cycles of the baseline (the CTA slots actually held over
  time, stats `cta_cycles`);
- the thesis's kernel class, read off the curve: C-strong when N_ref =
  Nmax, MEM when the baseline is over 2% slower than the best cap, else
  C-weak.
Waves = CTAs per launch / (cores x Nmax).  Perf-Sat restarts at every
launch at ceil(Nmax/2) and needs One_TB (1 + Nmax) cycles for its first
decision and One_TB x Nmax per further one, so the summary is given for all
kernels and for those with at least 4 waves per launch."""
import json
import math
import os
import sys
from collections import defaultdict


def load(results):
    jobs = []
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            if j.get("status") == "ok" and j.get("mode") != "functional" and j.get("stats"):
                jobs.append(j)
    return jobs


def kernel_sums(stats):
    """name -> dict(cycles, cta_cycles, ctas, launches, nmax, ndet_w, nsms)"""
    out = {}
    for k in stats["kernels"]:
        d = out.setdefault(k["name"], {"cycles": 0, "cta_cycles": 0, "ctas": 0, "launches": 0,
                                       "nmax": 0, "ndet_w": 0.0, "nsms": len(k["cores"])})
        nmax = k["occupancy"]["ctas_per_sm"]
        d["cycles"] += k["cycles"]
        d["cta_cycles"] += k.get("cta_cycles", 0)
        d["ctas"] += k["ctas"]
        d["launches"] += 1
        d["nmax"] = max(d["nmax"], nmax)
        ran = [c for c in k["cores"] if c["ctas_issued"] > 0]
        if ran:
            n = sum(min(c.get("cta_limit", nmax), nmax) for c in ran) / len(ran)
            d["ndet_w"] += n * k["cycles"]
    return out


def pct(x):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else "%+.1f%%" % (100 * x)


def summary(cfg, label, rows, t):
    if not rows:
        return
    n = len(rows)
    acc = sum(r["acc"] for r in rows) / n
    by = defaultdict(list)
    for r in rows:
        by[r["cls"]].append(r)
    gm = lambda xs: math.exp(sum(math.log(1 + x) for x in xs) / len(xs)) - 1
    print("\n| %s, %s (%d kernels) | here | thesis (%s) |" % (cfg, label, n, t[0] if t else "?"))
    print("|---|---:|---:|")
    print("| accuracy (mean) | %.1f%% | %s |" % (100 * acc, "%.2f%%" % t[1] if t else "–"))
    for cls in ("C-strong", "C-weak", "MEM"):
        if by[cls]:
            paper = ("+%.2f%% (C-strong and C-weak)" % t[2] if t else "–") if cls != "MEM" \
                else "−4.95% (faster; both GPUs)"
            print("| %s kernels (%d): Perf-Sat cycles vs Nmax, geomean | %s | %s |" % (
                cls, len(by[cls]), pct(gm([r["loss"] for r in by[cls]])), paper))
    print("| all: Perf-Sat cycles vs Nmax, geomean | %s | – |" % pct(gm([r["loss"] for r in rows])))
    print("| resources saved, 1 − N_det/Nmax (mean) | %.1f%% | %.2f%% (18.32%% over both GPUs) |" % (
        100 * sum(r["saved_n"] for r in rows) / n, t[3] if t else float("nan")))
    st = [r["saved_t"] for r in rows if not math.isnan(r["saved_t"])]
    if st:
        print("| CTA-cycles saved (mean) | %.1f%% | – |" % (100 * sum(st) / len(st)))
    print()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    jobs = load(sys.argv[1])
    # config -> benchmark -> variant key -> kernel sums
    runs = defaultdict(lambda: defaultdict(dict))
    for j in jobs:
        ov = j["overrides"]
        cap = int(ov.get("core.max_ctas", 0))
        filt = ov.get("cta.filters", "none")
        runs[j["config"]][j["benchmark"]][(filt, cap)] = kernel_sums(j["stats"])
    thesis = {"m2090": ("Fermi", 94.25, 0.51, 10.45), "k20x": ("Kepler", 85.12, 0.88, 25.51)}
    print("\n## Per-kernel analysis (experiments/perf-sat-analysis.py)\n")
    print("Definitions (the module docstring of experiments/perf-sat-analysis.py): "
          "N_ref = the smallest fixed per-core cap after which one more CTA gains under 2%; "
          "N_det = the cap Perf-Sat leaves on the cores (mean over the cores that ran the "
          "kernel, launches weighted by cycles); accuracy = 1 − |N_det − N_ref| / N_ref "
          "(at least 0); loss = Perf-Sat cycles / cycles at the preset cap − 1 (negative: "
          "faster); saved = 1 − N_det / Nmax (slots left free, the thesis's Fig. 4.7) and "
          "1 − CTA-cycles / baseline CTA-cycles (slots actually held over time).  "
          "Class: C-strong when N_ref = Nmax, MEM when the preset cap is over 2% slower "
          "than the best cap, else C-weak.  Waves = CTAs per launch / (cores × Nmax); "
          "Perf-Sat restarts at every launch, so the summary is also given for the "
          "kernels with at least 4 waves per launch.\n")
    for cfg in sorted(runs):
        rows = []
        for bench in sorted(runs[cfg]):
            v = runs[cfg][bench]
            base_key = max((k for k in v if k[0] == "none"), key=lambda k: k[1], default=None)
            ps_key = next((k for k in v if k[0] == "perf-sat"), None)
            if not base_key or not ps_key:
                continue
            base, ps = v[base_key], v[ps_key]
            for name in base:
                b = base[name]
                nmax = b["nmax"]
                waves = b["ctas"] / b["launches"] / (b["nsms"] * nmax) if nmax else 0
                curve = {}
                for n in range(1, nmax + 1):
                    r = v.get(("none", n))
                    if r and name in r:
                        curve[n] = r[name]["cycles"]
                if len(curve) < nmax or name not in ps:
                    continue
                nref = nmax
                for n in range(1, nmax):
                    if curve[n] / curve[n + 1] < 1.02:
                        nref = n
                        break
                best = min(curve.values())
                cls = "C-strong" if nref == nmax else (
                    "MEM" if curve[nmax] > 1.02 * best else "C-weak")
                p = ps[name]
                ndet = p["ndet_w"] / p["cycles"] if p["cycles"] else float("nan")
                acc = max(0.0, 1 - abs(ndet - nref) / nref)
                loss = p["cycles"] / b["cycles"] - 1
                saved_n = 1 - ndet / nmax
                saved_t = 1 - p["cta_cycles"] / b["cta_cycles"] if b["cta_cycles"] else float("nan")
                rows.append(dict(bench=bench, name=name, ctas=b["ctas"], launches=b["launches"],
                                 nmax=nmax, waves=waves, curve=curve, nref=nref, ndet=ndet,
                                 acc=acc, loss=loss, saved_n=saved_n, saved_t=saved_t, cls=cls,
                                 ref_cost=curve[nref] / curve[nmax] - 1))
        print("### %s\n" % cfg)
        if not rows:
            print("No kernel with both the fixed-cap curve and a Perf-Sat run.\n")
            continue
        nmax_all = max(r["nmax"] for r in rows)
        print("Cycles at each fixed cap, normalised to the preset cap (Nmax); **bold** = N_ref.\n")
        head = "| kernel | launches | CTAs | waves/launch | Nmax | " + " | ".join("cap %d" % n for n in range(1, nmax_all + 1))
        print(head + " |")
        print("|---|---:|---:|---:|---:|" + "---:|" * nmax_all)
        for r in rows:
            cells = []
            for n in range(1, nmax_all + 1):
                if n in r["curve"]:
                    t = "%.3f" % (r["curve"][n] / r["curve"][r["nmax"]])
                    cells.append("**%s**" % t if n == r["nref"] else t)
                else:
                    cells.append("")
            print("| %s/%s | %d | %d | %.1f | %d | %s |" % (r["bench"], r["name"], r["launches"],
                                                           r["ctas"], r["waves"], r["nmax"],
                                                           " | ".join(cells)))
        print("\n| kernel | class | N_ref | N_det | accuracy | Perf-Sat cycles vs Nmax | cap N_ref cycles vs Nmax | "
              "saved (1 − N_det/Nmax) | saved (CTA-cycles) |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print("| %s/%s | %s | %d | %.2f | %.0f%% | %s | %s | %s | %s |" % (
                r["bench"], r["name"], r["cls"], r["nref"], r["ndet"], 100 * r["acc"],
                pct(r["loss"]), pct(r["ref_cost"]), pct(r["saved_n"]), pct(r["saved_t"])))
        for label, sel in (("all kernels", rows), ("≥ 4 waves per launch",
                                                   [r for r in rows if r["waves"] >= 4])):
            summary(cfg, label, sel, thesis.get(cfg))


if __name__ == "__main__":
    main()
