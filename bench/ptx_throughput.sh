#!/bin/sh
# Benchmark: PTX parse + lower throughput on a generated module of 2,000 kernels, per core,
# and as the ratio to llvm-as-22 assembling the LLVM IR produced (work of comparable size).
# Usage: bench/ptx_throughput.sh [BUILD_DIR]   (needs nvcc)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 "$here/gen_kernels.py" 2000 1 src
"$nvcc" -ptx -arch=sm_80 -o k.ptx src/kernels_0.cu
"$build/ptx_frontend/ptx-lower" k.ptx > k.ll
stats=$("$build/ptx_frontend/ptx-lower" --stats k.ptx)
start=$(date +%s.%N)
llvm-as-22 k.ll -o k.bc
as_seconds=$(echo "$(date +%s.%N) - $start" | bc)
ours=$(echo "$stats" | sed -E 's/.*parse ([0-9.]+) s, lower ([0-9.]+) s.*/\1 + \2/' | bc)
echo "parse + lower: $stats"
echo "llvm-as-22 on the produced IR ($(wc -c < k.ll) bytes): $as_seconds s; ratio ours / llvm-as: $(echo "scale=2; $ours / $as_seconds" | bc)"
