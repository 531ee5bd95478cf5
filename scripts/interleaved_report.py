#!/usr/bin/env python3
"""scripts/interleaved_report.py EXPERIMENT.ini RESULTS-DIR PAGE.md

Thesis chapter 5 (intra-core concurrent kernels): runs every kernel of the
experiment's pairs alone and every pair concurrently (`ptxemu bench pair`)
under each kernel policy, then writes Table 5.2 (K1, K2, sequential, the
concurrent cycles per policy, max, achieved, efficiency) beside the thesis's
rows, the trends, and the Rodinia pairs as speedups over sequential.

Runs are cached in RESULTS-DIR (one text file each): rerunning only runs
what is missing.  $PTXEMU_BIN names the program (default
build/tools/ptxemu)."""
import configparser
import json
import os
import re
import subprocess
import sys

BIN = os.environ.get("PTXEMU_BIN", "build/tools/ptxemu")

# Thesis Table 5.2 (cycles): K1, K2, sequential, interleaved, max, achieved,
# efficiency.  Max = sequential/longer, achieved = sequential/interleaved,
# efficiency = longer/interleaved (SEED-TARGETS.md section 4).
THESIS = {
    "add-10-loops+stream-1-words": (133529, 28104, 161633, 141230, 1.21, 1.14, 0.94),
    "add-10-loops+stream-2-words": (133201, 55210, 188411, 154321, 1.41, 1.22, 0.86),
    "add-10-loops+stream-words": (134321, 95109, 229430, 154291, 1.71, 1.49, 0.87),
    "add-10-loops+stream-4-words": (133412, 126053, 259465, 165207, 1.94, 1.57, 0.80),
    "add-loops+stream-1-words": (265107, 26132, 291239, 273053, 1.10, 1.07, 0.97),
    "add-loops+stream-2-words": (265148, 53718, 318866, 285118, 1.20, 1.12, 0.92),
    "add-loops+stream-words": (265103, 95162, 360265, 287276, 1.36, 1.25, 0.92),
    "add-loops+stream-4-words": (265853, 122034, 387887, 300281, 1.46, 1.29, 0.88),
}
LABEL = {"add-10-loops": "Add10", "add-loops": "Add20", "stream-1-words": "S1",
         "stream-2-words": "S2", "stream-words": "S3", "stream-4-words": "S4"}


