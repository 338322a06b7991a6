/* Recursive-descent parser for PTX modules: module directives, variable declarations,
 * functions and their bodies. Instructions and operands are parsed in parse_insn.c.
 * The first error ends the parse through a longjmp; everything allocated so far lives in
 * the arena and goes with it. */
#include <stdarg.h>
#include <string.h>

#include "internal.h"

static void set_message(struct ptx_diag *diag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ptx_diag_vappend(diag, 0, fmt, ap);
	va_end(ap);
}

void parse_fail(struct parser *p, struct ptx_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	p->diag->file = p->file;
	p->diag->loc = loc;
	ptx_diag_vappend(p->diag, 0, fmt, ap);
	va_end(ap);
	longjmp(p->fail, 1);
}

/* Something missing at the end of a line (a ';' most often) is reported just after the
 * last token, as clang does; otherwise the unexpected token itself is pointed at. */
void parse_expected(struct parser *p, const char *what)
{
	const struct token *t = &p->tok;
	if (t->kind == TOK_EOF)
		parse_fail(p, p->prev_end, "expected %s before end of file", what);
	if (t->loc.line != p->prev_end.line)
		parse_fail(p, p->prev_end, "expected %s", what);
	int shown = t->len > 40 ? 40 : (int)t->len;
	parse_fail(p, t->loc, "expected %s, found '%.*s%s'", what, shown, t->text,
	           t->len > 40 ? "..." : "");
}

void *parse_alloc(struct parser *p, size_t size)
{
	void *mem = arena_alloc(p->arena, size);
	if (!mem)
		parse_fail(p, p->tok.loc, "out of memory");
	return mem;
}

void *vec_push(struct parser *p, struct vec *v, size_t elem_size)
{
	if (v->len == v->cap) {
		if (v->cap > UINT32_MAX / 4)
			parse_fail(p, p->tok.loc, "too many elements");
		uint32_t cap = v->cap ? v->cap * 2 : 4;
		void *data = parse_alloc(p, (size_t)cap * elem_size);
		if (v->len)
			memcpy(data, v->data, (size_t)v->len * elem_size);
		v->data = data;
		v->cap = cap;
	}
	return (char *)v->data + (size_t)v->len++ * elem_size;
}

void advance(struct parser *p)
{
	p->prev_end = p->tok.end;
	p->tok = lex_next(p);
}

bool accept(struct parser *p, enum tok_kind kind)
{
	if (p->tok.kind != kind)
		return false;
	advance(p);
	return true;
}

void expect(struct parser *p, enum tok_kind kind, const char *what)
{
	if (!accept(p, kind))
		parse_expected(p, what ? what : tok_kind_name(kind));
}

static bool tok_is(const struct token *t, const char *s)
{
	return strlen(s) == t->len && memcmp(t->text, s, t->len) == 0;
}

static bool at_directive(struct parser *p, const char *name)
{
	return p->tok.kind == TOK_DIRECTIVE && tok_is(&p->tok, name);
}

const char *tok_intern(struct parser *p, const struct token *t)
{
	const char *s = arena_intern(p->arena, t->text, t->len);
	if (!s)
		parse_fail(p, t->loc, "out of memory");
	return s;
}

/* The token after tok, without consuming anything. */
struct token peek(struct parser *p)
{
	struct lexer saved = p->lx;
	struct token t = lex_next(p);
	p->lx = saved;
	return t;
}

static uint32_t parse_u32(struct parser *p, const char *what)
{
	if (p->tok.kind != TOK_INT)
		parse_expected(p, what);
	if (p->tok.value > UINT32_MAX)
		parse_fail(p, p->tok.loc, "%s is too large", what);
	uint32_t v = (uint32_t)p->tok.value;
	advance(p);
	return v;
}

static const char *parse_name(struct parser *p, const char *what)
{
	if (p->tok.kind != TOK_IDENT)
		parse_expected(p, what);
	const char *name = tok_intern(p, &p->tok);
	advance(p);
	return name;
}

