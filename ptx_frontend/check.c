/* The checker: what the parser cannot see. Every name an instruction uses is declared where
 * it is used (registers, parameterized registers within their count, variables, functions,
 * labels), guards are predicates, branches go to labels, labels are unique, and typed
 * arithmetic does not write a register narrower than its type. The first problem is
 * reported, located at the operand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

enum name_kind { NAME_REG, NAME_VAR, NAME_FUNC, NAME_LABEL, NAME_LIST };

struct name {
	const char *text;
	enum name_kind kind;
	enum ptx_type type;
	uint32_t reg_count; /* %r<N>: N; 0 for a single name */
	int next_in_bucket; /* the entry below it in its hash bucket, -1 for none */
	const struct ptx_func *func; /* a function's definition, else its first declaration */
	const struct ptx_var *var;   /* a variable's declaration */
};

struct checker {
	const struct ptx_module *module;
	struct ptx_diag *diag;
	jmp_buf fail;
	struct name *names;       /* a stack: module names, then the function's scopes */
	uint32_t count, cap;
	int *buckets;             /* name hash -> top entry for that text, -1 if none */
	uint32_t nbuckets;
	const struct ptx_func *func;
	uint32_t scope;           /* inside a function: where its innermost scope's names begin */
};

static _Noreturn void check_fail(struct checker *c, struct ptx_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static _Noreturn void check_fail(struct checker *c, struct ptx_loc loc, const char *fmt, ...)
{
	va_list ap;

	c->diag->file = c->module->file;
	c->diag->loc = loc;
	va_start(ap, fmt);
	ptx_diag_vappend(c->diag, 0, fmt, ap);
	va_end(ap);
	longjmp(c->fail, 1);
}

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static int find_n(struct checker *c, const char *s, size_t n)
{
	for (int i = c->buckets[hash(s, n) % c->nbuckets]; i >= 0; ) {
		const struct name *e = &c->names[i];

		if (strlen(e->text) == n && memcmp(e->text, s, n) == 0)
			return i;
		i = e->next_in_bucket;
	}
	return -1;
}

static void declare(struct checker *c, const char *text, enum name_kind kind, enum ptx_type type,
                    uint32_t reg_count)
{
	uint32_t b = hash(text, strlen(text)) % c->nbuckets;

	if (c->count == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->names = realloc(c->names, c->cap * sizeof(*c->names));
		if (!c->names) {
			fputs("zluda-convert: out of memory\n", stderr);
			abort();
		}
	}
	c->names[c->count] = (struct name){text, kind, type, reg_count, c->buckets[b], NULL, NULL};
	c->buckets[b] = (int)c->count++;
}

/* Drops the names declared since `mark` (a block's end). */
static void pop_to(struct checker *c, uint32_t mark)
{
	while (c->count > mark) {
		struct name *e = &c->names[--c->count];

		c->buckets[hash(e->text, strlen(e->text)) % c->nbuckets] = e->next_in_bucket;
	}
}

/* The %r<N> declaration %r12 would belong to, and its index in it. */
static const struct name *register_family(struct checker *c, const char *text, uint32_t *index)
{
	size_t n = strlen(text), digits = 0;
	int i;

	while (digits < n && text[n - 1 - digits] >= '0' && text[n - 1 - digits] <= '9')
		digits++;
	if (digits == 0 || digits == n || digits > 9 || (digits > 1 && text[n - digits] == '0'))
		return NULL;
	i = find_n(c, text, n - digits);
	if (i < 0 || c->names[i].reg_count == 0)
		return NULL;
	*index = (uint32_t)atoi(text + n - digits);
	return &c->names[i];
}

static const struct name *lookup(struct checker *c, const char *text)
{
	int i = find_n(c, text, strlen(text));
	uint32_t index;
	const struct name *family;

	if (i >= 0)
		return &c->names[i];
	family = register_family(c, text, &index);
	return family && index < family->reg_count ? family : NULL;
}

bool ptx_is_special_register(const char *name)
{
	static const char *const names[] = {
		"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid",
		"%nsmid", "%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge",
		"%lanemask_gt", "%clock", "%clock64", "%clock_hi", "%globaltimer", "%globaltimer_lo",
		"%globaltimer_hi", "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size",
		"%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
		"%reserved_smem_offset_0", "%reserved_smem_offset_1",
		"%is_explicit_cluster", "%clusterid", "%nclusterid", "%cluster_ctaid",
		"%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%current_graph_exec",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return strncmp(name, "%envreg", 7) == 0 || strncmp(name, "%pm", 3) == 0;
}

static const struct name *use(struct checker *c, const struct ptx_operand *o)
{
	const struct name *n = lookup(c, o->name), *family;
	uint32_t index;

	if (n || ptx_is_special_register(o->name) || strcmp(o->name, "WARP_SZ") == 0)
		return n;
	family = register_family(c, o->name, &index);
	if (family)
		check_fail(c, o->loc, "'%s' is out of range: %s<%u> declares %s0 to %s%u", o->name,
		           family->text, family->reg_count, family->text, family->text,
		           family->reg_count - 1);
	check_fail(c, o->loc, "'%s' is not declared", o->name);
}

static bool is_video(const char *opcode)
{
	static const char *const names[] = {
		"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad", "vset", "vavrg",
	};
	size_t n = strlen(opcode);

	if (opcode[0] != 'v')
		return false;
	if (n > 1 && (opcode[n - 1] == '2' || opcode[n - 1] == '4'))
		n--;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && strncmp(opcode, names[i], n) == 0)
			return true;
	return false;
}

/* Lane selectors belong to a video instruction's own operands, and a minus to vmad's. */
static void check_operand(struct checker *c, const struct ptx_operand *o, const char *video)
{
	switch (o->kind) {
	case PTX_OP_NAME:
		if (o->selector && !video)
			check_fail(c, o->loc, "lane selector .%s applies only to the operands of video "
			           "instructions", o->selector);
		if (o->minus && !(video && strcmp(video, "vmad") == 0))
			check_fail(c, o->loc, "only vmad negates a register operand ('-%s')", o->name);
		use(c, o);
		break;
	case PTX_OP_BRACES: case PTX_OP_MEMORY: case PTX_OP_LIST: case PTX_OP_PAIR:
		for (uint32_t i = 0; i < o->count; i++)
			check_operand(c, &o->items[i], NULL);
		break;
	default:
		break;
	}
}

/* A typed arithmetic instruction or mov that names its type: its register operands have
 * that type's size, but for those check_register_sizes sets aside. */
static bool sized_by_type(const struct ptx_insn *in)
{
	static const char *const sized[] = {
		"add", "sub", "mul", "mad", "min", "max", "and", "or", "xor", "not", "neg", "abs",
		"div", "rem", "popc", "clz", "brev", "selp", "fma", "sqrt", "rcp", "mov",
	};

	for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++)
		if (strcmp(in->opcode, sized[i]) == 0)
			return insn_type(in, 0) != PTX_TYPE_NONE;
	return false;
}

