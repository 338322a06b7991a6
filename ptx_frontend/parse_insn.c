/* Instructions, operands, initializers and constant expressions. Instruction syntax is
 * uniform in PTX (guard, opcode, dotted modifiers, operands), so no opcode table drives
 * the parser: an instruction it has never heard of parses all the same. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int binary_precedence(enum tok_kind kind)
{
	switch (kind) {
	case TOK_STAR: case TOK_SLASH: case TOK_PERCENT: return 5;
	case TOK_PLUS: case TOK_MINUS: return 4;
	case TOK_SHL: case TOK_SHR: return 3;
	case TOK_AMP: return 2;
	case TOK_CARET: return 1;
	case TOK_PIPE: return 0;
	default: return -1;
	}
}

static int64_t parse_binary(struct parser *p, int min_precedence, int depth);

static void check_depth(struct parser *p, int depth)
{
	if (depth > PTX_MAX_NESTING)
		parse_fail(p, p->tok.loc, "expression is nested more than %d deep", PTX_MAX_NESTING);
}

/* Arithmetic is done on uint64_t so that overflow wraps, as 64-bit PTX constants do,
 * instead of being undefined. */
static int64_t parse_unary(struct parser *p, int depth)
{
	check_depth(p, depth);
	struct token t = p->tok;
	switch (t.kind) {
	case TOK_MINUS:
		advance(p);
		return (int64_t)(0 - (uint64_t)parse_unary(p, depth + 1));
	case TOK_TILDE:
		advance(p);
		return (int64_t)~(uint64_t)parse_unary(p, depth + 1);
	case TOK_BANG:
		advance(p);
		return !parse_unary(p, depth + 1);
	case TOK_LPAREN: {
		advance(p);
		int64_t v = parse_binary(p, 0, depth + 1);
		expect(p, TOK_RPAREN, "')'");
		return v;
	}
	case TOK_INT:
		advance(p);
		return (int64_t)t.value;
	case TOK_F32:
	case TOK_F64:
		parse_fail(p, t.loc, "a floating-point constant is not allowed in an integer expression");
	default:
		parse_expected(p, "a constant");
	}
}

static int64_t apply_binary(struct parser *p, struct token op, int64_t a, int64_t b)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (op.kind) {
	case TOK_STAR: return (int64_t)(ua * ub);
	case TOK_PLUS: return (int64_t)(ua + ub);
	case TOK_MINUS: return (int64_t)(ua - ub);
	case TOK_AMP: return a & b;
	case TOK_CARET: return a ^ b;
	case TOK_PIPE: return a | b;
	case TOK_SLASH:
	case TOK_PERCENT:
		if (b == 0)
			parse_fail(p, op.loc, "division by zero in a constant expression");
		if (a == INT64_MIN && b == -1)
			return op.kind == TOK_SLASH ? a : 0;
		return op.kind == TOK_SLASH ? a / b : a % b;
	case TOK_SHL:
	case TOK_SHR:
		if (ub > 63)
			parse_fail(p, op.loc, "shift count %lld is outside 0..63", (long long)b);
		if (op.kind == TOK_SHL)
			return (int64_t)(ua << ub);
		/* Arithmetic shift written without relying on implementation-defined >> of negatives. */
		return a >= 0 ? (int64_t)(ua >> ub) : (int64_t)~(~ua >> ub);
	default:
		return 0;
	}
}

static int64_t parse_binary(struct parser *p, int min_precedence, int depth)
{
	check_depth(p, depth);
	int64_t lhs = parse_unary(p, depth);
	for (;;) {
		struct token op = p->tok;
		int precedence = binary_precedence(op.kind);
		if (precedence < min_precedence)
			return lhs;
		advance(p);
		int64_t rhs = parse_binary(p, precedence + 1, depth + 1);
		lhs = apply_binary(p, op, lhs, rhs);
	}
}

int64_t parse_const_expr(struct parser *p)
{
	return parse_binary(p, 0, 0);
}

