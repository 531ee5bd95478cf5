#!/usr/bin/env bash
# tests/tools/test_sweep.sh — `ptxemu sweep` and `ptxemu plot` end to end on
# tiny jobs: bad experiment files name their line; a crashing, hanging or
# wrong job is recorded as failed with the reason and the sweep goes on;
# an interrupted sweep resumes without redoing finished jobs; the outputs
# (JSONL, CSV, summary with geomean, three SVGs) are written and agree with
# each other.  Needs PTXEMU_BIN (set by meson).
set -uo pipefail
BIN=${PTXEMU_BIN:?PTXEMU_BIN not set}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

# --- bad experiment files: exit 2 and "FILE:LINE:" of the offending line
bad() { # name, expected line, expected text, file body
    printf '%s\n' "$4" > "$T/$1.ini"
    out=$("$BIN" sweep "$T/$1.ini" -n 2>&1); rc=$?
    if [ $rc -eq 2 ] && grep -q "$T/$1.ini:$2: " <<<"$out" && grep -q -- "$3" <<<"$out"; then
        pass "$1 -> line $2"
    else
        fail "$1: rc $rc, want line $2 and '$3': $out"
    fi
}
bad unknown-bench 3 "unknown benchmark 'no-such'" '[experiment]
# the benchmarks
benchmarks = vector-add, no-such
sizes = tiny'
bad unknown-key 6 "nosuch" '[experiment]
benchmarks = vector-add
sizes = tiny

[overrides]
warp.nosuch = 3'
bad bad-value 5 "warp.policy" '[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
warp.policy = lrr, fastest'
bad bad-range 5 "bad range '8..2'" '[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
core.max_ctas = 8..2'
bad empty-values 6 "cross product is empty" '[experiment]
benchmarks = vector-add
sizes = tiny

[overrides]
warp.policy = ,'
bad empty-bench 3 "no benchmark left" '[experiment]
benchmarks = vector-add
exclude = vector-*'
bad bad-size 3 "unknown size 'huge'" '[experiment]
benchmarks = vector-add
sizes = tiny, huge'
bad bad-config 3 "unknown config 'gtx9000'" '[experiment]
benchmarks = vector-add
configs = gtx9000'
bad bad-baseline 8 "matches no variant" '[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
warp.policy = lrr, gto

[summary]
baseline = warp.policy=rr'

bad group-keys 7 "names other keys than \[overrides\]" '[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
cta.filters = none
core.max_ctas = 1..2
[overrides.more]
cta.filters = claso'
bad group-alone 3 "needs an \[overrides\] group" '[experiment]
benchmarks = vector-add
[overrides.more]
cta.filters = claso'

# --- [overrides.NAME] groups add their cross products (union, a combination
# once); '+' joins a list value (cta.filters = dyncta+claso)
cat > "$T/union.ini" <<'INI'
[experiment]
benchmarks = vector-add
sizes = tiny
[overrides]
cta.filters = none
core.max_ctas = 1..3
[overrides.policies]
cta.filters = perf-sat, dyncta+claso
core.max_ctas = 3
[overrides.again]
cta.filters = none
core.max_ctas = 2
INI
out=$("$BIN" sweep "$T/union.ini" --out "$T/union" -n 2>&1); rc=$?
want="cta.filters=none --set core.max_ctas=1
cta.filters=none --set core.max_ctas=2
cta.filters=none --set core.max_ctas=3
cta.filters=perf-sat --set core.max_ctas=3
cta.filters=dyncta+claso --set core.max_ctas=3"
got=$(grep -o 'cta.filters=[^ ]* --set core.max_ctas=[0-9]*' <<<"$out")
if [ $rc -eq 0 ] && [ "$got" = "$want" ] && grep -q "^5 jobs, 5 timing variants" <<<"$out"; then
    pass "override groups: union of 3 + 2 variants, the duplicate once"
else
    fail "override groups: rc $rc: $out"
fi

bad bad-variant 5 "want group.key=value or config=NAME" '[experiment]
benchmarks = vector-add
sizes = tiny
[variants]
A = warp.policy'
bad variant-config 5 "config=c2050 is not one of" '[experiment]
benchmarks = vector-add
configs = gtx480
[variants]
A = config=c2050 warp.policy=gto'
bad variant-value 6 "warp.policy" '[experiment]
benchmarks = vector-add
sizes = tiny
[variants]
A = warp.policy=lrr
B = warp.policy=fastest'

