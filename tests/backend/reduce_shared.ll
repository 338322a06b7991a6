; Block sum in static shared memory with barriers: out[ctaid.x] = sum of the block's in[].
; At most 256 threads a block (.maxntid 256), a power of two.
; CHECK-KERNEL: block_sum kernarg=16 group=1024 max_threads=256

@partial = internal addrspace(3) global [256 x float] poison, align 4

declare i32 @__zc_tid_x()
declare i32 @__zc_ntid_x()
declare i32 @__zc_ctaid_x()
declare void @__zc_bar_sync(i32, i32)

define void @block_sum(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @__zc_tid_x()
  %ntid = call i32 @__zc_ntid_x()
  %ctaid = call i32 @__zc_ctaid_x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %index = zext i32 %i to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %index
  %v = load float, ptr addrspace(1) %pin, align 4
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @partial, i32 0, i32 %tid
  store float %v, ptr addrspace(3) %slot, align 4
  call void @__zc_bar_sync(i32 0, i32 0)
  %first = lshr i32 %ntid, 1
  br label %loop

loop:
  %stride = phi i32 [ %first, %entry ], [ %next, %step ]
  %more = icmp ne i32 %stride, 0
  br i1 %more, label %active, label %done

active:
  %adds = icmp ult i32 %tid, %stride
  br i1 %adds, label %add, label %step

add:
  %other = add i32 %tid, %stride
  %pother = getelementptr inbounds [256 x float], ptr addrspace(3) @partial, i32 0, i32 %other
  %x = load float, ptr addrspace(3) %slot, align 4
  %y = load float, ptr addrspace(3) %pother, align 4
  %s = fadd float %x, %y
  store float %s, ptr addrspace(3) %slot, align 4
  br label %step

step:
  call void @__zc_bar_sync(i32 0, i32 0)
  %next = lshr i32 %stride, 1
  br label %loop

done:
  %leader = icmp eq i32 %tid, 0
  br i1 %leader, label %write, label %exit

write:
  %total = load float, ptr addrspace(3) @partial, align 4
  %cindex = zext i32 %ctaid to i64
  %pout = getelementptr inbounds float, ptr addrspace(1) %out, i64 %cindex
  store float %total, ptr addrspace(1) %pout, align 4
  br label %exit

exit:
  ret void
}

attributes #0 = { "zc-kernel" "zc-maxntid"="256,1,1" }