/* Adds the terms of sym+4, [%rd1+-8], sym-4+2 to a name operand. */
static void parse_offset(struct parser *p, struct ptx_operand *op)
{
	uint64_t offset = 0;
	while (p->tok.kind == TOK_PLUS || p->tok.kind == TOK_MINUS) {
		bool minus = p->tok.kind == TOK_MINUS;
		advance(p);
		uint64_t term = (uint64_t)parse_binary(p, binary_precedence(TOK_PLUS) + 1, 1);
		offset = minus ? offset - term : offset + term;
	}
	op->offset = (int64_t)offset;
}

static char component_of(const struct token *t)
{
	static const char names[] = "xyzwrgba";
	if (t->len != 2)
		return 0;
	const char *c = memchr(names, t->text[1], 8);
	return c ? names[(c - names) % 4] : 0;
}

/* .b0 .h1 .h10 .b3210 ...: bytes numbered 0-7 or half-words 0-3 of a video operand pair. */
static bool is_lane_selector(const struct token *t)
{
	size_t digits = t->len - 2;
	char last = t->text[1] == 'h' ? '3' : '7';

	if (t->len < 3 || (t->text[1] != 'h' && t->text[1] != 'b') || digits > (t->text[1] == 'h' ? 2u : 4u))
		return false;
	for (size_t i = 2; i < t->len; i++)
		if (t->text[i] < '0' || t->text[i] > last)
			return false;
	return true;
}

static struct ptx_operand parse_name_operand(struct parser *p)
{
	struct ptx_operand op = { .kind = PTX_OP_NAME, .loc = p->tok.loc };
	if (p->tok.kind != TOK_IDENT)
		parse_expected(p, "an operand");
	if (p->tok.len == 1 && p->tok.text[0] == '_') {
		advance(p);
		op.kind = PTX_OP_SINK;
		return op;
	}
	op.name = tok_intern(p, &p->tok);
	advance(p);
	if (p->tok.kind == TOK_LPAREN && strcmp(op.name, "generic") == 0) {
		advance(p);
		op.loc = p->tok.loc;
		if (p->tok.kind != TOK_IDENT)
			parse_expected(p, "a variable name");
		op.name = tok_intern(p, &p->tok);
		op.generic = true;
		advance(p);
		expect(p, TOK_RPAREN, "')'");
	}
	/* %tid.x, %r1.h10: the component or lane selector is written right after the name; a
	 * directive after a space belongs to the next statement and means a ';' is missing. */
	if (p->tok.kind == TOK_DIRECTIVE && p->tok.loc.line == p->prev_end.line &&
	    p->tok.loc.col == p->prev_end.col) {
		op.component = component_of(&p->tok);
		if (!op.component && is_lane_selector(&p->tok)) {
			struct token name = p->tok;
			name.text++, name.len--;
			op.selector = tok_intern(p, &name);
		} else if (!op.component) {
			parse_fail(p, p->tok.loc, "expected a vector component .x, .y, .z or .w, or a "
			           "video lane selector such as .b0, .h10 or .b3210");
		}
		advance(p);
	}
	parse_offset(p, &op);
	return op;
}

