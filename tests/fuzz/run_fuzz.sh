#!/bin/sh
# tests/fuzz/run_fuzz.sh FUZZER [libFuzzer flags...]
# Runs a harness on the seed snippets and the parser corpus.  New inputs go
# to a scratch directory (libFuzzer writes into its first corpus directory),
# so the source tree is never modified; crashes land in ./crash-* as usual.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(cd "$here/../corpus" && pwd)
fuzzer=$1
shift
scratch=${FUZZ_SCRATCH:-$(mktemp -d)}
trap 'if [ -z "${FUZZ_SCRATCH:-}" ]; then rm -rf "$scratch"; fi' EXIT
"$fuzzer" -dict="$here/ptx.dict" -max_len=16384 -timeout=10 "$@" "$scratch" \
    "$here/seeds" "$corpus/nvcc" "$corpus/hand" "$corpus/bad"
