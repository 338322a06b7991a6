#!/bin/sh
# Benchmark: GPU-sized programs on the CPU driver (issue 37). cpu_driver/kernels.cu (a dozen
# algorithms: saxpy, a Jacobi stencil, a shared-memory tiled GEMM, a reduction, a block
# scan, a shared-memory histogram, n-body, a bitonic sort, warp-shuffle sums, a tiled
# transpose, Mandelbrot, Black-Scholes) is built by nvcc, converted for the host, and run on
# the CPU driver; cpu_driver/reference.c, the same algorithms as C loops with OpenMP, is
# built by the system's cc -O2 -fopenmp. Both use every core of the machine. Per algorithm:
# the best of three timed runs on each side, their ratio (converted / OpenMP) and whether the
# two checksums of the results agree (to 1e-4 of their size: the sides add in different
# orders); then the geometric mean of the ratios. Fails when a checksum differs.
# Usage: bench/cpu_driver.sh [BUILD_DIR]   (NVCC and CC in the environment)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
convert="$build/cli/zluda-convert"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$convert" ] || { echo "cpu_driver: $convert is missing: build the project first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/out"
"$nvcc" -O3 -o "$work/kernels" "$here/cpu_driver/kernels.cu"
"$convert" "$work/kernels" -o "$work/out/kernels" --offload-arch=host -q
${CC:-cc} -O2 -fopenmp -o "$work/reference" "$here/cpu_driver/reference.c" -lm
ZLUDA_CONVERT_DRIVER=host "$work/out/kernels" > "$work/converted.txt"
"$work/reference" > "$work/reference.txt"
awk 'NR == FNR { reference[$1] = $2 " " $3; next } { print $0, reference[$1] }' \
	"$work/reference.txt" "$work/converted.txt" | awk '
	function abs(v) { return v < 0 ? -v : v }
	BEGIN { printf "%-12s %11s %11s %8s %s\n", "program", "converted", "OpenMP", "ratio", "checksums" }
	{
		ratio = $2 / $4
		agree = abs($3 - $5) <= 1e-4 * (abs($3) + abs($5)) + 1e-3 ? "agree" : "DIFFER " $3 " " $5
		differ += agree != "agree"
		printf "%-12s %10.4fs %10.4fs %8.2f %s\n", $1, $2, $4, ratio, agree
		logs += log(ratio); n++
	}
	END {
		printf "geometric mean of the ratios: %.2f (%d programs)\n", exp(logs / n), n
		exit differ != 0
	}'
