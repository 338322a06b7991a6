# What zluda-convert places beside a converted program (the stub's libcuda.so.1, the library
# replacements) is a file a package ships: zc_strip_placed(TARGET) strips it after the link
# to its exports, its debug information kept beside it in FILE.debug, which the stripped file
# names by a GNU debuglink (gdb finds it there). With the prefix maps of the top-level
# CMakeLists, neither file holds a path of the machine that built it.
# Each target is recorded in the global property ZC_PLACED_FILES for the test that checks
# them (tests/packaging).
# objcopy writes the time into a PE file's header unless SOURCE_DATE_EPOCH gives one: the
# environment's (a package build's), else 0, as the linker's --no-insert-timestamp.
function(zc_strip_placed target)
  set_property(GLOBAL APPEND PROPERTY ZC_PLACED_FILES $<TARGET_FILE:${target}>)
  set(epoch 0)
  if(DEFINED ENV{SOURCE_DATE_EPOCH})
    set(epoch $ENV{SOURCE_DATE_EPOCH})
  endif()
  set(objcopy ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${epoch} ${CMAKE_OBJCOPY})
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${objcopy} --only-keep-debug $<TARGET_FILE:${target}>
            $<TARGET_FILE:${target}>.debug
    COMMAND ${objcopy} --strip-unneeded
            --add-gnu-debuglink=$<TARGET_FILE:${target}>.debug $<TARGET_FILE:${target}>
    VERBATIM)
endfunction()
