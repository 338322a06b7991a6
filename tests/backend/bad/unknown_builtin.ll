; Calls a builtin that builtins.h does not have: zc-codegen must name it and fail.
declare i64 @__zc_shfl_sync_sideways(i32, i32, i32, i32)

define void @k(ptr addrspace(1) %p) #0 {
  %r = call i64 @__zc_shfl_sync_sideways(i32 -1, i32 0, i32 1, i32 31)
  store i64 %r, ptr addrspace(1) %p, align 8
  ret void
}

attributes #0 = { "zc-kernel" }
