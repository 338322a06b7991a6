#!/usr/bin/env python3
"""The library exports exactly what exports.inc and unsupported.inc list, each a trampoline
that can hand the call to NVIDIA's cuBLAS: a function defined in C but missing from the list
would be exported under its own name and never reach NVIDIA's; and no name is in both.

usage: check_exports.py LIBRARY EXPORTS_INC UNSUPPORTED_INC"""
import re
import subprocess
import sys

library, listing, unsupported = sys.argv[1:4]
nm = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True,
                    check=True).stdout
exported = {line.split()[-1].split("@")[0] for line in nm.splitlines()
            if line.split() and line.split()[-1].startswith("cublas")}
implemented = set(re.findall(r"^BLAS_EXPORT\((\w+)\)", open(listing).read(), re.M))
refused = set(re.findall(r"^BLAS_UNSUPPORTED\((\w+)\)", open(unsupported).read(), re.M))
both = implemented & refused
for name in sorted(both):
    print(f"{name}: both implemented and listed as unsupported")
listed = implemented | refused
for name in sorted(exported - listed):
    print(f"{library}: exports {name}, which neither exports.inc nor unsupported.inc lists")
for name in sorted(listed - exported):
    print(f"{library}: does not export {name}, which its lists name")
other = [line for line in nm.splitlines() if line.split() and line.split()[1] != "A" and
         not line.split()[-1].startswith("cublas")]
for line in other:
    print(f"{library}: exports {line.split()[-1]}, not a cuBLAS function")
sys.exit(1 if exported != listed or other or both else 0)
