#!/bin/sh
# Benchmark: the project's cuFFT (bench/fft_bench.cu, batches of single-precision C2C
# transforms) converted and run for sizes of three kinds: powers of two, products of small
# primes and primes (Bluestein's). On the emulator, wave instructions per point (ZC_EMU_STATS);
# on the CPU driver, GFLOP/s against FFTW on the host (libfftw3f.so.3, when installed) in
# one run. Every run must print PASS.
# Usage: bench/fft_bench.sh [BUILD_DIR] (in the environment: PROCESSORS, default gfx1100;
# SIZES, default "4096 3360 4099"; BATCH, default 16; NVCC, default nvcc)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
processors=${PROCESSORS:-gfx1100}
sizes=${SIZES:-4096 3360 4099}
batch=${BATCH:-16}
runtime="$build/amdgpu_emulator/hip/libzc-emu-hip.so"
convert="$build/cli/zluda-convert"
for f in "$runtime" "$convert"; do
	[ -e "$f" ] || { echo "fft_bench: $f is missing: build the project first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${NVCC:-nvcc}" -O2 -o "$work/fft_bench" "$here/fft_bench.cu" -lcufft

printf '%-9s %6s %6s %14s\n' processor size batch 'instr/point'
for p in $processors; do
	mkdir -p "$work/$p"
	"$convert" "$work/fft_bench" -o "$work/$p/fft_bench" --offload-arch="$p" -q
	for n in $sizes; do
		stats="$work/$p.$n.stats"
		out=$(cd "$work/$p" && ZLUDA_CONVERT_DRIVER=hip ZLUDA_CONVERT_HIP_PATH="$runtime" \
			ZC_EMU_PROCESSOR="$p" ZC_EMU_STATS="$stats" ./fft_bench "$n" "$batch" 2>&1) ||
			{ echo "fft_bench: $p $n failed: $out" >&2; exit 1; }
		[ "${out##*
}" = PASS ] || { echo "fft_bench: $p $n: $out" >&2; exit 1; }
		awk -v p="$p" -v n="$n" -v b="$batch" \
			'{ i += $2 } END { printf "%-9s %6d %6d %14.1f\n", p, n, b, i / (n * b) }' "$stats"
	done
done

mkdir -p "$work/host"
"$convert" "$work/fft_bench" -o "$work/host/fft_bench" --offload-arch=host -q
for n in $sizes; do
	(cd "$work/host" && ZLUDA_CONVERT_DRIVER=host ./fft_bench "$n" "$batch" 3) | grep -v '^PASS$'
done
