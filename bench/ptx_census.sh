#!/bin/sh
# The share of PTX kernels the lowering translates in the CUDA toolkit's own libraries: each
# library's PTX entries are extracted (zluda-convert extract) and lowered one module at a
# time for AMDGPU (ptx-lower --census); a kernel counts as translated unless it, or a
# function it needs, is left out, or its whole module fails. Prints per library the
# modules, kernels, share translated and the most common reasons for the rest, then the
# total. A benchmark, not a test: the toolkit's libraries change with its version.
#   bench/ptx_census.sh [BUILD] [LIBDIR]
set -eu
build=${1:-build}
libdir=${2:-/usr/local/cuda/lib64}
tool=$build/cli/zluda-convert
lower=$build/ptx_frontend/ptx-lower
for f in "$tool" "$lower"; do
	[ -x "$f" ] || { echo "ptx_census: $f is not built" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=$(nproc)
for lib in "$libdir"/lib*.so.*; do
	case $lib in *.so.*.*) continue ;; esac # the soname links are enough
	name=$(basename "$lib")
	"$tool" extract -q "$lib" -o "$work/$name" 2>/dev/null || continue
	ls "$work/$name" | grep -q '\.ptx$' || { rm -rf "$work/$name"; continue; }
	find "$work/$name" -name '*.ptx' -print0 |
		xargs -0 -P "$jobs" -n 1 sh -c '"$0" --census "$1" > "$1.census" 2>/dev/null || true' "$lower"
	cat "$work/$name"/*.census > "$work/$name.census"
	echo "$(ls "$work/$name"/*.ptx | wc -l)" > "$work/$name.modules"
	rm -rf "$work/$name"
done
python3 - "$work" <<'PY'
import collections, os, re, sys

work = sys.argv[1]

def reason_kind(reason):
    """The instruction or the kind of problem, without names and lines."""
    reason = re.sub(r"^uses \S+, which was left out: ", "", reason)
    reason = re.sub(r"^(PTX of fatbin \d+, |the PTX file, )?line \d+:\d+: ", "", reason)
    m = re.match(r"not supported yet: (\S+)", reason)
    if m:
        return "not supported yet: " + ".".join(m.group(1).split(".")[:2])
    return re.sub(r" in (kernel|function) \S+$", "", reason)[:80]

total = collections.Counter()
print(f"{'library':28} {'modules':>7} {'kernels':>8} {'translated':>10}  top reasons for the rest")
for f in sorted(os.listdir(work)):
    if not f.endswith(".census"):
        continue
    lib = f[:-len(".census")]
    kept = kernels = 0
    reasons = collections.Counter()
    for line in open(os.path.join(work, f), errors="replace"):
        kind, _, rest = line.rstrip("\n").partition(" ")
        if kind == "kept":
            kept += 1
            kernels += 1
        elif kind == "left-out":
            kernels += 1
            reasons[reason_kind(rest.partition("\t")[2])] += 1
        elif kind == "module":
            n, _, why = rest.partition("\t")
            kernels += int(n)
            reasons["whole module: " + reason_kind(why)] += int(n)
    modules = int(open(os.path.join(work, lib + ".modules")).read())
    total.update(modules=modules, kernels=kernels, kept=kept)
    top = "; ".join(f"{r} ({n})" for r, n in reasons.most_common(3))
    share = 100.0 * kept / kernels if kernels else 100.0
    print(f"{lib:28} {modules:7} {kernels:8} {share:9.1f}%  {top}")
share = 100.0 * total["kept"] / total["kernels"] if total["kernels"] else 100.0
print(f"{'total':28} {total['modules']:7} {total['kernels']:8} {share:9.1f}%")
PY
