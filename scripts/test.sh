#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: once in an
# optimised build and once under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
[ -d build ] || meson setup build --buildtype=debugoptimized
meson compile -C build
meson test -C build --print-errorlogs --num-processes "$jobs"
# -O1: the sanitizers' usual level (checks intact, several times faster than -O0)
[ -d build-san ] || meson setup build-san --buildtype=debug -Doptimization=1 \
    -Db_sanitize=address,undefined -Db_lundef=false
meson configure build-san -Doptimization=1
meson compile -C build-san
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-san --print-errorlogs --num-processes "$jobs" --timeout-multiplier 4
