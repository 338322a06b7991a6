#!/bin/sh
# Fuzzing at length (issue 35 item 4): each libFuzzer harness of tests/fuzz (the binary
# readers, the fatbin container reader, the PTX parser, the PTX lowering, the AOT image
# reader, the emulator's code-object loader and decoder) runs RUNS executions (default
# 10,000,000) from its seeds, one after another (the lowering's modules checked by LLVM's
# verifier too: ZC_FUZZ_VERIFY=1), through tests/fuzz/run_fuzz.sh (ASan and
# UBSan, 2 GiB and, unless told, 10 s an input). Per harness a line: executions, seconds, executions a
# second, the corpus it grew to, and ok or the crash (its report and input are in
# WORKDIR/HARNESS/). Exit status 1 when any harness failed.
# Usage: bench/fuzz_at_length.sh [BUILD_DIR] [RUNS] [HARNESS ...]
#   (ZC_FUZZ_SEED in the environment: default 1; 0 draws one; ZC_FUZZ_TIMEOUT: seconds an
#   input, default 10; WORKDIR: default a new folder under /tmp, kept)
set -eu
build=$(cd "${1:-build}" && pwd)
runs=${2:-10000000}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
fuzz="$build/tests/fuzz"
harnesses=${*:-fuzz_binary:binary fuzz_container:container fuzz_ptx:ptx fuzz_ptx_lower:ptx fuzz_aot_image:aot_image fuzz_code_object:code_object}
work=${WORKDIR:-$(mktemp -d /tmp/zc-fuzz-XXXXXX)}
mkdir -p "$work"
failed=0
printf '%-18s %12s %9s %9s %8s %s\n' harness executions seconds "exec/s" corpus result
for entry in $harnesses; do
	name=${entry%%:*} seeds=${entry#*:}
	[ "$seeds" = "$entry" ] && seeds=${name#fuzz_}
	if [ ! -x "$fuzz/$name" ] || [ ! -d "$fuzz/seeds/$seeds" ]; then
		echo "fuzz_at_length: $fuzz/$name or its seeds are missing: build the project first" >&2
		exit 2
	fi
	start=$(date +%s)
	result=ok
	ZC_FUZZ_RUNS=$runs ZC_FUZZ_VERIFY=1 sh "$here/../tests/fuzz/run_fuzz.sh" "$fuzz/$name" "$fuzz/seeds/$seeds" \
		"$work/$name" >"$work/$name.out" 2>&1 || { result="FAILED: see $work/$name/log"; failed=1; }
	end=$(date +%s)
	executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log" | tail -n 1)
	corpus=$(ls "$work/$name/corpus" | wc -l)
	seconds=$((end - start))
	printf '%-18s %12s %9s %9s %8s %s\n' "$name" "${executed:-?}" "$seconds" \
		"$(( ${executed:-0} / (seconds > 0 ? seconds : 1) ))" "$corpus" "$result"
done
exit $failed
