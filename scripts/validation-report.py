#!/usr/bin/env python3
"""Writes docs/validation.md: ptxemu's timing model against the committed
reference figures (docs/validation/*.csv, made by scripts/gpgpusim-reference.py
under GPGPU-Sim), through `ptxemu correlate`, with its scatter plots.

Usage: scripts/validation-report.py [--ptxemu BIN] [--config gtx480]
           [--out docs/validation.md] [REF.csv...]
Default references: every docs/validation/gpgpusim-*.csv.  The page's
hand-written findings come from docs/validation/notes.md (included as is).
The joined tables (reference and ptxemu per launch) are written next to each
reference as joined-NAME.csv; the plots under docs/validation/plots-NAME/."""
import argparse
import csv
import datetime
import glob
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
METRICS = ["cycles", "ipc", "warp_instructions", "l1_hit", "l2_hit", "dram_reads", "dram_writes"]


def run_correlate(ptxemu, ref, config, plots, joined):
    cmd = [ptxemu, "correlate", ref, "--config", config, "--csv", joined, "--plot", plots]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return r.stdout


def summaries(out):
    """{'all'|'first half'|'second half': (title line, {metric: (N, r, mape, geo, notes)})}"""
    res, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^(all|first half|second half): (.*)$", line)
        if m:
            cur = m.group(1)
            res[cur] = (m.group(2), {})
            continue
        if cur and line.startswith("  ") and not line.strip().startswith("metric"):
            f = line.split(None, 5)
            if len(f) >= 5:
                res[cur][1][f[0]] = (f[1], f[2], f[3], f[4], f[5] if len(f) > 5 else "")
        elif cur and not line.startswith("  "):
            cur = None
    return res


def fnum(x, pct=False):
    if x in ("", None):
        return "–"
    v = float(x)
    if pct:
        return f"{100 * v:+.1f}%"
    if abs(v) >= 1000 or v == int(v):
        return f"{v:,.0f}"
    return f"{v:.3f}"


def meets(s, metric="cycles"):
    try:
        n, r, mape = s[1][metric][:3]
        return float(r) >= 0.95 and float(mape) <= 20.0, r, mape
    except (KeyError, ValueError):
        return False, "n/a", "n/a"


