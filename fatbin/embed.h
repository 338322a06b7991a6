/* Writing a converted binary: the input's bytes with an AOT image added (docs/aot-image.md,
 * "Embedding"). Converting a converted binary replaces its image: the record of the original
 * layout that embedding leaves lets it start again from the original bytes. */
#ifndef ZC_EMBED_H
#define ZC_EMBED_H

#include "aot_image.h"

/* The image starts this aligned in the file, so code objects (64-aligned in the image) stay
 * 64-aligned when the file is mapped. */
#define AOT_ALIGN_IN_FILE 64

#define ELF_AOT_SECTION ".zluda_aot"
#define ELF_ORIGINAL_SECTION ".zluda_orig"
#define ELF_ORIGINAL_MAGIC "ZLUDAORG"
#define ELF_ORIGINAL_RECORD 80 /* magic, original size, original ELF header */

#define PE_AOT_SECTION ".zluda"
#define PE_TRAILER_MAGIC "ZLUDAPE1"
#define PE_TRAILER_SIZE 48

/* A converted module file (a fatbin or PTX file) ends with this trailer: magic, file offset of
 * the image, image size, size of the original file. */
#define MODULE_TRAILER_MAGIC "ZLUDAMF1"
#define MODULE_TRAILER_SIZE 32

typedef struct {
	uint8_t *bytes;
	uint64_t size;
} ByteBuffer;

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static inline void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* Writes `in` with `image` embedded to out_path, through a temporary file in the same
 * directory that is renamed into place (nothing is left behind on failure). out_path must not
 * name the input. The output keeps the input's permission bits. */
bool embed_image(const Binary *in, const uint8_t *image, uint64_t image_size,
                 const char *out_path, ZcError *err);

/* The image a converted binary carries (for inspect and extract), parsed in place: `img` views
 * bin->bytes. *found is false for a binary that carries none. */
bool binary_aot_image(const Binary *bin, bool *found, AotImage *img, ZcError *err);

/* The converted bytes, malloc'd into *out. */
bool elf_embed(const uint8_t *file, uint64_t size, const uint8_t *image, uint64_t image_size,
               ByteBuffer *out, ZcError *err);
bool module_embed(const Binary *in, const uint8_t *image, uint64_t image_size, ByteBuffer *out);
/* The trailer of a converted module file: `trailer` is its last MODULE_TRAILER_SIZE bytes.
 * False when those bytes are not a trailer that describes a file of file_size bytes. */
bool module_trailer(const uint8_t *trailer, uint64_t file_size, uint64_t *image_offset,
                    uint64_t *image_size, uint64_t *original_size);
bool pe_embed(const uint8_t *file, uint64_t size, const uint8_t *image, uint64_t image_size,
              ByteBuffer *out, ZcError *err);

#endif
