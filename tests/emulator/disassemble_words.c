/* disassemble_words: random instruction words through the emulator's call of LLVM's
 * disassembler (emu_disassemble, with its guards against the words LLVM 22 crashes on), in
 * child processes, so that a word that kills the process is named rather than lost: what
 * found gfx10's SDWA selectors of 7, which the fuzzer met only as a dead process.
 *
 *   disassemble_words PROCESSOR GENERATION BATCHES SEED
 *
 * Each batch, a child, decodes 100,000 words of 16 random bytes, every other one with the
 * top bits of a VOP3 or VOP3P word (where the encodings are densest); exit status 1, and the
 * bytes, when a child dies. */
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu.h"

enum { WORDS_A_BATCH = 100000 };

static uint64_t next(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static void decode_batch(const char *processor, int generation, uint64_t state, uint8_t *current)
{
	LLVMDisasmContextRef dc = LLVMCreateDisasmCPUFeatures("amdgcn-amd-amdhsa", processor,
	                                                      "+wavefrontsize32", NULL, 0, NULL, NULL);
	char line[512];

	if (!dc)
		_exit(2);
	for (int i = 0; i < WORDS_A_BATCH; i++) {
		uint8_t word[16];
		for (int k = 0; k < 16; k += 8) {
			uint64_t x = next(&state);
			memcpy(word + k, &x, 8);
		}
		if (i & 1)
			word[3] = (uint8_t)((word[3] & 0x03) | (next(&state) & 1 ? 0xd4 : 0xcc));
		memcpy(current, word, sizeof word);
		emu_disassemble(dc, word, 4 + next(&state) % 13, 0x1000, generation, line, sizeof line);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fputs("usage: disassemble_words PROCESSOR GENERATION BATCHES SEED\n", stderr);
		return 2;
	}
	int generation = atoi(argv[2]);
	long batches = atol(argv[3]);
	uint64_t seed = strtoull(argv[4], NULL, 0) | 1;
	uint8_t *current = mmap(NULL, 16, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int failed = 0;

	if (current == MAP_FAILED)
		return 2;
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUDisassembler();
	for (long b = 0; b < batches; b++) {
		uint64_t state = seed ^ (uint64_t)(b + 1) * 0x9e3779b97f4a7c15ull;
		pid_t pid = fork();
		int status = 0;

		if (pid == 0)
			decode_batch(argv[1], generation, state ? state : 1, current);
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			return 2;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		printf("%s: the disassembler died (status 0x%x) on", argv[1], (unsigned)status);
		for (int k = 0; k < 16; k++)
			printf(" %02x", current[k]);
		printf("\n");
		failed = 1;
	}
	return failed;
}
