#!/usr/bin/env python3
"""The emulator's instruction-family tests: small kernels in AMDGPU assembly, assembled with
llvm-mc-22 and linked with ld.lld-22 into code objects, run on the emulator by run_kernel,
which compares the words of the kernel's output buffer against the values these tests work
out from the ISA's descriptions (here, in Python, never from the emulator's output).

  emutest.py FAMILY --run-kernel PATH --work DIR [--processor P ...] [--keep]

FAMILY is a module of families/ (families/salu.py ...). Each defines CASES, functions that
take a Target (one processor) and return a Kernel (or None where the case does not exist on
that processor). A Kernel collects assembly and, for each value it stores, the value
expected, so that the check stays next to the instruction it checks.

Conventions of every kernel: s[0:1] is the kernarg pointer, s[2:3] the output buffer (the
kernel's only argument), v0 the work-item id, v1 four times it; v60-v63 and s90-s95 belong
to the framework; a test uses v2-v59 and s4-s89. Each checked value is stored into a slot of
the buffer, one word per work-item; words no store writes must keep their initial value, a
pattern distinct per word."""
import argparse
import importlib
import os
import re
import subprocess
import sys
import textwrap
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
PROCESSORS = {"gfx1030": 10, "gfx1100": 11, "gfx1200": 12}
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")
LD_LLD = os.environ.get("LD_LLD", "ld.lld-22")
OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22")
NM = os.environ.get("LLVM_NM", "llvm-nm-22")

M32 = 0xffffffff
M64 = (1 << 64) - 1
KEEP = "keep"   # an expected word a store must not change (its lane was inactive)
ANY = "any"     # a word not checked


def fill(word):
    """The initial value of a word of the buffer no input gave."""
    return 0xa5000000 | word


# ---------------------------------------------------------------- exact IEEE arithmetic
# Values are Fractions; NaNs and infinities are the strings "nan", "+inf", "-inf".

class Format:
    def __init__(self, ebits, mbits):
        self.ebits, self.mbits = ebits, mbits
        self.bias = (1 << (ebits - 1)) - 1
        self.width = 1 + ebits + mbits


F32 = Format(8, 23)
F64 = Format(11, 52)


def decode(bits, fmt=F32):
    sign = bits >> (fmt.width - 1) & 1
    e = bits >> fmt.mbits & ((1 << fmt.ebits) - 1)
    m = bits & ((1 << fmt.mbits) - 1)
    if e == (1 << fmt.ebits) - 1:
        return "nan" if m else ("-inf" if sign else "+inf")
    if e == 0:
        v = Fraction(m, 1 << (fmt.mbits + fmt.bias - 1))
    else:
        v = Fraction((1 << fmt.mbits) | m) * Fraction(2) ** (e - fmt.bias - fmt.mbits)
    return -v if sign else v


