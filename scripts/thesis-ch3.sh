#!/usr/bin/env bash
# scripts/thesis-ch3.sh [-j N] — regenerates docs/experiments/thesis-ch3.md:
# the sweep of experiments/thesis-ch3.ini and its page (scripts/experiments.sh),
# LUD's time series under lrr, gto, tl-rr and tl-gto (--trace-csv), then the
# per-kernel analysis (scripts/thesis_ch3_report.py) and the measured
# discussion (docs/experiments/thesis-ch3/notes.md) appended to the page.
# Everything is resumable: finished jobs and series are kept in results/.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PTXEMU_BIN:-build/tools/ptxemu}
rc=0
scripts/experiments.sh thesis-ch3 "$@" || rc=$?
[ $rc -le 1 ] || exit $rc
csv=results/thesis-ch3/lud-csv
for p in lrr gto tl-rr tl-gto; do
    if [ ! -d "$csv/$p" ]; then
        rm -rf "$csv/$p.tmp"
        "$BIN" bench run lud --size small --timing --config m2090 --set warp.policy=$p \
            --trace-csv "$csv/$p.tmp" --trace-interval 200 >/dev/null
        mv "$csv/$p.tmp" "$csv/$p"
    fi
done
page=docs/experiments/thesis-ch3.md
python3 scripts/thesis_ch3_report.py results/thesis-ch3 "$csv" docs/experiments/thesis-ch3 >> "$page"
cat docs/experiments/thesis-ch3/notes.md >> "$page"
echo "wrote $page"
exit $rc
