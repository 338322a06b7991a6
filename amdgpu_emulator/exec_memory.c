/* Vector memory: global, flat, scratch and buffer loads, stores and atomics, and LDS (DS)
 * with its permutes. Global memory is host memory that the runtime registered; flat
 * addresses in the shared or private aperture are LDS or the lane's scratch. Global
 * atomics are host atomics, so that workgroups on different threads see each other's. */
#include <math.h>
#include <stdio.h>

#include "emu.h"
#include "fp.h"

#define EACH for (int l = 0; l < LANES; l++)

enum space { GLOBAL, FLAT, SCRATCH, BUFFER };

/* The selector of a memory instruction. */
#define SPACE(op) ((op) & 3)
#define KIND(op) ((op) >> 2 & 15)
#define FORMAT(op) ((op) >> 6 & 31)
#define ATOMIC(op) ((op) >> 11 & 31)
enum kind { LOAD, STORE, ATOM };
enum format { B32, B64, B96, B128, U8, I8, U16, I16, B8, B16, D16_B16, D16_HI_B16, D16_U8,
              D16_I8, D16_HI_U8, D16_HI_I8, D16_HI_B8, D16_HI_STORE_B16 };
enum atomic { A_SWAP, A_CMPSWAP, A_ADD, A_SUB, A_MIN_I, A_MIN_U, A_MAX_I, A_MAX_U, A_AND, A_OR,
              A_XOR, A_INC, A_DEC, A_ADD_F32, A_MIN_F32, A_MAX_F32, A_ADD_F64, A_MIN_F64,
              A_MAX_F64, A_PK_ADD_F16, A_PK_ADD_BF16, A_CSUB, A_COND_SUB, A_RSUB, A_MSKOR,
              A_CMPSWAP_F, A_WRAP };

static unsigned format_bytes(unsigned f)
{
	static const uint8_t bytes[] = {4, 8, 12, 16, 1, 1, 2, 2, 1, 2, 2, 2, 1, 1, 1, 1, 1, 2};
	return bytes[f];
}

/* Where lane L's access of SIZE bytes at ADDRESS lands, or NULL after a fault. */
static uint8_t *locate(struct wave *w, const struct insn *in, enum space space, uint64_t address,
                       unsigned size, int l, bool *dropped)
{
	struct workgroup *wg = w->wg;
	*dropped = false;
	if (space == FLAT || space == BUFFER) {
		if (address - SHARED_APERTURE < APERTURE_SIZE && space == FLAT) {
			uint64_t off = address - SHARED_APERTURE;
			if (off + size > wg->lds_size) {
				*dropped = true;
				return NULL;
			}
			return wg->lds + off;
		}
		if (address - PRIVATE_APERTURE < APERTURE_SIZE) {
			address -= PRIVATE_APERTURE;
			space = SCRATCH;
		} else if (space == BUFFER && address - BUFFER_SCRATCH < APERTURE_SIZE) {
			address -= BUFFER_SCRATCH;
			space = SCRATCH;
		}
	}
	if (space == SCRATCH) {
		if (address + size > w->scratch_per_lane) {
			emu_fault(w, in, "scratch access of %u bytes at offset 0x%llx by lane %d, past the "
			          "%u bytes of private memory each lane has", size,
			          (unsigned long long)address, l, w->scratch_per_lane);
			return NULL;
		}
		return w->scratch + (size_t)l * w->scratch_per_lane + address;
	}
	if (!emu_mapped(address, size)) {
		emu_memory_fault(w, in, "memory access fault: %u bytes at 0x%llx by lane %d", size,
		          (unsigned long long)address, l);
		return NULL;
	}
	return (uint8_t *)(uintptr_t)address;
}

/* The address of each active lane, and where its data is in the operand list. */
struct access {
	uint64_t address[LANES];
	int data, dest;  /* operand indices, -1 when absent */
};

static inline __attribute__((always_inline)) void
addresses(struct wave *w, const struct insn *in, enum space space, bool returns, enum kind kind,
          struct access *a)
{
	int v = (kind == LOAD || (kind == ATOM && returns)) ? 1 : 0;
	a->dest = kind == LOAD || (kind == ATOM && returns) ? 0 : -1;
	a->data = kind == LOAD ? -1 : v + 1;
	const struct operand *va = &in->o[v];
	if (space == BUFFER) {
		/* vdata, vaddr, srsrc, soffset */
		a->dest = kind == LOAD || (kind == ATOM && returns) ? 0 : -1;
		a->data = kind == LOAD ? -1 : 0;
		uint64_t base = sget64(w, &in->o[2]) & 0xffffffffffffull;
		uint64_t soff = in->nopnd > 3 ? sget32(w, &in->o[3]) : 0;
		/* Scratch is swizzled: a lane's data lies one element in each wave-sized row, so
		 * an offset in an SGPR (the stack pointer) counts bytes of the whole wave. */
		if (base - BUFFER_SCRATCH < APERTURE_SIZE)
			soff /= LANES;
		/* The buffer offset, the VGPR's and the instruction's, is 32 bits and wraps:
		 * LLVM folds a constant into the instruction over a VGPR that may be negative
		 * (gfx9 and later check no range for private memory). */
		uint32_t off[LANES];
		vget32(w, &in->o[1], off);
		EACH a->address[l] = base + soff +
		                     (uint32_t)((in->offen && in->o[1].kind == OPND_VGPR ? off[l] : 0) +
		                                (uint32_t)in->offset);
		return;
	}
	const struct operand *sa = &in->o[a->data >= 0 ? a->data + 1 : v + 1];
	bool has_saddr = in->nopnd > (a->data >= 0 ? a->data + 1 : v + 1) && sa->kind == OPND_SGPR;
	if (space == SCRATCH) {
		uint32_t off[LANES];
		uint64_t s = has_saddr ? sget32(w, sa) : 0;
		if (va->kind == OPND_VGPR)
			vget32(w, va, off);
		else
			memset(off, 0, sizeof off);
		EACH a->address[l] = (uint32_t)(off[l] + (uint32_t)s + (uint32_t)in->offset);
		return;
	}
	if (has_saddr) {
		uint32_t off[LANES];
		uint64_t base = sget64(w, sa);
		if (va->kind == OPND_VGPR)
			vget32(w, va, off);
		else
			memset(off, 0, sizeof off);
		EACH a->address[l] = base + off[l] + (uint64_t)(int64_t)in->offset;
	} else {
		uint64_t p[LANES];
		vget64(w, va, p);
		EACH a->address[l] = p[l] + (uint64_t)(int64_t)in->offset;
	}
}

/* Whether every active lane's access is global memory inside one registered range: then
 * no lane needs locating, the common case, checked once per instruction. */
static inline __attribute__((always_inline)) bool
all_direct(const struct wave *w, enum space space, const struct access *a, unsigned bytes)
{
	uint32_t e = exec_mask(w);
	uint64_t lo = UINT64_MAX, hi = 0;
	if (space != GLOBAL && space != FLAT)
		return false;
	EACH {
		if (!(e >> l & 1))
			continue;
		lo = a->address[l] < lo ? a->address[l] : lo;
		hi = a->address[l] > hi ? a->address[l] : hi;
	}
	return e && hi < SHARED_APERTURE && emu_mapped(lo, hi - lo + bytes);
}

