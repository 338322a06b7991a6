/* Loading an input: the binary, its fatbins, and the kernels each PTX entry declares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "embed.h"

static void find_kernels(Input *in, size_t ci, size_t ei)
{
	const Entry *e = &in->set.containers[ci].entries[ei];
	EntryExtra *x = &in->extra[ci][ei];
	uint8_t *text;
	uint64_t size;
	ZcError err;

	if (e->kind != ENTRY_PTX)
		return;
	if (!entry_contents(&in->bin, e, &text, &size, &err)) {
		input_entry_failed(in, ci, ei, err.msg);
		return;
	}
	x->nkernels = ptx_entry_names((const char *)text, size, &x->kernels);
	free(text);
}

/* An entry that cannot be decoded is named and passed over: the others are still worth
 * having (NVIDIA's libraries carry entries no public decoder reads). */
void input_entry_failed(Input *in, size_t ci, size_t ei, const char *why)
{
	EntryExtra *x = &in->extra[ci][ei];

	if (x->error)
		return;
	x->error = zc_strndup(why, strlen(why));
	in->nfailed_entries++;
	inform(1, "%s: warning: fatbin %zu entry %zu cannot be decoded, passed over: %s", in->path,
	       ci, ei, why);
}

void input_load(Input *in, const char *path, bool list_kernels)
{
	ZcError err;

	in->path = path;
	if (!binary_open(&in->bin, path, &err))
		fail_input(path, "%s", err.msg);
	if (!fatbin_discover(&in->bin, &in->set, &err))
		fail_input(path, "%s", err.msg);
	in->extra = zc_alloc(in->set.ncontainers * sizeof(EntryExtra *));
	for (size_t ci = 0; ci < in->set.ncontainers; ci++) {
		in->extra[ci] = zc_alloc(in->set.containers[ci].nentries * sizeof(EntryExtra));
		for (size_t ei = 0; list_kernels && ei < in->set.containers[ci].nentries; ei++)
			find_kernels(in, ci, ei);
	}
	if (list_kernels && in->bin.format == BIN_PTX)
		in->ptx_file.nkernels = ptx_entry_names(
			(const char *)in->bin.bytes, strnlen((const char *)in->bin.bytes, in->bin.size),
			&in->ptx_file.kernels);
	for (size_t i = 0; i < in->set.nnotes; i++)
		inform(2, "%s: note: %s", path, in->set.notes[i]);
	if (!binary_aot_image(&in->bin, &in->has_image, &in->image, &err))
		fail_input(path, "%s", err.msg);
}

void input_free(Input *in)
{
	for (uint32_t i = 0; in->code_object_files && i < in->image.code_objects.count; i++)
		free(in->code_object_files[i]);
	free(in->code_object_files);
	for (size_t ci = 0; ci < in->set.ncontainers; ci++) {
		for (size_t ei = 0; ei < in->set.containers[ci].nentries; ei++) {
			EntryExtra *x = &in->extra[ci][ei];

			for (size_t k = 0; k < x->nkernels; k++)
				free(x->kernels[k]);
			free(x->kernels);
			free(x->file);
			free(x->error);
		}
		free(in->extra[ci]);
	}
	free(in->extra);
	for (size_t k = 0; k < in->ptx_file.nkernels; k++)
		free(in->ptx_file.kernels[k]);
	free(in->ptx_file.kernels);
	fatbin_set_free(&in->set);
	binary_close(&in->bin);
}

static const char *format_name(BinaryFormat f)
{
	switch (f) {
	case BIN_ELF: return "elf";
	case BIN_PE: return "pe";
	case BIN_RAW_FATBIN: return "fatbin";
	case BIN_PTX: return "ptx";
	}
	return "?";
}

static void write_version(Json *j, const Entry *e)
{
	char v[16];

	snprintf(v, sizeof(v), "%u.%u", e->version_major, e->version_minor);
	json_string(j, v);
}

