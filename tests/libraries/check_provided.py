"""The project's cuBLAS placed beside a converted program that loads NVIDIA's: exact
messages, what lands beside the output, reuse on the second conversion, --with-libraries
naming NVIDIA's library, and the converted program's GEMM on the CPU driver. The program is
plain C linked against stand-ins of NVIDIA's libcublas.so.13 and libcuda.so.1 of the same
names and symbol versions, so that no NVIDIA library is needed. Then the same program built
as CUDA 11.8's would be, against libcublas.so.11 and Debian's libcudart.so.11.0, when that
is installed: the project's libcublas.so.11 under CUDA 11's runtime.

usage: check_provided.py ZLUDA_CONVERT GCC CUDA_INCLUDE WORK_DIR [CUDART11]"""

import json
import os
import re
import shutil
import subprocess
import sys

PROGRAM = r"""
#include <stdio.h>
#include <cublas_v2.h>
#ifdef RUNTIME
#include <cuda_runtime_api.h>
typedef float *CUdeviceptr;
#define cuMemAlloc(p, size) cudaMalloc((void **)(p), size)
#define cuMemcpyHtoD(d, h, size) cudaMemcpy(d, h, size, cudaMemcpyHostToDevice)
#define cuMemcpyDtoH(h, d, size) cudaMemcpy(h, d, size, cudaMemcpyDeviceToHost)
#else
#include <cuda.h>
#endif
int main(void)
{
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, -1, 2, 0, 1, 3}, c[4] = {0};
    float one = 1, zero = 0;
    CUdeviceptr da, db, dc;
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return 2;
    cuMemAlloc(&da, sizeof a); cuMemAlloc(&db, sizeof b); cuMemAlloc(&dc, sizeof c);
    cuMemcpyHtoD(da, a, sizeof a); cuMemcpyHtoD(db, b, sizeof b);
    /* C (2x2) = A (2x3) B (3x2), column-major */
    if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &one, (float *)da, 2, (float *)db, 3,
                    &zero, (float *)dc, 2) != CUBLAS_STATUS_SUCCESS)
        return 3;
    cuMemcpyDtoH(c, dc, sizeof c);
    printf("%g %g %g %g\n", c[0], c[1], c[2], c[3]);
    return cublasDestroy(h) != CUBLAS_STATUS_SUCCESS;
}
"""


def run(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, p.stdout, re.sub(r" \(\d+\.\d s\)$", "", p.stderr, flags=re.M)


def stand_in(gcc, work, soname, functions, versioned=True):
    """A library of NVIDIA's name (and symbol version: cuBLAS has one, the driver none), with
    functions of the names given."""
    base = os.path.join(work, "nvidia", soname)
    with open(base + ".c", "w") as f:
        f.write("".join("int %s(void) { return 1; }\n" % fn for fn in functions))
    with open(base + ".map", "w") as f:
        f.write("%s { global: *; };\n" % soname)
    return [gcc, "-shared", "-fPIC", "-o", base, "-Wl,-soname," + soname, base + ".c"] + \
        (["-Wl,--version-script=" + base + ".map"] if versioned else [])


def build(cmds, work):
    for cmd in cmds:
        code, out, err = run(cmd, work)
        if code:
            sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), out, err))


BLAS = ("cublasCreate_v2", "cublasSgemm_v2", "cublasDestroy_v2")


