#!/usr/bin/env python3
"""The runtime stub's HIP driver end to end over the emulator's HIP runtime
(libzc-emu-hip.so): hip_probe.cu is built by nvcc, converted for gfx1030, gfx1100 and
gfx1200, and run with ZLUDA_CONVERT_DRIVER=hip on an emulated device of each of those (and
of one the binary has no code for, and of one the emulator does not run). The probe checks
its kernel's results itself; the runtime's log (ZC_EMU_HIP_LOG) must show the stack size the
program set, the code object of the device's processor loaded, the kernel and the
__constant__ variable found by name, and the launch with the program's geometry and its
arguments in the PTX .param layout. `zluda-convert run --emulate=gfx1100` must do the same.
Then EMU_HIP_API (emu_hip_api.c) calls the runtime directly on the extracted code objects.

usage: check_hip_path.py NVCC ZLUDA_CONVERT EMU_HIP_LIBRARY EMU_HIP_API SOURCE WORKDIR"""
import glob
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


def probe(binary, library, work, arch, through_run=None):
    """Runs BINARY on an emulated ARCH device, directly or through `TOOL run`."""
    log = os.path.join(work, "hip-%s.log" % arch.replace(":", "_"))
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ, ZC_EMU_HIP_LOG=log)
    for name in ["LD_LIBRARY_PATH", "ZLUDA_CONVERT_DRIVER", "ZLUDA_CONVERT_HIP_PATH", "ZC_EMU_PROCESSOR"]:
        env.pop(name, None)
    if through_run:
        cmd = [through_run, "run", "--emulate=" + arch, "--", binary]
    else:
        env.update(ZLUDA_CONVERT_DRIVER="hip", ZLUDA_CONVERT_HIP_PATH=library, ZC_EMU_PROCESSOR=arch)
        cmd = [binary]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd="/")
    lines = open(log).read().splitlines() if os.path.exists(log) else []
    return p, lines


def main():
    nvcc, tool, library, api_test, source, work = sys.argv[1:7]
    os.makedirs(work, exist_ok=True)
    binary = os.path.join(work, "hip_probe")
    run([nvcc, "-o", binary, source])
    run([tool, binary, "-o", binary + "-amd", "-q", "--offload-arch=gfx1030,gfx1100,gfx1200"])
    problems = []
    devices = [(arch, None) for arch in ["gfx1030", "gfx1100", "gfx1200", "gfx1030:xnack-"]]
    for arch, through_run in devices + [("gfx1100", tool)]:
        p, log = probe(binary + "-amd", library, work, arch, through_run)
        where = "device %s%s" % (arch, " through zluda-convert run" if through_run else "")
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
            # the driver asks for the printf buffer's, the heap's, the launch queue's and
            # the grid workspace's variables: a module that neither prints, allocates,
            # launches kernels nor syncs its grid has none, and gets none made
            "hipModuleGetGlobal zluda_convert_device_output: not found",
            "hipModuleGetGlobal zluda_convert_device_heap: not found",
            "hipModuleGetGlobal zluda_convert_device_launches: not found",
            "hipModuleGetGlobal zluda_convert_grid_workspace: not found",
            "hipModuleGetGlobal scale: 16 bytes",
            "hipModuleGetFunction %s" % KERNEL,
            "hipModuleLaunchKernel %s grid 3 2 1 block 64 1 1 shared 256 args %s" % (KERNEL, args.hex()),
        ]
        if log != want:
            problems.append("%s: the runtime's log\n  %s\nwant\n  %s" % (where, "\n  ".join(log), "\n  ".join(want)))
    # A processor the binary has no code object for: CUDA's "no kernel image".
    p, log = probe(binary + "-amd", library, work, "gfx1201")
    if p.returncode != 1 or "no kernel image is available for execution on the device" not in p.stdout:
        problems.append("device gfx1201: exit %d, stdout %r" % (p.returncode, p.stdout))
    if any("hipModuleLoadData" in line for line in log):
        problems.append("device gfx1201: a code object was loaded: %s" % log)
    # A processor the emulator does not run: no device, and the runtime says why.
    p, log = probe(binary + "-amd", library, work, "gfx906")
    if (p.returncode != 1 or "no CUDA-capable device is detected" not in p.stdout or
            "zc-emu-hip: ZC_EMU_PROCESSOR=gfx906: not a processor the emulator runs" not in p.stderr):
        problems.append("device gfx906: exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr))
    # The runtime on its own, on the probe's code objects for gfx1100 and gfx1030.
    objects = os.path.join(work, "objects")
    run([tool, "extract", "-q", binary + "-amd", "-o", objects])
    found = [glob.glob(os.path.join(objects, "*.%s.co" % arch)) for arch in ["gfx1100", "gfx1030"]]
    if not all(len(f) == 1 for f in found):
        problems.append("extract: code objects %s" % found)
    else:
        p = subprocess.run([api_test, found[0][0], found[1][0]], capture_output=True, text=True, timeout=300)
        if p.returncode != 0 or p.stdout != "ok emu_hip_api\n":
            problems.append("emu_hip_api: exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    for problem in problems:
        print("FAIL", problem)
    if not problems:
        print("ok hip_path: 4 emulated devices ran the probe's kernel through HIP (and one "
              "through zluda-convert run), 1 had no code object, 1 is not emulated; the runtime's "
              "own checks passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
