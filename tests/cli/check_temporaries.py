#!/usr/bin/env python3
"""A conversion ended by a signal leaves no temporaries.

Usage: check_temporaries.py TOOL LIBCUDA

Converts TOOL itself (an ELF file without fatbins, so its output is as large as it is) under a
file-size limit, so that the kernel ends the conversion with SIGXFSZ in the middle of a write:
once while the driver (LIBCUDA) is copied beside the output, once while the output is
written. Each time the process must die of that signal, and the output directory must hold
nothing but what was complete: no temporary, no output.
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
from checks import check, summary  # noqa: E402


def converted_under_limit(tool, limit):
    work = tempfile.mkdtemp(prefix="zc-temporaries-")
    try:
        def limited():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        result = subprocess.run([tool, tool, "-o", os.path.join(work, "out"), "--offload-arch=host", "-q"],
                                capture_output=True, text=True, preexec_fn=limited)
        return result.returncode, sorted(os.listdir(work))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    tool, libcuda = sys.argv[1:]
    size = os.path.getsize(libcuda)
    rc, left = converted_under_limit(tool, size // 2)
    check(rc == -signal.SIGXFSZ and left == [],
          f"ended while copying the driver: died of SIGXFSZ ({rc}), left {left}")
    rc, left = converted_under_limit(tool, size + 65536)
    check(rc == -signal.SIGXFSZ and left == ["libcuda.so", "libcuda.so.1"],
          f"ended while writing the output: died of SIGXFSZ ({rc}), left {left}")
    return summary("check_temporaries")


if __name__ == "__main__":
    sys.exit(main())
