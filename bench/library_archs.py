#!/usr/bin/env python3
"""Which fatbins of a CUDA library can run converted, for each compute capability the
driver could report (a benchmark, not a test).

usage: library_archs.py ZLUDA_CONVERT LIBRARY...

A library's host code picks its kernels by the compute capability it is told; on NVIDIA's
driver a fatbin is usable at capability M.N when it has SASS for sm_M0..sm_MN or PTX no newer
than M.N, so those are the fatbins (and kernels) a library may use there. Converted, only a
fatbin with PTX has code. For each capability this prints how many fatbins are usable and
what share of them carries PTX; the driver reports 8.6 (ZLUDA_CONVERT_COMPUTE_CAPABILITY)."""

import json
import re
import subprocess
import sys

CAPABILITIES = [(7, 5), (8, 0), (8, 6), (8, 9), (9, 0), (10, 0), (12, 0)]


def sm_of(arch):
    m = re.match(r"(?:sm|compute)_(\d+)", arch or "")
    return int(m.group(1)) if m else None


def usable(entries, major, minor):
    cc = major * 10 + minor
    for kind, sm in entries:
        if kind == "cubin" and sm is not None and sm // 10 == major and sm <= cc:
            return True
        if kind == "ptx" and sm is not None and sm <= cc:
            return True
    return False


def main():
    tool, libraries = sys.argv[1], sys.argv[2:]
    print("%-22s %8s %8s" % ("library", "fatbins", "with PTX") +
          "".join("  %8s" % ("%d.%d" % cc) for cc in CAPABILITIES))
    for lib in libraries:
        p = subprocess.run([tool, "-q", "inspect", "--json", lib], capture_output=True, text=True)
        if p.returncode != 0:
            print("%s: inspect failed: %s" % (lib, p.stderr.strip()))
            continue
        fatbins = []
        for c in json.loads(p.stdout)["containers"]:
            fatbins.append([(e["kind"], sm_of(e["arch"])) for e in c["entries"]])
        with_ptx = [f for f in fatbins if any(kind == "ptx" for kind, _ in f)]
        row = "%-22s %8d %8d" % (lib.rsplit("/", 1)[-1], len(fatbins), len(with_ptx))
        for major, minor in CAPABILITIES:
            here = [f for f in fatbins if usable(f, major, minor)]
            ptx = [f for f in here if any(kind == "ptx" for kind, _ in f)]
            row += "  %8s" % ("%d/%d" % (len(ptx), len(here)) if here else "-")
        print(row)
    print("\nper capability: fatbins with PTX / fatbins usable there")


if __name__ == "__main__":
    main()
