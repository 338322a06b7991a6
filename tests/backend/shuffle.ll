; Warp sum with shfl.sync.bfly: every lane gets the sum of its warp's 32 values.
; The predicate of each shuffle (bit 32) selects between the shuffled and own value.
; CHECK-KERNEL: warp_sum kernarg=16 group=0

declare i32 @__zc_tid_x()
declare i32 @__zc_ntid_x()
declare i32 @__zc_ctaid_x()
declare i64 @__zc_shfl_sync_bfly(i32, i32, i32, i32)

define void @warp_sum(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @__zc_tid_x()
  %ntid = call i32 @__zc_ntid_x()
  %ctaid = call i32 @__zc_ctaid_x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %index = zext i32 %i to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %index
  %v0 = load i32, ptr addrspace(1) %pin, align 4
  br label %loop

loop:
  %v = phi i32 [ %v0, %entry ], [ %sum, %loop ]
  %lanes = phi i32 [ 16, %entry ], [ %half, %loop ]
  %r = call i64 @__zc_shfl_sync_bfly(i32 -1, i32 %v, i32 %lanes, i32 31)
  %value = trunc i64 %r to i32
  %pbit = lshr i64 %r, 32
  %p = trunc i64 %pbit to i1
  %got = select i1 %p, i32 %value, i32 0
  %sum = add i32 %v, %got
  %half = lshr i32 %lanes, 1
  %again = icmp ne i32 %half, 0
  br i1 %again, label %loop, label %done

done:
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %index
  store i32 %sum, ptr addrspace(1) %pout, align 4
  ret void
}

attributes #0 = { "zc-kernel" }
