/* PTX frontend: the abstract syntax tree of a PTX module and the parser that builds it.
 *
 * The tree mirrors the text: no symbol resolution or type checking happens here, so an
 * instruction the later stages do not know still parses and can be named in their errors.
 * All nodes live in one arena owned by the module; strings are interned, so two equal
 * names (opcodes, modifiers, identifiers) are the same pointer. */
#ifndef PTX_H
#define PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>

/* 1-based line and byte column in the source text. */
struct ptx_loc {
	uint32_t line, col;
};

/* A located error. The message has whatever length it needs (names in real PTX run to
 * kilobytes): the frontend allocates it when it fails, and the caller frees it with
 * ptx_diag_free. Before a failure its contents are undefined. */
struct ptx_diag {
	const char *file;
	struct ptx_loc loc;
	char *message;
};

enum ptx_space {
	PTX_SPACE_NONE,
	PTX_SPACE_REG,
	PTX_SPACE_CONST,
	PTX_SPACE_GLOBAL,
	PTX_SPACE_LOCAL,
	PTX_SPACE_PARAM,
	PTX_SPACE_SHARED,
	PTX_SPACE_TEX,
};

enum ptx_type {
	PTX_TYPE_NONE,
	PTX_TYPE_B8, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64, PTX_TYPE_B128,
	PTX_TYPE_U8, PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64,
	PTX_TYPE_S8, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64,
	PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_BF16X2,
	PTX_TYPE_F32, PTX_TYPE_F64, PTX_TYPE_TF32,
	PTX_TYPE_PRED,
	PTX_TYPE_TEXREF, PTX_TYPE_SAMPLERREF, PTX_TYPE_SURFREF,
};

enum {
	PTX_LINK_VISIBLE = 1,
	PTX_LINK_EXTERN = 2,
	PTX_LINK_WEAK = 4,
	PTX_LINK_COMMON = 8,
};

enum ptx_operand_kind {
	PTX_OP_NAME,    /* register, variable, function or label; with offset and component */
	PTX_OP_SINK,    /* _ */
	PTX_OP_INT,     /* bits: the 64-bit two's complement value */
	PTX_OP_F32,     /* bits: IEEE single, from 0fXXXXXXXX */
	PTX_OP_F64,     /* bits: IEEE double, from 0dXXXXXXXXXXXXXXXX or a decimal literal */
	PTX_OP_BRACES,  /* {a, b, _} vector operand, or a brace initializer list */
	PTX_OP_MEMORY,  /* [a+off] or, for textures, [a, {b, c}] */
	PTX_OP_LIST,    /* (a, b): call return values and arguments */
	PTX_OP_PAIR,    /* a|b: the two predicate outputs of setp and friends */
	PTX_OP_FIELD,   /* name = value inside a sampler initializer */
};

struct ptx_operand {
	enum ptx_operand_kind kind;
	struct ptx_loc loc;
	bool negated;     /* !%p */
	bool minus;       /* -%r, a negated operand of vmad */
	bool generic;     /* generic(sym) in an initializer */
	char component;   /* x y z w for %tid.x, v.y; r g b a map to x y z w; 0 for none */
	const char *selector; /* a video instruction's lane selector or mask: "b0", "h10", "b3210" */
	const char *name; /* PTX_OP_NAME, PTX_OP_FIELD */
	int64_t offset;   /* PTX_OP_NAME: sym+offset */
	uint64_t bits;    /* PTX_OP_INT, PTX_OP_F32, PTX_OP_F64 */
	struct ptx_operand *items;
	uint32_t count;
};

struct ptx_var {
	struct ptx_loc loc;
	const char *name;
	enum ptx_space space;
	unsigned linkage;
	enum ptx_type type;
	uint8_t vector;        /* 0, 2, 4 or 8 */
	bool managed;          /* .attribute(.managed) */
	bool is_ptr;           /* kernel parameter .ptr attribute */
	enum ptx_space ptr_space;
	uint32_t ptr_align;
	uint32_t align;        /* 0: not given */
	uint32_t reg_count;    /* %r<100> declares 100 registers %r0..%r99; 0: a single name */
	uint32_t ndims;
	uint64_t *dims;        /* 0 for an unsized dimension, as in extern .shared x[] */
	struct ptx_operand *init;
};

/* .loc information attached to the instructions after it; file 0 means none. */
struct ptx_debug_loc {
	uint32_t file, line, col;
};

struct ptx_insn {
	const char *opcode;
	const char **mods;     /* modifiers without the dot: "global", "v4", "L2::128B" */
	uint32_t nmods;
	const char *guard;     /* @p or @!p; NULL when unguarded */
	bool guard_negated;
	struct ptx_operand *ops;
	uint32_t nops;
	struct ptx_debug_loc debug;
};

