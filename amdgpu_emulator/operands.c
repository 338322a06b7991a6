/* Operands: parsing LLVM's printed form once, at decode time, and reading and writing them
 * for all lanes of a wave when an instruction executes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu.h"

static uint16_t half_bits(double x)
{
	_Float16 h = (_Float16)x;
	uint16_t b;
	memcpy(&b, &h, 2);
	return b;
}

static void set_float_constant(struct operand *o, double x)
{
	float f = (float)x;
	o->kind = OPND_CONST;
	memcpy(&o->c32, &f, 4);
	memcpy(&o->c64, &x, 8);
	o->c64f = o->c64;
	o->c16 = half_bits(x);
	/* 1/(2*pi), which LLVM prints rounded: the exact bits of each width. */
	if (fabs(x - 0.15915494309189532) < 1e-4) {
		o->c32 = 0x3e22f983;
		o->c64 = o->c64f = 0x3fc45f306dc9c882ull;
		o->c16 = 0x3118;
	}
}

static int parse_register_range(const char *p, unsigned *first, unsigned *count, const char **end)
{
	char *e;
	if (*p == '[') {
		unsigned long a = strtoul(p + 1, &e, 10);
		if (*e != ':')
			return -1;
		unsigned long b = strtoul(e + 1, &e, 10);
		if (*e != ']' || b < a || b - a >= 32)  /* gfx12's _block forms name 32 */
			return -1;
		*first = (unsigned)a;
		*count = (unsigned)(b - a + 1);
		*end = e + 1;
		return 0;
	}
	if (*p < '0' || *p > '9')
		return -1;
	*first = (unsigned)strtoul(p, &e, 10);
	*count = 1;
	*end = e;
	return 0;
}

static const struct {
	const char *name;
	uint16_t reg;
	uint8_t count;
} named_sregs[] = {
	{"vcc", SREG_VCC_LO, 2}, {"vcc_lo", SREG_VCC_LO, 1}, {"vcc_hi", SREG_VCC_HI, 1},
	{"exec", SREG_EXEC_LO, 2}, {"exec_lo", SREG_EXEC_LO, 1}, {"exec_hi", SREG_EXEC_HI, 1},
	{"m0", SREG_M0, 1}, {"null", SREG_NULL, 1},
};

static const struct {
	const char *name;
	uint16_t code;
} specials[] = {
	{"src_shared_base", 235}, {"src_shared_limit", 236}, {"src_private_base", 237},
	{"src_private_limit", 238}, {"src_pops_exiting_wave_id", 239}, {"src_vccz", 251},
	{"src_execz", 252}, {"src_scc", 253}, {"shared_base", 235}, {"shared_limit", 236},
	{"private_base", 237}, {"private_limit", 238}, {"vccz", 251}, {"execz", 252}, {"scc", 253},
};