/* The bits an arithmetic instruction writes: its first type's, twice that for .wide. */
static unsigned result_bits(const struct ptx_insn *in)
{
	if (!sized_by_type(in) || strcmp(in->opcode, "mov") == 0 || in->nops == 0)
		return 0;
	if (insn_has_mod(in, "wide"))
		return 2 * ptx_type_bits(insn_type(in, 0));
	/* popc and clz write a .u32 count whatever they count */
	return strcmp(in->opcode, "popc") == 0 || strcmp(in->opcode, "clz") == 0
	       ? 32 : ptx_type_bits(insn_type(in, 0));
}

/* The register operands of a typed arithmetic instruction or mov have its type's size, as
 * ptxas requires ("Arguments mismatch"): a .f64 register of an .f32 add would otherwise
 * reach the lowering as the wrong type. Aside: .wide forms (result_bits checks their
 * destination), popc's and clz's count, and a predicate operand of another type's
 * instruction (selp's). */
static void check_register_sizes(struct checker *c, const struct ptx_insn *in)
{
	enum ptx_type type = insn_type(in, 0);
	bool counts;

	if (!sized_by_type(in) || insn_has_mod(in, "wide"))
		return;
	counts = strcmp(in->opcode, "popc") == 0 || strcmp(in->opcode, "clz") == 0;
	for (uint32_t i = counts ? 1 : 0; i < in->nops; i++) {
		const struct name *r = in->ops[i].kind == PTX_OP_NAME ? lookup(c, in->ops[i].name) : NULL;

		if (!r || r->kind != NAME_REG || !ptx_type_bits(r->type) ||
		    (r->type == PTX_TYPE_PRED && type != PTX_TYPE_PRED))
			continue;
		if (ptx_type_bits(r->type) != ptx_type_bits(type))
			check_fail(c, in->ops[i].loc, "'%s' has %u bits; %s%s takes %u", in->ops[i].name,
			           ptx_type_bits(r->type), in->opcode, ptx_type_name(type),
			           ptx_type_bits(type));
	}
}

enum type_kind { KIND_OTHER, KIND_BITS, KIND_INTEGER, KIND_FLOAT, KIND_PREDICATE };

static enum type_kind type_kind(enum ptx_type t)
{
	return t >= PTX_TYPE_B8 && t <= PTX_TYPE_B128 ? KIND_BITS
	     : t >= PTX_TYPE_U8 && t <= PTX_TYPE_S64 ? KIND_INTEGER
	     : t >= PTX_TYPE_F16 && t <= PTX_TYPE_TF32 ? KIND_FLOAT
	     : t == PTX_TYPE_PRED ? KIND_PREDICATE : KIND_OTHER;
}

/* The type operand I of IN is checked against (type_kinds_fit); PTX_TYPE_NONE for none:
 * the instruction's type for its data operands, but a predicate for selp's selector, .u32
 * for a shift's count, and a conversion's second type for its source. A vector of a load
 * or store is left alone (ptxas takes a load's of mixed types). */
static enum ptx_type operand_type(const struct ptx_insn *in, uint32_t i)
{
	enum ptx_type type = insn_type(in, 0);
	const char *op = in->opcode;
	bool loads = strcmp(op, "ld") == 0 || strcmp(op, "ldu") == 0;

	if (sized_by_type(in))
		return (strcmp(op, "popc") == 0 || strcmp(op, "clz") == 0) && i == 0 ? PTX_TYPE_NONE
		     : strcmp(op, "selp") == 0 && i == 3 ? PTX_TYPE_PRED : type;
	if (strcmp(op, "setp") == 0)
		return i == 1 || i == 2 ? type : PTX_TYPE_NONE;
	if (strcmp(op, "cvt") == 0)
		return i == 0 ? type : i == 1 ? insn_type(in, 1) : PTX_TYPE_NONE;
	if (strcmp(op, "shl") == 0 || strcmp(op, "shr") == 0)
		return i < 2 ? type : i == 2 ? PTX_TYPE_U32 : PTX_TYPE_NONE;
	if ((loads && i == 0) || (strcmp(op, "st") == 0 && i == 1))
		return in->ops[i].kind != PTX_OP_BRACES ? type : PTX_TYPE_NONE;
	if (strcmp(op, "atom") == 0 || strcmp(op, "red") == 0)
		return (i == 1 && op[0] == 'a') || (i == 0 && op[0] == 'r') ? PTX_TYPE_NONE : type;
	return PTX_TYPE_NONE;
}

/* Operands of the kind their type allows, as ptxas requires ("Arguments mismatch"): a
 * register of a bit type fits any type of its size, any register a bit type, and otherwise
 * integers (signed or unsigned) fit integers and floats floats; a predicate register fits
 * predicates only; an integer constant is no float operand, a floating-point one no integer
 * operand, and a shift's count has 32 bits. The lowering would otherwise take a float
 * register's bits as an integer's, or 1 as a float's bit pattern. (A conversion's constants
 * are converted, and bit types take 0f and 0d bit patterns.) */
