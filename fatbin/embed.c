/* Writing the converted binary: never over the input, never a partial output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embed.h"

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static bool write_all(int fd, const uint8_t *bytes, uint64_t size)
{
	while (size > 0) {
		ssize_t n = write(fd, bytes, size > (1u << 30) ? (1u << 30) : (size_t)size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		bytes += n;
		size -= (uint64_t)n;
	}
	return true;
}

/* The temporary file sits beside out_path, so that the final rename stays in one file system. */
static bool write_atomically(const char *out_path, const uint8_t *bytes, uint64_t size,
                             mode_t mode, ZcError *err)
{
	size_t len = strlen(out_path);
	char *tmp = zc_alloc(len + sizeof(".tmp-XXXXXX"));
	int fd;
	bool ok;

	memcpy(tmp, out_path, len);
	memcpy(tmp + len, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
	fd = mkstemp(tmp);
	if (fd >= 0)
		zc_temporary_add(tmp);
	if (fd < 0) {
		zc_fail(err, "%s: cannot create a temporary file beside it: %s", out_path,
		        strerror(errno));
		free(tmp);
		return false;
	}
	ok = write_all(fd, bytes, size) && fchmod(fd, mode) == 0 && fsync(fd) == 0;
	if (!ok)
		zc_fail(err, "%s: cannot write: %s", tmp, strerror(errno));
	if (close(fd) != 0 && ok)
		ok = zc_fail(err, "%s: cannot write: %s", tmp, strerror(errno));
	if (ok && rename(tmp, out_path) != 0)
		ok = zc_fail(err, "%s: cannot rename to %s: %s", tmp, out_path, strerror(errno));
	if (!ok)
		unlink(tmp);
	zc_temporary_forget(tmp);
	free(tmp);
	return ok;
}

bool binary_aot_image(const Binary *bin, bool *found, AotImage *img, ZcError *err)
{
	uint64_t offset, size;

	*found = false;
	if (!aot_image_locate_in_memory(bin->bytes, bin->file_size, found, &offset, &size, err)) {
		ZcError where = *err;
		return zc_fail(err, "AOT image: %s", where.msg);
	}
	return !*found || aot_image_parse(img, bin->bytes + offset, size, err);
}

bool embed_image(const Binary *in, const uint8_t *image, uint64_t image_size,
                 const char *out_path, ZcError *err)
{
	ByteBuffer out = {0};
	struct stat st;
	mode_t mode = 0755;
	bool ok;

	if (strcmp(in->path, out_path) == 0 || same_file(in->path, out_path))
		return zc_fail(err, "%s: the output must not be the input", out_path);
	if (stat(in->path, &st) == 0)
		mode = st.st_mode & 07777;
	switch (in->format) {
	case BIN_ELF: ok = elf_embed(in->bytes, in->size, image, image_size, &out, err); break;
	case BIN_PE: ok = pe_embed(in->bytes, in->size, image, image_size, &out, err); break;
	case BIN_RAW_FATBIN:
	case BIN_PTX: ok = module_embed(in, image, image_size, &out); break;
	default: return zc_fail(err, "unknown binary format");
	}
	ok = ok && write_atomically(out_path, out.bytes, out.size, mode, err);
	free(out.bytes);
	return ok;
}
