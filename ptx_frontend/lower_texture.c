/* Texture and surface objects: tex, tld4 and txq read a texture through the builtins'
 * software sampler (backend/builtins_texture.c); suld.b and sust.b a surface's bytes,
 * sust.p its formatted texels and sured its elements' reductions
 * (backend/builtins_surface.c); the handle is the device address of the object's
 * descriptor (abi/texture.h), on every target; suq queries a surface as txq a texture.
 * Texture references (.texref, .surfref; removed in CUDA 12), multisample geometries
 * and istypeof are left out, named. */
#include <string.h>

#include "lower.h"
#include "texture.h"

/* The geometry of a tex, tld4, suld or sust: its dimensions and whether a layer index
 * comes first among the coordinates. */
struct geometry {
	unsigned dims;  /* coordinates (a cube map's direction: 3) */
	bool layered;
	bool cube;
};

static struct geometry geometry(struct lower *L, bool cube_allowed)
{
	static const struct { const char *mod; struct geometry g; } geometries[] = {
		{"1d", {1, false, false}}, {"2d", {2, false, false}}, {"3d", {3, false, false}},
		{"a1d", {1, true, false}}, {"a2d", {2, true, false}},
		{"cube", {3, false, true}}, {"acube", {3, true, true}},
	};

	for (size_t i = 0; i < sizeof(geometries) / sizeof(geometries[0]); i++)
		if (has_mod(L, geometries[i].mod) && (cube_allowed || !geometries[i].g.cube))
			return geometries[i].g;
	if (has_mod(L, "2dms") || has_mod(L, "a2dms"))
		lower_fail(L, "%s: multisample textures come only from graphics interoperability, which "
		           "the driver does not offer, so no texture object can be one", L->insn->opcode);
	lower_unsupported(L);  /* surfaces have no cube geometries */
}

/* The object of [handle, coordinates]: a register holding a texture or surface object. */
static LLVMValueRef object_handle(struct lower *L, const struct ptx_operand *address)
{
	const struct ptx_operand *h;
	struct sym *s;

	if (address->kind != PTX_OP_MEMORY || address->count != 2)
		lower_unsupported(L);  /* the independent mode's [texture, sampler, coordinates] */
	h = &address->items[0];
	s = h->kind == PTX_OP_NAME ? sym_lookup(L, h->name) : NULL;
	if (s && s->kind == SYM_VAR)
		lower_fail(L, "%s: texture and surface references (.texref, .surfref: removed in CUDA 12) are not "
		           "supported; texture and surface objects are", L->insn->opcode);
	return operand_value(L, h, PTX_TYPE_B64);
}

/* Coordinate i of the [handle, {coordinates}] operand, as type t. */
static LLVMValueRef coordinate(struct lower *L, const struct ptx_operand *address, unsigned i, enum ptx_type t)
{
	const struct ptx_operand *c = &address->items[1];

	if (c->kind == PTX_OP_BRACES) {
		if (i >= c->count)
			lower_fail(L, "%s: too few coordinates", L->insn->opcode);
		return operand_value(L, &c->items[i], t);
	}
	if (i)
		lower_fail(L, "%s: too few coordinates", L->insn->opcode);
	return operand_value(L, c, t);
}

/* A 16-byte buffer for a builtin's four words, and its generic pointer. */
static LLVMValueRef words_buffer(struct lower *L, LLVMValueRef *generic)
{
	LLVMValueRef buffer = entry_alloca(L, LLVMArrayType2(ll_int(L, 32), 4), 16, "texels");

	*generic = L->target->as_local == L->target->as_generic ? buffer
	           : LLVMBuildAddrSpaceCast(L->b, buffer, ll_ptr(L, L->target->as_generic), "");
	return buffer;
}

static LLVMValueRef word_at(struct lower *L, LLVMValueRef buffer, unsigned i, LLVMTypeRef type, unsigned bytes)
{
	LLVMValueRef index = LLVMConstInt(ll_int(L, 64), i * bytes, 0);
	LLVMValueRef p = LLVMBuildGEP2(L->b, ll_int(L, 8), buffer, &index, 1, "");
	LLVMValueRef v = LLVMBuildLoad2(L->b, type, p, "");

	LLVMSetAlignment(v, bytes);
	return v;
}

