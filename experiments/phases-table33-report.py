#!/usr/bin/env python3
"""Writes docs/experiments/phases-table33.md: the thesis's Tables 3.2/3.3
phase columns beside `ptxemu phases` on our PTX (m2090 config), under each
phase-rule reading (--blocks split|linear) and long-latency set (--loads
offchip|all), plus the measurements that explain the gap (PTX vs SASS
instruction counts, control-only phases).  Run via experiments/phases-table33.sh."""
import argparse, csv, json, math, os, re, shutil, subprocess, sys, tempfile

VARIANTS = [("split", "offchip"), ("linear", "offchip"), ("split", "all"), ("linear", "all")]
CONTROL = re.compile(r"^\s*(@!?%\w+\s+)?(bra|ret|exit)\b")


def read_data(path):
    with open(path) as f:
        rows = [r for r in csv.DictReader(l for l in f if not l.startswith("#"))]
    for r in rows:
        r["kernels"] = r["ptxemu_kernels"].split(";")
    return rows


def phases_json(ptxemu, bench, blocks, loads):
    cmd = [ptxemu, "phases", f"benchmarks/{bench}/kernels.ptx", "--json", "--config", "m2090"]
    if (blocks, loads) != ("split", "offchip"):
        cmd += ["--blocks", blocks, "--loads", loads]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {f["name"]: f for f in json.loads(out)["functions"]}


def kernel_figures(fn):
    """count, longest, shortest; plus control-only phases and the shortest
    phase that is not control-only."""
    s = fn["summary"]
    ctrl, rest = 0, []
    for ph in fn["phases"]:
        texts = [fn["instrs"][i]["text"] for i in range(ph["first"], ph["last"] + 1)]
        if all(CONTROL.match(t) for t in texts):
            ctrl += 1
        else:
            rest.append(ph["length"])
    return {"n": s["total_phases"], "long": s["longest_phase"], "short": s["shortest_phase"],
            "ctrl": ctrl, "short_noctrl": min(rest) if rest else 0,
            "instrs": fn["instructions"], "blocks": fn["blocks"]}


def sass_counts(bench):
    """Instructions per kernel of ptxas -arch=sm_75 (16-byte SASS words, the
    trailing self-branch and NOP padding left out); {} without ptxas."""
    if not shutil.which("ptxas") or not shutil.which("readelf"):
        return {}
    with tempfile.TemporaryDirectory() as d:
        cubin = os.path.join(d, "k.cubin")
        subprocess.run(["ptxas", "-arch=sm_75", f"benchmarks/{bench}/kernels.ptx", "-o", cubin],
                       check=True, capture_output=True)
        secs = subprocess.run(["readelf", "-S", "-W", cubin], capture_output=True,
                              text=True).stdout
        data = open(cubin, "rb").read()
    res = {}
    for m in re.finditer(r"\.text\.(\S+)\s+PROGBITS\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", secs):
        name, off, size = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
        words = [int.from_bytes(data[off + k:off + k + 8], "little") & 0xfff
                 for k in range(0, size, 16)]
        while words and words[-1] == 0x918:      # NOP
            words.pop()
        if words and words[-1] == 0x947:         # BRA to itself after EXIT
            words.pop()
        res[name] = len(words)
    return res


BENCH_NAME = {"bptree": "b+tree"}  # benchmark directory -> `ptxemu bench` name


def inputs_small(ptxemu, bench):
    """Per kernel of a size-small timing run on m2090 (lrr): launches,
    largest launch's CTAs, threads per CTA and CTAs per SM."""
    with tempfile.TemporaryDirectory() as d:
        st = os.path.join(d, "s.json")
        subprocess.run([ptxemu, "bench", "run", BENCH_NAME.get(bench, bench), "--size", "small",
                        "--timing", "--config", "m2090", "--stats", st],
                       check=True, capture_output=True)
        data = json.load(open(st))
    res = {}
    for k in data["kernels"]:
        r = res.setdefault(k["name"], {"launches": 0, "ctas": 0})
        r["launches"] += 1
        if k["ctas"] >= r["ctas"]:
            r["ctas"] = k["ctas"]
            r["threads"] = k["occupancy"]["threads_per_cta"]
            r["per_sm"] = k["occupancy"]["ctas_per_sm"]
            r["limited_by"] = k["occupancy"]["limited_by"]
    return res, data["gpu"]


def ratio(a, b):
    return a / b if b else float("nan")


def fmt_r(x):
    return "-" if math.isnan(x) else f"{x:.2f}"


