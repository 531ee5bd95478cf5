#!/usr/bin/env python3
"""experiments/onac-analysis.py RESULTS

The per-kernel analysis of the ONAC / Seq-Det experiment (experiments/
onac.ini), as Markdown on stdout, beside the thesis's §4.4.3-4.4.4 numbers;
writes the headline rows onac_energy, onac_perf and seqdet_energy
(docs/experiments/headlines.csv, EXPERIMENT-METHOD.md §5).

RESULTS is the sweep's results folder (results.jsonl).  Rules, fixed before
the runs:

- A thesis kernel (Table 4.4) is one or more of our kernels (THESIS below);
  their launches are summed (cycles, energy).
- Type: the thesis's own (Table 4.4, A: N_opt < 32, B: N_opt = 32); ours
  beside it: A when N_oracle < 32.
- N_oracle: the smallest swept fixed core count N (cta.filters=throttle,
  throttle.active_sms = N, sampled) whose cycles are within 2% of all 32
  cores (cycles(32) / cycles(N) >= 0.98; the thesis's threshold, §4.4.1.1).
- N_opt of a policy: per launch, the count its fixing sample chose (from
  the trace; the cores on when the launch ended if none did), averaged over
  launches weighted by cycles.
- Performance = cycles with all cores on / cycles under the policy; energy
  = the policy's energy over all cores' (the model of docs/energy.md;
  normalised, as the thesis does); geomeans over kernels.
- Sampled runs (the oracle's fixed counts): records made before the model
  projected a sampled launch's energy (stats `energy.projected`, absent in
  them) have counters that stop at the end of the detailed part, so their
  energy is rebuilt: static =
  (P_core x N + P_uncore) x seconds, the two powers read off the all-cores
  run (static_core_j / (32 x seconds), static_uncore_j / seconds); dynamic
  = the detailed part's dynamic energy / its share of the warp
  instructions (stats `sample.detailed_instruction_fraction`).
- Detection time: from a decision trace of each policy run
  (`--sched-trace`, run by this script, kept in RESULTS/traces/): cycles
  from a launch's arrival to the sample that fixes N_opt (the whole launch
  when it ends first), summed over launches, over the kernel's cycles (the
  thesis's Fig. 4.15).  The same traces give the IPC samples each policy
  saw (the mechanism, method §4).
- Scale of the headline rows: size thesis is "reduced" (method §1; the
  inputs and which kernels fall short of Table 4.4's waves are in
  benchmarks/registry_sizes.inc and the table below); paper is "paper";
  any other size is written as its name (not a headline scale).
- Waves = CTAs per launch / (32 x CTAs that fit a core); the thesis's =
  Table 4.4's CTAs / (32 x 8) (8 CTAs per core, Table 4.3; a lower bound: its
  kernels' CTAs per core are not given)."""
import csv
import json
import math
import os
import re
import subprocess
import sys
from collections import defaultdict
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import headline_rows  # noqa: E402  (scripts/headline_rows.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NCORES = 32
POLICIES = ["onac", "seq-det"]
# Table 4.4: thesis kernel -> (type, CTAs, our benchmark, our kernels or None = all of them)
THESIS = [
    ("LUD", "A", 65025, "lud", None), ("NN", "A", 50115, "nn", None),
    ("KM", "A", 25600, "kmeans", None), ("BT-K2", "A", 65535, "b+tree", ["findRangeK"]),
    ("BP-K2", "A", 65535, "backprop", ["bp_adjust_weights"]), ("SRAD", "A", 32768, "srad", None),
    ("DCT-K1", "A", 32768, "dct8x8", ["dct8x8_forward"]),
    ("DCT-K2", "A", 32768, "dct8x8", ["idct8x8_inverse"]),
    ("TP-K1", "A", 65536, "transpose", ["transpose_nobank"]),
    ("TP-K2", "A", 65536, None, None), ("FWT", "A", 32768, "fastwalsh", None),
    ("CVSEP", "A", 16384, "convolution-separable", None), ("MS", "A", 24567, "mergesort", None),
    ("PATH", "B", 46297, "pathfinder", None), ("BT-K1", "B", 65535, "b+tree", ["findK"]),
    ("HS", "B", 29241, "hotspot", None), ("BP-K1", "B", 65535, "backprop", ["bp_layerforward"]),
    ("CVT-K1", "B", 98304, "convolution-texture", ["conv_tex_rows"]),
    ("CVT-K2", "B", 98304, "convolution-texture", ["conv_tex_cols"]),
    ("DXTC", "B", 16384, "dxtc", None),
]
EXTRA = [("dct8x8", "quantize8x8"), ("transpose", "transpose_naive"),
         ("transpose", "transpose_coalesced")]