/* Writes the four words to the vector destination d (or as many as it has): as they are,
 * or, for f16 results, each channel rounded to f16, two to a register for f16x2 (the first
 * in the low half). */
static void store_words(struct lower *L, const struct ptx_operand *d, LLVMValueRef buffer, enum ptx_type t)
{
	unsigned n = d->kind == PTX_OP_BRACES ? d->count : 1, per = t == PTX_TYPE_F16X2 ? 2 : 1;
	LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx);

	if (n * per > 4)
		lower_fail(L, "%s: at most %u destinations", L->insn->opcode, 4 / per);
	for (unsigned i = 0; i < n; i++) {
		const struct ptx_operand *di = d->kind == PTX_OP_BRACES ? &d->items[i] : d;
		LLVMValueRef v;
		if (t == PTX_TYPE_F16) {
			v = LLVMBuildTrunc(L->b, float_as_half(L, word_at(L, buffer, i, f32, 4)), ll_int(L, 16), "");
			operand_store(L, di, v, PTX_TYPE_B16);
		} else if (t == PTX_TYPE_F16X2) {
			LLVMValueRef low = float_as_half(L, word_at(L, buffer, 2 * i, f32, 4));
			LLVMValueRef high = float_as_half(L, word_at(L, buffer, 2 * i + 1, f32, 4));
			v = LLVMBuildOr(L->b, low, LLVMBuildShl(L->b, high, const32(L, 16), ""), "");
			operand_store(L, di, v, PTX_TYPE_B32);
		} else {
			operand_store(L, di, word_at(L, buffer, i, ll_int(L, 32), 4), t);
		}
	}
}

/* The destination type of a tex (f16 and f16x2 too) or tld4, as store_words takes it. */
static enum ptx_type destination_type(struct lower *L, bool halves)
{
	enum ptx_type t = mod_type(L, 0);

	if (halves && ((t == PTX_TYPE_F16 && has_mod(L, "v4")) || (t == PTX_TYPE_F16X2 && has_mod(L, "v2"))))
		return t;
	if ((t != PTX_TYPE_F32 && t != PTX_TYPE_S32 && t != PTX_TYPE_U32) || !has_mod(L, "v4"))
		lower_unsupported(L);
	return t == PTX_TYPE_F32 ? PTX_TYPE_B32 : t;
}

/* Element i of a gradient (.f32) or offset (.s32) operand: a vector, or one register for
 * 1d; 0 past the geometry's dimensions. */
static LLVMValueRef axis_element(struct lower *L, const struct ptx_operand *o, unsigned i, unsigned dims,
                                 enum ptx_type t)
{
	if (i >= dims)
		return t == PTX_TYPE_F32 ? LLVMConstReal(LLVMFloatTypeInContext(L->ctx), 0) : const32(L, 0);
	if (o->kind == PTX_OP_BRACES) {
		if (i >= o->count)
			lower_fail(L, "%s: too few %s elements", L->insn->opcode, t == PTX_TYPE_F32 ? "gradient" : "offset");
		return operand_value(L, &o->items[i], t);
	}
	if (i)
		lower_fail(L, "%s: too few %s elements", L->insn->opcode, t == PTX_TYPE_F32 ? "gradient" : "offset");
	return operand_value(L, o, t);
}

/* count elements of the offset operand `index` (.s32, in texels) into args, or zeros when
 * the instruction has none. */
static unsigned offset_arguments(struct lower *L, unsigned index, unsigned dims, unsigned count, LLVMValueRef *args)
{
	for (unsigned a = 0; a < count; a++)
		args[a] = index < L->insn->nops ? axis_element(L, op(L, index), a, dims, PTX_TYPE_S32) : const32(L, 0);
	return count;
}

static _Noreturn void cube_offset_refused(struct lower *L)
{
	lower_fail(L, "%s: an offset operand is defined for 1d, 2d and 3d geometries and their arrays, not "
	           "for cube maps (NVIDIA's ptxas refuses it too)", L->insn->opcode);
}

