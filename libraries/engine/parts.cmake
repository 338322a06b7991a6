# What a replacement's build makes the same way on every platform (replacement.cmake for
# Linux, ../windows/CMakeLists.txt for Windows).
# zc_replacement_parts(DIR EXPORTS KERNELS HOOKS SOURCES_VAR DEFINITIONS_VAR): in DIR, the
# header naming each implementation after the list EXPORTS (gen_rename.cmake) and, with a
# fatbin KERNELS, the library's own kernels.S carrying it and kernels.c, appended to the list
# SOURCES_VAR names; each engine hook of HOOKS (amd, forward, log) a definition appended to
# DEFINITIONS_VAR.
set(ZC_ENGINE_DIR ${CMAKE_CURRENT_LIST_DIR})
function(zc_replacement_parts dir exports kernels hooks sources_var definitions_var)
  set(sources ${${sources_var}})
  set(definitions ${${definitions_var}})
  set(rename ${dir}/replacement_rename.h)
  add_custom_command(
    OUTPUT ${rename}
    COMMAND ${CMAKE_COMMAND} -DEXPORTS=${exports} -DOUT=${rename}
            -P ${ZC_ENGINE_DIR}/gen_rename.cmake
    DEPENDS ${exports} ${ZC_ENGINE_DIR}/gen_rename.cmake
    VERBATIM)
  list(APPEND sources ${rename})
  if(kernels)
    # One object of kernels.S per library, each with its own fatbin.
    configure_file(${ZC_ENGINE_DIR}/kernels.S ${dir}/kernels.S COPYONLY)
    set_source_files_properties(${dir}/kernels.S PROPERTIES OBJECT_DEPENDS ${kernels}
                                COMPILE_DEFINITIONS "ZC_KERNELS_FATBIN=\"${kernels}\"")
    list(APPEND sources ${dir}/kernels.S ${ZC_ENGINE_DIR}/kernels.c)
  endif()
  foreach(hook ${hooks})
    string(TOUPPER ${hook} hook)
    list(APPEND definitions ZC_ENGINE_${hook})
  endforeach()
  set(${sources_var} ${sources} PARENT_SCOPE)
  set(${definitions_var} ${definitions} PARENT_SCOPE)
endfunction()
