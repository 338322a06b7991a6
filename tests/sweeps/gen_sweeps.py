#!/usr/bin/env python3
"""Writes the instruction sweeps: one PTX module per family, one kernel per (instruction,
modifiers, type) combination, and sweep_cases.inc, the table that tells sweep_main which
reference (sweep_ref.c) and which inputs belong to each kernel.

usage: gen_sweeps.py OUT_DIR

Every kernel has the same signature and loop:

    KERNEL(.param .u64 in_a, .param .u64 in_b, .param .u64 in_c, .param .u64 out,
           .param .u32 count)

Element i of each array is an 8-byte slot; the kernel loads operand bits from the low bytes
of in_X[i] at the operand's width, runs the instruction under test once, and stores the
destination at its width into out[i]. Threads stride over the elements by %ntid.x, so the
harness can run a kernel with one thread per call, or a few.
"""
import copy
import os
import sys

# The register class each PTX type lives in, as nvcc would allocate it. 8-bit values live in
# 16-bit registers: PTX lets ld, st and cvt use registers wider than the type, and the
# sweep then also checks the sign or zero extension of cvt's 8-bit results.
REG_CLASS = {
    'u8': 'h', 's8': 'h', 'b8': 'h',
    'u16': 'h', 's16': 'h', 'b16': 'h', 'f16': 'h', 'bf16': 'h',
    'u32': 'r', 's32': 'r', 'b32': 'r',
    'u64': 'l', 's64': 'l', 'b64': 'l',
    'f32': 'f', 'f64': 'g', 'pred': 'p', 'f16x2': 'r', 'bf16x2': 'r',
}
# How an operand is loaded from and a result stored to its 8-byte slot.
LOAD = {
    'u8': 'u8', 's8': 's8', 'b8': 'u8',
    'u16': 'b16', 's16': 'b16', 'b16': 'b16', 'f16': 'b16', 'bf16': 'b16',
    'u32': 'b32', 's32': 'b32', 'b32': 'b32', 'u64': 'b64', 's64': 'b64', 'b64': 'b64',
    'f32': 'f32', 'f64': 'f64',
}
STORE_WIDTH = {'h': 2, 'r': 4, 'l': 8, 'f': 4, 'g': 8, 'p': 4}
STORE = {'h': 'b16', 'r': 'b32', 'l': 'b64', 'f': 'f32', 'g': 'f64'}

# Input distributions (sweep.h, enum sweep_input): exhaustive ones enumerate every value.
INPUT_OF_TYPE = {
    'u8': 'IN_ALL8', 's8': 'IN_ALL8', 'b8': 'IN_ALL8',
    'u16': 'IN_RAND16', 's16': 'IN_RAND16', 'b16': 'IN_RAND16',
    'f16': 'IN_ALL16', 'bf16': 'IN_ALL16',
    'u32': 'IN_RAND32', 's32': 'IN_RAND32', 'b32': 'IN_RAND32',
    'u64': 'IN_RAND64', 's64': 'IN_RAND64', 'b64': 'IN_RAND64',
    'f32': 'IN_F32', 'f64': 'IN_F64', 'pred': 'IN_PRED',
}
# How the result is compared: floats compare bit for bit except that any NaN matches any
# NaN (PTX does not define NaN payloads, see sweep_ref.c).
CHECK_OF_TYPE = {'f16': 'CHECK_F16', 'bf16': 'CHECK_BF16', 'f32': 'CHECK_F32', 'f64': 'CHECK_F64'}

# Rounding modifiers of float results and their sweep.h enum.
DIRECTED = ['rz', 'rm', 'rp']
ROUND_ENUM = {'rn': 'RND_RN', 'rz': 'RND_RZ', 'rm': 'RND_RM', 'rp': 'RND_RP'}

INTS = ['u16', 's16', 'u32', 's32', 'u64', 's64']
ALL_INTS = ['u8', 's8', 'u16', 's16', 'u32', 's32', 'u64', 's64']


class Case:
    """One kernel: the instruction text, its operand types and the reference to check it."""

    def __init__(self, family, name, insn, dst, srcs, op, dtype=None, stype=None, mods=(),
                 imm=0, imm2=0, inputs=None, body=None, check=None):
        self.family, self.name, self.insn = family, name, insn
        self.dst, self.srcs = dst, srcs
        self.op, self.mods, self.imm, self.imm2 = op, mods, imm, imm2
        self.dtype = dtype or dst
        self.stype = stype or (srcs[0] if srcs else 'none')
        self.inputs = inputs or [INPUT_OF_TYPE[t] for t in srcs]
        # Every f32 unary operation runs over 2^24 patterns spread over all of f32 and the
        # special values (issue: "for f32 unary ops over at least 2^24 inputs").
        if srcs == ['f32'] and self.inputs in (['IN_F32'], [INPUT_OF_TYPE['f32']]):
            self.inputs = ['IN_F32_ALL']
        self.body = body  # lines replacing the one-instruction body, for chains
        self.check = check or CHECK_OF_TYPE.get(dst, 'CHECK_BITS')


def reg(kind, role):
    return '%' + kind + role


