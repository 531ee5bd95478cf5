#!/usr/bin/env python3
"""scripts/thesis_ch3_report.py RESULTS [LUD_CSV_DIR PLOT_DIR]

The per-kernel analysis of the thesis ch. 3 experiment (experiments/
thesis-ch3.ini), as Markdown on stdout: per kernel cycles and speedups
normalised to RR (single level: lrr, two level: tl-rr), the type A / B
classification (type A: GTO takes fewer cycles than RR), per type the
geomean of each policy against the thesis's Fig. 3.7 numbers, the scheduler
idle states as Fig. 3.8, whether pa stays within 2% of the better of gto
and lrr, and LUD's intra-block tail effect.

RESULTS is the sweep's results folder (results.jsonl).  LUD_CSV_DIR, when
given, holds one folder per policy (lrr, gto, tl-rr, tl-gto) with
`ptxemu bench run lud --timing --trace-csv` output; the active-warp curve at
the end of the largest lud_internal launch is then drawn with gnuplot into
PLOT_DIR/lud-tail.svg.  scripts/thesis-ch3.sh runs it all."""
import csv
import glob
import json
import math
import os
import subprocess
import sys

SINGLE = ["lrr", "gto", "pa"]
TWO = ["tl-rr", "tl-gto", "pa-tl"]
POLICIES = SINGLE + TWO

# Registry kernel -> the thesis's Table 3.2 name (where the thesis has it).
THESIS_NAME = {
    ("backprop", "bp_layerforward"): "BP-K1",
    ("backprop", "bp_adjust_weights"): "BP-K2",
    ("b+tree", "findK"): "B+T-K1",
    ("b+tree", "findRangeK"): "B+T-K2",
    ("kmeans", "kmeans_assign"): "KM",
    ("lud", "lud_internal"): "LUD",
    ("srad", "srad_1"): "SRAD",
    ("srad", "srad_2"): "SRAD",
    ("cfd", "compute_flux"): "CFD",
    ("dwt", "dwt_haar2d"): "DWT",
    ("fastwalsh", "fwt_radix4"): "FWT",
    ("fastwalsh", "fwt_shared"): "FWT",
    ("histogram", "histogram256_partial"): "HIST",
    ("montecarlo", "mc_paths"): "MCO",
    ("heartwall", "heart_track"): "Heart",
    ("dxtc", "dxt1_compress"): "DXTC",
}

# Thesis Fig. 3.7 / §3.5.2 (per cent speedup, per type and level).
PAPER = {
    ("single", "A"): {"gto": 10.0, "pa": 9.0, "vs": "lrr"},
    ("single", "B"): {"lrr": 9.2, "pa": 9.0, "vs": "gto"},
    ("two", "A"): {"tl-gto": 4.0, "pa-tl": 3.0, "vs": "tl-rr"},
    ("two", "B"): {"tl-rr": 7.0, "pa-tl": 4.0, "vs": "tl-gto"},
}
# Fig. 3.8 idle time versus RR, per cent (None: "about equal").
PAPER_IDLE = {
    ("single", "A"): {"gto": -21.56, "pa": -21.03},
    ("two", "A"): {"tl-gto": None, "pa-tl": None},
    ("single", "B"): {"gto": 13.66, "pa": 6.8},
    ("two", "B"): {"tl-gto": 8.73, "pa-tl": 3.9},
}

STATES = ["ibuffer_empty", "alu_scoreboard", "mem_scoreboard", "alu_stall", "mem_stall",
          "can_issue_alu", "can_issue_mem", "completed", "at_barrier", "backed_off"]


def policy_of(rec):
    ov = rec.get("overrides")
    if isinstance(ov, dict):
        return ov.get("warp.policy")
    for word in str(rec.get("variant", "")).split():
        if word.startswith("warp.policy="):
            return word.split("=", 1)[1]
    return None


