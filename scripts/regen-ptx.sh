#!/usr/bin/env bash
# Regenerate all committed PTX from the CUDA sources with nvcc.
#
#   tests/corpus/cuda/X.cu   -> tests/corpus/nvcc/X.sm_75.ptx, X.sm_80.ptx, X.sm_90.ptx
#   benchmarks/*/kernels.cu  -> benchmarks/*/kernels.ptx            (sm_75)
#   tests/corpus/cdp/X.cu    -> tests/corpus/cdp/X.sm_90.ptx         (-rdc=true: device launches)
# A benchmark whose kernels.cu contains the comment `ptxemu: -rdc=true` (device-side
# launches) is compiled with -rdc=true.
#
# Usage: scripts/regen-ptx.sh [--check] [--corpus | --benchmarks]
#   --check       regenerate into a temporary directory and compare byte for byte with the
#                 committed files; exit 1 on any difference or missing file.
#   --corpus      only the parser corpus;  --benchmarks  only the benchmark suite.
# nvcc is taken from $NVCC if that is set (an empty or non-executable value means "no
# nvcc"), else from PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin. If none is found
# the committed PTX is left as is and the script exits 0 (also with --check).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

check=0
do_corpus=1
do_bench=1
for arg in "$@"; do
    case "$arg" in
        --check) check=1 ;;
        --corpus) do_bench=0 ;;
        --benchmarks) do_corpus=0 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "regen-ptx: unknown option '$arg'" >&2; exit 2 ;;
    esac
done

nvcc=""
if [ "${NVCC+set}" = set ]; then
    if [ -n "$NVCC" ] && command -v "$NVCC" >/dev/null 2>&1; then
        nvcc="$(command -v "$NVCC")"
    fi
elif command -v nvcc >/dev/null 2>&1; then
    nvcc="$(command -v nvcc)"
elif [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then
    nvcc="$CUDA_HOME/bin/nvcc"
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ]; then
    echo "nvcc not found; committed PTX left as is"
    exit 0
fi

corpus_archs="75 80 90"
bench_arch=75

tmp=""
if [ "$check" -eq 1 ]; then
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/regen-ptx.XXXXXX")"
    trap 'rm -rf "$tmp"' EXIT
fi

status=0
count=0

# compile IN ARCH COMMITTED_OUT [EXTRA_FLAG]
compile() {
    local in="$1" arch="$2" out="$3" extra="${4:-}" dest
    if [ "$check" -eq 1 ]; then
        dest="$tmp/$out"
    else
        dest="$out"
    fi
    mkdir -p "$(dirname "$dest")"
    # Compile from the repository root with a relative input path so that any
    # path nvcc records in the PTX is the same on every machine.
    if ! "$nvcc" -ptx -arch="sm_$arch" ${extra:+"$extra"} -o "$dest" "$in"; then
        echo "regen-ptx: nvcc failed on $in (sm_$arch)" >&2
        status=1
        return
    fi
    count=$((count + 1))
    if [ "$check" -eq 1 ]; then
        if [ ! -f "$out" ]; then
            echo "regen-ptx: MISSING $out (not committed)" >&2
            status=1
        elif ! cmp -s "$dest" "$out"; then
            echo "regen-ptx: DIFFERS $out" >&2
            diff -u "$out" "$dest" | head -20 >&2 || true
            status=1
        fi
    else
        echo "  $in -> $out"
    fi
}

shopt -s nullglob

corpus_sources=()
cdp_sources=()
bench_sources=()
[ "$do_corpus" -eq 1 ] && corpus_sources=(tests/corpus/cuda/*.cu)
[ "$do_corpus" -eq 1 ] && cdp_sources=(tests/corpus/cdp/*.cu)
[ "$do_bench" -eq 1 ] && bench_sources=(benchmarks/*/kernels.cu)

for cu in "${corpus_sources[@]}"; do
    base="$(basename "$cu" .cu)"
    for arch in $corpus_archs; do
        compile "$cu" "$arch" "tests/corpus/nvcc/$base.sm_$arch.ptx"
    done
done

# device-side launches need relocatable device code (the device runtime's
# entry points stay external calls)
for cu in "${cdp_sources[@]}"; do
    compile "$cu" 90 "${cu%.cu}.sm_90.ptx" -rdc=true
done

for cu in "${bench_sources[@]}"; do
    # a benchmark with device-side launches says so in its source
    if grep -q 'ptxemu: -rdc=true' "$cu"; then
        compile "$cu" "$bench_arch" "$(dirname "$cu")/kernels.ptx" -rdc=true
    else
        compile "$cu" "$bench_arch" "$(dirname "$cu")/kernels.ptx"
    fi
done

if [ "$check" -eq 1 ] && [ "$do_corpus" -eq 1 ]; then
    # Committed corpus PTX with no source is stale as well.
    for ptx in tests/corpus/nvcc/*.ptx; do
        base="$(basename "$ptx" .ptx)"
        base="${base%.sm_*}"
        if [ ! -f "tests/corpus/cuda/$base.cu" ]; then
            echo "regen-ptx: STALE $ptx (no tests/corpus/cuda/$base.cu)" >&2
            status=1
        fi
    done
fi
if [ "$check" -eq 1 ]; then
    if [ "$status" -eq 0 ]; then
        echo "regen-ptx: $count file(s) reproduce byte for byte ($("$nvcc" --version | tail -1))"
    fi
else
    echo "regen-ptx: wrote $count file(s) with $nvcc"
fi
exit "$status"
