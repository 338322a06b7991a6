"""A program using cuRAND's host API, converted --with-libraries so that NVIDIA's
libcurand.so.10 is converted beside it, then run.

usage: check_curand.py convert ZLUDA_CONVERT NVCC SOURCE WORK_DIR
       check_curand.py run WORK_DIR COUNT [NAME=VALUE ...]

convert builds the program with nvcc (-lcurand), converts it for gfx1100 and host and checks
the messages exactly; run runs the converted program with COUNT numbers per generator in the
environment given and checks that every comparison with cuRAND's host generators passed."""

import os
import re
import subprocess
import sys


def library_dir(nvcc):
    """Where the loader finds libcurand.so.10: its cache, else the toolkit's lib64 given
    through LD_LIBRARY_PATH. Returns (path the converter must name, extra environment)."""
    listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    found = re.search(r"^\s+libcurand\.so\.10 \(libc6,x86-64\) => (\S+)$", listing, re.M)
    if found:
        return found.group(1), {}
    lib64 = os.path.realpath(os.path.join(os.path.dirname(nvcc), "..", "lib64"))
    return os.path.join(lib64, "libcurand.so.10"), {"LD_LIBRARY_PATH": lib64}


def convert(tool, nvcc, source, work):
    os.makedirs(os.path.join(work, "out"), exist_ok=True)
    program = os.path.join(work, "curand_host_api")
    p = subprocess.run([nvcc, "-o", program, source, "-lcurand"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: nvcc\n" + p.stdout + p.stderr)
    library, extra = library_dir(nvcc)
    env = dict(os.environ, **extra)
    cmd = [tool, "curand_host_api", "-o", "out/curand_host_api", "--offload-arch=gfx1100,host",
           "--with-libraries"]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=work, env=env, timeout=1800)
    stderr = re.sub(r" \(\d+\.\d s\)$", "", p.stderr, flags=re.M)
    want = ("curand_host_api: fatbin 1: 1 kernel translated for 2 of 2 targets\n"
            "out/curand_host_api: 1 module, 1 kernel, 2 targets, 0 failures\n"
            "out/libcurand.so.10: converting %s (needed by %s)\n"
            "out/libcurand.so.10: 10 modules, 296 kernels, 2 targets, 0 failures\n"
            % (library, os.path.realpath(program)))
    if p.returncode != 0 or stderr != want:
        sys.exit("FAIL: %s: exit %d, stderr:\n%s\nexpected:\n%s"
                 % (" ".join(cmd), p.returncode, stderr, want))
    print("PASSED")


def run(work, count, assignments):
    env = dict(os.environ, **dict(a.split("=", 1) for a in assignments))
    p = subprocess.run([os.path.join(work, "out", "curand_host_api"), count],
                       capture_output=True, text=True, env=env, timeout=1800)
    lines = p.stdout.splitlines()
    results = [l for l in lines if l.split()[-1] in ("ok", "FAIL")]
    # 5 generators x 6 distributions, and the program's own kernel
    if p.returncode != 0 or len(results) != 31 or lines[-1] != "PASSED" or \
            any(l.split()[-1] != "ok" for l in results):
        sys.exit("FAIL: exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    print("PASSED")


if __name__ == "__main__":
    if sys.argv[1] == "convert":
        convert(*sys.argv[2:6])
    else:
        run(sys.argv[2], sys.argv[3], sys.argv[4:])
