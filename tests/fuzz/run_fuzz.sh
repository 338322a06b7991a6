#!/bin/sh
# Smoke run of one libFuzzer harness: HARNESS SEEDS WORKDIR. The fuzzer adds what it finds to
# its corpus directory, so it works on a fresh copy of the seeds, never on the seeds
# themselves. ZC_FUZZ_SECONDS sets the run time (default 60); a crash leaves its input in
# WORKDIR/artifacts.
set -eu
harness=$1 seeds=$2 work=$3
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp -R "$seeds/." "$work/corpus/"
exec "$harness" -max_total_time="${ZC_FUZZ_SECONDS:-60}" -rss_limit_mb=2048 -timeout=10 \
	-print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus"
