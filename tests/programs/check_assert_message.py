#!/usr/bin/env python3
"""A failed device assert prints CUDA's message, exactly, on stderr: the converted
assert_device program (tests/programs, already converted by the `programs` test) run with
the environment given (the CPU driver, or the HIP driver over the emulator).
usage: check_assert_message.py CONVERTED_PROGRAM [NAME=VALUE...]"""
import os
import subprocess
import sys

WANT = ("assert_device.cu:11: void check_values(const int *, int): block: [2,0,0], "
        "thread: [9,0,0] Assertion `v[i] >= 0` failed.")


def main():
    env = dict(os.environ)
    env.update(a.split("=", 1) for a in sys.argv[2:])
    p = subprocess.run([sys.argv[1]], capture_output=True, text=True, timeout=600, env=env,
                       cwd=os.path.dirname(sys.argv[1]))
    lines = [l for l in p.stderr.splitlines() if "Assertion" in l]
    if p.returncode != 0 or p.stdout != "PASS\n":
        print(f"exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}")
        return 1
    if len(lines) != 1 or not lines[0].endswith(WANT):
        print(f"assertion lines {lines}, expected one ending in {WANT!r}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