def kernel_text(case):
    roles = 'abc'
    lines = []
    for i, t in enumerate(case.srcs):
        role = roles[i]
        lines.append('\tadd.s64 %addr, %base_' + role + ', %offset;')
        if t == 'pred':
            lines.append('\tld.global.u32 %rt, [%addr];')
            lines.append('\tsetp.ne.u32 %p' + role + ', %rt, 0;')
        else:
            lines.append('\tld.global.%s %s, [%%addr];' % (LOAD[t], reg(REG_CLASS[t], role)))
    operands = {r: reg(REG_CLASS[t], r) for r, t in zip(roles, case.srcs)}
    dst_class = REG_CLASS[case.dst]
    operands['d'] = reg(dst_class, 'd')
    if case.body:
        lines += ['\t' + line.format(**operands) for line in case.body]
    else:
        args = [operands['d']] + [operands[r] for r in roles[:len(case.srcs)]]
        lines.append('\t%s %s;' % (case.insn, ', '.join(args)))
    lines.append('\tadd.s64 %addr, %base_out, %offset;')
    if dst_class == 'p':
        lines.append('\tselp.u32 %rt, 1, 0, %pd;')
        lines.append('\tst.global.b32 [%addr], %rt;')
    else:
        lines.append('\tst.global.%s [%%addr], %s;' % (STORE[dst_class], operands['d']))
    body = '\n'.join(lines)
    return f""".visible .entry {case.name}(.param .u64 in_a, .param .u64 in_b, .param .u64 in_c,
	.param .u64 out, .param .u32 count)
{{
	.reg .pred %pa, %pb, %pc, %pd, %pq, %done;
	.reg .b16 %ha, %hb, %hc, %hd;
	.reg .b32 %ra, %rb, %rc, %rd, %rt, %r<8>, %i, %n, %step;
	.reg .b64 %la, %lb, %lc, %ld, %l<8>;
	.reg .f32 %fa, %fb, %fc, %fd;
	.reg .f64 %ga, %gb, %gc, %gd;
	.reg .b64 %base_a, %base_b, %base_c, %base_out, %offset, %addr;
	ld.param.u64 %base_a, [in_a];
	ld.param.u64 %base_b, [in_b];
	ld.param.u64 %base_c, [in_c];
	ld.param.u64 %base_out, [out];
	ld.param.u32 %n, [count];
	mov.u32 %i, %tid.x;
	mov.u32 %step, %ntid.x;
next:
	setp.ge.u32 %done, %i, %n;
	@%done bra finished;
	mul.wide.u32 %offset, %i, 8;
{body}
	add.u32 %i, %i, %step;
	bra next;
finished:
	ret;
}}
"""


def ident(text):
    return text.replace('.', '_').replace('|', '_')


# ---------------------------------------------------------------- integer arithmetic
def int_family():
    cases = []

    def add(name, insn, dst, srcs, op, **kw):
        cases.append(Case('int', 'int_' + ident(name), insn, dst, srcs, op, **kw))

    for t in INTS:
        signed = t[0] == 's'
        bits = int(t[1:])
        # 16-bit operands: the first operand runs through all 2^16 values.
        a_in = 'IN_ALL16' if bits == 16 else INPUT_OF_TYPE[t]
        b_in = INPUT_OF_TYPE[t]
        binary = dict(inputs=[a_in, b_in])
        for opname, op in [('add', 'OP_ADD'), ('sub', 'OP_SUB'), ('mul.lo', 'OP_MUL_LO'),
                           ('mul.hi', 'OP_MUL_HI'), ('div', 'OP_DIV'), ('rem', 'OP_REM'),
                           ('min', 'OP_MIN'), ('max', 'OP_MAX')]:
            add(f'{opname}.{t}', f'{opname}.{t}', t, [t, t], op, **binary)
        for opname, op in [('mad.lo', 'OP_MAD_LO'), ('mad.hi', 'OP_MAD_HI'), ('sad', 'OP_SAD')]:
            add(f'{opname}.{t}', f'{opname}.{t}', t, [t, t, t], op,
                inputs=[a_in, b_in, INPUT_OF_TYPE[t]])
        if bits < 64:
            wide = t[0] + str(bits * 2)
            add(f'mul.wide.{t}', f'mul.wide.{t}', wide, [t, t], 'OP_MUL_WIDE', stype=t, **binary)
            add(f'mad.wide.{t}', f'mad.wide.{t}', wide, [t, t, wide], 'OP_MAD_WIDE', stype=t,
                inputs=[a_in, b_in, INPUT_OF_TYPE[wide]])
        if signed:
            unary_in = ['IN_ALL16'] if bits == 16 else None
            add(f'abs.{t}', f'abs.{t}', t, [t], 'OP_ABS', inputs=unary_in)
            add(f'neg.{t}', f'neg.{t}', t, [t], 'OP_NEG', inputs=unary_in)
    add('add.sat.s32', 'add.sat.s32', 's32', ['s32', 's32'], 'OP_ADD', mods=['M_SAT'])
    add('sub.sat.s32', 'sub.sat.s32', 's32', ['s32', 's32'], 'OP_SUB', mods=['M_SAT'])
    for t in ['u32', 's32']:
        for half in ['lo', 'hi']:
            op = 'OP_MUL_HI' if half == 'hi' else 'OP_MUL_LO'
            add(f'mul24.{half}.{t}', f'mul24.{half}.{t}', t, [t, t], op, mods=['M_24'])
            add(f'mad24.{half}.{t}', f'mad24.{half}.{t}', t, [t, t, t],
                'OP_MAD_HI' if half == 'hi' else 'OP_MAD_LO', mods=['M_24'])
    for at in ['u32', 's32']:
        for bt in ['u32', 's32']:
            dt = 's32' if 's32' in (at, bt) else 'u32'
            add(f'dp4a.{at}.{bt}', f'dp4a.{at}.{bt}', dt, [at, bt, dt], 'OP_DP4A',
                stype=at, imm=1 if bt == 's32' else 0)
            for half in ['lo', 'hi']:
                add(f'dp2a.{half}.{at}.{bt}', f'dp2a.{half}.{at}.{bt}', dt, [at, bt, dt],
                    'OP_DP2A', stype=at, imm=1 if bt == 's32' else 0,
                    mods=['M_HI'] if half == 'hi' else [])

    # The SIMD video instructions: every operation on bytes and half-words, signed, unsigned
    # and mixed lanes, plain, .sat and .add.
    for opnum, opname in enumerate(['vadd', 'vsub', 'vavrg', 'vabsdiff', 'vmin', 'vmax']):
        for lanes in [4, 2]:
            for at, bt, dt in [('u32', 'u32', 'u32'), ('s32', 's32', 's32'), ('u32', 's32', 's32'),
                               ('s32', 'u32', 'u32')]:
                for suffix, mods in [('', []), ('.sat', ['M_SAT']), ('.add', ['M_ADD'])]:
                    insn = f'{opname}{lanes}.{dt}.{at}.{bt}{suffix}'
                    add(insn, insn, dt, [at, bt, 'u32'], 'OP_VIDEO', imm=opnum, imm2=lanes,
                        mods=mods)
    # Carry chains. The carry-in comes from operand c (0 or 1): adding 0xffffffff to it
    # sets CC.CF exactly when it is 1. 64-bit a and b are split into 32-bit words.
    carry_in = 'add.cc.u32 %rt, %r7, -1;'
    split = ['mov.b64 {{%r0, %r1}}, {a};', 'mov.b64 {{%r2, %r3}}, {b};', 'cvt.u32.u64 %r7, {c};']
    chains = {
        'addc_sum': (['addc.cc.u32 %r4, %r0, %r2;', 'addc.cc.u32 %r5, %r1, %r3;',
                      'mov.b64 {d}, {{%r4, %r5}};'], 'u64'),
        'addc_carry': (['addc.cc.u32 %r4, %r0, %r2;', 'addc.cc.u32 %r5, %r1, %r3;',
                        'addc.u32 {d}, 0, 0;'], 'u32'),
        'subc_diff': (['subc.cc.u32 %r4, %r0, %r2;', 'subc.cc.u32 %r5, %r1, %r3;',
                       'mov.b64 {d}, {{%r4, %r5}};'], 'u64'),
        'subc_borrow': (['subc.cc.u32 %r4, %r0, %r2;', 'subc.cc.u32 %r5, %r1, %r3;',
                         'subc.u32 {d}, 0, 0;'], 'u32'),
    }
    for imm, (name, (steps, dst)) in enumerate(chains.items()):
        # The carry-in instruction is add.cc for the additions and sub.cc's borrow for the
        # subtractions: 0 - 1 borrows exactly when c is 1.
        cin = carry_in if name.startswith('add') else 'sub.cc.u32 %rt, 0, %r7;'
        add(name, None, dst, ['u64', 'u64', 'u64'], 'OP_CHAIN', imm=imm,
            inputs=['IN_RAND64', 'IN_RAND64', 'IN_PRED'], body=split + [cin] + steps)
    # 64-bit words: a 128-bit add {a, b} + {c, c} keeps its high word.
    add('add_cc_u64_chain', None, 'u64', ['u64', 'u64', 'u64'], 'OP_CHAIN', imm=4,
        body=['add.cc.u64 %l0, {b}, {c};', 'addc.u64 {d}, {a}, {c};'])
    add('sub_cc_u64_chain', None, 'u64', ['u64', 'u64', 'u64'], 'OP_CHAIN', imm=5,
        body=['sub.cc.u64 %l0, {b}, {c};', 'subc.u64 {d}, {a}, {c};'])
    # mad.lo.cc / madc.hi: the 64-bit a*b + c of 32-bit a, b.
    add('madc_wide', None, 'u64', ['u32', 'u32', 'u64'], 'OP_CHAIN', imm=6,
        body=['mov.b64 {{%r0, %r1}}, {c};', 'mad.lo.cc.u32 %r4, {a}, {b}, %r0;',
              'madc.hi.u32 %r5, {a}, {b}, %r1;', 'mov.b64 {d}, {{%r4, %r5}};'])
    return cases


