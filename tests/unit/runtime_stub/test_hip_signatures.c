/* The HIP driver's declarations (abi/hip_api.h) against ROCm's own header: every
 * function it resolves has the header's prototype, every enumerator the header's value,
 * and each stand-in type the size of HIP's. A mismatch fails the build of this file. */
#include <hip/hip_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#define ZC_HIP_HEADER_TYPES
#include "hip_api.h"

#define SAME_PROTOTYPE(name, params)                                                        \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&name), hipError_t(*) params),  \
	               #name " differs from hip_runtime_api.h");
HIP_FUNCTIONS(SAME_PROTOTYPE)
HIP_OPTIONAL_FUNCTIONS(SAME_PROTOTYPE)
HIP_VMM_FUNCTIONS(SAME_PROTOTYPE)

/* The properties' layouts: whichever this header has, hip_api.h must agree with it (HIP 6's
 * header names its struct hipDeviceProp_tR0600 and no longer declares HIP 5's). */
#if HIP_VERSION_MAJOR >= 6
HIP_OPTIONAL_FUNCTIONS_6(SAME_PROTOTYPE)
_Static_assert(hipLimitStackSize == ZC_HIP_LIMIT_STACK_SIZE, "hipLimitStackSize");
_Static_assert(offsetof(hipDeviceProp_tR0600, gcnArchName) == ZC_HIP_PROPS_R0600_GCN_ARCH_NAME,
               "gcnArchName in hipDeviceProp_tR0600");
_Static_assert(sizeof(hipDeviceProp_tR0600) <= ZC_HIP_PROPS_BUFFER_SIZE, "hipDeviceProp_tR0600");
#else
_Static_assert(offsetof(hipDeviceProp_t, gcnArchName) == ZC_HIP_PROPS_GCN_ARCH_NAME,
               "gcnArchName in hipDeviceProp_t");
_Static_assert(sizeof(hipDeviceProp_t) <= ZC_HIP_PROPS_BUFFER_SIZE, "hipDeviceProp_t");
#endif
/* hipMemAllocationProp in this header's layout; hipMemAccessDesc in every one. */
#if HIP_VERSION_MAJOR >= 6
_Static_assert(offsetof(hipMemAllocationProp, type) == offsetof(struct zc_hip_allocation_prop_6, type), "type");
_Static_assert(offsetof(hipMemAllocationProp, location) == offsetof(struct zc_hip_allocation_prop_6, location_type), "location");
_Static_assert(offsetof(hipMemAllocationProp, allocFlags) == offsetof(struct zc_hip_allocation_prop_6, compression_type), "allocFlags");
_Static_assert(sizeof(hipMemAllocationProp) == sizeof(struct zc_hip_allocation_prop_6), "hipMemAllocationProp");
#else
_Static_assert(offsetof(hipMemAllocationProp, location) == offsetof(struct zc_hip_allocation_prop_5, location_type), "location");
_Static_assert(offsetof(hipMemAllocationProp, requestedHandleType) == offsetof(struct zc_hip_allocation_prop_5, requested_handle_type), "requestedHandleType");
_Static_assert(offsetof(hipMemAllocationProp, type) == offsetof(struct zc_hip_allocation_prop_5, type), "type");
_Static_assert(offsetof(hipMemAllocationProp, usage) == offsetof(struct zc_hip_allocation_prop_5, usage), "usage");
_Static_assert(sizeof(hipMemAllocationProp) == sizeof(struct zc_hip_allocation_prop_5), "hipMemAllocationProp");
#endif
_Static_assert(offsetof(hipMemAccessDesc, flags) == offsetof(struct zc_hip_access_desc, flags), "hipMemAccessDesc");
_Static_assert(sizeof(hipMemAccessDesc) == sizeof(struct zc_hip_access_desc), "hipMemAccessDesc");
_Static_assert(sizeof(((hipDeviceProp_t *)0)->gcnArchName) == ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE,
               "gcnArchName's size");

#define SAME_VALUE(name, value) _Static_assert(name == value, #name " is not " #value);
HIP_CONSTANTS(SAME_VALUE)

/* hip_api.h's stand-ins without the header: int for the enums, void * for the handles. */
_Static_assert(sizeof(hipError_t) == sizeof(int), "hipError_t");
_Static_assert(sizeof(hipDeviceAttribute_t) == sizeof(int), "hipDeviceAttribute_t");
_Static_assert(sizeof(hipMemcpyKind) == sizeof(int), "hipMemcpyKind");
_Static_assert(sizeof(hipStream_t) == sizeof(void *), "hipStream_t");
_Static_assert(sizeof(hipEvent_t) == sizeof(void *), "hipEvent_t");
_Static_assert(sizeof(hipModule_t) == sizeof(void *), "hipModule_t");
_Static_assert(sizeof(hipFunction_t) == sizeof(void *), "hipFunction_t");
_Static_assert(sizeof(hipDeviceptr_t) == sizeof(void *), "hipDeviceptr_t");

int
main(void)
{
	/* Not constant expressions: checked when the test runs. */
	return (uintptr_t)hipStreamPerThread == 2 &&
	       (uintptr_t)HIP_LAUNCH_PARAM_BUFFER_POINTER == 1 &&
	       (uintptr_t)HIP_LAUNCH_PARAM_BUFFER_SIZE == 2 &&
	       (uintptr_t)HIP_LAUNCH_PARAM_END == 3 ? 0 : 1;
}
