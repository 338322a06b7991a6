#!/usr/bin/env python3
"""Runs zluda-convert on one case of the malformed corpus and checks its answer.

The case must fail the same way under `inspect`, `inspect --json` and `extract -o DIR`: exit
status 1, nothing on stdout, and on stderr exactly `zluda-convert: PATH: MESSAGE` (so any
sanitizer report, which also goes to stderr, fails the test). A case marked inspect_succeeds
holds damage only `extract` reaches: both `inspect` forms must then exit 0 quietly. A case
without a message, or an undamaged input given with --good, must pass all three commands.
A case marked passed_over has damage confined to one entry: inspect (unless
inspect_succeeds) warns `PATH: warning: MESSAGE` and exits 0; extract warns the same, reports
what it extracted without that entry, exits 0, and lists the entry's error in index.json."""
import argparse
import json
import os
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


def check_warning(tool, path, args, warning, failures):
    """The command warns, prints its output and exits 0."""
    r = run([tool] + args)
    label = " ".join(args)
    if r is None:
        failures.append(f"{label}: hung (no exit within 60 s)")
        return
    expected = f"{path}: warning: {warning}\n"
    if r.returncode != 0 or not r.stdout:
        failures.append(f"{label}: exit status {r.returncode} (expected 0) or no output")
    if r.stderr.decode(errors="replace") != expected:
        failures.append(f"{label}: stderr differs\n  expected: {expected!r}\n"
                        f"  got:      {r.stderr.decode(errors='replace')!r}")


def check_passed_over(tool, path, out, warning, failures):
    r = run([tool, "extract", path, "-o", out])
    if r is None:
        failures.append("extract: hung (no exit within 60 s)")
        return
    with open(os.path.join(out, "index.json")) as f:
        index = json.load(f)
    n = len(index["containers"])
    expected = (f"{path}: warning: {warning}\n{path}: extracted {n} "
                f"fatbin{'' if n == 1 else 's'} to {out}, without the 1 entry that cannot be decoded (index.json says "
                "why)\n")
    if r.returncode != 0:
        failures.append(f"extract: exit status {r.returncode}, expected 0")
    if r.stderr.decode(errors="replace") != expected:
        failures.append(f"extract: stderr differs\n  expected: {expected!r}\n"
                        f"  got:      {r.stderr.decode(errors='replace')!r}")
    errors = [e["error"] for c in index["containers"] for e in c["entries"] if "error" in e]
    if len(errors) != 1 or not warning.endswith(errors[0]):
        failures.append(f"index.json errors {errors}")


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
    passed_over = not args.good and c.get("passed_over")
    if passed_over and inspect_message:
        for command in (["inspect", path], ["inspect", path, "--json"]):
            check_warning(args.tool, path, command, inspect_message, failures)
    else:
        check(args.tool, path, ["inspect", path], inspect_message, failures)
        check(args.tool, path, ["inspect", path, "--json"], inspect_message, failures)
    with tempfile.TemporaryDirectory(prefix="zc-malformed-") as out:
        if passed_over:
            check_passed_over(args.tool, path, out, message, failures)
        else:
            check(args.tool, path, ["extract", path, "-o", out], message, failures)
    for f in failures:
        print(f"{args.case or path}: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
