#!/usr/bin/env python3
"""experiments/icc-analysis.py RESULTS — writes on stdout (scripts/experiments.sh icc
appends it to the page, then docs/experiments/icc/notes.md) the ICC seed's figures, each normalised
the way the seed normalises it (Fig. 7 to 2-level RR, Figs. 10-13 to
distributed, Figs. 14-15 to distributed on the same cluster grouping), the
seed's numbers beside ours.  Reads RESULTS/results.jsonl and the [variants] of
experiments/icc.ini, so the tables follow the experiment file."""
import configparser, json, math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import headline_rows  # noqa: E402  (scripts/headline_rows.py)

HERE = os.path.dirname(os.path.abspath(__file__))


def variants():
    """name -> sweep variant label ("icc60 cta.policy=... icc.mode=...")."""
    cp = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    cp.optionxform = str
    cp.read(os.path.join(HERE, "icc.ini"))
    out = {}
    for name, value in cp["variants"].items():
        toks = value.split()
        cfg = [t[7:] for t in toks if t.startswith("config=")][0]
        out[name] = " ".join([cfg] + [t for t in toks if not t.startswith("config=")])
    return out


def load(results):
    vs = variants()
    by_label = {lab: name for name, lab in vs.items()}
    res, benches = {}, []
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r.get("mode") != "timing" or r["variant"] not in by_label:
                continue
            if r["benchmark"] not in benches:
                benches.append(r["benchmark"])
            if r.get("status") != "ok" or not r.get("stats"):
                continue
            t = r["stats"]["total"]
            m, e = t["memory"], t["energy"]
            res[(r["benchmark"], by_label[r["variant"]])] = {
                "cycles": t["cycles"], "noc_reads": m["noc_read_requests"],
                "coverage": m["icc_coverage"], "cc_hits": m["icc_cache_hits"],
                "locality": m["cluster_locality"], "l1_hit_rate": m["l1_hit_rate"],
                "energy": e["energy_j"], "edp": e["edp_js"], "noc_share": e["noc_share"],
                "noc_j": e["noc_j"], "l2_j": e["l2_j"],
                "dram_row_hit_rate": m["dram_row_hit_rate"], "amat": m["amat"]}
    return res, benches


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else float("nan")


def get(res, b, v, k):
    r = res.get((b, v))
    return r[k] if r else None


def ratio(res, b, v, base, k, invert):
    x, y = get(res, b, v, k), get(res, b, base, k)
    if not x or not y:
        return None
    return y / x if invert else x / y


def fmt(x, f="{:.3f}"):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f.format(x)


def table(res, benches, cols, title, cell, summary="geomean", heads=None):
    """cell(bench, col) -> number or None; summary: geomean or mean."""
    agg = gmean if summary == "geomean" else mean
    out = [f"**{title}**", "", "| benchmark | " + " | ".join(heads or cols) + " |",
           "|---|" + "---:|" * len(cols)]
    per = {c: [] for c in cols}
    for b in benches:
        row = []
        for c in cols:
            x = cell(b, c)
            per[c].append(x)
            row.append(fmt(x))
        out.append(f"| {b} | " + " | ".join(row) + " |")
    out.append(f"| **{summary}** | " + " | ".join(fmt(agg(per[c])) for c in cols) + " |")
    return "\n".join(out) + "\n\n", {c: agg(per[c]) for c in cols}


def pct(x, invert=False):
    """A ratio as a signed percentage change."""
    if x is None or math.isnan(x):
        return "–"
    return f"{(x - 1) * 100:+.1f}%"