# ---------------------------------------------------------------- bit operations
def bits_family():
    cases = []

    def add(name, insn, dst, srcs, op, **kw):
        cases.append(Case('bits', 'bits_' + ident(name), insn, dst, srcs, op, **kw))

    for t in ['b32', 'b64']:
        add(f'popc.{t}', f'popc.{t}', 'u32', [t], 'OP_POPC')
        add(f'clz.{t}', f'clz.{t}', 'u32', [t], 'OP_CLZ')
        add(f'brev.{t}', f'brev.{t}', t, [t], 'OP_BREV')
        # bfi has four sources: pos and len travel as the two words of operand c.
        add(f'bfi.{t}', None, t, [t, t, 'u64'], 'OP_BFI',
            inputs=[INPUT_OF_TYPE[t], INPUT_OF_TYPE[t], 'IN_BITPOS_PAIR'],
            body=['mov.b64 {{%r0, %r1}}, {c};', f'bfi.{t} {{d}}, {{a}}, {{b}}, %r0, %r1;'])
    for t in ['u32', 's32', 'u64', 's64']:
        add(f'bfind.{t}', f'bfind.{t}', 'u32', [t], 'OP_BFIND')
        add(f'bfind.shiftamt.{t}', f'bfind.shiftamt.{t}', 'u32', [t], 'OP_BFIND',
            mods=['M_SHIFTAMT'])
        add(f'bfe.{t}', f'bfe.{t}', t, [t, 'u32', 'u32'], 'OP_BFE',
            inputs=[INPUT_OF_TYPE[t], 'IN_BITPOS', 'IN_BITPOS'])
    for mode in ['clamp', 'wrap']:
        m = 'M_CLAMP' if mode == 'clamp' else 'M_WRAP'
        add(f'bmsk.{mode}.b32', f'bmsk.{mode}.b32', 'b32', ['u32', 'u32'], 'OP_BMSK', mods=[m],
            inputs=['IN_BITPOS', 'IN_BITPOS'])
        for t in ['u32', 's32']:
            add(f'szext.{mode}.{t}', f'szext.{mode}.{t}', t, [t, 'u32'], 'OP_SZEXT', mods=[m],
                inputs=['IN_RAND32', 'IN_BITPOS'])
        for direction in ['l', 'r']:
            add(f'shf.{direction}.{mode}.b32', f'shf.{direction}.{mode}.b32', 'b32',
                ['b32', 'b32', 'u32'], 'OP_SHF', mods=[m] + (['M_LEFT'] if direction == 'l' else []),
                inputs=['IN_RAND32', 'IN_RAND32', 'IN_BITPOS'])
    add('prmt.b32', 'prmt.b32', 'b32', ['b32', 'b32', 'b32'], 'OP_PRMT')
    # lop3: identity tables of a, b and c, xor3, majority, select, and a few arbitrary ones.
    for lut in [0x00, 0xff, 0xf0, 0xcc, 0xaa, 0x96, 0xe8, 0xca, 0x80, 0xfe, 0x1b, 0x6c]:
        add(f'lop3.b32.0x{lut:02x}', None, 'b32', ['b32', 'b32', 'b32'], 'OP_LOP3', imm=lut,
            body=[f'lop3.b32 {{d}}, {{a}}, {{b}}, {{c}}, 0x{lut:02x};'])
    for t in ['b16', 'b32', 'b64']:
        a_in = ['IN_ALL16'] if t == 'b16' else None
        add(f'shl.{t}', f'shl.{t}', t, [t, 'u32'], 'OP_SHL',
            inputs=(a_in or [INPUT_OF_TYPE[t]]) + ['IN_BITPOS'])
        for opname, op in [('and', 'OP_AND'), ('or', 'OP_OR'), ('xor', 'OP_XOR')]:
            add(f'{opname}.{t}', f'{opname}.{t}', t, [t, t], op,
                inputs=(a_in or [INPUT_OF_TYPE[t]]) + [INPUT_OF_TYPE[t]])
        add(f'not.{t}', f'not.{t}', t, [t], 'OP_NOT', inputs=a_in)
        add(f'cnot.{t}', f'cnot.{t}', t, [t], 'OP_CNOT', inputs=a_in)
    for t in ['b16', 'u16', 's16', 'b32', 'u32', 's32', 'b64', 'u64', 's64']:
        a_in = ['IN_ALL16'] if t.endswith('16') else [INPUT_OF_TYPE[t]]
        add(f'shr.{t}', f'shr.{t}', t, [t, 'u32'], 'OP_SHR', inputs=a_in + ['IN_BITPOS'])
    for t in ['pred']:
        for opname, op in [('and', 'OP_AND'), ('or', 'OP_OR'), ('xor', 'OP_XOR')]:
            add(f'{opname}.pred', f'{opname}.pred', 'pred', ['pred', 'pred'], op)
        add('not.pred', 'not.pred', 'pred', ['pred'], 'OP_NOT')
    return cases


