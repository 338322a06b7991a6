// The video instructions through inline PTX: the SIMD forms (vadd2 ... vset4) with lane
// selectors, masks, .sat and .add, and the scalar ones (vadd vsub vabsdiff vmin vmax vshl
// vshr vset vmad) with byte and half-word selectors, .sat, secondary operations, merges,
// negated vmad operands, .po and the .shr7/.shr15 scales. The reference reads each
// instruction's own text and computes it as the PTX ISA describes, and where an H200 differs
// from that text (ptxas 13 emulates these instructions), as the H200 does:
//   - a scalar result is kept in 34 bits (two's complement) before it saturates, and an
//     unsigned saturation to a byte or half-word reads those 34 bits as unsigned, so a
//     negative result becomes the largest value there (and 0 in a whole word);
//   - a saturated result keeps only its destination part's bits, and the .h1 merge takes
//     bits 16-31 of the result where the others move the result's low bits into place;
//   - vmad reads a whole-word operand as signed whatever its type, and c as signed.
#include "test_util.h"
#include <algorithm>
#include <cctype>
#include <string>

#define FORMS(X) \
    X("vadd2.u32.u32.u32 %0, %1, %2, %3;") \
    X("vadd2.s32.s32.s32.sat %0.h1, %1.h31, %2.h02, %3;") \
    X("vsub2.u32.s32.u32.add %0, %1.h23, %2.h10, %3;") \
    X("vavrg2.s32.s32.s32 %0.h0, %1, %2, %3;") \
    X("vabsdiff2.u32.u32.s32.sat %0, %1.h00, %2.h33, %3;") \
    X("vmin2.s32.u32.s32 %0, %1, %2, %3;") \
    X("vmax2.u32.s32.s32.add %0.h1, %1, %2, %3;") \
    X("vset2.u32.s32.lt %0, %1.h13, %2.h20, %3;") \
    X("vset2.s32.u32.ne.add %0, %1, %2, %3;") \
    X("vadd4.u32.u32.u32.sat %0.b20, %1.b7531, %2.b0246, %3;") \
    X("vsub4.s32.s32.s32.add %0.b310, %1, %2, %3;") \
    X("vavrg4.u32.u32.u32 %0, %1.b3210, %2.b3210, %3;") \
    X("vabsdiff4.s32.u32.s32 %0, %1, %2, %3;") \
    X("vmin4.s32.s32.u32.sat %0.b1, %1.b4567, %2.b0000, %3;") \
    X("vmax4.u32.u32.u32.add %0, %1, %2, %3;") \
    X("vset4.s32.s32.ge %0.b32, %1, %2, %3;") \
    X("vset4.u32.u32.eq.add %0, %1.b1111, %2.b5555, %3;") \
    X("vadd.s32.u32.s32.sat %0, %1.b0, %2.h1;") \
    X("vadd.u32.u32.u32 %0, %1, %2;") \
    X("vsub.s32.s32.s32.sat.add %0, %1, %2, %3;") \
    X("vsub.u32.s32.u32.sat %0.h1, %1.h0, %2.b3, %3;") \
    X("vabsdiff.u32.s32.s32.min %0, %1.b2, %2, %3;") \
    X("vmin.s32.u32.s32.max %0, %1.h1, %2, %3;") \
    X("vmax.u32.u32.s32.sat %0.b2, %1, %2.h0, %3;") \
    X("vshl.u32.u32.u32.clamp %0, %1, %2.b0;") \
    X("vshl.s32.s32.u32.wrap.sat %0, %1.h0, %2;") \
    X("vshr.s32.s32.u32.clamp.add %0, %1, %2.b0, %3;") \
    X("vshr.u32.u32.u32.wrap %0.b1, %1, %2, %3;") \
    X("vset.s32.u32.lt %0, %1.b1, %2;") \
    X("vset.u32.s32.ge.add %0, %1, %2.h0, %3;") \
    X("vset.s32.s32.ne %0.b3, %1.h1, %2.h1, %3;") \
    X("vsub2.u32.u32.u32.sat %0, %1, %2, %3;") \
    X("vsub4.u32.s32.s32.sat %0.b31, %1, %2, %3;") \
    X("vmin2.u32.s32.s32.sat %0, %1, %2, %3;") \
    X("vsub.u32.u32.u32.sat %0, %1, %2;") \
    X("vsub.u32.s32.u32.sat.max %0, %1.h0, %2, %3;") \
    X("vsub.u32.s32.u32 %0.h1, %1.h0, %2.b3, %3;") \
    X("vadd.u32.u32.u32.sat %0.h1, %1.b0, %2.b0, %3;") \
    X("vadd.s32.s32.s32.sat %0.h1, %1.h0, %2.h0, %3;") \
    X("vsub.u32.u32.u32.sat %0.b1, %1.b0, %2.b3, %3;") \
    X("vabsdiff.u32.s32.s32.sat %0.h1, %1, %2, %3;") \
    X("vmax.u32.u32.u32 %0.h1, %1.h0, %2.h1, %3;") \
    X("vmad.s32.u32.u32.sat %0, %1, %2, %3;") \
    X("vmad.u32.u32.u32.sat %0, %1.h0, %2.h1, %3;") \
    X("vmad.s32.s32.s32 %0, %1.h0, %2.h1, %3;") \
    X("vmad.u32.u32.u32.sat %0, %1, %2, %3;") \
    X("vmad.s32.u32.s32.sat.shr7 %0, -%1.b0, %2.h0, %3;") \
    X("vmad.u32.u32.u32.shr15 %0, %1.h1, %2.h0, -%3;") \
    X("vmad.u32.u32.u32.po %0, %1.b3, %2.b1, %3;") \
    X("vmad.s32.s32.s32.sat %0, %1, -%2, %3;") \
    X("vmad.s32.s32.s32.sat.shr15 %0, -%1, -%2, -%3;")