struct ptx_signature {
	struct ptx_var *rets;
	uint32_t nrets;
	struct ptx_var *params;
	uint32_t nparams;
	bool has_params;       /* a parameter list, maybe empty, was written */
};

enum ptx_stmt_kind {
	PTX_STMT_INSN,
	PTX_STMT_LABEL,
	PTX_STMT_VAR,
	PTX_STMT_BLOCK,
	PTX_STMT_PRAGMA,
	PTX_STMT_BRANCHTARGETS,
	PTX_STMT_CALLPROTOTYPE,
};

struct ptx_stmt {
	enum ptx_stmt_kind kind;
	struct ptx_loc loc;
	struct ptx_stmt *next;
	union {
		struct ptx_insn insn;
		const char *label;
		struct ptx_var var;
		struct ptx_stmt *block;           /* first statement of a { } block */
		struct {
			const char **strings;
			uint32_t count;
		} pragma;
		struct {
			const char *label;
			const char **targets;
			uint32_t count;
		} branchtargets;
		struct {
			const char *label;
			struct ptx_signature sig;
			bool noreturn;
		} callprototype;
	} u;
};

/* Performance tuning directives of a kernel or function; 0 means not given. */
struct ptx_func_attrs {
	uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
	uint32_t minnctapersm, maxnreg, maxclusterrank;
	bool noreturn, explicitcluster;
};

struct ptx_func {
	struct ptx_loc loc;
	const char *name;
	bool is_entry;
	unsigned linkage;
	struct ptx_signature sig;
	struct ptx_func_attrs attrs;
	struct ptx_stmt *body;   /* first statement */
	bool has_body;           /* false for a declaration ending in ';' */
};

enum ptx_item_kind {
	PTX_ITEM_VAR,
	PTX_ITEM_FUNC,
	PTX_ITEM_ALIAS,
	PTX_ITEM_PRAGMA,
};

struct ptx_item {
	enum ptx_item_kind kind;
	struct ptx_loc loc;
	struct ptx_item *next;
	union {
		struct ptx_var var;
		struct ptx_func func;
		struct {
			const char *alias, *target;
		} alias;
		struct {
			const char **strings;
			uint32_t count;
		} pragma;
	} u;
};

struct ptx_module {
	const char *file;
	uint32_t version_major, version_minor;
	const char **targets;
	uint32_t ntargets;
	uint32_t address_size;     /* 0: not given (PTX then defaults to 32) */
	struct ptx_item *items;    /* in source order */
	const char **files;        /* .file table, indexed by file number; NULL gaps */
	uint32_t nfiles;
	struct ptx_arena *arena;
};

/* Parses len bytes of text (need not be NUL-terminated). On success returns the module;
 * on error returns NULL and fills *diag with the location and message of the first error:
 * the parser does not try to recover, since one precise error is what a conversion
 * report needs and a recovering parser would mostly add follow-on noise. */
struct ptx_module *ptx_parse(const char *file, const char *text, size_t len,
                             struct ptx_diag *diag);
void ptx_module_free(struct ptx_module *module);

/* Prints "file:line:col: error: message", the source line and a caret under the column. */
void ptx_diag_print(FILE *out, const struct ptx_diag *diag, const char *text, size_t len);
/* Appends to the message at byte `at` (0: starts a new one, whatever the diag held). */
void ptx_diag_vappend(struct ptx_diag *diag, size_t at, const char *fmt, va_list ap);
void ptx_diag_free(struct ptx_diag *diag);

/* The checker (check.c): names declared where used, guards, branch targets, labels,
 * destination widths, and the forms ptxas refuses that the lowering would otherwise give a
 * meaning of its own (docs/ptx-coverage.md lists them). Fills *diag with the first problem, located at its operand; its
 * file name lives in the module, so use the diagnostic before freeing the module. */
bool ptx_check(const struct ptx_module *module, struct ptx_diag *diag);
bool ptx_is_special_register(const char *name);

bool ptx_opcode_is_known(const char *opcode);
const char *ptx_type_name(enum ptx_type type);
/* The type a modifier names ("u32", no dot), PTX_TYPE_NONE if none; a type's width in bits
 * (1 for .pred, 0 for PTX_TYPE_NONE). */
enum ptx_type ptx_type_of_modifier(const char *mod);
/* Whether an instruction has a modifier ("wide", no dot); its which-th type modifier. */
bool insn_has_mod(const struct ptx_insn *insn, const char *mod);
enum ptx_type insn_type(const struct ptx_insn *insn, int which);
/* The state space an instruction's modifiers name (shared::cta and shared::cluster as
 * .shared); PTX_SPACE_NONE for a generic address. */
enum ptx_space insn_space_of(const struct ptx_insn *insn);
unsigned ptx_type_bits(enum ptx_type type);
const char *ptx_space_name(enum ptx_space space);

#endif
