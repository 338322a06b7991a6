"""The cycle estimate (zc_emu_cycles_estimated, amdgpu_emulator/cost.c): a launch's estimate
is the sum, over its waves, of the issue cycles of every instruction each executed. The
figures below are the cost table's, per generation (gfx1030, gfx1100, gfx1200), written
out again here from its sources, so that a class an instruction lands in wrongly, an
instruction not counted, a loop's iterations or a second wave left out, all show."""
from emutest import Kernel

# issue cycles of one wave32 instruction: gfx10, gfx11, gfx12
F64 = {10: 16, 11: 32, 12: 32}       # 1/32 of f32's rate on RDNA3/4, 1/16 on RDNA2
WMMA_F16 = {11: 32, 12: 16}          # AMD's matrix instruction calculator
QUARTER = 4                          # transcendentals, 32-bit integer multiply
# what every kernel of emutest.Kernel runs besides its body: s_load_b64, v_lshlrev_b32 and
# the wait for the load (one each), then s_endpgm
FRAME = 3 + 1


class Counted:
    def __init__(self, t, name, block=32, lds=0):
        self.t = t
        self.k = Kernel(t, name, block=block, lds=lds)
        self.per_wave = FRAME
        self.waves = (block + 31) // 32

    def add(self, line, cycles, times=1):
        self.k.asm(line)
        self.per_wave += cycles * times
        return self

    def kernel(self):
        self.k.cycles = self.per_wave * self.waves
        return self.k


def classes(t):
    """One instruction of each class the table tells apart."""
    c = Counted(t, "classes", lds=1024)
    c.k.slot(3)  # the buffer the loads below read from (two words a lane, and more)
    g = t.gen
    c.add("v_add_f32 v2, v3, v4", 1)
    c.add("v_mul_u32_u24 v6, v3, v4", 1)             # 24-bit multiply: full rate
    c.add("v_mul_lo_u16 v6, v3, v4", 1)
    c.add("v_mul_lo_u32 v5, v3, v4", QUARTER)        # 32-bit multiply: quarter rate
    c.add("v_mul_hi_u32 v5, v3, v4", QUARTER)
    c.add("v_sqrt_f32 v7, v3", QUARTER)
    c.add("v_exp_f32 v7, v3", QUARTER)
    c.add("v_add_f64 v[8:9], v[10:11], v[12:13]", F64[g])
    c.add("v_cvt_f64_f32 v[8:9], v3", F64[g])
    c.add("v_cmp_lt_f64 vcc_lo, v[8:9], v[10:11]", F64[g])
    c.add("v_lshlrev_b64 v[8:9], 1, v[10:11]", 2)   # 64-bit shift: half rate
    c.add("v_pk_add_f16 v2, v3, v4", 1)
    c.add("s_nop 3", 4)                              # N + 1
    c.add("s_nop 0", 1)
    c.add("s_add_u32 s4, s5, s6", 1)
    c.add("s_mul_i32 s4, s5, s6", 1)
    # LDS: a cycle per 128 bytes the wave moves
    c.add("ds_store_b32 v1, v2", 1)
    c.add("ds_read_b128 v[20:23], v1" if g == 10 else "ds_load_b128 v[20:23], v1", 4)
    c.add("ds_load_2addr_b32 v[24:25], v1 offset1:1", 2)
    c.add("WAIT_DS", 1)
    # global memory: the same per 128 bytes
    c.add("global_load_b64 v[26:27], v1, s[2:3]", 2)
    c.add("global_load_b32 v28, v1, s[2:3]", 1)
    c.add("WAIT_LOAD", 1)
    if g >= 11:
        c.add("v_dual_mov_b32 v30, v0 :: v_dual_mov_b32 v31, v1", 1)
    if g == 11:
        c.add("v_wmma_f32_16x16x16_f16 v[32:39], v[40:47], v[48:55], v[32:39]", WMMA_F16[g])
    if g == 12:
        c.add("v_wmma_f32_16x16x16_f16 v[32:39], v[40:43], v[44:47], v[32:39]", WMMA_F16[g])
    return c.kernel()


def loop(t):
    """Two waves, each running a loop of 100 iterations (more than one turn of the
    scheduler's quantum): every iteration and both waves count."""
    c = Counted(t, "loop", block=64)
    c.add("s_mov_b32 s10, 100", 1)
    c.k.asm("again:")
    c.add("v_add_f64 v[8:9], v[10:11], v[12:13]", F64[t.gen], 100)
    c.add("v_mul_lo_u32 v5, v3, v4", QUARTER, 100)
    c.add("s_sub_u32 s10, s10, 1", 1, 100)
    c.add("s_cmp_lg_u32 s10, 0", 1, 100)
    c.add("s_cbranch_scc1 again", 1, 100)
    return c.kernel()


CASES = [classes, loop]
