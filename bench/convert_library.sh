#!/bin/sh
# Converting one large library whole: wall time, peak memory (and its ratio to the file),
# and the progress lines -v prints, for one target. Default: the toolkit's libcufft.so.12
# (8,131 PTX modules among some 24,000 fatbins; the goal is a peak below 2 GiB).
#   bench/convert_library.sh [BUILD] [LIBRARY] [TARGET] [JOBS]
set -eu
build=${1:-build}
lib=${2:-/usr/local/cuda/lib64/libcufft.so.12}
target=${3:-gfx1100}
jobs=${4:-$(nproc)}
tool=$build/cli/zluda-convert
[ -x "$tool" ] || { echo "convert_library: $tool is not built" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$tool" "$lib" "$work/$(basename "$lib")" "$target" "$jobs" <<'PY'
import os, resource, subprocess, sys, time

tool, lib, out, target, jobs = sys.argv[1:]
start = time.monotonic()
p = subprocess.Popen([tool, "-v", lib, "-o", out, "--offload-arch=" + target, "-j", jobs, "--no-cache"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
for line in p.stderr:
    if " compiled " in line:
        print("%7.1f s  %s" % (time.monotonic() - start, line.split(": ", 1)[1].strip()), flush=True)
p.wait()
seconds = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
size = os.path.getsize(lib)
print(f"{os.path.basename(lib)} ({size / 2**20:.0f} MiB) for {target}, -j{jobs}: exit {p.returncode}, "
      f"{seconds:.0f} s, peak {peak / 2**20:.0f} MiB ({peak / size:.2f}x the file)")
PY
