/* Compiling every unit for every target: each (unit, target) pair is a job with its own
 * LLVM context, run by a pool of -j threads. Results land in fixed slots, so the output
 * does not depend on which thread finished first. A unit's first AMDGPU target (the lead)
 * lowers and optimises it once for the AMDGPU targets that can share that middle end
 * (backend/share.c); their jobs then only generate code from its module. A large module
 * is compiled in parts (backend/split.c; not into a Windows DLL): its job queues them as
 * tasks, which any thread with nothing else to do (or waiting) takes. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "ptx.h"

typedef struct {
	size_t unit, target;
} Job;

typedef struct Split Split;

typedef struct {
	Split *split;
	uint32_t part;
} Task;

typedef struct {
	const Input *in;
	Unit *units;
	size_t nunits;
	const ConvertOptions *o;
	/* the first AMDGPU target (else 0): its job records the kernel table, and optimises a
	 * unit once for the AMDGPU targets that share its middle end */
	size_t lead;
	Job *order;   /* a unit's lead job comes before the others of the unit */
	size_t njobs;
	size_t work;  /* the jobs with PTX to compile */
	atomic_size_t next, done;
	pthread_mutex_t lock;
	bool progress;
	/* the parts of split modules, run first come first served */
	pthread_mutex_t tasks_lock;
	pthread_cond_t tasks_changed; /* a task queued or done, a unit decided, a job done */
	Task *tasks;
	size_t ntasks, next_task, capacity;
	size_t jobs_left;
	size_t part_instructions; /* ZLUDA_CONVERT_PART_INSTRUCTIONS, else 0: the default */
} Jobs;

/* One (unit, target) compiled in parts: each part lowered with its own kernels, optimised
 * and emitted (`lowers`), or, for a target that shares the lead's middle end, the lead's
 * optimised part generated again; then the parts' objects linked. */
struct Split {
	Unit *u;
	size_t t;
	uint32_t nparts;
	bool lowers;
	/* per kernel of the unit, as the job's own lowering found them (the lead's kernel
	 * table may not be there yet): its part (lowers) */
	const uint32_t *part_of;
	const char *const *kernels; /* their names */
	uint32_t nkernels;
	bool emit;                /* not when the cache had the target's code */
	bool keep_optimized;      /* for the targets that share the lead's middle end */
	ZcBytes *objects, *optimized;
	char **errors;
	uint32_t left;            /* parts not done, under tasks_lock */
};

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s) {
		fputs("zluda-convert: out of memory\n", stderr);
		abort();
	}
	return s;
}

static void save(const ConvertOptions *o, const Unit *u, const char *suffix, const void *data,
                 size_t size)
{
	char *path;
	FILE *f;

	if (!o->save_temps)
		return;
	path = format("%s/%s.%s", o->save_temps, u->name, suffix);
	for (char *p = path + strlen(o->save_temps) + 1; *p; p++)
		if (*p == ' ')
			*p = '_';
	f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, size, f);
		fclose(f);
	}
	free(path);
}

/* A .global or .const variable a member keeps to itself (no .visible, .extern, .weak or
 * .common): PTX scopes it to its module, but in LLVM it stays external for
 * cuModuleGetGlobal. In a link, two members' variables of one name are one symbol only
 * where both are visible: every TU's printf strings are called $str, and two TUs may each
 * have a static `table`. A module-local one that another member also defines is called
 * NAME.memberM instead (no PTX name has a dot), in the code and in the kernel table. */
typedef struct {
	const char *name; /* in the member's tree */
	size_t member;
	bool local;
} VarDefinition;

static int by_name_then_member(const void *a, const void *b)
{
	const VarDefinition *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->member > y->member) - (x->member < y->member);
}

static bool var_defined(const struct ptx_item *it)
{
	return it->kind == PTX_ITEM_VAR && !(it->u.var.linkage & PTX_LINK_EXTERN) &&
	       (it->u.var.space == PTX_SPACE_GLOBAL || it->u.var.space == PTX_SPACE_CONST);
}

/* The (name, member) pairs that get their own name, sorted: u->renamed. */
static void find_clashing_locals(Unit *u, struct ptx_module **asts)
{
	VarDefinition *all = NULL;
	size_t n = 0;

	for (size_t m = 0; u->nmembers > 1 && m < u->nmembers; m++)
		for (const struct ptx_item *it = asts[m]->items; it; it = it->next)
			if (var_defined(it)) {
				all = zc_realloc(all, (n + 1) * sizeof(*all));
				all[n++] = (VarDefinition){it->u.var.name, m,
				                           !(it->u.var.linkage & (PTX_LINK_VISIBLE | PTX_LINK_WEAK |
				                                                  PTX_LINK_COMMON))};
			}
	if (n)
		qsort(all, n, sizeof(*all), by_name_then_member);
	for (size_t i = 0; i < n; i++) {
		bool shared_name = (i > 0 && strcmp(all[i - 1].name, all[i].name) == 0) ||
		                   (i + 1 < n && strcmp(all[i + 1].name, all[i].name) == 0);

		if (shared_name && all[i].local) {
			u->renamed = zc_realloc(u->renamed, (u->nrenamed + 1) * sizeof(*u->renamed));
			u->renamed[u->nrenamed++] = (RenamedVar){all[i].name, all[i].member};
		}
	}
	free(all);
}

