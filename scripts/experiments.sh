#!/usr/bin/env bash
# scripts/experiments.sh NAME [-j N] — reruns experiments/NAME.ini (jobs that
# already finished with this ptxemu version are kept: results/NAME/ is
# resumable) and regenerates docs/experiments/NAME.md with its table, plots
# (docs/experiments/NAME/*.svg), command, ptxemu version and the comparison
# with the paper, then experiments/NAME-analysis.py's output and
# docs/experiments/NAME/notes.md when they exist.  Builds ptxemu first when build/ is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/experiments.sh NAME [-j N]  (NAME: $(cd experiments && ls *.ini | sed 's/\.ini$//' | tr '\n' ' '))" >&2; exit 2; }
name=$1; shift
jobs=$(nproc)
while [ $# -gt 0 ]; do
    case "$1" in
        -j) jobs=$2; shift 2 ;;
        -j*) jobs=${1#-j}; shift ;;
        *) echo "scripts/experiments.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
exp=experiments/$name.ini
[ -f "$exp" ] || { echo "scripts/experiments.sh: no $exp" >&2; exit 2; }
BIN=${PTXEMU_BIN:-build/tools/ptxemu}
if [ ! -x "$BIN" ]; then
    scripts/install-deps.sh
    [ -d build ] || meson setup build --buildtype=debugoptimized
    meson compile -C build
fi
out=results/$name
cmd="ptxemu sweep $exp --out $out -j $jobs"
rc=0
"$BIN" sweep "$exp" --out "$out" -j "$jobs" || rc=$?
[ $rc -eq 130 ] && { echo "interrupted; rerun to resume" >&2; exit 130; }
# failed jobs (rc 1) are listed in the report; anything else is fatal
[ $rc -le 1 ] || exit $rc
mkdir -p "docs/experiments/$name"
if "$BIN" plot "$out" --out "$out/plots"; then
    cp "$out"/plots/*.svg "docs/experiments/$name/"
else
    echo "scripts/experiments.sh: plots not made (see above); the report links to them anyway" >&2
fi
"$BIN" sweep "$exp" --out "$out" --report "docs/experiments/$name.md" --plots "$name" \
    --command "$cmd"
# an experiment's own analysis (experiments/NAME-analysis.py RESULTS: Markdown
# on stdout) and its measured discussion (docs/experiments/NAME/notes.md)
if [ -f "experiments/$name-analysis.py" ]; then
    python3 "experiments/$name-analysis.py" "$out" >> "docs/experiments/$name.md"
fi
if [ -f "docs/experiments/$name/notes.md" ]; then
    cat "docs/experiments/$name/notes.md" >> "docs/experiments/$name.md"
fi
echo "wrote docs/experiments/$name.md"
exit $rc
