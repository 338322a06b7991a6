#!/usr/bin/env python3
"""Converted programs that make their kernels while they run (NVRTC, cuLink, nvJitLink,
libNVVM), set up to compile nothing where they are deployed: `zluda-convert record` runs a
copy of each on the CPU driver and ships what it made, translated for host, gfx1030, gfx1100
and gfx1200, in zluda-convert-runtime-code/ beside it; doctor says so; then, with
translation forbidden (ZLUDA_CONVERT_TRANSLATE=0) and no tool to be found, each passes on
the CPU driver and on each emulated processor, and leaves no cache.

usage: check_shipped.py TOOL EMULATOR_HIP_RUNTIME CONVERTED_PROGRAM...
Prints "PASS" or the first failure, and exits 0 or 1."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

tool, emulator, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
TARGETS = "host,gfx1030,gfx1100,gfx1200"


def fail(what):
    print(f"FAIL: {what}")
    sys.exit(1)


def check(program, work, env):
    deployed = os.path.join(work, os.path.basename(program))
    shutil.copytree(os.path.dirname(program), deployed, symlinks=True)
    exe = os.path.join(deployed, os.path.basename(program))
    shipped = os.path.join(deployed, "zluda-convert-runtime-code")
    shutil.rmtree(shipped, ignore_errors=True)
    cache = os.path.join(work, "cache")

    p = subprocess.run([tool, "record", "--offload-arch=" + TARGETS, "--", exe],
                       env=dict(env, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_CACHE_DIR=cache),
                       capture_output=True, text=True, timeout=1200)
    said = re.fullmatch(r"zluda-convert: record: (.*) made (\d+) pieces? of GPU code while it "
                        r"ran; translated for (.*) into (.*)\n", p.stderr)
    if p.returncode != 0 or p.stdout != "PASS\n" or not said or \
            said.group(1, 3, 4) != (exe, TARGETS, shipped):
        fail(f"record {exe}: exit {p.returncode}, {p.stdout!r}, {p.stderr!r}")
    made = int(said.group(2))
    names = sorted(os.listdir(shipped))
    if made == 0 or len(names) != made or \
            not all(re.fullmatch(r"[0-9a-f]{16}\.(ptx|fatbin)", n) for n in names):
        fail(f"record {exe} said {made} pieces and shipped {names}")

    p = subprocess.run([tool, "doctor", "--json", exe], env=dict(env, ZLUDA_CONVERT_TRANSLATE="0"),
                       capture_output=True, text=True, timeout=60)
    doctor = json.loads(p.stdout).get("code_made_at_run_time") if p.stdout else None
    if doctor != {"shipped": made, "translated": False}:
        fail(f"doctor --json {exe} says of the code made at run time: {doctor!r}")

    shutil.rmtree(cache)
    deployment = dict(env, ZLUDA_CONVERT_TRANSLATE="0", ZLUDA_CONVERT_CACHE_DIR=cache,
                      ZLUDA_CONVERT_TRANSLATOR=os.path.join(work, "no-tool"))
    for target in TARGETS.split(","):
        extra = {"ZLUDA_CONVERT_DRIVER": "host"} if target == "host" else \
            {"ZLUDA_CONVERT_DRIVER": "hip", "ZLUDA_CONVERT_HIP_PATH": emulator,
             "ZC_EMU_PROCESSOR": target}
        p = subprocess.run([exe], env=dict(deployment, **extra), capture_output=True, text=True,
                           timeout=600)
        if p.returncode != 0 or p.stdout != "PASS\n":
            fail(f"{exe} shipped, on {target}: exit {p.returncode}, "
                 f"{(p.stdout + p.stderr)[-500:]!r}")
    if os.path.exists(cache):
        fail(f"{exe}, with its code shipped, made a cache: {os.listdir(cache)}")


work = tempfile.mkdtemp(prefix="zc-shipped-")
try:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ZLUDA_CONVERT_", "ZC_EMU_"))}
    for program in programs:
        check(program, work, env)
    print("PASS")
finally:
    shutil.rmtree(work, ignore_errors=True)
