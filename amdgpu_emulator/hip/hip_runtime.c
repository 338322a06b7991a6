/* libzc-emu-hip.so: a HIP runtime whose devices are the AMDGPU emulator (emulator.h),
 * so that the runtime stub's unmodified HIP driver (runtime_stub/drivers/hip/drv_hip.c) runs the AMD
 * code of converted programs where there is no AMD GPU. It exports what
 * abi/hip_api.h lists, with its prototypes, so that a signature the stub does not
 * expect fails to compile.
 *
 * - The device is the processor named by ZC_EMU_PROCESSOR (default gfx1100; a feature
 *   suffix such as ":xnack-" goes into gcnArchName as given) and reports the figures of a
 *   real card of that processor (devices.c). ZC_EMU_DEVICES=N gives N such cards (up to 8),
 *   which HIP_VISIBLE_DEVICES shows as HIP does; they share the host's memory, so each
 *   reaches every other's once peer access is on.
 * - Memory is host memory, 256-byte aligned and registered with the emulator, so that
 *   emulated code may address it and nothing else.
 * - Everything runs at the call: a stream operation has completed when it returns, so
 *   streams and events are always done and a stream callback runs at once. Events keep a
 *   monotonic timestamp for hipEventElapsedTime.
 * - A launch that fails (a fault, a trap, an instruction not emulated) prints the
 *   emulator's message on stderr and breaks the context as on a GPU: every later call
 *   returns hipErrorIllegalAddress after an access outside the memory registered, else
 *   hipErrorLaunchFailure.
 * - ZC_EMU_HIP_LOG=FILE appends a line for each allocation, module, symbol, limit and
 *   launch, with what the caller passed (tests/hip_path checks what the stub hands HIP).
 * - ZC_EMU_STATS=FILE appends, when the library is unloaded or the process exits,
 *   "instructions N seconds S cycles C": the wave instructions the emulator executed, the
 *   wall time spent inside its launches (bench/emulator_speed.sh divides them), and the
 *   estimated cycles of those instructions (zc_emu_cycles_estimated: each wave32
 *   instruction's issue cost at AMD's documented rates for the processor, summed over
 *   waves; amdgpu_emulator/cost.c; no memory latency). */
#include <elf.h>
#include <pthread.h>
#include <search.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "devices.h"
#include "emulator.h"
#include "hip_api.h"

#define EXPORT __attribute__((visibility("default")))
#define DECLARE(name, params) EXPORT hipError_t name params;
HIP_FUNCTIONS(DECLARE)
HIP_VMM_FUNCTIONS(DECLARE)
HIP_OPTIONAL_FUNCTIONS_6(DECLARE)
#undef DECLARE

/* HIP's error codes (CUDA's runtime numbering). */
enum {
	hipSuccess = 0,
	hipErrorInvalidValue = 1,
	hipErrorOutOfMemory = 2,
	hipErrorNoDevice = 100,
	hipErrorInvalidDevice = 101,
	hipErrorInvalidImage = 200,
	hipErrorNoBinaryForGpu = 209,
	hipErrorUnsupportedLimit = 215,
	hipErrorInvalidHandle = 400,
	hipErrorNotFound = 500,
	hipErrorIllegalAddress = 700,
	hipErrorLaunchFailure = 719,
	hipErrorPeerAccessAlreadyEnabled = 704,
	hipErrorPeerAccessNotEnabled = 705,
};

/* Device attributes beyond those hip_api.h names, with HIP's numbers. */
enum {
	ATTRIBUTE_CAN_MAP_HOST_MEMORY = 3,
	ATTRIBUTE_CONCURRENT_KERNELS = 8,
	ATTRIBUTE_MANAGED_MEMORY = 24,
	ATTRIBUTE_UNIFIED_ADDRESSING = 85,
	ATTRIBUTE_WARP_SIZE = 87,
	ATTRIBUTE_CLOCK_INSTRUCTION_RATE = 10000,
	ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 10002,
};

enum { LIMIT_PRINTF_FIFO_SIZE = 1, LIMIT_MALLOC_HEAP_SIZE = 2 };
enum { EVENT_DISABLE_TIMING = 2 };

/* Figures every RDNA card reports through HIP. */
enum {
	WARP_SIZE = 32,
	MAX_THREADS_PER_BLOCK = 1024,
	MAX_THREADS_PER_CU = 2048,
	MAX_BLOCKS_PER_CU = 32,
	SHARED_PER_BLOCK = 65536,
	REGISTERS = 65536,
	PCI_BUS = 3,                     /* of the first card; the next ones follow */
	MAX_DEVICES = 8,
	CLOCK_INSTRUCTION_KHZ = 100000,  /* s_memrealtime counts at 100 MHz */
	ALIGNMENT = 256,
	DEFAULT_STACK_SIZE = 1024,       /* HIP's default stack-size limit */
};
#define MAX_GRID_X 2147483647
#define MAX_GRID_YZ 65536
#define TOTAL_CONST_MEM 2147483647

static struct {
	pthread_once_t once;
	hipError_t status;                /* of initialisation */
	struct zc_emu_card card;
	int cc_major, cc_minor;
	char arch[ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE];  /* gcnArchName: ZC_EMU_PROCESSOR as given */
	char processor[ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE];  /* without its features */
	_Atomic int broken;               /* why the context is lost (a launch failed); 0 */
	atomic_size_t stack_size;
	_Atomic uint64_t launch_ns;       /* wall time inside zc_emu_launch, for ZC_EMU_STATS */
	int ndevices;                     /* ZC_EMU_DEVICES cards, as HIP_VISIBLE_DEVICES shows them */
	int bus[MAX_DEVICES];             /* each one's PCI bus */
	_Atomic unsigned peers[MAX_DEVICES];  /* the devices each one's peer access reaches */

	pthread_mutex_t lock;             /* the fields below */
	void *allocations;                /* tsearch tree of struct allocation */
	size_t device_bytes;              /* hipMalloc'd, counted against the card's memory */

	pthread_mutex_t log_lock;
} rt = {
	.once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.log_lock = PTHREAD_MUTEX_INITIALIZER,
};

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void
log_line(const char *fmt, ...)
{
	const char *path = getenv("ZC_EMU_HIP_LOG");
	va_list ap;
	FILE *f;

	if (!path || !*path)
		return;
	pthread_mutex_lock(&rt.log_lock);
	if ((f = fopen(path, "a"))) {
		va_start(ap, fmt);
		vfprintf(f, fmt, ap);
		va_end(ap);
		fputc('\n', f);
		fclose(f);
	}
	pthread_mutex_unlock(&rt.log_lock);
}

