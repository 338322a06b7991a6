#!/usr/bin/env python3
"""One middle end for several AMDGPU processors, and code objects the same bytes as before.

Usage: check_middle_end.py TOOL NVCC PROGRAM.cu...

Converts PTX modules (module files) for several AMDGPU processors at once, with a report,
and each processor alone (where nothing is shared), then extracts the code objects. For every
module the code objects of the joint conversion must be the same bytes as those converted
alone, and the report must say which targets took the first one's optimised module
(`shared_middle_end`): every other processor for plain arithmetic; for a module that reads
%clock64, gfx1200 but not gfx1100 (gfx11 counts another clock than gfx10 and gfx12); gfx1200 but not
gfx1030 for dp4a (its builtin is the same on gfx11 and gfx12 only, so gfx1100 leads);
none for a wmma module across gfx1030 (no matrix instructions) and gfx1100; and none under
--dump, which shows each target's own stages. The PROGRAMs (the project's own, nvcc -ptx)
have loops whose code generation follows the order of a block's predecessors: the module
handed from the lead must keep it.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
from checks import check as check_one, summary  # noqa: E402

HEADER = [".version 8.0", ".target sm_80", ".address_size 64"]


def check(ok, what, detail=None):
    check_one(ok, what)
    if not ok and detail is not None:
        print(f"  saw: {detail!r}")


def kernel(name, body, regs=".reg .b64 %rd<8>; .reg .b32 %r<8>; .reg .f32 %f<8>;"):
    return [f".visible .entry {name}(.param .u64 p, .param .f32 a)", "{", regs,
            "ld.param.u64 %rd1, [p];", "ld.param.f32 %f1, [a];", "mov.u32 %r1, %tid.x;",
            "mul.wide.u32 %rd2, %r1, 4;", "add.s64 %rd3, %rd1, %rd2;", *body, "ret;", "}"]


PLAIN = HEADER + kernel("axpy", ["ld.global.f32 %f2, [%rd3];", "fma.rn.f32 %f3, %f2, %f1, 0f3f800000;",
                                 "st.global.f32 [%rd3], %f3;"]) \
    + kernel("scale", ["ld.global.f32 %f2, [%rd3];", "mul.rn.f32 %f3, %f2, %f1;", "st.global.f32 [%rd3], %f3;"])
CLOCK = HEADER + kernel("ticks", ["mov.u64 %rd4, %clock64;", "st.global.u64 [%rd3], %rd4;"])
DOT = HEADER + kernel("dot", ["ld.global.u32 %r2, [%rd3];", "dp4a.s32.s32 %r3, %r2, %r2, %r1;",
                              "st.global.u32 [%rd3], %r3;"])
WMMA = HEADER + [
    ".visible .entry gemm(.param .u64 a, .param .u64 c)", "{", ".reg .b32 %r<16>;", ".reg .f32 %f<16>;",
    ".reg .b64 %rd<4>;", "ld.param.u64 %rd1, [a];", "ld.param.u64 %rd2, [c];",
    "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];",
    "wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, [%rd1];",
    "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd2], 16;",
    "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15}, "
    "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, "
    "{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};",
    "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15}, 16;",
    "ret;", "}"]


def main():
    tool, nvcc, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
    work = tempfile.mkdtemp(prefix="zc-middle-end-")
    env = dict(os.environ, HOME=os.path.join(work, "home"))
    env.pop("XDG_CACHE_HOME", None)
    env.pop("ZLUDA_CONVERT_CACHE_DIR", None)

    def run(*args):
        return subprocess.run([tool, *args, "--no-cache", "-q"], capture_output=True, text=True, env=env)

    def code_objects(converted, into):
        subprocess.run([tool, "extract", converted, "-o", into, "-q"], env=env)
        return {os.path.basename(p).split(".", 1)[1]: open(p, "rb").read()
                for p in glob.glob(os.path.join(into, "*.co"))}

    try:
        cases = [("plain", PLAIN, ["gfx1030", "gfx1100", "gfx1200"], {"gfx1100", "gfx1200"}),
                 ("clock", CLOCK, ["gfx1030", "gfx1100", "gfx1200"], {"gfx1200"}),
                 ("dot", DOT, ["gfx1100", "gfx1030", "gfx1200"], {"gfx1200"}),
                 ("wmma", WMMA, ["gfx1030", "gfx1100"], set())]
        for program in programs:
            name = os.path.basename(program).split(".")[0]
            made = subprocess.run([nvcc, "-ptx", "-arch=sm_80", program, "-o", os.path.join(work, name + ".ptx")],
                                  capture_output=True, text=True)
            check(made.returncode == 0, f"nvcc -ptx {name}", made.stderr)
            cases.append((name, None, ["gfx1030", "gfx1100", "gfx1200"], {"gfx1100", "gfx1200"}))
        for name, lines, targets, shared in cases:
            ptx = os.path.join(work, name + ".ptx")
            if lines:
                with open(ptx, "w") as f:
                    f.write("\n".join(lines) + "\n")
            joint, report = os.path.join(work, name + ".joint"), os.path.join(work, name + ".json")
            result = run(ptx, "-o", joint, "--offload-arch=" + ",".join(targets), "-j2", "--report=" + report)
            check(result.returncode == 0, f"{name}: converted for {','.join(targets)}", result.stderr)
            with open(report) as f:
                results = json.load(f)["modules"][0]["results"]
            saw = {t for t in targets if results[t]["shared_middle_end"]}
            check(saw == shared, f"{name}: the targets that took the lead's module: {sorted(shared)}", saw)
            together = code_objects(joint, os.path.join(work, name + ".x"))
            alone = {}
            for t in targets:
                run(ptx, "-o", os.path.join(work, f"{name}.{t}"), "--offload-arch=" + t)
                alone.update(code_objects(os.path.join(work, f"{name}.{t}"), os.path.join(work, f"{name}.{t}.x")))
            check(len(together) == len(targets) and together == alone,
                  f"{name}: the same code objects as converted one target at a time",
                  sorted(k for k in together if together.get(k) != alone.get(k)))

        report = os.path.join(work, "dump.json")
        result = run(os.path.join(work, "plain.ptx"), "-o", os.path.join(work, "dump"),
                     "--offload-arch=gfx1030,gfx1100", "--dump=ll-opt", "--report=" + report)
        with open(report) as f:
            results = json.load(f)["modules"][0]["results"]
        check(result.returncode == 0 and not any(r["shared_middle_end"] for r in results.values()),
              "--dump: each target's own middle end", results)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summary("check_middle_end")


sys.exit(main())
