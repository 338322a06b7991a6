; Every builtin of backend/builtins.h but __zc_trap (trap.ll), called once, so that each
; compiles and links for every target (unused builtins are deleted before code generation
; and would otherwise never be compiled). bar.red keeps one word of LDS on AMDGPU, padded
; to 16 bytes: the alignment of the dynamic shared memory that follows. %nctaid reads the
; implicit arguments' block counts: 256 bytes after the 20 of the parameters, 8-aligned.
; CHECK-KERNEL: all_builtins kernarg=280 group=16

declare i32 @__zc_tid_x()
declare i32 @__zc_tid_y()
declare i32 @__zc_tid_z()
declare i32 @__zc_ntid_x()
declare i32 @__zc_ntid_y()
declare i32 @__zc_ntid_z()
declare i32 @__zc_ctaid_x()
declare i32 @__zc_ctaid_y()
declare i32 @__zc_ctaid_z()
declare i32 @__zc_nctaid_x()
declare i32 @__zc_nctaid_y()
declare i32 @__zc_nctaid_z()
declare i32 @__zc_laneid()
declare i32 @__zc_warpid()
declare i32 @__zc_nwarpid()
declare i32 @__zc_lanemask_eq()
declare i32 @__zc_lanemask_lt()
declare i32 @__zc_lanemask_le()
declare i32 @__zc_lanemask_gt()
declare i32 @__zc_lanemask_ge()
declare i32 @__zc_dynamic_smem_size()
declare i32 @__zc_activemask()
declare i32 @__zc_clock()
declare i64 @__zc_clock64()
declare i64 @__zc_globaltimer()
declare ptr @__zc_dynamic_smem()
declare void @__zc_bar_sync(i32, i32)
declare void @__zc_bar_warp_sync(i32)
declare void @__zc_nanosleep(i32)
declare i32 @__zc_bar_red_popc(i32, i32, i32)
declare i32 @__zc_bar_red_and(i32, i32, i32)
declare i32 @__zc_bar_red_or(i32, i32, i32)
declare i64 @__zc_shfl_sync_idx(i32, i32, i32, i32)
declare i64 @__zc_shfl_sync_up(i32, i32, i32, i32)
declare i64 @__zc_shfl_sync_down(i32, i32, i32, i32)
declare i64 @__zc_shfl_sync_bfly(i32, i32, i32, i32)
declare i32 @__zc_vote_sync_all(i32, i32)
declare i32 @__zc_vote_sync_any(i32, i32)
declare i32 @__zc_vote_sync_uni(i32, i32)
declare i32 @__zc_vote_sync_ballot(i32, i32)
declare i32 @__zc_match_any_sync_b32(i32, i32)
declare i64 @__zc_match_all_sync_b32(i32, i32)
declare i32 @__zc_match_any_sync_b64(i32, i64)
declare i64 @__zc_match_all_sync_b64(i32, i64)
declare i32 @__zc_redux_sync_add(i32, i32)
declare i32 @__zc_redux_sync_min_u32(i32, i32)
declare i32 @__zc_redux_sync_max_u32(i32, i32)
declare i32 @__zc_redux_sync_min_s32(i32, i32)
declare i32 @__zc_redux_sync_max_s32(i32, i32)
declare i32 @__zc_redux_sync_and(i32, i32)
declare i32 @__zc_redux_sync_or(i32, i32)
declare i32 @__zc_redux_sync_xor(i32, i32)
declare float @__zc_sin_approx_f32(float)
declare float @__zc_cos_approx_f32(float)
declare float @__zc_lg2_approx_f32(float)
declare float @__zc_ex2_approx_f32(float)
declare float @__zc_rcp_approx_f32(float)
declare float @__zc_rsqrt_approx_f32(float)
declare float @__zc_sqrt_approx_f32(float)
declare float @__zc_tanh_approx_f32(float)
declare float @__zc_div_rn_f32(float, float)
declare float @__zc_sqrt_rn_f32(float)
declare float @__zc_rcp_rn_f32(float)

