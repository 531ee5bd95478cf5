#!/usr/bin/env bash
# tests/tools/test_correlate.sh — `ptxemu correlate` end to end on three
# benchmarks at size tiny (vector-add, hotspot, scan; 7 launches) on gtx480:
# the ptxemu values it prints are `bench run --timing`'s statistics for the
# same launches (converted to the reference's core clock when it names
# one); a reference made from those statistics with every cycle count
# doubled gives r = 1, MAPE 50% and ratio 0.5 in every half; the halves
# split by registry order; malformed references name file and line.
# Needs PTXEMU_BIN and PTXEMU_SOURCE_DIR (set by meson).
set -uo pipefail
BIN=${PTXEMU_BIN:?PTXEMU_BIN not set}
ROOT=${PTXEMU_SOURCE_DIR:?PTXEMU_SOURCE_DIR not set}
REF="$ROOT/tests/tools/correlate-ref.csv"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

# gtx480 runs its core at 700 MHz (GPGPU-Sim's SM2_GTX480); at 1401 here, so
# that a 700 MHz reference needs the clock conversion this test checks
CLK="--set clock.core=1401"

# --- the statistics `bench run --timing` writes for the same runs
for b in vector-add hotspot scan; do
    "$BIN" bench run "$b" --size tiny --timing --config gtx480 $CLK --stats "$T/$b.json" > /dev/null \
        || fail "bench run $b"
done

# --- the committed example (reference clock 700 MHz, ptxemu's 1401)
"$BIN" correlate "$REF" $CLK --csv "$T/joined.csv" > "$T/out.txt" 2> "$T/err.txt"; rc=$?
[ $rc -eq 0 ] && pass "example reference: exit 0" || { fail "example: rc $rc"; cat "$T/err.txt"; }
grep -q "converted to the reference's clock (x 700/1401)" "$T/out.txt" \
    && pass "clock conversion said" || fail "no clock conversion line"
grep -q "^metric icnt_stalls: ptxemu counts no interconnect stalls" "$T/out.txt" \
    && pass "icnt_stalls: no counterpart said" || fail "icnt_stalls not reported as missing"
grep -q "^first half: 4 launches (vector-add tiny 0 .. hotspot tiny 2)" "$T/out.txt" \
    && grep -q "^second half: 3 launches (scan tiny 0 .. scan tiny 2)" "$T/out.txt" \
    && pass "halves by registry order" || fail "halves: $(grep half "$T/out.txt")"
python3 - "$T" 700 <<'PY' && pass "joined CSV values equal the stats JSON (clock converted)" \
    || fail "joined CSV against the stats JSON"
import csv, json, sys
t, ref_mhz = sys.argv[1], float(sys.argv[2])
scale = ref_mhz / 1401.0
stats = {b: sorted(json.load(open(f"{t}/{b}.json"))["kernels"], key=lambda k: k["launch"])
         for b in ("vector-add", "hotspot", "scan")}
rows = list(csv.DictReader(open(f"{t}/joined.csv")))
assert len(rows) == 7, len(rows)
# rows in registry order: vector-add, hotspot x3 (first half), scan x3
assert [(r["benchmark"], r["launch"], r["half"]) for r in rows] == [
    ("vector-add", "0", "first"), ("hotspot", "0", "first"), ("hotspot", "1", "first"),
    ("hotspot", "2", "first"), ("scan", "0", "second"), ("scan", "1", "second"),
    ("scan", "2", "second")], rows
def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))
for r in rows:
    k = stats[r["benchmark"]][int(r["launch"])]
    m = k["memory"]
    assert r["kernel"] == k["name"]
    assert close(float(r["cycles_ptxemu"]), k["cycles"] * scale, 1e-12), (r, k["cycles"])
    assert int(r["warp_instructions_ptxemu"]) == k["warp_instructions"]
    assert int(r["instructions_ptxemu"]) == k["thread_instructions"]
    assert close(float(r["ipc_ptxemu"]), k["thread_instructions"] / (k["cycles"] * scale), 1e-12)
    for lvl in ("l1", "l2"):
        acc = m[f"{lvl}_hits"] + m[f"{lvl}_misses"]
        got = r[f"{lvl}_hit_ptxemu"]
        assert (got == "") == (acc == 0), (lvl, got, acc)
        if acc:
            assert close(float(got), m[f"{lvl}_hit_rate"], 1e-6), (lvl, got, m[f"{lvl}_hit_rate"])
    assert int(r["dram_reads_ptxemu"]) == m["dram_reads"]
    assert int(r["dram_writes_ptxemu"]) == m["dram_writes"]
    assert r["icnt_stalls_ptxemu"] == ""
