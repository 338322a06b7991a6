#!/bin/sh
# Smoke run of one libFuzzer harness: HARNESS SEEDS WORKDIR. The fuzzer adds what it finds to
# its corpus directory, so it works on a fresh copy of the seeds, never on the seeds
# themselves. ZC_FUZZ_SECONDS sets the run time (default 60); ZC_FUZZ_RUNS, when set, a number
# of executions to run instead, however long they take; ZC_FUZZ_TIMEOUT the seconds one input
# may take (default 10; libFuzzer counts wall time, so a run sharing its core needs more). The seed is fixed (ZC_FUZZ_SEED,
# default 1; 0 draws one) so that what a CI run finds can be found again. A failure ends
# with what a CI log's tail needs to reproduce it: libFuzzer's report and each input it left
# in WORKDIR/artifacts, base64-encoded.
set -eu
harness=$1 seeds=$2 work=$3
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp -R "$seeds/." "$work/corpus/"
status=0
if [ -n "${ZC_FUZZ_RUNS:-}" ]; then
	limit="-runs=$ZC_FUZZ_RUNS"
else
	limit="-max_total_time=${ZC_FUZZ_SECONDS:-60}"
fi
"$harness" -seed="${ZC_FUZZ_SEED:-1}" "$limit" \
	-rss_limit_mb=2048 -timeout="${ZC_FUZZ_TIMEOUT:-10}" -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
	"$work/corpus" >"$work/log" 2>&1 || status=$?
if [ "$status" -eq 0 ]; then
	tail -n 12 "$work/log"
	exit 0
fi
echo "$harness failed (exit $status); the last of its report:"
grep -v '^#[0-9]' "$work/log" | tail -n 60
for artifact in "$work"/artifacts/*; do
	[ -f "$artifact" ] || continue
	echo "input $(basename "$artifact") ($(wc -c <"$artifact") bytes), base64:"
	head -c 65536 "$artifact" | base64
done
exit "$status"