# ---------------------------------------------------------------- comparisons
INT_COMPARE = ['eq', 'ne', 'lt', 'le', 'gt', 'ge']
UNSIGNED_COMPARE = ['lo', 'ls', 'hi', 'hs']
FLOAT_COMPARE = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu',
                 'num', 'nan']


def cmp_enum(name):
    return 'CMP_' + name.upper()


def compare_family():
    cases = []

    def add(name, insn, dst, srcs, op, **kw):
        cases.append(Case('compare', 'cmp_' + ident(name), insn, dst, srcs, op, **kw))

    near = {'f32': 'IN_F32_NEAR', 'f64': 'IN_F64_NEAR'}
    for t in ['s16', 'u16', 's32', 'u32', 's64', 'u64', 'b32', 'b64']:
        ops = ['eq', 'ne'] if t[0] == 'b' else INT_COMPARE + (UNSIGNED_COMPARE if t[0] == 'u' else [])
        for c in ops:
            add(f'setp.{c}.{t}', f'setp.{c}.{t}', 'pred', [t, t], 'OP_SETP', stype=t,
                imm=cmp_enum(c), inputs=[INPUT_OF_TYPE[t], 'IN_NEAR_A'])
    for t in ['f32', 'f64']:
        for ftz in ([False, True] if t == 'f32' else [False]):
            for c in FLOAT_COMPARE:
                mod = '.ftz' if ftz else ''
                add(f'setp.{c}{mod}.{t}', f'setp.{c}{mod}.{t}', 'pred', [t, t], 'OP_SETP',
                    stype=t, imm=cmp_enum(c), mods=['M_FTZ'] if ftz else [],
                    inputs=[INPUT_OF_TYPE[t], near[t]])
    # Both destinations and the predicate-combining forms: out = p | q << 1.
    pair_body = ['{insn} %pd|%pq, {{a}}, {{b}}{extra};', 'selp.u32 %r0, 1, 0, %pd;',
                 'selp.u32 %r1, 2, 0, %pq;', 'or.b32 {{d}}, %r0, %r1;']
    for t, c, combine in [('s32', 'lt', None), ('u32', 'hs', 'and'), ('s32', 'ge', 'or'),
                          ('s64', 'ne', 'xor'), ('f32', 'gtu', 'and'), ('f32', 'eq', 'or'),
                          ('f64', 'ltu', 'xor'), ('f64', 'nan', None)]:
        insn = f'setp.{c}' + (f'.{combine}' if combine else '') + f'.{t}'
        body = [line.format(insn=insn, extra=', %pc' if combine else '') for line in pair_body]
        srcs = [t, t] + (['pred'] if combine else [])
        add(insn + '.pair', None, 'u32', srcs, 'OP_SETP', stype=t, imm=cmp_enum(c),
            imm2='BOOL_' + (combine or 'none').upper(), mods=['M_PAIR'], body=body,
            inputs=[INPUT_OF_TYPE[t], near.get(t, 'IN_NEAR_A')] + (['IN_PRED'] if combine else []))
    # f16x2/bf16x2: each half on its own. setp's p from the lower halves and q from the
    # upper ones (out = p | q << 1); set writes 1.0 of the half type or 0xffff per true half.
    # Operand a takes every pattern in each half, b is near a's halves or an edge value.
    half_inputs = ['IN_H2_ALL', 'IN_H2_NEAR']
    for ht, ftz in [('f16', False), ('f16', True), ('bf16', False)]:
        mod = '.ftz' if ftz else ''
        mods = ['M_X2'] + (['M_FTZ'] if ftz else [])
        for c in FLOAT_COMPARE:
            for combine in ([None, 'and', 'or', 'xor'] if c in ('lt', 'equ') else [None]):
                insn = f'setp.{c}' + (f'.{combine}' if combine else '') + f'{mod}.{ht}x2'
                body = [line.format(insn=insn, extra=', %pc' if combine else '')
                        for line in pair_body]
                add(insn, None, 'u32', ['b32', 'b32'] + (['pred'] if combine else []), 'OP_SETP',
                    stype=ht, imm=cmp_enum(c), imm2='BOOL_' + (combine or 'none').upper(),
                    mods=mods, body=body, inputs=half_inputs + (['IN_PRED'] if combine else []))
            insn = f'set.{c}{mod}.{ht}x2.{ht}x2'
            add(insn, insn, 'b32', ['b32', 'b32'], 'OP_SET', dtype=ht, stype=ht, imm=cmp_enum(c),
                mods=mods, inputs=half_inputs)
        for dt, c, combine in [('u32', 'lt', None), ('s32', 'neu', None), ('u32', 'ge', 'and'),
                               ('s32', 'nan', 'or'), (ht + 'x2', 'gtu', 'xor')]:
            insn = f'set.{c}' + (f'.{combine}' if combine else '') + f'{mod}.{dt}.{ht}x2'
            add(insn, insn, 'b32', ['b32', 'b32'] + (['pred'] if combine else []), 'OP_SET',
                dtype=dt[:-2] if dt.endswith('x2') else dt, stype=ht, imm=cmp_enum(c),
                imm2='BOOL_' + (combine or 'none').upper(), mods=mods,
                inputs=half_inputs + (['IN_PRED'] if combine else []))
    for t in ['b16', 'b32', 's32', 'u64', 'f32', 'f64']:
        add(f'selp.{t}', f'selp.{t}', t, [t, t, 'pred'], 'OP_SELP')
    for dt, st, c, ftz in [('u32', 's32', 'lt', False), ('s32', 'u32', 'hi', False),
                           ('u32', 'f32', 'eq', False), ('f32', 'f32', 'ltu', False),
                           ('s32', 'f64', 'nan', False), ('u32', 'f32', 'ge', True),
                           ('f32', 's64', 'ne', False), ('u32', 'f64', 'gtu', False)]:
        mod = '.ftz' if ftz else ''
        add(f'set.{c}{mod}.{dt}.{st}', f'set.{c}{mod}.{dt}.{st}', dt, [st, st], 'OP_SET',
            stype=st, imm=cmp_enum(c), mods=['M_FTZ'] if ftz else [],
            inputs=[INPUT_OF_TYPE[st], near.get(st, 'IN_NEAR_A')])
    for dt in ['b32', 's32', 'f32', 'u64', 'f64', 'b16']:
        for ct in ['s32', 'f32']:
            add(f'slct.{dt}.{ct}', f'slct.{dt}.{ct}', dt, [dt, dt, ct], 'OP_SLCT', stype=ct)
    add('slct.ftz.b32.f32', 'slct.ftz.b32.f32', 'b32', ['b32', 'b32', 'f32'], 'OP_SLCT',
        stype='f32', mods=['M_FTZ'])
    return cases


