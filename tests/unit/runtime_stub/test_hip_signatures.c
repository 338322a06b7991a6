/* The HIP driver's declarations (runtime_stub/hip_api.h) against ROCm's own header: every
 * function it resolves has the header's prototype, every enumerator the header's value,
 * and each stand-in type the size of HIP's. A mismatch fails the build of this file. */
#include <hip/hip_runtime_api.h>
#include <stdint.h>

#define ZC_HIP_HEADER_TYPES
#include "hip_api.h"

#define SAME_PROTOTYPE(name, params)                                                        \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&name), hipError_t(*) params),  \
	               #name " differs from hip_runtime_api.h");
HIP_FUNCTIONS(SAME_PROTOTYPE)

#define SAME_VALUE(name, value) _Static_assert(name == value, #name " is not " #value);
HIP_CONSTANTS(SAME_VALUE)

/* hip_api.h's stand-ins without the header: int for the enums, void * for the handles. */
_Static_assert(sizeof(hipError_t) == sizeof(int), "hipError_t");
_Static_assert(sizeof(hipDeviceAttribute_t) == sizeof(int), "hipDeviceAttribute_t");
_Static_assert(sizeof(hipMemcpyKind) == sizeof(int), "hipMemcpyKind");
_Static_assert(sizeof(hipStream_t) == sizeof(void *), "hipStream_t");
_Static_assert(sizeof(hipEvent_t) == sizeof(void *), "hipEvent_t");

int
main(void)
{
	/* Not a constant expression: checked when the test runs. */
	return (uintptr_t)hipStreamPerThread == 2 ? 0 : 1;
}
