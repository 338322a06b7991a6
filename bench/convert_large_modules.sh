#!/bin/sh
# Benchmark: the largest PTX modules of NVIDIA's cuBLASLt, converted as module files, against
# ptxas -O3 on the same PTX. Reports per module, in one run: ptxas's time; the converter's
# for 1 target at -j1 (the ratio to ptxas per core and target) and at -j2 (the speed-up of a
# module compiled in parts); 3 targets at -j1 (the ratio to one target) and at -j2; peak
# memory; whether -j1 and -j2 gave the same bytes. Without the cache.
# Usage: bench/convert_large_modules.sh [BUILD_DIR] [COUNT]   (needs the CUDA toolkit)
set -e
build=$(cd "${1:-build}" && pwd)
count=${2:-3}
tool="$build/cli/zluda-convert"
cuda=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
library="$cuda/lib64/libcublasLt.so.13"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$tool" extract "$library" -o entries -q
measure() { # the command: prints "seconds peak_kb"
	/usr/bin/time -f '%e %M' -o t.txt "$@" >/dev/null 2>&1
	cat t.txt
}
for ptx in $(ls -S entries/*.ptx | head -n "$count"); do
	arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' "$ptx" | head -1)
	set -- $(measure "$cuda/bin/ptxas" -O3 -arch="$arch" "$ptx" -o ptxas.cubin); ptxas=$1
	set -- $(measure "$tool" "$ptx" -o one -q -j1 --no-cache --offload-arch=gfx1100); one=$1; m1=$2
	set -- $(measure "$tool" "$ptx" -o one2 -q -j2 --no-cache --offload-arch=gfx1100); one2=$1
	set -- $(measure "$tool" "$ptx" -o three -q -j1 --no-cache --offload-arch=gfx1030,gfx1100,gfx1200); three=$1
	set -- $(measure "$tool" "$ptx" -o three2 -q -j2 --no-cache --offload-arch=gfx1030,gfx1100,gfx1200); three2=$1; m3=$2
	cmp -s three three2 && cmp -s one one2 && same=yes || same=NO
	echo "$(basename "$ptx") ($(($(wc -c < "$ptx") / 1000000)) MB, $arch): ptxas $ptxas s; 1 target $one s" \
	     "($(echo "scale=2; $one / $ptxas" | bc)x ptxas, peak $((m1 / 1024)) MiB), -j2 $one2 s" \
	     "($(echo "scale=2; $one2 / $one" | bc)x -j1); 3 targets -j1 $three s" \
	     "($(echo "scale=2; $three / $one" | bc)x one), -j2 $three2 s ($(echo "scale=2; $three2 / $three" | bc)x -j1," \
	     "peak $((m3 / 1024)) MiB, same bytes: $same)"
done
