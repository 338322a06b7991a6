#!/bin/sh
# Benchmark: the runtime stub on the CPU driver (bench/stub_bench.c says what is measured).
#   - module load: a generated 1,000-kernel module converted with --offload-arch=host,
#     cuModuleLoadData through the stub against memfd + dlopen of its code object;
#   - launch overhead: cuLaunchKernel of an empty kernel against the CPU driver's own launch.
# Usage: bench/stub_bench.sh [BUILD_DIR]   (a build without ZC_SANITIZE; needs nvcc)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 "$here/gen_kernels.py" 1000 1 src
echo 'extern "C" __global__ void zc_bench_empty(void) {}' >> src/kernels_0.cu
"$nvcc" -fatbin -gencode arch=compute_80,code=compute_80 -o kernels.fatbin src/kernels_0.cu

# The benchmark links the stub's static twin: its internals are the "direct" side.
cc -std=c17 -O2 -DFATBIN="$work/kernels.fatbin" \
	-I"$root/runtime_stub/api" -I"$root/runtime_stub/drivers" -I"$root/runtime_stub/base" \
	-I"$root/abi" -I"$root/common" -I"$root/fatbin" -I"$build/runtime_stub" \
	-o stub_bench "$here/stub_bench.c" "$build/runtime_stub/libzc_stub_static.a" \
	$(pkg-config --libs libxxhash libzstd) -ldl -lpthread
mkdir converted
"$build/cli/zluda-convert" stub_bench -o converted/stub_bench --offload-arch=host -q
"$build/cli/zluda-convert" extract converted/stub_bench -o extracted -q
code=$(ls extracted/*.host.co)
ZLUDA_CONVERT_DRIVER=host ./converted/stub_bench "$code"
