#!/bin/sh
# The main job on the bundled example: build a CUDA program with nvcc, then show what GPU
# code zluda-convert finds in it and extract it. Usage: examples/run.sh [BUILD_DIR]
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
tool="$build/cli/zluda-convert"
out="$here/out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

mkdir -p "$out"
"$nvcc" -arch=sm_80 -o "$out/vector_add" "$here/vector_add.cu"
"$tool" inspect "$out/vector_add"
"$tool" extract "$out/vector_add" -o "$out/extracted"
ls "$out/extracted"
