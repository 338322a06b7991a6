# The stub's sources, shared by libcuda.so.1 (CMakeLists.txt here) and nvcuda.dll
# (windows/CMakeLists.txt, cross-built with mingw-w64): the driver API, written once, and
# each platform's half of platform.h and of the driver search.
set(ZC_STUB_DIR ${CMAKE_CURRENT_LIST_DIR})
set(ZC_PROJECT_DIR ${CMAKE_CURRENT_LIST_DIR}/..)

# The AOT image reader is compiled in rather than linked, so that it is built the way each
# variant is: never sanitized inside libcuda.so.1, and for Windows inside nvcuda.dll.
set(ZC_AOT_READER_SOURCES
  ${ZC_PROJECT_DIR}/fatbin/error.c
  ${ZC_PROJECT_DIR}/fatbin/aot_image_read.c
  ${ZC_PROJECT_DIR}/fatbin/aot_locate.c)

set(ZC_STUB_COMMON_SOURCES
  forward.S drv_cuda.c drv_hip.c find_driver.c
  context.c device.c device_launch.c device_output.c device_printf.c
  capture.c entry.c errors.c event.c export_tables.c graph.c graph_exec.c graph_memory.c
  handles.c image.c launch.c library.c memcpy.c mempool.c peer.c texture.c user_object.c
  vmm.c memory.c occupancy.c stream.c trace.c
  integrity.c md2.c procaddress.c
  drv_host.c drv_host_exec.c drv_host_module.c)
list(TRANSFORM ZC_STUB_COMMON_SOURCES PREPEND ${ZC_STUB_DIR}/)

# Each system's half of the platform layer, of the driver search and of the CPU driver,
# whose fibers switch by a few instructions of the system's calling convention.
set(ZC_STUB_POSIX_SOURCES platform_posix.c find_driver_posix.c drv_host_posix.c
  fiber_switch.S)
list(TRANSFORM ZC_STUB_POSIX_SOURCES PREPEND ${ZC_STUB_DIR}/)
set(ZC_STUB_WINDOWS_SOURCES platform_windows.c find_driver_windows.c drv_host_windows.c
  fiber_switch_win64.S)
list(TRANSFORM ZC_STUB_WINDOWS_SOURCES PREPEND ${ZC_STUB_DIR}/)

# Generated from procaddress.tsv and exports.inc by the build of the main project.
set(ZC_STUB_GENERATED procaddress_table.inc unsupported_table.inc)
