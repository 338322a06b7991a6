#!/bin/sh
# Reproducible bytes across build directories (reproducible-builds.org): the files
# zluda-convert places beside converted programs and installs (libcuda.so.1 and its .debug,
# nvcuda.dll, the library replacements (and their DLLs) and their .debug, the emulator's HIP runtime) are
# built again in a fresh build tree at another path, with the same options, and must be the
# same bytes as BUILD_DIR's.
# Usage: check_reproducible.sh SOURCE_DIR BUILD_DIR SANITIZE BUILD_TYPE FILE...
set -e
source=$1 build=$2 sanitize=$3 build_type=$4
shift 4
other=$(mktemp -d /tmp/zc-reproducible-XXXXXX)/elsewhere
trap 'rm -rf "$(dirname "$other")"' EXIT
cmake -S "$source" -B "$other" -G Ninja -DZC_SANITIZE="$sanitize" -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
targets="zc_cuda zc_emu_hip"
[ -d "$build/libraries" ] && targets="$targets $(cd "$other" && ninja -t targets all |
	sed -n 's/^\(zc_cublas[0-9a-zA-Z]*\|zc_cufft[0-9]*\|zc_nvml\|zc_nvrtc[0-9_]*\|zc_nvjitlink[0-9]*\): phony$/\1/p' |
	tr '\n' ' ')"
[ -d "$build/runtime_stub/windows" ] && targets="$targets zc_nvcuda"
[ -d "$build/libraries/windows" ] && targets="$targets zc_windows_libraries"
ninja -C "$other" $targets >/dev/null
failed=0
for file in "$@"; do
	relative=${file#"$build"/}
	for f in "$relative" "$relative.debug"; do
		[ -e "$build/$f" ] || continue
		if cmp -s "$build/$f" "$other/$f"; then
			echo "ok $f"
		else
			echo "FAIL $f differs between $build and $other"
			failed=1
		fi
	done
done
[ $failed = 0 ] && echo "check_reproducible: same bytes" || echo "check_reproducible: differ"
