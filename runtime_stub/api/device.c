/* Devices: what the driver found at cuInit, answered in CUDA's terms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

static struct {
	struct zc_device *list;
	int count;
} devices;

/* The compute capability a converted program is told on every driver but NVIDIA's own:
 * 8.6, or ZLUDA_CONVERT_COMPUTE_CAPABILITY=MAJOR.MINOR. HIP's own numbers (11.0 for
 * gfx1100, 12.0 for gfx1200) would send programs and NVIDIA's libraries down the paths of
 * architectures whose instructions are not translated (clusters, TMA, tcgen05),
 * and an Ampere part is what programs built for the default sm_75..sm_86 expect. */
static void
reported_capability(int *major, int *minor)
{
	const char *value = getenv("ZLUDA_CONVERT_COMPUTE_CAPABILITY");
	int m, n, end = 0;

	*major = 8;
	*minor = 6;
	if (!value || !*value)
		return;
	if (sscanf(value, "%d.%d%n", &m, &n, &end) == 2 && value[end] == '\0' && m >= 3 &&
	    m <= 12 && n >= 0 && n <= 9) {
		*major = m;
		*minor = n;
	} else {
		fprintf(stderr, "zluda-convert: ZLUDA_CONVERT_COMPUTE_CAPABILITY=%s is not "
		        "MAJOR.MINOR from 3.0 to 12.9; reporting 8.6\n", value);
	}
}

CUresult
zc_devices_init(int count)
{
	devices.list = stub_alloc((size_t)count * sizeof *devices.list);
	if (!devices.list)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "device table");
	for (int i = 0; i < count; i++) {
		CUresult r = zc_drv->device_info(i, &devices.list[i].info);
		pthread_mutex_init(&devices.list[i].cooperative_lock, NULL);
		if (r == CUDA_SUCCESS)
			reported_capability(&devices.list[i].info.cc_major, &devices.list[i].info.cc_minor);
		if (r != CUDA_SUCCESS)
			return r;
	}
	devices.count = count;
	return CUDA_SUCCESS;
}

struct zc_device *
zc_device_at(int ordinal)
{
	return &devices.list[ordinal];
}

int
zc_device_count(void)
{
	return devices.count;
}

CUresult
zc_device_get(CUdevice ordinal, struct zc_device **device)
{
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (ordinal < 0 || ordinal >= devices.count)
		return stub_fail(CUDA_ERROR_INVALID_DEVICE, "device %d of %d", ordinal, devices.count);
	*device = &devices.list[ordinal];
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuDeviceGetCount(int *count)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL count");
	if (r == CUDA_SUCCESS)
		*count = devices.count;
	return TRACE(r, "-> %d", r == CUDA_SUCCESS ? *count : 0);
}

ZC_EXPORT CUresult
cuDeviceGet(CUdevice *device, int ordinal)
{
	struct zc_device *d;
	CUresult r = zc_device_get(ordinal, &d);

	if (r == CUDA_SUCCESS && !device)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if (r == CUDA_SUCCESS)
		*device = ordinal;
	return TRACE(r, "%d", ordinal);
}

ZC_EXPORT CUresult
cuDeviceGetName(char *name, int len, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && (!name || len <= 0))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "no room for the name");
	if (r == CUDA_SUCCESS)
		snprintf(name, (size_t)len, "%s", d->info.name);
	return TRACE(r, "%d, %d -> \"%s\"", len, dev, r == CUDA_SUCCESS ? name : "");
}

ZC_EXPORT CUresult
cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && !bytes)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL bytes");
	if (r == CUDA_SUCCESS)
		*bytes = d->info.total_mem;
	return TRACE(r, "%d -> %zu", dev, r == CUDA_SUCCESS ? *bytes : 0);
}

static size_t
l2_granularity(const struct zc_device_info *i)
{
	return i->l2_bytes / 16 ? i->l2_bytes / 16 : 1;
}

size_t
zc_persisting_l2_granularity(int device)
{
	struct zc_device *d = NULL;

	return zc_device_get(device, &d) == CUDA_SUCCESS ? l2_granularity(&d->info) : 1;
}

size_t
zc_max_persisting_l2(int device)
{
	struct zc_device *d = NULL;

	return zc_device_get(device, &d) == CUDA_SUCCESS ? l2_granularity(&d->info) * 10 : 0;
}

