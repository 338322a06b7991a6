/* The part of the HIP runtime API the HIP driver (drv_hip.c) calls, declared here so that
 * the stub builds without ROCm. Only plain integers, pointers and opaque handles cross, so
 * HIP 5, 6 and 7 share one ABI for them: the stand-in types below have the size and the
 * calling convention of HIP's own. tests/unit/runtime_stub/test_hip_signatures.c checks
 * every signature and value against ROCm's hip_runtime_api.h: it includes that header
 * first and defines ZC_HIP_HEADER_TYPES, so that the lists name HIP's real types. */
#ifndef ZC_HIP_API_H
#define ZC_HIP_API_H

#include <stddef.h>

#ifndef ZC_HIP_HEADER_TYPES
typedef int hipError_t;
typedef void *hipStream_t;
typedef void *hipEvent_t;
typedef int hipDeviceAttribute_t;
typedef int hipMemcpyKind;
typedef int zc_hip_limit;
typedef void *hipDeviceptr_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
/* Only ever behind a pointer, into a buffer of ZC_HIP_PROPS_BUFFER_SIZE bytes. */
typedef struct hipDeviceProp_t hipDeviceProp_t;
typedef struct hipDeviceProp_tR0600 hipDeviceProp_tR0600;
typedef struct ihipMemGenericAllocationHandle *hipMemGenericAllocationHandle_t;
/* Only ever behind a pointer: HIP 6 reordered hipMemAllocationProp (zc_hip_allocation_prop_5
 * and _6 below); hipMemAccessDesc is the same in both. */
typedef struct hipMemAllocationProp hipMemAllocationProp;
typedef struct hipMemAccessDesc hipMemAccessDesc;
typedef int hipMemAllocationGranularity_flags;
typedef int hipMemAllocationHandleType;  /* 1: a POSIX file descriptor */
#define hipStreamPerThread ((hipStream_t)2)
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)2)
#define HIP_LAUNCH_PARAM_END ((void *)3)
#else
typedef enum hipLimit_t zc_hip_limit;
#endif

/* Where the device properties keep gcnArchName, the only field the driver reads from them:
 * HIP 5's layout, which hipGetDeviceProperties fills, and HIP 6's, which
 * hipGetDevicePropertiesR0600 fills (HIP 6 renamed the header's hipGetDeviceProperties to
 * it). Either struct fits in the buffer; later HIP 5 releases appended fields, so the
 * buffer is larger than both. */
#define ZC_HIP_PROPS_GCN_ARCH_NAME 396
#define ZC_HIP_PROPS_R0600_GCN_ARCH_NAME 1160
#define ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE 256
#define ZC_HIP_PROPS_BUFFER_SIZE 4096

/* hipMemAllocationProp as HIP 5 lays it out, and as HIP 6 does (CUDA's order); a device's
 * pinned memory: location type 1 (device), allocation type 1 (pinned). */
struct zc_hip_allocation_prop_5 {
	unsigned char compression_type;
	int location_type, location_id;
	int requested_handle_type;
	int type;
	unsigned short usage;
	void *win32_metadata;
};
struct zc_hip_allocation_prop_6 {
	int type;
	int requested_handle_types;
	int location_type, location_id;
	void *win32_metadata;
	unsigned char compression_type, gpu_direct_rdma_capable;
	unsigned short usage;
	unsigned char reserved[4];
};
struct zc_hip_access_desc {
	int location_type, location_id;
	int flags;  /* hipMemAccessFlags: 0 none, 1 read, 3 read and write */
};

/* Enumerators, with the values every HIP release since 5 gives them (PciDomainID: HIP 6
 * added the spelling PciDomainId and kept this one). */
