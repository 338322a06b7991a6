# zc_add_builtins(TARGET IDENT SOURCES ... FLAGS ... [DEPENDS headers...])
# Compiles the builtins SOURCES with clang-22 FLAGS into one bitcode module for one row of
# the target table (amdgpu_backend/, host_backend/) and adds the generated C file that
# embeds it as `const ZcBitcode zc_builtins_IDENT` to the library TARGET.
# The bitcode gets none of the project's compile options (no sanitizers: it is target
# code, not part of the converter), only FLAGS.
set(ZC_EMBED_BITCODE ${CMAKE_CURRENT_LIST_DIR}/embed_bitcode.cmake)
set(ZC_BACKEND_DIR ${CMAKE_CURRENT_LIST_DIR})
set(ZC_ABI_DIR ${CMAKE_CURRENT_LIST_DIR}/../abi)
# The builtins every target shares, written once in C (each row adds its own).
set(ZC_SHARED_BUILTINS builtins_convert.c builtins_bits.c builtins_reserved.c
    builtins_async.c builtins_texture.c builtins_surface.c builtins_matrix.c builtins_launch.c)
list(TRANSFORM ZC_SHARED_BUILTINS PREPEND ${ZC_BACKEND_DIR}/)
set(ZC_SHARED_BUILTIN_HEADERS ${ZC_BACKEND_DIR}/builtins.h ${ZC_ABI_DIR}/device_launch.h
    ${ZC_ABI_DIR}/texture.h ${ZC_ABI_DIR}/matrix.h)

function(zc_add_builtins target ident)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "SOURCES;FLAGS;DEPENDS")
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/builtins/${ident})
  set(bitcodes)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(stem ${source} NAME_WE)
    get_filename_component(source ${source} ABSOLUTE)
    file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${source})
    set(bc ${dir}/${stem}.bc)
    # From the source tree, by relative names: the bitcode, which the tool embeds, names
    # no path of the build machine (its module names and debug information).
    add_custom_command(OUTPUT ${bc}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${ZC_CLANG} ${arg_FLAGS} -std=c17 -O2 -ffreestanding -fno-math-errno
              -Wall -Wextra -Werror -I${ZC_BACKEND_DIR} -I${ZC_ABI_DIR}
              -ffile-prefix-map=${PROJECT_SOURCE_DIR}=. -ffile-prefix-map=${PROJECT_BINARY_DIR}=.
              -fdebug-compilation-dir=. -emit-llvm -c ${relative} -o ${bc}
      DEPENDS ${source} ${ZC_BACKEND_DIR}/builtins.h ${ZC_ABI_DIR}/host_abi.h
              ${arg_DEPENDS}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      COMMENT "Building builtins ${stem}.c for ${ident}"
      VERBATIM)
    list(APPEND bitcodes ${bc})
  endforeach()
  set(linked ${dir}/builtins.bc)
  set(embedded ${dir}/builtins_${ident}.c)
  add_custom_command(OUTPUT ${embedded}
    COMMAND ${ZC_LLVM_LINK} ${bitcodes} -o ${linked}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${linked} -DOUTPUT=${embedded}
            -DSYMBOL=zc_builtins_${ident} -P ${ZC_EMBED_BITCODE}
    DEPENDS ${bitcodes} ${ZC_EMBED_BITCODE}
    COMMENT "Embedding the builtins bitcode for ${ident}"
    VERBATIM)
  target_sources(${target} PRIVATE ${embedded})
endfunction()
