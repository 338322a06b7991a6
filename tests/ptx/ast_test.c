/* Checks the tree the parser builds for a small module, node by node: the values of
 * immediates, offsets, components, modifiers, guards, declarations and locations. */
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

static int failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                   \
		}                                                                     \
	} while (0)

static const char source[] =
	".version 9.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".file 1 \"a.cu\"\n"
	".extern .shared .align 16 .b8 smem[];\n"
	".global .align 8 .u64 ptrs[2] = {generic(smem)+8, ptrs-4+2};\n"
	".global .s32 grid[2][2] = {{1, -2}, {0x10, 0777}};\n"
	".visible .entry k(.param .u64 .ptr .global .align 16 out)\n"
	".maxntid 128\n"
	"{\n"
	"\t.reg .b32 %r<100>;\n"
	"\t.reg .v4 .f32 v;\n"
	"\t.loc 1 7 3\n"
	"\tmov.f32 %f1, -0f3F800000;\n"                                 /* insn 0 */
	"\tmov.f64 %fd1, 1.5;\n"                                        /* insn 1 */
	"\tmov.s32 %r1, -(1 << 3) + 2 * 5;\n"                           /* insn 2 */
	"\tmov.u32 %r2, 0b1011;\n"                                      /* insn 3 */
	"\t@!%p2 ld.global.nc.L1::evict_last.f32 %f2, [%rd2+-8];\n"     /* insn 4 */
	"\tsetp.lt.s32 %p1|%p2, %r1, %tid.x;\n"                         /* insn 5 */
	"\tsetp.eq.and.s32 %p3, %r1, 0, !%p1;\n"                        /* insn 6 */
	"\tld.v4.f32 {%f1, _, %f3, _}, [ptrs+8];\n"                     /* insn 7 */
	"\tmov.f32 %f4, v.r;\n"                                         /* insn 8 */
	"\tcall.uni (retval0), fn, (param0, param1);\n"                 /* insn 9 */
	"\tmov.u32 %r3, 0xffffffffU;\n"                                 /* insn 10 */
	"}\n";

static const struct ptx_insn *nth_insn(const struct ptx_func *f, int n)
{
	for (const struct ptx_stmt *s = f->body; s; s = s->next)
		if (s->kind == PTX_STMT_INSN && n-- == 0)
			return &s->u.insn;
	return NULL;
}

