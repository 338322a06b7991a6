/* A stand-in for libamdhip64 with one device and no GPU behind it, so that the runtime
 * stub's HIP driver runs in CI: memory is host memory, streams and events complete at once,
 * modules are the AMDGPU code objects the stub hands over (checked as ELF, their kernels and
 * globals read from the symbol table), and a launch runs nothing but is written to the log
 * named by FAKE_HIP_LOG with everything the stub passed. FAKE_HIP_ARCH is the gcnArchName
 * it reports (default gfx1100). Exports what runtime_stub/hip_api.h lists, with its
 * prototypes: a signature the stub does not expect fails to compile. */
#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hip_api.h"

#define EXPORT __attribute__((visibility("default")))
#define DECLARE(name, params) EXPORT hipError_t name params;
HIP_FUNCTIONS(DECLARE)
HIP_OPTIONAL_FUNCTIONS_6(DECLARE)
#undef DECLARE

enum { OK = 0, INVALID_VALUE = 1, NOT_FOUND = 500, INVALID_IMAGE = 200 };

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	const char *path = getenv("FAKE_HIP_LOG");
	FILE *f = path ? fopen(path, "a") : NULL;
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

struct ihipModule_t {
	const Elf64_Ehdr *elf;   /* a copy: HIP copies the image too */
	struct global { char *name; void *data; struct global *next; } *globals;
};

struct ihipModuleSymbol_t {
	char name[256];
};

EXPORT hipError_t hipInit(unsigned flags) { (void)flags; return OK; }
EXPORT hipError_t hipGetDeviceCount(int *count) { *count = 1; return OK; }
EXPORT hipError_t hipSetDevice(int device) { return device == 0 ? OK : INVALID_VALUE; }

EXPORT hipError_t hipDeviceGetName(char *name, int len, int device)
{
	(void)device;
	snprintf(name, (size_t)len, "Fake HIP device");
	return OK;
}

EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, int device) { (void)device; *bytes = (size_t)8 << 30; return OK; }

EXPORT hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute, int device)
{
	(void)device;
	switch (attribute) {
	case 23: *value = 11; break;                      /* compute capability major */
	case 61: *value = 0; break;                       /* minor */
	case 26: case 56: case 57: *value = 1024; break;  /* block dim x, threads per block / CU */
	case 27: *value = 1024; break;
	case 28: *value = 64; break;
	case 29: *value = 2147483647; break;
	case 30: case 31: *value = 65535; break;
	case 63: *value = 48; break;                      /* compute units */
	case 74: case 75: case 76: *value = 65536; break; /* shared memory */
	case 83: *value = 65536; break;
	default: *value = 1; break;
	}
	return OK;
}

EXPORT hipError_t hipDeviceSetLimit(zc_hip_limit limit, size_t value)
{
	logf_("hipDeviceSetLimit %d %zu", limit, value);
	return OK;
}

EXPORT hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
	*free_bytes = (size_t)7 << 30;
	*total_bytes = (size_t)8 << 30;
	return OK;
}

static int allocate(void **ptr, size_t bytes, const char *what)
{
	*ptr = aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
	if (!*ptr)
		return 2;
	memset(*ptr, 0, bytes);
	logf_("%s %zu -> %p", what, bytes, *ptr);
	return OK;
}

EXPORT hipError_t hipMalloc(void **ptr, size_t bytes) { return allocate(ptr, bytes, "hipMalloc"); }
EXPORT hipError_t hipHostMalloc(void **ptr, size_t bytes, unsigned flags) { (void)flags; return allocate(ptr, bytes, "hipHostMalloc"); }
EXPORT hipError_t hipMallocManaged(void **ptr, size_t bytes, unsigned flags) { (void)flags; return allocate(ptr, bytes, "hipMallocManaged"); }
EXPORT hipError_t hipFree(void *ptr) { free(ptr); return OK; }
EXPORT hipError_t hipHostFree(void *ptr) { free(ptr); return OK; }

EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned flags, int priority)
{
	(void)flags, (void)priority;
	*stream = malloc(1);
	return OK;
}

EXPORT hipError_t hipStreamDestroy(hipStream_t stream) { free(stream); return OK; }
EXPORT hipError_t hipStreamQuery(hipStream_t stream) { (void)stream; return OK; }
EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) { (void)stream; return OK; }
EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags) { (void)stream, (void)event, (void)flags; return OK; }

EXPORT hipError_t hipStreamAddCallback(hipStream_t stream, void (*fn)(hipStream_t, hipError_t, void *), void *arg,
                                       unsigned flags)
{
	(void)flags;
	fn(stream, OK, arg);
	return OK;
}

EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t width,
                                   size_t height, hipMemcpyKind kind, hipStream_t stream)
{
	(void)kind, (void)stream;
	for (size_t y = 0; y < height; y++)
		memmove((char *)dst + y * dst_pitch, (const char *)src + y * src_pitch, width);
	return OK;
}

EXPORT hipError_t hipMemsetD8Async(void *dst, unsigned char value, size_t count, hipStream_t stream)
{
	(void)stream;
	memset(dst, value, count);
	return OK;
}

EXPORT hipError_t hipMemsetD16Async(void *dst, unsigned short value, size_t count, hipStream_t stream)
{
	(void)stream;
	for (size_t i = 0; i < count; i++)
		((unsigned short *)dst)[i] = value;
	return OK;
}

EXPORT hipError_t hipMemsetD32Async(void *dst, int value, size_t count, hipStream_t stream)
{
	(void)stream;
	for (size_t i = 0; i < count; i++)
		((int *)dst)[i] = value;
	return OK;
}

EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) { (void)flags; *event = malloc(1); return OK; }
EXPORT hipError_t hipEventDestroy(hipEvent_t event) { free(event); return OK; }
EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) { (void)event, (void)stream; return OK; }
EXPORT hipError_t hipEventQuery(hipEvent_t event) { (void)event; return OK; }
EXPORT hipError_t hipEventSynchronize(hipEvent_t event) { (void)event; return OK; }
EXPORT hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t end) { (void)start, (void)end; *ms = 0; return OK; }

static void fill_arch(char *properties, size_t offset)
{
	const char *arch = getenv("FAKE_HIP_ARCH");

	snprintf(properties + offset, ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE, "%s", arch && *arch ? arch : "gfx1100");
}

EXPORT hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600 *properties, int device)
{
	(void)device;
	memset(properties, 0, ZC_HIP_PROPS_R0600_GCN_ARCH_NAME + ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE);
	fill_arch((char *)properties, ZC_HIP_PROPS_R0600_GCN_ARCH_NAME);
	return OK;
}

/* The symbol named `name` of an AMDGPU ELF, or NULL. */
static const Elf64_Sym *find_symbol(const struct ihipModule_t *m, const char *name)
{
	const Elf64_Ehdr *e = m->elf;
	const Elf64_Shdr *sections = (const Elf64_Shdr *)((const char *)e + e->e_shoff);

	for (unsigned i = 0; i < e->e_shnum; i++) {
		if (sections[i].sh_type != SHT_SYMTAB && sections[i].sh_type != SHT_DYNSYM)
			continue;
		const Elf64_Sym *syms = (const Elf64_Sym *)((const char *)e + sections[i].sh_offset);
		const char *names = (const char *)e + sections[sections[i].sh_link].sh_offset;
		for (size_t k = 0; k < sections[i].sh_size / sizeof(Elf64_Sym); k++)
			if (strcmp(names + syms[k].st_name, name) == 0)
				return &syms[k];
	}
	return NULL;
}

EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
	const Elf64_Ehdr *e = image;
	struct ihipModule_t *m;
	size_t size;

	if (memcmp(e->e_ident, ELFMAG, SELFMAG) != 0 || e->e_ident[EI_CLASS] != ELFCLASS64 || e->e_machine != EM_AMDGPU) {
		logf_("hipModuleLoadData: not an AMDGPU ELF");
		return INVALID_IMAGE;
	}
	size = e->e_shoff + (size_t)e->e_shnum * e->e_shentsize;
	m = calloc(1, sizeof *m);
	m->elf = malloc(size);
	memcpy((void *)m->elf, image, size);
	logf_("hipModuleLoadData: AMDGPU ELF, mach 0x%x, OS ABI %u version %u", e->e_flags & 0xff,
	      e->e_ident[EI_OSABI], e->e_ident[EI_ABIVERSION]);
	*module = m;
	return OK;
}

EXPORT hipError_t hipModuleUnload(hipModule_t module)
{
	struct ihipModule_t *m = module;

	for (struct global *g = m->globals, *next; g; g = next) {
		next = g->next;
		free(g->name);
		free(g->data);
		free(g);
	}
	free((void *)m->elf);
	free(m);
	return OK;
}

/* A kernel is known by its descriptor, NAME.kd. */
EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *name)
{
	char descriptor[300];
	struct ihipModuleSymbol_t *f;

	snprintf(descriptor, sizeof descriptor, "%s.kd", name);
	if (!find_symbol(module, descriptor)) {
		logf_("hipModuleGetFunction %s: not found", name);
		return NOT_FOUND;
	}
	f = calloc(1, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	logf_("hipModuleGetFunction %s", name);
	*function = f;
	return OK;
}

/* A global is host memory of its symbol's size, made on first use. */
EXPORT hipError_t hipModuleGetGlobal(hipDeviceptr_t *address, size_t *bytes, hipModule_t module, const char *name)
{
	struct ihipModule_t *m = module;
	const Elf64_Sym *s = find_symbol(m, name);

	if (!s || ELF64_ST_TYPE(s->st_info) != STT_OBJECT) {
		logf_("hipModuleGetGlobal %s: not found", name);
		return NOT_FOUND;
	}
	for (struct global *g = m->globals; g; g = g->next)
		if (strcmp(g->name, name) == 0) {
			*address = g->data;
			*bytes = s->st_size;
			return OK;
		}
	struct global *g = calloc(1, sizeof *g);
	g->name = strdup(name);
	g->data = calloc(1, s->st_size ? s->st_size : 1);
	g->next = m->globals;
	m->globals = g;
	logf_("hipModuleGetGlobal %s: %zu bytes", name, (size_t)s->st_size);
	*address = g->data;
	*bytes = s->st_size;
	return OK;
}

/* The kernel arguments come as one buffer through `extra` (HIP_LAUNCH_PARAM_BUFFER_POINTER
 * 1, _SIZE 2, _END 3); they are logged in hex. */
EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned shared, hipStream_t stream, void **params,
                                        void **extra)
{
	const unsigned char *buffer = NULL;
	size_t size = 0;
	char hex[2 * 4096 + 1] = "";

	(void)stream;
	for (size_t i = 0; extra && extra[i] != (void *)3; i += 2) {
		if (extra[i] == (void *)1)
			buffer = extra[i + 1];
		else if (extra[i] == (void *)2)
			size = *(size_t *)extra[i + 1];
		else
			return INVALID_VALUE;
	}
	if (params || (size && !buffer) || size > 4096)
		return INVALID_VALUE;
	for (size_t i = 0; i < size; i++)
		snprintf(hex + 2 * i, 3, "%02x", buffer[i]);
	logf_("hipModuleLaunchKernel %s grid %u %u %u block %u %u %u shared %u args %s", function->name, gx, gy, gz,
	      bx, by, bz, shared, hex);
	return OK;
}
