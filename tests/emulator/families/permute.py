"""DS_BPERMUTE_B32 and DS_PERMUTE_B32, as their pseudo-code says: the lane is
(ADDR + OFFSET) / 4 % 32; bpermute reads the source lane only if EXEC has it (else 0);
permute sends only from active lanes, the highest-numbered sender winning; both write
only active lanes. DS_SWIZZLE_B32 with the offset's modes as the guide defines them: bit 15
set, four 2-bit selects within each quad; at 0xe000 and above, FFT (lane j = the lane's 5
bits reversed, shifted right by the mask's count of ones, or'ed with lane & mask); else the
bit-mask mode, ((lane & and) | or) ^ xor with the masks in bits 4:0, 9:5 and 14:10. An
inactive source lane reads 0."""
from emutest import Kernel, KEEP

PRESET = 0xaaaa


def data(l):
    return 0x1000 + 3 * l


EXEC = 0xffffffff & ~(0xf | 1 << 17 | 1 << 26)


def bpermute_model(addr, offset):
    out = []
    for i in range(32):
        if not EXEC >> i & 1:
            out.append(KEEP)
            continue
        src = (addr[i] + offset) // 4 % 32
        out.append(data(src) if EXEC >> src & 1 else 0)
    return out


def permute_model(addr, offset):
    tmp = [0] * 32
    for i in range(32):
        if EXEC >> i & 1:
            tmp[(addr[i] + offset) // 4 % 32] = data(i)
    return [tmp[i] if EXEC >> i & 1 else KEEP for i in range(32)]


def setup(k, addr):
    k.input("v3", addr)
    k.asm("""
        v_mul_u32_u24 v2, 3, v0
        v_add_nc_u32 v2, 0x1000, v2
    """)


def bpermute(t):
    k = Kernel(t, "bpermute")
    # source lanes, with high bits the instruction ignores in some lanes
    addr = [((l * 7 + 3) % 32) * 4 + 128 * (l % 3) + (l % 4 == 1) for l in range(32)]
    setup(k, addr)
    k.asm(f"""
        v_mov_b32 v4, {PRESET:#x}
        v_mov_b32 v5, {PRESET:#x}
        s_mov_b32 exec_lo, {EXEC:#x}
        ds_bpermute_b32 v4, v3, v2
        ds_bpermute_b32 v5, v3, v2 offset:8
        WAIT_DS
    """)
    k.check_v("v4", bpermute_model(addr, 0)).check_v("v5", bpermute_model(addr, 8))
    k.asm("s_mov_b32 exec_lo, -1")
    k.check_v("v4", [PRESET if not EXEC >> l & 1 else v for l, v in enumerate(bpermute_model(addr, 0))])
    return k


def permute(t):
    k = Kernel(t, "permute")
    dst = [(i * 5 + 1) % 32 for i in range(32)]
    dst[31] = dst[2]          # two senders to one lane: the higher one wins
    dst[30] = dst[0]          # ... and lane 0 is inactive, so lane 30 is the only sender
    addr = [d * 4 + 256 * (i % 2) for i, d in enumerate(dst)]
    setup(k, addr)
    k.asm(f"""
        v_mov_b32 v4, {PRESET:#x}
        v_mov_b32 v5, {PRESET:#x}
        s_mov_b32 exec_lo, {EXEC:#x}
        ds_permute_b32 v4, v3, v2
        ds_permute_b32 v5, v3, v2 offset:4
        WAIT_DS
        s_mov_b32 exec_lo, -1
    """)
    fix = lambda vs: [PRESET if v == KEEP else v for v in vs]
    k.check_v("v4", fix(permute_model(addr, 0))).check_v("v5", fix(permute_model(addr, 4)))
    return k


def swizzle_model(offset):
    def source(i):
        if offset >= 0xe000:
            mask = offset & 31
            r = int(format(i & 31, "05b")[::-1], 2)
            return (r >> bin(mask).count("1")) | (i & mask)
        if offset & 0x8000:
            return (i & ~3) | (offset >> (2 * (i & 3)) & 3)
        return ((i & (offset & 31)) | (offset >> 5 & 31)) ^ (offset >> 10 & 31)
    out = []
    for i in range(32):
        if not EXEC >> i & 1:
            out.append(KEEP)
            continue
        j = source(i)
        out.append(data(j) if EXEC >> j & 1 else 0)
    return out


# QUAD_PERM 3,2,1,0; SWAP 1; BROADCAST 32 of lane 7; REVERSE 16; BITMASK_PERM "1p000";
# FFT 3; a bit mask with all three masks (and 0x0f, or 0x10, xor 0x05)
SWIZZLES = [0x801b, 0x041f, 0x00e0, 0x3c1f, 0x0218, 0xe003, 0x160f]


def swizzle(t):
    k = Kernel(t, "swizzle")
    setup(k, [0] * 32)
    regs = ["v%d" % (4 + i) for i in range(len(SWIZZLES))]
    for r in regs:
        k.asm(f"v_mov_b32 {r}, {PRESET:#x}")
    k.asm("s_mov_b32 exec_lo, %#x" % EXEC)
    for r, off in zip(regs, SWIZZLES):
        k.asm(f"ds_swizzle_b32 {r}, v2 offset:{off:#x}")
    k.asm("""
        WAIT_DS
        s_mov_b32 exec_lo, -1
    """)
    fix = lambda vs: [PRESET if v == KEEP else v for v in vs]
    for r, off in zip(regs, SWIZZLES):
        k.check_v(r, fix(swizzle_model(off)))
    return k


CASES = [bpermute, permute, swizzle]
