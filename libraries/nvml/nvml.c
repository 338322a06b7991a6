/* NVML over the CUDA driver API: what frameworks and monitoring tools ask of a device
 * (identity, PCI address, memory, compute capability and mode, MIG mode), answered from
 * what the stub's driver knows. An AMD GPU's sensors (temperature, power, fan, utilisation)
 * come from ROCm SMI (librocm_smi64) when the HIP driver runs and that library is
 * installed; elsewhere, and for what nothing here can measure (current clocks, processes),
 * NVML_ERROR_NOT_SUPPORTED: nothing invents a sensor value. When NVIDIA's driver runs the
 * process, NVIDIA's NVML takes every call. */
#include "replacement_rename.h"

#include <cuda.h>
#include <nvml.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "sensors.h"

enum { MAX_DEVICES = 64 };

struct nvmlDevice_st {
	CUdevice device;
	unsigned index;
	int64_t sensors; /* its index among the sensors' devices, -1 when it has none */
};

/* An AMD GPU's sensors, started with the first nvmlInit under the HIP driver. */
static const struct sensors *sensors;

static struct {
	pthread_mutex_t lock;
	int users; /* nvmlInit calls not yet shut down */
	unsigned count;
	struct nvmlDevice_st devices[MAX_DEVICES];
} state = {PTHREAD_MUTEX_INITIALIZER, 0, 0, {{0, 0, -1}}};

static nvmlReturn_t fail(nvmlReturn_t r, const char *routine, const char *fmt, ...)
	__attribute__((format(ZC_PRINTF_FORMAT, 3, 4)));
static nvmlReturn_t fail(nvmlReturn_t r, const char *routine, const char *fmt, ...)
{
	if (zc_engine_tracing()) {
		va_list ap;
		va_start(ap, fmt);
		zc_engine_vtrace(routine, fmt, ap, nvmlErrorString(r));
		va_end(ap);
	}
	return r;
}

static int attribute(CUdevice device, CUdevice_attribute a);

/* The sensors' device at the CUDA device's PCI address, or -1. */
static int64_t sensors_device(CUdevice device)
{
	uint64_t bdf = (uint64_t)(uint32_t)attribute(device, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID) << 32 |
	               (uint64_t)(attribute(device, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID) & 0xff) << 8 |
	               (uint64_t)(attribute(device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID) & 0x1f) << 3;

	return sensors ? sensors->device(bdf) : -1;
}

static nvmlReturn_t init(const char *routine)
{
	int count = 0;

	pthread_mutex_lock(&state.lock);
	if (state.users == 0) {
		if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS) {
			pthread_mutex_unlock(&state.lock);
			return fail(NVML_ERROR_DRIVER_NOT_LOADED, routine, "the CUDA driver has no device");
		}
		state.count = count < MAX_DEVICES ? (unsigned)count : MAX_DEVICES;
		if (!sensors && zc_engine_driver() && strcmp(zc_engine_driver(), "hip") == 0)
			sensors = sensors_start();
		for (unsigned i = 0; i < state.count; i++) {
			state.devices[i].index = i;
			cuDeviceGet(&state.devices[i].device, (int)i);
			state.devices[i].sensors = sensors_device(state.devices[i].device);
		}
	}
	state.users++;
	pthread_mutex_unlock(&state.lock);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlInit(void)
{
	return init("nvmlInit");
}

nvmlReturn_t nvmlInit_v2(void)
{
	return init("nvmlInit_v2");
}

nvmlReturn_t nvmlInitWithFlags(unsigned int flags)
{
	return init("nvmlInitWithFlags");
}

nvmlReturn_t nvmlShutdown(void)
{
	nvmlReturn_t r = NVML_SUCCESS;

	pthread_mutex_lock(&state.lock);
	if (state.users == 0)
		r = fail(NVML_ERROR_UNINITIALIZED, "nvmlShutdown", "not initialised");
	else
		state.users--;
	pthread_mutex_unlock(&state.lock);
	return r;
}

const char *nvmlErrorString(nvmlReturn_t r)
{
	switch (r) {
	case NVML_SUCCESS: return "Success";
	case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
	case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
	case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
	case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
	case NVML_ERROR_NOT_FOUND: return "Not Found";
	case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
	case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
	case NVML_ERROR_FUNCTION_NOT_FOUND: return "Function Not Found";
	case NVML_ERROR_MEMORY: return "Insufficient Memory";
	default: return "Unknown Error";
	}
}

static bool initialised(void)
{
	pthread_mutex_lock(&state.lock);
	bool on = state.users > 0;
	pthread_mutex_unlock(&state.lock);
	return on;
}

