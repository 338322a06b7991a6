#!/usr/bin/env python3
"""The stub's choice of driver, and its cuda driver over a stand-in NVIDIA driver
(fake_nvidia.c): driver_probe.cu is built by nvcc with a fatbin in its own data, converted
for gfx1100 and host, and run
- with the stand-in found (ZLUDA_CONVERT_CUDA_PATH): NVIDIA's driver is chosen over the CPU
  driver, every call of the program reaches the stand-in, cuModuleLoadData with the
  program's own pointer, and the stub traces none of them;
- with ZLUDA_CONVERT_DRIVER=host, and with the emulator's HIP runtime present: those win, and
  the stand-in hears nothing;
- with ZLUDA_CONVERT_DRIVER=cuda and no NVIDIA driver, or the stub itself or a copy of it
  named as one: no device, and the trace says why.

usage: check_nvidia_path.py NVCC ZLUDA_CONVERT STUB_DIR FAKE_NVIDIA EMU_HIP SOURCE_DIR WORKDIR"""
import os
import re
import subprocess
import sys


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    if p.returncode != 0:
        sys.exit("command failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p


def probe(binary, work, tag, **env_add):
    log, trace = (os.path.join(work, "%s.%s" % (tag, k)) for k in ("log", "trace"))
    for f in (log, trace):
        if os.path.exists(f):
            os.remove(f)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ZLUDA_CONVERT_", "ZC_EMU_")) and k != "LD_LIBRARY_PATH"}
    env.update(FAKE_NVIDIA_LOG=log, ZLUDA_CONVERT_TRACE=trace, **env_add)
    p = subprocess.run([binary], capture_output=True, text=True, timeout=300, env=env, cwd="/")
    read = lambda f: open(f).read().splitlines() if os.path.exists(f) else []
    return p, read(log), read(trace)


def main():
    nvcc, tool, stub_dir, fake, emu_hip, src, work = sys.argv[1:8]
    os.makedirs(work, exist_ok=True)
    fatbin = os.path.join(work, "kernels.fatbin")
    binary = os.path.join(work, "driver_probe")
    run([nvcc, "-fatbin", "-arch=sm_80", "-o", fatbin, os.path.join(src, "kernels.cu")])
    run([nvcc, "-DPROBE_FATBIN=" + fatbin, "-o", binary, os.path.join(src, "driver_probe.cu"),
         "-L" + stub_dir, "-lcuda"])
    converted = binary + "-amd"
    run([tool, binary, "-o", converted, "-q", "--offload-arch=gfx1100,host"])
    problems = []

    p, log, trace = probe(converted, work, "cuda", ZLUDA_CONVERT_CUDA_PATH=fake)
    pointer = re.search(r"fatbin (0x[0-9a-f]+)", p.stdout)
    want = ["cuInit 0", "cuDeviceGetCount",           # the stub's look at the driver
            "cuInit 0", "cuDeviceGetCount", "cuDeviceGet 0", "cuDevicePrimaryCtxRetain 0",
            "cuCtxSetCurrent primary", "cuModuleLoadData %s" % (pointer.group(1) if pointer else "?"),
            "cuModuleGetFunction module scale", "cuMemAlloc_v2 4000", "cuMemcpyHtoD_v2 4000",
            "cuLaunchKernel function grid 8 1 1 block 128 1 1 shared 0", "cuCtxSynchronize",
            "cuMemcpyDtoH_v2 4000", "cuMemFree_v2"]
    if p.returncode != 0 or "devices 1" not in p.stdout or "computed: no" not in p.stdout or log != want:
        problems.append("NVIDIA's driver: exit %d, stdout %r, the stand-in heard\n  %s\nwant\n  %s"
                        % (p.returncode, p.stdout, "\n  ".join(log), "\n  ".join(want)))
    stub_calls = [l for l in trace if re.match(r"zluda-convert: cu\w+\(", l)]
    chosen = "zluda-convert: using NVIDIA's driver %s: every call goes to it from here on, and is not traced" % fake
    if chosen not in trace or stub_calls:
        problems.append("NVIDIA's driver: the trace %r" % trace)

    for tag, env in (("host", dict(ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_CUDA_PATH=fake)),
                     ("hip", dict(ZLUDA_CONVERT_HIP_PATH=emu_hip, ZC_EMU_PROCESSOR="gfx1100",
                                  ZLUDA_CONVERT_CUDA_PATH=fake))):
        p, log, trace = probe(converted, work, tag, **env)
        if p.returncode != 0 or "computed: yes" not in p.stdout or log:
            problems.append("%s: exit %d, stdout %r, the stand-in heard %s" % (tag, p.returncode, p.stdout, log))
        if "zluda-convert: using the %s driver" % tag not in trace:
            problems.append("%s: the trace does not say the %s driver was used: %r" % (tag, tag, trace[:3]))

    own = os.path.join(work, "libcuda.so.1")
    copy = os.path.join(stub_dir, "libcuda.so.1")
    for tag, path, why in (("missing", "/nonexistent/libcuda.so.1", "NVIDIA's driver (libcuda.so.1) is not installed"),
                           ("own", own, "%s is this program's zluda-convert driver, not NVIDIA's" % own),
                           ("copy", copy, "%s is not NVIDIA's driver but a copy of zluda-convert's" % copy)):
        p, log, trace = probe(converted, work, tag, ZLUDA_CONVERT_DRIVER="cuda", ZLUDA_CONVERT_CUDA_PATH=path)
        if p.returncode != 1 or "FAIL: cuInit(0) = 100" not in p.stdout or not any(why in l for l in trace):
            problems.append("%s: exit %d, stdout %r, trace %r" % (tag, p.returncode, p.stdout, trace))
    for problem in problems:
        print("FAIL", problem)
    if not problems:
        print("ok nvidia_path: NVIDIA's driver chosen and every call forwarded; host and HIP "
              "chosen when asked or found; no driver, the stub itself and a copy refused")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
