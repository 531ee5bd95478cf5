#!/usr/bin/env bash
# Installs the Debian packages ptxemu needs, only those that are missing.
set -euo pipefail
# gnuplot-nox: `ptxemu plot` (the sweep tests check its SVGs when present)
pkgs=(flex bison libglib2.0-dev libcmocka-dev meson ninja-build pkg-config gcc gnuplot-nox)
missing=()
for p in "${pkgs[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
