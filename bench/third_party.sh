#!/bin/sh
# Benchmark (issue 37): third-party CUDA programs on the CPU driver, each with its own default
# sizes and a limit of LIMIT seconds (120), as a CI job without a GPU would run them. Each is
# built here by nvcc, converted for the host target and run with ZLUDA_CONVERT_DRIVER=host.
# Per program: the conversion's seconds, the run's seconds (the program's own host work
# included), and its outcome: "ok" (exit 0 and no line saying FAIL), "fail" (the last lines
# are in WORK/NAME.log), "timeout", or "build failed".
#   cuda-samples/NAME: every .cu and .cpp of the sample's folder (Samples/*/NAME) built with
#     Common/ on the include path; its data/ files beside the program.
#   hecbench/NAME: src/NAME-cuda built by its Makefile (ARCH=sm_75) and run by its `run`
#     target (all of its runs within the one limit), the converted program in the
#     original's place.
# The sources are not part of this project: SAMPLES and HECBENCH are checkouts of NVIDIA's
# cuda-samples and of HeCBench made by the user.
# Usage: bench/third_party.sh BUILD_DIR SAMPLES HECBENCH [PROGRAM ...]
#   (default: the programs below; LIMIT, NVCC and WORK in the environment)
set -eu
[ $# -ge 3 ] || { echo "usage: bench/third_party.sh BUILD_DIR SAMPLES HECBENCH [PROGRAM ...]" >&2; exit 2; }
build=$(cd "$1" && pwd)
samples=$(cd "$2" && pwd)
hecbench=$(cd "$3" && pwd)
shift 3
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
limit=${LIMIT:-120}
convert="$build/cli/zluda-convert"
[ -x "$convert" ] || { echo "third_party: $convert is missing: build the project first" >&2; exit 2; }
work=${WORK:-$(mktemp -d /tmp/zc-third-party-XXXXXX)}
mkdir -p "$work"
programs=${*:-"cuda-samples/matrixMul cuda-samples/simpleStreams cuda-samples/convolutionSeparable
cuda-samples/histogram cuda-samples/HSOpticalFlow cuda-samples/radixSortThrust hecbench/adam
hecbench/aes hecbench/bitonic-sort hecbench/bn hecbench/convolution1D hecbench/floydwarshall
hecbench/histogram hecbench/jacobi hecbench/lavaMD hecbench/md hecbench/nbody hecbench/scan
hecbench/softmax hecbench/layernorm"}

seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Builds cuda-samples' NAME into DIR/NAME; false when it does not build.
build_sample() {
	name=$1 dir=$2
	src=$(ls -d "$samples"/Samples/*/"$name" 2>/dev/null | head -n 1)
	[ -n "$src" ] || return 1
	[ ! -d "$src/data" ] || cp -R "$src/data/." "$dir/"
	# shellcheck disable=SC2046
	"$nvcc" -O3 -I"$samples/Common" -o "$dir/$name" $(ls "$src"/*.cu "$src"/*.cpp 2>/dev/null) \
		>"$dir/build.log" 2>&1
}

# HeCBench's shared headers, where its Makefiles look for them (../include)
if [ -d "$hecbench/src/include" ]; then
	rm -rf "$work/include"
	cp -R "$hecbench/src/include" "$work/include"
fi
printf '%-34s %9s %9s  %s\n' program convert run outcome
ok=0 total=0
for entry in $programs; do
	suite=${entry%%/*} name=${entry#*/}
	dir="$work/$suite-$name"
	rm -rf "$dir"
	mkdir -p "$dir"
	total=$((total + 1))
	if [ "$suite" = hecbench ]; then
		cp -R "$hecbench/src/$name-cuda/." "$dir/"
		program=$(sed -n 's/^program *= *//p' "$dir/Makefile" | head -n 1)
		make -C "$dir" CC="$nvcc" ARCH=sm_75 "$program" >"$dir/build.log" 2>&1 || program=
	else
		program=$name
		build_sample "$name" "$dir" || program=
	fi
	if [ -z "$program" ] || [ ! -x "$dir/$program" ]; then
		printf '%-34s %9s %9s  %s\n' "$entry" - - "build failed ($dir/build.log)"
		continue
	fi
	start=$(seconds)
	if ! "$convert" "$dir/$program" -o "$dir/$program.converted" --offload-arch=host -q \
		>"$dir/convert.log" 2>&1; then
		printf '%-34s %9s %9s  %s\n' "$entry" - - "conversion failed ($dir/convert.log)"
		continue
	fi
	converted=$(elapsed "$start" "$(seconds)")
	mv "$dir/$program" "$dir/$program.original"
	mv "$dir/$program.converted" "$dir/$program"
	start=$(seconds)
	status=0
	if [ "$suite" = hecbench ]; then
		(cd "$dir" && ZLUDA_CONVERT_DRIVER=host timeout "$limit" make -o "$program" run) \
			>"$work/$suite-$name.log" 2>&1 || status=$?
	else
		(cd "$dir" && ZLUDA_CONVERT_DRIVER=host timeout "$limit" "./$program") \
			>"$work/$suite-$name.log" 2>&1 || status=$?
	fi
	ran=$(elapsed "$start" "$(seconds)")
	if [ "$status" -eq 124 ]; then
		outcome=timeout
	elif [ "$status" -ne 0 ] || grep -q "FAIL" "$work/$suite-$name.log"; then
		outcome="fail ($work/$suite-$name.log)"
	else
		outcome=ok
		ok=$((ok + 1))
	fi
	printf '%-34s %9s %9s  %s\n' "$entry" "$converted" "$ran" "$outcome"
done
echo "$ok of $total finished correctly within ${limit} s (work folder $work)"
