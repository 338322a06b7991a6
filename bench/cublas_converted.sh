#!/bin/sh
# cuBLAS converted with a program: builds bench/cublas_routines.cu with nvcc (-lcublas),
# converts it --with-libraries=libcublas.so.13,libcublasLt.so.13 for one target (default
# host), says how long that took and its peak memory, then runs the converted program on
# that target's driver: one line per routine, ok or FAIL, checked against the host.
#   bench/cublas_converted.sh [BUILD] [TARGET]
set -eu
build=${1:-build}
target=${2:-host}
tool=$build/cli/zluda-convert
[ -x "$tool" ] || { echo "cublas_converted: $tool is not built" >&2; exit 1; }
work=${CUBLAS_WORK:-$(mktemp -d)}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
"$nvcc" -o "$work/cublas_routines" "$(dirname "$0")/cublas_routines.cu" -lcublas
mkdir -p "$work/out"
/usr/bin/time -f "convert: %e s, peak %M KiB" "$tool" "$work/cublas_routines" \
	-o "$work/out/cublas_routines" --offload-arch="$target" \
	--with-libraries=libcublas.so.13,libcublasLt.so.13
case $target in
host) driver=host ;;
*) driver=hip ;;
esac
ZLUDA_CONVERT_DRIVER=$driver "$work/out/cublas_routines" || true
echo "converted files in $work"
