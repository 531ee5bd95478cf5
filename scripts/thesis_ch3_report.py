#!/usr/bin/env python3
"""scripts/thesis_ch3_report.py PAGE.md HEADLINES.csv COMMAND RESULTS-DIR...

Writes docs/experiments/thesis-ch3.md (thesis ch. 3, Figs. 3.7-3.8, Tables
3.2-3.3) from the sweeps of experiments/thesis-ch3*.ini, and the page's
headline rows (pa_type_a, pa_type_b, tlgto_type_a) into HEADLINES.csv.

Every RESULTS-DIR is a `ptxemu sweep` folder (results.jsonl).  Kernels are
grouped as the thesis's Table 3.2/3.3 kernels (mapping and the thesis's
type A/B in docs/experiments/phases-table33/thesis-tables.csv); a thesis
kernel that maps to two of ours (SRAD, FWT) sums their cycles.  The types
are the THESIS's (Fig. 3.7, section 3.5.2); ours (GTO vs RR here) are shown
beside them.  The folder whose name ends in `-sampling` is the full-versus-
sampled check; the others are the page's runs.  scripts/thesis-ch3.sh runs
it all; the measured discussion (docs/experiments/thesis-ch3/notes.md) is
appended by that script."""
import csv
import json
import math
import os
import subprocess
import sys

SINGLE = ["lrr", "gto", "pa"]
TWO = ["tl-rr", "tl-gto", "pa-tl"]
POLICIES = SINGLE + TWO
LINEAR = ["pa", "pa-tl"]          # also run with phase.blocks=linear
NSMS = 16
TABLE = "docs/experiments/phases-table33/thesis-tables.csv"

# Thesis Fig. 3.7 / section 3.5.2 (per cent speedup per type and level).
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
# The headlines (SEED-TARGETS section 8, EXPERIMENT-METHOD section 5).
HEADLINES = [
    ("pa_type_a", "single", "A", "pa", "lrr", 9.0),
    ("pa_type_b", "single", "B", "pa", "gto", 9.0),
    ("tlgto_type_a", "two", "A", "tl-gto", "tl-rr", 4.0),
]
# Sampling is allowed for the page's runs when, on the check, every
# comparison below differs between sampled and full by at most this many
# percentage points on every thesis kernel (rule fixed before the runs).
SAMPLE_TOL_PP = 1.0
COMPARE = [("gto", "lrr"), ("pa", "lrr"), ("pa", "gto"), ("tl-gto", "tl-rr"),
           ("pa-tl", "tl-rr"), ("pa-tl", "tl-gto")]


def variant(rec):
    ov = rec.get("overrides") or {}
    if not isinstance(ov, dict):
        ov = dict(w.split("=", 1) for w in str(rec.get("variant", "")).split() if "=" in w)
    pol = ov.get("warp.policy")
    blocks = ov.get("phase.blocks", "split")
    length = str(ov.get("pa.by_length", "false")).lower() in ("true", "1", "yes")
    return (pol + ("/linear" if blocks == "linear" else "") + ("/length" if length else ""),
            ov.get("sample.mode", "off"))


def thesis_rows():
    rows = []
    with open(TABLE) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            bench = "b+tree" if r["ptxemu_benchmark"] == "bptree" else r["ptxemu_benchmark"]
            r["bench"] = bench
            r["kernels"] = r["ptxemu_kernels"].split(";")
            rows.append(r)
    return rows


def empty():
    return {"cycles": 0, "slots": 0, "issued": 0, "no_warp": 0, "scoreboard": 0,
            "pipeline": 0, "l1h": 0, "l1m": 0, "rowh": 0, "rowm": 0, "launches": 0,
            "max_ctas": 0, "ctas_per_sm": 0, "barrier": 0, "warp_cycles": 0,
            "mem_avg": 0.0, "sampled": 0, "size": "", "ctas": 0, "detailed_ctas": 0,
            "mem_cycles": 0, "alu_avg": 0.0}


