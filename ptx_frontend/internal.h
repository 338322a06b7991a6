/* Internal interfaces of the PTX frontend: arena, string interning, lexer and parser state. */
#ifndef PTX_INTERNAL_H
#define PTX_INTERNAL_H

#include <setjmp.h>

#include "ptx.h"

/* Limits that keep memory and stack use bounded on hostile input. */
enum {
	PTX_MAX_NESTING = 64,           /* braces, blocks, parentheses in expressions */
	PTX_MAX_REG_COUNT = 1 << 20,    /* %r<N> */
	PTX_MAX_ARRAY_DIMS = 8,
	PTX_MAX_ALIGN = 1 << 16,
	PTX_MAX_FILE_INDEX = 1 << 20,   /* .file N */
};
#define PTX_MAX_ARRAY_BYTES ((uint64_t)1 << 32)

/* arena.c */
struct ptx_arena;
struct ptx_arena *arena_new(void);
void arena_free(struct ptx_arena *arena);
void *arena_alloc(struct ptx_arena *arena, size_t size);   /* zeroed; NULL when out of memory */
const char *arena_intern(struct ptx_arena *arena, const char *s, size_t len);

/* lex.c */
enum tok_kind {
	TOK_EOF,
	TOK_IDENT,      /* foo, %r1, $L__BB0_1, _ */
	TOK_DIRECTIVE,  /* .reg, .f32, .L2::evict_last: a dot and a word */
	TOK_INT,
	TOK_F32,        /* 0fXXXXXXXX */
	TOK_F64,        /* 0dXXXXXXXXXXXXXXXX or a decimal literal */
	TOK_STRING,
	TOK_LBRACE, TOK_RBRACE, TOK_LPAREN, TOK_RPAREN, TOK_LBRACKET, TOK_RBRACKET,
	TOK_COMMA, TOK_SEMI, TOK_COLON, TOK_AT, TOK_EQUALS,
	TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH, TOK_PERCENT,
	TOK_BANG, TOK_TILDE, TOK_AMP, TOK_PIPE, TOK_CARET,
	TOK_LT, TOK_GT, TOK_SHL, TOK_SHR,
};

struct token {
	enum tok_kind kind;
	struct ptx_loc loc;
	struct ptx_loc end;   /* just past the token's last byte */
	const char *text;
	uint32_t len;
	uint64_t value;       /* TOK_INT, TOK_F32, TOK_F64 bits */
	bool is_unsigned;     /* TOK_INT with a U suffix */
};

struct lexer {
	const char *cur, *end;
	const char *line_start;
	uint32_t line;
};

struct parser;
void lex_init(struct lexer *lx, const char *text, size_t len);
struct token lex_next(struct parser *p);
const char *tok_kind_name(enum tok_kind kind);

/* parse.c, parse_insn.c */
struct parser {
	const char *file;
	struct ptx_diag *diag;
	jmp_buf fail;
	struct ptx_arena *arena;
	struct lexer lx;
	struct token tok;
	struct ptx_loc prev_end;          /* end of the token before tok */
	struct ptx_debug_loc debug;       /* last .loc seen */
	struct ptx_module *module;
};

_Noreturn void parse_fail(struct parser *p, struct ptx_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
_Noreturn void parse_expected(struct parser *p, const char *what);
void *parse_alloc(struct parser *p, size_t size);
void advance(struct parser *p);
bool accept(struct parser *p, enum tok_kind kind);
void expect(struct parser *p, enum tok_kind kind, const char *what);
const char *tok_intern(struct parser *p, const struct token *t);
struct token peek(struct parser *p);

/* A growable array in the arena; doubling wastes at most the final size. */
struct vec {
	void *data;
	uint32_t len, cap;
};
void *vec_push(struct parser *p, struct vec *v, size_t elem_size);

int64_t parse_const_expr(struct parser *p);
struct ptx_operand *parse_initializer(struct parser *p, int depth);
void parse_instruction(struct parser *p, struct ptx_stmt *s);

#endif
