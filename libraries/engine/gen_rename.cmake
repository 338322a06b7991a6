# A replacement's list of implemented functions -> replacement_rename.h: each exported name
# defined as zc_impl_NAME, so that the C sources' definitions (and NVIDIA's prototypes of
# them) take the implementation's name, and the trampoline takes the export's.
file(STRINGS ${EXPORTS} lines REGEX "^ZC_EXPORT")
set(text "/* Generated from ${EXPORTS} by gen_rename.cmake. */\n")
foreach(line ${lines})
  string(REGEX REPLACE "^ZC_EXPORT\\(([A-Za-z0-9_]+)\\).*" "\\1" name "${line}")
  string(APPEND text "#define ${name} zc_impl_${name}\n")
endforeach()
file(WRITE ${OUT}.tmp "${text}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
