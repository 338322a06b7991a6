"""Runs one CLI case from cases.py and compares exit code, stdout and stderr exactly."""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

import synth
from cases import CASES


def build_description():
    """The commit of the checkout these tests are in (as cmake/commit.cmake names it) and the
    version of LLVM 22 installed."""
    here = os.path.dirname(os.path.abspath(__file__))
    git = lambda *a: subprocess.run(["git", "-C", here] + list(a), capture_output=True, text=True)
    head = git("rev-parse", "--short=12", "HEAD")
    commit = "unknown"
    if head.returncode == 0:
        dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
        commit = head.stdout.strip() + ("-dirty" if dirty else "")
    llvm = subprocess.run(["llvm-config-22", "--version"], capture_output=True, text=True).stdout.strip()
    return "commit %s, LLVM %s" % (commit, llvm)


def main():
    tool, name = sys.argv[1], sys.argv[2]
    args, want_rc, want_out, want_err = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        fatbin = os.path.join(tmp, "sample.fatbin")
        with open(fatbin, "wb") as f:
            f.write(synth.sample())
        fatbin_corrupt = os.path.join(tmp, "corrupt.fatbin")
        with open(fatbin_corrupt, "wb") as f:
            f.write(synth.corrupt())
        shlib = os.path.join(tmp, "libtiny.so")
        with open(shlib, "wb") as f:
            f.write(synth.shared_object())
        os.chmod(shlib, 0o755)
        ptx = os.path.join(tmp, "sample.ptx")
        with open(ptx, "wb") as f:
            f.write(synth.PTX)
        ptx_left_out = os.path.join(tmp, "left_out.ptx")
        with open(ptx_left_out, "wb") as f:
            f.write(synth.PTX_LEFT_OUT)
        ptx_too_much_stack = os.path.join(tmp, "too_much_stack.ptx")
        with open(ptx_too_much_stack, "wb") as f:
            f.write(synth.PTX_TOO_MUCH_STACK)
        subst = lambda s: (s.replace("{fatbin}", fatbin).replace("{ptx}", ptx)
                           .replace("{fatbin_corrupt}", fatbin_corrupt).replace("{shlib}", shlib)
                           .replace("{ptx_left_out}", ptx_left_out)
                           .replace("{ptx_too_much_stack}", ptx_too_much_stack)
                           .replace("{elf}", tool).replace("{tmp}", tmp)
                           .replace("{build}", build_description() if "{build}" in s else ""))
        if name.startswith("convert_driver_not_ours"):  # a link to another driver there
            os.symlink("/nonexistent/libcuda.so.1", os.path.join(tmp, "libcuda.so.1"))
        if name == "convert_link_not_ours":  # a libcuda.so that is not ours, even dangling
            os.symlink("/nonexistent/libcuda.so", os.path.join(tmp, "libcuda.so"))
        env = dict(os.environ)
        if name.startswith("doctor_converted"):
            prepare_converted(tool, name, tmp, ptx, env)
        p = subprocess.run([tool] + [subst(a) for a in args], capture_output=True, text=True,
                           timeout=60, env=env)
        # the convert summary's time is the one part that varies
        stderr = re.sub(r" \(\d+\.\d s\)$", "", p.stderr, flags=re.M)
        problems = []
        if want_rc is not None and p.returncode != want_rc:
            problems.append("exit code %d, expected %d" % (p.returncode, want_rc))
        if want_out is not None and p.stdout != subst(want_out):
            problems.append("stdout:\n%s\nexpected:\n%s" % (p.stdout, subst(want_out)))
        if stderr != subst(want_err):
            problems.append("stderr:\n%s\nexpected:\n%s" % (stderr, subst(want_err)))
        if name.startswith("extract_sample") and not problems:
            problems += check_extracted(os.path.join(tmp, "x"))
        if name.startswith("convert_module_file") and not problems:
            source = fatbin if name.endswith("fatbin") else ptx
            problems += check_module_file(tool, source, os.path.join(tmp, "out"))
        if name.startswith("doctor_converted") and not problems:
            problems += check_doctor(name, json.loads(p.stdout))
        if name.startswith("convert_driver_not_ours") and not problems:
            out_written = os.path.exists(os.path.join(tmp, "out"))
            if out_written != name.endswith("replaced"):
                problems.append("the output was%s written" % ("" if out_written else " not"))
            driver = os.path.join(tmp, "libcuda.so.1")
            if os.path.islink(driver) == name.endswith("replaced"):
                problems.append("the driver file beside it was%s replaced"
                                % ("" if not os.path.islink(driver) else " not"))
        if name == "convert_left_out" and not problems:
            problems += check_left_out(tool, os.path.join(tmp, "out"))
    for pr in problems:
        print("FAIL %s: %s" % (name, pr))
    return 1 if problems else 0


