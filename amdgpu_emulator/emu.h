/* The emulator's internal interfaces: the loaded code object, the decoded instruction table,
 * the state of a wave and of a workgroup, and the helpers every instruction family uses. */
#ifndef ZC_EMU_H
#define ZC_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "emulator.h"

enum { LANES = 32 };

/* A handler whose loops over the lanes carry the emulator's time is compiled twice, for the
 * baseline and for x86-64-v3 (AVX2, FMA), the one the processor runs chosen as the library
 * loads. Both compute the same: nothing is contracted (-ffp-contract=off). GCC only: clang
 * 22 crashes on clones of static functions (the fuzz harnesses build these files with it). */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(ZC_EMU_BASELINE_ONLY)
#define LANE_LOOPS __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define LANE_LOOPS
#endif

/* Scalar operands as the hardware numbers them; the scalar file is indexed by these. */
enum {
	SREG_VCC_LO = 106,
	SREG_VCC_HI = 107,
	SREG_TTMP0 = 108,
	SREG_M0 = 124,
	SREG_NULL = 125,
	SREG_EXEC_LO = 126,
	SREG_EXEC_HI = 127,
	SREG_COUNT = 128,
};

/* Apertures of flat addresses: an address whose high half is one of these is LDS or the
 * lane's scratch; any other is global memory. Both lie above the host's user addresses. */
#define SHARED_APERTURE 0x0001000000000000ull
#define PRIVATE_APERTURE 0x0002000000000000ull
#define APERTURE_SIZE 0x0000000100000000ull
/* gfx10's scratch is reached through a buffer resource, whose base has 48 bits: the
 * resource the launch hands a kernel starts here, above the host's user addresses too. */
#define BUFFER_SCRATCH 0x0000800000000000ull

enum operand_kind {
	OPND_NONE,
	OPND_SGPR,     /* reg: scalar encoding; count dwords */
	OPND_VGPR,     /* reg: VGPR number; count dwords; half: 1 = .h of true16 */
	OPND_CONST,    /* inline constant or literal: bits for each width */
	OPND_SPECIAL,  /* src_scc, src_execz, src_vccz, apertures: reg is the encoding */
	OPND_OFF,      /* "off": no address register */
};

struct operand {
	uint8_t kind;
	uint8_t count;
	uint8_t neg, abs, half, sext;
	uint8_t literal;     /* a 32-bit literal rather than an inline constant */
	uint16_t reg;
	uint16_t c16;
	uint32_t c32;
	uint64_t c64;        /* integer views: sign-extended inline constant, literal as printed */
	uint64_t c64f;       /* f64 view: a 32-bit literal is the high half */
};

struct wave;
struct insn;
typedef void (*exec_fn)(struct wave *w, const struct insn *in);

enum { MAX_OPERANDS = 6 };

struct insn {
	exec_fn exec;
	uint32_t op;               /* selects among the operations one handler implements */
	uint32_t address;          /* offset in the code object */
	uint32_t target;           /* branches: index of the target instruction */
	uint8_t length;
	uint8_t nopnd;
	uint16_t cost;             /* issue cycles for the cycle estimate (cost.c) */
	uint8_t clamp, omod;       /* omod: 0 none, 1 *2, 2 *4, 3 /2 */
	uint8_t op_sel, op_sel_hi, neg_lo, neg_hi;  /* bit i: operand i (bit 3: destination) */
#define OP_SEL_HI_GIVEN 0x80                    /* op_sel_hi was printed: not its default */
	uint8_t glc, offen, idxen, gds;
	uint8_t dpp;               /* 0 none, 1 dpp16, 2 dpp8 */
	uint8_t sdwa;              /* gfx10's sub-dword addressing: the selections below */
	uint8_t src_sel[2], dst_sel, dst_unused;
	uint8_t row_mask, bank_mask, bound_ctrl, fi;
	uint16_t dpp_ctrl;
	uint32_t dpp8;             /* 3 bits per lane of each group of 8 */
	int32_t offset;            /* memory offset, s_* immediate, hwreg/sendmsg fields */
	uint8_t offset0, offset1;  /* ds *2addr */
	uint16_t hw_id, hw_offset, hw_size;
	struct operand o[MAX_OPERANDS];
	const struct insn *pair;   /* VOPD: the second operation */
	exec_fn first;             /* VOPD: the first operation's handler (exec runs both) */
	const char *text;          /* as LLVM prints it, for messages */
};

struct kernel_arg {
	uint32_t offset, size;
	char kind[32];              /* the metadata's .value_kind */
};

struct zc_emu_kernel {
	const struct zc_emu_object *object;
	char *name;
	uint32_t entry;             /* instruction index of the entry */
	uint32_t group_segment_size, private_segment_size, kernarg_size;
	uint32_t rsrc1, rsrc2, rsrc3;
	uint16_t code_properties;
	uint32_t max_flat_workgroup_size;
	struct kernel_arg *args;
	uint32_t nargs;
	bool dynamic_stack;
};

struct symbol {
	char *name;
	uint64_t value, size;
	bool is_function;
};