def floor_log2(a):
    """The e with 2**e <= a < 2**(e+1), for a Fraction a > 0."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    elif Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def encode(x, fmt=F32, mode="rne", negative_zero=False):
    """The bits of X rounded to FMT: modes rne (to nearest, ties to even), rtz, rup (toward
    +inf), rdn (toward -inf); subnormal results are kept (no flushing)."""
    if isinstance(x, str):
        if x == "nan":
            return ((1 << (fmt.ebits + 1)) - 1) << (fmt.mbits - 1)  # the default quiet NaN
        return (1 if x == "-inf" else 0) << (fmt.width - 1) | ((1 << fmt.ebits) - 1) << fmt.mbits
    x = Fraction(x)
    sign = 1 if x < 0 or (x == 0 and negative_zero) else 0
    a = abs(x)
    if a == 0:
        return sign << (fmt.width - 1)
    emin = 1 - fmt.bias
    e = max(floor_log2(a), emin)
    quantum = Fraction(2) ** (e - fmt.mbits)
    n, rest = divmod(a, quantum)
    n = int(n)
    up = {"rne": rest > quantum / 2 or (rest == quantum / 2 and n & 1),
          "rtz": False,
          "rup": rest > 0 and not sign,
          "rdn": rest > 0 and bool(sign)}[mode]
    n += 1 if up else 0
    if n == 1 << (fmt.mbits + 1):
        n >>= 1
        e += 1
    if e > fmt.bias:  # overflow
        to_inf = mode == "rne" or (mode == "rup" and not sign) or (mode == "rdn" and sign)
        if to_inf:
            return sign << (fmt.width - 1) | ((1 << fmt.ebits) - 1) << fmt.mbits
        return sign << (fmt.width - 1) | ((1 << (fmt.ebits + fmt.mbits)) - 1 - (1 << fmt.mbits))
    if n < 1 << fmt.mbits:
        return sign << (fmt.width - 1) | n
    return sign << (fmt.width - 1) | (e + fmt.bias) << fmt.mbits | (n - (1 << fmt.mbits))


def f32(x, mode="rne"):
    """The f32 bits of a number given exactly (int, Fraction, or a decimal string)."""
    return encode(Fraction(x), F32, mode)


def f64(x, mode="rne"):
    return encode(Fraction(x), F64, mode)


def v32(bits):
    """The exact value of f32 bits."""
    return decode(bits, F32)


def v64(bits):
    return decode(bits, F64)


def fop(op, *operands, fmt=F32, mode="rne"):
    """An IEEE operation on finite operands given as bits (add, sub, mul, fma), rounded
    once: the bits of the result, with the sign of a zero result as IEEE gives it."""
    vals = [decode(b, fmt) for b in operands]
    assert all(not isinstance(v, str) for v in vals), "finite operands only"
    signs = [b >> (fmt.width - 1) & 1 for b in operands]

    def zero_sum_sign(sx, sy):  # the sign of an exact zero sum of two zeros or opposites
        return int(sx and sy) if mode != "rdn" else int(sx or sy)

    if op == "add":
        exact = vals[0] + vals[1]
        zs = zero_sum_sign(signs[0], signs[1]) if vals[0] == 0 and vals[1] == 0 else int(mode == "rdn")
    elif op == "sub":
        exact = vals[0] - vals[1]
        zs = zero_sum_sign(signs[0], 1 - signs[1]) if vals[0] == 0 and vals[1] == 0 else int(mode == "rdn")
    elif op == "mul":
        exact = vals[0] * vals[1]
        zs = signs[0] ^ signs[1]
    elif op == "fma":
        product = vals[0] * vals[1]
        exact = product + vals[2]
        ps = signs[0] ^ signs[1]
        zs = zero_sum_sign(ps, signs[2]) if product == 0 and vals[2] == 0 else int(mode == "rdn")
    else:
        raise ValueError(op)
    return encode(exact, fmt, mode, negative_zero=exact == 0 and bool(zs))


def s32(x):
    """A 32-bit two's complement value as a Python int."""
    x &= M32
    return x - (1 << 32) if x >> 31 else x


# ---------------------------------------------------------------- kernels

# gfx11's spellings, which kernels use, as gfx10 and gfx12 spell them.
GFX10_NAMES = {
    "global_load_b32": "global_load_dword", "global_load_b64": "global_load_dwordx2",
    "global_load_b128": "global_load_dwordx4", "global_store_b32": "global_store_dword",
    "global_store_b64": "global_store_dwordx2", "global_atomic_add_u32": "global_atomic_add",
    "global_atomic_cmpswap_b64": "global_atomic_cmpswap_x2",
    "global_atomic_cmpswap_b32": "global_atomic_cmpswap",
    "s_load_b32": "s_load_dword", "s_load_b64": "s_load_dwordx2",
    "ds_store_b32": "ds_write_b32", "ds_load_b32": "ds_read_b32",
    "ds_store_2addr_b32": "ds_write2_b32", "ds_load_2addr_b32": "ds_read2_b32",
    "ds_store_b64": "ds_write_b64", "ds_load_b64": "ds_read_b64",
    "ds_store_b8": "ds_write_b8", "ds_load_u8": "ds_read_u8", "ds_load_i8": "ds_read_i8",
    "ds_store_b16": "ds_write_b16", "ds_load_u16": "ds_read_u16", "ds_load_i16": "ds_read_i16",
    "s_clz_i32_u64": "s_flbit_i32_b64", "s_cls_i32_i64": "s_flbit_i32_i64",
    "s_and_not0_wrexec_b64": "s_andn1_wrexec_b64",
    "ds_storexchg_2addr_rtn_b32": "ds_wrxchg2_rtn_b32", "ds_load_addtid_b32": "ds_read_addtid_b32",
    "ds_store_addtid_b32": "ds_write_addtid_b32",
}
GFX12_NAMES = {
    "s_add_u32": "s_add_co_u32", "s_addc_u32": "s_add_co_ci_u32",
    "s_sub_u32": "s_sub_co_u32", "s_subb_u32": "s_sub_co_ci_u32",
}