def load(dirs, thesis):
    """{(thesis abbrev, variant, sample): aggregate} and the sizes seen."""
    want = {}
    for t in thesis:
        for k in t["kernels"]:
            want[(t["bench"], k)] = t["abbrev"]
    agg = {}
    for d in dirs:
        with open(os.path.join(d, "results.jsonl")) as f:
            for line in f:
                rec = json.loads(line)
                if rec.get("status") != "ok" or rec.get("mode", "timing") != "timing":
                    continue
                pol, smode = variant(rec)
                for k in rec["stats"]["kernels"]:
                    ab = want.get((rec["benchmark"], k["name"]))
                    if not ab:
                        continue
                    key = (ab, pol, smode, os.path.basename(d.rstrip("/")))
                    a = agg.setdefault(key, empty())
                    s, m = k["schedulers"], k["memory"]
                    a["size"] = rec.get("size", "")
                    a["cycles"] += k["cycles"]
                    a["slots"] += s["issue_slots"]
                    a["issued"] += s["issued"]
                    a["no_warp"] += s["idle_no_warp"]
                    a["scoreboard"] += s["idle_scoreboard"]
                    a["pipeline"] += s["idle_pipeline"]
                    a["l1h"] += m.get("l1_hits", 0)
                    a["l1m"] += m.get("l1_misses", 0)
                    a["rowh"] += m.get("dram_row_hits", 0)
                    a["rowm"] += m.get("dram_row_misses", 0)
                    ws = k["warp_states"]
                    a["barrier"] += ws.get("at_barrier", 0)
                    a["warp_cycles"] += sum(ws.values())
                    # load.mem_avg divides by all cycles, the counts come from
                    # the detailed part of a sampled launch only
                    a["mem_avg"] += k["load"]["mem_avg"] * k["cycles"]
                    a["alu_avg"] += k["load"]["alu_avg"] * k["cycles"]
                    a["launches"] += 1
                    smp = k.get("sample") or {}
                    a["sampled"] += 1 if smp.get("sampled") else 0
                    a["ctas"] += k["ctas"]
                    a["detailed_ctas"] += smp["detailed_ctas"] if smp.get("sampled") else k["ctas"]
                    a["mem_cycles"] += (smp["detailed_cycles"] if smp.get("sampled")
                                        else k["cycles"])
                    if k["ctas"] > a["max_ctas"]:
                        a["max_ctas"] = k["ctas"]
                        a["ctas_per_sm"] = k["occupancy"]["ctas_per_sm"]
    return agg


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def pct(x):
    return "%+.1f%%" % ((x - 1.0) * 100.0) if x == x else "-"


def rate(h, m):
    return "%.2f" % (h / (h + m)) if h + m else "-"