/* The name member m's variable `name` has in the unit's code: malloc'd. */
static char *unit_var_name(const Unit *u, size_t m, const char *name)
{
	VarDefinition key = {name, m, true};

	for (size_t lo = 0, hi = u->nrenamed; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		VarDefinition probe = {u->renamed[mid].name, u->renamed[mid].member, true};
		int c = by_name_then_member(&key, &probe);

		if (c == 0)
			return format("%s.member%zu", name, m);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return zc_strndup(name, strlen(name));
}

static void rename_clashing_locals(const Unit *u, size_t m, LLVMModuleRef module)
{
	for (size_t i = 0; i < u->nrenamed; i++)
		if (u->renamed[i].member == m) {
			LLVMValueRef g = LLVMGetNamedGlobal(module, u->renamed[i].name);
			char *name = unit_var_name(u, m, u->renamed[i].name);

			if (g)
				LLVMSetValueName2(g, name, strlen(name));
			free(name);
		}
}

/* The module's variables that cuModuleGetGlobal can name. */
static void collect_globals(Unit *u, size_t member, const struct ptx_module *m)
{
	for (const struct ptx_item *it = m->items; it; it = it->next) {
		const struct ptx_var *v = &it->u.var;

		if (it->kind != PTX_ITEM_VAR || (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST) ||
		    (v->linkage & PTX_LINK_EXTERN))
			continue;
		u->globals = zc_realloc(u->globals, (u->nglobals + 1) * sizeof(char *));
		u->global_sizes = zc_realloc(u->global_sizes, (u->nglobals + 1) * sizeof(uint64_t));
		u->global_const = zc_realloc(u->global_const, (u->nglobals + 1) * sizeof(bool));
		u->globals[u->nglobals] = unit_var_name(u, member, v->name);
		u->global_sizes[u->nglobals] = ptx_var_size(v);
		u->global_const[u->nglobals] = v->space == PTX_SPACE_CONST;
		u->nglobals++;
	}
}

static void keep_kernels(Unit *u, const struct ptx_lowered *l)
{
	size_t first = u->nkernels;

	u->kernels = zc_realloc(u->kernels, (first + l->nkernels + 1) * sizeof(*u->kernels));
	for (uint32_t k = 0; k < l->nkernels; k++) {
		struct ptx_kernel_info *dst = &u->kernels[first + k];

		*dst = l->kernels[k];
		dst->name = zc_strndup(l->kernels[k].name, strlen(l->kernels[k].name));
		dst->params = zc_alloc((dst->nparams + 1) * sizeof(*dst->params));
		memcpy(dst->params, l->kernels[k].params, dst->nparams * sizeof(*dst->params));
	}
	u->nkernels += l->nkernels;
}

/* The size of the unit's shared layout, for the host driver (abi/host_abi.h). */
static void export_shared_layout(LLVMModuleRef m, uint64_t size)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
	LLVMValueRef g = LLVMAddGlobal(m, i32, "zluda_convert_shared_layout_size");

	LLVMSetInitializer(g, LLVMConstInt(i32, size, 0));
	LLVMSetGlobalConstant(g, 1);
}

static void free_asts(struct ptx_module **asts, size_t n)
{
	for (size_t m = 0; m < n; m++)
		ptx_module_free(asts[m]);
	free(asts);
}

static char *diagnostic(const Unit *u, size_t m, const struct ptx_diag *diag)
{
	return format("%s, line %u:%u: %s", unit_member_name(u, m).text, diag->loc.line,
	              diag->loc.col, diag->message);
}

/* How a unit is lowered again after its code generation failed (recover_codegen). */
typedef struct {
	const char *const *forced; /* per kernel of the unit: why to leave it out, or NULL */
	bool trial;                /* only finding out what fails: nothing is kept in the unit */
} Relowering;

static void force_left_out(LLVMModuleRef linked, const char **kernels, uint32_t nkernels,
                           const char *const *forced)
{
	for (uint32_t k = 0; k < nkernels; k++) {
		LLVMValueRef f = forced[k] ? LLVMGetNamedFunction(linked, kernels[k]) : NULL;

		if (f)
			LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
			                        LLVMCreateStringAttribute(LLVMGetModuleContext(linked),
			                                                  PTX_LEFT_OUT_ATTRIBUTE,
			                                                  strlen(PTX_LEFT_OUT_ATTRIBUTE),
			                                                  forced[k], strlen(forced[k])));
	}
}

static void replace_reasons(char ***slot, char **reasons, uint32_t n)
{
	for (uint32_t k = 0; *slot && k < n; k++)
		free((*slot)[k]);
	free(*slot);
	*slot = reasons;
}

/* After the link, so that a function left out of one member takes the kernels of the other
 * members that call it with it; then what older PTX of the container translates comes in. */
static void leave_out(Jobs *J, Unit *u, size_t t, const struct ptx_target *hooks,
                      struct ptx_lower_options *options, LLVMContextRef ctx, LLVMModuleRef linked,
                      const char **kernels, uint32_t nkernels, const Relowering *again)
{
	char **reasons = zc_alloc((nkernels + 1) * sizeof(char *));
	const char **from = zc_alloc((nkernels + 1) * sizeof(char *));
	bool any = false, older = false;

	bool trial = again && again->trial;

	if (again && again->forced)
		force_left_out(linked, kernels, nkernels, again->forced);
	ptx_leave_out(linked, kernels, nkernels, reasons);
	for (uint32_t k = 0; k < nkernels; k++)
		any |= reasons[k] != NULL;
	if (any && !trial)
		fallback_to_older_ptx(J->in, u, hooks, options, ctx, linked, kernels, reasons, from,
		                      nkernels);
	any = false;
	for (uint32_t k = 0; k < nkernels; k++) {
		any |= reasons[k] != NULL;
		older |= from[k] != NULL;
	}
	/* a trial only finds out what fails: the unit keeps what the first lowering found */
	if (trial || !any)
		replace_reasons(&reasons, NULL, nkernels);
	if (!trial)
		replace_reasons(&u->left_out[t], reasons, nkernels);
	if (older && !trial) {
		free(u->older_ptx[t]);
		u->older_ptx[t] = from;
	} else {
		free(from);
	}
}