def section(name, ref, out, joined, plots_rel):
    lines = []
    meta = [l.rstrip("\n") for l in open(ref) if l.startswith("#")]
    rows = list(csv.DictReader(open(joined)))
    sums = summaries(out)
    lines.append(f"## Reference `{os.path.relpath(ref, SRC)}`\n")
    lines.append("Header of the reference file:\n")
    lines.append("```")
    lines += [m for m in meta if not m.startswith("# skipped")]
    lines.append("```\n")
    skipped = [m[len("# skipped "):] for m in meta if m.startswith("# skipped")]
    benches = sorted({r["benchmark"] for r in rows})
    lines.append(f"{len(rows)} kernel launches of {len(benches)} benchmarks.")
    if skipped:
        lines.append(f" Benchmarks without reference figures ({len(skipped)}): " +
                     "; ".join(f"`{s}`" for s in skipped) + ".")
    lines.append("\n")
    lines.append("### Summary (`ptxemu correlate`)\n")
    lines.append("| set | launches | metric | N | Pearson r | MAPE % | geomean ptx/ref |")
    lines.append("|---|---|---|---:|---:|---:|---:|")
    for key in ("first half", "second half", "all"):
        if key not in sums:
            continue
        title, ms = sums[key]
        for metric in METRICS:
            if metric in ms:
                n, r, mape, geo, _ = ms[metric]
                lines.append(f"| {key} | {title} | {metric} | {n} | {r} | {mape} | {geo} |")
    lines.append("")
    lines.append("Target (issue 29): cycles r ≥ 0.95 and MAPE ≤ 20% on each half.\n")
    for key in ("first half", "second half"):
        if key in sums:
            ok, r, mape = meets(sums[key])
            lines.append(f"- {key}: cycles r = {r}, MAPE = {mape}% — **{'met' if ok else 'not met'}**")
    lines.append("")
    lines.append("### Scatter plots\n")
    for metric in METRICS:
        if os.path.exists(os.path.join(SRC, "docs", plots_rel, metric + ".svg")):
            lines.append(f"![{metric}]({plots_rel}/{metric}.svg)")
    lines.append("")
    # per benchmark: launches summed
    lines.append("### Per benchmark (launches summed; hit rates and IPC over the summed counts)\n")
    lines.append("| half | benchmark | launches | cycles ref | cycles ptxemu | error | IPC ref | IPC ptxemu "
                 "| L1 hit ref | L1 hit ptxemu | L2 hit ref | L2 hit ptxemu | DRAM rd ptx/ref | DRAM wr ptx/ref |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    order = []
    for r in rows:
        if r["benchmark"] not in order:
            order.append(r["benchmark"])
    for b in order:
        rs = [r for r in rows if r["benchmark"] == b]

        def tot(col):
            vals = [float(r[col]) for r in rs if r.get(col, "") != ""]
            return sum(vals) if vals else None

        def wavg(col, wcol):  # a rate averaged with weights (instructions)
            num = den = 0.0
            for r in rs:
                if r.get(col, "") != "":
                    w = float(r[wcol]) if r.get(wcol, "") else 1.0
                    num += float(r[col]) * w
                    den += w
            return num / den if den else None

        cr, cp = tot("cycles_ref"), tot("cycles_ptxemu")
        ir, ip = tot("instructions_ref"), tot("instructions_ptxemu")
        err = (cp - cr) / cr if cr else None

        def ratio(a, b):
            ta, tb = tot(a), tot(b)
            return f"{ta / tb:.2f}" if ta is not None and tb else "–"

        def rate(col, w):
            v = wavg(col, w)
            return "–" if v is None else f"{v:.3f}"

        lines.append(
            f"| {rs[0]['half']} | {b} | {len(rs)} | {fnum(cr)} | {fnum(cp)} | "
            f"{'–' if err is None else f'{100 * err:+.1f}%'} | "
            f"{'–' if not cr else f'{ir / cr:.1f}'} | {'–' if not cp else f'{ip / cp:.1f}'} | "
            f"{rate('l1_hit_ref', 'instructions_ref')} | {rate('l1_hit_ptxemu', 'instructions_ptxemu')} | "
            f"{rate('l2_hit_ref', 'instructions_ref')} | {rate('l2_hit_ptxemu', 'instructions_ptxemu')} | "
            f"{ratio('dram_reads_ptxemu', 'dram_reads_ref')} | {ratio('dram_writes_ptxemu', 'dram_writes_ref')} |")
    lines.append("")
    # worst launches by cycles error, with the components beside them
    worst = sorted((r for r in rows if r.get("cycles_error", "") != ""),
                   key=lambda r: -abs(float(r["cycles_error"])))[:12]
    lines.append("### The launches with the largest cycle error\n")
    lines.append("| half | benchmark | launch | kernel | cycles ref | cycles ptxemu | error | IPC ref | IPC ptx "
                 "| L1 hit ref/ptx | L2 hit ref/ptx | DRAM rd ref/ptx | DRAM wr ref/ptx |")
    lines.append("|---|---|---:|---|---:|---:|---:|---:|---:|---|---|---|---|")
    for r in worst:
        def pair(m, rate=False):
            a, b = r.get(m + "_ref", ""), r.get(m + "_ptxemu", "")
            if rate:
                return f"{'–' if a == '' else f'{float(a):.2f}'} / {'–' if b == '' else f'{float(b):.2f}'}"
            return f"{fnum(a)} / {fnum(b)}"
        lines.append(f"| {r['half']} | {r['benchmark']} | {r['launch']} | `{r['kernel']}` | {fnum(r['cycles_ref'])} | "
                     f"{fnum(r['cycles_ptxemu'])} | {fnum(r['cycles_error'], True)} | {fnum(r['ipc_ref'])} | "
                     f"{fnum(r['ipc_ptxemu'])} | {pair('l1_hit', True)} | {pair('l2_hit', True)} | "
                     f"{pair('dram_reads')} | {pair('dram_writes')} |")
    lines.append("")
    return lines, sums


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxemu", default=os.path.join(SRC, "build", "tools", "ptxemu"))
    ap.add_argument("--config", default="gtx480")
    ap.add_argument("--out", default=os.path.join(SRC, "docs", "validation.md"))
    ap.add_argument("refs", nargs="*")
    a = ap.parse_args()
    refs = a.refs or sorted(glob.glob(os.path.join(SRC, "docs", "validation", "gpgpusim-*.csv")))
    if not refs:
        sys.exit("no reference CSV (docs/validation/gpgpusim-*.csv); see scripts/gpgpusim-reference.py")
    commit = subprocess.run(["git", "-C", SRC, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", SRC, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    page = [
        "# Validation: ptxemu's timing model against GPGPU-Sim",
        "",
        f"Generated by `scripts/validation-report.py` on commit `{commit}`"
        f"{' (with uncommitted changes)' if dirty else ''}, {datetime.date.today()}, config "
        f"`{a.config}`; do not edit by hand.  How `ptxemu correlate` works, its file format and its "
        "statistics: [docs/correlate.md](correlate.md).  The references were recorded by "
        "`scripts/gpgpusim-reference.py` (GPGPU-Sim built beside the project with "
        "`../shared/gpgpusim/build.sh`; none of its code is in the project, only the figures).",
        "",
        "The halves: launches ordered by the benchmark's position in the registry (`ptxemu bench "
        "list`), split at the benchmark boundary nearest the middle.  Model changes made for "
        "correlation may only be justified by the first half (and by GPGPU-Sim's config file); the "
        "second half is reported as it comes.",
        "",
        "Scope and limits:",
        "",
        "- **Sizes.** GPGPU-Sim simulates about 1,000 (15 busy SMs) to 10,000 (few warps) cycles "
        "per second on these machines, so the full reference is at size tiny (every benchmark "
        "program but the dynamic-parallelism ones); size small is recorded for the programs whose "
        "run fits in 7 minutes.  At tiny a launch is short, so fixed costs (instruction-cache and "
        "constant-cache cold misses, CTA launch, the last stores' acknowledgements) weigh more than "
        "at paper sizes.",
        "- **Programs GPGPU-Sim cannot run** are listed in each reference's header (`# skipped`): "
        "its PTX parser or runtime stops on them, or the program's own CPU check fails under it "
        "(GPGPU-Sim computes `fma.rn.f32` as a multiply and an add); no row comes from a run that "
        "computed a wrong answer.",
        "- **Metrics.** Hit rates are formed the same way on both sides (the reference's header "
        "says how); DRAM traffic is compared in bytes (`# dram_request_bytes: 32`); GPGPU-Sim's "
        "interconnect stalls have no ptxemu counterpart and are not compared.",
        "- **Silicon.** No GPU was lent to the sessions that made these figures (the device "
        "tool's status: not drawn), so there is no hardware reference yet; the same programs "
        "run unchanged on a GPU (`tests/cuda/bench/`), and `ptxemu correlate` reads such a file "
        "the same way.",
        "",
    ]
    glance = ["## At a glance: cycles against the target (r ≥ 0.95 and MAPE ≤ 20% on each half)",
              "", "| reference | half | launches | Pearson r | MAPE % | geomean ptx/ref | met |",
              "|---|---|---|---:|---:|---:|---|"]
    body = []
    for ref in refs:
        name = os.path.splitext(os.path.basename(ref))[0]
        plots_rel = f"validation/plots-{name}"
        plots = os.path.join(SRC, "docs", plots_rel)
        joined = os.path.join(os.path.dirname(ref), f"joined-{name}.csv")
        out = run_correlate(a.ptxemu, ref, a.config, plots, joined)
        lines, sums = section(name, ref, out, joined, plots_rel)
        body += lines
        for key in ("first half", "second half", "all"):
            if key in sums and "cycles" in sums[key][1]:
                n, r, mape, geo, _ = sums[key][1]["cycles"]
                ok = meets(sums[key])[0]
                glance.append(f"| `{name}` | {key} | {sums[key][0]} | {r} | {mape} | {geo} | "
                              f"{('yes' if ok else '**no**') if key != 'all' else ''} |")
    page += glance + [""] + body
    notes = os.path.join(SRC, "docs", "validation", "notes.md")
    if os.path.exists(notes):
        page += ["## Findings (hand-written: docs/validation/notes.md)", ""]
        page += [l.rstrip("\n") for l in open(notes)]
    with open(a.out, "w") as f:
        f.write("\n".join(page).rstrip() + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