/* ZC_EMU_STATS=FILE: what the launches executed and how long they took. A destructor
 * rather than atexit, as the stub may dlclose the runtime. */
__attribute__((destructor)) static void
write_stats(void)
{
	const char *path = getenv("ZC_EMU_STATS");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "instructions %llu seconds %.6f cycles %llu\n",
	        (unsigned long long)zc_emu_instructions_executed(),
	        (double)atomic_load(&rt.launch_ns) * 1e-9,
	        (unsigned long long)zc_emu_cycles_estimated());
	fclose(f);
}

/* ZC_EMU_DEVICES identical cards (1 to MAX_DEVICES; 1 without it); HIP_VISIBLE_DEVICES,
 * as HIP reads it, shows the ones it lists, in its order, up to the first it cannot. */
static void
choose_devices(void)
{
	const char *count = getenv("ZC_EMU_DEVICES"), *visible = getenv("HIP_VISIBLE_DEVICES");
	long cards = count && *count ? strtol(count, NULL, 10) : 1;

	if (cards < 1 || cards > MAX_DEVICES) {
		fprintf(stderr, "zc-emu-hip: ZC_EMU_DEVICES=%s: not a number of cards from 1 to %d; "
		        "emulating 1\n", count, MAX_DEVICES);
		cards = 1;
	}
	rt.ndevices = 0;
	if (!visible) {
		for (int i = 0; i < cards; i++)
			rt.bus[rt.ndevices++] = PCI_BUS + i;
		return;
	}
	for (const char *p = visible; *p && rt.ndevices < MAX_DEVICES;) {
		char *end;
		long card = strtol(p, &end, 10);
		if (end == p || card < 0 || card >= cards)
			break;
		rt.bus[rt.ndevices++] = PCI_BUS + (int)card;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
}

static void
initialize(void)
{
	const char *arch = getenv("ZC_EMU_PROCESSOR");
	size_t length;

	if (!arch || !*arch)
		arch = "gfx1100";
	length = strlen(arch);
	atomic_store(&rt.stack_size, DEFAULT_STACK_SIZE);
	if (length >= sizeof rt.arch || !zc_emu_card_for(arch, &rt.card)) {
		fprintf(stderr, "zc-emu-hip: ZC_EMU_PROCESSOR=%s: not a processor the emulator runs "
		        "(it runs gfx10.3, gfx11 and gfx12 processors, such as gfx1030, gfx1100 and "
		        "gfx1200)\n", arch);
		rt.status = hipErrorNoDevice;
		return;
	}
	memcpy(rt.arch, arch, length + 1);
	length = strcspn(arch, ":");
	memcpy(rt.processor, arch, length);
	rt.processor[length] = '\0';
	/* HIP's compute capability is the processor's major and minor version: gfx1030 is
	 * 10.3, gfx1100 11.0, gfx1151 11.5, gfx1201 12.0. */
	rt.cc_major = (rt.processor[3] - '0') * 10 + (rt.processor[4] - '0');
	rt.cc_minor = (int)strtol((char[]){ rt.processor[5], '\0' }, NULL, 16);
	choose_devices();
	rt.status = rt.ndevices ? hipSuccess : hipErrorNoDevice;
}

/* What every call checks first: HIP initialises itself on its first call, and a broken
 * context fails every call. */
static hipError_t
enter(void)
{
	pthread_once(&rt.once, initialize);
	if (rt.status != hipSuccess)
		return rt.status;
	return (hipError_t)atomic_load(&rt.broken);
}

#define ENTER()                               \
	do {                                      \
		hipError_t entered_ = enter();        \
		if (entered_ != hipSuccess)           \
			return entered_;                  \
	} while (0)

/* --- the device --- */

EXPORT hipError_t
hipInit(unsigned flags)
{
	ENTER();
	return flags == 0 ? hipSuccess : hipErrorInvalidValue;
}

EXPORT hipError_t
hipGetDeviceCount(int *count)
{
	hipError_t e = enter();

	if (!count)
		return hipErrorInvalidValue;
	*count = e == hipErrorNoDevice ? 0 : rt.ndevices;
	return e;
}

static _Thread_local int current_device;

static bool
valid_device(int device)
{
	return device >= 0 && device < rt.ndevices;
}

EXPORT hipError_t
hipSetDevice(int device)
{
	ENTER();
	if (!valid_device(device))
		return hipErrorInvalidDevice;
	current_device = device;
	return hipSuccess;
}

/* The cards share the host's memory: each reaches every other's. */
EXPORT hipError_t
hipDeviceCanAccessPeer(int *can, int device, int peer)
{
	ENTER();
	if (!can)
		return hipErrorInvalidValue;
	if (!valid_device(device) || !valid_device(peer))
		return hipErrorInvalidDevice;
	*can = device != peer;
	return hipSuccess;
}

EXPORT hipError_t
hipDeviceEnablePeerAccess(int peer, unsigned flags)
{
	ENTER();
	if (flags)
		return hipErrorInvalidValue;
	if (!valid_device(peer) || peer == current_device)
		return hipErrorInvalidDevice;
	unsigned bit = 1u << peer;
	if (atomic_fetch_or(&rt.peers[current_device], bit) & bit)
		return hipErrorPeerAccessAlreadyEnabled;
	return hipSuccess;
}

EXPORT hipError_t
hipDeviceDisablePeerAccess(int peer)
{
	ENTER();
	if (!valid_device(peer) || peer == current_device)
		return hipErrorInvalidDevice;
	unsigned bit = 1u << peer;
	if (!(atomic_fetch_and(&rt.peers[current_device], ~bit) & bit))
		return hipErrorPeerAccessNotEnabled;
	return hipSuccess;
}

EXPORT hipError_t
hipDeviceGetName(char *name, int len, int device)
{
	ENTER();
	if (!valid_device(device))
		return hipErrorInvalidDevice;
	if (!name || len <= 0)
		return hipErrorInvalidValue;
	snprintf(name, (size_t)len, "%s", rt.card.name);
	return hipSuccess;
}

EXPORT hipError_t
hipDeviceTotalMem(size_t *bytes, int device)
{
	ENTER();
	if (!valid_device(device))
		return hipErrorInvalidDevice;
	if (!bytes)
		return hipErrorInvalidValue;
	*bytes = rt.card.memory_bytes;
	return hipSuccess;
}

EXPORT hipError_t
hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute, int device)
{
	ENTER();
	if (!valid_device(device))
		return hipErrorInvalidDevice;
	if (!value)
		return hipErrorInvalidValue;
	switch (attribute) {
	case hipDeviceAttributeClockRate: *value = rt.card.clock_khz; break;
	case hipDeviceAttributeIntegrated: *value = 0; break;
	case hipDeviceAttributeL2CacheSize: *value = rt.card.l2_bytes; break;
	case hipDeviceAttributeComputeCapabilityMajor: *value = rt.cc_major; break;
	case hipDeviceAttributeComputeCapabilityMinor: *value = rt.cc_minor; break;
	case hipDeviceAttributeMaxBlocksPerMultiProcessor: *value = MAX_BLOCKS_PER_CU; break;
	case hipDeviceAttributeMaxBlockDimX:
	case hipDeviceAttributeMaxBlockDimY:
	case hipDeviceAttributeMaxBlockDimZ:
	case hipDeviceAttributeMaxThreadsPerBlock: *value = MAX_THREADS_PER_BLOCK; break;
	case hipDeviceAttributeMaxGridDimX: *value = MAX_GRID_X; break;
	case hipDeviceAttributeMaxGridDimY:
	case hipDeviceAttributeMaxGridDimZ: *value = MAX_GRID_YZ; break;
	case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = MAX_THREADS_PER_CU; break;
	case hipDeviceAttributeMemoryBusWidth: *value = rt.card.memory_bus_width; break;
	case hipDeviceAttributeMemoryClockRate: *value = rt.card.memory_clock_khz; break;
	case hipDeviceAttributeMultiprocessorCount: *value = rt.card.compute_units; break;
	case hipDeviceAttributePciBusId: *value = rt.bus[device]; break;
	case hipDeviceAttributePciDeviceId:
	case hipDeviceAttributePciDomainID: *value = 0; break;
	case hipDeviceAttributeMaxRegistersPerBlock:
	case hipDeviceAttributeMaxRegistersPerMultiprocessor: *value = REGISTERS; break;
	case hipDeviceAttributeMaxSharedMemoryPerBlock:
	case hipDeviceAttributeSharedMemPerBlockOptin:
	case hipDeviceAttributeSharedMemPerMultiprocessor:
	case ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *value = SHARED_PER_BLOCK; break;
	case hipDeviceAttributeTotalConstantMemory: *value = TOTAL_CONST_MEM; break;
	case ATTRIBUTE_CAN_MAP_HOST_MEMORY:
	case ATTRIBUTE_CONCURRENT_KERNELS:
	case ATTRIBUTE_MANAGED_MEMORY:
	case ATTRIBUTE_UNIFIED_ADDRESSING: *value = 1; break;
	case ATTRIBUTE_WARP_SIZE: *value = WARP_SIZE; break;
	case ATTRIBUTE_CLOCK_INSTRUCTION_RATE: *value = CLOCK_INSTRUCTION_KHZ; break;
	default: return hipErrorInvalidValue;
	}
	return hipSuccess;
}