/* Strings of .pragma, kept with their quotes stripped but escapes as written. */
static void parse_pragma(struct parser *p, const char ***strings, uint32_t *count)
{
	struct vec v = { 0 };
	advance(p);
	do {
		if (p->tok.kind != TOK_STRING)
			parse_expected(p, "a string");
		struct token inner = p->tok;
		inner.text++;
		inner.len -= 2;
		*(const char **)vec_push(p, &v, sizeof(char *)) = tok_intern(p, &inner);
		advance(p);
	} while (accept(p, TOK_COMMA));
	expect(p, TOK_SEMI, "';'");
	*strings = v.data;
	*count = v.len;
}

static const struct {
	const char *name;
	enum ptx_space space;
} spaces[] = {
	{ ".reg", PTX_SPACE_REG }, { ".const", PTX_SPACE_CONST },
	{ ".global", PTX_SPACE_GLOBAL }, { ".local", PTX_SPACE_LOCAL },
	{ ".param", PTX_SPACE_PARAM }, { ".shared", PTX_SPACE_SHARED }, { ".tex", PTX_SPACE_TEX },
};

static const struct {
	const char *name;
	enum ptx_type type;
	uint8_t size;
} types[] = {
	{ ".b8", PTX_TYPE_B8, 1 }, { ".b16", PTX_TYPE_B16, 2 }, { ".b32", PTX_TYPE_B32, 4 },
	{ ".b64", PTX_TYPE_B64, 8 }, { ".b128", PTX_TYPE_B128, 16 },
	{ ".u8", PTX_TYPE_U8, 1 }, { ".u16", PTX_TYPE_U16, 2 }, { ".u32", PTX_TYPE_U32, 4 },
	{ ".u64", PTX_TYPE_U64, 8 }, { ".s8", PTX_TYPE_S8, 1 }, { ".s16", PTX_TYPE_S16, 2 },
	{ ".s32", PTX_TYPE_S32, 4 }, { ".s64", PTX_TYPE_S64, 8 },
	{ ".f16", PTX_TYPE_F16, 2 }, { ".f16x2", PTX_TYPE_F16X2, 4 },
	{ ".bf16", PTX_TYPE_BF16, 2 }, { ".bf16x2", PTX_TYPE_BF16X2, 4 },
	{ ".f32", PTX_TYPE_F32, 4 }, { ".f64", PTX_TYPE_F64, 8 }, { ".tf32", PTX_TYPE_TF32, 4 },
	{ ".pred", PTX_TYPE_PRED, 1 }, { ".texref", PTX_TYPE_TEXREF, 8 },
	{ ".samplerref", PTX_TYPE_SAMPLERREF, 8 }, { ".surfref", PTX_TYPE_SURFREF, 8 },
};

static enum ptx_space space_of(const struct token *t)
{
	if (t->kind == TOK_DIRECTIVE)
		for (size_t i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++)
			if (tok_is(t, spaces[i].name))
				return spaces[i].space;
	return PTX_SPACE_NONE;
}

static int type_index(const struct token *t)
{
	if (t->kind == TOK_DIRECTIVE)
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (tok_is(t, types[i].name))
				return (int)i;
	return -1;
}

const char *ptx_space_name(enum ptx_space space)
{
	for (size_t i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++)
		if (spaces[i].space == space)
			return spaces[i].name;
	return "";
}

enum ptx_type ptx_type_of_modifier(const char *mod)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(types[i].name + 1, mod) == 0)
			return types[i].type;
	return PTX_TYPE_NONE;
}

bool insn_has_mod(const struct ptx_insn *insn, const char *mod)
{
	for (uint32_t i = 0; i < insn->nmods; i++)
		if (strcmp(insn->mods[i], mod) == 0)
			return true;
	return false;
}

