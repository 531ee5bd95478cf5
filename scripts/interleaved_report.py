#!/usr/bin/env python3
"""scripts/interleaved_report.py EXPERIMENT.ini RESULTS-DIR PAGE.md HEADLINES.csv

Thesis chapter 5 (intra-core concurrent kernels): runs every kernel of the
experiment's pairs alone and every pair concurrently (`ptxemu bench pair`)
under each kernel policy, then writes Table 5.2 (K1, K2, sequential, the
concurrent cycles per policy, max, achieved, efficiency) beside the thesis's
rows, the trends, and the Rodinia pairs as speedups over sequential.

Caps (thesis section 5.5.2, Fig. 5.1): every kernel of the pairs is first run
alone with core.max_ctas = 1 .. the hardware limit; its optimum is the
smallest cap whose cycles are within SAT_TOL of its fewest (where its
performance saturates).  The pairs then also run under
`kernel.policy=interleaved` with `kernel.caps` set to those optima
(sched/kernel/caps.h): the "interleaved (Fig. 5.1 caps)" column, which gives
the headline interleaved_speedup (Add10+S3, achieved = sequential /
concurrent), written into docs/experiments/headlines.csv.

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
SAT_TOL = 0.01          # Fig. 5.1 optimum: within 1% of the fewest cycles
CAPPED = "interleaved+caps"
HEADLINE_PAIR = "add-10-loops+stream-words"
# kernel-name prefixes of each benchmark's kernels (kernel.caps entries)
PREFIXES = {"add-10-loops": ["add_"], "add-loops": ["add_"], "stream-1-words": ["stream_"],
            "stream-2-words": ["stream_"], "stream-words": ["stream_"],
            "stream-4-words": ["stream_"], "cfd": ["compute_", "time_step"],
            "lud": ["lud_"], "backprop": ["bp_"], "gaussian": ["gauss_"],
            "pathfinder": ["pathfinder"]}

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


def sets_args(sets):
    return [x for kv in sets for x in ("--set", kv)]


def tag(sets):
    return "".join("-" + kv.replace("=", "_").replace(",", "_").replace(":", "")
                   for kv in sets)


def alone(out, name, size, config, sets=()):
    """Cycles of benchmark `name` alone (all its kernels)."""
    stats = os.path.join(out, f"alone-{name}-{size}{tag(sets)}.json")
    run_cached(os.path.join(out, f"alone-{name}-{size}{tag(sets)}.txt"),
               ["bench", "run", name, "--size", size, "--timing", "--config", config,
                "--stats", stats] + sets_args(sets))
    with open(stats) as f:
        return json.load(f)["total"]["cycles"]


def instructions(out, name, size, sets=()):
    """Warp instructions of benchmark `name` alone (its cached run)."""
    with open(os.path.join(out, f"alone-{name}-{size}{tag(sets)}.json")) as f:
        return json.load(f)["total"]["warp_instructions"]


# Peak issue rate of m2090 (Table 3.1): 16 cores x 2 schedulers x 1
# instruction every 2 cycles = 16 warp instructions a cycle.
PEAK_IPC = 16


def search(out, name, size, config, sets, limit):
    """Fig. 5.1: {cap: cycles} for core.max_ctas = 1..limit, and the optimum
    (the smallest cap within SAT_TOL of the fewest cycles)."""
    cyc = {n: alone(out, name, size, config, list(sets) + [f"core.max_ctas={n}"])
           for n in range(1, limit + 1)}
    best = min(cyc.values())
    return cyc, min(n for n in cyc if cyc[n] <= best * (1 + SAT_TOL))


def caps_for(a, b, opt):
    return "kernel.caps=" + ",".join(f"{p}:{opt[x]}" for x in (a, b) for p in PREFIXES[x])


def pair(out, a, b, size, config, policy, sets=(), caps=None):
    """(pair cycles, [(launch, kernel, start, end)]) of a and b concurrently;
    policy CAPPED is interleaved with `caps` (a kernel.caps=... setting)."""
    sets = list(sets)
    if policy == CAPPED:
        sets += ["kernel.policy=interleaved", caps]
    else:
        sets += [f"kernel.policy={policy}"]
    text = run_cached(os.path.join(out, f"pair-{a}+{b}-{size}{tag(sets)}.txt"),
                      ["bench", "pair", a, b, "--size", size, "--timing", "--config", config]
                      + sets_args(sets))
    if "FAIL" in text or "ERROR" in text:
        sys.exit(f"pair {a}+{b} under {policy}: a driver failed:\n{text}")
    cycles = int(re.search(r"^pair cycles: (\d+)", text, re.M).group(1))
    kernels = [(int(m[0]), m[1], int(m[2]), int(m[3])) for m in
               re.findall(r"^  kernel (\d+) (\S+) +cycles (\d+)\.\.(\d+)", text, re.M)]
    return cycles, kernels


def fmt_pair(name):
    a, b = name.split("+")
    return f"{LABEL.get(a, a)}+{LABEL.get(b, b)}"


def search_table(w, out, names, size, config, sets, limit):
    """Writes the Fig. 5.1 search table; returns {benchmark: optimum}."""
    w("| benchmark | " + " | ".join(f"cap {n}" for n in range(1, limit + 1)) +
      " | optimum (smallest within 1% of the fewest) |")
    w("|---|" + "---:|" * limit + "---:|")
    opt = {}
    for name in names:
        cyc, o = search(out, name, size, config, sets, limit)
        opt[name] = o
        best = min(cyc.values())
        w(f"| {name} | " + " | ".join(
            (f"**{cyc[n]}**" if n == o else str(cyc[n])) + ("" if cyc[n] > best else " (fewest)")
            for n in range(1, limit + 1)) + f" | {o} |")
    w("")
    return opt


def table52(w, out, p, size, config, sets, policies, opt):
    head = "| Pair | K1 | K2 | Sequential | " + " | ".join(policies) + \
        " | Max | Issue bound | Achieved (Fig. 5.1 caps) | Efficiency (Fig. 5.1 caps) | Achieved (even split) | " \
        "Thesis max / achieved / efficiency |"
    w(head)
    w("|" + "---|" * (head.count("|") - 1))
    rows = {}
    for name in [x.strip() for x in p["table52"].split(",") if x.strip()]:
        a, b = name.split("+")
        k1, k2 = alone(out, a, size, config, sets), alone(out, b, size, config, sets)
        seq, longer = k1 + k2, max(k1, k2)
        caps = caps_for(a, b, opt)
        conc = {pol: pair(out, a, b, size, config, pol, sets, caps)[0] for pol in policies}
        capped, even = conc[CAPPED], conc["interleaved"]
        t = THESIS.get(name)
        bound = seq / max(longer, (instructions(out, a, size, sets) +
                                   instructions(out, b, size, sets)) / PEAK_IPC)
        rows[name] = (k1, k2, seq, conc, seq / longer, seq / capped, longer / capped)
        w(f"| {fmt_pair(name)} | {k1} | {k2} | {seq} | " +
          " | ".join(str(conc[pol]) for pol in policies) +
          f" | {seq / longer:.2f} | {bound:.2f} | {seq / capped:.2f} | {longer / capped:.2f} | "
          f"{seq / even:.2f} | " + (f"{t[4]:.2f} / {t[5]:.2f} / {t[6]:.2f}" if t else "-") + " |")
    w("")
    w("Speedup over sequential per policy, and when each kernel ends in the concurrent run "
      "(last cycle: add kernel / stream kernel):")
    w("")
    w("| Pair | caps (add, stream) | " + " | ".join(policies) + " | " +
      " | ".join(f"ends under {pol}" for pol in (policies[-2], policies[-1])) + " |")
    w("|---|---|" + "---|" * (len(policies) + 2))
    for name, (k1, k2, seq, conc, mx, ach, eff) in rows.items():
        a, b = name.split("+")
        caps = caps_for(a, b, opt)
        ends = []
        for pol in (policies[-2], policies[-1]):
            ks = pair(out, a, b, size, config, pol, sets, caps)[1]
            by = {k[1]: k[3] for k in ks}
            add = max((v for kname, v in by.items() if kname.startswith("add_")), default=0)
            st = max((v for kname, v in by.items() if kname.startswith("stream_")), default=0)
            ends.append(f"{add} / {st}")
        w(f"| {fmt_pair(name)} | {opt[a]}, {opt[b]} | " +
          " | ".join(f"{seq / conc[pol]:.2f}" for pol in policies) + " | " + " | ".join(ends) + " |")
    w("")
    return rows


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    ini, out, page, headlines = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    cp = configparser.ConfigParser(comment_prefixes=("#",), interpolation=None)
    cp.read(ini)
    p = cp["pairs"]
    split = lambda s: [x.strip() for x in s.split(",") if x.strip()]
    policies = split(p["policies"]) + [CAPPED]
    config = p["config"]
    limit = int(p["search_max_ctas"])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    lines = []
    w = lines.append
    w("# Intra-core concurrent kernels (thesis chapter 5): Table 5.2 and the Rodinia pairs")
    w("")
    w("Regenerate: `scripts/interleaved.sh` (the pairs and scales are in "
      "`experiments/interleaved.ini`; runs are cached in `results/interleaved-pairs/`).  "
      f"Commit: `{commit}{'-dirty' if dirty else ''}`.")
    w("")
    w(f"Config `{config}` (thesis Table 5.1 = Table 3.1 + 16 LD/ST units): 16 SMs, 8 CTAs "
      "and 48 warps (1536 threads) per SM, 2 warp schedulers (lrr), 32768 registers.  "
      "Each pair runs with `ptxemu bench pair A B`: the two host drivers share one "
      "context on two host lanes, each launching into its own stream, so both kernels "
      "arrive at the GPU together and the kernel policy decides how they share it.  "
      "Each driver checks its answer against its CPU reference (all passed).  "
      "K1 and K2 are each benchmark run alone (every CTA slot it fits); sequential = K1 + K2; "
      "max = sequential / longer; achieved = sequential / concurrent; efficiency = longer / "
      "concurrent (the thesis's definitions).")
    w("")
    w("**Caps (Fig. 5.1, section 5.5.2).**  The thesis: \"we executed each kernel by varying "
      "the number of active CTAs from 1 to the hardware limit, and found their optimal active "
      "CTA count. We then execute kernel pairs with optimal number of CTA of each kernel.\"  "
      "Here each kernel runs alone with `core.max_ctas` = 1 .. "
      f"{limit}; the optimum is fixed by a rule written before the runs: the smallest cap whose "
      "cycles are within 1% of the kernel's fewest (where performance saturates; Fig. 5.1's "
      "reading).  Column `interleaved+caps` is `kernel.policy=interleaved` with "
      "`kernel.caps` = those optima (sched/kernel/caps.h): while both kernels issue, each holds "
      "at most its optimum per core (the cores' own resource checks still apply, so caps that "
      "add up to more than a core holds leave the later kernel what is free); once one kernel "
      "has issued its last CTA the other is uncapped (the thesis's \"more resources are "
      "assigned to the longer executing kernel\").  Column `interleaved` is the even split "
      "(the earlier page's reading).  Issue bound = sequential / max(longer, (warp "
      "instructions of K1 + K2) / 16): the speedup possible if the pair's instructions issue "
      "at m2090's peak of 16 a cycle (16 cores x 2 schedulers x 1 every 2 cycles, Table 3.1) "
      "and no kernel is shortened below its alone time.  The headline `interleaved_speedup` is Add10+S3's "
      "achieved speedup with the Fig. 5.1 caps on the first configuration below.")
    w("")
    size52 = p["table52_size"]
    names52 = []
    for pr in split(p["table52"]):
        for x in pr.split("+"):
            if x not in names52:
                names52.append(x)
    head_rows = None
    variants = [v.strip() for v in p["table52_variants"].split(";")]
    for v in variants:
        label, _, setstr = v.partition(":")
        sets = [x for x in setstr.split() if x]
        w(f"## Table 5.2: add_x_loops + stream_x_words, {label.strip()} "
          f"(size {size52}: 640 CTAs of 8 warps each)")
        w("")
        w("Fig. 5.1 search (each kernel alone, cycles per `core.max_ctas`" +
          (f"; `{' '.join(sets)}`" if sets else "") + "):")
        w("")
        opt = search_table(w, out, names52, size52, config, sets, limit)
        rows = table52(w, out, p, size52, config, sets, policies, opt)
        if head_rows is None:
            head_rows = rows
    size_r = p["rodinia_size"]
    w(f"## Rodinia pairs (size {size_r}; thesis Figs. 5.10-5.12 give no numbers)")
    w("")
    names_r = []
    for pr in split(p["rodinia"]):
        for x in pr.split("+"):
            if x not in names_r:
                names_r.append(x)
    w("Fig. 5.1 search (each application alone, total cycles per `core.max_ctas`):")
    w("")
    opt_r = search_table(w, out, names_r, size_r, config, [], limit)
    w("| Pair | A alone | B alone | Sequential | " +
      " | ".join(f"{pol} (speedup)" for pol in policies) + " |")
    w("|---|---|---|---|" + "---|" * len(policies))
    for name in split(p["rodinia"]):
        a, b = name.split("+")
        ca, cb = alone(out, a, size_r, config), alone(out, b, size_r, config)
        seq = ca + cb
        cells = []
        for pol in policies:
            c, _ = pair(out, a, b, size_r, config, pol, [], caps_for(a, b, opt_r))
            cells.append(f"{c} ({seq / c:.2f})")
        w(f"| {a}+{b} | {ca} | {cb} | {seq} | " + " | ".join(cells) + " |")
    w("")
    with open(page, "w") as f:
        f.write("\n".join(lines) + "\n")
    notes = os.path.join(os.path.dirname(page), "interleaved", "notes.md")
    if os.path.exists(notes):
        with open(notes) as f, open(page, "a") as g:
            g.write(f.read())
    # the headline row
    k1, k2, seq, conc, mx, ach, eff = head_rows[HEADLINE_PAIR]
    row = (f"interleaved_speedup,1.49,{ach:.2f},ratio,higher,paper,1,1,{commit},"
           "docs/experiments/interleaved.md")
    with open(headlines) as f:
        hl = f.read().splitlines()
    body = sorted([l for l in hl[1:] if l and not l.startswith("interleaved_speedup,")] + [row],
                  key=lambda l: l.split(",")[0])
    with open(headlines, "w") as f:
        f.write("\n".join([hl[0]] + body) + "\n")
    print(f"wrote {page} and the interleaved_speedup row of {headlines}")


if __name__ == "__main__":
    main()
