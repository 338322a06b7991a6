#!/bin/sh
# Benchmark: is the converted code as good as a HIP port's (issue 31, item 5)?
# bench/hip_parity/kernels.cu (25 typical kernels written once in CUDA) is built two ways:
# nvcc -ptx, then zluda-convert; and clang-22 as HIP device code, with
# bench/hip_parity/hip_compat.h in place of HIP's headers (no ROCm needed). Both, with default
# flags and with fast math (nvcc -use_fast_math, clang -ffast-math), run the same launches on
# the emulator (bench/hip_parity/runner.c, linked against the emulator's library), which must
# give the same outputs. Per processor and flag set, a table: wave instructions executed,
# converted against HIP, and their ratio (above 1: the converted code runs more); the
# emulator's cycle estimate of each (issue cycles of every executed wave32 instruction at
# AMD's documented rates for the processor, amdgpu_emulator/cost.c: an f64 or a quarter-rate
# multiply weighs more than a move; memory latency and waits are not modelled) and their
# ratio; VGPRs, SGPRs, LDS bytes and spills of each from the code objects' metadata;
# geometric means of the instruction, cycle and VGPR ratios.
# Usage: bench/hip_parity.sh [BUILD_DIR] (PROCESSORS in the environment: default gfx1100
# gfx1200 gfx1030; NVCC: default nvcc; CLANG: default clang-22; CC: default cc)
set -e
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
src="$here/hip_parity"
processors=${PROCESSORS:-gfx1100 gfx1200 gfx1030}
convert="$build/cli/zluda-convert"
library="$build/amdgpu_emulator/libzc_amdgpu_emulator.a"
clang=${CLANG:-clang-22}
for f in "$convert" "$library"; do
	[ -e "$f" ] || { echo "hip_parity: $f is missing: build the project first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

"${CC:-cc}" -O2 -std=gnu17 -I"$here/../amdgpu_emulator" -o "$work/runner" "$src/runner.c" \
	"$library" $(llvm-config-22 --ldflags) $(llvm-config-22 --libs) -lpthread -lm

archs=$(echo $processors | tr ' ' ,)
for flags in default fast; do
	nvcc_fast= clang_fast=
	[ "$flags" = fast ] && nvcc_fast=-use_fast_math clang_fast=-ffast-math
	mkdir -p "$work/$flags"
	"${NVCC:-nvcc}" -arch=sm_86 -ptx $nvcc_fast -o "$work/$flags/kernels.ptx" "$src/kernels.cu"
	# a kernel the converter leaves out shows as FAILED in the tables; its warning says why
	"$convert" "$work/$flags/kernels.ptx" -o "$work/$flags/converted.ptx" --offload-arch="$archs" \
		--save-temps="$work/$flags/temps" 2>"$work/$flags/convert.log" ||
		{ cat "$work/$flags/convert.log" >&2; exit 1; }
	grep -i 'warning' "$work/$flags/convert.log" >&2 || :
	for p in $processors; do
		# the module's code object for P, whatever --save-temps names the module
		set -- "$work/$flags/temps/"*".$p.co"
		[ $# -eq 1 ] && [ -e "$1" ] ||
			{ echo "hip_parity: expected one $p code object in $work/$flags/temps" >&2; exit 1; }
		cp "$1" "$work/$flags/converted.$p.co"
		# clang links the device code into a loadable code object itself; v5, as the converter
		# writes (clang-22's default is v6)
		"$clang" -x hip --offload-arch="$p" --cuda-device-only --no-gpu-bundle-output -nogpuinc \
			-nogpulib -mcode-object-version=5 -O3 $clang_fast -include "$src/hip_compat.h" \
			-o "$work/$flags/hip.$p.co" "$src/kernels.cu"
	done
done
built=$(date +%s)

# One line per kernel from the AMDGPU metadata note: name, VGPRs, SGPRs, LDS, VGPR and SGPR
# spills (the keys come in alphabetical order, .vgpr_spill_count after the rest).
metadata() {
	llvm-readelf-22 --notes "$1" | awk '
		/^    \.group_segment_fixed_size:/ { lds = $NF }
		/^    \.name:/ { name = $NF }
		/^    \.sgpr_count:/ { sgpr = $NF }
		/^    \.sgpr_spill_count:/ { ss = $NF }
		/^    \.vgpr_count:/ { vgpr = $NF }
		/^    \.vgpr_spill_count:/ { print name, vgpr, sgpr, lds, $NF, ss }'
}

failed=0
for flags in default fast; do
	for p in $processors; do
		dir="$work/$flags"
		metadata "$dir/converted.$p.co" >"$dir/meta.converted.$p"
		metadata "$dir/hip.$p.co" >"$dir/meta.hip.$p"
		"$work/runner" --compare "$dir/converted.$p.co" "$dir/hip.$p.co" "$p" >"$dir/run.$p" ||
			failed=1
		echo
		echo "$p, $flags flags (converted / HIP):"
		awk -v out="$dir/run.$p" '
			FNR == 1 { file++ }
			file == 1 { c[$1] = $0; next }
			file == 2 { h[$1] = $0; next }
			END {
				printf "%-16s %10s %10s %6s %11s %11s %6s %8s %8s %11s %7s %s\n", "kernel",
					"instr", "HIP", "ratio", "cycles", "HIP cycles", "ratio", "VGPR", "SGPR",
					"LDS", "spills", "check"
				while ((getline line < out) > 0) {
					split(line, r, " ")
					split(c[r[1]], mc, " ")
					split(h[r[1]], mh, " ")
					printf "%-16s %10d %10d %6.3f %11d %11d %6.3f %8s %8s %11s %7s %s\n",
						r[1], r[2], r[3], r[4], r[5], r[6], r[7], mc[2] "/" mh[2],
						mc[3] "/" mh[3], mc[4] "/" mh[4], mc[5] + mc[6] "/" mh[5] + mh[6], r[10]
					if (r[2] > 0 && r[3] > 0) { li += log(r[4]); n++ }
					if (r[5] > 0 && r[6] > 0) { lc += log(r[5] / r[6]); nc++ }
					if (mc[2] > 0 && mh[2] > 0) { lv += log(mc[2] / mh[2]); nv++ }
				}
				printf "geometric mean: instructions %.3f, cycles %.3f, VGPRs %.3f (%d kernels that ran)\n",
					n ? exp(li / n) : 0, nc ? exp(lc / nc) : 0, nv ? exp(lv / nv) : 0, n
			}' "$dir/meta.converted.$p" "$dir/meta.hip.$p"
		if grep -qv ' ok$' "$dir/run.$p"; then
			echo "hip_parity: $p $flags: converted and HIP disagree:" >&2
			grep -v ' ok$' "$dir/run.$p" >&2
		fi
	done
done
end=$(date +%s)
echo
echo "built in $((built - start)) s, ran in $((end - built)) s"
exit $failed