enum ptx_space insn_space_of(const struct ptx_insn *insn)
{
	static const struct { const char *mod; enum ptx_space space; } named[] = {
		{"global", PTX_SPACE_GLOBAL}, {"shared", PTX_SPACE_SHARED}, {"shared::cta", PTX_SPACE_SHARED},
		{"shared::cluster", PTX_SPACE_SHARED}, {"local", PTX_SPACE_LOCAL}, {"const", PTX_SPACE_CONST},
		{"param", PTX_SPACE_PARAM}, {"param::entry", PTX_SPACE_PARAM}, {"param::func", PTX_SPACE_PARAM},
	};

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (insn_has_mod(insn, named[i].mod))
			return named[i].space;
	return PTX_SPACE_NONE;
}

enum ptx_type insn_type(const struct ptx_insn *insn, int which)
{
	for (uint32_t i = 0; i < insn->nmods; i++) {
		enum ptx_type t = ptx_type_of_modifier(insn->mods[i]);

		if (t != PTX_TYPE_NONE && which-- == 0)
			return t;
	}
	return PTX_TYPE_NONE;
}

unsigned ptx_type_bits(enum ptx_type type)
{
	if (type == PTX_TYPE_PRED)
		return 1;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].type == type)
			return 8u * types[i].size;
	return 0;
}

const char *ptx_type_name(enum ptx_type type)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].type == type)
			return types[i].name;
	return "";
}

static uint32_t parse_align(struct parser *p)
{
	struct ptx_loc loc = p->tok.loc;
	uint32_t align = parse_u32(p, "an alignment");
	if (align == 0 || (align & (align - 1)) || align > PTX_MAX_ALIGN)
		parse_fail(p, loc, "alignment must be a power of two no larger than %d",
		           PTX_MAX_ALIGN);
	return align;
}

/* .attribute(.managed) and .attribute(.unified(hi, lo)) */
static void parse_attribute(struct parser *p, struct ptx_var *v)
{
	advance(p);
	expect(p, TOK_LPAREN, "'('");
	do {
		if (p->tok.kind != TOK_DIRECTIVE)
			parse_expected(p, "an attribute");
		if (at_directive(p, ".managed"))
			v->managed = true;
		advance(p);
		if (accept(p, TOK_LPAREN)) {
			do
				parse_const_expr(p);
			while (accept(p, TOK_COMMA));
			expect(p, TOK_RPAREN, "')'");
		}
	} while (accept(p, TOK_COMMA));
	expect(p, TOK_RPAREN, "')'");
}

/* Everything between the state space and the name: .align, .vN, the type, .ptr, .attribute. */
static void parse_var_attrs(struct parser *p, struct ptx_var *v)
{
	int type = -1;
	while (p->tok.kind == TOK_DIRECTIVE) {
		int t = type_index(&p->tok);
		if (t >= 0) {
			if (type >= 0)
				parse_fail(p, p->tok.loc, "a variable has only one type");
			type = t;
			advance(p);
		} else if (at_directive(p, ".align")) {
			advance(p);
			v->align = parse_align(p);
		} else if (at_directive(p, ".v2") || at_directive(p, ".v4") || at_directive(p, ".v8")) {
			if (v->vector)
				parse_fail(p, p->tok.loc, "a variable has only one vector size");
			v->vector = (uint8_t)(p->tok.text[2] - '0');
			advance(p);
		} else if (at_directive(p, ".ptr")) {
			v->is_ptr = true;
			advance(p);
			if (space_of(&p->tok) != PTX_SPACE_NONE) {
				v->ptr_space = space_of(&p->tok);
				advance(p);
			}
			if (at_directive(p, ".align")) {
				advance(p);
				v->ptr_align = parse_align(p);
			}
		} else if (at_directive(p, ".attribute")) {
			parse_attribute(p, v);
		} else {
			break;
		}
	}
	if (type < 0)
		parse_expected(p, "a type");
	v->type = types[type].type;
}

static uint64_t type_size(enum ptx_type type)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].type == type)
			return types[i].size;
	return 1;
}