/* HIP 6's hipDeviceProp_tR0600, as its header lays it out (the static assertion below
 * checks gcnArchName's offset against hip_api.h's). */
struct properties_r0600 {
	char name[256];
	char uuid[16];
	char luid[8];
	unsigned luidDeviceNodeMask;
	size_t totalGlobalMem;
	size_t sharedMemPerBlock;
	int regsPerBlock;
	int warpSize;
	size_t memPitch;
	int maxThreadsPerBlock;
	int maxThreadsDim[3];
	int maxGridSize[3];
	int clockRate;
	size_t totalConstMem;
	int major;
	int minor;
	size_t textureAlignment;
	size_t texturePitchAlignment;
	int deviceOverlap;
	int multiProcessorCount;
	int kernelExecTimeoutEnabled;
	int integrated;
	int canMapHostMemory;
	int computeMode;
	int texture_and_surface_limits[40];  /* maxTexture1D ... maxSurfaceCubemapLayered[2] */
	size_t surfaceAlignment;
	int concurrentKernels;
	int ECCEnabled;
	int pciBusID;
	int pciDeviceID;
	int pciDomainID;
	int tccDriver;
	int asyncEngineCount;
	int unifiedAddressing;
	int memoryClockRate;
	int memoryBusWidth;
	int l2CacheSize;
	int persistingL2CacheMaxSize;
	int maxThreadsPerMultiProcessor;
	int streamPrioritiesSupported;
	int globalL1CacheSupported;
	int localL1CacheSupported;
	size_t sharedMemPerMultiprocessor;
	int regsPerMultiprocessor;
	int managedMemory;
	int isMultiGpuBoard;
	int multiGpuBoardGroupID;
	int hostNativeAtomicSupported;
	int singleToDoublePrecisionPerfRatio;
	int pageableMemoryAccess;
	int concurrentManagedAccess;
	int computePreemptionSupported;
	int canUseHostPointerForRegisteredMem;
	int cooperativeLaunch;
	int cooperativeMultiDeviceLaunch;
	size_t sharedMemPerBlockOptin;
	int pageableMemoryAccessUsesHostPageTables;
	int directManagedMemAccessFromHost;
	int maxBlocksPerMultiProcessor;
	int accessPolicyMaxWindowSize;
	size_t reservedSharedMemPerBlock;
	int hostRegisterSupported;
	int sparseHipArraySupported;
	int hostRegisterReadOnlySupported;
	int timelineSemaphoreInteropSupported;
	int memoryPoolsSupported;
	int gpuDirectRDMASupported;
	unsigned gpuDirectRDMAFlushWritesOptions;
	int gpuDirectRDMAWritesOrdering;
	unsigned memoryPoolSupportedHandleTypes;
	int deferredMappingHipArraySupported;
	int ipcEventSupported;
	int clusterLaunch;
	int unifiedFunctionPointers;
	int reserved[63];
	int hipReserved[32];
	char gcnArchName[256];
	size_t maxSharedMemoryPerMultiProcessor;
	int clockInstructionRate;
	unsigned arch;  /* hipDeviceArch_t's feature bits: left 0 */
};
_Static_assert(offsetof(struct properties_r0600, gcnArchName) == ZC_HIP_PROPS_R0600_GCN_ARCH_NAME,
               "hipDeviceProp_tR0600 layout");
