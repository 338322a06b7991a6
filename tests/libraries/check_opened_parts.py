"""convert --with-libraries on a program whose library opens its parts itself, as cuDNN's
libcudnn.so.9 opens libcudnn_ops.so.9 and the others from its own directory with dlopen
(opened_parts/: a library built as libcudnn.so.9; a part with a kernel, the plugin of
tests/module_files, installed as libcudnn_ops.so.9.19.0 with libcudnn_ops.so.9 linking to
it; and a part without GPU code), found through LD_LIBRARY_PATH when converting, as a system
library is, and run without it.
The part with fatbins is converted beside the output, the library and the other part linked
there, so that the library's $ORIGIN is the output's directory, and the part's file name
links to the converted part; the converted program passes with translation refused on the
CPU driver and the emulated gfx1100 (the converted part ran, not the original); converting
again reuses the part; a pattern naming the library names its parts; a pattern naming
neither places nothing; doctor says the part is converted, or that its fatbins are
translated as they load (or refused, under ZLUDA_CONVERT_TRANSLATE=0).

usage: check_opened_parts.py ZLUDA_CONVERT NVCC GCC EMULATOR_HIP SOURCE_DIR WORK_DIR"""

import os
import re
import shutil
import subprocess
import sys

tool, nvcc, gcc, emulator_hip, src, work = sys.argv[1:7]
problems = []


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=work, timeout=600)
    return p.returncode, p.stdout, re.sub(r" \(\d+\.\d s\)$", "", p.stderr, flags=re.M)


def build():
    os.makedirs(os.path.join(work, "lib"))
    steps = [
        [gcc, "-shared", "-fPIC", "-o", "lib/libcudnn.so.9", src + "/front.c",
         "-Wl,-soname,libcudnn.so.9", "-Wl,--enable-new-dtags,-rpath,$ORIGIN", "-ldl"],
        [gcc, "-shared", "-fPIC", "-o", "lib/libcudnn_graph.so.9", src + "/graph.c"],
        [nvcc, "-shared", "-Xcompiler", "-fPIC", "-o", "lib/libcudnn_ops.so.9.19.0",
         src + "/../../module_files/plugin.cu", "-Xlinker", "-soname=libcudnn_ops.so.9"],
        [nvcc, "-o", "main", src + "/main.cu", "-Llib", "-l:libcudnn.so.9"],
    ]
    for cmd in steps:
        p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    os.symlink("libcudnn_ops.so.9.19.0", os.path.join(work, "lib/libcudnn_ops.so.9"))


def expect(what, cmd, want_rc, want_err):
    rc, out, err = run(cmd, env=dict(os.environ, LD_LIBRARY_PATH=os.path.join(work, "lib")))
    if rc != want_rc or err != want_err:
        problems.append("%s: exit %d (expected %d), stderr:\n%s\nexpected:\n%s"
                        % (what, rc, want_rc, err, want_err))


def expect_link(what, path, target):
    full = os.path.join(work, path)
    if not os.path.islink(full) or os.readlink(full) != target:
        problems.append("%s: %s is %s, want a link to %s" % (
            what, path, os.readlink(full) if os.path.islink(full) else
            "a file" if os.path.exists(full) else "missing", target))


def expect_placed(what, out):
    lib = os.path.join(work, "lib")
    expect_link(what, out + "/libcudnn.so.9", lib + "/libcudnn.so.9")
    expect_link(what, out + "/libcudnn_graph.so.9", lib + "/libcudnn_graph.so.9")
    expect_link(what, out + "/libcudnn_ops.so.9.19.0", "libcudnn_ops.so.9")
    part = os.path.join(work, out, "libcudnn_ops.so.9")
    if os.path.islink(part) or not os.path.isfile(part) or \
            os.path.getsize(part) <= os.path.getsize(lib + "/libcudnn_ops.so.9.19.0"):
        problems.append("%s: %s/libcudnn_ops.so.9 is not the converted part" % (what, out))


