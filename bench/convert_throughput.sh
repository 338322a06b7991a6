#!/bin/sh
# Benchmark: conversion throughput on a generated library of 2,000 kernels in 8 translation
# units (PTX only, compute_80). Reports, in one run:
#   - 1 target and 3 targets, as PTX MB/s per core, as the ratio to LLVM's own cost on
#     the same lowered IR (opt-22 -O3 + llc-22 -O3 per module: the floor), and as the ratio
#     to ptxas -O3 on the same PTX;
#   - scaling from -j1 to -j2; peak memory;
#   - the cache of compiled modules: converting again, unchanged, against the first time
#     (3 targets, -j1), and after one module of the eight changed.
# The timed conversions run without the cache except where it is what is measured.
# Usage: bench/convert_throughput.sh [BUILD_DIR]   (needs nvcc)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/cli/zluda-convert"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 "$here/gen_kernels.py" 2000 8 src
"$nvcc" -shared -Xcompiler -fPIC -gencode arch=compute_80,code=compute_80 -o libk.so src/*.cu
mkdir out temps

measure() { # label, then the command: prints "seconds peak_kb"
	/usr/bin/time -f '%e %M' -o t.txt "$@" >/dev/null 2>&1
	cat t.txt
}
one_j1=$(measure "$tool" libk.so -o out/a.so -q -j1 --no-cache --offload-arch=gfx1100 --save-temps=temps)
three_j1=$(measure "$tool" libk.so -o out/b.so -q -j1 --no-cache --offload-arch=gfx1030,gfx1100,gfx1200)
three_j2=$(measure "$tool" libk.so -o out/c.so -q -j2 --no-cache --offload-arch=gfx1030,gfx1100,gfx1200)
cold=$(measure "$tool" libk.so -o out/d.so -q -j1 --cache-dir=cache --offload-arch=gfx1030,gfx1100,gfx1200)
warm=$(measure "$tool" libk.so -o out/e.so -q -j1 --cache-dir=cache --offload-arch=gfx1030,gfx1100,gfx1200)
# one translation unit changed: a kernel of its renamed
sed -i '0,/__global__ void \([a-z_]*\)\([0-9][0-9]*\)/s//__global__ void \1\2_changed/' src/kernels_0.cu
"$nvcc" -shared -Xcompiler -fPIC -gencode arch=compute_80,code=compute_80 -o libk2.so src/*.cu
changed=$(measure "$tool" libk2.so -o out/f.so -q -j1 --cache-dir=cache --offload-arch=gfx1030,gfx1100,gfx1200)
ptx_bytes=$(cat temps/*.ptx | wc -c)
floor_start=$(date +%s.%N)
for ll in temps/*.gfx1100.ll; do
	opt-22 -O3 "$ll" -o "$ll.bc" 2>/dev/null
	llc-22 -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -filetype=obj "$ll.bc" -o "$ll.o" 2>/dev/null
done
floor=$(echo "$(date +%s.%N) - $floor_start" | bc)
ptxas_start=$(date +%s.%N)
for ptx in temps/*.ptx; do
	"$(dirname "$nvcc")/ptxas" -O3 -arch=sm_80 "$ptx" -o "$ptx.cubin"
done
ptxas=$(echo "$(date +%s.%N) - $ptxas_start" | bc)
set -- $one_j1; t1=$1; m1=$2
set -- $three_j1; t3=$1; m3=$2
set -- $three_j2; t3j2=$1; m3j2=$2
cmp -s out/b.so out/c.so && same=yes || same=NO
cmp -s out/b.so out/d.so && cmp -s out/b.so out/e.so && cached_same=yes || cached_same=NO
set -- $cold; tc=$1
set -- $warm; tw=$1
set -- $changed; tch=$1
echo "workload:        2000 kernels, 8 modules, $(echo "scale=1; $ptx_bytes / 1000000" | bc) MB of PTX"
echo "1 target,  -j1:  $t1 s, $(echo "scale=2; $ptx_bytes / 1000000 / $t1" | bc) MB/s per core, $(echo "scale=2; $t1 / $floor" | bc)x the LLVM floor ($floor s of opt+llc), peak $((m1 / 1024)) MiB"
echo "3 targets, -j1:  $t3 s, $(echo "scale=2; $t3 / $t1" | bc)x one target, peak $((m3 / 1024)) MiB"
echo "ptxas -O3:       $ptxas s for the same PTX (sm_80); per core and target the converter takes $(echo "scale=2; $t1 / $ptxas" | bc)x its time for 1 target, $(echo "scale=2; $t3 / 3 / $ptxas" | bc)x for each of 3"
echo "3 targets, -j2:  $t3j2 s, speed-up $(echo "scale=2; $t3 / $t3j2" | bc)x over -j1 on $(nproc) cores, peak $((m3j2 / 1024)) MiB, same bytes as -j1: $same"
echo "cache, 3 targets, -j1: first $tc s, unchanged again $tw s ($(echo "scale=3; $tw / $tc" | bc)x), one module of 8 changed $tch s ($(echo "scale=3; $tch / $tc" | bc)x); same bytes as without the cache: $cached_same"