class Target:
    def __init__(self, processor):
        self.processor = processor
        self.gen = PROCESSORS[processor]

    def name(self, mnemonic):
        table = GFX10_NAMES if self.gen == 10 else GFX12_NAMES if self.gen == 12 else {}
        return table.get(mnemonic, mnemonic)

    # Waits, and the atomic-return modifier, as each generation writes them.
    def wait(self, what):
        if self.gen == 12:
            return {"smem": "s_wait_kmcnt 0", "load": "s_wait_loadcnt 0",
                    "store": "s_wait_storecnt 0", "ds": "s_wait_dscnt 0"}[what]
        return {"smem": "s_waitcnt lgkmcnt(0)", "load": "s_waitcnt vmcnt(0)",
                "store": "s_waitcnt_vscnt null, 0", "ds": "s_waitcnt lgkmcnt(0)"}[what]

    @property
    def rtn(self):
        return "th:TH_ATOMIC_RETURN" if self.gen == 12 else "glc"

    def translate(self, line):
        """A line written in gfx11's spelling, in this processor's; WAIT_SMEM, WAIT_LOAD,
        WAIT_STORE, WAIT_DS and RTN are placeholders for what differs."""
        m = re.match(r"(\s*)([A-Za-z_][\w.]*)(.*)$", line)
        if m and not m.group(2).endswith(":") and not m.group(2).startswith("."):
            line = m.group(1) + self.name(m.group(2)) + m.group(3)
        line = re.sub(r"\bWAIT_(SMEM|LOAD|STORE|DS)\b", lambda w: self.wait(w.group(1).lower()), line)
        return re.sub(r"\bRTN\b", self.rtn, line)