# the reference side as written, the extra 'note' column ignored
va = rows[0]
assert va["cycles_ref"] == "3000" and va["icnt_stalls_ref"] == "7" and va["l1_hit_error"] == ""
assert close(float(va["cycles_error"]), (float(va["cycles_ptxemu"]) - 3000) / 3000, 1e-12)
PY

# --- DRAM units: a reference counting 32-byte requests gets ptxemu's 128-byte
# line requests x 4
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
k = json.load(open(f"{t}/vector-add.json"))["kernels"][0]
with open(f"{t}/dram.csv", "w") as f:
    f.write("# dram_request_bytes: 32\nbenchmark,size,launch,kernel,dram_reads\n")
    f.write(f"vector-add,tiny,0,vector_add,{4 * k['memory']['dram_reads']}\n")
PY
"$BIN" correlate "$T/dram.csv" > "$T/dram.txt" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "^dram: the reference counts requests of 32 bytes, ptxemu of 128" "$T/dram.txt" \
    && grep -qE "^  dram_reads +1 +n/a +0\.00 +1\.0000" "$T/dram.txt" \
    && pass "dram_request_bytes 32: ptxemu's requests x 128/32" || { fail "dram units"; cat "$T/dram.txt"; }

# --- a reference made from ptxemu's own figures: cycles doubled (same clock)
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
with open(f"{t}/double.csv", "w") as f:
    f.write("# reference: ptxemu x 2 (test)\n# core_clock_mhz: 1401\n")
    f.write("benchmark,size,launch,kernel,cycles,instructions\n")
    for b in ("scan", "vector-add", "hotspot"):  # file order does not matter
        for i, k in enumerate(sorted(json.load(open(f"{t}/{b}.json"))["kernels"],
                                     key=lambda k: k["launch"])):
            f.write(f"{b},tiny,{i},{k['name']},{2 * k['cycles']},{k['thread_instructions']}\n")
PY
"$BIN" correlate "$T/double.csv" $CLK > "$T/double.txt" 2>&1; rc=$?
n50=$(grep -cE "^  cycles +[0-9]+ +1\.0000 +50\.00 +0\.5000 *$" "$T/double.txt")
n0=$(grep -cE "^  instructions +[0-9]+ +1\.0000 +0\.00 +1\.0000 *$" "$T/double.txt")
[ $rc -eq 0 ] && [ "$n50" -eq 3 ] && [ "$n0" -eq 3 ] \
    && grep -q "^clock: the reference's core clock is ptxemu's (1401 MHz)" "$T/double.txt" \
    && pass "cycles x 2: r 1, MAPE 50%, ratio 0.5 in all and both halves" \
    || { fail "doubled reference: rc $rc, $n50 cycles lines, $n0 instruction lines"; cat "$T/double.txt"; }
grep -qE "^1 +vector-add +tiny +0 +vector_add +[0-9]+ +[0-9]+ +-50\.0%" "$T/double.txt" \
    && pass "per-launch error -50.0%" || fail "per-launch row"
"$BIN" correlate "$T/double.csv" $CLK --half second --metric cycles > "$T/second.txt" 2>&1; rc=$?
[ $rc -eq 0 ] && ! grep -q "^all:\|^first half:" "$T/second.txt" \
    && grep -q "^second half: 3 launches" "$T/second.txt" \
    && [ "$(grep -c "^2 " "$T/second.txt")" -eq 3 ] && ! grep -q "^1 " "$T/second.txt" \
    && ! grep -q "instructions" "$T/second.txt" \
    && pass "--half second --metric cycles: that half's rows and summary only" \
    || { fail "--half second"; cat "$T/second.txt"; }

# --- --plot: SVGs with r and MAPE in the title; without gnuplot a clear error
if command -v gnuplot > /dev/null; then
    "$BIN" correlate "$T/double.csv" $CLK --plot "$T/plots" > "$T/plot.txt" 2>&1; rc=$?
    [ $rc -eq 0 ] && grep -q "cycles: r = 1.0000, MAPE = 50.0%, N = 7" "$T/plots/cycles.svg" \
        && grep -q "<svg" "$T/plots/instructions.svg" && grep -q "logscale xy" "$T/plots/cycles.gp" \
        && pass "--plot: cycles.svg and instructions.svg" || { fail "--plot rc $rc"; cat "$T/plot.txt"; }
