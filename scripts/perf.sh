#!/usr/bin/env bash
# scripts/perf.sh — the performance report (issue 19): runs every benchmark
# functionally at paper size and at small size, and under the timing model
# (gtx480) at small size, each in its own process (peak RSS is per process)
# and several times (best CPU time kept), then regenerates docs/performance.md
# with per-benchmark rates, per-launch cost, memory, ratios and geomeans, and a
# `perf` profile summary.  With --base BIN every run is repeated back to back
# with that binary (an older build) and the report gains before/after ratios.
#
#   scripts/perf.sh [--reps N] [--bench "a b ..."] [--base BIN] [--out FILE]
#                   [--no-profile] [--no-paper] [--modes "SIZE:KIND ..."] [--append]
#                   [--report-only] [--plan FILE] [--no-report]
# --modes replaces the default "paper:functional paper:functional-j2
# small:functional small:timing small:timing-j2"; KIND is functional,
# functional-jN (N host threads, -j N: the report compares wall time and
# memory digests with the one-thread run), timing or timing-jN (the SMs of
# a cycle on N threads; compared with the one-thread timing run);
# --append keeps the runs collected before (results/perf/perf-lines.txt), so
# a long report can be gathered in parts (benchmark subsets, modes);
# --report-only runs nothing but the profiles and rewrites the report from
# the runs collected so far; --no-report collects runs only.
# --plan FILE makes the whole report in one command: each non-comment line
# of FILE is one part's options (the first starts a fresh collection, the
# others append), then the profiles and the report; the report's header
# names this one command and lists the parts.  The page's own plan is
# scripts/perf-page.plan (docs/performance.md).
# Environment: PTXEMU_BIN (default build/tools/ptxemu; built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
# the options as typed (a list with spaces quoted), for the report's header
args=""
for x in "$@"; do
    case "$x" in *" "*) args+="\"$x\" " ;; *) args+="$x " ;; esac
done
args=${args% }
reps=3
benches=""
base=""
out=docs/performance.md
profile=1
paper=1
modes_opt=""
append=0
report_only=0
plan=""
no_report=0
while [ $# -gt 0 ]; do
    case "$1" in
        --reps) reps=$2; shift 2 ;;
        --bench) benches=$2; shift 2 ;;
        --base) base=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-profile) profile=0; shift ;;
        --no-paper) paper=0; shift ;;
        --modes) modes_opt=$2; shift 2 ;;
        --append) append=1; shift ;;
        --report-only) append=1; report_only=1; shift ;;
        --plan) plan=$2; shift 2 ;;
        --no-report) no_report=1; shift ;;
        *) echo "scripts/perf.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
BIN=${PTXEMU_BIN:-build/tools/ptxemu}
if [ ! -x "$BIN" ]; then
    scripts/install-deps.sh
    [ -d build ] || meson setup build --buildtype=debugoptimized
    meson compile -C build
fi
work=results/perf
mkdir -p "$work"
lines=$work/perf-lines.txt
# every invocation that contributed runs to the report, for its header
cmds=$work/commands.txt
if [ -n "$plan" ]; then
    load_plan=$(cut -d' ' -f1-3 /proc/loadavg)
    first=1
    while IFS= read -r part; do
        case "$part" in ''|'#'*) continue ;; esac
        if [ "$first" = 1 ]; then
            eval "scripts/perf.sh --no-report $part"
            first=0
        else
            eval "scripts/perf.sh --no-report --append $part"
        fi
    done < "$plan"
    # the profiles and the report, over every part's runs
    PERF_PLAN_CMD="scripts/perf.sh $args" PERF_LOAD_START="$load_plan" \
        exec scripts/perf.sh --report-only --out "$out" $([ "$profile" = 1 ] || echo --no-profile)
fi
[ -n "$benches" ] || benches=$("$BIN" bench list | awk '{print $1}')
[ "$append" = 1 ] || : > "$lines"
[ "$append" = 1 ] || : > "$cmds"
[ "$report_only" = 1 ] || echo "scripts/perf.sh ${args//--no-report /}" >> "$cmds"
load_start=${PERF_LOAD_START:-$(cut -d' ' -f1-3 /proc/loadavg)}