/* 0 when TEXT is an operand, stored in OUT; -1 when it is not one (a modifier). */
int emu_parse_operand(const char *text, struct operand *out, int generation)
{
	char buf[96];
	const char *p = text, *end;
	unsigned first, count;
	size_t n = strlen(text);

	(void)generation;
	memset(out, 0, sizeof *out);
	if (n == 0 || n >= sizeof buf)
		return -1;
	if (strncmp(p, "lit(", 4) == 0 || strncmp(p, "lit64(", 6) == 0) {
		const char *q = strchr(p, '(') + 1;
		n = strcspn(q, ")");
		memcpy(buf, q, n);
		buf[n] = 0;
		if (emu_parse_operand(buf, out, generation) != 0 || out->kind != OPND_CONST)
			return -1;
		if (p[3] == '6')
			out->c64f = out->c64;
		out->literal = 1;
		return 0;
	}
	if (*p == '-' && (p[1] == '|' || p[1] == 'v' || p[1] == 's' || p[1] == 't' ||
	                  strncmp(p + 1, "vcc", 3) == 0 || strncmp(p + 1, "exec", 4) == 0 ||
	                  strncmp(p + 1, "m0", 2) == 0 || strncmp(p + 1, "src_", 4) == 0)) {
		if (emu_parse_operand(p + 1, out, generation) != 0)
			return -1;
		out->neg = 1;
		return 0;
	}
	if (*p == '|' && n > 2 && p[n - 1] == '|') {
		memcpy(buf, p + 1, n - 2);
		buf[n - 2] = 0;
		if (emu_parse_operand(buf, out, generation) != 0)
			return -1;
		out->abs = 1;
		return 0;
	}
	if (strncmp(p, "neg(", 4) == 0 || strncmp(p, "abs(", 4) == 0 || strncmp(p, "sext(", 5) == 0) {
		const char *q = strchr(p, '(') + 1;
		n = strcspn(q, ")");
		memcpy(buf, q, n);
		buf[n] = 0;
		if (emu_parse_operand(buf, out, generation) != 0)
			return -1;
		if (*p == 'n')
			out->neg = 1;
		else if (*p == 'a')
			out->abs = 1;
		else
			out->sext = 1;
		return 0;
	}
	if (*p == 'v' && parse_register_range(p + 1, &first, &count, &end) == 0) {
		out->kind = OPND_VGPR;
		if (strcmp(end, ".h") == 0)
			out->half = 1;
		else if (*end && strcmp(end, ".l") != 0)
			return -1;
		if (first + count > 256)
			return -1;
		out->reg = (uint16_t)first;
		out->count = (uint8_t)count;
		return 0;
	}
	if (*p == 's' && parse_register_range(p + 1, &first, &count, &end) == 0 && !*end) {
		if (first + count > 106)
			return -1;
		out->kind = OPND_SGPR;
		out->reg = (uint16_t)first;
		out->count = (uint8_t)count;
		return 0;
	}
	if (strncmp(p, "ttmp", 4) == 0 && parse_register_range(p + 4, &first, &count, &end) == 0 &&
	    !*end && first + count <= 16) {
		out->kind = OPND_SGPR;
		out->reg = (uint16_t)(SREG_TTMP0 + first);
		out->count = (uint8_t)count;
		return 0;
	}
	for (size_t i = 0; i < sizeof named_sregs / sizeof named_sregs[0]; i++)
		if (strcmp(p, named_sregs[i].name) == 0) {
			out->kind = OPND_SGPR;
			out->reg = named_sregs[i].reg;
			out->count = named_sregs[i].count;
			return 0;
		}
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
		if (strcmp(p, specials[i].name) == 0) {
			out->kind = OPND_SPECIAL;
			out->reg = specials[i].code;
			out->count = 1;
			return 0;
		}
	if (strcmp(p, "off") == 0) {
		out->kind = OPND_OFF;
		return 0;
	}
	if ((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9')) {
		char *e;
		if (strchr(p, '.')) {
			double x = strtod(p, &e);
			if (*e)
				return -1;
			set_float_constant(out, x);
			return 0;
		}
		int neg = *p == '-';
		unsigned long long v = strtoull(p + neg, &e, 0);
		if (*e)
			return -1;
		out->kind = OPND_CONST;
		if (neg || (v <= 64 && strncmp(p, "0x", 2) != 0)) {
			int64_t s = neg ? -(int64_t)v : (int64_t)v;
			out->c64 = out->c64f = (uint64_t)s;
			out->c32 = (uint32_t)s;
			out->c16 = (uint16_t)s;
			out->literal = !(s >= -16 && s <= 64);
		} else {
			out->literal = 1;
			out->c64 = v;
			out->c32 = (uint32_t)v;
			out->c16 = (uint16_t)v;
			out->c64f = v > 0xffffffffull ? v : v << 32;
		}
		return 0;
	}
	return -1;
}

static uint64_t special_value(const struct wave *w, uint16_t code)
{
	switch (code) {
	case 235: return SHARED_APERTURE;
	case 236: return SHARED_APERTURE + APERTURE_SIZE - 1;
	case 237: return PRIVATE_APERTURE;
	case 238: return PRIVATE_APERTURE + APERTURE_SIZE - 1;
	case 251: return w->s[SREG_VCC_LO] == 0;
	case 252: return w->s[SREG_EXEC_LO] == 0;
	case 253: return w->scc;
	default: return 0;
	}
}

uint32_t sget32(const struct wave *w, const struct operand *o)
{
	switch (o->kind) {
	case OPND_SGPR: return o->reg == SREG_NULL ? 0 : w->s[o->reg];
	case OPND_CONST: return o->c32;
	case OPND_SPECIAL: {
		uint64_t v = special_value(w, o->reg);
		return o->reg >= 235 && o->reg <= 238 ? (uint32_t)(v >> 32) : (uint32_t)v;
	}
	case OPND_VGPR: return w->v[o->reg][0];
	default: return 0;
	}
}

uint64_t sget64(const struct wave *w, const struct operand *o)
{
	switch (o->kind) {
	case OPND_SGPR:
		if (o->reg == SREG_NULL)
			return 0;
		return w->s[o->reg] | (uint64_t)w->s[(o->reg + 1) & (SREG_COUNT - 1)] << 32;
	case OPND_CONST: return o->c64;
	case OPND_SPECIAL: return special_value(w, o->reg);
	default: return sget32(w, o);
	}
}

void sset32(struct wave *w, const struct operand *o, uint32_t value)
{
	if (o->kind == OPND_SGPR && o->reg != SREG_NULL)
		w->s[o->reg] = value;
}

void sset64(struct wave *w, const struct operand *o, uint64_t value)
{
	if (o->kind == OPND_SGPR && o->reg != SREG_NULL) {
		w->s[o->reg] = (uint32_t)value;
		if (o->reg + 1 < SREG_COUNT)
			w->s[o->reg + 1] = (uint32_t)(value >> 32);
	}
}

void vget64f(const struct wave *w, const struct operand *o, uint64_t out[LANES])
{
	if (o->kind == OPND_CONST) {
		for (int l = 0; l < LANES; l++)
			out[l] = o->c64f;
		return;
	}
	vget64(w, o, out);
}

void vget16(const struct wave *w, const struct operand *o, int high, uint16_t out[LANES])
{
	if (o->kind == OPND_CONST) {
		for (int l = 0; l < LANES; l++)
			out[l] = o->c16;
		return;
	}
	uint32_t x[LANES];
	vget32(w, o, x);
	int shift = (high || o->half) ? 16 : 0;
	for (int l = 0; l < LANES; l++)
		out[l] = (uint16_t)(x[l] >> shift);
}

void vset16(struct wave *w, const struct operand *o, int high, const uint16_t in[LANES],
            uint32_t mask)
{
	if (o->kind != OPND_VGPR)
		return;
	uint32_t *d = w->v[o->reg];
	int h = high || o->half;
	for (int l = 0; l < LANES; l++)
		if (mask >> l & 1)
			d[l] = h ? (d[l] & 0xffffu) | (uint32_t)in[l] << 16 : (d[l] & 0xffff0000u) | in[l];
}

void mask_set(struct wave *w, const struct operand *o, uint32_t value)
{
	if (o->kind == OPND_SGPR && o->reg != SREG_NULL) {
		w->s[o->reg] = value;
		/* A 64-bit mask operand (vcc, s[0:1]) of wave32 code: the high half is zero. */
		if (o->count == 2)
			w->s[o->reg + 1] = 0;
	}
}

uint32_t mask_get(const struct wave *w, const struct operand *o)
{
	return sget32(w, o);
}

/* DPP16 lane selection within rows of 16 lanes, DPP8 within groups of 8. A lane whose
 * source is out of its row, or inactive without fi, reads 0 with bound_ctrl, else is not
 * written. */
uint32_t dpp_apply(const struct wave *w, const struct insn *in, uint32_t src[LANES])
{
	uint32_t orig[LANES], write = exec_mask(w);
	memcpy(orig, src, sizeof orig);
	if (in->dpp == 2) {
		for (int l = 0; l < LANES; l++)
			src[l] = orig[(l & ~7) + (in->dpp8 >> (3 * (l & 7)) & 7)];
		return write;
	}
	uint32_t exec = exec_mask(w);
	for (int l = 0; l < LANES; l++) {
		int row = l & ~15, i = l & 15, j = -1;
		unsigned c = in->dpp_ctrl;
		if (c <= 0xff)
			j = (i & ~3) + (int)(c >> (2 * (i & 3)) & 3);
		else if (c >= 0x101 && c <= 0x10f)
			j = i + (int)(c & 15);
		else if (c >= 0x111 && c <= 0x11f)
			j = i - (int)(c & 15);
		else if (c >= 0x121 && c <= 0x12f)
			j = (i + 16 - (int)(c & 15)) & 15;
		else if (c == 0x140)
			j = 15 - i;
		else if (c == 0x141)
			j = (i & 8) + 7 - (i & 7);
		else if (c >= 0x150 && c <= 0x15f)
			j = (int)(c & 15);
		else if (c >= 0x160 && c <= 0x16f)
			j = i ^ (int)(c & 15);
		bool row_on = in->row_mask >> (l >> 4) & 1, bank_on = in->bank_mask >> ((l >> 2) & 3) & 1;
		if (!row_on || !bank_on) {
			write &= ~(1u << l);
			continue;
		}
		bool in_row = j >= 0 && j <= 15;
		if (in_row && ((exec >> (row + j) & 1) || in->fi))
			src[l] = orig[row + j];
		else if (in->bound_ctrl)
			src[l] = 0;
		else
			write &= ~(1u << l);
	}
	return write;
}
