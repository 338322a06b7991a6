#!/usr/bin/env python3
"""Tree mode: a package tree converted in one command.

Usage: check_tree.py TOOL NVCC SOURCE_DIR

Builds a small unpacked package with NVCC: bin/app and bin/app2 (their own kernel, and one in
lib/libscale.so they load through $ORIGIN/../lib), a program without GPU code, a shell script, data, a link, a
module file, then converts the tree with `TOOL TREE -o OUT --report=R`. Checks the summary line,
a runtime in each directory with converted programs or libraries and none elsewhere, every other file and
link unchanged (bytes and modes), both programs passing on the CPU driver and on the emulator
from the converted tree, the report, the input untouched, a file that fails under --strict, and the refusals: an output that is
not empty, an output inside the tree, --dump on a tree.
"""
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile

from checks import check, failures, run, summary

LIBRARY = r"""
__global__ void scale(float *x, float by, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= by;
}
extern "C" void scale_on_device(float *x, float by, int n) { scale<<<(n + 127) / 128, 128>>>(x, by, n); }
"""

PROGRAM = r"""
#include <cstdio>
extern "C" void scale_on_device(float *x, float by, int n);
__global__ void fill(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = (float)i;
}
int main() {
    const int n = 1000;
    float *x, h[n];
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) { printf("FAIL: no device\n"); return 1; }
    fill<<<(n + 127) / 128, 128>>>(x, n);
    scale_on_device(x, 3.0f, n);
    cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (h[i] != 3.0f * i) { printf("FAIL: x[%d] = %g\n", i, h[i]); return 1; }
#ifdef SECOND
    printf("PASS: %d elements, the second program\n", n);
#else
    printf("PASS: %d elements\n", n);
#endif
    return 0;
}
"""

MODULE = r"""
.version 7.0
.target sm_52
.address_size 64
.visible .entry nothing() { ret; }
"""