static void write_entry(const Input *in, Json *j, const Entry *e, const EntryExtra *x, size_t ei)
{
	json_object_begin(j);
	json_field_uint(j, "index", ei);
	json_field_string(j, "kind", entry_kind_name(e->kind));
	json_field_uint(j, "kind_code", e->kind);
	json_field_string(j, "arch", e->arch);
	json_key(j, "ptx_version");
	if (e->kind == ENTRY_PTX)
		write_version(j, e);
	else
		json_null(j);
	json_key(j, "code_version");
	write_version(j, e);
	json_field_uint(j, "offset", e->offset);
	json_field_uint(j, "flags", e->flags);
	json_field_bool(j, "debug", e->flags & ENTRY_FLAG_DEBUG);
	json_field_string(j, "compression", compression_name(e->compression));
	json_field_uint(j, "compressed_size", e->compression ? e->compressed_size : 0);
	json_field_uint(j, "size", e->data_size);
	json_field_string(j, "identifier", e->identifier);
	json_field_string(j, "options", e->options);
	if (e->kind == ENTRY_PTX) {
		json_key(j, "kernels");
		json_array_begin(j);
		for (size_t k = 0; k < x->nkernels; k++)
			json_string(j, x->kernels[k]);
		json_array_end(j);
	}
	if (x->file)
		json_field_string(j, "file", x->file);
	if (x->error)
		json_field_string(j, "error", x->error);
	json_object_end(j);
}

static void write_wrapper(Json *j, const Wrapper *w, size_t wi)
{
	json_object_begin(j);
	json_field_uint(j, "index", wi);
	json_field_uint(j, "address", w->addr);
	json_field_uint(j, "offset", w->offset);
	json_field_uint(j, "version", w->version);
	json_field_uint(j, "data", w->data);
	json_field_string(j, "fixup", fixup_kind_name(w->data_fixup));
	json_key(j, "container");
	if (w->container >= 0)
		json_uint(j, (uint64_t)w->container);
	else
		json_null(j);
	json_field_string(j, "symbol", w->symbol);
	json_field_bool(j, "rdc_member", w->rdc_member);
	json_object_end(j);
}

static void write_container(const Input *in, Json *j, size_t ci)
{
	const Container *c = &in->set.containers[ci];

	json_object_begin(j);
	json_field_uint(j, "index", ci);
	json_field_string(j, "section", c->section ? c->section->name : NULL);
	json_field_string(j, "origin", container_origin_name(c->origin));
	json_field_uint(j, "offset", c->offset);
	json_field_uint(j, "address", c->addr);
	json_field_uint(j, "size", c->size);
	json_field_bool(j, "registered", c->wrapper >= 0);
	json_key(j, "wrapper");
	if (c->wrapper >= 0)
		write_wrapper(j, &in->set.wrappers[c->wrapper], (size_t)c->wrapper);
	else
		json_null(j);
	json_key(j, "entries");
	json_array_begin(j);
	for (size_t ei = 0; ei < c->nentries; ei++)
		write_entry(in, j, &c->entries[ei], &in->extra[ci][ei], ei);
	json_array_end(j);
	json_object_end(j);
}