/* A name, a number or a constant expression: what vectors, lists and addresses hold. */
static struct ptx_operand parse_simple_operand(struct parser *p)
{
	struct ptx_operand op = { .loc = p->tok.loc };
	struct token t = p->tok;
	bool negative_float = false;
	if (t.kind == TOK_MINUS) {
		struct token next = peek(p);
		/* vmad's negated operands: -%r1 */
		if (next.kind == TOK_IDENT && next.text[0] == '%') {
			advance(p);
			op = parse_name_operand(p);
			op.minus = true;
			op.loc = t.loc;
			return op;
		}
		negative_float = next.kind == TOK_F32 || next.kind == TOK_F64;
		if (negative_float) {
			advance(p);
			t = p->tok;
		}
	}
	switch (t.kind) {
	case TOK_BANG:
		advance(p);
		op = parse_name_operand(p);
		if (op.kind != PTX_OP_NAME)
			parse_fail(p, op.loc, "'_' cannot be negated");
		op.negated = true;
		op.loc = t.loc;
		return op;
	case TOK_IDENT:
		return parse_name_operand(p);
	case TOK_F32:
	case TOK_F64:
		advance(p);
		op.kind = t.kind == TOK_F32 ? PTX_OP_F32 : PTX_OP_F64;
		op.bits = t.value;
		if (negative_float)
			op.bits ^= op.kind == PTX_OP_F32 ? (uint64_t)1 << 31 : (uint64_t)1 << 63;
		return op;
	case TOK_INT: case TOK_MINUS: case TOK_TILDE: case TOK_LPAREN:
		op.kind = PTX_OP_INT;
		op.bits = (uint64_t)parse_const_expr(p);
		return op;
	default:
		parse_expected(p, "an operand");
	}
}

static void parse_items(struct parser *p, struct ptx_operand *op, enum tok_kind close,
                        const char *what, struct ptx_operand (*item)(struct parser *))
{
	struct vec v = { 0 };
	struct ptx_loc open = p->tok.loc;
	advance(p);
	if (p->tok.kind != close) {
		do
			*(struct ptx_operand *)vec_push(p, &v, sizeof(struct ptx_operand)) = item(p);
		while (accept(p, TOK_COMMA));
	}
	if (p->tok.kind != close)
		parse_expected(p, what);
	advance(p);
	if (v.len == 0 && close != TOK_RPAREN)
		parse_fail(p, open, "empty %s", close == TOK_RBRACE ? "vector" : "address");
	op->items = v.data;
	op->count = v.len;
}

static struct ptx_operand parse_vector(struct parser *p)
{
	struct ptx_operand op = { .kind = PTX_OP_BRACES, .loc = p->tok.loc };
	parse_items(p, &op, TOK_RBRACE, "'}'", parse_simple_operand);
	return op;
}

/* [addr], [addr+off], and the [texture, {coordinates}] form. */
static struct ptx_operand parse_address_part(struct parser *p)
{
	return p->tok.kind == TOK_LBRACE ? parse_vector(p) : parse_simple_operand(p);
}

static struct ptx_operand parse_operand(struct parser *p, bool in_call)
{
	struct ptx_operand op = { .loc = p->tok.loc };
	switch (p->tok.kind) {
	case TOK_LBRACE:
		return parse_vector(p);
	case TOK_LBRACKET:
		op.kind = PTX_OP_MEMORY;
		parse_items(p, &op, TOK_RBRACKET, "']'", parse_address_part);
		return op;
	case TOK_LPAREN:
		if (!in_call)
			break;
		op.kind = PTX_OP_LIST;
		parse_items(p, &op, TOK_RPAREN, "')'", parse_simple_operand);
		return op;
	default:
		break;
	}
	op = parse_simple_operand(p);
	if ((op.kind == PTX_OP_NAME || op.kind == PTX_OP_SINK) && p->tok.kind == TOK_PIPE) {
		advance(p);
		struct ptx_operand *pair = parse_alloc(p, 2 * sizeof(*pair));
		pair[0] = op;
		pair[1] = parse_name_operand(p);
		op = (struct ptx_operand){ .kind = PTX_OP_PAIR, .loc = op.loc, .items = pair,
		                           .count = 2 };
	}
	return op;
}

