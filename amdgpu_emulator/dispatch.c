/* Launching a grid by the HSA ABI: the kernarg segment with its implicit arguments, the
 * dispatch packet, each wave's initial registers from the kernel descriptor; workgroups in
 * parallel on host threads, a workgroup's waves interleaved on one so that s_barrier waits
 * for all of them. */
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "emu.h"

/* Instructions a wave runs before the next wave of its workgroup gets a turn: small enough
 * that a wave spinning on another's store lets it run soon. */
enum { QUANTUM = 256 };
/* Workgroups of a cooperative grid, each on a host thread of its own. */
enum { MAX_COOPERATIVE = 1024 };

static uint64_t executed_total, cycles_total;

uint64_t zc_emu_instructions_executed(void)
{
	return __atomic_load_n(&executed_total, __ATOMIC_RELAXED);
}

uint64_t zc_emu_cycles_estimated(void)
{
	return __atomic_load_n(&cycles_total, __ATOMIC_RELAXED);
}

struct launch {
	const struct zc_emu_kernel *kernel;
	const struct zc_emu_dispatch *dispatch;
	uint8_t *kernarg;
	uint8_t *packet;
	uint64_t next;          /* next workgroup to start */
	uint64_t count;
	pthread_mutex_t lock;
	bool failed;
	bool memory_fault;      /* the first failure was an access outside registered memory */
	char *error;
	double deadline;        /* seconds of the monotonic clock; 0: none */
	FILE *trace;            /* ZC_EMU_TRACE: every instruction executed */
};

/* One line per instruction: where, which wave, EXEC, the text. For finding where emulated
 * code goes another way than the CPU driver's. */