def main():
    results = sys.argv[1]
    res, listed = load(results)
    benches = [b for b in listed if all((b, v) in res for v in variants())]
    missing = [b for b in listed if b not in benches]
    o = ["## The seed's figures\n",
         "Written by `experiments/icc-analysis.py` from the same results.  Speed-up is cycles of "
         "the reference / cycles (one kernel sequence per run, so the IPC ratio); energy, EDP and "
         "NoC reads are ratios to the reference (below 1 is better).  Locality is "
         "`total.memory.cluster_locality`: the share of a cluster's outgoing reads whose line the "
         "cluster requested in the previous 2,000 cycles (Figs. 3 and 8); coverage is "
         "`total.memory.icc_coverage` = merge-table hits / L1 misses (§6.2); NoC share is "
         "`total.energy.noc_share` (NoC energy / total energy).\n"]
    fig7 = ["2lrr", "grr", "greedy", "bcs", "D"]
    fig10 = ["D", "DB", "D+ICC", "DB+ICC", "DB+ICC+CC"]
    t7, g7 = table(res, benches, fig7, "Fig. 7: speed-up over 2lrr (ICC off)",
                   lambda b, c: ratio(res, b, c, "2lrr", "cycles", True))
    t8, g8 = table(res, benches, fig7, "Fig. 8: intra-cluster locality (ICC off)",
                   lambda b, c: get(res, b, c, "locality"), "mean")
    t10, g10 = table(res, benches, fig10, "Fig. 10: speed-up over distributed",
                     lambda b, c: ratio(res, b, c, "D", "cycles", True))
    t11, g11 = table(res, benches, fig10, "Fig. 11: energy, normalised to distributed",
                     lambda b, c: ratio(res, b, c, "D", "energy", False))
    t12, g12 = table(res, benches, fig10, "Fig. 12: energy-delay product, normalised to distributed",
                     lambda b, c: ratio(res, b, c, "D", "edp", False))
    t13, g13 = table(res, benches, fig10, "Fig. 13: NoC read requests, normalised to distributed",
                     lambda b, c: ratio(res, b, c, "D", "noc_reads", False))
    tn, gn = table(res, benches, fig10, "NoC share of the energy",
                   lambda b, c: get(res, b, c, "noc_share"), "mean")
    tnj, gnj = table(res, benches, fig10, "NoC energy, normalised to distributed",
                     lambda b, c: ratio(res, b, c, "D", "noc_j", False))
    tl2, gl2 = table(res, benches, fig10, "L2 energy, normalised to distributed",
                     lambda b, c: ratio(res, b, c, "D", "l2_j", False))
    tc, gc = table(res, benches, ["D+ICC", "DB+ICC", "DB+ICC+CC"],
                   "Merge-table coverage (merges / L1 misses)",
                   lambda b, c: get(res, b, c, "coverage"), "mean")
    groups = [("6x10", "6x10-"), ("10x6", "10x6-"), ("12x5 (icc60)", ""), ("15x4", "15x4-")]
    cols14, heads14 = [], []
    for g, p in groups:
        for v in ("DB+ICC", "DB+ICC+CC"):
            cols14.append(p + v)
            heads14.append(f"{g} {v}")
    t14, g14 = table(res, benches, cols14,
                     "Figs. 14-15: speed-up over distributed on the same clusters x SMs",
                     lambda b, c: ratio(res, b, c, c.split("DB")[0] + "D", "cycles", True),
                     heads=heads14)
    t14b, g14b = table(res, benches, [p + "D" for g, p in groups if p],
                       "Distributed on each grouping, speed-up over distributed on icc60 (12x5)",
                       lambda b, c: ratio(res, b, c, "D", "cycles", True),
                       heads=[g for g, p in groups if p])

    def noc_all(name):
        return mean([get(res, b, name, "noc_share") for b in benches])

    if missing:
        o.append(f"Not run (or not with every variant) in this regeneration, see the job "
                 f"count at the top: "
                 f"{', '.join(missing)}; the tables below cover {', '.join(benches)}.\n")
    o.append("### Seed versus measured (geomean over the benchmarks below)\n")
    o.append("| figure | seed | measured |\n|---|---|---|")
    o.append(f"| Fig. 7: distributed vs 2lrr | +6% (FDTD +35%, SRAD −11%, BP −4%) | "
             f"{pct(g7['D'])} (grr {pct(g7['grr'])}, greedy {pct(g7['greedy'])}, "
             f"bcs {pct(g7['bcs'])}) |")
    o.append(f"| Fig. 8: locality under distributed | 19.5%, highest | {g8['D'] * 100:.1f}% "
             f"(2lrr {g8['2lrr'] * 100:.1f}%, grr {g8['grr'] * 100:.1f}%, greedy "
             f"{g8['greedy'] * 100:.1f}%, bcs {g8['bcs'] * 100:.1f}%) |")
    o.append(f"| Fig. 10: DB / D+ICC / DB+ICC / DB+ICC+CC vs D | +4% / +10% / +10% / +15% | "
             f"{pct(g10['DB'])} / {pct(g10['D+ICC'])} / {pct(g10['DB+ICC'])} / "
             f"{pct(g10['DB+ICC+CC'])} |")
    o.append(f"| Fig. 11: energy, DB / DB+ICC / DB+ICC+CC | −1.2% / −4% / −6% | "
             f"{pct(g11['DB'])} / {pct(g11['DB+ICC'])} / {pct(g11['DB+ICC+CC'])} |")
    o.append(f"| Fig. 11: NoC share of energy (D) | 25% | {noc_all('D') * 100:.2f}% |")
    o.append(f"| Fig. 11: NoC energy / L2 energy, DB+ICC+CC | −16% / −10% | "
             f"{pct(gnj['DB+ICC+CC'])} / {pct(gl2['DB+ICC+CC'])} |")
    o.append(f"| Fig. 12: EDP, DB / DB+ICC / DB+ICC+CC | −5% / −13% / −19% | "
             f"{pct(g12['DB'])} / {pct(g12['DB+ICC'])} / {pct(g12['DB+ICC+CC'])} |")
    o.append(f"| Fig. 13: NoC reads, DB / DB+ICC / DB+ICC+CC | −7% / −15% / −20% | "
             f"{pct(g13['DB'])} / {pct(g13['DB+ICC'])} / {pct(g13['DB+ICC+CC'])} "
             f"(D+ICC {pct(g13['D+ICC'])}) |")
    o.append(f"| Merge-table coverage (48 entries) | 12% | D+ICC {gc['D+ICC'] * 100:.1f}%, "
             f"DB+ICC {gc['DB+ICC'] * 100:.1f}% |")
    o.append(f"| Fig. 14: 15 clusters (15x4), DB+ICC+CC vs D | +16% | "
             f"{pct(g14['15x4-DB+ICC+CC'])} (DB+ICC {pct(g14['15x4-DB+ICC'])}) |")
    o.append(f"| Fig. 15: 10 clusters (10x6), DB+ICC / DB+ICC+CC vs D | +14% / +18% | "
             f"{pct(g14['10x6-DB+ICC'])} / {pct(g14['10x6-DB+ICC+CC'])} |")
    o.append(f"| 6 clusters (6x10, NoC at 1.9 GHz), DB+ICC / DB+ICC+CC vs D | (in Figs. 14-15) | "
             f"{pct(g14['6x10-DB+ICC'])} / {pct(g14['6x10-DB+ICC+CC'])} |")
    o.append("")
    o.append("### Per benchmark\n")
    for t in (t7, t8, t10, t11, t12, t13, tn, tnj, tl2, tc, t14, t14b):
        o.append(t)
    raw = ["**Raw figures (icc60)**", "",
           "| benchmark | variant | cycles | NoC reads | coverage | CC hits | locality | "
           "L1 hit rate | DRAM row hits | AMAT | energy (mJ) | NoC share |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for b in benches:
        for v in fig7 + fig10[1:]:
            r = res.get((b, v))
            if not r:
                raw.append(f"| {b} | {v} | not run | | | | | | | | | |")
                continue
            raw.append(f"| {b} | {v} | {r['cycles']} | {r['noc_reads']} | "
                       f"{r['coverage']:.3f} | {r['cc_hits']} | {r['locality']:.3f} | "
                       f"{r['l1_hit_rate']:.3f} | {r['dram_row_hit_rate']:.3f} | "
                       f"{r['amat']:.0f} | {r['energy'] * 1e3:.3f} | {r['noc_share']:.4f} |")
    o.append("\n".join(raw) + "\n")
    sys.stdout.write("\n" + "\n".join(o))
    write_headlines(len(benches), {
        "distributed_vs_2lrr": (6.0, g7.get("D"), "higher"),
        "distblock_vs_distributed": (4.0, g10.get("DB"), "higher"),
        "icc_perf": (10.0, g10.get("DB+ICC"), "higher"),
        "icc_cc_perf": (15.0, g10.get("DB+ICC+CC"), "higher"),
        "icc_noc_reads": (-20.0, g13.get("DB+ICC+CC"), "lower"),
    })


def write_headlines(nbench, rows):
    """This page's rows of docs/experiments/headlines.csv (EXPERIMENT-METHOD.md
    section 5): speed-ups over icc60 geomeans as signed percent changes (DB+ICC
    for icc_perf, DB+ICC+CC for icc_cc_perf and the NoC reads); the seed gives
    no inputs but LUD's grid, so the scale is `reduced` (size small; the
    notes' table gives waves per SM).  Other pages' rows are kept."""
    root = os.path.dirname(HERE)
    # the commit the numbers were made on; `-dirty` when a source (not the
    # pages this regeneration is writing) differs from it
    commit = headline_rows.made_on(root)
    new = []
    for hid, (paper, ratio, better) in rows.items():
        ours = "" if ratio is None else "%.1f" % ((ratio - 1.0) * 100.0)
        new.append([hid, "%.1f" % paper, ours, "pct", better, "reduced", str(nbench), "11",
                    commit, "docs/experiments/icc.md"])
    headline_rows.write(root, new)


if __name__ == "__main__":
    main()
