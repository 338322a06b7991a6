#!/usr/bin/env python3
"""Runs ptx-check on one bad PTX file and compares its stderr with NAME.expected.

usage: check_diag.py PTX_CHECK FILE.ptx   (run in the folder holding FILE.ptx)
Passes when ptx-check exits with 1, prints nothing on stdout and exactly the
expected diagnostic on stderr."""
import difflib
import subprocess
import sys


def main():
    ptx_check, ptx_file = sys.argv[1], sys.argv[2]
    expected_file = ptx_file[: -len(".ptx")] + ".expected"
    with open(expected_file, encoding="utf-8") as f:
        expected = f.read()
    run = subprocess.run([ptx_check, ptx_file], capture_output=True, timeout=30)
    stderr = run.stderr.decode("utf-8", errors="replace")
    failures = []
    if run.returncode != 1:
        failures.append(f"exit status {run.returncode}, expected 1")
    if run.stdout:
        failures.append("unexpected output on stdout")
    if stderr != expected:
        diff = difflib.unified_diff(expected.splitlines(True), stderr.splitlines(True),
                                    expected_file, "stderr")
        failures.append("stderr differs:\n" + "".join(diff))
    for failure in failures:
        print(f"{ptx_file}: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