static void check_operand_kinds(struct checker *c, const struct ptx_insn *in)
{
	bool shift = strcmp(in->opcode, "shl") == 0 || strcmp(in->opcode, "shr") == 0;

	for (uint32_t i = 0; i < in->nops; i++) {
		const struct ptx_operand *o = &in->ops[i];
		enum ptx_type want = operand_type(in, i);
		enum type_kind kind = type_kind(want);
		const struct name *r = o->kind == PTX_OP_NAME ? lookup(c, o->name) : NULL;

		if (kind == KIND_OTHER)
			continue;
		if (r && r->kind == NAME_REG) {
			enum type_kind has = type_kind(r->type);
			enum ptx_type shown = want == PTX_TYPE_PRED || shift ? insn_type(in, 0) : want;
			bool fits = has == KIND_OTHER || has == kind ||
			            (has == KIND_BITS && kind != KIND_PREDICATE) ||
			            (kind == KIND_BITS && has != KIND_PREDICATE);
			if (!fits)
				check_fail(c, o->loc, "'%s' is a %s register where %s%s takes %s", o->name,
				           ptx_type_name(r->type), in->opcode, ptx_type_name(shown),
				           kind == KIND_PREDICATE ? "a predicate"
				           : kind == KIND_FLOAT ? "a float or bit-type one"
				           : kind == KIND_INTEGER ? "an integer or bit-type one"
				           : "no predicate");
			if (shift && i == 2 && ptx_type_bits(r->type) != 32)
				check_fail(c, o->loc, "'%s' has %u bits: %s takes a 32-bit count", o->name,
				           ptx_type_bits(r->type), in->opcode);
		}
		if (strcmp(in->opcode, "cvt") == 0)
			continue;
		if (o->kind == PTX_OP_INT && kind == KIND_FLOAT)
			check_fail(c, o->loc, "an integer constant: %s%s takes a floating-point one "
			           "(0f or 0d for its bits)", in->opcode, ptx_type_name(want));
		if ((o->kind == PTX_OP_F32 || o->kind == PTX_OP_F64) && kind == KIND_INTEGER)
			check_fail(c, o->loc, "a floating-point constant: %s%s takes an integer one",
			           in->opcode, ptx_type_name(want));
	}
}

/* setp's comparison for its type, as ptxas requires it ("Mismatch between instruction type
 * and comparison qualifier"): the unsigned ones (lo, ls, hi, hs) for unsigned integers,
 * the ordered ones (lt, le, gt, ge) for no bit type, the unordered ones and num, nan for
 * floats, as .ftz; and no predicates to compare. */
static void check_setp_comparison(struct checker *c, const struct ptx_insn *in, struct ptx_loc loc,
                                  enum ptx_type type)
{
	static const char *const unsigned_only[] = {"lo", "ls", "hi", "hs"};
	static const char *const ordered[] = {"lt", "le", "gt", "ge"};
	static const char *const floats_only[] = {"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan", "ftz"};
	enum type_kind kind = type_kind(type);
	bool is_unsigned = type >= PTX_TYPE_U8 && type <= PTX_TYPE_U64;

	if (type == PTX_TYPE_PRED)
		check_fail(c, loc, "setp compares no predicates (xor or and do)");
	for (int k = 0; k < 4; k++) {
		if (insn_has_mod(in, unsigned_only[k]) && !is_unsigned)
			check_fail(c, loc, "setp.%s compares unsigned integers, not %s", unsigned_only[k],
			           ptx_type_name(type));
		if (insn_has_mod(in, ordered[k]) && kind == KIND_BITS)
			check_fail(c, loc, "setp.%s does not compare %s: it takes a signed, unsigned or "
			           "float type", ordered[k], ptx_type_name(type));
	}
	for (size_t k = 0; k < sizeof(floats_only) / sizeof(floats_only[0]); k++)
		if (insn_has_mod(in, floats_only[k]) && kind != KIND_FLOAT)
			check_fail(c, loc, "setp.%s applies to floats, not %s", floats_only[k], ptx_type_name(type));
}

/* Appends PREFIX NAME to LIST, a message's choices (".rn, .rz or .rm"); LAST ends them. */
static void add_choice(char *list, size_t size, const char *prefix, const char *name, bool last)
{
	size_t at = strlen(list);

	snprintf(list + at, size - at, "%s%s%s", !at ? "" : last ? " or " : ", ", prefix, name);
}

/* Modifiers as ptxas requires them: float division, square root, reciprocal and fused
 * multiply-add name their rounding (or .approx or .full where those exist), the special
 * functions .approx, an approximate f64 reciprocal .ftz ("Rounding modifier required",
 * ".approx modifier required"), and integer arithmetic takes neither a rounding nor .ftz
 * ("Illegal modifier"). The lowering would otherwise pick one. */
