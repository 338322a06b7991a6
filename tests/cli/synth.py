"""Builds small fatbins byte by byte, so CLI tests have inputs whose every offset is known."""

import struct

PTX = b"""//
.version 8.5
.target sm_80
.address_size 64

.visible .entry first_kernel(.param .u64 out)
{
\tret;
}
// .entry commented_out(
.visible .entry second_kernel()
{
\tret;
}
"""


def _left_out_kernel(i):
    return (".visible .entry multicast_%02d(.param .u64 p)\n{\n\t.reg .b32 %%r<2>;\n"
            "\t.reg .b64 %%rd<2>;\n\tld.param.u64 %%rd1, [p];\n"
            "\tmultimem.red.relaxed.sys.global.add.u32 [%%rd1], %%r1;\n\tret;\n}\n" % i)


# Twelve kernels that each use an instruction the converter does not translate, around one
# that translates: the twelve are left out, the last two past the ten shown by default.
PTX_LEFT_OUT = ("//\n.version 8.5\n.target sm_90\n.address_size 64\n\n"
                + "".join(_left_out_kernel(i) for i in range(6))
                + ".visible .entry kept(.param .u64 p)\n{\n\tret;\n}\n"
                + "".join(_left_out_kernel(i) for i in range(6, 12))).encode()

# A kernel whose local array is past what an AMD GPU can give a thread: LLVM refuses its
# code for AMD targets, and only that kernel is left out.
PTX_TOO_MUCH_STACK = b"""//
.version 8.5
.target sm_80
.address_size 64

.visible .entry small(.param .u64 p)
{
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd1, %rd1;
	st.global.u32 [%rd1], 1;
	ret;
}
.visible .entry huge_stack(.param .u64 p, .param .u32 i)
{
	.local .align 4 .b8 buf[4000000000];
	.reg .b64 %rd<5>;
	.reg .b32 %r<3>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [i];
	mov.u64 %rd2, buf;
	cvt.u64.u32 %rd3, %r1;
	add.u64 %rd4, %rd2, %rd3;
	st.local.u32 [%rd4], %r1;
	ld.local.u32 %r2, [%rd2+4];
	cvta.to.global.u64 %rd1, %rd1;
	st.global.u32 [%rd1], %r2;
	ret;
}
"""


def entry(kind, sm, payload, flags=0x11, version=(9, 0), ident=None, options=None,
          compressed_size=0, uncompressed_size=0):
    tail = b""
    ident_off = ident_len = opt_off = 0
    if ident is not None:
        ident_off, ident_len = 64, len(ident)
        tail += ident + b"\0" * (-len(ident) % 8)
    if options is not None:
        opt_off = 64 + len(tail)
        tail += struct.pack("<II", opt_off + 8, len(options)) + options
        tail += b"\0" * (-len(tail) % 8)
    padded = payload + b"\0" * (-len(payload) % 8)
    header = struct.pack("<HHIQIIHHIIIQQQ", kind, 0x0101, 64 + len(tail), len(padded),
                         compressed_size, opt_off, version[1], version[0], sm, ident_off,
                         ident_len, flags, 0, uncompressed_size)
    return header + tail + padded


def fatbin(*entries):
    body = b"".join(entries)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body


def sample():
    return fatbin(
        entry(2, 80, b"\x7fELF" + b"\0" * 60, version=(1, 8)),
        entry(1, 80, PTX + b"\0", version=(8, 5), ident=b"kernels.cu", options=b"-O3 "),
        entry(0x40, 90, b"opaque"))


def corrupt():
    """A fatbin whose one PTX entry is LZ4 data that does not decompress."""
    garbage = bytes(range(0xf0, 0x100)) * 4
    return fatbin(entry(1, 80, garbage, flags=0x11 | 0x2000, version=(8, 5),
                        compressed_size=len(garbage), uncompressed_size=4096))


def shared_object():
    """The smallest x86-64 ELF shared object: a header and one loadable segment, no program
    interpreter, as a library has."""
    ehdr = struct.pack("<4sBBBBB7xHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 0, 3, 62, 1, 0, 64,
                       0, 0, 64, 56, 1, 0, 0, 0)
    phdr = struct.pack("<IIQQQQQQ", 1, 4, 0, 0, 0, 120, 120, 4096)
    return ehdr + phdr


if __name__ == "__main__":
    import sys
    with open(sys.argv[1], "wb") as f:
        f.write(sample())
