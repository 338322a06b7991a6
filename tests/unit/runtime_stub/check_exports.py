"""libcuda.so.1 exports every symbol NVIDIA's does that cuGetProcAddress can name
(procaddress.tsv), so that a program linked with -lcuda finds each one it uses; a function
the stub does not implement answers CUDA_ERROR_NOT_SUPPORTED and names itself in the trace."""

import ctypes
import os
import subprocess
import sys

CUDA_ERROR_NOT_SUPPORTED = 801


def main():
    library, table = sys.argv[1], sys.argv[2]
    if len(sys.argv) == 4:  # the child: call one unimplemented function with tracing on
        lib = ctypes.CDLL(library)
        if lib.cuInit(0) != 0:
            print("cuInit failed")
            return 1
        rc = lib[sys.argv[3]](None, ctypes.c_size_t(0), 0)
        print("rc %d" % rc)
        return 0
    symbols = set()
    with open(table) as f:
        for line in f:
            if line.startswith("cu"):
                symbols.add(line.rstrip("\n").split("\t")[-1])
    lib = ctypes.CDLL(library)
    missing = sorted(s for s in symbols if not hasattr(lib, s))
    problems = ["%d of %d symbols not exported, first %s" % (len(missing), len(symbols), missing[:5])] \
        if missing else []
    for name in ("cuGraphAddExternalSemaphoresSignalNode", "cuMemPoolExportToShareableHandle",
                 "cuIpcGetMemHandle"):
        env = dict(os.environ, ZLUDA_CONVERT_DRIVER="host", ZLUDA_CONVERT_TRACE="1")
        p = subprocess.run([sys.executable, __file__, library, table, name], env=env,
                           capture_output=True, text=True, timeout=60)
        if p.stdout.strip() != "rc %d" % CUDA_ERROR_NOT_SUPPORTED or name not in p.stderr:
            problems.append("%s: stdout %r, stderr %r" % (name, p.stdout, p.stderr[-300:]))
    for pr in problems:
        print("FAIL:", pr)
    print("PASS" if not problems else "FAIL")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
