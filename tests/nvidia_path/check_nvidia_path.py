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
  named as one: no device, and the trace says why;
and zluda-convert doctor's report, exact, on this machine (no GPU) and with the stand-ins.

usage: check_nvidia_path.py NVCC ZLUDA_CONVERT STUB_DIR FAKE_NVIDIA EMU_HIP SOURCE_DIR WORKDIR"""
import json
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


def doctor(tool, *args, **env_add):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ZLUDA_CONVERT_", "ZC_EMU_")) and k != "LD_LIBRARY_PATH"}
    env.update(env_add)
    p = subprocess.run([tool, "doctor"] + list(args), capture_output=True, text=True, timeout=120, env=env)
    return p.returncode, p.stdout + p.stderr


def check_doctor(tool, program, fake, emu_hip):
    """The machines CI runs on have no GPU: /dev/kfd is absent, no libcuda.so.1 is
    installed. The stand-ins play the GPUs."""
    none_hip = "HIP runtime: none (no AMD GPU driver (/dev/kfd is absent))\n"
    none_nv = "NVIDIA driver: none (NVIDIA's driver (libcuda.so.1) is not installed)\n"
    emu_hip_line = "HIP runtime: %s\n" % emu_hip
    cases = [
        ("no GPU, no program", [], {}, 1,
         none_hip + none_nv +
         "driver: none (no GPU; only programs converted with --offload-arch=host run, on the CPU)\n"
         "does not run on a GPU here\n"),
        ("no GPU", [program], {}, 1,
         none_hip + none_nv +
         "driver: host (no GPU; the program has code for the CPU (--offload-arch=host))\n"
         "%s: converted\ndoes not run on a GPU here\n" % program),
        ("NVIDIA", [program], {"ZLUDA_CONVERT_CUDA_PATH": fake}, 0,
         none_hip + "NVIDIA driver: %s, version 13.0\n  device 0: Stand-in NVIDIA GPU (sm_90)\n" % fake +
         "driver: cuda (no AMD GPU; the NVIDIA GPU runs the original fatbins through NVIDIA's driver)\n"
         "%s: converted\nruns on a GPU here\n" % program),
        ("AMD gfx1100", [program], {"ZLUDA_CONVERT_HIP_PATH": emu_hip, "ZC_EMU_PROCESSOR": "gfx1100",
                                    "ZLUDA_CONVERT_CUDA_PATH": fake}, 0,
         emu_hip_line + "  device 0: AMD Radeon RX 7900 XTX (gfx1100)\n" +
         "NVIDIA driver: %s, version 13.0\n  device 0: Stand-in NVIDIA GPU (sm_90)\n" % fake +
         "driver: hip (an AMD GPU comes first)\n%s: converted\nruns on a GPU here\n" % program),
        ("AMD gfx1030", [program], {"ZLUDA_CONVERT_HIP_PATH": emu_hip, "ZC_EMU_PROCESSOR": "gfx1030"}, 1,
         emu_hip_line + "  device 0: AMD Radeon RX 6900 XT (gfx1030)\n" + none_nv +
         "driver: hip (an AMD GPU comes first)\n%s: converted\n" % program +
         "  no code for AMD device 0 (gfx1030): convert it with --offload-arch=gfx1030\n"
         "does not run on a GPU here\n"),
    ]
    problems = []
    for what, args, env, want_rc, want in cases:
        rc, out = doctor(tool, *args, **env)
        if rc != want_rc or out != want:
            problems.append("doctor, %s: exit %d, said\n%s\nwant exit %d and\n%s" % (what, rc, out, want_rc, want))
    rc, out = doctor(tool, program, "--json", ZLUDA_CONVERT_CUDA_PATH=fake)
    try:
        doc = json.loads(out)
        ok = (rc == 0 and doc["driver"] == "cuda" and doc["runs_on_gpu"] is True and
              doc["nvidia"]["devices"] == [{"name": "Stand-in NVIDIA GPU", "processor": "sm_90"}] and
              doc["files"][0]["nvidia_devices_with_code"] == [True])
    except (ValueError, KeyError, IndexError):
        ok = False
    if not ok:
        problems.append("doctor --json with the NVIDIA stand-in: exit %d, %s" % (rc, out))
    return problems


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
    problems += check_doctor(tool, converted, fake, emu_hip)
    for problem in problems:
        print("FAIL", problem)
    if not problems:
        print("ok nvidia_path: NVIDIA's driver chosen and every call forwarded; host and HIP "
              "chosen when asked or found; no driver, the stub itself and a copy refused")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