uint32_t unit_left_out(const Unit *u, size_t t)
{
	uint32_t n = 0;

	for (uint32_t k = 0; u->left_out[t] && k < u->nkernels; k++)
		n += u->left_out[t][k] != NULL;
	return n;
}

/* 75 for a module whose `.target` is sm_75 (or sm_75a...); 0 when it names none. */
static uint32_t ptx_arch_of(const struct ptx_module *m)
{
	unsigned sm = 0;

	for (uint32_t i = 0; i < m->ntargets; i++)
		if (sscanf(m->targets[i], "sm_%u", &sm) == 1)
			return sm;
	return 0;
}

/* The unit's trees: the first of its jobs parses and checks every member (listing the
 * unit's globals), the others wait for that, and the last one frees them with the texts
 * (unless --dump=ptx prints those), so that a library of thousands of modules never holds
 * all its trees (about ten times their text) and each is parsed once. NULL when a member
 * does not parse or check: then u->parse_error says why. */
static struct ptx_module **unit_trees(Unit *u)
{
	pthread_mutex_lock(&u->lock);
	if (!u->asts && !u->parse_error) {
		struct ptx_module **asts = zc_alloc((u->nmembers + 1) * sizeof(*asts));
		size_t m;

		for (m = 0; m < u->nmembers; m++) {
			struct ptx_diag diag;

			asts[m] = ptx_parse(u->name, u->texts[m], strlen(u->texts[m]), &diag);
			if (!asts[m] || !ptx_check(asts[m], &diag)) {
				u->parse_error = diagnostic(u, m, &diag);
				ptx_diag_free(&diag);
				free_asts(asts, m + 1);
				break;
			}
			u->reserved_smem |= ptx_uses_reserved_smem(asts[m]);
			enum ptx_subnormals f32 = ptx_f32_subnormals(asts[m]);

			u->f32_subnormals = f32 > u->f32_subnormals ? f32 : u->f32_subnormals;
			uint32_t arch = ptx_arch_of(asts[m]);

			u->ptx_arch = arch > u->ptx_arch ? arch : u->ptx_arch;
		}
		if (m == u->nmembers)
			find_clashing_locals(u, asts);
		for (size_t i = 0; m == u->nmembers && i < u->nmembers; i++)
			collect_globals(u, i, asts[i]);
		if (m == u->nmembers)
			u->asts = asts;
	}
	pthread_mutex_unlock(&u->lock);
	return u->asts;
}

static void unit_done(Jobs *J, Unit *u)
{
	pthread_mutex_lock(&u->lock);
	if (++u->jobs_done == J->o->ntargets) {
		free_asts(u->asts, u->asts ? u->nmembers : 0);
		u->asts = NULL;
		free(u->renamed); /* it points into the trees */
		u->renamed = NULL;
		u->nrenamed = 0;
		for (size_t m = 0; !(J->o->dump && !strcmp(J->o->dump, "ptx")) && m < u->nmembers; m++) {
			free(u->texts[m]);
			u->texts[m] = NULL;
		}
	}
	pthread_mutex_unlock(&u->lock);
}

typedef struct {
	LLVMModuleRef into, from;
} LinkStep;

static int link_step(void *arg, char **error)
{
	LinkStep *link = arg;

	return LLVMLinkModules2(link->into, link->from) ? backend_fail(error, "LLVM could not link them") : 0;
}

/* LLVMLinkModules2 with its diagnostics as the error (the source module is gone either way). */
static int link_member(LLVMModuleRef into, LLVMModuleRef from, char **error)
{
	LinkStep link = {into, from};

	return zc_guarded(LLVMGetModuleContext(into), link_step, &link, error);
}

/* Lowers every member and links them into one module. The lead target also records the
 * kernel table: it does not depend on the target. `again`: not the first time
 * (see Relowering). in_part, unless NULL: per kernel of the unit, whether the part being
 * lowered has it (the others are left declared). *names, when asked for, gets the unit's
 * kernel names (in the order of u->kernels, pointing into the trees); *matrix_dependent,
 * when asked for, becomes true where the module would differ without the target's matrix
 * instructions. */
static LLVMModuleRef lower_unit(Jobs *J, Unit *u, size_t t, LLVMContextRef ctx,
                                const Relowering *again, const bool *in_part, const char ***names,
                                uint32_t *nnames, bool *matrix_dependent, char **error)
{
	const ZcTarget *target = J->o->targets[t];
	const struct ptx_target *hooks = target->kind == ZC_CODE_OBJECT_HOST ? &ptx_target_host
	                                                                      : &ptx_target_amdgpu;
	LLVMModuleRef linked = NULL;
	/* linked members lay their shared variables out one after another */
	struct ptx_lower_options options = {
		.shared_start = u->reserved_smem && hooks->shared_as_offsets ? PTX_RESERVED_SMEM_SIZE : 0,
		.line_info = !J->o->no_line_info, .reserved_smem = u->reserved_smem,
		.f32_subnormals_flushed = u->f32_subnormals == PTX_SUBNORMALS_FLUSHED,
		.matrix_instructions = target->matrix_instructions && !J->o->portable_matrix,
	};
	const char **kernels = NULL; /* of every member, in the order of u->kernels */
	uint32_t nkernels = 0;

	for (size_t m = 0; m < u->nmembers; m++) {
		struct ptx_diag diag;
		struct ptx_lowered l;
		MemberName label = unit_member_name(u, m);

		options.label = label.text;
		options.kernel_bodies = in_part ? in_part + nkernels : NULL;
		if (!ptx_lower(u->asts[m], hooks, ctx, &options, &l, &diag)) {
			*error = diagnostic(u, m, &diag);
			ptx_diag_free(&diag);
			if (linked)
				LLVMDisposeModule(linked);
			free(kernels);
			return NULL;
		}
		if (t == J->lead && !again)
			keep_kernels(u, &l);
		if (matrix_dependent)
			*matrix_dependent |= l.matrix_dependent;
		kernels = zc_realloc(kernels, (nkernels + l.nkernels + 1) * sizeof(*kernels));
		for (uint32_t k = 0; k < l.nkernels; k++)
			kernels[nkernels++] = l.kernels[k].name; /* in the member's AST, which stays */
		options.shared_start = l.shared_layout_end;
		rename_clashing_locals(u, m, l.module);
		if (!linked) {
			linked = l.module;
		} else if (link_member(linked, l.module, error)) {
			char *why = *error;

			*error = format("linking the %s with the other members failed: %s",
			                unit_member_name(u, m).text, why ? why : "no message");
			free(why);
			l.module = NULL;
			ptx_lowered_free(&l);
			LLVMDisposeModule(linked);
			free(kernels);
			return NULL;
		}
		l.module = NULL; /* owned by `linked` now */
		ptx_lowered_free(&l);
	}
	if (linked)
		leave_out(J, u, t, hooks, &options, ctx, linked, kernels, nkernels, again);
	if (linked && names) {
		*names = kernels;
		*nnames = nkernels;
	} else {
		free(kernels);
	}
	if (linked && hooks->shared_as_offsets)
		export_shared_layout(linked, options.shared_start);
	return linked;
}

