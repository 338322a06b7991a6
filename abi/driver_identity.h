/* Which driver runs behind libcuda.so.1, for the project's library replacements: they ask
 * cuGetExportTable for this table, which only zluda-convert's driver has while it runs one
 * of its own drivers (CPU, HIP). When the process was handed to NVIDIA's driver, NVIDIA's
 * answers the request with an error, and a replacement hands its calls to NVIDIA's library. */
#ifndef ZC_DRIVER_IDENTITY_H
#define ZC_DRIVER_IDENTITY_H

#define ZC_DRIVER_IDENTITY_ID \
	{ 0xac, 0xa9, 0x5c, 0x09, 0xd8, 0x92, 0x4b, 0x12, 0x87, 0x22, 0x54, 0x1b, 0xb4, 0xea, 0x63, 0x91 }

/* The table's slots: [0] its size in bytes, [1] const char *(*)(void) giving the running
 * driver's name ("host", "hip"), [2] CUresult (*)(CUstream, void **native) giving the
 * driver's own stream behind a stream (a hipStream_t under the HIP driver) with the stream's
 * implicit synchronisation done, for a library that queues work on it itself;
 * CUDA_ERROR_NOT_SUPPORTED where the driver has none. */
enum { ZC_DRIVER_IDENTITY_SLOTS = 3 };

#endif
