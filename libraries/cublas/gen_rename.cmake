# exports.inc -> blas_rename.h: each exported name defined as zc_blas_impl_NAME, so that
# the C sources' definitions (and NVIDIA's prototypes of them) take the implementation's
# name, and the trampoline takes the export's.
file(STRINGS ${EXPORTS} lines REGEX "^BLAS_EXPORT")
set(text "/* Generated from exports.inc by gen_rename.cmake. */\n")
foreach(line ${lines})
  string(REGEX REPLACE "^BLAS_EXPORT\\(([A-Za-z0-9_]+)\\).*" "\\1" name "${line}")
  string(APPEND text "#define ${name} zc_blas_impl_${name}\n")
endforeach()
file(WRITE ${OUT}.tmp "${text}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
