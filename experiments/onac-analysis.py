#!/usr/bin/env python3
"""experiments/onac-analysis.py RESULTS

The per-kernel analysis of the ONAC / Seq-Det experiment (experiments/
onac.ini), as Markdown on stdout, beside the thesis's §4.4.3-4.4.4 numbers.

RESULTS is the sweep's results folder (results.jsonl).  Per kernel (the
launches of one kernel name summed), for ONAC and Seq-Det against every
core on (cta.filters=none):

- N_opt: the cores a policy left on when the launch ended (stats: cores
  without `off_at_end`), averaged over launches weighted by their cycles;
- performance = cycles with all cores on / cycles under the policy;
- energy, average power: the policy's over the baseline's (the energy
  model of docs/energy.md; normalised, as the thesis does);
- powered = the share of SM-cycles not gated;
- static share: the static part of the baseline's energy (what gating can
  save at most).
The thesis groups kernels by N_oracle (a sweep of fixed core counts); this
run has no oracle sweep, so the summary groups them by ONAC's own choice:
"A" = ONAC kept fewer than all cores, "B" = it kept all.  Kernels with
fewer than 4 CTA waves per launch on the full chip are listed apart:
detection needs about 4 waves per sample and cannot finish in them."""
import json
import math
import os
import sys
from collections import defaultdict

POLICIES = ["onac", "seq-det"]


def load(results):
    jobs = []
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            if j.get("status") == "ok" and j.get("mode") != "functional" and j.get("stats"):
                jobs.append(j)
    return jobs


def kernel_sums(stats):
    out = {}
    for k in stats["kernels"]:
        n = len(k["cores"])
        d = out.setdefault(k["name"], {"cycles": 0, "energy": 0.0, "static": 0.0, "ctas": 0,
                                       "launches": 0, "non_w": 0.0, "gated": 0, "ncores": n,
                                       "fit": 0})
        d["cycles"] += k["cycles"]
        d["energy"] += k["energy"]["energy_j"]
        d["static"] += k["energy"]["static_j"]
        d["ctas"] += k["ctas"]
        d["launches"] += 1
        d["fit"] = max(d["fit"], k["occupancy"]["ctas_per_sm"])
        d["gated"] += sum(c["gated_cycles"] for c in k["cores"])
        on = n - sum(c.get("off_at_end", 0) for c in k["cores"])
        d["non_w"] += on * k["cycles"]
    return out


def gm(xs):
    xs = [x for x in xs if x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs = defaultdict(dict)
    for j in load(sys.argv[1]):
        runs[j["benchmark"]][j["overrides"].get("cta.filters", "none")] = kernel_sums(j["stats"])
    rows, short = [], []
    for bench in sorted(runs):
        v = runs[bench]
        if "none" not in v:
            continue
        for name, b in v["none"].items():
            waves = b["ctas"] / b["launches"] / (b["ncores"] * b["fit"]) if b["fit"] else 0
            if waves < 4:
                short.append("%s/%s (%d CTAs, %.1f waves per launch)" % (bench, name, b["ctas"], waves))
                continue
            r = {"bench": bench, "name": name, "ctas": b["ctas"], "waves": waves,
                 "static_share": b["static"] / b["energy"] if b["energy"] else float("nan")}
            for p in POLICIES:
                k = v.get(p, {}).get(name)
                if not k:
                    continue
                r[p] = {"n": k["non_w"] / k["cycles"],
                        "perf": b["cycles"] / k["cycles"],
                        "energy": k["energy"] / b["energy"],
                        "power": (k["energy"] / k["cycles"]) / (b["energy"] / b["cycles"]),
                        "powered": 1 - k["gated"] / (k["cycles"] * k["ncores"])}
            if all(p in r for p in POLICIES):
                rows.append(r)
    print("\n## Per-kernel analysis (experiments/onac-analysis.py)\n")
    print("N_opt = the cores left on when the kernel ended (launches weighted by cycles); "
          "performance = all-cores cycles / policy cycles; energy and power are the "
          "policy's over all cores on; powered = share of SM-cycles not gated; static "
          "share = the static part of the all-cores energy.  Kernels with fewer than 4 "
          "CTA waves on the full chip are left out (below).\n")
    print("| kernel | CTAs | waves/launch | static share | ONAC N_opt | Seq-Det N_opt | ONAC perf | "
          "Seq-Det perf | ONAC energy | Seq-Det energy | ONAC power | Seq-Det power | "
          "ONAC powered | Seq-Det powered |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        o, s = r["onac"], r["seq-det"]
        print("| %s/%s | %d | %.1f | %.0f%% | %.1f | %.1f | %.3f | %.3f | %.3f | %.3f | %.3f | "
              "%.3f | %.0f%% | %.0f%% |" % (
                  r["bench"], r["name"], r["ctas"], r["waves"], 100 * r["static_share"],
                  o["n"], s["n"], o["perf"], s["perf"], o["energy"], s["energy"], o["power"],
                  s["power"], 100 * o["powered"], 100 * s["powered"]))
    ncores = None
    for bench in runs.values():
        for k in bench.get("none", {}).values():
            ncores = k["ncores"]
    groups = {"A (ONAC kept < all cores)": [r for r in rows if r["onac"]["n"] < (ncores or 0) - 0.5],
              "B (ONAC kept all cores)": [r for r in rows if r["onac"]["n"] >= (ncores or 0) - 0.5],
              "all": rows}
    print("\n| group | kernels | ONAC perf | Seq-Det perf | ONAC energy | Seq-Det energy | "
          "thesis (type A by N_oracle) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for g, rs in groups.items():
        if not rs:
            print("| %s | 0 | | | | | |" % g)
            continue
        paper = ("perf ONAC 0.98, Seq-Det 0.99; energy ONAC 0.80, Seq-Det 0.90" if g.startswith("A")
                 else "perf > 0.98 both; ONAC energy about 1.02" if g.startswith("B") else "–")
        print("| %s | %d | %.3f | %.3f | %.3f | %.3f | %s |" % (
            g, len(rs), gm([r["onac"]["perf"] for r in rs]), gm([r["seq-det"]["perf"] for r in rs]),
            gm([r["onac"]["energy"] for r in rs]), gm([r["seq-det"]["energy"] for r in rs]), paper))
    print("\nGeometric means of the per-kernel ratios (performance: higher is better; energy: "
          "lower is better).\n")
    if short:
        print("Left out (under 4 CTA waves per launch on %s cores): %s.\n" % (ncores, ", ".join(short)))


if __name__ == "__main__":
    main()