/* name, %r<N>, [dims], = initializer */
static void parse_declarator(struct parser *p, struct ptx_var *v, bool allow_init)
{
	v->loc = p->tok.loc;
	v->name = parse_name(p, "a variable name");
	if (accept(p, TOK_LT)) {
		struct ptx_loc loc = p->tok.loc;
		if (p->tok.kind != TOK_INT)
			parse_expected(p, "a register count");
		if (p->tok.value == 0 || p->tok.value > PTX_MAX_REG_COUNT)
			parse_fail(p, loc, "register count %llu is outside 1..%d",
			           (unsigned long long)p->tok.value, PTX_MAX_REG_COUNT);
		v->reg_count = (uint32_t)p->tok.value;
		advance(p);
		expect(p, TOK_GT, "'>'");
	}
	uint64_t dims[PTX_MAX_ARRAY_DIMS];
	uint64_t bytes = type_size(v->type) * (v->vector ? v->vector : 1);
	struct ptx_loc array_loc = p->tok.loc;
	while (p->tok.kind == TOK_LBRACKET) {
		if (v->ndims == PTX_MAX_ARRAY_DIMS)
			parse_fail(p, p->tok.loc, "an array has at most %d dimensions",
			           PTX_MAX_ARRAY_DIMS);
		advance(p);
		uint64_t dim = 0;
		if (p->tok.kind != TOK_RBRACKET) {
			struct ptx_loc loc = p->tok.loc;
			int64_t n = parse_const_expr(p);
			if (n <= 0)
				parse_fail(p, loc, "array size must be positive");
			dim = (uint64_t)n;
		}
		expect(p, TOK_RBRACKET, "']'");
		if (dim && bytes > PTX_MAX_ARRAY_BYTES / dim)
			parse_fail(p, array_loc, "array is larger than the limit of %llu bytes",
			           (unsigned long long)PTX_MAX_ARRAY_BYTES);
		bytes *= dim ? dim : 1;
		dims[v->ndims++] = dim;
	}
	if (v->ndims) {
		v->dims = parse_alloc(p, sizeof(uint64_t) * v->ndims);
		memcpy(v->dims, dims, sizeof(uint64_t) * v->ndims);
	}
	if (p->tok.kind == TOK_EQUALS) {
		if (!allow_init)
			parse_fail(p, p->tok.loc, "an initializer is not allowed here");
		advance(p);
		v->init = parse_initializer(p, 0);
	}
}

/* The attributes shared by every name of one declaration, which tok is past the space of. */
static struct ptx_var parse_var_prototype(struct parser *p, enum ptx_space space, unsigned linkage)
{
	struct ptx_var proto = { .space = space, .linkage = linkage };
	parse_var_attrs(p, &proto);
	return proto;
}

/* One entry of a parameter or return list: .param or .reg, attributes, one declarator. */
static void parse_param(struct parser *p, struct ptx_var *v)
{
	enum ptx_space space = space_of(&p->tok);
	if (space != PTX_SPACE_PARAM && space != PTX_SPACE_REG)
		parse_expected(p, "'.param' or '.reg'");
	advance(p);
	*v = parse_var_prototype(p, space, 0);
	parse_declarator(p, v, false);
}

static void parse_param_list(struct parser *p, struct ptx_var **params, uint32_t *count)
{
	struct vec v = { 0 };
	expect(p, TOK_LPAREN, "'('");
	if (p->tok.kind != TOK_RPAREN) {
		do
			parse_param(p, vec_push(p, &v, sizeof(struct ptx_var)));
		while (accept(p, TOK_COMMA));
	}
	expect(p, TOK_RPAREN, "')'");
	*params = v.data;
	*count = v.len;
}

static void parse_dims3(struct parser *p, uint32_t dims[3], const char *what)
{
	dims[0] = parse_u32(p, what);
	dims[1] = dims[2] = 1;
	if (accept(p, TOK_COMMA)) {
		dims[1] = parse_u32(p, what);
		if (accept(p, TOK_COMMA))
			dims[2] = parse_u32(p, what);
	}
}

