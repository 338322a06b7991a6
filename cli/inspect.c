/* `inspect`: what GPU code a binary carries. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_entry(const Entry *e, const EntryExtra *x, size_t ei)
{
	printf("  entry %zu: %s %s", ei, entry_kind_name(e->kind), e->arch);
	if (e->kind == ENTRY_PTX)
		printf(", PTX %u.%u", e->version_major, e->version_minor);
	else if (e->kind != ENTRY_CUBIN && e->kind != ENTRY_LTOIR)
		printf(" (kind 0x%x, skipped)", e->kind);
	if (e->compression)
		printf(", %s %u -> %llu bytes", compression_name(e->compression), e->compressed_size,
		       (unsigned long long)e->data_size);
	else
		printf(", %llu bytes", (unsigned long long)e->data_size);
	if (e->flags & ENTRY_FLAG_DEBUG)
		printf(", debug");
	if (e->identifier)
		printf(", from %s", e->identifier);
	if (e->options && e->options[strspn(e->options, " ")])
		printf(", options \"%s\"", e->options);
	if (x->error)
		printf(", cannot be decoded: %s", x->error);
	putchar('\n');
	if (e->kind == ENTRY_PTX && !x->error) {
		printf("    kernels (%zu):", x->nkernels);
		for (size_t k = 0; k < x->nkernels; k++)
			printf(" %s", x->kernels[k]);
		putchar('\n');
	}
}

static void print_registration(const Input *in, const Container *c)
{
	const Wrapper *w;

	if (c->wrapper < 0) {
		printf("not registered by a wrapper\n");
		return;
	}
	w = &in->set.wrappers[c->wrapper];
	printf("registered by wrapper %d (v%u%s, pointer fixup %s%s%s)\n", c->wrapper, w->version,
	       w->version == 2 ? " device link" : w->rdc_member ? " rdc member" : "",
	       fixup_kind_name(w->data_fixup), w->symbol ? ", " : "", w->symbol ? w->symbol : "");
}

/* A converted binary: what its AOT image holds, per module and target. */
static void print_image(const AotImage *img)
{
	printf("AOT image: %llu bytes, %u module%s\n", (unsigned long long)img->size,
	       img->modules.count, img->modules.count == 1 ? "" : "s");
	for (uint32_t mi = 0; mi < img->modules.count; mi++) {
		AotModule m = aot_module(img, mi);

		printf("  module %u (%s): %u kernel%s", mi, m.name, m.nkernels, m.nkernels == 1 ? "" : "s");
		for (uint32_t c = 0; c < m.ncode_objects; c++) {
			AotCodeObject co = aot_code_object(img, m.first_code_object + c);
			printf("%s %s %llu bytes", c ? "," : ";", co.target, (unsigned long long)co.size);
		}
		putchar('\n');
		if (m.nkernels) {
			printf("    kernels:");
			for (uint32_t k = 0; k < m.nkernels; k++)
				printf(" %s", aot_kernel(img, m.first_kernel + k).name);
			putchar('\n');
		}
		for (uint32_t u = 0; u < m.nuntranslated; u++) {
			AotUntranslated un = aot_untranslated(img, m.first_untranslated + u);

			if (*un.what)
				printf("    kernel %s left out for %s: %s\n", un.what, un.target, un.reason);
			else
				printf("    not translated%s%s: %s\n", *un.target ? " for " : "", un.target,
				       un.reason);
		}
	}
}

static void print_human(const Input *in)
{
	size_t entries = 0, ptx = 0, kernels = 0, registered = 0;

	if (in->bin.format == BIN_PTX) {
		printf("%s: PTX file, %llu bytes\n  kernels (%zu):", in->path,
		       (unsigned long long)in->bin.size, in->ptx_file.nkernels);
		for (size_t k = 0; k < in->ptx_file.nkernels; k++)
			printf(" %s", in->ptx_file.kernels[k]);
		putchar('\n');
		ptx = 1;
		kernels = in->ptx_file.nkernels;
	} else if (in->bin.format == BIN_RAW_FATBIN)
		printf("%s: bare fatbin file", in->path);
	else
		printf("%s: %s %s", in->path, in->bin.format == BIN_ELF ? "ELF" : "PE", in->bin.machine);
	if (in->bin.format != BIN_PTX)
		printf(", %zu fatbin%s, %zu wrapper%s\n", in->set.ncontainers,
		       in->set.ncontainers == 1 ? "" : "s", in->set.nwrappers,
		       in->set.nwrappers == 1 ? "" : "s");
	for (size_t ci = 0; ci < in->set.ncontainers; ci++) {
		const Container *c = &in->set.containers[ci];

		printf("fatbin %zu: ", ci);
		if (c->section)
			printf("%s+0x%llx, ", c->section->name,
			       (unsigned long long)(c->offset - c->section->offset));
		printf("offset 0x%llx, %llu bytes, %zu entr%s%s; ", (unsigned long long)c->offset,
		       (unsigned long long)c->size, c->nentries, c->nentries == 1 ? "y" : "ies",
		       c->origin == ORIGIN_SCAN ? ", found by scan" : "");
		print_registration(in, c);
		registered += c->wrapper >= 0;
		for (size_t ei = 0; ei < c->nentries; ei++) {
			print_entry(&c->entries[ei], &in->extra[ci][ei], ei);
			ptx += c->entries[ei].kind == ENTRY_PTX;
			kernels += in->extra[ci][ei].nkernels;
		}
		entries += c->nentries;
	}
	if (in->set.nmodule_ids) {
		printf("rdc link members (__nv_module_id):");
		for (size_t i = 0; i < in->set.nmodule_ids; i++)
			printf(" %s", in->set.module_ids[i]);
		putchar('\n');
	}
	if (in->has_image)
		print_image(&in->image);
	printf("total: %zu fatbin%s (%zu registered), %zu entries, %zu PTX, %zu kernel%s in PTX\n",
	       in->set.ncontainers, in->set.ncontainers == 1 ? "" : "s", registered, entries, ptx,
	       kernels, kernels == 1 ? "" : "s");
}

int cmd_inspect(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false;
	Input in = {0};

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "-") != 0)
			fail_usage("inspect: unknown option '%s'", argv[i]);
		else if (path)
			fail_usage("inspect: one input file expected, got '%s' and '%s'", path, argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		fail_usage("inspect: no input file");
	input_load(&in, path, true);
	if (json) {
		Json j;

		json_init(&j, stdout);
		input_write_json(&in, &j);
	} else {
		print_human(&in);
	}
	input_free(&in);
	return 0;
}
