/* ptx-check: parses and checks PTX files and reports the first error of each; with --dump, prints a
 * summary of what was parsed. A developer and test tool for the PTX frontend. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *bigger = realloc(buf, cap * 2);
		if (!bigger)
			break;
		buf = bigger;
		cap *= 2;
	}
	bool failed = !buf || ferror(f) || n == cap;
	fclose(f);
	if (failed) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

struct opcode_count {
	const char *opcode;
	unsigned long count;
};

struct counts {
	struct opcode_count *opcodes;   /* interned opcodes, so compared by pointer */
	size_t nopcodes, cap;
	unsigned long insns, labels, vars;
};

static void count_opcode(struct counts *c, const char *opcode)
{
	for (size_t i = 0; i < c->nopcodes; i++) {
		if (c->opcodes[i].opcode == opcode) {
			c->opcodes[i].count++;
			return;
		}
	}
	if (c->nopcodes == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->opcodes = realloc(c->opcodes, c->cap * sizeof(*c->opcodes));
		if (!c->opcodes) {
			perror("ptx-check");
			exit(2);
		}
	}
	c->opcodes[c->nopcodes++] = (struct opcode_count){ opcode, 1 };
}

static void count_stmts(struct counts *c, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		switch (s->kind) {
		case PTX_STMT_INSN:
			c->insns++;
			count_opcode(c, s->u.insn.opcode);
			break;
		case PTX_STMT_LABEL:
			c->labels++;
			break;
		case PTX_STMT_VAR:
			c->vars++;
			break;
		case PTX_STMT_BLOCK:
			count_stmts(c, s->u.block);
			break;
		default:
			break;
		}
	}
}

static void print_var(const struct ptx_var *v)
{
	static const char *const linkages[] = { ".visible ", ".extern ", ".weak ", ".common " };
	for (unsigned i = 0; i < 4; i++)
		if (v->linkage & 1u << i)
			fputs(linkages[i], stdout);
	printf("%s", ptx_space_name(v->space));
	if (v->align)
		printf(" .align %u", v->align);
	if (v->vector)
		printf(" .v%u", v->vector);
	printf(" %s", ptx_type_name(v->type));
	if (v->is_ptr) {
		printf(" .ptr");
		if (v->ptr_space)
			printf(" %s", ptx_space_name(v->ptr_space));
		if (v->ptr_align)
			printf(" .align %u", v->ptr_align);
	}
	printf(" %s", v->name);
	if (v->reg_count)
		printf("<%u>", v->reg_count);
	for (uint32_t i = 0; i < v->ndims; i++) {
		if (v->dims[i])
			printf("[%llu]", (unsigned long long)v->dims[i]);
		else
			printf("[]");
	}
	if (v->init)
		printf(v->init->kind == PTX_OP_BRACES ? " = {%u items}" : " = ...", v->init->count);
}

static void print_params(const struct ptx_var *vars, uint32_t n)
{
	printf("(");
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			printf(", ");
		print_var(&vars[i]);
	}
	printf(")");
}

static void print_dims(const char *name, const uint32_t d[3])
{
	if (d[0])
		printf(" %s %u,%u,%u", name, d[0], d[1], d[2]);
}

static void print_func(const struct ptx_func *f, struct counts *total)
{
	printf("%s%s %s", f->linkage & PTX_LINK_VISIBLE ? ".visible " :
	                  f->linkage & PTX_LINK_EXTERN ? ".extern " :
	                  f->linkage & PTX_LINK_WEAK ? ".weak " : "",
	       f->is_entry ? ".entry" : ".func", f->name);
	if (f->sig.nrets) {
		printf(" returns ");
		print_params(f->sig.rets, f->sig.nrets);
	}
	printf(" ");
	print_params(f->sig.params, f->sig.nparams);
	const struct ptx_func_attrs *a = &f->attrs;
	print_dims(".maxntid", a->maxntid);
	print_dims(".reqntid", a->reqntid);
	print_dims(".reqnctapercluster", a->reqnctapercluster);
	if (a->minnctapersm)
		printf(" .minnctapersm %u", a->minnctapersm);
	if (a->maxnreg)
		printf(" .maxnreg %u", a->maxnreg);
	if (a->maxclusterrank)
		printf(" .maxclusterrank %u", a->maxclusterrank);
	if (a->noreturn)
		printf(" .noreturn");
	if (a->explicitcluster)
		printf(" .explicitcluster");
	if (!f->has_body) {
		printf(";\n");
		return;
	}
	struct counts c = { 0 };
	count_stmts(&c, f->body);
	printf("\n    %lu instructions, %lu labels, %lu declarations\n", c.insns, c.labels, c.vars);
	free(c.opcodes);
	count_stmts(total, f->body);
}

static int compare_counts(const void *a, const void *b)
{
	return strcmp(((const struct opcode_count *)a)->opcode,
	              ((const struct opcode_count *)b)->opcode);
}

static void dump(const struct ptx_module *m)
{
	printf("%s: PTX %u.%u, target", m->file, m->version_major, m->version_minor);
	for (uint32_t i = 0; i < m->ntargets; i++)
		printf("%s %s", i ? "," : "", m->targets[i]);
	printf(", address size %u\n", m->address_size ? m->address_size : 32);
	struct counts total = { 0 };
	for (const struct ptx_item *it = m->items; it; it = it->next) {
		printf("  ");
		switch (it->kind) {
		case PTX_ITEM_VAR:
			print_var(&it->u.var);
			printf("\n");
			break;
		case PTX_ITEM_FUNC:
			print_func(&it->u.func, &total);
			break;
		case PTX_ITEM_ALIAS:
			printf(".alias %s, %s\n", it->u.alias.alias, it->u.alias.target);
			break;
		case PTX_ITEM_PRAGMA:
			printf(".pragma (%u strings)\n", it->u.pragma.count);
			break;
		}
	}
	qsort(total.opcodes, total.nopcodes, sizeof(*total.opcodes), compare_counts);
	printf("  opcodes:");
	for (size_t i = 0; i < total.nopcodes; i++)
		printf(" %s=%lu", total.opcodes[i].opcode, total.opcodes[i].count);
	printf("\n");
	for (size_t i = 0; i < total.nopcodes; i++)
		if (!ptx_opcode_is_known(total.opcodes[i].opcode))
			printf("  unknown opcode: %s (%lu)\n", total.opcodes[i].opcode,
			       total.opcodes[i].count);
	free(total.opcodes);
}

int main(int argc, char **argv)
{
	bool want_dump = false;
	int status = 0, nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--dump") == 0) {
			want_dump = true;
		} else if (strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
			fprintf(stderr, "usage: ptx-check [--dump] FILE.ptx...\n");
			return strcmp(argv[i], "--help") == 0 ? 0 : 2;
		}
	}
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		nfiles++;
		size_t len = 0;
		char *text = read_file(argv[i], &len);
		if (!text) {
			fprintf(stderr, "ptx-check: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		struct ptx_diag diag;
		struct ptx_module *m = ptx_parse(argv[i], text, len, &diag);
		if (m && ptx_check(m, &diag)) {
			if (want_dump)
				dump(m);
		} else {
			ptx_diag_print(stderr, &diag, text, len);
			ptx_diag_free(&diag);
			status = 1;
		}
		ptx_module_free(m);
		free(text);
	}
	if (nfiles == 0) {
		fprintf(stderr, "usage: ptx-check [--dump] FILE.ptx...\n");
		return 2;
	}
	return status;
}