_Static_assert(sizeof(struct properties_r0600) <= ZC_HIP_PROPS_BUFFER_SIZE, "properties buffer");

EXPORT hipError_t
hipGetDevicePropertiesR0600(hipDeviceProp_tR0600 *properties, int device)
{
	struct properties_r0600 *p = (struct properties_r0600 *)(void *)properties;

	ENTER();
	if (!valid_device(device))
		return hipErrorInvalidDevice;
	if (!p)
		return hipErrorInvalidValue;
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", rt.card.name);
	p->totalGlobalMem = rt.card.memory_bytes;
	p->sharedMemPerBlock = SHARED_PER_BLOCK;
	p->regsPerBlock = REGISTERS;
	p->warpSize = WARP_SIZE;
	p->memPitch = MAX_GRID_X;
	p->maxThreadsPerBlock = MAX_THREADS_PER_BLOCK;
	for (int i = 0; i < 3; i++) {
		p->maxThreadsDim[i] = MAX_THREADS_PER_BLOCK;
		p->maxGridSize[i] = i == 0 ? MAX_GRID_X : MAX_GRID_YZ;
	}
	p->clockRate = rt.card.clock_khz;
	p->totalConstMem = TOTAL_CONST_MEM;
	p->major = rt.cc_major;
	p->minor = rt.cc_minor;
	p->textureAlignment = ALIGNMENT;
	p->texturePitchAlignment = ALIGNMENT;
	p->deviceOverlap = 1;
	p->multiProcessorCount = rt.card.compute_units;
	p->canMapHostMemory = 1;
	p->concurrentKernels = 1;
	p->pciBusID = rt.bus[device];
	p->unifiedAddressing = 1;
	p->memoryClockRate = rt.card.memory_clock_khz;
	p->memoryBusWidth = rt.card.memory_bus_width;
	p->l2CacheSize = rt.card.l2_bytes;
	p->maxThreadsPerMultiProcessor = MAX_THREADS_PER_CU;
	p->sharedMemPerMultiprocessor = SHARED_PER_BLOCK;
	p->regsPerMultiprocessor = REGISTERS;
	p->managedMemory = 1;
	p->sharedMemPerBlockOptin = SHARED_PER_BLOCK;
	p->maxBlocksPerMultiProcessor = MAX_BLOCKS_PER_CU;
	snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", rt.arch);
	p->maxSharedMemoryPerMultiProcessor = SHARED_PER_BLOCK;
	p->clockInstructionRate = CLOCK_INSTRUCTION_KHZ;
	return hipSuccess;
}

EXPORT hipError_t
hipDeviceSetLimit(zc_hip_limit limit, size_t value)
{
	ENTER();
	log_line("hipDeviceSetLimit %d %zu", (int)limit, value);
	if (limit == ZC_HIP_LIMIT_STACK_SIZE)
		atomic_store(&rt.stack_size, value);
	else if (limit != LIMIT_PRINTF_FIFO_SIZE && limit != LIMIT_MALLOC_HEAP_SIZE)
		return hipErrorUnsupportedLimit;
	return hipSuccess;
}

/* --- memory --- */

struct allocation {
	void *base;
	size_t size;   /* rounded up to ALIGNMENT: all of it is registered */
	bool device;   /* counted against the card's memory */
};

static int
compare_allocations(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct allocation *)a)->base;
	uintptr_t y = (uintptr_t)((const struct allocation *)b)->base;

	return x < y ? -1 : x > y;
}

static hipError_t
allocate(void **ptr, size_t bytes, bool device, const char *what)
{
	struct allocation *a;
	size_t size;

	ENTER();
	if (!ptr)
		return hipErrorInvalidValue;
	*ptr = NULL;
	if (bytes == 0) {
		log_line("%s %zu -> %p", what, bytes, *ptr);
		return hipSuccess;
	}
	if (bytes > SIZE_MAX - ALIGNMENT)
		return hipErrorOutOfMemory;
	size = (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
	if (!(a = malloc(sizeof *a)))
		return hipErrorOutOfMemory;
	*a = (struct allocation){ .size = size, .device = device };
	pthread_mutex_lock(&rt.lock);
	if (device && size > rt.card.memory_bytes - rt.device_bytes) {
		pthread_mutex_unlock(&rt.lock);
		free(a);
		return hipErrorOutOfMemory;
	}
	if (!(a->base = aligned_alloc(ALIGNMENT, size)) || !tsearch(a, &rt.allocations, compare_allocations)) {
		pthread_mutex_unlock(&rt.lock);
		free(a->base);
		free(a);
		return hipErrorOutOfMemory;
	}
	if (device)
		rt.device_bytes += size;
	pthread_mutex_unlock(&rt.lock);
	memset(a->base, 0, size);
	zc_emu_map(a->base, size);
	log_line("%s %zu -> %p", what, bytes, a->base);
	*ptr = a->base;
	return hipSuccess;
}

static hipError_t
release(void *ptr)
{
	struct allocation key = { .base = ptr }, *a;
	void **node;

	ENTER();
	if (!ptr)
		return hipSuccess;
	pthread_mutex_lock(&rt.lock);
	if (!(node = tfind(&key, &rt.allocations, compare_allocations))) {
		pthread_mutex_unlock(&rt.lock);
		return hipErrorInvalidValue;
	}
	a = *node;
	tdelete(&key, &rt.allocations, compare_allocations);
	if (a->device)
		rt.device_bytes -= a->size;
	pthread_mutex_unlock(&rt.lock);
	zc_emu_unmap(a->base);
	free(a->base);
	free(a);
	return hipSuccess;
}

EXPORT hipError_t hipMalloc(void **ptr, size_t bytes) { return allocate(ptr, bytes, true, "hipMalloc"); }
EXPORT hipError_t hipFree(void *ptr) { return release(ptr); }
EXPORT hipError_t hipHostFree(void *ptr) { return release(ptr); }

/* The program's own memory: emulated code may address it from now on. */
EXPORT hipError_t
hipHostRegister(void *ptr, size_t bytes, unsigned flags)
{
	ENTER();
	if (!ptr || !bytes)
		return hipErrorInvalidValue;
	zc_emu_map(ptr, bytes);
	log_line("hipHostRegister %p %zu 0x%x", ptr, bytes, flags);
	return hipSuccess;
}

EXPORT hipError_t
hipHostUnregister(void *ptr)
{
	ENTER();
	zc_emu_unmap(ptr);
	log_line("hipHostUnregister %p", ptr);
	return hipSuccess;
}

/* --- virtual memory: address space reserved with nothing behind it, physical memory in a
 * memfd mapped shared into it (so that two mappings show the same bytes), registered with
 * the emulator once access is given, so that emulated code reaches it then and only then.
 * Allocation properties come in HIP 6's layout. --- */

enum { VMM_GRANULARITY = 2 << 20 };

struct ihipMemGenericAllocationHandle {
	int fd;
	size_t bytes;
};

struct vm_mapping {
	struct vm_mapping *next;
	uint8_t *base;
	size_t bytes;
	bool reachable;  /* registered with the emulator */
};

static struct vm_mapping *vm_mappings;  /* under rt.lock */

static bool
pinned_on_a_device(const hipMemAllocationProp *prop)
{
	const struct zc_hip_allocation_prop_6 *p = (const void *)prop;

	return p && p->type == 1 && p->location_type == 1 && valid_device(p->location_id);
}

EXPORT hipError_t
hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
                               hipMemAllocationGranularity_flags option)
{
	ENTER();
	if (!granularity || !pinned_on_a_device(prop) || (option != 0 && option != 1))
		return hipErrorInvalidValue;
	*granularity = VMM_GRANULARITY;
	return hipSuccess;
}