#define TEXT(t) t,
static const char *const forms[] = { FORMS(TEXT) };
enum { NFORMS = sizeof forms / sizeof forms[0] };

#define RUN(t) asm(t : "=r"(o[n++]) : "r"(x), "r"(y), "r"(z));
__global__ void video(int count, const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    unsigned x = a[i], y = b[i], z = c[i], *o = out + (size_t)i * NFORMS;
    int n = 0;
    FORMS(RUN)
}

// ---- the reference: a reader of the instruction's text ------------------------------------

struct Operand { bool minus; int index; char sel[8]; };

struct Insn {
    char op[16];
    int lanes;                   // 1 for the scalar forms
    bool dsigned, asigned, bsigned, sat, add, min, max, po, clamp_shift;
    int shift;                   // .shr7 / .shr15
    char cmp[3];
    Operand ops[4];
    int nops;
};

static Insn parse(const char *text)
{
    Insn in = {};
    const char *p = text;
    int k = 0;
    while (isalpha((unsigned char)*p) || isdigit((unsigned char)*p)) in.op[k++] = *p++;
    in.lanes = in.op[k - 1] == '2' ? 2 : in.op[k - 1] == '4' ? 4 : 1;
    if (in.lanes > 1) in.op[k - 1] = 0;
    bool is_set = !strcmp(in.op, "vset");
    int types = 0;
    while (*p == '.') {
        char mod[16] = {0};
        int m = 0;
        for (p++; isalnum((unsigned char)*p); p++) mod[m++] = *p;
        if (!strcmp(mod, "u32") || !strcmp(mod, "s32")) {
            bool s = mod[0] == 's';
            int slot = is_set ? types + 1 : types;  // vset has no dtype: its results are unsigned
            if (slot == 0) in.dsigned = s; else if (slot == 1) in.asigned = s; else in.bsigned = s;
            types++;
        } else if (!strcmp(mod, "sat")) in.sat = true;
        else if (!strcmp(mod, "add")) in.add = true;
        else if (!strcmp(mod, "min")) in.min = true;
        else if (!strcmp(mod, "max")) in.max = true;
        else if (!strcmp(mod, "po")) in.po = true;
        else if (!strcmp(mod, "clamp")) in.clamp_shift = true;
        else if (!strcmp(mod, "shr7")) in.shift = 7;
        else if (!strcmp(mod, "shr15")) in.shift = 15;
        else if (strstr(" eq ne lt le gt ge ", (std::string(" ") + mod + " ").c_str())) memcpy(in.cmp, mod, 3);
    }
    while (*p && *p != ';') {
        while (*p == ' ' || *p == ',') p++;
        Operand &o = in.ops[in.nops++];
        if (*p == '-') { o.minus = true; p++; }
        p++;  // '%'
        o.index = *p++ - '0';
        if (*p == '.') {
            int m = 0;
            for (p++; isalnum((unsigned char)*p); p++) o.sel[m++] = *p;
        }
    }
    return in;
}