struct zc_emu_object {
	int generation;             /* 10, 11, 12 */
	char processor[32];
	uint8_t *memory;            /* the loaded segments */
	uint64_t memory_size;
	struct symbol *symbols;
	uint32_t nsymbols;
	struct zc_emu_kernel *kernels;
	uint32_t nkernels;
	struct insn *code;          /* decoded instructions, in address order */
	uint32_t ncode;
	uint64_t text_start;        /* the address of code[0] */
	uint32_t *index_of;         /* (address - text_start) / 4 -> instruction, or UINT32_MAX */
	uint64_t index_size;
	char *texts;                /* every instruction's text */
};

enum wave_state { WAVE_RUNNING, WAVE_BARRIER, WAVE_ENDED, WAVE_FAULTED };

struct workgroup;
struct launch;

struct wave {
	uint32_t s[SREG_COUNT];
	uint32_t scc;
	uint32_t mode;              /* the MODE register: rounding and denormal modes */
	uint32_t trapsts;
	uint32_t pc;                /* index of the next instruction */
	uint32_t (*v)[LANES];       /* v[register][lane] */
	enum wave_state state;
	uint32_t id;                /* wave number in its workgroup */
	uint32_t flat_scratch[2];
	struct workgroup *wg;
	const struct zc_emu_object *object;
	uint64_t executed;
	uint64_t cycles;            /* the issue-cost estimate of what it executed (cost.c) */
	uint8_t *scratch;           /* this wave's lanes' private memory, lane after lane */
	uint32_t scratch_per_lane;
	uint32_t sleep;             /* set: the wave gives up its turn (s_sleep) */
};

struct workgroup {
	const struct zc_emu_kernel *kernel;
	const struct zc_emu_dispatch *dispatch;
	uint32_t id[3];
	uint8_t *lds;
	uint32_t lds_size;
	struct wave *waves;
	uint32_t nwaves;
	char *error;                 /* where a fault is described; NULL when none */
	bool failed;
	bool memory_fault;           /* what failed it was an access outside registered memory */
	void *kernarg;               /* the kernarg segment: explicit, then implicit arguments */
	void *dispatch_packet;
	const struct launch *launch;
};

/* Decoding (decode.c, operands.c). */
/* One instruction's text from LLVM's disassembler (an LLVMDisasmContextRef) at BYTES, LEFT bytes before the
 * code's end, with the guards its faults need; its length, 0 for a word that is no
 * instruction. */
size_t emu_disassemble(void *disassembler, const uint8_t *bytes, size_t left, uint64_t pc,
                       int generation, char *line, size_t size);
enum zc_emu_status emu_decode(struct zc_emu_object *o, uint64_t text_start, uint64_t text_size,
                              char *error);
int emu_parse_operand(const char *text, struct operand *out, int generation);

/* The cycle estimate (cost.c): issue cycles of one wave32 instruction, from its text. */
uint16_t emu_issue_cost(const char *text, int generation);

/* Instruction lookup: the handler and selector of a mnemonic (exec_*.c register theirs). */
struct opcode {
	const char *name;
	exec_fn exec;
	uint32_t op;
};
extern const struct opcode emu_scalar_opcodes[], emu_vector_opcodes[], emu_float_opcodes[],
	emu_memory_opcodes[], emu_matrix_opcodes[];
bool emu_find_opcode(const char *name, struct opcode *out);
/* NAME without its encoding suffix (_e32, _e64, _dpp, _dpp8, _sdwa and the DPP forms of
 * _e32/_e64); whether it was _sdwa. */
bool emu_strip_encoding_suffix(char *name);
/* Whether an instruction of MNEMONIC, as LLVM's disassembler prints it (any generation's
 * spelling, any encoding suffix, either half of a VOPD), has a handler. */
bool emu_mnemonic_emulated(const char *mnemonic);
/* False for a matrix instruction (exec_matrix.c) the generation does not have, or with
 * register ranges other than wave32's; true for any other instruction. */
bool emu_matrix_form_known(const struct insn *in, int generation);
/* v_cmp_COND_TYPE, v_cmpx_COND_TYPE and v_cmp_class_TYPE, parsed rather than listed. */
bool emu_compare_opcode(const char *name, struct opcode *out);

/* The function symbol holding an address, for messages. */
const struct symbol *emu_symbol_at(const struct zc_emu_object *o, uint64_t address);
/* The index in code[] of the instruction at ADDRESS (an offset into the loaded segments),
 * or UINT32_MAX where none starts there. */
uint32_t emu_instruction_at(const struct zc_emu_object *o, uint64_t address);

