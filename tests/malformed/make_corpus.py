#!/usr/bin/env python3
"""Cuts the malformed corpus out of good inputs, and says what zluda-convert must answer.

Every case damages one thing in a good file that nvcc just built (or in a PE32+ image built
here around the bare fatbin) and records the exact error message the tool must print. The
generator finds what it damages by parsing the good file itself (ELF section headers, fatbin
headers, PE headers), and computes offsets in the expected message from what it found, so the
expectations follow the toolchain's layout instead of hard-coding it.

  make_corpus.py --list                 the case names (CMake registers one test per name)
  make_corpus.py --zstd-elf F --lz4-elf F --compress-all-elf F --fatbin F --out DIR
                                        writes DIR/<case> and DIR/manifest.json
"""
import argparse
import json
import os
import random
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
WRAPPER_MAGIC = 0x466243B1
FLAG_LZ4 = 0x2000
FLAG_ZSTD = 0x8000
ENTRY_KIND_PTX = 1
ELF_HEADER_SIZE = 64
ELF_SECTION_HEADER_SIZE = 64
R_X86_64_RELATIVE = 8
PE_IMAGE_BASE = 0x140000000
PE_FILE_ALIGNMENT = 0x200
PE_SECTION_ALIGNMENT = 0x1000
PE_OPTIONAL_HEADER_OFFSET = 0x58  # e_lfanew 0x40 + "PE\0\0" + 20-byte COFF header
PE_OPTIONAL_HEADER_SIZE = 112 + 16 * 8  # PE32+ fixed part and 16 data directories
PE_SECTION_TABLE = PE_OPTIONAL_HEADER_OFFSET + PE_OPTIONAL_HEADER_SIZE

CASES = []  # (name, builder); a builder takes the Inputs and returns a Case


def case(fn):
    CASES.append((fn.__name__, fn))
    return fn


class Case:
    """What a damaged input is and what the tool must say about it.

    `message` follows "zluda-convert: PATH: "; None means the damage is harmless and every
    command must succeed (regressions for crashes on odd but acceptable input). Entries are
    decompressed by `inspect` only for PTX (to list kernels); a damaged compressed cubin is
    found by `extract` alone, so such a case sets inspect_succeeds. Damage confined to one
    entry's payload is passed over (passed_over): the command warns with `message` after
    "PATH: warning: " and goes on, exiting 0."""

    def __init__(self, data, message, inspect_succeeds=False, kind="file", passed_over=False):
        self.data, self.message = data, message
        self.inspect_succeeds, self.kind = inspect_succeeds, kind
        self.passed_over = passed_over


# ---- reading and patching the good files --------------------------------------------------

def u16(b, off):
    return struct.unpack_from("<H", b, off)[0]


def u32(b, off):
    return struct.unpack_from("<I", b, off)[0]


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def put(b, fmt, off, value):
    out = bytearray(b)
    struct.pack_into("<" + fmt, out, off, value)
    return bytes(out)


class Entry:
    HEADER_FIELDS = {"kind": (0, "H"), "format": (2, "H"), "header_size": (4, "I"),
                     "payload_size": (8, "Q"), "compressed_size": (0x10, "I"),
                     "ident": (0x20, "I"), "ident_len": (0x24, "I"),
                     "flags": (0x28, "Q"), "uncompressed_size": (0x38, "Q")}

    def __init__(self, b, off):
        self.offset = off
        for name, (rel, fmt) in self.HEADER_FIELDS.items():
            setattr(self, name, struct.unpack_from("<" + fmt, b, off + rel)[0])
        self.payload = off + self.header_size
        self.end = self.payload + self.payload_size

    def patch(self, b, field, value):
        rel, fmt = self.HEADER_FIELDS[field]
        return put(b, fmt, self.offset + rel, value)


class Container:
    def __init__(self, b, off):
        assert u32(b, off) == FATBIN_MAGIC, f"no fatbin at {off:#x}"
        self.offset = off
        self.fat_size = u64(b, off + 8)
        self.end = off + 16 + self.fat_size
        self.entries = []
        at = off + 16
        while at < self.end:
            e = Entry(b, at)
            self.entries.append(e)
            at = e.end

    def ptx(self):
        return next(i for i, e in enumerate(self.entries) if e.kind == ENTRY_KIND_PTX)


def containers_in(b, start, end):
    found, at = [], start
    while at < end:
        if b[at] == 0:
            at += 1
            continue
        found.append(Container(b, at))
        at = found[-1].end
    return found


class Section:
    def __init__(self, index, b, off, names_offset):
        (self.name_offset, self.type, self.flags, self.addr, self.offset, self.size, self.link,
         self.info, self.addralign, self.entsize) = struct.unpack_from("<IIQQQQIIQQ", b, off)
        self.index, self.header = index, off
        self.name = b[names_offset + self.name_offset:].split(b"\0", 1)[0].decode()


