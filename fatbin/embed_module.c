/* Converting a module file: a fatbin or PTX file that a program loads with cuModuleLoad or
 * cuLibraryLoadFromFile. The output is the original bytes (a PTX text gets a terminating NUL,
 * so that its text ends where it did), the AOT image 64-aligned after them, and a trailer. The
 * runtime stub finds the image of the file it is asked to load from the trailer; the CUDA
 * driver reads a fatbin up to its size and a PTX text up to its NUL, so the file still loads
 * on NVIDIA GPUs. */
#include <stdlib.h>
#include <string.h>

#include "embed.h"

bool module_embed(const Binary *in, const uint8_t *image, uint64_t image_size, ByteBuffer *out)
{
	bool terminate = in->format == BIN_PTX && !memchr(in->bytes, 0, in->size);
	uint64_t start = align_up(in->size + terminate, AOT_ALIGN_IN_FILE);
	uint64_t total = align_up(start + image_size, 8) + MODULE_TRAILER_SIZE;
	uint8_t *b = zc_alloc(total);

	memset(b, 0, total);
	memcpy(b, in->bytes, in->size);
	memcpy(b + start, image, image_size);
	uint8_t *t = b + total - MODULE_TRAILER_SIZE;
	memcpy(t, MODULE_TRAILER_MAGIC, 8);
	put64(t + 8, start);
	put64(t + 16, image_size);
	put64(t + 24, in->size);
	out->bytes = b;
	out->size = total;
	return true;
}
