#!/usr/bin/env python3
"""Damaged code objects the emulator must refuse with its exact message, or load, never
crash on: each case below damages a code object the converter made for gfx1100 (or the
processor it names) from a small kernel, and check_decoded (which loads it as the HIP runtime
would) must give the exit status and output the case names. The damage is found by parsing
the good file, so offsets in the messages follow the converter's layout.

  check_bad_code_objects.py ZLUDA_CONVERT CHECK_DECODED WORKDIR
"""
import os
import shutil
import struct
import subprocess
import sys

PTX = """.version 7.0
.target sm_80
.address_size 64
.visible .entry add_one(.param .u64 p)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u32 %r1, [%rd2];
	add.s32 %r2, %r1, 1;
	st.global.u32 [%rd2], %r2;
	ret;
}
"""

SHT_PROGBITS, SHT_SYMTAB, SHF_EXECINSTR = 1, 2, 4


class CodeObject:
    def __init__(self, data):
        self.data = bytearray(data)
        self.phoff = struct.unpack_from("<Q", data, 0x20)[0]
        self.shoff = struct.unpack_from("<Q", data, 0x28)[0]
        shnum = struct.unpack_from("<H", data, 0x3c)[0]
        self.sections = []
        for i in range(shnum):
            at = self.shoff + 64 * i
            name, kind, flags, addr, offset, size = struct.unpack_from("<IIQQQQ", data, at)
            self.sections.append({"header": at, "type": kind, "flags": flags, "addr": addr,
                                  "offset": offset, "size": size})

    def section(self, kind, flags=0):
        return next(s for s in self.sections if s["type"] == kind and s["flags"] & flags == flags)

    def text(self):
        return self.section(SHT_PROGBITS, SHF_EXECINSTR)

    def put(self, fmt, at, value):
        struct.pack_into("<" + fmt, self.data, at, value)
        return self


def literal_past_the_text(co):
    """The last word of the text starts a VOP2 instruction whose literal would follow it:
    LLVM's disassembler read past the text for it and crashed the process. The word is data
    (never executed: it follows the kernels), so the object loads."""
    text = co.text()
    co.put("I", text["offset"] + text["size"] - 4, 0x040000ff)
    return co, 0, "", ""


def barrier_literal_past_the_text(co):
    """gfx12: the last word of the text is s_barrier_signal with a literal operand (zero
    past the text), on which LLVM 22's instruction printer crashed the process. Data, never
    executed, so the object loads."""
    text = co.text()
    co.put("I", text["offset"] + text["size"] - 4, 0xbe804eff)
    return co, 0, "", ""


barrier_literal_past_the_text.processor = "gfx1200"


def sdwa_selector_seven(co):
    """gfx10: the text ends with a VOP2 SDWA instruction (src0 0xf9) whose dst_sel is 7,
    which names no selector; LLVM 22's instruction printer wrote below its stack for it and
    killed the process, ASan's handler with it (fuzz_code_object, twice, without an input).
    Data, never executed, so the object loads."""
    text = co.text()
    co.put("I", text["offset"] + text["size"] - 8, 0x100000f9)
    co.put("I", text["offset"] + text["size"] - 4, 0x00000700)
    return co, 0, "", ""


sdwa_selector_seven.processor = "gfx1030"


def two_kernel_lists(co):
    """The metadata map names amdhsa.kernels twice (amdhsa.version renamed): the second list
    was read into a new array while the count went on from the first (a heap overflow)."""
    at = co.data.index(b"amdhsa.version")
    co.data[at:at + 14] = b"amdhsa.kernels"
    return co, 2, "", "check_decoded: FILE: invalid code object: malformed AMDGPU metadata\n"


def symbols_misaligned(co):
    """The symbol table moved 4 bytes: its entries were read where they cannot be."""
    symtab = co.section(SHT_SYMTAB)
    co.put("Q", symtab["header"] + 0x18, symtab["offset"] + 4)
    return co, 2, "", ("check_decoded: FILE: invalid code object: symbol table outside the "
                       "file or misaligned\n")


def program_headers_misaligned(co):
    co.put("Q", 0x20, co.phoff + 4)
    return co, 2, "", ("check_decoded: FILE: invalid code object: program headers outside "
                       "the file or misaligned\n")


def code_misaligned(co):
    """The text's address moved 2 bytes: its words were decoded at addresses no branch or
    entry can name."""
    text = co.text()
    co.put("Q", text["header"] + 0x10, text["addr"] + 2)
    return co, 2, "", ("check_decoded: FILE: invalid code object: code outside the file or "
                       "misaligned\n")


def code_past_the_file(co):
    """The text claims more bytes than the file holds (the loaded segments, zeros, still
    cover them): the decoder worked through what no file held."""
    text = co.text()
    co.put("Q", text["header"] + 0x20, len(co.data) - text["offset"] + 4)
    return co, 2, "", ("check_decoded: FILE: invalid code object: code outside the file or "
                       "misaligned\n")


CASES = [literal_past_the_text, barrier_literal_past_the_text, sdwa_selector_seven,
         two_kernel_lists, symbols_misaligned, program_headers_misaligned, code_misaligned,
         code_past_the_file]


def main():
    convert, check_decoded, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ptx = os.path.join(work, "add_one.ptx")
    with open(ptx, "w") as f:
        f.write(PTX)
    temps = os.path.join(work, "temps")
    subprocess.run([convert, ptx, "-o", os.path.join(work, "converted.ptx"),
                    "--offload-arch=gfx1030,gfx1100,gfx1200", "--save-temps=" + temps, "--no-cache",
                    "-q"], check=True)
    good = {}
    for processor in ("gfx1030", "gfx1100", "gfx1200"):
        path = next(os.path.join(temps, n) for n in os.listdir(temps) if n.endswith(f".{processor}.co"))
        with open(path, "rb") as f:
            good[processor] = f.read()
    failures = 0
    for case in [None] + CASES:
        processor = getattr(case, "processor", "gfx1100")
        if case:
            co, want_status, want_out, want_err = case(CodeObject(good[processor]))
            data, name = bytes(co.data), case.__name__
        else:
            data, name, want_status, want_out, want_err = good[processor], "good", 0, "", ""
        path = os.path.join(work, name + ".co")
        with open(path, "wb") as f:
            f.write(data)
        r = subprocess.run([check_decoded, processor, path], capture_output=True, text=True)
        want_out, want_err = want_out.replace("FILE", path), want_err.replace("FILE", path)
        if (r.returncode, r.stdout, r.stderr) != (want_status, want_out, want_err):
            failures += 1
            print(f"FAIL {name}: exit {r.returncode} (want {want_status})\n"
                  f"  stdout {r.stdout!r}\n  want   {want_out!r}\n"
                  f"  stderr {r.stderr!r}\n  want   {want_err!r}")
        else:
            print(f"ok {name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