def fit(pairs):
    """geomean of max(ours/thesis, thesis/ours): 1.00 is a perfect match."""
    logs = [abs(math.log(o / t)) for o, t in pairs if o > 0 and t > 0]
    return math.exp(sum(logs) / len(logs)) if logs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxemu", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows = read_data(a.data)
    benches = sorted({r["ptxemu_benchmark"] for r in rows})
    res = {v: {b: phases_json(a.ptxemu, b, *v) for b in benches} for v in VARIANTS}
    sass = {b: sass_counts(b) for b in benches}
    small = {b: inputs_small(a.ptxemu, b) for b in benches}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()

    # one entry per (thesis kernel, our kernel)
    pairs = []
    for r in rows:
        for k in r["kernels"]:
            figs = {v: kernel_figures(res[v][r["ptxemu_benchmark"]][k]) for v in VARIANTS}
            pairs.append((r, k, figs))

    o = []
    w = o.append
    w("# Phases: `ptxemu phases` beside thesis Tables 3.2 and 3.3\n")
    w("Regenerate with `experiments/phases-table33.sh` (runs `experiments/phases-table33-report.py`; "
      "`ptxemu phases benchmarks/B/kernels.ptx --json --config m2090 [--blocks B --loads L]` per benchmark "
      "`ptxas -arch=sm_75` for the SASS counts, and `ptxemu bench run B --size small --timing --config m2090` "
      "for the last section's CTAs per SM).  Commit: `%s`%s.  Thesis numbers: "
      "[`phases-table33/thesis-tables.csv`](phases-table33/thesis-tables.csv) (Tables 3.2/3.3, §3.5.1, "
      "pp. 30-31).\n" % (commit, " (with uncommitted changes)" if dirty else ""))
    w("Config: `m2090` (thesis Table 3.1: GPGPU-Sim 3.2 configured as a Tesla M2090); its latency "
      "table is the built-in GPGPU-Sim 3.x Fermi one (docs/phases-json.md), so `--config m2090` "
      "changes no phase figure here.  Lengths are in cycles.  Ratio = ours / thesis.\n")

    def table(variant, title):
        w(f"\n### {title}\n")
        w("| thesis kernel | ptxemu kernel | thesis phases | ours | ratio | thesis longest | ours | ratio "
          "| thesis shortest | ours | ratio |")
        w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r, k, figs in pairs:
            f = figs[variant]
            t = (int(r["total_phases"]), int(r["longest_phase"]), int(r["shortest_phase"]))
            w(f"| {r['abbrev']} | {r['ptxemu_benchmark']}/{k} | {t[0]} | {f['n']} | "
              f"{fmt_r(ratio(f['n'], t[0]))} | {t[1]} | {f['long']} | {fmt_r(ratio(f['long'], t[1]))} | "
              f"{t[2]} | {f['short']} | {fmt_r(ratio(f['short'], t[2]))} |")

    table(("split", "offchip"), "Default rule (`--blocks split --loads offchip`: what the PA policies see)")
    w("\nEvery thesis kernel has a ptxemu kernel (the mapping of docs/experiments/thesis-ch3.md); SRAD "
      "and FWT map to two of ours each.  None is the thesis's code: benchmarks/README.md — every "
      "benchmark is written for ptxemu from the algorithm, not copied from Rodinia or the SDK.\n")
    table(("linear", "offchip"), "Other reading (`--blocks linear`: only the long-op rule starts phases)")

    w("\n### All four variants: how far from the thesis\n")
    w("Fit = geometric mean over the %d kernel pairs above of max(ours/thesis, thesis/ours) "
      "(1.00 = every figure equal).\n" % len(pairs))
    w("| --blocks | --loads | fit: phases | fit: longest | fit: shortest | kernels with the thesis's count ±1 |")
    w("|---|---|---:|---:|---:|---:|")
    fits = {}
    for v in VARIANTS:
        fn = fit([(f[v]["n"], int(r["total_phases"])) for r, k, f in pairs])
        fl = fit([(f[v]["long"], int(r["longest_phase"])) for r, k, f in pairs])
        fs = fit([(f[v]["short"], int(r["shortest_phase"])) for r, k, f in pairs])
        near = sum(abs(f[v]["n"] - int(r["total_phases"])) <= 1 for r, k, f in pairs)
        fits[v] = (fn, fl, fs, near)
        w(f"| {v[0]} | {v[1]} | {fn:.2f} | {fl:.2f} | {fs:.2f} | {near} of {len(pairs)} |")
    w("\nPer kernel, phases / longest / shortest under each variant:\n")
    w("| thesis kernel | ptxemu kernel | thesis | " + " | ".join(f"{b} / {l}" for b, l in VARIANTS) + " |")
    w("|---|---|---|" + "---|" * len(VARIANTS))
    for r, k, figs in pairs:
        cells = [f"{figs[v]['n']} / {figs[v]['long']} / {figs[v]['short']}" for v in VARIANTS]
        w(f"| {r['abbrev']} | {k} | {r['total_phases']} / {r['longest_phase']} / {r['shortest_phase']} | "
          + " | ".join(cells) + " |")

    w("\n### Measured factors (default rule unless said)\n")
    w("PTX instr. = instructions of our PTX; SASS instr. = the same PTX through `ptxas -arch=sm_75` "
      "(register-allocated, scheduled machine code, as PTXPlus is; padding left out)%s.  Control-only "
      "phases = phases made only of `bra`/`ret`/`exit` (a PTX block holding just a jump or the return); "
      "shortest w/o them = the shortest phase that does some work.\n"
      % ("" if any(sass.values()) else " — **ptxas not found on this machine: column empty**"))
    w("| ptxemu kernel | PTX instr. | SASS instr. | SASS/PTX | blocks | phases | control-only phases | "
      "shortest | shortest w/o them | thesis shortest |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r, k, figs in pairs:
        f = figs[("split", "offchip")]
        s = sass[r["ptxemu_benchmark"]].get(k)
        w(f"| {k} | {f['instrs']} | {s if s else '-'} | {fmt_r(ratio(s, f['instrs'])) if s else '-'} | "
          f"{f['blocks']} | {f['n']} | {f['ctrl']} | {f['short']} | {f['short_noctrl']} | "
          f"{r['shortest_phase']} |")
    with open(os.path.join(os.path.dirname(a.data), "analysis.md")) as f:
        w("\n" + f.read().strip() + "\n")

    w("\n## Prepared for the ch. 3 rerun\n")
    w("Not a result: what the rerun of Figs. 3.7-3.8 needs, in one place.  **Typing** is the "
      "thesis's (Fig. 3.7 and §3.5.2 text; columns `type_single`/`type_two` of "
      "[`thesis-tables.csv`](phases-table33/thesis-tables.csv)), not ours: A = GTO beats RR, "
      "B = RR beats GTO.  **Waves per SM** = CTAs / (16 SMs x CTAs per SM); the thesis's from "
      "its Tables 3.2/3.3 (CTAs, CTAs/core), ours from a size-small timing run on m2090 (lrr, "
      "largest launch of the kernel; CTAs per SM is the occupancy the timing model computes).  "
      "Size paper was not run here; benchmarks/README.md says `paper` uses the grids the seeds "
      "report, and the last column assumes so (thesis CTAs / (16 x our CTAs per SM)).  Where our "
      "CTAs per SM differ from the thesis's (marked ≠), the warps a scheduler chooses from differ "
      "too, whatever the input: our register counts come from our PTX, not the thesis's binaries.\n")
    w("| thesis kernel | type single | type two | ptxemu kernel | thesis CTAs x threads | thesis CTAs/SM "
      "| thesis waves/SM | ours (small): launches | CTAs x threads | CTAs/SM (limit) | waves/SM "
      "| waves at paper grid, our CTAs/SM |")
    w("|---|---|---|---|---|---:|---:|---:|---|---:|---:|---:|")
    nsm = 16
    for r, k, figs in pairs:
        sm, gpu = small[r["ptxemu_benchmark"]]
        nsm = gpu.get("num_sms", nsm) if isinstance(gpu, dict) else nsm
        t_ctas, t_per = int(r["total_ctas"]), int(r["ctas_per_core"])
        q = sm.get(k)
        tw = t_ctas / (16 * t_per)
        if q:
            mark = "" if q["per_sm"] == t_per else " ≠"
            ow = q["ctas"] / (nsm * q["per_sm"])
            pw = t_ctas / (16 * q["per_sm"])
            ours = (f"{q['launches']} | {q['ctas']} x {q['threads']} | {q['per_sm']} ({q['limited_by']}){mark} | "
                    f"{ow:.2f} | {pw:.1f}")
        else:
            ours = "- | not launched at size small | - | - | -"
        w(f"| {r['abbrev']} | {r['type_single']} | {r['type_two']} | {k} | {t_ctas} x {r['threads_per_cta']} | "
          f"{t_per} | {tw:.1f} | {ours} |")
    w("\nThe rerun (issue 33): `experiments/thesis-ch3.ini` with the thesis's typing above, at size "
      "paper or at a reduced input that keeps the thesis's waves per SM and CTAs per SM "
      "(EXPERIMENT-METHOD.md §1), and PA under both phase readings (`--set phase.blocks=split` and "
      "`=linear`).\n")
    with open(a.out, "w") as f:
        f.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