def load(results):
    """{(bench, kernel): {policy: aggregate}} summed over launches."""
    kernels, order, nsms = {}, [], 0
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("status") != "ok" or rec.get("mode", "timing") != "timing":
                continue
            pol = policy_of(rec)
            stats = rec["stats"]
            nsms = max(nsms, len(stats["kernels"][0]["cores"]) if stats["kernels"] else 0)
            for k in stats["kernels"]:
                key = (rec["benchmark"], k["name"])
                if key not in kernels:
                    kernels[key] = {}
                    order.append(key)
                a = kernels[key].setdefault(pol, {
                    "cycles": 0, "instrs": 0, "launches": 0, "max_ctas": 0, "slots": 0,
                    "issued": 0, "no_warp": 0, "scoreboard": 0, "pipeline": 0,
                    "states": dict.fromkeys(STATES, 0), "idle_core": 0, "ctas_per_sm": 0})
                s = k["schedulers"]
                a["cycles"] += k["cycles"]
                a["instrs"] += k["warp_instructions"]
                a["launches"] += 1
                a["max_ctas"] = max(a["max_ctas"], k["ctas"])
                a["ctas_per_sm"] = k["occupancy"]["ctas_per_sm"]
                a["slots"] += s["issue_slots"]
                a["issued"] += s["issued"]
                a["no_warp"] += s["idle_no_warp"]
                a["scoreboard"] += s["idle_scoreboard"]
                a["pipeline"] += s["idle_pipeline"]
                a["idle_core"] += k["core_idle_cycles"]
                for st in STATES:
                    a["states"][st] += k["warp_states"].get(st, 0)
    return kernels, order, nsms


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def pct(x):
    return "%+.1f%%" % ((x - 1.0) * 100.0)


