#!/usr/bin/env python3
"""On a machine with an NVIDIA GPU and NVIDIA's driver: every program of a directory laid
out as tests/programs/run_programs.py builds them (DIR/NAME/NAME, the nvcc binary, and
DIR/NAME/converted/NAME, the converted one with libcuda.so.1 beside it) runs RUNS times
unconverted and RUNS times converted, alternately. Both must pass (exit 0, last line PASS);
the converted one goes through the stub's cuda driver to NVIDIA's, and its median wall time
is compared with the unconverted one's.

usage: nvidia_passthrough.py DIR [--runs N] [--only REGEX]
Prints one line per program (medians in seconds, their ratio) and a summary; exits 1 when a
program fails or a ratio is above 1.05."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time


def run(exe):
    env = dict(os.environ, ZLUDA_CONVERT_TRACE=os.environ.get("TRACE", ""))
    if not env["ZLUDA_CONVERT_TRACE"]:
        del env["ZLUDA_CONVERT_TRACE"]
    start = time.monotonic()
    p = subprocess.run([exe], cwd=os.path.dirname(exe), capture_output=True, timeout=600, env=env)
    took = time.monotonic() - start
    lines = [l for l in p.stdout.decode(errors="replace").splitlines() if l.strip()]
    ok = p.returncode == 0 and lines and lines[-1] == "PASS"
    return ok, took, (lines[-1] if lines else "(no output)") + " " + p.stderr.decode(errors="replace")[-200:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only")
    args = ap.parse_args()
    names = sorted(n for n in os.listdir(args.dir)
                   if os.path.exists(os.path.join(args.dir, n, "converted", n))
                   and (not args.only or re.search(args.only, n)))
    failed = slow = 0
    for name in names:
        original = os.path.join(args.dir, name, name)
        converted = os.path.join(args.dir, name, "converted", name)
        times = {original: [], converted: []}
        problem = None
        for _ in range(args.runs):
            for exe in (original, converted):
                ok, took, last = run(exe)
                if not ok and not problem:
                    problem = "%s: %s" % ("converted" if exe == converted else "original", last.strip())
                times[exe].append(took)
        a, b = statistics.median(times[original]), statistics.median(times[converted])
        ratio = b / a if a else 0
        if problem:
            failed += 1
            print("FAIL %-32s %s" % (name, problem))
        else:
            slow += ratio > 1.05
            print("%-4s %-32s original %.3f s  converted %.3f s  ratio %.3f" %
                  ("ok" if ratio <= 1.05 else "SLOW", name, a, b, ratio), flush=True)
    print("%d programs: %d failed, %d slower than 5%%" % (len(names), failed, slow))
    return 1 if failed or slow else 0


if __name__ == "__main__":
    sys.exit(main())
