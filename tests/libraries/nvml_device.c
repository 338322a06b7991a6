/* NVML's view of each device against the CUDA driver API's: count, index, name, UUID, PCI
 * address, memory, compute capability and mode, MIG mode, handles found again by UUID and
 * by PCI bus id, the CUDA driver version, and NVML's errors before init and after shutdown.
 * The sensors (temperature, power, fans, utilisation): with NO_SENSORS=1 in the environment
 * they must answer NVML_ERROR_NOT_SUPPORTED; with SENSORS="T P F G M" the first device's
 * must be those values (degrees, milliwatts, fan percent, GPU and memory busy percent); on
 * NVIDIA's NVML they may answer anything but an error. Prints PASS or what differs. */
#include <cuda.h>
#include <nvml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(cond, ...)                              \
	do {                                               \
		if (!(cond)) {                                 \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);                       \
			printf("\n");                              \
			failures++;                                \
		}                                              \
	} while (0)

static int attribute(CUdevice d, CUdevice_attribute a)
{
	int v = -1;
	cuDeviceGetAttribute(&v, a, d);
	return v;
}

static void sensors(nvmlDevice_t h, int strict, const char *want)
{
	unsigned v[3] = {0, 0, 0}, expected[5];
	nvmlUtilization_t u = {0, 0};
	nvmlReturn_t r[4] = {nvmlDeviceGetTemperature(h, NVML_TEMPERATURE_GPU, &v[0]),
	                     nvmlDeviceGetPowerUsage(h, &v[1]), nvmlDeviceGetFanSpeed(h, &v[2]),
	                     nvmlDeviceGetUtilizationRates(h, &u)};
	for (int i = 0; i < 4; i++)
		EXPECT(want ? r[i] == NVML_SUCCESS
		       : strict ? r[i] == NVML_ERROR_NOT_SUPPORTED
		                : r[i] == NVML_SUCCESS || r[i] == NVML_ERROR_NOT_SUPPORTED,
		       "sensor %d answered %s", i, nvmlErrorString(r[i]));
	if (want && sscanf(want, "%u %u %u %u %u", &expected[0], &expected[1], &expected[2],
	                   &expected[3], &expected[4]) == 5)
		EXPECT(v[0] == expected[0] && v[1] == expected[1] && v[2] == expected[2] &&
		           u.gpu == expected[3] && u.memory == expected[4],
		       "sensors %u %u %u %u %u, want %s", v[0], v[1], v[2], u.gpu, u.memory, want);
}

