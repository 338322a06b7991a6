"""NVIDIA's cuDNN under a converted program (tests/programs/cudnn_ops.cu: the legacy API's
operations and the graph API's fusions, each checked on the host). The program is converted
without cuDNN, whose fatbins the driver translates as cudart loads them (the parts cuDNN
opens itself, and its engines, only as an operation first needs them), into a cache of this
test's own: on the CPU driver, again from the cache with translation refused, and through the
HIP driver over the emulated gfx1100; the driver says once a file which files it translates.
Every operation passes but those named with
--expect-fail (a prefix of its FAIL line), which must fail: their kernels ship as SASS only.
A test marked long (translating what the program uses takes about ten minutes per target).

usage: check_cudnn.py ZLUDA_CONVERT NVCC SOURCE EMULATOR_HIP WORK_DIR [--expect-fail WHAT]..."""

import argparse
import os
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("nvcc")
    ap.add_argument("source")
    ap.add_argument("emulator_hip")
    ap.add_argument("work")
    ap.add_argument("--expect-fail", action="append", default=[])
    args = ap.parse_args()

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(os.path.join(args.work, "out"))
    program = os.path.join(args.work, "cudnn_ops")
    converted = os.path.join(args.work, "out", "cudnn_ops")
    for cmd in ([args.nvcc, "-I", os.path.dirname(args.source), "-o", program, args.source,
                 "-lcudnn"],
                [args.tool, program, "-o", converted, "--offload-arch=host,gfx1100", "-q"]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("FAIL: %s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    base = dict(os.environ, ZLUDA_CONVERT_TRANSLATOR=args.tool,
                ZLUDA_CONVERT_CACHE_DIR=os.path.join(args.work, "cache"))
    runs = [("CPU driver", dict(ZLUDA_CONVERT_DRIVER="host")),
            ("CPU driver, from the cache", dict(ZLUDA_CONVERT_DRIVER="host",
                                                ZLUDA_CONVERT_TRANSLATE="0")),
            ("emulated gfx1100", dict(ZLUDA_CONVERT_DRIVER="hip",
                                      ZLUDA_CONVERT_HIP_PATH=args.emulator_hip,
                                      ZC_EMU_PROCESSOR="gfx1100"))]
    problems = []
    for what, env in runs:
        p = subprocess.run([converted], capture_output=True, text=True, env=dict(base, **env),
                           timeout=3600)
        failed = [line for line in p.stdout.splitlines() if line.startswith("FAIL ")]
        wrong = [line for line in failed
                 if not any(line.startswith("FAIL " + e) for e in args.expect_fail)]
        passed = [e for e in args.expect_fail
                  if not any(line.startswith("FAIL " + e) for line in failed)]
        # the driver says once a file that it translates its fatbins: on the first run of
        # each driver, for cuDNN's operations and engines among others
        notices = [line for line in p.stderr.splitlines()
                   if line.startswith("zluda-convert: translating the fatbins of ")]
        if len(notices) != len(set(notices)) or \
                len(notices) < (0 if env.get("ZLUDA_CONVERT_TRANSLATE") == "0" else 2):
            problems.append("%s: the driver's notices: %s" % (what, notices))
        final = p.stdout.splitlines()[-1:] or ["(nothing)"]
        want = "FAIL: %d checks failed" % len(failed) if failed else "PASS"
        if wrong or passed or final[0] != want:
            problems.append("%s: exit %d, last line %r; failed unexpectedly: %s; passed "
                            "unexpectedly: %s\n%s" % (what, p.returncode, final[0],
                                                      wrong or "-", passed or "-",
                                                      p.stderr[-2000:]))
    for problem in problems:
        print("FAIL " + problem)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