def git(*args):
    return subprocess.run(["git"] + list(args), capture_output=True, text=True).stdout.strip()


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    page, headlines, command = sys.argv[1:4]
    dirs = sys.argv[4:]
    thesis = thesis_rows()
    agg = load(dirs, thesis)
    main_dirs = [os.path.basename(d.rstrip("/")) for d in dirs if not d.rstrip("/").endswith("-sampling")]
    check_dir = [os.path.basename(d.rstrip("/")) for d in dirs if d.rstrip("/").endswith("-sampling")]

    def get(ab, pol):
        """The page's aggregate of thesis kernel `ab` under `pol` (any main sweep)."""
        for d in main_dirs:
            for sm in ("on", "off"):
                a = agg.get((ab, pol, sm, d))
                if a:
                    return a
        return None

    commit = git("rev-parse", "--short", "HEAD")
    versions = set()
    for d in dirs:
        with open(os.path.join(d, "results.jsonl")) as f:
            for line in f:
                versions.add(json.loads(line).get("version", "?"))
    dirty = git("status", "--porcelain", "--untracked-files=no")
    out = []
    w = out.append
    w("# Thesis ch. 3: phase-aware and two-level warp scheduling (Figs. 3.7-3.8, Tables 3.2-3.3)\n")
    w("Regenerate with `%s` (from a clean tree).  Commit: `%s%s`.  Experiment files: "
      "`experiments/thesis-ch3.ini`, `thesis-ch3-b.ini`, `-b2.ini`, `-c.ini` and `-c2.ini` "
      "(the thesis kernels at the thesis's inputs, sampled; five files so that they could "
      "run side by side), `thesis-ch3-length*.ini` (the fix tried), "
      "`experiments/thesis-ch3-small.ini` (Heart at its thesis input, KM reduced; see Scale), `experiments/thesis-ch3-sampling.ini` "
      "(the full-versus-sampled check).  Thesis numbers: `%s` and "
      "`../shared/seeds/awatramani-workload-aware-scheduling-thesis.txt` section 3.5.\n"
      % (command, commit, "-dirty" if dirty else "", TABLE))
    w("Runs made by ptxemu %s (`version` of the sweep records; between these builds only "
      "scripts, docs and the default-off keys `kernel.caps` and `pa.by_length` changed, and "
      "`scripts/snapshot.sh` before and after `kernel.caps` was identical).\n"
      % ", ".join("`%s`" % v for v in sorted(versions)))
    w("Config `m2090` (thesis Table 3.1: 16 cores, 8 CTAs and 48 warps per core, 2 schedulers "
      "each dispatching every 2 cycles, ready queue 6).  Policies: single level `lrr` (the "
      "thesis's RR), `gto`, `pa`; two level `tl-rr`, `tl-gto`, `pa-tl`.  `pa` and `pa-tl` "
      "also run with `phase.blocks=linear` (the other reading of the phase rule, "
      "docs/experiments/phases-table33.md), shown separately, never in the headline.\n")
    # ------------------------------------------------------------------ types
    w("**Typing.**  Type A / B is the thesis's (Fig. 3.7, section 3.5.2; A: GTO beats RR, "
      "B: RR beats GTO), per level: at single level A = BP-K1, BP-K2, B+T-K1, B+T-K2, KM, "
      "LUD, SRAD, DWT, DXTC, HIST, MCO and B = Heart, CFD, FWT; at two level BP-K1, LUD and "
      "KM move to B.  Our own typing (GTO vs RR in these runs) is shown beside it and used "
      "nowhere in the headline.\n")
    w("**Kernels.**  The thesis evaluates 30 kernels (13 SDK + 17 Rodinia, section 3.5.1; the "
      "abstract says 35) but names only the 14 of Tables 3.2-3.3 and Fig. 3.7; the other 16 "
      "are unnamed (\"comparable performance (within 1%)\") and so cannot be run: the "
      "headline covers the named kernels run at the thesis's scale (13 of the 14; KM is "
      "outside, see Scale).\n")
    # ------------------------------------------------------------------ scale
    w("## Scale: the thesis's inputs, ours, and waves per SM\n")
    w("Waves per SM = CTAs of the kernel's largest launch / (16 SMs x CTAs per SM).  Thesis: "
      "Tables 3.2-3.3 (CTAs, CTAs/core).  Ours: measured (lrr run; CTAs per SM as the timing "
      "model computes occupancy from our PTX's registers and shared memory).  `launches` = "
      "launches of the mapped kernels, `sampled` = of those projected by the sampler.\n")
    w("| thesis kernel | ptxemu kernel(s) | size | thesis CTAs x threads | thesis CTAs/SM | "
      "thesis waves | our CTAs (largest launch) | our CTAs/SM | our waves | launches | sampled | "
      "CTAs in detail | in headline |")
    w("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    in_headline = {}
    for t in thesis:
        a = get(t["abbrev"], "lrr")
        tw = int(t["total_ctas"]) / (NSMS * int(t["ctas_per_core"]))
        if not a:
            w("| %s | %s | - | %s x %s | %s | %.1f | - | - | - | - | - | - | no (not run) |" % (
                t["abbrev"], ", ".join(t["kernels"]), t["total_ctas"], t["threads_per_cta"],
                t["ctas_per_core"], tw))
            in_headline[t["abbrev"]] = False
            continue
        ow = a["max_ctas"] / (NSMS * a["ctas_per_sm"]) if a["ctas_per_sm"] else 0
        # method section 1: the thesis's input (size paper), or waves kept
        # within a factor of 2 at a reduced input
        ok = a["size"] == "paper" or (tw > 0 and 0.5 <= ow / tw <= 2.0)
        in_headline[t["abbrev"]] = ok
        w("| %s | %s | %s | %s x %s | %s | %.1f | %d | %d | %.1f | %d | %d | %.0f%% | %s |" % (
            t["abbrev"], ", ".join(t["kernels"]), a["size"], t["total_ctas"],
            t["threads_per_cta"], t["ctas_per_core"], tw, a["max_ctas"], a["ctas_per_sm"], ow,
            a["launches"], a["sampled"], 100.0 * a["detailed_ctas"] / a["ctas"],
            "yes" if ok else "**no** (waves)"))
    w("")
    # ------------------------------------------------------------- sampling
    w("## May these policies be sampled?\n")
    w("Warp schedulers act during the whole kernel; the sampler (docs/sampling.md) simulates "
      "each launch in detail until its IPC is stable and projects the rest from that IPC, "
      "so the policy shapes the projected IPC, but the projection cannot see what happens "
      "only late in a launch.  docs/sampling.md found the rankings of lrr, gto and tl-rr kept "
      "where the policies differ by more than about 0.5%%; pa, pa-tl and tl-gto were not "
      "checked there.  Rule (fixed before the runs): the page's runs may be sampled if, on the "
      "check below (each policy full and sampled, size small, where these launches are "
      "sampled too), every comparison's per-kernel speedup moves by at most %.1f percentage "
      "points.\n" % SAMPLE_TOL_PP)
    allowed = None
    if check_dir:
        cd = check_dir[0]
        w("| thesis kernel | comparison | full | sampled | difference (pp) |")
        w("|---|---|---:|---:|---:|")
        worst = 0.0
        for t in thesis:
            for p, q in COMPARE:
                f = [agg.get((t["abbrev"], x, "off", cd)) for x in (p, q)]
                s = [agg.get((t["abbrev"], x, "on", cd)) for x in (p, q)]
                if not all(f) or not all(s):
                    continue
                sf = f[1]["cycles"] / f[0]["cycles"]
                ss = s[1]["cycles"] / s[0]["cycles"]
                diff = (ss - sf) * 100.0
                worst = max(worst, abs(diff))
                w("| %s | %s over %s | %s | %s | %+.2f |" % (t["abbrev"], p, q, pct(sf), pct(ss), diff))
        allowed = worst <= SAMPLE_TOL_PP
        flips = sum(1 for t in thesis for p, q in COMPARE
                    if all(agg.get((t["abbrev"], x, m, cd)) for x in (p, q) for m in ("on", "off"))
                    and (agg[(t["abbrev"], q, "off", cd)]["cycles"] - agg[(t["abbrev"], p, "off", cd)]["cycles"]) *
                    (agg[(t["abbrev"], q, "on", cd)]["cycles"] - agg[(t["abbrev"], p, "on", cd)]["cycles"]) < 0)
        ncmp = sum(1 for t in thesis for p, q in COMPARE
                   if all(agg.get((t["abbrev"], x, m, cd)) for x in (p, q) for m in ("on", "off")))
        w("\nLargest difference: %.2f pp, so by the rule above sampling is %s.  Signs: %d of %d "
          "comparisons change sign under sampling (docs/sampling.md's criterion, the ranking, "
          "is %s)." % (worst, "**allowed**" if allowed else "**not allowed**", flips, ncmp,
                      "kept" if flips == 0 else "not kept"))
        w("")
        w("The same headline comparisons over the check's kernels (thesis typing), full and "
          "sampled:\n")
        w("| headline comparison | kernels | full | sampled |")
        w("|---|---:|---:|---:|")
        for hid, level, ty, p, ref, paper in HEADLINES:
            col = "type_single" if level == "single" else "type_two"
            ks = [t["abbrev"] for t in thesis if t[col] == ty and
                  all(agg.get((t["abbrev"], x, m, cd)) for x in (p, ref) for m in ("on", "off"))]
            g = {m: geomean([agg[(ab, ref, m, cd)]["cycles"] / agg[(ab, p, m, cd)]["cycles"]
                             for ab in ks]) for m in ("off", "on")}
            w("| %s (%s over %s, type %s) | %d | %s | %s |" % (hid, p, ref, ty, len(ks),
                                                           pct(g["off"]), pct(g["on"])))
        w("")
        if not allowed:
            w("**Consequence.**  Full runs at the thesis's inputs cost up to the inverse of the "
              "column \"CTAs in detail\" of the Scale table more than the sampled ones (backprop, "
              "measured: 33.5 CPU-s full against 2.5 sampled; about 1.5 CPU-hours for the 8 "
              "variants, estimated from those fractions), past this page's 40 CPU-minute budget, "
              "and size small keeps neither the thesis's waves nor its grids.  So the "
              "page's paper-size runs stay sampled, against the rule: every figure from them "
              "carries the check's error (up to %.1f pp per kernel, toward zero where it was "
              "largest), and a headline within that of zero cannot be told from zero.  KM and "
              "Heart run in full (experiments/thesis-ch3-small.ini).\n" % worst)
    # -------------------------------------------------------- per kernel
    w("## Per kernel (Fig. 3.7)\n")
    w("Speedup = RR cycles / the policy's cycles (single level over `lrr`, two level over "
      "`tl-rr`); a thesis kernel's cycles are summed over its launches and mapped kernels.\n")
    w("Columns *pa linear* / *pa-tl linear*: `phase.blocks=linear`; *pa by length*: "
      "`pa.by_length=true` (the fix tried, see the discussion); all over RR.\n")
    w("| thesis kernel | lrr cycles | gto | pa | tl-rr cycles | tl-gto | pa-tl | pa linear | "
      "pa-tl linear | pa by length | thesis type (single / two) | our type (single / two) |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    ours = {}
    for t in thesis:
        c = {p: get(t["abbrev"], p) for p in POLICIES + [x + "/linear" for x in LINEAR] + ["pa/length"]}
        if not all(c[p] for p in POLICIES):
            continue
        cy = {p: (c[p]["cycles"] if c[p] else None) for p in c}
        ts = "A" if cy["gto"] < cy["lrr"] else "B"
        tt = "A" if cy["tl-gto"] < cy["tl-rr"] else "B"
        ours[t["abbrev"]] = (ts, tt)
        lin = lambda p, ref: pct(cy[ref] / cy[p]) if cy.get(p) else "-"
        w("| %s | %d | %s | %s | %d | %s | %s | %s | %s | %s | %s / %s | %s / %s |" % (
            t["abbrev"], cy["lrr"], pct(cy["lrr"] / cy["gto"]), pct(cy["lrr"] / cy["pa"]),
            cy["tl-rr"], pct(cy["tl-rr"] / cy["tl-gto"]), pct(cy["tl-rr"] / cy["pa-tl"]),
            lin("pa/linear", "lrr"), lin("pa-tl/linear", "tl-rr"), lin("pa/length", "lrr"),
            t["type_single"], t["type_two"],
            ts + ("" if ts == t["type_single"] else "≠"), tt + ("" if tt == t["type_two"] else "≠")))
    w("\n≠: our type differs from the thesis's.\n")
    # ------------------------------------------------------ per type
    w("## Per type: geomean speedups against the thesis\n")
    w("Geomean over the type's kernels of cycles(reference) / cycles(policy); kernels in the "
      "headline only (the Scale table).  Left: the thesis's typing (the headline); right: "
      "typed by our own GTO-vs-RR result (for comparison only).\n")
    w("| level | type | policy | over | thesis | ours, thesis's typing | kernels | ours, our typing | kernels |")
    w("|---|---|---|---|---:|---:|---:|---:|---:|")
    results = {}
    for level, idx, pols in (("single", 0, SINGLE), ("two", 1, TWO)):
        col = "type_single" if idx == 0 else "type_two"
        for ty in ("A", "B"):
            paper = PAPER[(level, ty)]
            ref = paper["vs"]
            kt = [t["abbrev"] for t in thesis if t[col] == ty and t["abbrev"] in ours
                  and in_headline.get(t["abbrev"])]
            ko = [ab for ab in ours if ours[ab][idx] == ty and in_headline.get(ab)]
            for p in pols:
                if p == ref:
                    continue
                gt = geomean([get(ab, ref)["cycles"] / get(ab, p)["cycles"] for ab in kt])
                go = geomean([get(ab, ref)["cycles"] / get(ab, p)["cycles"] for ab in ko])
                results[(level, ty, p, ref)] = (gt, len(kt))
                w("| %s | %s | %s | %s | %+.1f%% | %s | %d | %s | %d |" % (
                    level, ty, p, ref, paper[p], pct(gt), len(kt), pct(go), len(ko)))
            for v in ([p + "/linear" for p in pols if p in LINEAR] +
                      (["pa/length"] if level == "single" else [])):
                base = v.split("/")[0]
                kv = [ab for ab in kt if get(ab, v)]
                kvo = [ab for ab in ko if get(ab, v)]
                gt = geomean([get(ab, ref)["cycles"] / get(ab, v)["cycles"] for ab in kv])
                go = geomean([get(ab, ref)["cycles"] / get(ab, v)["cycles"] for ab in kvo])
                w("| %s | %s | %s | %s | %+.1f%% | %s | %d | %s | %d |" % (
                    level, ty, v, ref, paper[base], pct(gt), len(kv), pct(go), len(kvo)))
    w("")
    # ------------------------------------------------------ headlines
    w("## Headlines\n")
    w("| id | thesis | ours | kernels | holds (sign, and within 1/2x-2x) |")
    w("|---|---:|---:|---:|---|")
    rows = []
    for hid, level, ty, p, ref, paper in HEADLINES:
        g, n = results[(level, ty, p, ref)]
        v = (g - 1.0) * 100.0
        holds = v * paper > 0 and 0.5 <= v / paper <= 2.0
        sign = "sign agrees" if v * paper > 0 else "sign differs"
        w("| %s | %+.1f%% | %+.1f%% | %d | %s%s |" % (hid, paper, v, n, sign,
                                                      ", size within" if holds else ""))
        ncol = "type_single" if level == "single" else "type_two"
        n_paper = sum(1 for t in thesis if t[ncol] == ty)
        # paper scale: every headline kernel at size paper or at the thesis's grid
        at_grid = all(get(t["abbrev"], "lrr")["size"] == "paper" or
                      get(t["abbrev"], "lrr")["max_ctas"] == int(t["total_ctas"])
                      for t in thesis if t["abbrev"] in ours and in_headline.get(t["abbrev"]))
        rows.append("%s,%.1f,%.1f,pct,higher,%s,%d,%d,%s,docs/experiments/thesis-ch3.md" % (
            hid, paper, v, "paper" if at_grid else "reduced", n, n_paper, commit))
    w("")
    w("**The abstract's overall figures** (+6.31%% over TLRR for the GTO-friendly kernels, "
      "+6.65%% over GTO for the RR-friendly ones) match neither level of Fig. 3.7 (type A: +9%% "
      "single, +3%% two level; type B: +9%% and +4%%); they are close to the mean of the two "
      "levels (+6%%, +6.5%%).  Ours, both levels pooled (geomean over the type's kernels at "
      "both levels, thesis typing): PA over RR on type A %s, PA over GTO on type B %s.\n" % (
          pct(geomean([get(ab, "lrr")["cycles"] / get(ab, "pa")["cycles"] for ab in ours
                       if in_headline.get(ab) and next(t for t in thesis if t["abbrev"] == ab)["type_single"] == "A"] +
                      [get(ab, "tl-rr")["cycles"] / get(ab, "pa-tl")["cycles"] for ab in ours
                       if in_headline.get(ab) and next(t for t in thesis if t["abbrev"] == ab)["type_two"] == "A"])),
          pct(geomean([get(ab, "gto")["cycles"] / get(ab, "pa")["cycles"] for ab in ours
                       if in_headline.get(ab) and next(t for t in thesis if t["abbrev"] == ab)["type_single"] == "B"] +
                      [get(ab, "tl-gto")["cycles"] / get(ab, "pa-tl")["cycles"] for ab in ours
                       if in_headline.get(ab) and next(t for t in thesis if t["abbrev"] == ab)["type_two"] == "B"]))))
    # ------------------------------------------------------ within 2%
    w("## Is phase-aware within 2% of the better policy?\n")
    w("| level | pa policy | within 2% of the better of GTO and RR | kernels outside (pa / better) |")
    w("|---|---|---|---|")
    for level, pa, a_, b_ in (("single", "pa", "lrr", "gto"), ("two", "pa-tl", "tl-rr", "tl-gto")):
        ks = [ab for ab in ours if in_headline.get(ab)]
        inside, outside = 0, []
        for ab in ks:
            best = min(get(ab, a_)["cycles"], get(ab, b_)["cycles"])
            r = get(ab, pa)["cycles"] / best
            if r <= 1.02:
                inside += 1
            else:
                outside.append("%s %s" % (ab, pct(r)))
        w("| %s | %s | %d of %d | %s |" % (level, pa, inside, len(ks), ", ".join(outside) or "-"))
    w("")
    # ------------------------------------------------------ Fig. 3.8
    w("## Scheduler idle time (Fig. 3.8), thesis typing\n")
    w("Idle issue slots (1 no warp, 2 operands not ready, 3 pipeline stall) over all issue "
      "slots, averaged over the type's kernels, relative to RR at the same level (the "
      "thesis averages per kernel and normalises to RR).  Sampled runs count the detailed "
      "part of each launch.\n")
    w("| level | type | policy | idle fraction | vs RR | thesis |")
    w("|---|---|---|---:|---:|---:|")
    for level, idx, pols in (("single", 0, SINGLE), ("two", 1, TWO)):
        col = "type_single" if idx == 0 else "type_two"
        for ty in ("A", "B"):
            ks = [t["abbrev"] for t in thesis if t[col] == ty and t["abbrev"] in ours
                  and in_headline.get(t["abbrev"])]
            if not ks:
                continue
            frac = {p: sum((get(ab, p)["slots"] - get(ab, p)["issued"]) / get(ab, p)["slots"]
                           for ab in ks) / len(ks) for p in pols}
            for p in pols:
                th = PAPER_IDLE.get((level, ty), {}).get(p, "n/a")
                ths = "-" if p == pols[0] else ("about equal" if th is None else "%+.1f%%" % th)
                w("| %s | %s | %s | %.3f | %s | %s |" % (level, ty, p, frac[p],
                                                        pct(frac[p] / frac[pols[0]]) if p != pols[0] else "-", ths))
    w("")
    # ------------------------------------------------------ mechanism
    w("## Mechanism per kernel and policy (method section 4)\n")
    w("Per thesis kernel and policy: idle share of issue slots and its split (no warp / "
      "operands not ready / pipeline stall), L1 hit rate, DRAM row-buffer hit rate, "
      "warp-cycles at a barrier (share of resident warp-cycles), ALU and memory "
      "instructions in flight per SM (mean over the simulated cycles; a sampled launch counts its "
      "detailed part).  The thesis's explanation (section 3.5.2): type A "
      "kernels have short phases where RR makes every warp arrive together and the core idles "
      "(idle falls under GTO); type B kernels have long phases whose memory operations GTO "
      "issues from too few warps (memory load falls under GTO).\n")
    w("| thesis kernel | policy | idle | no warp / operands / pipeline | L1 hit | DRAM row hit | at barrier | ALU in flight | mem in flight |")
    w("|---|---|---:|---|---:|---:|---:|---:|---:|")
    for t in thesis:
        if t["abbrev"] not in ours:
            continue
        for p in POLICIES + ["pa/length"]:
            a = get(t["abbrev"], p)
            if not a:
                continue
            idle = a["slots"] - a["issued"]
            w("| %s | %s | %.3f | %.0f / %.0f / %.0f %% | %s | %s | %.2f | %.2f | %.2f |" % (
                t["abbrev"], p, idle / a["slots"] if a["slots"] else 0,
                100.0 * a["no_warp"] / idle if idle else 0, 100.0 * a["scoreboard"] / idle if idle else 0,
                100.0 * a["pipeline"] / idle if idle else 0, rate(a["l1h"], a["l1m"]),
                rate(a["rowh"], a["rowm"]), a["barrier"] / a["warp_cycles"] if a["warp_cycles"] else 0,
                a["alu_avg"] / a["mem_cycles"] if a["mem_cycles"] else 0,
                a["mem_avg"] / a["mem_cycles"] if a["mem_cycles"] else 0))
    w("")
    with open(page, "w") as f:
        f.write("\n".join(out) + "\n")
    # headline rows: replace ours, keep the others, sorted by id
    with open(headlines) as f:
        lines = f.read().splitlines()
    head, body = lines[0], [l for l in lines[1:] if l and l.split(",")[0] not in
                            {h[0] for h in HEADLINES}]
    body = sorted(body + rows, key=lambda l: l.split(",")[0])
    with open(headlines, "w") as f:
        f.write("\n".join([head] + body) + "\n")
    print("wrote %s and %d rows of %s" % (page, len(rows), headlines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
