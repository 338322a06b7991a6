#!/usr/bin/env python3
"""Device printf of several times the FIFO's size in one kernel loses nothing, as on an
H200: the converted printf_overflow program (tests/programs, converted by the `programs`
test) run with the environment given prints every record in order, then the three lines of
the next kernel and PASS.
usage: check_printf_overflow.py CONVERTED_PROGRAM [NAME=VALUE...]"""
import os
import re
import subprocess
import sys


def main():
    program = sys.argv[1]
    env = dict(os.environ)
    env.update(a.split("=", 1) for a in sys.argv[2:])
    p = subprocess.run([program], capture_output=True, text=True, timeout=900, env=env,
                       cwd=os.path.dirname(program))
    lines = p.stdout.splitlines()
    records = [re.fullmatch(r"record (\d+) of (\d+)", l) for l in lines[:-4]]
    tail = lines[-4:]
    problems = []
    if p.returncode != 0:
        problems.append("exit %d, stderr %r" % (p.returncode, p.stderr[-2000:]))
    if tail != ["after 0", "after 1", "after 2", "PASS"]:
        problems.append("the last lines are %r" % tail)
    if not records or not all(records):
        problems.append("a line that is no record before the last four")
    else:
        numbers = [int(m.group(1)) for m in records]
        n = int(records[0].group(2))
        if numbers != list(range(n)):
            problems.append("%d of %d records came out (%d..%d), not all in order"
                            % (len(numbers), n, numbers[0], numbers[-1]))
    for pr in problems:
        print("FAIL " + pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