#define HIP_CONSTANTS(X)                                                                   \
	X(hipMemcpyDefault, 4)                                                                 \
	X(hipHostMallocPortable, 1)                                                            \
	X(hipHostMallocMapped, 2)                                                              \
	X(hipHostRegisterPortable, 1)                                                          \
	X(hipHostRegisterMapped, 2)                                                            \
	X(hipMemAttachGlobal, 1)                                                               \
	X(hipDeviceAttributeClockRate, 5)                                                      \
	X(hipDeviceAttributeIntegrated, 16)                                                    \
	X(hipDeviceAttributeL2CacheSize, 19)                                                   \
	X(hipDeviceAttributeComputeCapabilityMajor, 23)                                        \
	X(hipDeviceAttributeMaxBlocksPerMultiProcessor, 25)                                    \
	X(hipDeviceAttributeMaxBlockDimX, 26)                                                  \
	X(hipDeviceAttributeMaxBlockDimY, 27)                                                  \
	X(hipDeviceAttributeMaxBlockDimZ, 28)                                                  \
	X(hipDeviceAttributeMaxGridDimX, 29)                                                   \
	X(hipDeviceAttributeMaxGridDimY, 30)                                                   \
	X(hipDeviceAttributeMaxGridDimZ, 31)                                                   \
	X(hipDeviceAttributeMaxThreadsPerBlock, 56)                                            \
	X(hipDeviceAttributeMaxThreadsPerMultiProcessor, 57)                                   \
	X(hipDeviceAttributeMemoryBusWidth, 59)                                                \
	X(hipDeviceAttributeMemoryClockRate, 60)                                               \
	X(hipDeviceAttributeComputeCapabilityMinor, 61)                                        \
	X(hipDeviceAttributeMultiprocessorCount, 63)                                           \
	X(hipDeviceAttributePciBusId, 67)                                                      \
	X(hipDeviceAttributePciDeviceId, 68)                                                   \
	X(hipDeviceAttributePciDomainID, 69)                                                   \
	X(hipDeviceAttributeMaxRegistersPerBlock, 71)                                          \
	X(hipDeviceAttributeMaxRegistersPerMultiprocessor, 72)                                 \
	X(hipDeviceAttributeMaxSharedMemoryPerBlock, 74)                                       \
	X(hipDeviceAttributeSharedMemPerBlockOptin, 75)                                        \
	X(hipDeviceAttributeSharedMemPerMultiprocessor, 76)                                    \
	X(hipDeviceAttributeTotalConstantMemory, 83)

#ifndef ZC_HIP_HEADER_TYPES
#define ZC_HIP_ENUMERATOR(name, value) name = value,
enum { HIP_CONSTANTS(ZC_HIP_ENUMERATOR) };
#undef ZC_HIP_ENUMERATOR
#endif

/* Every function the driver resolves with dlsym; each returns hipError_t. */
#define HIP_FUNCTIONS(X)                                                                   \
	X(hipInit, (unsigned flags))                                                           \
	X(hipGetDeviceCount, (int *count))                                                     \
	X(hipSetDevice, (int device))                                                          \
	X(hipDeviceGetName, (char *name, int len, int device))                                 \
	X(hipDeviceTotalMem, (size_t *bytes, int device))                                      \
	X(hipDeviceGetAttribute, (int *value, hipDeviceAttribute_t attribute, int device))     \
	X(hipMemGetInfo, (size_t *free_bytes, size_t *total_bytes))                            \
	X(hipMalloc, (void **ptr, size_t bytes))                                               \
	X(hipFree, (void *ptr))                                                                \
	X(hipHostMalloc, (void **ptr, size_t bytes, unsigned flags))                           \
	X(hipHostRegister, (void *ptr, size_t bytes, unsigned flags))                          \
	X(hipHostUnregister, (void *ptr))                                                      \
	X(hipHostFree, (void *ptr))                                                            \
	X(hipMallocManaged, (void **ptr, size_t bytes, unsigned flags))                        \
	X(hipDeviceCanAccessPeer, (int *can, int device, int peer))                            \
	X(hipDeviceEnablePeerAccess, (int peer, unsigned flags))                               \
	X(hipDeviceDisablePeerAccess, (int peer))                                              \
	X(hipStreamCreateWithPriority, (hipStream_t * stream, unsigned flags, int priority))   \
	X(hipStreamDestroy, (hipStream_t stream))                                              \
	X(hipStreamQuery, (hipStream_t stream))                                                \
	X(hipStreamSynchronize, (hipStream_t stream))                                          \
	X(hipStreamWaitEvent, (hipStream_t stream, hipEvent_t event, unsigned flags))          \
	X(hipStreamAddCallback, (hipStream_t stream,                                           \
	                         void (*fn)(hipStream_t, hipError_t, void *), void *arg,       \
	                         unsigned flags))                                              \
	X(hipMemcpy2DAsync, (void *dst, size_t dst_pitch, const void *src, size_t src_pitch,   \
	                     size_t width, size_t height, hipMemcpyKind kind,                 \
	                     hipStream_t stream))                                              \
	X(hipMemsetD8Async, (void *dst, unsigned char value, size_t count, hipStream_t stream)) \
	X(hipMemsetD16Async, (void *dst, unsigned short value, size_t count,                   \
	                      hipStream_t stream))                                             \
	X(hipMemsetD32Async, (void *dst, int value, size_t count, hipStream_t stream))         \
	X(hipEventCreateWithFlags, (hipEvent_t * event, unsigned flags))                       \
	X(hipEventDestroy, (hipEvent_t event))                                                 \
	X(hipEventRecord, (hipEvent_t event, hipStream_t stream))                              \
	X(hipEventQuery, (hipEvent_t event))                                                   \
	X(hipEventSynchronize, (hipEvent_t event))                                             \
	X(hipEventElapsedTime, (float *ms, hipEvent_t start, hipEvent_t end))                  \
	X(hipModuleLoadData, (hipModule_t * module, const void *image))                        \
	X(hipModuleUnload, (hipModule_t module))                                               \
	X(hipModuleGetFunction, (hipFunction_t * function, hipModule_t module,                 \
	                         const char *name))                                            \
	X(hipModuleGetGlobal, (hipDeviceptr_t * address, size_t *bytes, hipModule_t module,    \
	                       const char *name))                                              \
	X(hipModuleLaunchKernel, (hipFunction_t function, unsigned grid_x, unsigned grid_y,    \
	                          unsigned grid_z, unsigned block_x, unsigned block_y,         \
	                          unsigned block_z, unsigned shared_bytes, hipStream_t stream, \
	                          void **params, void **extra))