static char *llvm_text(LLVMModuleRef m)
{
	char *ir = LLVMPrintModuleToString(m), *copy = zc_strndup(ir, strlen(ir));

	LLVMDisposeMessage(ir);
	return copy;
}

/* zc_compile's steps one by one, keeping the optimised IR or the assembly for --dump. */
static int compile_dumping(LLVMModuleRef m, const ZcTarget *target, const char *stage,
                           ZcBytes *code, char **dump, char **error)
{
	ZcCodegenOptions options = {0};
	LLVMTargetMachineRef machine = zc_target_machine(target, NULL, error);
	ZcBytes object = {0}, assembly = {0};
	int status;

	if (!machine)
		return -1;
	status = zc_codegen_optimize(m, machine, target, &options, error);
	if (status == 0 && strcmp(stage, "ll-opt") == 0)
		*dump = llvm_text(m);
	if (status == 0 && strcmp(stage, "asm") == 0) {
		/* Code generation changes the module it runs on: the assembly comes from a copy. */
		LLVMModuleRef copy = LLVMCloneModule(m);

		status = zc_codegen_emit(copy, machine, LLVMAssemblyFile, &assembly, error);
		if (status == ZC_LLVM_LOST)
			return status;
		LLVMDisposeModule(copy);
		if (status == 0)
			*dump = zc_strndup((const char *)assembly.data, assembly.size);
	}
	if (status == 0)
		status = zc_codegen_emit(m, machine, LLVMObjectFile, &object, error);
	if (status == ZC_LLVM_LOST)
		return status;
	LLVMDisposeTargetMachine(machine);
	if (status == 0)
		status = zc_link(target, &object, 1, code, error);
	free(object.data);
	free(assembly.data);
	return status;
}

/* Lowers unit u for target t again and compiles it, in a context of its own. */
static int compile_again(Jobs *J, Unit *u, size_t t, const Relowering *again, bool unoptimized,
                         ZcBytes *code, char **error)
{
	LLVMContextRef ctx = LLVMContextCreate();
	ZcCodegenOptions options = {.unoptimized_codegen = unoptimized};
	LLVMModuleRef m = lower_unit(J, u, t, ctx, again, NULL, NULL, NULL, NULL, error);
	int status = m ? zc_compile(m, J->o->targets[t], &options, code, error) : -1;

	if (status == ZC_LLVM_LOST)
		return -1;
	if (m)
		LLVMDisposeModule(m);
	LLVMContextDispose(ctx);
	return status;
}

static const char TRIAL_REASON[] = "not in this trial";

/* Sets bad[k] for the kernels in [lo, hi) whose code generation fails on its own, trying
 * them in halves: a few compiles of parts of the unit where one kernel is at fault. */
static void find_failing(Jobs *J, Unit *u, size_t t, uint32_t nkernels, uint32_t lo, uint32_t hi,
                         char **bad)
{
	const char **forced = zc_alloc((nkernels + 1) * sizeof(char *));
	ZcBytes code = {0};
	char *error = NULL;
	int status;

	for (uint32_t k = 0; k < nkernels; k++)
		forced[k] = k >= lo && k < hi ? NULL : TRIAL_REASON;
	status = compile_again(J, u, t, &(Relowering){forced, true}, true, &code, &error);
	free(forced);
	free(code.data);
	if (status == 0 || hi - lo == 1) {
		if (status != 0)
			bad[lo] = format("code generation failed: %s", error ? error : "no message");
		free(error);
		return;
	}
	free(error);
	find_failing(J, u, t, nkernels, lo, lo + (hi - lo) / 2, bad);
	find_failing(J, u, t, nkernels, lo + (hi - lo) / 2, hi, bad);
}

/* LLVM failed to generate the unit's code (an error it reports, or a bug of its own that
 * would have ended the process): generate it again unoptimised; if that fails too, find
 * the kernels that fail and leave them out, each with LLVM's message as its reason. */
