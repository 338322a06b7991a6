; A kernel that asks for a trap: the check that finds no s_trap elsewhere must find it here.
; CHECK-KERNEL: traps kernarg=8 group=0
; CHECK-TRAP

declare void @__zc_trap()

define void @traps(ptr addrspace(1) %flag) #0 {
entry:
  %v = load i32, ptr addrspace(1) %flag, align 4
  %set = icmp ne i32 %v, 0
  br i1 %set, label %trap, label %exit

trap:
  call void @__zc_trap()
  unreachable

exit:
  ret void
}

attributes #0 = { "zc-kernel" }
