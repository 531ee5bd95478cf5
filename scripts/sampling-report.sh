#!/usr/bin/env bash
# scripts/sampling-report.sh — regenerates docs/sampling.md (issue 28,
# "Validation of sampling"): every benchmark at size small on gtx480, full
# timing run vs sampled (--sample), a set at size paper whose full timing
# runs take a minute or less, and whether the warp-scheduler ranking on six
# benchmarks survives sampling (scripts/sampling_report.py does the runs and
# writes the page).  Every run is niced; about 15 minutes of CPU in all.
#
#   scripts/sampling-report.sh [--bench "a b ..."] [--paper "a b ..."]
#                              [--rank "a b ..."] [--out FILE]
# Environment: PTXEMU_BIN (default build/tools/ptxemu); REUSE_RUNS=1 takes
# the runs an interrupted report left in results/sampling.
set -euo pipefail
cd "$(dirname "$0")/.."
args="$*"
BIN=${PTXEMU_BIN:-build/tools/ptxemu}
benches=""
paper="pathfinder nn matrixmul gemm 2dconv backprop"
rank="hotspot backprop nn b+tree 2dconv matrixmul"
out=docs/sampling.md
while [ $# -gt 0 ]; do
    case "$1" in
        --bench) benches=$2; shift 2 ;;
        --paper) paper=$2; shift 2 ;;
        --rank) rank=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "scripts/sampling-report.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -x "$BIN" ] || { echo "scripts/sampling-report.sh: no $BIN (build first)" >&2; exit 2; }
# The dynamic-parallelism benchmarks are refused by the sampler (their
# sampled run is the full run) and some take minutes under timing: two of
# them show the refusal, the rest are left out to keep the page's budget.
cdp_kept="cdp-bfs-citation cdp-join-uniform"
note=""
if [ -z "$benches" ]; then
    benches="$("$BIN" bench list | awk '{print $1}' | grep -v '^cdp-') $cdp_kept"
    left=$("$BIN" bench list | awk '{print $1}' | grep '^cdp-' | grep -vx -e cdp-bfs-citation -e cdp-join-uniform | tr '\n' ' ')
    note="Left out: ${left% } (dynamic parallelism: the sampler refuses it, so a sampled run is the full run; ${cdp_kept// /, } show the refusal)."
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
exec python3 scripts/sampling_report.py --bin "$BIN" --small "$benches" --paper "$paper" \
    --rank "$rank" --out "$out" --commit "$commit" --note "$note" ${REUSE_RUNS:+--reuse-runs} \
    --command "scripts/sampling-report.sh${args:+ $args}"
