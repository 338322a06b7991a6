/* The compute capability the stub reports, whatever the driver's own numbers:
 * test_capability MAJOR MINOR, run under the driver and ZLUDA_CONVERT_COMPUTE_CAPABILITY
 * the test sets. */
#include <stdio.h>
#include <stdlib.h>

#include "exports.h"

int
main(int argc, char **argv)
{
	int major = -1, minor = -1, attr_major = -1, attr_minor = -1;

	if (argc != 3) {
		fprintf(stderr, "usage: %s MAJOR MINOR\n", argv[0]);
		return 2;
	}
	if (cuInit(0) != CUDA_SUCCESS || cuDeviceComputeCapability(&major, &minor, 0) != CUDA_SUCCESS ||
	    cuDeviceGetAttribute(&attr_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0) !=
	            CUDA_SUCCESS ||
	    cuDeviceGetAttribute(&attr_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0) !=
	            CUDA_SUCCESS) {
		fprintf(stderr, "FAIL: a driver call failed\n");
		return 1;
	}
	if (major != atoi(argv[1]) || minor != atoi(argv[2]) || attr_major != major ||
	    attr_minor != minor) {
		fprintf(stderr, "FAIL: compute capability %d.%d (attributes %d.%d), expected %s.%s\n",
		        major, minor, attr_major, attr_minor, argv[1], argv[2]);
		return 1;
	}
	printf("compute capability %d.%d\n", major, minor);
	return 0;
}