/* The device behind a handle, or why not. */
static nvmlReturn_t device_of(nvmlDevice_t d, const char *routine, CUdevice *device)
{
	if (!initialised())
		return fail(NVML_ERROR_UNINITIALIZED, routine, "nvmlInit was not called");
	if (!d || d < state.devices || d >= state.devices + state.count)
		return fail(NVML_ERROR_INVALID_ARGUMENT, routine, "not a device handle");
	*device = d->device;
	return NVML_SUCCESS;
}

/* A string answer of at most LENGTH bytes, NUL included. */
static nvmlReturn_t copy_string(const char *routine, const char *s, char *out, unsigned length)
{
	if (!out)
		return fail(NVML_ERROR_INVALID_ARGUMENT, routine, "NULL buffer");
	if (strlen(s) + 1 > length)
		return fail(NVML_ERROR_INSUFFICIENT_SIZE, routine, "%zu bytes needed, %u given",
		            strlen(s) + 1, length);
	memcpy(out, s, strlen(s) + 1);
	return NVML_SUCCESS;
}

static int attribute(CUdevice device, CUdevice_attribute a)
{
	int v = 0;
	cuDeviceGetAttribute(&v, a, device);
	return v;
}

/* The driver's version is zluda-convert's, NVML's follows NVIDIA's form (CUDA major.minor). */
nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
	if (!initialised())
		return fail(NVML_ERROR_UNINITIALIZED, "nvmlSystemGetDriverVersion", "not initialised");
	return copy_string("nvmlSystemGetDriverVersion", ZC_VERSION, version, length);
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length)
{
	char text[32];
	int cuda = 0;

	cuDriverGetVersion(&cuda);
	snprintf(text, sizeof(text), "%d.%s", cuda / 1000, ZC_VERSION);
	return copy_string("nvmlSystemGetNVMLVersion", text, version, length);
}

static nvmlReturn_t cuda_driver_version(const char *routine, int *version)
{
	if (!version)
		return fail(NVML_ERROR_INVALID_ARGUMENT, routine, "NULL pointer");
	if (cuDriverGetVersion(version) != CUDA_SUCCESS)
		return fail(NVML_ERROR_DRIVER_NOT_LOADED, routine, "no CUDA driver");
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *version)
{
	return cuda_driver_version("nvmlSystemGetCudaDriverVersion", version);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *version)
{
	return cuda_driver_version("nvmlSystemGetCudaDriverVersion_v2", version);
}

static nvmlReturn_t device_count(const char *routine, unsigned int *count)
{
	if (!initialised())
		return fail(NVML_ERROR_UNINITIALIZED, routine, "nvmlInit was not called");
	if (!count)
		return fail(NVML_ERROR_INVALID_ARGUMENT, routine, "NULL pointer");
	*count = state.count;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount(unsigned int *count)
{
	return device_count("nvmlDeviceGetCount", count);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
	return device_count("nvmlDeviceGetCount_v2", count);
}

static nvmlReturn_t handle_by_index(const char *routine, unsigned int index, nvmlDevice_t *d)
{
	if (!initialised())
		return fail(NVML_ERROR_UNINITIALIZED, routine, "nvmlInit was not called");
	if (!d || index >= state.count)
		return fail(NVML_ERROR_INVALID_ARGUMENT, routine, "index %u of %u devices", index,
		            state.count);
	*d = &state.devices[index];
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *d)
{
	return handle_by_index("nvmlDeviceGetHandleByIndex", index, d);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *d)
{
	return handle_by_index("nvmlDeviceGetHandleByIndex_v2", index, d);
}

/* NVIDIA's form of a device's UUID: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx. */
static void uuid_text(CUdevice device, char text[NVML_DEVICE_UUID_BUFFER_SIZE])
{
	CUuuid u;
	const unsigned char *b = (const unsigned char *)u.bytes;

	memset(&u, 0, sizeof(u));
	cuDeviceGetUuid(&u, device);
	snprintf(text, NVML_DEVICE_UUID_BUFFER_SIZE,
	         "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
	         b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
	         b[14], b[15]);
}

static void pci_info(CUdevice device, nvmlPciInfo_t *pci)
{
	memset(pci, 0, sizeof(*pci));
	pci->domain = (unsigned)attribute(device, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
	pci->bus = (unsigned)attribute(device, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
	pci->device = (unsigned)attribute(device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
	snprintf(pci->busId, sizeof(pci->busId), NVML_DEVICE_PCI_BUS_ID_FMT, pci->domain, pci->bus,
	         pci->device);
	snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), NVML_DEVICE_PCI_BUS_ID_LEGACY_FMT,
	         pci->domain, pci->bus, pci->device);
}

/* A handle by a property's text: the UUID or either form of the PCI bus id. */
static nvmlReturn_t handle_by(const char *routine, const char *wanted, nvmlDevice_t *d, bool uuid)
{
	if (!initialised())
		return fail(NVML_ERROR_UNINITIALIZED, routine, "nvmlInit was not called");
	if (!wanted || !d)
		return fail(NVML_ERROR_INVALID_ARGUMENT, routine, "NULL argument");
	for (unsigned i = 0; i < state.count; i++) {
		char text[NVML_DEVICE_UUID_BUFFER_SIZE];
		nvmlPciInfo_t pci;

		if (uuid)
			uuid_text(state.devices[i].device, text);
		else
			pci_info(state.devices[i].device, &pci);
		if (uuid ? strcmp(text, wanted) == 0
		         : strcasecmp(pci.busId, wanted) == 0 || strcasecmp(pci.busIdLegacy, wanted) == 0) {
			*d = &state.devices[i];
			return NVML_SUCCESS;
		}
	}
	return fail(NVML_ERROR_NOT_FOUND, routine, "no device %s", wanted);
}

nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *d)
{
	return handle_by("nvmlDeviceGetHandleByUUID", uuid, d, true);
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *bus_id, nvmlDevice_t *d)
{
	return handle_by("nvmlDeviceGetHandleByPciBusId", bus_id, d, false);
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, nvmlDevice_t *d)
{
	return handle_by("nvmlDeviceGetHandleByPciBusId_v2", bus_id, d, false);
}

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t d, unsigned int *index)
{
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetIndex", &device);

	if (r == NVML_SUCCESS && !index)
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetIndex", "NULL pointer");
	if (r == NVML_SUCCESS)
		*index = d->index;
	return r;
}

