/* Which loadable units a binary has: one per fatbin that carries PTX (the one cudart
 * registers through its wrapper, or one a library loads by address), and one for all the
 * relocatable fatbins of an -rdc link, keyed by the device-link image cudart registers.
 * A PTX file is one unit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "runtime_code.h"

/* Entry a is newer PTX than b: the newer arch, then the newer ISA (design decision 12). */
bool entry_newer(const Entry *a, const Entry *b)
{
	return a->sm > b->sm || (a->sm == b->sm &&
	       (a->version_major > b->version_major ||
	        (a->version_major == b->version_major && a->version_minor > b->version_minor)));
}

static const Entry *best_ptx(const Container *c)
{
	const Entry *best = NULL;

	for (size_t i = 0; i < c->nentries; i++)
		if (c->entries[i].kind == ENTRY_PTX && (!best || entry_newer(&c->entries[i], best)))
			best = &c->entries[i];
	return best;
}

/* The newest PTX entry that decodes, and its text; NULL with *why when none does. */
static const Entry *decodable_ptx(const Input *in, size_t ci, char **text, char **why)
{
	const Container *c = &in->set.containers[ci];
	const Entry *tried = NULL;

	*why = NULL;
	for (;;) {
		const Entry *next = NULL;
		uint64_t size;
		ZcError err;

		for (size_t i = 0; i < c->nentries; i++) {
			const Entry *e = &c->entries[i];

			if (e->kind == ENTRY_PTX && (!tried || entry_newer(tried, e)) &&
			    (!next || entry_newer(e, next)))
				next = e;
		}
		if (!next)
			return NULL;
		if (entry_contents(&in->bin, next, (uint8_t **)text, &size, &err)) {
			free(*why);
			*why = NULL;
			return next;
		}
		if (!*why) {
			char message[sizeof(err.msg) + 64];

			snprintf(message, sizeof(message), "fatbin %zu entry %zu cannot be decoded: %s", ci,
			         (size_t)(next - c->entries), err.msg);
			*why = zc_strndup(message, strlen(message));
		}
		tried = next;
	}
}

static void archs_of(const Container *c, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nentries && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", c->entries[i].arch);
}

static Unit *add_unit(Unit **units, size_t *n, int container, const char *name)
{
	Unit *u;

	*units = zc_realloc(*units, (*n + 1) * sizeof(Unit));
	u = &(*units)[(*n)++];
	memset(u, 0, sizeof(*u));
	u->container = container;
	snprintf(u->name, sizeof(u->name), "%s", name);
	return u;
}

/* A member whose PTX does not decode makes the unit skipped, with why. */
static void add_member(const Input *in, Unit *u, size_t ci)
{
	char *text, *why;
	const Entry *e = decodable_ptx(in, ci, &text, &why);

	if (!e) {
		if (!u->skip_reason)
			u->skip_reason = why;
		else
			free(why);
		u->undecodable = true;
		return;
	}
	u->members = zc_realloc(u->members, (u->nmembers + 1) * sizeof(size_t));
	u->ptx = zc_realloc(u->ptx, (u->nmembers + 1) * sizeof(Entry *));
	u->texts = zc_realloc(u->texts, (u->nmembers + 1) * sizeof(char *));
	u->ptx_hashes = zc_realloc(u->ptx_hashes, (u->nmembers + 1) * sizeof(uint64_t));
	u->members[u->nmembers] = ci;
	u->ptx[u->nmembers] = e;
	u->texts[u->nmembers] = text;
	u->ptx_hashes[u->nmembers] = aot_hash_ptx(text);
	u->nmembers++;
}

/* The device-link image of an RDC program: what its version-2 wrapper points to. */
static int link_image(const Input *in)
{
	for (size_t w = 0; w < in->set.nwrappers; w++)
		if (in->set.wrappers[w].version == 2 && in->set.wrappers[w].container >= 0)
			return in->set.wrappers[w].container;
	return -1;
}

MemberName unit_member_name(const Unit *u, size_t m)
{
	MemberName n;

	if (u->members[m] == MEMBER_PTX_FILE && u->nmembers > 1)
		snprintf(n.text, sizeof(n.text), "PTX text %zu of the link", m + 1);
	else if (u->members[m] == MEMBER_PTX_FILE)
		snprintf(n.text, sizeof(n.text), "the PTX file");
	else
		snprintf(n.text, sizeof(n.text), "PTX of fatbin %zu", u->members[m]);
	return n;
}

