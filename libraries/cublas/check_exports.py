#!/usr/bin/env python3
"""The library exports exactly what exports.inc lists, each a trampoline that can hand the
call to NVIDIA's cuBLAS: a function defined in C but missing from the list would be
exported under its own name and never reach NVIDIA's.

usage: check_exports.py LIBRARY EXPORTS_INC"""
import re
import subprocess
import sys

library, listing = sys.argv[1:3]
nm = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True,
                    check=True).stdout
exported = {line.split()[-1].split("@")[0] for line in nm.splitlines()
            if line.split() and line.split()[-1].startswith("cublas")}
listed = set(re.findall(r"^BLAS_EXPORT\((\w+)\)", open(listing).read(), re.M))
for name in sorted(exported - listed):
    print(f"{library}: exports {name}, which exports.inc does not list")
for name in sorted(listed - exported):
    print(f"{library}: does not export {name}, which exports.inc lists")
other = [line for line in nm.splitlines() if line.split() and line.split()[1] != "A" and
         not line.split()[-1].startswith("cublas")]
for line in other:
    print(f"{library}: exports {line.split()[-1]}, not a cuBLAS function")
sys.exit(1 if exported != listed or other else 0)
