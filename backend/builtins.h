/* The builtin interface: the only target-specific calls the PTX lowering emits.
 *
 * Every target implements these functions in C (amdgpu_backend/builtins/,
 * host_backend/builtins/); the build compiles them to bitcode once per target and the
 * backend links that bitcode into each module before optimisation, so after inlining
 * a builtin costs what its body costs.
 *
 * Conventions, fixed so that the IR the frontend emits is the same for every target:
 * - Only 32- and 64-bit integers and f32 cross the interface (no structs, no i1), so the
 *   C calling convention maps them to the same IR types on amdgcn and x86-64:
 *   uint32_t -> i32, uint64_t -> i64, float -> float.
 * - A predicate argument is an i32 that is 0 or not 0; a predicate result is 0 or 1.
 * - Calls that yield a value and a predicate (shfl, match.all) return a uint64_t:
 *   bits 0..31 hold the value, bit 32 the predicate. Unpack with trunc / lshr 32.
 * - Warp-level calls take the PTX membermask first. Lanes of the mask must be active and
 *   must all make the call: the precondition CUDA documents. On AMDGPU a wave executes
 *   its lanes in lockstep, so lanes of one warp that diverge into different calls do not
 *   meet (no independent thread scheduling).
 * - Barrier ids and thread counts (bar.sync a{, b}) are passed through; the AMDGPU
 *   implementation has one workgroup barrier and ignores both, so named barriers that
 *   only part of a block reaches are not supported there.
 *
 * All names start with __zc_: the backend internalises every function with that prefix
 * after linking, so unused ones disappear and none is exported from a code object.
 */
#ifndef ZC_BUILTINS_H
#define ZC_BUILTINS_H

#include <stdint.h>

/* Special registers: %tid, %ntid, %ctaid, %nctaid per dimension. */
uint32_t __zc_tid_x(void);
uint32_t __zc_tid_y(void);
uint32_t __zc_tid_z(void);
uint32_t __zc_ntid_x(void);
uint32_t __zc_ntid_y(void);
uint32_t __zc_ntid_z(void);
uint32_t __zc_ctaid_x(void);
uint32_t __zc_ctaid_y(void);
uint32_t __zc_ctaid_z(void);
uint32_t __zc_nctaid_x(void);
uint32_t __zc_nctaid_y(void);
uint32_t __zc_nctaid_z(void);

/* %laneid and %warpid count from the linear thread id (x fastest), 32 lanes a warp. */
uint32_t __zc_laneid(void);
uint32_t __zc_warpid(void);
uint32_t __zc_nwarpid(void);
uint32_t __zc_lanemask_eq(void);
uint32_t __zc_lanemask_lt(void);
uint32_t __zc_lanemask_le(void);
uint32_t __zc_lanemask_gt(void);
uint32_t __zc_lanemask_ge(void);

/* Dynamic shared memory (extern .shared arrays): its size in bytes for this launch, and
 * its start as a generic pointer. The lowering addresses every extern .shared array from
 * __zc_dynamic_smem(), because only the target knows where the launch placed it. */
uint32_t __zc_dynamic_smem_size(void);
void *__zc_dynamic_smem(void);

/* The base of the block's shared memory, for targets whose lowering places shared
 * variables at offsets (only the host: ptx_target.shared_as_offsets; AMDGPU shared
 * variables are LDS globals and have no such builtin). %total_smem_size: static
 * plus dynamic shared memory of the block. */
void *__zc_shared_base(void);
uint32_t __zc_total_smem_size(void);
/* isspacep.shared, .local and .param: whether a generic address lies in the block's shared
 * memory, the thread's local memory or the launch's kernel parameters. */
uint32_t __zc_is_shared(uint64_t address);
uint32_t __zc_is_local(uint64_t address);
uint32_t __zc_is_param(uint64_t address);
/* %smid, %nsmid, %gridid: informational in PTX (any value in range is valid). */
uint32_t __zc_smid(void);
uint32_t __zc_nsmid(void);
uint64_t __zc_gridid(void);
/* bar.sync / barrier.sync a{, b}: count 0 means every thread of the block. bar.arrive
 * counts the thread without waiting (AMDGPU before gfx12 has no split barrier: there it
 * waits like bar.sync, which is correct where every thread also syncs later). */
void __zc_bar_sync(uint32_t id, uint32_t count);
void __zc_bar_arrive(uint32_t id, uint32_t count);
/* bar.red.{popc,and,or} a{, b}, p: a barrier that also reduces p over the block. */
uint32_t __zc_bar_red_popc(uint32_t id, uint32_t count, uint32_t pred);
uint32_t __zc_bar_red_and(uint32_t id, uint32_t count, uint32_t pred);
uint32_t __zc_bar_red_or(uint32_t id, uint32_t count, uint32_t pred);
/* A kernel's first code where the unit reads %reserved_smem_offset_*: zeroes the block's
 * reserved shared memory, `words` 32-bit words at region (a generic pointer), then
 * synchronises the block. */
