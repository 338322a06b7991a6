#!/bin/sh
# Benchmark: conversion of a tensor-core kernel fully unrolled into one basic block
# (unrolled_mma.cu: 2,048 wmma m16n16k16 products in straight-line code, 0.9 MB of PTX),
# the shape that once took minutes a target. Reports, in one run, for each target: the
# seconds and peak memory of `convert -j1`, and their ratio to ptxas -O3 on the same PTX;
# then runs the host conversion on the CPU driver (PASS expected).
# Usage: bench/unrolled_mma.sh [BUILD_DIR] [TARGETS]   (needs nvcc; TARGETS default
# gfx1030,gfx1100,gfx1200,host)
set -e
build=$(cd "${1:-build}" && pwd)
targets=${2:-gfx1030,gfx1100,gfx1200,host}
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/cli/zluda-convert"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ptxas=$(dirname "$nvcc")/ptxas
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$nvcc" -arch=sm_80 -o unrolled "$here/unrolled_mma.cu"
"$nvcc" -arch=sm_80 -ptx -o unrolled.ptx "$here/unrolled_mma.cu"
measure() { # the command: prints "seconds peak_kb"
	/usr/bin/time -f '%e %M' -o t.txt "$@" >/dev/null 2>&1
	cat t.txt
}
set -- $(measure "$ptxas" -O3 -arch=sm_80 unrolled.ptx -o unrolled.cubin)
reference=$1
echo "workload: $(grep -c 'wmma.mma' unrolled.ptx) wmma.mma in one block, $(wc -c <unrolled.ptx) bytes of PTX"
echo "ptxas -O3: $reference s, peak $(($2 / 1024)) MiB"
for target in $(echo "$targets" | tr , ' '); do
	set -- $(measure "$tool" unrolled -o "unrolled-$target" -q -j1 --no-cache --offload-arch="$target")
	echo "$target: $1 s, $(echo "scale=1; $1 / $reference" | bc)x ptxas, peak $(($2 / 1024)) MiB"
done
if [ -e unrolled-host ]; then
	echo "host run: $(ZLUDA_CONVERT_DRIVER=host ./unrolled-host | tail -1)"
fi