define void @all_builtins(ptr addrspace(1) %out, i32 %arg, float %x, float %y) #0 {
entry:
  ; Different in every lane, so that no warp operation folds away.
  %lane_tid = call i32 @__zc_tid_x()
  %v = add i32 %arg, %lane_tid
  %v64 = zext i32 %v to i64
  %tid_x = call i32 @__zc_tid_x()
  %p0 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 0
  %w0 = zext i32 %tid_x to i64
  store i64 %w0, ptr addrspace(1) %p0, align 8
  %tid_y = call i32 @__zc_tid_y()
  %p1 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 1
  %w1 = zext i32 %tid_y to i64
  store i64 %w1, ptr addrspace(1) %p1, align 8
  %tid_z = call i32 @__zc_tid_z()
  %p2 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 2
  %w2 = zext i32 %tid_z to i64
  store i64 %w2, ptr addrspace(1) %p2, align 8
  %ntid_x = call i32 @__zc_ntid_x()
  %p3 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 3
  %w3 = zext i32 %ntid_x to i64
  store i64 %w3, ptr addrspace(1) %p3, align 8
  %ntid_y = call i32 @__zc_ntid_y()
  %p4 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 4
  %w4 = zext i32 %ntid_y to i64
  store i64 %w4, ptr addrspace(1) %p4, align 8
  %ntid_z = call i32 @__zc_ntid_z()
  %p5 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 5
  %w5 = zext i32 %ntid_z to i64
  store i64 %w5, ptr addrspace(1) %p5, align 8
  %ctaid_x = call i32 @__zc_ctaid_x()
  %p6 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 6
  %w6 = zext i32 %ctaid_x to i64
  store i64 %w6, ptr addrspace(1) %p6, align 8
  %ctaid_y = call i32 @__zc_ctaid_y()
  %p7 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 7
  %w7 = zext i32 %ctaid_y to i64
  store i64 %w7, ptr addrspace(1) %p7, align 8
  %ctaid_z = call i32 @__zc_ctaid_z()
  %p8 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 8
  %w8 = zext i32 %ctaid_z to i64
  store i64 %w8, ptr addrspace(1) %p8, align 8
  %nctaid_x = call i32 @__zc_nctaid_x()
  %p9 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 9
  %w9 = zext i32 %nctaid_x to i64
  store i64 %w9, ptr addrspace(1) %p9, align 8
  %nctaid_y = call i32 @__zc_nctaid_y()
  %p10 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 10
  %w10 = zext i32 %nctaid_y to i64
  store i64 %w10, ptr addrspace(1) %p10, align 8
  %nctaid_z = call i32 @__zc_nctaid_z()
  %p11 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 11
  %w11 = zext i32 %nctaid_z to i64
  store i64 %w11, ptr addrspace(1) %p11, align 8
  %laneid = call i32 @__zc_laneid()
  %p12 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 12
  %w12 = zext i32 %laneid to i64
  store i64 %w12, ptr addrspace(1) %p12, align 8
  %warpid = call i32 @__zc_warpid()
  %p13 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 13
  %w13 = zext i32 %warpid to i64
  store i64 %w13, ptr addrspace(1) %p13, align 8
  %nwarpid = call i32 @__zc_nwarpid()
  %p14 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 14
  %w14 = zext i32 %nwarpid to i64
  store i64 %w14, ptr addrspace(1) %p14, align 8
  %lanemask_eq = call i32 @__zc_lanemask_eq()
  %p15 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 15
  %w15 = zext i32 %lanemask_eq to i64
  store i64 %w15, ptr addrspace(1) %p15, align 8
  %lanemask_lt = call i32 @__zc_lanemask_lt()
  %p16 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 16
  %w16 = zext i32 %lanemask_lt to i64
  store i64 %w16, ptr addrspace(1) %p16, align 8
  %lanemask_le = call i32 @__zc_lanemask_le()
  %p17 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 17
  %w17 = zext i32 %lanemask_le to i64
  store i64 %w17, ptr addrspace(1) %p17, align 8
  %lanemask_gt = call i32 @__zc_lanemask_gt()
  %p18 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 18
  %w18 = zext i32 %lanemask_gt to i64
  store i64 %w18, ptr addrspace(1) %p18, align 8
  %lanemask_ge = call i32 @__zc_lanemask_ge()
  %p19 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 19
  %w19 = zext i32 %lanemask_ge to i64
  store i64 %w19, ptr addrspace(1) %p19, align 8
  %dynamic_smem_size = call i32 @__zc_dynamic_smem_size()
  %p20 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 20
  %w20 = zext i32 %dynamic_smem_size to i64
  store i64 %w20, ptr addrspace(1) %p20, align 8
  %activemask = call i32 @__zc_activemask()
  %p21 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 21
  %w21 = zext i32 %activemask to i64
  store i64 %w21, ptr addrspace(1) %p21, align 8
  %clock = call i32 @__zc_clock()
  %p22 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 22
  %w22 = zext i32 %clock to i64
  store i64 %w22, ptr addrspace(1) %p22, align 8
  %clock64 = call i64 @__zc_clock64()
  %p23 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 23
  store i64 %clock64, ptr addrspace(1) %p23, align 8
  %globaltimer = call i64 @__zc_globaltimer()
  %p24 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 24
  store i64 %globaltimer, ptr addrspace(1) %p24, align 8
  %dyn = call ptr @__zc_dynamic_smem()
  store i32 %v, ptr %dyn, align 4
  call void @__zc_bar_sync(i32 1, i32 64)
  call void @__zc_bar_warp_sync(i32 -1)
  call void @__zc_nanosleep(i32 %v)
  %red_popc = call i32 @__zc_bar_red_popc(i32 0, i32 0, i32 %v)
  %p25 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 25
  %w25 = zext i32 %red_popc to i64
  store i64 %w25, ptr addrspace(1) %p25, align 8
  %red_and = call i32 @__zc_bar_red_and(i32 0, i32 0, i32 %v)
  %p26 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 26
  %w26 = zext i32 %red_and to i64
  store i64 %w26, ptr addrspace(1) %p26, align 8
  %red_or = call i32 @__zc_bar_red_or(i32 0, i32 0, i32 %v)
  %p27 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 27
  %w27 = zext i32 %red_or to i64
  store i64 %w27, ptr addrspace(1) %p27, align 8
  %shfl_idx = call i64 @__zc_shfl_sync_idx(i32 -1, i32 %v, i32 %v, i32 31)
  %p28 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 28
  store i64 %shfl_idx, ptr addrspace(1) %p28, align 8
  %shfl_up = call i64 @__zc_shfl_sync_up(i32 -1, i32 %v, i32 %v, i32 31)
  %p29 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 29
  store i64 %shfl_up, ptr addrspace(1) %p29, align 8
  %shfl_down = call i64 @__zc_shfl_sync_down(i32 -1, i32 %v, i32 %v, i32 31)
  %p30 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 30
  store i64 %shfl_down, ptr addrspace(1) %p30, align 8
  %shfl_bfly = call i64 @__zc_shfl_sync_bfly(i32 -1, i32 %v, i32 %v, i32 31)
  %p31 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 31
  store i64 %shfl_bfly, ptr addrspace(1) %p31, align 8
  %vote_all = call i32 @__zc_vote_sync_all(i32 -1, i32 %v)
  %p32 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 32
  %w32 = zext i32 %vote_all to i64
  store i64 %w32, ptr addrspace(1) %p32, align 8
  %vote_any = call i32 @__zc_vote_sync_any(i32 -1, i32 %v)
  %p33 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 33
  %w33 = zext i32 %vote_any to i64
  store i64 %w33, ptr addrspace(1) %p33, align 8
  %vote_uni = call i32 @__zc_vote_sync_uni(i32 -1, i32 %v)
  %p34 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 34
  %w34 = zext i32 %vote_uni to i64
  store i64 %w34, ptr addrspace(1) %p34, align 8
  %vote_ballot = call i32 @__zc_vote_sync_ballot(i32 -1, i32 %v)
  %p35 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 35
  %w35 = zext i32 %vote_ballot to i64
  store i64 %w35, ptr addrspace(1) %p35, align 8
  %many_b32 = call i32 @__zc_match_any_sync_b32(i32 -1, i32 %v)
  %p36 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 36
  %w36 = zext i32 %many_b32 to i64
  store i64 %w36, ptr addrspace(1) %p36, align 8
  %mall_b32 = call i64 @__zc_match_all_sync_b32(i32 -1, i32 %v)
  %p37 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 37
  store i64 %mall_b32, ptr addrspace(1) %p37, align 8
  %many_b64 = call i32 @__zc_match_any_sync_b64(i32 -1, i64 %v64)
  %p38 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 38
  %w38 = zext i32 %many_b64 to i64
  store i64 %w38, ptr addrspace(1) %p38, align 8
  %mall_b64 = call i64 @__zc_match_all_sync_b64(i32 -1, i64 %v64)
  %p39 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 39
  store i64 %mall_b64, ptr addrspace(1) %p39, align 8
  %redux_add = call i32 @__zc_redux_sync_add(i32 -1, i32 %v)
  %p40 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 40
  %w40 = zext i32 %redux_add to i64
  store i64 %w40, ptr addrspace(1) %p40, align 8
  %redux_min_u32 = call i32 @__zc_redux_sync_min_u32(i32 -1, i32 %v)
  %p41 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 41
  %w41 = zext i32 %redux_min_u32 to i64
  store i64 %w41, ptr addrspace(1) %p41, align 8
  %redux_max_u32 = call i32 @__zc_redux_sync_max_u32(i32 -1, i32 %v)
  %p42 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 42
  %w42 = zext i32 %redux_max_u32 to i64
  store i64 %w42, ptr addrspace(1) %p42, align 8
  %redux_min_s32 = call i32 @__zc_redux_sync_min_s32(i32 -1, i32 %v)
  %p43 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 43
  %w43 = zext i32 %redux_min_s32 to i64
  store i64 %w43, ptr addrspace(1) %p43, align 8
  %redux_max_s32 = call i32 @__zc_redux_sync_max_s32(i32 -1, i32 %v)
  %p44 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 44
  %w44 = zext i32 %redux_max_s32 to i64
  store i64 %w44, ptr addrspace(1) %p44, align 8
  %redux_and = call i32 @__zc_redux_sync_and(i32 -1, i32 %v)
  %p45 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 45
  %w45 = zext i32 %redux_and to i64
  store i64 %w45, ptr addrspace(1) %p45, align 8
  %redux_or = call i32 @__zc_redux_sync_or(i32 -1, i32 %v)
  %p46 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 46
  %w46 = zext i32 %redux_or to i64
  store i64 %w46, ptr addrspace(1) %p46, align 8
  %redux_xor = call i32 @__zc_redux_sync_xor(i32 -1, i32 %v)
  %p47 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 47
  %w47 = zext i32 %redux_xor to i64
  store i64 %w47, ptr addrspace(1) %p47, align 8
  %sin = call float @__zc_sin_approx_f32(float %x)
  %b48 = bitcast float %sin to i32
  %p48 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 48
  %w48 = zext i32 %b48 to i64
  store i64 %w48, ptr addrspace(1) %p48, align 8
  %cos = call float @__zc_cos_approx_f32(float %x)
  %b49 = bitcast float %cos to i32
  %p49 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 49
  %w49 = zext i32 %b49 to i64
  store i64 %w49, ptr addrspace(1) %p49, align 8
  %lg2 = call float @__zc_lg2_approx_f32(float %x)
  %b50 = bitcast float %lg2 to i32
  %p50 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 50
  %w50 = zext i32 %b50 to i64
  store i64 %w50, ptr addrspace(1) %p50, align 8
  %ex2 = call float @__zc_ex2_approx_f32(float %x)
  %b51 = bitcast float %ex2 to i32
  %p51 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 51
  %w51 = zext i32 %b51 to i64
  store i64 %w51, ptr addrspace(1) %p51, align 8
  %rcp = call float @__zc_rcp_approx_f32(float %x)
  %b52 = bitcast float %rcp to i32
  %p52 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 52
  %w52 = zext i32 %b52 to i64
  store i64 %w52, ptr addrspace(1) %p52, align 8
  %rsqrt = call float @__zc_rsqrt_approx_f32(float %x)
  %b53 = bitcast float %rsqrt to i32
  %p53 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 53
  %w53 = zext i32 %b53 to i64
  store i64 %w53, ptr addrspace(1) %p53, align 8
  %sqrt = call float @__zc_sqrt_approx_f32(float %x)
  %b54 = bitcast float %sqrt to i32
  %p54 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 54
  %w54 = zext i32 %b54 to i64
  store i64 %w54, ptr addrspace(1) %p54, align 8
  %tanh = call float @__zc_tanh_approx_f32(float %x)
  %b55 = bitcast float %tanh to i32
  %p55 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 55
  %w55 = zext i32 %b55 to i64
  store i64 %w55, ptr addrspace(1) %p55, align 8
  %div = call float @__zc_div_rn_f32(float %x, float %y)
  %b56 = bitcast float %div to i32
  %p56 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 56
  %w56 = zext i32 %b56 to i64
  store i64 %w56, ptr addrspace(1) %p56, align 8
  %sqrt_rn = call float @__zc_sqrt_rn_f32(float %x)
  %b57 = bitcast float %sqrt_rn to i32
  %p57 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 57
  %w57 = zext i32 %b57 to i64
  store i64 %w57, ptr addrspace(1) %p57, align 8
  %rcp_rn = call float @__zc_rcp_rn_f32(float %x)
  %b58 = bitcast float %rcp_rn to i32
  %p58 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 58
  %w58 = zext i32 %b58 to i64
  store i64 %w58, ptr addrspace(1) %p58, align 8
  ret void
}

attributes #0 = { "zc-kernel" }
