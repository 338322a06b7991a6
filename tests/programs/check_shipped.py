#!/usr/bin/env python3
"""A converted program that makes its kernels while it runs (NVRTC), set up to compile
nothing where it is deployed: `zluda-convert record` runs a copy of it on the CPU driver and
ships what it made, translated for host and gfx1100, in zluda-convert-runtime-code/ beside
it; then, with translation forbidden (ZLUDA_CONVERT_TRANSLATE=0) and no tool to be found,
the program passes on the CPU driver and on the emulated gfx1100 and leaves no cache; doctor
says so.

usage: check_shipped.py TOOL CONVERTED_PROGRAM EMULATOR_HIP_RUNTIME
Prints "PASS" or the first failure, and exits 0 or 1."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

tool, program, emulator = sys.argv[1:4]


def fail(what):
    print(f"FAIL: {what}")
    sys.exit(1)


work = tempfile.mkdtemp(prefix="zc-shipped-")
try:
    deployed = os.path.join(work, "app")
    shutil.copytree(os.path.dirname(program), deployed, symlinks=True)
    exe = os.path.join(deployed, os.path.basename(program))
    shutil.rmtree(os.path.join(deployed, "zluda-convert-runtime-code"), ignore_errors=True)
    cache = os.path.join(work, "cache")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ZLUDA_CONVERT_", "ZC_EMU_"))}

    p = subprocess.run([tool, "record", "--offload-arch=host,gfx1100", "--", exe],
                       env=dict(env, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_CACHE_DIR=cache),
                       capture_output=True, text=True, timeout=600)
    shipped = os.path.join(deployed, "zluda-convert-runtime-code")
    want = (f"zluda-convert: record: {exe} made 3 pieces of GPU code while it ran; translated "
            f"for host,gfx1100 into {shipped}\n")
    if p.returncode != 0 or p.stdout != "PASS\n" or p.stderr != want:
        fail(f"record: exit {p.returncode}, {p.stdout!r}, {p.stderr!r}; want {want!r}")
    names = sorted(os.listdir(shipped))
    if len(names) != 3 or not all(n.endswith(".ptx") and len(n) == 20 for n in names):
        fail(f"record shipped {names}")

    p = subprocess.run([tool, "doctor", "--json", exe], env=dict(env, ZLUDA_CONVERT_TRANSLATE="0"),
                       capture_output=True, text=True, timeout=60)
    said = json.loads(p.stdout).get("code_made_at_run_time") if p.stdout else None
    if said != {"shipped": 3, "translated": False}:
        fail(f"doctor --json says of the code made at run time: {said!r}")

    shutil.rmtree(cache)
    deployment = dict(env, ZLUDA_CONVERT_TRANSLATE="0", ZLUDA_CONVERT_CACHE_DIR=cache,
                      ZLUDA_CONVERT_TRANSLATOR=os.path.join(work, "no-tool"))
    for where, extra in [("the CPU driver", {"ZLUDA_CONVERT_DRIVER": "host"}),
                         ("emulated gfx1100", {"ZLUDA_CONVERT_DRIVER": "hip",
                                               "ZLUDA_CONVERT_HIP_PATH": emulator,
                                               "ZC_EMU_PROCESSOR": "gfx1100"})]:
        p = subprocess.run([exe], env=dict(deployment, **extra), capture_output=True, text=True,
                           timeout=600)
        if p.returncode != 0 or p.stdout != "PASS\n":
            fail(f"shipped, on {where}: exit {p.returncode}, {(p.stdout + p.stderr)[-500:]!r}")
    if os.path.exists(cache):
        fail(f"a deployment with its code shipped made a cache: {os.listdir(cache)}")
    print("PASS")
finally:
    shutil.rmtree(work, ignore_errors=True)
