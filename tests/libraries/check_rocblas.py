#!/usr/bin/env python3
"""cuBLAS's AMD engine, run as a user's converted program runs on an AMD GPU with ROCm.

Usage: check_rocblas.py PROGRAM STANDIN EMULATOR_HIP

PROGRAM is tests/programs' converted cublas_routines (the project's libcublas beside it),
STANDIN the stand-in for rocBLAS (rocblas_standin.c) and EMULATOR_HIP the emulator's HIP
runtime. Through the HIP driver over the emulated gfx1100:

  * with ZLUDA_CONVERT_ROCBLAS_PATH naming the stand-in, the program passes; every routine
    the program calls that the engine maps reached the stand-in (its call log), and the
    gemmEx combination rocBLAS lacks (8-bit inputs, float output) was declined by it and
    ran on the project's kernels, as the trace says;
  * with ZLUDA_CONVERT_ROCBLAS_PATH naming a missing file, the trace says so and the
    program passes on the project's kernels alone, calling nothing of rocBLAS.
"""
import os
import subprocess
import sys
import tempfile

# The rocBLAS functions cublas_routines reaches through the engine's mapping.
EXPECTED = {
    "rocblas_" + name for name in [
        "sgemm", "dgemm", "cgemm", "zgemm", "hgemm",
        "sgemm_batched",
        "sgemm_strided_batched", "dgemm_strided_batched", "cgemm_strided_batched",
        "zgemm_strided_batched", "hgemm_strided_batched",
        "gemm_ex", "gemm_batched_ex", "gemm_strided_batched_ex",
        "strsm", "dtrsm", "ctrsm", "ztrsm", "strsm_batched",
        "strmm", "dtrmm", "ctrmm", "ztrmm",
        "ssyrk", "dsyrk", "csyrk", "zsyrk", "cherk", "zherk",
        "ssyr2k", "dsyr2k", "csyr2k", "zsyr2k",
        "ssymm", "dsymm", "csymm", "zsymm", "chemm", "zhemm",
        "sgeam", "dgeam", "cgeam", "zgeam",
        "sdgmm", "ddgmm", "cdgmm", "zdgmm",
        "sgemv", "dgemv", "cgemv", "zgemv",
    ]
}
DECLINED = ("zluda-convert: cuBLAS: cublasGemmEx: rocBLAS has no implementation for these "
            "arguments (status 2): the project's kernels run it")


def run(program, env, log):
    run_env = dict(os.environ, ZLUDA_CONVERT_DRIVER="hip", ZC_EMU_PROCESSOR="gfx1100",
                   ZLUDA_CONVERT_TRACE="1", ZC_ROCBLAS_STANDIN_LOG=log, **env)
    p = subprocess.run([program], env=run_env, capture_output=True, text=True, timeout=500)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or not lines or lines[-1] != "PASS":
        failures = [l for l in lines if l.startswith("FAIL")][:20]
        sys.exit(f"FAIL: exit {p.returncode}\n" + "\n".join(failures))
    engine = [l for l in p.stderr.splitlines() if "rocBLAS" in l]
    calls = set()
    if os.path.exists(log):
        with open(log) as f:
            calls = set(f.read().split())
    return engine, calls


def main():
    program, standin, emulator = sys.argv[1:4]
    hip = {"ZLUDA_CONVERT_HIP_PATH": emulator}
    failed = False
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "calls")
        engine, calls = run(program, dict(hip, ZLUDA_CONVERT_ROCBLAS_PATH=standin), log)
        want = f"zluda-convert: cuBLAS: rocBLAS: {standin} takes 60 routines"
        if want not in engine:
            print(f"FAIL: the trace lacks '{want}':\n" + "\n".join(engine))
            failed = True
        if DECLINED not in engine:
            print(f"FAIL: the trace lacks '{DECLINED}'")
            failed = True
        missing = sorted(EXPECTED - calls)
        if missing:
            print("FAIL: rocBLAS never served " + ", ".join(missing))
            failed = True
        print(f"with the stand-in: PASS, {len(calls)} rocBLAS functions called")

        log = os.path.join(work, "calls-none")
        missing_lib = os.path.join(work, "librocblas.so.5")
        engine, calls = run(program, dict(hip, ZLUDA_CONVERT_ROCBLAS_PATH=missing_lib), log)
        if not any(l.startswith(f"zluda-convert: cuBLAS: rocBLAS: cannot load {missing_lib} (")
                   and l.endswith("the project's kernels run every routine") for l in engine):
            print("FAIL: no trace of the missing rocBLAS:\n" + "\n".join(engine))
            failed = True
        if calls:
            print("FAIL: rocBLAS was called without being loaded: " + ", ".join(sorted(calls)))
            failed = True
        print("without rocBLAS: PASS on the project's kernels")
    if failed:
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
