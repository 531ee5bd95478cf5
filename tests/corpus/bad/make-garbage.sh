#!/usr/bin/env bash
# Regenerates garbage.bin.ptx: two expectation lines, then every byte value 0x00..0xff once,
# in order. The first byte after the header (0x00, on line 3) is already invalid input.
set -eu
out="$(dirname "$0")/garbage.bin.ptx"
{
    printf '// expect-error-line: 3\n'
    printf '// expect: invalid input: NUL and other non-PTX bytes (binary file)\n'
    i=0
    while [ "$i" -lt 256 ]; do
        # shellcheck disable=SC2059
        printf "\\$(printf '%03o' "$i")"
        i=$((i + 1))
    done
} > "$out"
