#!/bin/sh
# Benchmark: the AMDGPU emulator's speed, in wave instructions per second per core. Each
# program of tests/programs named (default: smem_static_matmul and bitonic_sort_smem) is
# taken as nvcc built it for the test suite (BUILD/tests/programs/build/NAME/NAME; built
# there with run_programs.py --build-only when absent), converted for gfx1100, and run
# REPEAT times (default 50) through the runtime stub's HIP driver over the emulator's HIP
# runtime with one host thread (ZC_EMU_THREADS=1). ZC_EMU_STATS gives, for each run, the
# instructions the emulator executed and the wall time spent inside its launches: their
# ratio is the figure, so process start-up and the host side of the program do not count.
# Usage: bench/emulator_speed.sh [BUILD_DIR] [PROGRAM ...]
#   (a build with the emulator's HIP runtime; REPEAT and PROCESSOR in the environment)
set -e
build=$(cd "${1:-build}" && pwd)
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
repeat=${REPEAT:-50}
processor=${PROCESSOR:-gfx1100}
runtime="$build/amdgpu_emulator/hip/libzc-emu-hip.so"
convert="$build/cli/zluda-convert"
programs=${*:-smem_static_matmul bitonic_sort_smem}
for f in "$runtime" "$convert"; do
	[ -e "$f" ] || { echo "emulator_speed: $f is missing: build the project first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# a copy, which a rebuild of the runtime during the runs does not disturb
cp "$runtime" "$work/libzc-emu-hip.so"
runtime="$work/libzc-emu-hip.so"

printf '%-22s %5s %14s %10s %14s\n' program runs instructions seconds 'instr/s/core'
for p in $programs; do
	exe="$build/tests/programs/build/$p/$p"
	if [ ! -x "$exe" ]; then
		python3 "$root/tests/programs/run_programs.py" "$build/tests/programs/build" \
			--build-only --only "^$p\$" >/dev/null
	fi
	[ -x "$exe" ] || { echo "emulator_speed: no program $p (tests/programs/programs.txt)" >&2; exit 2; }
	mkdir -p "$work/$p"
	"$convert" "$exe" -o "$work/$p/$p" --offload-arch="$processor" -q
	i=0
	while [ "$i" -lt "$repeat" ]; do
		out=$(cd "$work/$p" && ZLUDA_CONVERT_DRIVER=hip ZLUDA_CONVERT_HIP_PATH="$runtime" \
			ZC_EMU_PROCESSOR="$processor" ZC_EMU_THREADS=1 ZC_EMU_STATS="$work/$p.stats" \
			"./$p" 2>&1) || { echo "emulator_speed: $p failed: $out" >&2; exit 1; }
		[ "$(printf '%s\n' "$out" | tail -n 1)" = PASS ] ||
			{ echo "emulator_speed: $p did not pass: $out" >&2; exit 1; }
		i=$((i + 1))
	done
	awk -v p="$p" '{ n += $2; s += $4; runs++ }
		END { printf "%-22s %5d %14d %10.4f %14.3e\n", p, runs, n, s, n / s }' "$work/$p.stats"
	cat "$work/$p.stats" >> "$work/all.stats"
done
awk '{ n += $2; s += $4 } END { printf "%-22s %5s %14d %10.4f %14.3e\n", "all", "", n, s, n / s }' \
	"$work/all.stats"
