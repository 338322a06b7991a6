#!/bin/sh
# Benchmark: the AMDGPU emulator's speed, in wave instructions per second per core (issue 37
# asks 1e8 on the bench's programs). Each program named is converted for PROCESSOR (gfx1100)
# and run REPEAT times (1) through the runtime stub's HIP driver over the emulator's HIP
# runtime with one host thread (ZC_EMU_THREADS=1). ZC_EMU_STATS gives, for each run, the
# instructions the emulator executed and the wall time spent inside its launches: their
# ratio is the figure, so process start-up and the host side of the program do not count.
# A program is either one of the CPU driver benchmark's algorithms (cpu_driver/kernels.cu,
# built by nvcc and run with the algorithm's name; its checksum must agree with
# cpu_driver/reference.c's, built by cc -O2 -fopenmp) or a program of tests/programs (as nvcc
# built it for the test suite, BUILD/tests/programs/build/NAME/NAME, built there with
# run_programs.py --build-only when absent; it must print PASS; small ones want REPEAT=50).
# By default every algorithm of the CPU driver benchmark.
# Usage: bench/emulator_speed.sh [BUILD_DIR] [PROGRAM ...]
#   (a build with the emulator's HIP runtime; REPEAT, PROCESSOR, NVCC and CC in the environment)
set -e
build=$(cd "${1:-build}" && pwd)
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
repeat=${REPEAT:-1}
processor=${PROCESSOR:-gfx1100}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
runtime="$build/amdgpu_emulator/hip/libzc-emu-hip.so"
convert="$build/cli/zluda-convert"
algorithms="saxpy stencil gemm reduction scan histogram nbody sort shuffle transpose mandelbrot blackscholes"
programs=${*:-$algorithms}
for f in "$runtime" "$convert"; do
	[ -e "$f" ] || { echo "emulator_speed: $f is missing: build the project first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# a copy, which a rebuild of the runtime during the runs does not disturb
cp "$runtime" "$work/libzc-emu-hip.so"
runtime="$work/libzc-emu-hip.so"

is_algorithm() {
	case " $algorithms " in *" $1 "*) return 0 ;; esac
	return 1
}

# The benchmark's algorithms: one program and its reference, built once.
for p in $programs; do
	is_algorithm "$p" || continue
	mkdir -p "$work/bench/out"
	"$nvcc" -O3 -o "$work/bench/kernels" "$here/cpu_driver/kernels.cu"
	"$convert" "$work/bench/kernels" -o "$work/bench/out/kernels" --offload-arch="$processor" -q
	${CC:-cc} -O2 -fopenmp -o "$work/bench/reference" "$here/cpu_driver/reference.c" -lm
	"$work/bench/reference" > "$work/bench/reference.txt"
	break
done

# Runs the converted program $1 in directory $2 with arguments $3..., once, on the emulator.
emulate() {
	exe=$1 dir=$2 name=$3
	shift 3
	(cd "$dir" && ZLUDA_CONVERT_DRIVER=hip ZLUDA_CONVERT_HIP_PATH="$runtime" \
		ZC_EMU_PROCESSOR="$processor" ZC_EMU_THREADS=1 ZC_EMU_STATS="$work/$name.stats" \
		"./$exe" "$@" 2>&1) || { echo "emulator_speed: $name failed" >&2; exit 1; }
}

printf '%-22s %5s %14s %10s %14s\n' program runs instructions seconds 'instr/s/core'
for p in $programs; do
	i=0
	if is_algorithm "$p"; then
		while [ "$i" -lt "$repeat" ]; do
			out=$(emulate kernels "$work/bench/out" "$p" "$p")
			# name, seconds, checksum: the checksum against the reference's, to 1e-4
			printf '%s\n' "$out" | awk -v p="$p" '
				function abs(v) { return v < 0 ? -v : v }
				NR == FNR { if ($1 == p) want = $3; next }
				$1 == p { got = $3 }
				END {
					if (got == "" || abs(got - want) > 1e-4 * (abs(got) + abs(want)) + 1e-3) {
						printf "emulator_speed: %s: checksum %s, the reference %s\n", p, got, want > "/dev/stderr"
						exit 1
					}
				}' "$work/bench/reference.txt" - || exit 1
			i=$((i + 1))
		done
	else
		exe="$build/tests/programs/build/$p/$p"
		if [ ! -x "$exe" ]; then
			python3 "$root/tests/programs/run_programs.py" "$build/tests/programs/build" \
				--build-only --only "^$p\$" >/dev/null
		fi
		[ -x "$exe" ] || { echo "emulator_speed: no program $p (neither an algorithm of cpu_driver/kernels.cu nor in tests/programs/programs.txt)" >&2; exit 2; }
		mkdir -p "$work/$p"
		"$convert" "$exe" -o "$work/$p/$p" --offload-arch="$processor" -q
		while [ "$i" -lt "$repeat" ]; do
			out=$(emulate "$p" "$work/$p" "$p")
			[ "$(printf '%s\n' "$out" | tail -n 1)" = PASS ] ||
				{ echo "emulator_speed: $p did not pass: $out" >&2; exit 1; }
			i=$((i + 1))
		done
	fi
	awk -v p="$p" '{ n += $2; s += $4; runs++ }
		END { printf "%-22s %5d %14d %10.4f %14.3e\n", p, runs, n, s, n / s }' "$work/$p.stats"
	cat "$work/$p.stats" >> "$work/all.stats"
done
awk '{ n += $2; s += $4 } END { printf "%-22s %5s %14d %10.4f %14.3e\n", "all", "", n, s, n / s }' \
	"$work/all.stats"
