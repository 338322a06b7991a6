#!/usr/bin/env python3
"""A module compiled in parts: the same bytes for any -j, one metadata note, the module's
variables defined once, the whole module's shared layout.

Usage: check_parts.py TOOL LLVM_READOBJ LLVM_OBJDUMP

A PTX module of five kernels that share a .func, a .global and a .const variable (written by
one kernel, read by others) and a .shared variable, one with function-scope .shared and
.global variables of its own, is converted as a module file for two AMDGPU processors and
host, with ZLUDA_CONVERT_PART_INSTRUCTIONS=1 (every kernel a part of its own). The report
must say 5 parts for each target; -j1 and -j2 must give the same bytes; each AMDGPU code
object must have exactly one NT_AMDGPU_METADATA note naming all five kernels, fill the gaps
between the parts' code with s_code_end, and define each variable once; the host code object
must define its ABI version once and give the shared layout the size the whole module's has.
Without the variable the module is too small to split (1 part); a module whose kernels all
call one large function stays whole (each part would compile it again); a module that calls a
function through a pointer is never split. That the parts run as the whole did is the
programs.parts tests'.
"""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
from checks import check as check_one, summary  # noqa: E402

HEADER = [".version 8.0", ".target sm_80", ".address_size 64",
          ".visible .global .align 4 .u32 counter;",
          ".visible .const .align 4 .u32 scale;",
          ".shared .align 4 .b8 scratch[256];",
          ".func (.reg .u32 %out) twice(.reg .u32 %in)", "{", "add.u32 %out, %in, %in;", "ret;", "}"]


def kernel(name, body):
    return [f".visible .entry {name}(.param .u64 p)", "{", ".reg .b64 %rd<8>; .reg .b32 %r<8>;",
            "ld.param.u64 %rd1, [p];", "mov.u32 %r1, %tid.x;", "mul.wide.u32 %rd2, %r1, 4;",
            "add.s64 %rd3, %rd1, %rd2;", *body, "ret;", "}"]


SPLITTABLE = HEADER \
    + kernel("bump", ["atom.global.add.u32 %r2, [counter], 1;", "st.global.u32 [%rd3], %r2;"]) \
    + kernel("read_counter", ["ld.global.u32 %r2, [counter];", "call (%r3), twice, (%r2);",
                              "st.global.u32 [%rd3], %r3;"]) \
    + kernel("scaled", ["ld.const.u32 %r2, [scale];", "call (%r3), twice, (%r2);", "st.global.u32 [%rd3], %r3;"]) \
    + kernel("staged", ["mul.lo.u32 %r4, %r1, 4;", "mov.u32 %r5, scratch;", "add.u32 %r5, %r5, %r4;",
                        "st.shared.u32 [%r5], %r1;", "bar.sync 0;", "ld.shared.u32 %r2, [%r5];",
                        "st.global.u32 [%rd3], %r2;"]) \
    + [".visible .entry scoped(.param .u64 p)", "{", ".reg .b64 %rd<8>; .reg .b32 %r<8>;",
       ".shared .align 4 .b8 local_scratch[64];", ".global .align 4 .u32 local_hits;",
       "ld.param.u64 %rd1, [p];", "mov.u32 %r1, %tid.x;", "mov.u32 %r5, local_scratch;",
       "st.shared.u32 [%r5], %r1;", "ld.shared.u32 %r2, [%r5];", "atom.global.add.u32 %r3, [local_hits], %r2;",
       "st.global.u32 [%rd1], %r3;", "ret;", "}"]
KERNELS = {"bump", "read_counter", "scaled", "staged", "scoped"}

# Four kernels that each call one function far larger than themselves.
SHARED_HEAVY = HEADER + [".func (.reg .u32 %out) heavy(.reg .u32 %in)", "{", ".reg .b32 %h<2>;",
                         "mov.u32 %h1, %in;", *["mad.lo.u32 %h1, %h1, %h1, %in;"] * 400,
                         "mov.u32 %out, %h1;", "ret;", "}"] \
    + sum((kernel(f"caller{i}", ["call (%r2), heavy, (%r1);", "st.global.u32 [%rd3], %r2;"]) for i in range(4)), [])

INDIRECT = HEADER + kernel("first", ["mov.u64 %rd4, twice;", "mov.u32 %r2, 3;",
                                     "prototype_0 : .callprototype (.param .u32 _) _ (.param .u32 _);",
                                     "{", ".param .u32 a;", ".param .u32 r;", "st.param.u32 [a], %r2;",
                                     "call (r), %rd4, (a), prototype_0;", "ld.param.u32 %r3, [r];", "}",
                                     "st.global.u32 [%rd3], %r3;"]) \
    + kernel("second", ["st.global.u32 [%rd3], %r1;"])


