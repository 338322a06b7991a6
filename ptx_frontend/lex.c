/* The PTX lexer: turns bytes into tokens on demand, so memory does not grow with the
 * token count. Comments, whitespace and @@DWARF lines are skipped here. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void lex_init(struct lexer *lx, const char *text, size_t len)
{
	lx->cur = text;
	lx->end = text + len;
	lx->line_start = text;
	lx->line = 1;
}

static struct ptx_loc here(const struct lexer *lx)
{
	return (struct ptx_loc){ lx->line, (uint32_t)(lx->cur - lx->line_start) + 1 };
}

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void newline(struct lexer *lx)
{
	lx->cur++;
	lx->line++;
	lx->line_start = lx->cur;
}

static bool starts_with(const struct lexer *lx, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(lx->end - lx->cur) >= n && memcmp(lx->cur, s, n) == 0;
}

static void skip_to_line_end(struct lexer *lx)
{
	const char *nl = memchr(lx->cur, '\n', (size_t)(lx->end - lx->cur));
	lx->cur = nl ? nl : lx->end;
}

static void skip_space_and_comments(struct parser *p)
{
	struct lexer *lx = &p->lx;
	while (lx->cur < lx->end) {
		char c = *lx->cur;
		if (c == '\n') {
			newline(lx);
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->cur++;
		} else if (starts_with(lx, "//")) {
			skip_to_line_end(lx);
		} else if (starts_with(lx, "/*")) {
			struct ptx_loc start = here(lx);
			lx->cur += 2;
			for (;;) {
				if (lx->cur >= lx->end)
					parse_fail(p, start, "unterminated /* comment");
				if (*lx->cur == '\n') {
					newline(lx);
				} else if (starts_with(lx, "*/")) {
					lx->cur += 2;
					break;
				} else {
					lx->cur++;
				}
			}
		} else if (starts_with(lx, "@@DWARF")) {
			/* Old debug-info lines; the DWARF they carry is not used. */
			skip_to_line_end(lx);
		} else {
			break;
		}
	}
}

static uint64_t read_digits(struct parser *p, struct token *t, unsigned base)
{
	struct lexer *lx = &p->lx;
	uint64_t value = 0;
	const char *start = lx->cur;
	while (lx->cur < lx->end && is_word_char(*lx->cur)) {
		char c = *lx->cur;
		int d = hex_value(c);
		if ((c == 'U' || c == 'u') && lx->cur > start &&
		    (lx->cur + 1 == lx->end || !is_word_char(lx->cur[1])))
			break;
		if (d < 0 || (unsigned)d >= base)
			parse_fail(p, here(lx), "invalid digit '%c' in %s constant", c,
			           base == 16 ? "hexadecimal" : base == 8 ? "octal" :
			           base == 2 ? "binary" : "decimal");
		if (value > (UINT64_MAX - (uint64_t)d) / base)
			parse_fail(p, t->loc, "integer constant is too large for 64 bits");
		value = value * base + (uint64_t)d;
		lx->cur++;
	}
	if (lx->cur == start)
		parse_fail(p, t->loc, "integer constant has no digits");
	return value;
}

static uint64_t read_hex_float(struct parser *p, struct token *t, unsigned ndigits)
{
	struct lexer *lx = &p->lx;
	uint64_t bits = 0;
	unsigned n = 0;
	while (lx->cur < lx->end && is_word_char(*lx->cur)) {
		int d = hex_value(*lx->cur);
		if (d < 0 || n == ndigits)
			break;
		bits = bits << 4 | (uint64_t)d;
		n++;
		lx->cur++;
	}
	if (n != ndigits || (lx->cur < lx->end && is_word_char(*lx->cur)))
		parse_fail(p, t->loc, "%s floating-point constant needs exactly %u hexadecimal digits",
		           ndigits == 8 ? "single-precision" : "double-precision", ndigits);
	return bits;
}

static bool lex_decimal_float(struct parser *p, struct token *t)
{
	struct lexer *lx = &p->lx;
	const char *s = lx->cur;
	while (s < lx->end && is_digit(*s))
		s++;
	bool is_float = false;
	if (s < lx->end && *s == '.' && s + 1 < lx->end && is_digit(s[1])) {
		is_float = true;
		for (s++; s < lx->end && is_digit(*s); s++)
			;
	}
	if (s < lx->end && (*s == 'e' || *s == 'E')) {
		const char *e = s + 1;
		if (e < lx->end && (*e == '+' || *e == '-'))
			e++;
		if (e < lx->end && is_digit(*e)) {
			is_float = true;
			for (s = e; s < lx->end && is_digit(*s); s++)
				;
		}
	}
	if (!is_float)
		return false;
	char buf[64];
	size_t n = (size_t)(s - lx->cur);
	if (n >= sizeof(buf))
		parse_fail(p, t->loc, "floating-point constant is too long");
	memcpy(buf, lx->cur, n);
	buf[n] = 0;
	double d = strtod(buf, NULL);
	memcpy(&t->value, &d, sizeof(d));
	t->kind = TOK_F64;
	lx->cur = s;
	return true;
}