class Elf:
    """The little-endian ELF64 that nvcc links on x86-64."""

    def __init__(self, b):
        assert b[:4] == b"\x7fELF" and b[4] == 2 and b[5] == 1, "not a little-endian ELF64"
        self.bytes = b
        self.shoff = u64(b, 0x28)
        self.shnum = u16(b, 0x3c)
        shstrndx = u16(b, 0x3e)
        names = u64(b, self.shoff + shstrndx * ELF_SECTION_HEADER_SIZE + 0x18)
        self.sections = [Section(i, b, self.shoff + i * ELF_SECTION_HEADER_SIZE, names)
                         for i in range(self.shnum)]

    def section(self, name):
        return next(s for s in self.sections if s.name == name)

    def containers(self):
        s = self.section(".nv_fatbin")
        return containers_in(self.bytes, s.offset, s.offset + s.size)

    def offset_to_addr(self, off):
        s = self.section(".nv_fatbin")
        return s.addr + off - s.offset

    def patch_section(self, name, field, value):
        rel = {"name": (0, "I"), "offset": (0x18, "Q"), "size": (0x20, "Q")}[field]
        return put(self.bytes, rel[1], self.section(name).header + rel[0], value)

    def wrapper(self, index):
        s = self.section(".nvFatBinSegment")
        return s.offset + 24 * index, s.addr + 24 * index

    def set_wrapper_data(self, index, value):
        """Moves wrapper `index`'s data pointer: in place and in its R_X86_64_RELATIVE addend
        (GNU ld writes both, the tool reads the addend)."""
        off, addr = self.wrapper(index)
        b = put(self.bytes, "Q", off + 8, value)
        rela = self.section(".rela.dyn")
        for at in range(rela.offset, rela.offset + rela.size, 24):
            r_offset, r_info = struct.unpack_from("<QQ", b, at)
            if r_offset == addr + 8 and r_info & 0xffffffff == R_X86_64_RELATIVE:
                return put(b, "Q", at + 16, value)
        raise AssertionError("no relative relocation for the wrapper's data pointer")