/* tex{.level,.grad}.geom.v4.dtype.ctype d, [a, c]{, lod | , dPdx, dPdy}{, offset}: with .f32
 * coordinates the texture's addressing, filtering and normalization (and its mipmaps, at
 * level of detail 0, lod, or the gradients'); with .s32 ones the texel itself. a1d, a2d and
 * acube take the layer first, an .s32 whatever the coordinates' type; 3d, a2d and cube pad
 * their vector to four. */
static bool lower_tex(struct lower *L)
{
	struct geometry g = geometry(L, true);
	enum ptx_type dt = destination_type(L, true), ct = mod_type(L, 1);
	bool level = has_mod(L, "level"), grad = has_mod(L, "grad");
	const struct ptx_operand *address;
	LLVMValueRef args[16], generic, buffer;
	unsigned first = g.layered, n = 0;
	const char *builtin = ct == PTX_TYPE_F32 ? level ? "__zc_tex_sample_lod" : grad ? "__zc_tex_sample_grad"
	                      : "__zc_tex_sample" : "__zc_tex_fetch";

	unsigned operands = 2u + level + 2u * grad;

	if (L->insn->nops == operands + 2)
		lower_fail(L, "%s: a depth compare value: CUDA's texture objects have no compare mode, so "
		           "none is a depth texture", L->insn->opcode);
	if (g.cube && L->insn->nops == operands + 1)
		cube_offset_refused(L);
	if ((ct != PTX_TYPE_F32 && ct != PTX_TYPE_S32) || (ct == PTX_TYPE_S32 && (level || grad)) ||
	    (g.cube && ct != PTX_TYPE_F32) || (L->insn->nops != operands && L->insn->nops != operands + 1))
		lower_unsupported(L);
	address = op(L, 1);
	args[n++] = object_handle(L, address);
	for (unsigned a = 0; a < 3; a++)
		args[n++] = a < g.dims ? coordinate(L, address, first + a, ct)
		          : ct == PTX_TYPE_F32 ? LLVMConstReal(LLVMFloatTypeInContext(L->ctx), 0) : const32(L, 0);
	args[n++] = g.layered ? coordinate(L, address, 0, PTX_TYPE_S32) : const32(L, 0);
	n += offset_arguments(L, operands, g.dims, 3, args + n);
	if (level)
		args[n++] = operand_value(L, op(L, 2), PTX_TYPE_F32);
	for (unsigned d = 0; grad && d < 2; d++)
		for (unsigned a = 0; a < 3; a++)
			args[n++] = axis_element(L, op(L, 2 + d), a, g.dims, PTX_TYPE_F32);
	buffer = words_buffer(L, &generic);
	args[n++] = generic;
	call_builtin(L, builtin, LLVMVoidTypeInContext(L->ctx), args, n);
	store_words(L, op(L, 0), buffer, dt);
	return true;
}

/* tld4.comp.geom.v4.dtype.f32 d, [a, c]{, offset}: 2d, a2d (its layer first), cube and
 * acube (its layer first, then the direction; no offset). */
static bool lower_tld4(struct lower *L)
{
	static const char components[] = "rgba";
	struct geometry g = geometry(L, true);
	enum ptx_type dt = destination_type(L, false);
	const struct ptx_operand *address;
	LLVMValueRef args[9], generic, buffer;
	int component = -1;

	for (int c = 0; c < 4; c++)
		if (has_mod(L, (char[]){ components[c], 0 }))
			component = c;
	if (L->insn->nops == 4)
		lower_fail(L, "%s: a depth compare value: CUDA's texture objects have no compare mode, so "
		           "none is a depth texture", L->insn->opcode);
	if (g.cube && L->insn->nops == 3)
		cube_offset_refused(L);
	if (component < 0 || (g.dims != 2 && !g.cube) || mod_type(L, 1) != PTX_TYPE_F32 ||
	    (L->insn->nops != 2 && L->insn->nops != 3))
		lower_unsupported(L);
	address = op(L, 1);
	args[0] = object_handle(L, address);
	for (unsigned a = 0; a < 3; a++)
		args[1 + a] = a < g.dims ? coordinate(L, address, g.layered + a, PTX_TYPE_F32)
		              : LLVMConstReal(LLVMFloatTypeInContext(L->ctx), 0);
	args[4] = g.layered ? coordinate(L, address, 0, PTX_TYPE_S32) : const32(L, 0);
	offset_arguments(L, 2, 2, 2, args + 5);
	args[7] = const32(L, (uint32_t)component);
	buffer = words_buffer(L, &generic);
	args[8] = generic;
	call_builtin(L, "__zc_tex_gather", LLVMVoidTypeInContext(L->ctx), args, 9);
	store_words(L, op(L, 0), buffer, dt);
	return true;
}

