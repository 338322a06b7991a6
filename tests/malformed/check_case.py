#!/usr/bin/env python3
"""Runs zluda-convert on one case of the malformed corpus and checks its answer.

The case must fail the same way under `inspect`, `inspect --json` and `extract -o DIR`: exit
status 1, nothing on stdout, and on stderr exactly `zluda-convert: PATH: MESSAGE` (so any
sanitizer report, which also goes to stderr, fails the test). A case marked inspect_succeeds
holds damage only `extract` reaches: both `inspect` forms must then exit 0 quietly. A case
without a message, or an undamaged input given with --good, must pass all three commands."""
import argparse
import json
import subprocess
import sys
import tempfile


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None


def check(tool, path, args, expect_error, failures):
    # -q silences extract's success report, so that a success must leave stderr empty
    r = run([tool] + args + (["-q"] if expect_error is None else []))
    label = " ".join(args)
    if r is None:
        failures.append(f"{label}: hung (no exit within 60 s)")
        return
    if expect_error is None:
        if r.returncode != 0 or r.stderr:
            failures.append(f"{label}: expected success, got exit {r.returncode}, stderr:\n"
                            f"{r.stderr.decode(errors='replace')}")
        return
    expected = f"zluda-convert: {path}: {expect_error}\n"
    if r.returncode != 1:
        failures.append(f"{label}: exit status {r.returncode}, expected 1")
    if r.stdout:
        failures.append(f"{label}: stdout not empty:\n{r.stdout.decode(errors='replace')}")
    if r.stderr.decode(errors="replace") != expected:
        failures.append(f"{label}: stderr differs\n  expected: {expected!r}\n"
                        f"  got:      {r.stderr.decode(errors='replace')!r}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tool", required=True)
    p.add_argument("--manifest")
    p.add_argument("--case")
    p.add_argument("--good", help="an undamaged input instead of a case")
    args = p.parse_args()
    if args.good:
        path, message, inspect_message = args.good, None, None
    else:
        with open(args.manifest) as f:
            c = json.load(f)[args.case]
        path, message = c["path"], c["message"]
        inspect_message = None if c["inspect_succeeds"] else message
    failures = []
    check(args.tool, path, ["inspect", path], inspect_message, failures)
    check(args.tool, path, ["inspect", path, "--json"], inspect_message, failures)
    with tempfile.TemporaryDirectory(prefix="zc-malformed-") as out:
        check(args.tool, path, ["extract", path, "-o", out], message, failures)
    for f in failures:
        print(f"{args.case or path}: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
