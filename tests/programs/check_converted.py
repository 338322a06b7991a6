"""Static checks of every code object in a converted binary (the same checks the fixture
tests make): code object v5, one descriptor per kernel of the image's table that was not
left out for the target, kernarg size
from the PTX parameters, wave32, no hidden hostcall/heap/queue arguments, no s_trap where
the PTX has no trap, and, with CHECK_DECODED (tests/emulator's check_decoded), that the
emulator implements every instruction. Usage:
check_converted.py ZLUDA_CONVERT CONVERTED_FILE [CHECK_DECODED]"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import check_fixture  # noqa: E402


def main():
    tool, converted = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        check_fixture.CHECK_DECODED = sys.argv[3]
    doc = json.loads(subprocess.run([tool, "inspect", "--json", converted], check=True,
                                    capture_output=True, text=True).stdout)
    image = doc["aot_image"]
    if image is None:
        print("check_converted: %s carries no AOT image" % converted)
        return 1
    with tempfile.TemporaryDirectory() as ex:
        subprocess.run([tool, "extract", "-q", converted, "-o", ex], check=True)
        # PTX that traps or asserts, or whose surface accesses trap outside the surface
        # (suld, sust, sured .trap), may leave s_trap in the code
        ptx = "".join(open(os.path.join(ex, f)).read() for f in os.listdir(ex) if f.endswith(".ptx"))
        traps_allowed = ("trap;" in ptx or "__assertfail" in ptx or
                         re.search(r"\bsu(ld|st|red)\.[a-z0-9_.]*\.trap\b", ptx) is not None)
        # AMDGPU's bar.red counts through one LDS word of the builtins
        lds_extra = 16 if "bar.red" in ptx else 0
        # and %reserved_smem_offset_* a region of 1024 bytes (ptx_frontend/lower_reserved.c)
        lds_extra += 1024 if "%reserved_smem_offset" in ptx else 0
        for m in image["modules"]:
            for co in m["code_objects"]:
                # RDNA3's and RDNA4's mma.sync and wgmma stage fragments through a 4096-byte
                # array in kernels of at most 256 threads (backend/builtins_matrix.c)
                staged = 4096 if (("mma.sync" in ptx or "wgmma.mma_async" in ptx) and
                                  co["target"].startswith(("gfx11", "gfx12"))) else 0
                # a kernel left out for a target has no descriptor in its code object
                left_out = {u["kernel"] for u in m["untranslated"]
                            if u["kernel"] and u["target"] in (None, co["target"])}
                kernels = [k for k in m["kernels"] if k["name"] not in left_out]
                check_fixture.check_code_object(os.path.join(ex, "%d.%s.co" % (m["index"], co["target"])),
                                                co["target"], kernels, traps_allowed, lds_extra + staged)
    for f in check_fixture.failures:
        print("check_converted: %s: %s" % (os.path.basename(converted), f))
    return 1 if check_fixture.failures else 0


if __name__ == "__main__":
    sys.exit(main())
