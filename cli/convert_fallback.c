/* The best PTX of a container, kernel by kernel: NVIDIA's libraries carry PTX for several
 * architectures in one container, and the newest often uses instructions the older ones do
 * not. A kernel left out of the newest entry's code is taken from the newest older entry
 * that translates it. The older module keeps only those kernels and what they need: its
 * functions become internal (each copy calls its own), and its variables that the newer
 * module also defines become declarations of them, so that both share one copy of every
 * variable, as the program's one module does on NVIDIA's driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Linker.h>

#include "convert.h"
#include "ptx.h"

/* Kernel name -> whether the older module translates it. */
static bool translated(const char *name, const struct ptx_lowered *l, char *const *reasons)
{
	for (uint32_t k = 0; k < l->nkernels; k++)
		if (strcmp(l->kernels[k].name, name) == 0)
			return !reasons[k];
	return false;
}

static bool wanted(const char *name, const char *const *kernels, char *const *reasons,
                   uint32_t nkernels)
{
	for (uint32_t k = 0; k < nkernels; k++)
		if (reasons[k] && strcmp(kernels[k], name) == 0)
			return true;
	return false;
}

/* Leaves in `older` only the kernels the newer code lacks, made ready to link into it. */
static void trim(LLVMModuleRef older, LLVMModuleRef newer, const struct ptx_lowered *l,
                 const char *const *kernels, char *const *reasons, uint32_t nkernels)
{
	for (uint32_t k = 0; k < l->nkernels; k++) {
		LLVMValueRef f = LLVMGetNamedFunction(older, l->kernels[k].name);

		if (f && !wanted(l->kernels[k].name, kernels, reasons, nkernels)) {
			LLVMReplaceAllUsesWith(f, LLVMGetPoison(LLVMTypeOf(f)));
			LLVMDeleteFunction(f);
		}
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(older); f; f = LLVMGetNextFunction(f)) {
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);

		if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) != LLVMInternalLinkage &&
		    !wanted(name, kernels, reasons, nkernels))
			LLVMSetLinkage(f, LLVMInternalLinkage);
	}
	for (LLVMValueRef g = LLVMGetFirstGlobal(older); g; g = LLVMGetNextGlobal(g)) {
		size_t len;
		const char *name = LLVMGetValueName2(g, &len);
		LLVMValueRef mine = LLVMGetNamedGlobal(newer, name);

		if (LLVMGetLinkage(g) == LLVMInternalLinkage || !mine || LLVMIsDeclaration(mine) ||
		    LLVMIsDeclaration(g))
			continue;
		LLVMSetInitializer(g, NULL);
		LLVMSetLinkage(g, LLVMExternalLinkage);
	}
}

/* One older entry: lowers it after the newer module's shared layout and links in the kernels
 * it translates that the newer code left out. */
static void take_from(const Input *in, const Unit *u, size_t ei, const struct ptx_target *hooks,
                      struct ptx_lower_options *options, LLVMContextRef ctx, LLVMModuleRef linked,
                      const char *const *kernels, char **reasons, const char **from,
                      uint32_t nkernels)
{
	const Container *c = &in->set.containers[u->members[0]];
	const Entry *e = &c->entries[ei];
	uint8_t *text;
	uint64_t size;
	ZcError err;
	struct ptx_diag diag;
	struct ptx_module *ast;
	struct ptx_lowered l;
	char label[96];

	if (!entry_contents(&in->bin, e, &text, &size, &err))
		return;
	ast = ptx_parse(u->name, (const char *)text, size, &diag);
	snprintf(label, sizeof(label), "PTX of fatbin %zu entry %zu (%s)", u->members[0], ei, e->arch);
	options->label = label;
	/* its functions are its kernels' own copies, so its mode may differ from the unit's */
	options->f32_subnormals_flushed = ast && ptx_f32_subnormals(ast) == PTX_SUBNORMALS_FLUSHED;
	if (!ast || !ptx_check(ast, &diag) || !ptx_lower(ast, hooks, ctx, options, &l, &diag)) {
		ptx_diag_free(&diag);
	} else {
		char **older_reasons = zc_alloc((l.nkernels + 1) * sizeof(char *));
		const char **names = zc_alloc((l.nkernels + 1) * sizeof(char *));
		bool any = false;

		for (uint32_t k = 0; k < l.nkernels; k++)
			names[k] = l.kernels[k].name;
		ptx_leave_out(l.module, names, l.nkernels, older_reasons);
		for (uint32_t k = 0; k < nkernels; k++)
			any |= reasons[k] && translated(kernels[k], &l, older_reasons);
		if (any) {
			bool *taken = zc_alloc((nkernels + 1) * sizeof(bool));

			for (uint32_t k = 0; k < nkernels; k++)
				taken[k] = reasons[k] && translated(kernels[k], &l, older_reasons);
			trim(l.module, linked, &l, kernels, reasons, nkernels);
			if (!LLVMLinkModules2(linked, l.module)) {
				options->shared_start = l.shared_layout_end;
				for (uint32_t k = 0; k < nkernels; k++)
					if (taken[k]) {
						free(reasons[k]);
						reasons[k] = NULL;
						from[k] = e->arch;
					}
			}
			l.module = NULL; /* consumed by the link */
			free(taken);
		}
		for (uint32_t k = 0; k < l.nkernels; k++)
			free(older_reasons[k]);
		free(older_reasons);
		free(names);
		ptx_lowered_free(&l);
	}
	ptx_module_free(ast);
	free(text);
}

void fallback_to_older_ptx(const Input *in, const Unit *u, const struct ptx_target *hooks,
                           struct ptx_lower_options *options, LLVMContextRef ctx,
                           LLVMModuleRef linked, const char *const *kernels, char **reasons,
                           const char **from, uint32_t nkernels)
{
	const Container *c;
	const Entry *newer;

	if (u->nmembers != 1 || u->members[0] == MEMBER_PTX_FILE)
		return;
	c = &in->set.containers[u->members[0]];
	newer = u->ptx[0];
	for (;;) {
		size_t next = SIZE_MAX;
		bool left = false;

		for (uint32_t k = 0; k < nkernels; k++)
			left |= reasons[k] != NULL;
		if (!left)
			return;
		/* the newest entry older than `newer` */
		for (size_t i = 0; i < c->nentries; i++) {
			const Entry *e = &c->entries[i];

			if (e->kind == ENTRY_PTX && e != newer && entry_newer(newer, e) &&
			    (next == SIZE_MAX || entry_newer(e, &c->entries[next])))
				next = i;
		}
		if (next == SIZE_MAX)
			return;
		take_from(in, u, next, hooks, options, ctx, linked, kernels, reasons, from, nkernels);
		newer = &c->entries[next];
	}
}