/* What a load of FORMAT puts in lane L's registers from REG on: whole dwords, a byte or
 * half-word extended, or a d16 half with the other half kept. */
static void put_loaded(struct wave *w, unsigned reg, int l, unsigned f, const uint8_t *buf)
{
	uint32_t *r = &w->v[reg][l], word;
	memcpy(&word, buf, 4);
	switch (f) {
	case U8: *r = buf[0]; break;
	case I8: *r = (uint32_t)(int32_t)(int8_t)buf[0]; break;
	case U16: *r = word & 0xffff; break;
	case I16: *r = (uint32_t)(int32_t)(int16_t)word; break;
	case D16_B16: *r = (*r & 0xffff0000u) | (word & 0xffff); break;
	case D16_HI_B16: *r = (*r & 0xffff) | word << 16; break;
	case D16_U8: *r = (*r & 0xffff0000u) | buf[0]; break;
	case D16_I8: *r = (*r & 0xffff0000u) | (uint16_t)(int8_t)buf[0]; break;
	case D16_HI_U8: *r = (*r & 0xffff) | (uint32_t)buf[0] << 16; break;
	case D16_HI_I8: *r = (*r & 0xffff) | (uint32_t)(uint16_t)(int8_t)buf[0] << 16; break;
	default:
		for (unsigned k = 0; k < format_bytes(f) / 4; k++) {
			memcpy(&word, buf + 4 * k, 4);
			w->v[(reg + k) & 255][l] = word;
		}
	}
}

LANE_LOOPS static void load(struct wave *w, const struct insn *in, enum space space)
{
	struct access a;
	unsigned f = FORMAT(in->op), bytes = format_bytes(f);
	uint32_t e = exec_mask(w);
	const struct operand *d = &in->o[0];
	addresses(w, in, space, true, LOAD, &a);
	bool direct = all_direct(w, space, &a, bytes);
	if (direct && f <= B128) {  /* whole dwords from global memory: the common case */
		for (unsigned k = 0; k < bytes / 4; k++) {
			uint32_t *r = w->v[(d->reg + k) & 255];
			EACH if (e >> l & 1)
				memcpy(&r[l], (const uint8_t *)(uintptr_t)a.address[l] + 4 * k, 4);
		}
		return;
	}
	if (direct && (f == U8 || f == I8 || f == U16 || f == I16)) {
		/* a byte or half-word extended to the register: one loop per format */
		uint32_t *r = w->v[d->reg];
#define EXTENDED(T) EACH if (e >> l & 1) { \
			T x; \
			memcpy(&x, (const void *)(uintptr_t)a.address[l], sizeof x); \
			r[l] = (uint32_t)(int32_t)x; \
		}
		switch (f) {
		case U8: EXTENDED(uint8_t); break;
		case I8: EXTENDED(int8_t); break;
		case U16: EXTENDED(uint16_t); break;
		default: EXTENDED(int16_t); break;
		}
#undef EXTENDED
		return;
	}
	EACH {
		if (!(e >> l & 1))
			continue;
		bool dropped = false;
		uint8_t *p = direct ? (uint8_t *)(uintptr_t)a.address[l]
		                    : locate(w, in, space, a.address[l], bytes, l, &dropped);
		uint8_t buf[16] = {0};
		if (p)
			memcpy(buf, p, bytes);
		else if (!dropped)
			return;
		put_loaded(w, d->reg, l, f, buf);
	}
}

LANE_LOOPS static void store(struct wave *w, const struct insn *in, enum space space)
{
	struct access a;
	unsigned f = FORMAT(in->op), bytes = format_bytes(f);
	uint32_t e = exec_mask(w);
	addresses(w, in, space, false, STORE, &a);
	bool direct = all_direct(w, space, &a, bytes);
	const struct operand *s = &in->o[a.data];
	if (direct && f <= B128 && s->kind == OPND_VGPR) {
		/* lane after lane, so that where lanes overlap the last one's data stays whole */
		EACH if (e >> l & 1)
			for (unsigned k = 0; k < bytes / 4; k++)
				memcpy((uint8_t *)(uintptr_t)a.address[l] + 4 * k,
				       &w->v[(s->reg + k) & 255][l], 4);
		return;
	}
	EACH {
		if (!(e >> l & 1))
			continue;
		uint8_t buf[16];
		for (unsigned k = 0; k < 4; k++) {
			uint32_t word = s->kind == OPND_VGPR ? w->v[(s->reg + k) & 255][l] : sget32(w, s);
			memcpy(buf + 4 * k, &word, 4);
		}
		if (f == D16_HI_B8 || f == D16_HI_STORE_B16)
			memmove(buf, buf + 2, 2);
		bool dropped = false;
		uint8_t *p = direct ? (uint8_t *)(uintptr_t)a.address[l]
		                    : locate(w, in, space, a.address[l], bytes, l, &dropped);
		if (p)
			memcpy(p, buf, bytes);
		else if (!dropped)
			return;
	}
}

