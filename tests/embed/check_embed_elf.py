#!/usr/bin/env python3
"""Embeds a sample AOT image into an nvcc-built ELF program or library and checks the result:
the original bytes are unchanged but for the ELF header fields embedding owns; readelf and
patchelf accept it; the program headers are what the loader needs; the image is found again;
converting the output again equals converting the input; the program still runs as before;
and a libcuda.so.1 placed beside it is what cudart's dlopen loads."""
import argparse
import hashlib
import os
import pathlib
import shutil
import struct
import subprocess
import sys

MARKER = "ZC-DUMMY-LIBCUDA-LOADED"
CUDA_LIB = "/usr/local/cuda/lib64"
PT_LOAD, PT_DYNAMIC, PT_PHDR = 1, 2, 6


def fail(msg):
    print(f"check_embed_elf: {msg}", file=sys.stderr)
    sys.exit(1)


def expect(cond, msg):
    if not cond:
        fail(msg)


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)


def run_ok(cmd, **kw):
    r = run(cmd, **kw)
    expect(r.returncode == 0,
           f"{' '.join(map(str, cmd))} exited {r.returncode}: {r.stderr.strip()}")
    return r


def phdrs(data):
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phnum, = struct.unpack_from("<H", data, 0x38)
    return [struct.unpack_from("<IIQQQQQQ", data, phoff + 56 * i) for i in range(phnum)]


def check_header(orig, data):
    """Only e_phoff, e_shoff, e_phnum, e_shnum and e_shstrndx may differ."""
    owned = set(range(0x20, 0x28)) | set(range(0x28, 0x30)) | {0x38, 0x39, 0x3c, 0x3d, 0x3e, 0x3f}
    for i in range(64):
        expect(i in owned or orig[i] == data[i], f"ELF header byte 0x{i:x} changed")
    expect(data[64:len(orig)] == orig[64:], "original bytes after the ELF header changed")


def check_segments(orig, data, rewritten):
    ph = phdrs(data)
    if not rewritten:
        expect(ph == phdrs(orig), "program headers changed although the search path did not")
        return
    expect(len(ph) == len(phdrs(orig)) + 1, "not exactly one program header added")
    loads = [p for p in ph if p[0] == PT_LOAD]
    expect([p[3] for p in loads] == sorted(p[3] for p in loads), "PT_LOADs not sorted by address")
    for a, b in zip(loads, loads[1:]):
        page = max(a[7], 0x1000)
        expect((a[3] + a[6] + page - 1) // page * page <= b[3] // page * page + page,
               "PT_LOAD segments overlap")
    new = loads[-1]
    expect(new[4] >= len(orig), "the new PT_LOAD is not past the original bytes")
    expect(new[2] % new[7] == new[3] % new[7], "new PT_LOAD offset and address disagree mod align")
    expect(new[3] - new[2] == loads[0][3] - loads[0][2],
           "new PT_LOAD is not offset like the first (pre-5.18 kernels compute AT_PHDR so)")
    for kind in (PT_PHDR, PT_DYNAMIC):
        for p in ph:
            if p[0] == kind:
                expect(new[3] <= p[3] and p[3] + p[6] <= new[3] + new[6],
                       f"segment type {kind} is not inside the new PT_LOAD")
                expect(p[3] - new[3] == p[2] - new[2], f"segment type {kind} offset/address skew")
    dyn = [p for p in ph if p[0] == PT_DYNAMIC][0]
    expect((new[1] & 2) == (dyn[1] & 2), "new PT_LOAD is not writable like .dynamic")


def readelf_warnings(path):
    r = run(["readelf", "-a", "-W", path])
    expect(r.returncode == 0, f"readelf -a {path} exited {r.returncode}: {r.stderr.strip()}")
    return set(line for line in r.stderr.splitlines() if line.strip())


def dynamic_paths(path):
    out = run_ok(["readelf", "-d", "-W", path]).stdout
    return [(line.split("(")[1].split(")")[0], line.split("[", 1)[1].rstrip("]"))
            for line in out.splitlines() if "(RPATH)" in line or "(RUNPATH)" in line]


