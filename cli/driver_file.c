/* The driver file beside a converted program (libcuda.so.1, nvcuda.dll): whether it is
 * zluda-convert's and whole. For convert, which replaces only its own, and doctor, which
 * says what the program will load. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "find_driver.h"

/* An ELF file whose program and section headers, and the segments they describe, lie
 * inside its size: what a cut-off copy is not. */
static bool elf_whole(const uint8_t *b, size_t size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;

	if (size < sizeof *eh || memcmp(b, ELFMAG, SELFMAG) != 0 || b[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > size ||
	    (size - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum ||
	    eh->e_shoff > size || (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
		return false;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, b + eh->e_phoff + i * sizeof ph, sizeof ph);
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			return false;
	}
	return true;
}

enum driver_file driver_file_state(const char *path)
{
	struct stat st;
	enum driver_file state = DRIVER_FILE_OTHER;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? DRIVER_FILE_MISSING : DRIVER_FILE_OTHER;
	/* a link counts by the file it leads to (zluda-convert-runtime's copy, shared by a
	 * converted package); one that leads nowhere is not ours */
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
		return DRIVER_FILE_OTHER;
	if (!S_ISREG(st.st_mode))
		return DRIVER_FILE_OTHER;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *map = fd >= 0 && st.st_size > 0
	            ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;

	if (map != MAP_FAILED) {
		const uint8_t *b = map;
		size_t size = (size_t)st.st_size;

		if (memmem(b, size, ZC_STUB_MARKER, sizeof ZC_STUB_MARKER) != NULL)
			state = size >= SELFMAG && memcmp(b, ELFMAG, SELFMAG) == 0 && !elf_whole(b, size)
			        ? DRIVER_FILE_DAMAGED : DRIVER_FILE_OURS;
		munmap(map, size);
	}
	if (fd >= 0)
		close(fd);
	return state;
}
