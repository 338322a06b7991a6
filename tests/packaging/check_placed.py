#!/usr/bin/env python3
"""The files zluda-convert places beside converted programs, as a package ships them.

Usage: check_placed.py SOURCE_DIR BUILD_DIR FILE...

Each FILE (libcuda.so.1, nvcuda.dll, the library replacements) must be stripped (no symbol
table, no DWARF section), name its debug information by a GNU debuglink to FILE.debug, which
must exist beside it, and hold no path of the machine that built it: neither SOURCE_DIR nor
BUILD_DIR appears in FILE or in FILE.debug.
"""
import os
import struct
import sys


def elf_sections(data):
    """The section names of a 64-bit little-endian ELF file."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx][4]
    return [data[strtab + h[0]:data.index(b"\0", strtab + h[0])].decode() for h in headers]


def pe_sections(data):
    """The section names of a PE file, long ones (/N) read from the COFF string table."""
    pe, = struct.unpack_from("<I", data, 0x3c)
    count, = struct.unpack_from("<H", data, pe + 6)
    symbols, nsymbols = struct.unpack_from("<II", data, pe + 12)
    optional, = struct.unpack_from("<H", data, pe + 20)
    strings = symbols + 18 * nsymbols
    names = []
    for i in range(count):
        raw = data[pe + 24 + optional + 40 * i:][:8].rstrip(b"\0")
        if raw.startswith(b"/"):
            at = strings + int(raw[1:])
            raw = data[at:data.index(b"\0", at)]
        names.append(raw.decode())
    return names


def problems(path, roots):
    with open(path, "rb") as f:
        data = f.read()
    found = []
    sections = elf_sections(data) if data[:4] == b"\x7fELF" else pe_sections(data)
    for section in sections:
        if section == ".symtab" or section.startswith(".debug_"):
            found.append(f"holds a {section} section (not stripped)")
    if ".gnu_debuglink" not in sections:
        found.append("has no .gnu_debuglink section")
    debug = path + ".debug"
    if os.path.basename(debug).encode() + b"\0" not in data:
        found.append(f"names no debuglink to {os.path.basename(debug)}")
    if not os.path.isfile(debug):
        found.append(f"has no {os.path.basename(debug)} beside it")
        debug_data = b""
    else:
        with open(debug, "rb") as f:
            debug_data = f.read()
    for root in roots:
        for name, bytes_ in ((os.path.basename(path), data),
                             (os.path.basename(debug), debug_data)):
            if root.encode() in bytes_:
                found.append(f"{name} holds the build machine's path {root}")
    return found


def main():
    source, build, *files = sys.argv[1:]
    roots = [os.path.realpath(source), os.path.realpath(build)]
    failed = 0
    for path in files:
        found = problems(path, roots)
        for p in found:
            print(f"FAIL {path}: {p}")
        failed += bool(found)
        if not found:
            print(f"ok {os.path.basename(path)}")
    if failed or not files:
        sys.exit(f"FAIL: {failed} of {len(files)} placed files")
    print("PASS")


if __name__ == "__main__":
    main()