# ---------------------------------------------------------------- conversions
def convert_family():
    cases = []

    def add(name, insn, dst, srcs, op='OP_CVT', **kw):
        cases.append(Case('convert', 'cvt_' + ident(name), insn, dst, srcs, op, **kw))

    for dt in ALL_INTS:
        for st in ALL_INTS:
            src_in = {'u8': 'IN_ALL8', 's8': 'IN_ALL8', 'u16': 'IN_ALL16', 's16': 'IN_ALL16'}
            for sat in ['', '.sat']:
                add(f'cvt{sat}.{dt}.{st}', f'cvt{sat}.{dt}.{st}', dt, [st], dtype=dt, stype=st,
                    mods=['M_SAT'] if sat else [], inputs=[src_in.get(st, INPUT_OF_TYPE[st])])
    rounding = {'rni': 'RND_RNI', 'rzi': 'RND_RZI', 'rmi': 'RND_RMI', 'rpi': 'RND_RPI'}
    for st in ['f32', 'f64']:
        for dt in ALL_INTS:
            for r, e in rounding.items():
                # f32 -> s32 with .rni is the representative one run over 2^24 inputs.
                full = st == 'f32' and dt == 's32' and r == 'rni'
                add(f'cvt.{r}.{dt}.{st}', f'cvt.{r}.{dt}.{st}', dt, [st], imm=e,
                    inputs=['IN_F32_ALL' if full else INPUT_OF_TYPE[st]])
    add('cvt.rzi.ftz.s32.f32', 'cvt.rzi.ftz.s32.f32', 's32', ['f32'], imm='RND_RZI', mods=['M_FTZ'])
    add('cvt.rpi.ftz.u64.f32', 'cvt.rpi.ftz.u64.f32', 'u64', ['f32'], imm='RND_RPI', mods=['M_FTZ'])
    for dt in ['s32', 'u16', 's64']:
        add(f'cvt.rni.{dt}.f16', f'cvt.rni.{dt}.f16', dt, ['f16'], imm='RND_RNI')
        add(f'cvt.rzi.{dt}.f16', f'cvt.rzi.{dt}.f16', dt, ['f16'], imm='RND_RZI')
    for st in ALL_INTS:
        src_in = {'u8': 'IN_ALL8', 's8': 'IN_ALL8', 'u16': 'IN_ALL16', 's16': 'IN_ALL16'}
        for dt in ['f32', 'f64', 'f16']:
            for r in ['rn'] + DIRECTED:
                add(f'cvt.{r}.{dt}.{st}', f'cvt.{r}.{dt}.{st}', dt, [st], imm=ROUND_ENUM[r],
                    inputs=[src_in.get(st, INPUT_OF_TYPE[st])])
    # Float to float.
    add('cvt.f64.f32', 'cvt.f64.f32', 'f64', ['f32'], imm='RND_NONE', inputs=['IN_F32_ALL'])
    add('cvt.ftz.f64.f32', 'cvt.ftz.f64.f32', 'f64', ['f32'], imm='RND_NONE', mods=['M_FTZ'])
    add('cvt.rn.f32.f64', 'cvt.rn.f32.f64', 'f32', ['f64'], imm='RND_RN')
    add('cvt.rn.ftz.f32.f64', 'cvt.rn.ftz.f32.f64', 'f32', ['f64'], imm='RND_RN', mods=['M_FTZ'])
    add('cvt.rn.sat.f32.f64', 'cvt.rn.sat.f32.f64', 'f32', ['f64'], imm='RND_RN', mods=['M_SAT'])
    add('cvt.rn.f16.f32', 'cvt.rn.f16.f32', 'f16', ['f32'], imm='RND_RN')
    add('cvt.rn.f16.f64', 'cvt.rn.f16.f64', 'f16', ['f64'], imm='RND_RN')
    for r in DIRECTED:
        add(f'cvt.{r}.f32.f64', f'cvt.{r}.f32.f64', 'f32', ['f64'], imm=ROUND_ENUM[r])
        add(f'cvt.{r}.f16.f32', f'cvt.{r}.f16.f32', 'f16', ['f32'], imm=ROUND_ENUM[r])
        add(f'cvt.{r}.f16.f64', f'cvt.{r}.f16.f64', 'f16', ['f64'], imm=ROUND_ENUM[r])
    for r in ['rn', 'rz']:
        add(f'cvt.{r}.relu.f16.f32', f'cvt.{r}.relu.f16.f32', 'f16', ['f32'], imm=ROUND_ENUM[r],
            mods=['M_RELU'], check='CHECK_BITS')
        add(f'cvt.{r}.f16x2.f32', f'cvt.{r}.f16x2.f32', 'f16x2', ['f32', 'f32'], 'OP_CVT_PACK',
            dtype='f16', imm=ROUND_ENUM[r], check='CHECK_F16X2')
    add('cvt.rn.relu.f16x2.f32', 'cvt.rn.relu.f16x2.f32', 'f16x2', ['f32', 'f32'], 'OP_CVT_PACK',
        dtype='f16', imm='RND_RN', mods=['M_RELU'], check='CHECK_BITS')
    add('cvt.rz.ftz.f32.f64', 'cvt.rz.ftz.f32.f64', 'f32', ['f64'], imm='RND_RZ', mods=['M_FTZ'])
    add('cvt.rp.sat.f32.f64', 'cvt.rp.sat.f32.f64', 'f32', ['f64'], imm='RND_RP', mods=['M_SAT'])
    add('cvt.f32.f16', 'cvt.f32.f16', 'f32', ['f16'], imm='RND_NONE')
    add('cvt.f64.f16', 'cvt.f64.f16', 'f64', ['f16'], imm='RND_NONE')
    for t in ['f32', 'f64']:
        for r, e in rounding.items():
            add(f'cvt.{r}.{t}.{t}', f'cvt.{r}.{t}.{t}', t, [t], imm=e)
    add('cvt.rni.ftz.f32.f32', 'cvt.rni.ftz.f32.f32', 'f32', ['f32'], imm='RND_RNI', mods=['M_FTZ'])
    add('cvt.sat.f32.f32', 'cvt.sat.f32.f32', 'f32', ['f32'], imm='RND_NONE', mods=['M_SAT'])
    add('cvt.ftz.sat.f32.f32', 'cvt.ftz.sat.f32.f32', 'f32', ['f32'], imm='RND_NONE',
        mods=['M_FTZ', 'M_SAT'])
    return cases