def word(objdump, path, symbol):
    """The 32-bit little-endian value at a symbol of an ELF file (read through its segments)."""
    table = subprocess.run([objdump, "-t", path], capture_output=True, text=True).stdout
    found = [line.split()[0] for line in table.splitlines() if line.split()[-1:] == [symbol]]
    if not found:
        return None
    address = int(found[0], 16)
    with open(path, "rb") as f:
        image = f.read()
    phoff, = struct.unpack_from("<Q", image, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", image, 0x36)
    for i in range(phnum):
        kind, _, offset, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", image, phoff + i * phentsize)
        if kind == 1 and vaddr <= address and address + 4 <= vaddr + filesz:
            return struct.unpack_from("<I", image, offset + address - vaddr)[0]
    return None


def check(ok, what, detail=None):
    check_one(ok, what)
    if not ok and detail is not None:
        print(f"  saw: {detail!r}")


def main():
    tool, readelf, objdump = sys.argv[1], sys.argv[2], sys.argv[3]
    work = tempfile.mkdtemp(prefix="zc-parts-")
    env = dict(os.environ, HOME=os.path.join(work, "home"), ZLUDA_CONVERT_PART_INSTRUCTIONS="1")
    targets = "--offload-arch=gfx1030,gfx1100,host"

    def convert(ptx, out, *args, environment=env):
        report = out + ".json"
        result = subprocess.run([tool, ptx, "-o", out, targets, "--no-cache", "-q", "--report=" + report, *args],
                                capture_output=True, text=True, env=environment)
        check(result.returncode == 0, f"{os.path.basename(out)}: converted", result.stderr)
        with open(report) as f:
            return {t: r["parts"] for t, r in json.load(f)["modules"][0]["results"].items()}

    def code_objects(converted):
        into = converted + ".x"
        subprocess.run([tool, "extract", converted, "-o", into, "-q"], env=env)
        return {os.path.basename(p).split(".")[1]: p for p in glob.glob(os.path.join(into, "*.co"))}

    try:
        ptx = os.path.join(work, "splittable.ptx")
        with open(ptx, "w") as f:
            f.write("\n".join(SPLITTABLE) + "\n")
        one, two = os.path.join(work, "j1"), os.path.join(work, "j2")
        parts = convert(ptx, one, "-j1")
        check(parts == {"gfx1030": 5, "gfx1100": 5, "host": 5}, "every kernel a part", parts)
        convert(ptx, two, "-j2")
        first, second = code_objects(one), code_objects(two)
        check(len(first) == 3 and all(open(first[k], "rb").read() == open(second[k], "rb").read() for k in first),
              "-j1 and -j2: the same code objects", sorted(first))
        for target in ("gfx1030", "gfx1100"):
            notes = subprocess.run([readelf, "--elf-output-style=GNU", "--notes", first[target]], capture_output=True, text=True).stdout
            names = set(re.findall(r"^\s+\.name:\s+(\S+)", notes, re.M))
            check(notes.count("NT_AMDGPU_METADATA") == 1 and names == KERNELS,
                  f"{target}: one metadata note with the five kernels", (notes.count("NT_AMDGPU_METADATA"), names))
            code = subprocess.run([objdump, "-d", "--mcpu=" + target, first[target]], capture_output=True,
                                  text=True).stdout
            check(code.count("s_code_end") > 0 and not re.search(r"^\s*\.\.\.$", code, re.M),
                  f"{target}: between the parts' code, s_code_end (no zeros, which gfx10 reads as v_illegal)")
            symbols = subprocess.run([readelf, "--elf-output-style=GNU", "--dyn-syms", "-W", first[target]], capture_output=True,
                                     text=True).stdout
            for variable in ("counter", "scale", "scoped.local_hits"):
                defined = [line for line in symbols.splitlines()
                           if line.split()[-1:] == [variable] and " UND " not in line]
                check(len(defined) == 1, f"{target}: {variable} defined once", defined)

        whole = dict(env)
        del whole["ZLUDA_CONVERT_PART_INSTRUCTIONS"]
        parts = convert(ptx, os.path.join(work, "default"), environment=whole)
        check(parts == {"gfx1030": 1, "gfx1100": 1, "host": 1}, "a small module compiled whole", parts)
        host, host_whole = first["host"], code_objects(os.path.join(work, "default"))["host"]
        symbols = subprocess.run([readelf, "--elf-output-style=GNU", "--dyn-syms", "-W", host], capture_output=True,
                                 text=True).stdout
        defined = [line for line in symbols.splitlines()
                   if line.split()[-1:] == ["__zc_host_abi_version"] and " UND " not in line]
        check(len(defined) == 1, "host: the ABI version defined once", defined)
        entries = {line.split()[-1].removesuffix(".zc_block") for line in symbols.splitlines()
                   if " FUNC " in line and " UND " not in line}
        check(KERNELS <= entries, "host: every kernel's entry", entries)
        layout = [word(objdump, f, "zluda_convert_shared_layout_size") for f in (host, host_whole)]
        check(layout[0] == layout[1] and layout[0] is not None and layout[0] >= 256 + 64,
              "host: the whole module's shared layout", layout)

        ptx = os.path.join(work, "shared_heavy.ptx")
        with open(ptx, "w") as f:
            f.write("\n".join(SHARED_HEAVY) + "\n")
        parts = convert(ptx, os.path.join(work, "shared_heavy"))
        check(parts == {"gfx1030": 1, "gfx1100": 1, "host": 1},
              "kernels that all call one large function: whole, not that function once per part", parts)

        ptx = os.path.join(work, "indirect.ptx")
        with open(ptx, "w") as f:
            f.write("\n".join(INDIRECT) + "\n")
        parts = convert(ptx, os.path.join(work, "indirect"))
        check(parts == {"gfx1030": 1, "gfx1100": 1, "host": 1}, "a function called through a pointer: whole", parts)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summary("check_parts")


sys.exit(main())