EXPORT hipError_t
hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr, unsigned long long flags)
{
	ENTER();
	size_t align = alignment > VMM_GRANULARITY ? alignment : VMM_GRANULARITY;
	if (!ptr || !size || size % VMM_GRANULARITY || (align & (align - 1)) || flags)
		return hipErrorInvalidValue;
	uint8_t *p = mmap(addr, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return hipErrorOutOfMemory;
	uint8_t *aligned = (uint8_t *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (aligned > p)
		munmap(p, (size_t)(aligned - p));
	munmap(aligned + size, (size_t)(p + align - aligned));
	*ptr = aligned;
	log_line("hipMemAddressReserve %zu -> %p", size, (void *)aligned);
	return hipSuccess;
}

EXPORT hipError_t
hipMemAddressFree(void *ptr, size_t size)
{
	ENTER();
	log_line("hipMemAddressFree %p %zu", ptr, size);
	return munmap(ptr, size) == 0 ? hipSuccess : hipErrorInvalidValue;
}

EXPORT hipError_t
hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size, const hipMemAllocationProp *prop,
             unsigned long long flags)
{
	ENTER();
	if (!handle || !size || size % VMM_GRANULARITY || flags || !pinned_on_a_device(prop))
		return hipErrorInvalidValue;
	struct ihipMemGenericAllocationHandle *h = calloc(1, sizeof *h);
	if (!h)
		return hipErrorOutOfMemory;
	h->fd = memfd_create("zc-emu-hip-physical", MFD_CLOEXEC);
	h->bytes = size;
	if (h->fd < 0 || ftruncate(h->fd, (off_t)size) != 0) {
		if (h->fd >= 0)
			close(h->fd);
		free(h);
		return hipErrorOutOfMemory;
	}
	*handle = h;
	log_line("hipMemCreate %zu", size);
	return hipSuccess;
}

/* A POSIX file descriptor of the memory, and the memory of one. */
EXPORT hipError_t
hipMemExportToShareableHandle(void *shareable, hipMemGenericAllocationHandle_t handle,
                              hipMemAllocationHandleType type, unsigned long long flags)
{
	ENTER();
	if (!shareable || !handle || type != 1 || flags)
		return hipErrorInvalidValue;
	int fd = fcntl(handle->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return hipErrorOutOfMemory;
	*(int *)shareable = fd;
	return hipSuccess;
}

EXPORT hipError_t
hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle, void *os_handle,
                                hipMemAllocationHandleType type)
{
	struct stat st;
	int fd = (int)(intptr_t)os_handle;

	ENTER();
	if (!handle || type != 1 || fstat(fd, &st) != 0 || st.st_size <= 0)
		return hipErrorInvalidValue;
	struct ihipMemGenericAllocationHandle *h = calloc(1, sizeof *h);
	if (!h)
		return hipErrorOutOfMemory;
	if ((h->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		free(h);
		return hipErrorOutOfMemory;
	}
	h->bytes = (size_t)st.st_size;
	*handle = h;
	return hipSuccess;
}

EXPORT hipError_t
hipMemRelease(hipMemGenericAllocationHandle_t handle)
{
	ENTER();
	if (!handle)
		return hipErrorInvalidValue;
	close(handle->fd);
	free(handle);
	return hipSuccess;
}

EXPORT hipError_t
hipMemMap(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
          unsigned long long flags)
{
	ENTER();
	if (!ptr || !handle || flags || offset > handle->bytes || size > handle->bytes - offset)
		return hipErrorInvalidValue;
	struct vm_mapping *m = calloc(1, sizeof *m);
	if (!m)
		return hipErrorOutOfMemory;
	if (mmap(ptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, handle->fd, (off_t)offset) ==
	    MAP_FAILED) {
		free(m);
		return hipErrorOutOfMemory;
	}
	m->base = ptr;
	m->bytes = size;
	pthread_mutex_lock(&rt.lock);
	m->next = vm_mappings;
	vm_mappings = m;
	pthread_mutex_unlock(&rt.lock);
	log_line("hipMemMap %p %zu %zu", ptr, size, offset);
	return hipSuccess;
}

EXPORT hipError_t
hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)
{
	const struct zc_hip_access_desc *d = (const void *)desc;
	uint8_t *base = ptr;

	ENTER();
	if (!desc || count != 1 || d->location_type != 1 || !valid_device(d->location_id))
		return hipErrorInvalidValue;
	pthread_mutex_lock(&rt.lock);
	for (struct vm_mapping *m = vm_mappings; m; m = m->next) {
		if (m->base < base || m->base + m->bytes > base + size || m->reachable == (d->flags != 0))
			continue;
		if (d->flags)
			zc_emu_map(m->base, m->bytes);
		else
			zc_emu_unmap(m->base);
		m->reachable = d->flags != 0;
	}
	pthread_mutex_unlock(&rt.lock);
	log_line("hipMemSetAccess %p %zu %d", ptr, size, d->flags);
	return hipSuccess;
}

EXPORT hipError_t
hipMemUnmap(void *ptr, size_t size)
{
	uint8_t *base = ptr;
	hipError_t e = hipSuccess;

	ENTER();
	pthread_mutex_lock(&rt.lock);
	for (struct vm_mapping **link = &vm_mappings; *link;) {
		struct vm_mapping *m = *link;
		if (m->base < base || m->base + m->bytes > base + size) {
			link = &m->next;
			continue;
		}
		*link = m->next;
		if (m->reachable)
			zc_emu_unmap(m->base);
		if (mmap(m->base, m->bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
		         -1, 0) == MAP_FAILED)
			e = hipErrorInvalidValue;
		free(m);
	}
	pthread_mutex_unlock(&rt.lock);
	log_line("hipMemUnmap %p %zu", ptr, size);
	return e;
}

EXPORT hipError_t
hipHostMalloc(void **ptr, size_t bytes, unsigned flags)
{
	return allocate(ptr, bytes, false, "hipHostMalloc");
}

EXPORT hipError_t
hipMallocManaged(void **ptr, size_t bytes, unsigned flags)
{
	return allocate(ptr, bytes, false, "hipMallocManaged");
}

EXPORT hipError_t
hipMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
	ENTER();
	if (!free_bytes || !total_bytes)
		return hipErrorInvalidValue;
	pthread_mutex_lock(&rt.lock);
	*total_bytes = rt.card.memory_bytes;
	*free_bytes = rt.card.memory_bytes - rt.device_bytes;
	pthread_mutex_unlock(&rt.lock);
	return hipSuccess;
}

