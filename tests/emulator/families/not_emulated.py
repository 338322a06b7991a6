"""An instruction the emulator has no handler for ends the launch with exactly
"not emulated: <text> at <kernel>+0x<offset> (<processor>)", the text as LLVM's
disassembler prints it (taken here from llvm-objdump of the same code object) and the
offset from the kernel's symbol; decoding it alone, never executing it, is no failure."""
from emutest import Kernel

IMAGE = "image_load v[4:7], v2, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D"
# Instructions of gfx11 and gfx12 the emulator has no handler for (ray tracing's).
OTHER = {11: "ds_bvh_stack_rtn_b32 v1, v2, v3, v[4:7]",
         12: "ds_bvh_stack_push4_pop1_rtn_b32 v1, v2, v3, v[4:7]"}


def unknown(k, text):
    k.asm(f"""
        v_mov_b32 v2, 0
        s_mov_b64 s[8:9], 0
        s_mov_b64 s[10:11], 0
        s_mov_b64 s[12:13], 0
        s_mov_b64 s[14:15], 0
    .globl {k.name}_here
    {k.name}_here:
        {text}
    """)
    return k.expect_not_emulated(f"{k.name}_here")


def image(t):
    return unknown(Kernel(t, "image"), IMAGE)


def other(t):
    if t.gen < 11:
        return None
    return unknown(Kernel(t, "other"), OTHER[t.gen])


def skipped(t):
    """The same instructions, branched over: the kernel runs to its end."""
    k = Kernel(t, "skipped")
    k.asm(f"""
        v_mov_b32 v3, 0x42
        s_branch .Lover
        {IMAGE}
        {OTHER.get(t.gen, IMAGE)}
    .Lover:
    """)
    k.check_v("v3", 0x42)
    return k


CASES = [image, other, skipped]
