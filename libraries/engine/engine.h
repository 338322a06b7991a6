/* What every library replacement shares: the choice of the engine behind its API (engine.c)
 * and the trace of what it refuses. A replacement is built with
 *   ZC_EXPORTS_INC, ZC_UNSUPPORTED_INC  its lists of implemented and unsupported functions
 *   ZC_LIBRARY_SONAME                   its name, NVIDIA's library's ("libcublas.so.13")
 *   ZC_LIBRARY_TITLE                    the name traces give it ("cuBLAS")
 *   ZC_UNSUPPORTED_STATUS               what an unsupported function returns
 *   ZC_ENGINE_AMD, ZC_ENGINE_FORWARD,   set when it defines zc_engine_amd,
 *   ZC_ENGINE_LOG                       zc_engine_forward, zc_library_log (below)
 * and its C sources include the generated replacement_rename.h first, which names each
 * implementation zc_impl_NAME; trampolines.S exports NAME. */
#ifndef ZC_ENGINE_H
#define ZC_ENGINE_H

#include <cuda.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "common.h"

/* The engine is chosen once, at the first call of any exported function (trampolines.S):
 * NVIDIA's own library of this name when NVIDIA's driver runs the process, else the
 * project's implementation, which is reached only in the second case. Under the HIP
 * driver, a replacement that defines zc_engine_amd hands it the exports' names: it sets
 * FUNCTIONS[i] to what takes the calls of NAMES[i] (AMD's library behind the same API),
 * leaving NULL those the project's implementation keeps. */
void zc_engine_amd(const char *const *names, void **functions, size_t count);
/* A replacement for a library NVIDIA's own serves on any machine (NVRTC compiles on the CPU)
 * defines zc_engine_forward: wherever NVIDIA's library does not take every call, the engine
 * hands it NVIDIA's, loaded (NULL when none is found), and the replacement sets
 * FUNCTIONS[i] for the calls NVIDIA's takes, leaving NULL those it implements itself. */
void zc_engine_forward(void *nvidia, const char *const *names, void **functions, size_t count);

/* The name of the stub's driver running the process ("host", "hip"), or NULL when it is
 * NVIDIA's (whose libcuda.so.1 has no identity table, abi/driver_identity.h). */
const char *zc_engine_driver(void);

/* The driver's own stream behind STREAM (a hipStream_t under the HIP driver; NULL is HIP's
 * legacy stream), its implicit synchronisation done, for AMD's libraries to queue work on:
 * abi/driver_identity.h. */
CUresult zc_engine_native_stream(CUstream stream, void **native);

/* A replacement built with KERNELS (kernels.c): the current context, or the first device's
 * primary one made current as the runtime would; its fatbin loaded into that context; and a
 * launch of KERNEL of that module, one-dimensional blocks, with one argument structure. */
CUresult zc_kernels_context(CUcontext *context);
CUresult zc_kernels_load(CUcontext *context, CUmodule *module);
CUresult zc_kernels_launch(CUmodule module, const char *kernel, unsigned grid_x,
                           unsigned grid_y, unsigned grid_z, unsigned block_x, CUstream stream,
                           const void *args);

/* The calls of the library's API, for a library that logs them (cuBLAS's logger): while
 * zc_engine_logging is set, each call of an export the project implements is first handed
 * to zc_library_log with the export's name. */
extern char zc_engine_logging;
void zc_library_log(const char *name);

/* The platform's half (engine_posix.c, engine_windows.c): NVIDIA's library of this name
 * loaded: the copy converted beside this library (zc_engine_load_converted) where there is
 * one, else any file of the name in the loader's order but this library (NULL, and why
 * traced, when there is none); and a function of a library loaded so. */
void *zc_engine_load_nvidia(void);
/* NVIDIA's library of this name as `convert --with-libraries` places it for a library the
 * project fronts (cuFFT): converted, in the folder nvidia/ beside this library; NULL when
 * there is none (traced when it is there but does not load). */
void *zc_engine_load_converted(void);
void *zc_engine_symbol(void *library, const char *name);
/* A library by path or by a name the loader finds, loaded; NULL with the loader's reason in
 * WHY. */
void *zc_engine_open(const char *name, char *why, size_t size);
void zc_engine_close(void *library);

/* AMD's library behind an AMD engine, loaded: the file environment VARIABLE names, else the
 * first of NAMES (the platform's names of it, up to a NULL; none where it is not looked
 * for yet) that loads. Its name goes into LOADED; NULL when none loads, traced under TITLE
 * with what happens OTHERWISE. */
void *zc_engine_load_amd(const char *title, const char *variable, const char *const *names,
                         const char *otherwise, char *loaded, size_t size);

/* Under the HIP driver, AMD's library as zc_engine_load_amd finds it, each of its COUNT
 * FUNCTIONS put in its slot: true (traced: "LIBRARY TAKES") once every one is there, false
 * when the library is not or lacks one (traced, with what happens OTHERWISE). */
struct zc_engine_function {
	const char *name;
	void **slot;
};
bool zc_engine_load_amd_functions(const char *title, const char *variable,
                                  const char *const *names, const char *otherwise,
                                  const char *takes, const struct zc_engine_function *functions,
                                  size_t count);
/* The same for LIBRARY, loaded from PATH: each function in its slot, true (traced) once every
 * one is there; false, LIBRARY closed, when it lacks one. */
bool zc_engine_take_functions(void *library, const char *title, const char *path,
                              const char *otherwise, const char *takes,
                              const struct zc_engine_function *functions, size_t count);

/* Whether ZLUDA_CONVERT_TRACE asks for traces, and one trace line: "zluda-convert: TITLE:
 * ROUTINE: message (STATUS)", the status left out when NULL. */
bool zc_engine_tracing(void);
void zc_engine_vtrace(const char *routine, const char *fmt, va_list ap, const char *status);
void zc_engine_trace(const char *routine, const char *fmt, ...)
	__attribute__((format(ZC_PRINTF_FORMAT, 2, 3)));

#endif