/* Performance-tuning directives between a function's signature and its body. */
static bool parse_func_attr(struct parser *p, struct ptx_func_attrs *a)
{
	if (p->tok.kind != TOK_DIRECTIVE)
		return false;
	const struct token t = p->tok;
	if (tok_is(&t, ".maxntid")) {
		advance(p);
		parse_dims3(p, a->maxntid, "a thread count");
	} else if (tok_is(&t, ".reqntid")) {
		advance(p);
		parse_dims3(p, a->reqntid, "a thread count");
	} else if (tok_is(&t, ".reqnctapercluster")) {
		advance(p);
		parse_dims3(p, a->reqnctapercluster, "a block count");
	} else if (tok_is(&t, ".minnctapersm")) {
		advance(p);
		a->minnctapersm = parse_u32(p, "a block count");
	} else if (tok_is(&t, ".maxnctapersm")) {
		/* Deprecated in PTX 2.1 and ignored by ptxas; accepted for old modules. */
		advance(p);
		parse_u32(p, "a block count");
	} else if (tok_is(&t, ".maxnreg")) {
		advance(p);
		a->maxnreg = parse_u32(p, "a register count");
	} else if (tok_is(&t, ".maxclusterrank")) {
		advance(p);
		a->maxclusterrank = parse_u32(p, "a block count");
	} else if (tok_is(&t, ".noreturn")) {
		advance(p);
		a->noreturn = true;
	} else if (tok_is(&t, ".explicitcluster")) {
		advance(p);
		a->explicitcluster = true;
	} else {
		return false;
	}
	return true;
}

/* .loc file line col [, function_name label[+off]] [, inlined_at file line col] */
static void parse_loc(struct parser *p)
{
	advance(p);
	struct ptx_debug_loc d;
	d.file = parse_u32(p, "a file number");
	d.line = parse_u32(p, "a line number");
	d.col = parse_u32(p, "a column number");
	while (accept(p, TOK_COMMA)) {
		if (p->tok.kind == TOK_IDENT && tok_is(&p->tok, "function_name")) {
			advance(p);
			parse_name(p, "a label");
			if (accept(p, TOK_PLUS))
				parse_const_expr(p);
		} else if (p->tok.kind == TOK_IDENT && tok_is(&p->tok, "inlined_at")) {
			advance(p);
			parse_u32(p, "a file number");
			parse_u32(p, "a line number");
			parse_u32(p, "a column number");
		} else {
			parse_expected(p, "'function_name' or 'inlined_at'");
		}
	}
	p->debug = d;
}

static struct ptx_stmt *new_stmt(struct parser *p, enum ptx_stmt_kind kind, struct ptx_loc loc)
{
	struct ptx_stmt *s = parse_alloc(p, sizeof(*s));
	s->kind = kind;
	s->loc = loc;
	return s;
}

static struct ptx_stmt *parse_block(struct parser *p, int depth);

/* "name:" starts a code label, or names a jump table or a call prototype. */
static struct ptx_stmt *parse_labelled(struct parser *p)
{
	struct ptx_loc loc = p->tok.loc;
	const char *label = parse_name(p, "a label");
	advance(p);
	struct ptx_stmt *s;
	if (at_directive(p, ".branchtargets")) {
		advance(p);
		s = new_stmt(p, PTX_STMT_BRANCHTARGETS, loc);
		struct vec v = { 0 };
		do
			*(const char **)vec_push(p, &v, sizeof(char *)) = parse_name(p, "a label");
		while (accept(p, TOK_COMMA));
		s->u.branchtargets.label = label;
		s->u.branchtargets.targets = v.data;
		s->u.branchtargets.count = v.len;
	} else if (at_directive(p, ".callprototype")) {
		advance(p);
		s = new_stmt(p, PTX_STMT_CALLPROTOTYPE, loc);
		struct ptx_signature *sig = &s->u.callprototype.sig;
		if (p->tok.kind == TOK_LPAREN)
			parse_param_list(p, &sig->rets, &sig->nrets);
		if (p->tok.kind != TOK_IDENT || !tok_is(&p->tok, "_"))
			parse_expected(p, "'_'");
		advance(p);
		parse_param_list(p, &sig->params, &sig->nparams);
		sig->has_params = true;
		s->u.callprototype.label = label;
		s->u.callprototype.noreturn = at_directive(p, ".noreturn");
		if (s->u.callprototype.noreturn)
			advance(p);
	} else {
		s = new_stmt(p, PTX_STMT_LABEL, loc);
		s->u.label = label;
		return s;
	}
	expect(p, TOK_SEMI, "';'");
	return s;
}

