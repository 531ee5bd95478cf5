#!/usr/bin/env bash
# scripts/interleaved.sh — regenerates docs/experiments/interleaved.md (thesis
# chapter 5, Table 5.2 and the Rodinia pairs) from experiments/interleaved.ini:
# each kernel alone and each pair under every kernel policy (cached in
# results/interleaved-pairs/, so a rerun only runs what is missing), then the
# page with the measured discussion of docs/experiments/interleaved/notes.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PTXEMU_BIN:-build/tools/ptxemu}
if [ ! -x "$BIN" ]; then
    [ -d build ] || meson setup build --buildtype=debugoptimized
    meson compile -C build
fi
PTXEMU_BIN=$BIN python3 scripts/interleaved_report.py experiments/interleaved.ini \
    results/interleaved-pairs docs/experiments/interleaved.md docs/experiments/headlines.csv
python3 scripts/headlines-table.py