static void check_arithmetic_modifiers(struct checker *c, const struct ptx_insn *in, struct ptx_loc loc)
{
	static const char *const round4[] = {"rn", "rz", "rm", "rp", NULL};
	static const char *const div32[] = {"rn", "rz", "rm", "rp", "approx", "full", NULL};
	static const char *const approx_too[] = {"rn", "rz", "rm", "rp", "approx", NULL};
	static const char *const approx[] = {"approx", NULL};
	static const struct {
		const char *opcode;
		unsigned bits;                /* of the float type; 0: any */
		const char *const *any_of;    /* ended by NULL */
	} required[] = {
		{"div", 32, div32}, {"div", 64, round4}, {"sqrt", 32, approx_too}, {"sqrt", 64, round4},
		{"rcp", 0, approx_too}, {"fma", 0, round4}, {"mad", 0, round4}, {"ex2", 0, approx},
		{"lg2", 0, approx}, {"sin", 0, approx}, {"cos", 0, approx}, {"tanh", 0, approx},
		{"rsqrt", 0, approx},
	};
	static const char *const integer_arithmetic[] = {"add", "sub", "mul", "mad", "min", "max",
	                                                 "abs", "neg", "div", "rem"};
	enum ptx_type type = insn_type(in, 0);
	enum type_kind kind = type_kind(type);

	if (kind == KIND_FLOAT)
		for (size_t k = 0; k < sizeof(required) / sizeof(required[0]); k++) {
			if (strcmp(in->opcode, required[k].opcode) != 0 ||
			    (required[k].bits && required[k].bits != ptx_type_bits(type)))
				continue;
			bool named = false;
			for (const char *const *m = required[k].any_of; *m && !named; m++)
				named = insn_has_mod(in, *m);
			if (!named) {
				const char *const *mods = required[k].any_of;
				char list[80] = "";
				for (size_t m = 0; mods[m]; m++)
					add_choice(list, sizeof list, ".", mods[m], !mods[m + 1]);
				check_fail(c, loc, "%s%s takes %s%s", in->opcode, ptx_type_name(type),
				           mods[1] ? "one of " : "", list);
			}
			break;
		}
	if (strcmp(in->opcode, "setp") == 0)
		check_setp_comparison(c, in, loc, type);
	if ((strcmp(in->opcode, "atom") == 0 || strcmp(in->opcode, "red") == 0) &&
	    type >= PTX_TYPE_F16 && type <= PTX_TYPE_BF16X2 && !insn_has_mod(in, "noftz"))
		check_fail(c, loc, "%s on %s takes .noftz", in->opcode, ptx_type_name(type));
	if (strcmp(in->opcode, "rcp") == 0 && type == PTX_TYPE_F64 && insn_has_mod(in, "approx") &&
	    !insn_has_mod(in, "ftz"))
		check_fail(c, loc, "rcp.approx.f64 takes .ftz");
	for (size_t k = 0; kind == KIND_INTEGER && k < sizeof(integer_arithmetic) / sizeof(integer_arithmetic[0]); k++)
		if (strcmp(in->opcode, integer_arithmetic[k]) == 0)
			for (int m = 0; m < 5; m++) {
				const char *mod = m < 4 ? round4[m] : "ftz";
				if (insn_has_mod(in, mod))
					check_fail(c, loc, "%s%s takes no .%s: it is integer arithmetic",
					           in->opcode, ptx_type_name(type), mod);
			}
}

/* A conversion's rounding, as ptxas requires it: a float rounding (.rn, .rz, .rm, .rp) to
 * a narrower float or from an integer to a float, an integer rounding (.rni, .rzi, .rmi,
 * .rpi) from a float to an integer, at most an integer rounding between floats of one type,
 * and none to a wider float or between integers ("Rounding modifier required", "Illegal
 * rounding modifier"). f16 and bf16 take either way, and the packed, tf32 and 8-bit float
 * forms are left to their lowering. */
static void check_cvt_rounding(struct checker *c, const struct ptx_insn *in, struct ptx_loc loc)
{
	static const char *const float_roundings[] = {"rn", "rz", "rm", "rp"};
	static const char *const integer_roundings[] = {"rni", "rzi", "rmi", "rpi"};
	enum ptx_type to = insn_type(in, 0), from = insn_type(in, 1);
	enum type_kind to_kind = type_kind(to), from_kind = type_kind(from);
	bool floats = false, integers = false;

	if (strcmp(in->opcode, "cvt") != 0 || to == PTX_TYPE_F16X2 || to == PTX_TYPE_BF16X2 ||
	    to == PTX_TYPE_TF32 || from == PTX_TYPE_TF32 ||
	    (to_kind != KIND_INTEGER && to_kind != KIND_FLOAT) ||
	    (from_kind != KIND_INTEGER && from_kind != KIND_FLOAT))
		return;
	for (int k = 0; k < 4; k++) {
		floats |= insn_has_mod(in, float_roundings[k]);
		integers |= insn_has_mod(in, integer_roundings[k]);
	}
	unsigned to_bits = ptx_type_bits(to), from_bits = ptx_type_bits(from);
	const char *to_name = ptx_type_name(to), *from_name = ptx_type_name(from);
	const char *need = NULL;

	if (to_kind == KIND_INTEGER && from_kind == KIND_INTEGER)
		need = floats || integers ? "no rounding between integers" : NULL;
	else if (to_kind == KIND_FLOAT && from_kind == KIND_INTEGER)
		need = !floats || integers ? "a rounding, .rn, .rz, .rm or .rp" : NULL;
	else if (to_kind == KIND_INTEGER)
		need = !integers || floats ? "an integer rounding, .rni, .rzi, .rmi or .rpi" : NULL;
	else if (to == from)
		need = floats ? "an integer rounding (.rni, .rzi, .rmi, .rpi) or none" : NULL;
	else if (to_bits == from_bits)  /* f16 and bf16 */
		return;
	else if (to_bits < from_bits)
		need = !floats || integers ? "a rounding to the narrower type, .rn, .rz, .rm or .rp" : NULL;
	else
		need = floats || integers ? "no rounding to a wider type" : NULL;
	if (need)
		check_fail(c, loc, "cvt%s%s takes %s", to_name, from_name, need);
}

/* Instructions whose lowering takes the one type they name, which must be one of those
 * ptxas allows ("Unexpected instruction types"): without it, or with a float, predicate or
 * narrower one, their operands would reach the lowering as other types. An entry with a
 * modifier applies to the forms with it. */
