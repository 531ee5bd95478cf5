#!/usr/bin/env bash
# scripts/thesis-ch3.sh [-j N] — regenerates docs/experiments/thesis-ch3.md:
# the full-versus-sampled check (experiments/thesis-ch3-sampling.ini), the
# thesis kernels at the thesis's inputs (experiments/thesis-ch3.ini,
# thesis-ch3-b.ini, -b2.ini, -c.ini and -c2.ini, sampled), Heart and KM (experiments/thesis-ch3-small.ini),
# the pa.by_length fix (experiments/thesis-ch3-length*.ini), then
# the page and its headline rows (scripts/thesis_ch3_report.py), the measured
# discussion (docs/experiments/thesis-ch3/notes.md) and the headline table
# (scripts/headlines-table.py).  Resumable: `ptxemu sweep` keeps finished
# jobs in results/ (and reruns those made by another ptxemu version).
# --collect: run nothing; merge the records already in results/ whatever
# version made them (the page lists the versions).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PTXEMU_BIN:-build/tools/ptxemu}
jobs=1
collect=
while [ $# -gt 0 ]; do
    case "$1" in
        --collect) collect=--collect; shift ;;
        -j) jobs=$2; shift 2 ;;
        -j*) jobs=${1#-j}; shift ;;
        *) echo "scripts/thesis-ch3.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
dirs=()
for e in thesis-ch3-sampling thesis-ch3 thesis-ch3-b thesis-ch3-b2 thesis-ch3-c thesis-ch3-c2 \
         thesis-ch3-small thesis-ch3-length thesis-ch3-length-small; do
    rc=0
    if [ -n "$collect" ]; then
        "$BIN" sweep "experiments/$e.ini" --out "results/$e" --collect || rc=$?
    else
        nice "$BIN" sweep "experiments/$e.ini" --out "results/$e" -j "$jobs" || rc=$?
    fi
    [ $rc -le 1 ] || exit $rc
    dirs+=("results/$e")
done
page=docs/experiments/thesis-ch3.md
python3 scripts/thesis_ch3_report.py "$page" docs/experiments/headlines.csv \
    "scripts/thesis-ch3.sh${collect:+ $collect}" "${dirs[@]}"
cat docs/experiments/thesis-ch3/notes.md >> "$page"
python3 scripts/headlines-table.py
echo "wrote $page"