static int
attribute_value(const struct zc_device_info *i, int attribute)
{
	switch (attribute) {
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return i->max_threads_per_block;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: return i->max_block[0];
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return i->max_block[1];
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return i->max_block[2];
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return i->max_grid[0];
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: return i->max_grid[1];
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return i->max_grid[2];
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: return i->shared_per_block;
	case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return i->const_mem;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32;
	case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return 0x7fffffff;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: return i->regs_per_block;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return i->clock_khz;
	case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: return 512;
	case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: return 1;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return i->sm_count;
	case CU_DEVICE_ATTRIBUTE_INTEGRATED: return i->integrated;
	case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: return 1;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: return 0;  /* default: shared by processes */
	case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: return 512;
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: return 1;
	case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: return 1;
	case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED: return 1;
	case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: return i->virtual_memory;
	case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: return 1;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: return i->pci_bus;
	case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: return i->pci_device;
	case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: return i->pci_domain;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return i->mem_clock_khz;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return i->mem_bus_width;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return i->l2_bytes;
	case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: return (int)(l2_granularity(i) * 10);
	case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: return (int)ZC_MAX_ACCESS_POLICY_WINDOW;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return i->max_threads_per_sm;
	case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: return 1;
	case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: return 1;
	case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: return 32;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return i->cc_major;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return i->cc_minor;
	case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED: return 1;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: return 1;
	case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED: return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return i->shared_per_sm;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return i->regs_per_sm;
	case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: return 1;
	case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED: return i->integrated;
	case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS: return i->integrated;
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: return i->integrated;
	case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return i->shared_per_block_optin;
	case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: return i->integrated;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return i->max_blocks_per_sm;
	case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: return 0;
	case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED: return 1;
	/* One domain: launches take the domain attributes as the hints they are. */
	case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT: return 1;
	case CU_DEVICE_ATTRIBUTE_NUMA_ID: return -1;  /* no NUMA configuration (attribute 130 is 0) */
	/* Texture and surface extents, as an H200 answers (cube maps and mipmaps: 0, absent). */
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH: return 131072;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH: return 131072;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT: return 65536;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH: return 16384;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS: return 2048;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS: return 2048;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE: return 8192;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH: return 131072;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT: return 65536;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH: return 16384;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS: return 2048;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH:
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT: return 32768;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS: return 2048;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH: return 1 << 28;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH: return 131072;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT: return 65000;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH: return 2097120;
	default: return 0;  /* the feature is absent */
	}
}

ZC_EXPORT CUresult
cuDeviceGetAttribute(int *pi, int attrib, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && !pi)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pi");
	if (r == CUDA_SUCCESS && (attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "attribute %d", attrib);
	if (r == CUDA_SUCCESS)
		*pi = attribute_value(&d->info, attrib);
	return TRACE(r, "%d, %d -> %d", attrib, dev, r == CUDA_SUCCESS ? *pi : 0);
}

ZC_EXPORT CUresult
cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && !uuid)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL uuid");
	if (r == CUDA_SUCCESS)
		memcpy(uuid->bytes, d->info.uuid, sizeof uuid->bytes);
	return TRACE(r, "%d", dev);
}

ZC_EXPORT CUresult
cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid_v2(uuid, dev);
}

ZC_EXPORT CUresult
cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && (!major || !minor))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL major or minor");
	if (r == CUDA_SUCCESS) {
		*major = d->info.cc_major;
		*minor = d->info.cc_minor;
	}
	return TRACE(r, "%d", dev);
}

ZC_EXPORT CUresult
cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && !prop)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL prop");
	if (r == CUDA_SUCCESS) {
		const struct zc_device_info *i = &d->info;
		*prop = (CUdevprop){
			.maxThreadsPerBlock = i->max_threads_per_block,
			.maxThreadsDim = { i->max_block[0], i->max_block[1], i->max_block[2] },
			.maxGridSize = { i->max_grid[0], i->max_grid[1], i->max_grid[2] },
			.sharedMemPerBlock = i->shared_per_block,
			.totalConstantMemory = i->const_mem,
			.SIMDWidth = 32,
			.memPitch = 0x7fffffff,
			.regsPerBlock = i->regs_per_block,
			.clockRate = i->clock_khz,
			.textureAlign = 512,
		};
	}
	return TRACE(r, "%d", dev);
}

ZC_EXPORT CUresult
cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && (!pciBusId || len <= 0))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "no room for the bus id");
	if (r == CUDA_SUCCESS)
		snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", d->info.pci_domain,
		         d->info.pci_bus, d->info.pci_device);
	return TRACE(r, "%d, %d", len, dev);
}

/* "domain:bus:device.function" or "bus:device.function", hexadecimal, as CUDA reads them. */
static CUresult
by_bus_id(CUdevice *dev, const char *id)
{
	unsigned domain = 0, bus, device, function;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!dev || !id))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL dev or pciBusId");
	if (r != CUDA_SUCCESS)
		return r;
	if (sscanf(id, "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4) {
		domain = 0;
		if (sscanf(id, "%x:%x.%x", &bus, &device, &function) != 3)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "bus id %s", id);
	}
	for (int i = 0; i < zc_device_count(); i++) {
		struct zc_device *d;
		if (zc_device_get(i, &d) == CUDA_SUCCESS && (unsigned)d->info.pci_domain == domain &&
		    (unsigned)d->info.pci_bus == bus && (unsigned)d->info.pci_device == device) {
			*dev = i;
			return CUDA_SUCCESS;
		}
	}
	return stub_fail(CUDA_ERROR_INVALID_DEVICE, "no device at %s", id);
}

ZC_EXPORT CUresult
cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
	CUresult r = by_bus_id(dev, pciBusId);

	return TRACE(r, "%s -> %d", pciBusId ? pciBusId : "(null)", r == CUDA_SUCCESS ? *dev : -1);
}
