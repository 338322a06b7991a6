# Cross-building for 64-bit Windows with mingw-w64 (Debian's gcc-mingw-w64-x86-64): the
# runtime stub as nvcuda.dll and the Windows test programs.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(ZC_MINGW_PREFIX x86_64-w64-mingw32)
# The POSIX-threads flavour of the compiler: winpthreads, which the stub's threads use.
find_program(CMAKE_C_COMPILER NAMES ${ZC_MINGW_PREFIX}-gcc-posix ${ZC_MINGW_PREFIX}-gcc REQUIRED)
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})
set(CMAKE_RC_COMPILER ${ZC_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${ZC_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# The host's flags in the environment (a Debian package build's dpkg-buildflags: ELF-only
# linker options, hardening for glibc) are not for this target.
foreach(variable CFLAGS CPPFLAGS LDFLAGS ASMFLAGS)
  unset(ENV{${variable}})
endforeach()