def expect_doctor(what, program, env_extra, want_line):
    """doctor names the part on the line it gives each GPU library, as the loader finds it."""
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(work, "lib"))
    env.pop("ZLUDA_CONVERT_TRANSLATE", None)
    env.update(env_extra)
    rc, out, err = run([tool, "doctor", program], env=env)
    if want_line not in out:
        problems.append("%s: exit %d\n%s%s\nwant the line %r" % (what, rc, out, err, want_line))


def expect_runs(what, program, **env_extra):
    env = dict(os.environ, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_TRANSLATE="0")
    env.pop("LD_LIBRARY_PATH", None)
    env.update(env_extra)
    rc, out, err = run([program], env=env)
    if rc != 0 or out != "PASS\n":
        problems.append("%s: exit %d\n%s%s" % (what, rc, out, err))


def main():
    shutil.rmtree(work, ignore_errors=True)
    build()
    os.makedirs(os.path.join(work, "out"))
    expect("conversion", [tool, "main", "-o", "out/main", "--offload-arch=host,gfx1100",
                          "--with-libraries"], 0,
           "main: fatbin 1: 1 kernel translated for 2 of 2 targets\n"
           "out/main: 1 module, 1 kernel, 2 targets, 0 failures\n"
           "out/libcudnn_ops.so.9: converting {w}/lib/libcudnn_ops.so.9 (opened by "
           "{w}/lib/libcudnn.so.9)\n"
           "out/libcudnn_ops.so.9: 1 module, 1 kernel, 2 targets, 0 failures\n".format(w=work))
    expect_placed("conversion", "out")
    expect_runs("converted program, CPU driver", "out/main")
    expect_runs("converted program, emulated gfx1100", "out/main", ZLUDA_CONVERT_DRIVER="hip",
                ZLUDA_CONVERT_HIP_PATH=emulator_hip, ZC_EMU_PROCESSOR="gfx1100")
    expect("converted again", [tool, "main", "-o", "out/main", "--offload-arch=host,gfx1100",
                               "--with-libraries"], 0,
           "main: fatbin 1: 1 kernel translated for 2 of 2 targets\n"
           "out/main: 1 module, 1 kernel, 2 targets, 0 failures\n"
           "out/libcudnn_ops.so.9: unchanged since it was converted from "
           "{w}/lib/libcudnn_ops.so.9; reused\n".format(w=work))
    expect_placed("converted again", "out")
    os.makedirs(os.path.join(work, "named"))
    expect("pattern naming the library", [tool, "main", "-o", "named/main",
                                          "--offload-arch=host", "--with-libraries=cudnn", "-q"],
           0, "")
    expect_placed("pattern naming the library", "named")
    expect_runs("pattern naming the library, CPU driver", "named/main")
    os.makedirs(os.path.join(work, "other"))
    expect("pattern naming neither", [tool, "main", "-o", "other/main", "--offload-arch=host",
                                      "--with-libraries=curand"], 0,
           "main: fatbin 1: 1 kernel translated for 1 of 1 targets\n"
           "other/main: 1 module, 1 kernel, 1 target, 0 failures\n"
           "zluda-convert: main: warning: it loads no library matching 'curand'\n")
    left = sorted(n for n in os.listdir(os.path.join(work, "other")) if "cudnn" in n)
    if left:
        problems.append("pattern naming neither: placed %s" % left)
    expect_doctor("doctor, converted", "out/main", {},
                  "{w}/out/libcudnn_ops.so.9: converted\n".format(w=work))
    expect_doctor("doctor, not converted", "other/main", {},
                  "{w}/lib/libcudnn_ops.so.9: not converted: its fatbins are translated as they "
                  "load, once per machine (convert the program with --with-libraries to have "
                  "them ahead of time)\n".format(w=work))
    expect_doctor("doctor, not converted, translation refused", "other/main",
                  {"ZLUDA_CONVERT_TRANSLATE": "0"},
                  "{w}/lib/libcudnn_ops.so.9: not converted: no AMD code, and "
                  "ZLUDA_CONVERT_TRANSLATE=0 refuses translating it as it loads (convert the "
                  "program with --with-libraries)\n".format(w=work))
    for p in problems:
        print("FAIL " + p)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
