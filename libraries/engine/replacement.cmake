# add_replacement_library(TARGET SONAME TITLE UNSUPPORTED_STATUS EXPORTS UNSUPPORTED
#                         [UNVERSIONED] [PREFIX P] [KERNELS FATBIN] SOURCES...
#                         [ENGINE_HOOKS amd|forward|log...]
#                         [COMPILE_DEFINITIONS ...] [INCLUDES ...] [LIBRARIES ...])
# One of NVIDIA's libraries replaced (docs/layers.md): a shared library of NVIDIA's SONAME
# and symbol version (none with UNVERSIONED, as NVIDIA's NVML has none) exporting exactly
# the functions of the two lists (EXPORTS implemented, UNSUPPORTED answered
# UNSUPPORTED_STATUS; their names start with P, or one of the list P, by default the
# SONAME's stem without lib) through the engine's trampolines, its C sources compiled
# against NVIDIA's header with the implementations renamed; and the test
# libraries.SONAME.exports that checks it. With KERNELS, the library carries FATBIN
# (add_kernels_fatbin) as zc_kernels_fatbin, with kernels.c to load and launch them.
# ENGINE_HOOKS names the engine's hooks the sources define (engine.h).
include(${CMAKE_CURRENT_LIST_DIR}/parts.cmake)
find_package(Threads REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
function(add_replacement_library target soname title status exports unsupported)
  cmake_parse_arguments(PARSE_ARGV 6 arg "UNVERSIONED" "PREFIX;KERNELS"
                        "SOURCES;ENGINE_HOOKS;COMPILE_DEFINITIONS;INCLUDES;LIBRARIES")
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target})
  zc_replacement_parts(${dir} ${CMAKE_CURRENT_SOURCE_DIR}/${exports} "${arg_KERNELS}"
                       "${arg_ENGINE_HOOKS}" arg_SOURCES arg_COMPILE_DEFINITIONS)
  string(REGEX REPLACE "\\.so\\..*" "" stem ${soname})
  string(REGEX REPLACE "^lib" "" prefix ${stem})
  if(arg_PREFIX)
    set(prefix ${arg_PREFIX})
  endif()
  set(map ${dir}/exports.map)
  set(node ${soname})
  if(arg_UNVERSIONED)
    set(node "")
  endif()
  set(globs "")
  foreach(p ${prefix})
    string(APPEND globs "${p}*; ")
  endforeach()
  file(WRITE ${map}.tmp "${node} {\n\tglobal: ${globs}\n\tlocal: *;\n};\n")
  file(COPY_FILE ${map}.tmp ${map} ONLY_IF_DIFFERENT)
  add_library(${target} SHARED ${arg_SOURCES} ${ZC_ENGINE_DIR}/engine.c
              ${ZC_ENGINE_DIR}/engine_posix.c ${ZC_ENGINE_DIR}/trampolines.S
              ${PROJECT_SOURCE_DIR}/common/find_library.c
              ${PROJECT_SOURCE_DIR}/common/find_library_posix.c)
  target_compile_definitions(${target} PRIVATE ${arg_COMPILE_DEFINITIONS}
                             ZC_EXPORTS_INC="${exports}" ZC_UNSUPPORTED_INC="${unsupported}"
                             ZC_LIBRARY_SONAME="${soname}" ZC_LIBRARY_TITLE="${title}"
                             ZC_UNSUPPORTED_STATUS=${status})
  target_include_directories(${target} PRIVATE ${dir} ${CMAKE_CURRENT_SOURCE_DIR} ${ZC_ENGINE_DIR}
                             ${PROJECT_SOURCE_DIR}/abi ${PROJECT_SOURCE_DIR}/common)
  target_include_directories(${target} SYSTEM PRIVATE ${arg_INCLUDES})
  target_link_libraries(${target} PRIVATE ${arg_LIBRARIES} ${ZC_CUDA_DRIVER_STUB} ${CMAKE_DL_LIBS}
                        Threads::Threads)
  # Loaded into programs nvcc built, as the stub is: never sanitized.
  target_compile_options(${target} PRIVATE -fno-sanitize=all)
  target_link_options(${target} PRIVATE -fno-sanitize=all -Wl,--no-undefined
                      -Wl,--version-script=${map} -Wl,-soname,${soname})
  # Every replacement in one folder, where zluda-convert finds them (ZC_LIBRARIES_BUILD_DIR).
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME ${soname} SUFFIX ""
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/libraries
    LINK_DEPENDS ${map}
    SKIP_BUILD_RPATH ON)
  zc_strip_placed(${target})
  install(FILES $<TARGET_FILE:${target}> DESTINATION ${ZC_RUNTIME_INSTALL_DIR})
  set_property(SOURCE ${ZC_ENGINE_DIR}/trampolines.S ${ZC_ENGINE_DIR}/engine.c APPEND PROPERTY
               OBJECT_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${exports}
               ${CMAKE_CURRENT_SOURCE_DIR}/${unsupported})
  add_test(NAME libraries.${soname}.exports
           COMMAND ${Python3_EXECUTABLE} ${ZC_ENGINE_DIR}/check_exports.py
                   $<TARGET_FILE:${target}> ${CMAKE_CURRENT_SOURCE_DIR}/${exports}
                   ${CMAKE_CURRENT_SOURCE_DIR}/${unsupported})
endfunction()

# add_kernels_fatbin(OUTPUT SOURCE DEPENDS...): nvcc compiles a replacement's CUDA SOURCE into
# the fatbin OUTPUT: PTX 8.0 for every target the converter makes (bf16's matrix
# instructions need it) and machine code for the H100/H200 generation, where NVIDIA's
# driver runs them when NVIDIA's own library is missing.
function(add_kernels_fatbin output source)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${NVCC} -fatbin -O3 -gencode arch=compute_80,code=compute_80
            -gencode arch=compute_90,code=sm_90 -o ${output}
            ${CMAKE_CURRENT_SOURCE_DIR}/${source}
    DEPENDS ${source} ${ARGN}
    COMMENT "Compiling ${source} with nvcc"
    VERBATIM)
endfunction()
