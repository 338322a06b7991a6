#!/usr/bin/env python3
"""Checks that no arrow runs back up between the project's layers (docs/layers.md).

Two kinds of arrow are read:
  includes: every #include "..." of every source, resolved to the file it names;
  calls:    every global symbol an object file of the runtime stub uses and another
            defines (nm over the objects of BUILD_DIR's zc_stub_static), so that a
            function declared by hand, or reached through a header of the same folder,
            still counts.
An arrow may run from a folder to itself, or to a folder its row allows; and the stub's
files call each other in no circle but the seams SEAMS names. Prints each arrow or circle
that breaks the rules, and exits 1 when there is one.

usage: check_layers.py SOURCE_DIR [BUILD_DIR]
"""
import os
import re
import subprocess
import sys

# Each folder and the folders it may use. The runtime stub's layers, from the top:
# exports, api, drivers (each driver alone), platform, base; every part of the
# project may use abi/ and common/ (the contracts and the shared helpers), which use
# nothing.
STUB = "runtime_stub/"
RULES = {
    "abi": [],
    "common": [],
    "fatbin": ["common"],
    "backend": ["abi", "common"],
    "ptx_frontend": ["abi", "common", "backend"],
    "amdgpu_backend": ["abi", "backend"],
    "host_backend": ["abi", "backend"],
    "amdgpu_emulator": ["abi", "common"],
    "amdgpu_emulator/hip": ["abi", "common", "amdgpu_emulator"],
    STUB + "base": ["abi", "common"],
    STUB + "platform": [STUB + "base", "common"],
    STUB + "drivers": [STUB + "platform", STUB + "base", "abi"],
    STUB + "drivers/host": [STUB + "drivers", STUB + "platform", STUB + "base", "abi"],
    STUB + "drivers/hip": [STUB + "drivers", STUB + "platform", STUB + "base", "abi"],
    STUB + "api": [STUB + "drivers", STUB + "platform", STUB + "base", "abi", "common",
                   "fatbin"],
    STUB + "exports": [STUB + "api", STUB + "drivers", STUB + "drivers/host",
                       STUB + "drivers/hip", STUB + "platform", STUB + "base", "abi",
                       "common"],
    STUB + "windows": [],
    "libraries/engine": ["abi", "common"],
    "libraries/cublas": ["abi", "common", "libraries/engine"],
    "libraries/nvml": ["abi", "common", "libraries/engine"],
}
# The AOT image reader, compiled into the stub (design decision 10): the stub may use it,
# not the rest of fatbin/.
STUB_FATBIN = {"fatbin/aot_image.h", "fatbin/embed.h", "fatbin/fatbin.h",
               "fatbin/aot_image_read.c", "fatbin/aot_locate.c"}
SOURCE = (".c", ".h", ".S", ".inc", ".cu")


def folder_of(path):
    """The deepest folder of RULES holding path (relative), or None."""
    best = None
    for f in RULES:
        if path.startswith(f + "/") and (best is None or len(f) > len(best)):
            best = f
    return best


def allowed(src, dst_path):
    a, b = folder_of(src), folder_of(dst_path)
    if a is None or b is None or a == b:
        return True
    if b == "fatbin" and a.startswith(STUB):
        return dst_path in STUB_FATBIN
    return b in RULES[a]


def sources(top):
    for d in RULES:
        base = os.path.join(top, d)
        for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            if name.endswith(SOURCE):
                yield f"{d}/{name}"


def include_arrows(top):
    by_name = {}
    for path in sources(top):
        by_name.setdefault(os.path.basename(path), []).append(path)
    bad = []
    for path in sources(top):
        with open(os.path.join(top, path), encoding="utf-8", errors="replace") as f:
            for line_no, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                if not m:
                    continue
                name = m.group(1)
                local = os.path.normpath(os.path.join(os.path.dirname(path), name))
                targets = [local] if os.path.exists(os.path.join(top, local)) else \
                    by_name.get(os.path.basename(name), [])
                # Of headers that share a name, the one the rules allow is the one meant.
                if targets and not any(allowed(path, t) for t in targets):
                    bad.append(f"{path}:{line_no}: includes {targets[0]}")
    return bad


# Files of one folder may call each other, but in no circle: these arrows close the circles
# the design keeps, each a narrow seam.
SEAMS = {
    # work queued on a capturing stream becomes a node of the capture's graph
    ("runtime_stub/api/stream", "runtime_stub/api/capture"),
    # a conditional node's bodies are graphs, as a child-graph node's child is
    ("runtime_stub/api/graph_conditional", "runtime_stub/api/graph"),
    # a platform half completes the part it belongs to and calls back into it
    ("common/find_library_posix", "common/find_library"),
    ("common/find_library_windows", "common/find_library"),
    ("runtime_stub/drivers/host/drv_host_posix", "runtime_stub/drivers/host/drv_host_exec"),
    ("runtime_stub/drivers/host/drv_host_windows", "runtime_stub/drivers/host/drv_host_exec"),
}


def circles(edges):
    """The strongly connected sets of files of more than one, once the seams are taken out."""
    graph = {}
    for a, b in edges:
        if a != b and (a, b) not in SEAMS:
            graph.setdefault(a, set()).add(b)
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def call_arrows(top, build):
    objdir = os.path.join(build, "runtime_stub", "CMakeFiles", "zc_stub_static.dir")
    defined, used = {}, []
    for root, _, files in os.walk(objdir):
        for name in files:
            if not name.endswith(".o"):
                continue
            obj = os.path.join(root, name)
            rel = os.path.relpath(obj, objdir)[:-2].replace("__/", "")
            src = rel if rel.startswith(tuple(RULES)) else STUB + rel
            if not os.path.exists(os.path.join(top, src)):
                continue  # an object a renamed source left behind in the build tree
            out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    used.append((src, parts[1]))
                elif len(parts) == 3 and parts[1] in "TDBRVWC":
                    defined[parts[2]] = src
    bad, edges = [], set()
    for src, sym in used:
        dst = defined.get(sym)
        if dst and not allowed(src, dst):
            bad.append(f"{src}: calls {sym} of {dst}")
        if dst:
            edges.add((src[:-2], dst[:-2]))
    bad += ["circle: " + " <-> ".join(group) for group in circles(edges)]
    return sorted(set(bad))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    top = sys.argv[1]
    bad = include_arrows(top)
    if len(sys.argv) == 3:
        bad += call_arrows(top, sys.argv[2])
    for b in bad:
        print(b)
    print(f"check_layers: {len(bad)} arrows against the layers")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
