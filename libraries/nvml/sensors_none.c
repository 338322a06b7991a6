/* No sensors: Windows has no ROCm SMI. */
#include "engine.h"
#include "sensors.h"

const struct sensors *sensors_start(void)
{
	zc_engine_trace("ROCm SMI", "none on Windows: no sensors");
	return NULL;
}