def prepare_converted(tool, name, tmp, ptx, env):
    """doctor_converted_*: a program converted for the CPU in {tmp}/conv (zluda-convert
    itself, which has no fatbin), or the PTX file converted (tampered), then damaged as
    the case's name says."""
    conv = os.path.join(tmp, "conv")
    os.mkdir(conv)
    if name.endswith("tampered"):
        out = os.path.join(conv, "prog")
        subprocess.run([tool, "-q", ptx, "-o", out, "--offload-arch=host"], check=True)
        subprocess.run([tool, "-q", "extract", out, "-o", os.path.join(tmp, "x")], check=True)
        with open(os.path.join(tmp, "x", "0.host.co"), "rb") as f:
            code = f.read()
        with open(out, "rb") as f:
            data = bytearray(f.read())
        at = data.find(code) + len(code) // 2
        data[at] ^= 0xff
        with open(out, "wb") as f:
            f.write(data)
        return
    subprocess.run([tool, "-q", tool, "-o", os.path.join(conv, "prog"), "--offload-arch=host"],
                   check=True)
    driver = os.path.join(conv, "libcuda.so.1")
    if name.endswith("driver_missing"):
        os.unlink(driver)
    elif name.endswith("driver_cut"):
        os.truncate(driver, os.path.getsize(driver) // 2)
    elif name.endswith("bad_variable"):
        env["ZLUDA_CONVERT_DRIVER"] = "foo"


def check_doctor(name, report):
    """What doctor --json must say of the damage prepare_converted did."""
    want = {
        "doctor_converted_ok": ("driver_file_problem", None),
        "doctor_converted_driver_missing": (
            "driver_file_problem", "missing: the program finds another driver, or none"),
        "doctor_converted_driver_cut": (
            "driver_file_problem", "damaged (cut short): convert the program again"),
        "doctor_converted_bad_variable": (
            "why", "ZLUDA_CONVERT_DRIVER=foo is not hip, cuda or host: the driver refuses it"),
        "doctor_converted_tampered": (
            "damaged", "its code object for host is damaged: AOT image: code object for host "
            "does not match its hash"),
    }[name]
    key, value = want
    got = report["files"][0].get(key) if key == "damaged" else report.get(key)
    problems = [] if got == value else ["%s: %r, expected %r" % (key, got, value)]
    if name != "doctor_converted_ok" and report["runs_on_gpu"]:
        problems.append("runs_on_gpu with the damage")
    return problems


def check_module_file(tool, source, out):
    """The original bytes (a PTX text NUL-terminated), the image 64-aligned, a trailer that
    points at it; inspect reads the original and shows the image."""
    with open(source, "rb") as f:
        original = f.read()
    with open(out, "rb") as f:
        converted = f.read()
    problems = []
    magic, start, size, original_size = struct.unpack("<8sQQQ", converted[-32:])
    if magic != b"ZLUDAMF1" or original_size != len(original) or start % 64:
        problems.append("trailer %s" % converted[-32:].hex())
    if not converted.startswith(original):
        problems.append("the original bytes are not kept")
    if source.endswith(".ptx") and converted[len(original)] != 0:
        problems.append("the PTX text is not NUL-terminated")
    if converted[start:start + 8] != b"ZLUDAAOT":
        problems.append("no image at offset %d" % start)
    p = subprocess.run([tool, "inspect", out], capture_output=True, text=True, timeout=60)
    if p.returncode != 0 or "2 kernels; host" not in p.stdout or "first_kernel" not in p.stdout:
        problems.append("inspect of the output:\n%s%s" % (p.stdout, p.stderr))
    return problems


def check_left_out(tool, out):
    """inspect names each left-out kernel with its reason, and the kept one has code."""
    p = subprocess.run([tool, "inspect", "--json", out], capture_output=True, text=True, timeout=60)
    module = json.loads(p.stdout)["aot_image"]["modules"][0]
    left_out = sorted((u["kernel"], u["target"]) for u in module["untranslated"])
    problems = []
    if left_out != [("multicast_%02d" % i, "host") for i in range(12)]:
        problems.append("left out per inspect: %s" % left_out)
    if [co["target"] for co in module["code_objects"]] != ["host"]:
        problems.append("code objects %s" % module["code_objects"])
    p = subprocess.run([tool, "inspect", out], capture_output=True, text=True, timeout=60)
    want = ("    kernel multicast_11 left out for host: the PTX file, line 103:2: not supported "
            "yet: multimem.red.relaxed.sys.global.add.u32 in kernel multicast_11\n")
    if want not in p.stdout:
        problems.append("inspect does not say:\n%s" % want)
    return problems


def check_extracted(out):
    """The files hold the synthetic entries' exact bytes, and index.json names them."""
    problems = []
    want = {"0.sm_80.cubin": b"\x7fELF" + b"\0" * 60, "0.sm_80.ptx": synth.PTX,
            "0.sm_90.bin": b"opaque\0\0"}
    for name, data in want.items():
        with open(os.path.join(out, name), "rb") as f:
            if f.read() != data:
                problems.append("%s does not hold the entry's bytes" % name)
    with open(os.path.join(out, "index.json")) as f:
        files = [e["file"] for c in json.load(f)["containers"] for e in c["entries"]]
    if files != list(want):
        problems.append("index.json files %s" % files)
    return problems


if __name__ == "__main__":
    sys.exit(main())
