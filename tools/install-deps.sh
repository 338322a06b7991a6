#!/bin/sh
# Installs the Debian 12 packages zluda-convert builds and tests with (run as root).
set -e
apt-get update
apt-get install -y --no-install-recommends \
	cmake ninja-build pkg-config python3 gcc g++ \
	llvm-22-dev clang-22 lld-22 liblld-22-dev llvm-22-tools libclang-rt-22-dev \
	libelf-dev libzstd-dev liblz4-dev libxxhash-dev \
	gcc-mingw-w64-x86-64 gcc-mingw-w64-i686 patchelf libamdhip64-5 libamdhip64-dev wine wine64 wine64-tools \
	librocm-smi-dev
# CUDA 11.8's runtime (Debian non-free), for the test that older cudart, which loads modules
# through the private CUDART_INTERFACE table, accepts the driver. Only the library: its
# recommended libcuda1 is NVIDIA's driver, which the tests must not find.
# The non-free component is added to the machine's own Debian sources.
# (non-free itself: non-free-firmware, which Debian 12 lists by default, is not it)
if ! grep -Rqs '^Components:.* non-free\( \|$\)\|^deb .* non-free\( \|$\)' /etc/apt/sources.list /etc/apt/sources.list.d; then
	for f in /etc/apt/sources.list.d/*.sources; do
		if [ -e "$f" ]; then sed -i '/^Components:/ s/$/ non-free/' "$f"; fi
	done
	if [ -e /etc/apt/sources.list ]; then sed -i '/^deb / s/$/ non-free/' /etc/apt/sources.list; fi
	apt-get update
fi
apt-get install -y --no-install-recommends libcudart11.0
# NVML's header (Debian's libnvidia-ml-dev), for the project's libnvidia-ml.so.1 to be built
# against NVIDIA's declarations. Unpacked alone: the package depends on NVIDIA's own NVML,
# a part of NVIDIA's driver, which the tests must not find.
nvml_include=/usr/local/share/zluda-convert/include
if ! [ -e "$nvml_include/nvml.h" ]; then
	nvml_tmp=$(mktemp -d)
	(cd "$nvml_tmp" && apt-get download libnvidia-ml-dev && dpkg-deb -x libnvidia-ml-dev_*.deb root)
	mkdir -p "$nvml_include"
	cp "$nvml_tmp/root/usr/include/nvml.h" "$nvml_include/"
	rm -rf "$nvml_tmp"
fi
# nvcc (CUDA 13) is expected in /usr/local/cuda, where the toolkit installs it.
if ! command -v nvcc >/dev/null 2>&1 && ! [ -x /usr/local/cuda/bin/nvcc ]; then
	echo "install-deps: nvcc not found (expected /usr/local/cuda/bin/nvcc): CUDA fixtures will be skipped" >&2
fi
