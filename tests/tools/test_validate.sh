#!/usr/bin/env bash
# tests/tools/test_validate.sh — `ptxemu validate`: with VALIDATE_SHARD=I/N,
# every implemented policy combination leaves every device buffer of that
# shard of the benchmarks (tiny) identical to the functional run; without,
# the run-spec form agrees and the test-only policy that corrupts
# one 32-bit word at byte offset 148 (VALIDATE_TEST_BIN) is caught with
# that offset, both values and a replay command that runs.
set -uo pipefail
BIN=${PTXEMU_BIN:?PTXEMU_BIN not set}
TBIN=${VALIDATE_TEST_BIN:?VALIDATE_TEST_BIN not set}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

# --each: every policy once (the full cross product grows with the product
# of the levels' policy counts and is too slow for the suite)
ncombo=$("$BIN" validate --each --list | wc -l)
if [ -n "${VALIDATE_SHARD:-}" ]; then
    # one shard of "every policy x every benchmark (tiny)": --each runs every
    # policy once (the full cross product grows with the product of the
    # levels); the shards are separate meson tests so they run in parallel
    "$BIN" validate all --each --size tiny --shard "$VALIDATE_SHARD" > "$T/all.txt" 2>&1; rc=$?
    nb=$(grep -c "^validate " "$T/all.txt")
    nid=$(grep -c " identical$" "$T/all.txt")
    [ $rc -eq 0 ] && [ "$nb" -gt 0 ] && [ "$nid" -eq $((ncombo * nb)) ] \
        && pass "shard $VALIDATE_SHARD: $nb benchmarks x $ncombo policy combinations identical" \
        || { fail "validate shard $VALIDATE_SHARD: rc $rc, $nid identical of $((ncombo * nb))"; grep -v identical "$T/all.txt" | head -20; }
    echo "$fails failure(s)"
    [ $fails -eq 0 ]
    exit
fi

# the run-spec form: buffers dumped by `ptxemu run` per combination
ROOT=${PTXEMU_SOURCE_DIR:?}
"$BIN" validate --each --ptx "$ROOT/benchmarks/vector-add/kernels.ptx" -- --kernel vector_add \
    --grid 4 --block 128 --arg iota:f32:512 --arg rand:f32:512:3 --arg zeros:2048 \
    --arg u32:512 > "$T/spec.txt" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "3 buffer arguments" "$T/spec.txt" \
    && [ "$(grep -c " identical$" "$T/spec.txt")" -eq "$ncombo" ] \
    && pass "run spec: every combination identical" || { fail "run spec rc $rc"; cat "$T/spec.txt"; }

"$TBIN" validate --each vector-add > "$T/bad.txt" 2>&1; rc=$?
cat "$T/bad.txt"
[ $rc -eq 1 ] && pass "corrupting policy: exit 1" || fail "corrupting policy: rc $rc"
grep -q "^test-corrupt-store .* DIFFERENT$" "$T/bad.txt" && pass "corrupt row DIFFERENT" \
    || fail "no DIFFERENT row"
[ "$(grep -c " identical$" "$T/bad.txt")" -eq "$ncombo" ] && pass "real policies still identical" \
    || fail "real policies not all identical"
grep -q "first difference at byte offset 148: functional 0x.., timing 0x.." "$T/bad.txt" \
    && pass "offset 148 and both values reported" || fail "offset not reported"
replay=$(sed -n 's/^ *replay: ptxemu //p' "$T/bad.txt")
[ -n "$replay" ] && (cd "$T" && eval "\"$BIN\" $replay" > /dev/null) && [ -s "$T/vector-add.trace" ] \
    && pass "replay command runs and writes the scheduler trace" || fail "replay: '$replay'"

echo "$fails failure(s)"
[ $fails -eq 0 ]