static void recover_codegen(Jobs *J, Unit *u, size_t t, uint32_t nkernels, char **error)
{
	char **bad = zc_alloc((nkernels + 1) * sizeof(char *));
	char *again_error = NULL;
	bool any = false;

	if (compile_again(J, u, t, &(Relowering){NULL, false}, true, &u->code[t], &again_error) == 0) {
		u->unoptimized[t] = *error;
		*error = NULL;
		free(bad);
		return;
	}
	free(u->code[t].data);
	u->code[t] = (ZcBytes){0};
	if (nkernels == 1)
		bad[0] = format("code generation failed: %s", again_error ? again_error : "no message");
	else
		find_failing(J, u, t, nkernels, 0, nkernels, bad);
	free(again_error);
	again_error = NULL;
	for (uint32_t k = 0; k < nkernels; k++)
		any |= bad[k] != NULL;
	if (any) {
		Relowering final = {(const char *const *)bad, false};

		if (compile_again(J, u, t, &final, false, &u->code[t], &again_error) != 0) {
			free(again_error);
			again_error = NULL;
			free(u->code[t].data);
			u->code[t] = (ZcBytes){0};
			if (compile_again(J, u, t, &final, true, &u->code[t], &again_error) == 0) {
				u->unoptimized[t] = *error;
				*error = NULL;
			}
		} else {
			free(*error);
			*error = NULL;
		}
	}
	if (*error) {
		free(u->code[t].data);
		u->code[t] = (ZcBytes){0};
	}
	free(again_error);
	for (uint32_t k = 0; k < nkernels; k++)
		free(bad[k]);
	free(bad);
}

static bool matrix_by_instructions(const Jobs *J, size_t t)
{
	return J->o->targets[t]->matrix_instructions && !J->o->portable_matrix;
}

/* The AMDGPU targets that may take the lead's optimised module of unit u (lowered as m):
 * shares[g], and how many. None where a dump or --save-temps wants each target's stages,
 * or where kernels came from older PTX (lowered apart from the unit). */
static size_t choose_sharing(Jobs *J, const Unit *u, LLVMModuleRef m, bool matrix_dependent,
                             bool *shares)
{
	const ZcTarget *lead = J->o->targets[J->lead];
	size_t n = 0;

	if (J->o->dump || J->o->save_temps || u->older_ptx[J->lead])
		return 0;
	for (size_t g = 0; g < J->o->ntargets; g++) {
		bool same_lowering = !matrix_dependent || matrix_by_instructions(J, g) == matrix_by_instructions(J, J->lead);

		shares[g] = g != J->lead && same_lowering && zc_shares_middle_end(m, lead, J->o->targets[g]);
		n += shares[g];
	}
	return n;
}

/* What the lead's lowering left out, for target t, which takes its module. */
static void copy_left_out(Unit *u, size_t lead, size_t t)
{
	if (u->left_out[lead]) {
		u->left_out[t] = zc_alloc((u->nkernels + 1) * sizeof(char *));
		for (uint32_t k = 0; k < u->nkernels; k++)
			u->left_out[t][k] = u->left_out[lead][k] ? zc_strndup(u->left_out[lead][k], strlen(u->left_out[lead][k]))
			                                          : NULL;
	}
}

static void free_modules(ZcBytes *modules, uint32_t n)
{
	for (uint32_t i = 0; modules && i < n; i++)
		free(modules[i].data);
	free(modules);
}

/* The lead's job says which targets take its optimised module, whole or in parts (shares
 * NULL: none, each lowers and compiles on its own), and gives them what its lowering left
 * out, before its own code generation, whose failure may lower it again; the first
 * decision stands. `modules`, malloc'd, passes to the unit. */
static void decide(Jobs *J, Unit *u, const bool *shares, ZcBytes *modules, uint32_t nmodules, size_t readers)
{
	pthread_mutex_lock(&u->lock);
	if (u->sharing == SHARING_UNDECIDED) {
		for (size_t t = 0; t < MAX_TARGETS; t++) {
			u->shares[t] = shares && shares[t];
			if (u->shares[t])
				copy_left_out(u, J->lead, t);
		}
		u->shared_modules = modules;
		u->nshared_modules = nmodules;
		u->shared_readers = readers;
		u->sharing = SHARING_DECIDED;
		modules = NULL;
	}
	pthread_mutex_unlock(&u->lock);
	free_modules(modules, nmodules);
	/* after u->lock is let go: help_until takes tasks_lock, then u->lock */
	pthread_mutex_lock(&J->tasks_lock);
	pthread_cond_broadcast(&J->tasks_changed);
	pthread_mutex_unlock(&J->tasks_lock);
}

static ZcBytes *one_module(ZcBytes module)
{
	ZcBytes *modules = zc_alloc(sizeof *modules);

	*modules = module;
	return modules;
}

static bool unit_decided(Jobs *J, void *arg)
{
	Unit *u = arg;
	bool decided;

	(void)J;
	pthread_mutex_lock(&u->lock);
	decided = u->sharing != SHARING_UNDECIDED;
	pthread_mutex_unlock(&u->lock);
	return decided;
}

static bool split_done(Jobs *J, void *arg)
{
	(void)J;
	return ((Split *)arg)->left == 0;
}

/* Every part is queued by a job that waits for it: no job left, no part left. */
static bool jobs_finished(Jobs *J, void *arg)
{
	(void)arg;
	return J->jobs_left == 0;
}

static void run_part(Jobs *J, Split *s, uint32_t p);

/* Runs queued parts, anyone's, until done(J, arg) holds (asked with tasks_lock held): a
 * thread that would wait works instead. */
static void help_until(Jobs *J, bool (*done)(Jobs *J, void *arg), void *arg)
{
	pthread_mutex_lock(&J->tasks_lock);
	while (!done(J, arg)) {
		if (J->next_task < J->ntasks) {
			Task task = J->tasks[J->next_task++];

			pthread_mutex_unlock(&J->tasks_lock);
			run_part(J, task.split, task.part);
			pthread_mutex_lock(&J->tasks_lock);
			task.split->left--;
			pthread_cond_broadcast(&J->tasks_changed);
		} else {
			pthread_cond_wait(&J->tasks_changed, &J->tasks_lock);
		}
	}
	pthread_mutex_unlock(&J->tasks_lock);
}