# ---------------------------------------------------------------- float arithmetic
def float_family():
    cases = []

    def add(name, insn, dst, srcs, op, **kw):
        cases.append(Case('float', 'float_' + ident(name), insn, dst, srcs, op, **kw))

    near = {'f32': 'IN_F32_NEAR', 'f64': 'IN_F64_NEAR'}
    for t in ['f32', 'f64']:
        variants = [('', [])]
        if t == 'f32':
            variants += [('.ftz', ['M_FTZ']), ('.sat', ['M_SAT']), ('.ftz.sat', ['M_FTZ', 'M_SAT'])]
        for suffix, mods in variants:
            for opname, op in [('add', 'OP_FADD'), ('sub', 'OP_FSUB'), ('mul', 'OP_FMUL')]:
                add(f'{opname}.rn{suffix}.{t}', f'{opname}.rn{suffix}.{t}', t, [t, t], op,
                    mods=mods, inputs=[INPUT_OF_TYPE[t], near[t]])
            add(f'fma.rn{suffix}.{t}', f'fma.rn{suffix}.{t}', t, [t, t, t], 'OP_FFMA', mods=mods,
                inputs=[INPUT_OF_TYPE[t], near[t], 'IN_FMA_ADDEND'])
        ftz_variants = [('', [])] + ([('.ftz', ['M_FTZ'])] if t == 'f32' else [])
        for suffix, mods in ftz_variants:
            full = t == 'f32' and not mods
            add(f'div.rn{suffix}.{t}', f'div.rn{suffix}.{t}', t, [t, t], 'OP_FDIV', mods=mods,
                inputs=[INPUT_OF_TYPE[t], near[t]])
            add(f'sqrt.rn{suffix}.{t}', f'sqrt.rn{suffix}.{t}', t, [t], 'OP_FSQRT', mods=mods,
                inputs=['IN_F32_ALL' if full else INPUT_OF_TYPE[t]])
            add(f'rcp.rn{suffix}.{t}', f'rcp.rn{suffix}.{t}', t, [t], 'OP_FRCP', mods=mods)
            add(f'abs{suffix}.{t}', f'abs{suffix}.{t}', t, [t], 'OP_FABS', mods=mods,
                inputs=['IN_F32_ALL' if full else INPUT_OF_TYPE[t]])
            add(f'neg{suffix}.{t}', f'neg{suffix}.{t}', t, [t], 'OP_FNEG', mods=mods,
                inputs=['IN_F32_ALL' if full else INPUT_OF_TYPE[t]])
            nan_variants = [('', [])] + ([('.NaN', ['M_NAN'])] if t == 'f32' else [])
            for nan_suffix, nan_mods in nan_variants:
                for opname, op in [('min', 'OP_FMIN'), ('max', 'OP_FMAX')]:
                    add(f'{opname}{suffix}{nan_suffix}.{t}', f'{opname}{suffix}{nan_suffix}.{t}',
                        t, [t, t], op, mods=mods + nan_mods, inputs=[INPUT_OF_TYPE[t], near[t]])
        add(f'copysign.{t}', f'copysign.{t}', t, [t, t], 'OP_COPYSIGN')
        for cls in ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal']:
            full = t == 'f32' and cls == 'normal'
            add(f'testp.{cls}.{t}', f'testp.{cls}.{t}', 'pred', [t], 'OP_TESTP',
                imm='CLASS_' + cls.upper(), inputs=['IN_F32_ALL' if full else INPUT_OF_TYPE[t]])
    # Directed rounding: every operation and mode, and .ftz/.sat on a few.
    for t in ['f32', 'f64']:
        for r in DIRECTED:
            variants = [('', [])]
            if t == 'f32':
                variants.append(('.ftz', ['M_FTZ']))
            for suffix, mods in variants:
                for opname, op in [('add', 'OP_FADD'), ('sub', 'OP_FSUB'), ('mul', 'OP_FMUL'),
                                   ('div', 'OP_FDIV')]:
                    add(f'{opname}.{r}{suffix}.{t}', f'{opname}.{r}{suffix}.{t}', t, [t, t], op,
                        imm=ROUND_ENUM[r], mods=mods, inputs=[INPUT_OF_TYPE[t], near[t]])
                add(f'fma.{r}{suffix}.{t}', f'fma.{r}{suffix}.{t}', t, [t, t, t], 'OP_FFMA',
                    imm=ROUND_ENUM[r], mods=mods, inputs=[INPUT_OF_TYPE[t], near[t], 'IN_FMA_ADDEND'])
                add(f'sqrt.{r}{suffix}.{t}', f'sqrt.{r}{suffix}.{t}', t, [t], 'OP_FSQRT',
                    imm=ROUND_ENUM[r], mods=mods)
                add(f'rcp.{r}{suffix}.{t}', f'rcp.{r}{suffix}.{t}', t, [t], 'OP_FRCP',
                    imm=ROUND_ENUM[r], mods=mods)
    add('mad.rm.f32', 'mad.rm.f32', 'f32', ['f32', 'f32', 'f32'], 'OP_FFMA', imm='RND_RM',
        inputs=['IN_F32', 'IN_F32_NEAR', 'IN_FMA_ADDEND'])
    add('add.rp.sat.f32', 'add.rp.sat.f32', 'f32', ['f32', 'f32'], 'OP_FADD', imm='RND_RP',
        mods=['M_SAT'], inputs=['IN_F32', 'IN_F32_NEAR'])
    add('fma.rz.ftz.sat.f32', 'fma.rz.ftz.sat.f32', 'f32', ['f32', 'f32', 'f32'], 'OP_FFMA',
        imm='RND_RZ', mods=['M_FTZ', 'M_SAT'], inputs=['IN_F32', 'IN_F32_NEAR', 'IN_FMA_ADDEND'])
    add('div.full.f32', 'div.full.f32', 'f32', ['f32', 'f32'], 'OP_FDIV',
        inputs=['IN_F32', 'IN_F32_NEAR'])
    # Half precision: exhaustive for the unary ones, random pairs for the binary ones.
    for t in ['f16']:
        for opname, op in [('add', 'OP_FADD'), ('sub', 'OP_FSUB'), ('mul', 'OP_FMUL')]:
            add(f'{opname}.rn.{t}', f'{opname}.rn.{t}', t, [t, t], op,
                inputs=['IN_ALL16', 'IN_RAND16'])
        for opname, op in [('min', 'OP_FMIN'), ('max', 'OP_FMAX')]:
            add(f'{opname}.{t}', f'{opname}.{t}', t, [t, t], op, inputs=['IN_ALL16', 'IN_RAND16'])
        add(f'abs.{t}', f'abs.{t}', t, [t], 'OP_FABS')
        add(f'neg.{t}', f'neg.{t}', t, [t], 'OP_FNEG')
    # The .approx instructions: checked against PTX's error bounds (sweep_ref.c).
    for name, op in [('rcp.approx.f32', 'OP_APPROX_RCP'), ('rcp.approx.ftz.f32', 'OP_APPROX_RCP'),
                     ('sqrt.approx.f32', 'OP_APPROX_SQRT'), ('rsqrt.approx.f32', 'OP_APPROX_RSQRT'),
                     ('ex2.approx.f32', 'OP_APPROX_EX2'), ('ex2.approx.ftz.f32', 'OP_APPROX_EX2'),
                     ('lg2.approx.f32', 'OP_APPROX_LG2'), ('sin.approx.f32', 'OP_APPROX_SIN'),
                     ('cos.approx.f32', 'OP_APPROX_COS'), ('tanh.approx.f32', 'OP_APPROX_TANH')]:
        add(name, name, 'f32', ['f32'], op, mods=['M_FTZ'] if '.ftz' in name else [],
            check='CHECK_APPROX')
    add('div.approx.f32', 'div.approx.f32', 'f32', ['f32', 'f32'], 'OP_APPROX_DIV',
        inputs=['IN_F32', 'IN_F32_NEAR'], check='CHECK_APPROX')
    return cases