/* txq.query.b32 d, [a], suq.query.b32 d, [a] (a surface's: width, height, depth,
 * channel_data_type, channel_order, array_size, memory_layout) and txq.level.query.b32 d,
 * [a], lod (width, height, depth of mipmap level lod) */
static bool lower_query(struct lower *L)
{
	static const struct { const char *mod; enum zc_texture_query query; } queries[] = {
		{"width", ZC_QUERY_WIDTH}, {"height", ZC_QUERY_HEIGHT}, {"depth", ZC_QUERY_DEPTH},
		{"channel_data_type", ZC_QUERY_CHANNEL_DATA_TYPE}, {"channel_order", ZC_QUERY_CHANNEL_ORDER},
		{"normalized_coords", ZC_QUERY_NORMALIZED_COORDS}, {"filter_mode", ZC_QUERY_FILTER_MODE},
		{"addr_mode_0", ZC_QUERY_ADDR_MODE_0}, {"addr_mode_1", ZC_QUERY_ADDR_MODE_1},
		{"addr_mode_2", ZC_QUERY_ADDR_MODE_2}, {"array_size", ZC_QUERY_ARRAY_SIZE},
		{"num_mipmap_levels", ZC_QUERY_NUM_MIPMAP_LEVELS}, {"num_samples", ZC_QUERY_NUM_SAMPLES},
		{"memory_layout", ZC_QUERY_MEMORY_LAYOUT},
		{"force_unnormalized_coords", ZC_QUERY_FORCE_UNNORMALIZED_COORDS},
	};
	bool texture = L->insn->opcode[0] == 't', level = has_mod(L, "level");
	const struct ptx_operand *address;
	struct sym *s;
	LLVMValueRef args[3];

	if (L->insn->nops != 2u + level || (level && !texture))
		lower_unsupported(L);
	address = op(L, 1);
	if (address->kind != PTX_OP_MEMORY || address->count != 1)
		lower_unsupported(L);
	s = address->items[0].kind == PTX_OP_NAME ? sym_lookup(L, address->items[0].name) : NULL;
	if (s && s->kind == SYM_VAR)
		lower_fail(L, "%s: texture and surface references (.texref, .surfref: removed in CUDA 12) are not "
		           "supported", L->insn->opcode);
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		enum zc_texture_query q = queries[i].query;
		bool surface_query = q <= ZC_QUERY_CHANNEL_ORDER || q == ZC_QUERY_ARRAY_SIZE || q == ZC_QUERY_MEMORY_LAYOUT;
		if (!has_mod(L, queries[i].mod) || (texture ? q == ZC_QUERY_MEMORY_LAYOUT : !surface_query) ||
		    (level && q > ZC_QUERY_DEPTH))
			continue;
		args[0] = operand_value(L, &address->items[0], PTX_TYPE_B64);
		args[1] = const32(L, q);
		if (level)
			args[2] = operand_value(L, op(L, 2), PTX_TYPE_S32);
		operand_store(L, op(L, 0), call_builtin(L, level ? "__zc_tex_query_level" : "__zc_tex_query",
		                                        ll_int(L, 32), args, 2u + level), PTX_TYPE_B32);
		return true;
	}
	lower_unsupported(L);
}