static void parse_statement(struct parser *p, int depth, struct ptx_stmt ***tail)
{
	struct ptx_loc loc = p->tok.loc;
	struct ptx_stmt *s;
	enum ptx_space space = space_of(&p->tok);
	if (p->tok.kind == TOK_LBRACE) {
		s = new_stmt(p, PTX_STMT_BLOCK, loc);
		s->u.block = parse_block(p, depth + 1);
	} else if (space != PTX_SPACE_NONE) {
		advance(p);
		struct ptx_var proto = parse_var_prototype(p, space, 0);
		for (;;) {
			s = new_stmt(p, PTX_STMT_VAR, loc);
			s->u.var = proto;
			parse_declarator(p, &s->u.var, true);
			if (!accept(p, TOK_COMMA))
				break;
			**tail = s;
			*tail = &s->next;
		}
		expect(p, TOK_SEMI, "';'");
	} else if (at_directive(p, ".pragma")) {
		s = new_stmt(p, PTX_STMT_PRAGMA, loc);
		parse_pragma(p, &s->u.pragma.strings, &s->u.pragma.count);
	} else if (at_directive(p, ".loc")) {
		parse_loc(p);
		return;
	} else if (p->tok.kind == TOK_DIRECTIVE) {
		parse_fail(p, loc, "unexpected directive '%.*s' in a function body",
		           (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.text);
	} else if (p->tok.kind == TOK_IDENT && peek(p).kind == TOK_COLON) {
		s = parse_labelled(p);
	} else if (p->tok.kind == TOK_IDENT || p->tok.kind == TOK_AT) {
		s = new_stmt(p, PTX_STMT_INSN, loc);
		parse_instruction(p, s);
	} else {
		parse_expected(p, "an instruction, a label or a directive");
	}
	**tail = s;
	*tail = &s->next;
}

/* tok is the '{'. Blocks nest (nvcc wraps call sequences in them), so depth is bounded. */
static struct ptx_stmt *parse_block(struct parser *p, int depth)
{
	struct ptx_loc open = p->tok.loc;
	if (depth > PTX_MAX_NESTING)
		parse_fail(p, open, "blocks are nested more than %d deep", PTX_MAX_NESTING);
	advance(p);
	struct ptx_stmt *first = NULL, **tail = &first;
	while (!accept(p, TOK_RBRACE)) {
		if (p->tok.kind == TOK_EOF)
			parse_fail(p, p->prev_end,
			           "expected '}' before end of file, to close the '{' at line %u",
			           open.line);
		parse_statement(p, depth, &tail);
	}
	return first;
}

/* tok is .entry or .func */
static void parse_function(struct parser *p, struct ptx_func *f, unsigned linkage)
{
	f->is_entry = at_directive(p, ".entry");
	f->linkage = linkage;
	advance(p);
	if (!f->is_entry && p->tok.kind == TOK_LPAREN)
		parse_param_list(p, &f->sig.rets, &f->sig.nrets);
	f->loc = p->tok.loc;
	f->name = parse_name(p, "a function name");
	if (p->tok.kind == TOK_LPAREN) {
		parse_param_list(p, &f->sig.params, &f->sig.nparams);
		f->sig.has_params = true;
	}
	while (parse_func_attr(p, &f->attrs))
		;
	if (accept(p, TOK_SEMI))
		return;
	if (p->tok.kind != TOK_LBRACE)
		parse_expected(p, "'{' or ';'");
	f->has_body = true;
	p->debug = (struct ptx_debug_loc){ 0 };
	f->body = parse_block(p, 1);
}

/* .section name { ... }: DWARF data nvcc writes for -G; the tokens are skipped. */
static void skip_section(struct parser *p)
{
	struct ptx_loc loc = p->tok.loc;
	advance(p);
	if (p->tok.kind != TOK_DIRECTIVE && p->tok.kind != TOK_IDENT && p->tok.kind != TOK_STRING)
		parse_expected(p, "a section name");
	advance(p);
	if (p->tok.kind != TOK_LBRACE)
		parse_expected(p, "'{'");
	uint64_t depth = 0;
	do {
		if (p->tok.kind == TOK_EOF)
			parse_fail(p, loc, "unterminated .section");
		depth += p->tok.kind == TOK_LBRACE;
		depth -= p->tok.kind == TOK_RBRACE;
		advance(p);
	} while (depth);
}

/* .file N "name" [, timestamp, size] */
static void parse_file(struct parser *p)
{
	advance(p);
	struct ptx_loc loc = p->tok.loc;
	uint32_t index = parse_u32(p, "a file number");
	if (index > PTX_MAX_FILE_INDEX)
		parse_fail(p, loc, "file number is larger than %d", PTX_MAX_FILE_INDEX);
	if (p->tok.kind != TOK_STRING)
		parse_expected(p, "a file name");
	struct token inner = p->tok;
	inner.text++;
	inner.len -= 2;
	const char *name = tok_intern(p, &inner);
	advance(p);
	while (accept(p, TOK_COMMA))
		parse_const_expr(p);
	struct ptx_module *m = p->module;
	if (index >= m->nfiles) {
		uint32_t n = index + 1 > m->nfiles * 2 ? index + 1 : m->nfiles * 2;
		const char **files = parse_alloc(p, sizeof(char *) * n);
		if (m->nfiles)
			memcpy(files, m->files, sizeof(char *) * m->nfiles);
		m->files = files;
		m->nfiles = n;
	}
	m->files[index] = name;
}

static void parse_version(struct parser *p)
{
	struct ptx_module *m = p->module;
	advance(p);
	const struct token *t = &p->tok;
	uint32_t part[2] = { 0, 0 }, n = 0, i = 0;
	for (; t->kind == TOK_F64 && i < t->len && t->len <= 9; i++) {
		char c = t->text[i];
		if (c == '.' && n == 0 && i > 0)
			n = 1;
		else if (c >= '0' && c <= '9')
			part[n] = part[n] * 10 + (uint32_t)(c - '0');
		else
			break;
	}
	if (n != 1 || i != t->len || t->text[t->len - 1] == '.')
		parse_expected(p, "a version number such as 9.0");
	m->version_major = part[0];
	m->version_minor = part[1];
	advance(p);
}

static void parse_target(struct parser *p)
{
	struct vec v = { 0 };
	advance(p);
	do
		*(const char **)vec_push(p, &v, sizeof(char *)) = parse_name(p, "a target name");
	while (accept(p, TOK_COMMA));
	p->module->targets = v.data;
	p->module->ntargets = v.len;
}

static struct ptx_item *new_item(struct parser *p, enum ptx_item_kind kind, struct ptx_loc loc)
{
	struct ptx_item *it = parse_alloc(p, sizeof(*it));
	it->kind = kind;
	it->loc = loc;
	return it;
}

static const struct {
	const char *name;
	unsigned flag;
} linkages[] = {
	{ ".visible", PTX_LINK_VISIBLE }, { ".extern", PTX_LINK_EXTERN },
	{ ".weak", PTX_LINK_WEAK }, { ".common", PTX_LINK_COMMON },
};

static unsigned parse_linkage(struct parser *p)
{
	unsigned linkage = 0;
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < sizeof(linkages) / sizeof(linkages[0]); i++) {
			if (at_directive(p, linkages[i].name)) {
				linkage |= linkages[i].flag;
				advance(p);
				more = true;
			}
		}
	}
	return linkage;
}

