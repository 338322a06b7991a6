#!/bin/sh
# A program using NVIDIA libraries, converted with them: builds SOURCE with nvcc and
# NVCC_LIBS, converts it --with-libraries=LIBRARIES for one target (default host), says how
# long that took and its peak memory, then runs the converted program on that target's
# driver (bench/cublas_routines.cu and bench/cufft_transforms.cu print one line per
# routine or transform, ok or FAIL, each checked on the host).
#   bench/library_converted.sh SOURCE NVCC_LIBS LIBRARIES [BUILD] [TARGET]
#   bench/library_converted.sh bench/cublas_routines.cu -lcublas libcublas.so.13,libcublasLt.so.13
#   bench/library_converted.sh bench/cufft_transforms.cu -lcufft libcufft.so.12
set -eu
[ $# -ge 3 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
source=$1
libs=$2
libraries=$3
build=${4:-build}
target=${5:-host}
tool=$build/cli/zluda-convert
[ -x "$tool" ] || { echo "library_converted: $tool is not built" >&2; exit 1; }
work=${LIBRARY_WORK:-$(mktemp -d)}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
name=$(basename "$source" .cu)
# shellcheck disable=SC2086  # NVCC_LIBS is a list of flags
"$nvcc" -o "$work/$name" "$source" $libs
mkdir -p "$work/out"
/usr/bin/time -f "convert: %e s, peak %M KiB" "$tool" "$work/$name" -o "$work/out/$name" --no-cache \
	--offload-arch="$target" --with-libraries="$libraries"
case $target in
host) driver=host ;;
*) driver=hip ;;
esac
ZLUDA_CONVERT_DRIVER=$driver "$work/out/$name" || true
echo "converted files in $work"
