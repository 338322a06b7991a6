/* What the execution test's image and the test program agree on: the PTX text and the
 * fatbin container the module is keyed by (the test loads it through each), and the
 * kernel table of exec_kernels.c as the PTX lowering would describe it. */
#ifndef ZC_EXEC_MODULE_H
#define ZC_EXEC_MODULE_H

#include <stdint.h>

static const char exec_ptx[] = "// the stand-in PTX of exec_kernels.c\n.version 8.0\n";

/* A fatbin container: the 16-byte outer header (magic, version 1, header size 16,
 * fat_size 16) and 16 payload bytes. */
static const uint8_t exec_fatbin[32] __attribute__((aligned(8))) = {
	0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 16, 0, 0, 0, 0, 0, 0, 0,
	'e', 'x', 'e', 'c', '_', 'k', 'e', 'r', 'n', 'e', 'l', 's', 0, 0, 0, 0,
};

#define ZK_LONG_NAME zk_long_name_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
#define ZK_STRINGIFY(x) #x
#define ZK_STRING(x) ZK_STRINGIFY(x)
#define ZK_LONG_NAME_STRING ZK_STRING(ZK_LONG_NAME)

struct exec_param {
	uint32_t offset, size;
};

struct exec_kernel {
	const char *name;
	uint32_t static_shared;
	uint32_t dynamic;     /* uses dynamic shared memory */
	uint32_t maxntid;     /* x of .maxntid, 0: none */
	uint32_t nparams;
	struct exec_param params[3];
};

static const struct exec_kernel exec_kernels[] = {
	{ "zk_activemask_groups", 0, 0, 0, 3, { { 0, 8 }, { 8, 8 }, { 16, 8 } } },
	{ "zk_block_sum", 4096, 0, 1024, 2, { { 0, 8 }, { 8, 8 } } },
	{ "zk_coords", 0, 0, 32, 1, { { 0, 8 } } },
	{ "zk_deadlock", 0, 0, 0, 0, { { 0, 0 } } },
	{ "zk_deadlock_fibers", 0, 0, 0, 0, { { 0, 0 } } },
	{ "zk_dynamic", 0, 1, 0, 3, { { 0, 8 }, { 8, 1 }, { 16, 8 } } },
	{ "zk_exit_early", 0, 0, 0, 1, { { 0, 8 } } },
	{ "zk_fault", 0, 0, 0, 1, { { 0, 4 } } },
	{ "zk_fault_once", 0, 0, 0, 1, { { 0, 4 } } },
	/* Longer than any fixed buffer for a kernel's name (C++ templates make such names). */
	{ ZK_LONG_NAME_STRING, 0, 0, 0, 1, { { 0, 8 } } },
	{ "zk_named_barriers", 512, 0, 0, 1, { { 0, 8 } } },
	{ "zk_trap", 0, 0, 0, 1, { { 0, 4 } } },
	{ "zk_warp_ops", 0, 0, 0, 1, { { 0, 8 } } },
};

enum { EXEC_KERNELS = sizeof exec_kernels / sizeof exec_kernels[0] };

#endif