void __zc_reserved_smem_zero(uint32_t *region, uint32_t words);
/* cp.async of cp_size bytes whose first src_size come from src and the rest are zeros
 * (generic pointers). */
void __zc_cp_async(uint8_t *dst, const uint8_t *src, uint32_t cp_size, uint32_t src_size);
/* The mbarrier object at a generic pointer into shared memory (builtins_async.c has its
 * layout). arrive does `arrivals` arrive-ons, lowers the expected count by `dropped` and
 * adds `tx` (two's complement) to the transaction count, and returns the state token;
 * expect_tx and complete_tx are arrive with only tx. test_wait: 1 when the phase of the
 * token (or of the parity) is complete. */
void __zc_mbarrier_init(uint64_t *barrier, uint32_t count);
void __zc_mbarrier_inval(uint64_t *barrier);
uint64_t __zc_mbarrier_arrive(uint64_t *barrier, uint32_t arrivals, uint32_t dropped, uint32_t tx);
uint32_t __zc_mbarrier_test_wait(uint64_t *barrier, uint64_t token);
uint32_t __zc_mbarrier_test_wait_parity(uint64_t *barrier, uint32_t parity);
uint32_t __zc_mbarrier_pending_count(uint64_t token);
/* bar.warp.sync membermask. */
void __zc_bar_warp_sync(uint32_t mask);

/* shfl.sync.{idx,up,down,bfly}.b32 d|p, value, b, c, mask: PTX's operands, with c
 * packing the clamp (bits 0..4) and the segment mask (bits 8..12). Returns value | p<<32. */
uint64_t __zc_shfl_sync_idx(uint32_t mask, uint32_t value, uint32_t b, uint32_t c);
uint64_t __zc_shfl_sync_up(uint32_t mask, uint32_t value, uint32_t b, uint32_t c);
uint64_t __zc_shfl_sync_down(uint32_t mask, uint32_t value, uint32_t b, uint32_t c);
uint64_t __zc_shfl_sync_bfly(uint32_t mask, uint32_t value, uint32_t b, uint32_t c);

/* vote.sync.{all,any,uni}.pred and vote.sync.ballot.b32 over the lanes of mask. */
uint32_t __zc_vote_sync_all(uint32_t mask, uint32_t pred);
uint32_t __zc_vote_sync_any(uint32_t mask, uint32_t pred);
uint32_t __zc_vote_sync_uni(uint32_t mask, uint32_t pred);
uint32_t __zc_vote_sync_ballot(uint32_t mask, uint32_t pred);

/* match.any.sync: the lanes of mask holding the same value as this lane.
 * match.all.sync: mask if every lane of mask holds the same value, else 0; the
 * predicate (bit 32) says which. */
uint32_t __zc_match_any_sync_b32(uint32_t mask, uint32_t value);
uint32_t __zc_match_any_sync_b64(uint32_t mask, uint64_t value);
uint64_t __zc_match_all_sync_b32(uint32_t mask, uint32_t value);
uint64_t __zc_match_all_sync_b64(uint32_t mask, uint64_t value);

/* redux.sync over the lanes of mask. */
uint32_t __zc_redux_sync_add(uint32_t mask, uint32_t value);
uint32_t __zc_redux_sync_min_u32(uint32_t mask, uint32_t value);
uint32_t __zc_redux_sync_max_u32(uint32_t mask, uint32_t value);
int32_t __zc_redux_sync_min_s32(uint32_t mask, int32_t value);
int32_t __zc_redux_sync_max_s32(uint32_t mask, int32_t value);
uint32_t __zc_redux_sync_and(uint32_t mask, uint32_t value);
uint32_t __zc_redux_sync_or(uint32_t mask, uint32_t value);
uint32_t __zc_redux_sync_xor(uint32_t mask, uint32_t value);

/* atom.exch.b128 and atom.cas.b128 (is_cas) on the 16 bytes at address: writes the old
 * value to the 16 bytes at `old` (a generic address), lo 64 bits first. No AMD GPU has
 * 128-bit atomics: there the operations of one code object serialize on a lock that the
 * address picks, which makes them atomic among themselves but not against other accesses
 * (ld.b128 included) or against another module's. */
void __zc_atom_b128(uint64_t address, uint64_t compare_lo, uint64_t compare_hi, uint64_t value_lo,
                    uint64_t value_hi, uint32_t is_cas, uint64_t old);

/* activemask.b32: the lanes of the warp executing it together. On the host target it is a
 * convergence point: the lanes of a warp that reach one activemask meet there. */
uint32_t __zc_activemask(void);