# --- [variants]: named sets crossed with [overrides], a pinned config runs
# only there: 2 overrides x (A on both configs + B on c2050 only) = 6 jobs
cat > "$T/var.ini" <<'INI'
[experiment]
benchmarks = vector-add
sizes = tiny
configs = gtx480, c2050
[overrides]
core.max_ctas = 2, 4
[variants]
A = warp.policy=lrr
B = config=c2050 warp.policy=gto cta.policy=rr
INI
out=$("$BIN" sweep "$T/var.ini" --out "$T/var" -n 2>&1)
want="gtx480 --set core.max_ctas=2 --set warp.policy=lrr
c2050 --set core.max_ctas=2 --set warp.policy=lrr
c2050 --set core.max_ctas=2 --set warp.policy=gto --set cta.policy=rr
gtx480 --set core.max_ctas=4 --set warp.policy=lrr
c2050 --set core.max_ctas=4 --set warp.policy=lrr
c2050 --set core.max_ctas=4 --set warp.policy=gto --set cta.policy=rr"
got=$(grep -o -- '--config .*' <<<"$out" | sed 's/^--config //')
if [ "$(sort <<<"$got")" = "$(sort <<<"$want")" ] && grep -q "6 jobs, 6 timing variants" <<<"$out"; then
    pass "[variants] expansion"
else
    fail "[variants] expansion: $out"
fi

# --- a sweep of tiny jobs: 3 benchmarks x (functional + lrr + gto) = 9 jobs
cat > "$T/exp.ini" <<'INI'
[experiment]
name = tiny-test
benchmarks = vector-add, reduction, scan
sizes = tiny
configs = gtx480
functional = true
timeout = 20

[overrides]
warp.policy = lrr, gto
cta.policy = rr

[summary]
baseline = warp.policy=lrr
INI
R="$T/res"
njobs=$("$BIN" sweep "$T/exp.ini" -n | tail -1 | cut -d' ' -f1)
[ "$njobs" = 9 ] && pass "9 jobs expanded" || fail "expected 9 jobs, got $njobs"

