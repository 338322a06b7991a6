; Vector add through the builtin interface: c[i] = a[i] + b[i], i = ctaid.x * ntid.x + tid.x.
; CHECK-KERNEL: vadd kernarg=28 group=0

declare i32 @__zc_tid_x()
declare i32 @__zc_ntid_x()
declare i32 @__zc_ctaid_x()

define void @vadd(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i32 %n) #0 {
entry:
  %tid = call i32 @__zc_tid_x()
  %ntid = call i32 @__zc_ntid_x()
  %ctaid = call i32 @__zc_ctaid_x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %inside = icmp ult i32 %i, %n
  br i1 %inside, label %body, label %done

body:
  %index = zext i32 %i to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %index
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %index
  %pc = getelementptr inbounds float, ptr addrspace(1) %c, i64 %index
  %va = load float, ptr addrspace(1) %pa, align 4
  %vb = load float, ptr addrspace(1) %pb, align 4
  %sum = fadd float %va, %vb
  store float %sum, ptr addrspace(1) %pc, align 4
  br label %done

done:
  ret void
}

attributes #0 = { "zc-kernel" }