def run_program(args, path, cwd_libcuda, shared_cudart):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LD_")}
    if shared_cudart:
        env["LD_LIBRARY_PATH"] = CUDA_LIB
    if args.kind == "exe":
        return run([path], env=env, timeout=60)
    code = ("import ctypes,sys; lib=ctypes.CDLL(sys.argv[1]); "
            "print('status', lib.library_fill_device(None, ctypes.c_float(0), 0))")
    return run([sys.executable, "-c", code, path], env=env, timeout=60)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--locate", required=True)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--kind", choices=["exe", "lib"], required=True)
    ap.add_argument("--cudart", choices=["static", "shared"], required=True)
    ap.add_argument("--expect", choices=["rpath", "runpath", "runpath-origin", "unchanged"],
                    required=True)
    ap.add_argument("--libcuda", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()

    work = pathlib.Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    for d in ("out", "orig", "again"):
        (work / d).mkdir(parents=True)
    binary = pathlib.Path(args.binary)
    orig = binary.read_bytes()
    before = hashlib.sha256(orig).hexdigest()
    img1, img2 = work / "a.img", work / "b.img"
    run_ok([args.tool, "make-image", img1, "1"])
    run_ok([args.tool, "make-image", img2, "2"])

    out = work / "out" / binary.name
    run_ok([args.tool, "embed", binary, img1, out])
    expect(hashlib.sha256(binary.read_bytes()).hexdigest() == before, "the input was modified")
    expect(os.access(out, os.X_OK), "the output lost the input's permission bits")
    data = out.read_bytes()
    check_header(orig, data)

    # readelf: nothing it did not already say about the input
    new_warnings = readelf_warnings(out) - readelf_warnings(binary)
    expect(not new_warnings, f"readelf warns about the output: {sorted(new_warnings)[:5]}")
    sections = run_ok(["readelf", "-S", "-W", out]).stdout
    line = [l for l in sections.splitlines() if ".zluda_aot" in l]
    expect(line and "PROGBITS" in line[0] and " A " not in line[0], ".zluda_aot missing or loaded")

    # our reader finds the same fatbins and wrappers, at the same offsets
    def fatbins(path):
        lines = run_ok([args.tool, "fatbins", path]).stdout.splitlines()
        return [l for l in lines if not l.startswith("section ")]
    expect(fatbins(out) == fatbins(binary) + ["aot image: 3 modules, 3 code objects"],
           "fatbin discovery differs on the output, or finds no image")

    # the search path
    rpath = run_ok(["patchelf", "--print-rpath", out]).stdout.strip()
    paths = dynamic_paths(out)
    if args.expect == "rpath":
        expect(paths == [("RPATH", "$ORIGIN")], f"dynamic search paths are {paths}")
        expect(rpath == "$ORIGIN", f"patchelf --print-rpath says {rpath!r}")
    elif args.expect == "runpath":
        # a RUNPATH becomes an RPATH (shared cudart's dlopen never sees a RUNPATH)
        expect(len(paths) == 1 and paths[0][0] == "RPATH" and paths[0][1].startswith("$ORIGIN:"),
               f"dynamic search paths are {paths}")
        expect(rpath.startswith("$ORIGIN:"), f"patchelf --print-rpath says {rpath!r}")
    elif args.expect == "runpath-origin":
        expect(paths == [("RPATH", "$ORIGIN")], f"dynamic search paths are {paths}")
    else:
        expect(paths == dynamic_paths(binary), "search paths changed although $ORIGIN was there")
        expect(run_ok(["readelf", "-d", "-W", out]).stdout ==
               run_ok(["readelf", "-d", "-W", binary]).stdout, ".dynamic changed")
    check_segments(orig, data, args.expect != "unchanged")

    # the image, as the runtime stub finds it
    located = run_ok([args.locate, out, work / "located.img"]).stdout.split()
    expect((work / "located.img").read_bytes() == img1.read_bytes(), "located image differs")
    expect(located[2] == "3", f"located image has {located[2]} modules, not 3")
    expect(run_ok([args.locate, binary]).stdout.strip() == "none", "image found in the input")

    # converting again replaces the image: the same as converting the input
    again, direct = work / "again" / "x", work / "again" / "y"
    run_ok([args.tool, "embed", out, img2, again])
    run_ok([args.tool, "embed", binary, img2, direct])
    expect(again.read_bytes() == direct.read_bytes(), "re-embedding differs from embedding")
    # refusing to overwrite the input
    r = run([args.tool, "embed", out, img1, out])
    expect(r.returncode != 0 and "must not be the input" in r.stderr, "OUT == IN not refused")

    # it runs, and finds a libcuda.so.1 beside it only through the added search path
    shared = args.cudart == "shared"
    if args.kind == "exe":
        run_ok(["ldd", out], env={"LD_LIBRARY_PATH": CUDA_LIB} if shared else None)
    orig_copy = work / "orig" / binary.name
    shutil.copy2(binary, orig_copy)
    before_run = run_program(args, orig_copy, False, shared)
    after_run = run_program(args, out, False, shared)
    expect(before_run.returncode == 0, f"the input itself fails: {before_run.stderr.strip()}")
    expect((after_run.returncode, after_run.stdout) == (before_run.returncode, before_run.stdout),
           f"output runs differently: {after_run.returncode} {after_run.stdout!r} vs "
           f"{before_run.stdout!r}")
    expect(MARKER not in after_run.stderr, "a libcuda stand-in was loaded with none beside")
    for d in (work / "out", work / "orig"):
        shutil.copy2(args.libcuda, d / "libcuda.so.1")
    converted = run_program(args, out, True, shared)
    expect(converted.returncode == 0, f"output fails with libcuda beside: {converted.stderr}")
    expect(MARKER in converted.stderr, "the libcuda.so.1 beside the output was not loaded")
    control = run_program(args, orig_copy, True, shared)
    # an input whose search path already has $ORIGIN finds the stand-in by itself
    if args.expect not in ("unchanged", "runpath-origin"):
        expect(MARKER not in control.stderr, "the input loads the libcuda beside it by itself")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LD_")}
    env["LD_DEBUG"] = "libs"
    if shared:
        env["LD_LIBRARY_PATH"] = CUDA_LIB
    cmd = [out] if args.kind == "exe" else [sys.executable, "-c",
                                           "import ctypes,sys; ctypes.CDLL(sys.argv[1])"
                                           ".library_fill_device(None, ctypes.c_float(0), 0)",
                                           out]
    debug = run(cmd, env=env, timeout=60).stderr
    searched = [l for l in debug.splitlines()
                if "search path=" in l and str(work / "out") in l and "PATH from file" in l]
    expect(searched, "LD_DEBUG=libs shows no search of the output's directory")
    print(f"check_embed_elf: {binary.name}: ok ({searched[0].strip()})")


if __name__ == "__main__":
    main()