# one run: label, mode tag, binary, then bench options; appends
# "PERF ... mode=TAG bin=label" (the later mode= overrides the binary's)
run_one() {
    local label=$1 tag=$2 bin=$3; shift 3
    local l
    if l=$("$bin" bench run "$@" --perf 2>"$work/last-stderr.txt" | grep '^PERF'); then
        echo "$l mode=$tag bin=$label" >> "$lines"
    else
        echo "PERF name=$1 mode=$tag outcome=ERROR bin=$label" >> "$lines"
        cat "$work/last-stderr.txt" >&2
    fi
}

modes=("small:functional" "small:timing" "small:timing-j2")
[ "$paper" = 1 ] && modes=("paper:functional" "paper:functional-j2" "${modes[@]}")
[ -n "$modes_opt" ] && read -r -a modes <<< "$modes_opt"
[ "$report_only" = 1 ] && benches="" && reps="as each part of the command above says"
for b in $benches; do
    for m in "${modes[@]}"; do
        size=${m%%:*}; kind=${m#*:}
        opts=(--size "$size")
        case "$kind" in timing*) opts+=(--timing --config gtx480) ;; esac
        # functional-jN / timing-jN: N host threads (-j); the base binary
        # predates -j (and timing -j)
        jobs=1
        case "$kind" in
        functional-j*) jobs=${kind#functional-j}; opts+=(-j "$jobs") ;;
        timing-j*) jobs=${kind#timing-j}; opts+=(-j "$jobs") ;;
        esac
        for ((i = 0; i < reps; i++)); do
            run_one new "$kind" "$BIN" "$b" "${opts[@]}"
            [ -n "$base" ] && [ "$jobs" = 1 ] && run_one base "$kind" "$base" "$b" "${opts[@]}"
        done
    done
    echo "perf.sh: $b done" >&2
done
[ "$no_report" = 1 ] && exit 0

prof_f=$work/profile-functional.txt
prof_t=$work/profile-timing.txt
rm -f "$prof_f" "$prof_t"
if [ "$profile" = 1 ] && command -v perf >/dev/null; then
    # where time goes: a mix of benchmarks at small size functionally, and
    # the timing model on a compute-bound and two memory-bound benchmarks
    perf record -q -F 499 -o "$work/perf-functional.data" -- \
        "$BIN" bench run gemm matrixmul hotspot gaussian 2dconv lud cfd --size small \
        > /dev/null 2>&1 || true
    perf report -i "$work/perf-functional.data" --no-children --sort sym --stdio 2>/dev/null \
        | grep -E '^ +[0-9.]+%' | head -25 > "$prof_f" || true
    perf record -q -F 499 -o "$work/perf-timing.data" -- \
        "$BIN" bench run hotspot atax bicg --size small --timing --config gtx480 \
        > /dev/null 2>&1 || true
    perf report -i "$work/perf-timing.data" --no-children --sort sym --stdio 2>/dev/null \
        | grep -E '^ +[0-9.]+%' | head -25 > "$prof_t" || true
fi

machine="$(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $(nproc) cores; load average at start $load_start, at end $(cut -d' ' -f1-3 /proc/loadavg)"
commit=$(git describe --always --dirty)
launch=""
lb=build/benchmarks/perf/exec_throughput
[ -x "$lb" ] && launch=$("$lb" | grep 'launch overhead' || true)
if [ -n "${PERF_PLAN_CMD:-}" ]; then
    command=$PERF_PLAN_CMD
    parts=$(paste -sd';' "$cmds" | sed 's/;/`, then `/g')
else
    command=$(paste -sd';' "$cmds" | sed 's/;/`, then `/g')
    parts=""
fi
python3 scripts/perf_report.py --launch-overhead "$launch" --lines "$lines" --out "$out" --machine "$machine" \
    --commit "$commit" --reps "$reps" --profile-functional "$prof_f" \
    --profile-timing "$prof_t" --command "$command" --parts "$parts" \
    --reasons scripts/perf-reasons.md
echo "perf.sh: wrote $out" >&2