EXPORT hipError_t
hipMemcpy2DAsync(void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t width,
                 size_t height, hipMemcpyKind kind, hipStream_t stream)
{
	ENTER();
	if (width == 0 || height == 0)
		return hipSuccess;
	if (!dst || !src || (height > 1 && (width > dst_pitch || width > src_pitch)))
		return hipErrorInvalidValue;
	for (size_t y = 0; y < height; y++)
		memmove((char *)dst + y * dst_pitch, (const char *)src + y * src_pitch, width);
	return hipSuccess;
}

EXPORT hipError_t
hipMemsetD8Async(void *dst, unsigned char value, size_t count, hipStream_t stream)
{
	ENTER();
	if (count && !dst)
		return hipErrorInvalidValue;
	if (count)
		memset(dst, value, count);
	return hipSuccess;
}

EXPORT hipError_t
hipMemsetD16Async(void *dst, unsigned short value, size_t count, hipStream_t stream)
{
	ENTER();
	if (count && !dst)
		return hipErrorInvalidValue;
	for (size_t i = 0; i < count; i++)
		memcpy((char *)dst + 2 * i, &value, 2);
	return hipSuccess;
}

EXPORT hipError_t
hipMemsetD32Async(void *dst, int value, size_t count, hipStream_t stream)
{
	ENTER();
	if (count && !dst)
		return hipErrorInvalidValue;
	for (size_t i = 0; i < count; i++)
		memcpy((char *)dst + 4 * i, &value, 4);
	return hipSuccess;
}

/* --- streams and events: everything has completed when its call returns --- */

struct stream {
	unsigned flags;
	int priority;
};

EXPORT hipError_t
hipStreamCreateWithPriority(hipStream_t *stream, unsigned flags, int priority)
{
	struct stream *s;

	ENTER();
	if (!stream)
		return hipErrorInvalidValue;
	if (!(s = malloc(sizeof *s)))
		return hipErrorOutOfMemory;
	*s = (struct stream){ flags, priority };
	*stream = s;
	return hipSuccess;
}

EXPORT hipError_t
hipStreamDestroy(hipStream_t stream)
{
	ENTER();
	if (!stream || stream == hipStreamPerThread)
		return hipErrorInvalidHandle;
	free(stream);
	return hipSuccess;
}

EXPORT hipError_t hipStreamQuery(hipStream_t stream) { ENTER(); return hipSuccess; }
EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) { ENTER(); return hipSuccess; }

EXPORT hipError_t
hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags)
{
	ENTER();
	return event ? hipSuccess : hipErrorInvalidHandle;
}

EXPORT hipError_t
hipStreamAddCallback(hipStream_t stream, void (*fn)(hipStream_t, hipError_t, void *), void *arg,
                     unsigned flags)
{
	ENTER();
	if (!fn || flags != 0)
		return hipErrorInvalidValue;
	fn(stream, hipSuccess, arg);
	return hipSuccess;
}

struct event {
	unsigned flags;
	bool recorded;
	struct timespec when;
};

EXPORT hipError_t
hipEventCreateWithFlags(hipEvent_t *event, unsigned flags)
{
	struct event *e;

	ENTER();
	if (!event)
		return hipErrorInvalidValue;
	if (!(e = calloc(1, sizeof *e)))
		return hipErrorOutOfMemory;
	e->flags = flags;
	*event = e;
	return hipSuccess;
}

EXPORT hipError_t
hipEventDestroy(hipEvent_t event)
{
	ENTER();
	if (!event)
		return hipErrorInvalidHandle;
	free(event);
	return hipSuccess;
}

EXPORT hipError_t
hipEventRecord(hipEvent_t event, hipStream_t stream)
{
	struct event *e = event;
	struct timespec now;

	ENTER();
	if (!e)
		return hipErrorInvalidHandle;
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&rt.lock);
	e->when = now;
	e->recorded = true;
	pthread_mutex_unlock(&rt.lock);
	return hipSuccess;
}

EXPORT hipError_t
hipEventQuery(hipEvent_t event)
{
	ENTER();
	return event ? hipSuccess : hipErrorInvalidHandle;
}

EXPORT hipError_t
hipEventSynchronize(hipEvent_t event)
{
	ENTER();
	return event ? hipSuccess : hipErrorInvalidHandle;
}

