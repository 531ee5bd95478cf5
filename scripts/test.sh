#!/usr/bin/env bash
# Installs what is missing, builds, and runs the tests: once in an
# optimised build and once under AddressSanitizer + UndefinedBehaviorSanitizer.
#   scripts/test.sh          every test in both builds, the cross products
#                            (policy x benchmark, stepping equivalence,
#                            validate all, par_timing, fuzz length) sampled
#                            so that every policy, benchmark and ISA family
#                            still runs (tests/meson.build, `sampled`)
#   scripts/test.sh --full   the cross products whole in the optimised build
#                            (before a release, and for the experiments):
#                            -Dfull_tests=true
set -euo pipefail
cd "$(dirname "$0")/.."
full=false
for a in "$@"; do
    case "$a" in
        --full) full=true ;;
        *) echo "usage: scripts/test.sh [--full]" >&2; exit 2 ;;
    esac
done
scripts/install-deps.sh
jobs=$(nproc)
[ -d build ] || meson setup build --buildtype=debugoptimized -Dfull_tests=$full
meson configure build -Dfull_tests=$full
meson compile -C build
meson test -C build --print-errorlogs --num-processes "$jobs"
# -O1: the sanitizers' usual level (checks intact, several times faster than -O0)
[ -d build-san ] || meson setup build-san --buildtype=debug -Doptimization=1 \
    -Db_sanitize=address,undefined -Db_lundef=false -Dfull_tests=$full
meson configure build-san -Doptimization=1 -Dfull_tests=$full
meson compile -C build-san
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-san --print-errorlogs --num-processes "$jobs" --timeout-multiplier 4
