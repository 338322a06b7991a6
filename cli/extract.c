/* `extract`: every entry of every fatbin as a file, and index.json describing them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char *extension(uint16_t kind)
{
	switch (kind) {
	case ENTRY_PTX: return "ptx";
	case ENTRY_CUBIN: return "cubin";
	case ENTRY_LTOIR: return "ltoir";
	default: return "bin";
	}
}

static void make_directories(const char *dir)
{
	char *path = zc_strndup(dir, strlen(dir));

	for (char *p = path + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			fail_input(dir, "cannot create directory: %s", strerror(errno));
		*p = saved;
		if (!saved)
			break;
	}
	free(path);
}

static void write_file(const char *dir, const char *name, const void *data, uint64_t size)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *path = zc_alloc(len);
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		fail_input(path, "cannot write: %s", strerror(errno));
	free(path);
}

/* `<fatbin>.<arch>.<ext>`, with the entry index added when a fatbin holds two alike. */
static char *entry_file_name(const Container *c, size_t ci, size_t ei)
{
	const Entry *e = &c->entries[ei];
	bool unique = true;
	char name[96];

	for (size_t k = 0; k < c->nentries; k++)
		if (k != ei && c->entries[k].kind == e->kind && strcmp(c->entries[k].arch, e->arch) == 0)
			unique = false;
	if (unique)
		snprintf(name, sizeof(name), "%zu.%s.%s", ci, e->arch, extension(e->kind));
	else
		snprintf(name, sizeof(name), "%zu.%s.%zu.%s", ci, e->arch, ei, extension(e->kind));
	return zc_strndup(name, strlen(name));
}

/* A converted binary's code objects, as <module>.<target>.co for llvm-objdump and friends. */
static void extract_code_objects(Input *in, const char *dir)
{
	const AotImage *img = &in->image;

	in->code_object_files = zc_alloc((img->code_objects.count + 1) * sizeof(char *));
	for (uint32_t i = 0; i < img->code_objects.count; i++) {
		AotCodeObject co = aot_code_object(img, i);
		uint8_t *bytes = zc_alloc(co.size);
		char name[160];
		ZcError err;

		if (!aot_code_object_read(&co, bytes, &err))
			fail_input(in->path, "%s", err.msg);
		snprintf(name, sizeof(name), "%u.%s.co", co.module, co.target);
		in->code_object_files[i] = zc_strndup(name, strlen(name));
		write_file(dir, name, bytes, co.size);
		free(bytes);
	}
}

static void extract_all(Input *in, const char *dir)
{
	if (in->has_image)
		extract_code_objects(in, dir);
	for (size_t ci = 0; ci < in->set.ncontainers; ci++) {
		const Container *c = &in->set.containers[ci];

		for (size_t ei = 0; ei < c->nentries; ei++) {
			EntryExtra *x = &in->extra[ci][ei];
			uint8_t *data;
			uint64_t size;
			ZcError err;

			if (x->error)
				continue;
			if (!entry_contents(&in->bin, &c->entries[ei], &data, &size, &err)) {
				input_entry_failed(in, ci, ei, err.msg);
				continue;
			}
			x->file = entry_file_name(c, ci, ei);
			write_file(dir, x->file, data, size);
			inform(2, "wrote %s/%s (%llu bytes)", dir, x->file, (unsigned long long)size);
			free(data);
		}
	}
}

int cmd_extract(int argc, char **argv)
{
	const char *path = NULL, *dir = NULL;
	Input in = {0};
	char *index_path;
	size_t len;
	FILE *f;
	Json j;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
			if (++i == argc)
				fail_usage("extract: %s needs a directory", argv[i - 1]);
			dir = argv[i];
		} else if (strncmp(argv[i], "--output=", 9) == 0) {
			dir = argv[i] + 9;
		} else if (strncmp(argv[i], "-o", 2) == 0) {
			dir = argv[i] + 2;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fail_usage("extract: unknown option '%s'", argv[i]);
		} else if (path) {
			fail_usage("extract: one input file expected, got '%s' and '%s'", path, argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		fail_usage("extract: no input file");
	if (!dir || !*dir)
		fail_usage("extract: no output directory (use -o DIR)");
	input_load(&in, path, true);
	make_directories(dir);
	extract_all(&in, dir);
	len = strlen(dir) + sizeof("/index.json");
	index_path = zc_alloc(len);
	snprintf(index_path, len, "%s/index.json", dir);
	f = fopen(index_path, "w");
	if (!f)
		fail_input(index_path, "cannot write: %s", strerror(errno));
	json_init(&j, f);
	input_write_json(&in, &j);
	if (fclose(f) != 0)
		fail_input(index_path, "cannot write: %s", strerror(errno));
	if (in.nfailed_entries)
		inform(1, "%s: extracted %zu fatbin%s to %s, without the %zu entr%s that cannot be "
		       "decoded (index.json says why)", path, in.set.ncontainers,
		       in.set.ncontainers == 1 ? "" : "s", dir, in.nfailed_entries,
		       in.nfailed_entries == 1 ? "y" : "ies");
	else
		inform(1, "%s: extracted %zu fatbin%s to %s", path, in.set.ncontainers,
		       in.set.ncontainers == 1 ? "" : "s", dir);
	free(index_path);
	input_free(&in);
	return 0;
}
