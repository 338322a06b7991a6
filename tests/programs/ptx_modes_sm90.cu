// PTX forms with no CUDA intrinsic, through inline PTX, against C references written from
// the PTX ISA: prmt's six special modes, fns, cvt.pack.sat to 16/8/4/2-bit lanes,
// mad24.hi.sat, min/max.xorsign.abs (f32, f16x2, bf16x2), cvt to tf32 (.rna .rn .rz,
// .satfinite, .relu) and the .satfinite/.relu conversions of f32 to f16, f16x2, bf16 and
// bf16x2. Inputs mix random words with zeros, infinities, NaNs, the largest finite values,
// subnormals and rounding ties.
#include "test_util.h"

enum { F4E, B4E, RC8, ECL, ECR, RC16, FNS, PACK_U16, PACK_S16, PACK_U8, PACK_S8, PACK_U4,
       PACK_S4, PACK_U2, PACK_S2, MAD24_HI_SAT, MIN_XS_F32, MAX_XS_F32, MIN_XS_F16X2,
       MAX_XS_BF16X2, TF32_RNA, TF32_RNA_SATFINITE, TF32_RN, TF32_RZ, TF32_RN_RELU,
       F16_RN_SATFINITE, F16_RZ_SATFINITE_RELU, F16X2_RN_SATFINITE_RELU, BF16_RN_SATFINITE,
       BF16X2_RZ_SATFINITE, F16_RN_RELU, BF16_RZ_RELU, NOPS };

static const char *const names[NOPS] = {
    "prmt.f4e", "prmt.b4e", "prmt.rc8", "prmt.ecl", "prmt.ecr", "prmt.rc16", "fns",
    "cvt.pack.sat.u16", "cvt.pack.sat.s16", "cvt.pack.sat.u8", "cvt.pack.sat.s8",
    "cvt.pack.sat.u4", "cvt.pack.sat.s4", "cvt.pack.sat.u2", "cvt.pack.sat.s2",
    "mad24.hi.sat.s32", "min.xorsign.abs.f32", "max.xorsign.abs.f32",
    "min.xorsign.abs.f16x2", "max.xorsign.abs.bf16x2", "cvt.rna.tf32.f32",
    "cvt.rna.satfinite.tf32.f32", "cvt.rn.tf32.f32", "cvt.rz.tf32.f32",
    "cvt.rn.relu.tf32.f32", "cvt.rn.satfinite.f16.f32",
    "cvt.rz.relu.satfinite.f16.f32", "cvt.rn.satfinite.relu.f16x2.f32",
    "cvt.rn.satfinite.bf16.f32", "cvt.rz.satfinite.bf16x2.f32", "cvt.rn.relu.f16.f32",
    "cvt.rz.relu.bf16.f32",
};

#define PRMT(mode) asm("prmt.b32." #mode " %0, %1, %2, %3;" : "=r"(o[n++]) : "r"(x), "r"(y), "r"(z))
#define PACK(t) asm("cvt.pack.sat." #t ".s32.b32 %0, %1, %2, %3;" : "=r"(o[n++]) : "r"(x), "r"(y), "r"(z))

__global__ void modes(int count, const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    unsigned x = a[i], y = b[i], z = c[i], *o = out + (size_t)i * NOPS;
    unsigned short h;
    int n = 0;
    PRMT(f4e); PRMT(b4e); PRMT(rc8); PRMT(ecl); PRMT(ecr); PRMT(rc16);
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(o[n++]) : "r"(x), "r"(y & 31), "r"((int)(z % 67) - 33));
    asm("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    PACK(u8); PACK(s8); PACK(u4); PACK(s4); PACK(u2); PACK(s2);
    asm("mad24.hi.sat.s32 %0, %1, %2, %3;" : "=r"(o[n++]) : "r"(x), "r"(y), "r"(z));
    asm("min.xorsign.abs.f32 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    asm("max.xorsign.abs.f32 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    asm("min.xorsign.abs.f16x2 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    asm("max.xorsign.abs.bf16x2 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(o[n++]) : "r"(x));
    asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(o[n++]) : "r"(x));
    asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(o[n++]) : "r"(x));
    asm("cvt.rz.tf32.f32 %0, %1;" : "=r"(o[n++]) : "r"(x));
    asm("cvt.rn.relu.tf32.f32 %0, %1;" : "=r"(o[n++]) : "r"(x));
    asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "r"(x)); o[n++] = h;
    asm("cvt.rz.relu.satfinite.f16.f32 %0, %1;" : "=h"(h) : "r"(x)); o[n++] = h;
    asm("cvt.rn.satfinite.relu.f16x2.f32 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    asm("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "r"(x)); o[n++] = h;
    asm("cvt.rz.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(o[n++]) : "r"(x), "r"(y));
    asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "r"(x)); o[n++] = h;
    asm("cvt.rz.relu.bf16.f32 %0, %1;" : "=h"(h) : "r"(x)); o[n++] = h;
}

