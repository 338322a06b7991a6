#!/usr/bin/env python3
"""Embeds a sample AOT image into the mingw-built PE fixture and checks the result: a new
`.zluda` section when the header has room, an overlay when it has not (forced here by a
non-zero byte in the free header slot); only the header bytes of the original change (the
wrapper and fatbin bytes are untouched); our PE reader and mingw objdump both accept it; the
image is found again; a set CheckSum is recomputed; converting again equals converting the
input."""
import argparse
import pathlib
import shutil
import struct
import subprocess
import sys

SCN_INITIALIZED_READ = 0x40000040


def fail(msg):
    print(f"check_embed_pe: {msg}", file=sys.stderr)
    sys.exit(1)


def expect(cond, msg):
    if not cond:
        fail(msg)


def run_ok(cmd):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    expect(r.returncode == 0,
           f"{' '.join(map(str, cmd))} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


class Pe:
    def __init__(self, data):
        self.data = data
        lfanew, = struct.unpack_from("<I", data, 0x3c)
        self.coff = lfanew + 4
        self.nsections, = struct.unpack_from("<H", data, self.coff + 2)
        opt_size, = struct.unpack_from("<H", data, self.coff + 16)
        self.opt = self.coff + 20
        self.table = self.opt + opt_size
        self.section_align, self.file_align = struct.unpack_from("<II", data, self.opt + 32)
        self.size_of_image, self.size_of_headers, self.checksum = \
            struct.unpack_from("<III", data, self.opt + 56)
        self.sections = []
        for i in range(self.nsections):
            h = self.table + 40 * i
            name = data[h:h + 8].rstrip(b"\0").decode("latin-1")
            vsize, va, raw_size, raw_off = struct.unpack_from("<IIII", data, h + 8)
            flags, = struct.unpack_from("<I", data, h + 36)
            self.sections.append((name, vsize, va, raw_size, raw_off, flags))


def checksum(data, at):
    total = 0
    for i in range(0, len(data), 2):
        word = data[i] | (data[i + 1] << 8 if i + 1 < len(data) else 0)
        if at <= i < at + 4:
            word = 0
        total += word
        total = (total & 0xffff) + (total >> 16)
    total = (total & 0xffff) + (total >> 16)
    return (total + len(data)) & 0xffffffff


def reader_view(tool, path):
    return set(run_ok([tool, "fatbins", path]).splitlines())


def objdump_sections(objdump, path):
    lines = run_ok([objdump, "-h", path]).splitlines()
    return {l.split()[1]: l.split()[2:6] for l in lines if l.strip()[:1].isdigit()}


def embed_and_check(args, work, name, source, img, as_section):
    out = work / f"{name}.exe"
    run_ok([args.tool, "embed", source, img, out])
    orig, data = source.read_bytes(), out.read_bytes()
    before, after = Pe(orig), Pe(data)

    # only the headers of the original bytes change; section data (wrapper, fatbin) is intact
    expect(data[before.size_of_headers:len(orig)] == orig[before.size_of_headers:],
           f"{name}: original bytes past the headers changed")
    for s in before.sections:
        expect(data[s[4]:s[4] + s[3]] == orig[s[4]:s[4] + s[3]], f"{name}: section {s[0]} changed")
    expect(after.sections[:before.nsections] == before.sections, f"{name}: section headers changed")

    if as_section:
        expect(after.nsections == before.nsections + 1, f"{name}: no section added")
        new = after.sections[-1]
        expect(new[0] == ".zluda" and new[5] == SCN_INITIALIZED_READ,
               f"{name}: new section is {new}")
        expect(new[4] % before.file_align == 0 and new[3] % before.file_align == 0,
               f"{name}: new section not file-aligned")
        expect(new[4] + new[3] == len(data), f"{name}: new section does not end the file")
        end = new[2] + max(new[1], new[3])
        align = before.section_align
        expect(after.size_of_image == (end + align - 1) // align * align,
               f"{name}: SizeOfImage 0x{after.size_of_image:x} does not cover .zluda")
    else:
        expect(after.nsections == before.nsections, f"{name}: a section was added")
        expect(after.size_of_image == before.size_of_image, f"{name}: SizeOfImage changed")
    if before.checksum:
        expect(after.checksum == checksum(data, after.opt + 64), f"{name}: CheckSum is wrong")

    # both readers accept it and see what they saw in the input
    seen_before, seen_after = reader_view(args.tool, source), reader_view(args.tool, out)
    expect(seen_before <= seen_after, f"{name}: our reader lost {sorted(seen_before - seen_after)}")
    expect("aot image: 3 modules, 3 code objects" in seen_after, f"{name}: no image in the output")
    dump_before = objdump_sections(args.objdump, source)
    dump_after = objdump_sections(args.objdump, out)
    for sec, fields in dump_before.items():
        expect(dump_after.get(sec) == fields, f"{name}: objdump shows {sec} differently")
    expect((".zluda" in dump_after) == as_section, f"{name}: objdump sections {list(dump_after)}")

    located = work / f"{name}.located"
    run_ok([args.locate, out, located])
    expect(located.read_bytes() == img.read_bytes(), f"{name}: located image differs")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--locate", required=True)
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--pe", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()

    pe_path = pathlib.Path(args.pe)
    if not pe_path.exists():
        print(f"check_embed_pe: {pe_path} not built, skipped")
        sys.exit(77)
    work = pathlib.Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    img1, img2 = work / "a.img", work / "b.img"
    run_ok([args.tool, "make-image", img1, "1"])
    run_ok([args.tool, "make-image", img2, "2"])
    source = work / "input.exe"
    shutil.copy2(pe_path, source)
    original = source.read_bytes()

    out = embed_and_check(args, work, "section", source, img1, True)
    expect(source.read_bytes() == original, "the input was modified")
    run_ok([args.tool, "embed", out, img2, work / "again.exe"])
    run_ok([args.tool, "embed", source, img2, work / "direct.exe"])
    expect((work / "again.exe").read_bytes() == (work / "direct.exe").read_bytes(),
           "re-embedding differs from embedding")

    # no free slot for a section header: the image becomes an overlay
    pe = Pe(original)
    slot = pe.table + 40 * pe.nsections
    crowded = bytearray(original)
    crowded[slot + 39] = 0x5a
    (work / "crowded.exe").write_bytes(crowded)
    out = embed_and_check(args, work, "overlay", work / "crowded.exe", img1, False)
    run_ok([args.tool, "embed", out, img2, work / "again_overlay.exe"])
    run_ok([args.tool, "embed", work / "crowded.exe", img2, work / "direct_overlay.exe"])
    expect((work / "again_overlay.exe").read_bytes() == (work / "direct_overlay.exe").read_bytes(),
           "re-embedding the overlay differs from embedding")

    # a set CheckSum is kept right
    summed = bytearray(original)
    struct.pack_into("<I", summed, pe.opt + 64, 1)
    (work / "summed.exe").write_bytes(summed)
    embed_and_check(args, work, "checksum", work / "summed.exe", img1, True)
    print(f"check_embed_pe: {pe_path.name}: ok")


if __name__ == "__main__":
    main()