static float as_float_bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static double as_double_bits(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t as_bits_float(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t as_bits_double(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

static uint16_t f16_add(uint16_t a, uint16_t b)
{
	_Float16 x, y, z;
	memcpy(&x, &a, 2);
	memcpy(&y, &b, 2);
	z = (_Float16)((float)x + (float)y);
	uint16_t r;
	memcpy(&r, &z, 2);
	return r;
}

static uint16_t bf16_add(uint16_t a, uint16_t b)
{
	float x = as_float_bits((uint32_t)a << 16) + as_float_bits((uint32_t)b << 16);
	uint32_t bits;
	memcpy(&bits, &x, 4);
	if (isnan(x))
		return (uint16_t)(bits >> 16 | 0x40);
	bits += 0x7fff + (bits >> 16 & 1);
	return (uint16_t)(bits >> 16);
}

/* The new value of one atomic, from the old one and the data. */
static uint64_t combine(unsigned op, uint64_t old, uint64_t data, uint64_t cmp, bool wide,
                        bool *write)
{
	*write = true;
	switch (op) {
	case A_SWAP: return data;
	case A_CMPSWAP: *write = old == cmp; return data;
	case A_ADD: return old + data;
	case A_SUB: return old - data;
	/* csub and sub_clamp stop at 0; gfx12's cond_sub leaves what it cannot subtract from */
	case A_CSUB: { uint32_t o = (uint32_t)old, d = (uint32_t)data; return o < d ? 0 : o - d; }
	case A_COND_SUB: { uint32_t o = (uint32_t)old, d = (uint32_t)data; return o >= d ? o - d : o; }
	case A_RSUB: return data - old;
	case A_MSKOR: return (old & ~data) | cmp;
	case A_WRAP: { uint32_t o = (uint32_t)old, d = (uint32_t)data; return o >= d ? o - d : o + (uint32_t)cmp; }
	/* compared as floats: -0 matches +0, a NaN nothing */
	case A_CMPSWAP_F:
		*write = wide ? as_double_bits(old) == as_double_bits(cmp)
		              : as_float_bits((uint32_t)old) == as_float_bits((uint32_t)cmp);
		return data;
	case A_MIN_I: return wide ? ((int64_t)old < (int64_t)data ? old : data)
	                          : ((int32_t)old < (int32_t)data ? old : data);
	case A_MAX_I: return wide ? ((int64_t)old > (int64_t)data ? old : data)
	                          : ((int32_t)old > (int32_t)data ? old : data);
	case A_MIN_U: return old < data ? old : data;
	case A_MAX_U: return old > data ? old : data;
	case A_AND: return old & data;
	case A_OR: return old | data;
	case A_XOR: return old ^ data;
	case A_INC: return old >= data ? 0 : old + 1;
	case A_DEC: return old == 0 || old > data ? data : old - 1;
	case A_ADD_F32: return as_bits_float(as_float_bits((uint32_t)old) + as_float_bits((uint32_t)data));
	case A_MIN_F32: return as_bits_float(fminf(as_float_bits((uint32_t)old), as_float_bits((uint32_t)data)));
	case A_MAX_F32: return as_bits_float(fmaxf(as_float_bits((uint32_t)old), as_float_bits((uint32_t)data)));
	case A_ADD_F64: return as_bits_double(as_double_bits(old) + as_double_bits(data));
	case A_MIN_F64: return as_bits_double(fmin(as_double_bits(old), as_double_bits(data)));
	case A_MAX_F64: return as_bits_double(fmax(as_double_bits(old), as_double_bits(data)));
	case A_PK_ADD_F16:
		return f16_add((uint16_t)old, (uint16_t)data) |
		       (uint32_t)f16_add((uint16_t)(old >> 16), (uint16_t)(data >> 16)) << 16;
	case A_PK_ADD_BF16:
		return bf16_add((uint16_t)old, (uint16_t)data) |
		       (uint32_t)bf16_add((uint16_t)(old >> 16), (uint16_t)(data >> 16)) << 16;
	}
	return old;
}

static bool atomic_is_wide(unsigned op, unsigned format)
{
	return format == B64 || op == A_ADD_F64 || op == A_MIN_F64 || op == A_MAX_F64;
}

/* One word's read-modify-write: a compare-and-swap loop where another host thread may look
 * (global memory), a plain update in the workgroup's LDS or a lane's scratch. */
#define ATOMIC_UPDATE(type, wide)                                                        \
	do {                                                                             \
		type *q = (type *)p, old = shared ? __atomic_load_n(q, __ATOMIC_RELAXED) : *q;   \
		for (bool write;;) {                                                         \
			type nv = (type)combine(op, old, data, cmp, wide, &write);                 \
			if (!write)                                                              \
				return old;                                                          \
			if (!shared) {                                                           \
				*q = nv;                                                             \
				return old;                                                          \
			}                                                                        \
			if (__atomic_compare_exchange_n(q, &old, nv, true, __ATOMIC_SEQ_CST,     \
			                                __ATOMIC_RELAXED))                       \
				return old;                                                          \
		}                                                                            \
	} while (0)

static uint64_t atomic_at(uint8_t *p, unsigned op, bool wide, uint64_t data, uint64_t cmp,
                          bool shared)
{
	if (wide)
		ATOMIC_UPDATE(uint64_t, true);
	ATOMIC_UPDATE(uint32_t, false);
}

static void atomic(struct wave *w, const struct insn *in, enum space space)
{
	struct access a;
	unsigned op = ATOMIC(in->op);
	bool wide = atomic_is_wide(op, FORMAT(in->op)), returns = in->glc;
	uint32_t e = exec_mask(w);
	addresses(w, in, space, returns, ATOM, &a);
	const struct operand *s = &in->o[a.data];
	unsigned words = wide ? 2 : 1;
	EACH {
		if (!(e >> l & 1))
			continue;
		uint64_t data = 0, cmp = 0;
		for (unsigned k = 0; k < words; k++) {
			data |= (uint64_t)w->v[(s->reg + k) & 255][l] << 32 * k;
			if (op == A_CMPSWAP || op == A_CMPSWAP_F)
				cmp |= (uint64_t)w->v[(s->reg + words + k) & 255][l] << 32 * k;
		}
		if ((a.address[l] & (words * 4 - 1)) != 0) {
			emu_fault(w, in, "misaligned atomic at 0x%llx by lane %d",
			          (unsigned long long)a.address[l], l);
			return;
		}
		bool dropped;
		uint8_t *p = locate(w, in, space, a.address[l], words * 4, l, &dropped);
		if (!p && !dropped)
			return;
		bool shared = p && !(p >= w->wg->lds && p < w->wg->lds + w->wg->lds_size) &&
		              !(p >= w->scratch && p < w->scratch + (size_t)LANES * w->scratch_per_lane);
		uint64_t old = p ? atomic_at(p, op, wide, data, cmp, shared) : 0;
		if (returns && a.dest >= 0)
			for (unsigned k = 0; k < words; k++)
				w->v[(in->o[a.dest].reg + k) & 255][l] = (uint32_t)(old >> 32 * k);
	}
}

/* global_load_addtid_b32 and global_store_addtid_b32: lane L's dword at the SGPR pair's
 * address + offset + 4 L. */
static void global_addtid(struct wave *w, const struct insn *in)
{
	uint32_t e = exec_mask(w);
	uint64_t base = sget64(w, &in->o[1]) + (uint64_t)(int64_t)in->offset;
	bool store = in->op;
	EACH if (e >> l & 1) {
		bool dropped;
		uint8_t *p = locate(w, in, GLOBAL, base + 4 * (uint64_t)l, 4, l, &dropped);
		if (!p && !dropped)
			return;
		uint32_t *lane = &w->v[in->o[0].reg][l];
		if (store && p)
			memcpy(p, lane, 4);
		else if (!store && p)
			memcpy(lane, p, 4);
		else if (!store)
			*lane = 0;
	}
}

/* gfx12's _block loads and stores: dword I of the 32 at the lane's address + 4 I moves to or
 * from VGPR base + I where M0 bit I is set; neither the word nor the register of a clear
 * bit is touched. */
static void block(struct wave *w, const struct insn *in)
{
	enum space space = (enum space)SPACE(in->op);
	bool store = KIND(in->op) == STORE;
	uint32_t e = exec_mask(w), mask = w->s[SREG_M0];
	struct access a;
	addresses(w, in, space, !store, store ? STORE : LOAD, &a);
	unsigned base = in->o[store ? a.data : a.dest].reg;
	for (unsigned i = 0; i < 32; i++) {
		if (!(mask >> i & 1))
			continue;
		uint32_t *r = w->v[(base + i) & 255];
		EACH if (e >> l & 1) {
			bool dropped;
			uint8_t *p = locate(w, in, space, a.address[l] + 4 * i, 4, l, &dropped);
			if (!p && !dropped)
				return;
			uint32_t word = 0;  /* what a dropped load reads */
			if (store && p)
				memcpy(p, &r[l], 4);
			else if (!store && p)
				memcpy(&word, p, 4);
			if (!store)
				r[l] = word;
		}
	}
}

/* gfx12's transposing loads, whose layouts AMD's own description at hand does not give:
 * these are what a third party measured on gfx1201 hardware, for WMMA operand tiles.
 * global_load_tr_b128: each lane reads eight 16-bit elements at its address, and each group
 * of eight lanes takes them transposed: element J of lane L is element L % 8 of what lane
 * 8 (L / 8) + J read (as Triton's AMD backend describes it too). global_load_tr_b64: each
 * lane reads eight bytes, and each group of sixteen lanes makes two 8x8 transposes of
 * interleaved lanes (lanes 0-3 and 8-11 to lanes 0-7, lanes 4-7 and 12-15 to 8-15): byte J
 * of lane L is byte L % 8 of what lane 16 (L / 16) + 8 (J / 4) + 4 (L / 8 % 2) + J % 4 read
 * (the layout AMD's Composable Kernel builds its 8-bit WMMA operands on for gfx12). What
 * lanes EXEC leaves out would contribute is not described: the emulator takes all 32 lanes
 * only. */
static void load_transposed(struct wave *w, const struct insn *in)
{
	uint8_t rows[LANES][16];
	unsigned size = in->op;  /* the bytes a lane reads */
	struct access a;
	if (exec_mask(w) != 0xffffffffu) {
		emu_fault(w, in, "%s with EXEC 0x%08x: a transposing load is emulated with all 32 "
		          "lanes only", in->text, exec_mask(w));
		return;
	}
	addresses(w, in, GLOBAL, true, LOAD, &a);
	EACH {
		bool dropped;
		uint8_t *p = locate(w, in, GLOBAL, a.address[l], size, l, &dropped);
		if (!p && !dropped)
			return;
		if (p)
			memcpy(rows[l], p, size);
		else
			memset(rows[l], 0, size);
	}
	EACH for (unsigned j = 0; j < size; j++) {
		unsigned from, byte;
		if (size == 16) {  /* element j / 2, its byte j % 2 */
			from = l / 8 * 8 + j / 2;
			byte = l % 8 * 2 + j % 2;
		} else {
			from = l / 16 * 16 + j / 4 * 8 + l / 8 % 2 * 4 + j % 4;
			byte = l % 8;
		}
		uint32_t *word = &w->v[(in->o[0].reg + j / 4) & 255][l];
		unsigned shift = 8 * (j % 4);
		*word = (*word & ~(0xffu << shift)) | (uint32_t)rows[from][byte] << shift;
	}
}

static void vmem(struct wave *w, const struct insn *in)
{
	enum space space = (enum space)SPACE(in->op);
	switch (KIND(in->op)) {
	case LOAD: load(w, in, space); return;
	case STORE: store(w, in, space); return;
	default: atomic(w, in, space); return;
	}
}

/* LDS. The selector says what the operation is; offsets are in bytes, or in elements for
 * the two-address forms. Out-of-range reads give 0 and writes are dropped. */
enum ds { DS_LOAD, DS_STORE, DS_LOAD2, DS_STORE2, DS_LOAD2_64, DS_STORE2_64, DS_ATOMIC,
          DS_ATOMIC_RTN, DS_BPERMUTE, DS_PERMUTE, DS_CMPST, DS_CMPST_RTN, DS_SWIZZLE,
          DS_XCHG2, DS_XCHG2_64, DS_CONDXCHG, DS_BPERMUTE_FI, DS_APPEND, DS_LOAD_ADDTID,
          DS_STORE_ADDTID };

/* ds_swizzle's source lane for lane L, from the encoded offset. */
static unsigned swizzle_lane(uint32_t offset, unsigned l)
{
	if (offset >= 0xe000) {  /* FFT */
		unsigned mask = offset & 31, r = bit_reverse32(l & 31) >> 27;
		return (r >> __builtin_popcount(mask) | (l & mask)) & 31;
	}
	if (offset & 0x8000)      /* quad permute */
		return (l & ~3u) | (offset >> (2 * (l & 3)) & 3);
	unsigned and_mask = offset & 31, or_mask = offset >> 5 & 31, xor_mask = offset >> 10 & 31;
	return ((l & and_mask) | or_mask) ^ xor_mask;
}
#define DS(kind, format, atomic) ((kind) | (format) << 5 | (atomic) << 10)

/* The LDS bytes at ADDRESS, or NULL past the workgroup's allocation (loads read 0, stores
 * are dropped). A DS address is the VGPR's plus the instruction's offset in 32 bits, which
 * wrap: LLVM folds a constant offset over a VGPR that may be negative (gfx7 and later). */
static uint8_t *lds_at(struct workgroup *wg, uint32_t address, unsigned bytes)
{
	return (uint64_t)address + bytes <= wg->lds_size ? wg->lds + address : NULL;
}

/* Whether every active lane's access of BYTES at ADDR + OFFSET lies inside the LDS. */
static inline __attribute__((always_inline)) bool
lds_inside(const struct wave *w, const uint32_t addr[LANES], uint32_t offset, unsigned bytes)
{
	uint32_t e = exec_mask(w), highest = 0;
	EACH {
		/* an inactive lane counts as address 0: a mask, not a branch, so the loop vectorises */
		uint32_t at = (addr[l] + offset) & -(e >> l & 1);
		highest = at > highest ? at : highest;
	}
	return (uint64_t)highest + bytes <= w->wg->lds_size;
}

/* A load or store of WORDS dwords a lane at ADDR + OFFSET, registers from REG on; inlined
 * with WORDS a constant. A load outside the LDS reads 0, a store there is dropped; where
 * every lane loads inside, the lanes go without a check each. */
static inline __attribute__((always_inline)) void
ds_words(struct wave *w, bool store, unsigned words, const uint32_t addr[LANES], uint32_t offset,
         unsigned reg)
{
	uint32_t e = exec_mask(w);
	uint8_t *lds = w->wg->lds;
	if (!store && e == ~0u && lds_inside(w, addr, offset, words * 4)) {
		/* every lane loads: a loop the compiler vectorises */
		for (unsigned k = 0; k < words; k++) {
			uint32_t *v = w->v[(reg + k) & 255];
			EACH memcpy(&v[l], lds + (uint32_t)(addr[l] + offset) + 4 * k, 4);
		}
		return;
	}
	/* lane after lane, so that where lanes overlap the last one's data stays whole */
	EACH {
		if (!(e >> l & 1))
			continue;
		uint8_t *p = lds_at(w->wg, addr[l] + offset, words * 4);
		for (unsigned k = 0; k < words; k++) {
			uint32_t *v = &w->v[(reg + k) & 255][l];
			if (store) {
				if (p)
					memcpy(p + 4 * k, v, 4);
			} else if (p) {
				memcpy(v, p + 4 * k, 4);
			} else {
				*v = 0;
			}
		}
	}
}

/* ds_append and ds_consume (one update of the word at M0[15:0] + offset by the number of
 * active lanes, whose old value every active lane gets), ds_load_addtid_b32 and
 * ds_store_addtid_b32 (lane L's word at M0[15:0] + offset + 4 L). */
static void lds_by_m0(struct wave *w, const struct insn *in, unsigned kind, unsigned op)
{
	uint32_t e = exec_mask(w), base = (w->s[SREG_M0] & 0xffff) + (uint32_t)in->offset;
	struct workgroup *wg = w->wg;

	if (kind == DS_APPEND) {
		uint8_t *p = lds_at(wg, base, 4);
		uint32_t old = 0, count = (uint32_t)__builtin_popcount(e);
		if (p) {
			memcpy(&old, p, 4);
			uint32_t updated = op == A_ADD ? old + count : old - count;
			memcpy(p, &updated, 4);
		}
		EACH if (e >> l & 1)
			w->v[in->o[0].reg][l] = old;
		return;
	}
	EACH if (e >> l & 1) {
		uint8_t *p = lds_at(wg, base + 4 * (uint32_t)l, 4);
		if (kind == DS_STORE_ADDTID) {
			if (p)
				memcpy(p, &w->v[in->o[0].reg][l], 4);
		} else {
			uint32_t word = 0;
			if (p)
				memcpy(&word, p, 4);
			w->v[in->o[0].reg][l] = word;
		}
	}
}

LANE_LOOPS static void ds(struct wave *w, const struct insn *in)
{
	unsigned kind = in->op & 31, f = in->op >> 5 & 31, op = in->op >> 10 & 31;
	uint32_t e = exec_mask(w), addr[LANES];
	struct workgroup *wg = w->wg;
	if (kind == DS_SWIZZLE) {
		/* a lane whose source is inactive reads 0 */
		uint32_t data[LANES], out[LANES];
		vget32(w, &in->o[1], data);
		EACH {
			unsigned j = swizzle_lane((uint32_t)in->offset & 0xffff, (unsigned)l);
			out[l] = e >> j & 1 ? data[j] : 0;
		}
		vset32(w, &in->o[0], out, e);
		return;
	}
	if (kind == DS_APPEND || kind == DS_LOAD_ADDTID || kind == DS_STORE_ADDTID) {
		lds_by_m0(w, in, kind, op);
		return;
	}
	if (kind == DS_BPERMUTE || kind == DS_PERMUTE || kind == DS_BPERMUTE_FI) {
		uint32_t data[LANES], out[LANES];
		vget32(w, &in->o[1], addr);
		vget32(w, &in->o[2], data);
		memset(out, 0, sizeof out);
		EACH {
			uint32_t lane = (addr[l] + (uint32_t)in->offset) / 4 % 32;
			if (kind == DS_BPERMUTE_FI) {
				out[l] = data[lane]; /* the source read even where EXEC leaves it out */
			} else if (kind == DS_BPERMUTE) {
				if (e >> lane & 1)
					out[l] = data[lane];
			} else if (e >> l & 1) {
				out[lane] = data[l];
			}
		}
		vset32(w, &in->o[0], out, e);
		return;
	}
	if ((kind == DS_LOAD || kind == DS_STORE) && (f == B32 || f == B64 || f == B128)) {
		/* The common accesses, without the general path's per-lane choices. */
		const struct operand *ao = &in->o[kind == DS_LOAD ? 1 : 0], *vo = &in->o[kind == DS_LOAD ? 0 : 1];
		vget32(w, ao, addr);
		switch (f) {
		case B32: ds_words(w, kind == DS_STORE, 1, addr, (uint32_t)in->offset, vo->reg); break;
		case B64: ds_words(w, kind == DS_STORE, 2, addr, (uint32_t)in->offset, vo->reg); break;
		default: ds_words(w, kind == DS_STORE, 4, addr, (uint32_t)in->offset, vo->reg); break;
		}
		return;
	}
	if ((kind == DS_LOAD2 || kind == DS_LOAD2_64) && (f == B32 || f == B64)) {
		unsigned words = f == B64 ? 2 : 1, reg = in->o[0].reg;
		uint32_t scale = words * 4 * (kind == DS_LOAD2_64 ? 64 : 1);
		vget32(w, &in->o[1], addr);
		if (words == 1) {
			ds_words(w, false, 1, addr, in->offset0 * scale, reg);
			ds_words(w, false, 1, addr, in->offset1 * scale, reg + 1);
		} else {
			ds_words(w, false, 2, addr, in->offset0 * scale, reg);
			ds_words(w, false, 2, addr, in->offset1 * scale, reg + 2);
		}
		return;
	}
	if ((kind == DS_ATOMIC || kind == DS_ATOMIC_RTN) && op == A_ADD && f != B64) {
		/* ds_add_u32, the shared histogram's: lane after lane, as the general path */
		const struct operand *data = &in->o[kind == DS_ATOMIC ? 1 : 2];
		uint32_t offset = (uint32_t)in->offset;
		vget32(w, &in->o[kind == DS_ATOMIC ? 0 : 1], addr);
		if (data->kind == OPND_VGPR && lds_inside(w, addr, offset, 4)) {
			EACH if (e >> l & 1) {
				uint8_t *p = wg->lds + (uint32_t)(addr[l] + offset);
				uint32_t old, sum;
				memcpy(&old, p, 4);
				sum = old + w->v[data->reg][l];
				memcpy(p, &sum, 4);
				if (kind == DS_ATOMIC_RTN)
					w->v[in->o[0].reg][l] = old;
			}
			return;
		}
	}
	bool rtn = kind == DS_LOAD || kind == DS_LOAD2 || kind == DS_LOAD2_64 ||
	           kind == DS_ATOMIC_RTN || kind == DS_CMPST_RTN || kind == DS_XCHG2 ||
	           kind == DS_XCHG2_64 || kind == DS_CONDXCHG;
	const struct operand *ao = &in->o[rtn ? 1 : 0];
	int data = rtn ? 2 : 1;
	vget32(w, ao, addr);
	unsigned bytes = format_bytes(f);
	EACH {
		if (!(e >> l & 1))
			continue;
		uint32_t base = addr[l];
		switch (kind) {
		case DS_LOAD: {
			uint8_t *p = lds_at(wg, base + (uint32_t)in->offset, bytes);
			uint8_t buf[16] = {0};
			if (p)
				memcpy(buf, p, bytes);
			put_loaded(w, in->o[0].reg, l, f, buf);
			break;
		}
		case DS_STORE: {
			const struct operand *s = &in->o[1];
			uint8_t buf[16];
			for (unsigned k = 0; k < 4; k++)
				memcpy(buf + 4 * k, &w->v[(s->reg + k) & 255][l], 4);
			if (f == D16_HI_B8 || f == D16_HI_STORE_B16)
				memmove(buf, buf + 2, 2);
			uint8_t *p = lds_at(wg, base + (uint32_t)in->offset, bytes);
			if (p)
				memcpy(p, buf, bytes);
			break;
		}
		/* both old values back, both new ones stored */
		case DS_XCHG2: case DS_XCHG2_64: {
			unsigned words = bytes / 4, scale = bytes * (kind == DS_XCHG2_64 ? 64 : 1);
			for (int k = 0; k < 2; k++) {
				uint8_t *p = lds_at(wg, base + (k ? in->offset1 : in->offset0) * scale, bytes);
				for (unsigned i = 0; i < words; i++) {
					uint32_t old = 0, *dest = &w->v[(in->o[0].reg + k * words + i) & 255][l];
					if (p) {
						memcpy(&old, p + 4 * i, 4);
						memcpy(p + 4 * i, &w->v[(in->o[2 + k].reg + i) & 255][l], 4);
					}
					*dest = old;
				}
			}
			break;
		}
		/* each of two words stored, without its bit 31, where that bit of the data is set */
		case DS_CONDXCHG: {
			uint32_t first = (base + (uint32_t)in->offset) & 0xfff8;
			for (unsigned k = 0; k < 2; k++) {
				uint8_t *p = lds_at(wg, first + 4 * k, 4);
				uint32_t old = 0, word = w->v[(in->o[2].reg + k) & 255][l];
				if (p) {
					memcpy(&old, p, 4);
					if (word >> 31) {
						word &= 0x7fffffff;
						memcpy(p, &word, 4);
					}
				}
				w->v[(in->o[0].reg + k) & 255][l] = old;
			}
			break;
		}
		case DS_LOAD2: case DS_LOAD2_64: case DS_STORE2: case DS_STORE2_64: {
			unsigned scale = bytes * (kind == DS_LOAD2_64 || kind == DS_STORE2_64 ? 64 : 1);
			unsigned words = bytes / 4;
			for (int k = 0; k < 2; k++) {
				uint8_t *p = lds_at(wg, base + (k ? in->offset1 : in->offset0) * scale, bytes);
				if (kind == DS_LOAD2 || kind == DS_LOAD2_64) {
					for (unsigned i = 0; i < words; i++) {
						uint32_t word = 0;
						if (p)
							memcpy(&word, p + 4 * i, 4);
						w->v[(in->o[0].reg + k * words + i) & 255][l] = word;
					}
				} else if (p) {
					const struct operand *s = &in->o[1 + k];
					for (unsigned i = 0; i < words; i++)
						memcpy(p + 4 * i, &w->v[(s->reg + i) & 255][l], 4);
				}
			}
			break;
		}
		default: {
			/* atomics: ds_add_u32 addr, data / ds_add_rtn_u32 dst, addr, data;
			 * compare-stores carry a second data operand */
			bool wide = f == B64;
			unsigned words = wide ? 2 : 1;
			uint8_t *p = lds_at(wg, base + (uint32_t)in->offset, words * 4);
			uint64_t d0 = 0, d1 = 0;
			for (unsigned k = 0; k < words; k++) {
				d0 |= (uint64_t)w->v[(in->o[data].reg + k) & 255][l] << 32 * k;
				if (in->nopnd > data + 1)
					d1 |= (uint64_t)w->v[(in->o[data + 1].reg + k) & 255][l] << 32 * k;
			}
			unsigned aop = op;
			uint64_t value = d0, cmp = d1;
			if (kind == DS_CMPST || kind == DS_CMPST_RTN) {
				/* gfx10's ds_cmpst: data0 is the compare value, data1 the new one */
				value = d1;
				cmp = d0;
			}
			uint64_t old = p ? atomic_at(p, aop, wide, value, cmp, false) : 0;
			if (rtn)
				for (unsigned k = 0; k < words; k++)
					w->v[(in->o[0].reg + k) & 255][l] = (uint32_t)(old >> 32 * k);
		}
		}
	}
}

#define MEM(space, kind, format, atomic) ((space) | (kind) << 2 | (format) << 6 | (atomic) << 11)
#define LOADS(prefix, space)                                                                  \
	{prefix "load_b32", vmem, MEM(space, LOAD, B32, 0)},                                        \
	{prefix "load_b64", vmem, MEM(space, LOAD, B64, 0)},                                        \
	{prefix "load_b96", vmem, MEM(space, LOAD, B96, 0)},                                        \
	{prefix "load_b128", vmem, MEM(space, LOAD, B128, 0)},                                      \
	{prefix "load_u8", vmem, MEM(space, LOAD, U8, 0)},                                          \
	{prefix "load_i8", vmem, MEM(space, LOAD, I8, 0)},                                          \
	{prefix "load_u16", vmem, MEM(space, LOAD, U16, 0)},                                        \
	{prefix "load_i16", vmem, MEM(space, LOAD, I16, 0)},                                        \
	{prefix "load_d16_b16", vmem, MEM(space, LOAD, D16_B16, 0)},                                \
	{prefix "load_d16_hi_b16", vmem, MEM(space, LOAD, D16_HI_B16, 0)},                          \
	{prefix "load_d16_u8", vmem, MEM(space, LOAD, D16_U8, 0)},                                  \
	{prefix "load_d16_i8", vmem, MEM(space, LOAD, D16_I8, 0)},                                  \
	{prefix "load_d16_hi_u8", vmem, MEM(space, LOAD, D16_HI_U8, 0)},                            \
	{prefix "load_d16_hi_i8", vmem, MEM(space, LOAD, D16_HI_I8, 0)},                            \
	{prefix "store_b32", vmem, MEM(space, STORE, B32, 0)},                                      \
	{prefix "store_b64", vmem, MEM(space, STORE, B64, 0)},                                      \
	{prefix "store_b96", vmem, MEM(space, STORE, B96, 0)},                                      \
	{prefix "store_b128", vmem, MEM(space, STORE, B128, 0)},                                    \
	{prefix "store_b8", vmem, MEM(space, STORE, B8, 0)},                                        \
	{prefix "store_b16", vmem, MEM(space, STORE, B16, 0)},                                      \
	{prefix "store_d16_hi_b8", vmem, MEM(space, STORE, D16_HI_B8, 0)},                          \
	{prefix "store_d16_hi_b16", vmem, MEM(space, STORE, D16_HI_STORE_B16, 0)}
#define ATOMICS(prefix, space)                                                                \
	{prefix "atomic_swap_b32", vmem, MEM(space, ATOM, B32, A_SWAP)},                            \
	{prefix "atomic_swap_b64", vmem, MEM(space, ATOM, B64, A_SWAP)},                            \
	{prefix "atomic_cmpswap_b32", vmem, MEM(space, ATOM, B32, A_CMPSWAP)},                      \
	{prefix "atomic_cmpswap_b64", vmem, MEM(space, ATOM, B64, A_CMPSWAP)},                      \
	{prefix "atomic_add_u32", vmem, MEM(space, ATOM, B32, A_ADD)},                              \
	{prefix "atomic_add_u64", vmem, MEM(space, ATOM, B64, A_ADD)},                              \
	{prefix "atomic_sub_u32", vmem, MEM(space, ATOM, B32, A_SUB)},                              \
	{prefix "atomic_sub_u64", vmem, MEM(space, ATOM, B64, A_SUB)},                              \
	{prefix "atomic_csub_u32", vmem, MEM(space, ATOM, B32, A_CSUB)},                            \
	{prefix "atomic_sub_clamp_u32", vmem, MEM(space, ATOM, B32, A_CSUB)},                       \
	{prefix "atomic_cond_sub_u32", vmem, MEM(space, ATOM, B32, A_COND_SUB)},                    \
	{prefix "atomic_cmpswap_f32", vmem, MEM(space, ATOM, B32, A_CMPSWAP_F)},                    \
	{prefix "atomic_cmpswap_f64", vmem, MEM(space, ATOM, B64, A_CMPSWAP_F)},                    \
	{prefix "atomic_min_i32", vmem, MEM(space, ATOM, B32, A_MIN_I)},                            \
	{prefix "atomic_min_i64", vmem, MEM(space, ATOM, B64, A_MIN_I)},                            \
	{prefix "atomic_min_u32", vmem, MEM(space, ATOM, B32, A_MIN_U)},                            \
	{prefix "atomic_min_u64", vmem, MEM(space, ATOM, B64, A_MIN_U)},                            \
	{prefix "atomic_max_i32", vmem, MEM(space, ATOM, B32, A_MAX_I)},                            \
	{prefix "atomic_max_i64", vmem, MEM(space, ATOM, B64, A_MAX_I)},                            \
	{prefix "atomic_max_u32", vmem, MEM(space, ATOM, B32, A_MAX_U)},                            \
	{prefix "atomic_max_u64", vmem, MEM(space, ATOM, B64, A_MAX_U)},                            \
	{prefix "atomic_and_b32", vmem, MEM(space, ATOM, B32, A_AND)},                              \
	{prefix "atomic_and_b64", vmem, MEM(space, ATOM, B64, A_AND)},                              \
	{prefix "atomic_or_b32", vmem, MEM(space, ATOM, B32, A_OR)},                                \
	{prefix "atomic_or_b64", vmem, MEM(space, ATOM, B64, A_OR)},                                \
	{prefix "atomic_xor_b32", vmem, MEM(space, ATOM, B32, A_XOR)},                              \
	{prefix "atomic_xor_b64", vmem, MEM(space, ATOM, B64, A_XOR)},                              \
	{prefix "atomic_inc_u32", vmem, MEM(space, ATOM, B32, A_INC)},                              \
	{prefix "atomic_inc_u64", vmem, MEM(space, ATOM, B64, A_INC)},                              \
	{prefix "atomic_dec_u32", vmem, MEM(space, ATOM, B32, A_DEC)},                              \
	{prefix "atomic_dec_u64", vmem, MEM(space, ATOM, B64, A_DEC)},                              \
	{prefix "atomic_add_f32", vmem, MEM(space, ATOM, B32, A_ADD_F32)},                          \
	{prefix "atomic_min_f32", vmem, MEM(space, ATOM, B32, A_MIN_F32)},                          \
	{prefix "atomic_max_f32", vmem, MEM(space, ATOM, B32, A_MAX_F32)},                          \
	{prefix "atomic_min_num_f32", vmem, MEM(space, ATOM, B32, A_MIN_F32)},                      \
	{prefix "atomic_max_num_f32", vmem, MEM(space, ATOM, B32, A_MAX_F32)},                      \
	{prefix "atomic_add_f64", vmem, MEM(space, ATOM, B64, A_ADD_F64)},                          \
	{prefix "atomic_min_f64", vmem, MEM(space, ATOM, B64, A_MIN_F64)},                          \
	{prefix "atomic_max_f64", vmem, MEM(space, ATOM, B64, A_MAX_F64)},                          \
	{prefix "atomic_pk_add_f16", vmem, MEM(space, ATOM, B32, A_PK_ADD_F16)},                    \
	{prefix "atomic_pk_add_bf16", vmem, MEM(space, ATOM, B32, A_PK_ADD_BF16)}
#define DS_ATOMICS(name, type, format, atomic)                                                \
	{"ds_" name "_" type, ds, DS(DS_ATOMIC, format, atomic)},                                   \
	{"ds_" name "_rtn_" type, ds, DS(DS_ATOMIC_RTN, format, atomic)}

const struct opcode emu_memory_opcodes[] = {
	{"global_load_addtid_b32", global_addtid, 0}, {"global_store_addtid_b32", global_addtid, 1},
	{"global_load_block", block, MEM(GLOBAL, LOAD, B32, 0)},
	{"global_load_tr_b128", load_transposed, 16}, {"global_load_tr_b64", load_transposed, 8},
	{"global_store_block", block, MEM(GLOBAL, STORE, B32, 0)},
	{"scratch_load_block", block, MEM(SCRATCH, LOAD, B32, 0)},
	{"scratch_store_block", block, MEM(SCRATCH, STORE, B32, 0)},
	LOADS("global_", GLOBAL), LOADS("flat_", FLAT), LOADS("scratch_", SCRATCH),
	LOADS("buffer_", BUFFER), ATOMICS("global_", GLOBAL), ATOMICS("flat_", FLAT),
	ATOMICS("buffer_", BUFFER),
	{"ds_load_b32", ds, DS(DS_LOAD, B32, 0)}, {"ds_load_b64", ds, DS(DS_LOAD, B64, 0)},
	{"ds_load_b96", ds, DS(DS_LOAD, B96, 0)}, {"ds_load_b128", ds, DS(DS_LOAD, B128, 0)},
	{"ds_load_u8", ds, DS(DS_LOAD, U8, 0)}, {"ds_load_i8", ds, DS(DS_LOAD, I8, 0)},
	{"ds_load_u16", ds, DS(DS_LOAD, U16, 0)}, {"ds_load_i16", ds, DS(DS_LOAD, I16, 0)},
	{"ds_load_u16_d16", ds, DS(DS_LOAD, D16_B16, 0)},
	{"ds_load_u16_d16_hi", ds, DS(DS_LOAD, D16_HI_B16, 0)},
	{"ds_load_u8_d16", ds, DS(DS_LOAD, D16_U8, 0)}, {"ds_load_i8_d16", ds, DS(DS_LOAD, D16_I8, 0)},
	{"ds_load_u8_d16_hi", ds, DS(DS_LOAD, D16_HI_U8, 0)},
	{"ds_load_i8_d16_hi", ds, DS(DS_LOAD, D16_HI_I8, 0)},
	{"ds_store_b32", ds, DS(DS_STORE, B32, 0)}, {"ds_store_b64", ds, DS(DS_STORE, B64, 0)},
	{"ds_store_b96", ds, DS(DS_STORE, B96, 0)}, {"ds_store_b128", ds, DS(DS_STORE, B128, 0)},
	{"ds_store_b8", ds, DS(DS_STORE, B8, 0)}, {"ds_store_b16", ds, DS(DS_STORE, B16, 0)},
	{"ds_store_b8_d16_hi", ds, DS(DS_STORE, D16_HI_B8, 0)},
	{"ds_store_b16_d16_hi", ds, DS(DS_STORE, D16_HI_STORE_B16, 0)},
	{"ds_load_2addr_b32", ds, DS(DS_LOAD2, B32, 0)}, {"ds_load_2addr_b64", ds, DS(DS_LOAD2, B64, 0)},
	{"ds_load_2addr_stride64_b32", ds, DS(DS_LOAD2_64, B32, 0)},
	{"ds_load_2addr_stride64_b64", ds, DS(DS_LOAD2_64, B64, 0)},
	{"ds_store_2addr_b32", ds, DS(DS_STORE2, B32, 0)},
	{"ds_store_2addr_b64", ds, DS(DS_STORE2, B64, 0)},
	{"ds_store_2addr_stride64_b32", ds, DS(DS_STORE2_64, B32, 0)},
	{"ds_store_2addr_stride64_b64", ds, DS(DS_STORE2_64, B64, 0)},
	{"ds_swizzle_b32", ds, DS(DS_SWIZZLE, B32, 0)}, {"ds_bpermute_b32", ds, DS(DS_BPERMUTE, B32, 0)}, {"ds_permute_b32", ds, DS(DS_PERMUTE, B32, 0)},
	DS_ATOMICS("add", "u32", B32, A_ADD), DS_ATOMICS("add", "u64", B64, A_ADD),
	DS_ATOMICS("sub", "u32", B32, A_SUB), DS_ATOMICS("sub", "u64", B64, A_SUB),
	DS_ATOMICS("min", "i32", B32, A_MIN_I), DS_ATOMICS("min", "i64", B64, A_MIN_I),
	DS_ATOMICS("max", "i32", B32, A_MAX_I), DS_ATOMICS("max", "i64", B64, A_MAX_I),
	DS_ATOMICS("min", "u32", B32, A_MIN_U), DS_ATOMICS("min", "u64", B64, A_MIN_U),
	DS_ATOMICS("max", "u32", B32, A_MAX_U), DS_ATOMICS("max", "u64", B64, A_MAX_U),
	DS_ATOMICS("and", "b32", B32, A_AND), DS_ATOMICS("and", "b64", B64, A_AND),
	DS_ATOMICS("or", "b32", B32, A_OR), DS_ATOMICS("or", "b64", B64, A_OR),
	DS_ATOMICS("xor", "b32", B32, A_XOR), DS_ATOMICS("xor", "b64", B64, A_XOR),
	DS_ATOMICS("inc", "u32", B32, A_INC), DS_ATOMICS("inc", "u64", B64, A_INC),
	DS_ATOMICS("dec", "u32", B32, A_DEC), DS_ATOMICS("dec", "u64", B64, A_DEC),
	DS_ATOMICS("add", "f32", B32, A_ADD_F32), DS_ATOMICS("add", "f64", B64, A_ADD_F64),
	DS_ATOMICS("min", "f32", B32, A_MIN_F32), DS_ATOMICS("max", "f32", B32, A_MAX_F32),
	DS_ATOMICS("min_num", "f32", B32, A_MIN_F32), DS_ATOMICS("max_num", "f32", B32, A_MAX_F32),
	DS_ATOMICS("min", "f64", B64, A_MIN_F64), DS_ATOMICS("max", "f64", B64, A_MAX_F64),
	DS_ATOMICS("pk_add", "f16", B32, A_PK_ADD_F16), DS_ATOMICS("pk_add", "bf16", B32, A_PK_ADD_BF16),
	{"ds_storexchg_rtn_b32", ds, DS(DS_ATOMIC_RTN, B32, A_SWAP)},
	{"ds_storexchg_rtn_b64", ds, DS(DS_ATOMIC_RTN, B64, A_SWAP)},
	{"ds_cmpstore_b32", ds, DS(DS_ATOMIC, B32, A_CMPSWAP)},
	{"ds_cmpstore_b64", ds, DS(DS_ATOMIC, B64, A_CMPSWAP)},
	{"ds_cmpstore_rtn_b32", ds, DS(DS_ATOMIC_RTN, B32, A_CMPSWAP)},
	{"ds_cmpstore_rtn_b64", ds, DS(DS_ATOMIC_RTN, B64, A_CMPSWAP)},
	{"ds_cmpstore_f32", ds, DS(DS_ATOMIC, B32, A_CMPSWAP_F)},
	{"ds_cmpstore_f64", ds, DS(DS_ATOMIC, B64, A_CMPSWAP_F)},
	{"ds_cmpstore_rtn_f32", ds, DS(DS_ATOMIC_RTN, B32, A_CMPSWAP_F)},
	{"ds_cmpstore_rtn_f64", ds, DS(DS_ATOMIC_RTN, B64, A_CMPSWAP_F)},
	{"ds_cmpst_b32", ds, DS(DS_CMPST, B32, A_CMPSWAP)}, {"ds_cmpst_b64", ds, DS(DS_CMPST, B64, A_CMPSWAP)},
	{"ds_cmpst_rtn_b32", ds, DS(DS_CMPST_RTN, B32, A_CMPSWAP)},
	{"ds_cmpst_rtn_b64", ds, DS(DS_CMPST_RTN, B64, A_CMPSWAP)},
	{"ds_cmpst_f32", ds, DS(DS_CMPST, B32, A_CMPSWAP_F)},
	{"ds_cmpst_f64", ds, DS(DS_CMPST, B64, A_CMPSWAP_F)},
	{"ds_cmpst_rtn_f32", ds, DS(DS_CMPST_RTN, B32, A_CMPSWAP_F)},
	{"ds_cmpst_rtn_f64", ds, DS(DS_CMPST_RTN, B64, A_CMPSWAP_F)},
	DS_ATOMICS("rsub", "u32", B32, A_RSUB), DS_ATOMICS("rsub", "u64", B64, A_RSUB),
	DS_ATOMICS("mskor", "b32", B32, A_MSKOR), DS_ATOMICS("mskor", "b64", B64, A_MSKOR),
	DS_ATOMICS("sub_clamp", "u32", B32, A_CSUB), DS_ATOMICS("cond_sub", "u32", B32, A_COND_SUB),
	DS_ATOMICS("min_num", "f64", B64, A_MIN_F64), DS_ATOMICS("max_num", "f64", B64, A_MAX_F64),
	{"ds_wrap_rtn_b32", ds, DS(DS_ATOMIC_RTN, B32, A_WRAP)},
	{"ds_storexchg_2addr_rtn_b32", ds, DS(DS_XCHG2, B32, 0)},
	{"ds_storexchg_2addr_rtn_b64", ds, DS(DS_XCHG2, B64, 0)},
	{"ds_storexchg_2addr_stride64_rtn_b32", ds, DS(DS_XCHG2_64, B32, 0)},
	{"ds_storexchg_2addr_stride64_rtn_b64", ds, DS(DS_XCHG2_64, B64, 0)},
	{"ds_condxchg32_rtn_b64", ds, DS(DS_CONDXCHG, B64, 0)},
	{"ds_bpermute_fi_b32", ds, DS(DS_BPERMUTE_FI, B32, 0)},
	{"ds_append", ds, DS(DS_APPEND, B32, A_ADD)}, {"ds_consume", ds, DS(DS_APPEND, B32, A_SUB)},
	{"ds_load_addtid_b32", ds, DS(DS_LOAD_ADDTID, B32, 0)},
	{"ds_store_addtid_b32", ds, DS(DS_STORE_ADDTID, B32, 0)},
	{NULL, NULL, 0},
};
