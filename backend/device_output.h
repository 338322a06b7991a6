/* Device printf and assert on GPUs: the records AMDGPU code appends to a buffer in mapped
 * host memory (amdgpu_backend/builtins/output.c) and the runtime stub prints at every
 * synchronisation (runtime_stub/device_output.c). A module that calls vprintf or
 * __assertfail defines the 64-bit variable ZC_DEVICE_OUTPUT_SYMBOL
 * (ptx_frontend/lower_module.c); the stub sets it to the buffer's address when it loads
 * the code object (0: the code prints nothing). Shared by the device builtins and
 * the stub: plain C types, little-endian, every record a multiple of 8 bytes. */
#ifndef ZC_DEVICE_OUTPUT_H
#define ZC_DEVICE_OUTPUT_H

#include <stdint.h>

#define ZC_DEVICE_OUTPUT_SYMBOL "zluda_convert_device_output"

/* The buffer: this header, then `size` bytes of records from offset 0. */
struct zc_device_output {
	uint32_t size;
	uint32_t used; /* bytes reserved so far, atomically; a record that would pass size is lost */
	uint32_t lost; /* records lost so, atomically */
	uint32_t reserved;
};

enum { ZC_OUTPUT_PRINTF = 1, ZC_OUTPUT_ASSERT = 2 };

/* A record: this header, then three parts, each padded to 8 bytes:
 *   printf: the format (with its NUL), the packed arguments (each %s pointer replaced by
 *           ZC_OUTPUT_STRING | the string's offset from the record's start, 0 for NULL),
 *           the %s strings (with their NULs);
 *   assert: the expression, the file and the function, each with its NUL.
 * `length` is stored last, with release: 0 means the record is still being written. */
struct zc_output_record {
	uint32_t length, kind;
	uint32_t sizes[3]; /* bytes of each part, before padding */
	uint32_t line;     /* assert */
	uint32_t block[3], thread[3];
};

#define ZC_OUTPUT_STRING (1ull << 63)

#endif
