#!/usr/bin/env python3
"""experiments/laperm-analysis.py RESULTS — writes on stdout (scripts/experiments.sh
laperm appends it to the page, then docs/experiments/laperm/notes.md) the LaPerm
seed's comparison: per launch mode (cdp, dtbl), every benchmark's IPC normalised
to RR in the same mode, L1 and L2 hit rates, and two measured reasons for IPC
differences: SM load imbalance (the busiest SM's warp instructions over the mean
SM's, over every kernel of the run) and the share of SM cycles with no warp.
Then the seed's averages beside ours, the parent grids' waves, the child-wait
distribution, the parent-child SM co-location rate and the reuse distance of
child reads (the mechanism measurements of EXPERIMENT-METHOD.md section 4), and
this page's rows of docs/experiments/headlines.csv.  Reads
RESULTS/results.jsonl."""
import json, math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import headline_rows  # noqa: E402  (scripts/headline_rows.py)

HERE = os.path.dirname(os.path.abspath(__file__))
# rows of the seed's Table II (16 benchmark-input pairs), every one written
IN_PAPER = 16

POLICIES = ["rr", "laperm-tbpri", "laperm-smxbind", "laperm-adaptive"]
SHORT = {"rr": "RR", "laperm-tbpri": "TB-Pri", "laperm-smxbind": "SMX-Bind",
         "laperm-adaptive": "Adaptive"}
MODES = ["cdp", "dtbl"]
# the seed's averages over RR (SEED-TARGETS.md §6, Results); None: not given
SEED = {
    ("ipc", "laperm-tbpri"): (4.0, 13.0),
    ("l2", "laperm-tbpri"): (6.7, 8.7),
    ("l1", "laperm-tbpri"): (1.1, 2.1),
    ("l1", "laperm-smxbind"): (6.6, 13.6),
    ("ipc", "laperm-adaptive"): (6.0, 27.0),
}


def overrides(variant):
    return dict(t.split("=", 1) for t in variant.split() if "=" in t)


def load(results):
    res, benches = {}, []
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r.get("mode") != "timing":
                continue
            o = overrides(r["variant"])
            mode, pol = o.get("cdp.mode"), o.get("cta.policy")
            if mode not in MODES or pol not in POLICIES:
                continue
            if r["benchmark"] not in benches:
                benches.append(r["benchmark"])
            if r.get("status") != "ok" or not r.get("stats"):
                continue
            s = r["stats"]
            t = s["total"]
            per_sm, busy, slots = {}, 0, 0
            for k in s.get("kernels", []):
                for c in k.get("cores", []):
                    per_sm[c["sm"]] = per_sm.get(c["sm"], 0) + c["warp_instructions"]
                    busy += c.get("idle_no_warp", 0)
                    slots += c.get("issue_slots", 0)
            same = wait = kids = 0
            shared, waits = [], []
            reads = {"reads": 0, "reads_cold": 0, "reads_within_l1": 0, "reads_within_l2": 0}
            host = [k for k in s.get("kernels", []) if not any(
                tb.get("depth", 0) for tb in k.get("tbs", [])[:1])]
            waves = max((k["grid"][0] * k["grid"][1] * k["grid"][2] /
                         (s["gpu"]["num_sms"] * k["occupancy"]["ctas_per_sm"])
                         for k in host if isinstance(k.get("grid"), list)
                         and isinstance(k.get("occupancy"), dict)
                         and k["occupancy"].get("ctas_per_sm")), default=float("nan"))
            fig2 = fig2_measures(s)
            for k in s.get("kernels", []):
                for tb in k.get("tbs", []):
                    if tb.get("depth", 0) > 0 and "parent_sm" in tb:
                        kids += 1
                        same += tb["sm"] == tb["parent_sm"]
                        wait += tb["issue_cycle"] - tb["launch_cycle"]
                        waits.append(tb["issue_cycle"] - tb["launch_cycle"])
                        for key in reads:
                            reads[key] += tb.get(key, 0)
                        if "shared_with_parent" in tb:
                            shared.append(tb["shared_with_parent"])
            vals = list(per_sm.values())
            imb = max(vals) / (sum(vals) / len(vals)) if vals and sum(vals) else float("nan")
            res[(r["benchmark"], mode, pol)] = {
                "ipc": t["ipc"], "cycles": t["cycles"],
                "l1": t["memory"]["l1_hit_rate"], "l2": t["memory"]["l2_hit_rate"],
                "kernels": t.get("kernels", len(s.get("kernels", []))),
                "imbalance": imb, "no_warp": busy / slots if slots else float("nan"),
                "same_sm": same / kids if kids else float("nan"),
                "wait": wait / kids if kids else float("nan"), "kids": kids,
                "shared": mean(shared), "fig2": fig2, "waits": sorted(waits),
                "reads": reads, "waves": waves}
    return res, benches


