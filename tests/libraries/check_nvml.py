"""The project's NVML placed beside a converted program that loads libnvidia-ml.so.1 (the
exact message), and the program nvml_device.c, which compares NVML's view of each device
with the CUDA driver API's, passing on the CPU driver and through the HIP driver on the
emulated gfx1100, with no sensor value invented; then on the emulated gfx1100 with a
stand-in of ROCm SMI (ZLUDA_CONVERT_ROCM_SMI_PATH) whose device is at the emulated card's
PCI address: NVML's sensors are its values, in NVML's units.

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


# ROCm SMI's functions NVML reads, with fixed values: one device at the emulator's first
# card's PCI address (domain 0, bus 3, device 0), 61.5 degrees, 123.456789 W, a fan at 100
# of 255, 42 % busy, memory 17 % busy.
ROCM_SMI = r"""
#include <stdint.h>
int rsmi_init(uint64_t flags) { return 0; }
int rsmi_num_monitor_devices(uint32_t *n) { *n = 1; return 0; }
int rsmi_dev_pci_id_get(uint32_t d, uint64_t *bdfid) { *bdfid = 3 << 8; return d != 0; }
int rsmi_dev_temp_metric_get(uint32_t d, uint32_t type, int metric, int64_t *t)
{ *t = 61500; return d != 0 || type != 0 || metric != 0; }
int rsmi_dev_power_ave_get(uint32_t d, uint32_t s, uint64_t *p) { *p = 123456789; return d != 0; }
int rsmi_dev_fan_speed_get(uint32_t d, uint32_t s, int64_t *v) { *v = 100; return d != 0; }
int rsmi_dev_fan_speed_max_get(uint32_t d, uint32_t s, uint64_t *v) { *v = 255; return d != 0; }
int rsmi_dev_busy_percent_get(uint32_t d, uint32_t *v) { *v = 42; return d != 0; }
int rsmi_dev_memory_busy_percent_get(uint32_t d, uint32_t *v) { *v = 17; return d != 0; }
"""


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
    with open(os.path.join(work, "rocm_smi.c"), "w") as f:
        f.write(ROCM_SMI)
    code, out, err = run([gcc, "-shared", "-fPIC", "-o", "librocm_smi64.so", "rocm_smi.c"], work)
    if code:
        problems.append("building the ROCm SMI stand-in\n" + out + err)
    else:
        env = dict(os.environ, SENSORS="61 123456 39 42 17",
                   ZLUDA_CONVERT_ROCM_SMI_PATH=os.path.join(work, "librocm_smi64.so"),
                   **drivers["gfx1100"])
        code, out, err = run([os.path.join(work, "out", "nvml_device")], work, env)
        if code or out != "PASS\n":
            problems.append("gfx1100 with ROCm SMI: exit %d\n%s%s" % (code, out, err))
    for p in problems:
        print("FAIL " + p)
    if problems:
        sys.exit(1)
    print("PASS")


main()