static void parse_module_item(struct parser *p, struct ptx_item ***tail)
{
	struct ptx_loc loc = p->tok.loc;
	struct ptx_item *it = NULL;
	unsigned linkage = parse_linkage(p);
	enum ptx_space space = space_of(&p->tok);
	if (at_directive(p, ".entry") || at_directive(p, ".func")) {
		it = new_item(p, PTX_ITEM_FUNC, loc);
		parse_function(p, &it->u.func, linkage);
	} else if (space != PTX_SPACE_NONE && space != PTX_SPACE_REG && space != PTX_SPACE_PARAM) {
		advance(p);
		struct ptx_var proto = parse_var_prototype(p, space, linkage);
		for (;;) {
			it = new_item(p, PTX_ITEM_VAR, loc);
			it->u.var = proto;
			parse_declarator(p, &it->u.var, true);
			if (!accept(p, TOK_COMMA))
				break;
			**tail = it;
			*tail = &it->next;
		}
		expect(p, TOK_SEMI, "';'");
	} else if (linkage) {
		parse_expected(p, "a function or variable declaration");
	} else if (at_directive(p, ".version")) {
		parse_fail(p, loc, "'.version' must come first and only once");
	} else if (at_directive(p, ".target")) {
		parse_target(p);
	} else if (at_directive(p, ".address_size")) {
		advance(p);
		struct ptx_loc size_loc = p->tok.loc;
		p->module->address_size = parse_u32(p, "an address size");
		if (p->module->address_size != 32 && p->module->address_size != 64)
			parse_fail(p, size_loc, "address size must be 32 or 64");
	} else if (at_directive(p, ".file")) {
		parse_file(p);
	} else if (at_directive(p, ".section")) {
		skip_section(p);
	} else if (at_directive(p, ".loc")) {
		parse_loc(p);
	} else if (at_directive(p, ".pragma")) {
		it = new_item(p, PTX_ITEM_PRAGMA, loc);
		parse_pragma(p, &it->u.pragma.strings, &it->u.pragma.count);
	} else if (at_directive(p, ".alias")) {
		advance(p);
		it = new_item(p, PTX_ITEM_ALIAS, loc);
		it->u.alias.alias = parse_name(p, "a function name");
		expect(p, TOK_COMMA, "','");
		it->u.alias.target = parse_name(p, "a function name");
		expect(p, TOK_SEMI, "';'");
	} else if (p->tok.kind == TOK_DIRECTIVE) {
		parse_fail(p, loc, "unknown directive '%.*s'",
		           (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.text);
	} else {
		parse_expected(p, "a directive");
	}
	if (it) {
		**tail = it;
		*tail = &it->next;
	}
}

static void parse_module(struct parser *p)
{
	advance(p);
	if (!at_directive(p, ".version"))
		parse_fail(p, p->tok.loc, "a module must start with a .version directive");
	parse_version(p);
	struct ptx_item **tail = &p->module->items;
	while (p->tok.kind != TOK_EOF)
		parse_module_item(p, &tail);
}

struct ptx_module *ptx_parse(const char *file, const char *text, size_t len,
                             struct ptx_diag *diag)
{
	struct ptx_arena *arena = arena_new();
	struct ptx_module *module = arena ? arena_alloc(arena, sizeof(*module)) : NULL;
	struct parser *p = module ? arena_alloc(arena, sizeof(*p)) : NULL;
	if (!p) {
		arena_free(arena);
		*diag = (struct ptx_diag){ .file = file, .loc = { 1, 1 } };
		set_message(diag, "out of memory");
		return NULL;
	}
	p->file = file;
	p->diag = diag;
	p->arena = arena;
	p->module = module;
	p->prev_end = (struct ptx_loc){ 1, 1 };
	module->arena = arena;
	lex_init(&p->lx, text, len);
	if (setjmp(p->fail)) {
		arena_free(arena);
		return NULL;
	}
	module->file = arena_intern(arena, file, strlen(file));
	parse_module(p);
	return module;
}

void ptx_module_free(struct ptx_module *module)
{
	if (module)
		arena_free(module->arena);
}