EXPORT hipError_t
hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t end)
{
	struct event *a = start, *b = end;
	hipError_t e = hipSuccess;

	ENTER();
	if (!ms)
		return hipErrorInvalidValue;
	if (!a || !b)
		return hipErrorInvalidHandle;
	pthread_mutex_lock(&rt.lock);
	/* CUDA's rule: both recorded, neither without timing. */
	if (!a->recorded || !b->recorded || (a->flags | b->flags) & EVENT_DISABLE_TIMING)
		e = hipErrorInvalidHandle;
	else
		*ms = (float)((double)(b->when.tv_sec - a->when.tv_sec) * 1e3 +
		              (double)(b->when.tv_nsec - a->when.tv_nsec) / 1e6);
	pthread_mutex_unlock(&rt.lock);
	return e;
}

/* --- modules --- */

struct ihipModuleSymbol_t {
	const struct zc_emu_kernel *kernel;
	struct ihipModuleSymbol_t *next;
	char name[];
};

struct logged_global {
	struct logged_global *next;
	char name[];
};

struct ihipModule_t {
	struct zc_emu_object *object;
	pthread_mutex_t lock;                   /* the lists */
	struct ihipModuleSymbol_t *functions;   /* handed out, freed with the module */
	struct logged_global *globals;          /* looked up so far: logged the first time */
};

/* Extends *end over [offset, offset + length), refusing ranges no code object has. */
static bool
extend(uint64_t *end, uint64_t offset, uint64_t length)
{
	const uint64_t limit = (uint64_t)1 << 32;

	if (offset > limit || length > limit - offset)
		return false;
	if (offset + length > *end)
		*end = offset + length;
	return true;
}

/* HIP is handed no size: an ELF's size is the end of its headers and of what they
 * describe. Writes why an image is refused into WHY. */
static bool
elf_size(const void *image, size_t *size, char *why, size_t why_size)
{
	const Elf64_Ehdr *e = image;
	uint64_t end = sizeof *e;

	if (memcmp(e->e_ident, ELFMAG, SELFMAG) != 0) {
		snprintf(why, why_size, "not an ELF file");
		return false;
	}
	if (e->e_ident[EI_CLASS] != ELFCLASS64 || e->e_ident[EI_DATA] != ELFDATA2LSB ||
	    e->e_machine != EM_AMDGPU) {
		snprintf(why, why_size, "not an AMDGPU code object (ELF class %u, machine %u)",
		         e->e_ident[EI_CLASS], e->e_machine);
		return false;
	}
	if (e->e_phnum && (e->e_phentsize != sizeof(Elf64_Phdr) ||
	                   !extend(&end, e->e_phoff, (uint64_t)e->e_phnum * sizeof(Elf64_Phdr)))) {
		snprintf(why, why_size, "bad program header table (%u entries of %u bytes at %#llx)",
		         e->e_phnum, e->e_phentsize, (unsigned long long)e->e_phoff);
		return false;
	}
	if ((e->e_shoff && !e->e_shnum) ||
	    (e->e_shnum && (e->e_shentsize != sizeof(Elf64_Shdr) ||
	                    !extend(&end, e->e_shoff, (uint64_t)e->e_shnum * sizeof(Elf64_Shdr))))) {
		snprintf(why, why_size, "bad section header table (%u entries of %u bytes at %#llx)",
		         e->e_shnum, e->e_shentsize, (unsigned long long)e->e_shoff);
		return false;
	}
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)image + e->e_phoff);
	for (unsigned i = 0; i < e->e_phnum; i++)
		if (!extend(&end, ph[i].p_offset, ph[i].p_filesz)) {
			snprintf(why, why_size, "program header %u lies past any code object's size", i);
			return false;
		}
	const Elf64_Shdr *sh = (const Elf64_Shdr *)((const char *)image + e->e_shoff);
	for (unsigned i = 0; i < e->e_shnum; i++)
		if (sh[i].sh_type != SHT_NOBITS && !extend(&end, sh[i].sh_offset, sh[i].sh_size)) {
			snprintf(why, why_size, "section %u lies past any code object's size", i);
			return false;
		}
	*size = (size_t)end;
	return true;
}

EXPORT hipError_t
hipModuleLoadData(hipModule_t *module, const void *image)
{
	const Elf64_Ehdr *e = image;
	char error[ZC_EMU_ERROR_SIZE];
	struct ihipModule_t *m;
	enum zc_emu_status status;
	size_t size;

	ENTER();
	if (!module || !image)
		return hipErrorInvalidValue;
	if (!elf_size(image, &size, error, sizeof error)) {
		log_line("hipModuleLoadData: not an AMDGPU ELF");
		fprintf(stderr, "zc-emu-hip: hipModuleLoadData: %s\n", error);
		return hipErrorInvalidImage;
	}
	log_line("hipModuleLoadData: AMDGPU ELF, mach 0x%x, OS ABI %u version %u", e->e_flags & 0xff,
	         e->e_ident[EI_OSABI], e->e_ident[EI_ABIVERSION]);
	if (!(m = calloc(1, sizeof *m)))
		return hipErrorOutOfMemory;
	status = zc_emu_load(image, size, rt.processor, &m->object, error);
	if (status != ZC_EMU_OK) {
		fprintf(stderr, "zc-emu-hip: %s\n", error);
		free(m);
		return status == ZC_EMU_WRONG_PROCESSOR ? hipErrorNoBinaryForGpu : hipErrorInvalidImage;
	}
	pthread_mutex_init(&m->lock, NULL);
	*module = m;
	return hipSuccess;
}

EXPORT hipError_t
hipModuleUnload(hipModule_t module)
{
	struct ihipModule_t *m = module;

	ENTER();
	if (!m)
		return hipErrorInvalidHandle;
	zc_emu_unload(m->object);
	for (struct ihipModuleSymbol_t *f = m->functions, *next; f; f = next) {
		next = f->next;
		free(f);
	}
	for (struct logged_global *g = m->globals, *next; g; g = next) {
		next = g->next;
		free(g);
	}
	pthread_mutex_destroy(&m->lock);
	free(m);
	return hipSuccess;
}