static void trace(const struct wave *w, const struct insn *in)
{
	const struct launch *l = w->wg->launch;
	flockfile(l->trace);
	fprintf(l->trace, "wg(%u,%u,%u) w%u %05x exec=%08x scc=%u  %s\n", w->wg->id[0], w->wg->id[1],
	        w->wg->id[2], w->id, in->address, w->s[SREG_EXEC_LO], w->scc, in->text);
	funlockfile(l->trace);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void where(const struct wave *w, const struct insn *in, char *out, size_t size)
{
	const struct symbol *s = emu_symbol_at(w->object, in->address);
	snprintf(out, size, "%s+0x%llx (%s)", s ? s->name : "?",
	         (unsigned long long)(in->address - (s ? s->value : 0)), w->object->processor);
}

static void fault(struct wave *w, const struct insn *in, bool memory, const char *fmt, va_list ap)
{
	char what[200], at[160];
	vsnprintf(what, sizeof what, fmt, ap);
	where(w, in, at, sizeof at);
	w->state = WAVE_FAULTED;
	struct workgroup *wg = w->wg;
	if (!wg->failed) {
		wg->failed = true;
		wg->memory_fault = memory;
		snprintf(wg->error, ZC_EMU_ERROR_SIZE, "%s: %s at %s, workgroup (%u,%u,%u) wave %u",
		         w->object->kernels ? wg->kernel->name : "?", what, at, wg->id[0], wg->id[1],
		         wg->id[2], w->id);
	}
}

void emu_fault(struct wave *w, const struct insn *in, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fault(w, in, false, fmt, ap);
	va_end(ap);
}

void emu_memory_fault(struct wave *w, const struct insn *in, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fault(w, in, true, fmt, ap);
	va_end(ap);
}

void emu_not_emulated(struct wave *w, const struct insn *in)
{
	char at[160];
	where(w, in, at, sizeof at);
	w->state = WAVE_FAULTED;
	if (!w->wg->failed) {
		w->wg->failed = true;
		snprintf(w->wg->error, ZC_EMU_ERROR_SIZE, "not emulated: %s at %s", in->text, at);
	}
}

void emu_vopd(struct wave *w, const struct insn *in)
{
	const struct insn *y = in->pair;
	unsigned d = in->o[0].reg;
	bool reads = false;
	for (int i = 1; i < y->nopnd; i++)
		reads |= y->o[i].kind == OPND_VGPR && y->o[i].reg == d;
	if (!reads) {
		in->first(w, in);
		y->exec(w, y);
		return;
	}
	/* The second reads what the first writes: it must see the value from before. */
	uint32_t before[LANES], after[LANES];
	memcpy(before, w->v[d], sizeof before);
	in->first(w, in);
	memcpy(after, w->v[d], sizeof after);
	memcpy(w->v[d], before, sizeof before);
	y->exec(w, y);
	memcpy(w->v[d], after, sizeof after);
}

static uint32_t sdwa_select(uint32_t x, unsigned sel, bool sign)
{
	if (sel < 4) {
		x = x >> (8 * sel) & 0xff;
		return sign ? (uint32_t)(int32_t)(int8_t)x : x;
	}
	if (sel < 6) {
		x = x >> (16 * (sel - 4)) & 0xffff;
		return sign ? (uint32_t)(int32_t)(int16_t)x : x;
	}
	return x;
}

void emu_sdwa(struct wave *w, const struct insn *in)
{
	struct insn copy = *in;
	copy.exec = in->first;
	/* The first two sources are src0 and src1; a compare's first operand is its mask. */
	for (int i = 1, k = 0; i < in->nopnd && k < 2; i++, k++) {
		const struct operand *o = &in->o[i];
		if (o->kind != OPND_VGPR || (in->src_sel[k] == SDWA_DWORD && !o->sext))
			continue;
		unsigned scratch = 256 + (unsigned)k;
		for (int l = 0; l < LANES; l++)
			w->v[scratch][l] = sdwa_select(w->v[o->reg][l], in->src_sel[k], o->sext);
		copy.o[i].reg = (uint16_t)scratch;
	}
	const struct operand *d = &in->o[0];
	if (d->kind != OPND_VGPR || (in->dst_sel == SDWA_DWORD)) {
		copy.first(w, &copy);
		return;
	}
	unsigned result = 256 + 2;
	memcpy(w->v[result], w->v[d->reg], sizeof w->v[result]);
	copy.o[0].reg = (uint16_t)result;
	copy.first(w, &copy);
	unsigned sel = in->dst_sel, shift = sel < 4 ? 8 * sel : 16 * (sel - 4), bits = sel < 4 ? 8 : 16;
	uint32_t field = ((1u << bits) - 1) << shift, e = exec_mask(w);
	for (int l = 0; l < LANES; l++) {
		if (!(e >> l & 1))
			continue;
		uint32_t v = (w->v[result][l] << shift) & field, old = w->v[d->reg][l];
		if (in->dst_unused == 2)
			v |= old & ~field;
		else if (in->dst_unused == 1 && (v >> (shift + bits - 1) & 1))
			v |= ~0u << (shift + bits);
		w->v[d->reg][l] = v;
	}
}

void emu_barrier(struct wave *w)
{
	w->state = WAVE_BARRIER;
}

static void ran_off_the_end(struct wave *w, const struct insn *in)
{
	(void)in;
	emu_fault(w, &w->object->code[w->object->ncode ? w->object->ncode - 1 : 0],
	          "execution ran past the end of the code");
}

bool zc_emu_pack_arguments(const struct zc_emu_kernel *k, void *const *params,
                           unsigned char **buffer, size_t *size)
{
	unsigned char *b = calloc(1, (size_t)k->kernarg_size + 1);
	size_t next = 0;

	*size = 0;
	if (!b)
		return false;
	for (uint32_t i = 0; i < k->nargs; i++) {
		const struct kernel_arg *a = &k->args[i];
		if (!strncmp(a->kind, "hidden_", 7))
			continue;
		if (!params || !params[next] || a->offset + (size_t)a->size > k->kernarg_size) {
			free(b);
			return false;
		}
		memcpy(b + a->offset, params[next++], a->size);
		if (a->offset + (size_t)a->size > *size)
			*size = a->offset + (size_t)a->size;
	}
	*buffer = b;
	return true;
}

/* The implicit arguments of code object v5, where the metadata lists them. */
static void fill_implicit(const struct zc_emu_kernel *k, const struct zc_emu_dispatch *d,
                          uint8_t *kernarg, size_t size)
{
	for (uint32_t i = 0; i < k->nargs; i++) {
		const struct kernel_arg *a = &k->args[i];
		uint64_t v = 0;
		const char *kind = a->kind;
		if (strncmp(kind, "hidden_", 7) != 0 || a->offset + (uint64_t)a->size > size || a->size > 8)
			continue;
		kind += 7;
		if (strcmp(kind, "block_count_x") == 0) v = d->grid[0];
		else if (strcmp(kind, "block_count_y") == 0) v = d->grid[1];
		else if (strcmp(kind, "block_count_z") == 0) v = d->grid[2];
		else if (strcmp(kind, "group_size_x") == 0) v = d->block[0];
		else if (strcmp(kind, "group_size_y") == 0) v = d->block[1];
		else if (strcmp(kind, "group_size_z") == 0) v = d->block[2];
		else if (strcmp(kind, "grid_dims") == 0)
			v = d->grid[2] * d->block[2] > 1 ? 3 : d->grid[1] * d->block[1] > 1 ? 2 : 1;
		else if (strcmp(kind, "dynamic_lds_size") == 0) v = d->dynamic_lds;
		else if (strcmp(kind, "private_base") == 0) v = PRIVATE_APERTURE >> 32;
		else if (strcmp(kind, "shared_base") == 0) v = SHARED_APERTURE >> 32;
		/* remainders, global offsets, and the pointers to runtime services stay 0 */
		memcpy(kernarg + a->offset, &v, a->size);
	}
}

static void init_wave(struct wave *w, struct workgroup *wg, struct launch *l, uint32_t first_item,
                      uint32_t items)
{
	const struct zc_emu_kernel *k = l->kernel;
	const struct zc_emu_dispatch *d = l->dispatch;
	const struct zc_emu_object *o = k->object;
	uint32_t *s = w->s;
	unsigned n = 0;

	memset(s, 0, sizeof w->s);
	w->scc = 0;
	w->state = WAVE_RUNNING;
	w->pc = k->entry;
	w->sleep = 0;
	/* User SGPRs, in the order the descriptor enables them. */
	uint64_t kernarg = (uint64_t)(uintptr_t)l->kernarg, packet = (uint64_t)(uintptr_t)l->packet;
	if (k->code_properties & 1) {  /* private segment buffer: a V# over the lanes' scratch */
		s[n++] = (uint32_t)BUFFER_SCRATCH;
		s[n++] = (uint32_t)(BUFFER_SCRATCH >> 32);
		s[n++] = 0xffffffffu;
		s[n++] = 0;
	}
	if (k->code_properties & 2) {
		s[n++] = (uint32_t)packet;
		s[n++] = (uint32_t)(packet >> 32);
	}
	if (k->code_properties & 4)  /* queue pointer: there is no queue */
		n += 2;
	if (k->code_properties & 8) {
		s[n++] = (uint32_t)kernarg;
		s[n++] = (uint32_t)(kernarg >> 32);
	}
	if (k->code_properties & 16)  /* dispatch id */
		n += 2;
	if (k->code_properties & 32) {  /* flat scratch init: scratch addresses start at 0 */
		n += 2;
	}
	if (k->code_properties & 64)
		s[n++] = w->scratch_per_lane;
	n = (k->rsrc2 >> 1) & 31;
	if (k->rsrc2 >> 7 & 1)
		s[n++] = wg->id[0];
	if (k->rsrc2 >> 8 & 1)
		s[n++] = wg->id[1];
	if (k->rsrc2 >> 9 & 1)
		s[n++] = wg->id[2];
	if (k->rsrc2 >> 10 & 1)
		s[n++] = 0;
	if ((k->rsrc2 & 1) && o->generation < 12)  /* private segment wave offset */
		s[n++] = 0;
	if (o->generation >= 12) {
		s[SREG_TTMP0 + 9] = wg->id[0];
		s[SREG_TTMP0 + 7] = wg->id[1] | wg->id[2] << 16;
	}
	uint32_t exec = items >= LANES ? 0xffffffffu : (1u << items) - 1;
	s[SREG_EXEC_LO] = exec;
	memset(w->v[0], 0, sizeof w->v[0] * 3);
	/* Only the IDs the descriptor enables (ENABLE_VGPR_WORKITEM_ID: X, X and Y, or all
	 * three): a kernel that reads X alone takes gfx11's packed v0 as X, unmasked. */
	uint32_t ids = k->rsrc2 >> 11 & 3;
	/* the first lane's coordinates divided out, the others' counted on from them */
	uint32_t x = first_item % d->block[0], y = first_item / d->block[0] % d->block[1],
	         z = first_item / d->block[0] / d->block[1];
	for (uint32_t lane = 0; lane < items && lane < LANES; lane++) {
		uint32_t wy = ids >= 1 ? y : 0, wz = ids >= 2 ? z : 0;
		if (o->generation >= 11) {
			w->v[0][lane] = x | wy << 10 | wz << 20;
		} else {
			w->v[0][lane] = x;
			w->v[1][lane] = wy;
			w->v[2][lane] = wz;
		}
		if (++x == d->block[0]) {
			x = 0;
			if (++y == d->block[1]) {
				y = 0;
				z++;
			}
		}
	}
	uint32_t r1 = k->rsrc1;
	w->mode = (r1 >> 12 & 3) | (r1 >> 14 & 3) << 2 | (r1 >> 16 & 3) << 4 | (r1 >> 18 & 3) << 6 |
	          (o->generation < 12 ? (r1 >> 21 & 1) << 8 | (r1 >> 23 & 1) << 9 : 0) |
	          (r1 >> 26 & 1) << 23;  /* FP16_OVFL */
	memset(w->scratch, 0, (size_t)w->scratch_per_lane * LANES);
}

/* Runs the waves of one workgroup in turn until each has ended. */
static void run_workgroup(struct workgroup *wg, struct launch *l)
{
	const struct insn *code = l->kernel->object->code;
	uint32_t live = wg->nwaves;
	bool tracing = l->trace != NULL;  /* in a register: the handlers' calls would reload it */

	while (!wg->failed) {
		uint32_t waiting = 0;
		live = 0;
		for (uint32_t i = 0; i < wg->nwaves && !wg->failed; i++) {
			struct wave *w = &wg->waves[i];
			uint64_t n = 0, cycles = 0;
			while (w->state == WAVE_RUNNING && n < QUANTUM && !w->sleep) {
				const struct insn *in = &code[w->pc++];
				if (tracing)
					trace(w, in);
				cycles += in->cost;
				in->exec(w, in);
				n++;
			}
			w->executed += n;
			w->cycles += cycles;
			w->sleep = 0;
			if (w->state == WAVE_BARRIER)
				waiting++;
			if (w->state != WAVE_ENDED)
				live++;
		}
		if (wg->failed || live == 0)
			break;
		/* Every wave still running waits at the barrier: it opens. Waves that ended do
		 * not count, as on the hardware. */
		if (waiting == live) {
			for (uint32_t i = 0; i < wg->nwaves; i++)
				if (wg->waves[i].state == WAVE_BARRIER)
					wg->waves[i].state = WAVE_RUNNING;
		}
		/* A workgroup of a cooperative grid may be spinning for another: let its thread run. */
		if (l->dispatch->cooperative)
			sched_yield();
		if (l->deadline && now() > l->deadline) {
			snprintf(wg->error, ZC_EMU_ERROR_SIZE,
			         "%s: workgroup (%u,%u,%u) made no end before the time limit "
			         "(ZC_EMU_TIMEOUT): a deadlock or an endless loop", l->kernel->name,
			         wg->id[0], wg->id[1], wg->id[2]);
			wg->failed = true;
		}
	}
}

struct worker {
	struct launch *launch;
	pthread_t thread;
	struct workgroup wg;
	char error[ZC_EMU_ERROR_SIZE];
	uint64_t executed, cycles;
};

static void *work(void *arg)
{
	struct worker *me = arg;
	struct launch *l = me->launch;
	const struct zc_emu_dispatch *d = l->dispatch;
	const struct zc_emu_kernel *k = l->kernel;
	struct workgroup *wg = &me->wg;
	uint32_t items = d->block[0] * d->block[1] * d->block[2];

	wg->kernel = k;
	wg->dispatch = d;
	wg->launch = l;
	wg->error = me->error;
	for (;;) {
		uint64_t g = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
		if (g >= l->count || __atomic_load_n(&l->failed, __ATOMIC_RELAXED))
			break;
		wg->id[0] = (uint32_t)(g % d->grid[0]);
		wg->id[1] = (uint32_t)(g / d->grid[0] % d->grid[1]);
		wg->id[2] = (uint32_t)(g / d->grid[0] / d->grid[1]);
		wg->failed = false;
		memset(wg->lds, 0, wg->lds_size);
		for (uint32_t i = 0; i < wg->nwaves; i++) {
			uint32_t first = i * LANES;
			init_wave(&wg->waves[i], wg, l, first, items - first < LANES ? items - first : LANES);
		}
		run_workgroup(wg, l);
		if (wg->failed) {
			pthread_mutex_lock(&l->lock);
			if (!l->failed) {
				l->failed = true;
				l->memory_fault = wg->memory_fault;
				snprintf(l->error, ZC_EMU_ERROR_SIZE, "%s", wg->error);
			}
			pthread_mutex_unlock(&l->lock);
			break;
		}
	}
	for (uint32_t i = 0; i < wg->nwaves; i++) {
		me->executed += wg->waves[i].executed;
		me->cycles += wg->waves[i].cycles;
	}
	return NULL;
}

/* Register files and scratch are reused from launch to launch: allocated anew, their pages
 * were faulted in again each time, which cost more than running a small kernel. Blocks
 * are kept by size; what a launch takes is not cleared (registers start undefined, and
 * scratch is cleared per workgroup). */
enum { POOL_BLOCKS = 512 };
static struct block {
	void *data;
	size_t size;
} pool[POOL_BLOCKS];
static size_t pooled;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void *pool_take(size_t size)
{
	void *data = NULL;
	pthread_mutex_lock(&pool_lock);
	for (size_t i = 0; i < pooled; i++)
		if (pool[i].size == size) {
			data = pool[i].data;
			pool[i] = pool[--pooled];
			break;
		}
	pthread_mutex_unlock(&pool_lock);
	return data ? data : malloc(size);
}

static void pool_give(void *data, size_t size)
{
	if (!data)
		return;
	pthread_mutex_lock(&pool_lock);
	if (pooled < POOL_BLOCKS) {
		pool[pooled++] = (struct block){data, size};
		data = NULL;
	}
	pthread_mutex_unlock(&pool_lock);
	free(data);
}

static size_t registers_size(void) { return (256 + SDWA_REGISTERS) * sizeof(uint32_t[LANES]); }
static size_t scratch_size(uint32_t per_lane) { return (size_t)per_lane * LANES + 16; }

static bool setup_worker(struct worker *me, struct launch *l, uint32_t lds, uint32_t scratch)
{
	const struct zc_emu_dispatch *d = l->dispatch;
	uint32_t items = d->block[0] * d->block[1] * d->block[2];
	struct workgroup *wg = &me->wg;

	me->launch = l;
	wg->nwaves = (items + LANES - 1) / LANES;
	wg->lds_size = lds;
	wg->lds = calloc(lds ? lds : 1, 1);
	wg->waves = calloc(wg->nwaves, sizeof *wg->waves);
	if (!wg->lds || !wg->waves)
		return false;
	for (uint32_t i = 0; i < wg->nwaves; i++) {
		struct wave *w = &wg->waves[i];
		w->id = i;
		w->wg = wg;
		w->object = l->kernel->object;
		w->v = pool_take(registers_size());
		w->scratch_per_lane = scratch;
		w->scratch = pool_take(scratch_size(scratch));
		if (!w->v || !w->scratch)
			return false;
	}
	return true;
}

static void free_worker(struct worker *me)
{
	for (uint32_t i = 0; me->wg.waves && i < me->wg.nwaves; i++) {
		pool_give(me->wg.waves[i].v, registers_size());
		pool_give(me->wg.waves[i].scratch, scratch_size(me->wg.waves[i].scratch_per_lane));
	}
	free(me->wg.waves);
	free(me->wg.lds);
}

static unsigned thread_count(uint64_t workgroups)
{
	const char *e = getenv("ZC_EMU_THREADS");
	long n = e && *e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > 64)
		n = 64;
	return (unsigned)((uint64_t)n < workgroups ? (uint64_t)n : workgroups);
}

