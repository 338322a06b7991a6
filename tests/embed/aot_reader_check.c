/* zc-aot-locate FILE [OUT]: what the runtime stub does to find its image, linked against
 * zc_aot_reader alone (which proves that library needs nothing else). Prints
 * "offset size modules", or "none"; writes the image's bytes to OUT. */
#include <stdio.h>
#include <stdlib.h>

#include "aot_image.h"

int main(int argc, char **argv)
{
	bool found;
	uint64_t offset, size;
	ZcError err;
	AotImage img;
	uint8_t *bytes;
	FILE *f;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: zc-aot-locate FILE [OUT]\n");
		return 2;
	}
	if (!aot_image_locate(argv[1], &found, &offset, &size, &err)) {
		fprintf(stderr, "zc-aot-locate: %s: %s\n", argv[1], err.msg);
		return 1;
	}
	if (!found) {
		printf("none\n");
		return 0;
	}
	bytes = malloc(size ? size : 1);
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, (long)offset, SEEK_SET) != 0 || fread(bytes, 1, size, f) != size) {
		fprintf(stderr, "zc-aot-locate: %s: cannot read the image\n", argv[1]);
		return 1;
	}
	fclose(f);
	if (!aot_image_parse(&img, bytes, size, &err)) {
		fprintf(stderr, "zc-aot-locate: %s: %s\n", argv[1], err.msg);
		return 1;
	}
	printf("%llu %llu %u\n", (unsigned long long)offset, (unsigned long long)size,
	       img.modules.count);
	if (argc == 3) {
		f = fopen(argv[2], "wb");
		if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0)
			return 1;
	}
	free(bytes);
	return 0;
}