// ---- references -----------------------------------------------------------------------

static unsigned prmt_mode(unsigned a, unsigned b, unsigned c, int mode)
{
    // d.b3 d.b2 d.b1 d.b0 for each value of c's two low bits, as default-mode selectors
    static const unsigned selectors[6][4] = {
        { 0x3210, 0x4321, 0x5432, 0x6543 },  // f4e: forward 4 extract
        { 0x5670, 0x6701, 0x7012, 0x0123 },  // b4e: backward 4 extract
        { 0x0000, 0x1111, 0x2222, 0x3333 },  // rc8: replicate byte
        { 0x3210, 0x3211, 0x3222, 0x3333 },  // ecl: edge clamp left
        { 0x0000, 0x1110, 0x2210, 0x3210 },  // ecr: edge clamp right
        { 0x1010, 0x3232, 0x1010, 0x3232 },  // rc16: replicate half
    };
    unsigned long long bytes = (unsigned long long)b << 32 | a;
    unsigned s = selectors[mode][c & 3], d = 0;
    for (int k = 0; k < 4; k++)
        d |= (unsigned)(bytes >> 8 * (s >> 4 * k & 7) & 0xff) << 8 * k;
    return d;
}

static unsigned fns(unsigned mask, unsigned base, int offset)
{
    if (offset == 0)
        return mask >> base & 1 ? base : ~0u;
    int step = offset > 0 ? 1 : -1, left = offset > 0 ? offset : -offset;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
        if (mask >> pos & 1 && --left == 0)
            return (unsigned)pos;
    return ~0u;
}

static unsigned saturate(long long v, int bits, bool is_signed)
{
    long long lo = is_signed ? -(1ll << (bits - 1)) : 0, hi = is_signed ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    return (unsigned)(v < lo ? lo : v > hi ? hi : v) & (unsigned)((1ull << bits) - 1);
}

static unsigned pack(unsigned a, unsigned b, unsigned c, int bits, bool is_signed)
{
    unsigned d = saturate((int)a, bits, is_signed) << bits | saturate((int)b, bits, is_signed);
    return bits == 16 ? d : d | c << 2 * bits;
}

static unsigned mad24_hi_sat(unsigned a, unsigned b, unsigned c)
{
    long long p = (long long)((int)(a << 8) >> 8) * ((int)(b << 8) >> 8);
    long long v = (p >> 16) + (int)c;
    return (unsigned)(v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v);
}

static float as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }

// A float format: sign, `exp_bits` exponent, `man_bits` mantissa (f16 5/10, bf16 8/7, tf32 8/10).
struct Format { int exp_bits, man_bits; };
static const Format F16 = { 5, 10 }, BF16 = { 8, 7 }, TF32 = { 8, 10 };

static double largest(Format f)
{
    return ldexp(2.0 - ldexp(1.0, -f.man_bits), (1 << (f.exp_bits - 1)) - 1);
}

enum Rounding { RN, RZ, RNA };

// |v| rounded to the format's precision (no overflow handling).
static double round_to(double v, Format f, Rounding r)
{
    int emin = 2 - (1 << (f.exp_bits - 1));
    int e;
    frexp(v, &e);
    double q = ldexp(1.0, (e - 1 < emin ? emin : e - 1) - f.man_bits), t = v / q, i = floor(t);
    double frac = t - i;
    if (r == RZ || frac < 0.5)
        return i * q;
    if (frac > 0.5 || r == RNA || fmod(i, 2.0) != 0.0)
        return (i + 1) * q;
    return i * q;
}

