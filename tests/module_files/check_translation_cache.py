#!/usr/bin/env python3
"""Module files nobody converted, translated when a converted program loads them, on the
CPU driver: with translation refused (ZLUDA_CONVERT_TRANSLATE=0) the load fails with
CUDA_ERROR_JIT_COMPILATION_DISABLED, and with no translator with
CUDA_ERROR_JIT_COMPILER_NOT_FOUND; translated, the program passes and the cache
(ZLUDA_CONVERT_CACHE_DIR) holds one converted module file per module; a later run passes
from the cache with translation refused (the tool there, keying the cache, but not run) and
rewrites nothing; a damaged entry is translated again; after a translation the cache is
trimmed to ZLUDA_CONVERT_CACHE_MAX, least recently used entries first, never touching files
that are no entries; processes filling an empty cache at once all pass and leave one whole
entry per module and no temporaries.

usage: check_translation_cache.py PROGRAM PTX FATBIN TOOL CACHE_DIR
Prints "PASS" or the first failure, and exits 0 or 1."""
import concurrent.futures
import os
import shutil
import subprocess
import sys

program, ptx, fatbin, tool, cache = sys.argv[1:6]


def run(**env_extra):
    env = dict(os.environ, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_CACHE_DIR=cache)
    env.pop("ZLUDA_CONVERT_TRANSLATE", None)
    env.update(env_extra)
    p = subprocess.run([program, ptx, fatbin], env=env, capture_output=True, text=True,
                       timeout=600)
    return p.returncode, p.stdout


def fail(what):
    print(f"FAIL: {what}")
    sys.exit(1)


def expect_pass(what, **env_extra):
    rc, out = run(**env_extra)
    if rc != 0 or out != "PASS\n":
        fail(f"{what}: exit {rc}, output {out!r}")


def expect_error(what, error, **env_extra):
    rc, out = run(**env_extra)
    if rc == 0 or error not in out:
        fail(f"{what}: exit {rc}, output {out!r}; want {error}")


def entries():
    return {name: os.stat(os.path.join(cache, name))
            for name in sorted(os.listdir(cache))} if os.path.isdir(cache) else {}


def expect_entries(what):
    names = sorted(entries())
    kinds = sorted(name.rsplit("-", 1)[-1] for name in names)
    if kinds != ["host.fatbin", "host.ptx"]:
        fail(f"{what}: the cache holds {names}, want one host.ptx and one host.fatbin")


shutil.rmtree(cache, ignore_errors=True)
expect_error("translation refused, empty cache", "CUDA_ERROR_JIT_COMPILATION_DISABLED",
             ZLUDA_CONVERT_TRANSLATE="0")
expect_error("no translator", "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
             ZLUDA_CONVERT_TRANSLATOR=os.path.join(cache, "no-such-tool"))
if entries():
    fail(f"failed loads left {sorted(entries())} in the cache")

expect_pass("translated", ZLUDA_CONVERT_TRANSLATOR=tool)
expect_entries("translated")
before = entries()
contents = {name: open(os.path.join(cache, name), "rb").read() for name in before}
expect_pass("from the cache, translation refused", ZLUDA_CONVERT_TRANSLATE="0",
            ZLUDA_CONVERT_TRANSLATOR=tool)
if {name: open(os.path.join(cache, name), "rb").read() for name in entries()} != contents:
    fail("a run from the cache rewrote it")

for name, st in before.items():
    with open(os.path.join(cache, name), "r+b") as f:
        f.truncate(st.st_size // 2)
expect_pass("damaged entries", ZLUDA_CONVERT_TRANSLATOR=tool)
expect_entries("damaged entries, translated again")
if {n: s.st_size for n, s in entries().items()} != {n: s.st_size for n, s in before.items()}:
    fail("the damaged entries were not written whole again")

# Trimmed to ZLUDA_CONVERT_CACHE_MAX (MiB) after a translation, least recently used first:
# two stale entries of more than 1 MiB each go, a file that is no entry stays.
for name in entries():
    os.unlink(os.path.join(cache, name))
stale = ["0123456789abcdef-host.ptx", "fedcba9876543210-gfx1100.fatbin"]
for age, name in enumerate(stale):
    with open(os.path.join(cache, name), "wb") as f:
        f.write(b"x" * (1100 << 10))
    os.utime(os.path.join(cache, name), (1e9 + age, 1e9 + age))
with open(os.path.join(cache, "notes.txt"), "wb") as f:
    f.write(b"y" * (2 << 20))
expect_pass("translated into a full cache", ZLUDA_CONVERT_TRANSLATOR=tool,
            ZLUDA_CONVERT_CACHE_MAX="1")
names = set(entries())
if names & set(stale) or "notes.txt" not in names:
    fail(f"trimmed to 1 MiB, the cache holds {sorted(names)}")
os.unlink(os.path.join(cache, "notes.txt"))
expect_entries("trimmed to 1 MiB")

shutil.rmtree(cache)
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
    results = list(pool.map(lambda _: run(ZLUDA_CONVERT_TRANSLATOR=tool), range(4)))
for rc, out in results:
    if rc != 0 or out != "PASS\n":
        fail(f"4 processes at once: exit {rc}, output {out!r}")
expect_entries("4 processes at once")
print("PASS")
