#!/usr/bin/env bash
# The main job: install what is missing, build, and run the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
[ -d build ] || meson setup build --buildtype=release >/dev/null
meson compile -C build >/dev/null
ptx=tests/corpus/nvcc/reduction.sm_75.ptx
echo "== ptxemu parse $ptx"
build/tools/ptxemu parse "$ptx"
echo
echo "== ptxemu cfg $ptx"
build/tools/ptxemu cfg "$ptx"
echo
echo "== ptxemu bench run vector-add hotspot bfs --size small (functional)"
build/tools/ptxemu bench run vector-add hotspot bfs --size small
echo
echo "== ptxemu bench run hotspot bfs --size small --timing --config m2090 (cycle-level)"
build/tools/ptxemu bench run hotspot bfs --size small --timing --config m2090
