/* .file and .loc as DWARF line tables: a compile unit per module, a subprogram per function,
 * and every instruction at the source line its .loc gave (line 0 before the first one, so
 * that calls the inliner may expand always have a location). Only line tables: PTX carries
 * no types or variables worth keeping. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "lower.h"

static LLVMMetadataRef file_of(struct lower *L, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) : 0;
	const char *name = slash ? slash + 1 : path;

	return LLVMDIBuilderCreateFile(L->dib, name, strlen(name), path, dir_len);
}

/* The module's first .file names the compile unit; a module without any keeps no lines. */
void debug_begin(struct lower *L, bool line_info)
{
	const char *first = NULL, producer[] = "zluda-convert";

	for (uint32_t i = 0; line_info && !first && i < L->module->nfiles; i++)
		first = L->module->files[i];
	if (!first)
		return;
	L->dib = LLVMCreateDIBuilder(L->mod);
	L->debug_file = file_of(L, first);
	L->debug_unit = LLVMDIBuilderCreateCompileUnit(L->dib, LLVMDWARFSourceLanguageC_plus_plus, L->debug_file,
	                                               producer, sizeof(producer) - 1, 1, "", 0, 0, "", 0,
	                                               LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
	L->debug_scopes = lower_alloc(sizeof(LLVMMetadataRef) * L->module->nfiles);
	L->debug_files = lower_alloc(sizeof(LLVMMetadataRef) * L->module->nfiles);
}

void debug_function(struct lower *L, const struct ptx_func *f)
{
	LLVMMetadataRef type, sp;

	if (!L->dib)
		return;
	type = LLVMDIBuilderCreateSubroutineType(L->dib, L->debug_file, NULL, 0, LLVMDIFlagZero);
	sp = LLVMDIBuilderCreateFunction(L->dib, L->debug_file, f->name, strlen(f->name), f->name, strlen(f->name),
	                                 L->debug_file, 0, type, LLVMGetLinkage(L->fn) == LLVMInternalLinkage,
	                                 1, 0, LLVMDIFlagZero, 1);
	LLVMSetSubprogram(L->fn, sp);
	L->debug_subprogram = sp;
	memset(L->debug_scopes, 0, sizeof(LLVMMetadataRef) * L->module->nfiles);
	LLVMSetCurrentDebugLocation2(L->b, LLVMDIBuilderCreateDebugLocation(L->ctx, 0, 0, sp, NULL));
}

/* A .loc naming a file no .file declared keeps the location before it. */
void debug_instruction(struct lower *L, const struct ptx_insn *insn)
{
	uint32_t file = insn->debug.file;
	LLVMMetadataRef *scope;

	if (!L->dib || !L->debug_subprogram || file == 0 || file >= L->module->nfiles || !L->module->files[file])
		return;
	scope = &L->debug_scopes[file];
	if (!L->debug_files[file])
		L->debug_files[file] = file_of(L, L->module->files[file]);
	if (!*scope)
		*scope = LLVMDIBuilderCreateLexicalBlockFile(L->dib, L->debug_subprogram, L->debug_files[file], 0);
	LLVMSetCurrentDebugLocation2(L->b, LLVMDIBuilderCreateDebugLocation(L->ctx, insn->debug.line,
	                                                                    insn->debug.col, *scope, NULL));
}

void debug_end_function(struct lower *L)
{
	if (!L->dib)
		return;
	LLVMSetCurrentDebugLocation2(L->b, NULL);
	L->debug_subprogram = NULL;
}

/* After a failed lowering too (ok false): the builder goes, with or without its output. */
void debug_end(struct lower *L, bool ok)
{
	if (!L->dib)
		return;
	if (ok) {
		LLVMTypeRef i32 = ll_int(L, 32);
		LLVMDIBuilderFinalize(L->dib);
		LLVMAddModuleFlag(L->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
		                  LLVMValueAsMetadata(LLVMConstInt(i32, LLVMDebugMetadataVersion(), 0)));
		LLVMAddModuleFlag(L->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
		                  LLVMValueAsMetadata(LLVMConstInt(i32, 5, 0)));
	}
	LLVMDisposeDIBuilder(L->dib);
	free(L->debug_scopes);
	free(L->debug_files);
	L->dib = NULL;
}