/* Functions the driver resolves when the runtime has them, and does without otherwise:
 * hipGetDeviceProperties is the HIP 5 header's (a HIP 6 header names R0600 so); the
 * second list is only in HIP 6's headers on (the signature test checks it against one
 * only), as is hipLimitStackSize, CUDA's value for the same limit. */
#define HIP_OPTIONAL_FUNCTIONS(X)                                                          \
	X(hipGetDeviceProperties, (hipDeviceProp_t * properties, int device))
/* The virtual memory API (HIP 5.1 on), resolved when present. */
#define HIP_VMM_FUNCTIONS(X)                                                               \
	X(hipMemAddressReserve, (void **ptr, size_t size, size_t alignment, void *addr,        \
	                         unsigned long long flags))                                    \
	X(hipMemAddressFree, (void *ptr, size_t size))                                         \
	X(hipMemCreate, (hipMemGenericAllocationHandle_t * handle, size_t size,                \
	                 const hipMemAllocationProp *prop, unsigned long long flags))          \
	X(hipMemRelease, (hipMemGenericAllocationHandle_t handle))                             \
	X(hipMemMap, (void *ptr, size_t size, size_t offset,                                   \
	              hipMemGenericAllocationHandle_t handle, unsigned long long flags))       \
	X(hipMemUnmap, (void *ptr, size_t size))                                               \
	X(hipMemSetAccess, (void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)) \
	X(hipMemGetAllocationGranularity, (size_t * granularity, const hipMemAllocationProp *prop, \
	                                   hipMemAllocationGranularity_flags option))             \
	X(hipMemExportToShareableHandle, (void *shareable, hipMemGenericAllocationHandle_t handle, \
	                                  hipMemAllocationHandleType type, unsigned long long flags)) \
	X(hipMemImportFromShareableHandle, (hipMemGenericAllocationHandle_t * handle, void *os_handle, \
	                                    hipMemAllocationHandleType type))
#define HIP_OPTIONAL_FUNCTIONS_6(X)                                                        \
	X(hipGetDevicePropertiesR0600, (hipDeviceProp_tR0600 * properties, int device))        \
	X(hipDeviceSetLimit, (zc_hip_limit limit, size_t value))                               \
	X(hipModuleLaunchCooperativeKernel, (hipFunction_t function, unsigned grid_x,           \
	                                     unsigned grid_y, unsigned grid_z, unsigned block_x,  \
	                                     unsigned block_y, unsigned block_z,                  \
	                                     unsigned shared_bytes, hipStream_t stream,           \
	                                     void **params))
#define ZC_HIP_LIMIT_STACK_SIZE 0

#endif
