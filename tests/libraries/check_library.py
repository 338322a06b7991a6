"""A program using one of NVIDIA's large libraries (cuFFT, cuSPARSE, cuBLAS), converted
--with-libraries for the host target so that the library is converted beside it, then run
on the CPU driver: the tests marked long (tens of minutes each, most of it converting).

usage: check_library.py ZLUDA_CONVERT NVCC SOURCE WORK_DIR --link LIB [--libraries LIST]
                        [--expect-fail NAME]... [--expect-trace TEXT]...

SOURCE is one of bench/'s programs, which print one line per routine ending in "ok" or
"FAIL ..." and exit 0 only when every routine passed. Every routine must pass but those
named with --expect-fail, which must fail: a routine NVIDIA ships as SASS only (no PTX to
convert). --libraries is --with-libraries's list: NVIDIA's cuBLAS and cuFFT are converted
only when it names them (else the project's replace them; NVIDIA's cuFFT converted goes
behind the project's, which offers it each plan). The run is traced (ZLUDA_CONVERT_TRACE=1):
each --expect-trace TEXT must be in a line of the trace (cuFFT: that NVIDIA's converted made
plans). Converting again into the same WORK_DIR reuses what is unchanged."""

import argparse
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("nvcc")
    ap.add_argument("source")
    ap.add_argument("work")
    ap.add_argument("--link", action="append", default=[], help="a library nvcc links (-lLIB)")
    ap.add_argument("--libraries", help="--with-libraries's list")
    ap.add_argument("--expect-fail", action="append", default=[])
    ap.add_argument("--expect-trace", action="append", default=[])
    args = ap.parse_args()

    name = os.path.splitext(os.path.basename(args.source))[0]
    os.makedirs(os.path.join(args.work, "out"), exist_ok=True)
    program = os.path.join(args.work, name)
    p = subprocess.run([args.nvcc, "-o", program, args.source] + ["-l" + l for l in args.link],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: nvcc\n" + p.stdout + p.stderr)
    cmd = [args.tool, program, "-o", os.path.join(args.work, "out", name), "--offload-arch=host",
           "--with-libraries" + ("=" + args.libraries if args.libraries else "")]
    # The toolkit's libraries, where the loader's cache does not list them.
    lib64 = os.path.realpath(os.path.join(os.path.dirname(args.nvcc), "..", "lib64"))
    paths = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d] + [lib64]
    loader = dict(os.environ, LD_LIBRARY_PATH=":".join(paths))
    p = subprocess.run(cmd, capture_output=True, text=True, env=loader, timeout=5400)
    if p.returncode != 0:
        sys.exit("FAIL: %s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    env = dict(loader, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_TRACE="1")
    p = subprocess.run([os.path.join(args.work, "out", name)], capture_output=True, text=True,
                       env=env, timeout=3600)
    routines = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^(.*?)\s+(ok|FAIL\b.*)$", line)
        if m:
            routines[m.group(1)] = m.group(2)
    wrong = [r for r, result in routines.items()
             if (result == "ok") == (r in args.expect_fail)]
    missing = [r for r in args.expect_fail if r not in routines]
    untraced = [t for t in args.expect_trace if not any(t in l for l in p.stderr.splitlines())]
    if p.returncode < 0 or not routines or wrong or missing or untraced:
        sys.exit("FAIL: exit %d; unexpected: %s; not run: %s; not traced: %s\n%s%s"
                 % (p.returncode, ", ".join(wrong) or "-", ", ".join(missing) or "-",
                    ", ".join(untraced) or "-", p.stdout, p.stderr[-2000:]))
    print("%d routines pass, %d fail as expected" % (len(routines) - len(args.expect_fail),
                                                     len(args.expect_fail)))
    print("PASSED")


if __name__ == "__main__":
    main()
