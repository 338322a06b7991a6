#!/usr/bin/env python3
"""Static checks of the code objects zc-codegen makes from one hand-written .ll file.

usage: check_code_objects.py ZC_CODEGEN LLVM_READOBJ LLVM_OBJDUMP WORK_DIR INPUT.ll

The .ll file states what to expect in comments:
  ; CHECK-KERNEL: NAME kernarg=BYTES group=BYTES [max_threads=N] [dynamic]
  ; CHECK-TRAP            (the kernel asks for a trap: s_trap must be present)

For gfx1030, gfx1100 and gfx1200: an AMDGPU HSA ELF of code object v5 for that processor,
one kernel descriptor per kernel, the metadata's kernarg size, LDS size, wave32, block size
limit, no hidden arguments the runtime would have to allocate, no s_trap unless asked.
For host: an x86-64 shared object exporting each kernel's entry (a thread or a block entry)
and the ABI version only.
Every target's bytes must be the same on a second run.
"""
import re
import subprocess
import sys
from pathlib import Path

GFX_TARGETS = {"gfx1030": "GFX1030", "gfx1100": "GFX1100", "gfx1200": "GFX1200"}
TARGETS = list(GFX_TARGETS) + ["host"]
# Hidden arguments that make the HIP runtime allocate or set up something per launch.
FORBIDDEN_HIDDEN = {"hidden_hostcall_buffer", "hidden_heap_v1", "hidden_queue_ptr",
                    "hidden_multigrid_sync_arg", "hidden_default_queue",
                    "hidden_completion_action", "hidden_printf_buffer"}

failures = []


def fail(message):
    failures.append(message)


def run(*args):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(map(str, args))} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def expectations(ll_text):
    kernels = {}
    for m in re.finditer(r"^; CHECK-KERNEL: (\S+)(.*)$", ll_text, re.M):
        fields = dict(f.split("=") if "=" in f else (f, "1") for f in m.group(2).split())
        kernels[m.group(1)] = {
            "kernarg": int(fields["kernarg"]),
            "group": int(fields["group"]),
            "max_threads": int(fields.get("max_threads", 1024)),
        }
    return kernels, bool(re.search(r"^; CHECK-TRAP\b", ll_text, re.M))


def metadata_kernels(notes):
    """The kernels of the NT_AMDGPU_METADATA YAML: {name: {key: value, 'value_kinds': []}}."""
    kernels, current, inside = {}, None, False
    for line in notes.splitlines():
        if line.startswith("amdhsa.kernels:"):
            inside = True
            continue
        if inside and re.match(r"^\S", line):
            inside = False
        if not inside:
            continue
        if line.startswith("  - "):
            current = {"value_kinds": []}
            line = "    " + line[4:]
        m = re.match(r"^    \.(\w+):\s*(.*)$", line)
        if m and current is not None:
            current[m.group(1)] = m.group(2).strip()
            if m.group(1) == "name":
                kernels[m.group(2).strip()] = current
        kind = re.search(r"\.value_kind:\s*(\w+)", line)
        if kind and current is not None:
            current["value_kinds"].append(kind.group(1))
    return kernels


