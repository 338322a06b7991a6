; The PTX parameter layout: u8 @0, an .align 8 .b8[24] aggregate @8 (byref), u64 @32,
; a pointer @40: 48 bytes. Writes flag + the aggregate's bytes + x to out[0], and the
; dynamic shared memory size to out[1] through the dynamic shared memory itself.
; CHECK-KERNEL: params kernarg=48 group=0

declare i32 @__zc_dynamic_smem_size()
declare ptr @__zc_dynamic_smem()

define void @params(i8 %flag, ptr addrspace(4) byref([24 x i8]) align 8 %blob, i64 %x,
                    ptr addrspace(1) %out) #0 {
entry:
  %f = zext i8 %flag to i64
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi i64 [ %f, %entry ], [ %acc1, %loop ]
  %pb = getelementptr inbounds i8, ptr addrspace(4) %blob, i64 %k
  %b = load i8, ptr addrspace(4) %pb, align 1
  %bz = zext i8 %b to i64
  %acc1 = add i64 %acc, %bz
  %k1 = add i64 %k, 1
  %again = icmp ult i64 %k1, 24
  br i1 %again, label %loop, label %done

done:
  %total = add i64 %acc1, %x
  store i64 %total, ptr addrspace(1) %out, align 8
  %size = call i32 @__zc_dynamic_smem_size()
  %dyn = call ptr @__zc_dynamic_smem()
  store i32 %size, ptr %dyn, align 4
  %back = load i32, ptr %dyn, align 4
  %wide = zext i32 %back to i64
  %p1 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 1
  store i64 %wide, ptr addrspace(1) %p1, align 8
  ret void
}

attributes #0 = { "zc-kernel" }
