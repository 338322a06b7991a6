/* Device printf and assert on GPUs: the records AMDGPU code appends to a buffer in mapped
 * host memory (amdgpu_backend/builtins/output.c) and the runtime stub prints at every
 * synchronisation (runtime_stub/api/device_output.c). A module that calls vprintf or
 * __assertfail defines the 64-bit variable ZC_DEVICE_OUTPUT_SYMBOL
 * (ptx_frontend/lower_module.c); the stub sets it to the buffer's address when it loads
 * the code object (0: the code prints nothing). Shared by the device builtins and
 * the stub: plain C types, little-endian, every record a multiple of 8 bytes. */
#ifndef ZC_DEVICE_OUTPUT_H
#define ZC_DEVICE_OUTPUT_H

#include <stdint.h>

#define ZC_DEVICE_OUTPUT_SYMBOL "zluda_convert_device_output"

/* The buffer: this header, then `size` bytes (a multiple of 8) used as a ring, as CUDA's
 * printf FIFO: output past its size overwrites the oldest. A record reserved at offset
 * `at` of the count `used` lies at at % size, wrapping past the end. */
struct zc_device_output {
	uint32_t size;
	uint32_t reserved;
	uint64_t used; /* bytes reserved so far, atomically */
};

enum { ZC_OUTPUT_PRINTF = 1, ZC_OUTPUT_ASSERT = 2 };

/* A record: this header, then three parts, each padded to 8 bytes:
 *   printf: the format (with its NUL), the packed arguments (each %s pointer replaced by
 *           ZC_OUTPUT_STRING | the string's offset from the record's start, 0 for NULL),
 *           the %s strings (with their NULs);
 *   assert: the expression, the file and the function, each with its NUL.
 * `tag` is stored last, with release: it is the record's `at` + 1 once the record is
 * complete, and anything else (an older record's tag, 0) while it is not. */
struct zc_output_record {
	uint64_t tag;
	uint32_t length, kind;
	uint32_t sizes[3]; /* bytes of each part, before padding */
	uint32_t line;     /* assert */
	uint32_t block[3], thread[3];
};

#define ZC_OUTPUT_STRING (1ull << 63)

#endif