/* The out-of-range mode of a surface instruction. */
static uint32_t surface_mode(struct lower *L)
{
	return has_mod(L, "zero") ? ZC_SURFACE_ZERO : has_mod(L, "clamp") ? ZC_SURFACE_CLAMP : ZC_SURFACE_TRAP;
}

/* A surface builtin's first five arguments, from [a, b]: the handle, x (b's first coordinate
 * after an array's layer), y, z (0 where the geometry has none) and the layer. */
static void surface_place(struct lower *L, const struct ptx_operand *address, LLVMValueRef *args)
{
	struct geometry g = geometry(L, false);

	args[0] = object_handle(L, address);
	for (unsigned a = 0; a < 3; a++)
		args[1 + a] = a < g.dims ? coordinate(L, address, g.layered + a, PTX_TYPE_S32) : const32(L, 0);
	args[4] = g.layered ? coordinate(L, address, 0, PTX_TYPE_S32) : const32(L, 0);
}

/* The registers of a vector operand (or one). */
static unsigned vector_count(const struct ptx_operand *o)
{
	return o->kind == PTX_OP_BRACES ? o->count : 1;
}

static const struct ptx_operand *vector_item(const struct ptx_operand *o, unsigned i)
{
	return o->kind == PTX_OP_BRACES ? &o->items[i] : o;
}

/* suld.b.geom.vec.dtype.mode d, [a, b] and sust.b.geom.vec.ctype.mode [a, b], c: the
 * elements at byte x of row y, slice z. */
static bool lower_surface(struct lower *L, bool store)
{
	enum ptx_type t = mod_type(L, 0);
	unsigned n = has_mod(L, "v4") ? 4 : has_mod(L, "v2") ? 2 : 1, bytes = type_bits(t) / 8;
	const struct ptx_operand *address, *values;
	LLVMValueRef args[8], generic, buffer;
	LLVMTypeRef element;

	if (!has_mod(L, "b") || (t != PTX_TYPE_B8 && t != PTX_TYPE_B16 && t != PTX_TYPE_B32 && t != PTX_TYPE_B64) ||
	    n * bytes > 16 || L->insn->nops != 2)
		lower_unsupported(L);
	element = ll_int(L, 8 * bytes);
	address = op(L, store ? 0 : 1);
	values = op(L, store ? 1 : 0);
	if (vector_count(values) != n)
		lower_fail(L, "%s: %u registers expected", L->insn->opcode, n);
	surface_place(L, address, args);
	args[5] = const32(L, n * bytes);
	args[6] = const32(L, surface_mode(L));
	buffer = words_buffer(L, &generic);
	args[7] = generic;
	for (unsigned i = 0; store && i < n; i++) {
		LLVMValueRef index = LLVMConstInt(ll_int(L, 64), i * bytes, 0);
		LLVMValueRef p = LLVMBuildGEP2(L->b, ll_int(L, 8), buffer, &index, 1, "");
		LLVMValueRef v = operand_value(L, vector_item(values, i), t);
		LLVMSetAlignment(LLVMBuildStore(L->b, LLVMBuildTrunc(L->b, v, element, ""), p), bytes);
	}
	call_builtin(L, store ? "__zc_surf_store" : "__zc_surf_load", LLVMVoidTypeInContext(L->ctx), args, 8);
	for (unsigned i = 0; !store && i < n; i++)
		operand_store(L, vector_item(values, i), word_at(L, buffer, i, element, bytes), t);
	return true;
}

/* sust.p.geom.vec.b32.mode [a, b], c: c's words (R, G, B, A) at sample x, converted to the
 * surface's format by the builtin. */
static bool lower_formatted_store(struct lower *L)
{
	unsigned n = has_mod(L, "v4") ? 4 : has_mod(L, "v2") ? 2 : 1;
	const struct ptx_operand *values = op(L, 1);
	LLVMValueRef args[8], generic, buffer;

	if (mod_type(L, 0) != PTX_TYPE_B32 || L->insn->nops != 2)
		lower_unsupported(L);
	if (vector_count(values) != n)
		lower_fail(L, "%s: %u registers expected", L->insn->opcode, n);
	surface_place(L, op(L, 0), args);
	args[5] = const32(L, surface_mode(L));
	args[6] = const32(L, n);
	buffer = words_buffer(L, &generic);
	args[7] = generic;
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef index = LLVMConstInt(ll_int(L, 64), i * 4, 0);
		LLVMValueRef p = LLVMBuildGEP2(L->b, ll_int(L, 8), buffer, &index, 1, "");
		LLVMSetAlignment(LLVMBuildStore(L->b, operand_value(L, vector_item(values, i), PTX_TYPE_B32), p), 4);
	}
	call_builtin(L, "__zc_surf_store_formatted", LLVMVoidTypeInContext(L->ctx), args, 8);
	return true;
}