class Kernel:
    """One kernel and its expectations. Slots are rows of BLOCK words of the buffer."""

    def __init__(self, t, name, block=32, lds=0, scratch=0, private_buffer=False):
        """private_buffer: the dispatch hands over the private segment buffer's V# (gfx10's
        scratch through MUBUF), which the kernel then finds in s[8:11]."""
        self.t, self.name, self.block, self.lds, self.scratch = t, name, block, lds, scratch
        self.private_buffer = private_buffer
        self.lines = []
        self.tail = []        # code placed after the kernel's s_endpgm (functions it calls)
        self.nslots = 0
        self.init = {}        # word -> initial value
        self.expect = {}      # word -> expected value (beyond the initial ones)
        self.error = None     # the message a failing launch must give
        self.error_at = None  # (symbol, format): the message names the instruction at symbol
        self.fault = None     # with error_at: the fault's description rather than "not emulated"
        self.cycles = None    # the cycle estimate the launch must give (zc_emu_cycles_estimated)
        if private_buffer:
            # the V# comes first (s[0:3]), then the kernarg pointer (s[4:5])
            self.asm("""
                s_mov_b64 s[8:9], s[0:1]
                s_mov_b64 s[10:11], s[2:3]
                s_mov_b64 s[0:1], s[4:5]
            """)
        self.asm(f"""
            s_load_b64 s[2:3], s[0:1], 0x0
            v_lshlrev_b32 v1, 2, v0
            WAIT_SMEM
        """)

    def asm(self, text, tail=False):
        for line in textwrap.dedent(text).strip("\n").split("\n"):
            (self.tail if tail else self.lines).append(self.t.translate(line))
        return self

    def slot(self, n=1):
        first = self.nslots
        self.nslots += n
        return first

    def _address(self, slot, stride=4):
        """v60 = the address, relative to s[2:3], of this lane's word(s) in SLOT."""
        offset = slot * self.block * 4
        if stride == 4:
            self.asm(f"v_add_nc_u32 v60, {offset:#x}, v1")
        else:
            self.asm(f"""
                v_lshlrev_b32 v60, {stride.bit_length() - 1}, v0
                v_add_nc_u32 v60, {offset:#x}, v60
            """)

    def _lanes(self, values):
        if isinstance(values, (list, tuple)):
            assert len(values) == self.block, (len(values), self.block)
            return list(values)
        return [values] * self.block

    def input(self, vreg, values, dwords=1):
        """Loads VALUES (one int per lane, of DWORDS words each; or one for all lanes) into
        VREG (a register or range), from a slot of the buffer set up before the launch."""
        slot = self.slot(dwords)
        lanes = self._lanes(values)
        for lane, v in enumerate(lanes):
            for k in range(dwords):
                self.init[slot * self.block + lane * dwords + k] = v >> (32 * k) & M32
        self._address(slot, 4 * dwords)
        size = {1: "b32", 2: "b64", 4: "b128"}[dwords]
        self.asm(f"""
            global_load_{size} {vreg}, v60, s[2:3]
            WAIT_LOAD
        """)
        return self

    def data(self, values, dwords=1, expect=None):
        """Reserves a slot of the buffer holding VALUES for the kernel to address itself;
        EXPECT: what it must hold afterwards (default: unchanged). Returns its byte offset."""
        slot = self.slot(dwords)
        lanes = self._lanes(values)
        after = self._lanes(expect) if expect is not None else lanes
        for lane in range(self.block):
            for k in range(dwords):
                w = slot * self.block + lane * dwords + k
                self.init[w] = lanes[lane] >> (32 * k) & M32
                self.expect[w] = after[lane] >> (32 * k) & M32
        return slot * self.block * 4

    def check_v(self, vreg, values):
        """Stores VREG for every active lane; VALUES: one per lane (int, KEEP or ANY) or one
        for all."""
        slot = self.slot()
        for lane, v in enumerate(self._lanes(values)):
            self.expect[slot * self.block + lane] = v if isinstance(v, str) else v & M32
        self._address(slot)
        self.asm(f"global_store_b32 v60, {vreg}, s[2:3]")
        return self

    def check_v64(self, vrange, values):
        """A 64-bit register pair, as two slots: low words, then high words."""
        lo, hi = re.match(r"v\[(\d+):(\d+)\]", vrange).groups()
        lanes = self._lanes(values)
        self.check_v(f"v{lo}", [v if isinstance(v, str) else v & M32 for v in lanes])
        self.check_v(f"v{hi}", [v if isinstance(v, str) else v >> 32 & M32 for v in lanes])
        return self

    def check_s(self, sreg, value, active=None):
        """Stores a scalar operand (an SGPR, vcc_lo, exec_lo, a constant); ACTIVE: the lanes
        EXEC has enabled at this point (default: all), the others keep their words."""
        self.asm(f"v_mov_b32 v61, {sreg}")
        if active is None:
            return self.check_v("v61", value)
        return self.check_v("v61", [value if active >> lane & 1 else KEEP
                                    for lane in range(self.block)])

    def check_s64(self, srange, value):
        lo, hi = re.match(r"s\[(\d+):(\d+)\]", srange).groups()
        self.check_s(f"s{lo}", value & M32)
        return self.check_s(f"s{hi}", value >> 32 & M32)

    def check_scc(self, value, active=None):
        """SCC, read without changing it."""
        self.asm("s_cselect_b32 s95, 1, 0")
        return self.check_s("s95", value, active)

    def expect_error(self, message):
        self.error = message
        return self

    def expect_fault(self, symbol, what):
        """The launch must fail at the instruction labelled SYMBOL with the emulator's fault
        message WHAT ('KERNEL: WHAT at KERNEL+0xOFFSET (PROCESSOR), workgroup (0,0,0) wave 0')."""
        self.error_at, self.fault = symbol, what
        return self

    def expect_not_emulated(self, symbol):
        """The launch must end at the instruction labelled SYMBOL (a global label inside the
        kernel), with the emulator's message for an instruction it does not implement."""
        self.error_at = symbol
        return self

    # ---- the code object

    def source(self):
        t = self.t
        body = "\n".join("  " + l if not l.rstrip().endswith(":") else l for l in self.lines)
        tail = "\n".join("  " + l if not l.rstrip().endswith(":") else l for l in self.tail)
        private = f"  .amdhsa_enable_private_segment {1 if self.scratch else 0}\n" if t.gen >= 11 else ""
        buffer = "  .amdhsa_user_sgpr_private_segment_buffer 1\n" if self.private_buffer else ""
        return f""".amdhsa_code_object_version 5
.text
.globl {self.name}
.p2align 8
.type {self.name},@function
{self.name}:
{body}
  s_endpgm
{tail}
.size {self.name}, .-{self.name}

.rodata
.p2align 6
.amdhsa_kernel {self.name}
  .amdhsa_next_free_vgpr 64
  .amdhsa_next_free_sgpr 96
{buffer}  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
  .amdhsa_group_segment_fixed_size {self.lds}
  .amdhsa_private_segment_fixed_size {self.scratch}
{private}  .amdhsa_float_denorm_mode_32 3
  .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: {self.name}
    .symbol: {self.name}.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: {self.lds}
    .private_segment_fixed_size: {self.scratch}
    .max_flat_workgroup_size: {max(256, self.block)}
    .wavefront_size: 32
    .sgpr_count: 96
    .vgpr_count: 64
    .kernarg_segment_align: 8
    .args:
      - {{ .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
...
.end_amdgpu_metadata
"""

    def words(self):
        return max(self.nslots, 1) * self.block


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def symbols(code_object):
    out = {}
    for line in run([NM, code_object]).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            out[parts[2]] = int(parts[0], 16)
    return out