def pe_image(fatbin):
    """A minimal PE32+ image: .nv_fatb holding the fatbin, .nvFatBi one v1 wrapper pointing at
    it, and .reloc a base relocation for the wrapper's data pointer."""
    def align(n, a):
        return (n + a - 1) // a * a

    wrapper = struct.pack("<IIQQ", WRAPPER_MAGIC, 1, PE_IMAGE_BASE + PE_SECTION_ALIGNMENT, 0)
    wrapper_rva = PE_SECTION_ALIGNMENT * (1 + align(len(fatbin), PE_SECTION_ALIGNMENT)
                                          // PE_SECTION_ALIGNMENT)
    reloc_rva = wrapper_rva + PE_SECTION_ALIGNMENT
    reloc = struct.pack("<IIHH", wrapper_rva, 12, 0xA000 | 8, 0)  # DIR64 at wrapper+8, pad
    sections = [(".nv_fatb", PE_SECTION_ALIGNMENT, fatbin, 0x40000040),
                (".nvFatBi", wrapper_rva, wrapper, 0xC0000040),
                (".reloc", reloc_rva, reloc, 0x42000040)]
    raw, table = PE_FILE_ALIGNMENT, b""
    body = b""
    for name, rva, data, characteristics in sections:
        raw_size = align(len(data), PE_FILE_ALIGNMENT)
        table += struct.pack("<8sIIIIIIHHI", name.encode(), len(data), rva, raw_size,
                             raw + len(body), 0, 0, 0, 0, characteristics)
        body += data.ljust(raw_size, b"\0")
    image_size = reloc_rva + PE_SECTION_ALIGNMENT
    dos = b"MZ".ljust(0x3c, b"\0") + struct.pack("<I", 0x40)
    coff = struct.pack("<HHIIIHH", 0x8664, len(sections), 0, 0, 0, PE_OPTIONAL_HEADER_SIZE,
                       0x22)
    optional = bytearray(PE_OPTIONAL_HEADER_SIZE)
    struct.pack_into("<H", optional, 0, 0x20B)
    struct.pack_into("<QII", optional, 24, PE_IMAGE_BASE, PE_SECTION_ALIGNMENT,
                     PE_FILE_ALIGNMENT)
    struct.pack_into("<II", optional, 56, image_size, PE_FILE_ALIGNMENT)
    struct.pack_into("<I", optional, 108, 16)
    struct.pack_into("<II", optional, 112 + 5 * 8, reloc_rva, len(reloc))
    headers = (dos + b"PE\0\0" + coff + bytes(optional) + table).ljust(PE_FILE_ALIGNMENT, b"\0")
    assert len(headers) == PE_FILE_ALIGNMENT
    return headers + body


class Pe:
    def __init__(self, b):
        self.bytes = b
        self.sections = {}
        for i in range(u16(b, 0x46)):
            at = PE_SECTION_TABLE + 40 * i
            name = b[at:at + 8].rstrip(b"\0").decode()
            self.sections[name] = {"header": at, "virtual_size": u32(b, at + 8),
                                   "addr": PE_IMAGE_BASE + u32(b, at + 12),
                                   "raw_size": u32(b, at + 16), "offset": u32(b, at + 20)}

    def section(self, name):
        return self.sections[name]

    def patch_section(self, name, field, value):
        rel = {"virtual_size": 8, "raw_size": 16, "offset": 20}[field]
        return put(self.bytes, "I", self.sections[name]["header"] + rel, value)


class Inputs:
    def __init__(self, args):
        def read(path):
            with open(path, "rb") as f:
                return f.read()
        self.zstd = Elf(read(args.zstd_elf))
        self.lz4 = Elf(read(args.lz4_elf))
        self.compress_all = Elf(read(args.compress_all_elf))
        self.fatbin = read(args.fatbin)
        self.pe = Pe(pe_image(self.fatbin))


def garbage(n, seed, avoid_first=None):
    """Reproducible noise; its first byte is never `avoid_first` (a magic's first byte)."""
    rng = random.Random(seed)
    data = bytearray(rng.randrange(256) for _ in range(n))
    if n and data[0] == avoid_first:
        data[0] ^= 0xff
    return bytes(data)


def replace(b, off, data):
    return b[:off] + data + b[off + len(data):]


def h(n):
    return f"{n:#x}"


# ---- inputs that are not binaries at all ----------------------------------------------------

@case
def empty_file(i):
    return Case(b"", "empty file")


@case
def directory(i):
    return Case(None, "is a directory", kind="directory")


@case
def nonexistent_file(i):
    return Case(None, "cannot open: No such file or directory", kind="missing")


@case
def random_bytes(i):
    data = b"\x01" + garbage(4095, 1)  # no ELF, MZ or fatbin magic starts with 0x01
    return Case(data, "not an ELF or PE binary, a fatbin or a PTX file (unknown magic)")


PTX_TEXT = b".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n"


def module_trailer(image_offset, image_size, original_size):
    return b"ZLUDAMF1" + struct.pack("<QQQ", image_offset, image_size, original_size)


@case
def text_without_version(i):
    return Case(b"// a text file, not PTX\n" * 4,
                "not an ELF or PE binary, a fatbin or a PTX file (unknown magic)")


@case
def module_trailer_image_past_end(i):
    data = PTX_TEXT + b"\0" * 8
    return Case(data + module_trailer(len(data), 4096, len(PTX_TEXT)),
                "module file trailer points outside the file")


@case
def module_trailer_original_past_image(i):
    data = PTX_TEXT + b"\0" * 8
    return Case(data + module_trailer(8, 8, len(data)),
                "module file trailer points outside the file")


@case
def module_trailer_image_not_an_image(i):
    data = PTX_TEXT + b"\0" * 8
    return Case(data + b"\xff" * 64 + module_trailer(len(data), 64, len(PTX_TEXT)),
                "AOT image: no ZLUDAAOT magic")


# ---- ELF: headers and sections ----------------------------------------------------------------

@case
def elf_truncated_in_ident(i):
    return Case(i.zstd.bytes[:4], "ELF file is 4 bytes, too small for an ELF header")


@case
def elf_truncated_in_header(i):
    return Case(i.zstd.bytes[:40], "ELF file is 40 bytes, too small for the 64-byte ELF64 header")


@case
def elf_bad_class(i):
    return Case(put(i.zstd.bytes, "B", 4, 7),
                "ELF header has an invalid class 7 (1 is 32-bit, 2 is 64-bit)")


@case
def elf_truncated_after_header(i):
    return Case(i.zstd.bytes[:ELF_HEADER_SIZE],
                f"ELF section header table offset {h(i.zstd.shoff)} is past the end of the file "
                f"({h(ELF_HEADER_SIZE)} bytes)")


@case
def elf_truncated_before_section_headers(i):
    e = i.zstd
    return Case(e.bytes[:e.shoff],
                f"ELF section header table offset {h(e.shoff)} is past the end of the file "
                f"({h(e.shoff)} bytes)")


@case
def elf_truncated_in_section_headers(i):
    e = i.zstd
    size = e.shoff + e.shnum // 2 * ELF_SECTION_HEADER_SIZE + 20
    return Case(e.bytes[:size],
                f"ELF section header table ({e.shnum} headers at {h(e.shoff)}) extends past the "
                f"end of the file ({h(size)} bytes)")


@case
def elf_truncated_last_byte(i):
    e = i.zstd
    size = len(e.bytes) - 1
    assert e.shoff + e.shnum * ELF_SECTION_HEADER_SIZE == len(e.bytes), "headers not last"
    return Case(e.bytes[:size],
                f"ELF section header table ({e.shnum} headers at {h(e.shoff)}) extends past the "
                f"end of the file ({h(size)} bytes)")


@case
def elf_section_count_past_end(i):
    e = i.zstd
    return Case(put(e.bytes, "H", 0x3c, 0xfeff),
                f"ELF section header table (65279 headers at {h(e.shoff)}) extends past the end "
                f"of the file ({h(len(e.bytes))} bytes)")


@case
def elf_section_name_index_out_of_range(i):
    e = i.zstd
    return Case(put(e.bytes, "H", 0x3e, e.shnum + 7),
                f"ELF section name table index {e.shnum + 7} is out of range ({e.shnum} sections)")


@case
def elf_section_name_offset_out_of_range(i):
    e = i.zstd
    s = e.section(".nv_fatbin")
    return Case(e.patch_section(".nv_fatbin", "name", 0xfffff),
                f"ELF section {s.index} has an invalid name offset 0xfffff")


@case
def elf_fatbin_section_offset_past_end(i):
    e = i.zstd
    s = e.section(".nv_fatbin")
    offset = len(e.bytes) + 0x1000
    return Case(e.patch_section(".nv_fatbin", "offset", offset),
                f"ELF section .nv_fatbin (offset {h(offset)}, size {h(s.size)}) extends past the "
                f"end of the file")


@case
def elf_fatbin_section_size_past_end(i):
    e = i.zstd
    s = e.section(".nv_fatbin")
    size = len(e.bytes)
    return Case(e.patch_section(".nv_fatbin", "size", size),
                f"ELF section .nv_fatbin (offset {h(s.offset)}, size {h(size)}) extends past the "
                f"end of the file")


@case
def elf_fatbin_section_zero_length(i):
    e = i.zstd
    s = e.section(".nv_fatbin")
    _, wrapper0 = e.wrapper(0)
    return Case(e.patch_section(".nv_fatbin", "size", 0),
                f"wrapper at {h(wrapper0)} points to {h(s.addr)}, outside the file's data")


# A section that ends inside its last fatbin: the section size is the limit the walk obeys.
def elf_cut_fatbin_section(i, end, message):
    e = i.zstd
    s = e.section(".nv_fatbin")
    return Case(e.patch_section(".nv_fatbin", "size", end - s.offset),
                "section .nv_fatbin: " + message)


@case
def elf_fatbin_section_ends_in_outer_header(i):
    c = i.zstd.containers()[-1]
    return elf_cut_fatbin_section(i, c.offset + 8, f"fatbin header at {h(c.offset)} is truncated "
                                  "(0x8 bytes left, the header needs 0x10)")


@case
def elf_fatbin_section_ends_in_entry_header(i):
    c = i.zstd.containers()[-1]
    return elf_cut_fatbin_section(i, c.offset + 16 + 32,
                                  f"fatbin at {h(c.offset)} claims {h(c.fat_size)} bytes of "
                                  "entries but only 0x20 remain")


@case
def elf_fatbin_section_ends_in_payload(i):
    c = i.zstd.containers()[-1]
    e = c.entries[-1]
    return elf_cut_fatbin_section(i, e.payload + 8,
                                  f"fatbin at {h(c.offset)} claims {h(c.fat_size)} bytes of "
                                  f"entries but only {h(e.payload + 8 - c.offset - 16)} remain")


@case
def elf_container_magic_corrupted(i):
    e = i.zstd
    c = e.containers()[-1]
    return Case(put(e.bytes, "I", c.offset, 0xDEADBEEF),
                f"section .nv_fatbin: no fatbin at {h(c.offset)} (magic 0xdeadbeef, expected "
                f"0xba55ed50)")


@case
def elf_container_fat_size_past_end(i):
    e = i.zstd
    c = e.containers()[-1]
    s = e.section(".nv_fatbin")
    fat_size = 0xFFFFFFFF0000
    return Case(put(e.bytes, "Q", c.offset + 8, fat_size),
                f"section .nv_fatbin: fatbin at {h(c.offset)} claims {h(fat_size)} bytes of "
                f"entries but only {h(s.offset + s.size - c.offset - 16)} remain")


@case
def elf_wrapper_magic_corrupted(i):
    e = i.zstd
    off, addr = e.wrapper(1)
    return Case(put(e.bytes, "I", off, 0x12345678),
                f"section .nvFatBinSegment: bad wrapper magic 0x12345678 at {h(addr)} (expected "
                f"0x466243b1)")


@case
def elf_wrapper_bad_version(i):
    e = i.zstd
    off, addr = e.wrapper(1)
    return Case(put(e.bytes, "I", off + 4, 3), f"wrapper at {h(addr)} has unsupported version 3")


@case
def elf_wrapper_points_into_container(i):
    """The wrapper's data pointer lands 0x40 bytes into a container: on its entry header."""
    e = i.zstd
    c = e.containers()[-1]
    _, addr = e.wrapper(1)
    target = c.offset + 0x40
    return Case(e.set_wrapper_data(1, e.offset_to_addr(target)),
                f"wrapper at {h(addr)} points into .nv_fatbin at {h(e.offset_to_addr(target))}: "
                f"no fatbin at {h(target)} (magic {u32(e.bytes, target):#010x}, expected "
                f"0xba55ed50)")


@case
def elf_wrapper_points_outside_data(i):
    e = i.zstd
    _, addr = e.wrapper(1)
    return Case(e.set_wrapper_data(1, 0x10),
                f"wrapper at {h(addr)} points to 0x10, outside the file's data")


# ---- bare fatbin: outer header ---------------------------------------------------------------

def fatbin_layout(i):
    return Container(i.fatbin, 0)


@case
def fatbin_truncated_in_outer_header(i):
    return Case(i.fatbin[:8], "fatbin header at 0x0 is truncated (0x8 bytes left, the header "
                "needs 0x10)")


def fatbin_truncated(i, size):
    c = fatbin_layout(i)
    return Case(i.fatbin[:size], f"fatbin at 0x0 claims {h(c.fat_size)} bytes of entries but "
                f"only {h(size - 16)} remain")


@case
def fatbin_truncated_after_outer_header(i):
    return fatbin_truncated(i, 16)


@case
def fatbin_truncated_in_entry_header(i):
    return fatbin_truncated(i, 16 + 40)


@case
def fatbin_truncated_after_entry_header(i):
    return fatbin_truncated(i, fatbin_layout(i).entries[0].payload)


@case
def fatbin_truncated_in_payload(i):
    return fatbin_truncated(i, fatbin_layout(i).entries[0].payload + 100)


@case
def fatbin_truncated_in_second_entry_header(i):
    return fatbin_truncated(i, fatbin_layout(i).entries[1].offset + 8)


@case
def fatbin_truncated_in_last_payload(i):
    return fatbin_truncated(i, len(i.fatbin) - 8)


@case
def fatbin_fat_size_past_end(i):
    return Case(put(i.fatbin, "Q", 8, 0xFFFFFFFFFFFFFFFF),
                f"fatbin at 0x0 claims 0xffffffffffffffff bytes of entries but only "
                f"{h(len(i.fatbin) - 16)} remain")


@case
def fatbin_fat_size_ends_in_entry_header(i):
    data = put(i.fatbin, "Q", 8, 0x20)
    return Case(data, "entry 0 at 0x10 is truncated (0x20 bytes left, a header needs 0x40)")


@case
def fatbin_bad_version(i):
    return Case(put(i.fatbin, "H", 4, 2), "fatbin at 0x0 has unsupported version 2 (expected 1)")


@case
def fatbin_bad_header_size(i):
    return Case(put(i.fatbin, "H", 6, 0x20), "fatbin at 0x0 has header size 0x20 (expected 0x10)")


@case
def fatbin_trailing_garbage(i):
    data = i.fatbin + b"\x01" + garbage(63, 2)
    return Case(data, f"no fatbin at {h(len(i.fatbin))} (magic {u32(data, len(i.fatbin)):#010x}, "
                "expected 0xba55ed50)")


# ---- bare fatbin: entry headers ----------------------------------------------------------------

@case
def fatbin_entry_bad_format_version(i):
    e = fatbin_layout(i).entries[1]
    return Case(e.patch(i.fatbin, "format", 0x0202),
                f"entry 1 at {h(e.offset)} has unknown format version 0x0202")


@case
def fatbin_entry_header_size_too_small(i):
    e = fatbin_layout(i).entries[1]
    return Case(e.patch(i.fatbin, "header_size", 8),
                f"entry 1 at {h(e.offset)} has a header size of 0x8, less than the minimum 0x40")


@case
def fatbin_entry_header_size_past_end(i):
    e = fatbin_layout(i).entries[1]
    return Case(e.patch(i.fatbin, "header_size", 0x10000),
                f"entry 1 at {h(e.offset)} has a header size of 0x10000, past the end of its "
                f"fatbin ({h(len(i.fatbin) - e.offset)} bytes left)")


@case
def fatbin_entry_payload_size_past_end(i):
    e = fatbin_layout(i).entries[0]
    size = 0x7FFFFFFFFFFF
    return Case(e.patch(i.fatbin, "payload_size", size),
                f"entry 0 at {h(e.offset)}: payload of {h(size)} bytes extends past the end of its "
                f"fatbin ({h(len(i.fatbin) - e.payload)} bytes left after the header)")


@case
def fatbin_entries_overlap_short_payload(i):
    """Entry 0 claims 0x40 bytes less payload: entry 1's header is then read from the tail of
    entry 0's cubin."""
    e0 = fatbin_layout(i).entries[0]
    data = e0.patch(i.fatbin, "payload_size", e0.payload_size - 0x40)
    at = e0.end - 0x40
    version = u16(data, at + 2)
    assert version != 0x0101, "the cubin tail looks like an entry header; move the overlap"
    return Case(data, f"entry 1 at {h(at)} has unknown format version {version:#06x}")


@case
def fatbin_entries_overlap_long_payload(i):
    """Entry 0 claims 8 bytes of entry 1's header as its own payload."""
    e0 = fatbin_layout(i).entries[0]
    data = e0.patch(i.fatbin, "payload_size", e0.payload_size + 8)
    at = e0.end + 8
    version = u16(data, at + 2)
    assert version != 0x0101
    return Case(data, f"entry 1 at {h(at)} has unknown format version {version:#06x}")


# ---- bare fatbin: compression ------------------------------------------------------------------

def ptx_entry(i):
    c = fatbin_layout(i)
    index = c.ptx()
    e = c.entries[index]
    assert e.flags & FLAG_ZSTD, "the default nvcc PTX entry is zstd-compressed"
    return index, e


@case
def fatbin_both_compression_flags(i):
    n, e = ptx_entry(i)
    return Case(e.patch(i.fatbin, "flags", e.flags | FLAG_LZ4),
                f"entry {n} at {h(e.offset)} is flagged both LZ4 and zstd compressed")


@case
def fatbin_named_entry_both_compression_flags(i):
    """An entry that names itself (the identifier: one byte of its header, the sm's 'P')
    and has bad compression flags: the name read before the flags are checked is freed
    (the fuzzer found it leaked)."""
    n, e = ptx_entry(i)
    data = e.patch(i.fatbin, "flags", e.flags | FLAG_LZ4)
    data = e.patch(data, "ident", 0x1c)
    data = e.patch(data, "ident_len", 1)
    return Case(data, f"entry {n} at {h(e.offset)} is flagged both LZ4 and zstd compressed")


def compressed_size_misfit(i, size):
    n, e = ptx_entry(i)
    return Case(e.patch(i.fatbin, "compressed_size", size),
                f"entry {n} at {h(e.offset)}: compressed size {h(size)} does not fit its payload "
                f"of {h(e.payload_size)} bytes")


@case
def fatbin_compressed_size_larger_than_payload(i):
    return compressed_size_misfit(i, ptx_entry(i)[1].payload_size + 8)


@case
def fatbin_compressed_size_zero(i):
    return compressed_size_misfit(i, 0)


@case
def fatbin_compressed_size_short(i):
    """The frame continues past the claimed compressed size."""
    n, e = ptx_entry(i)
    return Case(e.patch(i.fatbin, "compressed_size", e.compressed_size - 100),
                f"fatbin 0 entry {n} cannot be decoded, passed over: corrupt zstd data (Src size is incorrect)", passed_over=True)


def refused_size(i, claimed):
    n, e = ptx_entry(i)
    return Case(e.patch(i.fatbin, "uncompressed_size", claimed),
                f"entry {n} at {h(e.offset)} claims an uncompressed size of {h(claimed)} bytes "
                f"from {h(e.compressed_size)} compressed bytes; refusing (limit: 1 GiB and 256x)")


@case
def fatbin_uncompressed_size_4gib(i):
    return refused_size(i, 1 << 32)


@case
def fatbin_uncompressed_size_past_ratio(i):
    return refused_size(i, ptx_entry(i)[1].compressed_size * 256 + 1)


@case
def fatbin_uncompressed_size_zero(i):
    n, e = ptx_entry(i)
    return Case(e.patch(i.fatbin, "uncompressed_size", 0),
                f"entry {n} at {h(e.offset)} is compressed but claims an uncompressed size of 0")


def lying_zstd_size(i, claimed):
    n, e = ptx_entry(i)
    return Case(e.patch(i.fatbin, "uncompressed_size", claimed),
                f"fatbin 0 entry {n} cannot be decoded, passed over: zstd frame holds {e.uncompressed_size} bytes, the entry "
                f"header claims {claimed}", passed_over=True)


@case
def fatbin_zstd_uncompressed_size_larger(i):
    return lying_zstd_size(i, ptx_entry(i)[1].uncompressed_size + 0x100)


@case
def fatbin_zstd_uncompressed_size_smaller(i):
    return lying_zstd_size(i, ptx_entry(i)[1].uncompressed_size - 0x100)


@case
def fatbin_zstd_garbage(i):
    n, e = ptx_entry(i)
    data = replace(i.fatbin, e.payload, garbage(e.compressed_size, 3, avoid_first=0x28))
    return Case(data, f"fatbin 0 entry {n} cannot be decoded, passed over: corrupt zstd data: no zstd frame header", passed_over=True)


def zstd_frame_header_size(b, at):
    descriptor = b[at + 4]
    single_segment = descriptor >> 5 & 1
    content_size_bytes = [single_segment, 2, 4, 8][descriptor >> 6]
    return 4 + 1 + (not single_segment) + [0, 1, 2, 4][descriptor & 3] + content_size_bytes


@case
def fatbin_zstd_reserved_block_type(i):
    """A valid frame header followed by a block of the reserved type 3."""
    n, e = ptx_entry(i)
    block = e.payload + zstd_frame_header_size(i.fatbin, e.payload)
    data = put(i.fatbin, "B", block, i.fatbin[block] | 0b110)
    return Case(data, f"fatbin 0 entry {n} cannot be decoded, passed over: corrupt zstd data (Data corruption detected)", passed_over=True)


# ---- LZ4 (--compress-mode=speed) ---------------------------------------------------------------

def lz4_ptx(i):
    e = i.lz4
    cn = len(e.containers()) - 1
    c = e.containers()[cn]
    n = c.ptx()
    entry = c.entries[n]
    assert entry.flags & FLAG_LZ4, "--compress-mode=speed compresses PTX with LZ4"
    return cn, n, entry


@case
def elf_lz4_garbage(i):
    cn, n, e = lz4_ptx(i)
    data = replace(i.lz4.bytes, e.payload, b"\xff" * e.compressed_size)
    return Case(data, f"fatbin {cn} entry {n} cannot be decoded, passed over: corrupt LZ4 data: the block does not decode into "
                f"the {e.uncompressed_size} bytes the entry header claims", passed_over=True)


@case
def elf_lz4_uncompressed_size_larger(i):
    cn, n, e = lz4_ptx(i)
    claimed = e.uncompressed_size + 0x100
    return Case(e.patch(i.lz4.bytes, "uncompressed_size", claimed),
                f"fatbin {cn} entry {n} cannot be decoded, passed over: LZ4 data decompressed to {e.uncompressed_size} bytes, "
                f"the entry header claims {claimed}", passed_over=True)


@case
def elf_lz4_uncompressed_size_smaller(i):
    cn, n, e = lz4_ptx(i)
    claimed = e.uncompressed_size - 0x100
    return Case(e.patch(i.lz4.bytes, "uncompressed_size", claimed),
                f"fatbin {cn} entry {n} cannot be decoded, passed over: corrupt LZ4 data: the block does not decode into the "
                f"{claimed} bytes the entry header claims", passed_over=True)


@case
def elf_compressed_cubin_garbage(i):
    """-Xfatbin=-compress-all: inspect never decompresses a cubin, extract does, and passes
    over the one entry it cannot decode."""
    e = i.compress_all
    cn = len(e.containers()) - 1
    n, entry = next((k, x) for k, x in enumerate(e.containers()[cn].entries)
                    if x.kind != ENTRY_KIND_PTX)
    assert entry.flags & FLAG_ZSTD
    data = replace(e.bytes, entry.payload, garbage(entry.compressed_size, 4, avoid_first=0x28))
    return Case(data, f"fatbin {cn} entry {n} cannot be decoded, passed over: corrupt zstd "
                "data: no zstd frame header", inspect_succeeds=True, passed_over=True)


# ---- PE ---------------------------------------------------------------------------------------

@case
def pe_truncated_in_dos_header(i):
    return Case(i.pe.bytes[:32], "PE file is 32 bytes, too small for the 64-byte DOS header")


@case
def pe_truncated_in_coff_header(i):
    return Case(i.pe.bytes[:0x50], f"PE header offset e_lfanew 0x40 is past the end of the file "
                f"(needs {h(PE_OPTIONAL_HEADER_OFFSET)} bytes, file has 0x50)")


@case
def pe_truncated_in_optional_header(i):
    size = PE_OPTIONAL_HEADER_OFFSET + 100
    return Case(i.pe.bytes[:size],
                f"PE optional header ({h(PE_OPTIONAL_HEADER_SIZE)} bytes at "
                f"{h(PE_OPTIONAL_HEADER_OFFSET)}) extends past the end of the file (file has "
                f"{h(size)} bytes)")


@case
def pe_truncated_in_section_table(i):
    size = PE_SECTION_TABLE + 50
    return Case(i.pe.bytes[:size],
                f"PE section table extends past the end of the file (needs "
                f"{h(PE_SECTION_TABLE + 40 * len(i.pe.sections))} bytes, file has {h(size)})")


@case
def pe_section_table_past_eof(i):
    """SizeOfOptionalHeader reaches the end of the file, so the section table starts there."""
    b = i.pe.bytes
    data = put(b, "H", 0x54, len(b) - PE_OPTIONAL_HEADER_OFFSET)
    return Case(data, f"PE section table extends past the end of the file (needs "
                f"{h(len(b) + 40 * len(i.pe.sections))} bytes, file has {h(len(b))})")


@case
def pe_lfanew_past_end(i):
    return Case(put(i.pe.bytes, "I", 0x3c, 0xFFFFFFF0),
                f"PE header offset e_lfanew 0xfffffff0 is past the end of the file (needs "
                f"{h(0xFFFFFFF0 + 24)} bytes, file has {h(len(i.pe.bytes))})")


@case
def pe_no_signature(i):
    return Case(put(i.pe.bytes, "I", 0x40, 0x4E4E), "MZ file without a PE signature at e_lfanew "
                "0x40")


@case
def pe_bad_optional_magic(i):
    return Case(put(i.pe.bytes, "H", PE_OPTIONAL_HEADER_OFFSET, 0x999),
                "PE optional header magic 0x999 is neither PE32 (0x10b) nor PE32+ (0x20b)")


@case
def pe_fatbin_section_past_eof(i):
    s = i.pe.section(".nv_fatb")
    offset = len(i.pe.bytes) - 0x10
    return Case(i.pe.patch_section(".nv_fatb", "offset", offset),
                f"PE section .nv_fatb data extends past the end of the file ({h(offset)} + "
                f"{h(s['virtual_size'])} bytes, file has {h(len(i.pe.bytes))})")


@case
def pe_fatbin_section_zero_length(i):
    fatb, wrapper = i.pe.section(".nv_fatb"), i.pe.section(".nvFatBi")
    return Case(i.pe.patch_section(".nv_fatb", "raw_size", 0),
                f"wrapper at {h(wrapper['addr'])} points to {h(fatb['addr'])}, outside the file's "
                f"data")


@case
def pe_wrapper_magic_corrupted(i):
    w = i.pe.section(".nvFatBi")
    return Case(put(i.pe.bytes, "I", w["offset"], 0x12345678),
                f"section .nvFatBi: bad wrapper magic 0x12345678 at {h(w['addr'])} (expected "
                f"0x466243b1)")


@case
def pe_wrapper_points_into_container(i):
    fatb, w = i.pe.section(".nv_fatb"), i.pe.section(".nvFatBi")
    target = fatb["addr"] + 0x40
    file_offset = fatb["offset"] + 0x40
    return Case(put(i.pe.bytes, "Q", w["offset"] + 8, target),
                f"wrapper at {h(w['addr'])} points into .nv_fatb at {h(target)}: no fatbin at "
                f"{h(file_offset)} (magic {u32(i.pe.bytes, file_offset):#010x}, expected "
                f"0xba55ed50)")


@case
def pe_container_fat_size_past_end(i):
    fatb = i.pe.section(".nv_fatb")
    return Case(put(i.pe.bytes, "Q", fatb["offset"] + 8, 0x100000),
                f"section .nv_fatb: fatbin at {h(fatb['offset'])} claims 0x100000 bytes of "
                f"entries but only {h(fatb['virtual_size'] - 16)} remain")


@case
def pe_base_relocation_block_too_small(i):
    r = i.pe.section(".reloc")
    rva = r["addr"] - PE_IMAGE_BASE
    return Case(put(i.pe.bytes, "I", r["offset"] + 4, 4),
                f"PE base relocation block at rva {h(rva)} has SizeOfBlock 0x4 (must be at "
                f"least 8)")


def pe_with_imports(i, descriptors, names):
    """The image with an import directory in .reloc's file data after its one block (its
    memory size grown to the whole raw size): DESCRIPTORS are (name offset) pairs written
    as 20-byte descriptors at .reloc + 16, NAMES (offset, bytes) written at .reloc + 16 +
    offset; returns the bytes and the directory's rva."""
    pe = i.pe
    r = pe.section(".reloc")
    rva = r["addr"] - PE_IMAGE_BASE + 16
    data = pe.patch_section(".reloc", "virtual_size", r["raw_size"])
    for n, name_offset in enumerate(descriptors):
        data = put(data, "I", r["offset"] + 16 + 20 * n + 12, rva + name_offset)
    for offset, text in names:
        data = replace(data, r["offset"] + 16 + offset, text)
    return import_directory(data, rva, 20 * len(descriptors)), rva


def import_directory(data, rva, size):
    """The optional header's data directory 1 (imports) set."""
    data = put(data, "I", PE_OPTIONAL_HEADER_OFFSET + 112 + 8, rva)
    return put(data, "I", PE_OPTIONAL_HEADER_OFFSET + 112 + 12, size)


@case
def pe_imports_read(i):
    """Two DLLs imported, the list ended by an all-zero descriptor: nothing to complain of."""
    data, _ = pe_with_imports(i, [100, 120], [(100, b"cublas64_13.dll\0"),
                                              (120, b"nvcuda.dll\0")])
    return Case(data, None)


@case
def pe_import_directory_outside_sections(i):
    data = import_directory(i.pe.bytes, 0x7000000, 40)
    return Case(data, "PE import directory (rva 0x7000000): descriptor 0 is not within a "
                      "section's file data")


@case
def pe_import_directory_unterminated(i):
    """Descriptors up to the end of .reloc's file data, none all zero, each naming the DLL
    whose name fills the room left."""
    r = i.pe.section(".reloc")
    count = (r["raw_size"] - 16) // 20
    data, rva = pe_with_imports(i, [20 * count] * count, [(20 * count, b"x.dll\0")])
    return Case(data, f"PE import directory (rva {h(rva)}): descriptor {count} is not within a "
                      f"section's file data")


@case
def pe_import_name_with_a_path(i):
    data, rva = pe_with_imports(i, [100], [(100, b"..\\nvcuda.dll\0")])
    return Case(data, f"PE import 0: its DLL name (rva {h(rva + 100)}) holds byte 0x5c, no "
                      f"file name's")


@case
def pe_import_name_unterminated(i):
    r = i.pe.section(".reloc")
    data, rva = pe_with_imports(i, [100], [(100, b"a" * (r["raw_size"] - 116))])
    return Case(data, f"PE import 0: its DLL name (rva {h(rva + 100)}) is not a string of at "
                      f"most 255 bytes within a section's file data")


# ---- regressions: inputs the fuzzers crashed on ------------------------------------------------

def pe_section_without_data(i, name):
    """.nvFatBi renamed to `name`, moved past the other sections, and left with 1 MiB of
    memory but no raw data."""
    pe = i.pe
    w = pe.section(".nvFatBi")
    last_rva = max(s["addr"] for s in pe.sections.values()) - PE_IMAGE_BASE
    data = replace(pe.bytes, w["header"], name.encode().ljust(8, b"\0"))
    data = put(data, "I", w["header"] + 8, 0x100000)
    data = put(data, "I", w["header"] + 12, last_rva + PE_SECTION_ALIGNMENT)
    return put(data, "I", w["header"] + 16, 0)


@case
def regress_pe_module_id_section_without_data(i):
    """A PE section with no raw data keeps its memory size: the module-id reader read that
    much from the file (fuzz_binary: heap overflow in read_module_ids)."""
    return Case(pe_section_without_data(i, "__nv_mod"), None)


@case
def regress_pe_wrapper_section_without_data(i):
    """The same for the named wrapper section: the wrapper reader took its memory size of
    file bytes from offset 0 for wrappers."""
    return Case(pe_section_without_data(i, ".nvFatBi"), None)


@case
def regress_pe_import_name_in_section_without_data(i):
    """An import's DLL name in a section with memory but no file data: the name was read
    from the file at that section's offset, past the file's end (fuzz_binary: heap overflow
    in dll_name)."""
    data = pe_section_without_data(i, ".nvFatBi")
    last_rva = max(s["addr"] for s in i.pe.sections.values()) - PE_IMAGE_BASE
    name_rva = last_rva + PE_SECTION_ALIGNMENT
    r = i.pe.section(".reloc")
    rva = r["addr"] - PE_IMAGE_BASE + 16
    data = put(data, "I", r["header"] + 8, r["raw_size"])
    data = put(data, "I", r["offset"] + 16 + 12, name_rva)
    return Case(import_directory(data, rva, 20),
                f"PE import 0: its DLL name (rva {h(name_rva)}) is not a string of at most 255 "
                f"bytes within a section's file data")


@case
def regress_elf_two_module_id_sections(i):
    """Two sections named __nv_module_id (.eh_frame_hdr and .eh_frame renamed, full of "def"
    lines): the reader of the second forgot how many ids the first had room for (fuzz_binary:
    heap overflow in read_module_ids)."""
    e = i.zstd
    data, first = e.bytes, 0
    for name in (".eh_frame_hdr", ".eh_frame"):
        s = e.section(name)
        count = s.size // len(b"def m000\0")
        ids = b"".join(b"def m%03d\0" % n for n in range(first, first + count))
        data = replace(data, s.offset, ids)
        data = put(data, "I", s.header, e.section("__nv_module_id").name_offset)
        first += count
    return Case(data, None)

# ---- writing the corpus ----------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--list", action="store_true")
    p.add_argument("--zstd-elf")
    p.add_argument("--lz4-elf")
    p.add_argument("--compress-all-elf")
    p.add_argument("--fatbin")
    p.add_argument("--out")
    p.add_argument("--pe-out", help="also write the undamaged PE image here")
    args = p.parse_args()
    if args.list:
        print("\n".join(name for name, _ in CASES))
        return 0
    inputs = Inputs(args)
    os.makedirs(args.out, exist_ok=True)
    if args.pe_out:
        with open(args.pe_out, "wb") as f:
            f.write(inputs.pe.bytes)
    manifest = {}
    for name, build in CASES:
        c = build(inputs)
        path = os.path.join(args.out, name)
        if c.kind == "file":
            with open(path, "wb") as f:
                f.write(c.data)
        elif c.kind == "directory":
            os.makedirs(path, exist_ok=True)
        elif os.path.lexists(path):
            os.remove(path)
        manifest[name] = {"path": path, "message": c.message,
                          "inspect_succeeds": c.inspect_succeeds,
                          "passed_over": c.passed_over}
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