/* A member of the PTX file's unit: TEXT, LENGTH bytes of it, keyed by KEY. */
static void add_ptx_text(Unit *u, const char *text, size_t length, uint64_t key)
{
	u->members = zc_realloc(u->members, (u->nmembers + 1) * sizeof(size_t));
	u->ptx = zc_realloc(u->ptx, (u->nmembers + 1) * sizeof(Entry *));
	u->texts = zc_realloc(u->texts, (u->nmembers + 1) * sizeof(char *));
	u->ptx_hashes = zc_realloc(u->ptx_hashes, (u->nmembers + 1) * sizeof(uint64_t));
	u->members[u->nmembers] = MEMBER_PTX_FILE;
	u->ptx[u->nmembers] = NULL;
	u->texts[u->nmembers] = zc_strndup(text, length);
	u->ptx_hashes[u->nmembers] = key;
	u->nmembers++;
}

/* The text before the first NUL, as the CUDA driver reads it: one PTX module, or the PTX
 * texts a program linked at run time (abi/runtime_code.h), linked as an -rdc program's
 * members are, the module keyed by the whole text. */
static void add_ptx_file(const Input *in, Unit **units, size_t *nunits)
{
	const char *text = (const char *)in->bin.bytes;
	size_t length = strnlen(text, in->bin.size), marker = strlen(ZC_LINK_INPUT);
	char *whole = zc_strndup(text, length);
	uint64_t key = aot_hash_ptx(whole);
	bool link = strncmp(whole, ZC_LINK_HEADER, strlen(ZC_LINK_HEADER)) == 0;
	Unit *u = add_unit(units, nunits, -1, link ? "PTX link" : "PTX file");

	for (const char *at = link ? strstr(whole, ZC_LINK_INPUT) : whole; at;) {
		const char *start = link ? at + marker : at;
		const char *next = link ? strstr(start, ZC_LINK_INPUT) : NULL;

		add_ptx_text(u, start, next ? (size_t)(next - start) : strlen(start), key);
		at = next;
	}
	if (u->nmembers == 0)
		u->skip_reason = zc_strndup("a PTX link of no texts", 22);
	free(whole);
}

void units_find(const Input *in, Unit **units, size_t *nunits)
{
	const FatbinSet *set = &in->set;
	long rdc = -1; /* an index: adding units moves them */
	int link = link_image(in);
	char name[64];

	*units = NULL;
	*nunits = 0;
	if (in->bin.format == BIN_PTX) {
		add_ptx_file(in, units, nunits);
		return;
	}
	for (size_t ci = 0; ci < set->ncontainers; ci++) {
		const Container *c = &set->containers[ci];
		bool registered_v1 = c->wrapper >= 0 && set->wrappers[c->wrapper].version == 1;

		if (c->origin == ORIGIN_RELFATBIN_SECTION) {
			if (!best_ptx(c))
				continue; /* the member's SASS is linked by nvlink into the link image */
			if (rdc < 0) {
				Unit *u = add_unit(units, nunits, link, "rdc link");

				if (link < 0)
					u->skip_reason = zc_strndup("no device-link wrapper registers it", 35);
				rdc = (long)(*nunits - 1);
			}
			add_member(in, &(*units)[rdc], ci);
			continue;
		}
		if ((int)ci == link && !best_ptx(c))
			continue; /* the device-link image: registered only for -rdc programs */
		snprintf(name, sizeof(name), "fatbin %zu", ci);
		if (best_ptx(c)) {
			add_member(in, add_unit(units, nunits, (int)ci, name), ci);
		} else if (registered_v1 || c->origin == ORIGIN_SCAN || c->origin == ORIGIN_WHOLE_FILE) {
			char archs[256], reason[320];
			Unit *u = add_unit(units, nunits, (int)ci, name);

			archs_of(c, archs, sizeof(archs));
			snprintf(reason, sizeof(reason), "no PTX (SASS only: %s)", archs);
			u->skip_reason = zc_strndup(reason, strlen(reason));
			u->sass_only = true;
		}
	}
}

void units_free(Unit *units, size_t nunits)
{
	for (size_t i = 0; i < nunits; i++) {
		Unit *u = &units[i];

		for (size_t m = 0; m < u->nmembers; m++)
			free(u->texts[m]);
		for (size_t t = 0; t < MAX_TARGETS; t++) {
			free(u->code[t].data);
			free(u->error[t]);
			free(u->dump[t]);
			for (uint32_t k = 0; u->left_out[t] && k < u->nkernels; k++)
				free(u->left_out[t][k]);
			free(u->left_out[t]);
			free(u->older_ptx[t]);
			free(u->unoptimized[t]);
		}
		for (uint32_t k = 0; k < u->nkernels; k++) {
			free((char *)u->kernels[k].name);
			free(u->kernels[k].params);
		}
		for (size_t g = 0; g < u->nglobals; g++)
			free(u->globals[g]);
		free(u->kernels);
		free(u->globals);
		free(u->global_sizes);
		free(u->global_const);
		free(u->members);
		free(u->ptx);
		free(u->texts);
		free(u->ptx_hashes);
		free(u->skip_reason);
		free(u->parse_error);
	}
	free(units);
}
