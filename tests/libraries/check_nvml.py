"""The project's NVML placed beside a converted program that loads libnvidia-ml.so.1 (the
exact message), and the program nvml_device.c, which compares NVML's view of each device
with the CUDA driver API's, passing on the CPU driver and through the HIP driver on the
emulated gfx1100, with no sensor value invented.

usage: check_nvml.py ZLUDA_CONVERT GCC NVML_INCLUDE CUDA_INCLUDE NVML_LIBRARY CUDA_STUB
                     EMULATOR_HIP_RUNTIME SOURCE WORK_DIR"""

import os
import re
import shutil
import subprocess
import sys


def run(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, p.stdout, re.sub(r" \(\d+\.\d s\)$", "", p.stderr, flags=re.M)


def main():
    tool, gcc, nvml_include, cuda_include, nvml, cuda_stub, hip, source, work = sys.argv[1:10]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "out"))
    problems = []
    code, out, err = run([gcc, "-o", "nvml_device", source, "-isystem", nvml_include, "-isystem",
                          cuda_include, nvml, cuda_stub], work)
    if code:
        sys.exit("FAIL: building nvml_device\n" + out + err)
    program = os.path.join(work, "nvml_device")
    code, _, err = run([tool, "nvml_device", "-o", "out/nvml_device",
                        "--offload-arch=host,gfx1100"], work)
    want = ("nvml_device: warning: no fatbin in it: no GPU code to translate\n"
            "out/nvml_device: 0 modules, 0 kernels, 2 targets, 0 failures\n"
            "out/libnvidia-ml.so.1: zluda-convert's own, for %s (NVIDIA's is a part of "
            "NVIDIA's driver)\n" % program)
    if code or err != want:
        problems.append("conversion: exit %d, stderr:\n%s--- want:\n%s" % (code, err, want))
    drivers = {"host": {"ZLUDA_CONVERT_DRIVER": "host"},
               "gfx1100": {"ZLUDA_CONVERT_DRIVER": "hip", "ZLUDA_CONVERT_HIP_PATH": hip,
                           "ZC_EMU_PROCESSOR": "gfx1100"}}
    for name, env in drivers.items():
        code, out, err = run([os.path.join(work, "out", "nvml_device")], work,
                             dict(os.environ, NO_SENSORS="1", **env))
        if code or out != "PASS\n":
            problems.append("%s: exit %d\n%s%s" % (name, code, out, err))
    for p in problems:
        print("FAIL " + p)
    if problems:
        sys.exit(1)
    print("PASS")


main()
