#!/bin/sh
# Benchmark: what the matrix instructions save. bench/wmma_gemm.cu (a 128 x 128 x 128 GEMM,
# one wmma m16n16k16 tile a warp, or one mma.sync m16n8k16 tile, in a kernel without and
# with __launch_bounds__(128)) and bench/wgmma_gemm.cu (64 x 64 x 128 blocks through sm_90a's
# wgmma m64n64k16, the same 16384 elements of D) are built with nvcc,
# converted for each processor twice, with the WMMA instructions where the processor has
# them and with --portable-matrix, and run once per form (wmma f16, bf16, s8; mma and
# mma128, f16; wgmma, f16) over the emulator's HIP runtime; ZC_EMU_STATS gives the wave instructions
# executed, reported per element of D. Every run must print PASS.
# Usage: bench/wmma_instructions.sh [BUILD_DIR] (PROCESSORS in the environment: default
# gfx1030 gfx1100 gfx1200; NVCC: default nvcc)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
processors=${PROCESSORS:-gfx1030 gfx1100 gfx1200}
runtime="$build/amdgpu_emulator/hip/libzc-emu-hip.so"
convert="$build/cli/zluda-convert"
for f in "$runtime" "$convert"; do
	[ -e "$f" ] || { echo "wmma_instructions: $f is missing: build the project first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${NVCC:-nvcc}" -arch=sm_80 -o "$work/wmma_gemm" "$here/wmma_gemm.cu"
"${NVCC:-nvcc}" -gencode 'arch=compute_90a,code=[sm_90a,compute_90a]' -o "$work/wgmma_gemm" "$here/wgmma_gemm.cu"
elements=$((128 * 128))  # both programs' D

printf '%-9s %-6s %18s %18s %7s\n' processor form 'instr/element' 'portable' ratio
for p in $processors; do
	for lowering in native portable; do
		mkdir -p "$work/$p.$lowering"
		flag=
		[ "$lowering" = portable ] && flag=--portable-matrix
		for program in wmma_gemm wgmma_gemm; do
			"$convert" "$work/$program" -o "$work/$p.$lowering/$program" --offload-arch="$p" $flag -q
		done
	done
	for form in f16 bf16 s8 mma mma128 wgmma; do
		program=wmma_gemm
		[ "$form" = wgmma ] && program=wgmma_gemm
		for lowering in native portable; do
			stats="$work/$p.$lowering.$form.stats"
			out=$(cd "$work/$p.$lowering" && ZLUDA_CONVERT_DRIVER=hip ZLUDA_CONVERT_HIP_PATH="$runtime" \
				ZC_EMU_PROCESSOR="$p" ZC_EMU_STATS="$stats" ./$program "$form" 2>&1) ||
				{ echo "wmma_instructions: $p $lowering $form failed: $out" >&2; exit 1; }
			[ "$out" = PASS ] || { echo "wmma_instructions: $p $lowering $form: $out" >&2; exit 1; }
		done
		awk -v p="$p" -v f="$form" -v e="$elements" \
			'FNR == 1 { file++ } { n[file] += $2 }
			 END { printf "%-9s %-6s %18.1f %18.1f %7.3f\n", p, f, n[1] / e, n[2] / e, n[1] / n[2] }' \
			"$work/$p.native.$form.stats" "$work/$p.portable.$form.stats"
	done
done
