"""convert --with-libraries on a program whose GPU code is in the libraries it loads, found as
the dynamic loader finds them: exact messages, the converted program's result on the CPU
driver, reuse on the second conversion, patterns, a program converted without its libraries
(translated as they load), and a library the loader cannot find.

usage: check_closure.py ZLUDA_CONVERT NVCC GCC SOURCE_DIR WORK_DIR"""

import os
import re
import shutil
import subprocess
import sys


def run(cmd, env=None, cwd=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    return p.returncode, p.stdout, re.sub(r" \(\d+\.\d s\)$", "", p.stderr, flags=re.M)


def build(nvcc, gcc, src, work):
    """main -> libgpu_a.so (main's RUNPATH $ORIGIN/a) -> libgpu_b.so (LD_LIBRARY_PATH b/);
    main -> libplain.so (RUNPATH $ORIGIN). a/ also holds a libgpu_b.so without GPU code,
    which only a loader that wrongly applied main's RUNPATH to libgpu_a's needs would take."""
    for d in ("a", "b"):
        os.makedirs(os.path.join(work, d))
    steps = [
        [nvcc, "-shared", "-Xcompiler", "-fPIC", "-o", "b/libgpu_b.so", src + "/gpu_b.cu"],
        [nvcc, "-shared", "-Xcompiler", "-fPIC", "-o", "a/libgpu_a.so", src + "/gpu_a.cu",
         "-Lb", "-lgpu_b"],
        [gcc, "-shared", "-fPIC", "-o", "libplain.so", src + "/plain.c"],
        [gcc, "-shared", "-fPIC", "-o", "a/libgpu_b.so", src + "/plain.c"],
        [nvcc, "-o", "main", src + "/main.cu", "-La", "-lgpu_a", "-L.", "-lplain",
         "-Xlinker", "--enable-new-dtags", "-Xlinker", "-rpath=$ORIGIN/a:$ORIGIN",
         "-Xlinker", "-rpath-link=b"],
        [gcc, "-shared", "-fPIC", "-o", "libgone.so", src + "/plain.c"],
        [gcc, "-o", "orphan", "-x", "c", "-", "-L.", "-lgone", "-Wl,-rpath=$ORIGIN"],
    ]
    for cmd in steps:
        source = "int plain_offset(void); int main(void) { return plain_offset() != 3; }"
        p = subprocess.run(cmd, cwd=work, capture_output=True, text=True,
                           input=source if cmd[0] == gcc and "-" in cmd else None)
        if p.returncode != 0:
            sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    os.remove(os.path.join(work, "libgone.so"))


def check_converted_program(work, when, problems):
    rc, out, err = run(["out/main"], env=dict(os.environ, ZLUDA_CONVERT_DRIVER="host"), cwd=work)
    if rc != 0 or out != "PASSED (0 of 1000 wrong)\n":
        problems.append("converted program %s: exit %d\n%s%s" % (when, rc, out, err))


def main():
    tool, nvcc, gcc, src, work = sys.argv[1:6]
    shutil.rmtree(work, ignore_errors=True)
    build(nvcc, gcc, src, work)
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(work, "b"))
    problems = []

    def expect(what, cmd, want_rc, want_err, env=env):
        rc, out, err = run(cmd, env=env, cwd=work)
        if rc != want_rc or err != want_err:
            problems.append("%s: exit %d (expected %d), stderr:\n%s\nexpected:\n%s"
                            % (what, rc, want_rc, err, want_err))

    convert = [tool, "main", "-o", "out/main", "--offload-arch=host", "--with-libraries"]
    first = ("main: fatbin 1: 0 kernels translated for 1 of 1 targets\n"
             "out/main: 1 module, 0 kernels, 1 target, 0 failures\n"
             "out/libgpu_a.so: converting {w}/a/libgpu_a.so (needed by {w}/main)\n"
             "out/libgpu_a.so: 1 module, 1 kernel, 1 target, 0 failures\n"
             "out/libgpu_b.so: converting {w}/b/libgpu_b.so (needed by {w}/a/libgpu_a.so)\n"
             "out/libgpu_b.so: 1 module, 1 kernel, 1 target, 0 failures\n").format(w=work)
    os.makedirs(os.path.join(work, "out"))
    expect("first conversion", convert, 0, first)
    check_converted_program(work, "after the first conversion", problems)
    again = ("main: fatbin 1: 0 kernels translated for 1 of 1 targets\n"
             "out/main: 1 module, 0 kernels, 1 target, 0 failures\n"
             "out/libgpu_a.so: unchanged since it was converted from {w}/a/libgpu_a.so; reused\n"
             "out/libgpu_b.so: unchanged since it was converted from {w}/b/libgpu_b.so; reused\n"
             ).format(w=work)
    expect("second conversion", convert, 0, again)
    expect("other targets", [tool, "main", "-o", "out/main", "--offload-arch=gfx1100",
                             "--with-libraries=libgpu_a.so"], 0,
           "main: fatbin 1: 0 kernels translated for 1 of 1 targets\n"
           "out/main: 1 module, 0 kernels, 1 target, 0 failures\n"
           "out/libgpu_a.so: converting {w}/a/libgpu_a.so (needed by {w}/main)\n"
           "out/libgpu_a.so: 1 module, 1 kernel, 1 target, 0 failures\n".format(w=work))
    expect("back to host", convert + ["-q"], 0, "")
    expect("pattern", [tool, "main", "-o", "out/main", "--offload-arch=host",
                       "--with-libraries=gpu_b,libnothing*", "-q"], 0, "")
    expect("pattern, verbose", [tool, "main", "-o", "out/main", "--offload-arch=host",
                                "--with-libraries=gpu_b,libnothing*,plain"], 0,
           "main: fatbin 1: 0 kernels translated for 1 of 1 targets\n"
           "out/main: 1 module, 0 kernels, 1 target, 0 failures\n"
           "zluda-convert: {w}/libplain.so: carries no fatbins; nothing to convert\n"
           "out/libgpu_b.so: unchanged since it was converted from {w}/b/libgpu_b.so; reused\n"
           "zluda-convert: main: warning: it loads no library matching 'libnothing*'\n"
           .format(w=work))
    check_converted_program(work, "after converting some of its libraries", problems)
    # A program converted without its libraries: the driver translates their fatbins as
    # they load, saying so once a library (libgpu_a.so as the program finds it, linked
    # beside it).
    os.makedirs(os.path.join(work, "out3"))
    expect("no library named", [tool, "main", "-o", "out3/main", "--offload-arch=host",
                                "--with-libraries=libnothing", "-q"], 0, "")
    rc, out, err = run(["out3/main"], cwd=work,
                       env=dict(env, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_TRANSLATOR=tool,
                                ZLUDA_CONVERT_CACHE_DIR=os.path.join(work, "translated")))
    notices = sorted(line for line in err.splitlines() if "translating" in line)
    want = ["zluda-convert: translating the fatbins of %s for host as they load (the file was "
            "not converted; converting it ahead of time saves this)" % os.path.join(work, lib)
            for lib in ("b/libgpu_b.so", "out3/libgpu_a.so")]
    if rc != 0 or out != "PASSED (0 of 1000 wrong)\n" or notices != want:
        problems.append("libraries translated as they load: exit %d\n%s%s" % (rc, out, err))
    os.makedirs(os.path.join(work, "out2"))
    expect("orphan", [tool, "orphan", "-o", "out2/orphan", "--with-libraries"], 0,
           "orphan: warning: no fatbin in it: no GPU code to translate\n"
           "out2/orphan: 0 modules, 0 kernels, 3 targets, 0 failures\n"
           "zluda-convert: orphan: warning: libgone.so, which {w}/orphan needs, is not where "
           "the loader looks (LD_LIBRARY_PATH?); not converted\n".format(w=work))
    for p in problems:
        print("FAIL " + p)
    if not problems:
        print("PASSED")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