def check_amdgpu(target, path, readobj, objdump, expected, wants_trap):
    where = f"{path.name}"
    text = run(readobj, "--file-headers", "--notes", "--dyn-syms", path)
    for needle in ("OS/ABI: AMDGPU_HSA (0x40)", "ABIVersion: 3", "Machine: EM_AMDGPU (0xE0)",
                   "Type: SharedObject", f"EF_AMDGPU_MACH_AMDGCN_{GFX_TARGETS[target]} "):
        if needle not in text:
            fail(f"{where}: no '{needle.strip()}' in the ELF header (code object v5 for {target})")
    if not re.search(r"amdhsa\.version:\s*\n\s*- 1\s*\n\s*- 2\b", text):
        fail(f"{where}: amdhsa.version is not [1, 2] (code object v5)")
    if f"amdhsa.target:   amdgcn-amd-amdhsa--{target}" not in text:
        fail(f"{where}: amdhsa.target is not amdgcn-amd-amdhsa--{target}")
    descriptors = sorted(re.findall(r"Name: (\S+)\.kd\b", text))
    if descriptors != sorted(expected):
        fail(f"{where}: kernel descriptors {descriptors}, expected {sorted(expected)}")
    found = metadata_kernels(text)
    if sorted(found) != sorted(expected):
        fail(f"{where}: metadata lists kernels {sorted(found)}, expected {sorted(expected)}")
    for name, want in expected.items():
        got = found.get(name)
        if got is None:
            continue
        checks = {
            "kernarg_segment_size": want["kernarg"],
            "group_segment_fixed_size": want["group"],
            "wavefront_size": 32,
            "max_flat_workgroup_size": want["max_threads"],
            "private_segment_fixed_size": 0,
        }
        for key, value in checks.items():
            if got.get(key) != str(value):
                fail(f"{where}: {name}: .{key} is {got.get(key)}, expected {value}")
        bad = FORBIDDEN_HIDDEN.intersection(got["value_kinds"])
        if bad:
            fail(f"{where}: {name}: hidden arguments {sorted(bad)}")
    traps = len(re.findall(r"\bs_trap\b", run(objdump, "-d", path)))
    if wants_trap and traps == 0:
        fail(f"{where}: the kernel asks for a trap but the code has no s_trap")
    if not wants_trap and traps:
        fail(f"{where}: {traps} s_trap instruction(s) where none was asked for")


def check_host(path, readobj, expected):
    where = path.name
    text = run(readobj, "--file-headers", "--dyn-syms", "--needed-libs", path)
    for needle in ("Machine: EM_X86_64", "Type: SharedObject"):
        if needle not in text:
            fail(f"{where}: no '{needle}' in the ELF header")
    exported = {}
    for block in re.findall(r"Symbol \{(.*?)\}", text, re.S):
        name = re.search(r"Name: (\S*) ?\(", block).group(1)
        if "Section: Undefined" not in block and "Binding: Global" in block:
            exported[name] = re.search(r"Type: (\w+)", block).group(1)
    for name in expected:
        for entry in (name, name + ".zc_x86_64_v3"):
            if "Function" not in (exported.get(entry), exported.get(entry + ".zc_block")):
                fail(f"{where}: kernel entry {entry} (or its block entry) is not an exported function")
    if exported.get("__zc_host_abi_version") != "Object":
        fail(f"{where}: __zc_host_abi_version is not exported")
    extra = sorted(n for n in exported if n.startswith("__zc_") and n != "__zc_host_abi_version")
    if extra:
        fail(f"{where}: builtins exported: {extra}")
    needed = re.findall(r"^\s+(\S+\.so\S*)\s*$", text.split("NeededLibraries", 1)[-1], re.M)
    if set(needed) - {"libm.so.6"}:
        fail(f"{where}: needs {needed}, expected at most libm.so.6")


def main():
    codegen, readobj, objdump, work, ll = map(Path, sys.argv[1:6])
    expected, wants_trap = expectations(ll.read_text())
    if not expected:
        sys.exit(f"{ll}: no CHECK-KERNEL line")
    runs = [work / "first", work / "second"]
    for out in runs:
        out.mkdir(parents=True, exist_ok=True)
        run(codegen, *[f"--target={t}" for t in TARGETS], "-o", out, ll)
    for target in TARGETS:
        first, second = (out / f"{ll.stem}.{target}.co" for out in runs)
        if first.read_bytes() != second.read_bytes():
            fail(f"{first.name}: different bytes on a second run")
        if target == "host":
            check_host(first, readobj, expected)
        else:
            check_amdgpu(target, first, readobj, objdump, expected, wants_trap)
    for message in failures:
        print(f"FAIL {message}")
    if failures:
        sys.exit(1)
    print(f"{ll.name}: {len(TARGETS)} targets, {len(expected)} kernel(s): all checks passed")


if __name__ == "__main__":
    main()