def fault_message(k, code_object):
    syms = symbols(code_object)
    offset = syms[k.error_at] - syms[k.name]
    return (f"{k.name}: {k.fault} at {k.name}+{offset:#x} ({k.t.processor}), "
            f"workgroup (0,0,0) wave 0")


def not_emulated_message(k, code_object):
    """The message the emulator gives for the instruction at K's label, from LLVM's own
    disassembly of the code object: 'not emulated: TEXT at KERNEL+0xOFFSET (PROCESSOR)'."""
    syms = symbols(code_object)
    address = syms[k.error_at]
    dump = run([OBJDUMP, "-d", "--no-show-raw-insn", f"--mcpu={k.t.processor}", code_object]).stdout
    for line in dump.splitlines():
        m = re.match(r"\t(.*?)\s*// ([0-9A-Fa-f]+):", line)
        if m and int(m.group(2), 16) == address:
            return (f"not emulated: {m.group(1)} at {k.name}+{address - syms[k.name]:#x} "
                    f"({k.t.processor})")
    raise RuntimeError(f"no instruction at {k.error_at} in the disassembly")


def run_case(k, run_kernel, work, keep):
    base = os.path.join(work, f"{k.name}.{k.t.processor}")
    with open(base + ".s", "w") as f:
        f.write(k.source())
    r = run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={k.t.processor}", "-filetype=obj",
             base + ".s", "-o", base + ".o"])
    if r.returncode != 0:
        return f"llvm-mc failed:\n{r.stdout}"
    r = run([LD_LLD, "-shared", base + ".o", "-o", base + ".co"])
    if r.returncode != 0:
        return f"ld.lld failed:\n{r.stdout}"
    words = k.words()
    with open(base + ".init", "w") as f:
        f.write("\n".join(f"{k.init.get(w, fill(w)):08x}" for w in range(words)) + "\n")
    cmd = [run_kernel, "--block", str(k.block), "--words", str(words), "--lanes", str(k.block),
           "--init", base + ".init"]
    if k.error_at and k.fault:
        k.error = fault_message(k, base + ".co")
    elif k.error_at:
        k.error = not_emulated_message(k, base + ".co")
    if k.error is not None:
        with open(base + ".error", "w") as f:
            f.write(k.error + "\n")
        cmd += ["--expect-error", base + ".error"]
    else:
        tokens = []
        for w in range(words):
            v = k.expect.get(w, KEEP)
            if v == KEEP:
                v = k.init.get(w, fill(w))
            tokens.append("-" if v == ANY else f"{v:08x}")
        with open(base + ".expect", "w") as f:
            f.write("\n".join(tokens) + "\n")
        cmd += ["--expect", base + ".expect"]
        if k.cycles is not None:
            cmd += ["--expect-cycles", str(k.cycles)]
    cmd += [base + ".co", k.t.processor, k.name]
    r = run(cmd, timeout=60)
    if r.returncode != 0:
        return r.stdout.strip() or f"run_kernel exited with {r.returncode}"
    if not keep:
        for ext in (".s", ".o", ".co", ".init", ".expect", ".error"):
            if os.path.exists(base + ext):
                os.remove(base + ext)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("family")
    ap.add_argument("--run-kernel", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--processor", action="append")
    ap.add_argument("--keep", action="store_true", help="keep the sources and code objects")
    args = ap.parse_args()
    sys.path.insert(0, HERE)
    family = importlib.import_module(f"families.{args.family}")
    work = os.path.join(args.work, args.family)
    os.makedirs(work, exist_ok=True)
    failed = ran = 0
    for processor in args.processor or list(PROCESSORS):
        t = Target(processor)
        for case in family.CASES:
            k = case(t)
            if k is None:
                continue
            ran += 1
            problem = run_case(k, args.run_kernel, work, args.keep)
            if problem:
                failed += 1
                print(f"FAIL {args.family}.{case.__name__} {processor}:")
                print(textwrap.indent(problem, "    "))
            else:
                print(f"ok   {args.family}.{case.__name__} {processor}")
    print(f"{ran - failed} of {ran} passed")
    return 1 if failed or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
