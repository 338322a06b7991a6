#!/usr/bin/env python3
"""A library replacement (a shared library or a DLL) exports exactly what its two lists name (implemented, unsupported),
each a trampoline that can hand the call to NVIDIA's library: a function defined in C but
missing from the lists would be exported under its own name and never reach NVIDIA's; and
no name is in both.

usage: check_exports.py LIBRARY EXPORTS_INC UNSUPPORTED_INC"""
import os
import re
import subprocess
import sys

library, listing, unsupported = sys.argv[1:4]


def elf_exports():
    nm = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True,
                        text=True, check=True).stdout
    symbols = [line.split() for line in nm.splitlines() if line.split()]
    # A version node (type A) is no function.
    return {f[-1].split("@")[0] for f in symbols if f[1] != "A"}


def dll_exports():
    """A DLL's export name table, as objdump prints it."""
    dump = subprocess.run(["objdump", "-p", library], capture_output=True, text=True,
                          check=True).stdout
    table = dump.split("[Ordinal/Name Pointer] Table", 1)
    if len(table) < 2:
        return set()
    names = set()
    for line in table[1].splitlines()[1:]:
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)$", line)
        if not m:
            break
        names.add(m.group(1))
    return names


with open(library, "rb") as f:
    exported = dll_exports() if f.read(2) == b"MZ" else elf_exports()


def listed_in(path):
    """The list's text, with the lists it includes (#include "NAME", beside it)."""
    text = open(path).read()
    for name in re.findall(r'^#include "([^"]+)"', text, re.M):
        text += listed_in(os.path.join(os.path.dirname(path), name))
    return text


implemented = set(re.findall(r"^ZC_EXPORT\((\w+)\)", listed_in(listing), re.M))
refused = set(re.findall(r"^ZC_UNSUPPORTED\((\w+)\)", open(unsupported).read(), re.M))
both = implemented & refused
for name in sorted(both):
    print(f"{name}: both implemented and listed as unsupported")
listed = implemented | refused
for name in sorted(exported - listed):
    print(f"{library}: exports {name}, which neither exports.inc nor unsupported.inc lists")
for name in sorted(listed - exported):
    print(f"{library}: does not export {name}, which its lists name")
sys.exit(1 if exported != listed or both else 0)
