#!/bin/sh
# The main job on the bundled example: build a CUDA program with nvcc, convert it, and run
# the converted program (on the CPU driver: no GPU is needed), then its AMD code for gfx1100
# on the emulator. Usage:
# examples/run.sh [BUILD_DIR]
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
tool="$build/cli/zluda-convert"
out="$here/out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

mkdir -p "$out"
"$nvcc" -arch=sm_80 -o "$out/vector_add" "$here/vector_add.cu"
"$tool" inspect "$out/vector_add"
"$tool" "$out/vector_add" -o "$out/vector_add-amd" --offload-arch=gfx1030,gfx1100,gfx1200,host
"$tool" inspect "$out/vector_add-amd" | sed -n '/AOT image/,$p'
# The converted binary finds libcuda.so.1 beside it; with no AMD GPU it runs on the CPU.
"$out/vector_add-amd"
# Its gfx1100 code object, through the driver's HIP path, on the emulator.
"$tool" run --emulate=gfx1100 -- "$out/vector_add-amd"