EXPORT hipError_t
hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *name)
{
	char error[ZC_EMU_ERROR_SIZE];
	const struct zc_emu_kernel *kernel;
	struct ihipModuleSymbol_t *f;
	enum zc_emu_status status;

	ENTER();
	if (!function || !name)
		return hipErrorInvalidValue;
	if (!module)
		return hipErrorInvalidHandle;
	status = zc_emu_find_kernel(module->object, name, &kernel, error);
	if (status == ZC_EMU_NOT_FOUND) {
		log_line("hipModuleGetFunction %s: not found", name);
		return hipErrorNotFound;
	}
	if (status != ZC_EMU_OK) {
		fprintf(stderr, "zc-emu-hip: %s\n", error);
		return hipErrorInvalidValue;
	}
	if (!(f = malloc(sizeof *f + strlen(name) + 1)))
		return hipErrorOutOfMemory;
	f->kernel = kernel;
	strcpy(f->name, name);
	pthread_mutex_lock(&module->lock);
	f->next = module->functions;
	module->functions = f;
	pthread_mutex_unlock(&module->lock);
	log_line("hipModuleGetFunction %s", name);
	*function = f;
	return hipSuccess;
}

EXPORT hipError_t
hipModuleGetGlobal(hipDeviceptr_t *address, size_t *bytes, hipModule_t module, const char *name)
{
	char error[ZC_EMU_ERROR_SIZE];
	enum zc_emu_status status;
	struct logged_global *g;
	bool first = true;
	void *where;
	size_t size;

	ENTER();
	if (!name)
		return hipErrorInvalidValue;
	if (!module)
		return hipErrorInvalidHandle;
	status = zc_emu_find_global(module->object, name, &where, &size, error);
	if (status == ZC_EMU_NOT_FOUND) {
		log_line("hipModuleGetGlobal %s: not found", name);
		return hipErrorNotFound;
	}
	if (status != ZC_EMU_OK) {
		fprintf(stderr, "zc-emu-hip: %s\n", error);
		return hipErrorInvalidValue;
	}
	pthread_mutex_lock(&module->lock);
	for (g = module->globals; g && first; g = g->next)
		first = strcmp(g->name, name) != 0;
	if (first && (g = malloc(sizeof *g + strlen(name) + 1))) {
		strcpy(g->name, name);
		g->next = module->globals;
		module->globals = g;
	}
	pthread_mutex_unlock(&module->lock);
	if (first)
		log_line("hipModuleGetGlobal %s: %zu bytes", name, size);
	if (address)
		*address = where;
	if (bytes)
		*bytes = size;
	return hipSuccess;
}

/* --- launches --- */

/* A launch with the arguments as one buffer in the kernel's layout. */
static hipError_t
launch(hipFunction_t function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
       unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
       const unsigned char *buffer, size_t size, bool cooperative)
{
	char error[ZC_EMU_ERROR_SIZE];
	enum zc_emu_status status;
	char *hex;

	if ((hex = malloc(2 * size + 1))) {
		hex[0] = '\0';
		for (size_t i = 0; i < size; i++)
			snprintf(hex + 2 * i, 3, "%02x", buffer[i]);
		log_line("%s %s grid %u %u %u block %u %u %u shared %u args %s",
		         cooperative ? "hipModuleLaunchCooperativeKernel" : "hipModuleLaunchKernel",
		         function->name, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes,
		         hex);
		free(hex);
	}
	size_t stack_size = atomic_load(&rt.stack_size);
	struct zc_emu_dispatch dispatch = {
		.grid = { grid_x, grid_y, grid_z },
		.block = { block_x, block_y, block_z },
		.dynamic_lds = shared_bytes,
		.stack_size = stack_size > UINT32_MAX ? UINT32_MAX : (uint32_t)stack_size,
		.kernarg = buffer,
		.kernarg_size = size,
		.cooperative = cooperative,
	};
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	status = zc_emu_launch(function->kernel, &dispatch, error);
	clock_gettime(CLOCK_MONOTONIC, &end);
	atomic_fetch_add(&rt.launch_ns, (uint64_t)((end.tv_sec - start.tv_sec) * 1000000000LL +
	                                           (end.tv_nsec - start.tv_nsec)));
	if (status == ZC_EMU_OK)
		return hipSuccess;
	fprintf(stderr, "zc-emu-hip: %s\n", error);
	if (status == ZC_EMU_INVALID_VALUE)
		return hipErrorInvalidValue;
	/* As on a GPU, a kernel that faulted leaves the context unusable, and it is the calls
	 * after the launch, which was accepted, that say so. */
	atomic_store(&rt.broken, status == ZC_EMU_MEMORY_FAULT ? hipErrorIllegalAddress
	                                                      : hipErrorLaunchFailure);
	return hipSuccess;
}

EXPORT hipError_t
hipModuleLaunchKernel(hipFunction_t function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                      unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                      hipStream_t stream, void **params, void **extra)
{
	const unsigned char *buffer = NULL;
	size_t size = 0;

	ENTER();
	if (!function)
		return hipErrorInvalidHandle;
	if (params) {
		/* The stub passes one buffer; the pointers in params are laid out only by
		 * hipModuleLaunchCooperativeKernel, which has no other way. */
		fprintf(stderr, "zc-emu-hip: hipModuleLaunchKernel %s: arguments through kernelParams "
		        "are not supported; pass them as one buffer through extra\n", function->name);
		return hipErrorInvalidValue;
	}
	for (size_t i = 0; extra && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER)
			buffer = extra[i + 1];
		else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
			size = *(const size_t *)extra[i + 1];
		else
			return hipErrorInvalidValue;
	}
	if (size && !buffer)
		return hipErrorInvalidValue;
	(void)stream;
	return launch(function, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes,
	              buffer, size, false);
}

/* Every workgroup at once (HIP 6); the arguments, one pointer each, are laid out by the
 * metadata's offsets and sizes of the explicit arguments. */
EXPORT hipError_t
hipModuleLaunchCooperativeKernel(hipFunction_t function, unsigned grid_x, unsigned grid_y,
                                 unsigned grid_z, unsigned block_x, unsigned block_y,
                                 unsigned block_z, unsigned shared_bytes, hipStream_t stream,
                                 void **params)
{
	ENTER();
	if (!function)
		return hipErrorInvalidHandle;
	unsigned char *buffer;
	size_t size;

	if (!zc_emu_pack_arguments(function->kernel, params, &buffer, &size))
		return hipErrorInvalidValue;
	(void)stream;
	hipError_t e = launch(function, grid_x, grid_y, grid_z, block_x, block_y, block_z,
	                      shared_bytes, buffer, size, true);
	free(buffer);
	return e;
}
