"""scripts/headline_rows.py — what every experiment page's analysis script
does to docs/experiments/headlines.csv (EXPERIMENT-METHOD.md section 5):
replace its own rows, keep the other pages' rows, sort by id, and rewrite
docs/experiments/README.md with scripts/headlines-table.py.

    import headline_rows                      # scripts/ on sys.path
    commit = headline_rows.made_on(root)      # or the results' ptxemu version
    headline_rows.write(root, [[id, paper, ours, unit, better_is, scale,
                                run, in_paper, commit, page], ...])
"""
import csv
import os
import subprocess
import sys

HEADER = ["id", "paper", "ours", "unit", "better_is", "scale", "benchmarks_run",
          "benchmarks_in_paper", "commit", "page"]


def made_on(root):
    """The commit the numbers are made on: HEAD, with `-dirty` when a source
    (not the pages a regeneration is writing, under docs/) differs from it."""
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no",
                              "--", ".", ":(exclude)docs"],
                             capture_output=True, text=True).stdout.strip()
    return commit + "-dirty" if changed else commit


def write(root, new):
    """Writes the rows `new` (lists in HEADER's order) over the rows of the
    same ids; every other row is kept.  Then regenerates the README table."""
    path = os.path.join(root, "docs", "experiments", "headlines.csv")
    ids = {r[0] for r in new}
    keep = []
    if os.path.exists(path):
        with open(path) as f:
            keep = [r for r in csv.reader(f) if r and r[0] != "id" and r[0] not in ids]
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for r in sorted(keep + new):
            w.writerow(r)
    subprocess.run([sys.executable, os.path.join(root, "scripts", "headlines-table.py")],
                   stdout=subprocess.DEVNULL, check=False)