# interrupt: job 4 (reduction lrr, index 4) hangs; stop the sweep when it has started
PTXEMU_SWEEP_TEST_HANG=reduction "$BIN" sweep "$T/exp.ini" -o "$R" -j 1 2> "$T/int.err" > /dev/null &
pid=$!
for _ in $(seq 200); do
    grep -qs "hanging" "$R"/jobs/*.log && break
    sleep 0.05
done
kill -INT $pid
wait $pid; rc=$?
done_before=$(grep -l "status=ok" "$R"/jobs/*.rec 2>/dev/null | wc -l)
[ $rc -eq 130 ] && pass "interrupted sweep exits 130" || fail "interrupted sweep rc $rc"
[ "$done_before" -eq 3 ] && pass "3 jobs finished before the interrupt" \
    || fail "expected 3 finished jobs before the interrupt, got $done_before"
grep -q "interrupted" "$T/int.err" && grep -q "remaining" "$T/int.err" \
    && pass "progress and interrupt message on stderr" || fail "stderr: $(cat "$T/int.err")"
pgrep -f "sweep --run-job $R" >/dev/null && fail "a job process outlived the interrupted sweep"
stamp() { for f in "$R"/jobs/*.rec; do echo "$f $(stat -c %Y.%N "$f" 2>/dev/null || stat -c %Y "$f")"; done; }
before=$(stamp)
sleep 1.1
# resume: the finished jobs are skipped, the others run
"$BIN" sweep "$T/exp.ini" -o "$R" -j 2 2> "$T/resume.err" > "$T/resume.out"; rc=$?
[ $rc -eq 0 ] && pass "resumed sweep exits 0" || fail "resumed sweep rc $rc: $(cat "$T/resume.err")"
grep -q "9 jobs, 3 already finished, 6 to run" "$T/resume.err" \
    && pass "resume skips the 3 finished jobs" || fail "resume: $(head -1 "$T/resume.err")"
unchanged=0
while read -r f s; do
    now=$(stat -c %Y.%N "$f" 2>/dev/null || stat -c %Y "$f")
    [ "$now" = "$s" ] && unchanged=$((unchanged + 1))
done <<<"$before"
[ "$unchanged" -ge 3 ] && pass "finished records untouched by the resume" \
    || fail "only $unchanged earlier records untouched"
# a rerun does nothing
"$BIN" sweep "$T/exp.ini" -o "$R" -q; rc=$?
[ $rc -eq 0 ] || fail "rerun rc $rc"

# outputs
[ "$(wc -l < "$R/results.jsonl")" -eq 9 ] && pass "results.jsonl has 9 records" \
    || fail "results.jsonl lines: $(wc -l < "$R/results.jsonl")"
[ "$(grep -c '"status": "ok"' "$R/results.jsonl")" -eq 9 ] || fail "not all ok in JSONL"
[ "$(wc -l < "$R/results.csv")" -eq 10 ] && pass "results.csv has header + 9 rows" \
    || fail "results.csv lines"
# summary: speedup = baseline cycles / cycles, recomputed here from results.csv
python3 - "$R" <<'PY' && pass "summary.csv speedups and geomean match results.csv" || fail "summary.csv"
import csv, math, sys
d = sys.argv[1]
rows = [r for r in csv.DictReader(open(d + "/results.csv")) if r["mode"] == "timing"]
cyc = {(r["benchmark"], r["warp.policy"]): float(r["total.cycles"]) for r in rows}
summ = list(csv.DictReader(open(d + "/summary.csv")))
logs = []
for s in summ:
    if s["benchmark"] == "geomean" or "gto" not in s["variant"]:
        continue
    want = cyc[(s["benchmark"], "lrr")] / cyc[(s["benchmark"], "gto")]
    assert abs(float(s["speedup"]) - want) < 1e-4 * want, (s, want)
    logs.append(math.log(want))
g = [s for s in summ if s["benchmark"] == "geomean" and "gto" in s["variant"]][0]
assert abs(float(g["speedup"]) - math.exp(sum(logs) / len(logs))) < 1e-4
assert len(logs) == 3
PY
# every timing job's stats are in the JSONL and equal to its stats file
python3 - "$R" <<'PY' && pass "JSONL stats equal the per-job stats files" || fail "JSONL stats"
import json, sys
d = sys.argv[1]
for line in open(d + "/results.jsonl"):
    r = json.loads(line)
    if r["mode"] == "timing":
        assert r["stats"] == json.load(open(d + "/jobs/" + r["id"] + ".stats.json"))
        assert r["stats"]["policies"]["warp"] == r["overrides"]["warp.policy"]
    else:
        assert r["stats"] is None and r["counters"]["thread_instructions"] > 0
PY

# plots: three SVGs with gnuplot; without it a clear error and the CSVs anyway
if command -v gnuplot >/dev/null; then
    "$BIN" plot "$R" > /dev/null; rc=$?
    n=$(ls "$R"/plots/{bars,line,states}.svg 2>/dev/null | wc -l)
    [ $rc -eq 0 ] && [ "$n" -eq 3 ] && grep -q "<svg" "$R/plots/bars.svg" \
        && pass "three SVGs" || fail "plot rc $rc, $n SVGs"
    grep -q "^geomean," "$R/plots/bars.csv" && pass "bars have a geomean group" || fail "bars.csv"
else
    echo "note: gnuplot not installed; SVGs not checked"
fi
rm -rf "$R/plots"
out=$(PATH=/nonexistent "$BIN" plot "$R" 2>&1); rc=$?
[ $rc -eq 3 ] && grep -q "gnuplot-nox" <<<"$out" && [ -s "$R/plots/bars.csv" ] \
    && [ -s "$R/plots/states.csv" ] && pass "missing gnuplot: exit 3, install hint, CSVs written" \
    || fail "missing gnuplot: rc $rc: $out"

# failures: crash, hang (timeout), wrong answer -> failed with reason, sweep goes on
cat > "$T/fail.ini" <<'INI'
[experiment]
benchmarks = vector-add, reduction, scan, global-increment
sizes = tiny
configs = gtx480
# long enough for every job under ASan, short enough to wait for the hang
timeout = 10
INI
F="$T/fail"
PTXEMU_SWEEP_TEST_CRASH=reduction PTXEMU_SWEEP_TEST_HANG=scan PTXEMU_SWEEP_TEST_WRONG=global-increment \
    "$BIN" sweep "$T/fail.ini" -o "$F" -j 2 > "$T/fail.out" 2> "$T/fail.err"; rc=$?
[ $rc -eq 1 ] && pass "a sweep with failed jobs exits 1" || fail "failing sweep rc $rc"
python3 - "$F" <<'PY' && pass "crash, timeout and wrong answer recorded with reason and stderr tail" \
    || fail "failure records: $(cut -c1-300 "$F/results.jsonl")"
import json, sys
recs = {r["benchmark"]: r for r in map(json.loads, open(sys.argv[1] + "/results.jsonl"))}
assert recs["vector-add"]["status"] == "ok"
c = recs["reduction"]
assert c["status"] == "failed" and "signal 6" in c["reason"] and "crashing" in c["stderr_tail"], c
h = recs["scan"]
assert h["status"] == "failed" and h["reason"].startswith("timed out") and "hanging" in h["stderr_tail"], h
w = recs["global-increment"]
assert w["status"] == "failed" and w["reason"].startswith("FAIL"), w
PY
# failed jobs rerun; finished ones do not
"$BIN" sweep "$T/fail.ini" -o "$F" -j 2 > /dev/null 2> "$T/fail2.err"; rc=$?
[ $rc -eq 0 ] && grep -q "4 jobs, 1 already finished, 3 to run" "$T/fail2.err" \
    && pass "failed jobs rerun and now pass" || fail "rerun of failed: rc $rc $(head -1 "$T/fail2.err")"

echo "$fails failure(s)"
[ $fails -eq 0 ]