fi
PATH=/nonexistent "$BIN" correlate "$T/double.csv" --plot "$T/p2" > "$T/nognu.txt" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q "plot needs gnuplot" "$T/nognu.txt" && [ ! -e "$T/p2" ] \
    && ! grep -q "^correlate: " "$T/nognu.txt" && pass "--plot without gnuplot: exit 3 before running" || fail "no gnuplot: rc $rc"

# --- malformed references: exit 2 and FILE:LINE: message
bad() { # name, expected line, expected text, file body
    printf '%s\n' "$4" > "$T/$1.csv"
    out=$("$BIN" correlate "$T/$1.csv" 2>&1); rc=$?
    if [ $rc -eq 2 ] && grep -qF "$T/$1.csv:$2: $3" <<<"$out"; then
        pass "$1 -> line $2"
    else
        fail "$1: rc $rc, want line $2 and '$3': $out"
    fi
}
H='benchmark,size,launch,kernel,cycles,l1_hit'
bad columns 3 "4 fields, the header has 6 columns" "# x
$H
vector-add,tiny,0,vector_add"
bad number 2 "cycles: '12x' is not a number >= 0" "$H
vector-add,tiny,0,vector_add,12x,0.5"
bad rate 2 "l1_hit: '1.5' is not a number in [0, 1]" "$H
vector-add,tiny,0,vector_add,12,1.5"
bad negative 2 "cycles: '-3' is not a number >= 0" "$H
vector-add,tiny,0,vector_add,-3,0.5"
bad benchmark 3 "unknown benchmark 'no-such'" "$H
vector-add,tiny,0,vector_add,1,0
no-such,tiny,0,k,1,0"
bad size 2 "unknown size 'huge' (tiny, small or paper)" "$H
vector-add,huge,0,vector_add,1,0"
bad launch-index 2 "launch 'x' is not a launch index" "$H
vector-add,tiny,x,vector_add,1,0"
bad past-end 2 "vector-add (tiny) has no launch 5: ptxemu ran 1 launch (0..0)" "$H
vector-add,tiny,5,vector_add,1,0"
bad kernel 3 "scan (tiny) launch 2 is kernel 'scan_add' in ptxemu, the reference says 'scan_block'" "$H
scan,tiny,0,scan_block,1,0
scan,tiny,2,scan_block,1,0"
bad duplicate 4 "vector-add tiny launch 0 again (first on line 2)" "$H
vector-add,tiny,0,vector_add,1,0
# comment
vector-add,tiny,0,vector_add,2,0"
bad clock 1 "core_clock_mhz: 'fast' is not a clock in MHz" "# core_clock_mhz: fast
$H
vector-add,tiny,0,vector_add,1,0"
bad dram-bytes 1 "dram_request_bytes: '0' is not a size in bytes" "# dram_request_bytes: 0
$H
vector-add,tiny,0,vector_add,1,0"
bad no-kernel-col 1 "the header has no 'kernel' column" "benchmark,size,launch,cycles
vector-add,tiny,0,1"
bad no-metric 1 "the header names no metric column" "benchmark,size,launch,kernel,other
vector-add,tiny,0,vector_add,1"
bad quote 2 "unbalanced quotes" "$H
\"vector-add,tiny,0,vector_add,1,0"
printf '%s\n' "# nothing" > "$T/empty.csv"
out=$("$BIN" correlate "$T/empty.csv" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "$T/empty.csv: no header line" <<<"$out" && pass "no header" \
    || fail "empty: rc $rc: $out"
out=$("$BIN" correlate "$REF" $CLK --metric cycles,speed 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "no metric 'speed'" <<<"$out" && pass "--metric unknown" \
    || fail "--metric: rc $rc: $out"
out=$("$BIN" correlate "$REF" $CLK --half third 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "half must be first, second or all" <<<"$out" && pass "--half bad" \
    || fail "--half: rc $rc: $out"
out=$("$BIN" correlate "$REF" $CLK --config nosuch 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "nosuch" <<<"$out" && ! grep -q "^correlate: " <<<"$out" \
    && pass "bad --config: exit 2 before any run" || fail "--config: rc $rc: $out"

echo "$fails failure(s)"
[ $fails -eq 0 ]
