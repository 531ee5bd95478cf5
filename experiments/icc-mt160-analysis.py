#!/usr/bin/env python3
"""experiments/icc-mt160-analysis.py RESULTS — the merge-table size table of
experiments/icc-mt160.ini (issue 36): coverage (`total.memory.icc_coverage` =
merge-table hits / L1 misses, the seed's §6.2 measure), NoC read requests and
cycles at 48 and 160 entries, under distributed (D+ICC) and
distributed-block (DB+ICC), the seed's 12% / 14.5% beside the means.
Markdown on stdout (scripts/experiments.sh icc-mt160 appends it)."""
import configparser, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def variants():
    cp = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    cp.optionxform = str
    cp.read(os.path.join(HERE, "icc-mt160.ini"))
    out = {}
    for name, value in cp["variants"].items():
        toks = value.split()
        cfg = [t[7:] for t in toks if t.startswith("config=")][0]
        out[" ".join([cfg] + [t for t in toks if not t.startswith("config=")])] = name
    return out


def main(results):
    by_label = variants()
    res, benches = {}, []
    with open(os.path.join(results, "results.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            name = by_label.get(r.get("variant"))
            if r.get("mode") != "timing" or name is None:
                continue
            if r["benchmark"] not in benches:
                benches.append(r["benchmark"])
            if r.get("status") == "ok" and r.get("stats"):
                t = r["stats"]["total"]
                res[(r["benchmark"], name)] = (t["memory"]["icc_coverage"],
                                               t["memory"]["noc_read_requests"], t["cycles"])
    cols = ["D+ICC", "D+ICC-160", "DB+ICC", "DB+ICC-160"]
    o = ["\n**Merge-table coverage at 48 and 160 entries (merges / L1 misses; §6.2: "
         "160 entries 14.5%, 48 entries 12%)**\n",
         "| benchmark | " + " | ".join(f"{c} coverage" for c in cols)
         + " | D+ICC 160/48 NoC reads | DB+ICC 160/48 NoC reads | D+ICC 160/48 cycles | DB+ICC 160/48 cycles |",
         "|---|" + "---:|" * (len(cols) + 4)]
    sums = {c: [] for c in cols}
    for b in benches:
        row = [b]
        for c in cols:
            v = res.get((b, c))
            row.append(f"{v[0]:.3f}" if v else "–")
            if v:
                sums[c].append(v[0])
        for base, k in (("D+ICC", 1), ("DB+ICC", 1), ("D+ICC", 2), ("DB+ICC", 2)):
            a, z = res.get((b, base + "-160")), res.get((b, base))
            row.append(f"{a[k] / z[k]:.3f}" if a and z and z[k] else "–")
        o.append("| " + " | ".join(row) + " |")
    o.append("| **mean** | " + " | ".join(
        f"{sum(sums[c]) / len(sums[c]):.3f}" if sums[c] else "–" for c in cols) + " | | | | |")
    print("\n".join(o))


if __name__ == "__main__":
    main(sys.argv[1])