def fig2_measures(stats):
    """The seed's three Fig. 2 ratios from one run's per-TB statistics
    (docs/cdp.md): parent-child pc/c averaged over the TBs that launched,
    child-sibling cos/cs over the child TBs with siblings, among parents
    over the host-launched TBs of grids that launched."""
    pc, cs, ap = [], [], []
    for k in stats.get("kernels", []):
        for tb in k.get("tbs", []):
            if "children_shared" in tb:
                pc.append(tb["children_shared"])
            if "shared_with_siblings" in tb:
                cs.append(tb["shared_with_siblings"])
            if tb.get("depth", 0) == 0 and "shared_with_grid" in tb:
                ap.append(tb["shared_with_grid"])
    return {"parent_child": mean(pc), "child_sibling": mean(cs), "among_parents": mean(ap)}


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def mean(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return sum(xs) / len(xs) if xs else float("nan")


def fmt(x, spec):
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: laperm-analysis.py RESULTS")
    res, benches = load(sys.argv[1])
    print("\n## LaPerm: each launch mode normalised to its own RR\n")
    print("IPC is total warp instructions per core cycle over the whole run (every host")
    print("launch with its device launches); L1/L2 are hit rates over the run;")
    print("*imbalance* is the busiest SM's warp instructions over the mean SM's;")
    print("*no warp* is the share of issue slots of SMs that had no warp at all;")
    print("*on parent's SM* is the share of device-launched TBs that ran on the SM of")
    print("the TB that launched them; *child wait* is their mean cycles from the launch")
    print("instruction to their issue (per-TB statistics, docs/cdp.md).\n")
    summary = {}
    for mode in MODES:
        print(f"### {mode}\n")
        head = ["benchmark", "RR IPC"] + [f"{SHORT[p]} IPC/RR" for p in POLICIES[1:]]
        head += [f"L1 {SHORT[p]}" for p in POLICIES] + [f"L2 {SHORT[p]}" for p in POLICIES]
        head += [f"imbalance {SHORT[p]}" for p in POLICIES] + [f"no warp {SHORT[p]}" for p in POLICIES]
        head += [f"on parent's SM {SHORT[p]}" for p in POLICIES]
        head += [f"child wait {SHORT[p]}" for p in POLICIES]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        cols = {p: {"ratio": [], "l1": [], "l2": []} for p in POLICIES}
        for b in benches:
            base = res.get((b, mode, "rr"))
            row = [b, fmt(base["ipc"], ".3f") if base else "failed"]
            for p in POLICIES[1:]:
                v = res.get((b, mode, p))
                ratio = v["ipc"] / base["ipc"] if v and base and base["ipc"] else None
                row.append(fmt(ratio, ".3f") if v else "failed")
                cols[p]["ratio"].append(ratio)
            for key in ("l1", "l2"):
                for p in POLICIES:
                    v = res.get((b, mode, p))
                    row.append(fmt(v[key], ".3f") if v else "—")
                    if v and base:
                        cols[p][key].append(v[key])
            for key in ("imbalance", "no_warp", "same_sm", "wait"):
                for p in POLICIES:
                    v = res.get((b, mode, p))
                    row.append(fmt(v[key], ".0f" if key == "wait" else ".2f") if v else "—")
                    if v:
                        cols[p].setdefault(key, []).append(v[key])
            print("| " + " | ".join(row) + " |")
        g = ["**geomean / mean**", ""]
        g += [fmt(gmean(cols[p]["ratio"]), ".3f") for p in POLICIES[1:]]
        g += [fmt(mean(cols[p]["l1"]), ".3f") for p in POLICIES]
        g += [fmt(mean(cols[p]["l2"]), ".3f") for p in POLICIES]
        for key in ("imbalance", "no_warp", "same_sm", "wait"):
            g += [fmt(mean(cols[p].get(key, [])), ".0f" if key == "wait" else ".2f")
                  for p in POLICIES]
        print("| " + " | ".join(g) + " |\n")
        summary[mode] = cols

    print("### Beside the seed\n")
    print("IPC: geomean of IPC/RR over the benchmarks, as a change in percent.  Hit rates:")
    print("the change of the mean hit rate over RR's in percentage points (the seed's")
    print("\"+6.7% L2 hit rate\" does not say whether it is points or relative; points are")
    print("shown).  SMX-Bind and Adaptive L1 are also given against each other as the seed does.\n")
    print("| quantity | seed CDP | ours CDP | seed DTBL | ours DTBL |")
    print("|---|---|---|---|---|")

    def ours(kind, pol, mode, ref="rr"):
        c = summary[mode]
        if kind == "ipc":
            return 100 * (gmean(c[pol]["ratio"]) - 1)
        return 100 * (mean(c[pol][kind]) - mean(c[ref][kind]))

    rows = [("TB-Pri IPC", "ipc", "laperm-tbpri"), ("TB-Pri L2 hit rate", "l2", "laperm-tbpri"),
            ("TB-Pri L1 hit rate", "l1", "laperm-tbpri"), ("SMX-Bind L1 hit rate", "l1", "laperm-smxbind"),
            ("SMX-Bind IPC", "ipc", "laperm-smxbind"), ("Adaptive-Bind IPC", "ipc", "laperm-adaptive"),
            ("Adaptive-Bind L1 hit rate", "l1", "laperm-adaptive")]
    for name, kind, pol in rows:
        seed = SEED.get((kind, pol))
        unit = "%" if kind == "ipc" else " pt"
        s_cdp = f"{seed[0]:+.1f}%" if seed else "—"
        s_dtbl = f"{seed[1]:+.1f}%" if seed else "—"
        if (kind, pol) == ("ipc", "laperm-smxbind"):
            s_cdp, s_dtbl = "9% below TB-Pri", "5% below TB-Pri"
        if (kind, pol) == ("l1", "laperm-adaptive"):
            s_cdp, s_dtbl = "2.3% below SMX-Bind", "3.1% below SMX-Bind"
        o = [fmt(ours(kind, pol, m), "+.1f") + unit for m in MODES]
        if (kind, pol) == ("l1", "laperm-adaptive"):
            o = [f"{o[i]} ({fmt(ours(kind, pol, m, 'laperm-smxbind'), '+.1f')} pt vs SMX-Bind)"
                 for i, m in enumerate(MODES)]
        print(f"| {name} | {s_cdp} | {o[0]} | {s_dtbl} | {o[1]} |")
    print()
    for mode in MODES:
        r = gmean(summary[mode]["laperm-adaptive"]["ratio"])
        seed_dir = "above"
        ours_dir = "above" if r > 1 else "below" if r < 1 else "equal to"
        print(f"Adaptive-Bind over RR ({mode}): the seed is {seed_dir} RR; ours is "
              f"{ours_dir} RR ({fmt(100 * (r - 1), '+.1f')}%).  " +
              ("Same direction." if ours_dir == seed_dir else
               "The direction differs: see the measured reasons in the notes below."))
    print()

    print("### Parent-child shared footprint (the seed's Fig. 2)\n")
    print("Ours: per device-launched TB, the share of the 128-byte global-memory lines it")
    print("touched that its direct parent TB touched too (`shared_with_parent`,")
    print("docs/cdp.md), averaged over the benchmark's child TBs, in the RR runs (the")
    print("lines a TB touches hardly depend on the launch mode or the TB scheduler: the")
    print("cdp and dtbl columns differ only for cdp-bht).  The seed's Fig. 2 takes,")
    print("per direct parent, the lines shared with the union of all its children's lines")
    print("over that union (pc/c) and reports the average over its benchmarks, 38.4%")
    print("(child-sibling 30.5%, among parents 9.3%, not measured here); the two measures")
    print("agree when sibling TBs touch disjoint lines.  Per-benchmark values of Fig. 2")
    print("are not in the seed's text, only the average.\n")
    print("| benchmark | child TBs (cdp) | shared with parent, cdp | shared with parent, dtbl |")
    print("|---|---|---|---|")
    avg = {m: [] for m in MODES}
    for b in benches:
        row = [b]
        v = res.get((b, "cdp", "rr"))
        row.append(str(v["kids"]) if v else "—")
        for m in MODES:
            v = res.get((b, m, "rr"))
            x = v["shared"] if v else None
            row.append(fmt(None if x is None else 100 * x, ".1f") + ("%" if x is not None and not math.isnan(x) else ""))
            if x is not None:
                avg[m].append(x)
        print("| " + " | ".join(row) + " |")
    print("| **mean over benchmarks** | | " +
          " | ".join(fmt(100 * mean(avg[m]), ".1f") + "%" for m in MODES) + " |")
    print("| seed (Fig. 2, average) | | 38.4% | 38.4% |")
    print()
    print("Fig. 2's three measures as the seed defines them (docs/cdp.md: `children_shared`")
    print("= pc/c per parent TB, `shared_with_siblings` = cos/cs per child TB,")
    print("`shared_with_grid` per host-launched TB of a launching grid, the seed's")
    print("undefined \"among parents\"), dtbl RR runs:\n")
    print("| benchmark | parent-child (pc/c) | child-sibling (cos/cs) | among parents |")
    print("|---|---|---|---|")
    cols = ("parent_child", "child_sibling", "among_parents")
    sums = {c: [] for c in cols}
    for b in benches:
        v = res.get((b, "dtbl", "rr"))
        f = v["fig2"] if v else {}
        for c in cols:
            if f.get(c) is not None and not math.isnan(f[c]):
                sums[c].append(f[c])
        print(f"| {b} | " + " | ".join(fmt(100 * f[c], ".1f") + "%" if f.get(c) is not None
                                       and not math.isnan(f[c]) else "—" for c in cols) + " |")
    print("| **mean over benchmarks** | " +
          " | ".join(fmt(100 * mean(sums[c]), ".1f") + "%" for c in cols) + " |")
    print("| seed (Fig. 2, average) | 38.4% | 30.5% | 9.3% |")
    print()
    mechanism(res, benches)
    write_headlines(res, benches, summary)


# the seed's inputs (Table II) and the waves of their parent grids on its K20c
# (64-thread parent TBs, TB slots bind: 13 SMXs x 16 TBs = 208 per wave)
PAPER_INPUT = {
    "citation": ("citationCiteseer, 268,495 vertices", 268495),
    "graph500": ("graph500 logn20, 2^20 vertices", 1 << 20),
    "cage": ("cage15, 5,154,859 vertices", 5154859),
}


def paper_waves(b):
    for key, (name, n) in PAPER_INPUT.items():
        if b.endswith(key) and (b.startswith("cdp-bfs") or b.startswith("cdp-sssp")
                                or b.startswith("cdp-clr")):
            return name, "%.1f" % (math.ceil(n / 64) / 208)
    if b == "cdp-pre":
        return "MovieLens (100K: 943 users)", "%.2f" % (math.ceil(943 / 64) / 208)
    return "not given", "—"


def pct(xs, q):
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def mechanism(res, benches):
    print("### Parent grids: waves per SM, the seed's inputs and ours\n")
    print("Waves = TBs of the largest host-launched grid / (13 SMXs x TBs per SMX at")
    print("its occupancy); the seed's from its inputs' sizes with our kernels' 64-thread")
    print("parent TBs (16 per SMX: TB slots bind).\n")
    print("| benchmark | seed input | seed waves | ours waves (small) |")
    print("|---|---|---|---|")
    for b in benches:
        name, w = paper_waves(b)
        v = res.get((b, "dtbl", "rr"))
        print(f"| {b} | {name} | {w} | {fmt(v['waves'] if v else None, '.2f')} |")
    print()
    print("### Child wait: cycles from the launching instruction to the child TB's issue\n")
    print("Median / 90th percentile over the benchmark's child TBs.  The launch path alone")
    print("is 137 cycles in dtbl (128 + 137 = 265 for a LaPerm group that overflows to")
    print("memory) and 21,700 + 1,700 per further launch of the same warp instruction in")
    print("cdp (+ L = 4 KMU search cycles under LaPerm); the rest is queueing for a TB slot.\n")
    for mode in MODES:
        print(f"#### {mode}\n")
        print("| benchmark | " + " | ".join(SHORT[p] for p in POLICIES) + " |")
        print("|---|" + "---|" * len(POLICIES))
        for b in benches:
            row = [b]
            for p in POLICIES:
                v = res.get((b, mode, p))
                w = v["waits"] if v else []
                row.append(f"{pct(w, 0.5):.0f} / {pct(w, 0.9):.0f}" if w else "—")
            print("| " + " | ".join(row) + " |")
        print()
    print("### Reuse distance of child reads\n")
    print("Per child TB read (one per 128-byte line a warp instruction reads), the line")
    print("accesses GPU-wide since that line's previous access by any TB (docs/cdp.md):")
    print("*within L2* is the share at most the L2's 12,288 lines away (such a read hits a")
    print("fully associative LRU L2), *within L1* at most the L1's 256 lines, *cold* the")
    print("share of lines never accessed before.  Summed over the run's child TBs.\n")
    for mode in MODES:
        print(f"#### {mode}\n")
        head = ["benchmark", "child reads (RR)"]
        head += [f"within L2 {SHORT[p]}" for p in POLICIES]
        head += [f"within L1 {SHORT[p]}" for p in POLICIES] + ["cold (RR)"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        acc = {p: {"l2": [], "l1": []} for p in POLICIES}
        for b in benches:
            base = res.get((b, mode, "rr"))
            row = [b, str(base["reads"]["reads"]) if base else "—"]
            for key, field in (("l2", "reads_within_l2"), ("l1", "reads_within_l1")):
                for p in POLICIES:
                    v = res.get((b, mode, p))
                    n = v["reads"]["reads"] if v else 0
                    x = v["reads"][field] / n if n else None
                    row.append(fmt(None if x is None else 100 * x, ".1f") +
                               ("%" if x is not None else ""))
                    if x is not None:
                        acc[p][key].append(x)
            n = base["reads"]["reads"] if base else 0
            row.append(fmt(100 * base["reads"]["reads_cold"] / n, ".1f") + "%" if n else "—")
            print("| " + " | ".join(row) + " |")
        print("| **mean** | | " + " | ".join(fmt(100 * mean(acc[p][k]), ".1f") + "%"
                                         for k in ("l2", "l1") for p in POLICIES) + " | |")
        print()


def write_headlines(res, benches, summary):
    """This page's rows of docs/experiments/headlines.csv (EXPERIMENT-METHOD.md
    section 5): the geomean of IPC/RR over the benchmarks run, as a signed
    percent change; scale `reduced` (size small, waves in the page's table).
    Other pages' rows are kept."""
    rows = {"laperm_adaptive_dtbl": (27.0, "dtbl", "laperm-adaptive"),
            "laperm_adaptive_cdp": (6.0, "cdp", "laperm-adaptive"),
            "laperm_tbpri_dtbl": (13.0, "dtbl", "laperm-tbpri")}
    root = os.path.dirname(HERE)
    # the commit the numbers were made on; `-dirty` when a source (not the
    # pages this regeneration is writing) differs from it
    commit = headline_rows.made_on(root)
    new = []
    for hid, (paper, mode, pol) in rows.items():
        ratios = [x for x in summary[mode][pol]["ratio"] if x is not None]
        g = gmean(ratios)
        ours = "" if math.isnan(g) else "%.1f" % ((g - 1.0) * 100.0)
        new.append([hid, "%.1f" % paper, ours, "pct", "higher", "reduced", str(len(ratios)),
                    str(IN_PAPER), commit, "docs/experiments/laperm.md"])
    headline_rows.write(root, new)


if __name__ == "__main__":
    main()