static void check_module(const struct ptx_module *m)
{
	CHECK(m->version_major == 9 && m->version_minor == 0);
	CHECK(m->ntargets == 1 && strcmp(m->targets[0], "sm_90") == 0);
	CHECK(m->address_size == 64);
	CHECK(m->nfiles > 1 && strcmp(m->files[1], "a.cu") == 0);

	const struct ptx_item *it = m->items;
	const struct ptx_var *smem = &it->u.var;
	CHECK(it->kind == PTX_ITEM_VAR && smem->space == PTX_SPACE_SHARED);
	CHECK(smem->linkage == PTX_LINK_EXTERN && smem->align == 16);
	CHECK(smem->ndims == 1 && smem->dims[0] == 0);
	CHECK(it->loc.line == 5 && it->loc.col == 1);

	it = it->next;
	const struct ptx_operand *init = it->u.var.init;
	CHECK(init->kind == PTX_OP_BRACES && init->count == 2);
	CHECK(init->items[0].generic && strcmp(init->items[0].name, "smem") == 0);
	CHECK(init->items[0].offset == 8);
	CHECK(init->items[1].offset == -2 && init->items[1].name == it->u.var.name);

	it = it->next;
	init = it->u.var.init;
	CHECK(it->u.var.ndims == 2 && it->u.var.dims[1] == 2);
	CHECK(init->count == 2 && init->items[1].kind == PTX_OP_BRACES);
	CHECK((int64_t)init->items[0].items[1].bits == -2);
	CHECK(init->items[1].items[1].bits == 0777);

	it = it->next;
	const struct ptx_func *f = &it->u.func;
	CHECK(it->kind == PTX_ITEM_FUNC && f->is_entry && f->linkage == PTX_LINK_VISIBLE);
	CHECK(f->sig.nparams == 1 && f->sig.params[0].is_ptr);
	CHECK(f->sig.params[0].ptr_space == PTX_SPACE_GLOBAL && f->sig.params[0].ptr_align == 16);
	CHECK(f->attrs.maxntid[0] == 128 && f->attrs.maxntid[1] == 1);
	CHECK(f->body->kind == PTX_STMT_VAR && f->body->u.var.reg_count == 100);
	CHECK(f->body->next->u.var.vector == 4 && f->body->next->u.var.type == PTX_TYPE_F32);

	const struct ptx_insn *i = nth_insn(f, 0);
	CHECK(i->ops[1].kind == PTX_OP_F32 && i->ops[1].bits == 0xBF800000u);
	CHECK(i->debug.file == 1 && i->debug.line == 7 && i->debug.col == 3);
	double d;
	i = nth_insn(f, 1);
	memcpy(&d, &i->ops[1].bits, sizeof(d));
	CHECK(i->ops[1].kind == PTX_OP_F64 && d == 1.5);
	CHECK(nth_insn(f, 2)->ops[1].kind == PTX_OP_INT && nth_insn(f, 2)->ops[1].bits == 2);
	CHECK(nth_insn(f, 3)->ops[1].bits == 11);

	i = nth_insn(f, 4);
	CHECK(i->guard && strcmp(i->guard, "%p2") == 0 && i->guard_negated);
	CHECK(strcmp(i->opcode, "ld") == 0 && i->nmods == 4);
	CHECK(strcmp(i->mods[2], "L1::evict_last") == 0 && strcmp(i->mods[3], "f32") == 0);
	CHECK(i->ops[1].kind == PTX_OP_MEMORY && i->ops[1].count == 1);
	CHECK(i->ops[1].items[0].offset == -8 && strcmp(i->ops[1].items[0].name, "%rd2") == 0);

	i = nth_insn(f, 5);
	CHECK(i->ops[0].kind == PTX_OP_PAIR && i->ops[0].count == 2);
	CHECK(strcmp(i->ops[0].items[1].name, "%p2") == 0);
	CHECK(i->ops[2].component == 'x' && strcmp(i->ops[2].name, "%tid") == 0);
	CHECK(i->ops[1].loc.line == 19 && i->ops[1].loc.col == 23);
	CHECK(nth_insn(f, 6)->ops[3].negated);

	i = nth_insn(f, 7);
	CHECK(i->ops[0].kind == PTX_OP_BRACES && i->ops[0].count == 4);
	CHECK(i->ops[0].items[1].kind == PTX_OP_SINK && i->ops[0].items[2].kind == PTX_OP_NAME);
	CHECK(nth_insn(f, 8)->ops[1].component == 'x');
	/* Interning: equal strings are one pointer. */
	CHECK(nth_insn(f, 0)->opcode == nth_insn(f, 1)->opcode);

	i = nth_insn(f, 9);
	CHECK(i->nops == 3 && i->ops[0].kind == PTX_OP_LIST && i->ops[2].count == 2);
	CHECK(i->ops[1].kind == PTX_OP_NAME && strcmp(i->ops[1].name, "fn") == 0);
	CHECK(nth_insn(f, 10)->ops[1].bits == 0xffffffffu);
	CHECK(nth_insn(f, 11) == NULL);
	CHECK(ptx_opcode_is_known("wgmma") && !ptx_opcode_is_known("frobnicate"));
}

static void check_error(void)
{
	static const char bad[] = ".version 9.0\n.target sm_90\n.global .u32 x = 1 +;\n";
	struct ptx_diag diag;
	CHECK(ptx_parse("bad.ptx", bad, strlen(bad), &diag) == NULL);
	CHECK(diag.loc.line == 3 && diag.loc.col == 21);
	CHECK(strcmp(diag.message, "expected a constant, found ';'") == 0);
	ptx_diag_free(&diag);
	/* Every prefix of a valid module is either valid or a located error. */
	for (size_t len = 0; len < sizeof(source) - 1; len++) {
		struct ptx_module *m = ptx_parse("prefix.ptx", source, len, &diag);
		CHECK(m || (diag.loc.line >= 1 && diag.message[0]));
		if (!m)
			ptx_diag_free(&diag);
		ptx_module_free(m);
	}
}

int main(void)
{
	struct ptx_diag diag;
	struct ptx_module *m = ptx_parse("ast.ptx", source, strlen(source), &diag);
	if (!m) {
		ptx_diag_print(stderr, &diag, source, strlen(source));
		return 1;
	}
	check_module(m);
	ptx_module_free(m);
	check_error();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
