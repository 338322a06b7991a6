# The stub's sources, shared by libcuda.so.1 (CMakeLists.txt here) and nvcuda.dll
# (windows/CMakeLists.txt, cross-built with mingw-w64), by layer from the top
# (docs/layers.md): exports, api, drivers, platform, base.
set(ZC_STUB_DIR ${CMAKE_CURRENT_LIST_DIR})
set(ZC_PROJECT_DIR ${CMAKE_CURRENT_LIST_DIR}/..)

# The AOT image reader is compiled in rather than linked, so that it is built the way each
# variant is: never sanitized inside libcuda.so.1, and for Windows inside nvcuda.dll.
set(ZC_AOT_READER_SOURCES
  ${ZC_PROJECT_DIR}/common/error.c
  ${ZC_PROJECT_DIR}/common/find_library.c
  ${ZC_PROJECT_DIR}/fatbin/aot_image_read.c
  ${ZC_PROJECT_DIR}/fatbin/aot_locate.c)

set(ZC_STUB_COMMON_SOURCES
  exports/forward.S exports/init.c exports/entry.c exports/export_tables.c exports/nvidia_driver.c
  exports/integrity.c exports/md2.c exports/procaddress.c
  api/allocate.c api/array.c api/context.c api/copy_params.c api/current.c api/device.c api/error_strings.c api/start.c api/state.c
  api/synchronize.c api/device_launch.c api/device_output.c api/capture.c
  api/event.c api/graph.c api/graph_conditional.c api/graph_exec.c api/graph_memory.c
  api/handles.c api/image.c
  api/launch.c api/launch_queue.c api/library.c api/link.c api/memcpy.c api/mempool.c api/peer.c api/texture.c api/translate.c
  api/user_object.c api/vmm.c api/memory.c api/occupancy.c api/stream.c
  drivers/hip/drv_hip.c
  drivers/host/drv_host.c drivers/host/drv_host_exec.c drivers/host/drv_host_module.c
  platform/find_driver.c
  base/errors.c base/trace.c base/device_printf.c)
list(TRANSFORM ZC_STUB_COMMON_SOURCES PREPEND ${ZC_STUB_DIR}/)
list(APPEND ZC_STUB_COMMON_SOURCES ${ZC_PROJECT_DIR}/common/cache_folder.c)

# Each system's half of the platform layer, of the driver search and of the CPU driver,
# whose fibers switch by a few instructions of the system's calling convention.
set(ZC_STUB_POSIX_SOURCES platform/platform_posix.c platform/find_driver_posix.c
  drivers/host/drv_host_posix.c drivers/host/fiber_switch.S)
list(TRANSFORM ZC_STUB_POSIX_SOURCES PREPEND ${ZC_STUB_DIR}/)
list(APPEND ZC_STUB_POSIX_SOURCES ${ZC_PROJECT_DIR}/common/find_library_posix.c
  ${ZC_PROJECT_DIR}/common/cache_folder_posix.c)
set(ZC_STUB_WINDOWS_SOURCES platform/platform_windows.c platform/find_driver_windows.c
  drivers/host/drv_host_windows.c drivers/host/fiber_switch_win64.S)
list(TRANSFORM ZC_STUB_WINDOWS_SOURCES PREPEND ${ZC_STUB_DIR}/)
list(APPEND ZC_STUB_WINDOWS_SOURCES ${ZC_PROJECT_DIR}/common/find_library_windows.c
  ${ZC_PROJECT_DIR}/common/cache_folder_windows.c)

# Every layer's folder, and what the stub includes from beside it: the contracts and the
# shared helpers, and the AOT image reader's header.
set(ZC_STUB_SOURCE_INCLUDES
  ${ZC_STUB_DIR}/exports ${ZC_STUB_DIR}/api ${ZC_STUB_DIR}/drivers ${ZC_STUB_DIR}/drivers/host
  ${ZC_STUB_DIR}/drivers/hip ${ZC_STUB_DIR}/platform ${ZC_STUB_DIR}/base
  ${ZC_PROJECT_DIR}/abi ${ZC_PROJECT_DIR}/common ${ZC_PROJECT_DIR}/fatbin)

# Generated from procaddress.tsv and exports.inc by the build of the main project.
set(ZC_STUB_GENERATED procaddress_table.inc unsupported_table.inc)