static LLVMModuleRef parse_module(LLVMContextRef ctx, const ZcBytes *bitcode, const char *name)
{
	LLVMMemoryBufferRef buffer =
		LLVMCreateMemoryBufferWithMemoryRange((const char *)bitcode->data, bitcode->size, name, 0);
	LLVMModuleRef m = NULL;

	if (LLVMParseBitcodeInContext2(ctx, buffer, &m))
		m = NULL;
	LLVMDisposeMemoryBuffer(buffer);
	return m;
}

/* One part of split s: its module, lowered with its kernels only or parsed from the lead's
 * optimised part, then optimised (when lowered) and emitted. */
static void run_part(Jobs *J, Split *s, uint32_t p)
{
	const ZcTarget *target = J->o->targets[s->t];
	ZcCodegenOptions options = {.later_part = p > 0};
	LLVMContextRef ctx = LLVMContextCreate();
	LLVMModuleRef m;
	LLVMTargetMachineRef machine = NULL;
	char *error = NULL;
	int status;

	if (s->lowers) {
		bool *in_part = zc_alloc(s->nkernels + 1);

		for (uint32_t k = 0; k < s->nkernels; k++)
			in_part[k] = s->part_of[k] == p && !(s->u->left_out[s->t] && s->u->left_out[s->t][k]);
		m = lower_unit(J, s->u, s->t, ctx, &(Relowering){NULL, true}, in_part, NULL, NULL, NULL, &error);
		for (uint32_t k = 0; m && k < s->nkernels; k++) {
			LLVMValueRef f = in_part[k] ? LLVMGetNamedFunction(m, s->kernels[k]) : NULL;

			if (in_part[k] && (!f || LLVMIsDeclaration(f))) { /* never lose a kernel */
				error = format("kernel %s is missing from its part", s->kernels[k]);
				LLVMDisposeModule(m);
				m = NULL;
			}
		}
		free(in_part);
		if (m)
			zc_make_part(m, p == 0);
	} else {
		m = parse_module(ctx, &s->u->shared_modules[p], s->u->name);
		if (m)
			zc_retarget(m, target);
	}
	if (m)
		machine = zc_target_machine(target, &options, &error);
	status = machine ? 0 : -1;
	if (status == 0 && s->lowers)
		status = zc_codegen_optimize(m, machine, target, &options, &error);
	if (status == 0 && s->keep_optimized)
		s->optimized[p] = module_bitcode(m);
	if (status == 0 && s->emit)
		status = zc_codegen_emit(m, machine, LLVMObjectFile, &s->objects[p], &error);
	if (status != 0)
		s->errors[p] = error ? error : zc_strndup("no message", 10);
	if (status == ZC_LLVM_LOST)
		return; /* m, its context and the machine left as LLVM left them */
	if (machine)
		LLVMDisposeTargetMachine(machine);
	if (m)
		LLVMDisposeModule(m);
	LLVMContextDispose(ctx);
}

/* Runs split s's parts (this thread with any that are free) and links their objects into
 * *code when it emits. A part's failure is the split's, -1 even where LLVM was lost: that
 * was the part's own context. */
static int run_split(Jobs *J, Split *s, ZcBytes *code, char **error)
{
	const ZcTarget *target = J->o->targets[s->t];
	int status = 0;

	s->objects = zc_alloc(s->nparts * sizeof *s->objects);
	memset(s->objects, 0, s->nparts * sizeof *s->objects);
	s->optimized = s->keep_optimized ? zc_alloc(s->nparts * sizeof *s->optimized) : NULL;
	if (s->optimized)
		memset(s->optimized, 0, s->nparts * sizeof *s->optimized);
	s->errors = zc_alloc(s->nparts * sizeof *s->errors);
	memset(s->errors, 0, s->nparts * sizeof *s->errors);
	pthread_mutex_lock(&J->tasks_lock);
	if (J->ntasks + s->nparts > J->capacity) {
		J->capacity = (J->ntasks + s->nparts) * 2;
		J->tasks = zc_realloc(J->tasks, J->capacity * sizeof *J->tasks);
	}
	for (uint32_t p = 0; p < s->nparts; p++)
		J->tasks[J->ntasks++] = (Task){s, p};
	s->left = s->nparts;
	pthread_cond_broadcast(&J->tasks_changed);
	pthread_mutex_unlock(&J->tasks_lock);
	help_until(J, split_done, s);
	for (uint32_t p = 0; p < s->nparts; p++)
		if (s->errors[p] && status == 0) {
			*error = format("part %u of %u: %s", p + 1, s->nparts, s->errors[p]);
			status = -1;
		}
	if (status == 0 && s->emit)
		status = zc_link(target, s->objects, s->nparts, code, error);
	for (uint32_t p = 0; p < s->nparts; p++) {
		free(s->objects[p].data);
		free(s->errors[p]);
	}
	free(s->objects);
	free(s->errors);
	if (status != 0) {
		free_modules(s->optimized, s->nparts);
		s->optimized = NULL;
	}
	return status;
}

/* The lead's middle end, its module then handed to the `readers` targets of shares that the
 * cache did not serve, and its own code generated unless the cache had it. */
static int optimize_and_share(Jobs *J, Unit *u, LLVMModuleRef m, const bool *shares, size_t readers,
                              char **error)
{
	const ZcTarget *target = J->o->targets[J->lead];
	ZcCodegenOptions options = {0};
	LLVMTargetMachineRef machine = zc_target_machine(target, &options, error);
	int status = machine ? zc_codegen_optimize(m, machine, target, &options, error) : -1;

	if (status != ZC_LLVM_LOST && machine)
		LLVMDisposeTargetMachine(machine);
	if (status != 0) {
		decide(J, u, NULL, NULL, 0, 0);
		return status;
	}
	decide(J, u, shares, one_module(module_bitcode(m)), 1, readers);
	return u->cached[J->lead] ? 0 : zc_generate(m, target, &options, &u->code[J->lead], error);
}