# ---------------------------------------------------------------- bf16
def bf16_family():
    """bf16 conversions and arithmetic, apart from the other families: on the host target
    they call the compiler runtime's __truncsfbf2, which a code object may not find (see
    the report in tests/sweeps/README.md); a family of their own keeps that from hiding
    the results of the others."""
    cases = []

    def add(name, insn, dst, srcs, op, **kw):
        cases.append(Case('bf16', 'bf16_' + ident(name), insn, dst, srcs, op, **kw))

    for st in ['s32', 'u64', 'u16']:
        for r in ['rn'] + DIRECTED:
            add(f'cvt.{r}.bf16.{st}', f'cvt.{r}.bf16.{st}', 'bf16', [st], 'OP_CVT', imm=ROUND_ENUM[r])
    for r in ['rn', 'rz']:
        add(f'cvt.{r}.relu.bf16.f32', f'cvt.{r}.relu.bf16.f32', 'bf16', ['f32'], 'OP_CVT',
            imm=ROUND_ENUM[r], mods=['M_RELU'], check='CHECK_BITS')
        add(f'cvt.{r}.bf16x2.f32', f'cvt.{r}.bf16x2.f32', 'bf16x2', ['f32', 'f32'], 'OP_CVT_PACK',
            dtype='bf16', imm=ROUND_ENUM[r], check='CHECK_BF16X2')
    add('cvt.rz.relu.bf16x2.f32', 'cvt.rz.relu.bf16x2.f32', 'bf16x2', ['f32', 'f32'],
        'OP_CVT_PACK', dtype='bf16', imm='RND_RZ', mods=['M_RELU'], check='CHECK_BITS')
    for r in ['rn'] + DIRECTED:
        add(f'cvt.{r}.bf16.f32', f'cvt.{r}.bf16.f32', 'bf16', ['f32'], 'OP_CVT', imm=ROUND_ENUM[r])
    add('cvt.f32.bf16', 'cvt.f32.bf16', 'f32', ['bf16'], 'OP_CVT', imm='RND_NONE')
    t = 'bf16'
    for opname, op in [('add', 'OP_FADD'), ('sub', 'OP_FSUB'), ('mul', 'OP_FMUL')]:
        add(f'{opname}.rn.{t}', f'{opname}.rn.{t}', t, [t, t], op, inputs=['IN_ALL16', 'IN_RAND16'])
    for opname, op in [('min', 'OP_FMIN'), ('max', 'OP_FMAX')]:
        add(f'{opname}.{t}', f'{opname}.{t}', t, [t, t], op, inputs=['IN_ALL16', 'IN_RAND16'])
    add(f'abs.{t}', f'abs.{t}', t, [t], 'OP_FABS')
    add(f'neg.{t}', f'neg.{t}', t, [t], 'OP_FNEG')
    return cases


