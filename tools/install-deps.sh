#!/bin/sh
# Installs the Debian 12 packages zluda-convert builds and tests with (run as root).
set -e
apt-get update
apt-get install -y --no-install-recommends \
	cmake ninja-build pkg-config python3 gcc g++ git groff-base debhelper lintian \
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
# CUDA 11.8's own nvcc (Debian non-free), for the tests of programs built with CUDA 11.8.
# Its packages are not installed: nvidia-cuda-toolkit depends on nvidia-cuda-dev (2.8 GB,
# every static library) and on NVIDIA's driver. The compiler and the headers are unpacked
# into one tree with an nvcc.profile of its own; nvcc 11.8 takes g++ 11 at most.
cuda11=/usr/local/share/zluda-convert/cuda-11.8
if ! [ -x "$cuda11/bin/nvcc" ]; then
	apt-get install -y --no-install-recommends g++-11 xz-utils
	cuda11_tmp=$(mktemp -d)
	chmod 755 "$cuda11_tmp" # apt-get download writes as _apt
	(cd "$cuda11_tmp" && apt-get download nvidia-cuda-toolkit nvidia-cuda-dev)
	mkdir -p "$cuda11_tmp/root"
	dpkg-deb -x "$cuda11_tmp"/nvidia-cuda-toolkit_*.deb "$cuda11_tmp/root"
	dpkg-deb --fsys-tarfile "$cuda11_tmp"/nvidia-cuda-dev_*.deb |
		tar -x -C "$cuda11_tmp/root" ./usr/include ./usr/lib/x86_64-linux-gnu/libcudadevrt.a
	r="$cuda11_tmp/root"
	mkdir -p "$cuda11/bin" "$cuda11/nvvm" "$cuda11/lib64"
	cp "$r/usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$r/usr/lib/nvidia-cuda-toolkit/bin/cicc" \
		"$r/usr/bin/ptxas" "$r/usr/bin/fatbinary" "$r/usr/bin/cudafe++" "$r/usr/bin/nvlink" \
		"$r/usr/bin/bin2c" "$cuda11/bin/"
	cp -r "$r/usr/lib/nvidia-cuda-toolkit/bin/crt" "$cuda11/bin/"
	cp -r "$r/usr/lib/nvidia-cuda-toolkit/libdevice" "$cuda11/nvvm/"
	cp -r "$r/usr/include" "$cuda11/include"
	cp "$r/usr/lib/x86_64-linux-gnu/libcudadevrt.a" "$cuda11/lib64/"
	# cudart 11 is libcudart11.0's, installed above
	ln -sf /usr/lib/x86_64-linux-gnu/libcudart.so.11.0 "$cuda11/lib64/libcudart.so"
	cat >"$cuda11/bin/nvcc.profile" <<'PROFILE'
TOP                = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
PATH              += $(_HERE_):
INCLUDES          += "-I$(TOP)/include" $(_SPACE_)
LIBRARIES          =+ $(_SPACE_) "-L$(TOP)/lib64"
PROFILE
	rm -rf "$cuda11_tmp"
fi