static void lex_number(struct parser *p, struct token *t)
{
	struct lexer *lx = &p->lx;
	char c = lx->cur + 1 < lx->end && lx->cur[0] == '0' ? lx->cur[1] : 0;
	t->kind = TOK_INT;
	if (c == 'f' || c == 'F' || c == 'd' || c == 'D') {
		bool single = c == 'f' || c == 'F';
		lx->cur += 2;
		t->kind = single ? TOK_F32 : TOK_F64;
		t->value = read_hex_float(p, t, single ? 8 : 16);
		return;
	}
	if (c == 'x' || c == 'X' || c == 'b' || c == 'B') {
		lx->cur += 2;
		t->value = read_digits(p, t, c == 'x' || c == 'X' ? 16 : 2);
	} else if (lex_decimal_float(p, t)) {
		return;
	} else if (is_digit(c)) {
		lx->cur++;
		t->value = read_digits(p, t, 8);
	} else {
		t->value = read_digits(p, t, 10);
	}
	if (lx->cur < lx->end && (*lx->cur == 'U' || *lx->cur == 'u')) {
		t->is_unsigned = true;
		lx->cur++;
	}
	if (lx->cur < lx->end && is_word_char(*lx->cur))
		parse_fail(p, here(lx), "invalid suffix on integer constant");
}

static void lex_string(struct parser *p, struct token *t)
{
	struct lexer *lx = &p->lx;
	t->kind = TOK_STRING;
	for (lx->cur++;; lx->cur++) {
		if (lx->cur >= lx->end || *lx->cur == '\n')
			parse_fail(p, t->loc, "unterminated string");
		if (*lx->cur == '\\' && lx->cur + 1 < lx->end && lx->cur[1] != '\n')
			lx->cur++;
		else if (*lx->cur == '"')
			break;
	}
	lx->cur++;
}

/* A dot and a word; "::" joins sub-qualifiers as in .L2::evict_last and .shared::cta. */
static void lex_dotted_word(struct lexer *lx)
{
	lx->cur++;
	for (;;) {
		while (lx->cur < lx->end && is_word_char(*lx->cur))
			lx->cur++;
		if (starts_with(lx, "::") && lx->cur + 2 < lx->end && is_word_char(lx->cur[2]))
			lx->cur += 2;
		else
			break;
	}
}

static enum tok_kind punctuation(struct lexer *lx)
{
	if (starts_with(lx, "<<")) {
		lx->cur += 2;
		return TOK_SHL;
	}
	if (starts_with(lx, ">>")) {
		lx->cur += 2;
		return TOK_SHR;
	}
	static const char chars[] = "{}()[],;:@=+-*/%!~&|^<>";
	static const enum tok_kind kinds[] = {
		TOK_LBRACE, TOK_RBRACE, TOK_LPAREN, TOK_RPAREN, TOK_LBRACKET, TOK_RBRACKET,
		TOK_COMMA, TOK_SEMI, TOK_COLON, TOK_AT, TOK_EQUALS, TOK_PLUS, TOK_MINUS,
		TOK_STAR, TOK_SLASH, TOK_PERCENT, TOK_BANG, TOK_TILDE, TOK_AMP, TOK_PIPE,
		TOK_CARET, TOK_LT, TOK_GT,
	};
	const char *c = *lx->cur ? strchr(chars, *lx->cur) : NULL;
	if (!c)
		return TOK_EOF;
	lx->cur++;
	return kinds[c - chars];
}

struct token lex_next(struct parser *p)
{
	struct lexer *lx = &p->lx;
	skip_space_and_comments(p);
	struct token t = { .loc = here(lx), .text = lx->cur };
	if (lx->cur >= lx->end) {
		t.kind = TOK_EOF;
	} else {
		char c = *lx->cur;
		bool sigil = c == '%' || c == '_' || c == '$';
		if (c == '.' && lx->cur + 1 < lx->end && is_word_char(lx->cur[1])) {
			t.kind = TOK_DIRECTIVE;
			lex_dotted_word(lx);
		} else if (is_digit(c)) {
			lex_number(p, &t);
		} else if (c == '"') {
			lex_string(p, &t);
		} else if ((is_word_char(c) && !is_digit(c) && c != '$') ||
		           (sigil && lx->cur + 1 < lx->end && is_word_char(lx->cur[1]))) {
			t.kind = TOK_IDENT;
			for (lx->cur++; lx->cur < lx->end && is_word_char(*lx->cur); lx->cur++)
				;
		} else {
			t.kind = punctuation(lx);
			if (t.kind == TOK_EOF) {
				unsigned char b = (unsigned char)c;
				if (b >= 0x21 && b < 0x7f)
					parse_fail(p, t.loc, "unexpected character '%c'", c);
				parse_fail(p, t.loc, "unexpected byte 0x%02x", b);
			}
		}
	}
	t.len = (uint32_t)(lx->cur - t.text);
	t.end = here(lx);
	return t;
}

const char *tok_kind_name(enum tok_kind kind)
{
	static const char *const names[] = {
		[TOK_EOF] = "end of file", [TOK_IDENT] = "identifier",
		[TOK_DIRECTIVE] = "directive", [TOK_INT] = "integer", [TOK_F32] = "float",
		[TOK_F64] = "float", [TOK_STRING] = "string",
		[TOK_LBRACE] = "'{'", [TOK_RBRACE] = "'}'", [TOK_LPAREN] = "'('",
		[TOK_RPAREN] = "')'", [TOK_LBRACKET] = "'['", [TOK_RBRACKET] = "']'",
		[TOK_COMMA] = "','", [TOK_SEMI] = "';'", [TOK_COLON] = "':'", [TOK_AT] = "'@'",
		[TOK_EQUALS] = "'='", [TOK_PLUS] = "'+'", [TOK_MINUS] = "'-'", [TOK_STAR] = "'*'",
		[TOK_SLASH] = "'/'", [TOK_PERCENT] = "'%'", [TOK_BANG] = "'!'", [TOK_TILDE] = "'~'",
		[TOK_AMP] = "'&'", [TOK_PIPE] = "'|'", [TOK_CARET] = "'^'", [TOK_LT] = "'<'",
		[TOK_GT] = "'>'", [TOK_SHL] = "'<<'", [TOK_SHR] = "'>>'",
	};
	return names[kind];
}