/* %clock, %clock64: a per-thread cycle counter. %globaltimer: nanoseconds.
 * nanosleep.u32 t: suspends for about t ns, at most 1 ms (PTX's bound). */
uint32_t __zc_clock(void);
uint64_t __zc_clock64(void);
uint64_t __zc_globaltimer(void);
void __zc_nanosleep(uint32_t ns);
/* Before a load that is relaxed or acquire, and before atom: such an access may be a spin
 * loop's, waiting for another thread of the block. On the host target, where a block's
 * threads take turns on one OS thread, it lets the others run first now and then; on GPUs,
 * where they run together, it is nothing. */
void __zc_spin_point(void);
/* Before every volatile load and store and every .shared one: on the host target every other
 * runnable thread of the block makes its next such access before this one makes its own, so
 * that a warp's lanes take each step together, as on a GPU. Warp-synchronous code written
 * before __syncwarp counts on that (scans and reductions through volatile shared memory,
 * butterflies that read and write plain shared memory in one step), as do spin loops on
 * volatile flags. It costs shared-memory-heavy host code about half again its time
 * (Thrust's sorts). Nothing on GPUs. */
void __zc_lockstep_point(void);

/* The .approx instructions, with PTX's error bounds (sin/cos take radians). */
float __zc_sin_approx_f32(float x);
float __zc_cos_approx_f32(float x);
float __zc_lg2_approx_f32(float x);
float __zc_ex2_approx_f32(float x);
float __zc_rcp_approx_f32(float x);
float __zc_rsqrt_approx_f32(float x);
float __zc_sqrt_approx_f32(float x);
float __zc_tanh_approx_f32(float x);

double __zc_rcp_approx_f64(double x);
double __zc_rsqrt_approx_f64(double x);

/* Directed rounding (rz: toward zero, rm: down, rp: up) by the processor's rounding mode,
 * where it can set one for a single instruction (ptx_target.rounds_by_mode; called only
 * there, the others build it from round to nearest: ptx_frontend/lower_rounding.c). The
 * float from a signed or unsigned 32-bit integer, and from a double. */
#define ZC_DIRECTED_BUILTINS(mode) \
	float __zc_add_##mode##_f32(float a, float b); \
	float __zc_mul_##mode##_f32(float a, float b); \
	float __zc_fma_##mode##_f32(float a, float b, float c); \
	double __zc_add_##mode##_f64(double a, double b); \
	double __zc_mul_##mode##_f64(double a, double b); \
	double __zc_fma_##mode##_f64(double a, double b, double c); \
	float __zc_cvt_##mode##_f32_s32(int32_t v); \
	float __zc_cvt_##mode##_f32_u32(uint32_t v); \
	float __zc_cvt_##mode##_f32_f64(double v);
ZC_DIRECTED_BUILTINS(rz)
ZC_DIRECTED_BUILTINS(rm)
ZC_DIRECTED_BUILTINS(rp)
/* fns.b32: the position of the offset-th set bit of mask from base (offset > 0 upwards,
 * < 0 downwards, 0: base itself), or 0xffffffff; a base above 31 finds nothing. */
uint32_t __zc_fns(uint32_t mask, uint32_t base, int32_t offset);

/* The narrow float formats (format 0: e4m3, 1: e5m2, 2: e2m3, 3: e3m2, 4: e2m1): f32 to the
 * format (.rn.satfinite, with .relu when relu is not 0) as the code in its low bits, sign
 * at the top, and a code to f16 bits (exact). ue8m0 (2^(code-127)) from bf16 bits or f32,
 * .rz or .rp (round_up), with or without .satfinite, and to bf16 bits. */
uint32_t __zc_cvt_narrow_from_f32(float x, uint32_t format, uint32_t relu);
uint32_t __zc_cvt_f16_from_narrow(uint32_t code, uint32_t format);
uint32_t __zc_cvt_ue8m0_from_bf16(uint32_t bits, uint32_t round_up, uint32_t satfinite);
uint32_t __zc_cvt_ue8m0_from_f32(float x, uint32_t round_up, uint32_t satfinite);
uint32_t __zc_cvt_bf16_from_ue8m0(uint32_t code);
/* Correctly rounded (round to nearest even) division, square root and reciprocal. */
float __zc_div_rn_f32(float a, float b);
float __zc_sqrt_rn_f32(float x);
float __zc_rcp_rn_f32(float x);

/* vprintf and __assertfail, the CUDA runtime functions nvcc's PTX calls (the lowering
 * renames them): pointers arrive as the 64-bit integers the PTX passes. On the host target
 * they call the driver; on AMDGPU they write records for the stub (device_output.h). */
int32_t __zc_vprintf(uint64_t format, uint64_t args);
_Noreturn void __zc_assertfail(uint64_t expression, uint64_t file, uint32_t line,
                               uint64_t function, uint64_t char_size);
