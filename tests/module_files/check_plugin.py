#!/usr/bin/env python3
"""A plugin nobody converted (plugin.cu), opened with dlopen by a converted program
(plugin_host.cu): cudart registers the plugin's fatbin, and the driver translates it when
cudart first loads it, as it does code made at run time. With translation refused the launch
fails with cudaErrorJitCompilationDisabled, and with no tool the driver says the file was
not converted; translated, the program passes on the CPU driver, the driver saying once on
stderr which file it translates, and the cache holds the one converted fatbin; a second run
passes from the cache with translation refused and says nothing; through the HIP driver over
the emulated gfx1100 it is translated for gfx1100 and passes; `record` ships the plugin's
translation beside a copy of the program, which then passes on both drivers with
translation refused and nothing cached; the plugin converted ahead of time passes with
translation refused.

usage: check_plugin.py PROGRAM PLUGIN CONVERTED_PLUGIN TOOL EMULATOR_HIP CACHE_DIR
Prints "PASS" or the first failure, and exits 0 or 1."""
import os
import shutil
import subprocess
import sys

program, plugin, converted_plugin, tool, emulator_hip, cache = sys.argv[1:7]
notice = ("zluda-convert: translating the fatbins of {} for {} as they load (the file was "
          "not converted; converting it ahead of time saves this)\n")


def run(what, library, want_out, want_err, exe=program, **env_extra):
    env = dict(os.environ, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_CACHE_DIR=cache,
               ZLUDA_CONVERT_TRANSLATOR=tool)
    for name in ("ZLUDA_CONVERT_TRANSLATE", "ZLUDA_CONVERT_TRACE"):
        env.pop(name, None)
    env.update(env_extra)
    p = subprocess.run([exe, library], env=env, capture_output=True, text=True,
                       timeout=600)
    if p.stdout != want_out or (want_err is not None and want_err not in p.stderr):
        print(f"FAIL: {what}: exit {p.returncode}, output {p.stdout!r}, errors {p.stderr!r}; "
              f"want {want_out!r} and {want_err!r} among the errors")
        sys.exit(1)
    return p.stderr


def entries():
    return sorted(os.listdir(cache)) if os.path.isdir(cache) else []


shutil.rmtree(cache, ignore_errors=True)
run("translation refused", plugin, "FAIL: cudaErrorJitCompilationDisabled\n", "",
    ZLUDA_CONVERT_TRANSLATE="0")
run("no tool", plugin, "FAIL: cudaErrorNoKernelImageForDevice\n",
    f"{plugin}: not converted by zluda-convert (no AOT image), and no tool to translate it at "
    "run time; convert it (zluda-convert FILE -o FILE, placed where the program loads it)",
    ZLUDA_CONVERT_TRANSLATOR=os.path.join(cache, "no-such-tool"), ZLUDA_CONVERT_TRACE="1")
if entries():
    print(f"FAIL: failed loads left {entries()} in the cache")
    sys.exit(1)
errors = run("translated", plugin, "PASS\n", notice.format(plugin, "host"))
if errors.count("zluda-convert: translating") != 1:
    print(f"FAIL: translated: the notice more than once: {errors!r}")
    sys.exit(1)
if [name.rsplit("-", 1)[-1] for name in entries()] != ["host.fatbin"]:
    print(f"FAIL: the cache holds {entries()}, want one host.fatbin")
    sys.exit(1)
errors = run("from the cache", plugin, "PASS\n", "", ZLUDA_CONVERT_TRANSLATE="0")
if "translating" in errors:
    print(f"FAIL: from the cache: {errors!r}")
    sys.exit(1)
run("emulated gfx1100", plugin, "PASS\n", notice.format(plugin, "gfx1100"),
    ZLUDA_CONVERT_DRIVER="hip", ZLUDA_CONVERT_HIP_PATH=emulator_hip, ZC_EMU_PROCESSOR="gfx1100")

# Shipped: `record` runs a copy of the program, which translates the plugin as it goes, and
# leaves the translation for host and gfx1100 beside it; with translation refused and an
# empty cache the copy then passes on both drivers.
deployed = cache + "-deployed"
shutil.rmtree(deployed, ignore_errors=True)
os.makedirs(deployed)
for name in (os.path.basename(program), "libcuda.so.1"):
    shutil.copy(os.path.join(os.path.dirname(program), name), deployed)
copy = os.path.join(deployed, os.path.basename(program))
p = subprocess.run([tool, "record", "--offload-arch=host,gfx1100", "--", copy, plugin],
                   env=dict(os.environ, ZLUDA_CONVERT_DRIVER="host",
                            ZLUDA_CONVERT_CACHE_DIR=cache + "-record"),
                   capture_output=True, text=True, timeout=600)
shipped = os.path.join(deployed, "zluda-convert-runtime-code")
said = (f"zluda-convert: record: {copy} made 1 piece of GPU code while it ran; translated "
        f"for host,gfx1100 into {shipped}\n")
if p.returncode != 0 or p.stdout != "PASS\n" or not p.stderr.endswith(said):
    print(f"FAIL: record: exit {p.returncode}, {p.stdout!r}, {p.stderr!r}")
    sys.exit(1)
for what, driver in (("shipped, CPU driver", {}),
                     ("shipped, emulated gfx1100", dict(ZLUDA_CONVERT_DRIVER="hip",
                                                        ZLUDA_CONVERT_HIP_PATH=emulator_hip,
                                                        ZC_EMU_PROCESSOR="gfx1100"))):
    errors = run(what, plugin, "PASS\n", "", exe=copy, ZLUDA_CONVERT_TRANSLATE="0",
                 ZLUDA_CONVERT_CACHE_DIR=cache + "-empty", **driver)
    if "translating" in errors or os.path.exists(cache + "-empty"):
        print(f"FAIL: {what}: translated or cached: {errors!r}")
        sys.exit(1)
errors = run("converted ahead of time", converted_plugin, "PASS\n", "",
             ZLUDA_CONVERT_TRANSLATE="0", ZLUDA_CONVERT_CACHE_DIR=os.path.join(cache, "unused"))
if "translating" in errors:
    print(f"FAIL: converted ahead of time: {errors!r}")
    sys.exit(1)
print("PASS")