FAMILIES = [('int', int_family), ('bits', bits_family), ('compare', compare_family),
            ('convert', convert_family), ('float', float_family), ('bf16', bf16_family)]


def type_enum(t):
    return 'T_' + t.upper()


def case_row(case):
    mods = ' | '.join(case.mods) or '0'
    inputs = (case.inputs + ['IN_NONE'] * 3)[:3]
    srcs = (list(case.srcs) + ['none'] * 3)[:3]
    return ('\t{"%s", "%s", %s, %s, %s, %s, %s, %s, %s, {%s}, {%s}, %d},\n'
            % (case.family, case.name, case.op, type_enum(case.dtype), type_enum(case.stype),
               mods, case.imm, case.imm2 or 0, case.check, ', '.join(inputs),
               ', '.join(type_enum(t) for t in srcs), STORE_WIDTH[REG_CLASS[case.dst]]))


def flushing_copy(case):
    c = copy.copy(case)
    c.family = 'ftz'
    return c


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: gen_sweeps.py OUT_DIR')
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    flushing = []
    for family, make in FAMILIES + [('ftz', lambda: flushing)]:
        cases = make()
        # the .ftz cases again in one module of their own, which then runs in the flushing
        # mode, with tanh.approx.f32, which has no .ftz form and keeps subnormals in it
        flushing += [flushing_copy(c) for c in cases if family != 'ftz' and
                     ('M_FTZ' in c.mods or c.insn == 'tanh.approx.f32')]
        header = '// Generated by tests/sweeps/gen_sweeps.py: the %s sweep.\n' % family
        header += '.version 8.5\n.target sm_90\n.address_size 64\n\n'
        text = header + '\n'.join(kernel_text(c) for c in cases)
        with open(os.path.join(out_dir, family + '.ptx'), 'w') as f:
            f.write(text)
        rows += [case_row(c) for c in cases]
    with open(os.path.join(out_dir, 'sweep_cases.inc'), 'w') as f:
        f.write('/* Generated by tests/sweeps/gen_sweeps.py: one row per kernel. */\n')
        f.writelines(rows)


if __name__ == '__main__':
    main()
