#!/bin/sh
# Benchmark: `inspect` on a large NVIDIA library (default: the toolkit's libcublasLt.so.13).
# Reports wall time, peak memory as a ratio to the file size, and what was found.
# Usage: bench/inspect_large.sh [BUILD_DIR] [LIBRARY]
set -e
build=${1:-build}
lib=${2:-/usr/local/cuda/lib64/libcublasLt.so.13}
tool="$build/cli/zluda-convert"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -f "$lib" ] || { echo "bench: $lib not found" >&2; exit 1; }
/usr/bin/time -f '%e %M' -o "$tmp/time" "$tool" inspect --json "$lib" > "$tmp/out.json"
read -r seconds rss_kb < "$tmp/time"
bytes=$(stat -c %s "$lib")
python3 - "$tmp/out.json" "$seconds" "$rss_kb" "$bytes" "$lib" <<'PY'
import collections, json, sys
doc = json.load(open(sys.argv[1]))
seconds, rss_kb, size = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
t = doc["totals"]
where = collections.Counter((c["section"], c["origin"]) for c in doc["containers"])
print("file:        %s (%.1f MiB)" % (sys.argv[5], size / 2**20))
print("time:        %.2f s (goal: under 10 s)" % seconds)
print("peak memory: %.1f MiB = %.2fx the file size (goal: under 2x)" % (rss_kb / 1024, rss_kb * 1024 / size))
print("fatbins:     %d (%d registered by %d wrappers); %d entries: %d PTX, %d cubin; %d kernels in PTX"
      % (t["containers"], t["registered"], t["wrappers"], t["entries"], t["ptx"], t["cubin"], t["kernels"]))
for (section, origin), n in sorted(where.items()):
    print("             %5d in %s (%s)" % (n, section, origin))
PY
