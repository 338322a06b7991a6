/* An AMD GPU's sensors through ROCm SMI (librocm_smi64, loaded at run time, never a build
 * dependency), by its header's prototypes. */
#include <rocm_smi/rocm_smi.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine.h"
#include "sensors.h"

static struct {
	void *library;
	__typeof__(&rsmi_init) init;
	__typeof__(&rsmi_num_monitor_devices) count;
	__typeof__(&rsmi_dev_pci_id_get) pci_id;
	__typeof__(&rsmi_dev_temp_metric_get) temperature;
	__typeof__(&rsmi_dev_power_ave_get) power;
	__typeof__(&rsmi_dev_fan_speed_get) fan;
	__typeof__(&rsmi_dev_fan_speed_max_get) fan_max;
	__typeof__(&rsmi_dev_busy_percent_get) busy;
	__typeof__(&rsmi_dev_memory_busy_percent_get) memory_busy;
} smi;

/* ROCm SMI's failure S, in WHY; -1. */
static int failed(rsmi_status_t s, char *why, size_t size)
{
	snprintf(why, size, "ROCm SMI: %d", s);
	return -1;
}

static int64_t device(uint64_t bdf)
{
	uint32_t count = 0;

	if (smi.count(&count) != RSMI_STATUS_SUCCESS)
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		uint64_t bdfid = 0;
		if (smi.pci_id(i, &bdfid) == RSMI_STATUS_SUCCESS && (bdfid & ~(uint64_t)7) == bdf)
			return i;
	}
	return -1;
}

/* The edge sensor, in NVML's degrees from ROCm SMI's millidegrees. */
static int temperature(uint32_t device, unsigned *celsius, char *why, size_t size)
{
	int64_t millidegrees = 0;
	rsmi_status_t s;

	if (!smi.temperature)
		return snprintf(why, size, "ROCm SMI has no temperature"), -1;
	if ((s = smi.temperature(device, RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT, &millidegrees)) !=
	    RSMI_STATUS_SUCCESS)
		return failed(s, why, size);
	*celsius = (unsigned)(millidegrees / 1000);
	return 0;
}

/* NVML's milliwatts from ROCm SMI's microwatts. */
static int power(uint32_t device, unsigned *milliwatts, char *why, size_t size)
{
	uint64_t microwatts = 0;
	rsmi_status_t s;

	if (!smi.power)
		return snprintf(why, size, "ROCm SMI has no power"), -1;
	if ((s = smi.power(device, 0, &microwatts)) != RSMI_STATUS_SUCCESS)
		return failed(s, why, size);
	*milliwatts = (unsigned)(microwatts / 1000);
	return 0;
}

/* The fan's speed as a share of its highest, in percent. */
static int fan(uint32_t device, unsigned *percent, char *why, size_t size)
{
	int64_t speed = 0;
	uint64_t highest = 0;
	rsmi_status_t s;

	if (!smi.fan || !smi.fan_max)
		return snprintf(why, size, "ROCm SMI has no fan"), -1;
	if ((s = smi.fan(device, 0, &speed)) != RSMI_STATUS_SUCCESS ||
	    (s = smi.fan_max(device, 0, &highest)) != RSMI_STATUS_SUCCESS)
		return failed(s, why, size);
	if (highest == 0)
		return snprintf(why, size, "no fan speed range"), -1;
	*percent = (unsigned)((uint64_t)(speed < 0 ? 0 : speed) * 100 / highest);
	return 0;
}

static int utilisation(uint32_t device, unsigned *gpu, unsigned *memory, char *why, size_t size)
{
	uint32_t busy = 0, memory_busy = 0;
	rsmi_status_t s;

	if (!smi.busy || !smi.memory_busy)
		return snprintf(why, size, "ROCm SMI has no utilisation"), -1;
	if ((s = smi.busy(device, &busy)) != RSMI_STATUS_SUCCESS ||
	    (s = smi.memory_busy(device, &memory_busy)) != RSMI_STATUS_SUCCESS)
		return failed(s, why, size);
	*gpu = busy;
	*memory = memory_busy;
	return 0;
}

static const struct sensors rocm_smi = {device, temperature, power, fan, utilisation};

/* ROCm SMI is looked for where AMD's kernel driver is (/dev/kfd: without it ROCm SMI does
 * not start), or where ZLUDA_CONVERT_ROCM_SMI_PATH names a library. */
const struct sensors *sensors_start(void)
{
	static const char *const names[] = {"librocm_smi64.so.7", "librocm_smi64.so.6",
	                                    "librocm_smi64.so.5", "librocm_smi64.so.1", NULL};
	static const char *const none[] = {NULL};
	char loaded[4096];
	struct stat kfd;

	smi.library = zc_engine_load_amd("ROCm SMI", "ZLUDA_CONVERT_ROCM_SMI_PATH",
	                                 stat("/dev/kfd", &kfd) == 0 ? names : none,
	                                 "no sensors", loaded, sizeof loaded);
	if (!smi.library)
		return NULL;
#define SYMBOL(field, name) smi.field = (__typeof__(smi.field))zc_engine_symbol(smi.library, #name)
	SYMBOL(init, rsmi_init);
	SYMBOL(count, rsmi_num_monitor_devices);
	SYMBOL(pci_id, rsmi_dev_pci_id_get);
	SYMBOL(temperature, rsmi_dev_temp_metric_get);
	SYMBOL(power, rsmi_dev_power_ave_get);
	SYMBOL(fan, rsmi_dev_fan_speed_get);
	SYMBOL(fan_max, rsmi_dev_fan_speed_max_get);
	SYMBOL(busy, rsmi_dev_busy_percent_get);
	SYMBOL(memory_busy, rsmi_dev_memory_busy_percent_get);
#undef SYMBOL
	if (!smi.init || !smi.count || !smi.pci_id || smi.init(0) != RSMI_STATUS_SUCCESS) {
		zc_engine_trace("nvmlInit", "ROCm SMI is installed but does not start: no sensors");
		zc_engine_close(smi.library);
		memset(&smi, 0, sizeof(smi));
		return NULL;
	}
	return &rocm_smi;
}
