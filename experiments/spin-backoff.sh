#!/bin/bash
# experiments/spin-backoff.sh — the spin seed's experiment (issue 12):
# greedy and ddos backoff against no backoff on the lock benchmarks, on the
# GTX480 preset with lrr and gto.  Regenerates docs/experiments/spin-backoff.md
# and its plot:
#   experiments/spin-backoff.sh [BUILD_DIR] [JOBS]      (default build, 2)
# Runs are `ptxemu bench run` commands (each checks its CPU reference);
# results land in BUILD_DIR/experiments/spin-backoff/.  The same variants in
# the sweep's format are experiments/spin-backoff.ini.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
jobs=${2:-2}
ptxemu="$root/$build/tools/ptxemu"
out="$root/$build/experiments/spin-backoff"
rm -rf "$out"
mkdir -p "$out/runs"

# One job per line: id|bench|size|sms|warp|variant|--set args...
# Set A: B swept for greedy and ddos PT2.  Set B: every benchmark with the
# default B, the static filter and PT4.
{
    for w in lrr gto; do
        for bb in "gib1|global-increment|small|1" "gib15|global-increment|paper|15" \
                  "tx2k|transactions-2k|small|15" "ht|hashtable|small|15"; do
            IFS='|' read -r tag b s n <<<"$bb"
            echo "A-$tag-$w-none|$b|$s|$n|$w|none|spin.policy=none"
            for B in 250 500 1000 2000 4000 8000; do
                echo "A-$tag-$w-g$B|$b|$s|$n|$w|greedy B=$B|spin.policy=greedy greedy.backoff=$B"
                echo "A-$tag-$w-d$B|$b|$s|$n|$w|ddos PT2 B=$B|spin.policy=ddos ddos.threshold=2 ddos.backoff=$B"
            done
        done
        for bb in "gib1|global-increment|small|1" "gib15|global-increment|paper|15" \
                  "ht|hashtable|small|15" "htc|hashtable-contended|small|15" \
                  "tx2k|transactions-2k|small|15" "tx4k|transactions|small|15" \
                  "tx8k|transactions-8k|small|15"; do
            IFS='|' read -r tag b s n <<<"$bb"
            echo "B-$tag-$w-none|$b|$s|$n|$w|none|spin.policy=none"
            echo "B-$tag-$w-greedy|$b|$s|$n|$w|greedy|spin.policy=greedy"
            echo "B-$tag-$w-greedyf|$b|$s|$n|$w|greedy static filter|spin.policy=greedy greedy.static_filter=true"
            echo "B-$tag-$w-pt2|$b|$s|$n|$w|ddos PT2|spin.policy=ddos ddos.threshold=2"
            echo "B-$tag-$w-pt4|$b|$s|$n|$w|ddos PT4|spin.policy=ddos ddos.threshold=4"
        done
    done
} >"$out/jobs.txt"

run_one() {
    IFS='|' read -r id b s n w v sets <<<"$1"
    args=()
    for x in $sets; do args+=(--set "$x"); done
    # the decision trace is filtered to the per-SM summaries as it is written
    "$PTXEMU" bench run "$b" --size "$s" --timing --config gtx480 --set "gpu.num_sms=$n" \
        --set "warp.policy=$w" "${args[@]}" --stats "$OUT/runs/$id.json" \
        --sched-trace /dev/stdout 2>&1 | grep -E "summary:|PASS|FAIL|ERROR" >"$OUT/runs/$id.log" || true
}
export -f run_one
export PTXEMU="$ptxemu" OUT="$out"
tr '\n' '\0' <"$out/jobs.txt" | xargs -0 -P "$jobs" -I{} bash -c 'run_one "$@"' _ {}

python3 "$root/experiments/spin-backoff-report.py" "$out" "$root/docs/experiments"
