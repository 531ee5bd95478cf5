#!/bin/bash
# experiments/spin-backoff.sh [-j N] — regenerates docs/experiments/spin-backoff.md
# and the spin rows of docs/experiments/headlines.csv (then the table
# docs/experiments/README.md): runs the sweeps
# experiments/spin-backoff.ini (15 SMs, the seed's inputs) and
# experiments/spin-backoff-1sm.ini (GIB on 1 and 15 SMs, the B sweep, the
# atomic fix's before/after) into results/, then
# experiments/spin-backoff-report.py.  Every job checks its CPU reference;
# a rerun keeps the jobs this ptxemu version already finished.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=1
[ "${1:-}" = "-j" ] && jobs=$2
BIN=${PTXEMU_BIN:-build/tools/ptxemu}
for x in spin-backoff-1sm spin-backoff; do
    rc=0
    nice "$BIN" sweep "experiments/$x.ini" --out "results/$x" -j "$jobs" || rc=$?
    [ $rc -le 1 ] || exit $rc   # 1: some job failed; the report lists it
done
python3 experiments/spin-backoff-report.py results/spin-backoff results/spin-backoff-1sm \
    docs/experiments/spin-backoff.md docs/experiments/headlines.csv \
    "$(git describe --always --dirty)"
python3 scripts/headlines-table.py
echo "wrote docs/experiments/spin-backoff.md"