static void check_one_type(struct checker *c, const struct ptx_insn *in, struct ptx_loc loc)
{
	static const struct {
		const char *opcode, *modifier;
		enum ptx_type types[10]; /* ended by PTX_TYPE_NONE */
	} allowed[] = {
		{"abs", NULL, {PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64, PTX_TYPE_F16, PTX_TYPE_F16X2,
		               PTX_TYPE_BF16, PTX_TYPE_BF16X2, PTX_TYPE_F32, PTX_TYPE_F64}},
		{"activemask", NULL, {PTX_TYPE_B32}},
		{"addc", NULL, {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64}},
		{"alloca", NULL, {PTX_TYPE_U32, PTX_TYPE_U64}},
		{"and", NULL, {PTX_TYPE_PRED, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64}},
		{"atom", "add", {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_F32, PTX_TYPE_F64, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"atom", "and", {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"atom", "cas", {PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64, PTX_TYPE_B128}},
		{"atom", "dec", {PTX_TYPE_U32}},
		{"atom", "exch", {PTX_TYPE_B32, PTX_TYPE_B64, PTX_TYPE_B128}},
		{"atom", "inc", {PTX_TYPE_U32}},
		{"atom", "max", {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"atom", "min", {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"atom", "or", {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"atom", "xor", {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"bfe", NULL, {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64}},
		{"bfind", NULL, {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64}},
		{"brev", NULL, {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"clz", NULL, {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"cnot", NULL, {PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64}},
		{"cos", NULL, {PTX_TYPE_F32}},
		{"cvta", NULL, {PTX_TYPE_U32, PTX_TYPE_U64}},
		{"div", "full", {PTX_TYPE_F32}},
		{"ex2", NULL, {PTX_TYPE_F32, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"lg2", NULL, {PTX_TYPE_F32}},
		{"mad", "hi", {PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64}},
		{"mad", "lo", {PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64}},
		{"mad", "wide", {PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_S16, PTX_TYPE_S32}},
		{"mad24", NULL, {PTX_TYPE_U32, PTX_TYPE_S32}},
		{"madc", NULL, {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64}},
		{"mul", "hi", {PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64}},
		{"mul", "lo", {PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64}},
		{"mul", "wide", {PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_S16, PTX_TYPE_S32}},
		{"mul24", NULL, {PTX_TYPE_U32, PTX_TYPE_S32}},
		{"neg", NULL, {PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64, PTX_TYPE_F16, PTX_TYPE_F16X2,
		               PTX_TYPE_BF16, PTX_TYPE_BF16X2, PTX_TYPE_F32, PTX_TYPE_F64}},
		{"not", NULL, {PTX_TYPE_PRED, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64}},
		{"or", NULL, {PTX_TYPE_PRED, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64}},
		{"popc", NULL, {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"prmt", NULL, {PTX_TYPE_B32}},
		{"red", "add", {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_F32, PTX_TYPE_F64, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"red", "and", {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"red", "dec", {PTX_TYPE_U32}},
		{"red", "inc", {PTX_TYPE_U32}},
		{"red", "max", {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"red", "min", {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"red", "or", {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"red", "xor", {PTX_TYPE_B32, PTX_TYPE_B64}},
		{"rsqrt", NULL, {PTX_TYPE_F32, PTX_TYPE_F64}},
		{"shf", NULL, {PTX_TYPE_B32}},
		{"shfl", NULL, {PTX_TYPE_B32}},
		{"shl", NULL, {PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64}},
		{"shr", NULL, {PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64, PTX_TYPE_U16, PTX_TYPE_U32,
		               PTX_TYPE_U64, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64}},
		{"sin", NULL, {PTX_TYPE_F32}},
		{"stackrestore", NULL, {PTX_TYPE_U32, PTX_TYPE_U64}},
		{"stacksave", NULL, {PTX_TYPE_U32, PTX_TYPE_U64}},
		{"subc", NULL, {PTX_TYPE_U32, PTX_TYPE_S32, PTX_TYPE_U64, PTX_TYPE_S64}},
		{"szext", NULL, {PTX_TYPE_U32, PTX_TYPE_S32}},
		{"tanh", NULL, {PTX_TYPE_F32, PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2}},
		{"testp", NULL, {PTX_TYPE_F32, PTX_TYPE_F64}},
		{"vote", "ballot", {PTX_TYPE_B32}},
		{"xor", NULL, {PTX_TYPE_PRED, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64}},
	};
	enum ptx_type named = PTX_TYPE_NONE;
	unsigned count = 0;
	size_t k = 0;

	while (k < sizeof(allowed) / sizeof(allowed[0]) &&
	       (strcmp(in->opcode, allowed[k].opcode) ||
	        (allowed[k].modifier && !insn_has_mod(in, allowed[k].modifier))))
		k++;
	if (k == sizeof(allowed) / sizeof(allowed[0]))
		return;
	for (uint32_t i = 0; i < in->nmods; i++)
		if (ptx_type_of_modifier(in->mods[i]) != PTX_TYPE_NONE) {
			named = ptx_type_of_modifier(in->mods[i]);
			count++;
		}
	char list[96] = "";
	for (const enum ptx_type *t = allowed[k].types; *t != PTX_TYPE_NONE; t++) {
		if (*t == named && count == 1)
			return;
		add_choice(list, sizeof list, "", ptx_type_name(*t), t[1] == PTX_TYPE_NONE);
	}
	check_fail(c, loc, "%s%s%s takes one type, %s", in->opcode, allowed[k].modifier ? "." : "",
	           allowed[k].modifier ? allowed[k].modifier : "", list);
}

/* Forms ptxas refuses whose lowering would build what LLVM refuses: a variable as an operand
 * of arithmetic, a comparison or a conversion ("must be register"), madc.wide ("Unknown
 * modifier"), slct comparing other than .s32 or .f32 ("Unexpected instruction types": an
 * integer compare of a float), a predicate loaded or stored (its width is no number of
 * bytes), a load with
 * release or a store with acquire semantics ("Illegal modifier"), and a variable's or
 * function's address moved as a float ("Arguments mismatch"). */
static void check_refused_forms(struct checker *c, const struct ptx_insn *in, struct ptx_loc loc)
{
	enum ptx_type type = insn_type(in, 0);
	bool computes = (sized_by_type(in) && strcmp(in->opcode, "mov") != 0) ||
	                strcmp(in->opcode, "setp") == 0 || strcmp(in->opcode, "cvt") == 0;

	for (uint32_t i = 0; computes && i < in->nops; i++) {
		const struct name *n = in->ops[i].kind == PTX_OP_NAME ? lookup(c, in->ops[i].name) : NULL;

		if (n && n->kind == NAME_VAR)
			check_fail(c, in->ops[i].loc, "'%s' is a variable: %s takes registers and constants "
			           "(mov or cvta gives its address)", in->ops[i].name, in->opcode);
	}
	if (strcmp(in->opcode, "madc") == 0 && insn_has_mod(in, "wide"))
		check_fail(c, loc, "madc takes .hi or .lo, not .wide");
	enum ptx_type compared = insn_type(in, 1);
	if (strcmp(in->opcode, "slct") == 0 && compared != PTX_TYPE_S32 && compared != PTX_TYPE_F32)
		check_fail(c, loc, "slct compares an .s32 or .f32 operand, not %s", ptx_type_name(compared));
	bool loads = strcmp(in->opcode, "ld") == 0 || strcmp(in->opcode, "ldu") == 0;
	bool stores = strcmp(in->opcode, "st") == 0;
	if ((loads || stores) && insn_has_mod(in, "pred"))
		check_fail(c, loc, "%s moves no .pred", in->opcode);
	if (loads && (insn_has_mod(in, "release") || insn_has_mod(in, "acq_rel")))
		check_fail(c, loc, "%s takes no .%s: a load is .relaxed, .acquire or .volatile", in->opcode,
		           insn_has_mod(in, "release") ? "release" : "acq_rel");
	if (stores && (insn_has_mod(in, "acquire") || insn_has_mod(in, "acq_rel")))
		check_fail(c, loc, "st takes no .%s: a store is .relaxed, .release or .volatile",
		           insn_has_mod(in, "acquire") ? "acquire" : "acq_rel");
	if (strcmp(in->opcode, "mov") == 0 && in->nops == 2 && in->ops[1].kind == PTX_OP_NAME &&
	    (type == PTX_TYPE_F16 || type == PTX_TYPE_BF16 || type == PTX_TYPE_F32 ||
	     type == PTX_TYPE_F64)) {
		const struct name *n = lookup(c, in->ops[1].name);

		if (n && (n->kind == NAME_VAR || n->kind == NAME_FUNC))
			check_fail(c, in->ops[1].loc, "the address of '%s' moves as an integer type, "
			           "not %s", in->ops[1].name, ptx_type_name(type));
	}
}

static bool is_input_param(const struct ptx_signature *sig, const struct ptx_var *var)
{
	for (uint32_t i = 0; i < sig->nparams; i++)
		if (&sig->params[i] == var)
			return true;
	return false;
}

/* Addresses ptxas refuses: a variable named in another state space than its own ("State
 * space mismatch"; a generic address reaches .global, .shared and .local variables, and
 * .param and .const ones only through cvta), a function as an address, a store to an
 * input parameter ("Illegal to write to function input parameter"), and a variable where
 * isspacep and cvta.to take a register. */
static void check_addressed_space(struct checker *c, const struct ptx_insn *in)
{
	static const struct { const char *opcode; uint32_t address; } addressing[] = {
		{"ld", 1}, {"ldu", 1}, {"st", 0}, {"atom", 1}, {"red", 0}, {"prefetch", 0},
		{"prefetchu", 0}, {"cvta", 1}, {"isspacep", 1},
	};
	size_t k = 0, count = sizeof(addressing) / sizeof(addressing[0]);

	while (k < count && strcmp(in->opcode, addressing[k].opcode) != 0)
		k++;
	if (k == count || in->nops <= addressing[k].address)
		return;
	const struct ptx_operand *o = &in->ops[addressing[k].address];
	if (o->kind == PTX_OP_MEMORY && o->count)
		o = &o->items[0];
	const struct name *n = o->kind == PTX_OP_NAME ? lookup(c, o->name) : NULL;
	if (!n || n->kind == NAME_REG)
		return;
	if (strcmp(in->opcode, "isspacep") == 0 || (strcmp(in->opcode, "cvta") == 0 && insn_has_mod(in, "to")))
		check_fail(c, o->loc, "'%s' is not a register: %s%s takes a register (mov gives an "
		           "address)", o->name, in->opcode, insn_has_mod(in, "to") ? ".to" : "");
	if (n->kind == NAME_FUNC)
		check_fail(c, o->loc, "'%s' is a function: %s takes the address of a variable or a "
		           "register", o->name, in->opcode);
	if (n->kind != NAME_VAR || !n->var)
		return;
	enum ptx_space named = insn_space_of(in), own = n->var->space;
	if (named == PTX_SPACE_NONE && (own == PTX_SPACE_PARAM || own == PTX_SPACE_CONST))
		check_fail(c, o->loc, "'%s' is a %s variable: %s addresses it with %s, or generically "
		           "once cvta%s converts its address", o->name, ptx_space_name(own), in->opcode,
		           ptx_space_name(own), ptx_space_name(own));
	if (named != PTX_SPACE_NONE && named != own)
		check_fail(c, o->loc, "'%s' is a %s variable: %s%s does not address it", o->name,
		           ptx_space_name(own), in->opcode, ptx_space_name(named));
	if (strcmp(in->opcode, "st") == 0 && c->func && is_input_param(&c->func->sig, n->var))
		check_fail(c, o->loc, "'%s' is an input parameter of '%s': st cannot write it", o->name,
		           c->func->name);
}

static void check_insn(struct checker *c, const struct ptx_insn *in, struct ptx_loc loc)
{
	unsigned bits = result_bits(in);
	const char *video = is_video(in->opcode) ? in->opcode : NULL; /* may take selectors */

	if (in->guard) {
		const struct name *g = lookup(c, in->guard);

		if (!g)
			check_fail(c, loc, "guard '%s' is not declared", in->guard);
		if (g->kind != NAME_REG || g->type != PTX_TYPE_PRED)
			check_fail(c, loc, "guard '%s' is not a predicate register", in->guard);
	}
	if ((strcmp(in->opcode, "bra") == 0) && in->nops == 1 && in->ops[0].kind == PTX_OP_NAME) {
		const struct name *n = use(c, &in->ops[0]);

		if (!n || n->kind != NAME_LABEL)
			check_fail(c, in->ops[0].loc, "bra needs a label; '%s' is not one", in->ops[0].name);
		return;
	}
	for (uint32_t i = 0; i < in->nops; i++)
		check_operand(c, &in->ops[i], video);
	if (bits && in->ops[0].kind == PTX_OP_NAME) {
		const struct name *d = lookup(c, in->ops[0].name);

		if (d && d->kind == NAME_REG && ptx_type_bits(d->type) && ptx_type_bits(d->type) < bits)
			check_fail(c, in->ops[0].loc, "destination '%s' has %u bits; %s writes %u",
			           in->ops[0].name, ptx_type_bits(d->type), in->opcode, bits);
	}
	check_one_type(c, in, loc);
	check_refused_forms(c, in, loc);
	check_addressed_space(c, in);
	check_operand_kinds(c, in);
	check_cvt_rounding(c, in, loc);
	check_arithmetic_modifiers(c, in, loc);
	check_register_sizes(c, in);
}

/* Whether NAME is a register or variable declared in the current scope, by its own
 * name or as one of a %r<N> family's. */
static bool declared_here(struct checker *c, const char *name)
{
	uint32_t index;
	int seen = find_n(c, name, strlen(name));
	const struct name *family = register_family(c, name, &index);

	return (seen >= 0 && (uint32_t)seen >= c->scope && c->names[seen].kind <= NAME_VAR) ||
	       (family && (uint32_t)(family - c->names) >= c->scope && index < family->reg_count);
}

/* A function's parameters, results and variables. As ptxas requires ("Duplicate definition"),
 * a scope declares a name once, %r<N> declaring %r0 to %r(N-1); the module's own may be
 * declared again (.extern, then defined). */
static void declare_var(struct checker *c, const struct ptx_var *v)
{
	if (c->func && declared_here(c, v->name))
		check_fail(c, v->loc, "'%s' is declared twice in one scope", v->name);
	for (uint32_t i = c->scope; c->func && v->reg_count && i < c->count; i++) {
		const char *other = c->names[i].text;
		size_t n = strlen(v->name);

		if (c->names[i].kind <= NAME_VAR && strncmp(other, v->name, n) == 0 &&
		    other[n] >= '0' && other[n] <= '9' &&
		    strtoul(other + n, NULL, 10) < v->reg_count && (other[n] != '0' || !other[n + 1]))
			check_fail(c, v->loc, "'%s<%u>' declares '%s' again, in one scope", v->name,
			           v->reg_count, other);
	}
	declare(c, v->name, v->space == PTX_SPACE_REG ? NAME_REG : NAME_VAR, v->type, v->reg_count);
	c->names[c->count - 1].var = v;
}

/* Labels (and .branchtargets/.callprototype names) are visible in the whole function. */
static void declare_labels(struct checker *c, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		const char *label = s->kind == PTX_STMT_LABEL ? s->u.label
		                  : s->kind == PTX_STMT_BRANCHTARGETS ? s->u.branchtargets.label
		                  : s->kind == PTX_STMT_CALLPROTOTYPE ? s->u.callprototype.label : NULL;

		if (s->kind == PTX_STMT_BLOCK)
			declare_labels(c, s->u.block);
		if (!label)
			continue;
		int seen = find_n(c, label, strlen(label));

		if (seen >= 0 && c->names[seen].kind >= NAME_LABEL)
			check_fail(c, s->loc, "label '%s' is defined twice", label);
		declare(c, label, s->kind == PTX_STMT_LABEL ? NAME_LABEL : NAME_LIST, PTX_TYPE_NONE, 0);
	}
}

static void check_statements(struct checker *c, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		switch (s->kind) {
		case PTX_STMT_INSN:
			check_insn(c, &s->u.insn, s->loc);
			break;
		case PTX_STMT_VAR:
			declare_var(c, &s->u.var);
			break;
		case PTX_STMT_BLOCK: {
			uint32_t mark = c->count, outer = c->scope;

			c->scope = mark;
			check_statements(c, s->u.block);
			pop_to(c, mark);
			c->scope = outer;
			break;
		}
		case PTX_STMT_BRANCHTARGETS:
			for (uint32_t i = 0; i < s->u.branchtargets.count; i++) {
				const struct name *n = lookup(c, s->u.branchtargets.targets[i]);

				if (!n || n->kind != NAME_LABEL)
					check_fail(c, s->loc, "branch target '%s' is not a label",
					           s->u.branchtargets.targets[i]);
			}
			break;
		default:
			break;
		}
	}
}

/* A function's declaration or definition. As ptxas requires, a name has one definition, and
 * each of its prototypes the same number of parameters and results (the lowering makes one
 * LLVM function of them all). */
/* A parameter's or result's alignment: the one given, else its element's. */
static uint32_t param_align(const struct ptx_var *v)
{
	return v->align ? v->align : ptx_type_bits(v->type) / 8 * (v->vector ? v->vector : 1);
}

/* What differs between two prototypes' parameters (or results) where ptxas requires them
 * the same, or NULL: names may differ. */
static const char *param_difference(const struct ptx_var *a, const struct ptx_var *b)
{
	if (a->space != b->space)
		return "state space";
	if (a->type != b->type || a->vector != b->vector || a->ndims != b->ndims)
		return "type";
	for (uint32_t d = 0; d < a->ndims; d++)
		if (a->dims[d] != b->dims[d])
			return "type";
	return param_align(a) != param_align(b) ? "alignment" : NULL;
}

/* A function's prototype against an earlier one of the same name: the same number of
 * parameters and results, each the same (param_difference). */
static void check_same_prototype(struct checker *c, const struct ptx_func *f,
                                 const struct ptx_func *before)
{
	const char *what;

	if (before->sig.nparams != f->sig.nparams || before->sig.nrets != f->sig.nrets)
		check_fail(c, f->loc, "function '%s' has another number of parameters or results at "
		           "line %u", f->name, before->loc.line);
	for (uint32_t i = 0; i < f->sig.nparams; i++)
		if ((what = param_difference(&before->sig.params[i], &f->sig.params[i])))
			check_fail(c, f->sig.params[i].loc, "parameter %u of function '%s' has another %s "
			           "at line %u", i + 1, f->name, what, before->loc.line);
	for (uint32_t i = 0; i < f->sig.nrets; i++)
		if ((what = param_difference(&before->sig.rets[i], &f->sig.rets[i])))
			check_fail(c, f->sig.rets[i].loc, "result %u of function '%s' has another %s at "
			           "line %u", i + 1, f->name, what, before->loc.line);
}

static void declare_func(struct checker *c, const struct ptx_func *f)
{
	int i = find_n(c, f->name, strlen(f->name));
	const struct ptx_func *before = i >= 0 && c->names[i].kind == NAME_FUNC ? c->names[i].func : NULL;

	if (!before) {
		declare(c, f->name, NAME_FUNC, PTX_TYPE_NONE, 0);
		c->names[c->count - 1].func = f;
		return;
	}
	if (before->has_body && f->has_body)
		check_fail(c, f->loc, "function '%s' is defined twice (first at line %u)", f->name,
		           before->loc.line);
	check_same_prototype(c, f, before);
	if (f->has_body)
		c->names[i].func = f;
}

/* A module's variable. As ptxas takes them, a name has one definition, and any .extern
 * declarations of it, before or after, name the same variable: the same state space, type
 * and dimensions (an .extern one may leave its size out), defined .visible, .weak or
 * .common, not static. The lowering makes one LLVM global of them, which it can for .global
 * and .const variables. Only an .extern declaration may leave the size out. */
static void declare_module_var(struct checker *c, const struct ptx_var *v)
{
	bool declares = v->linkage & PTX_LINK_EXTERN;
	for (uint32_t d = 0; d < v->ndims && !declares; d++)
		if (v->dims[d] == 0)
			check_fail(c, v->loc, "variable '%s' has no size: only an .extern declaration may "
			           "leave it out", v->name);
	int i = find_n(c, v->name, strlen(v->name));
	const struct ptx_var *before = i >= 0 && c->names[i].kind == NAME_VAR ? c->names[i].var : NULL;
	if (!before) {
		declare_var(c, v);
		return;
	}
	bool declared = before->linkage & PTX_LINK_EXTERN;
	if (!declared && !declares)
		check_fail(c, v->loc, "variable '%s' is defined twice (first at line %u)", v->name,
		           before->loc.line);
	bool same = v->space == before->space && v->type == before->type &&
	            v->vector == before->vector && v->ndims == before->ndims;
	for (uint32_t d = 0; same && d < v->ndims; d++)
		same = v->dims[d] == before->dims[d] || (declares && v->dims[d] == 0) ||
		       (declared && before->dims[d] == 0);
	if (!same)
		check_fail(c, v->loc, "variable '%s' has another state space or type than at line %u",
		           v->name, before->loc.line);
	if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST)
		check_fail(c, v->loc, "'%s' is declared again (first at line %u): the translation "
		           "takes .extern and a definition in one module for .global and .const "
		           "variables only", v->name, before->loc.line);
	const struct ptx_var *definition = declares ? before : v;
	if (!(definition->linkage & PTX_LINK_EXTERN) &&
	    !(definition->linkage & (PTX_LINK_VISIBLE | PTX_LINK_WEAK | PTX_LINK_COMMON)))
		check_fail(c, definition->loc, "variable '%s' is declared .extern: its definition must "
		           "be .visible, .weak or .common, not static", v->name);
	if (!declares)
		c->names[i].var = v;
}

static void check_function(struct checker *c, const struct ptx_func *f)
{
	uint32_t mark = c->count;

	c->func = f;
	c->scope = mark;
	for (uint32_t i = 0; i < f->sig.nparams; i++)
		declare_var(c, &f->sig.params[i]);
	for (uint32_t i = 0; i < f->sig.nrets; i++)
		declare_var(c, &f->sig.rets[i]);
	declare_labels(c, f->body);
	check_statements(c, f->body);
	pop_to(c, mark);
}

bool ptx_check(const struct ptx_module *module, struct ptx_diag *diag)
{
	struct checker c = {.module = module, .diag = diag, .nbuckets = 4096};
	bool ok;

	c.buckets = malloc(c.nbuckets * sizeof(int));
	if (!c.buckets) {
		fputs("zluda-convert: out of memory\n", stderr);
		abort();
	}
	memset(c.buckets, 0xff, c.nbuckets * sizeof(int));
	ok = setjmp(c.fail) == 0;
	if (ok) {
		for (const struct ptx_item *it = module->items; it; it = it->next) {
			if (it->kind == PTX_ITEM_VAR)
				declare_module_var(&c, &it->u.var);
			else if (it->kind == PTX_ITEM_FUNC)
				declare_func(&c, &it->u.func);
			else if (it->kind == PTX_ITEM_ALIAS)
				declare(&c, it->u.alias.alias, NAME_FUNC, PTX_TYPE_NONE, 0);
		}
		for (const struct ptx_item *it = module->items; it; it = it->next)
			if (it->kind == PTX_ITEM_FUNC && it->u.func.has_body)
				check_function(&c, &it->u.func);
	}
	free(c.names);
	free(c.buckets);
	return ok;
}
