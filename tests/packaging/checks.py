"""What the packaging checks share: each check printed as ok or FAIL, and the failures."""
import subprocess

failures = []


def check(ok, what):
    print(("ok " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def summary(name):
    """The last line, which the test's pass expression reads, and the exit status."""
    print(f"{name}: {len(failures)} failures")
    return 1 if failures else 0