/* sured.b.op.geom.ctype.mode [a, b], c (add of u32, s32, u64; min and max of u32, s32, u64,
 * s64; and, or of b32; byte x) and sured.p.op.geom.ctype.mode (b32, or b64's min and max,
 * unsigned or signed by the surface's format; sample x). */
static bool lower_reduction(struct lower *L)
{
	static const char *const ops[] = { [ZC_REDUCE_ADD] = "add", [ZC_REDUCE_MIN] = "min", [ZC_REDUCE_MAX] = "max",
	                                   [ZC_REDUCE_AND] = "and", [ZC_REDUCE_OR] = "or" };
	enum ptx_type t = mod_type(L, 0);
	bool sampled = has_mod(L, "p"), min_max;
	int o = -1;
	enum zc_reduction_type type;
	LLVMValueRef args[9];

	for (int i = 0; i < (int)(sizeof(ops) / sizeof(ops[0])); i++)
		if (has_mod(L, ops[i]))
			o = i;
	min_max = o == ZC_REDUCE_MIN || o == ZC_REDUCE_MAX;
	if (o < 0 || L->insn->nops != 2 || (!sampled && !has_mod(L, "b")))
		lower_unsupported(L);
	if (sampled && t == PTX_TYPE_B32)
		type = ZC_REDUCE_P32;
	else if (sampled && t == PTX_TYPE_B64 && min_max)
		type = ZC_REDUCE_P64;
	else if (!sampled && (t == PTX_TYPE_U32 || t == PTX_TYPE_S32) && (o == ZC_REDUCE_ADD || min_max))
		type = t == PTX_TYPE_U32 ? ZC_REDUCE_U32 : ZC_REDUCE_S32;
	else if (!sampled && (t == PTX_TYPE_U64 && (o == ZC_REDUCE_ADD || min_max)))
		type = ZC_REDUCE_U64;
	else if (!sampled && t == PTX_TYPE_S64 && min_max)
		type = ZC_REDUCE_S64;
	else if (!sampled && t == PTX_TYPE_B32 && !min_max && o != ZC_REDUCE_ADD)
		type = ZC_REDUCE_U32;
	else
		lower_fail(L, "%s: the PTX ISA defines no %s of this type", L->insn->opcode, ops[o]);
	surface_place(L, op(L, 0), args);
	args[5] = const32(L, surface_mode(L));
	args[6] = const32(L, (uint32_t)o);
	args[7] = const32(L, type);
	args[8] = LLVMBuildZExtOrBitCast(L->b, operand_value(L, op(L, 1), t), ll_int(L, 64), "");
	call_builtin(L, "__zc_surf_reduce", LLVMVoidTypeInContext(L->ctx), args, 9);
	return true;
}

bool lower_texture(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "tex"))
		return lower_tex(L);
	if (!strcmp(o, "tld4"))
		return lower_tld4(L);
	if (!strcmp(o, "txq") || !strcmp(o, "suq"))
		return lower_query(L);
	if (!strcmp(o, "suld"))
		return lower_surface(L, false);
	if (!strcmp(o, "sust"))
		return has_mod(L, "p") ? lower_formatted_store(L) : lower_surface(L, true);
	if (!strcmp(o, "sured"))
		return lower_reduction(L);
	if (!strcmp(o, "istypeof"))  /* NVIDIA's ptxas 13 rejects it too */
		lower_fail(L, "istypeof is not supported: a texture, sampler or surface object's handle does not "
		           "record its kind");
	return false;
}
