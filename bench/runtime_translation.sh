#!/bin/sh
# Benchmark: code made at run time (issue 32). A PTX module of 1,000 kernels (gen_kernels.py)
# that no one converted, loaded by a converted program with cuModuleLoad: the first load,
# which translates it (the tool run by the driver), then a load from the cache, against the
# load of the same module converted ahead of time; per target, on the CPU driver (host) and
# through the HIP driver over the emulator (gfx1030, gfx1100, gfx1200). Each load is timed
# inside the program (bench/module_load.c), one process per load.
# Usage: bench/runtime_translation.sh [BUILD_DIR]   (needs nvcc; an unsanitized build)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
tool="$build/cli/zluda-convert"
emulator="$build/amdgpu_emulator/hip/libzc-emu-hip.so"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 "$here/gen_kernels.py" 1000 1 src
"$nvcc" -ptx -arch=sm_80 -o k.ptx src/kernels_0.cu
"$nvcc" -o module_load.orig "$here/module_load.c" -lcuda
mkdir out
"$tool" module_load.orig -o out/module_load --offload-arch=gfx1030,gfx1100,gfx1200,host -q
echo "1,000 kernels, $(wc -c < k.ptx) bytes of PTX; milliseconds per cuModuleLoad"
printf '%-8s %10s %10s %10s %8s\n' target first cached converted ratio
for target in host gfx1030 gfx1100 gfx1200; do
	if [ "$target" = host ]; then
		set -- ZLUDA_CONVERT_DRIVER=host
	else
		set -- ZLUDA_CONVERT_DRIVER=hip ZLUDA_CONVERT_HIP_PATH="$emulator" ZC_EMU_PROCESSOR=$target
	fi
	"$tool" k.ptx -o "k.$target.ptx" --offload-arch=$target -q
	rm -rf cache
	load() { env "$@" ZLUDA_CONVERT_TRANSLATOR="$tool" ZLUDA_CONVERT_CACHE_DIR="$work/cache" out/module_load "$file"; }
	file=k.ptx first=$(load "$@")
	file=k.ptx cached=$(load "$@")
	file=k.$target.ptx converted=$(load "$@")
	printf '%-8s %10s %10s %10s %8s\n' $target "$first" "$cached" "$converted" \
		"$(echo "scale=2; $cached / $converted" | bc)"
done
echo "ratio: a load from the cache / the load of the module converted ahead of time"
