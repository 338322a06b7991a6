#!/bin/sh
# Benchmark: the project's cuBLAS GEMMs (bench/blas_gemm.cu through cublasGemmEx), converted
# for each processor twice (the matrix instructions where the processor has them, and
# --portable-matrix), run over the emulator's HIP runtime: wave instructions per
# multiply-add (ZC_EMU_STATS); then on the CPU driver, GFLOP/s against the host's reference
# BLAS (libblas.so.3, when installed) in one run. Every run must print PASS.
# Usage: bench/blas_gemm.sh [BUILD_DIR] (in the environment: PROCESSORS, default gfx1030
# gfx1100 gfx1200; SIZES, default 1024; FORMS, default sgemm hgemm bf16 i8; HOST_SIZES,
# default 512 1024; NVCC, default nvcc)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
processors=${PROCESSORS:-gfx1030 gfx1100 gfx1200}
sizes=${SIZES:-1024}
forms=${FORMS:-sgemm hgemm bf16 i8}
runtime="$build/amdgpu_emulator/hip/libzc-emu-hip.so"
convert="$build/cli/zluda-convert"
for f in "$runtime" "$convert"; do
	[ -e "$f" ] || { echo "blas_gemm: $f is missing: build the project first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${NVCC:-nvcc}" -O2 -o "$work/blas_gemm" "$here/blas_gemm.cu" -lcublas

printf '%-9s %-6s %6s %14s %14s %7s\n' processor form size 'instr/MAC' 'portable' ratio
for p in $processors; do
	for lowering in native portable; do
		mkdir -p "$work/$p.$lowering"
		flag=
		[ "$lowering" = portable ] && flag=--portable-matrix
		"$convert" "$work/blas_gemm" -o "$work/$p.$lowering/blas_gemm" --offload-arch="$p" $flag -q
	done
	for form in $forms; do
		for n in $sizes; do
			for lowering in native portable; do
				stats="$work/$p.$lowering.$form.$n.stats"
				out=$(cd "$work/$p.$lowering" && ZLUDA_CONVERT_DRIVER=hip \
					ZLUDA_CONVERT_HIP_PATH="$runtime" ZC_EMU_PROCESSOR="$p" ZC_EMU_STATS="$stats" \
					ZC_EMU_TIMEOUT=3600 ./blas_gemm "$form" "$n" "$n" "$n" 2>&1) ||
					{ echo "blas_gemm: $p $lowering $form $n failed: $out" >&2; exit 1; }
				[ "${out##*
}" = PASS ] || { echo "blas_gemm: $p $lowering $form $n: $out" >&2; exit 1; }
			done
			awk -v p="$p" -v f="$form" -v n="$n" \
				'FNR == 1 { file++ } { i[file] += $2 }
				 END { m = n * n * n; printf "%-9s %-6s %6d %14.4f %14.4f %7.3f\n", p, f, n,
				       i[1] / m, i[2] / m, i[1] / i[2] }' \
				"$work/$p.native.$form.$n.stats" "$work/$p.portable.$form.$n.stats"
		done
	done
done

mkdir -p "$work/host"
"$convert" "$work/blas_gemm" -o "$work/host/blas_gemm" --offload-arch=host -q
for form in sgemm dgemm; do
	for n in ${HOST_SIZES:-512 1024}; do
		(cd "$work/host" && ZLUDA_CONVERT_DRIVER=host ./blas_gemm "$form" "$n" "$n" "$n" 2) |
			grep -v '^PASS$'
	done
done