VERSION = ["?"]


def load(results):
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            if j.get("status") == "ok" and j.get("mode") != "functional" and j.get("stats"):
                VERSION[0] = j.get("version", "?")
                yield j


def kernel_sums(stats, n_on, power):
    """name -> sums; n_on: the cores powered in a fixed-count run (for the
    rebuilt energy of sampled launches), power: (P_core, P_uncore) or None."""
    out = {}
    for k in stats["kernels"]:
        n = len(k["cores"])
        d = out.setdefault(k["name"], dict(cycles=0, energy=0.0, static=0.0, ctas=0, launches=0,
                                           non_w=0.0, fit=0, gated=0, sampled=0, instrs=0))
        e = k["energy"]
        energy, static = e["energy_j"], e["static_j"]
        smp = k.get("sample") or {}
        # records made before the model projected a sampled launch's energy
        # (energy.projected, docs/energy.md "Sampled launches") are rebuilt here
        if smp.get("sampled") and power and not e.get("projected"):
            frac = smp.get("detailed_instruction_fraction") or 1.0
            static = (power[0] * n_on + power[1]) * e["seconds"]
            energy = static + e["dynamic_j"] / frac
        if smp.get("sampled"):
            d["sampled"] += 1
        d["cycles"] += k["cycles"]
        d["energy"] += energy
        d["static"] += static
        d["ctas"] += k["ctas"]
        d["instrs"] += k["warp_instructions"]
        d["launches"] += 1
        d["fit"] = max(d["fit"], k["occupancy"]["ctas_per_sm"])
        d["gated"] += sum(c["gated_cycles"] for c in k["cores"])
        d["non_w"] += (n - sum(c.get("off_at_end", 0) for c in k["cores"])) * k["cycles"]
    return out


def group(sums, kernels):
    names = [n for n in sums if kernels is None or n in kernels]
    if not names:
        return None
    g = {key: sum(sums[n][key] for n in names) for key in ("cycles", "energy", "static", "ctas",
                                                           "launches", "non_w", "gated", "sampled", "instrs")}
    g["fit"] = max(sums[n]["fit"] for n in names)
    g["waves"] = sum(sums[n]["ctas"] / sums[n]["launches"] / (NCORES * sums[n]["fit"])
                     * sums[n]["launches"] for n in names) / g["launches"]
    return g


