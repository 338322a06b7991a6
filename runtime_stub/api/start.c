/* Starting the API on the driver cuInit chose: the driver's devices, and a primary context
 * for each (activated when first retained). */
#include "api.h"

CUresult
zc_api_start(const struct zc_driver *driver)
{
	int count = 0;
	CUresult r = driver->init(&count);

	if (r == CUDA_SUCCESS && count == 0)
		r = stub_fail(CUDA_ERROR_NO_DEVICE, "the %s driver found no device", driver->name);
	if (r != CUDA_SUCCESS)
		return r;
	zc_drv = driver;
	r = zc_devices_init(count);
	for (int i = 0; r == CUDA_SUCCESS && i < count; i++)
		r = zc_context_new(i, 0, true, &zc_device_at(i)->primary);
	return r;
}