def files_of(root):
    """Each path under root: ('link', target), ('dir', mode) or ('file', mode, sha256)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            st = os.lstat(path)
            if os.path.islink(path):
                found[rel] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                found[rel] = ("dir", st.st_mode & 0o7777)
            else:
                with open(path, "rb") as f:
                    found[rel] = ("file", st.st_mode & 0o7777, hashlib.sha256(f.read()).hexdigest())
    return found


def build_tree(work, nvcc):
    tree = os.path.join(work, "pkg")
    for d in ("bin", "lib", "share/doc", "share/modules"):
        os.makedirs(os.path.join(tree, d))
    with open(os.path.join(work, "scale.cu"), "w") as f:
        f.write(LIBRARY)
    with open(os.path.join(work, "app.cu"), "w") as f:
        f.write(PROGRAM)
    with open(os.path.join(work, "plain.c"), "w") as f:
        f.write("int main(void) { return 0; }\n")
    lib = os.path.join(tree, "lib", "libscale.so")
    steps = [[nvcc, "-arch=sm_80", "-shared", "-Xcompiler", "-fPIC", "-o", lib, os.path.join(work, "scale.cu")],
             [nvcc, "-arch=sm_80", "-o", os.path.join(tree, "bin", "app"), os.path.join(work, "app.cu"),
              "-L" + os.path.dirname(lib), "-lscale", "-Xlinker", "-rpath=$ORIGIN/../lib"],
             [nvcc, "-arch=sm_80", "-o", os.path.join(tree, "bin", "app2"), os.path.join(work, "app.cu"),
              "-L" + os.path.dirname(lib), "-lscale", "-Xlinker", "-rpath=$ORIGIN/../lib", "-DSECOND"],
             ["cc", "-o", os.path.join(tree, "bin", "plain"), os.path.join(work, "plain.c")]]
    for name, step in zip(("lib/libscale.so", "bin/app", "bin/app2", "bin/plain"), steps):
        result = run(step)
        check(result.returncode == 0, "builds " + name + " " + result.stderr[-300:])
    with open(os.path.join(tree, "bin", "run-app.sh"), "w") as f:
        f.write('#!/bin/sh\nexec "$(dirname "$0")/app" "$@"\n')
    os.chmod(os.path.join(tree, "bin", "run-app.sh"), 0o755)
    with open(os.path.join(tree, "share", "doc", "README"), "w") as f:
        f.write("data, copied as it is\n")
    os.chmod(os.path.join(tree, "share", "doc", "README"), 0o640)
    with open(os.path.join(tree, "share", "modules", "nothing.ptx"), "w") as f:
        f.write(MODULE)
    os.symlink("libscale.so", os.path.join(tree, "lib", "libscale.so.1"))
    return tree


def main():
    tool, nvcc, source = sys.argv[1:]
    work = tempfile.mkdtemp(prefix="zc-tree-")
    try:
        tree = build_tree(work, nvcc)
        if failures:
            return 1
        before = files_of(tree)
        out = os.path.join(work, "pkg-amd")
        report = os.path.join(work, "report.json")
        result = run([tool, tree, "-o", out, "--offload-arch=gfx1100,host", "--report=" + report, "-j2"])
        last_line = re.sub(r" \(\d+\.\d s\)$", "", result.stderr.strip().splitlines()[-1] if result.stderr else "")
        check(result.returncode == 0, f"the tree converts (exit {result.returncode}) {result.stderr[-500:]}")
        check(last_line == f"{out}: 4 files converted, 3 copied unchanged (1 of them programs or libraries "
              "without GPU code), 1 links, 5 directories, 0 failed", "the summary line: " + last_line)
        check(files_of(tree) == before, "the input tree is untouched")

        after = files_of(out)
        for rel, what in before.items():
            if rel in ("bin/app", "bin/app2", "lib/libscale.so", "share/modules/nothing.ptx"):
                check(after.get(rel, ("",))[0] == "file" and after[rel][1] == what[1] and after[rel][2] != what[2],
                      f"{rel} converted, its mode kept")
            else:
                check(after.get(rel) == what, f"{rel} as it was ({what[0]})")
        for d in ("bin", "lib"):
            check(after.get(d + "/libcuda.so.1", ("",))[0] == "file", f"a runtime in {d}")
        for d in ("share/doc", "share/modules"):  # a module file's program has one
            check(d + "/libcuda.so.1" not in after, f"no runtime in {d}")

        env = {k: v for k, v in os.environ.items() if not k.startswith(("ZLUDA_CONVERT_", "ZC_EMU_"))}
        result = run([os.path.join(out, "bin", "run-app.sh")], env=dict(env, ZLUDA_CONVERT_DRIVER="host"))
        check(result.returncode == 0 and result.stdout.startswith("PASS"),
              "the converted app on the CPU driver: " + (result.stdout + result.stderr).strip()[-300:])
        result = run([tool, "run", "--emulate=gfx1100", "--", os.path.join(out, "bin", "app")], env=env)
        check(result.returncode == 0 and result.stdout.startswith("PASS"),
              "the converted app on the emulator: " + (result.stdout + result.stderr).strip()[-300:])
        result = run([os.path.join(out, "bin", "app2")], env=dict(env, ZLUDA_CONVERT_DRIVER="host"))
        check(result.returncode == 0 and result.stdout.startswith("PASS") and "second" in result.stdout,
              "the second converted program on the CPU driver: " + (result.stdout + result.stderr).strip()[-300:])

        with open(report) as f:
            r = json.load(f)
        actions = {e["path"]: e["action"] for e in r.get("files", [])}
        check(r.get("tool", {}).get("name") == "zluda-convert", "the report names the tool")
        check(actions.get("bin/app") == "converted" and actions.get("lib/libscale.so.1") == "link"
              and actions.get("bin/run-app.sh") == "copied" and actions.get("share") == "directory",
              f"the report's actions: {actions}")
        app = next(e for e in r["files"] if e["path"] == "bin/app")
        check(app.get("report", {}).get("targets") == ["gfx1100", "host"], "the report holds the app's own")
        plain = next(e for e in r["files"] if e["path"] == "bin/plain")
        check(plain.get("gpu_code") is False, "the report says bin/plain has no GPU code")

        result = run([tool, tree, "-o", out])
        check((result.returncode, result.stderr) ==
              (1, f"zluda-convert: {out}: is not empty; a tree is converted into a new directory\n"),
              f"an output that is not empty is refused: {result.returncode} {result.stderr}")
        inside = os.path.join(tree, "bin", "amd")
        result = run([tool, tree, "-o", inside])
        check(result.returncode == 2 and result.stderr.startswith(
              f"zluda-convert: convert: the output {inside} is inside the tree {tree}\n")
              and not os.path.exists(inside), f"an output inside the tree is refused: {result.stderr}")
        with open(os.path.join(tree, "share", "modules", "broken.ptx"), "w") as f:
            f.write(MODULE.replace("ret;", "not_an_instruction;"))
        strict = os.path.join(work, "strict")
        result = run([tool, tree, "-o", strict, "--offload-arch=host", "--strict", "-q"])
        check(result.returncode == 1 and result.stderr.endswith(
              f"zluda-convert: {tree}/share/modules/broken.ptx: not converted (exit status 1)\n")
              and not os.path.exists(os.path.join(strict, "share", "modules", "broken.ptx"))
              and os.path.isfile(os.path.join(strict, "bin", "app")),
              f"--strict: a file that fails is named, left out, and the rest converted: {result.stderr}")
        result = run([tool, tree, "-o", os.path.join(work, "dumped"), "--dump=ll"])
        check(result.returncode == 2 and result.stderr.startswith(
              "zluda-convert: convert: --save-temps and --dump take one file, not a tree\n"),
              f"--dump on a tree is refused: {result.stderr}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summary("check_tree")


if __name__ == "__main__":
    sys.exit(main())