// The format's bits of a finite value already rounded to it, or infinity.
static unsigned encode(double v, bool negative, Format f)
{
    int bias = (1 << (f.exp_bits - 1)) - 1, e;
    unsigned sign = (unsigned)negative << (f.exp_bits + f.man_bits), exp, man;
    if (v == 0)
        return sign;
    if (isinf(v))
        return sign | ((1u << f.exp_bits) - 1) << f.man_bits;
    frexp(v, &e);
    e -= 1;
    if (e < 1 - bias) {
        exp = 0;
        man = (unsigned)ldexp(v, bias - 1 + f.man_bits);
    } else {
        exp = (unsigned)(e + bias);
        man = (unsigned)(ldexp(v, f.man_bits - e) - ldexp(1.0, f.man_bits));
    }
    return sign | exp << f.man_bits | man;
}

// cvt from f32 to a narrower format; tf32 is returned in its 32-bit register form.
static unsigned convert(unsigned x, Format f, Rounding r, bool satfinite, bool relu)
{
    float v = as_float(x);
    bool negative = x >> 31;
    if (isnan(v)) {
        if (f.man_bits != 10 || f.exp_bits != 8)
            return 0x7fff;
        if (r != RNA)
            return 0x7fffe000;
        // .rna keeps the payload's upper bits; .satfinite then steps the field down one
        // tf32 ulp, as it turns an infinity into the largest finite value
        return (x & ~0x1fffu) - (satfinite ? 0x2000u : 0);
    }
    if (relu && negative)
        return 0;
    double a = fabs((double)v), rounded = isinf(v) ? INFINITY : round_to(a, f, r);
    if (rounded > largest(f))
        rounded = satfinite || (r == RZ && !isinf(v)) ? largest(f) : INFINITY;
    unsigned bits = encode(rounded, negative, f);
    return f.man_bits == 10 && f.exp_bits == 8 ? bits << 13 : bits;
}

static unsigned halves(unsigned hi, unsigned lo) { return hi << 16 | lo; }

// min/max of |a| and |b|, with the XOR of their signs; a NaN operand gives the other
// operand's magnitude, two NaNs the canonical NaN.
static unsigned xorsign_abs(unsigned a, unsigned b, int bits, bool is_max, bool half_is_bf16)
{
    unsigned sign_bit = 1u << (bits - 1), mag = sign_bit - 1;
    auto value = [&](unsigned m) -> double {
        if (bits == 32) return as_float(m);
        if (half_is_bf16) return as_float(m << 16);
        int e = m >> 10 & 31; double man = m & 1023;
        return e ? ldexp(1024 + man, e - 25) : ldexp(man, -24);
    };
    unsigned exp_mask = bits == 32 ? 0x7f800000u : half_is_bf16 ? 0x7f80u : 0x7c00u;
    auto is_nan = [&](unsigned m) { return (m & exp_mask) == exp_mask && (m & mag & ~exp_mask); };
    unsigned ma = a & mag, mb = b & mag;
    unsigned m;
    if (is_nan(ma) && is_nan(mb))
        return bits == 32 ? 0x7fffffffu : 0x7fffu;
    if (is_nan(ma) || is_nan(mb))
        m = is_nan(ma) ? mb : ma;
    else
        m = (is_max ? value(ma) >= value(mb) : value(ma) <= value(mb)) ? ma : mb;
    return ((a ^ b) & sign_bit) | m;
}