/* malloc and free of device code (the lowering renames them too): the C library's on the
 * host target; on AMDGPU a heap the stub provides (device_heap.h). */
uint64_t __zc_malloc(uint64_t bytes);
void __zc_free(uint64_t pointer);
/* Texture and surface objects (texture.h): the handle is the descriptor's device address;
 * four 32-bit words of result (floats or integers, as the texture returns them) go to out.
 * tex_sample: float coordinates (the unused ones 0; a cube map's direction) of a layer
 * (layered textures); the address modes, filters and normalization of the texture; level
 * of detail 0, or (tex.level) lod, or (tex.grad) from the gradients; (ox, oy, oz) the
 * instruction's offset in texels (0 without one). tex_fetch: integer coordinates,
 * no filtering (linear memory: zeros outside). tex_gather: tld4's component of the four
 * texels of the bilinear footprint. tex_query: txq (enum zc_texture_query); tex_query_level:
 * txq.level's width, height or depth of a mipmap level. surf_load and surf_store: `bytes`
 * bytes at byte x of row y, slice z, layer, to or from out/data, with suld's and sust's
 * out-of-range mode (enum zc_surface_mode); surf_store_formatted: sust.p's `count` words at
 * sample x; surf_reduce: sured (enum zc_surface_reduction, enum zc_reduction_type). */
void __zc_tex_sample(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                     uint32_t *out);
void __zc_tex_sample_lod(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                         float lod, uint32_t *out);
void __zc_tex_sample_grad(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                          float dxx, float dxy, float dxz, float dyx, float dyy, float dyz, uint32_t *out);
void __zc_tex_fetch(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                    uint32_t *out);
void __zc_tex_gather(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy,
                     uint32_t component, uint32_t *out);
uint32_t __zc_tex_query(uint64_t handle, uint32_t query);
uint32_t __zc_tex_query_level(uint64_t handle, uint32_t query, int32_t level);
void __zc_surf_load(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t bytes,
                    uint32_t mode, uint8_t *out);
void __zc_surf_store(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t bytes,
                     uint32_t mode, const uint8_t *data);
void __zc_surf_store_formatted(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t mode,
                               uint32_t count, const uint32_t *words);
void __zc_surf_reduce(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t mode, uint32_t op,
                      uint32_t type, uint64_t value);
/* mma's 8- and 4-bit integer products a register at a time: c plus the products of a's
 * and b's fields of `bits` bits, each signed where `signs` says (1: a's, 2: b's), wrapping. */
int32_t __zc_dot(uint32_t a, uint32_t b, int32_t c, uint32_t signs, uint32_t bits);
/* wmma on processors with matrix instructions (matrix.h; called only there), for the form
 * (enum zc_wmma_form). wmma_element: which element of the 16x16 matrix (enum
 * zc_wmma_matrix; by rows, B by columns) slot `slot` of a lane's fragment holds. wmma_mma:
 * D = A B + C, the fragments' words in words[0..7] (A), [8..15] (B) and [16..23] (C, f32 or
 * s32), D replacing C. */
uint32_t __zc_wmma_element(uint32_t form, uint32_t matrix, uint32_t lane, uint32_t slot);
void __zc_wmma_mma(uint32_t form, uint32_t *words);
/* mma.sync's m16n8k16 (ZC_WMMA_F16, ZC_WMMA_BF16) and m16n8k32 (ZC_WMMA_S8, ZC_WMMA_U8) on
 * those processors: words[0..3] A's registers, [4..5] B's, [6..9] C's (as f32 or s32), in
 * PTX's layouts; into words[10..13] as D's registers hold it: the product A B alone
 * (mma_m16n8, by shuffles), or A B + C (mma_m16n8_staged, through shared memory: only in
 * kernels of at most 256 threads). */
void __zc_mma_m16n8(uint32_t form, uint32_t *words);
void __zc_mma_m16n8_staged(uint32_t form, uint32_t *words);
/* wgmma's dense m64nNk16 of f16 or bf16 (ZC_WMMA_F16, ZC_WMMA_BF16) on those processors, one
 * 16x16 tile of the warp's 16 rows: words[0..7] this lane's line of A (row lane % 16: its 16
 * elements, k order, two a word), [8..15] of B (column lane % 16); the product A B into
 * words[16..23] as the warp's D registers hold it: 4 half + 2r + j for row g + 8r, column
 * 8 half + 2t + j of the tile. */
void __zc_wgmma_tile(uint32_t form, uint32_t *words);
/* The same, the layouts exchanged through shared memory (kernels of at most 256 threads). */
void __zc_wgmma_tile_staged(uint32_t form, uint32_t *words);

/* trap: ends the launch with an error. exit: ends this thread (AMDGPU: its wave, so
 * only a wave-uniform exit is exact there). */
_Noreturn void __zc_trap(void);
_Noreturn void __zc_exit(void);

#endif
