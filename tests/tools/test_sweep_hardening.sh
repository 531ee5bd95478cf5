#!/usr/bin/env bash
# tests/tools/test_sweep_hardening.sh — `ptxemu sweep` on what users get
# wrong: experiment files that GKeyFile would accept silently (a key set
# twice, an unknown group or key, a syntax error, a range of a billion
# values) are errors naming the line; a full disk exits with the output
# error status (1, docs/errors.md) and every job says why it failed; a
# second sweep into a busy results folder is refused with a message and
# leaves the first one's files alone; a sweep killed with SIGKILL takes its
# running jobs with it.  Needs PTXEMU_BIN (set by meson).
set -uo pipefail
BIN=${PTXEMU_BIN:?PTXEMU_BIN not set}
T=$(mktemp -d)
MNT=
SWEEP_PID=
cleanup() {
    [ -n "$SWEEP_PID" ] && kill -9 "$SWEEP_PID" 2>/dev/null
    # jobs of this test that outlived their sweep (the bug this test looks for)
    for p in $(pgrep -f "sweep --run-job $T/" || true); do kill -9 "$p" 2>/dev/null; done
    [ -n "$MNT" ] && umount "$MNT" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

# --- experiment files: exit 2 and "FILE:LINE: " of the offending line
bad() { # name, expected line, expected text, file body
    printf '%s\n' "$4" > "$T/$1.ini"
    out=$("$BIN" sweep "$T/$1.ini" -n 2>&1); rc=$?
    if [ $rc -eq 2 ] && grep -q "$T/$1.ini:$2: " <<<"$out" && grep -q -- "$3" <<<"$out"; then
        pass "$1 -> line $2"
    else
        fail "$1: rc $rc, want line $2 and '$3': $out"
    fi
}
# GKeyFile keeps the last of two equal keys: the first benchmark list was dropped
bad duplicate-key 4 "benchmarks: set again (first at line 2)" '[experiment]
benchmarks = vector-add, scan
sizes = tiny
benchmarks = reduction'
bad duplicate-override 6 "warp.policy: set again (first at line 4)" '[experiment]
benchmarks = vector-add
[overrides]
warp.policy = lrr
core.max_ctas = 2
warp.policy = gto'
bad duplicate-group 5 "\[experiment\] again (first at line 1)" '[experiment]
benchmarks = vector-add
[overrides]
warp.policy = lrr
[experiment]
sizes = tiny'
bad unknown-group 4 "unknown group \[bogus\]" '[experiment]
benchmarks = vector-add

[bogus]
x = 1'
bad misspelt-key 3 "unknown key 'sise' (did you mean 'sizes'?" '[experiment]
benchmarks = vector-add
sise = small'
bad misspelt-summary 6 "unknown key 'metric' (did you mean 'metrics'?" '[experiment]
benchmarks = vector-add
[overrides]
warp.policy = lrr, gto
[summary]
metric = total.ipc'
# a paper's own size exists only for the benchmarks that define it
bad size-not-defined 3 "benchmark vector-add has no input for size claso" '[experiment]
benchmarks = stencil, vector-add
sizes = claso'
bad thesis-not-defined 3 "benchmark stencil has no input for size thesis" '[experiment]
benchmarks = lud, stencil
sizes = thesis'
bad syntax-line 3 "syntax error: 'benchmarks vector-add' is not 'key = value'" '[experiment]
sizes = tiny
benchmarks vector-add'
bad syntax-group 2 "syntax error: '\[overrides' is not a \[group\] header" '[experiment]
[overrides
benchmarks = vector-add'
bad key-outside 2 "'benchmarks' is outside any group" '# an experiment
benchmarks = vector-add'
bad huge-range 5 "range '1..999999999' has 999999999 values; at most 10000 per range" '[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
core.max_ctas = 1..999999999'
bad overflow-range 5 "a bound is beyond 64-bit integers" '[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
core.max_ctas = 1..99999999999999999999999'
bad huge-product 4 "more than 100000 combinations" '[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
core.max_ctas = 1..1000
core.regs = 1..1000'
bad bad-boolean 3 "functional: want true or false" '[experiment]
benchmarks = vector-add
functional = maybe'
bad bad-repetitions 3 "repetitions: want a whole number" '[experiment]
benchmarks = vector-add
repetitions = three'
# every committed experiment still loads (its [pairs] group is another tool's)
for f in "$(dirname "$0")"/../../experiments/*.ini; do
    "$BIN" sweep "$f" -n > /dev/null 2> "$T/committed.err" \
        || fail "committed experiment $f rejected: $(cat "$T/committed.err")"
done
pass "committed experiments load"

cat > "$T/two.ini" <<'INI'
[experiment]
benchmarks = vector-add, scan
sizes = tiny
functional = true
timeout = 120
INI

# --- a full disk: a tmpfs filled to the last block (root only)
MNT="$T/mnt"
mkdir -p "$MNT"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=256k tmpfs "$MNT" 2>/dev/null; then
    mkdir -p "$MNT/res/jobs"
    dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
    "$BIN" sweep "$T/two.ini" -o "$MNT/res" -j 1 > "$T/full.out" 2> "$T/full.err"; rc=$?
    [ $rc -eq 1 ] && pass "full disk: exit 1 (an output that could not be written)" \
        || fail "full disk: rc $rc, want 1: $(cat "$T/full.err")"
    nfail=$(grep -c "FAILED" "$T/full.err")
    nwhy=$(grep "FAILED" "$T/full.err" \
        | grep -c "could not write its results into $MNT/res/jobs.*its record could not be written: .*No space left on device")
    [ "$nfail" -eq 4 ] && [ "$nwhy" -eq 4 ] && pass "full disk: all 4 jobs say why they failed" \
        || fail "full disk: $nfail failed, $nwhy with the reason: $(cat "$T/full.err")"
    grep -q "4 job records could not be written in $MNT/res/jobs" "$T/full.err" \
        && grep -q "cannot write the results: .*results.jsonl.*No space left on device" "$T/full.err" \
        && pass "full disk: the records and results files named with the system's reason" \
        || fail "full disk: $(cat "$T/full.err")"
    # room again: the rerun runs both jobs and succeeds
    rm -f "$MNT/fill"
    "$BIN" sweep "$T/two.ini" -o "$MNT/res" -j 1 -q > /dev/null 2> "$T/full2.err"; rc=$?
    [ $rc -eq 0 ] && pass "full disk: the rerun with room succeeds" \
        || fail "full disk rerun rc $rc: $(cat "$T/full2.err")"
    umount "$MNT" && MNT=
else
    echo "note: not root or no tmpfs mount: the full-disk check is skipped"
    MNT=
fi

# --- two sweeps into one folder: the second is refused, the first goes on
R="$T/busy"
PTXEMU_SWEEP_TEST_HANG=scan "$BIN" sweep "$T/two.ini" -o "$R" -j 2 > /dev/null 2> "$T/first.err" &
SWEEP_PID=$!
# deadlines, not timings: the loops end as soon as the event is seen, and
# are long because the test machines run other jobs beside the suite
for _ in $(seq 1200); do
    grep -qs "hanging" "$R"/jobs/*.log && break
    sleep 0.05
done
grep -qs "hanging" "$R"/jobs/*.log || fail "the first sweep's hanging job did not start"
hang_log=$(grep -ls "hanging" "$R"/jobs/*.log | head -1)
out=$("$BIN" sweep "$T/two.ini" -o "$R" -j 2 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "$R is in use by another sweep (pid $SWEEP_PID)" <<<"$out" \
    && pass "second sweep into a busy folder: exit 1, says which sweep holds it" \
    || fail "second sweep: rc $rc: $out"
grep -q "done\|ok\|not run" <<<"$out" && fail "the refused sweep ran or reported jobs: $out"
[ -s "$hang_log" ] && grep -q hanging "$hang_log" \
    && pass "the first sweep's running job kept its files" \
    || fail "the second sweep removed the first one's job files"

# --- SIGKILL of the sweep: its running jobs end with it
kids=$(pgrep -P "$SWEEP_PID" || true)
[ -n "$kids" ] || fail "no running job under the sweep"
kill -9 "$SWEEP_PID"
wait "$SWEEP_PID" 2>/dev/null
SWEEP_PID=
alive() { # a process that exists and is not a zombie
    local st
    st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
left=
for _ in $(seq 600); do
    left=
    for k in $kids; do alive "$k" && left="$left $k"; done
    [ -z "$left" ] && break
    sleep 0.05
done
[ -z "$left" ] && pass "SIGKILL of the sweep ends its running jobs" \
    || fail "jobs outlived the killed sweep:$left"
# the lock died with it: a rerun runs, and the hanging job was not left behind
"$BIN" sweep "$T/two.ini" -o "$R" -j 2 -q > /dev/null 2> "$T/rerun.err"; rc=$?
[ $rc -eq 0 ] && pass "rerun after SIGKILL: the folder is free and every job ok" \
    || fail "rerun after SIGKILL rc $rc: $(cat "$T/rerun.err")"

echo "$fails failure(s)"
[ $fails -eq 0 ]