static void write_image(const AotImage *img, Json *j, char *const *files)
{
	json_object_begin(j);
	json_field_uint(j, "size", img->size);
	json_field_bool(j, "for_host", (img->flags & AOT_IMAGE_FOR_HOST) != 0);
	json_key(j, "modules");
	json_array_begin(j);
	for (uint32_t mi = 0; mi < img->modules.count; mi++) {
		AotModule m = aot_module(img, mi);

		json_object_begin(j);
		json_field_uint(j, "index", mi);
		json_field_string(j, "name", m.name);
		json_key(j, "code_objects");
		json_array_begin(j);
		for (uint32_t c = 0; c < m.ncode_objects; c++) {
			AotCodeObject co = aot_code_object(img, m.first_code_object + c);

			json_object_begin(j);
			json_field_string(j, "target", co.target);
			json_field_uint(j, "size", co.size);
			json_field_uint(j, "stored_size", co.stored_size);
			json_field_string(j, "compression", co.compression == AOT_ZSTD ? "zstd" : "none");
			if (files)
				json_field_string(j, "file", files[m.first_code_object + c]);
			json_object_end(j);
		}
		json_array_end(j);
		json_key(j, "kernels");
		json_array_begin(j);
		for (uint32_t k = 0; k < m.nkernels; k++) {
			AotKernel kernel = aot_kernel(img, m.first_kernel + k);

			json_object_begin(j);
			json_field_string(j, "name", kernel.name);
			json_field_uint(j, "param_size", kernel.param_size);
			json_field_uint(j, "static_shared", kernel.static_shared);
			json_object_end(j);
		}
		json_array_end(j);
		json_key(j, "untranslated");
		json_array_begin(j);
		for (uint32_t u = 0; u < m.nuntranslated; u++) {
			AotUntranslated un = aot_untranslated(img, m.first_untranslated + u);

			json_object_begin(j);
			json_field_string(j, "target", *un.target ? un.target : NULL);
			json_field_string(j, "kernel", *un.what ? un.what : NULL);
			json_field_string(j, "reason", un.reason);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

void input_write_json(const Input *in, Json *j)
{
	size_t by_kind[4] = {0}, kernels = 0, entries = 0, registered = 0;

	json_object_begin(j);
	json_field_string(j, "file", in->path);
	json_field_string(j, "format", format_name(in->bin.format));
	json_field_string(j, "machine", in->bin.machine);
	json_key(j, "containers");
	json_array_begin(j);
	for (size_t ci = 0; ci < in->set.ncontainers; ci++) {
		const Container *c = &in->set.containers[ci];

		write_container(in, j, ci);
		registered += c->wrapper >= 0;
		for (size_t ei = 0; ei < c->nentries; ei++) {
			uint16_t k = c->entries[ei].kind;

			by_kind[k == ENTRY_PTX ? 0 : k == ENTRY_CUBIN ? 1 : k == ENTRY_LTOIR ? 2 : 3]++;
			kernels += in->extra[ci][ei].nkernels;
			entries++;
		}
	}
	json_array_end(j);
	json_key(j, "wrappers");
	json_array_begin(j);
	for (size_t wi = 0; wi < in->set.nwrappers; wi++)
		write_wrapper(j, &in->set.wrappers[wi], wi);
	json_array_end(j);
	json_key(j, "module_ids");
	json_array_begin(j);
	for (size_t i = 0; i < in->set.nmodule_ids; i++)
		json_string(j, in->set.module_ids[i]);
	json_array_end(j);
	json_key(j, "notes");
	json_array_begin(j);
	for (size_t i = 0; i < in->set.nnotes; i++)
		json_string(j, in->set.notes[i]);
	json_array_end(j);
	json_key(j, "ptx_file_kernels");
	if (in->bin.format == BIN_PTX) {
		json_array_begin(j);
		for (size_t k = 0; k < in->ptx_file.nkernels; k++)
			json_string(j, in->ptx_file.kernels[k]);
		json_array_end(j);
		kernels += in->ptx_file.nkernels;
	} else {
		json_null(j);
	}
	json_key(j, "aot_image");
	if (in->has_image)
		write_image(&in->image, j, in->code_object_files);
	else
		json_null(j);
	json_key(j, "totals");
	json_object_begin(j);
	json_field_uint(j, "containers", in->set.ncontainers);
	json_field_uint(j, "registered", registered);
	json_field_uint(j, "wrappers", in->set.nwrappers);
	json_field_uint(j, "entries", entries);
	json_field_uint(j, "ptx", by_kind[0]);
	json_field_uint(j, "cubin", by_kind[1]);
	json_field_uint(j, "lto_ir", by_kind[2]);
	json_field_uint(j, "unknown", by_kind[3]);
	json_field_uint(j, "kernels", kernels);
	json_object_end(j);
	json_object_end(j);
	json_finish(j);
}
