/* zluda-convert doctor [PROGRAM] [--json]: what this machine gives a converted program.
 * The HIP runtime and its devices, NVIDIA's driver and its devices, the driver the
 * program's libcuda.so.1 would choose (the same order as runtime_stub/exports/init.c), and for
 * PROGRAM and the converted libraries it loads, whether there is code for each device; and how
 * code PROGRAM makes while it runs reaches the device (shipped beside it, or translated). */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "find_driver.h"
#include "libraries.h"
#include "runtime_code.h"

enum { MAX_DEVICES = 16 };

struct device {
	char name[256];
	char processor[64];  /* HIP: gcnArchName without features; NVIDIA: "sm_90" */
	int sm;              /* NVIDIA: 90 */
};

struct driver {
	bool found;
	char path[4096];
	char version[64];
	char problem[512];
	int ndevices;
	struct device devices[MAX_DEVICES];
};

/* The pieces of code made at run time shipped beside PROGRAM (record), and their folder. */
static size_t shipped_code(const char *program, char *dir, size_t size)
{
	char copy[4096];
	DIR *d;
	struct dirent *e;
	size_t n = 0;

	snprintf(copy, sizeof copy, "%s", program);
	snprintf(dir, size, "%s/" ZC_RUNTIME_CODE_DIR, dirname(copy));
	if (!(d = opendir(dir)))
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The library a dlopen'd handle is, by one of its symbols. */
static void path_of(void *symbol, char *out, size_t size, const char *fallback)
{
	Dl_info info;
	snprintf(out, size, "%s", symbol && dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : fallback);
}

typedef int (*hip_int_fn)(int *);

static void find_hip(struct driver *d)
{
	const char *forced = getenv("ZLUDA_CONVERT_HIP_PATH");
	void *lib = NULL;
	const char *name = NULL;

	if (!zc_amd_gpu_possible()) {
		snprintf(d->problem, sizeof d->problem, "no AMD GPU driver (/dev/kfd is absent)");
		return;
	}
	for (size_t i = 0; !lib && i < (forced && *forced ? 1 : ZC_HIP_LIBRARY_COUNT); i++) {
		name = forced && *forced ? forced : zc_hip_library_names[i];
		lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib) {
		snprintf(d->problem, sizeof d->problem, "no HIP runtime (libamdhip64.so.7, .6 or .5) loads");
		return;
	}
	int (*init)(unsigned) = (int (*)(unsigned))dlsym(lib, "hipInit");
	hip_int_fn count = (hip_int_fn)dlsym(lib, "hipGetDeviceCount");
	hip_int_fn version = (hip_int_fn)dlsym(lib, "hipRuntimeGetVersion");
	int (*props)(void *, int) = (int (*)(void *, int))dlsym(lib, "hipGetDevicePropertiesR0600");
	int (*devname)(char *, int, int) = (int (*)(char *, int, int))dlsym(lib, "hipDeviceGetName");
	d->found = true;
	path_of((void *)init, d->path, sizeof d->path, name);
	int v = 0;
	if (version && version(&v) == 0)
		snprintf(d->version, sizeof d->version, "%d.%d.%d", v / 10000000, v / 100000 % 100, v % 100000);
	if (!init || !count || init(0) != 0 || count(&d->ndevices) != 0 || d->ndevices == 0) {
		snprintf(d->problem, sizeof d->problem, "the HIP runtime finds no device");
		d->ndevices = 0;
		return;
	}
	if (d->ndevices > MAX_DEVICES)
		d->ndevices = MAX_DEVICES;
	for (int i = 0; i < d->ndevices; i++) {
		static char buffer[4096];  /* hipDeviceProp_tR0600: gcnArchName at 1160 */
		struct device *dev = &d->devices[i];
		if (devname)
			devname(dev->name, sizeof dev->name, i);
		if (props && props(buffer, i) == 0) {
			snprintf(dev->processor, sizeof dev->processor, "%.*s",
			         (int)strcspn(buffer + 1160, ":"), buffer + 1160);
		}
	}
}

/* No RTLD_DEEPBIND, which the stub needs and sanitizers refuse: this process defines no
 * driver functions of its own for NVIDIA's library to bind to. */
static bool accept_nvidia(const char *path, void *arg)
{
	void **lib = arg;
	*lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (*lib && (dlsym(*lib, ZC_STUB_MARKER) || !dlsym(*lib, "cuInit"))) {
		dlclose(*lib);
		*lib = NULL;
	}
	return *lib != NULL;
}

static void find_nvidia(struct driver *d)
{
	void *lib = NULL;
	if (!zc_find_nvidia_driver(accept_nvidia, &lib, d->path, sizeof d->path)) {
		snprintf(d->problem, sizeof d->problem, "NVIDIA's driver (libcuda.so.1) is not installed");
		return;
	}
	d->found = true;
	int (*init)(unsigned) = (int (*)(unsigned))dlsym(lib, "cuInit");
	int (*version)(int *) = (int (*)(int *))dlsym(lib, "cuDriverGetVersion");
	int (*count)(int *) = (int (*)(int *))dlsym(lib, "cuDeviceGetCount");
	int (*get)(int *, int) = (int (*)(int *, int))dlsym(lib, "cuDeviceGet");
	int (*name)(char *, int, int) = (int (*)(char *, int, int))dlsym(lib, "cuDeviceGetName");
	int (*attr)(int *, int, int) = (int (*)(int *, int, int))dlsym(lib, "cuDeviceGetAttribute");
	int v = 0, r;
	if (version && version(&v) == 0)
		snprintf(d->version, sizeof d->version, "%d.%d", v / 1000, v % 1000 / 10);
	if ((r = init(0)) != 0 || !count || count(&d->ndevices) != 0 || d->ndevices == 0) {
		snprintf(d->problem, sizeof d->problem, "NVIDIA's driver finds no device (CUresult %d)", r);
		d->ndevices = 0;
		return;
	}
	if (d->ndevices > MAX_DEVICES)
		d->ndevices = MAX_DEVICES;
	for (int i = 0; i < d->ndevices; i++) {
		struct device *dev = &d->devices[i];
		int handle = i, major = 0, minor = 0;
		if (get)
			get(&handle, i);
		if (name)
			name(dev->name, sizeof dev->name, handle);
		if (attr) {
			attr(&major, 75, handle);  /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
			attr(&minor, 76, handle);
		}
		dev->sm = major * 10 + minor;
		snprintf(dev->processor, sizeof dev->processor, "sm_%d", dev->sm);
	}
}

/* A generic target covers every processor of its family. */
static bool target_runs_on(const char *target, const char *processor)
{
	if (strcmp(target, processor) == 0)
		return true;
	return (strcmp(target, "gfx10-3-generic") == 0 && strncmp(processor, "gfx103", 6) == 0) ||
	       (strcmp(target, "gfx11-generic") == 0 && strncmp(processor, "gfx11", 5) == 0) ||
	       (strcmp(target, "gfx12-generic") == 0 && strncmp(processor, "gfx12", 5) == 0);
}

struct file_report {
	char path[4096];
	bool converted, host;
	bool elf;  /* a program or library, which loads the driver (a module file does not) */
	bool amd_ok[MAX_DEVICES], nvidia_ok[MAX_DEVICES];
	char damaged[768];  /* a code object whose bytes are not the ones the image records */
};

/* The original fatbins on an NVIDIA GPU: a cubin of the device's major architecture and
 * a minor one no higher, or PTX of an architecture no higher than the device's. */
static bool fatbins_run_on(const Input *in, int sm)
{
	if (in->set.ncontainers == 0)
		return true;
	for (size_t c = 0; c < in->set.ncontainers; c++)
		for (size_t e = 0; e < in->set.containers[c].nentries; e++) {
			const Entry *en = &in->set.containers[c].entries[e];
			int arch = (int)en->sm;
			if (en->kind == ENTRY_CUBIN && arch / 10 == sm / 10 && arch <= sm)
				return true;
			if (en->kind == ENTRY_PTX && arch <= sm)
				return true;
		}
	return false;
}

static void check_file(const char *path, const struct driver *hip, const struct driver *nv,
                       struct file_report *r)
{
	Input in = {0};
	memset(r, 0, sizeof *r);
	snprintf(r->path, sizeof r->path, "%s", path);
	input_load(&in, path, false);
	r->converted = in.has_image;
	r->elf = in.bin.format == BIN_ELF;
	for (int i = 0; i < hip->ndevices; i++)
		for (uint32_t m = 0; in.has_image && m < in.image.modules.count; m++) {
			AotModule mod = aot_module(&in.image, m);
			bool any = false;
			for (uint32_t c = 0; c < mod.ncode_objects; c++) {
				AotCodeObject co = aot_code_object(&in.image, mod.first_code_object + c);
				any |= target_runs_on(co.target, hip->devices[i].processor);
			}
			r->amd_ok[i] = m == 0 ? any : r->amd_ok[i] && any;
		}
	r->host = in.has_image && (in.image.flags & AOT_IMAGE_FOR_HOST);
	for (uint32_t m = 0; in.has_image && m < in.image.modules.count; m++) {
		AotModule mod = aot_module(&in.image, m);
		for (uint32_t c = 0; c < mod.ncode_objects; c++)
			r->host |= strcmp(aot_code_object(&in.image, mod.first_code_object + c).target, "host") == 0;
	}
	for (int i = 0; i < nv->ndevices; i++)
		r->nvidia_ok[i] = fatbins_run_on(&in, nv->devices[i].sm);
	/* Every code object read as the driver reads it, its hash checked. */
	for (uint32_t c = 0; in.has_image && !r->damaged[0] && c < in.image.code_objects.count; c++) {
		AotCodeObject co = aot_code_object(&in.image, c);
		uint8_t *bytes = zc_alloc(co.size);
		ZcError err;

		if (!aot_code_object_read(&co, bytes, &err))
			snprintf(r->damaged, sizeof r->damaged, "its code object for %s is damaged: %s",
			         co.target, err.msg);
		free(bytes);
	}
	input_free(&in);
}

/* What the driver file beside a converted program says against it running: NULL when it
 * is zluda-convert's and whole. */
static const char *driver_file_problem(const char *program, char *path, size_t size)
{
	char copy[4096];

	snprintf(copy, sizeof copy, "%s", program);
	snprintf(path, size, "%s/libcuda.so.1", dirname(copy));
	switch (driver_file_state(path)) {
	case DRIVER_FILE_OURS: return NULL;
	case DRIVER_FILE_MISSING: return "missing: the program finds another driver, or none";
	case DRIVER_FILE_DAMAGED: return "damaged (cut short): convert the program again";
	case DRIVER_FILE_OTHER: break;
	}
	return "not zluda-convert's driver: the program loads it instead";
}

/* The libraries PROGRAM loads, found as the loader finds them, that carry GPU code (fatbins,
 * or the AOT image of a converted copy): the ones whose code matters on a GPU. */
static size_t gpu_libraries(const char *program, char (*out)[4096], size_t max)
{
	Library *libs;
	size_t nlibs = library_closure(program, &libs), n = 0;

	for (size_t i = 0; i < nlibs && n < max; i++) {
		if (!libs[i].path || strncmp(libs[i].name, "libcuda.so", 10) == 0)
			continue;
		Input probe = {0};
		input_load(&probe, libs[i].path, false);
		if (probe.set.ncontainers > 0 || probe.has_image)
			snprintf(out[n++], sizeof out[0], "%s", libs[i].path);
		input_free(&probe);
	}
	libraries_free(libs, nlibs);
	return n;
}

static void print_driver(const char *title, const struct driver *d)
{
	printf("%s: ", title);
	if (!d->found) {
		printf("none (%s)\n", d->problem);
		return;
	}
	printf("%s%s%s\n", d->path, *d->version ? ", version " : "", d->version);
	if (!d->ndevices)
		printf("  %s\n", d->problem);
	for (int i = 0; i < d->ndevices; i++)
		printf("  device %d: %s (%s)\n", i, d->devices[i].name, d->devices[i].processor);
}

static void json_driver(Json *j, const char *key, const struct driver *d)
{
	json_key(j, key);
	json_object_begin(j);
	json_field_bool(j, "found", d->found);
	json_field_string(j, "path", d->found ? d->path : NULL);
	json_field_string(j, "version", *d->version ? d->version : NULL);
	json_field_string(j, "problem", *d->problem ? d->problem : NULL);
	json_key(j, "devices");
	json_array_begin(j);
	for (int i = 0; i < d->ndevices; i++) {
		json_object_begin(j);
		json_field_string(j, "name", d->devices[i].name);
		json_field_string(j, "processor", d->devices[i].processor);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* A Windows program's machine is not this one: doctor_windows.c says what the file brings. */
static bool is_windows_program(const char *program, bool as_json, int *status)
{
	Input in = {0};

	input_load(&in, program, false);
	bool windows = in.bin.format == BIN_PE;
	if (windows)
		*status = doctor_windows_program(&in, as_json);
	input_free(&in);
	return windows;
}

int cmd_doctor(int argc, char **argv)
{
	const char *program = NULL;
	bool as_json = false;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			as_json = true;
		else if (argv[i][0] == '-')
			fail_usage("doctor: unknown option '%s'", argv[i]);
		else if (program)
			fail_usage("doctor: one PROGRAM at most");
		else
			program = argv[i];
	}
	int status;
	if (program && is_windows_program(program, as_json, &status))
		return status;
	struct driver hip = {0}, nv = {0};
	find_hip(&hip);
	find_nvidia(&nv);

	enum { MAX_FILES = 32 };
	static struct file_report files[MAX_FILES];
	static char libs[MAX_FILES - 1][4096];
	size_t nfiles = 0;
	if (program) {
		check_file(program, &hip, &nv, &files[nfiles++]);
		size_t nlibs = gpu_libraries(program, libs, MAX_FILES - 1);
		for (size_t i = 0; i < nlibs; i++)
			check_file(libs[i], &hip, &nv, &files[nfiles++]);
	}
	/* The stub's order: an AMD GPU, an NVIDIA GPU, the CPU when there is host code. */
	const char *choice = "none", *forced = getenv("ZLUDA_CONVERT_DRIVER");
	char why[512];
	bool host = program && files[0].host, gpu = false;
	if (forced && *forced && strcmp(forced, "hip") != 0 && strcmp(forced, "cuda") != 0 &&
	    strcmp(forced, "host") != 0) {
		snprintf(why, sizeof why, "ZLUDA_CONVERT_DRIVER=%s is not hip, cuda or host: the "
		         "driver refuses it", forced);
	} else if (forced && *forced) {
		choice = forced;
		snprintf(why, sizeof why, "ZLUDA_CONVERT_DRIVER=%s chooses it", forced);
		gpu = strcmp(forced, "hip") == 0 ? hip.ndevices > 0 : strcmp(forced, "cuda") == 0 && nv.ndevices > 0;
	} else if (hip.ndevices) {
		choice = "hip";
		snprintf(why, sizeof why, "an AMD GPU comes first");
		gpu = true;
	} else if (nv.ndevices) {
		choice = "cuda";
		snprintf(why, sizeof why, "no AMD GPU; the NVIDIA GPU runs the original fatbins through NVIDIA's driver");
		gpu = true;
	} else if (host) {
		choice = "host";
		snprintf(why, sizeof why, "no GPU; the program has code for the CPU (--offload-arch=host)");
	} else {
		snprintf(why, sizeof why, program ? "no GPU, and no code for the CPU (--offload-arch=host)"
		                                  : "no GPU; only programs converted with --offload-arch=host run, on the CPU");
	}
	/* The converted program's own driver, beside it, for an AMD GPU or the CPU. */
	char driver_path[4096 + 16];
	const char *driver_problem = program && files[0].converted && files[0].elf &&
	                             strcmp(choice, "cuda") != 0
	                             ? driver_file_problem(program, driver_path, sizeof driver_path)
	                             : NULL;
	gpu &= !driver_problem;
	/* Code for the chosen GPU in every file: AMD code is in converted files only. */
	for (size_t f = 0; f < nfiles && gpu; f++) {
		gpu &= !files[f].damaged[0];
		if (strcmp(choice, "hip") == 0)
			for (int i = 0; i < hip.ndevices; i++)
				gpu &= files[f].converted && files[f].amd_ok[i];
		else
			for (int i = 0; i < nv.ndevices; i++)
				gpu &= files[f].nvidia_ok[i];
	}
	/* Code the program makes while it runs: shipped, else translated unless forbidden. */
	char shipped_dir[4096 + 64];
	size_t shipped = program ? shipped_code(program, shipped_dir, sizeof shipped_dir) : 0;
	const char *translate = getenv("ZLUDA_CONVERT_TRANSLATE");
	bool translation = !(translate && strcmp(translate, "0") == 0);
	if (as_json) {
		Json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		json_key(&j, "code_made_at_run_time");
		json_object_begin(&j);
		json_field_uint(&j, "shipped", shipped);
		json_field_bool(&j, "translated", translation);
		json_object_end(&j);
		json_driver(&j, "hip", &hip);
		json_driver(&j, "nvidia", &nv);
		json_field_string(&j, "driver", choice);
		json_field_string(&j, "why", why);
		json_field_string(&j, "driver_file_problem", driver_problem);
		json_key(&j, "files");
		json_array_begin(&j);
		for (size_t f = 0; f < nfiles; f++) {
			json_object_begin(&j);
			json_field_string(&j, "path", files[f].path);
			json_field_bool(&j, "converted", files[f].converted);
			json_field_bool(&j, "host", files[f].host);
			json_field_string(&j, "damaged", files[f].damaged[0] ? files[f].damaged : NULL);
			json_key(&j, "amd_devices_with_code");
			json_array_begin(&j);
			for (int i = 0; i < hip.ndevices; i++)
				json_bool(&j, files[f].converted && files[f].amd_ok[i]);
			json_array_end(&j);
			json_key(&j, "nvidia_devices_with_code");
			json_array_begin(&j);
			for (int i = 0; i < nv.ndevices; i++)
				json_bool(&j, files[f].nvidia_ok[i]);
			json_array_end(&j);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_field_bool(&j, "runs_on_gpu", gpu);
		json_object_end(&j);
		json_finish(&j);
		return gpu ? 0 : 1;
	}
	print_driver("HIP runtime", &hip);
	print_driver("NVIDIA driver", &nv);
	printf("driver: %s (%s)\n", choice, why);
	if (driver_problem)
		printf("%s: %s\n", driver_path, driver_problem);
	for (size_t f = 0; f < nfiles; f++) {
		printf("%s: %s\n", files[f].path, files[f].damaged[0] ? files[f].damaged
		       : files[f].converted ? "converted"
		       : f == 0 ? "not converted: no AMD code (zluda-convert FILE -o OUT converts it)"
		       : translation ? "not converted: its fatbins are translated as they load, once per "
		                       "machine (convert the program with --with-libraries to have them "
		                       "ahead of time)"
		       : "not converted: no AMD code, and ZLUDA_CONVERT_TRANSLATE=0 refuses translating "
		         "it as it loads (convert the program with --with-libraries)");
		for (int i = 0; i < hip.ndevices; i++)
			if (files[f].converted && !files[f].amd_ok[i])
				printf("  no code for AMD device %d (%s): convert it with --offload-arch=%s\n", i,
				       hip.devices[i].processor, hip.devices[i].processor);
		for (int i = 0; i < nv.ndevices; i++)
			if (!files[f].nvidia_ok[i])
				printf("  no code for NVIDIA device %d (%s): nvcc built it for other architectures\n", i,
				       nv.devices[i].processor);
	}
	/* said where it matters: code shipped, or translation forbidden */
	if (program && shipped)
		printf("code made while it runs: %zu piece%s shipped in %s; ", shipped,
		       shipped == 1 ? "" : "s", shipped_dir);
	else if (program && !translation)
		printf("code made while it runs: none shipped (zluda-convert record ships it); ");
	if (program && (shipped || !translation))
		printf("%s\n", translation ? "other code is translated at its first load"
		                            : "no other loads (ZLUDA_CONVERT_TRANSLATE=0)");
	printf("%s\n", gpu ? "runs on a GPU here" : "does not run on a GPU here");
	return gpu ? 0 : 1;
}
