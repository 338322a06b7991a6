#!/usr/bin/env python3
"""The runtime stub's HIP driver end to end over fake_hip.c: hip_probe.cu is built by nvcc,
converted for gfx1030, gfx1100 and gfx1200, and run with ZLUDA_CONVERT_DRIVER=hip on a
stand-in HIP runtime reporting each of those (and one the binary has no code for). The
stand-in's log must show the stack size the program set, the code object of the device's
processor loaded, the kernel and
the __constant__ variable found by name, and the launch with the program's geometry and its
arguments in the PTX .param layout.

usage: check_hip_path.py NVCC ZLUDA_CONVERT FAKE_HIP_LIBRARY SOURCE WORKDIR"""
import os
import re
import struct
import subprocess
import sys

MACH = {"gfx1030": 0x36, "gfx1100": 0x41, "gfx1200": 0x48}
KERNEL = "_Z5probePiif4Paird"


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
    if p.returncode != 0:
        sys.exit("command failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p


def probe(binary, fake, work, arch):
    log = os.path.join(work, "hip-%s.log" % arch.replace(":", "_"))
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ, ZLUDA_CONVERT_DRIVER="hip", ZLUDA_CONVERT_HIP_PATH=fake,
               FAKE_HIP_LOG=log, FAKE_HIP_ARCH=arch)
    env.pop("LD_LIBRARY_PATH", None)
    p = subprocess.run([binary], capture_output=True, text=True, timeout=120, env=env, cwd="/")
    lines = open(log).read().splitlines() if os.path.exists(log) else []
    return p, lines


def main():
    nvcc, tool, fake, source, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    binary = os.path.join(work, "hip_probe")
    run([nvcc, "-o", binary, source])
    run([tool, binary, "-o", binary + "-amd", "-q", "--offload-arch=gfx1030,gfx1100,gfx1200"])
    problems = []
    for arch in ["gfx1030", "gfx1100", "gfx1200", "gfx1030:xnack-"]:
        p, log = probe(binary + "-amd", fake, work, arch)
        where = "device %s" % arch
        if p.returncode != 0 or not p.stdout.endswith("PASS\n"):
            problems.append("%s: exit %d, stdout %r, stderr %r" % (where, p.returncode, p.stdout, p.stderr))
            continue
        pointer = int(re.search(r"device pointer (0x[0-9a-f]+)", p.stdout).group(1), 16)
        # out at 0, n at 8, f at 12, the 4-aligned Pair at 16, the double at 24
        args = struct.pack("<Qifiid", pointer, 200, 2.5, -1, 9, 0.125)
        want = [
            "hipDeviceSetLimit 0 8192",
            "hipMalloc 1024 -> %#x" % pointer,
            "hipModuleLoadData: AMDGPU ELF, mach %#x, OS ABI 64 version 3" % MACH[arch.split(":")[0]],
            "hipModuleGetGlobal scale: 16 bytes",
            "hipModuleGetFunction %s" % KERNEL,
            "hipModuleLaunchKernel %s grid 3 2 1 block 64 1 1 shared 256 args %s" % (KERNEL, args.hex()),
        ]
        if log != want:
            problems.append("%s: the stand-in's log\n  %s\nwant\n  %s" % (where, "\n  ".join(log), "\n  ".join(want)))
    # A processor the binary has no code object for: CUDA's "no kernel image".
    p, log = probe(binary + "-amd", fake, work, "gfx1201")
    if p.returncode != 1 or "no kernel image is available for execution on the device" not in p.stdout:
        problems.append("device gfx1201: exit %d, stdout %r" % (p.returncode, p.stdout))
    if any("hipModuleLoadData" in line for line in log):
        problems.append("device gfx1201: a code object was loaded: %s" % log)
    for problem in problems:
        print("FAIL", problem)
    if not problems:
        print("ok hip_path: 4 devices ran the probe's launch through HIP, 1 had no code object")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
