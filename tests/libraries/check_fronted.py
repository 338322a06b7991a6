#!/usr/bin/env python3
"""cuFFT fronted: `convert --with-libraries=libcufft.so.12` places the project's cuFFT beside
the program and NVIDIA's, converted, in nvidia/ beside it, and the project's offers each plan
to NVIDIA's first, keeping it only where a trial shows NVIDIA's converted code runs it.

NVIDIA's cuFFT is a stand-in here (fronted/standin.cu, built as libcufft.so.12 and found
through LD_LIBRARY_PATH when converting, as a system library is): it makes one-dimensional
C2C plans by a direct DFT whose kernel for odd sizes is SASS only, does not report that
kernel's failed launch, and refuses every other plan. tests/programs' cufft_plans, converted
so, must pass on the CPU driver and on emulated gfx1030, gfx1100 and gfx1200 with:
  * its two even-sized C2C plans (256, 360) made and run by the stand-in (its log), the
    trace saying so;
  * its plan of 512 points, batch 2, in a work area the program sizes beforehand
    (cufftEstimate1d, cufftGetSize1d) and gives: the stand-in's plans want one, and the
    sizes asked before the plan must be the stand-in's;
  * its five odd-sized C2C plans tried by the stand-in and found wrong (the SASS-only
    kernel never ran), made by the project's kernels;
  * every other plan refused by the stand-in and made by the project's kernels.
Without nvidia/, the project's kernels make every plan. nvidia/ holds no driver: the
program's serves both libraries.

usage: check_fronted.py ZLUDA_CONVERT NVCC PROGRAM EMULATOR_HIP SOURCE_DIR WORK_DIR"""

import os
import re
import shutil
import subprocess
import sys

tool, nvcc, program, emulator_hip, src, work = sys.argv[1:7]
problems = []
TAKEN = "zluda-convert: cuFFT: cufftMakePlanMany: NVIDIA's converted cuFFT makes the plan"
TAKEN_1D = "zluda-convert: cuFFT: cufftMakePlan1d: NVIDIA's converted cuFFT makes the plan"
WRONG = ("zluda-convert: cuFFT: cufftMakePlanMany: NVIDIA's converted cuFFT cannot run the "
         "plan: its transform of an impulse is wrong (a kernel it needs is SASS only?)")
OFFERED = ("zluda-convert: cuFFT: NVIDIA's converted cuFFT: nvidia/libcufft.so.12 is offered "
           "every plan first")
# The stand-in's log of a passing run: each even plan made, tried forward and inverse, then
# run forward by the program.
SERVED = sorted(["plan n 256 batch 1", "plan n 360 batch 5", "plan n 512 batch 2"] +
                ["exec n %d direction %d" % (n, d) for n in (256, 360, 512) for d in (-1, -1, 1)])
EVEN = ("n 256", "n 360", "n 512")


def check(what, ok):
    if not ok:
        problems.append(what)


def build():
    lib = os.path.join(work, "lib")
    os.makedirs(lib)
    steps = [
        [nvcc, "-Xcompiler", "-fPIC", "-c", src + "/standin.cu", "-o", "standin.o"],
        [nvcc, "-Xcompiler", "-fPIC", "-gencode", "arch=compute_80,code=sm_80", "-c",
         src + "/standin_sass.cu", "-o", "standin_sass.o"],
        [nvcc, "-shared", "-o", "lib/libcufft.so.12", "standin.o", "standin_sass.o",
         "-Xlinker", "-soname=libcufft.so.12"],
    ]
    for cmd in steps:
        p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return lib


def convert(lib):
    os.makedirs(os.path.join(work, "out"))
    cmd = [tool, program, "-o", "out/cufft_plans", "--with-libraries=libcufft.so.12",
           "--offload-arch=host,gfx1030,gfx1100,gfx1200", "--no-cache"]
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, LD_LIBRARY_PATH=lib))
    if p.returncode != 0:
        sys.exit("FAIL: convert exit %d\n%s" % (p.returncode, p.stderr))
    err = re.sub(r" \(\d+\.\d s\)$", "", p.stderr, flags=re.M)
    check("convert does not say where NVIDIA's goes:\n" + err,
          "out/libcufft.so.12: zluda-convert's own, for %s (NVIDIA's kernels for many sizes "
          "ship as machine code only; NVIDIA's, converted into nvidia/, is offered each plan "
          "first)" % program in err.splitlines())
    check("convert does not convert NVIDIA's into nvidia/:\n" + err,
          "out/nvidia/libcufft.so.12: converting %s/libcufft.so.12 (needed by %s)" % (lib, program)
          in err.splitlines())
    check("convert does not count the SASS-only fatbin:\n" + err,
          "out/nvidia/libcufft.so.12: 1 fatbin carry SASS only, no PTX: their kernels cannot "
          "run converted (-v lists them)" in err.splitlines())
    nvidia = sorted(os.listdir(os.path.join(work, "out/nvidia")))
    check("nvidia/ holds %s, not only libcufft.so.12" % nvidia, nvidia == ["libcufft.so.12"])
    symbols = subprocess.run(["nm", "-D", "--defined-only", "out/libcufft.so.12"], cwd=work,
                             capture_output=True, text=True).stdout
    check("out/libcufft.so.12 is not the project's (no cufftPlan1d)", " cufftPlan1d" in symbols)


def run(target, log):
    env = dict(os.environ, ZLUDA_CONVERT_TRACE="1", ZC_CUFFT_STANDIN_LOG=log)
    if target == "host":
        env["ZLUDA_CONVERT_DRIVER"] = "host"
    else:
        env.update(ZLUDA_CONVERT_DRIVER="hip", ZLUDA_CONVERT_HIP_PATH=emulator_hip,
                   ZC_EMU_PROCESSOR=target)
    if os.path.exists(log):
        os.remove(log)
    p = subprocess.run([os.path.join(work, "out/cufft_plans")], env=env, capture_output=True,
                       text=True, timeout=500)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or not lines or lines[-1] != "PASS":
        failures = [l for l in lines if l.startswith("FAIL")][:20]
        problems.append("%s: exit %d\n%s" % (target, p.returncode, "\n".join(failures)))
    served = []
    if os.path.exists(log):
        with open(log) as f:
            served = sorted(f.read().splitlines())
    return p.stderr.splitlines(), served


def main():
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    convert(build())
    log = os.path.join(work, "standin.log")
    for target in ("host", "gfx1030", "gfx1100", "gfx1200"):
        trace, served = run(target, log)
        check("%s: the trace lacks '%s'" % (target, OFFERED), OFFERED in trace)
        check("%s: the stand-in made %d plans, not 2" % (target, trace.count(TAKEN)),
              trace.count(TAKEN) == 2)
        check("%s: %d plans found wrong, not 5" % (target, trace.count(WRONG)),
              trace.count(WRONG) == 5)
        check("%s: the stand-in did not make the 512-point plan in the program's work area"
              % target, trace.count(TAKEN_1D) == 1)
        even = [l for l in served if " ".join(l.split()[1:3]) in EVEN]
        check("%s: the stand-in served %s" % (target, even), even == SERVED)
        print("%s: PASS, the stand-in's plans and the project's" % target)
    os.rename(os.path.join(work, "out/nvidia"), os.path.join(work, "out/nvidia-away"))
    trace, served = run("host", log)
    check("without nvidia/, NVIDIA's converted is still offered plans",
          not any("NVIDIA's converted" in l for l in trace) and not served)
    print("without nvidia/: PASS on the project's kernels")
    for p in problems:
        print("FAIL: " + p)
    if problems:
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