static int64_t extend(uint64_t v, int bits, bool is_signed)
{
    v &= bits == 64 ? ~0ull : (1ull << bits) - 1;
    return is_signed && bits < 64 && (v >> (bits - 1) & 1) ? (int64_t)(v - (1ull << bits)) : (int64_t)v;
}

static int64_t clamp_to(int64_t v, int bits, bool is_signed)
{
    int64_t lo = is_signed ? -(1ll << (bits - 1)) : 0, hi = is_signed ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    return v < lo ? lo : v > hi ? hi : v;
}

static int64_t primary(const Insn &in, int64_t a, int64_t b)
{
    if (!strcmp(in.op, "vadd")) return a + b;
    if (!strcmp(in.op, "vsub")) return a - b;
    if (!strcmp(in.op, "vavrg")) return (a + b + (a + b >= 0)) >> 1;
    if (!strcmp(in.op, "vabsdiff")) return a > b ? a - b : b - a;
    if (!strcmp(in.op, "vmin")) return a < b ? a : b;
    if (!strcmp(in.op, "vmax")) return a > b ? a : b;
    // vset
    if (!strcmp(in.cmp, "eq")) return a == b;
    if (!strcmp(in.cmp, "ne")) return a != b;
    if (!strcmp(in.cmp, "lt")) return a < b;
    if (!strcmp(in.cmp, "le")) return a <= b;
    if (!strcmp(in.cmp, "gt")) return a > b;
    return a >= b;
}

static uint32_t simd(const Insn &in, const uint32_t *v)
{
    int w = 32 / in.lanes;
    uint64_t pair = (uint64_t)v[in.ops[2].index] << 32 | v[in.ops[1].index];
    const char *asel = in.ops[1].sel[0] ? in.ops[1].sel + 1 : in.lanes == 2 ? "10" : "3210";
    const char *bsel = in.ops[2].sel[0] ? in.ops[2].sel + 1 : in.lanes == 2 ? "32" : "7654";
    const char *mask = in.ops[0].sel[0] ? in.ops[0].sel + 1 : in.lanes == 2 ? "10" : "3210";
    uint32_t c = v[in.ops[3].index], d = in.add ? c : 0;
    for (int i = 0; i < in.lanes; i++) {
        int64_t va = extend(pair >> (asel[in.lanes - 1 - i] - '0') * w, w, in.asigned);
        int64_t vb = extend(pair >> (bsel[in.lanes - 1 - i] - '0') * w, w, in.bsigned);
        int64_t t = primary(in, va, vb);
        if (in.sat) t = clamp_to(t, w, in.dsigned);
        uint32_t lane_mask = (uint32_t)((1ull << w) - 1) << (i * w);
        bool selected = strchr(mask, '0' + i) != nullptr;
        if (in.add)
            d += selected ? (uint32_t)t : 0;
        else
            d |= selected ? ((uint32_t)t << (i * w)) & lane_mask : c & lane_mask;
    }
    return d;
}

// The part .b0-.b3/.h0/.h1 selects (its bit offset and width).
static void part(const char *sel, int *shift, int *width)
{
    *shift = 0, *width = 32;
    if (sel[0]) { *width = sel[0] == 'h' ? 16 : 8; *shift = (sel[1] - '0') * *width; }
}

