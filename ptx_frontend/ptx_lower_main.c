/* ptx-lower: parses and lowers PTX files and prints the LLVM IR (a developer and test tool;
 * the lit tests of tests/ptx/lower run it). Functions that cannot be lowered are left out with
 * their errors, as the converter leaves them out, and the exit status is then 1. */
#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "target.h"

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len == cap)
			buf = realloc(buf, cap = cap ? cap * 2 : 65536);
		if (!buf)
			exit(2);
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return buf;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Each left-out function's error, located; then the kernels that go with them go. */
static void leave_out(struct ptx_lowered *out, const char *path, const char *text, size_t len,
                      char **reasons)
{
	const char **names = malloc((out->nkernels + 1) * sizeof(*names));
	struct ptx_diag *diag = malloc(sizeof(*diag));

	if (!names || !diag)
		exit(2);
	for (uint32_t i = 0; i < out->nleft_out; i++) {
		diag->file = path;
		diag->loc = out->left_out[i].loc;
		diag->message = out->left_out[i].message; /* owned by out */
		ptx_diag_print(stderr, diag, text, len);
	}
	for (uint32_t i = 0; i < out->nkernels; i++)
		names[i] = out->kernels[i].name;
	ptx_leave_out(out->module, names, out->nkernels, reasons);
	free(names);
	free(diag);
}

static void print_kernels(const struct ptx_lowered *out, char **reasons)
{
	for (uint32_t i = 0; i < out->nkernels; i++) {
		const struct ptx_kernel_info *k = &out->kernels[i];

		if (reasons[i]) {
			printf("; kernel %s: left out: %s\n", k->name, reasons[i]);
			continue;
		}
		printf("; kernel %s: params %u bytes", k->name, k->param_size);
		for (uint32_t p = 0; p < k->nparams; p++)
			printf(" [%u+%u align %u]", k->params[p].offset, k->params[p].size, k->params[p].align);
		printf(", static shared %u%s\n", k->static_shared, k->dynamic_shared ? " + dynamic" : "");
	}
}

/* Kernels with a body, for a module that did not lower; by text when it did not parse. */
static uint32_t count_kernels(const struct ptx_module *m, const char *text)
{
	uint32_t n = 0;

	if (m) {
		for (const struct ptx_item *it = m->items; it; it = it->next)
			n += it->kind == PTX_ITEM_FUNC && it->u.func.is_entry && it->u.func.has_body;
		return n;
	}
	for (const char *p = text; (p = strstr(p, ".entry ")); p += 7)
		n++;
	return n;
}

/* --census: "kept NAME", "left-out NAME<TAB>REASON", or, for a module that failed whole,
 * "module N<TAB>REASON" (N kernels), one per line on stdout. */
static void print_census(struct ptx_lowered *out, const struct ptx_module *m, const char *text,
                         struct ptx_diag *diag)
{
	char **reasons;
	const char **names;

	if (!out) {
		printf("module %u\t%s\n", count_kernels(m, text), diag->message);
		ptx_diag_free(diag);
		return;
	}
	reasons = calloc(out->nkernels + 1, sizeof(char *));
	names = malloc((out->nkernels + 1) * sizeof(*names));
	if (!reasons || !names)
		exit(2);
	for (uint32_t i = 0; i < out->nkernels; i++)
		names[i] = out->kernels[i].name;
	ptx_leave_out(out->module, names, out->nkernels, reasons);
	for (uint32_t i = 0; i < out->nkernels; i++) {
		if (reasons[i])
			printf("left-out %s\t%s\n", names[i], reasons[i]);
		else
			printf("kept %s\n", names[i]);
		free(reasons[i]);
	}
	free(reasons);
	free(names);
}

int main(int argc, char **argv)
{
	const struct ptx_target *target = &ptx_target_amdgpu;
	const char *path = NULL;
	bool kernels = false, stats = false, census = false;
	struct ptx_lower_options options = {0};

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--target=host") == 0)
			target = &ptx_target_host;
		else if (strcmp(argv[i], "--target=amdgpu") == 0)
			target = &ptx_target_amdgpu;
		else if (strcmp(argv[i], "--kernels") == 0)
			kernels = true;
		else if (strcmp(argv[i], "--line-info") == 0)
			options.line_info = true;
		else if (strcmp(argv[i], "--matrix-instructions") == 0)
			options.matrix_instructions = true;
		else if (strcmp(argv[i], "--stats") == 0)
			stats = true; /* timings instead of the IR, for bench/ */
		else if (strcmp(argv[i], "--census") == 0)
			census = true; /* one line per kernel instead of the IR, for bench/ */
		else if (argv[i][0] == '-' || path) {
			fprintf(stderr, "usage: ptx-lower [--target=amdgpu|host] [--kernels] [--line-info] [--matrix-instructions] [--stats] [--census] FILE.ptx\n");
			return 2;
		} else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: ptx-lower [--target=amdgpu|host] [--kernels] [--line-info] [--matrix-instructions] [--stats] [--census] FILE.ptx\n");
		return 2;
	}
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		fprintf(stderr, "ptx-lower: %s: cannot read\n", path);
		return 1;
	}
	struct ptx_diag diag;
	double t0 = now();
	struct ptx_module *m = ptx_parse(path, text, len, &diag);
	double t1 = now();
	struct ptx_lowered out;
	LLVMContextRef ctx = LLVMContextCreate();
	int rc = 0;
	bool checked = m && ptx_check(m, &diag);

	if (checked)
		options.f32_subnormals_flushed = ptx_f32_subnormals(m) == PTX_SUBNORMALS_FLUSHED;
	if (checked && ptx_uses_reserved_smem(m)) {
		options.reserved_smem = true;
		options.shared_start = target->shared_as_offsets ? PTX_RESERVED_SMEM_SIZE : 0;
	}
	bool lowered = checked && ptx_lower(m, target, ctx, &options, &out, &diag);
	double t2 = now();

	if (census) {
		print_census(lowered ? &out : NULL, m, text, &diag);
		if (lowered)
			ptx_lowered_free(&out);
	} else if (stats && lowered) {
		printf("%zu bytes: parse %.3f s, lower %.3f s, %.1f MB/s\n", len, t1 - t0, t2 - t1,
		       (double)len / 1e6 / (t2 - t0));
		ptx_lowered_free(&out);
	} else if (!lowered) {
		ptx_diag_print(stderr, &diag, text, len);
		ptx_diag_free(&diag);
		rc = 1;
	} else {
		char *msg = NULL, **reasons = calloc(out.nkernels + 1, sizeof(char *));

		if (!reasons)
			exit(2);
		leave_out(&out, path, text, len, reasons);
		rc = out.nleft_out ? 1 : 0;
		if (LLVMVerifyModule(out.module, LLVMReturnStatusAction, &msg)) {
			fprintf(stderr, "ptx-lower: %s: invalid LLVM IR:\n%s", path, msg);
			rc = 1;
		}
		LLVMDisposeMessage(msg);
		if (kernels)
			print_kernels(&out, reasons);
		char *ir = LLVMPrintModuleToString(out.module);
		fputs(ir, stdout);
		LLVMDisposeMessage(ir);
		for (uint32_t i = 0; i < out.nkernels; i++)
			free(reasons[i]);
		free(reasons);
		ptx_lowered_free(&out);
	}
	if (m)
		ptx_module_free(m);
	LLVMContextDispose(ctx);
	free(text);
	return rc;
}
