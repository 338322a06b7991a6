#!/usr/bin/env python3
"""The emulator's instruction table: docs/amdgpu-emulator-instructions.md, made from what
emu_instruction_table prints (every instruction of the compute encodings LLVM's disassembler
reads for each processor, and whether the emulator has a handler).

    instruction_table.py TOOL DOC           fails, with the difference, when DOC is not the table
    instruction_table.py TOOL DOC --write   writes the table to DOC"""
import difflib
import re
import subprocess
import sys

PROCESSORS = ["gfx1030", "gfx1100", "gfx1200"]

# Instructions for graphics, not for compute kernels: typed (format) buffer access, the
# global wave sync and ordered counters, ray tracing's stack, pixel shaders' ends and kills,
# interpolation; and the debugger's, trace's and trap handler's.
GRAPHICS = re.compile(r"^(t?buffer_.*format.*|ds_gws_.*|ds_ordered_count|ds_(add|sub)_gs_reg_rtn|"
                      r"global_atomic_ordered_add_b64|ds_bvh_stack_.*|s_endpgm_ordered_ps_done|"
                      r"s_setkill|v_interp_.*|s_cbranch_cdbg.*|s_ttracedata_imm|s_rfe_b64)$")

# Instructions LLVM reads for a processor whose wave32 compute kernels cannot use them:
# gfx10's and gfx11's subvector loops run a wave64's halves in turn (subvector mode, which a
# wave32 kernel cannot enable: COMPUTE_PGM_RSRC3's SHARED_VGPR_COUNT is for wave64 only);
# s_barrier_init, _join and _leave are gfx1250's named barriers, which LLVM 22 reads for
# every gfx12 (LLVM removed them from gfx12 as unused, then added them back for gfx1250),
# and gfx1200 allocates none (its kernel descriptor has no count of them).
ELSEWHERE = {"gfx1030": re.compile(r"^s_subvector_loop_(begin|end)$"),
             "gfx1100": re.compile(r"^s_subvector_loop_(begin|end)$"),
             "gfx1200": re.compile(r"^s_barrier_(init|join|leave)$")}


def category(processor, mnemonic):
    if GRAPHICS.match(mnemonic):
        return "graphics"
    return "elsewhere" if ELSEWHERE[processor].match(mnemonic) else "compute"


def table(tool):
    rows = subprocess.run([tool] + PROCESSORS, check=True, capture_output=True, text=True).stdout
    out = {p: [] for p in PROCESSORS}
    for line in rows.splitlines():
        processor, encoding, mnemonic, state = line.split()
        out[processor].append((encoding, mnemonic, state == "emulated"))
    return out


def render(rows):
    lines = [
        "# The emulator's instruction table",
        "",
        "Every instruction of the compute encodings that LLVM 22's disassembler reads for each",
        "processor (SOP1, SOP2, SOPC, SOPK, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3, VOP3P, VOPD, DS,",
        "FLAT, SCRATCH, GLOBAL, MUBUF, MTBUF; gfx12's VBUFFER), found by walking each encoding's",
        "opcode field with varied operand bits (`tests/emulator/instruction_table.c`), without the",
        "encoding suffixes (`_e32`, `_e64`, `_dpp`, `_sdwa`): 'emulated' means the emulator has a",
        "handler (`amdgpu_emulator/exec_*.c`). For RDNA3 and RDNA4 the lists agree with AMD's",
        "guides (`shared/reference/amdgpu-isa/`) but for gfx11.5's scalar float instructions, which",
        "gfx1100 lacks, and gfx12's 16-bit `v_swap_b16` and `v_mov_b16`, which LLVM 22 reads only",
        "with true 16-bit registers. MIMG, export, interpolation and LDS-parameter encodings are",
        "not walked; instructions of the walked encodings meant for graphics (typed buffer access,",
        "GWS and ordered counters, ray tracing, pixel shaders) or for debuggers are counted apart,",
        "as are those a wave32 compute kernel of that processor cannot use: gfx10's and gfx11's",
        "subvector loops (wave64's subvector mode) and gfx1250's named barriers, which LLVM 22",
        "reads for gfx1200 too (`tests/emulator/instruction_table.py` says why of each).",
        "",
        "Made by `tests/emulator/instruction_table.py BUILD/tests/emulator/emu_instruction_table",
        "docs/amdgpu-emulator-instructions.md --write`; the test `emulator.instruction_table` fails",
        "when this file is not what the emulator has.",
        "",
        "| processor | instructions | emulated | not emulated, compute | not emulated, graphics or debug "
        "| not emulated, not for this processor's wave32 compute |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    kinds = ("compute", "graphics", "elsewhere")
    for processor in PROCESSORS:
        r = rows[processor]
        done = sum(1 for _, _, e in r if e)
        counts = [sum(1 for _, m, e in r if not e and category(processor, m) == kind) for kind in kinds]
        lines.append(f"| {processor} | {len(r)} | {done} | " + " | ".join(map(str, counts)) + " |")
    for title, kind in (("Not emulated: compute", "compute"),
                        ("Not emulated: graphics or debug", "graphics"),
                        ("Not emulated: not for this processor's wave32 compute", "elsewhere")):
        lines += ["", f"## {title}", ""]
        for processor in PROCESSORS:
            by_encoding = {}
            for encoding, mnemonic, emulated in rows[processor]:
                if not emulated and category(processor, mnemonic) == kind:
                    by_encoding.setdefault(encoding, []).append(mnemonic)
            lines.append(f"- **{processor}**" + ("" if by_encoding else ": none"))
            for encoding, names in by_encoding.items():
                lines.append(f"  - {encoding} ({len(names)}): " + ", ".join(f"`{n}`" for n in names))
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--write"):
        sys.exit("usage: instruction_table.py TOOL DOC [--write]")
    text = render(table(sys.argv[1]))
    if len(sys.argv) == 4:
        with open(sys.argv[2], "w") as f:
            f.write(text)
        return
    with open(sys.argv[2]) as f:
        old = f.read()
    if old != text:
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                   sys.argv[2], "the emulator now"))
        sys.exit(f"{sys.argv[2]} is not the emulator's table: run instruction_table.py with --write")


main()