int main(void)
{
	unsigned count = 0;
	int cuda_count = 0, strict = getenv("NO_SENSORS") && !strcmp(getenv("NO_SENSORS"), "1");

	EXPECT(nvmlDeviceGetCount_v2(&count) == NVML_ERROR_UNINITIALIZED, "a count before nvmlInit");
	EXPECT(nvmlInit_v2() == NVML_SUCCESS, "nvmlInit_v2");
	EXPECT(cuInit(0) == CUDA_SUCCESS && cuDeviceGetCount(&cuda_count) == CUDA_SUCCESS, "cuInit");
	EXPECT(nvmlDeviceGetCount_v2(&count) == NVML_SUCCESS && (int)count == cuda_count,
	       "%u devices for NVML, %d for CUDA", count, cuda_count);
	EXPECT(!strcmp(nvmlErrorString(NVML_ERROR_NOT_SUPPORTED), "Not Supported"), "error string");
	int nvml_cuda = 0, cuda = 0;
	cuDriverGetVersion(&cuda);
	EXPECT(nvmlSystemGetCudaDriverVersion_v2(&nvml_cuda) == NVML_SUCCESS && nvml_cuda == cuda,
	       "CUDA driver version %d, NVML says %d", cuda, nvml_cuda);
	char version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
	EXPECT(nvmlSystemGetDriverVersion(version, sizeof version) == NVML_SUCCESS && *version,
	       "driver version");
	for (unsigned i = 0; i < count; i++) {
		nvmlDevice_t h, again;
		CUdevice d;
		unsigned index = 99;
		char name[NVML_DEVICE_NAME_BUFFER_SIZE], cuda_name[256];
		char uuid[NVML_DEVICE_UUID_BUFFER_SIZE], want_uuid[NVML_DEVICE_UUID_BUFFER_SIZE];
		CUuuid u;

		cuDeviceGet(&d, (int)i);
		EXPECT(nvmlDeviceGetHandleByIndex_v2(i, &h) == NVML_SUCCESS, "handle %u", i);
		EXPECT(nvmlDeviceGetIndex(h, &index) == NVML_SUCCESS && index == i, "index %u", index);
		cuDeviceGetName(cuda_name, sizeof cuda_name, d);
		EXPECT(nvmlDeviceGetName(h, name, sizeof name) == NVML_SUCCESS && !strcmp(name, cuda_name),
		       "name %s, CUDA's %s", name, cuda_name);
		EXPECT(nvmlDeviceGetName(h, name, 2) == NVML_ERROR_INSUFFICIENT_SIZE, "a name in 2 bytes");
		cuDeviceGetUuid(&u, d);
		const unsigned char *b = (const unsigned char *)u.bytes;
		snprintf(want_uuid, sizeof want_uuid,
		         "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
		         b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		         b[14], b[15]);
		EXPECT(nvmlDeviceGetUUID(h, uuid, sizeof uuid) == NVML_SUCCESS && !strcmp(uuid, want_uuid),
		       "UUID %s, CUDA's %s", uuid, want_uuid);
		EXPECT(nvmlDeviceGetHandleByUUID(uuid, &again) == NVML_SUCCESS && again == h,
		       "the handle by UUID");
		nvmlPciInfo_t pci;
		EXPECT(nvmlDeviceGetPciInfo_v3(h, &pci) == NVML_SUCCESS &&
		           (int)pci.domain == attribute(d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID) &&
		           (int)pci.bus == attribute(d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID) &&
		           (int)pci.device == attribute(d, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
		       "PCI %x:%x:%x", pci.domain, pci.bus, pci.device);
		char bus_id[64];
		snprintf(bus_id, sizeof bus_id, NVML_DEVICE_PCI_BUS_ID_FMT, pci.domain, pci.bus, pci.device);
		EXPECT(!strcmp(pci.busId, bus_id), "bus id %s, want %s", pci.busId, bus_id);
		EXPECT(nvmlDeviceGetHandleByPciBusId_v2(pci.busId, &again) == NVML_SUCCESS && again == h,
		       "the handle by PCI bus id %s", pci.busId);
		size_t total = 0;
		cuDeviceTotalMem(&total, d);
		/* NVIDIA's NVML counts the memory its driver reserves, which CUDA's total leaves out:
		 * 615 MiB of 140 GiB on an H200 (driver 580) */
#define SAME_TOTAL(nvml) ((nvml) >= total && (nvml) - total <= total / 100)
		nvmlMemory_t m;
		EXPECT(nvmlDeviceGetMemoryInfo(h, &m) == NVML_SUCCESS && SAME_TOTAL(m.total) &&
		           m.free <= m.total && m.used <= m.total,
		       "memory %llu of %llu free, CUDA's total %zu", m.free, m.total, total);
		nvmlMemory_v2_t m2 = {.version = nvmlMemory_v2};
		EXPECT(nvmlDeviceGetMemoryInfo_v2(h, &m2) == NVML_SUCCESS && SAME_TOTAL(m2.total) &&
		           m2.free <= m2.total,
		       "memory v2 %llu of %llu free", m2.free, m2.total);
		int major = -1, minor = -1;
		EXPECT(nvmlDeviceGetCudaComputeCapability(h, &major, &minor) == NVML_SUCCESS &&
		           major == attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) &&
		           minor == attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
		       "compute capability %d.%d", major, minor);
		nvmlComputeMode_t mode;
		EXPECT(nvmlDeviceGetComputeMode(h, &mode) == NVML_SUCCESS &&
		           (int)mode == attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE),
		       "compute mode %d", (int)mode);
		unsigned current = 9, pending = 9;
		nvmlReturn_t mig = nvmlDeviceGetMigMode(h, &current, &pending);
		EXPECT(mig == NVML_ERROR_NOT_SUPPORTED ||
		           (mig == NVML_SUCCESS && current == NVML_DEVICE_MIG_DISABLE),
		       "MIG mode %u (%s)", current, nvmlErrorString(mig));
		sensors(h, strict, i == 0 ? getenv("SENSORS") : NULL);
	}
	EXPECT(nvmlShutdown() == NVML_SUCCESS, "nvmlShutdown");
	EXPECT(nvmlDeviceGetCount_v2(&count) == NVML_ERROR_UNINITIALIZED, "a count after shutdown");
	if (failures) {
		printf("FAIL: %d checks failed\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
