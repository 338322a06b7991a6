#!/usr/bin/env python3
"""The AMD engines of the project's cuBLAS, cuBLASLt and cuFFT, run as a user's converted
program runs on an AMD GPU with ROCm's libraries installed.

Usage: check_amd_engines.py rocblas|hipblaslt|hipfft PROGRAM STANDIN EMULATOR_HIP

PROGRAM is tests/programs' converted cublas_routines, cublaslt_matmul or cufft_plans (the
project's library beside it), STANDIN the stand-in for rocBLAS, hipBLASLt or hipFFT written
from its documented API (rocblas_standin.c, hipblaslt_standin.c, hipfft_standin.c),
EMULATOR_HIP the emulator's HIP runtime. Through the HIP driver over the emulated gfx1100:

  * with the stand-in named (ZLUDA_CONVERT_ROCBLAS_PATH, ZLUDA_CONVERT_HIPBLASLT_PATH,
    ZLUDA_CONVERT_HIPFFT_PATH), the program passes, the stand-in's log shows it served what
    the engine maps, and what the stand-in declines ran on the project's kernels, as the
    trace says: for rocBLAS the gemmEx combination it lacks (8-bit inputs, float output),
    for hipBLASLt the gradient epilogues, for hipFFT plans of rank 3;
  * with the variable naming a missing file, the trace says so and the program passes on
    the project's kernels alone, the stand-in's log empty.
"""
import os
import subprocess
import sys
import tempfile

# The rocBLAS functions cublas_routines reaches through the engine's mapping.
ROCBLAS_CALLS = {
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
        "ssyrkx", "dsyrkx", "csyrkx", "zsyrkx", "cherkx", "zherkx", "cher2k", "zher2k",
        "ssymm", "dsymm", "csymm", "zsymm", "chemm", "zhemm",
        "sgeam", "dgeam", "cgeam", "zgeam",
        "sdgmm", "ddgmm", "cdgmm", "zdgmm",
        "sgemv", "dgemv", "cgemv", "zgemv",
    ]
}
# What cufft_plans makes and runs through hipFFT: plans of ranks 1 and 2, every type.
HIPFFT_CALLS = {"plan rank 1 batch 1", "plan rank 2 batch 1", "refused rank 3 (batch 1)"} | {
    f"exec rank 1 type {t:#x}" for t in (0x29, 0x2a, 0x2c, 0x69)} | {
    f"exec rank 2 type {t:#x}" for t in (0x29, 0x2a, 0x2c, 0x6a, 0x6c)}

# What cublaslt_matmul runs through hipBLASLt: column-order matmuls of f32, f16 and bf16
# with the forward epilogues (type, epilogue as cuBLASLt numbers them).
HIPBLASLT_CALLS = {
    "matmul type 0 epilogue 1", "matmul type 0 epilogue 2", "matmul type 0 epilogue 4",
    "matmul type 0 epilogue 32", "matmul type 0 epilogue 36", "matmul type 0 epilogue 164",
    "matmul type 0 epilogue 160 batched", "matmul type 2 epilogue 1",
    "matmul type 2 epilogue 1 batched", "matmul type 2 epilogue 6", "matmul type 2 epilogue 36",
    "matmul type 14 epilogue 1", "matmul type 14 epilogue 4",
}

ENGINES = {
    # variable, log variable, trace of the stand-in taken, of what it declines, of no library
    "rocblas": ("ZLUDA_CONVERT_ROCBLAS_PATH", "ZC_ROCBLAS_STANDIN_LOG",
                "zluda-convert: cuBLAS: rocBLAS: {lib} takes 68 routines",
                "zluda-convert: cuBLAS: cublasGemmEx: rocBLAS has no implementation for these "
                "arguments (status 2): the project's kernels run it",
                "zluda-convert: cuBLAS: rocBLAS: cannot load {lib} (",
                "the project's kernels run every routine", ROCBLAS_CALLS),
    "hipblaslt": ("ZLUDA_CONVERT_HIPBLASLT_PATH", "ZC_HIPBLASLT_STANDIN_LOG",
                  "zluda-convert: cuBLASLt: hipBLASLt: {lib} runs the matmuls it can",
                  "zluda-convert: cuBLASLt: cublasLtMatmul: hipBLASLt has no algorithm for "
                  "these arguments (status 0): the project's kernels run it",
                  "zluda-convert: cuBLASLt: hipBLASLt: cannot load {lib} (",
                  "the project's kernels run every matmul", HIPBLASLT_CALLS),
    "hipfft": ("ZLUDA_CONVERT_HIPFFT_PATH", "ZC_HIPFFT_STANDIN_LOG",
               "zluda-convert: cuFFT: hipFFT: {lib} makes the plans it can",
               "zluda-convert: cuFFT: cufftMakePlanMany: hipFFT refuses the plan (status 14): "
               "the project's kernels make it",
               "zluda-convert: cuFFT: hipFFT: cannot load {lib} (",
               "the project's kernels make every plan", HIPFFT_CALLS),
}


def run(program, env, log):
    run_env = dict(os.environ, ZLUDA_CONVERT_DRIVER="hip", ZC_EMU_PROCESSOR="gfx1100",
                   ZLUDA_CONVERT_TRACE="1", **env)
    p = subprocess.run([program], env=run_env, capture_output=True, text=True, timeout=500)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or not lines or lines[-1] != "PASS":
        failures = [l for l in lines if l.startswith("FAIL")][:20]
        sys.exit(f"FAIL: exit {p.returncode}\n" + "\n".join(failures))
    calls = set()
    if os.path.exists(log):
        with open(log) as f:
            calls = set(f.read().splitlines())
    return p.stderr.splitlines(), calls


def main():
    engine, program, standin, emulator = sys.argv[1:5]
    variable, log_variable, taken, declined, missing, missing_end, expected = ENGINES[engine]
    failed = []
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "calls")
        env = {"ZLUDA_CONVERT_HIP_PATH": emulator, log_variable: log, variable: standin}
        trace, calls = run(program, env, log)
        for line in (taken.format(lib=standin), declined):
            if line not in trace:
                failed.append(f"the trace lacks '{line}'")
        if expected - calls:
            failed.append("the stand-in never served " + ", ".join(sorted(expected - calls)))
        print(f"with the stand-in: PASS, {len(calls)} kinds of call served")

        log = os.path.join(work, "calls-none")
        absent = os.path.join(work, "absent.so")
        env.update({log_variable: log, variable: absent})
        trace, calls = run(program, env, log)
        start = missing.format(lib=absent)
        if not any(l.startswith(start) and l.endswith(missing_end) for l in trace):
            failed.append(f"no trace '{start}...{missing_end}'")
        if calls:
            failed.append("the stand-in served calls without being loaded")
        print("without the library: PASS on the project's kernels")
    for f in failed:
        print("FAIL: " + f)
    if failed:
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
