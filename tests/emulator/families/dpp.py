"""DPP16: each lane reads src0 from another lane of its row of 16 (quad_perm, row_shl,
row_shr, row_ror, row_mirror, row_half_mirror). A lane whose source is outside its row, or an
inactive lane (unless fi:1), reads 0 with bound_ctrl, and is otherwise not written;
row_mask and bank_mask disable the writes of whole rows and banks (groups of 4 lanes)."""
from emutest import Kernel, KEEP, M32

OLD = 0xdead


def src(l):
    return 0x100 + 0x11 * l


def dpp(select, bound=False, exec_mask=0xffffffff, fi=False, row_mask=0xf, bank_mask=0xf):
    """What v_mov_b32_dpp writes in each lane (OLD where it does not write)."""
    out = []
    for l in range(32):
        row, i = l & ~15, l & 15
        j = select(i)
        if not (exec_mask >> l & 1) or not (row_mask >> (l >> 4) & 1) or not (bank_mask >> (i >> 2) & 1):
            out.append(OLD)
        elif 0 <= j <= 15 and (exec_mask >> (row + j) & 1 or fi):
            out.append(src(row + j))
        elif bound:
            out.append(0)
        else:
            out.append(OLD)
    return out


def setup(k):
    k.asm(f"""
        v_mul_u32_u24 v2, 0x11, v0
        v_add_nc_u32 v2, 0x100, v2
    """)


def movs(t):
    k = Kernel(t, "movs")
    setup(k)
    cases = [
        ("row_shr:1", lambda i: i - 1, {}),
        ("row_shr:1 bound_ctrl:1", lambda i: i - 1, {"bound": True}),
        ("row_shl:3", lambda i: i + 3, {}),
        ("row_shl:3 bound_ctrl:1", lambda i: i + 3, {"bound": True}),
        ("row_ror:5", lambda i: (i - 5) % 16, {}),
        ("quad_perm:[3,2,1,0]", lambda i: (i & ~3) + 3 - (i & 3), {}),
        ("quad_perm:[1,1,0,2]", lambda i: (i & ~3) + [1, 1, 0, 2][i & 3], {}),
        ("row_mirror", lambda i: 15 - i, {}),
        ("row_half_mirror", lambda i: (i & 8) + 7 - (i & 7), {}),
        ("row_shr:2 row_mask:0x1", lambda i: i - 2, {"row_mask": 1}),
        ("quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0x5", lambda i: i, {"bank_mask": 5}),
    ]
    for n, (ctrl, select, kw) in enumerate(cases):
        r = f"v{3 + n}"
        k.asm(f"""
            v_mov_b32 {r}, {OLD:#x}
            v_mov_b32_dpp {r}, v2 {ctrl}
        """)
        k.check_v(r, dpp(select, **kw))
    return k


def inactive_sources(t):
    """Lanes 5 and 20 inactive: a lane whose source is one of them is not written, or reads
    0 with bound_ctrl, or the inactive lane's value with fi:1."""
    k = Kernel(t, "inactive_sources")
    setup(k)
    ex = 0xffffffff & ~(1 << 5 | 1 << 20)
    swap = lambda i: i ^ 1
    shr = lambda i: i - 1
    cases = [("quad_perm:[1,0,3,2]", swap, {}),
             ("quad_perm:[1,0,3,2] bound_ctrl:1", swap, {"bound": True}),
             ("quad_perm:[1,0,3,2] fi:1", swap, {"fi": True}),
             ("row_shr:1 bound_ctrl:1", shr, {"bound": True})]
    for n, (ctrl, select, kw) in enumerate(cases):
        k.asm(f"v_mov_b32 v{3 + n}, {OLD:#x}")
    k.asm(f"s_mov_b32 exec_lo, {ex:#x}")
    for n, (ctrl, select, kw) in enumerate(cases):
        k.asm(f"v_mov_b32_dpp v{3 + n}, v2 {ctrl}")
    k.asm("s_mov_b32 exec_lo, -1")
    for n, (ctrl, select, kw) in enumerate(cases):
        k.check_v(f"v{3 + n}", dpp(select, exec_mask=ex, **kw))
    return k


def alu(t):
    """DPP applies to src0 of a VOP2 operation; src1 is the lane's own."""
    k = Kernel(t, "alu")
    setup(k)
    k.asm(f"""
        v_mov_b32 v3, {OLD:#x}
        v_lshlrev_b32 v4, 8, v0
        v_add_nc_u32_dpp v3, v2, v4 row_shr:1 bound_ctrl:1
        v_mov_b32 v5, {OLD:#x}
        v_sub_nc_u32_dpp v5, v2, v4 quad_perm:[2,3,0,1]
    """)
    shr = dpp(lambda i: i - 1, bound=True)
    k.check_v("v3", [(s + (l << 8)) & M32 for l, s in enumerate(shr)])
    qp = dpp(lambda i: (i & ~3) + [2, 3, 0, 1][i & 3])
    k.check_v("v5", [(s - (l << 8)) & M32 for l, s in enumerate(qp)])
    return k


def dpp8(t):
    """DPP8: each lane reads the lane its group of 8's selector names (full EXEC)."""
    k = Kernel(t, "dpp8")
    setup(k)
    sels = ([7, 6, 5, 4, 3, 2, 1, 0], [1, 1, 3, 3, 0, 7, 2, 6])
    for n, sel in enumerate(sels):
        k.asm(f"v_mov_b32_dpp v{3 + n}, v2 dpp8:[{','.join(map(str, sel))}]")
        k.check_v(f"v{3 + n}", [src((l & ~7) + sel[l & 7]) for l in range(32)])
    return k


CASES = [movs, inactive_sources, alu, dpp8]
