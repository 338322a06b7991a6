/* LLVM has two ways of stopping a compilation, and both would end the converter with every
 * other module of a library: an error diagnostic (with no handler of the context's own, LLVM
 * prints it and exits: "stack frame size exceeds limit") and a fatal error
 * (report_fatal_error prints "LLVM ERROR" and aborts: a code generator bug such as
 * "Unsupported instruction"). zc_guarded turns both into the error of the one step it runs,
 * so that the caller can try again another way or leave the kernel out.
 *
 * A fatal error unwinds by longjmp through LLVM's frames: whatever they held is leaked, and
 * the module, target machine and context of the step are in no known state (ZC_LLVM_LOST).
 * The handler is the process's; the jump target is the thread's, so jobs on other threads
 * go on. A fatal error outside any guarded step ends the process as before. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/ErrorHandling.h>

#include "backend.h"

#if defined(__SANITIZE_ADDRESS__)
#define ZC_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZC_LSAN 1
#endif
#endif
#ifdef ZC_LSAN
/* What a step that LLVM abandons holds is leaked on purpose: not reported at exit. */
void __lsan_disable(void);
void __lsan_enable(void);
#else
static void __lsan_disable(void) {}
static void __lsan_enable(void) {}
#endif

static __thread jmp_buf *fatal_exit;
static __thread char *fatal_reason;
static __thread char *error_diagnostics;

static void on_fatal_error(const char *reason)
{
	if (!fatal_exit) {
		fprintf(stderr, "LLVM ERROR: %s\n", reason); /* and LLVM ends the process */
		return;
	}
	fatal_reason = strdup(reason ? reason : "unknown fatal error");
	longjmp(*fatal_exit, 1);
}

static void on_diagnostic(LLVMDiagnosticInfoRef info, void *unused)
{
	(void)unused;
	if (LLVMGetDiagInfoSeverity(info) != LLVMDSError)
		return;
	char *text = LLVMGetDiagInfoDescription(info), *joined;
	const char *shown = text;
	/* code generation's diagnostics have no source location: LLVM writes it as this */
	if (strncmp(shown, "<unknown>:0:0: ", 15) == 0)
		shown += 15;
	if (!error_diagnostics)
		joined = strdup(shown);
	else if (asprintf(&joined, "%s; %s", error_diagnostics, shown) < 0)
		joined = NULL;
	LLVMDisposeMessage(text);
	if (joined) {
		free(error_diagnostics);
		error_diagnostics = joined;
	}
}

void zc_guard_init(void)
{
	LLVMInstallFatalErrorHandler(on_fatal_error);
}

int zc_guarded(LLVMContextRef context, int (*step)(void *arg, char **error), void *arg, char **error)
{
	jmp_buf here;
	LLVMDiagnosticHandler old_handler = LLVMContextGetDiagnosticHandler(context);
	void *old_context = LLVMContextGetDiagnosticContext(context);

	LLVMContextSetDiagnosticHandler(context, on_diagnostic, NULL);
	__lsan_disable();
	if (setjmp(here)) {
		__lsan_enable();
		fatal_exit = NULL;
		free(error_diagnostics);
		error_diagnostics = NULL;
		backend_fail(error, "LLVM failed: %s", fatal_reason ? fatal_reason : "out of memory");
		free(fatal_reason);
		fatal_reason = NULL;
		return ZC_LLVM_LOST;
	}
	fatal_exit = &here;
	int status = step(arg, error);
	__lsan_enable();
	fatal_exit = NULL;
	LLVMContextSetDiagnosticHandler(context, old_handler, old_context);
	if (error_diagnostics) { /* more to the point than what the step says */
		if (status != 0)
			free(*error);
		backend_fail(error, "%s", error_diagnostics);
		free(error_diagnostics);
		error_diagnostics = NULL;
		status = -1;
	}
	return status;
}
