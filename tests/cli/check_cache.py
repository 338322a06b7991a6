#!/usr/bin/env python3
"""The cache of compiled modules, as a user of it sees it.

Usage: check_cache.py TOOL

Converts PTX files (module files, so that each is one module) for host and gfx1100 into
caches of the test's own and checks: a second conversion takes both code objects from the
cache and writes the same bytes as the first and as one with --no-cache (which reads and
keeps nothing); the report says `cached` per target; a damaged or truncated entry is
compiled again and replaced; a changed module misses; ZLUDA_CONVERT_CACHE_DIR and
XDG_CACHE_HOME choose the folder when --cache-dir does not, one that cannot be made is a
warning and the conversion goes on; an entry left past ZLUDA_CONVERT_CACHE_MAX goes, a file
of the user's in the folder stays; --save-temps compiles; with two AMDGPU targets, whose
middle end is shared, either one's entry alone gives the same bytes; a tree's conversions share the
cache; four conversions at once into an empty cache all write the same bytes and leave no
temporary.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
from checks import check as check_one, summary  # noqa: E402


def check(ok, what, detail=None):
    check_one(ok, what)
    if not ok and detail is not None:
        print(f"  saw: {detail!r}")

TARGETS = "--offload-arch=host,gfx1100"
ENTRY = re.compile(r"^[0-9a-f]{32}-(host|gfx1100)\.co$")


def module(kernels, scale="0f3f800000"):
    lines = [".version 8.0", ".target sm_80", ".address_size 64"]
    for k in range(kernels):
        lines += [f".visible .entry k{k}(.param .u64 p, .param .f32 a)", "{", ".reg .b64 %rd<4>;",
                  ".reg .f32 %f<6>;", ".reg .b32 %r<2>;", "ld.param.u64 %rd1, [p];", "ld.param.f32 %f1, [a];",
                  "mov.u32 %r1, %tid.x;", "mul.wide.u32 %rd2, %r1, 4;", "add.s64 %rd3, %rd1, %rd2;",
                  "ld.global.f32 %f2, [%rd3];", f"fma.rn.f32 %f3, %f2, %f1, {scale};",
                  "st.global.f32 [%rd3], %f3;", "ret;", "}"]
    return "\n".join(lines) + "\n"


class Tool:
    def __init__(self, path, work):
        self.path, self.work = path, work
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("ZLUDA_CONVERT_CACHE_DIR", "ZLUDA_CONVERT_CACHE_MAX", "XDG_CACHE_HOME")}
        self.env["HOME"] = os.path.join(work, "home")

    def convert(self, ptx, out, *options, env=None):
        targets = [] if any(o.startswith("--offload-arch") for o in options) else [TARGETS]
        result = subprocess.run([self.path, ptx, "-o", os.path.join(self.work, out), *targets, "-v", *options],
                                capture_output=True, text=True, env=dict(self.env, **(env or {})))
        return result.returncode, result.stderr

    def output(self, out):
        with open(os.path.join(self.work, out), "rb") as f:
            return f.read()


def entries(folder):
    modules = os.path.join(folder, "modules")
    return sorted(os.listdir(modules)) if os.path.isdir(modules) else []


def cache_line(ptx, hits, of, root):
    return f"{ptx}: {hits} of {of} module code objects from the cache ({root})\n"


def main():
    tool_path = sys.argv[1]
    work = tempfile.mkdtemp(prefix="zc-cache-")
    try:
        tool = Tool(tool_path, work)
        a, b = os.path.join(work, "a.ptx"), os.path.join(work, "b.ptx")
        with open(a, "w") as f:
            f.write(module(3))
        with open(b, "w") as f:
            f.write(module(3, "0f40000000"))
        cache = os.path.join(work, "c")
        opt = "--cache-dir=" + cache

        status, err = tool.convert(a, "a1", opt)
        check(status == 0 and cache_line(a, 0, 2, cache) in err, "a first conversion compiles both", err)
        made = entries(cache)
        check(len(made) == 2 and all(ENTRY.match(e) for e in made), "it keeps an entry per target", made)

        status, err = tool.convert(a, "a2", opt, "--report=" + os.path.join(work, "a2.json"))
        check(status == 0 and cache_line(a, 2, 2, cache) in err, "a second conversion takes both from the cache", err)
        check(tool.output("a1") == tool.output("a2"), "the same bytes from the cache")
        with open(os.path.join(work, "a2.json")) as f:
            results = json.load(f)["modules"][0]["results"]
        check([results[t]["cached"] for t in ("host", "gfx1100")] == [True, True], "the report says cached", results)

        status, err = tool.convert(a, "a3", "--no-cache")
        check(status == 0 and "from the cache" not in err and tool.output("a3") == tool.output("a1"),
              "--no-cache: the same bytes, no cache line", err)
        check(entries(cache) == made and not os.path.exists(os.path.join(work, "home", ".cache")),
              "--no-cache reads and keeps nothing")

        gfx = os.path.join(cache, "modules", next(e for e in made if e.endswith("-gfx1100.co")))
        host = os.path.join(cache, "modules", next(e for e in made if e.endswith("-host.co")))
        whole = open(gfx, "rb").read()
        with open(gfx, "r+b") as f:
            f.seek(len(whole) - 1)
            f.write(bytes([whole[-1] ^ 0xFF]))
        with open(host, "r+b") as f:
            f.truncate(os.path.getsize(host) // 2)
        status, err = tool.convert(a, "a4", opt)
        check(status == 0 and cache_line(a, 0, 2, cache) in err and tool.output("a4") == tool.output("a1"),
              "damaged and truncated entries are compiled again", err)
        status, err = tool.convert(a, "a5", opt)
        check(status == 0 and cache_line(a, 2, 2, cache) in err and open(gfx, "rb").read() == whole,
              "and replaced", err)

        status, err = tool.convert(b, "b1", opt)
        check(status == 0 and cache_line(b, 0, 2, cache) in err and len(entries(cache)) == 4,
              "a changed module misses", err)

        variable = os.path.join(work, "v")
        status, err = tool.convert(a, "a6", env={"ZLUDA_CONVERT_CACHE_DIR": variable})
        check(status == 0 and cache_line(a, 0, 2, variable) in err and len(entries(variable)) == 2,
              "ZLUDA_CONVERT_CACHE_DIR chooses the folder", err)
        xdg = os.path.join(work, "xdg")
        status, err = tool.convert(a, "a7", env={"XDG_CACHE_HOME": xdg})
        check(status == 0 and len(entries(os.path.join(xdg, "zluda-convert"))) == 2,
              "else XDG_CACHE_HOME/zluda-convert", err)
        status, err = tool.convert(a, "a8", env={"ZLUDA_CONVERT_CACHE_DIR": os.path.join(a, "c")})
        check(status == 0 and err.startswith(
            f"zluda-convert: warning: ZLUDA_CONVERT_CACHE_DIR={a}/c: Not a directory; compiling without "
            "the cache\n") and tool.output("a8") == tool.output("a1"),
            "a variable's folder that cannot be made is a warning", err)

        stale = os.path.join(cache, "modules", "0123456789abcdef0123456789abcdef-gfx1100.co")
        users = os.path.join(cache, "modules", "notes.txt")
        for path in (stale, users):
            with open(path, "wb") as f:
                f.write(b"x" * (2 << 20))
            os.utime(path, (1, 1))
        status, err = tool.convert(b, "b2", opt, env={"ZLUDA_CONVERT_CACHE_MAX": "1"})
        check(status == 0 and not os.path.exists(stale) and os.path.exists(users),
              "past ZLUDA_CONVERT_CACHE_MAX the oldest entry goes, the user's file stays", entries(cache))

        status, err = tool.convert(a, "a9", opt, "--save-temps=" + os.path.join(work, "temps"))
        check(status == 0 and cache_line(a, 0, 2, cache) in err, "--save-temps compiles", err)

        # the first AMDGPU target optimises for the others (the shared middle end): with the
        # entry of only one of them in the cache, the other is made as before
        shared = os.path.join(work, "s")
        gfx = ["--offload-arch=gfx1030,gfx1100", "--cache-dir=" + shared]
        status, err = tool.convert(a, "s1", *gfx)
        for gone, kept in (("gfx1100", "gfx1030"), ("gfx1030", "gfx1100")):
            for entry in entries(shared):
                if entry.endswith(f"-{gone}.co"):
                    os.unlink(os.path.join(shared, "modules", entry))
            report = os.path.join(work, f"s-{gone}.json")
            status, err = tool.convert(a, f"s-{gone}", *gfx, "--report=" + report)
            with open(report) as f:
                results = json.load(f)["modules"][0]["results"]
            check(status == 0 and cache_line(a, 1, 2, shared) in err and results[kept]["cached"] and
                  not results[gone]["cached"] and tool.output(f"s-{gone}") == tool.output("s1"),
                  f"{gone}'s entry gone, {kept}'s kept: the same bytes", (err, results))
        status, err = tool.convert(a, "s-both", *gfx)
        check(status == 0 and cache_line(a, 2, 2, shared) in err and tool.output("s-both") == tool.output("s1"),
              "both entries: the same bytes", err)

        tree, tree_cache = os.path.join(work, "tree"), os.path.join(work, "t")
        os.mkdir(tree)
        shutil.copy(a, os.path.join(tree, "a.ptx"))
        shutil.copy(b, os.path.join(tree, "b.ptx"))
        result = subprocess.run([tool_path, tree, "-o", os.path.join(work, "tree-out"), TARGETS, "-q", "-j2",
                                 "--cache-dir=" + tree_cache], capture_output=True, text=True, env=tool.env)
        check(result.returncode == 0 and len(entries(tree_cache)) == 4, "a tree's conversions share the cache",
              result.stderr)

        together = os.path.join(work, "together")
        runs = [subprocess.Popen([tool_path, a, "-o", os.path.join(work, f"t{i}"), TARGETS, "-q",
                                  "--cache-dir=" + together], env=tool.env) for i in range(4)]
        check(all(r.wait() == 0 for r in runs) and
              all(tool.output(f"t{i}") == tool.output("a1") for i in range(4)) and
              len(entries(together)) == 2, "four conversions at once", entries(together))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summary("check_cache")


sys.exit(main())
