/* What every layer of the stub calls: the error and allocation funnels, tracing, and CUDA's
 * formatting of device printf and assert. Beneath the drivers and the platform layer, so it
 * calls nothing of the stub but itself. */
#ifndef ZC_BASE_H
#define ZC_BASE_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "cuda_types.h"

/* Data the library exports (everything else is hidden). */
#ifdef _WIN32
#define ZC_EXPORT_DATA __declspec(dllexport)
#else
#define ZC_EXPORT_DATA __attribute__((visibility("default")))
#endif

/* errors.c: the one error funnel. Every failure inside the stub ends as a CUresult made
 * here, which also tells the trace why. */
CUresult stub_fail(CUresult code, const char *why, ...) __attribute__((format(ZC_PRINTF_FORMAT, 2, 3)));
const char *zc_error_name(CUresult code);
/* CUDA's name and text of an error code; false when it is not one. */
bool zc_error_describe(CUresult code, const char **name, const char **text);
/* The one allocation funnel: zeroed memory, NULL when there is none. */
void *stub_alloc(size_t bytes);
void stub_free(void *p);

/* The trace line of a call: its arguments and its result's name (errors.c). */
CUresult zc_trace_call(const char *fn, CUresult result, const char *args, ...)
	__attribute__((format(ZC_PRINTF_FORMAT, 3, 4)));

/* trace.c: ZLUDA_CONVERT_TRACE=1 (stderr) or =FILE. */
extern bool zc_tracing;
/* One line of the trace; nothing when not tracing. */
void zc_trace_line(const char *fmt, ...) __attribute__((format(ZC_PRINTF_FORMAT, 1, 2)));
/* What every exported function returns through: one trace line with its arguments. */
#define TRACE(result, ...) \
	(zc_tracing ? zc_trace_call(__func__, (result), __VA_ARGS__) : (result))
/* The body of every function the stub knows but does not implement. */
CUresult zc_unsupported(const char *name);

/* device_printf.c: CUDA's formatting of device printf (arguments packed as nvcc packs
 * them; returns the number of arguments, or -1) and of a failed device assert. */
int zc_print_device_printf(const char *format, const void *args);
void zc_print_device_assert(const char *expression, const char *file, uint32_t line,
                            const char *function, const uint32_t block[3], const uint32_t thread[3]);

#endif
