# Writes OUTPUT, a header defining ZC_COMMIT: the commit of SOURCE_DIR's checkout (12 hex
# digits, "-dirty" with uncommitted changes to tracked files), or COMMIT where given (a
# package built from a source archive names its commit so), or "unknown". Run at every
# build; OUTPUT changes only when the commit does, so only what includes it is rebuilt.
# cmake -DSOURCE_DIR=... -DOUTPUT=... [-DCOMMIT=...] -P commit.cmake
if(NOT COMMIT)
  set(COMMIT unknown)
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE failed ERROR_QUIET)
    if(NOT failed)
      execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain
                              --untracked-files=no
                      OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      set(COMMIT ${head})
      if(changes)
        string(APPEND COMMIT -dirty)
      endif()
    endif()
  endif()
endif()
set(text "#define ZC_COMMIT \"${COMMIT}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