static uint32_t scalar(const Insn &in, const uint32_t *v)
{
    int shift, width;
    bool is_mad = !strcmp(in.op, "vmad"), is_set = !strcmp(in.op, "vset"), dsigned = in.dsigned;
    part(in.ops[1].sel, &shift, &width);
    __int128 a = extend(v[in.ops[1].index] >> shift, width, in.asigned || (is_mad && width == 32));
    part(in.ops[2].sel, &shift, &width);
    __int128 b = extend(v[in.ops[2].index] >> shift, width, in.bsigned || (is_mad && width == 32)), r;
    uint32_t c = in.nops == 4 ? v[in.ops[3].index] : 0;
    if (!strcmp(in.op, "vshl") || !strcmp(in.op, "vshr")) {
        b = in.clamp_shift ? (b > 32 ? 32 : b) : (b & 31);
        r = !strcmp(in.op, "vshl") ? a << (int)b : a >> (int)b;
        r = extend((uint64_t)r, 34, true);
    } else if (is_mad) {
        bool negate_product = in.ops[1].minus != in.ops[2].minus, negate_c = in.ops[3].minus;
        dsigned = in.asigned || in.bsigned || negate_product || negate_c;
        __int128 product = a * b, addend = (int32_t)c;
        if (negate_product) product = ~product;
        else if (negate_c) addend = ~addend;
        r = product + addend + (in.po || negate_product || negate_c);
        r >>= in.shift;
    } else {
        r = primary(in, (int64_t)a, (int64_t)b);
        r = extend((uint64_t)r, 34, true);
    }
    part(in.ops[0].sel, &shift, &width);
    if (in.sat && !is_set) {
        __int128 lo = dsigned ? -((__int128)1 << (width - 1)) : 0;
        __int128 hi = dsigned ? ((__int128)1 << (width - 1)) - 1 : ((__int128)1 << width) - 1;
        if (!dsigned && !is_mad && width < 32)
            r &= ((__int128)1 << 34) - 1;
        r = r < lo ? lo : r > hi ? hi : r;
        r &= ((__int128)1 << width) - 1;
    }
    uint32_t d = (uint32_t)r;
    if (is_mad || in.nops == 3) return d;
    if (in.ops[0].sel[0]) {
        uint32_t m = (uint32_t)((1ull << width) - 1) << shift;
        return (c & ~m) | ((strcmp(in.ops[0].sel, "h1") ? d << shift : d) & m);
    }
    if (in.add) return d + c;
    if (in.min) return dsigned ? (uint32_t)std::min((int32_t)d, (int32_t)c) : std::min(d, c);
    return dsigned ? (uint32_t)std::max((int32_t)d, (int32_t)c) : std::max(d, c);
}

int main()
{
    Checker c;
    const int n = 8192;
    Lcg rng(0x71de0);
    static const unsigned special[] = {
        0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x00ff00ffu, 0xff00ff00u, 0x80808080u,
        0x7f7f7f7fu, 0x00010001u, 0x7fff8000u, 0x8000ffffu, 0x0000001fu, 0x00000020u, 0x00000021u, 0x12345678u,
    };
    const int ns = sizeof special / sizeof special[0];
    unsigned *in = new unsigned[3 * n];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            in[3 * i + k] = i < ns * ns * ns ? special[i / (k == 0 ? 1 : k == 1 ? ns : ns * ns) % ns] : rng.next();
    unsigned *a = new unsigned[n], *b = new unsigned[n], *s = new unsigned[n];
    for (int i = 0; i < n; i++) a[i] = in[3 * i], b[i] = in[3 * i + 1], s[i] = in[3 * i + 2];
    unsigned *da, *db, *ds, *dout;
    CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&ds, n * 4));
    CHECK(cudaMalloc(&dout, (size_t)n * NFORMS * 4));
    CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, s, n * 4, cudaMemcpyHostToDevice));
    video<<<n / 128, 128>>>(n, da, db, ds, dout);
    CHECK_LAUNCH();
    unsigned *out = new unsigned[(size_t)n * NFORMS];
    CHECK(cudaMemcpy(out, dout, (size_t)n * NFORMS * 4, cudaMemcpyDeviceToHost));
    if (const char *dump = getenv("PTX_VIDEO_DUMP")) {  // inputs and outputs, for studying a device
        FILE *f = fopen(dump, "wb");
        fwrite(a, 4, n, f); fwrite(b, 4, n, f); fwrite(s, 4, n, f); fwrite(out, 4, (size_t)n * NFORMS, f);
        fclose(f);
    }
    for (int f = 0; f < NFORMS; f++) {
        Insn insn = parse(forms[f]);
        for (int i = 0; i < n; i++) {
            uint32_t v[4] = { 0, a[i], b[i], s[i] };
            uint32_t want = insn.lanes > 1 ? simd(insn, v) : scalar(insn, v), got = out[(size_t)i * NFORMS + f];
            if (got != want)
                c.fail("%s on (%#x, %#x, %#x): %#x want %#x", forms[f], a[i], b[i], s[i], got, want);
        }
    }
    return c.finish();
}