/* The lead's optimised module, read by one more target: the last frees it. */
static void release_shared(Unit *u)
{
	pthread_mutex_lock(&u->lock);
	if (--u->shared_readers == 0) {
		free_modules(u->shared_modules, u->nshared_modules);
		u->shared_modules = NULL;
		u->nshared_modules = 0;
	}
	pthread_mutex_unlock(&u->lock);
}

/* Target t's code from the lead's optimised module, once the lead's job has decided: true
 * when t takes it (the code, or what the cache held for it); false when t lowers and
 * compiles on its own, as it also does when generating the shared module fails. */
static bool take_shared(Jobs *J, Unit *u, size_t t)
{
	const ZcTarget *target = J->o->targets[t];
	ZcCodegenOptions options = {0};
	LLVMContextRef ctx;
	LLVMModuleRef m;
	char *error = NULL;
	int status;

	help_until(J, unit_decided, u);
	if (!u->shares[t])
		return false;
	if (u->cached[t])
		return true;
	if (u->nshared_modules > 1) {
		Split split = {.u = u, .t = t, .nparts = u->nshared_modules, .emit = true};

		status = run_split(J, &split, &u->code[t], &error);
		release_shared(u);
		u->parts[t] = split.nparts;
	} else {
		ctx = LLVMContextCreate();
		m = parse_module(ctx, &u->shared_modules[0], u->name);
		release_shared(u);
		if (!m) {
			LLVMContextDispose(ctx);
			return false;
		}
		zc_retarget(m, target);
		status = zc_generate(m, target, &options, &u->code[t], &error);
		if (status != ZC_LLVM_LOST) { /* else m and ctx are left as LLVM left them */
			LLVMDisposeModule(m);
			LLVMContextDispose(ctx);
		}
		u->parts[t] = 1;
	}
	free(error);
	if (status != 0) {
		free(u->code[t].data);
		u->code[t] = (ZcBytes){0};
		return false;
	}
	if (J->o->cache)
		module_cache_put(J->o->cache, &u->key[t], target, &u->code[t]);
	u->shared[t] = true;
	return true;
}

static void run_job(Jobs *J, Unit *u, size_t t)
{
	const ZcTarget *target = J->o->targets[t];
	LLVMContextRef ctx;
	ZcCodegenOptions options = {0};
	char *error = NULL;
	LLVMModuleRef m;
	const char **kernels = NULL;
	uint32_t nkernels = 0;
	bool matrix_dependent = false;
	int status;

	if (t != J->lead && target->kind == ZC_CODE_OBJECT_AMDHSA && J->o->targets[J->lead]->kind == ZC_CODE_OBJECT_AMDHSA &&
	    take_shared(J, u, t))
		return;
	if (!unit_trees(u)) {
		u->error[t] = zc_strndup(u->parse_error, strlen(u->parse_error));
		if (t == J->lead)
			decide(J, u, NULL, NULL, 0, 0);
		return;
	}
	ctx = LLVMContextCreate();
	m = lower_unit(J, u, t, ctx, NULL, NULL, &kernels, &nkernels, &matrix_dependent, &error);

	if (m && J->o->save_temps) {
		char *ir = LLVMPrintModuleToString(m), *suffix = format("%s.ll", target->name);
		save(J->o, u, suffix, ir, strlen(ir));
		LLVMDisposeMessage(ir);
		free(suffix);
	}
	if (m && J->o->dump && strcmp(J->o->dump, "ll") == 0)
		u->dump[t] = llvm_text(m);
	if (m) {
		bool dumping = J->o->dump && strcmp(J->o->dump, "ll") != 0 && strcmp(J->o->dump, "ptx") != 0;
		/* --dump and --save-temps want every stage made */
		bool use_cache = J->o->cache && !J->o->dump && !J->o->save_temps;
		bool shares[MAX_TARGETS] = {false};
		size_t nshares = t == J->lead ? choose_sharing(J, u, m, matrix_dependent, shares) : 0, readers = 0;
		ZcBytes bitcode = use_cache ? module_bitcode(m) : (ZcBytes){0};

		for (size_t g = 0; g < J->o->ntargets; g++) {
			if (use_cache && (g == t || shares[g])) {
				u->key[g] = module_cache_key(&bitcode, J->o->targets[g]);
				u->cached[g] = module_cache_get(J->o->cache, &u->key[g], J->o->targets[g], &u->code[g]);
			}
			readers += shares[g] && !u->cached[g];
		}
		free(bitcode.data);
		uint32_t *part_of = zc_alloc((nkernels + 1) * sizeof *part_of);
		uint32_t nparts = !dumping && target->format == ZC_OBJECT_ELF && !u->older_ptx[t] &&
		                  (readers || !u->cached[t]) ? zc_plan_parts(m, kernels, nkernels, J->part_instructions, part_of) : 1;

		/* the others need not wait for this target's compile */
		if (t == J->lead && !readers)
			decide(J, u, nshares ? shares : NULL, NULL, 0, 0);
		u->parts[t] = u->cached[t] ? 0 : 1;
		if (nparts > 1) {
			Split split = {.u = u, .t = t, .nparts = nparts, .lowers = true, .part_of = part_of,
			               .kernels = kernels, .nkernels = nkernels, .emit = !u->cached[t], .keep_optimized = readers > 0};

			LLVMDisposeModule(m); /* the parts lower their own */
			m = NULL;
			status = run_split(J, &split, &u->code[t], &error);
			if (readers)
				decide(J, u, status == 0 ? shares : NULL, split.optimized, nparts, readers);
			if (status == 0 && !u->cached[t])
				u->parts[t] = nparts;
		} else if (readers)
			status = optimize_and_share(J, u, m, shares, readers, &error);
		else if (u->cached[t])
			status = 0;
		else if (dumping)
			status = compile_dumping(m, target, J->o->dump, &u->code[t], &u->dump[t], &error);
		else
			status = zc_compile(m, target, &options, &u->code[t], &error);
		if (status == 0 && use_cache && !u->cached[t])
			module_cache_put(J->o->cache, &u->key[t], target, &u->code[t]);
		free(part_of);
		if (status == ZC_LLVM_LOST)
			m = NULL, ctx = NULL; /* left as LLVM left them */
		if (status != 0 && !dumping)
			recover_codegen(J, u, t, nkernels, &error);
		if (!error) {
			char *suffix = format("%s.co", target->name);
			save(J->o, u, suffix, u->code[t].data, u->code[t].size);
			free(suffix);
		}
	}
	if (t == J->lead)
		decide(J, u, NULL, NULL, 0, 0);
	free(kernels);
	u->error[t] = error;
	if (m)
		LLVMDisposeModule(m);
	if (ctx)
		LLVMContextDispose(ctx);
}