def trace(results, bench, size, policy, keys=()):
    """The policy's decision trace (kept filtered in RESULTS/traces/): per
    launch [arrival, end, [(cycle, cores, ipc, sample cycles, next, final)]].
    keys: the run's policy keys ("onac.warmup=1", ...), set as it had them."""
    os.makedirs(os.path.join(results, "traces"), exist_ok=True)
    path = os.path.join(results, "traces", "%s.%s.txt" % (bench, policy))
    if not os.path.exists(path):
        binp = os.environ.get("PTXEMU_BIN", os.path.join(ROOT, "build", "tools", "ptxemu"))
        raw = path + ".raw"
        subprocess.run([binp, "bench", "run", bench, "--size", size, "--timing", "--config",
                        "onac32", "--set", "warp.policy=gto", "--set", "cta.filters=" + policy,
                        *[a for kv in keys for a in ("--set", kv)],
                        "--sched-trace", raw], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        with open(raw) as f, open(path, "w") as o:
            for line in f:
                if " -> SM" not in line and "finished on SM" not in line:
                    o.write(line)
        os.remove(raw)
    launches = []
    pat = re.compile(r"cycle (\d+): .*IPC with (\d+) cores = ([\d.]+) over (\d+) cycles -> (\d+) cores( \(N_opt\))?")
    with open(path) as f:
        for line in f:
            m = re.match(r"cycle (\d+): kernel \d+ \((\S+)\) (arrives|finished)", line)
            if m:
                if m.group(3) == "arrives":
                    launches.append([m.group(2), int(m.group(1)), None, []])
                else:
                    for L in launches:
                        if L[0] == m.group(2) and L[2] is None:
                            L[2] = int(m.group(1))
                            break
                continue
            m = pat.match(line)
            if m and launches:
                live = [L for L in launches if L[2] is None] or launches
                live[0][3].append((int(m.group(1)), int(m.group(2)), float(m.group(3)),
                                   int(m.group(4)), int(m.group(5)), bool(m.group(6))))
    return launches


def detection(launches, kernels):
    """(detection share of the kernel's cycles, N_opt weighted by launch
    cycles, the launches' samples).  N_opt of a launch: the count the fixing
    sample chose, else the cores on when the launch ended (the last
    sample's next count; all cores when no sample finished)."""
    det = tot = nw = 0
    seen = []
    for name, a, e, samples in launches:
        if e is None or (kernels is not None and name not in kernels):
            continue
        fin = next((s for s in samples if s[5]), None)
        det += (min(fin[0], e) if fin is not None else e) - a
        tot += e - a
        nw += (e - a) * (fin[4] if fin else samples[-1][4] if samples else NCORES)
        seen.append(samples)
    return ((det / tot, nw / tot) if tot else (float("nan"), float("nan"))), seen


def gm(xs):
    xs = [x for x in xs if x and x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def write_headlines(rows, nrun, scale):
    # the commit the numbers were made on: the version of the ptxemu that
    # ran the jobs (results.jsonl; "-dirty" when it was built from a dirty tree)
    commit = VERSION[0]
    new = [[hid, "%.1f" % paper, "" if math.isnan(ratio) else "%.1f" % ((ratio - 1) * 100), "pct",
            better, scale, str(nrun), "13", commit, "docs/experiments/onac.md"]
           for hid, (paper, ratio, better) in rows.items()]
    headline_rows.write(ROOT, new)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    res = sys.argv[1]
    jobs = list(load(res))
    if not any(j["overrides"].get("cta.filters") == "none" for j in jobs):
        # a policy-variant page (experiments/onac-warmup.ini): its policy
        # runs, beside the all-cores baseline and the oracle of results/onac
        version = VERSION[0]
        base = os.path.join(os.path.dirname(os.path.normpath(res)), "onac")
        jobs += [j for j in load(base) if j["overrides"].get("cta.filters") not in POLICIES]
        VERSION[0] = version
    keys = {}
    for j in jobs:
        f = j["overrides"].get("cta.filters")
        if f in POLICIES:
            keys[f] = tuple("%s=%s" % (k, v) for k, v in sorted(j["overrides"].items())
                            if k.startswith(f + "."))
    size = jobs[0]["size"] if jobs else "small"
    # the static powers, read off the all-cores runs
    power = None
    for j in jobs:
        if j["overrides"].get("cta.filters") == "none":
            k = j["stats"]["kernels"][0]["energy"]
            if k["seconds"] > 0:
                power = (k["static_core_j"] / (NCORES * k["seconds"]), k["static_uncore_j"] / k["seconds"])
                break
    runs = defaultdict(dict)
    for j in jobs:
        ov = j["overrides"]
        f = ov.get("cta.filters", "none")
        n = int(ov.get("throttle.active_sms", 0)) if f == "throttle" else NCORES
        key = ("fixed", n) if f == "throttle" else (f, NCORES)
        runs[j["benchmark"]][key] = kernel_sums(j["stats"], n, power)
    rows = []
    for tname, ttype, tctas, bench, kernels in THESIS + [(k, "–", 0, b, [k]) for b, k in EXTRA]:
        r = dict(t=tname, ttype=ttype, tctas=tctas, bench=bench, kernels=kernels)
        rows.append(r)
        v = runs.get(bench) if bench else None
        if not v or ("none", NCORES) not in v:
            continue
        base = group(v[("none", NCORES)], kernels)
        if not base:
            continue
        r["base"] = base
        r["static_share"] = base["static"] / base["energy"]
        curve = {NCORES: base}
        for (f, n), s in v.items():
            if f == "fixed":
                g = group(s, kernels)
                if g:
                    curve[n] = g
        r["curve"] = curve
        r["noracle"] = min(n for n, g in curve.items() if base["cycles"] / g["cycles"] >= 0.98)
        r["our_type"] = "A" if r["noracle"] < NCORES else "B"
        o = curve[r["noracle"]]
        r["oracle"] = dict(perf=base["cycles"] / o["cycles"], energy=o["energy"] / base["energy"])
        emin = min(curve, key=lambda n: curve[n]["energy"])
        r["emin"] = (emin, curve[emin]["energy"] / base["energy"])
        for p in POLICIES:
            k = group(v.get((p, NCORES), {}), kernels)
            if not k:
                continue
            (det, nopt), samples = detection(trace(res, bench, size, p, keys.get(p, ())), kernels)
            r[p] = dict(n=nopt, perf=base["cycles"] / k["cycles"],
                        energy=k["energy"] / base["energy"],
                        power=(k["energy"] / k["cycles"]) / (base["energy"] / base["cycles"]),
                        powered=1 - k["gated"] / (k["cycles"] * NCORES), det=det, samples=samples)
    ran = [r for r in rows if "onac" in r and "seq-det" in r]
    nsamp = sum(s["sampled"] for b in runs.values() for (f, n), ks in b.items() if f == "fixed"
                for s in ks.values())
    nlaunch = sum(s["launches"] for b in runs.values() for (f, n), ks in b.items() if f == "fixed"
                  for s in ks.values())
    print("\n## Per-kernel analysis (experiments/onac-analysis.py)\n")
    if power:
        print("Static powers read off the all-cores runs: %.2f W per powered core, %.2f W uncore "
              "(docs/energy.md).  Oracle runs (fixed core counts, sample.mode = on): %d of their "
              "%d launches were sampled (projected after a detailed part), the rest ran in full; "
              "ONAC, Seq-Det and the all-cores baseline are never sampled.\n" % (
                  power[0], power[1], nsamp, nlaunch))
    print("Rules (fixed before the runs; the script's docstring): a thesis kernel is one or more "
          "of ours (launches summed); type = the thesis's (Table 4.4) and ours (A when N_oracle < "
          "32); N_oracle = the fewest swept cores within 2% of 32 cores' cycles; N_opt = the count "
          "the policy fixed (or had on when the launch ended; from the traces, cycle-weighted); performance = all-cores cycles "
          "/ policy cycles; energy = policy / all cores (docs/energy.md, normalised); detection = "
          "cycles until the sample that fixes N_opt, over the kernel's cycles (decision traces); "
          "the oracle runs are sampled; their energy is the model's projection (stats `energy.projected`; rebuilt from the detailed part only for records made before it existed).\n")
    print("| thesis kernel | ours | thesis type | our type | thesis CTAs (waves ≥) | our CTAs | our waves/launch "
          "| static share | N_oracle | ONAC N_opt | Seq-Det N_opt | oracle perf | ONAC perf | Seq-Det perf "
          "| oracle energy | ONAC energy | Seq-Det energy | ONAC detection | Seq-Det detection |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ours = "%s/%s" % (r["bench"], ",".join(r["kernels"])) if r["bench"] and r["kernels"] else (
            r["bench"] or "**missing**")
        if r["ttype"] != "–":
            tw = "%d (%.0f)" % (r["tctas"], r["tctas"] / (NCORES * 8))
        else:
            tw = "not in Table 4.4"
        if "onac" not in r or "seq-det" not in r:
            print("| %s | %s | %s | | %s | | | | | | | | | | | | | | |" % (r["t"], ours, r["ttype"], tw))
            continue
        o, s = r["onac"], r["seq-det"]
        print("| %s | %s | %s | %s | %s | %d | %.1f | %.0f%% | %d | %.1f | %.1f | %.3f | %.3f | %.3f | "
              "%.3f | %.3f | %.3f | %.0f%% | %.0f%% |" % (
                  r["t"], ours, r["ttype"], r["our_type"], tw, r["base"]["ctas"], r["base"]["waves"],
                  100 * r["static_share"], r["noracle"], o["n"], s["n"], r["oracle"]["perf"],
                  o["perf"], s["perf"], r["oracle"]["energy"], o["energy"], s["energy"],
                  100 * o["det"], 100 * s["det"]))
    print("\nThe thesis's kernels run: %d of 20 (missing: %s).  Rows marked 'not in Table 4.4' "
          "are our kernels the thesis does not list; they are left out of the groups below.\n" % (
              len([r for r in ran if r["ttype"] != "–"]),
              ", ".join(r["t"] for r in rows if r["ttype"] != "–" and r not in ran)))
    groups = [("thesis type A", [r for r in ran if r["ttype"] == "A"]),
              ("thesis type B", [r for r in ran if r["ttype"] == "B"]),
              ("our type A (N_oracle < 32)", [r for r in ran if r["ttype"] != "–" and r["our_type"] == "A"]),
              ("our type B (N_oracle = 32)", [r for r in ran if r["ttype"] != "–" and r["our_type"] == "B"])]
    print("| group | kernels | oracle perf | ONAC perf | Seq-Det perf | oracle energy | ONAC energy "
          "| Seq-Det energy | ONAC detection | Seq-Det detection | thesis |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    out = {}
    for g, rs in groups:
        if not rs:
            print("| %s | 0 | | | | | | | | | |" % g)
            continue
        vals = dict(op=gm([r["oracle"]["perf"] for r in rs]), p=gm([r["onac"]["perf"] for r in rs]),
                    sp=gm([r["seq-det"]["perf"] for r in rs]), oe=gm([r["oracle"]["energy"] for r in rs]),
                    e=gm([r["onac"]["energy"] for r in rs]), se=gm([r["seq-det"]["energy"] for r in rs]),
                    d=sum(r["onac"]["det"] for r in rs) / len(rs),
                    sd=sum(r["seq-det"]["det"] for r in rs) / len(rs))
        out[g] = vals
        paper = ("perf ONAC 0.98, Seq-Det 0.99; energy ONAC 0.80, Seq-Det 0.90; ONAC detection 45% "
                 "shorter" if "A" in g else "both detect 32; detection < 4% of the run; ONAC perf > 0.98, "
                 "energy about 1.02")
        print("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f%% | %.0f%% | %s |" % (
            g, len(rs), vals["op"], vals["p"], vals["sp"], vals["oe"], vals["e"], vals["se"],
            100 * vals["d"], 100 * vals["sd"], paper))
    print("\nGeometric means of the per-kernel ratios over all 32 cores (performance: higher is "
          "better; energy: lower is better); detection: the mean share of the kernel's cycles.\n")
    b = [r for r in ran if r["onac"]["n"] >= NCORES - 0.5 and r["onac"]["samples"]
         and len(r["onac"]["samples"][0]) == 2]
    if b:
        print("**ONAC's one-core sample, where ONAC returns to 32 cores after it** (the thesis's "
              "type-B cost): the 4-wave sample on one core lasts about as long as 4 waves of the "
              "whole chip while 31 cores idle, so a launch of W waves should keep W / (W + 4) of "
              "its performance.\n")
        print("| kernel | our waves W | ONAC perf | W / (W + 4) | thesis waves (≥) | at the thesis's waves |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in b:
            w, tw = r["base"]["waves"], r["tctas"] / (NCORES * 8) if r["tctas"] else float("nan")
            print("| %s | %.1f | %.3f | %.3f | %s | %s |" % (
                r["t"], w, r["onac"]["perf"], w / (w + 4), "%.0f" % tw if tw == tw else "–",
                "%.3f" % (tw / (tw + 4)) if tw == tw else "–"))
        print()
    # the IPC samples each policy saw, beside the oracle's curve (method §4)
    print("### The IPC samples the policies saw\n")
    print("Per kernel (first launch): the IPC of each sample (cores: IPC), the all-cores IPC over the "
          "whole kernel (warp instructions / cycles).\n")
    print("| thesis kernel | all-cores IPC (whole kernel) | ONAC samples | Seq-Det samples |")
    print("|---|---:|---|---|")
    for r in ran:
        cells = []
        for p in POLICIES:
            sm = r[p]["samples"][0] if r[p]["samples"] else []
            txt = ", ".join("%d: %.1f" % (c, ipc) for _, c, ipc, _, _, _ in sm[:12]) + (
                " …" if len(sm) > 12 else "")
            fin = next((s[4] for s in sm if s[5]), None)
            cells.append((txt + (" ⇒ N_opt %d" % fin if fin else " (launch ended first)"))
                         if sm else "no sample finished")
        winstr = "%.1f" % (r["base"]["instrs"] / r["base"]["cycles"])
        print("| %s | %s | %s | %s |" % (r["t"], winstr, cells[0], cells[1]))
    print("\nThe first sample (32 cores) sets the target, 0.98 x its IPC; each later sample is "
          "compared with it.\n")
    print("### The oracle's curve\n")
    counts = sorted({n for r in ran for n in r["curve"]})
    print("Performance at each fixed core count (sampled runs), over all 32 cores; **bold** = N_oracle.\n")
    print("| thesis kernel | " + " | ".join(str(n) for n in counts) + " |")
    print("|---|" + "---:|" * len(counts))
    for r in ran:
        cells = []
        for n in counts:
            g = r["curve"].get(n)
            if not g:
                cells.append("")
                continue
            t = "%.2f" % (r["base"]["cycles"] / g["cycles"])
            cells.append("**%s**" % t if n == r["noracle"] else t)
        print("| %s | %s |" % (r["t"], " | ".join(cells)))
    print("\nEnergy at each fixed core count, over all 32 cores (sampled launches: projected by the model):\n")
    print("| thesis kernel | " + " | ".join(str(n) for n in counts) + " | lowest |")
    print("|---|" + "---:|" * (len(counts) + 1))
    for r in ran:
        cells = ["%.2f" % (r["curve"][n]["energy"] / r["base"]["energy"]) if n in r["curve"] else ""
                 for n in counts]
        print("| %s | %s | %d: %.2f |" % (r["t"], " | ".join(cells), r["emin"][0], r["emin"][1]))
    print()
    a = out.get("thesis type A")
    if a and os.path.basename(os.path.normpath(res)) == "onac":  # experiments/onac.ini's rows
        write_headlines({"onac_energy": (-20.0, a["e"], "lower"), "onac_perf": (-2.0, a["p"], "higher"),
                         "seqdet_energy": (-10.0, a["se"], "lower")},
                        len([r for r in ran if r["ttype"] == "A"]),
                        {"thesis": "reduced", "paper": "paper"}.get(size, size))


if __name__ == "__main__":
    main()