/* Ending a launch: every wave of the workgroup stops; the message names the instruction. */
void emu_fault(struct wave *w, const struct insn *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for an access outside registered memory: the launch fails as ZC_EMU_MEMORY_FAULT. */
void emu_memory_fault(struct wave *w, const struct insn *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void emu_not_emulated(struct wave *w, const struct insn *in);
/* SDWA (gfx10): the sources' selected bytes or words in, the result into a part of the
 * destination. */
void emu_sdwa(struct wave *w, const struct insn *in);
enum { SDWA_DWORD = 6, SDWA_REGISTERS = 4 };
/* A VOPD pair: both operations read their sources before either writes. */
void emu_vopd(struct wave *w, const struct insn *in);

/* Reading and writing operands (operands.c). Vector reads give all 32 lanes. */
uint32_t sget32(const struct wave *w, const struct operand *o);
uint64_t sget64(const struct wave *w, const struct operand *o);
void sset32(struct wave *w, const struct operand *o, uint32_t value);
void sset64(struct wave *w, const struct operand *o, uint64_t value);
void vget64f(const struct wave *w, const struct operand *o, uint64_t out[LANES]);
void vget16(const struct wave *w, const struct operand *o, int high, uint16_t out[LANES]);
void vset16(struct wave *w, const struct operand *o, int high, const uint16_t in[LANES],
            uint32_t mask);
/* A 32-bit vector operand's lanes without a copy: the register itself, or SPARE holding a
 * scalar operand's value in every lane. */
static inline const uint32_t *vlanes32(const struct wave *w, const struct operand *o,
                                       uint32_t spare[LANES])
{
	if (o->kind == OPND_VGPR)
		return w->v[o->reg];
	uint32_t x = sget32(w, o);
	for (int l = 0; l < LANES; l++)
		spare[l] = x;
	return spare;
}

/* Inline, since nearly every vector instruction reads and writes 32-bit registers. */
static inline void vget32(const struct wave *w, const struct operand *o, uint32_t out[LANES])
{
	const uint32_t *lanes = vlanes32(w, o, out);
	if (lanes != out)
		memcpy(out, lanes, LANES * 4);
}

static inline void vset32(struct wave *w, const struct operand *o, const uint32_t in[LANES],
                          uint32_t mask)
{
	if (o->kind != OPND_VGPR)
		return;
	uint32_t *d = w->v[o->reg];
	if (mask == ~0u) {
		memcpy(d, in, LANES * 4);
		return;
	}
	for (int l = 0; l < LANES; l++)
		d[l] = mask >> l & 1 ? in[l] : d[l];
}

static inline void vget64(const struct wave *w, const struct operand *o, uint64_t out[LANES])
{
	if (o->kind == OPND_VGPR) {
		const uint32_t *lo = w->v[o->reg], *hi = w->v[(o->reg + 1) & 255];
		for (int l = 0; l < LANES; l++)
			out[l] = lo[l] | (uint64_t)hi[l] << 32;
		return;
	}
	uint64_t x = sget64(w, o);
	for (int l = 0; l < LANES; l++)
		out[l] = x;
}

static inline void vset64(struct wave *w, const struct operand *o, const uint64_t in[LANES],
                          uint32_t mask)
{
	if (o->kind != OPND_VGPR)
		return;
	uint32_t *lo = w->v[o->reg], *hi = w->v[(o->reg + 1) & 255];
	for (int l = 0; l < LANES; l++) {
		lo[l] = mask >> l & 1 ? (uint32_t)in[l] : lo[l];
		hi[l] = mask >> l & 1 ? (uint32_t)(in[l] >> 32) : hi[l];
	}
}

/* A lane-mask destination: an SGPR (or vcc) in wave32. */
void mask_set(struct wave *w, const struct operand *o, uint32_t value);
uint32_t mask_get(const struct wave *w, const struct operand *o);
/* DPP: permutes a source read for lanes; returns the lanes that may be written. */
uint32_t dpp_apply(const struct wave *w, const struct insn *in, uint32_t src[LANES]);

/* Source O of a vector instruction, through DPP where the instruction has it: the lanes
 * in place, or SPARE holding a copy DPP has moved; *MASK narrowed to the lanes DPP lets
 * the result reach. */
static inline const uint32_t *vlanes32_dpp(const struct wave *w, const struct insn *in,
                                           const struct operand *o, uint32_t spare[LANES],
                                           uint32_t *mask)
{
	if (!in->dpp)
		return vlanes32(w, o, spare);
	vget32(w, o, spare);
	*mask &= dpp_apply(w, in, spare);
	return spare;
}

/* The same, copied into OUT. */
static inline void vget32_dpp(const struct wave *w, const struct insn *in,
                              const struct operand *o, uint32_t out[LANES], uint32_t *mask)
{
	vget32(w, o, out);
	if (in->dpp)
		*mask &= dpp_apply(w, in, out);
}

static inline uint32_t bit_reverse32(uint32_t x)
{
	x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
	x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
	x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
	return __builtin_bswap32(x);
}

static inline uint64_t bit_reverse64(uint64_t x)
{
	return (uint64_t)bit_reverse32((uint32_t)x) << 32 | bit_reverse32((uint32_t)(x >> 32));
}

static inline uint32_t exec_mask(const struct wave *w) { return w->s[SREG_EXEC_LO]; }

/* Memory (memory.c, exec_memory.c). */
bool emu_mapped(uint64_t address, uint64_t size);
void emu_count(uint64_t instructions);

/* The launch (dispatch.c): gives up the wave's turn (barriers, sleeps). */
void emu_barrier(struct wave *w);

#endif
