#!/usr/bin/env python3
"""A conversion ended by a signal leaves no temporaries.

Usage: check_temporaries.py TOOL LIBCUDA FAIL_FORK

Converts TOOL itself (an ELF file without fatbins, so its output is as large as it is) under a
file-size limit, so that the kernel ends the conversion with SIGXFSZ in the middle of a write:
once while the driver (LIBCUDA) is copied beside the output, once while the output is
written. Each time the process must die of that signal, and the output directory must hold
nothing but what was complete: no temporary, no output.

Then a tree of four PTX modules (their conversions take seconds) is converted with a report,
two at a time, TMPDIR a folder of the test's own; once children run, the tool gets SIGTERM.
It must die of it, its children must be gone at once, and TMPDIR must be empty (the
children's reports were gathered there, and their linker's folders made there).

And the same tree once more, with fork failing for its third file (FAIL_FORK, a library
loaded with LD_PRELOAD): the tool must say why and exit 1 with the running conversions
ended and TMPDIR empty.
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
from checks import check, summary  # noqa: E402


def converted_under_limit(tool, limit):
    work = tempfile.mkdtemp(prefix="zc-temporaries-")
    try:
        def limited():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        result = subprocess.run([tool, tool, "-o", os.path.join(work, "out"), "--offload-arch=host", "-q"],
                                capture_output=True, text=True, preexec_fn=limited)
        return result.returncode, sorted(os.listdir(work))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def module(kernels):
    lines = [".version 8.0", ".target sm_80", ".address_size 64"]
    for k in range(kernels):
        lines += [f".visible .entry k{k}(.param .u64 p, .param .f32 a)", "{", ".reg .b64 %rd<4>;",
                  ".reg .f32 %f<6>;", ".reg .b32 %r<2>;", "ld.param.u64 %rd1, [p];", "ld.param.f32 %f1, [a];",
                  "mov.u32 %r1, %tid.x;", "mul.wide.u32 %rd2, %r1, 4;", "add.s64 %rd3, %rd1, %rd2;",
                  "ld.global.f32 %f2, [%rd3];", "fma.rn.f32 %f3, %f2, %f1, 0f3f800000;",
                  "sin.approx.f32 %f4, %f3;", "st.global.f32 [%rd3], %f4;", "ret;", "}"]
    return "\n".join(lines) + "\n"


def children_of(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def tree_conversion(tool, work):
    """A tree of four modules (their conversions take seconds each) and a folder for TMPDIR
    in work, and the command that converts the tree two at a time, with a report."""
    tree, tmp = os.path.join(work, "tree"), os.path.join(work, "tmp")
    os.makedirs(tree)
    os.makedirs(tmp)
    for i in range(4):
        with open(os.path.join(tree, f"m{i}.ptx"), "w") as f:
            f.write(module(2500))
    return tree, tmp, [tool, tree, "-o", os.path.join(work, "out"), "-j", "2", "--offload-arch=host",
                       "--no-cache", "--report=" + os.path.join(work, "r.json"), "-q"]


def tree_ended_by_signal(tool):
    work = tempfile.mkdtemp(prefix="zc-tree-signal-")
    try:
        tree, tmp, command = tree_conversion(tool, work)
        tool_run = subprocess.Popen(command, env=dict(os.environ, TMPDIR=tmp), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        children, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline and not children and tool_run.poll() is None:
            time.sleep(0.05)
            children = children_of(tool_run.pid) if os.listdir(tmp) else []
        in_tmp = os.listdir(tmp)
        tool_run.send_signal(signal.SIGTERM)
        rc = tool_run.wait(60)
        # the tool waits for its children before it dies; a conversion left running would
        # take seconds more
        deadline = time.monotonic() + 1
        while time.monotonic() < deadline and any(alive(c) for c in children):
            time.sleep(0.05)
        check(len(children) > 0 and any(e.startswith("zluda-convert-tree-") for e in in_tmp),
              f"children ran ({children}) with their reports' folder in TMPDIR ({in_tmp})")
        check(rc == -signal.SIGTERM, f"the tool died of SIGTERM ({rc})")
        check(not any(alive(c) for c in children), f"its children are gone ({children})")
        check(os.listdir(tmp) == [], f"TMPDIR is empty: {os.listdir(tmp)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def strays(path):
    """The processes whose command line names path."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if entry.isdigit() and path.encode() in f.read() and alive(int(entry)):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def tree_fork_fails(tool, shim):
    """The third conversion of a tree cannot be started (fork fails, as at the user's process
    limit; shim makes it so): the tool says so and exits 1, the two running are ended, and
    TMPDIR is left empty."""
    work = tempfile.mkdtemp(prefix="zc-tree-fork-")
    try:
        tree, tmp, command = tree_conversion(tool, work)
        asan = (os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")
        # into a file: a pipe would make the wait last as long as a conversion left running
        with open(os.path.join(work, "stderr"), "w+") as stderr:
            result = subprocess.run(command,
                                    env=dict(os.environ, TMPDIR=tmp, LD_PRELOAD=shim, ZC_FAIL_FORK_FROM="3",
                                             ASAN_OPTIONS=asan),
                                    stdout=subprocess.DEVNULL, stderr=stderr, timeout=300)
            left = strays(tree)
            stderr.seek(0)
            said = stderr.read()
        expected = f"zluda-convert: {tree}/m2.ptx: cannot start its conversion: Resource temporarily unavailable\n"
        check(result.returncode == 1 and said == expected,
              f"a fork that fails: exit 1 ({result.returncode}) and {expected!r} ({said!r})")
        check(left == [], f"the conversions running are ended ({left})")
        check(os.listdir(tmp) == [], f"TMPDIR is empty: {os.listdir(tmp)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    tool, libcuda, shim = sys.argv[1:]
    size = os.path.getsize(libcuda)
    rc, left = converted_under_limit(tool, size // 2)
    check(rc == -signal.SIGXFSZ and left == [],
          f"ended while copying the driver: died of SIGXFSZ ({rc}), left {left}")
    rc, left = converted_under_limit(tool, size + 65536)
    check(rc == -signal.SIGXFSZ and left == ["libcuda.so", "libcuda.so.1"],
          f"ended while writing the output: died of SIGXFSZ ({rc}), left {left}")
    tree_ended_by_signal(tool)
    tree_fork_fails(tool, shim)
    return summary("check_temporaries")


if __name__ == "__main__":
    sys.exit(main())