/* The device's minor number is its index: there are no /dev/nvidiaN files to number. */
nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t d, unsigned int *minor)
{
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetMinorNumber", &device);

	if (r == NVML_SUCCESS && !minor)
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetMinorNumber", "NULL pointer");
	if (r == NVML_SUCCESS)
		*minor = d->index;
	return r;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int length)
{
	char text[NVML_DEVICE_NAME_BUFFER_SIZE] = "";
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetName", &device);

	if (r != NVML_SUCCESS)
		return r;
	cuDeviceGetName(text, sizeof(text), device);
	return copy_string("nvmlDeviceGetName", text, name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int length)
{
	char text[NVML_DEVICE_UUID_BUFFER_SIZE];
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetUUID", &device);

	if (r != NVML_SUCCESS)
		return r;
	uuid_text(device, text);
	return copy_string("nvmlDeviceGetUUID", text, uuid, length);
}

/* Each version of the PCI query fills what its struct had then; the device and subsystem
 * ids (PCI's vendor and product numbers) are unknown to the driver API and stay 0. */
#define PCI_INFO(name)                                                         \
	nvmlReturn_t name(nvmlDevice_t d, nvmlPciInfo_t *pci)                      \
	{                                                                          \
		CUdevice device;                                                       \
		nvmlReturn_t r = device_of(d, #name, &device);                         \
		if (r == NVML_SUCCESS && !pci)                                         \
			return fail(NVML_ERROR_INVALID_ARGUMENT, #name, "NULL pointer");   \
		if (r == NVML_SUCCESS)                                                 \
			pci_info(device, pci);                                             \
		return r;                                                              \
	}
PCI_INFO(nvmlDeviceGetPciInfo)
PCI_INFO(nvmlDeviceGetPciInfo_v2)
PCI_INFO(nvmlDeviceGetPciInfo_v3)

/* Free memory as the device's primary context sees it. */
static nvmlReturn_t memory(const char *routine, nvmlDevice_t d, unsigned long long *total,
                           unsigned long long *free_bytes)
{
	CUdevice device;
	CUcontext context;
	size_t free_now = 0, total_now = 0;
	nvmlReturn_t r = device_of(d, routine, &device);

	if (r != NVML_SUCCESS)
		return r;
	if (cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS)
		return fail(NVML_ERROR_UNKNOWN, routine, "no context on device %u", d->index);
	if (cuCtxPushCurrent(context) == CUDA_SUCCESS) {
		cuMemGetInfo(&free_now, &total_now);
		cuCtxPopCurrent(&context);
	}
	cuDevicePrimaryCtxRelease(device);
	*total = total_now;
	*free_bytes = free_now;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m)
{
	nvmlReturn_t r;

	if (!m)
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetMemoryInfo", "NULL pointer");
	if ((r = memory("nvmlDeviceGetMemoryInfo", d, &m->total, &m->free)) == NVML_SUCCESS)
		m->used = m->total - m->free;
	return r;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, nvmlMemory_v2_t *m)
{
	nvmlReturn_t r;

	if (!m)
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetMemoryInfo_v2", "NULL pointer");
	if (m->version != nvmlMemory_v2)
		return fail(NVML_ERROR_ARGUMENT_VERSION_MISMATCH, "nvmlDeviceGetMemoryInfo_v2",
		            "version %#x", m->version);
	if ((r = memory("nvmlDeviceGetMemoryInfo_v2", d, &m->total, &m->free)) == NVML_SUCCESS) {
		m->reserved = 0;
		m->used = m->total - m->free;
	}
	return r;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor)
{
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetCudaComputeCapability", &device);

	if (r == NVML_SUCCESS && (!major || !minor))
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetCudaComputeCapability",
		            "NULL pointer");
	if (r == NVML_SUCCESS) {
		*major = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
		*minor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	}
	return r;
}

/* CUDA's compute modes and NVML's are numbered alike. */
nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, nvmlComputeMode_t *mode)
{
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetComputeMode", &device);

	if (r == NVML_SUCCESS && !mode)
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetComputeMode", "NULL pointer");
	if (r == NVML_SUCCESS)
		*mode = (nvmlComputeMode_t)attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE);
	return r;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *current, unsigned int *pending)
{
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetMigMode", &device);

	if (r == NVML_SUCCESS && (!current || !pending))
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetMigMode", "NULL pointer");
	if (r == NVML_SUCCESS)
		*current = *pending = NVML_DEVICE_MIG_DISABLE;
	return r;
}