static unsigned reference(int op, unsigned x, unsigned y, unsigned z)
{
    switch (op) {
    case F4E: case B4E: case RC8: case ECL: case ECR: case RC16: return prmt_mode(x, y, z, op - F4E);
    case FNS: return fns(x, y & 31, (int)(z % 67) - 33);
    case PACK_U16: return pack(x, y, 0, 16, false);
    case PACK_S16: return pack(x, y, 0, 16, true);
    case PACK_U8: return pack(x, y, z, 8, false);
    case PACK_S8: return pack(x, y, z, 8, true);
    case PACK_U4: return pack(x, y, z, 4, false);
    case PACK_S4: return pack(x, y, z, 4, true);
    case PACK_U2: return pack(x, y, z, 2, false);
    case PACK_S2: return pack(x, y, z, 2, true);
    case MAD24_HI_SAT: return mad24_hi_sat(x, y, z);
    case MIN_XS_F32: return xorsign_abs(x, y, 32, false, false);
    case MAX_XS_F32: return xorsign_abs(x, y, 32, true, false);
    case MIN_XS_F16X2: return halves(xorsign_abs(x >> 16, y >> 16, 16, false, false), xorsign_abs(x & 0xffff, y & 0xffff, 16, false, false));
    case MAX_XS_BF16X2: return halves(xorsign_abs(x >> 16, y >> 16, 16, true, true), xorsign_abs(x & 0xffff, y & 0xffff, 16, true, true));
    case TF32_RNA: return convert(x, TF32, RNA, false, false);
    case TF32_RNA_SATFINITE: return convert(x, TF32, RNA, true, false);
    case TF32_RN: return convert(x, TF32, RN, false, false);
    case TF32_RZ: return convert(x, TF32, RZ, false, false);
    case TF32_RN_RELU: return convert(x, TF32, RN, false, true);
    case F16_RN_SATFINITE: return convert(x, F16, RN, true, false);
    case F16_RZ_SATFINITE_RELU: return convert(x, F16, RZ, true, true);
    case F16X2_RN_SATFINITE_RELU: return halves(convert(x, F16, RN, true, true), convert(y, F16, RN, true, true));
    case BF16_RN_SATFINITE: return convert(x, BF16, RN, true, false);
    case BF16X2_RZ_SATFINITE: return halves(convert(x, BF16, RZ, true, false), convert(y, BF16, RZ, true, false));
    case F16_RN_RELU: return convert(x, F16, RN, false, true);
    case BF16_RZ_RELU: return convert(x, BF16, RZ, false, true);
    }
    return 0;
}

int main()
{
    Checker c;
    const int n = 8192;
    Lcg rng(0x9d0de5);
    unsigned *a = new unsigned[n], *b = new unsigned[n], *s = new unsigned[n];
    const unsigned special[] = {
        0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffa00001u, 0x7f7fffffu, 0xff7fffffu,
        0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u, 0x477fefffu, 0x477ff000u, 0x477fe000u, 0xc77ff000u,
        0x3f801000u, 0x3f803000u, 0x3f800fffu, 0x7f7ff000u, 0x38800000u, 0x33800000u, 0x33000000u, 0x7fffffffu,
        0x00008000u, 0x7fff0000u, 0x7bff7c00u, 0xfc007e00u, 0xffff8000u, 0x0001ffffu, 0x80017fffu, 0x12345678u,
        0x7f800001u, 0x7f801000u, 0xff802000u, 0x7f803fffu, 0x7c017f81u, 0xfd00ffc1u, 0x7e00ff80u, 0x7f7fe000u,
    };
    const int nspecial = sizeof special / sizeof special[0];
    for (int i = 0; i < n; i++) {
        if (i < nspecial * nspecial) {
            a[i] = special[i % nspecial];
            b[i] = special[i / nspecial];
        } else {
            a[i] = rng.next();
            b[i] = rng.next();
            if (i % 3 == 0) a[i] &= 0x8fffffffu;     // smaller exponents
            if (i % 7 == 0) a[i] &= 0xffffe000u | (rng.next() & 0x1000u);  // tf32 ties
            if (i % 11 == 0) b[i] = (int)(rng.next() % 600) - 300;          // near pack limits
            if (i % 13 == 0) a[i] = (int)(rng.next() % 70000) - 35000;
        }
        s[i] = rng.next();
    }
    unsigned *da, *db, *ds, *dout;
    CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&ds, n * 4));
    CHECK(cudaMalloc(&dout, (size_t)n * NOPS * 4));
    CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, s, n * 4, cudaMemcpyHostToDevice));
    modes<<<n / 128, 128>>>(n, da, db, ds, dout);
    CHECK_LAUNCH();
    unsigned *out = new unsigned[(size_t)n * NOPS];
    CHECK(cudaMemcpy(out, dout, (size_t)n * NOPS * 4, cudaMemcpyDeviceToHost));
    if (const char *dump = getenv("PTX_MODES_DUMP")) {  // inputs and outputs, for studying a device
        FILE *f = fopen(dump, "wb");
        fwrite(a, 4, n, f); fwrite(b, 4, n, f); fwrite(s, 4, n, f); fwrite(out, 4, (size_t)n * NOPS, f);
        fclose(f);
    }
    for (int i = 0; i < n; i++)
        for (int op = 0; op < NOPS; op++) {
            unsigned want = reference(op, a[i], b[i], s[i]), got = out[(size_t)i * NOPS + op];
            if (got != want)
                c.fail("%s on (%#x, %#x, %#x): %#x want %#x", names[op], a[i], b[i], s[i], got, want);
        }
    return c.finish();
}