def main():
    tool, gcc, include, work = sys.argv[1:5]
    cudart11 = sys.argv[5] if len(sys.argv) > 5 else None
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "nvidia"))
    with open(os.path.join(work, "program.c"), "w") as f:
        f.write(PROGRAM)
    nvidia = os.path.join(work, "nvidia")
    build([stand_in(gcc, work, "libcublas.so.13", BLAS),
           stand_in(gcc, work, "libcuda.so.1",
                    ("cuMemAlloc_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2"), versioned=False),
           [gcc, "-I" + include, "-o", "program", "program.c", "nvidia/libcublas.so.13",
            "nvidia/libcuda.so.1", "-Wl,-rpath," + nvidia]], work)
    program = os.path.join(work, "program")
    ours = os.path.realpath(os.path.join(os.path.dirname(tool), "..", "libraries",
                                         "libcublas.so.13"))
    problems = []

    def expect(what, cmd, want_err, want_rc=0):
        code, _, err = run(cmd, work)
        err = err.replace(ours, "OURS")
        if code != want_rc or err != want_err:
            problems.append("%s: exit %d (want %d), stderr:\n%s--- want:\n%s" %
                            (what, code, want_rc, err, want_err))

    convert = [tool, "program", "-o", "out/program", "--offload-arch=host"]
    os.makedirs(os.path.join(work, "out"))
    # the kernels the project's library declares, as inspect counts them
    _, listing, _ = run([tool, "inspect", "--json", ours], work)
    kernels = json.loads(listing)["totals"]["kernels"]
    expect("first conversion", convert,
           "program: warning: no fatbin in it: no GPU code to translate\n"
           "out/program: 0 modules, 0 kernels, 1 target, 0 failures\n"
           "out/libcublas.so.13: zluda-convert's own, for %s (NVIDIA's kernels ship as machine "
           "code only; --with-libraries=libcublas.so.13 converts NVIDIA's instead)\n"
           "out/libcublas.so.13: converting OURS (needed by %s)\n"
           "out/libcublas.so.13: 1 module, %d kernels, 1 target, 0 failures\n" %
           (program, program, kernels))
    beside = sorted(os.listdir(os.path.join(work, "out")))
    if beside != ["libcublas.so.13", "libcuda.so", "libcuda.so.1", "program"]:
        problems.append("beside the output: %s" % beside)
    expect("second conversion", convert + ["-q"], "")
    code, out, err = run([os.path.join(work, "out", "program")], work,
                         dict(os.environ, ZLUDA_CONVERT_DRIVER="host"))
    # A (2x3) = [1 3 5; 2 4 6], B (3x2) = [1 0; -1 1; 2 3], C in column order
    if code or out != "8 10 18 22\n":
        problems.append("converted program: exit %d, stdout %r, stderr %s" % (code, out, err))
    os.makedirs(os.path.join(work, "named"))
    expect("NVIDIA's named", [tool, "program", "-o", "named/program", "--offload-arch=host",
                              "--with-libraries=libcublas.so.13"],
           "program: warning: no fatbin in it: no GPU code to translate\n"
           "named/program: 0 modules, 0 kernels, 1 target, 0 failures\n"
           "zluda-convert: %s/nvidia/libcublas.so.13: carries no fatbins; nothing to convert\n"
           % work)
    if os.path.exists(os.path.join(work, "named", "libcublas.so.13")):
        problems.append("with NVIDIA's library named, the project's was placed all the same")
    if cudart11:
        # A CUDA 11.8 program: cuBLAS 11's symbol version, cudart 11 (shared) for memory.
        build([stand_in(gcc, work, "libcublas.so.11", BLAS),
               [gcc, "-DRUNTIME", "-I" + include, "-o", "program11", "program.c",
                "nvidia/libcublas.so.11", cudart11, "-Wl,-rpath," + nvidia]], work)
        os.makedirs(os.path.join(work, "out11"))
        code, _, err = run([tool, "program11", "-o", "out11/program11", "--offload-arch=host",
                            "-q"], work)
        beside = sorted(os.listdir(os.path.join(work, "out11")))
        if code or "libcublas.so.11" not in beside:
            problems.append("CUDA 11 program: exit %d, beside it %s, stderr %s" %
                            (code, beside, err))
        code, out, err = run([os.path.join(work, "out11", "program11")], work,
                             dict(os.environ, ZLUDA_CONVERT_DRIVER="host"))
        if code or out != "8 10 18 22\n":
            problems.append("converted CUDA 11 program: exit %d, stdout %r, stderr %s" %
                            (code, out, err))
    for p in problems:
        print("FAIL " + p)
    if problems:
        sys.exit(1)
    print("PASS")


main()
