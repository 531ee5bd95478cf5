#!/usr/bin/env bash
# tests/tools/test_slurm.sh — `ptxemu sweep --backend slurm` against a real
# single-node Slurm (scripts/slurm-local.sh): a 12-job sweep submitted as a
# job array of 6 tasks x 2 jobs, waited for, collected, and compared with
# the local backend's results: every job's statistics byte for byte, and
# summary.csv.  Opt-in (PTXEMU_SLURM_TEST=1) because it needs root and may
# install packages; exits 77 (skip) with the reason otherwise.
set -uo pipefail
BIN=${PTXEMU_BIN:?PTXEMU_BIN not set}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
[ "${PTXEMU_SLURM_TEST:-0}" = 1 ] || skip "set PTXEMU_SLURM_TEST=1 to run (needs root; may install slurm-wlm and munge)"
[ "$(id -u)" -eq 0 ] || skip "needs root to start slurmctld/slurmd"
started=0
if ! SLURM_CONF=/var/lib/ptxemu-slurm/slurm.conf sinfo >/dev/null 2>&1; then
    "$ROOT/scripts/slurm-local.sh" start || skip "the local Slurm did not start"
    started=1
fi
export SLURM_CONF=/var/lib/ptxemu-slurm/slurm.conf
T=$(mktemp -d)
cleanup() {
    rm -rf "$T"
    [ $started -eq 0 ] || "$ROOT/scripts/slurm-local.sh" stop
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

cat > "$T/exp.ini" <<'INI'
[experiment]
name = slurm-test
benchmarks = vector-add, reduction, hotspot
sizes = tiny
configs = gtx480, c2050
timeout = 120

[overrides]
warp.policy = lrr, gto

[summary]
baseline = gtx480 warp.policy=lrr
INI
n=$("$BIN" sweep "$T/exp.ini" -n | tail -1 | cut -d' ' -f1)
[ "$n" = 12 ] && pass "12 jobs" || fail "expected 12 jobs, got $n"
"$BIN" sweep "$T/exp.ini" -o "$T/local" -j 2 -q; rc=$?
[ $rc -eq 0 ] && pass "local backend" || fail "local backend rc $rc"
timeout 500 "$BIN" sweep "$T/exp.ini" -o "$T/slurm" --backend slurm --per-task 2 --wait \
    --time-limit 00:10:00 > "$T/slurm.out" 2>&1; rc=$?
cat "$T/slurm.out"
[ $rc -eq 0 ] && grep -q "6 array tasks of 2 jobs" "$T/slurm.out" \
    && grep -q "collected 12 jobs: 12 ok, 0 failed, 0 missing" "$T/slurm.out" \
    && pass "slurm backend: 6 array tasks, 12 jobs collected" || fail "slurm backend rc $rc"
same=0
for f in "$T"/local/jobs/*.stats.json; do
    cmp -s "$f" "$T/slurm/jobs/$(basename "$f")" && same=$((same + 1))
done
[ $same -eq 12 ] && pass "all 12 jobs' statistics identical" || fail "$same of 12 stats identical"
cmp -s "$T/local/summary.csv" "$T/slurm/summary.csv" && pass "summary.csv identical" \
    || fail "summary.csv differs"
# a task whose records are removed is reported missing by --collect
rm -f "$T"/slurm/jobs/"$(sed -n 's/^ *5 \([0-9a-f]*\) .*/\1/p' < <("$BIN" sweep "$T/exp.ini" -n))".rec
"$BIN" sweep "$T/exp.ini" -o "$T/slurm" --collect > "$T/collect.out"; rc=$?
[ $rc -eq 1 ] && grep -q "^task 2: job 5 .*missing" "$T/collect.out" \
    && pass "--collect names the missing job and its array task" || fail "collect: rc $rc $(cat "$T/collect.out")"
echo "$fails failure(s)"
[ $fails -eq 0 ]
