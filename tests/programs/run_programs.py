#!/usr/bin/env python3
"""Build, optionally convert, and run the self-checking CUDA programs.

Usage:
  run_programs.py BUILD_DIR [-j N] [--only REGEX] [--nvcc PATH] [--nvcc-flags FLAGS]
                  [--convert TEMPLATE] [--check TEMPLATE] [--timeout S]

Each program listed in programs.txt is built with nvcc into BUILD_DIR/<name>/
(rebuilt only when its sources, the shared header, its flags or the nvcc path
changed). Then, for each program:
  * with --convert, the template (e.g.
    "zluda-convert {in} -o {out} --offload-arch=gfx1030,gfx1100,gfx1200,host")
    is run once per built binary (the shared library of a library pair too),
    writing into BUILD_DIR/<name>/converted/; --check, if given, is run on
    every converted file ({out}) and must exit 0;
  * without --convert, the nvcc binary itself is run (needs an NVIDIA GPU);
  * with --converted, nothing is built or converted: the converted binaries an
    earlier --convert run left in BUILD_DIR/<name>/converted/ are run, and known
    gaps may name a program as NAME or NAME@TAG, where TAG is --gap-tag;
  * every run gets the environment --env adds (the emulator's HIP runtime, say).
A program passes when it exits 0, its last stdout line is exactly "PASS", and,
when tests/programs/<name>.expected exists, its whole stdout equals that file.

Prints "ok NAME" or "FAIL NAME: reason" per program, then "N passed, N failed";
exits 1 if anything failed.
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_NVCC = "/usr/local/cuda/bin/nvcc"
SHARED_HEADERS = ["test_util.h"]


class Program:
    def __init__(self, name, kind, lib_sources, sources, flags, expected, tags, env):
        self.name = name
        self.kind = kind              # exe | rdc | shlib
        self.lib_sources = lib_sources  # shlib only: sources of lib<name>.so
        self.sources = sources          # sources of the executable
        self.flags = flags
        self.expected = expected        # path or None
        self.tags = tags
        self.env = env                  # NAME=VALUE pairs every run of it gets


def parse_manifest(path):
    """programs.txt: `name | kind | sources | nvcc flags | expected | tags [| env]`.

    For kind shlib, sources are `LIB_SOURCES ; MAIN_SOURCES`: the first group
    becomes lib<name>.so, the second the executable linked against it.
    """
    programs = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) not in (6, 7):
                sys.exit(f"{path}:{lineno}: expected 6 or 7 '|'-separated fields")
            name, kind, srcs, flags, expected, tags = fields[:6]
            env = dict(item.partition("=")[::2] for item in shlex.split(fields[6])) if len(fields) == 7 else {}
            if kind not in ("exe", "rdc", "shlib"):
                sys.exit(f"{path}:{lineno}: unknown kind {kind!r}")
            lib_sources = []
            if kind == "shlib":
                lib_part, _, main_part = srcs.partition(";")
                lib_sources = lib_part.split()
                sources = main_part.split()
                if not lib_sources or not sources:
                    sys.exit(f"{path}:{lineno}: shlib needs 'LIB ; MAIN' sources")
            else:
                sources = srcs.split()
            exp = None if expected in ("", "-") else os.path.join(HERE, expected)
            programs.append(Program(name, kind, lib_sources, sources,
                                    shlex.split(flags), exp,
                                    [t for t in tags.split(",") if t], env))
    return programs


def digest(prog, nvcc):
    h = hashlib.sha256()
    h.update(nvcc.encode())
    h.update(repr((prog.kind, prog.lib_sources, prog.sources, prog.flags)).encode())
    for rel in prog.lib_sources + prog.sources + SHARED_HEADERS:
        with open(os.path.join(HERE, rel), "rb") as f:
            h.update(rel.encode())
            h.update(f.read())
    # Headers inside a program's own folder (multi-file programs).
    for rel in prog.lib_sources + prog.sources:
        d = os.path.dirname(rel)
        if d:
            for fn in sorted(os.listdir(os.path.join(HERE, d))):
                if fn.endswith((".h", ".cuh")):
                    with open(os.path.join(HERE, d, fn), "rb") as f:
                        h.update(fn.encode())
                        h.update(f.read())
    return h.hexdigest()


def run_cmd(cmd, cwd=None, timeout=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout"
    return p.returncode, p.stdout, p.stderr


def build(prog, build_dir, nvcc):
    """Returns (list of built files, main executable, error or None)."""
    out_dir = os.path.join(build_dir, prog.name)
    os.makedirs(out_dir, exist_ok=True)
    exe = os.path.join(out_dir, prog.name)
    lib = os.path.join(out_dir, f"lib{prog.name}.so")
    products = ([lib] if prog.kind == "shlib" else []) + [exe]
    stamp = os.path.join(out_dir, "build.stamp")
    want = digest(prog, nvcc)
    if os.path.exists(stamp) and all(os.path.exists(p) for p in products):
        with open(stamp) as f:
            if f.read().strip() == want:
                return products, exe, None
    if os.path.exists(stamp):
        os.remove(stamp)
    src = lambda names: [os.path.join(HERE, s) for s in names]
    inc = ["-I", HERE]
    steps = []
    if prog.kind == "shlib":
        steps.append([nvcc] + inc + prog.flags + ["-shared", "-Xcompiler", "-fPIC"]
                     + src(prog.lib_sources) + ["-o", lib])
        steps.append([nvcc] + inc + prog.flags + src(prog.sources)
                     + ["-L", out_dir, f"-l{prog.name}",
                        "-Xlinker", "-rpath,$ORIGIN", "-o", exe])
    else:
        steps.append([nvcc] + inc + prog.flags + src(prog.sources) + ["-o", exe])
    for cmd in steps:
        rc, out, err = run_cmd(cmd, cwd=out_dir, timeout=600)
        if rc != 0:
            text = (out + err).decode(errors="replace").strip().splitlines()
            tail = " / ".join(text[-3:]) if text else "timeout"
            return products, exe, f"build failed: {tail}"
    with open(stamp, "w") as f:
        f.write(want + "\n")
    return products, exe, None


def convert(prog, products, template, check, build_dir):
    """Converts every product into BUILD_DIR/<name>/converted/. Returns (exe, err)."""
    conv_dir = os.path.join(build_dir, prog.name, "converted")
    shutil.rmtree(conv_dir, ignore_errors=True)
    os.makedirs(conv_dir)
    converted = []
    for p in products:
        out = os.path.join(conv_dir, os.path.basename(p))
        cmd = template.replace("{in}", shlex.quote(p)).replace("{out}", shlex.quote(out))
        rc, o, e = run_cmd(["/bin/sh", "-c", cmd], timeout=600)
        if rc != 0:
            text = (o + e).decode(errors="replace").strip().splitlines()
            return None, f"convert {os.path.basename(p)} failed: " + (" / ".join(text[-3:]) or "timeout")
        converted.append(out)
        if check:
            cmd = check.replace("{out}", shlex.quote(out)).replace("{in}", shlex.quote(p))
            rc, o, e = run_cmd(["/bin/sh", "-c", cmd], timeout=600)
            if rc != 0:
                text = (o + e).decode(errors="replace").strip().splitlines()
                return None, f"check {os.path.basename(p)} failed: " + (" / ".join(text[-3:]) or "timeout")
    return converted[-1], None


def run_program(prog, exe, timeout, env=None):
    if prog.env:
        env = dict(env or os.environ, **prog.env)
    try:
        p = subprocess.run([exe], cwd=os.path.dirname(exe), capture_output=True,
                           timeout=timeout, env=env)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = None, b"", b"timeout"
    if rc is None:
        return f"timed out after {timeout} s"
    text = out.decode(errors="replace")
    lines = [l for l in text.splitlines() if l.strip()]
    last = lines[-1] if lines else "(no output)"
    if prog.expected:
        with open(prog.expected) as f:
            want = f.read()
        if text != want:
            got_lines, want_lines = text.splitlines(), want.splitlines()
            for i in range(max(len(got_lines), len(want_lines))):
                g = got_lines[i] if i < len(got_lines) else "(missing)"
                w = want_lines[i] if i < len(want_lines) else "(missing)"
                if g != w:
                    return f"stdout line {i + 1} is {g!r}, expected {w!r}"
            return "stdout differs from expected file (line endings?)"
    if rc != 0:
        detail = err.decode(errors="replace").strip().splitlines()
        why = f"; stderr: {detail[-1]}" if detail else ""
        if rc < 0:
            return f"killed by signal {-rc}; last line: {last}{why}"
        return f"exit {rc}; last line: {last}{why}"
    if last != "PASS":
        return f"last line is {last!r}, not PASS"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", help="run only programs whose name matches REGEX (re.search)")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", DEFAULT_NVCC))
    ap.add_argument("--nvcc-flags", default="",
                    help="flags added after each program's own (a shell-quoted string), "
                    "e.g. another compiler's host compiler and library directories")
    ap.add_argument("--convert", help="converter command template with {in} and {out}")
    ap.add_argument("--check", help="command run on each converted file ({out}); must exit 0")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per program run")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--converted", action="store_true",
                    help="run the binaries an earlier --convert run left; build nothing")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="set in the environment of each program run (repeatable)")
    ap.add_argument("--gap-tag", help="known gaps listed as NAME@TAG apply to this run")
    ap.add_argument("--manifest", default=os.path.join(HERE, "programs.txt"))
    ap.add_argument("--known-gaps", help="file of `name | issue | reason` lines: programs "
                    "expected to fail after conversion (reported, not counted as failures; "
                    "one that passes is a failure, so the list stays true)")
    args = ap.parse_args()
    gaps = parse_known_gaps(args.known_gaps, args.gap_tag) if args.known_gaps else {}
    env = dict(os.environ)
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value

    programs = parse_manifest(args.manifest)
    if args.only:
        rx = re.compile(args.only)
        programs = [p for p in programs if rx.search(p.name)]
    for prog in programs:
        prog.flags += shlex.split(args.nvcc_flags)
    build_dir = os.path.abspath(args.build_dir)
    os.makedirs(build_dir, exist_ok=True)

    def one(prog):
        if args.converted:
            exe = os.path.join(build_dir, prog.name, "converted", prog.name)
            if not os.path.exists(exe):
                return "not converted (run the conversion first)"
            return run_program(prog, exe, args.timeout, env)
        products, exe, err = build(prog, build_dir, args.nvcc)
        if err or args.build_only:
            return err
        if args.convert:
            exe, err = convert(prog, products, args.convert, args.check, build_dir)
            if err:
                return err
        return run_program(prog, exe, args.timeout, env)

    passed = failed = skipped = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        futures = [pool.submit(one, p) for p in programs]
        for prog, fut in zip(programs, futures):
            try:
                err = fut.result()
            except Exception as e:  # a bug in the runner must not hide others
                err = f"runner error: {e!r}"
            gap = gaps.get(prog.name)
            if gap and err:
                skipped += 1
                print(f"gap {prog.name} ({gap}): {err}", flush=True)
            elif gap:
                failed += 1
                print(f"FAIL {prog.name}: passes but is listed as a known gap ({gap})", flush=True)
            elif err:
                failed += 1
                print(f"FAIL {prog.name}: {err}", flush=True)
            else:
                passed += 1
                print(f"ok {prog.name}", flush=True)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


def parse_known_gaps(path, tag=None):
    gaps = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, issue, reason = (x.strip() for x in line.split("|"))
                name, _, only = name.partition("@")
                if not only or only == tag:
                    gaps[name] = f"{issue}: {reason}"
    return gaps


if __name__ == "__main__":
    sys.exit(main())