/* The highest clocks are what the driver reports; the current ones are not known. */
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, nvmlClockType_t type, unsigned int *mhz)
{
	CUdevice device;
	nvmlReturn_t r = device_of(d, "nvmlDeviceGetMaxClockInfo", &device);

	if (r == NVML_SUCCESS && !mhz)
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetMaxClockInfo", "NULL pointer");
	if (r != NVML_SUCCESS)
		return r;
	switch (type) {
	case NVML_CLOCK_GRAPHICS: case NVML_CLOCK_SM:
		*mhz = (unsigned)attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000;
		return NVML_SUCCESS;
	case NVML_CLOCK_MEM:
		*mhz = (unsigned)attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000;
		return NVML_SUCCESS;
	default:
		return fail(NVML_ERROR_NOT_SUPPORTED, "nvmlDeviceGetMaxClockInfo", "clock %d", type);
	}
}

/* The sensors' index of the device, or NOT_SUPPORTED when it has none. */
static nvmlReturn_t sensor(nvmlDevice_t d, const char *routine, void *out, uint32_t *device)
{
	CUdevice cu;
	nvmlReturn_t r = device_of(d, routine, &cu);

	if (r == NVML_SUCCESS && !out)
		return fail(NVML_ERROR_INVALID_ARGUMENT, routine, "NULL pointer");
	if (r == NVML_SUCCESS && d->sensors < 0)
		return fail(NVML_ERROR_NOT_SUPPORTED, routine, "no sensor for device %u (ROCm SMI on "
		            "an AMD GPU only)", d->index);
	if (r == NVML_SUCCESS)
		*device = (uint32_t)d->sensors;
	return r;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, nvmlTemperatureSensors_t which,
                                      unsigned int *degrees)
{
	uint32_t device;
	char why[128];
	nvmlReturn_t r = sensor(d, "nvmlDeviceGetTemperature", degrees, &device);

	if (r != NVML_SUCCESS)
		return r;
	if (which != NVML_TEMPERATURE_GPU)
		return fail(NVML_ERROR_INVALID_ARGUMENT, "nvmlDeviceGetTemperature", "sensor %d", which);
	if (sensors->temperature(device, degrees, why, sizeof why) != 0)
		return fail(NVML_ERROR_NOT_SUPPORTED, "nvmlDeviceGetTemperature", "%s", why);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *milliwatts)
{
	uint32_t device;
	char why[128];
	nvmlReturn_t r = sensor(d, "nvmlDeviceGetPowerUsage", milliwatts, &device);

	if (r == NVML_SUCCESS && sensors->power(device, milliwatts, why, sizeof why) != 0)
		return fail(NVML_ERROR_NOT_SUPPORTED, "nvmlDeviceGetPowerUsage", "%s", why);
	return r;
}

nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t d, unsigned int *percent)
{
	uint32_t device;
	char why[128];
	nvmlReturn_t r = sensor(d, "nvmlDeviceGetFanSpeed", percent, &device);

	if (r == NVML_SUCCESS && sensors->fan(device, percent, why, sizeof why) != 0)
		return fail(NVML_ERROR_NOT_SUPPORTED, "nvmlDeviceGetFanSpeed", "%s", why);
	return r;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u)
{
	uint32_t device;
	char why[128];
	nvmlReturn_t r = sensor(d, "nvmlDeviceGetUtilizationRates", u, &device);

	if (r == NVML_SUCCESS && sensors->utilisation(device, &u->gpu, &u->memory, why, sizeof why) != 0)
		return fail(NVML_ERROR_NOT_SUPPORTED, "nvmlDeviceGetUtilizationRates", "%s", why);
	return r;
}