def run_cached(path, args):
    if os.path.exists(path):
        with open(path) as f:
            return f.read()
    r = subprocess.run(["nice", "-n", "10", BIN] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{r.stdout}\n{r.stderr}")
    with open(path + ".tmp", "w") as f:
        f.write(r.stdout)
    os.replace(path + ".tmp", path)
    return r.stdout


def alone(out, name, size, config):
    """Cycles of benchmark `name` alone (all its kernels)."""
    stats = os.path.join(out, f"alone-{name}-{size}.json")
    run_cached(os.path.join(out, f"alone-{name}-{size}.txt"),
               ["bench", "run", name, "--size", size, "--timing", "--config", config,
                "--stats", stats])
    with open(stats) as f:
        return json.load(f)["total"]["cycles"]


def pair(out, a, b, size, config, policy):
    """(pair cycles, [(launch, kernel, start, end)]) of a and b concurrently."""
    text = run_cached(os.path.join(out, f"pair-{a}+{b}-{size}-{policy}.txt"),
                      ["bench", "pair", a, b, "--size", size, "--timing", "--config", config,
                       "--set", f"kernel.policy={policy}"])
    if "FAIL" in text or "ERROR" in text:
        sys.exit(f"pair {a}+{b} under {policy}: a driver failed:\n{text}")
    cycles = int(re.search(r"^pair cycles: (\d+)", text, re.M).group(1))
    kernels = [(int(m[0]), m[1], int(m[2]), int(m[3])) for m in
               re.findall(r"^  kernel (\d+) (\S+) +cycles (\d+)\.\.(\d+)", text, re.M)]
    return cycles, kernels


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    ini, out, page = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    cp = configparser.ConfigParser(comment_prefixes=("#",), interpolation=None)
    cp.read(ini)
    p = cp["pairs"]
    split = lambda s: [x.strip() for x in s.split(",") if x.strip()]
    policies = split(p["policies"])
    config = p["config"]
    lines = []
    w = lines.append
    w("# Intra-core concurrent kernels (thesis chapter 5): Table 5.2 and the Rodinia pairs")
    w("")
    w("Regenerate: `scripts/interleaved.sh` (the pairs and scales are in "
      "`experiments/interleaved.ini`; runs are cached in `results/interleaved-pairs/`).")
    w("")
    w(f"Config `{config}` (thesis Table 5.1 = Table 3.1 + 16 LD/ST units): 16 SMs, 8 CTAs "
      "and 48 warps (1536 threads) per SM, 2 warp schedulers (lrr), 32768 registers.  "
      "Each pair runs with `ptxemu bench pair A B`: the two host drivers share one "
      "context on two host lanes, each launching into its own stream, so both kernels "
      "arrive at the GPU together and the kernel policy decides how they share it.  "
      "Each driver checks its answer against its CPU reference (all passed).  "
      "K1 and K2 are each benchmark run alone; sequential = K1 + K2; max = "
      "sequential / longer; achieved = sequential / concurrent; efficiency = longer / "
      "concurrent (the thesis's definitions).")
    w("")
    size52 = p["table52_size"]
    w(f"## Table 5.2: add_x_loops + stream_x_words (size {size52}: 640 CTAs of 8 warps each)")
    w("")
    head = "| Pair | K1 | K2 | Sequential | " + " | ".join(policies) + \
        " | Max | Achieved (interleaved) | Efficiency (interleaved) | Thesis max / achieved / efficiency |"
    w(head)
    w("|" + "---|" * (head.count("|") - 1))
    rows = []
    for name in split(p["table52"]):
        a, b = name.split("+")
        k1, k2 = alone(out, a, size52, config), alone(out, b, size52, config)
        seq = k1 + k2
        longer = max(k1, k2)
        conc = {pol: pair(out, a, b, size52, config, pol)[0] for pol in policies}
        inter = conc.get("interleaved", conc[policies[-1]])
        t = THESIS.get(name)
        rows.append((name, k1, k2, seq, conc, seq / longer, seq / inter, longer / inter))
        w(f"| {LABEL.get(a, a)}+{LABEL.get(b, b)} | {k1} | {k2} | {seq} | " +
          " | ".join(str(conc[pol]) for pol in policies) +
          f" | {seq / longer:.2f} | {seq / inter:.2f} | {longer / inter:.2f} | " +
          (f"{t[4]:.2f} / {t[5]:.2f} / {t[6]:.2f}" if t else "-") + " |")
    w("")
    w("Speedup over sequential per policy (sequential / concurrent), and when each kernel "
      "ends in the concurrent run (its last cycle, per policy: add kernel / stream kernel):")
    w("")
    w("| Pair | " + " | ".join(policies) + " | interleaved beats leftover | " +
      " | ".join(f"ends under {pol}" for pol in policies) + " |")
    w("|---|" + "---|" * (2 * len(policies) + 1))
    for name, k1, k2, seq, conc, mx, ach, eff in rows:
        a, b = name.split("+")
        beats = ("yes" if conc["interleaved"] < conc["leftover"] else "no") \
            if "interleaved" in conc and "leftover" in conc else "-"
        ends = []
        for pol in policies:
            ks = sorted(pair(out, a, b, size52, config, pol)[1])  # by launch: a is launch 1
            ends.append(" / ".join(str(k[3]) for k in ks))
        w(f"| {LABEL.get(a, a)}+{LABEL.get(b, b)} | " +
          " | ".join(f"{seq / conc[pol]:.2f}" for pol in policies) + f" | {beats} | " +
          " | ".join(ends) + " |")
    w("")
    size_r = p["rodinia_size"]
    w(f"## Rodinia pairs (size {size_r}; thesis Figs. 5.10-5.12 give no numbers)")
    w("")
    w("| Pair | A alone | B alone | Sequential | " +
      " | ".join(f"{pol} (speedup)" for pol in policies) + " |")
    w("|---|---|---|---|" + "---|" * len(policies))
    for name in split(p["rodinia"]):
        a, b = name.split("+")
        ca, cb = alone(out, a, size_r, config), alone(out, b, size_r, config)
        seq = ca + cb
        cells = []
        for pol in policies:
            c, _ = pair(out, a, b, size_r, config, pol)
            cells.append(f"{c} ({seq / c:.2f})")
        w(f"| {a}+{b} | {ca} | {cb} | {seq} | " + " | ".join(cells) + " |")
    w("")
    with open(page, "w") as f:
        f.write("\n".join(lines) + "\n")
    notes = os.path.join(os.path.dirname(page), "interleaved", "notes.md")
    if os.path.exists(notes):
        with open(notes) as f, open(page, "a") as g:
            g.write(f.read())
    print(f"wrote {page}")


if __name__ == "__main__":
    main()