def main():
    if len(sys.argv) not in (2, 4):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    kernels, order, nsms = load(sys.argv[1])
    complete = [k for k in order if all(p in kernels[k] for p in POLICIES)]
    counted = [k for k in complete if kernels[k]["lrr"]["max_ctas"] >= nsms]
    out = []
    w = out.append
    w("## Per-kernel analysis (thesis Figs. 3.7 and 3.8)\n")
    w("Generated by `scripts/thesis_ch3_report.py` from the sweep's `results.jsonl` "
      "(the whole page, this section included: `scripts/thesis-ch3.sh -j 2`). "
      "A kernel's cycles are summed over its launches.  Speedup = RR cycles / the "
      "policy's cycles (the same warp instructions run under every policy, so this is "
      "also the IPC ratio).  Single level is normalised to lrr, two level to tl-rr.  "
      "Kernels whose largest launch has fewer CTAs than the GPU has SMs (%d) are listed "
      "but left out of the geomeans (they cannot fill the machine).\n" % nsms)
    w("| benchmark | kernel | thesis | launches | max CTAs | lrr cycles | gto | pa | "
      "tl-rr cycles | tl-gto | pa-tl | tl-rr vs lrr | type (single / two) |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    types = {}
    for k in complete:
        a = kernels[k]
        c = {p: a[p]["cycles"] for p in POLICIES}
        ts = "A" if c["gto"] < c["lrr"] else "B"
        tt = "A" if c["tl-gto"] < c["tl-rr"] else "B"
        types[k] = (ts, tt)
        note = "" if k in counted else " (not in geomeans)"
        w("| %s | %s | %s | %d | %d | %d | %s | %s | %d | %s | %s | %s | %s / %s%s |" % (
            k[0], k[1], THESIS_NAME.get(k, "-"), a["lrr"]["launches"], a["lrr"]["max_ctas"],
            c["lrr"], pct(c["lrr"] / c["gto"]), pct(c["lrr"] / c["pa"]), c["tl-rr"],
            pct(c["tl-rr"] / c["tl-gto"]), pct(c["tl-rr"] / c["pa-tl"]),
            pct(c["lrr"] / c["tl-rr"]), ts, tt, note))
    w("")
    # per type geomeans against the thesis
    w("### Per type: geomean speedups against the thesis\n")
    w("Type A: GTO takes fewer cycles than RR (at that level); type B: the others.  "
      "Each row is the geomean over the type's kernels of cycles(reference) / "
      "cycles(policy).\n")
    w("| level | type | kernels | policy | over | measured | thesis |")
    w("|---|---|---|---|---|---|---|")
    for level, idx, pols in (("single", 0, SINGLE), ("two", 1, TWO)):
        for t in ("A", "B"):
            ks = [k for k in counted if types[k][idx] == t]
            paper = PAPER[(level, t)]
            ref = paper["vs"]
            for p in pols:
                if p == ref:
                    continue
                g = geomean([kernels[k][ref]["cycles"] / kernels[k][p]["cycles"] for k in ks])
                th = paper.get(p)
                w("| %s | %s | %d | %s | %s | %s | %s |" % (
                    level, t, len(ks), p, ref, pct(g) if ks else "-",
                    "%+.1f%%" % th if th is not None else "-"))
    w("")
    # pa within 2% of the better of gto and lrr
    w("### Is phase-aware within 2% of the better policy?\n")
    w("The thesis's claim: pa performs within 2% of the better of gto and lrr.  Counted "
      "over the kernels in the geomeans.\n")
    w("| level | pa policy | within 2% of the better | kernels outside |")
    w("|---|---|---|---|")
    for level, pa, a_, b_ in (("single", "pa", "lrr", "gto"), ("two", "pa-tl", "tl-rr", "tl-gto")):
        inside, outside = 0, []
        for k in counted:
            best = min(kernels[k][a_]["cycles"], kernels[k][b_]["cycles"])
            r = kernels[k][pa]["cycles"] / best
            if r <= 1.02:
                inside += 1
            else:
                outside.append("%s/%s %s" % (k[0], k[1], pct(r)))
        w("| %s | %s | %d of %d | %s |" % (level, pa, inside, len(counted),
                                          ", ".join(outside) or "-"))
    w("")
    # Fig. 3.8: scheduler idle time per type, normalised to RR
    w("### Scheduler idle time (Fig. 3.8)\n")
    w("Idle issue slots (state 1 nothing fetched / no warp, 2 operands not ready, 3 pipeline "
      "stall; `schedulers` in the stats JSON), summed over the type's kernels, relative "
      "to RR at the same level, and each state's share of the idle slots.\n")
    w("| level | type | policy | idle slots | vs RR | thesis | no warp | operands | pipeline |")
    w("|---|---|---|---|---|---|---|---|---|")
    for level, idx, pols in (("single", 0, SINGLE), ("two", 1, TWO)):
        for t in ("A", "B"):
            ks = [k for k in counted if types[k][idx] == t]
            if not ks:
                continue
            base = sum(kernels[k][pols[0]]["slots"] - kernels[k][pols[0]]["issued"] for k in ks)
            for p in pols:
                idle = sum(kernels[k][p]["slots"] - kernels[k][p]["issued"] for k in ks)
                nw = sum(kernels[k][p]["no_warp"] for k in ks)
                sb = sum(kernels[k][p]["scoreboard"] for k in ks)
                pl = sum(kernels[k][p]["pipeline"] for k in ks)
                th = PAPER_IDLE.get((level, t), {}).get(p, "n/a")
                ths = "-" if p == pols[0] else ("about equal" if th is None else
                                                ("%+.1f%%" % th if th != "n/a" else "-"))
                w("| %s | %s | %s | %d | %s | %s | %.0f%% | %.0f%% | %.0f%% |" % (
                    level, t, p, idle, pct(idle / base) if base else "-", ths,
                    100.0 * nw / idle if idle else 0, 100.0 * sb / idle if idle else 0,
                    100.0 * pl / idle if idle else 0))
    w("")
    # LUD tail effect
    lud = ("lud", "lud_internal")
    if lud in kernels:
        w("### LUD: the intra-block tail effect (§3.5.5)\n")
        w("lud_internal, all launches: warps per SM over the kernel's cycles in each state "
          "class (`warp_states`): *active* = resident and not finished, *finished, waiting* = "
          "done but their CTA is not (the intra-block tail: slots no new CTA can use), and "
          "the SMs' empty cycles at the ends of the launches (`core_idle_cycles`, per SM).\n")
        w("| policy | cycles | active warps / SM | finished, waiting / SM | empty cycles / SM |")
        w("|---|---|---|---|---|")
        for p in ("lrr", "gto", "tl-rr", "tl-gto", "pa", "pa-tl"):
            a = kernels[lud].get(p)
            if not a:
                continue
            sm_cycles = a["cycles"] * nsms
            active = sum(a["states"][s] for s in STATES if s != "completed")
            w("| %s | %d | %.2f | %.2f | %.0f |" % (
                p, a["cycles"], active / sm_cycles, a["states"]["completed"] / sm_cycles,
                a["idle_core"] / nsms))
        w("")
    if len(sys.argv) == 4:
        w(lud_curve(sys.argv[2], sys.argv[3]))
    print("\n".join(out))
    return 0


def lud_curve(csv_root, plot_dir):
    """Active warps on the GPU over the last cycles of the largest
    lud_internal launch, per policy; a gnuplot SVG and a short table."""
    series = {}
    for pol in ("lrr", "gto", "tl-rr", "tl-gto"):
        files = glob.glob(os.path.join(csv_root, pol, "launch-*-lud_internal.csv"))
        best, rows_best = 0, None
        for fn in files:
            with open(fn) as f:
                rows = list(csv.DictReader(f))
            issued = sum(int(r["ctas_issued"]) for r in rows)
            if issued > best:
                best, rows_best = issued, rows
        if not rows_best:
            continue
        per_cycle = {}
        for r in rows_best:
            act = sum(float(r[s]) for s in STATES if s != "completed" and s in r)
            per_cycle[int(r["cycle"])] = per_cycle.get(int(r["cycle"]), 0.0) + act
        series[pol] = sorted(per_cycle.items())
    if not series:
        return ""
    os.makedirs(plot_dir, exist_ok=True)
    dat = os.path.join(plot_dir, "lud-tail.dat")
    with open(dat, "w") as f:
        for pol, pts in series.items():
            end = pts[-1][0]
            f.write("# %s\n" % pol)
            for c, a in pts:
                f.write("%d %.3f\n" % (c - end, a))
            f.write("\n\n")
    svg = os.path.join(plot_dir, "lud-tail.svg")
    plots = ", ".join("'%s' index %d with lines title '%s'" % (dat, i, pol)
                      for i, pol in enumerate(series))
    script = ("set terminal svg size 800,400 dynamic; set output '%s';"
              "set xlabel 'cycles before the end of the launch';"
              "set ylabel 'active warps (GPU, interval average)';"
              "set key bottom left; plot %s" % (svg, plots))
    subprocess.run(["gnuplot", "-e", script], check=False)
    os.remove(dat)
    lines = ["### LUD: active warps at the end of the largest lud_internal launch\n",
             "From `--trace-csv` series (resident warps not yet finished, summed over the "
             "SMs, averaged per sampling interval), aligned at each policy's last sample.  "
             "Tail = cycles from the last interval with at least 90% of the launch's peak "
             "active warps to the end.\n",
             "![active warps at the end of lud_internal](thesis-ch3/lud-tail.svg)\n",
             "| policy | launch cycles | peak active warps | tail cycles |",
             "|---|---|---|---|"]
    for pol, pts in series.items():
        peak = max(a for _, a in pts)
        last_full = max(c for c, a in pts if a >= 0.9 * peak)
        lines.append("| %s | %d | %.1f | %d |" % (pol, pts[-1][0] - pts[0][0], peak,
                                                   pts[-1][0] - last_full))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