/* On a terminal one line that counts up; otherwise, under -v, a line at every twentieth
 * of the jobs, so that a log shows a long conversion moving. Only jobs with PTX to compile
 * count: a library's SASS-only fatbins (two thirds of cuFFT's) take no time. */
static void show_progress(Jobs *J, size_t done)
{
	pthread_mutex_lock(&J->lock);
	if (J->progress)
		fprintf(stderr, "\r[%zu/%zu] compiling%s", done, J->work, done == J->work ? "\r\033[K" : "");
	else if (done * 20 / J->work != (done - 1) * 20 / J->work)
		fprintf(stderr, "%s: compiled %zu of %zu modules and targets (%zu %%)\n", J->o->in, done,
		        J->work, done * 100 / J->work);
	fflush(stderr);
	pthread_mutex_unlock(&J->lock);
}

static void *worker(void *arg)
{
	Jobs *J = arg;

	for (;;) {
		size_t job = atomic_fetch_add(&J->next, 1);

		if (job >= J->njobs)
			break;
		Unit *u = &J->units[J->order[job].unit];
		bool skipped = u->skip_reason != NULL;

		if (!skipped)
			run_job(J, u, J->order[job].target);
		unit_done(J, u);
		if (!skipped && (J->progress || verbosity >= 2))
			show_progress(J, atomic_fetch_add(&J->done, 1) + 1);
		pthread_mutex_lock(&J->tasks_lock);
		J->jobs_left--;
		pthread_cond_broadcast(&J->tasks_changed);
		pthread_mutex_unlock(&J->tasks_lock);
	}
	help_until(J, jobs_finished, NULL);
	return NULL;
}

/* Each unit's lead job first, and its other jobs after the next unit's lead job, by which
 * time the lead's middle end has most likely run: the others find it ready rather than
 * wait, and at most a few units' trees are held at once. Of those, the host targets' come
 * first: they never wait for the lead. */
static void order_jobs(Jobs *J)
{
	size_t n = 0;

	J->order = zc_alloc((J->njobs + 1) * sizeof(Job));
	for (size_t i = 0; i <= J->nunits; i++) {
		if (i < J->nunits)
			J->order[n++] = (Job){i, J->lead};
		for (int amdgpu = 0; i > 0 && amdgpu < 2; amdgpu++)
			for (size_t t = 0; t < J->o->ntargets; t++)
				if (t != J->lead && (J->o->targets[t]->kind == ZC_CODE_OBJECT_AMDHSA) == amdgpu)
					J->order[n++] = (Job){i - 1, t};
	}
}

/* How large a part of a split module is: tests make every kernel a part with 1. */
static size_t part_instructions(void)
{
	const char *value = getenv("ZLUDA_CONVERT_PART_INSTRUCTIONS");
	char *end;
	unsigned long long n = value ? strtoull(value, &end, 10) : 0;

	return value && *value && !*end ? (size_t)n : 0;
}

void units_compile(const Input *in, Unit *units, size_t nunits, const ConvertOptions *o)
{
	Jobs J = {.in = in, .units = units, .nunits = nunits, .o = o, .njobs = nunits * o->ntargets};
	int nthreads = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t *threads;

	if (nthreads < 1)
		nthreads = 1;
	for (size_t t = o->ntargets; t-- > 0;)
		if (o->targets[t]->kind == ZC_CODE_OBJECT_AMDHSA)
			J.lead = t;
	order_jobs(&J);
	J.jobs_left = J.njobs;
	J.part_instructions = part_instructions();
	for (size_t i = 0; i < nunits; i++) {
		pthread_mutex_init(&units[i].lock, NULL);
		if (!units[i].skip_reason)
			J.work += o->ntargets;
	}
	for (size_t i = 0; i < nunits; i++)
		for (size_t m = 0; o->save_temps && m < units[i].nmembers; m++) {
			char *suffix = format("%zu.ptx", m);
			save(o, &units[i], suffix, units[i].texts[m], strlen(units[i].texts[m]));
			free(suffix);
		}
	J.progress = verbosity >= 1 && isatty(2);
	pthread_mutex_init(&J.lock, NULL);
	pthread_mutex_init(&J.tasks_lock, NULL);
	pthread_cond_init(&J.tasks_changed, NULL);
	zc_backend_init();
	threads = zc_alloc((size_t)nthreads * sizeof(pthread_t));
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&threads[i], NULL, worker, &J) != 0)
			fail_input(o->in, "cannot start a compile thread");
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	if (o->cache)
		module_cache_trim(o->cache);
	pthread_mutex_destroy(&J.lock);
	pthread_mutex_destroy(&J.tasks_lock);
	pthread_cond_destroy(&J.tasks_changed);
	free(J.tasks);
	free(J.order);
	for (size_t i = 0; i < nunits; i++) {
		pthread_mutex_destroy(&units[i].lock);
		/* when a target that shares failed before reading it */
		free_modules(units[i].shared_modules, units[i].nshared_modules);
	}
}
