#!/usr/bin/env bash
# Writes the statistics JSON of timing runs (every benchmark at size tiny,
# every policy of every level on a sample of benchmarks, three configs)
# and the phases JSON of every benchmark's PTX into DIR, so that a refactor
# can prove it changed no figure:
#   scripts/snapshot.sh build/tools/ptxemu before/ ; (change) ;
#   scripts/snapshot.sh build/tools/ptxemu after/ ; diff -r before after
set -euo pipefail
ptxemu=$(realpath "$1"); out=$2
cd "$(dirname "$0")/.."
mkdir -p "$out/stats" "$out/phases"
run() { # name tag args...
    local b=$1 tag=$2; shift 2
    "$ptxemu" bench run "$b" --size tiny --timing --stats "$out/stats/$b.$tag.json" "$@" \
        >/dev/null 2>&1 || echo "FAILED $b $tag" >>"$out/failures"
}
for b in $("$ptxemu" bench list | awk '{print $1}'); do
    run "$b" gtx480 --config gtx480
done
sample="bfs hotspot lud global-increment hashtable transactions cdp-bfs-citation matrixmul atax"
for b in $sample; do
    for w in lrr gto pa tl-rr tl-gto pa-tl owl; do run "$b" "w-$w" --config m2090 --warp-sched "$w"; done
    for c in rr 2lrr grr greedy-cluster distributed distributed-block bcs laperm-tbpri \
             laperm-smxbind laperm-adaptive; do run "$b" "c-$c" --config icc60 --cta-sched "$c"; done
    for f in throttle claso dyncta perf-sat onac seq-det; do
        run "$b" "f-$f" --config onac32 --set "cta.filters=$f"; done
    for s in greedy ddos; do run "$b" "s-$s" --config gtx480 --set "spin.policy=$s"; done
    run "$b" k20x --config k20x
done
for p in benchmarks/*/kernels*.ptx; do
    n=$(echo "$p" | tr / _)
    "$ptxemu" phases "$p" --json >"$out/phases/$n.json" 2>&1 || true
    "$ptxemu" phases "$p" --json --config m2090 >"$out/phases/$n.m2090.json" 2>&1 || true
done
echo "snapshot: $(ls "$out/stats" | wc -l) stats files, $(ls "$out/phases" | wc -l) phases files"
