/* A small AOT image with every kind of record, shared by the unit test and zc-embed-test. */
#ifndef ZC_SAMPLE_IMAGE_H
#define ZC_SAMPLE_IMAGE_H

#include "aot_image.h"

/* The fatbin and PTX texts whose hashes key the sample's modules. */
#define SAMPLE_FATBIN_0 "fatbin container 0"
#define SAMPLE_PTX_0 ".version 8.0\n.target sm_80\n.entry first() { ret; }\n"
#define SAMPLE_FATBIN_1 "fatbin container 1"
#define SAMPLE_FATBIN_SASS "sass-only container"

/* `reversed` adds everything in the opposite order: the bytes must not change. `salt` changes
 * the code objects' contents (two different images for the re-embedding tests). */
AotBuilder *sample_builder(bool reversed, unsigned salt);
/* The code object the sample stores for (module, target), into buf (at least 4096 bytes). */
size_t sample_code_object(uint32_t module, const char *target, unsigned salt, uint8_t *buf);

#endif