struct ptx_operand *parse_initializer(struct parser *p, int depth)
{
	if (depth >= PTX_MAX_NESTING)
		parse_fail(p, p->tok.loc, "initializer is nested more than %d deep", PTX_MAX_NESTING);
	struct ptx_operand *op = parse_alloc(p, sizeof(*op));
	op->loc = p->tok.loc;
	if (p->tok.kind == TOK_LBRACE) {
		struct vec v = { 0 };
		op->kind = PTX_OP_BRACES;
		advance(p);
		if (p->tok.kind != TOK_RBRACE) {
			do {
				struct ptx_operand *item = parse_initializer(p, depth + 1);
				*(struct ptx_operand *)vec_push(p, &v, sizeof(*item)) = *item;
			} while (accept(p, TOK_COMMA));
		}
		expect(p, TOK_RBRACE, "'}'");
		op->items = v.data;
		op->count = v.len;
		return op;
	}
	if (p->tok.kind == TOK_IDENT && peek(p).kind == TOK_EQUALS) {
		/* filter_mode = nearest, in .samplerref initializers */
		op->kind = PTX_OP_FIELD;
		op->name = tok_intern(p, &p->tok);
		advance(p);
		advance(p);
		op->items = parse_initializer(p, depth + 1);
		op->count = 1;
		return op;
	}
	*op = parse_simple_operand(p);
	return op;
}

void parse_instruction(struct parser *p, struct ptx_stmt *s)
{
	struct ptx_insn *insn = &s->u.insn;
	if (accept(p, TOK_AT)) {
		insn->guard_negated = accept(p, TOK_BANG);
		if (p->tok.kind != TOK_IDENT)
			parse_expected(p, "a predicate");
		insn->guard = tok_intern(p, &p->tok);
		advance(p);
	}
	if (p->tok.kind != TOK_IDENT)
		parse_expected(p, "an instruction");
	insn->opcode = tok_intern(p, &p->tok);
	advance(p);
	struct vec mods = { 0 };
	while (p->tok.kind == TOK_DIRECTIVE) {
		struct token m = p->tok;
		m.text++;
		m.len--;
		*(const char **)vec_push(p, &mods, sizeof(char *)) = tok_intern(p, &m);
		advance(p);
	}
	insn->mods = mods.data;
	insn->nmods = mods.len;
	bool in_call = strcmp(insn->opcode, "call") == 0;
	struct vec ops = { 0 };
	if (p->tok.kind != TOK_SEMI) {
		do
			*(struct ptx_operand *)vec_push(p, &ops, sizeof(struct ptx_operand)) =
				parse_operand(p, in_call);
		while (accept(p, TOK_COMMA));
	}
	expect(p, TOK_SEMI, "';'");
	insn->ops = ops.data;
	insn->nops = ops.len;
	insn->debug = p->debug;
}

/* The instructions of PTX ISA 9.0, by opcode (modifiers aside), sorted for bsearch. */
static const char *const known_opcodes[] = {
	"abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar",
	"barrier", "bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call",
	"clusterlaunchcontrol", "clz", "cnot", "copysign", "cos", "cp", "createpolicy", "cvt",
	"cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence", "fma", "fns",
	"getctarank", "griddepcontrol", "isspacep", "istypeof", "ld", "ldmatrix", "ldu", "lg2",
	"lop3", "mad", "mad24", "madc", "mapa", "match", "max", "mbarrier", "membar", "min",
	"mma", "mov", "movmatrix", "mul", "mul24", "multimem", "nanosleep", "neg", "not", "or",
	"pmevent", "popc", "prefetch", "prefetchu", "prmt", "rcp", "red", "redux", "rem", "ret",
	"rsqrt", "sad", "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin",
	"slct", "sqrt", "st", "stackrestore", "stacksave", "stmatrix", "sub", "subc", "suld",
	"suq", "sured", "sust", "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4",
	"trap", "txq", "vabsdiff", "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2",
	"vavrg4", "vmad", "vmax", "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset",
	"vset2", "vset4", "vshl", "vshr", "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor",
};

static int compare_opcode(const void *key, const void *entry)
{
	return strcmp(key, *(const char *const *)entry);
}

bool ptx_opcode_is_known(const char *opcode)
{
	return bsearch(opcode, known_opcodes, sizeof(known_opcodes) / sizeof(known_opcodes[0]),
	               sizeof(known_opcodes[0]), compare_opcode) != NULL;
}