enum zc_emu_status zc_emu_launch(const struct zc_emu_kernel *k, const struct zc_emu_dispatch *d,
                                 char *error)
{
	uint64_t items = (uint64_t)d->block[0] * d->block[1] * d->block[2];
	uint64_t groups = (uint64_t)d->grid[0] * d->grid[1] * d->grid[2];
	uint64_t lds = (uint64_t)k->group_segment_size + d->dynamic_lds;
	struct zc_emu_object *o = (struct zc_emu_object *)k->object;

	if (items == 0 || groups == 0 || items > 1024 || items > k->max_flat_workgroup_size) {
		snprintf(error, ZC_EMU_ERROR_SIZE, "%s: a workgroup of %llu work-items (the kernel "
		         "allows at most %u)", k->name, (unsigned long long)items, k->max_flat_workgroup_size);
		return ZC_EMU_INVALID_VALUE;
	}
	if (lds > 65536) {
		snprintf(error, ZC_EMU_ERROR_SIZE, "%s: %llu bytes of LDS (at most 65536)", k->name,
		         (unsigned long long)lds);
		return ZC_EMU_INVALID_VALUE;
	}
	o->code[o->ncode].exec = ran_off_the_end;
	size_t kernarg_size = k->kernarg_size > d->kernarg_size ? k->kernarg_size : d->kernarg_size;
	struct launch l = {.kernel = k, .dispatch = d, .count = groups,
	                   .lock = PTHREAD_MUTEX_INITIALIZER, .error = error};
	l.kernarg = aligned_alloc(64, (kernarg_size + 64 + 63) & ~(size_t)63);
	l.packet = aligned_alloc(64, 64);
	if (!l.kernarg || !l.packet) {
		free(l.kernarg);
		free(l.packet);
		snprintf(error, ZC_EMU_ERROR_SIZE, "out of memory");
		return ZC_EMU_INVALID_VALUE;
	}
	memset(l.kernarg, 0, kernarg_size + 64);
	memcpy(l.kernarg, d->kernarg, d->kernarg_size);
	fill_implicit(k, d, l.kernarg, kernarg_size);
	/* hsa_kernel_dispatch_packet_t */
	uint8_t *p = l.packet;
	memset(p, 0, 64);
	uint16_t setup = d->grid[2] * d->block[2] > 1 ? 3 : d->grid[1] * d->block[1] > 1 ? 2 : 1;
	uint16_t wgs[3] = {(uint16_t)d->block[0], (uint16_t)d->block[1], (uint16_t)d->block[2]};
	uint32_t grid[3] = {d->grid[0] * d->block[0], d->grid[1] * d->block[1], d->grid[2] * d->block[2]};
	uint32_t segs[2] = {k->private_segment_size, (uint32_t)lds};
	uint64_t kernarg_address = (uint64_t)(uintptr_t)l.kernarg;
	memcpy(p + 2, &setup, 2);
	memcpy(p + 4, wgs, 6);
	memcpy(p + 12, grid, 12);
	memcpy(p + 24, segs, 8);
	memcpy(p + 40, &kernarg_address, 8);
	zc_emu_map(l.kernarg, kernarg_size + 64);
	zc_emu_map(l.packet, 64);
	const char *trace_path = getenv("ZC_EMU_TRACE");
	if (trace_path && *trace_path)
		l.trace = fopen(trace_path, "w");
	const char *timeout = getenv("ZC_EMU_TIMEOUT");
	if (timeout && *timeout && atof(timeout) > 0)
		l.deadline = now() + atof(timeout);

	uint32_t scratch = k->private_segment_size + (k->dynamic_stack ? d->stack_size : 0);
	scratch = (scratch + 15) & ~15u;
	if (d->cooperative && groups > MAX_COOPERATIVE) {
		snprintf(error, ZC_EMU_ERROR_SIZE, "%s: a cooperative grid of %llu workgroups (the "
		         "emulator runs at most %d at once)", k->name, (unsigned long long)groups,
		         MAX_COOPERATIVE);
		return ZC_EMU_INVALID_VALUE;
	}
	unsigned nthreads = d->cooperative ? (unsigned)groups : thread_count(groups);
	struct worker *workers = calloc(nthreads, sizeof *workers);
	bool ok = workers != NULL;
	for (unsigned i = 0; ok && i < nthreads; i++)
		ok = setup_worker(&workers[i], &l, (uint32_t)lds, scratch);
	if (ok) {
		unsigned started = 0;
		for (unsigned i = 1; i < nthreads; i++)
			if (pthread_create(&workers[i].thread, NULL, work, &workers[i]) == 0)
				started = i;
			else
				break;
		work(&workers[0]);
		for (unsigned i = 1; i <= started; i++)
			pthread_join(workers[i].thread, NULL);
	} else {
		snprintf(error, ZC_EMU_ERROR_SIZE, "out of memory for %llu waves",
		         (unsigned long long)(items + 31) / 32);
		l.failed = true;
	}
	uint64_t executed = 0, cycles = 0;
	for (unsigned i = 0; workers && i < nthreads; i++) {
		executed += workers[i].executed;
		cycles += workers[i].cycles;
		free_worker(&workers[i]);
	}
	__atomic_fetch_add(&executed_total, executed, __ATOMIC_RELAXED);
	__atomic_fetch_add(&cycles_total, cycles, __ATOMIC_RELAXED);
	free(workers);
	if (l.trace)
		fclose(l.trace);
	zc_emu_unmap(l.kernarg);
	zc_emu_unmap(l.packet);
	free(l.kernarg);
	free(l.packet);
	if (!l.failed)
		return ZC_EMU_OK;
	return !ok ? ZC_EMU_INVALID_VALUE : l.memory_fault ? ZC_EMU_MEMORY_FAULT : ZC_EMU_LAUNCH_FAILED;
}
