#!/usr/bin/env bash
# Regenerates docs/experiments/phases-table33.md: `ptxemu phases` on our PTX
# beside the thesis's Tables 3.2/3.3 (phase count, longest, shortest), under
# both readings of the phase rule and both long-latency sets.
#   experiments/phases-table33.sh [PTXEMU]   (default build/tools/ptxemu)
set -euo pipefail
cd "$(dirname "$0")/.."
ptxemu=${1:-build/tools/ptxemu}
exec python3 experiments/phases-table33-report.py --ptxemu "$ptxemu" \
    --data docs/experiments/phases-table33/thesis-tables.csv \
    --out docs/experiments/phases-table33.md
